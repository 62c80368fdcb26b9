//! Slot timelines: attachment switches and colours (rgba, rgb, alpha, rgba2, rgb2), as
//! spine-ts 4.2 `AttachmentTimeline`, `RGBATimeline` … `RGB2Timeline`.
//!
//! COMPAT(spine): only the official `Color.set`/`Color.add` paths clamp to 0..1 (rgba and
//! the light colour of rgba2); the rgb, alpha and dark-colour paths assign unclamped, so a
//! Bezier overshoot survives there exactly as in spine-ts. Slot colours are stored as f32
//! (the official runtime keeps f64), computed here in f64.
//!
//! Verified by the unit tests below (each blend by hand; clamping).

use super::{Args, before_first, curve_value};
use crate::anim::{MixBlend, MixDirection, Timeline};
use crate::ids::{NameId, SlotId};
use crate::instance::Instance;
use crate::rig::Rig;
use crate::types::Color;

/// Shows the attachment a slot finds for `key` (none for `None`), via the instance's skin
/// then the default skin (Spine `AttachmentTimeline.setAttachment`).
pub(crate) fn set_attachment_key(
    rig: &Rig,
    inst: &mut Instance,
    slot: SlotId,
    key: Option<NameId>,
) {
    let att = key.and_then(|k| inst.lookup_attachment(rig, slot, k));
    inst.attach(rig, slot, att);
}

/// Whether a slot's bone is active.
#[inline]
pub(crate) fn slot_active(rig: &Rig, inst: &Instance, slot: SlotId) -> bool {
    inst.bone_active[rig.slots[slot.index()].bone.index()]
}

pub(super) fn attachment(
    rig: &Rig,
    inst: &mut Instance,
    tl: &Timeline,
    slot: SlotId,
    names: &[Option<NameId>],
    a: Args,
) {
    if !slot_active(rig, inst, slot) {
        return;
    }
    let setup = rig.slots[slot.index()].attachment;
    if a.direction == MixDirection::Out {
        if a.blend == MixBlend::Setup {
            set_attachment_key(rig, inst, slot, setup);
        }
        return;
    }
    if before_first(tl, a.time) {
        if matches!(a.blend, MixBlend::Setup | MixBlend::First) {
            set_attachment_key(rig, inst, slot, setup);
        }
        return;
    }
    let key = names.get(tl.search(a.time, 1)).copied().flatten();
    set_attachment_key(rig, inst, slot, key);
}

/// A colour in f64 for mixing.
#[derive(Clone, Copy)]
struct C4 {
    r: f64,
    g: f64,
    b: f64,
    a: f64,
}

impl C4 {
    fn of(c: Color) -> Self {
        C4 {
            r: f64::from(c.r),
            g: f64::from(c.g),
            b: f64::from(c.b),
            a: f64::from(c.a),
        }
    }
    fn store(self) -> Color {
        Color::new(self.r as f32, self.g as f32, self.b as f32, self.a as f32)
    }
    /// Spine `Color.clamp`, when `clamp`.
    fn clamped_if(self, clamp: bool) -> Self {
        if clamp { self.clamped() } else { self }
    }
    /// Spine `Color.clamp`.
    fn clamped(self) -> Self {
        C4 {
            r: self.r.clamp(0.0, 1.0),
            g: self.g.clamp(0.0, 1.0),
            b: self.b.clamp(0.0, 1.0),
            a: self.a.clamp(0.0, 1.0),
        }
    }
    /// Spine `Color.add(...)` toward `to` by `alpha` (clamps when `clamp`).
    fn add_toward(self, to: C4, alpha: f64, clamp: bool) -> Self {
        C4 {
            r: self.r + (to.r - self.r) * alpha,
            g: self.g + (to.g - self.g) * alpha,
            b: self.b + (to.b - self.b) * alpha,
            a: self.a + (to.a - self.a) * alpha,
        }
        .clamped_if(clamp)
    }
    /// Moves r, g, b toward `to` by `alpha` without clamping.
    fn rgb_toward(mut self, to: C4, alpha: f64) -> Self {
        self.r += (to.r - self.r) * alpha;
        self.g += (to.g - self.g) * alpha;
        self.b += (to.b - self.b) * alpha;
        self
    }
    fn with_rgb(mut self, o: C4) -> Self {
        self.r = o.r;
        self.g = o.g;
        self.b = o.b;
        self
    }
}

