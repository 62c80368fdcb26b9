//! Differential test: every case of `fixtures/dragonbones/golden/MANIFEST.json` (made by
//! the official runtime through `oracle/dragonbones/dump.mjs`) posed by sinew's DragonBones
//! loader: bone a..d within 1e-3, positions and vertices within 1e-2, display names exact,
//! slots in the same draw order, slot colours, child armatures (`child.slots`: effect's
//! `sprite` flip-book inside the `flower` skill) and key events (see `dragonbones_common`).

use crate::dragonbones_common;

use dragonbones_common::Case;
use serde_json::Value;
use std::path::Path;

/// Poses one case with sinew's DragonBones loader; `Err` describes the first mismatch.
fn check_case(dir: &Path, case: &Value) -> Result<(), String> {
    Case::new(dir, case).check().map(|_| ())
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

/// The animation reader's memory budget (a multiple of the file's size, see
/// `tests/all/dragonbones_budget.rs`) leaves the fixtures far inside it.
#[test]
fn fixtures_use_a_small_part_of_the_budget() {
    let Some(dir) = sinew_testutil::require_fixtures("fixtures_use_a_small_part_of_the_budget")
    else {
        return;
    };
    for (ske, tex) in [
        ("you_xin_body/body_ske.json", "you_xin_body/body_tex.json"),
        ("effect/effect_ske.json", "effect/effect_tex.json"),
        (
            "dragon_boy/dragon_boy_ske.json",
            "dragon_boy/dragon_boy_tex.json",
        ),
    ] {
        let p = dir.join("dragonbones").join(ske);
        let db = sinew_formats::dragonbones::load_dragonbones(
            &p,
            Some(&dir.join("dragonbones").join(tex)),
            None,
        )
        .unwrap();
        let bytes = std::fs::metadata(&p).unwrap().len() as f64;
        let per_byte = db.values_made as f64 / bytes;
        println!("{ske}: {} values, {per_byte:.2} a byte", db.values_made);
        assert!(per_byte < 2.0, "{ske}: {per_byte}");
    }
}
