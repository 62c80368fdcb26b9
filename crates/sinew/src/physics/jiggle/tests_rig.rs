//! Rig-level tests: attaching by name (and its errors), children following jiggled bones,
//! applied locals consistent with world transforms, hitches and bad dt, strength, level of
//! detail, teleports, drivers and colliders on bones.

use super::*;
use crate::bone::update_bone_world;
use crate::instance::Instance;
use crate::math::Vec2;
use crate::raw::{RawBone, RawRig};
use crate::rig::Rig;
use crate::skeleton::update_world_transform;
use crate::types::Physics;

/// root -> body (up) -> hair1 -> hair2 -> bead (not jiggled); body -> arm.
pub(super) fn test_rig() -> Rig {
    let mut raw = RawRig::default();
    let mut bone = |name: &str, parent: Option<&str>, len: f64, x: f64, rot: f64| {
        let mut b = RawBone::new(name, parent);
        b.length = len;
        b.x = x;
        b.rotation = rot;
        raw.bones.push(b);
    };
    bone("root", None, 0.0, 0.0, 0.0);
    bone("body", Some("root"), 50.0, 0.0, 90.0);
    bone("hair1", Some("body"), 20.0, 50.0, 180.0);
    bone("hair2", Some("hair1"), 20.0, 20.0, 0.0);
    bone("bead", Some("hair2"), 5.0, 20.0, 0.0);
    bone("arm", Some("body"), 30.0, 40.0, -90.0);
    crate::build::build_rig(&raw).unwrap_or_else(|e| panic!("test rig: {e}"))
}

fn hair_desc(params: JiggleParams) -> JiggleDesc {
    let mut d = JiggleDesc::new();
    d.gravity = [0.0, -980.0];
    d.chains
        .push(ChainDesc::new("hair", &["hair1", "hair2"], params));
    d
}

fn posed(rig: &Rig) -> Instance {
    let mut inst = Instance::new(rig);
    update_world_transform(rig, &mut inst, Physics::None);
    inst
}

