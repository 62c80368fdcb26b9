//! Value timelines (bones, slot colours and attachments, constraints, physics): targets
//! resolved to ids, keys packed as `[time, values...]` f32 rows, curves sampled from the
//! raw f64 numbers.

use super::{Built, Ctx};
use crate::raw::{
    BoneProperty, PhysicsProperty, RawCurve, RawKeyData, RawTarget, RawTimeline, SlotProperty,
};
use crate::rig::clip::{IkFlags, TimelineKind};
use crate::rig::curve::Curves;
use crate::rig::problem::ProblemKind;

/// Index of a physics property in Spine's property-code order (inertia .. mix, reset).
pub(super) fn physics_index(p: PhysicsProperty) -> u8 {
    match p {
        PhysicsProperty::Inertia => 0,
        PhysicsProperty::Strength => 1,
        PhysicsProperty::Damping => 2,
        PhysicsProperty::Mass => 3,
        PhysicsProperty::Wind => 4,
        PhysicsProperty::Gravity => 5,
        PhysicsProperty::Mix => 6,
        PhysicsProperty::Reset => 7,
    }
}

/// Compiles a value timeline; `None` (with a problem recorded) when its target is unknown or
/// its keys are malformed.
pub(super) fn build(cx: &mut Ctx<'_>, rt: &RawTimeline) -> Option<Built> {
    let (kind, values) = resolve(cx, rt)?;
    let n = rt.keys.len();
    let mut frames = Vec::with_capacity(n * (values + 1));
    for (k, key) in rt.keys.iter().enumerate() {
        if values > 0 && key.values.len() != values {
            cx.problem(
                ProblemKind::Value,
                format!(
                    "{}: key {k} has {} values, expected {values}",
                    describe(&rt.target),
                    key.values.len()
                ),
            );
            return None;
        }
        // COMPAT(spine): frames are a Float32Array; only the curves see the f64 numbers.
        frames.push(key.time as f32);
        frames.extend(key.values[..values].iter().map(|&v| v as f32));
    }
    let mut curves = Curves::new(n);
    if values > 0 {
        build_curves(cx, rt, values, &mut curves)?;
    }
    Some((kind, frames, curves))
}

/// Samples the curves of a timeline with `values` values per key (Spine `readCurve`).
/// COMPAT(spine): `setBezier` gets the loader's f64 times, values and handles (not the f32
/// frames), so the raw f64 numbers go in unrounded.
fn build_curves(
    cx: &mut Ctx<'_>,
    rt: &RawTimeline,
    values: usize,
    curves: &mut Curves,
) -> Option<()> {
    for k in 0..rt.keys.len().saturating_sub(1) {
        let (a, b) = (&rt.keys[k], &rt.keys[k + 1]);
        match &a.curve {
            RawCurve::Linear => {}
            RawCurve::Stepped => curves.set_stepped(k),
            &RawCurve::Eased { easing, hundredths } => curves.set_eased(k, easing, hundredths),
            RawCurve::Bezier(c) => {
                if c.len() < values * 4 {
                    cx.problem(
                        ProblemKind::Value,
                        format!(
                            "{}: key {k} curve has {} numbers, expected {}",
                            describe(&rt.target),
                            c.len(),
                            values * 4
                        ),
                    );
                    return None;
                }
                for v in 0..values {
                    let h = &c[v * 4..v * 4 + 4];
                    curves.push_bezier(
                        k,
                        v,
                        a.time,
                        a.values[v],
                        h[0],
                        h[1],
                        h[2],
                        h[3],
                        b.time,
                        b.values[v],
                    );
                }
            }
        }
    }
    Some(())
}

/// A short description of a target for messages.
pub(super) fn describe(t: &RawTarget) -> String {
    match t {
        RawTarget::Bone { bone, property } => format!("bone `{bone}` {property:?} timeline"),
        RawTarget::Slot { slot, property } => format!("slot `{slot}` {property:?} timeline"),
        RawTarget::Ik(n) => format!("IK `{n}` timeline"),
        RawTarget::Transform(n) => format!("transform constraint `{n}` timeline"),
        RawTarget::PathPosition(n) | RawTarget::PathSpacing(n) | RawTarget::PathMix(n) => {
            format!("path constraint `{n}` timeline")
        }
        RawTarget::SliderTime(n) | RawTarget::SliderMix(n) => format!("slider `{n}` timeline"),
        RawTarget::Physics {
            constraint,
            property,
        } => {
            format!(
                "physics `{}` {property:?} timeline",
                constraint.as_deref().unwrap_or("")
            )
        }
        RawTarget::Deform {
            skin,
            slot,
            attachment,
        } => format!("deform `{skin}/{slot}/{attachment}`"),
        RawTarget::Sequence {
            skin,
            slot,
            attachment,
        } => format!("sequence `{skin}/{slot}/{attachment}`"),
        RawTarget::DrawOrder => "draw order timeline".into(),
        RawTarget::DrawOrderFolder { slots } => format!("draw order folder {slots:?}"),
        RawTarget::Event => "event timeline".into(),
    }
}

