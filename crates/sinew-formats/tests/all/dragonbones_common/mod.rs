//! Shared by the DragonBones golden suites (`dragonbones_golden.rs`, `convert_dragonbones.rs`,
//! `dragonbones_synthetic.rs`, `dragonbones_random.rs`): the cases of a golden `MANIFEST.json`, how a case is posed
//! (its clock and mode), and the comparison with the golden dump: bone a..d within 1e-3,
//! positions and vertices within 1e-2, slot colour multipliers within 1e-3 (sinew writes
//! `tweenEasing` as 64 linear pieces, within 2.5e-4 of the change), bone names, draw order
//! and display names exact, a child armature's slots (`child.slots`) the same way, and the
//! key events (`frameEvent`, `soundEvent`) of each sample: names in order, the first int,
//! float and string of each.

use serde_json::Value;
use sinew_formats::Asset;
use sinew_formats::dragonbones::{DragonBonesRig, Frame, PoseMode, SlotPose, pose};
use std::path::{Path, PathBuf};

/// An asset of `rig` alone (no atlas, extras or puppet; Spine's draw setup), for posing a
/// converted rig with the DragonBones clock.
#[allow(dead_code)] // only the conversion suite builds its own rigs
pub fn bare_asset(rig: sinew::Rig) -> Asset {
    Asset::from_rig(rig, sinew_formats::Format::SpineJson)
}

/// Gives a converted rig's clips the DragonBones playback facts of `db`'s clips of the same
/// name (Spine data has no place for them), so it can be posed with the DragonBones clock.
#[allow(dead_code)] // only the conversion suite builds its own rigs
pub fn with_playback(mut raw: sinew::RawRig, db: &DragonBonesRig) -> sinew::RawRig {
    for clip in &mut raw.clips {
        if let Some(c) = db.raw.clips.iter().find(|c| c.name == clip.name) {
            clip.playback = c.playback.clone();
        }
    }
    raw
}

/// The fixtures' DragonBones folder and its manifest cases, or `None` (with a notice, or a
/// failure under `CI=true`) when they are missing.
#[allow(dead_code)] // not every suite reads both manifests
pub fn cases(test: &str) -> Option<(PathBuf, Vec<Value>)> {
    let dir = sinew_testutil::require_fixtures(test)?.join("dragonbones");
    manifest_cases(test, dir.clone(), &dir.join("golden/MANIFEST.json"))
}

/// The cases of the synthetic rigs' manifest (`testdata/dragonbones/MANIFEST.json`,
/// committed: always present).
#[allow(dead_code)]
pub fn synthetic_cases(test: &str) -> Option<(PathBuf, Vec<Value>)> {
    let dir = sinew_testutil::workspace_root().join("testdata/dragonbones");
    manifest_cases(test, dir.clone(), &dir.join("MANIFEST.json"))
}

/// The cases of the random rigs' manifest (`testdata/dragonbones/random/MANIFEST.json`,
/// committed: always present).
#[allow(dead_code)]
pub fn random_cases(test: &str) -> Option<(PathBuf, Vec<Value>)> {
    let dir = sinew_testutil::workspace_root().join("testdata/dragonbones/random");
    manifest_cases(test, dir.clone(), &dir.join("MANIFEST.json"))
}

/// The shared fixtures sampled on their key grids (`testdata/dragonbones/grid/`): the
/// goldens' folder and its cases, whose skeleton and texture paths are relative to the
/// fixtures' DragonBones folder (see [`Case::on_fixtures`]); `None` (with a notice, or a
/// failure under `CI=true`) without the fixtures.
#[allow(dead_code)]
pub fn grid_cases(test: &str) -> Option<(PathBuf, Vec<Value>)> {
    sinew_testutil::require_fixtures(test)?;
    let dir = sinew_testutil::workspace_root().join("testdata/dragonbones/grid");
    manifest_cases(test, dir.clone(), &dir.join("MANIFEST.json"))
}

