//! The character calls of ABI 104 against the Rust facade, on a small Spine rig written here
//! with one constraint of each kind: constraint mixes set from C pose bit for bit as the
//! same values set through `sinew::Character` (and differently from the setup values);
//! attachments shown and hidden; animation durations and track times; every not-found
//! error lists the rig's names; hostile arguments (null pointers, bad UTF-8, NaN, bad
//! handles) give statuses.

use crate::common;

use common::{character, last_error, rust_worlds, s, worlds};
use sinew_capi::*;
use std::ptr::{null, null_mut};

/// Bones for a two-bone IK leg, a transform follower, a path rider and a physics tail; two
/// attachments on `hand`; `idle` (1 s, keys the tail) and `run` (0.5 s, keys nothing the
/// constraints read).
pub const RIG: &str = r#"{
  "skeleton": { "spine": "4.2.22" },
  "bones": [
    { "name": "root" },
    { "name": "upper", "parent": "root", "length": 50, "rotation": -90 },
    { "name": "lower", "parent": "upper", "length": 50, "x": 50, "rotation": 30 },
    { "name": "target", "parent": "root", "x": 40, "y": -60 },
    { "name": "follower", "parent": "root", "x": -30 },
    { "name": "pathbone", "parent": "root" },
    { "name": "rider", "parent": "root", "length": 10 },
    { "name": "mover", "parent": "root" },
    { "name": "tail", "parent": "mover", "x": 10, "length": 50, "rotation": 30 }
  ],
  "slots": [
    { "name": "track", "bone": "pathbone", "attachment": "track" },
    { "name": "hand", "bone": "lower", "attachment": "fist" }
  ],
  "ik": [ { "name": "leg-ik", "order": 0, "bones": ["upper", "lower"], "target": "target", "mix": 0 } ],
  "transform": [ { "name": "follow-tc", "order": 1, "bones": ["follower"], "target": "target",
    "mixRotate": 0, "mixX": 0, "mixY": 0, "mixScaleX": 0, "mixScaleY": 0, "mixShearY": 0 } ],
  "path": [ { "name": "ride", "order": 2, "bones": ["rider"], "target": "track", "positionMode": "percent",
    "position": 0.1, "spacingMode": "length", "spacing": 5, "rotateMode": "tangent",
    "mixRotate": 0, "mixX": 0, "mixY": 0 } ],
  "physics": [ { "name": "sway", "order": 3, "bone": "tail", "x": 1, "rotate": 1, "inertia": 0.8,
    "strength": 120, "damping": 0.9, "mass": 2, "mix": 0 } ],
  "skins": [ { "name": "default", "attachments": {
    "track": { "track": { "type": "path", "closed": false, "constantSpeed": true, "vertexCount": 6,
      "vertices": [-20, -10, 0, 0, 30, 20, 50, 40, 80, 30, 110, 20], "lengths": [89.24, 172.94] } },
    "hand": { "fist": { "width": 10, "height": 10 }, "open": { "width": 12, "height": 12 } }
  } } ],
  "animations": {
    "idle": { "bones": { "mover": { "translate": [ { "x": 0 }, { "time": 1, "x": 40 } ] } } },
    "run": { "bones": { "target": { "translate": [ { "x": 0 }, { "time": 0.5, "x": 0 } ] } } }
  }
}"#;

/// `RIG` as a C rig and as a Rust facade character of the same content.
pub fn load() -> (*mut SinewRig, sinew::Character) {
    let mut rig = null_mut();
    let st = sinew_rig_load_spine_memory(RIG.as_ptr(), RIG.len(), null(), 0, null(), 0, &mut rig);
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let none = |_: &str| -> std::io::Result<Vec<u8>> {
        Err(std::io::Error::from(std::io::ErrorKind::NotFound))
    };
    let asset = sinew_formats::load_bytes(
        "<skeleton>",
        RIG.as_bytes(),
        &none,
        &sinew_formats::LoadOptions::default(),
    )
    .expect("the Rust load");
    (rig, asset.character())
}

fn step(c: *mut SinewCharacter, rust: &mut sinew::Character, frames: usize) {
    for _ in 0..frames {
        assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
        rust.update(1.0 / 60.0);
    }
}

