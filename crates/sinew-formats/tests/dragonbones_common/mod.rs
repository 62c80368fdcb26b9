//! Shared by the DragonBones golden suites (`dragonbones_golden.rs`, `convert_dragonbones.rs`):
//! the cases of `fixtures/dragonbones/golden/MANIFEST.json`, how a case is posed (its clock
//! and mode), and the comparison with the golden dump (bone a..d within 1e-3, positions and
//! vertices within 1e-2, bone names, draw order and display names exact).

use serde_json::Value;
use sinew_formats::dragonbones::{Frame, PoseMode};
use std::path::{Path, PathBuf};

/// The fixtures' DragonBones folder and its manifest cases, or `None` (with a notice, or a
/// failure under `CI=true`) when they are missing.
pub fn cases(test: &str) -> Option<(PathBuf, Vec<Value>)> {
    let dir = sinew_testutil::require_fixtures(test)?.join("dragonbones");
    let manifest = dir.join("golden/MANIFEST.json");
    if !manifest.is_file() {
        assert!(
            !sinew_testutil::is_ci(),
            "CI=true requires {}",
            manifest.display()
        );
        println!("skipping {test}: {} not found", manifest.display());
        return None;
    }
    let m: Value = serde_json::from_str(&std::fs::read_to_string(&manifest).ok()?).ok()?;
    let cases = m["cases"].as_array()?.clone();
    assert!(!cases.is_empty(), "{} lists no case", manifest.display());
    Some((dir, cases))
}

/// One manifest case: its files and how it is posed.
pub struct Case {
    pub skeleton: PathBuf,
    pub texture: PathBuf,
    pub armature: Option<String>,
    pub anim: Option<String>,
    pub times: Vec<f64>,
    pub fps: f64,
    pub mode: PoseMode,
    golden: PathBuf,
}

impl Case {
    pub fn new(dir: &Path, case: &Value) -> Case {
        let s = |k: &str| case[k].as_str().unwrap_or_default().to_owned();
        let args = case["args"].as_array().cloned().unwrap_or_default();
        let arg = |name: &str| {
            let i = args.iter().position(|a| a.as_str() == Some(name))?;
            args.get(i + 1)?.as_str().map(str::to_owned)
        };
        Case {
            skeleton: dir.join(s("skeleton")),
            texture: dir.join(s("texture")),
            armature: arg("--armature"),
            anim: arg("--anim"),
            times: case["times"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default(),
            fps: arg("--fps").and_then(|f| f.parse().ok()).unwrap_or(60.0),
            mode: match arg("--mode").as_deref() {
                Some("goto") => PoseMode::Goto,
                _ => PoseMode::Play,
            },
            golden: dir.join("golden").join(s("golden")),
        }
    }

    /// Compares posed `frames` with the golden dump; `mirrored`: the frames come from a
    /// y-up rig (every transform mirrored by `F = diag(1, -1)`: matrices `F W F`, points
    /// `F p`), mirrored back first. Returns the worst (matrix, position) error, or the first
    /// mismatch.
    pub fn compare(&self, frames: &[Frame], mirrored: bool) -> Result<(f64, f64), String> {
        let text = std::fs::read_to_string(&self.golden).map_err(|e| e.to_string())?;
        let golden: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let gframes = golden["frames"].as_array().cloned().unwrap_or_default();
        if gframes.len() != frames.len() {
            return Err(format!("{} frames, golden {}", frames.len(), gframes.len()));
        }
        let flip = if mirrored { -1.0 } else { 1.0 };
        let (mut wm, mut wp) = (0.0f64, 0.0f64);
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
                // Mirrored back: F W F has b and c negated, F p has y negated.
                let back = [m[0], flip * m[1], flip * m[2], m[3], m[4], flip * m[5]];
                for (i, k) in ["a", "b", "c", "d", "worldX", "worldY"].iter().enumerate() {
                    let want = gb[k].as_f64().unwrap_or(f64::NAN);
                    let d = (back[i] - want).abs();
                    let (tol, worst) = if i < 4 {
                        (1e-3, &mut wm)
                    } else {
                        (1e-2, &mut wp)
                    };
                    *worst = worst.max(d);
                    if d > tol || d.is_nan() {
                        return Err(format!("t={t}: bone {name}.{k} = {} want {want}", back[i]));
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
                    let a = if i % 2 == 1 { flip * a } else { *a };
                    let d = (a - b).abs();
                    wp = wp.max(d);
                    if d > 1e-2 || d.is_nan() {
                        return Err(format!(
                            "t={t}: slot {} vertex[{i}] = {a} want {b}",
                            sp.slot
                        ));
                    }
                }
            }
        }
        Ok((wm, wp))
    }
}