/// `dir` and the cases of `manifest` (goldens under `dir/golden/` or `dir`).
fn manifest_cases(test: &str, dir: PathBuf, manifest: &Path) -> Option<(PathBuf, Vec<Value>)> {
    if !manifest.is_file() {
        assert!(
            !sinew_testutil::is_ci(),
            "CI=true requires {}",
            manifest.display()
        );
        println!("skipping {test}: {} not found", manifest.display());
        return None;
    }
    let m: Value = serde_json::from_str(&std::fs::read_to_string(manifest).ok()?).ok()?;
    let cases = m["cases"].as_array()?.clone();
    assert!(!cases.is_empty(), "{} lists no case", manifest.display());
    Some((dir, cases))
}

/// One manifest case: its files and how it is posed.
pub struct Case {
    pub skeleton: PathBuf,
    /// The atlas description (`None`: `--tex none`).
    pub texture: Option<PathBuf>,
    pub armature: Option<String>,
    pub anim: Option<String>,
    pub times: Vec<f64>,
    pub fps: f64,
    pub mode: PoseMode,
    /// `--y-up`: the golden is in y-up space.
    pub y_up: bool,
    golden: PathBuf,
}

impl Case {
    /// The case's frames of `asset`: its animation, sample times, frame rate, mode and y
    /// direction, as the golden dumps.
    pub fn pose(&self, asset: &Asset, db: &DragonBonesRig) -> Result<Vec<Frame>, String> {
        pose(
            asset,
            db,
            self.anim.as_deref(),
            &self.times,
            self.fps,
            self.mode,
            self.y_up,
        )
    }

    /// Loads the case's skeleton with sinew's DragonBones loader, poses it and compares
    /// with the golden (y as the golden): the worst (matrix, position) errors, or the
    /// first mismatch.
    #[allow(dead_code)]
    pub fn check(&self) -> Result<(f64, f64), String> {
        let (asset, db) = sinew_formats::load_dragonbones(
            &self.skeleton,
            self.texture.as_deref(),
            self.armature.as_deref(),
        )
        .map_err(|e| e.to_string())?;
        self.compare(&self.pose(&asset, &db)?, false)
    }

    /// A case of [`grid_cases`]: the golden in `dir`, the files in the shared fixtures.
    #[allow(dead_code)]
    pub fn on_fixtures(dir: &Path, case: &Value) -> Case {
        let files = sinew_testutil::expected_fixtures_dir().join("dragonbones");
        let mut c = Case::new(&files, case);
        c.golden = dir.join(case["golden"].as_str().unwrap_or_default());
        c
    }

    pub fn new(dir: &Path, case: &Value) -> Case {
        let s = |k: &str| case[k].as_str().unwrap_or_default().to_owned();
        let args = case["args"].as_array().cloned().unwrap_or_default();
        let arg = |name: &str| {
            let i = args.iter().position(|a| a.as_str() == Some(name))?;
            args.get(i + 1)?.as_str().map(str::to_owned)
        };
        let golden = if dir.join("golden").is_dir() {
            dir.join("golden").join(s("golden"))
        } else {
            dir.join(s("golden"))
        };
        Case {
            skeleton: dir.join(s("skeleton")),
            texture: case["texture"].as_str().map(|t| dir.join(t)),
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
            y_up: args.iter().any(|a| a.as_str() == Some("--y-up")),
            golden,
        }
    }

    /// Compares posed `frames` with the golden dump; `mirrored`: the frames come from a
    /// y-up rig (every transform mirrored by `F = diag(1, -1)`: matrices `F W F`, points
    /// `F p`), mirrored back first. Returns the worst (matrix, position) error, or the first
    /// mismatch. Mirrored frames come from a converted Spine rig, which has no child
    /// armatures: their `child` entries are not compared.
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
            let mut slots = f.slots.clone();
            let mut gs = gs;
            if mirrored {
                for s in &mut slots {
                    s.child = None;
                }
                for g in &mut gs {
                    if let Some(o) = g.as_object_mut() {
                        o.remove("child");
                    }
                }
            }
            // Spine stores colours as bytes: a converted rig is within half a step.
            let ctol = if mirrored { 0.5 / 255.0 + 1e-6 } else { 1e-3 };
            compare_slots(t, &slots, &gs, flip, ctol, &mut wp)?;
            if let Some(ge) = g["events"].as_array() {
                compare_events(t, f, ge)?;
            }
        }
        Ok((wm, wp))
    }
}

