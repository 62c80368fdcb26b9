//! Spine 4.3 JSON through the one loading API: every converted fixture
//! (`<fixtures>/spine43/`) loads as a 4.3 rig whose model equals its 4.2 original's (same
//! tables, the constraint array in 4.2's update order); the keys and defaults 4.3 changed are
//! read the 4.3 way; versions other than 4.2.x and 4.3.x, and the 4.3 features the runtime
//! does not pose yet, are refused with typed errors naming the file, JSON path and name.
//! The poses are checked against spine-core 4.3.13 by sinew-cli's `golden_spine43_manifest`.
#![allow(clippy::unwrap_used)]

use sinew::build::build_rig;
use sinew::raw::RawKeyData;
use sinew::types::{ScaleYMode, SpineRuntime};
use sinew_formats::spine::{json_runtime, load_spine_json, parse_spine_json};
use sinew_formats::{LoadError, LoadOptions};
use std::path::PathBuf;

/// Every `*/*.json` rig under `<fixtures>/spine43` (goldens excluded).
pub(crate) fn converted(test: &str) -> Option<Vec<PathBuf>> {
    let dir = sinew_testutil::require_spine43_fixtures(test)?;
    let mut out = Vec::new();
    for sub in std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()) {
        if !sub.is_dir() || sub.file_name().is_some_and(|n| n == "golden") {
            continue;
        }
        for f in std::fs::read_dir(&sub).unwrap().flatten().map(|e| e.path()) {
            if f.extension().is_some_and(|x| x == "json") {
                out.push(f);
            }
        }
    }
    out.sort();
    assert_eq!(out.len(), 21, "the 21 converted fixtures: {out:?}");
    Some(out)
}

/// Constraint names in update order.
fn order_names(rig: &sinew::Rig) -> Vec<String> {
    use sinew::rig::ConstraintRef as C;
    rig.constraint_order
        .iter()
        .map(|c| match *c {
            C::Ik(i) => rig.ik[i.index()].name.clone(),
            C::Transform(i) => rig.transforms[i.index()].name.clone(),
            C::Path(i) => rig.paths[i.index()].name.clone(),
            C::Physics(i) => rig.physics[i.index()].name.clone(),
            C::Slider(i) => rig.sliders[i.index()].name.clone(),
        })
        .collect()
}

