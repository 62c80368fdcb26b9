//! Bone timelines: rotate, translate, scale, shear (two-value and one-axis forms) and
//! inherit, as spine-ts 4.2 `RotateTimeline` … `InheritTimeline`.
//!
//! Verified by the unit tests below (each blend and direction by hand on a one-bone rig).

use super::{Args, before_first, mix_scale, relative_value};
use crate::anim::{MixBlend, MixDirection, Timeline};
use crate::ids::BoneId;
use crate::instance::Instance;
use crate::rig::Rig;
use crate::types::Inherit;

pub(super) fn rotate(rig: &Rig, inst: &mut Instance, tl: &Timeline, b: BoneId, a: Args) {
    let i = b.index();
    if inst.bone_active[i] {
        inst.pose[i].rotation =
            relative_value(tl, a, inst.pose[i].rotation, rig.bones[i].setup.rotation);
    }
}

pub(super) fn translate_x(rig: &Rig, inst: &mut Instance, tl: &Timeline, b: BoneId, a: Args) {
    let i = b.index();
    if inst.bone_active[i] {
        inst.pose[i].x = relative_value(tl, a, inst.pose[i].x, rig.bones[i].setup.x);
    }
}

pub(super) fn translate_y(rig: &Rig, inst: &mut Instance, tl: &Timeline, b: BoneId, a: Args) {
    let i = b.index();
    if inst.bone_active[i] {
        inst.pose[i].y = relative_value(tl, a, inst.pose[i].y, rig.bones[i].setup.y);
    }
}

pub(super) fn shear_x(rig: &Rig, inst: &mut Instance, tl: &Timeline, b: BoneId, a: Args) {
    let i = b.index();
    if inst.bone_active[i] {
        inst.pose[i].shear_x =
            relative_value(tl, a, inst.pose[i].shear_x, rig.bones[i].setup.shear_x);
    }
}

pub(super) fn shear_y(rig: &Rig, inst: &mut Instance, tl: &Timeline, b: BoneId, a: Args) {
    let i = b.index();
    if inst.bone_active[i] {
        inst.pose[i].shear_y =
            relative_value(tl, a, inst.pose[i].shear_y, rig.bones[i].setup.shear_y);
    }
}

/// The two interpolated values of a two-value timeline at `time` (after the first key).
#[inline]
fn values2(tl: &Timeline, time: f64) -> (f64, f64) {
    let i = tl.search(time, 3);
    // The stride as a constant (translate, scale and shear keys are time, x, y).
    let c = &tl.curves;
    (
        c.value(&tl.frames, 3, time, i, 1),
        c.value(&tl.frames, 3, time, i, 2),
    )
}

/// Shared body of the relative two-value timelines (translate, shear): `cur`/`setup` are
/// the (x, y) pairs; returns the new pair, or `None` to leave the bone alone.
#[inline]
fn relative2(tl: &Timeline, a: Args, cur: (f64, f64), setup: (f64, f64)) -> Option<(f64, f64)> {
    if before_first(tl, a.time) {
        return match a.blend {
            MixBlend::Setup => Some(setup),
            MixBlend::First => Some((
                cur.0 + (setup.0 - cur.0) * a.alpha,
                cur.1 + (setup.1 - cur.1) * a.alpha,
            )),
            _ => None,
        };
    }
    let (x, y) = values2(tl, a.time);
    Some(match a.blend {
        MixBlend::Setup => (setup.0 + x * a.alpha, setup.1 + y * a.alpha),
        // Spine 4.3 `add`: the keys add to the current values.
        MixBlend::First | MixBlend::Replace if a.add => (cur.0 + x * a.alpha, cur.1 + y * a.alpha),
        MixBlend::First | MixBlend::Replace => (
            cur.0 + (setup.0 + x - cur.0) * a.alpha,
            cur.1 + (setup.1 + y - cur.1) * a.alpha,
        ),
        MixBlend::Add => (cur.0 + x * a.alpha, cur.1 + y * a.alpha),
    })
}

