//! Hand-made bad inputs: each error names the file, the JSON path and the culprit.
#![allow(clippy::unwrap_used)]

use sinew::build::build_rig;
use sinew_formats::LoadError;
use sinew_formats::spine::parse_spine_json;

/// A small valid rig; `patch` edits its JSON value before it is serialised.
fn rig_text(patch: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(
        r#"{
        "skeleton": {"spine": "4.2.22"},
        "bones": [{"name": "root"}, {"name": "arm", "parent": "root", "length": 10}],
        "slots": [{"name": "body", "bone": "root", "attachment": "box"},
                  {"name": "head", "bone": "arm", "attachment": "m"}],
        "ik": [{"name": "reach", "bones": ["arm"], "target": "root"}],
        "skins": [{"name": "default", "attachments": {
            "body": {"box": {"width": 10, "height": 10}},
            "head": {"m": {"type": "mesh", "uvs": [0, 0, 1, 0, 0, 1], "triangles": [0, 1, 2],
                           "vertices": [1, 0, 0, 0, 1, 1, 1, 10, 0, 1, 1, 1, 0, 10, 1]},
                     "l": {"type": "linkedmesh", "parent": "m"}}}}],
        "events": {"hit": {}},
        "animations": {"wave": {
            "bones": {"arm": {"rotate": [{"value": 10, "curve": [0.1, 0, 0.2, 5]}, {"time": 1}]}},
            "attachments": {"default": {"head": {"m": {"deform": [{"vertices": [1, 2]}]}}}},
            "drawOrder": [{"time": 0.5, "offsets": [{"slot": "body", "offset": 1}]}],
            "events": [{"time": 0.25, "name": "hit"}]}}
    }"#,
    )
    .unwrap();
    patch(&mut v);
    v.to_string()
}

/// Loads a patched rig, expecting an `Invalid` error whose message contains every needle.
fn invalid(patch: impl FnOnce(&mut serde_json::Value), path: &str, needles: &[&str]) {
    let err = parse_spine_json(&rig_text(patch), "bad.json").unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, LoadError::Invalid { .. }), "{msg}");
    assert!(msg.starts_with("bad.json: "), "{msg}");
    assert!(msg.contains(path), "path `{path}` not in: {msg}");
    for n in needles {
        assert!(msg.contains(n), "`{n}` not in: {msg}");
    }
}

#[test]
fn the_base_rig_is_valid() {
    let raw = parse_spine_json(&rig_text(|_| {}), "ok.json").unwrap();
    let rig = build_rig(&raw).unwrap();
    assert_eq!(rig.attachments.len(), 3);
    assert_eq!(rig.slot_deform_capacity, vec![0, 6]);
}