#[test]
fn every_converted_fixture_loads_as_its_original() {
    let Some(files) = converted("every_converted_fixture_loads_as_its_original") else {
        return;
    };
    for f in files {
        let asset = sinew_formats::load(&f, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let rig = &asset.rig;
        assert_eq!(rig.runtime, SpineRuntime::V43, "{}", f.display());
        assert!(rig.version.starts_with("4.3"), "{}", rig.version);
        // The 4.2 export it was converted from.
        let rel = f
            .strip_prefix(f.parent().unwrap().parent().unwrap())
            .unwrap();
        let orig = sinew_testutil::require_spine_fixtures("orig")
            .unwrap()
            .join(rel);
        let old = build_rig(&load_spine_json(&orig).unwrap()).unwrap();
        let old = &old;
        assert_eq!(old.runtime, SpineRuntime::V42);
        let what = f.display();
        assert_eq!(rig.bones.len(), old.bones.len(), "{what}");
        assert_eq!(rig.slots.len(), old.slots.len(), "{what}");
        assert_eq!(rig.skins.len(), old.skins.len(), "{what}");
        assert_eq!(rig.attachments.len(), old.attachments.len(), "{what}");
        assert_eq!(rig.clips.len(), old.clips.len(), "{what}");
        assert_eq!(rig.events.len(), old.events.len(), "{what}");
        for (a, b) in rig.clips.iter().zip(&old.clips) {
            assert_eq!(a.name, b.name, "{what}");
            assert_eq!(a.timelines.len(), b.timelines.len(), "{what} {}", a.name);
        }
        // The one array is 4.2's update order.
        assert_eq!(order_names(rig), order_names(old), "{what}");
        // The per-kind lists are in array order, 4.2's in file order: pair them by name.
        let old_physics = |n: &str| &old.physics[old.names.physics[n].index()];
        let old_transform = |n: &str| &old.transforms[old.names.transforms[n].index()];
        for a in &rig.physics {
            let b = old_physics(&a.name);
            assert_eq!(a.setup.inertia, b.setup.inertia, "{what} {}", a.name);
            assert_eq!(a.setup.damping, b.setup.damping, "{what} {}", a.name);
            assert!(a.interpolate && !b.interpolate, "{what} {}", a.name);
        }
        for a in &rig.transforms {
            let b = old_transform(&a.name);
            assert_eq!(
                (a.target, a.local, a.relative),
                (b.target, b.local, b.relative),
                "{what} {}",
                a.name
            );
            assert_eq!(a.mix, b.mix, "{what} {}", a.name);
            assert_eq!(
                [a.offset_rotation, a.offset_x, a.offset_y, a.offset_shear_y],
                [b.offset_rotation, b.offset_x, b.offset_y, b.offset_shear_y],
                "{what} {}",
                a.name
            );
        }
    }
}

#[test]
fn versions_are_told_by_major_and_minor() {
    assert_eq!(json_runtime(""), Some(SpineRuntime::V42));
    assert_eq!(json_runtime("4.2.22"), Some(SpineRuntime::V42));
    assert_eq!(json_runtime("4.3.0"), Some(SpineRuntime::V43));
    assert_eq!(json_runtime("4.3.39-beta"), Some(SpineRuntime::V43));
    for v in ["4.1.24", "4.4.0", "5.0", "4", "4.20.1", "3.8.99"] {
        assert_eq!(json_runtime(v), None, "{v}");
    }
}

/// A small 4.3 rig; `patch` edits its JSON value before it is serialised.
fn rig43(patch: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(
        r#"{
        "skeleton": {"spine": "4.3.0"},
        "bones": [{"name": "root"}, {"name": "arm", "parent": "root", "length": 10,
                   "icon": "arrow", "iconSize": 2},
                  {"name": "hand", "parent": "arm"}],
        "slots": [{"name": "body", "bone": "root", "attachment": "box"},
                  {"name": "head", "bone": "arm", "attachment": "m"},
                  {"name": "path", "bone": "root"}],
        "constraints": [
            {"type": "physics", "name": "wobble", "bone": "hand", "rotate": 1, "scaleX": 1,
             "scaleY": "volume"},
            {"type": "transform", "name": "follow", "bones": ["hand"], "source": "arm",
             "localSource": true, "localTarget": true, "additive": true,
             "properties": {"rotate": {"to": {"rotate": {}}}, "scaleX": {"to": {"scaleX": {}}}},
             "mixScaleX": 0.5},
            {"type": "ik", "name": "reach", "bones": ["arm"], "target": "root",
             "scaleY": "uniform", "stretch": true},
            {"type": "path", "name": "along", "bones": ["hand"], "slot": "path"}
        ],
        "skins": [{"name": "default", "attachments": {
            "body": {"box": {"width": 10, "height": 10},
                     "clip": {"type": "clipping", "vertexCount": 3,
                              "vertices": [0, 0, 1, 0, 0, 1]}},
            "head": {"m": {"type": "mesh", "uvs": [0, 0, 1, 0, 0, 1], "triangles": [0, 1, 2],
                           "vertices": [0, 0, 1, 0, 0, 1]},
                     "l": {"type": "linkedmesh", "source": "m", "slot": "head"}},
            "path": {"p": {"type": "path", "vertexCount": 3, "lengths": [1],
                           "vertices": [0, 0, 1, 0, 2, 0]}}}}],
        "animations": {"wave": {
            "transform": {"follow": [{"mixScaleX": 0.25}]},
            "physics": {"wobble": {"mix": [{"time": 0}]}}}}
    }"#,
    )
    .unwrap();
    patch(&mut v);
    v.to_string()
}

/// Loads a patched 4.3 rig, expecting an `Invalid` error whose message contains the path
/// and every needle.
fn refused(patch: impl FnOnce(&mut serde_json::Value), path: &str, needles: &[&str]) {
    let err = parse_spine_json(&rig43(patch), "new.json").unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, LoadError::Invalid { .. }), "{msg}");
    assert!(msg.starts_with("new.json: "), "{msg}");
    assert!(msg.contains(path), "path `{path}` not in: {msg}");
    for n in needles {
        assert!(msg.contains(n), "`{n}` not in: {msg}");
    }
}