pub(super) fn translate(rig: &Rig, inst: &mut Instance, tl: &Timeline, b: BoneId, a: Args) {
    let i = b.index();
    if !inst.bone_active[i] {
        return;
    }
    let s = &rig.bones[i].setup;
    let p = &mut inst.pose[i];
    if let Some((x, y)) = relative2(tl, a, (p.x, p.y), (s.x, s.y)) {
        p.x = x;
        p.y = y;
    }
}

pub(super) fn shear(rig: &Rig, inst: &mut Instance, tl: &Timeline, b: BoneId, a: Args) {
    let i = b.index();
    if !inst.bone_active[i] {
        return;
    }
    let s = &rig.bones[i].setup;
    let p = &mut inst.pose[i];
    if let Some((x, y)) = relative2(tl, a, (p.shear_x, p.shear_y), (s.shear_x, s.shear_y)) {
        p.shear_x = x;
        p.shear_y = y;
    }
}

pub(super) fn scale(rig: &Rig, inst: &mut Instance, tl: &Timeline, b: BoneId, a: Args) {
    let i = b.index();
    if !inst.bone_active[i] {
        return;
    }
    let s = &rig.bones[i].setup;
    let p = &mut inst.pose[i];
    if before_first(tl, a.time) {
        match a.blend {
            MixBlend::Setup => {
                p.scale_x = s.scale_x;
                p.scale_y = s.scale_y;
            }
            MixBlend::First => {
                p.scale_x += (s.scale_x - p.scale_x) * a.alpha;
                p.scale_y += (s.scale_y - p.scale_y) * a.alpha;
            }
            _ => {}
        }
        return;
    }
    let (x, y) = values2(tl, a.time);
    // Scale keys are factors of the setup scale.
    let (x, y) = (x * s.scale_x, y * s.scale_y);
    p.scale_x = mix_scale(a, x, p.scale_x, s.scale_x);
    p.scale_y = mix_scale(a, y, p.scale_y, s.scale_y);
}

/// Spine `getScaleValue` for the one-axis scale timelines.
#[inline]
fn scale_value(tl: &Timeline, a: Args, current: f64, setup: f64) -> f64 {
    if before_first(tl, a.time) {
        return match a.blend {
            MixBlend::Setup => setup,
            MixBlend::First => current + (setup - current) * a.alpha,
            _ => current,
        };
    }
    let value = super::curve_value(tl, a.time) * setup;
    mix_scale(a, value, current, setup)
}

pub(super) fn scale_x(rig: &Rig, inst: &mut Instance, tl: &Timeline, b: BoneId, a: Args) {
    let i = b.index();
    if inst.bone_active[i] {
        inst.pose[i].scale_x = scale_value(tl, a, inst.pose[i].scale_x, rig.bones[i].setup.scale_x);
    }
}

pub(super) fn scale_y(rig: &Rig, inst: &mut Instance, tl: &Timeline, b: BoneId, a: Args) {
    let i = b.index();
    if inst.bone_active[i] {
        inst.pose[i].scale_y = scale_value(tl, a, inst.pose[i].scale_y, rig.bones[i].setup.scale_y);
    }
}

pub(super) fn inherit(
    rig: &Rig,
    inst: &mut Instance,
    tl: &Timeline,
    b: BoneId,
    modes: &[Inherit],
    a: Args,
) {
    let i = b.index();
    if !inst.bone_active[i] {
        return;
    }
    if a.direction == MixDirection::Out {
        if a.blend == MixBlend::Setup {
            inst.inherit[i] = rig.bones[i].inherit;
        }
        return;
    }
    if before_first(tl, a.time) {
        if matches!(a.blend, MixBlend::Setup | MixBlend::First) {
            inst.inherit[i] = rig.bones[i].inherit;
        }
        return;
    }
    if let Some(&m) = modes.get(tl.search(a.time, 1)) {
        inst.inherit[i] = m;
    }
}

#[cfg(test)]
mod tests {
    use super::super::testrig::*;
    use crate::anim::{MixBlend::*, MixDirection::*, TimelineKind as K};
    use crate::ids::BoneId;
    use crate::types::Inherit;

    const B: BoneId = BoneId(1);

