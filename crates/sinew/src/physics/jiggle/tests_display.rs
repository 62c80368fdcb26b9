//! What a frame shows: the simulation at the frame's own time. A frame on the step grid shows
//! the step just taken (three-vrm's current update, not its previous one; the 3D solver's
//! returned transforms are checked in `tests.rs`), a frame between
//! steps the last step advanced by the rest of a step, and the frame an animated parent
//! jumps shows where the physics has the jiggle bone (closed forms, spring and Verlet, 2D and
//! 3D), with no pop back on the next frame. Displayed poses agree across frame rates.

use super::tests::vrm;
use super::*;
use crate::instance::Instance;
use crate::math::{SPINE_DEG_RAD, Vec2, WorldTransform};
use crate::raw::{RawBone, RawRig};
use crate::rig::Rig;
use crate::skeleton::update_world_transform;
use crate::types::Physics;

const H: f64 = 1.0 / 60.0;

/// `root` with a chain of `n` bones `j1..jn`, each `len` long, starting at the root and
/// pointing along `rotation` degrees.
fn chain_rig(n: usize, len: f64, rotation: f64) -> Rig {
    let mut raw = RawRig::default();
    raw.bones.push(RawBone::new("root", None));
    for i in 1..=n {
        let parent = if i == 1 {
            "root".to_owned()
        } else {
            format!("j{}", i - 1)
        };
        let mut b = RawBone::new(&format!("j{i}"), Some(&parent));
        b.length = len;
        if i == 1 {
            b.rotation = rotation;
        } else {
            b.x = len;
        }
        raw.bones.push(b);
    }
    crate::build::build_rig(&raw).unwrap_or_else(|e| panic!("chain rig: {e}"))
}

fn bone(rig: &Rig, name: &str) -> usize {
    rig.bone(name)
        .unwrap_or_else(|| panic!("bone {name}"))
        .index()
}

/// The signed angle (degrees) from `w`'s x axis to `v`'s.
fn angle_off(anim: &WorldTransform, shown: &WorldTransform) -> f64 {
    let (ax, ay) = (anim.a, anim.c);
    let (bx, by) = (shown.a, shown.c);
    (ax * by - ay * bx).atan2(ax * bx + ay * by).to_degrees()
}

/// The displayed pose through the rig stage follows three-vrm's current update at the step
/// rate (the old display showed the step before).
#[test]
fn rig_stage_shows_three_vrms_current_update() {
    for name in vrm::SCENARIOS {
        let frames = vrm::fixture(name);
        if frames.is_empty() {
            continue;
        }
        let rig = chain_rig(3, 0.1, if vrm::lying(name) { 0.0 } else { -90.0 });
        let mut d = JiggleDesc::new();
        d.gravity = [0.0, -9.8];
        d.clock.step_hz = 60.0;
        let params = JiggleParams {
            vrm_stale_length: true,
            gravity: vrm::gravity(name),
            ..JiggleParams::vrm(1.0, 0.4, 0.0, 0.02)
        };
        let mut chain = ChainDesc::new("vrm", &["j1", "j2", "j3"], params);
        if vrm::collider(name) {
            d.colliders.push(ColliderDesc {
                name: "ball".to_owned(),
                bone: "root".to_owned(),
                shape: ColliderShape::Circle {
                    offset: [0.06, -0.2],
                    radius: 0.05,
                },
            });
            chain.colliders.push("ball".to_owned());
        }
        d.chains.push(chain);
        let jr = JiggleRig::build(&rig, &d).expect("attaches");
        let mut inst = Instance::new(&rig);
        let mut js = JiggleState::new(&jr);
        update_world_transform(&rig, &mut inst, Physics::None);
        js.update(&rig, &jr, &mut inst, 0.0);
        let j3 = bone(&rig, "j3");
        let mut worst: f64 = 0.0;
        for (k, (_, x, y)) in frames.into_iter().enumerate() {
            let t = (k + 1) as f64 * H;
            inst.x = if !vrm::lying(name) && t >= 0.1 {
                0.2
            } else {
                0.0
            };
            update_world_transform(&rig, &mut inst, Physics::None);
            js.update(&rig, &jr, &mut inst, H);
            let Vec2 { x: tx, y: ty } = inst.world[j3].apply(Vec2::new(0.1, 0.0));
            worst = worst.max((tx - x).abs()).max((ty - y).abs());
        }
        assert!(worst < 1e-6, "{name}: {worst}");
    }
}