/// Resolves a value timeline's target: the kind (with discrete payloads) and the number of
/// interpolated values per key.
fn resolve(cx: &mut Ctx<'_>, rt: &RawTimeline) -> Option<(TimelineKind, usize)> {
    use TimelineKind as K;
    let missing = |cx: &mut Ctx<'_>, what: &str, name: &str| {
        cx.problem(
            ProblemKind::UnknownName,
            format!("{}: unknown {what} `{name}`", describe(&rt.target)),
        );
        None
    };
    Some(match &rt.target {
        RawTarget::Bone { bone, property } => {
            let Some(b) = cx.rig.bone(bone) else {
                return missing(cx, "bone", bone);
            };
            match property {
                BoneProperty::Rotate => (K::Rotate(b), 1),
                BoneProperty::Translate => (K::Translate(b), 2),
                BoneProperty::TranslateX => (K::TranslateX(b), 1),
                BoneProperty::TranslateY => (K::TranslateY(b), 1),
                BoneProperty::Scale => (K::Scale(b), 2),
                BoneProperty::ScaleX => (K::ScaleX(b), 1),
                BoneProperty::ScaleY => (K::ScaleY(b), 1),
                BoneProperty::Shear => (K::Shear(b), 2),
                BoneProperty::ShearX => (K::ShearX(b), 1),
                BoneProperty::ShearY => (K::ShearY(b), 1),
                BoneProperty::Inherit => {
                    let mut modes = Vec::with_capacity(rt.keys.len());
                    for key in &rt.keys {
                        let RawKeyData::Inherit(m) = key.data else {
                            cx.problem(
                                ProblemKind::Value,
                                format!("{}: key without an inherit mode", describe(&rt.target)),
                            );
                            return None;
                        };
                        modes.push(m);
                    }
                    (K::Inherit { bone: b, modes }, 0)
                }
            }
        }
        RawTarget::Slot { slot, property } => {
            let Some(s) = cx.rig.slot(slot) else {
                return missing(cx, "slot", slot);
            };
            match property {
                SlotProperty::Attachment => {
                    let mut names = Vec::with_capacity(rt.keys.len());
                    for key in &rt.keys {
                        let RawKeyData::Attachment(name) = &key.data else {
                            cx.problem(
                                ProblemKind::Value,
                                format!("{}: key without an attachment name", describe(&rt.target)),
                            );
                            return None;
                        };
                        // COMPAT(spine): an empty name hides the attachment, like null.
                        names.push(
                            name.as_deref()
                                .filter(|n| !n.is_empty())
                                .map(|n| crate::build::intern_key(cx.rig, n)),
                        );
                    }
                    (K::Attachment { slot: s, names }, 0)
                }
                SlotProperty::Rgba => (K::Rgba(s), 4),
                SlotProperty::Rgb => (K::Rgb(s), 3),
                SlotProperty::Alpha => (K::Alpha(s), 1),
                SlotProperty::Rgba2 => (K::Rgba2(s), 7),
                SlotProperty::Rgb2 => (K::Rgb2(s), 6),
            }
        }
        RawTarget::Ik(name) => {
            let Some(&c) = cx.rig.names.ik.get(name) else {
                return missing(cx, "IK constraint", name);
            };
            let mut flags = Vec::with_capacity(rt.keys.len());
            for key in &rt.keys {
                let f = match key.data {
                    RawKeyData::IkFlags {
                        bend_positive,
                        compress,
                        stretch,
                    } => IkFlags {
                        bend_direction: if bend_positive { 1 } else { -1 },
                        compress,
                        stretch,
                    },
                    // Keys without flags take the JSON defaults.
                    _ => IkFlags {
                        bend_direction: 1,
                        compress: false,
                        stretch: false,
                    },
                };
                flags.push(f);
            }
            (
                K::Ik {
                    constraint: c,
                    flags,
                },
                2,
            )
        }
        RawTarget::Transform(name) => match cx.rig.names.transforms.get(name) {
            Some(&c) => (K::Transform(c), 6),
            None => return missing(cx, "transform constraint", name),
        },
        RawTarget::PathPosition(name) | RawTarget::PathSpacing(name) | RawTarget::PathMix(name) => {
            let Some(&c) = cx.rig.names.paths.get(name) else {
                return missing(cx, "path constraint", name);
            };
            match rt.target {
                RawTarget::PathPosition(_) => (K::PathPosition(c), 1),
                RawTarget::PathSpacing(_) => (K::PathSpacing(c), 1),
                _ => (K::PathMix(c), 3),
            }
        }
        RawTarget::SliderTime(name) | RawTarget::SliderMix(name) => {
            let Some(&c) = cx.rig.names.sliders.get(name) else {
                return missing(cx, "slider", name);
            };
            match rt.target {
                RawTarget::SliderTime(_) => (K::SliderTime(c), 1),
                _ => (K::SliderMix(c), 1),
            }
        }
        RawTarget::Physics {
            constraint,
            property,
        } => {
            let c = match constraint {
                None => None,
                Some(name) => match cx.rig.names.physics.get(name) {
                    Some(&c) => Some(c),
                    None => return missing(cx, "physics constraint", name),
                },
            };
            match property {
                PhysicsProperty::Reset => (K::PhysicsReset(c), 0),
                p => (
                    K::Physics {
                        constraint: c,
                        property: *p,
                    },
                    1,
                ),
            }
        }
        RawTarget::Deform { .. }
        | RawTarget::Sequence { .. }
        | RawTarget::DrawOrder
        | RawTarget::DrawOrderFolder { .. }
        | RawTarget::Event => {
            return None;
        }
    })
}
