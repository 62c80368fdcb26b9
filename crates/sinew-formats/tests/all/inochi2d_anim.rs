//! Inochi2D animations: `synthetic_tiny.inp` with an `animations` block added to its JSON
//! payload (the INP1 container rebuilt in memory) loads into parameter animations whose
//! lanes name the right parameters, plays through `ParamPlayer` into hand-computed parameter
//! values and a moving pose, and bad animations fail with errors naming the animation and
//! the lane.

use serde_json::{Value, json};
use sinew::Instance;
use sinew::character::update_params;
use sinew::params::inochi_clip::{LaneInterp, LaneMerge};
use sinew::params::player::ParamPlayer;
use sinew_formats::inochi2d::container::write_container;
use sinew_formats::inochi2d::{build_puppet, parse_inochi2d, read_container};

/// `synthetic_tiny.inp` with `animations` set in its payload, as container bytes.
fn tiny_with(animations: Value) -> Option<Vec<u8>> {
    let dir = sinew_testutil::require_fixtures("inochi2d_anim")?;
    let bytes = std::fs::read(dir.join("inochi2d/synthetic_tiny.inp")).expect("fixture");
    let c = read_container(&bytes, "synthetic_tiny.inp").expect("container");
    let mut payload: Value = serde_json::from_slice(c.json).expect("payload");
    payload["animations"] = animations;
    let json = serde_json::to_vec(&payload).expect("json");
    Some(write_container(&json, &c.textures, &c.ext))
}

fn wave() -> Value {
    json!({
        "wave": {
            "timestep": 0.1, "length": 20, "leadIn": 5, "leadOut": 15,
            "additive": false, "animationWeight": 1.0,
            "lanes": [
                {"uuid": 1005, "target": 0, "interpolation": "Linear", "merge_mode": "Forced",
                 "keyframes": [{"frame": 10, "value": 1.0, "tension": 0.5},
                               {"frame": 0, "value": 0.0, "tension": 0.5},
                               {"frame": 20, "value": -1.0, "tension": 0.5}]},
                {"uuid": 1006, "target": 1, "interpolation": "Stepped",
                 "keyframes": [{"frame": 0, "value": -0.5}, {"frame": 8, "value": 0.5}]}
            ]
        },
        "nod": {
            "timestep": 0.05, "length": 10, "additive": true, "animationWeight": 0.5,
            "lanes": [{"uuid": 1006, "target": 0, "interpolation": "Bezier",
                       "merge_mode": "Passthrough",
                       "keyframes": [{"frame": 0, "value": 0.0, "tension": 0.0},
                                     {"frame": 10, "value": 0.8, "tension": 0.0}]}]
        }
    })
}

#[test]
fn animations_load_and_play() {
    let Some(bytes) = tiny_with(wave()) else {
        return;
    };
    let p = parse_inochi2d(&bytes, "tiny+anim.inp").expect("loads");
    let rig = build_puppet(&p).expect("builds");
    assert_eq!(p.animations.len(), 2);
    let w = &p.animations[0];
    assert_eq!(w.name, "wave");
    assert!((w.duration() - 2.0).abs() < 1e-12);
    assert_eq!((w.lead_in, w.lead_out), (Some(5), Some(15)));
    assert_eq!(w.lanes.len(), 2);
    let p1 = rig.params.find("Param1D_00").expect("param");
    let p2 = rig.params.find("Param2D_00").expect("param");
    assert_eq!((w.lanes[0].param, w.lanes[0].component), (p1, 0));
    assert_eq!((w.lanes[1].param, w.lanes[1].component), (p2, 1));
    assert_eq!(w.lanes[0].merge, LaneMerge::Forced);
    assert_eq!(w.lanes[1].interp, LaneInterp::Stepped);
    let frames: Vec<f32> = w.lanes[0].keys.iter().map(|k| k.frame).collect();
    assert_eq!(frames, [0.0, 10.0, 20.0], "keyframes sorted");
    assert_eq!(w.lanes[1].keys[0].tension, 0.5, "default tension");
    let nod = &p.animations[1];
    assert!(nod.additive && (nod.weight - 0.5).abs() < 1e-12);
    assert_eq!((nod.lead_in, nod.lead_out), (None, None));

    let mut inst = Instance::new(&rig);
    let base = inst.params.values.clone();
    let mut player = ParamPlayer::new(rig.params.params.len(), 2);
    player.set_animation(0, 0, true, 0.0);
    player.set_animation(1, 1, true, 0.0);
    let frame = |inst: &mut Instance, player: &mut ParamPlayer, dt: f64| {
        player.update(&p.animations, dt);
        inst.params.values.copy_from_slice(&base);
        player.apply_to(&rig, &p.animations, inst);
        update_params(&rig, inst, dt, false);
    };
    frame(&mut inst, &mut player, 0.0);
    let pose0 = inst.world.clone();
    assert_eq!(inst.params.values[p1.index()][0], 0.0);
    assert_eq!(inst.params.values[p2.index()][1], -0.5);
    frame(&mut inst, &mut player, 0.25);
    // wave at frame 2.5: 0.25 and the held -0.5; nod at frame 5 of 10, tension 0:
    // smoothstep(0.5) x 0.8 = 0.4, times the weight 0.5.
    let v = inst.params.values.clone();
    assert!((v[p1.index()][0] - 0.25).abs() < 1e-6, "{:?}", v);
    assert!((v[p2.index()][0] - 0.2).abs() < 1e-6, "{:?}", v);
    assert_eq!(v[p2.index()][1], -0.5);
    assert_ne!(inst.world, pose0, "the pose moves");
    // 1.55 s in: wave frame 15.5 wraps to 5.5 (0.55, before the step at 8); nod frame 31
    // wraps to 1: smoothstep(0.1) = 0.028, x 0.8 x 0.5.
    frame(&mut inst, &mut player, 1.3);
    let v = inst.params.values.clone();
    assert!((v[p1.index()][0] - 0.55).abs() < 1e-6, "{:?}", v);
    assert_eq!(v[p2.index()][1], -0.5);
    assert!((v[p2.index()][0] - 0.0112).abs() < 1e-6, "{:?}", v);
}