/// `x(h)` of a unit displacement released at rest, for the spring constants of `p`
/// (closed form of the damped oscillator; math.md §B.2).
fn released(p: &JiggleParams, h: f64) -> f64 {
    let w0 = (p.stiffness / p.mass).sqrt();
    let zeta = p.damping / (2.0 * (p.stiffness * p.mass).sqrt());
    assert!(zeta < 1.0, "the test springs are underdamped");
    let wd = w0 * (1.0 - zeta * zeta).sqrt();
    (-zeta * w0 * h).exp() * ((wd * h).cos() + zeta * w0 / wd * (wd * h).sin())
}

/// An arm at the world origin whose rotation steps by `jump` degrees at frame `jump_frame`,
/// and a 100-unit hair hanging from the arm's origin, jiggled with `params`; returns, per
/// frame, the hair's displayed angle off its animated direction and its displayed tip.
fn stepped_parent(
    params: JiggleParams,
    fps: f64,
    jump_frame: u32,
    frames: u32,
    jump: f64,
) -> Vec<(f64, (f64, f64))> {
    let mut raw = RawRig::default();
    raw.bones.push(RawBone::new("arm", None));
    let mut hair = RawBone::new("hair", Some("arm"));
    hair.length = 100.0;
    hair.rotation = -90.0;
    raw.bones.push(hair);
    let rig = crate::build::build_rig(&raw).unwrap_or_else(|e| panic!("{e}"));
    let mut d = JiggleDesc::new();
    d.chains.push(ChainDesc::new("hair", &["hair"], params));
    let jr = JiggleRig::build(&rig, &d).expect("attaches");
    let (arm, hair) = (bone(&rig, "arm"), bone(&rig, "hair"));
    let mut inst = Instance::new(&rig);
    let mut js = JiggleState::new(&jr);
    update_world_transform(&rig, &mut inst, Physics::None);
    js.update(&rig, &jr, &mut inst, 0.0);
    let mut out = Vec::new();
    for f in 1..=frames {
        inst.pose[arm].rotation = if f >= jump_frame { jump } else { 0.0 };
        update_world_transform(&rig, &mut inst, Physics::None);
        let anim = inst.world[hair];
        js.update(&rig, &jr, &mut inst, 1.0 / fps);
        out.push((angle_off(&anim, &inst.world[hair]), {
            let tip = inst.world[hair].apply(Vec2::new(100.0, 0.0));
            (tip.x, tip.y)
        }));
    }
    out
}

/// Where one spring step of `h` from rest at the old tip puts the hair after its target
/// turned by `jump` degrees: the tip released toward the new target, back on its length.
fn spring_after(p: &JiggleParams, h: f64, jump: f64) -> (f64, (f64, f64)) {
    let old = (0.0, -100.0);
    // The bone turned by `jump` in Spine's degrees (COMPAT(spine) pi).
    let r = jump * SPINE_DEG_RAD;
    let new = (100.0 * r.sin(), -100.0 * r.cos());
    let m = released(p, h);
    let free = (new.0 + m * (old.0 - new.0), new.1 + m * (old.1 - new.1));
    let l = free.0.hypot(free.1);
    let tip = (100.0 * free.0 / l, 100.0 * free.1 / l);
    let off = (new.0 * tip.1 - new.1 * tip.0).atan2(new.0 * tip.0 + new.1 * tip.1);
    (off.to_degrees(), tip)
}

/// Where one Verlet step (`fraction` of a step's pull) from rest puts a 100-unit hair whose
/// target turned by `jump` degrees: the stiffness pull toward the new direction, back on
/// its length.
fn verlet_after(p: &JiggleParams, jump: f64, fraction: f64) -> (f64, (f64, f64)) {
    let r = jump * SPINE_DEG_RAD;
    let a = (r.sin(), -r.cos());
    let pull = p.stiffness * H * p.unit_scale * fraction;
    let free = (a.0 * pull, -100.0 + a.1 * pull);
    let l = free.0.hypot(free.1);
    let tip = (100.0 * free.0 / l, 100.0 * free.1 / l);
    let off = (a.0 * tip.1 - a.1 * tip.0).atan2(a.0 * tip.0 + a.1 * tip.1);
    (off.to_degrees(), tip)
}