    #[test]
    fn rotate_each_blend() {
        // Bone setup rotation 10; keys (0, 0) -> (1, 40); at t = 0.5 the key value is 20.
        let rig = rig();
        let tl = tl1(K::Rotate(B), &[(0.0, 0.0), (1.0, 40.0)]);
        let mut inst = instance(&rig);
        inst.pose[1].rotation = 50.0;
        run(&rig, &mut inst, &tl, 0.5, 0.5, Setup, In);
        assert_eq!(inst.pose[1].rotation, 10.0 + 20.0 * 0.5);
        inst.pose[1].rotation = 50.0;
        run(&rig, &mut inst, &tl, 0.5, 0.5, First, In);
        assert_eq!(inst.pose[1].rotation, 50.0 + (20.0 + 10.0 - 50.0) * 0.5);
        inst.pose[1].rotation = 50.0;
        run(&rig, &mut inst, &tl, 0.5, 0.5, Replace, In);
        assert_eq!(inst.pose[1].rotation, 40.0);
        inst.pose[1].rotation = 50.0;
        run(&rig, &mut inst, &tl, 0.5, 0.5, Add, In);
        assert_eq!(inst.pose[1].rotation, 60.0);
    }

    #[test]
    fn long_timelines_bisect_to_the_scans_pose() {
        // 2,000 keys (some sharing a time), a translate and a rotate: the same bits with the
        // bisecting search as with the official key-by-key scan, at times across the clip.
        let rig = rig();
        let keys: Vec<(f32, f32, f32)> = (0..2000)
            .map(|k| {
                (
                    (k / 2) as f32 / 30.0,
                    (k as f32 * 0.37).sin() * 50.0,
                    k as f32,
                )
            })
            .collect();
        let rot: Vec<(f32, f32)> = keys.iter().map(|k| (k.0, k.1)).collect();
        for tl in [tl2(K::Translate(B), &keys), tl1(K::Rotate(B), &rot)] {
            assert!(tl.sorted, "built from sorted keys");
            let mut scan = tl.clone();
            scan.sorted = false;
            for i in 0..500 {
                let t = f64::from(i) * 0.0671 - 0.5;
                let (mut a, mut b) = (instance(&rig), instance(&rig));
                run(&rig, &mut a, &tl, t, 1.0, Replace, In);
                run(&rig, &mut b, &scan, t, 1.0, Replace, In);
                let bits = |i: &crate::instance::Instance| {
                    let p = &i.pose[1];
                    [p.x.to_bits(), p.y.to_bits(), p.rotation.to_bits()]
                };
                assert_eq!(bits(&a), bits(&b), "time {t}");
            }
        }
    }

    #[test]
    fn before_first_key() {
        let rig = rig();
        let tl = tl1(K::TranslateX(B), &[(0.5, 7.0), (1.0, 9.0)]);
        let mut inst = instance(&rig);
        inst.pose[1].x = 100.0;
        run(&rig, &mut inst, &tl, 0.25, 0.5, Replace, In);
        assert_eq!(inst.pose[1].x, 100.0);
        run(&rig, &mut inst, &tl, 0.25, 0.5, Add, In);
        assert_eq!(inst.pose[1].x, 100.0);
        run(&rig, &mut inst, &tl, 0.25, 0.5, First, In);
        assert_eq!(inst.pose[1].x, 100.0 + (3.0 - 100.0) * 0.5);
        run(&rig, &mut inst, &tl, 0.25, 0.5, Setup, In);
        assert_eq!(inst.pose[1].x, 3.0);
    }

    #[test]
    fn translate_and_shear_pairs() {
        // Setup (3, 4); keys (0: 10, 20) -> (1: 30, 40): at 0.25 the key is (15, 25).
        let rig = rig();
        let tl = tl2(K::Translate(B), &[(0.0, 10.0, 20.0), (1.0, 30.0, 40.0)]);
        let mut inst = instance(&rig);
        run(&rig, &mut inst, &tl, 0.25, 1.0, Setup, In);
        assert_eq!((inst.pose[1].x, inst.pose[1].y), (18.0, 29.0));
        run(&rig, &mut inst, &tl, 0.25, 0.5, Add, In);
        assert_eq!((inst.pose[1].x, inst.pose[1].y), (25.5, 41.5));
        run(&rig, &mut inst, &tl, 0.25, 0.5, Replace, In);
        assert_eq!(inst.pose[1].x, 25.5 + (3.0 + 15.0 - 25.5) * 0.5);
        let sh = tl2(K::Shear(B), &[(0.0, 10.0, 20.0), (1.0, 30.0, 40.0)]);
        run(&rig, &mut inst, &sh, 1.0, 1.0, Setup, In);
        assert_eq!(
            (inst.pose[1].shear_x, inst.pose[1].shear_y),
            (30.0 + 1.0, 40.0 + 2.0)
        );
    }

