//! Constraint state set from code (`character/constraints.rs`): a one-bone IK aim against
//! its closed form at mixes 0, 1/2 and 1, and every setter's refusals.

use super::*;
use crate::ids::{IkId, PathId, PhysicsId, TransformId};
use crate::raw::{RawBone, RawIk, RawRig};

/// root -> arm at the origin, pointing along +x; `target` at (3, 4); IK `aim` of the arm
/// toward the target with mix 0 in its setup pose.
fn aim_rig() -> Arc<Rig> {
    let mut raw = RawRig::default();
    raw.bones.push(RawBone::new("root", None));
    let mut arm = RawBone::new("arm", Some("root"));
    arm.length = 10.0;
    raw.bones.push(arm);
    let mut target = RawBone::new("target", Some("root"));
    target.x = 3.0;
    target.y = 4.0;
    raw.bones.push(target);
    let mut ik = RawIk::new("aim", &["arm"], "target");
    ik.mix = 0.0;
    raw.ik.push(ik);
    Arc::new(crate::build::build_rig(&raw).expect("rig builds"))
}

fn arm_degrees(c: &Character) -> f64 {
    let w = c.bone_world("arm").expect("arm");
    w.c.atan2(w.a).to_degrees()
}

#[test]
fn ik_mix_set_from_code_aims_the_bone() {
    let mut c = Character::new(aim_rig());
    let aim = c.find_ik("aim").expect("aim");
    c.update(0.0);
    assert!(arm_degrees(&c).abs() < 1e-9, "mix 0 leaves the arm alone");
    // The full aim: atan2(4, 3); half the mix: half the angle (Spine's one-bone IK mixes
    // the rotation).
    let full = 4f64.atan2(3.0).to_degrees();
    for (mix, want) in [(1.0, full), (0.5, full / 2.0), (0.0, 0.0)] {
        let mut s = c.ik(aim).expect("state");
        s.mix = mix;
        c.set_ik(aim, s).expect("finite mix");
        c.update(0.0);
        assert!(
            (arm_degrees(&c) - want).abs() < 1e-6,
            "mix {mix}: {} vs {want}",
            arm_degrees(&c)
        );
        assert_eq!(c.ik("aim").map(|s| s.mix), Some(mix));
    }
    // The target moved from code: the arm follows it the same frame.
    let mut s = c.ik(aim).expect("state");
    s.mix = 1.0;
    c.set_ik(aim, s).expect("mix");
    c.set_ik_target(aim, -4.0, 3.0).expect("target");
    c.update(0.0);
    c.update(0.0); // the target is mapped through its parent as last posed
    let want = 3f64.atan2(-4.0).to_degrees();
    assert!((arm_degrees(&c) - want).abs() < 1e-6, "{}", arm_degrees(&c));
    // The setup pose restores the rig's mix.
    c.set_to_setup_pose();
    assert_eq!(c.ik(aim).map(|s| s.mix), Some(0.0));
}

#[test]
fn constraint_setters_refuse_bad_values_and_leave_the_state() {
    let mut c = Character::new(aim_rig());
    let aim = c.find_ik("aim").expect("aim");
    let before = c.ik(aim).expect("state");
    let mut bad = before;
    bad.mix = f64::NAN;
    assert!(matches!(
        c.set_ik(aim, bad),
        Err(CharacterError::NotFinite { what: "IK mix" })
    ));
    bad = before;
    bad.softness = f64::INFINITY;
    assert!(c.set_ik(aim, bad).is_err());
    bad = before;
    bad.bend_direction = 0;
    let err = c.set_ik(aim, bad).expect_err("bend 0");
    assert_eq!(err.to_string(), "IK bend direction must be 1 or -1");
    assert_eq!(c.ik(aim), Some(before), "refused calls change nothing");
    // Unknown names list what the rig has; ids out of range are refused.
    let err = c.set_ik("aim-ik", before).expect_err("unknown");
    assert_eq!(
        err.to_string(),
        "IK constraint not found: `aim-ik`; this rig's IK constraints: `aim`"
    );
    assert!(c.set_ik(IkId(1), before).is_err());
    // This rig has no transform, path or physics constraints.
    assert!(c.transform_mix(TransformId(0)).is_none());
    assert!(c.path_mix(PathId(0)).is_none());
    assert!(c.physics_params(PhysicsId(0)).is_none());
    assert!(c.find_transform("t").is_none());
    let mix = crate::rig::TransformMix::default();
    assert!(matches!(
        c.set_transform_mix("t", mix),
        Err(CharacterError::UnknownName {
            kind: "transform constraint",
            ..
        })
    ));
    let path = crate::rig::PathMix::default();
    assert!(c.set_path_mix(PathId(0), path).is_err());
    let phys = crate::rig::PhysicsParams::default();
    assert!(c.set_physics_params(PhysicsId(0), phys).is_err());
}