fn check_jump_frame(got: (f64, (f64, f64)), want: (f64, (f64, f64)), jump: f64, what: &str) {
    assert!(
        (got.0 - want.0).abs() < 1e-9
            && (got.1.0 - want.1.0).abs() < 1e-9
            && (got.1.1 - want.1.1).abs() < 1e-9,
        "{what}: shown {got:?}, physics {want:?}"
    );
    // Between "not moved yet" (-jump) and the animated pose, and not the animated pose.
    assert!(
        got.0 < -0.5 * jump && got.0 >= -jump - 1e-6,
        "{what}: {got:?}"
    );
}

/// After the jump frame the hair swings back smoothly (no pop back to its old place) over
/// the next `frames` frames (within the spring's first quarter period).
fn check_no_pop(shown: &[(f64, (f64, f64))], jump_index: usize, jump: f64, frames: usize) {
    let mut last = shown[jump_index].0;
    for (k, (a, _)) in shown.iter().enumerate().skip(jump_index + 1).take(frames) {
        assert!(
            *a <= 0.0 && *a >= last - 1e-12,
            "frame {k}: {a} after {last}"
        );
        assert!(
            *a - last < 0.25 * jump,
            "frame {k}: jumped from {last} to {a}"
        );
        last = *a;
    }
    for (k, (a, _)) in shown.iter().enumerate().take(jump_index) {
        assert!(a.abs() < 1e-9, "frame {k} before the jump: {a}");
    }
}

#[test]
fn the_frame_a_spring_parent_jumps_shows_the_physics() {
    let p = JiggleParams::default();
    let jump = 2.0;
    // 60 fps: the jump frame is on the step grid and shows exactly one step.
    let shown = stepped_parent(p, 60.0, 30, 40, jump);
    check_jump_frame(shown[29], spring_after(&p, H, jump), jump, "60 fps");
    check_no_pop(&shown, 29, jump, 5);
    // 30 fps: two steps per frame; the jump frame's steps see the turn spread over the frame
    // (inputs are interpolated), so only the bounds and the smoothness are closed.
    let shown = stepped_parent(p, 30.0, 15, 25, jump);
    assert!(shown[14].0 < 0.0 && shown[14].0 > -jump, "{:?}", shown[14]);
    check_no_pop(&shown, 14, jump, 2);
    // 144 fps, jumping at frame 73 (t = 0.5069 s), which holds no step: the last step (at
    // 0.5 s) advanced by the 5/12 of a step left to the frame.
    let shown = stepped_parent(p, 144.0, 73, 90, jump);
    let rest = 73.0 / 144.0 - 30.0 * H;
    check_jump_frame(shown[72], spring_after(&p, rest, jump), jump, "144 fps");
    check_no_pop(&shown, 72, jump, 12);
}

#[test]
fn the_frame_a_verlet_parent_jumps_shows_the_physics() {
    // VRM units: 100 world units per metre, stiffness 1 (a pull of 1/60 m per step).
    let p = JiggleParams {
        unit_scale: 100.0,
        ..JiggleParams::vrm(1.0, 0.4, 0.0, 0.0)
    };
    let jump: f64 = 2.0;
    let verlet_after = |fraction: f64| verlet_after(&p, jump, fraction);
    let shown = stepped_parent(p, 60.0, 30, 40, jump);
    check_jump_frame(shown[29], verlet_after(1.0), jump, "60 fps");
    check_no_pop(&shown, 29, jump, 5);
    let shown = stepped_parent(p, 144.0, 73, 90, jump);
    check_jump_frame(shown[72], verlet_after(5.0 / 12.0), jump, "144 fps");
    check_no_pop(&shown, 72, jump, 12);
}

