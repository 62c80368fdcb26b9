//! Constraint mixes set from code on real rigs: spineboy's `aim-ik` (mix 0 in its setup
//! pose) aims the gun arm at the target once its mix is raised, and keeps aiming as the
//! target moves; `aim-torso-transform` turns the torso to its target's rotation plus the
//! constraint's offset (Spine's absolute world transform constraint, closed form); on the
//! synthetic constraints lab, path mixes of 0 make the path position irrelevant and physics
//! mixes of 0 make physics a no-op.

use sinew::{Character, Physics, WorldTransform};

fn degrees(w: WorldTransform) -> f64 {
    w.c.atan2(w.a).to_degrees()
}

/// The difference of two angles in degrees, in (-180, 180].
fn turn(a: f64, b: f64) -> f64 {
    let d = (a - b) % 360.0;
    if d > 180.0 {
        d - 360.0
    } else if d <= -180.0 {
        d + 360.0
    } else {
        d
    }
}

fn spineboy(test: &str) -> Option<Character> {
    let dir = sinew_testutil::require_spine_fixtures(test)?.join("spineboy");
    let asset = sinew_formats::load(&dir.join("spineboy-pro.json"), &Default::default())
        .expect("spineboy loads");
    Some(asset.character())
}

#[test]
fn spineboy_aims_when_the_aim_mix_is_raised() {
    let Some(mut boy) = spineboy("spineboy_aims_when_the_aim_mix_is_raised") else {
        return;
    };
    let aim = boy.find_ik("aim-ik").expect("aim-ik");
    assert_eq!(boy.ik(aim).map(|s| s.mix), Some(0.0), "the rig's setup mix");
    let mut state = boy.ik(aim).expect("state");
    state.mix = 1.0;
    boy.set_ik(aim, state).expect("mix 1");
    let mut gun_minus_arm: Option<f64> = None;
    for (x, y) in [(300.0, 250.0), (150.0, 500.0), (400.0, 100.0)] {
        boy.set_ik_target(aim, x, y).expect("target");
        boy.update(0.0);
        boy.update(0.0); // the target is placed through its parent as last posed
        let arm = boy.bone_world("rear-upper-arm").expect("arm");
        let want = (y - arm.y).atan2(x - arm.x).to_degrees();
        assert!(
            turn(degrees(arm), want).abs() < 1e-6,
            "the arm points at ({x}, {y}): {} vs {want}",
            degrees(arm)
        );
        // The gun hangs off the arm with fixed locals: it turns with the target.
        let gun = degrees(boy.bone_world("gun").expect("gun"));
        let d = turn(gun, degrees(arm));
        if let Some(first) = gun_minus_arm {
            assert!((d - first).abs() < 1e-6, "gun - arm {d} vs {first}");
        }
        gun_minus_arm = Some(d);
    }
    // Back to mix 0: the arm no longer follows the target.
    state.mix = 0.0;
    boy.set_ik(aim, state).expect("mix 0");
    boy.update(0.0);
    let resting = degrees(boy.bone_world("rear-upper-arm").expect("arm"));
    boy.set_ik_target(aim, -300.0, 50.0).expect("target");
    boy.update(0.0);
    boy.update(0.0);
    let after = degrees(boy.bone_world("rear-upper-arm").expect("arm"));
    assert!((after - resting).abs() < 1e-9, "{after} vs {resting}");
}

#[test]
fn spineboy_torso_turns_to_its_transform_target() {
    let Some(mut boy) = spineboy("spineboy_torso_turns_to_its_transform_target") else {
        return;
    };
    let torso = boy
        .find_transform("aim-torso-transform")
        .expect("constraint");
    let mut mix = boy.transform_mix(torso).expect("mix");
    assert_eq!(mix.rotate, 0.0, "the rig's setup mix");
    boy.update(0.0);
    let free = degrees(boy.bone_world("torso").expect("torso"));
    mix.rotate = 1.0;
    boy.set_transform_mix(torso, mix).expect("mix");
    boy.update(0.0);
    let target = degrees(boy.bone_world("aim-constraint-target").expect("target"));
    let turned = degrees(boy.bone_world("torso").expect("torso"));
    // rotation 69.5 is the constraint's offset in spineboy-pro.json; Spine converts it with
    // its float pi (3.1415927), which is off by ~1e-6 degrees over this angle.
    assert!(
        turn(turned, target + 69.5).abs() < 1e-4,
        "{turned} vs {target} + 69.5"
    );
    assert!(turn(turned, free).abs() > 1.0, "the mix changed the pose");
    mix.rotate = f64::NAN;
    assert!(boy.set_transform_mix(torso, mix).is_err());
}

fn lab(test: &str) -> Option<sinew_formats::Asset> {
    let dir = sinew_testutil::require_spine_fixtures(test)?.join("synthetic");
    Some(
        sinew_formats::load(&dir.join("constraints-lab.json"), &Default::default())
            .expect("constraints lab loads"),
    )
}

fn worlds(c: &Character, n: usize) -> Vec<WorldTransform> {
    (0..n)
        .map(|i| c.bone_world(sinew::BoneId(i as u16)).expect("bone"))
        .collect()
}

