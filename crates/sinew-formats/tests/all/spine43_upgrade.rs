//! Spine 4.2 -> 4.3 (`upgrade_to_spine43` and the 4.3 JSON writer): every shared 4.2 export
//! upgraded by sinew is the rig its converted twin in `<fixtures>/spine43/` loads as (that
//! twin was made by the converter verified against both official runtimes, and its poses
//! are checked against spine-core 4.3.13 by sinew-cli's `golden_spine43_manifest`); sinew's
//! 4.3 JSON reads back as the same rig, for upgraded exports and for the converted files.
#![allow(clippy::unwrap_used)]

use super::spine43::converted;
use sinew::raw::RawRig;
use sinew::types::SpineRuntime;
use sinew_formats::spine::{
    load_spine_json, parse_spine_json, upgrade_to_spine43, write_spine_json,
};

/// The rig's Debug text without where it came from.
fn model(rig: &RawRig) -> String {
    let mut r = rig.clone();
    r.source.clear();
    format!("{r:?}")
}

/// Asserts two rigs have the same model, showing where they first differ.
pub(super) fn same(a: &RawRig, b: &RawRig, what: &str) {
    let (a, b) = (model(a), model(b));
    if a != b {
        let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
        let from = at.saturating_sub(300);
        panic!(
            "{what}: models differ at byte {at}:\n  left: ...{}\n right: ...{}",
            &a[from..(at + 200).min(a.len())],
            &b[from..(at + 200).min(b.len())]
        );
    }
}

/// The 4.2 export a converted fixture was made from.
fn original(f: &std::path::Path) -> std::path::PathBuf {
    let rel = f
        .strip_prefix(f.parent().unwrap().parent().unwrap())
        .unwrap();
    sinew_testutil::require_spine_fixtures("orig")
        .unwrap()
        .join(rel)
}

#[test]
fn upgraded_exports_are_their_converted_twins() {
    let Some(files) = converted("upgraded_exports_are_their_converted_twins") else {
        return;
    };
    for f in files {
        let what = f.display().to_string();
        let twin = load_spine_json(&f).unwrap();
        let old = load_spine_json(&original(&f)).unwrap();
        assert_eq!(old.runtime, SpineRuntime::V42, "{what}");
        let up = upgrade_to_spine43(&old);
        assert_eq!(up.rig.runtime, SpineRuntime::V43, "{what}");
        same(&up.rig, &twin, &what);
        // Physics rigs are noted (4.3 interpolates their poses); the others use none of the
        // changed behaviours except where noted by the oracle's README.
        assert_eq!(
            up.notes.iter().any(|n| n.contains("physics constraints")),
            !old.physics.is_empty(),
            "{what}: {:?}",
            up.notes
        );
        // Written as 4.3 JSON and read back: the same rig.
        let text = write_spine_json(&up.rig, false).unwrap();
        assert!(text.contains("\"spine\":\"4.3.0\""), "{what}");
        assert!(!text.contains("\"order\""), "{what}: 4.3 has no `order`");
        let back = parse_spine_json(&text, "back").unwrap();
        same(&back, &up.rig, &format!("{what}: written and read back"));
        // The converted file itself round-trips through the writer too.
        let again = parse_spine_json(&write_spine_json(&twin, true).unwrap(), "again").unwrap();
        same(
            &again,
            &twin,
            &format!("{what}: the twin written and read back"),
        );
    }
}

