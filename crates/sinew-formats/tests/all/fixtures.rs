//! Every official Spine 4.2 export (and the synthetic rigs) in the shared fixtures loads,
//! builds, and has the counts its JSON declares; every `.atlas` parses.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use sinew::build::build_rig;
use sinew::raw::{RawAttachmentKind, RawRig};
use sinew_formats::spine::load_spine_json;
use std::path::PathBuf;

/// Every `*/*.json` rig under the Spine fixtures (goldens and render references excluded).
fn fixture_jsons(test: &str) -> Option<Vec<PathBuf>> {
    let out: Vec<PathBuf> = sinew_testutil::spine_fixture_files(test, &["json"])?
        .into_iter()
        .filter(|f| {
            let folder = f.parent().and_then(|p| p.file_name());
            folder.is_none_or(|n| n != "golden" && n != "render-ref")
        })
        .collect();
    assert!(
        out.len() >= 20,
        "expected the 22 fixture rigs, found {}",
        out.len()
    );
    Some(out)
}

fn len_of(v: &Value, key: &str) -> usize {
    match v.get(key) {
        Some(Value::Array(a)) => a.len(),
        Some(Value::Object(o)) => o.len(),
        _ => 0,
    }
}

/// Non-empty key lists under `map.<name>.<timeline>` (two levels) or `map.<name>` (one).
fn count_nested(v: Option<&Value>, depth: usize) -> usize {
    let Some(Value::Object(o)) = v else { return 0 };
    o.values()
        .map(|x| match (depth, x) {
            (1, Value::Array(a)) => usize::from(!a.is_empty()),
            (d, Value::Object(_)) if d > 1 => count_nested(Some(x), d - 1),
            _ => 0,
        })
        .sum()
}

/// Timelines the official loader creates for one animation.
fn expected_timelines(anim: &Value) -> usize {
    let mut n = count_nested(anim.get("slots"), 2)
        + count_nested(anim.get("bones"), 2)
        + count_nested(anim.get("ik"), 1)
        + count_nested(anim.get("transform"), 1)
        + count_nested(anim.get("path"), 2)
        + count_nested(anim.get("physics"), 2)
        + count_nested(anim.get("attachments"), 4);
    n += usize::from(
        anim.get("drawOrder")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty()),
    );
    n += usize::from(
        anim.get("events")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty()),
    );
    n
}

fn check_counts(raw: &RawRig, json: &Value) {
    let src = &raw.source;
    assert_eq!(raw.bones.len(), len_of(json, "bones"), "{src}: bones");
    assert_eq!(raw.slots.len(), len_of(json, "slots"), "{src}: slots");
    assert_eq!(raw.ik.len(), len_of(json, "ik"), "{src}: ik");
    assert_eq!(
        raw.transforms.len(),
        len_of(json, "transform"),
        "{src}: transform"
    );
    assert_eq!(raw.paths.len(), len_of(json, "path"), "{src}: path");
    assert_eq!(raw.physics.len(), len_of(json, "physics"), "{src}: physics");
    assert_eq!(raw.skins.len(), len_of(json, "skins"), "{src}: skins");
    assert_eq!(raw.events.len(), len_of(json, "events"), "{src}: events");
    assert_eq!(
        raw.clips.len(),
        len_of(json, "animations"),
        "{src}: animations"
    );
    let atts: usize = json["skins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            s.get("attachments")
                .and_then(Value::as_object)
                .map_or(0, |o| {
                    o.values().map(|m| m.as_object().unwrap().len()).sum()
                })
        })
        .sum();
    assert_eq!(
        raw.skins.iter().map(|s| s.attachments.len()).sum::<usize>(),
        atts,
        "{src}: attachments"
    );
    for clip in &raw.clips {
        let want = expected_timelines(&json["animations"][&clip.name]);
        assert_eq!(
            clip.timelines.len(),
            want,
            "{src}: timelines of `{}`",
            clip.name
        );
    }
}

#[test]
fn every_fixture_loads_with_matching_counts() {
    let Some(files) = fixture_jsons("every_fixture_loads_with_matching_counts") else {
        return;
    };
    for f in files {
        let raw = load_spine_json(&f).unwrap_or_else(|e| panic!("{e}"));
        let json: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        check_counts(&raw, &json);
    }
}

#[test]
fn every_fixture_builds() {
    let Some(files) = fixture_jsons("every_fixture_builds") else {
        return;
    };
    for f in files {
        let raw = load_spine_json(&f).unwrap();
        let rig = build_rig(&raw).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(rig.bones.len(), raw.bones.len());
        assert_eq!(rig.slots.len(), raw.slots.len());
        assert_eq!(rig.skins.len(), raw.skins.len());
        assert_eq!(rig.events.len(), raw.events.len());
        let n_atts: usize = raw.skins.iter().map(|s| s.attachments.len()).sum();
        assert_eq!(rig.attachments.len(), n_atts, "{}", f.display());
        let n_constraints =
            raw.ik.len() + raw.transforms.len() + raw.paths.len() + raw.physics.len();
        assert_eq!(rig.constraint_order.len(), n_constraints);
        assert_eq!(rig.slot_deform_capacity.len(), rig.slots.len());
        // Every linked mesh resolved to its parent's geometry.
        let linked = raw
            .skins
            .iter()
            .flat_map(|s| &s.attachments)
            .filter(|e| matches!(e.attachment.kind, RawAttachmentKind::LinkedMesh { .. }))
            .count();
        assert_eq!(
            rig.attachments
                .iter()
                .filter(|a| a.type_name() == "linkedmesh")
                .count(),
            linked
        );
    }
}
