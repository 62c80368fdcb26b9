//! The extras' `shapes`: load, save, load keeps them (tracks in any order); bad input names
//! the file, the JSON path and the set.

use super::*;
use sinew::character::shape_rig::{ExampleDesc, ShapeSetDesc, ShapeTrackDesc};
use sinew::physics::jiggle::{CueCurve, CueKey};

const SHAPES: &str = r#"{
  "shapes": [
    { "name": "mouth", "slot": "head", "attachment": "face",
      "examples": [ { "name": "open", "offsets": [[0, 0], [0, -6], [0.5, -6]] },
                    { "name": "wide", "offsets": [[-2, 0], [2, 0], [0, 0]] } ],
      "animations": {
        "talk": { "open": [ { "time": 0, "value": 0 }, { "time": 0.2, "value": 1, "curve": "stepped" } ],
                  "wide": [ { "value": -0.5 } ] },
        "_note": "ignored"
      } }
  ]
}"#;

#[test]
fn shapes_load_save_load() {
    let x = parse_extras(SHAPES, "s.json").expect("parses");
    let s = &x.shapes[0];
    assert_eq!(
        (s.name.as_str(), s.attachment.as_deref()),
        ("mouth", Some("face"))
    );
    assert_eq!(s.examples[0].offsets[2], [0.5, -6.0]);
    assert_eq!(s.tracks.len(), 2);
    let open = s.tracks.iter().find(|t| t.example == "open").expect("open");
    assert_eq!(open.keys[1].curve, CueCurve::Stepped);
    let text = try_write_extras(&x, "s.json").expect("writes");
    assert_eq!(parse_extras(&text, "s.json").expect("reads back"), x);
    // Built in code with its tracks in any order: written, and read back the same but for
    // the order of the animations' members.
    let code = RigExtras {
        shapes: vec![ShapeSetDesc {
            name: "m".into(),
            slot: "s".into(),
            attachment: None,
            examples: vec![ExampleDesc {
                name: "z".into(),
                offsets: vec![[0.25, 1e-9]],
            }],
            tracks: vec![
                ShapeTrackDesc {
                    animation: "walk".into(),
                    example: "z".into(),
                    keys: vec![CueKey::new(0.0, 1.0)],
                },
                ShapeTrackDesc {
                    animation: "idle".into(),
                    example: "z".into(),
                    keys: vec![CueKey::new(0.5, -1.0)],
                },
            ],
        }],
        ..Default::default()
    };
    let text = try_write_extras(&code, "code.json").expect("writes");
    let back = parse_extras(&text, "code.json").expect("reads");
    assert_eq!(back.shapes[0].tracks.len(), 2);
    assert_eq!(back.shapes[0].examples, code.shapes[0].examples);
    // One animation's example keyed twice cannot be written.
    let mut twice = code.clone();
    twice.shapes[0].tracks[1].animation = "walk".into();
    let e = try_write_extras(&twice, "t.json").expect_err("refused");
    assert!(
        e.to_string().contains("`shapes` would not read back"),
        "{e}"
    );
}

#[test]
fn bad_shapes_name_the_path_and_the_set() {
    let set = |body: &str| format!(r#"{{"shapes": [{{"name": "m", "slot": "s", {body}}}]}}"#);
    let ex = r#""examples": [{"name": "a", "offsets": [[0, 0]]}]"#;
    let cases = [
        (
            set(r#""examples": []"#),
            "$.shapes[0].examples (`m`): 0 examples",
        ),
        (
            set(r#""examples": [{"name": "a"}]"#),
            "$.shapes[0].examples[0] (`a`): missing `offsets`",
        ),
        (
            set(r#""examples": [{"name": "a", "offsets": [[0]]}]"#),
            "$.shapes[0].examples[0].offsets[0] (`a`): expected [dx, dy]",
        ),
        (
            set(&format!(
                r#"{ex}, "animations": {{"t": {{"a": [{{"time": 0}}]}}}}"#
            )),
            "$.shapes[0].animations.t.a[0] (`m`): missing `value`",
        ),
        (
            set(&format!(
                r#"{ex}, "animations": {{"t": {{"a": [{{"value": 11}}]}}}}"#
            )),
            "$.shapes[0].animations.t.a[0].value (`m`): expected a weight in -10..10",
        ),
        (
            set(&format!(r#"{ex}, "animations": {{"t": {{"a": []}}}}"#)),
            "$.shapes[0].animations.t.a (`m`): expected one key or more",
        ),
        (
            set(&format!(r#"{ex}, "weights": 1"#)),
            "$.shapes[0] (`m`): unknown key `weights`",
        ),
        (
            r#"{"shapes": [{"name": "m"}]}"#.to_owned(),
            "$.shapes[0] (`m`): missing `slot`",
        ),
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