#[test]
fn the_43_schema_is_read_with_43_defaults() {
    let raw = parse_spine_json(&rig43(|_| {}), "new.json").unwrap();
    assert_eq!(raw.runtime, SpineRuntime::V43);
    // Array order is update order, whatever the kind.
    let orders: Vec<(&str, u32)> = [
        (raw.physics[0].name.as_str(), raw.physics[0].order),
        (raw.transforms[0].name.as_str(), raw.transforms[0].order),
        (raw.ik[0].name.as_str(), raw.ik[0].order),
        (raw.paths[0].name.as_str(), raw.paths[0].order),
    ]
    .to_vec();
    assert_eq!(
        orders,
        [("wobble", 0), ("follow", 1), ("reach", 2), ("along", 3)]
    );
    let p = &raw.physics[0];
    assert_eq!((p.inertia, p.damping), (0.5, 0.85), "4.3 physics defaults");
    assert_eq!(p.scale_y, ScaleYMode::Volume);
    assert!(raw.ik[0].uniform && !raw.ik[0].volume, "scaleY uniform");
    assert_eq!(raw.ik[0].solver, sinew::IkSolver::Spine43);
    let t = &raw.transforms[0];
    assert_eq!(t.target, "arm");
    assert!(t.local && t.relative);
    // Driven: rotate and scaleX; the mixes of the others are 0 (4.3 reads only those).
    assert_eq!(
        [
            t.mix_rotate,
            t.mix_x,
            t.mix_y,
            t.mix_scale_x,
            t.mix_scale_y,
            t.mix_shear_y
        ],
        [1.0, 0.0, 0.0, 0.5, 0.0, 0.0]
    );
    // The whole mapping is kept, in file order, with 4.3's defaults (offset 0, max 1,
    // scale 1).
    use sinew::types::{TransformFrom, TransformProperty as P, TransformTo};
    let to = |property| TransformTo {
        property,
        offset: 0.0,
        max: 1.0,
        scale: 1.0,
    };
    assert_eq!(
        t.properties,
        [
            TransformFrom {
                property: P::Rotate,
                offset: 0.0,
                to: vec![to(P::Rotate)]
            },
            TransformFrom {
                property: P::ScaleX,
                offset: 0.0,
                to: vec![to(P::ScaleX)]
            }
        ]
    );
    assert!(t.local_target && !t.clamp);
    assert_eq!(raw.paths[0].target, "path");
    // The linked mesh names its source; bone icons are ignored.
    let linked = raw.skins[0]
        .attachments
        .iter()
        .find(|e| e.key == "l")
        .unwrap();
    assert!(matches!(
        &linked.attachment.kind,
        sinew::raw::RawAttachmentKind::LinkedMesh { parent, .. } if parent == "m"
    ));
    // Key defaults: a transform key's mixScaleY is 1 (4.2: its mixScaleX), a physics mix
    // key's value is 1 (4.2: 0).
    let clip = &raw.clips[0];
    let transform_key = &clip.timelines[0].keys[0];
    assert_eq!(transform_key.values, [1.0, 1.0, 1.0, 0.25, 1.0, 1.0]);
    let mix_key = &clip.timelines[1].keys[0];
    assert_eq!(mix_key.values, [1.0]);
    assert!(matches!(mix_key.data, RawKeyData::None));
    let rig = build_rig(&raw).unwrap();
    assert_eq!(rig.runtime, SpineRuntime::V43);
    assert!(rig.physics[0].interpolate);

    // The same text as 4.2: its linked meshes name a `parent`, so `l` is a mesh without
    // its geometry.
    let text = rig43(|v| v["skeleton"]["spine"] = "4.2.22".into());
    let msg = parse_spine_json(&text, "old.json").unwrap_err().to_string();
    assert!(
        msg.contains("$.skins[0].attachments.head.l") && msg.contains("missing `uvs`"),
        "{msg}"
    );
}

#[test]
fn other_versions_are_refused_naming_the_version() {
    for v in ["4.4.0", "4.1.24", "3.8.99"] {
        let err =
            parse_spine_json(&rig43(|r| r["skeleton"]["spine"] = v.into()), "x.json").unwrap_err();
        assert!(
            matches!(&err, LoadError::Version { version, .. } if version == v),
            "{err}"
        );
        assert!(err.to_string().contains(v), "{err}");
    }
}