fn close(a: &[WorldTransform], b: &[WorldTransform], tol: f64) -> bool {
    a.iter().zip(b).all(|(p, q)| {
        [
            p.a - q.a,
            p.b - q.b,
            p.c - q.c,
            p.d - q.d,
            p.x - q.x,
            p.y - q.y,
        ]
        .iter()
        .all(|d| d.abs() <= tol)
    })
}

#[test]
fn path_position_matters_only_with_a_mix() {
    let Some(asset) = lab("path_position_matters_only_with_a_mix") else {
        return;
    };
    let n = asset.rig.bones.len();
    let posed = |mixes: f64, position: f64| {
        let mut c = asset.character();
        for k in 0..asset.rig.paths.len() {
            let p = sinew::PathId(k as u16);
            let mut m = c.path_mix(p).expect("path");
            m.position = position;
            m.mix_rotate = mixes;
            m.mix_x = mixes;
            m.mix_y = mixes;
            c.set_path_mix(p, m).expect("finite");
        }
        c.update(0.0);
        worlds(&c, n)
    };
    assert!(
        close(&posed(0.0, 0.1), &posed(0.0, 0.6), 0.0),
        "mix 0: no effect"
    );
    assert!(
        !close(&posed(1.0, 0.1), &posed(1.0, 0.6), 1e-3),
        "mix 1 follows"
    );
}

#[test]
fn physics_with_mix_zero_is_a_no_op() {
    let Some(asset) = lab("physics_with_mix_zero_is_a_no_op") else {
        return;
    };
    let n = asset.rig.bones.len();
    let run = |physics: Physics, mix: Option<f64>| {
        let mut c = asset.character();
        c.set_physics(physics);
        if let Some(mix) = mix {
            for k in 0..asset.rig.physics.len() {
                let p = sinew::PhysicsId(k as u16);
                let mut params = c.physics_params(p).expect("physics");
                params.mix = mix;
                c.set_physics_params(p, params).expect("finite");
            }
        }
        // The lab's animation keys physics mixes, so the skeleton moves instead (physics
        // follows the skeleton's position).
        for i in 0..30 {
            let t = f64::from(i) / 30.0;
            c.set_position(200.0 * (6.0 * t).sin(), 50.0 * t);
            c.update(1.0 / 30.0);
        }
        worlds(&c, n)
    };
    let none = run(Physics::None, None);
    assert!(close(&run(Physics::Update, Some(0.0)), &none, 1e-9));
    assert!(!close(&run(Physics::Update, Some(1.0)), &none, 1e-3));
}

#[test]
fn a_one_axis_parameter_takes_a_number() {
    let face =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/face/face.inp");
    let asset = sinew_formats::load(&face, &Default::default()).expect("face loads");
    let mut c = asset.character();
    let params = c.params().to_vec();
    let one = params
        .iter()
        .find(|p| !p.is_2d)
        .expect("a one-axis parameter");
    c.set_param(one.name.as_str(), 0.25).expect("a number");
    assert_eq!(c.param(one.name.as_str()).map(|v| v[0]), Some(0.25));
    c.set_param(one.name.as_str(), [0.5, 0.0])
        .expect("a pair too");
    assert_eq!(c.param(one.name.as_str()).map(|v| v[0]), Some(0.5));
    if let Some(two) = params.iter().find(|p| p.is_2d) {
        let err = c.set_param(two.name.as_str(), 0.25).expect_err("two axes");
        assert!(err.to_string().contains("has two axes"), "{err}");
        c.set_param(two.name.as_str(), [0.25, 0.5]).expect("a pair");
    }
    let err = c.set_param("Head Tilt", 0.1).expect_err("unknown");
    assert!(
        err.to_string().contains(&format!("`{}`", one.name)),
        "the error lists the puppet's parameters: {err}"
    );
}

#[test]
fn physics_translate_moves_a_character_without_a_swing() {
    let Some(asset) = lab("physics_translate_moves_a_character_without_a_swing") else {
        return;
    };
    let n = asset.rig.bones.len();
    // `there` stands at (100, -40) from the start; the others start at the origin and are
    // teleported there after a frame, one cancelling the move for physics (forces act as if
    // the bones had moved an additional (-100, 40): no move at all).
    let mut c: Vec<Character> = (0..3).map(|_| asset.character()).collect();
    c[0].set_position(100.0, -40.0);
    for c in &mut c {
        c.set_physics(Physics::Update);
        c.update(1.0 / 30.0);
    }
    c[1].set_position(100.0, -40.0);
    c[1].physics_translate(-100.0, 40.0);
    c[1].physics_translate(f64::NAN, 0.0); // ignored
    c[2].set_position(100.0, -40.0);
    for _ in 0..20 {
        for c in &mut c {
            c.update(1.0 / 30.0);
        }
    }
    let there = worlds(&c[0], n);
    assert!(close(&worlds(&c[1], n), &there, 1e-6), "no swing");
    assert!(!close(&worlds(&c[2], n), &there, 1e-3), "a teleport swings");
}