#[test]
fn constraint_mixes_set_from_c_pose_as_the_facade() {
    let (rig, mut rust) = load();
    let c = character(rig);
    let idle = "idle";
    assert_eq!(
        sinew_character_set_animation(c, 0, idle.as_ptr().cast(), 4, true),
        SinewStatus::Ok
    );
    rust.set_animation(0, "idle", true).expect("idle");
    step(c, &mut rust, 3);
    let setup = worlds(c);
    assert!(setup == rust_worlds(&rust));

    // Read the setup values.
    let (ik, ikl) = s("leg-ik");
    let mut k = SinewIkState::default();
    assert_eq!(sinew_character_ik(c, ik, ikl, &mut k), SinewStatus::Ok);
    assert_eq!((k.mix, k.bend_direction), (0.0, 1));
    let (tc, tcl) = s("follow-tc");
    let mut t = SinewTransformMix::default();
    assert_eq!(
        sinew_character_transform_mix(c, tc, tcl, &mut t),
        SinewStatus::Ok
    );
    assert_eq!(t, SinewTransformMix::default());
    let (pc, pcl) = s("ride");
    let mut p = SinewPathMix::default();
    assert_eq!(
        sinew_character_path_mix(c, pc, pcl, &mut p),
        SinewStatus::Ok
    );
    assert_eq!((p.position, p.spacing, p.mix_rotate), (0.1, 5.0, 0.0));
    let (ph, phl) = s("sway");
    let mut q = SinewPhysicsParams::default();
    assert_eq!(
        sinew_character_physics_params(c, ph, phl, &mut q),
        SinewStatus::Ok
    );
    assert_eq!((q.strength, q.mix), (120.0, 0.0));
    assert_eq!(q.mass_inverse, 0.5);

    // Set each from C and the same through the facade.
    k = SinewIkState {
        mix: 1.0,
        softness: 2.0,
        bend_direction: -1,
        compress: 0,
        stretch: 1,
    };
    assert_eq!(sinew_character_set_ik(c, ik, ikl, &k), SinewStatus::Ok);
    let mut ks = rust.ik("leg-ik").expect("ik");
    (ks.mix, ks.softness, ks.bend_direction, ks.stretch) = (1.0, 2.0, -1, true);
    rust.set_ik("leg-ik", ks).expect("set_ik");
    t = SinewTransformMix {
        rotate: 1.0,
        x: 0.5,
        y: 0.25,
        scale_x: 0.0,
        scale_y: 0.0,
        shear_y: 0.0,
    };
    assert_eq!(
        sinew_character_set_transform_mix(c, tc, tcl, &t),
        SinewStatus::Ok
    );
    let mut tm = rust.transform_mix("follow-tc").expect("tc");
    (tm.rotate, tm.x, tm.y) = (1.0, 0.5, 0.25);
    rust.set_transform_mix("follow-tc", tm).expect("set tc");
    p.mix_rotate = 1.0;
    p.mix_x = 1.0;
    p.mix_y = 1.0;
    p.position = 0.3;
    assert_eq!(
        sinew_character_set_path_mix(c, pc, pcl, &p),
        SinewStatus::Ok
    );
    let mut pm = rust.path_mix("ride").expect("path");
    (pm.mix_rotate, pm.mix_x, pm.mix_y, pm.position) = (1.0, 1.0, 1.0, 0.3);
    rust.set_path_mix("ride", pm).expect("set path");
    q.mix = 1.0;
    q.wind = 3.0;
    assert_eq!(
        sinew_character_set_physics_params(c, ph, phl, &q),
        SinewStatus::Ok
    );
    let mut pp = rust.physics_params("sway").expect("physics");
    (pp.mix, pp.wind) = (1.0, 3.0);
    rust.set_physics_params("sway", pp).expect("set physics");

    // Read back what was set.
    let mut k2 = SinewIkState::default();
    assert_eq!(sinew_character_ik(c, ik, ikl, &mut k2), SinewStatus::Ok);
    assert_eq!(k2, k);
    let mut t2 = SinewTransformMix::default();
    sinew_character_transform_mix(c, tc, tcl, &mut t2);
    assert_eq!(t2, t);
    let mut p2 = SinewPathMix::default();
    sinew_character_path_mix(c, pc, pcl, &mut p2);
    assert_eq!(p2, p);
    let mut q2 = SinewPhysicsParams::default();
    sinew_character_physics_params(c, ph, phl, &mut q2);
    assert_eq!(q2, q);

    // The pose moves with the mixes, equal to the facade's bit for bit, frame by frame.
    for f in 0..30 {
        step(c, &mut rust, 1);
        assert!(worlds(c) == rust_worlds(&rust), "frame {f} differs");
    }
    assert!(worlds(c) != setup, "the mixes changed nothing");
    let bone = |name: &str| {
        let mut w = SinewWorldTransform::default();
        let (n, l) = s(name);
        assert_eq!(sinew_character_bone_world(c, n, l, &mut w), SinewStatus::Ok);
        w
    };
    // Full IK mix: the lower bone's tip reaches the target (40, -60), within reach.
    let lower = bone("lower");
    let tip = (lower.x + 50.0 * lower.a, lower.y + 50.0 * lower.c);
    assert!(
        (tip.0 - 40.0).abs() < 0.5 && (tip.1 + 60.0).abs() < 0.5,
        "tip {tip:?}"
    );
    // The follower moved half way to the target in x, a quarter in y.
    let follower = bone("follower");
    assert!((follower.x - 5.0).abs() < 1e-4, "follower x {}", follower.x);
    assert!(
        (follower.y + 15.0).abs() < 1e-4,
        "follower y {}",
        follower.y
    );

    // Refused values change nothing.
    let bad = [
        SinewIkState { mix: f64::NAN, ..k },
        SinewIkState {
            softness: f64::INFINITY,
            ..k
        },
        SinewIkState {
            bend_direction: 0,
            ..k
        },
        SinewIkState {
            bend_direction: i32::MIN,
            ..k
        },
        SinewIkState { mix: 1e300, ..k },
    ];
    for b in bad {
        assert_eq!(
            sinew_character_set_ik(c, ik, ikl, &b),
            SinewStatus::InvalidArgument,
            "{b:?}"
        );
    }
    let mut k3 = SinewIkState::default();
    sinew_character_ik(c, ik, ikl, &mut k3);
    assert_eq!(k3, k, "a refused value changed the state");
    let t_bad = SinewTransformMix { x: f64::NAN, ..t };
    assert_eq!(
        sinew_character_set_transform_mix(c, tc, tcl, &t_bad),
        SinewStatus::InvalidArgument
    );
    let p_bad = SinewPathMix {
        position: f64::NEG_INFINITY,
        ..p
    };
    assert_eq!(
        sinew_character_set_path_mix(c, pc, pcl, &p_bad),
        SinewStatus::InvalidArgument
    );
    for q_bad in [
        SinewPhysicsParams {
            mass_inverse: -1.0,
            ..q
        },
        SinewPhysicsParams {
            damping: f64::NAN,
            ..q
        },
    ] {
        assert_eq!(
            sinew_character_set_physics_params(c, ph, phl, &q_bad),
            SinewStatus::InvalidArgument
        );
    }
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}