fn setup_light(rig: &Rig, s: usize) -> C4 {
    C4::of(rig.slots[s].color)
}

fn setup_dark(rig: &Rig, s: usize) -> C4 {
    C4::of(rig.slots[s].dark.unwrap_or(Color::BLACK))
}

/// The interpolated values 1..=N of a colour key at `a.time`.
fn values<const N: usize>(tl: &Timeline, time: f64) -> [f64; N] {
    // The key is the time and the N values: the stride as a constant.
    let i = tl.search(time, N + 1);
    std::array::from_fn(|k| tl.curves.value(&tl.frames, N + 1, time, i, k + 1))
}

pub(super) fn rgba(rig: &Rig, inst: &mut Instance, tl: &Timeline, slot: SlotId, a: Args) {
    if !slot_active(rig, inst, slot) {
        return;
    }
    let s = slot.index();
    let color = C4::of(inst.slots.color[s]);
    let new = if before_first(tl, a.time) {
        match a.blend {
            MixBlend::Setup => setup_light(rig, s),
            MixBlend::First => color.add_toward(setup_light(rig, s), a.alpha, a.clamp),
            _ => return,
        }
    } else {
        let [r, g, b, al] = values::<4>(tl, a.time);
        let key = C4 { r, g, b, a: al };
        if a.alpha == 1.0 {
            key.clamped_if(a.clamp)
        } else {
            let from = if a.blend == MixBlend::Setup {
                setup_light(rig, s)
            } else {
                color
            };
            from.add_toward(key, a.alpha, a.clamp)
        }
    };
    inst.slots.color[s] = new.store();
}

pub(super) fn rgb(rig: &Rig, inst: &mut Instance, tl: &Timeline, slot: SlotId, a: Args) {
    if !slot_active(rig, inst, slot) {
        return;
    }
    let s = slot.index();
    let color = C4::of(inst.slots.color[s]);
    let new = if before_first(tl, a.time) {
        match a.blend {
            MixBlend::Setup => color.with_rgb(setup_light(rig, s)),
            MixBlend::First => color.rgb_toward(setup_light(rig, s), a.alpha),
            _ => return,
        }
    } else {
        let [r, g, b] = values::<3>(tl, a.time);
        let key = C4 { r, g, b, a: 0.0 };
        if a.alpha == 1.0 {
            color.with_rgb(key)
        } else {
            let from = if a.blend == MixBlend::Setup {
                color.with_rgb(setup_light(rig, s))
            } else {
                color
            };
            from.rgb_toward(key, a.alpha)
        }
    };
    inst.slots.color[s] = new.store();
}

pub(super) fn alpha(rig: &Rig, inst: &mut Instance, tl: &Timeline, slot: SlotId, a: Args) {
    if !slot_active(rig, inst, slot) {
        return;
    }
    let s = slot.index();
    let current = f64::from(inst.slots.color[s].a);
    let setup = f64::from(rig.slots[s].color.a);
    let new = if before_first(tl, a.time) {
        match a.blend {
            MixBlend::Setup => setup,
            MixBlend::First => current + (setup - current) * a.alpha,
            _ => return,
        }
    } else {
        let v = curve_value(tl, a.time);
        if a.alpha == 1.0 {
            v
        } else {
            let from = if a.blend == MixBlend::Setup {
                setup
            } else {
                current
            };
            from + (v - from) * a.alpha
        }
    };
    inst.slots.color[s].a = new as f32;
}