/// Moves the skeleton and poses it.
fn pose_at(rig: &Rig, inst: &mut Instance, x: f64) {
    inst.x = x;
    update_world_transform(rig, inst, Physics::None);
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn unknown_names_and_bad_values_are_clear_errors() {
    let rig = test_rig();
    let mut d = hair_desc(JiggleParams::default());
    d.chains.push(ChainDesc::new(
        "tail",
        &["tial", "hair2"],
        JiggleParams {
            drag: 2.0,
            ..JiggleParams::default()
        },
    ));
    d.chains[0].colliders.push("head".to_owned());
    d.colliders.push(ColliderDesc {
        name: "c".to_owned(),
        bone: "nose".to_owned(),
        shape: ColliderShape::Circle {
            offset: [0.0, 0.0],
            radius: 1.0,
        },
    });
    d.chains
        .push(ChainDesc::new("root", &["root"], JiggleParams::default()));
    let err = JiggleRig::build(&rig, &d)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    for want in [
        "collider `c`: unknown bone `nose`",
        "chain `tail`: unknown bone `tial`",
        "chain `tail`: bone `hair2` is already in chain `hair`",
        "chain `tail`: `drag` must be in 0..1",
        "chain `hair`: unknown collider `head`",
        "chain `root`: bone `root` has length 0",
    ] {
        assert!(err.contains(want), "missing `{want}` in: {err}");
    }
}

#[test]
fn children_follow_and_applied_locals_match_the_world() {
    let rig = test_rig();
    let jr = JiggleRig::build(&rig, &hair_desc(Preset::HairTip.params())).expect("builds");
    assert_eq!(jr.bone_count(), 2);
    let bead = rig.bone("bead").expect("bead");
    assert!(jr.repose[bead.index()]);
    let mut inst = posed(&rig);
    let mut js = JiggleState::new(&jr);
    js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
    let mut moved = 0.0f64;
    for f in 1..=90 {
        // The body walks right fast, then stops: the hair lags and swings.
        pose_at(&rig, &mut inst, (f64::from(f) * 3.0).min(120.0));
        let before = inst.world.clone();
        js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
        let h2 = rig.bone("hair2").expect("hair2").index();
        moved = moved.max((inst.world[h2].x - before[h2].x).abs());
        // Every bone's world is what its applied local gives from its parent's world.
        let mut check = inst.clone();
        for i in 1..rig.bones.len() {
            update_bone_world(&rig, &mut check, crate::ids::BoneId(i as u16));
            let (w, c) = (inst.world[i], check.world[i]);
            for (a, b) in [
                (w.a, c.a),
                (w.b, c.b),
                (w.c, c.c),
                (w.d, c.d),
                (w.x, c.x),
                (w.y, c.y),
            ] {
                assert!(
                    (a - b).abs() < 1e-6,
                    "bone {} frame {f}: {a} vs {b}",
                    rig.bones[i].name
                );
            }
        }
        // The bead hangs at the end of the jiggled hair2.
        let w2 = inst.world[h2];
        let Vec2 { x: ex, y: ey } = w2.apply(Vec2::new(20.0, 0.0));
        assert!(close(inst.world[bead.index()].x, ex) && close(inst.world[bead.index()].y, ey));
    }
    assert!(moved > 1.0, "the hair never lagged: {moved}");
}

#[test]
fn hitches_and_bad_dt_never_explode() {
    let rig = test_rig();
    for params in [
        Preset::HairTip.params(),
        Preset::Ribbon.params(),
        Preset::SoftTissue.params(),
        Preset::Vrm.params(),
    ] {
        // Soft tissue gets the documented origin limit.
        let params = JiggleParams {
            unit_scale: 100.0,
            max_offset: 20.0,
            ..params
        };
        let jr = JiggleRig::build(&rig, &hair_desc(params)).expect("builds");
        let mut inst = posed(&rig);
        let mut js = JiggleState::new(&jr);
        let dts = [
            1.0 / 60.0,
            1.0,
            10.0,
            0.0,
            -1.0,
            f64::NAN,
            f64::INFINITY,
            1.0 / 144.0,
            1e-9,
            0.3,
        ];
        for (f, dt) in dts.iter().cycle().take(200).enumerate() {
            pose_at(&rig, &mut inst, if f % 7 < 3 { 0.0 } else { 300.0 });
            js.update(&rig, &jr, &mut inst, *dt);
            assert!(js.clock().alpha().is_finite());
            for (i, w) in inst.world.iter().enumerate() {
                for v in [w.a, w.b, w.c, w.d, w.x, w.y] {
                    assert!(v.is_finite(), "{:?} bone {i} frame {f}", params.model);
                }
            }
            // The hair stays attached: each jiggle bone's origin within its reach.
            let h1 = inst.world[rig.bone("hair1").expect("h").index()];
            let body = inst.world[rig.bone("body").expect("b").index()];
            let Vec2 { x: bx, y: by } = body.apply(Vec2::new(50.0, 0.0));
            // (Soft tissue lets the origin move on its spring.)
            let reach = if params.translate_stiffness > 0.0 {
                20.0 + 1e-6
            } else {
                1e-6
            };
            assert!(((h1.x - bx).powi(2) + (h1.y - by).powi(2)).sqrt() < reach);
        }
        assert!(js.steps_total() < 200 * 8 + 1);
    }
}

#[test]
fn strength_fades_to_the_animated_pose() {
    let rig = test_rig();
    let jr = JiggleRig::build(&rig, &hair_desc(Preset::HairTip.params())).expect("builds");
    let mut inst = posed(&rig);
    let mut js = JiggleState::new(&jr);
    let chain = jr.chain("hair").expect("chain");
    js.fade_strength(chain, 0.0, 0.5);
    for f in 0..60 {
        pose_at(&rig, &mut inst, f64::from(f) * 4.0);
        let anim = inst.world.clone();
        js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
        if f >= 31 {
            assert_eq!(js.strength(chain), 0.0);
            for (a, b) in anim.iter().zip(&inst.world) {
                assert!(close(a.x, b.x) && close(a.y, b.y) && close(a.a, b.a) && close(a.c, b.c));
            }
        }
    }
    js.set_strength(chain, 0.25);
    assert_eq!(js.strength(chain), 0.25);
}

#[test]
fn lod_coarse_frozen_and_teleport() {
    let rig = test_rig();
    let mut d = hair_desc(Preset::HairTip.params());
    d.lod = LodSettings {
        coarse_step: 3,
        coarse_beyond: 100.0,
        freeze_beyond: 1000.0,
    };
    d.teleport_distance = 200.0;
    let jr = JiggleRig::build(&rig, &d).expect("builds");
    let mut inst = posed(&rig);
    let mut js = JiggleState::new(&jr);
    js.set_view_distance(&jr, 500.0);
    assert_eq!(js.lod(), Lod::Coarse);
    for _ in 0..60 {
        js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
    }
    assert_eq!(js.steps_total(), 20);
    // Frozen: no steps, the last offsets held.
    js.set_view_distance(&jr, 5000.0);
    assert_eq!(js.lod(), Lod::Frozen);
    js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
    assert_eq!(js.steps_total(), 20);
    js.set_view_distance(&jr, 0.0);
    assert_eq!(js.lod(), Lod::Full);
    js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
    assert_eq!(js.steps_total(), 21);
    // A teleport re-anchors: the hair shows its animated pose right after the jump.
    pose_at(&rig, &mut inst, 5000.0);
    let anim = inst.world.clone();
    js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
    let h2 = rig.bone("hair2").expect("h").index();
    assert!(
        (inst.world[h2].x - anim[h2].x).abs() < 1e-6,
        "{} {}",
        inst.world[h2].x,
        anim[h2].x
    );
}

#[test]
fn driver_that_is_not_an_ancestor() {
    // `arm` follows `hair1`'s motion instead of its parent's, offset captured at setup.
    let rig = test_rig();
    let mut d = JiggleDesc::new();
    let mut ch = ChainDesc::new(
        "arm",
        &["arm"],
        JiggleParams {
            strength: 0.0,
            ..JiggleParams::default()
        },
    );
    ch.driver = Some("root".to_owned());
    d.chains.push(ch);
    let jr = JiggleRig::build(&rig, &d).expect("builds");
    let mut inst = posed(&rig);
    let setup = inst.world.clone();
    let mut js = JiggleState::new(&jr);
    pose_at(&rig, &mut inst, 10.0);
    js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
    let arm = rig.bone("arm").expect("arm").index();
    // Strength 0: exactly the setup offset from the (moved) root.
    assert!(
        close(inst.world[arm].x, setup[arm].x + 10.0) && close(inst.world[arm].y, setup[arm].y)
    );
}

#[test]
fn collider_on_a_bone_stops_the_hair() {
    let rig = test_rig();
    let mut d = hair_desc(JiggleParams {
        gravity: 1.0,
        hit_radius: 2.0,
        ..Preset::Ribbon.params()
    });
    // A capsule along the body: the hair (hanging down its back) must not enter it.
    d.colliders.push(ColliderDesc {
        name: "body".to_owned(),
        bone: "body".to_owned(),
        shape: ColliderShape::Capsule {
            offset: [0.0, -6.0],
            tail: [45.0, -6.0],
            radius: 5.0,
        },
    });
    d.chains[0].colliders.push("body".to_owned());
    let jr = JiggleRig::build(&rig, &d).expect("builds");
    let mut inst = posed(&rig);
    let mut js = JiggleState::new(&jr);
    let body = rig.bone("body").expect("b").index();
    for f in 0..240 {
        // Swing the body left and right.
        pose_at(&rig, &mut inst, 40.0 * (f64::from(f) * 0.08).sin());
        js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
        let w = inst.world[body];
        let Vec2 { x: ax, y: ay } = w.apply(Vec2::new(0.0, -6.0));
        let Vec2 { x: bx, y: by } = w.apply(Vec2::new(45.0, -6.0));
        let cap = collider::Shape::Capsule {
            a: crate::math::Vec2::new(ax, ay),
            b: crate::math::Vec2::new(bx, by),
            radius: 5.0,
        };
        for b in &js.sim().bones {
            assert!(cap.distance(b.tip, 2.0) >= -1e-6, "frame {f}");
        }
    }
}