#[test]
fn set_param_takes_a_number_for_one_axis() {
    // A rig without parameters refuses both forms by name, listing none.
    let mut c = Character::new(aim_rig());
    let err = c.set_param("Head X", 0.5).expect_err("no params");
    assert_eq!(
        err.to_string(),
        "parameter not found: `Head X`; this rig has no parameters"
    );
    assert!(c.set_param("Head X", [0.5, 0.0]).is_err());
}

/// root -> arm; clip `raise` turns the arm 0 -> 90 degrees over 1 s (linear); slider `dial`
/// applies it at its own time with `mix`, additive or not; `turn` keys the arm to 30.
fn slider_rig(additive: bool, mix: f64) -> Arc<Rig> {
    use crate::raw::{BoneProperty, RawClip, RawCurve, RawKey, RawKeyData, RawSlider};
    use crate::raw::{RawTarget, RawTimeline};
    let key = |time: f64, v: f64| RawKey {
        time,
        values: vec![v],
        curve: RawCurve::Linear,
        data: RawKeyData::None,
    };
    let rotate = |keys: Vec<RawKey>| RawTimeline {
        target: RawTarget::Bone {
            bone: "arm".into(),
            property: BoneProperty::Rotate,
        },
        keys,
    };
    let mut raw = RawRig {
        runtime: crate::types::SpineRuntime::V43,
        ..Default::default()
    };
    raw.bones.push(RawBone::new("root", None));
    raw.bones.push(RawBone::new("arm", Some("root")));
    raw.clips.push(RawClip {
        name: "raise".into(),
        playback: None,
        timelines: vec![rotate(vec![key(0.0, 0.0), key(1.0, 90.0)])],
    });
    raw.clips.push(RawClip {
        name: "turn".into(),
        playback: None,
        timelines: vec![rotate(vec![key(0.0, 30.0)])],
    });
    raw.sliders.push(RawSlider {
        name: "dial".into(),
        order: 0,
        skin_required: false,
        animation: "raise".into(),
        additive,
        looping: false,
        time: 0.0,
        mix,
        bone: None,
    });
    Arc::new(crate::build::build_rig(&raw).expect("rig builds"))
}

#[test]
fn a_slider_poses_its_clip_at_its_time_with_its_mix() {
    // Closed forms: replace mixes from the current rotation r toward 90 t by the mix; add
    // adds 90 t times the mix. The animation `turn` holds the arm at 30 first.
    for (additive, mix, t) in [
        (false, 1.0, 0.5),
        (false, 0.5, 0.5),
        (true, 1.0, 0.25),
        (true, 0.5, 1.0),
    ] {
        let mut c = Character::new(slider_rig(additive, mix));
        c.play(0, "turn").expect("turn");
        let dial = c.find_slider("dial").expect("dial");
        let mut pose = c.slider(dial).expect("pose");
        assert_eq!(pose.mix, mix);
        pose.time = t;
        c.set_slider(dial, pose).expect("finite");
        // Several frames: the slider must not accumulate into the pose.
        for _ in 0..3 {
            c.update(1.0 / 60.0);
        }
        let want = if additive {
            30.0 + 90.0 * t * mix
        } else {
            30.0 + (90.0 * t - 30.0) * mix
        };
        // World rotations go through the fast sin/cos (about 1e-6 degrees).
        assert!(
            (arm_degrees(&c) - want).abs() < 1e-5,
            "{additive} {mix} {t}: {} vs {want}",
            arm_degrees(&c)
        );
        // The unconstrained pose keeps the animation's value.
        assert!((c.bone_local("arm").expect("arm").rotation - 30.0).abs() < 1e-12);
    }
}