#[test]
fn constraints_4_2_never_updates_are_dropped_with_their_timelines() {
    let text = r#"{"skeleton":{"spine":"4.2.40"},
        "bones":[{"name":"root"},{"name":"a","parent":"root"},{"name":"b","parent":"root"}],
        "ik":[{"name":"late","order":5,"bones":["a"],"target":"b"},
              {"name":"first","order":1,"bones":["a"],"target":"b"}],
        "transform":[{"name":"zero","order":0,"bones":["b"],"target":"a"},
                     {"name":"dup","order":1,"bones":["b"],"target":"a"}],
        "skins":[{"name":"default"},{"name":"s","ik":["late"],"transform":["dup","zero"]}],
        "animations":{"x":{"ik":{"late":[{"mix":0.5}],"first":[{"mix":0.5}]},
                           "transform":{"dup":[{"mixRotate":0.5}]}}}}"#;
    let up = upgrade_to_spine43(&parse_spine_json(text, "t.json").unwrap());
    let rig = &up.rig;
    // Update order 0: `zero`, 1: `first` (IK before transform); `late` (5 >= 4) and `dup`
    // (a second 1) are never reached by 4.2.
    assert_eq!(rig.ik.len(), 1);
    assert_eq!((rig.ik[0].name.as_str(), rig.ik[0].order), ("first", 1));
    assert_eq!(rig.transforms.len(), 1);
    assert_eq!(
        (rig.transforms[0].name.as_str(), rig.transforms[0].order),
        ("zero", 0)
    );
    let skin = rig.skins.iter().find(|s| s.name == "s").unwrap();
    assert!(skin.ik.is_empty());
    assert_eq!(skin.transforms, ["zero"]);
    assert_eq!(
        rig.clips[0].timelines.len(),
        1,
        "only `first`'s timeline is left"
    );
    let dropped: Vec<&String> = up
        .notes
        .iter()
        .filter(|n| n.starts_with("dropped"))
        .collect();
    assert_eq!(dropped.len(), 2, "{:?}", up.notes);
    assert!(
        dropped
            .iter()
            .any(|n| n.contains("`late`") && n.contains("order 5"))
    );
    assert!(
        dropped
            .iter()
            .any(|n| n.contains("`dup`") && n.contains("order 1"))
    );
    // The 4.3 JSON lists them in update order and loads back as the same rig.
    let json = write_spine_json(rig, false).unwrap();
    let zero = json.find("\"zero\"").unwrap();
    let first = json.find("\"first\"").unwrap();
    assert!(zero < first, "{json}");
    let back = parse_spine_json(&json, "back").unwrap();
    same(&back, rig, "back");
}

#[test]
fn behaviour_changes_are_noted() {
    let text = r#"{"skeleton":{"spine":"4.2.40"},
        "bones":[{"name":"root"},{"name":"p","parent":"root","shearX":5},
                 {"name":"c","parent":"p"},{"name":"s","parent":"root","scaleX":2}],
        "slots":[{"name":"path","bone":"root","attachment":"path"}],
        "ik":[{"name":"arm","order":0,"bones":["p","c"],"target":"s"}],
        "transform":[{"name":"loc","order":1,"bones":["s"],"target":"root","local":true,"mixScaleX":0.5},
                     {"name":"wor","order":2,"bones":["c"],"target":"root","relative":true,"mixShearY":0.5,"shearY":3}],
        "path":[{"name":"pa","order":3,"bones":["c"],"target":"path","spacing":-2}],
        "skins":[{"name":"default","attachments":{"path":{"path":{"type":"path","lengths":[1],
            "vertexCount":3,"vertices":[0,0,1,1,2,2]}}}}]}"#;
    let up = upgrade_to_spine43(&parse_spine_json(text, "t.json").unwrap());
    let has = |a: &str, b: &str| up.notes.iter().any(|n| n.contains(a) && n.contains(b));
    assert!(has("`arm`", "shear"), "{:?}", up.notes);
    assert!(has("`loc`", "local and absolute"), "{:?}", up.notes);
    assert!(has("`wor`", "wraps"), "{:?}", up.notes);
    assert!(has("`wor`", "shearY offset"), "{:?}", up.notes);
    assert!(has("`pa`", "negative length spacing"), "{:?}", up.notes);
    assert_eq!(up.notes.len(), 5, "{:?}", up.notes);
}

#[test]
fn a_4_3_rig_is_written_in_4_3_layouts() {
    let up = upgrade_to_spine43(
        &parse_spine_json(
            r#"{"skeleton":{"spine":"4.2.1"},"bones":[{"name":"root"}]}"#,
            "t",
        )
        .unwrap(),
    );
    let bytes = sinew_formats::spine::write_spine_binary(&up.rig).unwrap();
    assert!(bytes.windows(5).any(|w| w == b"4.3.0"));
    let back = sinew_formats::spine::binary::parse_spine_binary(&bytes, "b.skel").unwrap();
    assert_eq!(back.runtime, SpineRuntime::V43);
    assert!(
        write_spine_json(&up.rig, false)
            .unwrap()
            .contains("\"4.3.0\"")
    );
}

