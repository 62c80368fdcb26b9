//! The extras' `deformers`: load, save, load keeps them (animations in any order); what
//! the format cannot hold is refused by the writer; bad input names the file, the JSON
//! path and the deformer.

use super::*;
use sinew::character::deformer_rig::{
    DeformerDesc, DeformerDescKind, DeformerKey, DeformerKeysDesc, DeformerTargetDesc,
};
use sinew::physics::jiggle::CueCurve;

const DEFORMERS: &str = r#"{
  "deformers": [
    { "name": "body", "type": "warp", "origin": [-60, 20], "size": [120, 200],
      "cols": 2, "rows": 1, "bone": "torso", "slots": ["torso"],
      "animations": { "walk": [ { "offsets": [[0, 0], [0, 0], [0, 0], [1, 2], [3, 4], [5, 6]] } ] } },
    { "name": "flap", "type": "rotation", "pivot": [0, 150], "angle": 10,
      "parent": "body", "slots": [{ "slot": "cape", "attachment": "cape" }, "hood"],
      "animations": {
        "walk": [ { "time": 0, "angle": 0 }, { "time": 0.5, "angle": 20, "scale": 0.5, "x": 1, "y": -1, "curve": "stepped" } ],
        "idle": [ { "time": 0.25, "angle": -5, "curve": [0.25, 0, 0.75, 1] } ],
        "_note": "ignored" } }
  ]
}"#;

#[test]
fn deformers_load_save_load() {
    let x = parse_extras(DEFORMERS, "d.json").expect("parses");
    let body = &x.deformers[0];
    assert_eq!(
        body.kind,
        DeformerDescKind::Warp {
            origin: [-60.0, 20.0],
            size: [120.0, 200.0],
            cols: 2,
            rows: 1
        }
    );
    assert_eq!(body.bone.as_deref(), Some("torso"));
    assert_eq!(
        body.animations[0].keys[0].values,
        [0., 0., 0., 0., 0., 0., 1., 2., 3., 4., 5., 6.]
    );
    let flap = &x.deformers[1];
    assert_eq!(
        flap.kind,
        DeformerDescKind::Rotation {
            pivot: [0.0, 150.0],
            angle: 10.0,
            scale: 1.0
        }
    );
    assert_eq!(flap.parent.as_deref(), Some("body"));
    assert_eq!(flap.targets[0].attachment.as_deref(), Some("cape"));
    assert_eq!(flap.targets[1].attachment, None);
    let walk = flap
        .animations
        .iter()
        .find(|a| a.animation == "walk")
        .expect("walk");
    assert_eq!(walk.keys[1].values, [20.0, 0.5, 1.0, -1.0]);
    assert_eq!(walk.keys[1].curve, CueCurve::Stepped);
    let idle = flap
        .animations
        .iter()
        .find(|a| a.animation == "idle")
        .expect("idle");
    assert_eq!(idle.keys[0].curve, CueCurve::Bezier([0.25, 0.0, 0.75, 1.0]));
    assert_eq!(idle.keys[0].values, [-5.0, 0.0, 0.0, 0.0]);
    let text = try_write_extras(&x, "d.json").expect("writes");
    assert_eq!(parse_extras(&text, "d.json").expect("reads back"), x);
    // Built in code with its animations in any order: written, and read back the same but
    // for the order of the animations' members.
    let mut flap = DeformerDesc::new(
        "r",
        DeformerDescKind::Rotation {
            pivot: [0.5, 1e-9],
            angle: -30.0,
            scale: 2.0,
        },
        &["a"],
    );
    flap.targets.push(DeformerTargetDesc {
        slot: "b".into(),
        attachment: Some("m".into()),
    });
    for animation in ["walk", "idle"] {
        flap.animations.push(DeformerKeysDesc {
            animation: animation.into(),
            keys: vec![DeformerKey {
                time: 0.5,
                curve: CueCurve::Linear,
                values: vec![1.0, 0.0, 0.0, 2.0],
            }],
        });
    }
    let code = RigExtras {
        deformers: vec![flap],
        ..Default::default()
    };
    let text = try_write_extras(&code, "code.json").expect("writes");
    let back = parse_extras(&text, "code.json").expect("reads");
    assert_eq!(back.deformers[0].targets, code.deformers[0].targets);
    assert_eq!(back.deformers[0].animations.len(), 2);
    // What would not read back the same is refused, writing nothing.
    let refused = |x: &RigExtras, why: &str| {
        let e = try_write_extras(x, "t.json").expect_err(why);
        assert!(
            e.to_string().contains("would not read back")
                || e.to_string().starts_with("t.json: $.deformers"),
            "{why}: {e}"
        );
    };
    let mut short = code.clone();
    short.deformers[0].animations[0].keys[0].values.pop();
    refused(&short, "three values for a rotation");
    let mut twice = code.clone();
    twice.deformers[0].animations[1].animation = "walk".into();
    refused(&twice, "one animation keyed twice");
    let mut nan = code.clone();
    nan.deformers[0].animations[0].keys[0].values[0] = f64::NAN;
    refused(&nan, "a value that is not a number");
    let mut late = code;
    late.deformers[0].animations[0].keys.insert(
        0,
        DeformerKey {
            time: 1.0,
            curve: CueCurve::Linear,
            values: vec![0.0; 4],
        },
    );
    refused(&late, "keys out of order");
}

