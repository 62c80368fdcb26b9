//! Differential test: every case of `fixtures/dragonbones/golden/MANIFEST.json` (made by
//! the official runtime through `oracle/dragonbones/dump.mjs`) posed by sinew's DragonBones
//! loader: bone a..d within 1e-3, positions and vertices within 1e-2, display names exact,
//! slots in the same draw order.

mod dragonbones_common;

use dragonbones_common::Case;
use serde_json::Value;
use sinew_formats::dragonbones::pose;
use std::path::Path;

/// Poses one case with sinew's DragonBones loader; `Err` describes the first mismatch.
fn check_case(dir: &Path, case: &Value) -> Result<(), String> {
    let c = Case::new(dir, case);
    let (asset, db) =
        sinew_formats::load_dragonbones(&c.skeleton, Some(&c.texture), c.armature.as_deref())
            .map_err(|e| e.to_string())?;
    let frames = pose(
        &asset,
        &db,
        c.anim.as_deref(),
        &c.times,
        c.fps,
        c.mode,
        false,
    )?;
    c.compare(&frames, false).map(|_| ())
}

#[test]
fn dragonbones_goldens_match_the_official_runtime() {
    let Some((dir, cases)) = dragonbones_common::cases("dragonbones_golden") else {
        return;
    };
    let (mut pass, mut fail) = (Vec::new(), Vec::new());
    for case in &cases {
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
