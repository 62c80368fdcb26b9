//! Unit tests of the parameter stage on a small hand-built rig: both combination rules
//! (offsets add across parameters, scales multiply), a joint grid over two parameters, and
//! parameter physics (rest output, a swing that stays bounded, a 10 s hitch).

use super::Interp;
use super::build::build_params;
use super::driver::{DriverMap, PendulumModel};
use super::raw::{RawAxis, RawBinding, RawDriver, RawParam, RawParams, RawTarget};
use crate::character::update_params;
use crate::raw::{RawBone, RawRig};
use crate::{Instance, Rig};

fn param(name: &str) -> RawParam {
    RawParam {
        name: name.into(),
        is_2d: false,
        min: [-1.0, -1.0],
        max: [1.0, 1.0],
        default: [0.0, 0.0],
        axis_points: [vec![0.0, 0.5, 1.0], vec![0.0]],
    }
}

fn scalar(target: RawTarget, axes: &[&str], values: &[f32]) -> RawBinding {
    RawBinding {
        target,
        interp: Interp::Linear,
        axes: axes
            .iter()
            .map(|p| RawAxis {
                param: (*p).into(),
                component: 0,
                keys: None,
            })
            .collect(),
        stride: 1,
        values: values.to_vec(),
    }
}

/// A pendulum "hair" on `bone` writing "Sway" (angle and length), 100 units long.
fn hair(bone: &str, model: PendulumModel, angle_damping: f64) -> RawDriver {
    RawDriver {
        name: "hair".into(),
        bone: bone.into(),
        param: "Sway".into(),
        model,
        map: DriverMap::AngleLength,
        gravity: 9800.0,
        length: 100.0,
        frequency: 1.0,
        angle_damping,
        length_damping: 0.5,
        output_scale: [1.0, 1.0],
        local_only: false,
    }
}

fn rig(params: RawParams) -> Rig {
    let raw = RawRig {
        bones: vec![
            RawBone::new("root", None),
            RawBone::new("head", Some("root")),
        ],
        reference_scale: 100.0,
        ..Default::default()
    };
    let mut rig = crate::build::build_rig(&raw).expect("rig");
    rig.params = build_params(&rig, &params).expect("params");
    rig
}

#[test]
fn bindings_add_offsets_and_multiply_scales() {
    let rig = rig(RawParams {
        params: vec![param("A"), param("B")],
        bindings: vec![
            scalar(RawTarget::BoneX("head".into()), &["A"], &[-10.0, 0.0, 10.0]),
            scalar(RawTarget::BoneX("head".into()), &["B"], &[-4.0, 0.0, 4.0]),
            scalar(
                RawTarget::BoneScaleX("head".into()),
                &["A"],
                &[0.5, 1.0, 2.0],
            ),
            scalar(
                RawTarget::BoneScaleX("head".into()),
                &["B"],
                &[0.5, 1.0, 3.0],
            ),
            // A joint (Cubism-style) 3x3 grid over A and B: rotation = 10 A + 100 B.
            scalar(
                RawTarget::BoneRotation("head".into()),
                &["A", "B"],
                &[-110.0, -10.0, 90.0, -100.0, 0.0, 100.0, -90.0, 10.0, 110.0],
            ),
        ],
        ..Default::default()
    });
    let mut inst = Instance::new(&rig);
    let (a, b) = (
        rig.params.find("A").expect("A"),
        rig.params.find("B").expect("B"),
    );
    inst.params.set(&rig, a, [0.5, 0.0]);
    inst.params.set(&rig, b, [2.0, 0.0]); // clamped to 1
    update_params(&rig, &mut inst, 0.0, false);
    let head = inst.pose[1];
    assert!((head.x - (5.0 + 4.0)).abs() < 1e-12, "{}", head.x);
    assert!((head.scale_x - 1.5 * 3.0).abs() < 1e-12, "{}", head.scale_x);
    assert!(
        (head.rotation - (5.0 + 100.0)).abs() < 1e-9,
        "{}",
        head.rotation
    );
    // Offsets are reset every frame: the same values give the same pose.
    update_params(&rig, &mut inst, 0.0, false);
    assert!((inst.pose[1].x - 9.0).abs() < 1e-12);
}