#[test]
fn constraint_calls_refuse_hostile_arguments() {
    let (rig, _) = load();
    let c = character(rig);
    let (ik, ikl) = s("leg-ik");
    let mut k = SinewIkState::default();
    let bad_utf8 = [0xffu8, 0xfe];
    // Null out and value pointers, bad UTF-8, a null name with a length, unknown names.
    assert_eq!(
        sinew_character_ik(c, ik, ikl, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_set_ik(c, ik, ikl, null()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_ik(c, bad_utf8.as_ptr().cast(), 2, &mut k),
        SinewStatus::InvalidUtf8
    );
    assert_eq!(
        sinew_character_ik(c, null(), 5, &mut k),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_transform_mix(c, null(), 0, null_mut()),
        SinewStatus::NotFound
    );
    assert_eq!(
        sinew_character_path_mix(c, ik, ikl, &mut SinewPathMix::default()),
        SinewStatus::NotFound
    );
    assert!(
        last_error().contains("this rig's path constraints: `ride`"),
        "{}",
        last_error()
    );
    assert_eq!(
        sinew_character_physics_params(c, ik, ikl, &mut SinewPhysicsParams::default()),
        SinewStatus::NotFound
    );
    assert!(last_error().contains("`sway`"), "{}", last_error());
    assert_eq!(
        sinew_character_set_transform_mix(c, ik, ikl, &SinewTransformMix::default()),
        SinewStatus::NotFound
    );
    assert!(last_error().contains("`follow-tc`"), "{}", last_error());
    assert_eq!(
        sinew_character_set_physics_params(c, ik, ikl, &SinewPhysicsParams::default()),
        SinewStatus::NotFound
    );
    assert_eq!(
        sinew_character_set_path_mix(c, ik, ikl, null()),
        SinewStatus::NullArgument
    );
    // Handles: null, a rig where a character is expected, destroyed, foreign.
    assert_eq!(
        sinew_character_ik(null(), ik, ikl, &mut k),
        SinewStatus::InvalidHandle
    );
    assert_eq!(
        sinew_character_ik(rig.cast(), ik, ikl, &mut k),
        SinewStatus::WrongHandleType
    );
    assert_eq!(
        sinew_character_set_ik(std::ptr::without_provenance_mut(0x1239), ik, ikl, &k),
        SinewStatus::InvalidHandle
    );
    sinew_character_destroy(c);
    assert_eq!(
        sinew_character_ik(c, ik, ikl, &mut k),
        SinewStatus::InvalidHandle
    );
    assert_eq!(
        sinew_character_set_physics_params(c, ik, ikl, &SinewPhysicsParams::default()),
        SinewStatus::InvalidHandle
    );
    sinew_rig_destroy(rig);
}