#[test]
fn any_property_mapping_is_read() {
    let raw = parse_spine_json(
        &rig43(|v| {
            v["constraints"][1]["clamp"] = true.into();
            v["constraints"][1]["properties"] = serde_json::json!({
                "x": {"offset": 2, "to": {"rotate": {"scale": 3, "max": 40, "offset": -1},
                                        "shearY": {}}},
                "y": {"to": {}}})
        }),
        "new.json",
    )
    .unwrap();
    let t = &raw.transforms[0];
    use sinew::types::TransformProperty as P;
    assert!(t.clamp);
    assert_eq!(t.properties.len(), 1, "a source driving nothing is dropped");
    let f = &t.properties[0];
    assert_eq!((f.property, f.offset), (P::X, 2.0));
    let to: Vec<_> =
        f.to.iter()
            .map(|x| (x.property, x.offset, x.max, x.scale))
            .collect();
    assert_eq!(
        to,
        [(P::Rotate, -1.0, 40.0, 3.0), (P::ShearY, 0.0, 1.0, 1.0)]
    );
    // Driven: rotate and shearY (mixes 1); x, y, scaleX, scaleY are not (0).
    assert_eq!(
        [
            t.mix_rotate,
            t.mix_x,
            t.mix_y,
            t.mix_scale_x,
            t.mix_scale_y,
            t.mix_shear_y
        ],
        [1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    );
    refused(
        |v| v["constraints"][1]["properties"]["x"] = serde_json::json!({"to": {"skew": {}}}),
        "$.constraints[1].properties.x.to.skew",
        &["(`follow`)", "unknown transform property `skew`"],
    );
}

#[test]
fn bad_43_features_are_refused_by_path_and_name() {
    // Sliders are read (spine43_features.rs); one driven by a bone that does not exist is
    // refused by path.
    refused(
        |v| {
            v["constraints"][3] = serde_json::json!({"type": "slider", "name": "dial",
                "animation": "wave", "bone": "tail", "property": "x"})
        },
        "$.constraints[3].bone",
        &["(`dial`)", "unknown bone `tail`"],
    );
    refused(
        |v| v["constraints"][0]["type"] = "spring".into(),
        "$.constraints[0].type",
        &["(`wobble`)", "unknown constraint type `spring`"],
    );
    refused(
        |v| v["constraints"][1]["source"] = "tail".into(),
        "$.constraints[1].source",
        &["(`follow`)", "unknown source bone `tail`"],
    );
    // Clipping `convex` / `inverse` are read (spine43_clipping.rs); a non-boolean is refused.
    refused(
        |v| v["skins"][0]["attachments"]["body"]["clip"]["inverse"] = 1.into(),
        "$.skins[0].attachments.body.clip.inverse",
        &["(`clip`)"],
    );
    // A linked mesh may take its source from another slot (spine43_features.rs round-trips one);
    // a source missing there, or a slot that does not exist, is refused by path.
    refused(
        |v| v["skins"][0]["attachments"]["head"]["l"]["slot"] = "body".into(),
        "$.skins[0].attachments.head.l.source",
        &["(`l`)", "unknown parent mesh `m` in slot `body`"],
    );
    refused(
        |v| v["skins"][0]["attachments"]["head"]["l"]["slot"] = "nowhere".into(),
        "$.skins[0].attachments.head.l.source",
        &["(`l`)", "unknown parent slot `nowhere`"],
    );
    refused(
        |v| v["skins"][0]["attachments"]["head"]["l"]["source"] = "nope".into(),
        "$.skins[0].attachments.head.l.source",
        &["(`l`)", "unknown parent mesh `nope`"],
    );
    // Draw order folders are read (spine43_upgrade.rs); a folder slot that does not exist is
    // refused by path.
    refused(
        |v| {
            v["animations"]["wave"]["drawOrderFolder"] =
                serde_json::json!([{"slots": ["body", "nope"], "keys": [{"time": 0}]}])
        },
        "$.animations.wave.drawOrderFolder[0].slots[1]",
        &["nope"],
    );
}

/// A 4.2 rig and its 4.3 conversion in one process, updated frame by frame in one loop:
/// each poses exactly as it does alone (no shared state), and the two differ where the
/// runtimes do (4.3's interpolated physics pose), while the bones physics does not touch
/// agree.
#[test]
fn a_42_and_a_43_rig_play_side_by_side() {
    let test = "a_42_and_a_43_rig_play_side_by_side";
    let (Some(new), Some(old)) = (
        sinew_testutil::require_spine43_fixtures(test),
        sinew_testutil::require_spine_fixtures(test),
    ) else {
        return;
    };
    let rel = "celestial-circus/celestial-circus-pro.json";
    let rig = |p: PathBuf| std::sync::Arc::new(build_rig(&load_spine_json(&p).unwrap()).unwrap());
    let (r42, r43) = (rig(old.join(rel)), rig(new.join(rel)));
    assert_eq!(
        (r42.runtime, r43.runtime),
        (SpineRuntime::V42, SpineRuntime::V43)
    );
    let start = |r: &std::sync::Arc<sinew::Rig>| {
        let mut c = sinew::Character::new(r.clone());
        c.play(0, "swing").unwrap();
        c
    };
    let (mut both, mut lone42, mut lone43) = ([start(&r42), start(&r43)], start(&r42), start(&r43));
    let swing = r42.bone("swing-top").unwrap();
    let root = r42.bone("root").unwrap();
    let mut apart: f64 = 0.0;
    for _ in 0..90 {
        for c in &mut both {
            c.update(1.0 / 60.0);
        }
        lone42.update(1.0 / 60.0);
        lone43.update(1.0 / 60.0);
        assert_eq!(both[0].instance().world, lone42.instance().world);
        assert_eq!(both[1].instance().world, lone43.instance().world);
        let (a, b) = (
            both[0].instance().world[swing.index()],
            both[1].instance().world[swing.index()],
        );
        apart = apart.max((a.a - b.a).abs()).max((a.c - b.c).abs());
        assert_eq!(
            both[0].instance().world[root.index()],
            both[1].instance().world[root.index()]
        );
    }
    assert!(
        apart > 1e-3,
        "4.3's physics pose differs from 4.2's: {apart}"
    );
}