#[test]
fn syntax_and_version() {
    let e = parse_spine_json("{\"bones\": [}", "broken.json").unwrap_err();
    assert!(matches!(e, LoadError::Syntax { line: 1, .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("broken.json: invalid JSON at line 1")
    );
    let e = parse_spine_json(
        &rig_text(|v| v["skeleton"]["spine"] = "3.8.99".into()),
        "old.json",
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "old.json: unsupported Spine version 3.8.99 (sinew reads 4.2 and 4.3)"
    );
    // A missing version is accepted.
    parse_spine_json(
        &rig_text(|v| v["skeleton"] = serde_json::json!({})),
        "nover.json",
    )
    .unwrap();
    assert!(
        parse_spine_json("[1, 2]", "arr.json")
            .unwrap_err()
            .to_string()
            .contains("expected an object")
    );
}

#[test]
fn unknown_names() {
    invalid(
        |v| v["slots"][1]["bone"] = "jaw".into(),
        "$.slots[1].bone (`head`)",
        &["unknown bone `jaw`"],
    );
    invalid(
        |v| v["ik"][0]["target"] = "nope".into(),
        "$.ik[0].target (`reach`)",
        &["unknown target bone `nope`"],
    );
    invalid(
        |v| v["animations"]["wave"]["bones"]["leg"] = serde_json::json!({}),
        "$.animations.wave.bones.leg (`leg`)",
        &["unknown bone `leg`"],
    );
    invalid(
        |v| v["animations"]["wave"]["events"][0]["name"] = "boom".into(),
        "$.animations.wave.events[0].name (`boom`)",
        &["unknown event `boom`"],
    );
    invalid(
        |v| v["skins"][0]["attachments"]["head"]["l"]["parent"] = "gone".into(),
        "$.skins[0].attachments.head.l.parent (`l`)",
        &["gone"],
    );
}

#[test]
fn bone_order_and_duplicates() {
    invalid(
        |v| v["bones"] = serde_json::json!([{"name": "root"}, {"name": "arm", "parent": "late"}, {"name": "late", "parent": "root"}]),
        "$.bones[1].parent (`arm`)",
        &["unknown parent bone `late`"],
    );
    invalid(
        |v| v["bones"][1]["name"] = "root".into(),
        "$.bones[1] (`root`)",
        &["duplicate bone name `root`"],
    );
}

#[test]
fn wrong_types() {
    invalid(
        |v| v["bones"][1]["x"] = "abc".into(),
        "$.bones[1].x (`arm`)",
        &["expected a number, found a string"],
    );
    invalid(
        |v| v["bones"][1]["inherit"] = "sideways".into(),
        "$.bones[1].inherit (`arm`)",
        &["unknown inherit mode `sideways`"],
    );
    invalid(
        |v| v["slots"][0]["color"] = "ff00".into(),
        "$.slots[0].color (`body`)",
        &["invalid colour `ff00`"],
    );
}

#[test]
fn vertex_data() {
    let at = "$.skins[0].attachments.head.m.vertices";
    // Weighted vertex naming bone 7 of 2 (index 6 is the bone of the 2nd vertex).
    invalid(
        |v| v["skins"][0]["attachments"]["head"]["m"]["vertices"][6] = 7.into(),
        &format!("{at}[6] (`m`)"),
        &["bone index 7 out of range"],
    );
    // An influence count that runs off the end.
    invalid(
        |v| v["skins"][0]["attachments"]["head"]["m"]["vertices"][10] = 9.into(),
        at,
        &["influences but the data ends"],
    );
    // Counts that match neither layout.
    invalid(
        |v| v["skins"][0]["attachments"]["head"]["m"]["uvs"] = serde_json::json!([0, 0, 1, 0]),
        at,
        &["continues past the 2 vertices"],
    );
    invalid(
        |v| v["skins"][0]["attachments"]["head"]["m"]["triangles"] = serde_json::json!([0, 1, 3]),
        "$.skins[0].attachments.head.m.triangles[2] (`m`)",
        &["index 3 out of range"],
    );
    // A huge declared count is compared with the data, never allocated.
    invalid(
        |v| v["skins"][0]["attachments"]["body"]["bb"] = serde_json::json!({"type": "boundingbox", "vertexCount": 60000, "vertices": [0, 0, 1, 1]}),
        "$.skins[0].attachments.body.bb.vertices[4] (`bb`)",
        &["weighted vertex 2 needs 1 influences but the data ends"],
    );
    invalid(
        |v| v["skins"][0]["attachments"]["body"]["bb"] = serde_json::json!({"type": "boundingbox", "vertexCount": 1e9, "vertices": [0, 0, 1, 1]}),
        "$.skins[0].attachments.body.bb.vertexCount (`bb`)",
        &["expected a whole number in 0..=65536"],
    );
    invalid(
        |v| v["skins"][0]["attachments"]["body"]["box"]["type"] = "sprite".into(),
        "$.skins[0].attachments.body.box.type (`box`)",
        &["unknown attachment type `sprite`"],
    );
    invalid(
        |v| {
            v["skins"][0]["attachments"]["body"]["box"]["sequence"] =
                serde_json::json!({"count": 2147483648u64})
        },
        "$.skins[0].attachments.body.box.sequence.count (`box`)",
        &["0..=4096"],
    );
}

#[test]
fn animation_data() {
    let wave = "$.animations.wave";
    invalid(
        |v| {
            v["animations"]["wave"]["attachments"]["default"]["head"]["m"]["deform"][0]["offset"] =
                5.into()
        },
        &format!("{wave}.attachments.default.head.m.deform[0].vertices (`m`)"),
        &["run past the attachment's 6"],
    );
    invalid(
        |v| v["animations"]["wave"]["drawOrder"][0]["offsets"][0]["offset"] = 5.into(),
        &format!("{wave}.drawOrder[0].offsets[0].offset (`body`)"),
        &["invalid or taken position 5"],
    );
    invalid(
        |v| {
            v["animations"]["wave"]["bones"]["arm"]["rotate"][0]["curve"] =
                serde_json::json!([0.1, 0])
        },
        &format!("{wave}.bones.arm.rotate[0].curve (`arm`)"),
        &["curve needs 4 numbers"],
    );
    invalid(
        |v| v["animations"]["wave"]["bones"]["arm"]["rotate"][1]["time"] = (-1).into(),
        &format!("{wave}.bones.arm.rotate[1].time (`arm`)"),
        &["before the previous key"],
    );
    invalid(
        |v| v["animations"]["wave"]["bones"]["arm"]["wiggle"] = serde_json::json!([]),
        &format!("{wave}.bones.arm.wiggle (`arm`)"),
        &["unknown bone timeline `wiggle`"],
    );
}

#[test]
fn builder_reports_every_problem() {
    // Valid for the loader, wrong for the rig: two constraints share order 0, and a
    // clipping end slot does not exist.
    let text = rig_text(|v| {
        v["transform"] = serde_json::json!([{"name": "t", "bones": ["arm"], "target": "root"}]);
        v["skins"][0]["attachments"]["body"]["clip"] = serde_json::json!({"type": "clipping", "end": "nowhere", "vertexCount": 0, "vertices": []});
    });
    let raw = parse_spine_json(&text, "b.json").unwrap();
    let err = build_rig(&raw).unwrap_err();
    assert_eq!(err.problems.len(), 2, "{err}");
    assert!(
        err.problems
            .iter()
            .any(|p| p.to_string().contains("`reach` and `t` share order 0")),
        "{err}"
    );
    assert!(
        err.problems.iter().any(|p| p
            .to_string()
            .contains("attachment `clip`: unknown end slot `nowhere`")),
        "{err}"
    );
}