/// The 3D solver's version of [`stepped_parent`]: one 100-unit joint hanging along -y from
/// a parent at the origin whose rotation about z steps by `jump` degrees at `jump_frame`;
/// per frame, the joint's displayed angle off its animated direction and its tip (x, y).
#[cfg(feature = "glam")]
fn stepped_parent_3d(
    params: JiggleParams,
    fps: f64,
    jump_frame: u32,
    frames: u32,
    jump: f32,
) -> Vec<(f64, (f64, f64))> {
    use crate::physics::jiggle::solver3d::{Chain3, Jiggle3d, Joint3, Transform3};
    use crate::sim::clock::ClockSettings;
    use glam::{Quat, Vec3};
    let tail = Vec3::new(0.0, -100.0, 0.0);
    let joints = [Joint3 {
        parent: None,
        chain: 0,
        tail,
    }];
    let chains = [Chain3 {
        params,
        colliders: vec![],
    }];
    let mut j = Jiggle3d::new(&joints, &chains, 0, ClockSettings::default());
    let pose = |deg: f32| Transform3 {
        translation: Vec3::ZERO,
        rotation: Quat::from_rotation_z(deg.to_radians()),
    };
    let mut out = [pose(0.0)];
    j.update(0.0, &[pose(0.0)], &[], Vec3::ZERO, Vec3::ZERO, &mut out);
    let mut shown = Vec::new();
    for f in 1..=frames {
        let anim = pose(if f >= jump_frame { jump } else { 0.0 });
        j.update(1.0 / fps, &[anim], &[], Vec3::ZERO, Vec3::ZERO, &mut out);
        let (da, ds) = (anim.rotation * tail, out[0].rotation * tail);
        let off = f64::from(da.x * ds.y - da.y * ds.x).atan2(f64::from(da.dot(ds)));
        let tip = out[0].translation + ds;
        shown.push((off.to_degrees(), (f64::from(tip.x), f64::from(tip.y))));
    }
    shown
}

/// [`check_jump_frame`] and [`check_no_pop`] at the 3D solver's f32 precision: its
/// transforms are f32, so the angle to 1e-4 degrees and the tip to 1e-4 units.
#[cfg(feature = "glam")]
fn check_3d(shown: &[(f64, (f64, f64))], at: usize, want: (f64, (f64, f64)), frames: usize) {
    let got = shown[at];
    assert!(
        (got.0 - want.0).abs() < 1e-4
            && (got.1.0 - want.1.0).abs() < 1e-4
            && (got.1.1 - want.1.1).abs() < 1e-4,
        "frame {at}: shown {got:?}, physics {want:?}"
    );
    assert!(shown[..at].iter().all(|(a, _)| a.abs() < 1e-4), "{shown:?}");
    let mut last = got.0;
    for (k, (a, _)) in shown.iter().enumerate().skip(at + 1).take(frames) {
        assert!(
            *a <= 1e-4 && *a >= last - 1e-4,
            "frame {k}: {a} after {last}"
        );
        last = *a;
    }
}

/// The same step frame in 3D: a joint turning by 2 degrees about z at 0.5 s, spring and
/// Verlet models, on the step grid (60 fps) and between steps (144 fps).
#[cfg(feature = "glam")]
#[test]
fn the_frame_a_3d_parent_jumps_shows_the_physics() {
    let p = JiggleParams::default();
    let shown = stepped_parent_3d(p, 60.0, 30, 40, 2.0);
    check_3d(&shown, 29, spring_after(&p, H, 2.0), 5);
    let rest = 73.0 / 144.0 - 30.0 * H;
    let shown = stepped_parent_3d(p, 144.0, 73, 90, 2.0);
    check_3d(&shown, 72, spring_after(&p, rest, 2.0), 12);
    let v = JiggleParams {
        unit_scale: 100.0,
        ..JiggleParams::vrm(1.0, 0.4, 0.0, 0.0)
    };
    let shown = stepped_parent_3d(v, 60.0, 30, 40, 2.0);
    check_3d(&shown, 29, verlet_after(&v, 2.0, 1.0), 5);
    let shown = stepped_parent_3d(v, 144.0, 73, 90, 2.0);
    check_3d(&shown, 72, verlet_after(&v, 2.0, 5.0 / 12.0), 12);
}

