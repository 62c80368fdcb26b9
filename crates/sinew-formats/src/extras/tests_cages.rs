//! The extras' `cages`: load, save, load keeps them; the writer refuses what would not read
//! back; bad input names the file, the JSON path and the cage.

use super::*;
use sinew::character::cage_rig::{CageDesc, CageDrive, CageKeysDesc, CagePointKey};
use sinew::deform::cage_stage::CageMode;
use sinew::physics::jiggle::CueCurve;

pub(crate) const CAGES: &str = r#"{
  "sinewExtras": 1,
  "cages": [
    { "name": "belly", "slot": "torso", "attachment": "torso", "drive": "bones",
      "bones": ["hip", "torso"], "weights": [[1, 0], [1, 0], [0, 1], [0.25, 0.75]],
      "mode": "replace", "loops": [ [[-40, 60], [40, 60], [40, 160], [-40, 160]] ],
      "animations": {
        "walk": [ { "time": 0, "offsets": [[0, 0], [0, 0], [0, 0], [0, 0]], "curve": "stepped" },
                  { "time": 0.5, "offsets": [[0, 0], [0, 0], [6, 3], [-6, 3]],
                    "curve": [0.42, 0, 0.58, 1] },
                  { "time": 1, "offsets": [[0, 0], [0, 0], [0, 0], [0, 0]] } ]
      } },
    { "name": "flap", "slot": "cape", "drive": "mesh", "vertices": [[0, 1, 2, 3, 4]],
      "mode": "offset", "_note": "ignored" },
    { "name": "hand", "slot": "torso", "loops": [ [[0, 0], [9, 0], [9, 9]], [[1, 1], [3, 1], [3, 3]] ] },
    { "name": "one", "slot": "cape", "drive": "bones", "bones": ["cape-1"],
      "loops": [ [[0, 0], [9, 0], [9, 9]] ] }
  ]
}"#;

#[test]
fn cages_load_save_load() {
    let x = parse_extras(CAGES, "c.json").expect("parses");
    assert_eq!(x.cages.len(), 4);
    let belly = &x.cages[0];
    assert_eq!(belly.attachment.as_deref(), Some("torso"));
    assert_eq!(
        belly.drive,
        CageDrive::Bones {
            bones: vec!["hip".into(), "torso".into()],
            weights: vec![
                vec![1.0, 0.0],
                vec![1.0, 0.0],
                vec![0.0, 1.0],
                vec![0.25, 0.75]
            ],
        }
    );
    let walk = &belly.animations[0];
    assert_eq!(walk.animation, "walk");
    assert_eq!(walk.keys[0].curve, CueCurve::Stepped);
    assert_eq!(walk.keys[1].curve, CueCurve::Bezier([0.42, 0.0, 0.58, 1.0]));
    assert_eq!(walk.keys[1].offsets[3], [-6.0, 3.0]);
    assert_eq!(walk.keys[2].curve, CueCurve::Linear);
    let flap = &x.cages[1];
    assert_eq!(
        flap.drive,
        CageDrive::Mesh {
            vertices: vec![vec![0, 1, 2, 3, 4]]
        }
    );
    assert_eq!((flap.mode, flap.loops.len()), (CageMode::Offset, 0));
    let hand = &x.cages[2];
    assert_eq!(
        (&hand.drive, hand.mode, hand.loops.len()),
        (&CageDrive::Host, CageMode::Replace, 2)
    );
    let text = try_write_extras(&x, "c.json").expect("writes");
    let back = parse_extras(&text, "c.json").expect("reads back");
    assert_eq!(back, x);
    // Built in code, too.
    let mut d = CageDesc::new(
        "code",
        "s",
        vec![vec![[0.0, 0.0], [1.0, 0.0], [0.5, 1e-300]]],
    );
    d.animations.push(CageKeysDesc {
        animation: "a".into(),
        keys: vec![CagePointKey {
            time: 0.125,
            curve: CueCurve::Linear,
            offsets: vec![[0.1, -0.2]; 3],
        }],
    });
    let code = RigExtras {
        cages: vec![d],
        ..Default::default()
    };
    let text = try_write_extras(&code, "code.json").expect("writes");
    assert_eq!(parse_extras(&text, "code.json").expect("reads"), code);
}

