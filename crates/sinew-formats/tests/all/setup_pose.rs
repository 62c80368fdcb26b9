//! The setup pose of every Spine fixture matches the official runtime.
//!
//! Each fixture is loaded, built and posed in its setup pose (`Instance::new`, then
//! `update_world_transform(Physics::Update)` at time 0, which runs every constraint in
//! Spine's order); bone matrices must match the oracle to 1e-3 and world positions to 1e-2.
//! The reference dumps live in `testdata/setup/<fixture>.json` (committed), made with
//!   node dump.mjs <fixture>.json --times 0 --round 6 --no-vertices
//! plus a few skins, `testdata/setup/<fixture>__<skin>.json`, made with `--skin <names>` (the
//! dump's `meta.skeleton` and `meta.skin` say which rig and skins each one poses).
//! The fixtures come from `$SINEW_FIXTURES` (default `<workspace>/../shared/fixtures`); when
//! they are missing the test skips with a notice, or fails under `CI=true`.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use sinew::build::build_rig;
use sinew::skeleton::update_world_transform;
use sinew::{Instance, Physics};
use sinew_formats::spine::load_spine_json;
use std::path::{Path, PathBuf};

/// Matrix tolerance (a, b, c, d).
const TOL_MATRIX: f64 = 1e-3;
/// World position tolerance (rig units).
const TOL_POSITION: f64 = 1e-2;

/// The committed oracle dumps, sorted.
fn reference_dumps() -> Vec<PathBuf> {
    let dir = sinew_testutil::workspace_root()
        .join("testdata")
        .join("setup");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    out.sort();
    out
}

/// Finds a fixture file (e.g. `spineboy-pro.json`) in one of the fixture folders.
fn find_fixture(spine_dir: &Path, file: &str) -> Option<PathBuf> {
    std::fs::read_dir(spine_dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .map(|sub| sub.join(file))
        .find(|p| p.is_file())
}

/// Poses one fixture with the dump's skins and returns a line per mismatch.
fn check_fixture(fixture: &Path, dump: &Value) -> Vec<String> {
    let raw = match load_spine_json(fixture) {
        Ok(raw) => raw,
        Err(e) => return vec![format!("load: {e}")],
    };
    let rig = match build_rig(&raw) {
        Ok(rig) => rig,
        Err(e) => return vec![format!("build: {e}")],
    };
    let mut inst = Instance::new(&rig);
    let skin = dump["meta"]["skin"].as_str().unwrap_or("default");
    if skin != "default" {
        let mut ids = Vec::new();
        for name in skin.split(',') {
            match rig.skin(name) {
                Some(id) => ids.push(id),
                None => return vec![format!("skin `{name}` missing")],
            }
        }
        inst.set_skins(&rig, &ids);
    }
    update_world_transform(&rig, &mut inst, Physics::Update);
    let mut problems = Vec::new();
    let bones = dump["frames"][0]["bones"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if bones.len() != rig.bones.len() {
        problems.push(format!(
            "{} bones, oracle has {}",
            rig.bones.len(),
            bones.len()
        ));
    }
    for b in &bones {
        let name = b["name"].as_str().unwrap_or_default();
        let Some(id) = rig.bone(name) else {
            problems.push(format!("bone `{name}` missing"));
            continue;
        };
        let active = b.get("active").and_then(Value::as_bool).unwrap_or(true);
        if inst.bone_active[id.index()] != active {
            problems.push(format!(
                "bone `{name}`: active {} vs oracle {active}",
                !active
            ));
        }
        if !active {
            continue;
        }
        let w = inst.world[id.index()];
        let got = [w.a, w.b, w.c, w.d, w.x, w.y];
        for (k, key) in ["a", "b", "c", "d", "worldX", "worldY"].iter().enumerate() {
            let want = b[key].as_f64().unwrap_or(f64::NAN);
            let tol = if k < 4 { TOL_MATRIX } else { TOL_POSITION };
            let err = (got[k] - want).abs();
            // NaN (a missing oracle value or a broken pose) fails too.
            if err.is_nan() || err > tol {
                problems.push(format!("bone `{name}` {key}: {} vs oracle {want}", got[k]));
            }
        }
    }
    problems
}

#[test]
fn setup_pose_of_every_fixture_matches_the_oracle() {
    let Some(spine_dir) = sinew_testutil::require_spine_fixtures("setup_pose") else {
        return;
    };
    let dumps = reference_dumps();
    assert!(
        dumps.len() >= 20,
        "expected a setup dump per fixture, found {}",
        dumps.len()
    );
    let mut report = Vec::new();
    for dump_path in &dumps {
        let stem = dump_path
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let dump: Value =
            serde_json::from_str(&std::fs::read_to_string(dump_path).unwrap()).unwrap();
        let file = dump["meta"]["skeleton"].as_str().unwrap_or_default();
        let Some(fixture) = find_fixture(&spine_dir, file) else {
            report.push(format!("{stem}: fixture `{file}` not found"));
            continue;
        };
        let problems = check_fixture(&fixture, &dump);
        if !problems.is_empty() {
            let shown: Vec<&String> = problems.iter().take(5).collect();
            report.push(format!(
                "{stem}: {} mismatches, first: {shown:#?}",
                problems.len()
            ));
        }
    }
    assert!(
        report.is_empty(),
        "setup pose differs from the oracle:\n{}",
        report.join("\n")
    );
}

#[test]
fn every_fixture_has_a_setup_dump() {
    let Some(spine_dir) = sinew_testutil::require_spine_fixtures("setup_pose_coverage") else {
        return;
    };
    // (skeleton file, skin) of every committed dump.
    let dumps: Vec<(String, String)> = reference_dumps()
        .iter()
        .map(|p| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            let meta = &v["meta"];
            (
                meta["skeleton"].as_str().unwrap().to_owned(),
                meta["skin"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    for sub in std::fs::read_dir(&spine_dir).unwrap() {
        let sub = sub.unwrap().path();
        let name = sub.file_name().unwrap().to_string_lossy().into_owned();
        if !sub.is_dir() || name == "golden" || name == "render-ref" {
            continue;
        }
        for f in std::fs::read_dir(&sub).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "json") {
                let file = f.file_name().unwrap().to_string_lossy().into_owned();
                let found = dumps.iter().any(|(s, k)| *s == file && k == "default");
                assert!(
                    found,
                    "no default-skin dump in testdata/setup for {}",
                    f.display()
                );
            }
        }
    }
}
