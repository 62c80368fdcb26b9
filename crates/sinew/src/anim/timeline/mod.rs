//! Timeline application: one function per timeline kind, each a port of the matching
//! spine-ts 4.2 `Timeline.apply` (same blend/direction cases, same operation order).
//!
//! Values are computed in f64 from f32 keys, as the official runtime does with its
//! `Float32Array` keys and JavaScript numbers. Verified by the unit tests in each submodule,
//! which check every blend (setup, first, replace, add) and direction against hand
//! computations on small rigs.

mod attach;
mod bone;
mod constraint;
mod discrete;
mod slot;

#[cfg(test)]
pub(crate) mod testrig;

pub(crate) use slot::{set_attachment_key, slot_active};

use super::{FiredEvent, MixBlend, MixDirection, Timeline, TimelineKind};
use crate::ids::ClipId;
use crate::instance::Instance;
use crate::rig::Rig;

/// Applies one timeline of `clip` at `time` (Spine `Timeline.apply`). `last_time` is only
/// used by event and physics-reset timelines; `events` receives fired events.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn apply_timeline(
    rig: &Rig,
    inst: &mut Instance,
    clip: ClipId,
    tl: &Timeline,
    last_time: f64,
    time: f64,
    events: Option<&mut Vec<FiredEvent>>,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    dispatch::<false>(
        rig, inst, clip, tl, last_time, time, events, alpha, blend, direction,
    );
}

/// [`apply_timeline`] with Spine 4.3's `add` (an additive track entry's timelines, an
/// additive slider's clip): the
/// timelines that support it add their key values to the value `blend` mixes from
/// ([`MixBlend::Setup`]: the setup value; [`MixBlend::First`] / [`MixBlend::Replace`]: the
/// current value) instead of mixing toward them. `add` is never combined with
/// [`MixBlend::Add`] (Spine 4.2's additive blend).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn apply_timeline_add(
    rig: &Rig,
    inst: &mut Instance,
    clip: ClipId,
    tl: &Timeline,
    last_time: f64,
    time: f64,
    events: Option<&mut Vec<FiredEvent>>,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
    add: bool,
) {
    if add {
        dispatch::<true>(
            rig, inst, clip, tl, last_time, time, events, alpha, blend, direction,
        );
    } else {
        dispatch::<false>(
            rig, inst, clip, tl, last_time, time, events, alpha, blend, direction,
        );
    }
}

/// The timeline dispatch, one copy per `ADD` so the 4.2 path (and every entry without
/// 4.3's `additive`) tests no `add` flag: its `Args::add` is the constant `false`.
#[allow(clippy::too_many_arguments)]
fn dispatch<const ADD: bool>(
    rig: &Rig,
    inst: &mut Instance,
    clip: ClipId,
    tl: &Timeline,
    last_time: f64,
    time: f64,
    events: Option<&mut Vec<FiredEvent>>,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    use TimelineKind as K;
    let a = Args {
        time,
        alpha,
        blend,
        direction,
        add: ADD,
        // COMPAT(dragonbones): its colour multipliers are never clamped (an easing's
        // overshoot passes 1), where Spine's rgba colours are.
        clamp: rig
            .clips
            .get(clip.index())
            .is_none_or(|c| c.playback.is_none()),
    };
    match &tl.kind {
        K::Rotate(b) => bone::rotate(rig, inst, tl, *b, a),
        K::Translate(b) => bone::translate(rig, inst, tl, *b, a),
        K::TranslateX(b) => bone::translate_x(rig, inst, tl, *b, a),
        K::TranslateY(b) => bone::translate_y(rig, inst, tl, *b, a),
        K::Scale(b) => bone::scale(rig, inst, tl, *b, a),
        K::ScaleX(b) => bone::scale_x(rig, inst, tl, *b, a),
        K::ScaleY(b) => bone::scale_y(rig, inst, tl, *b, a),
        K::Shear(b) => bone::shear(rig, inst, tl, *b, a),
        K::ShearX(b) => bone::shear_x(rig, inst, tl, *b, a),
        K::ShearY(b) => bone::shear_y(rig, inst, tl, *b, a),
        K::Inherit { bone: b, modes } => bone::inherit(rig, inst, tl, *b, modes, a),
        K::Attachment { slot, names } => slot::attachment(rig, inst, tl, *slot, names, a),
        K::Rgba(s) => slot::rgba(rig, inst, tl, *s, a),
        K::Rgb(s) => slot::rgb(rig, inst, tl, *s, a),
        K::Alpha(s) => slot::alpha(rig, inst, tl, *s, a),
        K::Rgba2(s) => slot::rgba2(rig, inst, tl, *s, a),
        K::Rgb2(s) => slot::rgb2(rig, inst, tl, *s, a),
        K::Deform { .. } => attach::deform(rig, inst, tl, a),
        K::Sequence { .. } => attach::sequence(rig, inst, tl, a),
        K::DrawOrder { orders } => discrete::draw_order(inst, tl, orders, a),
        K::DrawOrderFolder(f) => discrete::draw_order_folder(inst, tl, &f.slots, &f.orders, a),
        K::Event { keys } => {
            if let Some(out) = events {
                discrete::events(&tl.frames, keys, clip, last_time, time, out);
            }
        }
        K::Ik { constraint, flags } => constraint::ik(rig, inst, tl, *constraint, flags, a),
        K::Transform(c) => constraint::transform(rig, inst, tl, *c, a),
        K::PathPosition(c) => constraint::path_position(rig, inst, tl, *c, a),
        K::PathSpacing(c) => constraint::path_spacing(rig, inst, tl, *c, a),
        K::PathMix(c) => constraint::path_mix(rig, inst, tl, *c, a),
        K::SliderTime(c) => constraint::slider_time(rig, inst, tl, *c, a),
        K::SliderMix(c) => constraint::slider_mix(rig, inst, tl, *c, a),
        K::Physics {
            constraint: c,
            property,
        } => constraint::physics(rig, inst, tl, *c, *property, a),
        K::PhysicsReset(c) => discrete::physics_reset(inst, &tl.frames, *c, last_time, time),
    }
}