#[test]
fn physics_rests_swings_and_survives_hitches() {
    let mut out = param("Sway");
    out.is_2d = true;
    let rig = rig(RawParams {
        params: vec![param("Move"), out],
        bindings: vec![scalar(
            RawTarget::BoneX("head".into()),
            &["Move"],
            &[-100.0, 0.0, 100.0],
        )],
        drivers: vec![hair("head", PendulumModel::Rigid, 0.5)],
        ..Default::default()
    });
    let (mv, sway) = (
        rig.params.find("Move").expect("Move"),
        rig.params.find("Sway").expect("Sway"),
    );
    assert!(rig.params.params[sway.index()].driven);
    let mut inst = Instance::new(&rig);
    update_params(&rig, &mut inst, 1.0 / 60.0, true);
    // At rest the bob hangs straight down: angle 0, length ratio 1.
    let v = inst.params.values[sway.index()];
    assert!(v[0].abs() < 1e-6 && (v[1] - 1.0).abs() < 1e-6, "{v:?}");
    // Jerk the anchor sideways: the pendulum swings (non-zero angle), bounded to the range.
    inst.params.set(&rig, mv, [1.0, 0.0]);
    let mut peak: f64 = 0.0;
    for _ in 0..30 {
        update_params(&rig, &mut inst, 1.0 / 60.0, true);
        peak = peak.max(inst.params.values[sway.index()][0].abs());
    }
    assert!(peak > 0.01 && peak <= 1.0, "{peak}");
    // A 10 s hitch stays finite and within range.
    update_params(&rig, &mut inst, 10.0, true);
    let v = inst.params.values[sway.index()];
    assert!(v.iter().all(|x| x.is_finite() && x.abs() <= 1.0), "{v:?}");
}

#[test]
fn bad_raw_params_name_the_culprit() {
    let raw = RawRig {
        bones: vec![RawBone::new("root", None)],
        reference_scale: 100.0,
        ..Default::default()
    };
    let rig = crate::build::build_rig(&raw).expect("rig");
    let e = build_params(
        &rig,
        &RawParams {
            params: vec![param("A")],
            bindings: vec![
                scalar(RawTarget::BoneX("nobone".into()), &["A"], &[0.0, 0.0, 0.0]),
                scalar(RawTarget::BoneX("root".into()), &["Z"], &[0.0, 0.0, 0.0]),
                scalar(RawTarget::BoneX("root".into()), &["A"], &[0.0, 0.0]),
                // Custom keys with a NaN (the shared axis resolver rejects non-finite keys).
                {
                    let mut b = scalar(RawTarget::BoneY("root".into()), &["A"], &[0.0, 1.0]);
                    b.axes[0].keys = Some(vec![0.0, f64::NAN]);
                    b
                },
                scalar(
                    RawTarget::BoneY("root".into()),
                    &["A"],
                    &[0.0, f32::NAN, 1.0],
                ),
            ],
            ..Default::default()
        },
    )
    .expect_err("bad");
    // Typed: the part, the kind and the offending name, not only the text.
    let p = &e.problems;
    assert!(
        p.iter().all(|q| q.part == crate::build::BuildPart::Params),
        "{e:?}"
    );
    assert_eq!(p[0].kind, crate::build::ProblemKind::UnknownName);
    assert_eq!(p[0].name.as_deref(), Some("nobone"));
    assert_eq!(
        (p[1].kind, p[1].name.as_deref()),
        (crate::build::ProblemKind::UnknownName, Some("Z"))
    );
    assert_eq!(p[1].item, "binding 1 (BoneX(\"root\"))");
    let e: Vec<String> = p.iter().map(ToString::to_string).collect();
    assert_eq!(e.len(), 5, "{e:?}");
    assert!(
        e[0].contains("nobone") && e[1].contains("`Z`") && e[2].contains("expected 3 keyforms"),
        "{e:?}"
    );
    assert!(
        e[3].contains("binding 3") && e[3].contains("parameter `A` axis 0: bad keys"),
        "{e:?}"
    );
    assert!(
        e[4].contains("binding 4") && e[4].contains("non-finite keyform value"),
        "{e:?}"
    );
}

#[test]
fn world_subsets_around_physics_leave_nothing_stale() {
    // The driver's output rotates the root, an ancestor of its own anchor: the pass after
    // physics must revisit the root and everything below it.
    let mut out = param("Sway");
    out.is_2d = true;
    let mut params = RawParams {
        params: vec![param("Move"), out],
        bindings: vec![
            scalar(
                RawTarget::BoneX("head".into()),
                &["Move"],
                &[-100.0, 0.0, 100.0],
            ),
            scalar(
                RawTarget::BoneRotation("root".into()),
                &["Sway"],
                &[-30.0, 0.0, 30.0],
            ),
        ],
        ..Default::default()
    };
    params.drivers.push(hair("head", PendulumModel::Rigid, 0.1));
    let raw = RawRig {
        bones: vec![
            RawBone::new("root", None),
            RawBone::new("head", Some("root")),
            RawBone::new("tail", Some("head")),
            RawBone::new("side", Some("root")),
        ],
        reference_scale: 100.0,
        ..Default::default()
    };
    let mut rig = crate::build::build_rig(&raw).expect("rig");
    rig.params = build_params(&rig, &params).expect("params");
    let plan = &rig.params.plan;
    assert!(plan.bone_subsets);
    let names = |v: &[crate::ids::BoneId]| -> Vec<String> {
        v.iter()
            .map(|b| rig.bones[b.index()].name.clone())
            .collect()
    };
    assert_eq!(names(&plan.pre_physics_bones), ["root", "head"]);
    assert_eq!(
        names(&plan.post_physics_bones),
        ["root", "head", "tail", "side"]
    );
    let mv = rig.params.find("Move").expect("Move");
    let sway = rig.params.find("Sway").expect("Sway");
    let mut inst = Instance::new(&rig);
    for frame in 0..40 {
        inst.params.set(&rig, mv, [(frame as f64 * 0.3).sin(), 0.0]);
        update_params(&rig, &mut inst, 1.0 / 60.0, true);
        let mut full = inst.clone();
        crate::skeleton::update_world_transform(&rig, &mut full, crate::types::Physics::None);
        assert_eq!(inst.world, full.world, "frame {frame}");
    }
    assert!(
        inst.params.values[sway.index()][0].abs() > 1e-4,
        "the pendulum swung"
    );
}