/// Slots in draw order: names, displays, colours, vertices, child armatures.
fn compare_slots(
    t: f64,
    slots: &[SlotPose],
    gs: &[Value],
    flip: f64,
    ctol: f64,
    wp: &mut f64,
) -> Result<(), String> {
    if gs.len() != slots.len() {
        return Err(format!("t={t}: {} slots, golden {}", slots.len(), gs.len()));
    }
    for (sp, gs) in slots.iter().zip(gs) {
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
        if let Some(gc) = gs["color"].as_array() {
            for (i, (a, b)) in sp.color.iter().zip(gc).enumerate() {
                let b = b.as_f64().unwrap_or(f64::NAN);
                let d = (f64::from(*a) - b).abs();
                if d > ctol || d.is_nan() {
                    return Err(format!("t={t}: slot {} color[{i}] = {a} want {b}", sp.slot));
                }
            }
        }
        // Colour offsets, -255..255 (the alpha offset is not drawn by sinew: not compared).
        if let Some(go) = gs["colorOffset"].as_array() {
            for (i, (a, b)) in sp.offset.iter().zip(go).enumerate() {
                let b = b.as_f64().unwrap_or(f64::NAN);
                let d = (f64::from(*a) * 255.0 - b).abs();
                if d > 255.0 * ctol || d.is_nan() {
                    return Err(format!(
                        "t={t}: slot {} colorOffset[{i}] = {} want {b}",
                        sp.slot,
                        a * 255.0
                    ));
                }
            }
        }
        match (&sp.child, gs.get("child")) {
            (None, None | Some(Value::Null)) => {}
            (Some(c), Some(gc)) => {
                if gc["armature"].as_str() != Some(c.armature.as_str()) {
                    return Err(format!(
                        "t={t}: slot {} child {} vs {}",
                        sp.slot, c.armature, gc["armature"]
                    ));
                }
                let inner = gc["slots"].as_array().cloned().unwrap_or_default();
                compare_slots(t, &c.slots, &inner, flip, ctol, wp)
                    .map_err(|e| format!("slot {} child: {e}", sp.slot))?;
            }
            (c, g) => {
                return Err(format!(
                    "t={t}: slot {}: child {:?}, golden {:?}",
                    sp.slot,
                    c.as_ref().map(|c| &c.armature),
                    g.map(|g| &g["armature"])
                ));
            }
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
            *wp = wp.max(d);
            if d > 1e-2 || d.is_nan() {
                return Err(format!(
                    "t={t}: slot {} vertex[{i}] = {a} want {b}",
                    sp.slot
                ));
            }
        }
    }
    Ok(())
}

/// The sample's key events against the golden's `frameEvent`/`soundEvent` entries.
fn compare_events(t: f64, f: &Frame, ge: &[Value]) -> Result<(), String> {
    let want: Vec<&Value> = ge
        .iter()
        .filter(|e| matches!(e["type"].as_str(), Some("frameEvent" | "soundEvent")))
        .collect();
    let got: Vec<&str> = f.events.iter().map(|e| e.name.as_str()).collect();
    let names: Vec<&str> = want.iter().filter_map(|e| e["name"].as_str()).collect();
    if got != names {
        return Err(format!("t={t}: events {got:?}, golden {names:?}"));
    }
    for (e, g) in f.events.iter().zip(&want) {
        let first = |k: &str| g[k].as_array().and_then(|a| a.first()).cloned();
        let int = first("ints").and_then(|v| v.as_i64()).unwrap_or(0);
        let float = first("floats").and_then(|v| v.as_f64()).unwrap_or(0.0);
        let string = first("strings");
        let string = string.as_ref().and_then(Value::as_str).unwrap_or("");
        if i64::from(e.int) != int
            || (f64::from(e.float) - float).abs() > 1e-6
            || e.string != string
        {
            return Err(format!(
                "t={t}: event {} payload ({}, {}, {:?}), golden ({int}, {float}, {string:?})",
                e.name, e.int, e.float, e.string
            ));
        }
    }
    Ok(())
}