pub(super) fn rgba2(rig: &Rig, inst: &mut Instance, tl: &Timeline, slot: SlotId, a: Args) {
    if !slot_active(rig, inst, slot) {
        return;
    }
    let s = slot.index();
    let light = C4::of(inst.slots.color[s]);
    let dark = C4::of(inst.slots.dark[s]);
    let (nl, nd) = if before_first(tl, a.time) {
        match a.blend {
            MixBlend::Setup => (setup_light(rig, s), dark.with_rgb(setup_dark(rig, s))),
            MixBlend::First => (
                light.add_toward(setup_light(rig, s), a.alpha, a.clamp),
                dark.rgb_toward(setup_dark(rig, s), a.alpha),
            ),
            _ => return,
        }
    } else {
        let [r, g, b, al, r2, g2, b2] = values::<7>(tl, a.time);
        let kl = C4 { r, g, b, a: al };
        let kd = C4 {
            r: r2,
            g: g2,
            b: b2,
            a: 0.0,
        };
        if a.alpha == 1.0 {
            (kl.clamped_if(a.clamp), dark.with_rgb(kd))
        } else if a.blend == MixBlend::Setup {
            let sd = dark.with_rgb(setup_dark(rig, s));
            (
                setup_light(rig, s).add_toward(kl, a.alpha, a.clamp),
                sd.rgb_toward(kd, a.alpha),
            )
        } else {
            (
                light.add_toward(kl, a.alpha, a.clamp),
                dark.rgb_toward(kd, a.alpha),
            )
        }
    };
    inst.slots.color[s] = nl.store();
    inst.slots.dark[s] = nd.store();
}

pub(super) fn rgb2(rig: &Rig, inst: &mut Instance, tl: &Timeline, slot: SlotId, a: Args) {
    if !slot_active(rig, inst, slot) {
        return;
    }
    let s = slot.index();
    let light = C4::of(inst.slots.color[s]);
    let dark = C4::of(inst.slots.dark[s]);
    let (nl, nd) = if before_first(tl, a.time) {
        match a.blend {
            MixBlend::Setup => (
                light.with_rgb(setup_light(rig, s)),
                dark.with_rgb(setup_dark(rig, s)),
            ),
            MixBlend::First => (
                light.rgb_toward(setup_light(rig, s), a.alpha),
                dark.rgb_toward(setup_dark(rig, s), a.alpha),
            ),
            _ => return,
        }
    } else {
        let [r, g, b, r2, g2, b2] = values::<6>(tl, a.time);
        let kl = C4 { r, g, b, a: 0.0 };
        let kd = C4 {
            r: r2,
            g: g2,
            b: b2,
            a: 0.0,
        };
        if a.alpha == 1.0 {
            (light.with_rgb(kl), dark.with_rgb(kd))
        } else {
            let (fl, fd) = if a.blend == MixBlend::Setup {
                (
                    light.with_rgb(setup_light(rig, s)),
                    dark.with_rgb(setup_dark(rig, s)),
                )
            } else {
                (light, dark)
            };
            (fl.rgb_toward(kl, a.alpha), fd.rgb_toward(kd, a.alpha))
        }
    };
    inst.slots.color[s] = nl.store();
    inst.slots.dark[s] = nd.store();
}

#[cfg(test)]
mod tests {
    use super::super::testrig::*;
    use crate::anim::{MixBlend::*, MixDirection::*, TimelineKind as K};
    use crate::ids::{AttachmentId, NameId, SlotId};
    use crate::types::Color;

    const S: SlotId = SlotId(0);