#[test]
fn changed_targets_only_give_what_recomputing_everything_gives() {
    // Every scalar target kind, a target fed both before and after physics (head
    // rotation: Move and the driven Sway), two factors on one target, a mute, and setup-pose
    // resets that the stage must notice.
    let mut out = param("Sway");
    out.is_2d = true;
    let slot_target =
        |f: fn(String) -> RawTarget, vals: &[f32]| scalar(f("body".into()), &["Move"], vals);
    let mut params = RawParams {
        params: vec![param("Move"), param("Fade"), out],
        bindings: vec![
            scalar(
                RawTarget::BoneX("head".into()),
                &["Move"],
                &[-100.0, 0.0, 100.0],
            ),
            scalar(
                RawTarget::BoneRotation("head".into()),
                &["Move"],
                &[-20.0, 0.0, 20.0],
            ),
            scalar(
                RawTarget::BoneRotation("head".into()),
                &["Sway"],
                &[-30.0, 0.0, 30.0],
            ),
            scalar(
                RawTarget::BoneScaleY("tail".into()),
                &["Move"],
                &[0.5, 1.0, 2.0],
            ),
            scalar(
                RawTarget::BoneScaleY("tail".into()),
                &["Fade"],
                &[0.25, 1.0, 1.5],
            ),
            scalar(
                RawTarget::BoneZSort("tail".into()),
                &["Fade"],
                &[-1.0, 0.0, 1.0],
            ),
            slot_target(RawTarget::SlotOpacity, &[0.0, 1.0, 0.5]),
            scalar(
                RawTarget::SlotTint("body".into(), 1),
                &["Fade"],
                &[0.2, 1.0, 0.7],
            ),
            scalar(
                RawTarget::SlotScreenTint("body".into(), 2),
                &["Fade"],
                &[0.1, 0.0, 0.3],
            ),
            scalar(
                RawTarget::SlotVisible("body".into()),
                &["Fade"],
                &[0.0, 1.0, 1.0],
            ),
            scalar(
                RawTarget::DriverLength("hair".into()),
                &["Fade"],
                &[-20.0, 0.0, 20.0],
            ),
            scalar(
                RawTarget::GroupOpacity("head".into()),
                &["Fade"],
                &[0.0, 1.0, 0.5],
            ),
            scalar(
                RawTarget::GroupScreenTint("head".into(), 1),
                &["Move"],
                &[0.3, 0.0, 0.6],
            ),
            // Fed only after physics and read by nothing between the phases.
            scalar(
                RawTarget::GroupTint("tip".into(), 2),
                &["Sway"],
                &[0.5, 1.0, 0.75],
            ),
            scalar(
                RawTarget::BoneRotation("tip".into()),
                &["Sway"],
                &[-40.0, 0.0, 40.0],
            ),
            scalar(
                RawTarget::SlotTint("face".into(), 0),
                &["Sway"],
                &[0.5, 1.0, 0.25],
            ),
        ],
        ..Default::default()
    };
    params.drivers.push(RawDriver {
        frequency: 1.5,
        ..hair("tail", PendulumModel::Spring, 0.3)
    });
    let mut raw = RawRig {
        bones: vec![
            RawBone::new("root", None),
            RawBone::new("head", Some("root")),
            RawBone::new("tail", Some("head")),
            RawBone::new("tip", Some("tail")),
        ],
        reference_scale: 100.0,
        ..Default::default()
    };
    for name in ["body", "face"] {
        raw.slots.push(crate::raw::RawSlot {
            name: name.into(),
            bone: "tail".into(),
            color: crate::Color::new(0.9, 0.8, 0.7, 0.6),
            dark: None,
            attachment: None,
            blend: Default::default(),
            visible: true,
        });
    }
    let mut rig = crate::build::build_rig(&raw).expect("rig");
    rig.params = build_params(&rig, &params).expect("params");
    let scalars = &rig.params.plan.scalars;
    assert_eq!(
        scalars.phase_targets.len(),
        1,
        "head rotation is fed in both phases"
    );
    let solo_driven = scalars
        .items
        .iter()
        .filter(|i| i.solo && rig.params.bindings[i.binding as usize].driven)
        .count();
    assert_eq!(
        solo_driven, 3,
        "tip rotation and tint and the face tint are written when evaluated"
    );
    let (mv, fade) = (
        rig.params.find("Move").expect("Move"),
        rig.params.find("Fade").expect("Fade"),
    );
    let mut cached = Instance::new(&rig);
    let mut fresh = Instance::new(&rig);
    for frame in 0..120 {
        for inst in [&mut cached, &mut fresh] {
            // Move changes every other frame, Fade every third; nothing moves in 50..60.
            if !(50..60).contains(&frame) {
                if frame % 2 == 0 {
                    inst.params.set(&rig, mv, [(frame as f64 * 0.2).sin(), 0.0]);
                }
                if frame % 3 == 0 {
                    inst.params
                        .set(&rig, fade, [(frame as f64 * 0.13).cos() * 1.2, 0.0]);
                }
            }
            inst.params.muted[fade.index()] = (70..80).contains(&frame);
            if frame == 90 {
                inst.set_to_setup_pose(&rig);
            }
        }
        fresh.params.cache.invalidate();
        update_params(&rig, &mut cached, 1.0 / 60.0, true);
        update_params(&rig, &mut fresh, 1.0 / 60.0, true);
        let bits = |i: &Instance| -> Vec<u64> {
            let mut v: Vec<u64> = i
                .pose
                .iter()
                .flat_map(|p| [p.x, p.y, p.rotation, p.scale_x, p.scale_y])
                .chain(i.world.iter().flat_map(|w| [w.a, w.b, w.c, w.d, w.x, w.y]))
                .chain(i.params.bone.iter().map(|o| o.zsort))
                .chain(i.params.slot.iter().flat_map(|o| o.screen))
                .chain(
                    i.params
                        .group
                        .iter()
                        .flat_map(|o| [o.opacity, o.tint[2], o.screen[1]]),
                )
                .chain(i.params.driver_offsets.iter().flatten().copied())
                .chain(i.params.values.iter().flatten().copied())
                .map(f64::to_bits)
                .collect();
            v.extend(
                i.slots
                    .color
                    .iter()
                    .flat_map(|c| [c.r, c.g, c.b, c.a])
                    .map(|x| u64::from(x.to_bits())),
            );
            v.extend(i.params.visible.iter().map(|&b| u64::from(b)));
            v
        };
        assert_eq!(bits(&cached), bits(&fresh), "frame {frame}");
        assert_eq!(cached.draw_order, fresh.draw_order, "frame {frame}");
    }
    // The setup colour times the factors, and the head's rotation carries both phases.
    assert!(cached.slots.color[0].a < 0.6 + 1e-6);
    assert!(
        cached.params.values[2][0].abs() > 1e-6,
        "the pendulum moved"
    );
}