#[test]
fn set_slider_refuses_what_it_cannot_pose() {
    let mut c = Character::new(slider_rig(false, 1.0));
    let pose = c.slider("dial").expect("dial");
    let bad = crate::rig::SliderPose {
        time: f64::NAN,
        ..pose
    };
    assert!(c.set_slider("dial", bad).is_err());
    assert_eq!(
        c.slider("dial"),
        Some(pose),
        "a refused pose changes nothing"
    );
    assert!(matches!(
        c.set_slider("nope", pose),
        Err(CharacterError::UnknownName { kind: "slider", .. })
    ));
    assert!(c.find_slider("nope").is_none());
    assert!(c.slider(crate::ids::SliderId(7)).is_none());
}

/// root -> `tip` (length 10) under a physics constraint moving in x and y (and rotating),
/// with wind 5 and no gravity, its parameters equal on both axes.
fn windy_rig() -> Arc<Rig> {
    let mut raw = RawRig {
        reference_scale: 100.0,
        ..Default::default()
    };
    raw.bones.push(RawBone::new("root", None));
    let mut tip = RawBone::new("tip", Some("root"));
    tip.length = 10.0;
    raw.bones.push(tip);
    raw.physics.push(crate::raw::RawPhysics {
        name: "sway".into(),
        order: 0,
        skin_required: false,
        bone: "tip".into(),
        x: 1.0,
        y: 1.0,
        rotate: 0.0,
        scale_x: 0.0,
        shear_x: 0.0,
        scale_y: crate::types::ScaleYMode::None,
        limit: 5000.0,
        step: 1.0 / 60.0,
        inertia: 1.0,
        strength: 100.0,
        damping: 1.0,
        mass_inverse: 1.0,
        wind: 5.0,
        gravity: 0.0,
        mix: 1.0,
        inertia_global: false,
        strength_global: false,
        damping_global: false,
        mass_global: false,
        wind_global: false,
        gravity_global: false,
        mix_global: false,
    });
    Arc::new(crate::build::build_rig(&raw).expect("rig builds"))
}

fn tip_after(directions: Option<([f64; 2], [f64; 2])>, frames: usize) -> (f64, f64) {
    let mut c = Character::new(windy_rig());
    if let Some((w, g)) = directions {
        c.set_physics_directions(w, g).expect("finite");
    }
    for _ in 0..frames {
        c.update(1.0 / 60.0);
    }
    let w = c.bone_world("tip").expect("tip");
    (w.x, w.y)
}

#[test]
fn physics_wind_blows_along_the_skeleton_direction() {
    // The default direction is 4.2's: wind along +x only.
    let (x, y) = tip_after(None, 30);
    assert!(x > 0.01 && y == 0.0, "({x}, {y})");
    assert_eq!(tip_after(Some(([1.0, 0.0], [0.0, 1.0])), 30), (x, y));
    // Wind turned to (0, -1), up in Spine's direction convention (y down, so gravity's
    // (0, 1) pulls down): the y spring runs the x spring's numbers (same parameters,
    // `yVelocity -= (ay + ...)` with ay = -wind), so the tip rises by exactly as much.
    let (x2, y2) = tip_after(Some(([0.0, -1.0], [0.0, 1.0])), 30);
    assert_eq!((x2, y2), (0.0, x), "wind up");
    // No wind direction: nothing moves.
    assert_eq!(tip_after(Some(([0.0, 0.0], [0.0, 1.0])), 30), (0.0, 0.0));
}
