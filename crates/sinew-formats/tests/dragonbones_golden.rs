//! Differential test: every case of `fixtures/dragonbones/golden/MANIFEST.json` (made by
//! the official runtime through `oracle/dragonbones/dump.mjs`) posed by sinew's DragonBones
//! loader: bone a..d within 1e-3, positions and vertices within 1e-2, display names exact,
//! slots in the same draw order.

use serde_json::Value;
use sinew_formats::dragonbones::{PoseMode, pose};
use std::path::Path;

fn arg<'a>(args: &'a [Value], name: &str) -> Option<&'a str> {
    let i = args.iter().position(|a| a.as_str() == Some(name))?;
    args.get(i + 1)?.as_str()
}

/// Compares one case; `Err` describes the first mismatch.
fn check_case(dir: &Path, case: &Value) -> Result<(), String> {
    let s = |k: &str| case[k].as_str().unwrap_or_default().to_owned();
    let args = case["args"].as_array().cloned().unwrap_or_default();
    let ske = dir.join(s("skeleton"));
    let tex = dir.join(s("texture"));
    let (asset, db) = sinew_formats::load_dragonbones(&ske, Some(&tex), arg(&args, "--armature"))
        .map_err(|e| e.to_string())?;
    let times: Vec<f64> = case["times"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    let fps = arg(&args, "--fps")
        .and_then(|f| f.parse().ok())
        .unwrap_or(60.0);
    let mode = match arg(&args, "--mode") {
        Some("goto") => PoseMode::Goto,
        _ => PoseMode::Play,
    };
    let frames = pose(&asset, &db, arg(&args, "--anim"), &times, fps, mode, false)?;
    let text =
        std::fs::read_to_string(dir.join("golden").join(s("golden"))).map_err(|e| e.to_string())?;
    let golden: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let gframes = golden["frames"].as_array().cloned().unwrap_or_default();
    if gframes.len() != frames.len() {
        return Err(format!(
            "{} frames, golden has {}",
            frames.len(),
            gframes.len()
        ));
    }
    for (f, g) in frames.iter().zip(&gframes) {
        let t = f.time;
        let gb = g["bones"].as_array().cloned().unwrap_or_default();
        if gb.len() != f.bones.len() {
            return Err(format!(
                "t={t}: {} bones, golden {}",
                f.bones.len(),
                gb.len()
            ));
        }
        for ((name, m), gb) in f.bones.iter().zip(&gb) {
            if gb["name"].as_str() != Some(name) {
                return Err(format!("t={t}: bone {name} vs {}", gb["name"]));
            }
            for (i, k) in ["a", "b", "c", "d", "worldX", "worldY"].iter().enumerate() {
                let want = gb[k].as_f64().unwrap_or(f64::NAN);
                let tol = if i < 4 { 1e-3 } else { 1e-2 };
                if (m[i] - want).abs() > tol || m[i].is_nan() {
                    return Err(format!("t={t}: bone {name}.{k} = {} want {want}", m[i]));
                }
            }
        }
        let gs = g["slots"].as_array().cloned().unwrap_or_default();
        if gs.len() != f.slots.len() {
            return Err(format!(
                "t={t}: {} slots, golden {}",
                f.slots.len(),
                gs.len()
            ));
        }
        for (sp, gs) in f.slots.iter().zip(&gs) {
            if gs["slot"].as_str() != Some(sp.slot.as_str()) {
                return Err(format!("t={t}: draw order: {} vs {}", sp.slot, gs["slot"]));
            }
            let gd = gs["display"].as_str();
            if gd != sp.attachment.as_deref() {
                return Err(format!(
                    "t={t}: slot {} shows {:?}, golden {gd:?}",
                    sp.slot, sp.attachment
                ));
            }
            let gv: Vec<f64> = gs["vertices"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default();
            if gv.is_empty() {
                continue;
            }
            if gv.len() != sp.vertices.len() {
                return Err(format!(
                    "t={t}: slot {}: {} vertex floats, golden {}",
                    sp.slot,
                    sp.vertices.len(),
                    gv.len()
                ));
            }
            for (i, (a, b)) in sp.vertices.iter().zip(&gv).enumerate() {
                if (a - b).abs() > 1e-2 || a.is_nan() {
                    return Err(format!(
                        "t={t}: slot {} vertex[{i}] = {a} want {b}",
                        sp.slot
                    ));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn dragonbones_goldens_match_the_official_runtime() {
    let Some(fixtures) = sinew_testutil::require_fixtures("dragonbones_golden") else {
        return;
    };
    let dir = fixtures.join("dragonbones");
    let manifest = dir.join("golden/MANIFEST.json");
    if !manifest.is_file() {
        assert!(
            !sinew_testutil::is_ci(),
            "CI=true requires {}",
            manifest.display()
        );
        println!(
            "skipping dragonbones_golden: {} not found",
            manifest.display()
        );
        return;
    }
    let m: Value = serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let cases = m["cases"].as_array().unwrap();
    assert!(!cases.is_empty());
    let (mut pass, mut fail) = (Vec::new(), Vec::new());
    for case in cases {
        let name = case["golden"].as_str().unwrap().to_owned();
        match check_case(&dir, case) {
            Ok(()) => pass.push(name),
            Err(e) => fail.push((name, e)),
        }
    }
    println!(
        "dragonbones goldens: {} of {} match",
        pass.len(),
        cases.len()
    );
    for (n, e) in &fail {
        println!("  FAIL {n}: {e}");
    }
    assert!(
        fail.is_empty(),
        "{} of {} cases differ",
        fail.len(),
        cases.len()
    );
}
