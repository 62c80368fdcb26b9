//! `sinew convert`: Spine JSON -> `.skel` -> JSON -> `.skel` is lossless after the first
//! step (the two `.skel` files are byte-identical) and the converted files pose like the
//! original through `sinew dump`; DragonBones -> Spine JSON lists what is not exact and the
//! result validates; errors name the file and what could not be written.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn sinew(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sinew"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sinew-convert-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn dump(file: &str) -> Value {
    let o = sinew(&["dump", file, "--anim", "run", "--times", "0.1,0.45"]);
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn spine_json_and_skel_convert_both_ways_and_pose_the_same() {
    let Some(dir) = sinew_testutil::require_spine_fixtures("convert_cli_spine") else {
        return;
    };
    let json = dir.join("spineboy/spineboy-pro.json");
    let json = json.to_str().unwrap();
    let (skel1, json2, skel2) = (scratch("a.skel"), scratch("b.out"), scratch("c.skel"));
    let (skel1, json2, skel2) = (
        skel1.to_str().unwrap(),
        json2.to_str().unwrap(),
        skel2.to_str().unwrap(),
    );
    let o = sinew(&["convert", json, skel1]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("Spine 4.2 binary"), "{}", text(&o));
    let o = sinew(&["convert", skel1, json2, "--format", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = sinew(&["convert", json2, skel2]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read(skel1).unwrap(),
        std::fs::read(skel2).unwrap(),
        ".skel -> JSON -> .skel must be lossless"
    );
    let (a, b) = (dump(json), dump(skel1));
    for (fa, fb) in a["frames"]
        .as_array()
        .unwrap()
        .iter()
        .zip(b["frames"].as_array().unwrap())
    {
        for (ba, bb) in fa["bones"]
            .as_array()
            .unwrap()
            .iter()
            .zip(fb["bones"].as_array().unwrap())
        {
            for (k, tol) in [
                ("a", 1e-3),
                ("b", 1e-3),
                ("c", 1e-3),
                ("d", 1e-3),
                ("worldX", 1e-2),
                ("worldY", 1e-2),
            ] {
                let (x, y) = (ba[k].as_f64().unwrap(), bb[k].as_f64().unwrap());
                assert!((x - y).abs() <= tol, "bone {}: {k} {x} vs {y}", ba["name"]);
            }
        }
    }
}

#[test]
fn dragonbones_converts_to_spine_json_and_lists_what_is_not_exact() {
    let Some(fixtures) = sinew_testutil::require_fixtures("convert_cli_dragonbones") else {
        return;
    };
    let ske = fixtures.join("dragonbones/you_xin_body/body_ske.json");
    let ske = ske.to_str().unwrap();
    let out = scratch("body.json");
    let out = out.to_str().unwrap();
    let o = sinew(&["convert", ske, out]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("(DragonBones)") && t.contains("not converted exactly"),
        "{t}"
    );
    assert!(
        t.contains("bone `hair0603`") && t.contains("noScale"),
        "{t}"
    );
    let o = sinew(&["validate", out]);
    assert!(o.status.success(), "{}", text(&o));
    let o = sinew(&["convert", ske, out, "--armature", "no-such-armature"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("no-such-armature"), "{}", text(&o));
}

#[test]
fn errors_name_the_file_and_what_could_not_be_written() {
    let Some(dir) = sinew_testutil::require_spine_fixtures("convert_cli_errors") else {
        return;
    };
    let json = dir.join("spineboy/spineboy-pro.json");
    let json = json.to_str().unwrap();
    let missing = scratch("no/such/dir/x.skel");
    let missing = missing.to_str().unwrap();
    let o = sinew(&["convert", json, missing]);
    assert!(!o.status.success());
    assert!(text(&o).contains(missing), "{}", text(&o));
    let o = sinew(&["convert", json, missing, "--armature", "x"]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains(json) && text(&o).contains("--armature"),
        "{}",
        text(&o)
    );
}

#[test]
fn spine_42_upgrades_to_43_from_json_and_skel_and_is_not_written_back_as_42() {
    let Some(dir) = sinew_testutil::require_spine_fixtures("convert_cli_43") else {
        return;
    };
    let skel = dir.join("spineboy/spineboy-pro.skel");
    let out = scratch("sb43.json");
    let out = out.to_str().unwrap();
    let o = sinew(&["convert", skel.to_str().unwrap(), out, "--spine", "4.3"]);
    assert!(o.status.success(), "{}", text(&o));
    let report = text(&o);
    assert!(
        report.contains("Spine 4.3 JSON") && report.contains("upgraded to 4.3"),
        "{report}"
    );
    // spineboy's aim transform has a world shearY offset: noted, not silently changed.
    assert!(report.contains("`aim-torso-transform`"), "{report}");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
    assert_eq!(written["skeleton"]["spine"], "4.3.0");
    assert!(written.get("transform").is_none() && written.get("ik").is_none());
    let list = written["constraints"].as_array().unwrap();
    assert!(
        list.iter()
            .all(|c| c["type"].is_string() && c.get("order").is_none())
    );
    // The upgraded file poses like the .skel it came from (the same rig; 4.3's rules give
    // spineboy's run the same pose, as the shared 4.3 goldens show).
    let (a, b) = (dump(out), dump(skel.to_str().unwrap()));
    let bones = |v: &Value| v["frames"][1]["bones"].as_array().unwrap().clone();
    for (x, y) in bones(&a).iter().zip(&bones(&b)) {
        for k in ["a", "b", "c", "d", "worldX", "worldY"] {
            let (p, q) = (x[k].as_f64().unwrap(), y[k].as_f64().unwrap());
            assert!((p - q).abs() < 1e-3, "{} {k}: {p} vs {q}", x["name"]);
        }
    }
    // 4.3 is not written back as 4.2, as JSON or as 4.2 binary.
    let o = sinew(&[
        "convert",
        out,
        scratch("back.json").to_str().unwrap(),
        "--spine",
        "4.2",
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains(out) && text(&o).contains("4.2"),
        "{}",
        text(&o)
    );
}