fn load_err(animations: Value) -> Option<String> {
    let bytes = tiny_with(animations)?;
    Some(
        parse_inochi2d(&bytes, "bad.inp")
            .expect_err("must fail")
            .to_string(),
    )
}

#[test]
fn unknown_parameter_uuid_names_animation_and_lane() {
    let mut a = wave();
    a["wave"]["lanes"][1]["uuid"] = json!(999);
    let Some(e) = load_err(a) else { return };
    assert!(
        e.contains("bad.inp")
            && e.contains("animation `wave` lane 1")
            && e.contains("unknown parameter uuid 999")
            && e.contains("$.animations.wave.lanes[1]"),
        "{e}"
    );
}

#[test]
fn bad_interpolation_names_animation_and_lane() {
    let mut a = wave();
    a["nod"]["lanes"][0]["interpolation"] = json!("Quadratic");
    let Some(e) = load_err(a) else { return };
    assert!(
        e.contains("animation `nod` lane 0") && e.contains("unknown interpolation \"Quadratic\""),
        "{e}"
    );
}

#[test]
fn huge_keyframe_count_is_refused() {
    let mut a = wave();
    let keys: Vec<Value> = (0..65_537)
        .map(|i| json!({"frame": i, "value": 0.0}))
        .collect();
    a["wave"]["lanes"][0]["keyframes"] = Value::Array(keys);
    let Some(e) = load_err(a) else { return };
    assert!(
        e.contains("animation `wave` lane 0") && e.contains("65537 keyframes (at most 65536)"),
        "{e}"
    );
}

#[test]
fn malformed_animations_are_errors_not_panics() {
    let cases = [
        (json!([1, 2]), "`animations` must be an object"),
        (json!({"a": 3}), "animation `a`: must be an object"),
        (
            json!({"a": {"timestep": 0}}),
            "animation `a`: `timestep` 0 must be positive",
        ),
        (
            json!({"a": {"length": -4}}),
            "animation `a`: `length` -4 must be",
        ),
        (
            json!({"a": {"lanes": 7}}),
            "animation `a`: `lanes` must be a list",
        ),
        (
            json!({"a": {"lanes": [{"uuid": 1005, "target": 2}]}}),
            "animation `a` lane 0: `target` must be 0 or 1",
        ),
        (
            json!({"a": {"lanes": [{"uuid": 1005, "keyframes": [{"frame": 1}]}]}}),
            "animation `a` lane 0: keyframes[0].value must be a finite number",
        ),
        (
            json!({"a": {"lanes": [{"uuid": 1005, "merge_mode": "Sideways"}]}}),
            "animation `a` lane 0: unknown merge_mode \"Sideways\"",
        ),
        (
            json!({"a": {"lanes": [{"target": 0}]}}),
            "animation `a` lane 0: has no numeric `uuid`",
        ),
    ];
    for (a, want) in cases {
        let Some(e) = load_err(a.clone()) else { return };
        assert!(e.contains(want), "{a}: {e}");
    }
    // No animations at all, or null: none.
    let bytes = tiny_with(Value::Null).expect("fixture");
    assert!(
        parse_inochi2d(&bytes, "t")
            .expect("loads")
            .animations
            .is_empty()
    );
}