/// The per-call arguments every value timeline needs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Args {
    pub time: f64,
    pub alpha: f64,
    pub blend: MixBlend,
    pub direction: MixDirection,
    /// Spine 4.3 `add` (an additive entry): honoured by the timelines 4.3 lets add.
    pub add: bool,
    /// Whether rgba colours clamp to 0..1 (Spine's do; DragonBones' do not).
    pub clamp: bool,
}

/// The value of a one-value timeline at `time` (Spine `CurveTimeline1.getCurveValue`).
#[inline]
pub(crate) fn curve_value(tl: &Timeline, time: f64) -> f64 {
    let i = tl.search(time, 2);
    tl.curves.value(&tl.frames, 2, time, i, 1)
}

/// Whether `time` is before the first key.
#[inline]
pub(crate) fn before_first(tl: &Timeline, time: f64) -> bool {
    tl.frames.first().is_none_or(|&t| time < f64::from(t))
}

/// Spine `getRelativeValue`: values relative to setup (rotate, translate, shear).
#[inline]
pub(crate) fn relative_value(tl: &Timeline, a: Args, current: f64, setup: f64) -> f64 {
    if before_first(tl, a.time) {
        return match a.blend {
            MixBlend::Setup => setup,
            MixBlend::First => current + (setup - current) * a.alpha,
            _ => current,
        };
    }
    let mut value = curve_value(tl, a.time);
    match a.blend {
        MixBlend::Setup => return setup + value * a.alpha,
        MixBlend::First | MixBlend::Replace => {
            if !a.add {
                value += setup - current;
            }
        }
        MixBlend::Add => {}
    }
    current + value * a.alpha
}

/// Spine `getAbsoluteValue`: absolute values (constraint parameters, alpha).
#[inline]
pub(crate) fn absolute_value(tl: &Timeline, a: Args, current: f64, setup: f64) -> f64 {
    if before_first(tl, a.time) {
        return match a.blend {
            MixBlend::Setup => setup,
            MixBlend::First => current + (setup - current) * a.alpha,
            _ => current,
        };
    }
    let value = curve_value(tl, a.time);
    absolute_mix(a, current, setup, value)
}

/// Spine `getAbsoluteValue2`: as [`absolute_value`] with the key value already computed.
#[inline]
pub(crate) fn absolute_value2(tl: &Timeline, a: Args, current: f64, setup: f64, value: f64) -> f64 {
    if before_first(tl, a.time) {
        return match a.blend {
            MixBlend::Setup => setup,
            MixBlend::First => current + (setup - current) * a.alpha,
            _ => current,
        };
    }
    absolute_mix(a, current, setup, value)
}

#[inline]
fn absolute_mix(a: Args, current: f64, setup: f64, value: f64) -> f64 {
    if a.add {
        return absolute_add(a, current, setup, value);
    }
    if a.blend == MixBlend::Setup {
        setup + (value - setup) * a.alpha
    } else {
        current + (value - current) * a.alpha
    }
}

/// Spine 4.3 `getAbsoluteValue` with `add`: the key value added to the setup or current
/// value (out of line: only additive entries take it).
#[inline(never)]
#[cold]
fn absolute_add(a: Args, current: f64, setup: f64, value: f64) -> f64 {
    let base = if a.blend == MixBlend::Setup {
        setup
    } else {
        current
    };
    base + value * a.alpha
}

/// Spine `MathUtils.signum`.
#[inline]
pub(crate) fn signum(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Mixes one scale component the way the official scale timelines do when alpha < 1:
/// COMPAT(spine): mixing out keeps the sign of the setup/current value and mixing in takes
/// the key's sign, so a bone flips instead of collapsing through zero.
#[inline]
pub(crate) fn mix_scale(a: Args, value: f64, current: f64, setup: f64) -> f64 {
    if a.add {
        return add_scale(a, value, current, setup);
    }
    if a.alpha == 1.0 {
        return if a.blend == MixBlend::Add {
            current + value - setup
        } else {
            value
        };
    }
    match (a.direction, a.blend) {
        (MixDirection::Out, MixBlend::Setup) => {
            setup + (value.abs() * signum(setup) - setup) * a.alpha
        }
        (MixDirection::Out, MixBlend::First | MixBlend::Replace) => {
            current + (value.abs() * signum(current) - current) * a.alpha
        }
        (MixDirection::In, MixBlend::Setup) => {
            let s = setup.abs() * signum(value);
            s + (value - s) * a.alpha
        }
        (MixDirection::In, MixBlend::First | MixBlend::Replace) => {
            let s = current.abs() * signum(value);
            s + (value - s) * a.alpha
        }
        (_, MixBlend::Add) => current + (value - setup) * a.alpha,
    }
}

/// Spine 4.3 `getScaleValue` with `add`: the key's change of the setup scale added to the
/// setup or current scale, `value` being the key factor times the setup scale.
#[inline(never)]
#[cold]
pub(crate) fn add_scale(a: Args, value: f64, current: f64, setup: f64) -> f64 {
    let base = if a.blend == MixBlend::Setup {
        setup
    } else {
        current
    };
    base + (value - setup) * a.alpha
}