#[test]
fn the_writer_refuses_what_would_not_read_back() {
    let tri = vec![vec![[0.0, 0.0], [1.0, 0.0], [0.5, 1.0]]];
    let bad = |d: CageDesc| RigExtras {
        cages: vec![d],
        ..Default::default()
    };
    let mut nan = CageDesc::new("nan", "s", tri.clone());
    nan.loops[0][1][0] = f64::NAN;
    let mut mesh_loops = CageDesc::new("m", "s", tri.clone());
    mesh_loops.drive = CageDrive::Mesh {
        vertices: vec![vec![0, 1, 2]],
    };
    let mut twice = CageDesc::new("t", "s", tri.clone());
    let keys = CageKeysDesc {
        animation: "a".into(),
        keys: vec![CagePointKey {
            time: 0.0,
            curve: CueCurve::Linear,
            offsets: vec![[0.0, 0.0]; 3],
        }],
    };
    twice.animations = vec![keys.clone(), keys];
    for (x, want) in [
        (
            bad(nan),
            "c.json: $.cages[0].loops[0][1][0] (`nan`): expected a number, found null",
        ),
        (
            bad(mesh_loops),
            "c.json: `cages` would not read back as it is",
        ),
        (bad(twice), "c.json: `cages` would not read back as it is"),
    ] {
        let e = try_write_extras(&x, "c.json").expect_err("refused");
        assert!(e.to_string().starts_with(want), "{e}");
        let dir = std::env::temp_dir().join(format!("sinew-cages-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("refused.extras.json");
        assert!(save_extras(&path, &x).is_err());
        assert!(!path.exists(), "nothing written");
    }
}

#[test]
fn bad_cages_name_the_path_and_the_cage() {
    let cage = |body: &str| format!(r#"{{"cages": [{{"name": "c", "slot": "s", {body}}}]}}"#);
    let tri = r#""loops": [[[0, 0], [1, 0], [0, 1]]]"#;
    let cases = [
        (
            cage(r#""drive": "magic""#),
            "$.cages[0].drive (`c`): unknown drive `magic`",
        ),
        (
            cage(&format!(r#""mode": "add", {tri}"#)),
            "$.cages[0].mode (`c`): unknown mode `add`",
        ),
        (
            cage(r#""drive": "host""#),
            "$.cages[0] (`c`): missing `loops`",
        ),
        (
            cage(r#""drive": "mesh""#),
            "$.cages[0] (`c`): missing `vertices`",
        ),
        (
            cage(&format!(
                r#""drive": "mesh", "vertices": [[0, 1, 2]], {tri}"#
            )),
            "$.cages[0].loops (`c`): is not used by `drive: mesh`",
        ),
        (
            cage(&format!(r#""drive": "bones", {tri}"#)),
            "$.cages[0].bones (`c`): is required",
        ),
        (
            cage(r#""drive": "mesh", "vertices": [[0, -1, 2]]"#),
            "$.cages[0].vertices[0][1] (`c`):",
        ),
        (
            cage(r#""loops": [[[0, 0], [1, 0]]]"#),
            "$.cages[0].loops (`c`): 2 cage points",
        ),
        (
            cage(r#""loops": [[[0, 0], [1, 0], [1]]]"#),
            "$.cages[0].loops[0][2] (`c`): expected [x, y]",
        ),
        (
            cage(&format!(
                r#"{tri}, "animations": {{"a": [{{"time": 0, "offsets": [[0, 0]]}}]}}"#
            )),
            "$.cages[0].animations.a[0].offsets (`c`): 1 offsets for 3 cage points",
        ),
        (
            cage(&format!(
                r#"{tri}, "animations": {{"a": [{{"time": 1, "offsets": [[0, 0], [0, 0], [0, 0]]}},
                   {{"time": 0.5, "offsets": [[0, 0], [0, 0], [0, 0]]}}]}}"#
            )),
            "$.cages[0].animations.a[1].time (`c`): expected seconds >= 0, not before",
        ),
        (
            cage(&format!(r#"{tri}, "animations": {{"a": []}}"#)),
            "$.cages[0].animations.a (`c`): expected one key or more",
        ),
        (
            cage(&format!(
                r#"{tri}, "animations": {{"a": [{{"offsets": [[0, 0], [0, 0], [0, 0]], "curve": "ease"}}]}}"#
            )),
            "$.cages[0].animations.a[0].curve (`c`): unknown curve `ease`",
        ),
        (
            cage(&format!(r#"{tri}, "loop": 1"#)),
            "$.cages[0] (`c`): unknown key `loop`",
        ),
        (
            r#"{"cages": [{"slot": "s"}]}"#.to_owned(),
            "$.cages[0]: missing `name`",
        ),
        (r#"{"cages": {}}"#.to_owned(), "$.cages: expected an array"),
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