    #[test]
    fn scale_sign_handling() {
        // Setup scale (2, 2); key factor -0.5 -> value -1.
        let rig = rig();
        let tl = tl2(K::Scale(B), &[(0.0, -0.5, 1.0)]);
        let mut inst = instance(&rig);
        // alpha 1: the value itself.
        run(&rig, &mut inst, &tl, 0.0, 1.0, Setup, In);
        assert_eq!((inst.pose[1].scale_x, inst.pose[1].scale_y), (-1.0, 2.0));
        // Mixing in from setup: start from |setup| with the key's sign: s = -2.
        run(&rig, &mut inst, &tl, 0.0, 0.25, Setup, In);
        assert_eq!(inst.pose[1].scale_x, -2.0 + (-1.0 + 2.0) * 0.25);
        // Mixing out to setup: |value| with the setup's sign.
        run(&rig, &mut inst, &tl, 0.0, 0.25, Setup, Out);
        assert_eq!(inst.pose[1].scale_x, 2.0 + (1.0 - 2.0) * 0.25);
        // Replace, mixing out, current 3: |value| * sign(current).
        inst.pose[1].scale_x = 3.0;
        run(&rig, &mut inst, &tl, 0.0, 0.5, Replace, Out);
        assert_eq!(inst.pose[1].scale_x, 3.0 + (1.0 - 3.0) * 0.5);
        // Add: current + (value - setup) * alpha.
        inst.pose[1].scale_x = 3.0;
        run(&rig, &mut inst, &tl, 0.0, 0.5, Add, In);
        assert_eq!(inst.pose[1].scale_x, 3.0 + (-1.0 - 2.0) * 0.5);
        inst.pose[1].scale_x = 3.0;
        run(&rig, &mut inst, &tl, 0.0, 1.0, Add, In);
        assert_eq!(inst.pose[1].scale_x, 3.0 - 1.0 - 2.0);
        // One-axis form.
        let sx = tl1(K::ScaleY(B), &[(0.0, 1.5)]);
        run(&rig, &mut inst, &sx, 0.0, 1.0, Setup, In);
        assert_eq!(inst.pose[1].scale_y, 3.0);
    }

    #[test]
    fn inherit_is_stepped_and_mixes_out_to_setup() {
        let rig = rig();
        let tl = inherit_tl(
            B,
            &[(0.5, Inherit::NoScale), (1.0, Inherit::OnlyTranslation)],
        );
        let mut inst = instance(&rig);
        run(&rig, &mut inst, &tl, 0.75, 0.1, Replace, In);
        assert_eq!(inst.inherit[1], Inherit::NoScale);
        run(&rig, &mut inst, &tl, 0.75, 1.0, Replace, Out);
        assert_eq!(inst.inherit[1], Inherit::NoScale);
        run(&rig, &mut inst, &tl, 0.75, 1.0, Setup, Out);
        assert_eq!(inst.inherit[1], Inherit::Normal);
        run(&rig, &mut inst, &tl, 2.0, 1.0, Replace, In);
        assert_eq!(inst.inherit[1], Inherit::OnlyTranslation);
        run(&rig, &mut inst, &tl, 0.1, 1.0, First, In);
        assert_eq!(inst.inherit[1], Inherit::Normal);
    }

    #[test]
    fn inactive_bone_is_left_alone() {
        let rig = rig();
        let tl = tl1(K::Rotate(B), &[(0.0, 90.0)]);
        let mut inst = instance(&rig);
        inst.bone_active[1] = false;
        run(&rig, &mut inst, &tl, 0.0, 1.0, Setup, In);
        assert_eq!(inst.pose[1].rotation, 10.0);
    }
}