    #[test]
    fn attachment_switches_and_mixes_out() {
        let rig = rig();
        let tl = times(
            K::Attachment {
                slot: S,
                names: vec![Some(NameId(1)), None],
            },
            &[0.5, 1.0],
        );
        let mut inst = instance(&rig);
        assert_eq!(inst.slots.attachment[0], Some(AttachmentId(0)));
        run(&rig, &mut inst, &tl, 0.75, 1.0, Replace, In);
        assert_eq!(inst.slots.attachment[0], Some(AttachmentId(1)));
        run(&rig, &mut inst, &tl, 1.0, 1.0, Replace, In);
        assert_eq!(inst.slots.attachment[0], None);
        // Before the first key only setup/first restore the setup attachment.
        run(&rig, &mut inst, &tl, 0.1, 1.0, Replace, In);
        assert_eq!(inst.slots.attachment[0], None);
        run(&rig, &mut inst, &tl, 0.1, 1.0, First, In);
        assert_eq!(inst.slots.attachment[0], Some(AttachmentId(0)));
        run(&rig, &mut inst, &tl, 0.75, 1.0, Replace, In);
        run(&rig, &mut inst, &tl, 0.75, 1.0, Replace, Out);
        assert_eq!(inst.slots.attachment[0], Some(AttachmentId(1)));
        run(&rig, &mut inst, &tl, 0.75, 1.0, Setup, Out);
        assert_eq!(inst.slots.attachment[0], Some(AttachmentId(0)));
    }

    #[test]
    fn rgba_clamps_and_mixes() {
        let rig = rig();
        let tl = tln(
            K::Rgba(S),
            &[&[0.0, 0.0, 0.0, 0.0, 0.0], &[1.0, 2.0, 1.0, 0.5, 0.5]],
        );
        let mut inst = instance(&rig);
        // t = 1: (2, 1, .5, .5) clamped to (1, 1, .5, .5).
        run(&rig, &mut inst, &tl, 1.0, 1.0, Replace, In);
        assert_eq!(inst.slots.color[0], Color::new(1.0, 1.0, 0.5, 0.5));
        // Setup blend, alpha .5 at t = .5 (key .5*(2,1,.5,.5)): from setup (1,.5,.25,1).
        run(&rig, &mut inst, &tl, 0.5, 0.5, Setup, In);
        assert_eq!(inst.slots.color[0], Color::new(1.0, 0.5, 0.25, 0.625));
        run(&rig, &mut inst, &tl, -1.0, 1.0, Setup, In);
        assert_eq!(inst.slots.color[0], rig.slots[0].color);
    }

    #[test]
    fn rgb_and_alpha_do_not_clamp() {
        let rig = rig();
        let tl = tln(K::Rgb(S), &[&[0.0, 1.5, -0.5, 0.5]]);
        let mut inst = instance(&rig);
        run(&rig, &mut inst, &tl, 0.0, 1.0, Replace, In);
        assert_eq!(inst.slots.color[0], Color::new(1.5, -0.5, 0.5, 1.0));
        let al = tl1(K::Alpha(S), &[(0.0, 0.0), (1.0, 1.0)]);
        run(&rig, &mut inst, &al, 0.5, 0.5, Setup, In);
        assert_eq!(inst.slots.color[0].a, 0.75);
        run(&rig, &mut inst, &al, 0.5, 0.5, Replace, In);
        assert_eq!(inst.slots.color[0].a, 0.625);
    }

    #[test]
    fn two_colour_timelines() {
        let rig = rig();
        let tl = tln(K::Rgba2(S), &[&[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]]);
        let mut inst = instance(&rig);
        run(&rig, &mut inst, &tl, 0.0, 0.5, Setup, In);
        assert_eq!(inst.slots.color[0], Color::new(0.5, 0.25, 0.125, 1.0));
        let d = inst.slots.dark[0];
        assert!((d.r - 0.55).abs() < 1e-7 && (d.g - 0.6).abs() < 1e-7 && (d.b - 0.65).abs() < 1e-7);
        let tl2 = tln(K::Rgb2(S), &[&[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0]]);
        run(&rig, &mut inst, &tl2, 0.0, 1.0, Replace, In);
        assert_eq!(inst.slots.color[0], Color::new(0.0, 0.0, 0.0, 1.0));
        assert_eq!(inst.slots.dark[0], Color::new(1.0, 1.0, 1.0, 1.0));
        run(&rig, &mut inst, &tl2, -1.0, 1.0, Setup, In);
        assert_eq!(inst.slots.color[0], Color::new(1.0, 0.5, 0.25, 1.0));
        assert_eq!(inst.slots.dark[0], Color::new(0.1, 0.2, 0.3, 1.0));
    }
}