/// Spine 4.3 `.skel` (written by sinew; spine-core 4.3.13 reads these files and poses them
/// like the JSON goldens, `scripts/spine43/check_convert.py --skel`): every converted fixture
/// written as 4.3 binary reads back as a 4.3 rig that writes the same bytes again, whose
/// JSON reads back as itself, and with the JSON rig's tables (f32 numbers aside).
#[test]
fn spine_43_skel_round_trips() {
    let Some(files) = converted("spine_43_skel_round_trips") else {
        return;
    };
    for f in files {
        let what = f.display().to_string();
        let rig = load_spine_json(&f).unwrap();
        let bytes = sinew_formats::spine::write_spine_binary(&rig).unwrap();
        let back = sinew_formats::spine::binary::parse_spine_binary(&bytes, "back.skel")
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(back.runtime, SpineRuntime::V43, "{what}");
        assert!(back.version.starts_with("4.3"), "{what}");
        let again = sinew_formats::spine::write_spine_binary(&back).unwrap();
        assert!(
            again == bytes,
            "{what}: written, read and written again differs"
        );
        let json = parse_spine_json(&write_spine_json(&back, false).unwrap(), "j").unwrap();
        // JSON holds a physics mass, the rig its inverse: not every inverse is some f64's
        // exact reciprocal, so it may come back one ulp away (docs/CONVERT.md).
        let mass_to_f32 = |r: &RawRig| {
            let mut r = r.clone();
            for p in &mut r.physics {
                p.mass_inverse = f64::from(p.mass_inverse as f32);
            }
            r
        };
        same(
            &mass_to_f32(&json),
            &mass_to_f32(&back),
            &format!("{what}: .skel -> JSON -> read"),
        );
        // The same tables, constraints in the same update order with the same mappings.
        assert_eq!(back.bones.len(), rig.bones.len(), "{what}");
        assert_eq!(back.clips.len(), rig.clips.len(), "{what}");
        let orders = |r: &RawRig| {
            let mut v: Vec<(u32, String, usize)> = Vec::new();
            v.extend(r.ik.iter().map(|c| (c.order, c.name.clone(), 0)));
            v.extend(
                r.transforms
                    .iter()
                    .map(|c| (c.order, c.name.clone(), c.properties.len())),
            );
            v.extend(r.paths.iter().map(|c| (c.order, c.name.clone(), 0)));
            v.extend(r.physics.iter().map(|c| (c.order, c.name.clone(), 0)));
            v.sort();
            v
        };
        assert_eq!(orders(&back), orders(&rig), "{what}");
        for (a, b) in back.clips.iter().zip(&rig.clips) {
            assert_eq!(a.timelines.len(), b.timelines.len(), "{what} {}", a.name);
        }
    }
}

#[test]
fn spine_43_skel_refuses_what_sinew_does_not_pose_and_damaged_files() {
    let Some(files) = converted("spine_43_skel_refuses") else {
        return;
    };
    let rig = load_spine_json(
        files
            .iter()
            .find(|f| f.ends_with("spineboy/spineboy-pro.json"))
            .unwrap(),
    )
    .unwrap();
    let bytes = sinew_formats::spine::write_spine_binary(&rig).unwrap();
    // Every truncation is an error naming the file and a byte offset, never a panic.
    for cut in (0..bytes.len()).step_by(bytes.len() / 97 + 1) {
        match sinew_formats::spine::binary::parse_spine_binary(&bytes[..cut], "cut.skel") {
            Err(e) => assert!(e.to_string().contains("cut.skel"), "{e}"),
            Ok(_) => panic!("a file cut at {cut} of {} bytes loaded", bytes.len()),
        }
    }
    // Flipped bytes: an error or a rig, never a panic.
    for i in (0..bytes.len()).step_by(bytes.len() / 211 + 1) {
        let mut b = bytes.clone();
        b[i] ^= 0x5a;
        let _ = sinew_formats::spine::binary::parse_spine_binary(&b, "flip.skel");
    }
    // An unsupported version is named.
    let mut v = bytes.clone();
    let at = v.windows(5).position(|w| w == b"4.3.0").unwrap();
    v[at + 2] = b'4';
    let e = sinew_formats::spine::binary::parse_spine_binary(&v, "v.skel").unwrap_err();
    assert!(
        e.to_string().contains("4.4.0") && e.to_string().contains("v.skel"),
        "{e}"
    );
}