#[test]
fn a_binding_that_drives_a_pendulum_length_negative_keeps_physics_finite() {
    // `Shrink` takes the hair's 100-unit length to -100: the pendulum falls back to its
    // default length (sanitised parameters) instead of dividing by a negative length.
    let mut out = param("Sway");
    out.is_2d = true;
    let rig = rig(RawParams {
        params: vec![param("Shrink"), out],
        bindings: vec![scalar(
            RawTarget::DriverLength("hair".into()),
            &["Shrink"],
            &[0.0, 0.0, -200.0],
        )],
        drivers: vec![hair("head", PendulumModel::Spring, 0.3)],
        ..Default::default()
    });
    let (shrink, sway) = (
        rig.params.find("Shrink").expect("Shrink"),
        rig.params.find("Sway").expect("Sway"),
    );
    let mut inst = Instance::new(&rig);
    inst.params.set(&rig, shrink, [1.0, 0.0]);
    for _ in 0..30 {
        update_params(&rig, &mut inst, 1.0 / 60.0, true);
        let v = inst.params.values[sway.index()];
        assert!(v.iter().all(|x| x.is_finite() && x.abs() <= 1.0), "{v:?}");
    }
    assert_eq!(
        inst.params.driver_offsets[0][0], -200.0,
        "the binding did apply"
    );
    let length = inst.params.drivers[0].pendulum.params().length;
    assert!(
        length > 0.0,
        "the pendulum runs on a usable length, not {length}"
    );
}