/// The 3D solver's displayed poses agree across frame rates: a joint on a parent that
/// moves piecewise linearly (knots on the 60 Hz step grid, as in
/// [`displayed_poses_agree_across_frame_rates`]) shows at 30, 60 and 144 fps what it shows
/// at 720 fps at the same times, to the f32 precision of its transforms.
#[cfg(feature = "glam")]
#[test]
fn displayed_3d_poses_agree_across_frame_rates() {
    use crate::physics::jiggle::solver3d::{Chain3, Jiggle3d, Joint3, Transform3};
    use crate::sim::clock::ClockSettings;
    use glam::{Quat, Vec3};
    let tail = Vec3::new(0.0, -100.0, 0.0);
    let joints = [Joint3 {
        parent: None,
        chain: 0,
        tail,
    }];
    let x_at = |t: f64| (t.clamp(1.0 / 6.0, 0.5) - 1.0 / 6.0) * 300.0;
    let run = |fps: u32, params: JiggleParams| -> Vec<(u32, f64, f64)> {
        let chains = [Chain3 {
            params,
            colliders: vec![],
        }];
        let mut j = Jiggle3d::new(&joints, &chains, 0, ClockSettings::default());
        let pose = |t: f64| Transform3 {
            translation: Vec3::new(x_at(t) as f32, 0.0, 0.0),
            rotation: Quat::IDENTITY,
        };
        let mut out = [pose(0.0)];
        j.update(0.0, &[pose(0.0)], &[], Vec3::ZERO, Vec3::ZERO, &mut out);
        let mut shown = Vec::new();
        for f in 1..=fps {
            let t = f64::from(f) / f64::from(fps);
            j.update(
                1.0 / f64::from(fps),
                &[pose(t)],
                &[],
                Vec3::ZERO,
                Vec3::ZERO,
                &mut out,
            );
            let tip = out[0].translation + out[0].rotation * tail;
            shown.push((f * (720 / fps), f64::from(tip.x), f64::from(tip.y)));
        }
        shown
    };
    let vrm = JiggleParams {
        unit_scale: 100.0,
        ..JiggleParams::vrm(1.0, 0.4, 0.0, 0.0)
    };
    for params in [Preset::HairTip.params(), vrm] {
        let r720 = run(720, params);
        let mut swing: f64 = 0.0;
        for fps in [30, 60, 144] {
            for (key, x, y) in run(fps, params) {
                let (_, x2, y2) = r720[key as usize - 1];
                assert!(
                    (x - x2).abs() < 1e-3 && (y - y2).abs() < 1e-3,
                    "{fps} fps at {key}/720 s: ({x}, {y}) vs ({x2}, {y2})"
                );
                swing = swing.max((x - x_at(f64::from(key) / 720.0)).abs());
            }
        }
        // The joint really lags its parent (the comparison is not vacuous).
        assert!(swing > 5.0, "{params:?}: {swing}");
    }
}

/// Hair on a body that moves piecewise linearly with knots at multiples of 1/6 s: the
/// displayed world transforms agree at 30, 60 and 144 fps at their common frame times, and
/// 144 fps frames between steps show what 720 fps frames at the same times show.
#[test]
fn displayed_poses_agree_across_frame_rates() {
    let rig = super::tests_rig::test_rig();
    let mut d = JiggleDesc::new();
    d.gravity = [0.0, -980.0];
    d.chains.push(ChainDesc::new(
        "hair",
        &["hair1", "hair2"],
        Preset::HairTip.params(),
    ));
    let jr = JiggleRig::build(&rig, &d).expect("attaches");
    let x_at = |t: f64| {
        if t < 1.0 / 6.0 {
            0.0
        } else if t < 0.5 {
            (t - 1.0 / 6.0) * 300.0
        } else {
            100.0
        }
    };
    let bead = bone(&rig, "bead");
    // The bead's displayed world origin at every frame, keyed by the frame time in 1/720 s.
    let run = |fps: u32| -> Vec<(u32, f64, f64)> {
        let mut inst = Instance::new(&rig);
        let mut js = JiggleState::new(&jr);
        update_world_transform(&rig, &mut inst, Physics::None);
        js.update(&rig, &jr, &mut inst, 0.0);
        let mut out = Vec::new();
        for f in 1..=(2 * fps) {
            let t = f64::from(f) / f64::from(fps);
            inst.x = x_at(t);
            update_world_transform(&rig, &mut inst, Physics::None);
            js.update(&rig, &jr, &mut inst, 1.0 / f64::from(fps));
            out.push((f * (720 / fps), inst.world[bead].x, inst.world[bead].y));
        }
        out
    };
    let r720 = run(720);
    let mut compared = 0;
    let mut swing: f64 = 0.0;
    for fps in [30, 60, 144] {
        for (key, x, y) in run(fps) {
            let (_, x2, y2) = r720[key as usize - 1];
            assert!(
                (x - x2).abs() < 1e-6 && (y - y2).abs() < 1e-6,
                "{fps} fps at {key}/720 s: ({x}, {y}) vs ({x2}, {y2})"
            );
            swing = swing.max((x - x_at(f64::from(key) / 720.0)).abs());
            compared += 1;
        }
    }
    assert_eq!(compared, 2 * (30 + 60 + 144));
    // The hair really lags the body (the comparison is not vacuous).
    assert!(swing > 5.0, "{swing}");
}