#[test]
fn bad_deformers_name_the_path_and_the_deformer() {
    let warp = |body: &str| {
        format!(
            r#"{{"deformers": [{{"name": "w", "type": "warp", "size": [10, 10], "cols": 1, "rows": 1, {body}}}]}}"#
        )
    };
    let cases = [
        (
            r#"{"deformers": [{"name": "r", "type": "twist"}]}"#.to_owned(),
            "$.deformers[0].type (`r`): unknown type `twist`",
        ),
        (
            r#"{"deformers": [{"name": "r"}]}"#.to_owned(),
            "$.deformers[0] (`r`): missing `type`",
        ),
        (
            r#"{"deformers": [{"name": "r", "type": "rotation", "cols": 2}]}"#.to_owned(),
            "$.deformers[0].cols (`r`): is not used by `type: rotation`",
        ),
        (
            r#"{"deformers": [{"name": "w", "type": "warp", "cols": 1, "rows": 1}]}"#.to_owned(),
            "$.deformers[0] (`w`): missing `size`",
        ),
        (
            warp(r#""slots": [], "pivot": [0, 0]"#),
            "$.deformers[0].pivot (`w`): is not used by `type: warp`",
        ),
        (
            r#"{"deformers": [{"name": "w", "type": "warp", "size": [10, 0], "cols": 1, "rows": 1}]}"#.to_owned(),
            "$.deformers[0].size (`w`): expected a width and a height > 0",
        ),
        (
            r#"{"deformers": [{"name": "w", "type": "warp", "size": [10, 10], "cols": 0, "rows": 1}]}"#.to_owned(),
            "$.deformers[0].cols (`w`): expected 1 cell or more",
        ),
        (
            r#"{"deformers": [{"name": "w", "type": "warp", "size": [10, 10], "cols": 300, "rows": 300}]}"#.to_owned(),
            "$.deformers[0].cols (`w`): 90601 lattice points",
        ),
        (
            warp(r#""animations": {"t": [{"offsets": [[0, 0]]}]}"#),
            "$.deformers[0].animations.t[0].offsets (`w`): 1 offsets for 4 lattice points",
        ),
        (
            warp(r#""animations": {"t": [{"angle": 3}]}"#),
            "$.deformers[0].animations.t[0] (`w`): unknown key `angle`",
        ),
        (
            warp(r#""animations": {"t": []}"#),
            "$.deformers[0].animations.t (`w`): expected one key or more",
        ),
        (
            r#"{"deformers": [{"name": "r", "type": "rotation", "animations": {"t": [{"time": 1}, {"time": 0.5}]}}]}"#.to_owned(),
            "$.deformers[0].animations.t[1].time (`r`): expected seconds >= 0, not before the key above",
        ),
        (
            r#"{"deformers": [{"name": "r", "type": "rotation", "slots": [{"attachment": "m"}]}]}"#.to_owned(),
            "$.deformers[0].slots[0] (`r`): missing `slot`",
        ),
        (
            r#"{"deformers": [{"name": "r", "type": "rotation", "pivot": [1]}]}"#.to_owned(),
            "$.deformers[0].pivot (`r`): expected [x, y]",
        ),
        (r#"{"deformers": {}}"#.to_owned(), "$.deformers: expected an array"),
    ];
    for (text, want) in cases {
        let e = parse_extras(&text, "x.json")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.starts_with("x.json: ") && e.contains(want),
            "{want}: got `{e}`"
        );
    }
}