/// Draw order folders (`testdata/spine43/folder-lab.json`, posed like spine-core 4.3.13 by
/// sinew-cli's `golden_spine43_own`) survive 4.3 JSON and `.skel` both ways, and a folder
/// naming a slot twice or keying a slot outside it is refused by JSON path.
#[test]
fn draw_order_folders_round_trip_and_bad_ones_are_refused() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/spine43/folder-lab.json");
    let rig = load_spine_json(&path).unwrap();
    type Offsets = Option<Vec<(String, i32)>>;
    let folders = |r: &RawRig| -> Vec<(Vec<String>, Vec<Offsets>)> {
        r.clips[0]
            .timelines
            .iter()
            .filter_map(|t| match &t.target {
                sinew::raw::RawTarget::DrawOrderFolder { slots } => Some((
                    slots.clone(),
                    t.keys
                        .iter()
                        .map(|k| match &k.data {
                            sinew::raw::RawKeyData::DrawOrder(o) => {
                                o.clone().filter(|o| !o.is_empty())
                            }
                            _ => panic!("a folder key without offsets"),
                        })
                        .collect(),
                )),
                _ => None,
            })
            .collect()
    };
    let want = folders(&rig);
    assert_eq!(want.len(), 2);
    assert_eq!(want[0].0, ["s1", "s3", "s5"]);
    let json = parse_spine_json(&write_spine_json(&rig, false).unwrap(), "j").unwrap();
    same(&json, &rig, "folder-lab JSON");
    let bytes = sinew_formats::spine::write_spine_binary(&rig).unwrap();
    let skel = sinew_formats::spine::binary::parse_spine_binary(&bytes, "f.skel").unwrap();
    assert_eq!(folders(&skel), want);
    assert!(sinew_formats::spine::write_spine_binary(&skel).unwrap() == bytes);
    // A 4.2 rig cannot hold a folder.
    let mut old = rig.clone();
    old.runtime = SpineRuntime::V42;
    assert!(
        write_spine_json(&old, false)
            .unwrap_err()
            .to_string()
            .contains("4.3")
    );
    // Bad folders: errors by path.
    let text = std::fs::read_to_string(&path).unwrap();
    let bad = text.replacen(r#"[ "s4", "s2" ]"#, r#"[ "s4", "s4" ]"#, 1);
    let e = parse_spine_json(&bad, "bad.json").unwrap_err().to_string();
    assert!(e.contains("drawOrderFolder") && e.contains("twice"), "{e}");
    let bad = text.replacen(
        r#"{ "slot": "s4", "offset": 1 }"#,
        r#"{ "slot": "s5", "offset": 1 }"#,
        1,
    );
    let e = parse_spine_json(&bad, "bad.json").unwrap_err().to_string();
    assert!(
        e.contains("drawOrderFolder") && e.contains("not in the folder"),
        "{e}"
    );
}

/// Editor-only 4.3 data (animation colours, bone icons, skin colours) loads and is not kept;
/// an animation colour in a 4.2 file is still an unknown section.
#[test]
fn editor_data_of_43_files_loads() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/spine43/folder-lab.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v["animations"]["shuffle"]["color"] = "ff0000ff".into();
    v["bones"][1]["icon"] = "arrow".into();
    v["bones"][1]["iconSize"] = 2.into();
    v["bones"][1]["iconRotation"] = 90.into();
    v["skins"][0]["color"] = "00ff00ff".into();
    let plain = load_spine_json(&path).unwrap();
    let rig = parse_spine_json(&v.to_string(), "editor.json").unwrap();
    same(&rig, &plain, "editor data");
    v["skeleton"]["spine"] = "4.2.40".into();
    v["animations"]["shuffle"]
        .as_object_mut()
        .unwrap()
        .remove("drawOrderFolder");
    let e = parse_spine_json(&v.to_string(), "old.json")
        .unwrap_err()
        .to_string();
    assert!(e.contains("color"), "{e}");
}

/// A physics scaleY mode is Spine 4.3: a 4.2 rig carrying one is refused by both 4.2
/// writers rather than written without it.
#[test]
fn a_scale_y_mode_is_not_written_as_4_2() {
    let text = r#"{"skeleton":{"spine":"4.2.40"},"bones":[{"name":"root"},{"name":"b","parent":"root"}],
        "physics":[{"name":"p","order":0,"bone":"b","scaleX":0.5}]}"#;
    let mut rig = parse_spine_json(text, "p.json").unwrap();
    rig.physics[0].scale_y = sinew::types::ScaleYMode::Uniform;
    let e = sinew_formats::spine::write_spine_binary(&rig)
        .unwrap_err()
        .to_string();
    assert!(e.contains("scaleY") && e.contains("`p`"), "{e}");
    let e = write_spine_json(&rig, false).unwrap_err().to_string();
    assert!(e.contains("scaleY") && e.contains("`p`"), "{e}");
    // As 4.3 it is written and read back with its mode.
    let up = upgrade_to_spine43(&rig);
    let bytes = sinew_formats::spine::write_spine_binary(&up.rig).unwrap();
    let back = sinew_formats::spine::binary::parse_spine_binary(&bytes, "p.skel").unwrap();
    assert_eq!(back.physics[0].scale_y, sinew::types::ScaleYMode::Uniform);
    assert_eq!(back.physics[0].scale_x, 0.5);
}
