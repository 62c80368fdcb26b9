//! World vertices of every Spine fixture match the official runtime, in the setup pose and
//! after setup-pose stepping of the rigs with path and physics constraints.
//!
//! Each case in `testdata/setup_vertices/` names a fixture rig (and skins). The rig is
//! loaded, built and posed as `dump.mjs` does: `Instance::new`, then one 0 s step
//! (`advance_time(0)`, `update_world_transform(Physics::Update)`). Every slot's attachment
//! and world vertices (`compute_world_vertices`, or `point_world` for points) must match the
//! oracle to 1e-2 units. `NAME.steps.json` cases then take 1/60 s steps with no animation
//! and compare every bone (to 1e-5) at 0, 0.1, ..., 0.5 s and the slot vertices at 0.5 s, which
//! exercises path constraints and physics through the whole pipeline.
//! The data is made by `testdata/setup_vertices/generate.py` (which runs
//! `node dump.mjs <rig> [--skin S] --times 0 --round 6`, and `--times 0:0.5:0.1` for steps).
//! The fixtures come from `$SINEW_FIXTURES` (default `<workspace>/../shared/fixtures`); when
//! they are missing the test skips with a notice, or fails under `CI=true`.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use sinew::build::build_rig;
use sinew::deform::{compute_world_vertices, point_world, world_vertex_count};
use sinew::skeleton::update_world_transform;
use sinew::{Instance, Physics, Rig, SlotId};
use sinew_formats::spine::load_spine_json;
use std::path::{Path, PathBuf};

/// World position tolerance for vertices, points and bone origins (rig units).
const TOL_POSITION: f64 = 1e-2;
/// Bone tolerance (matrix entries and origins) while stepping: the dumps are rounded to
/// 1e-6 and the pipeline is f64, so anything above rounding is a real divergence (physics
/// amplifies small errors quickly).
const TOL_BONE: f64 = 1e-5;
/// Point rotation tolerance, degrees.
const TOL_DEGREES: f64 = 1e-2;
/// Mismatch lines printed per case.
const MAX_REPORTED: usize = 12;

/// The committed cases: setup cases, or `.steps.json` cases, sorted.
fn cases(steps: bool) -> Vec<PathBuf> {
    let dir = sinew_testutil::workspace_root()
        .join("testdata")
        .join("setup_vertices");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".json") && name.ends_with(".steps.json") == steps
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no cases in {}", dir.display());
    out
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Loads and builds a case's rig and makes an instance showing its skins.
fn pose_case(fixtures: &Path, case: &Value) -> Result<(Rig, Instance), String> {
    let file = fixtures.join(case["skeleton"].as_str().unwrap());
    let raw = load_spine_json(&file).map_err(|e| format!("load: {e}"))?;
    let rig = build_rig(&raw).map_err(|e| format!("build: {e}"))?;
    let mut inst = Instance::new(&rig);
    if let Some(skins) = case["skin"].as_array() {
        let mut ids = Vec::new();
        for name in skins.iter().map(|s| s.as_str().unwrap()) {
            ids.push(
                rig.skin(name)
                    .ok_or_else(|| format!("skin `{name}` missing"))?,
            );
        }
        inst.set_skins(&rig, &ids);
        // As the dump: setSkin, then setToSetupPose (which shows the skins' setup attachments).
        inst.set_to_setup_pose(&rig);
    }
    Ok((rig, inst))
}

/// One step of the dump's loop without animation.
fn step(rig: &Rig, inst: &mut Instance, dt: f64) {
    inst.advance_time(dt);
    update_world_transform(rig, inst, Physics::Update);
}

/// The largest differences seen in one case (printed with `--nocapture`).
#[derive(Default)]
struct Worst {
    vertex: f64,
    matrix: f64,
    position: f64,
}

/// Compares every listed slot's attachment and world vertices; a line per mismatch.
fn check_slots(
    rig: &Rig,
    inst: &Instance,
    slots: &Value,
    worst: &mut Worst,
    problems: &mut Vec<String>,
) {
    let mut buf = Vec::new();
    for s in slots.as_array().unwrap() {
        let name = s["slot"].as_str().unwrap();
        let Some(slot) = rig.slot(name) else {
            problems.push(format!("slot `{name}` missing"));
            continue;
        };
        let att = inst.slots.attachment[slot.index()];
        let got_name = att.map(|a| rig.attachments[a.index()].name.as_str());
        if got_name != s["attachment"].as_str() {
            problems.push(format!(
                "slot `{name}`: attachment {got_name:?}, oracle {}",
                s["attachment"]
            ));
            continue;
        }
        if let Some(want) = s["vertices"].as_array() {
            check_vertices(rig, inst, slot, want, &mut buf, worst, problems);
        }
        if let Some(want) = s["point"].as_array() {
            let want: Vec<f64> = want.iter().map(|v| v.as_f64().unwrap()).collect();
            match point_world(rig, inst, slot) {
                Some((x, y, r)) => {
                    let d = sinew::math::wrap_degrees(r - want[2]).abs();
                    if (x - want[0]).abs() > TOL_POSITION
                        || (y - want[1]).abs() > TOL_POSITION
                        || d > TOL_DEGREES
                    {
                        problems.push(format!(
                            "slot `{name}`: point ({x}, {y}, {r}), oracle {want:?}"
                        ));
                    }
                }
                None => problems.push(format!("slot `{name}`: no point")),
            }
        }
    }
}

fn check_vertices(
    rig: &Rig,
    inst: &Instance,
    slot: SlotId,
    want: &[Value],
    buf: &mut Vec<f32>,
    worst_seen: &mut Worst,
    problems: &mut Vec<String>,
) {
    let name = &rig.slots[slot.index()].name;
    let Some(att) = inst.slots.attachment[slot.index()] else {
        return;
    };
    let n = world_vertex_count(rig, att) * 2;
    if n != want.len() {
        problems.push(format!(
            "slot `{name}`: {} vertex floats, oracle {}",
            n,
            want.len()
        ));
        return;
    }
    buf.clear();
    buf.resize(n, f32::NAN);
    compute_world_vertices(rig, inst, slot, buf);
    let worst = buf
        .iter()
        .zip(want)
        .map(|(&g, w)| (f64::from(g) - w.as_f64().unwrap()).abs())
        .enumerate()
        .fold((0, 0.0f64), |acc, (i, d)| {
            if d > acc.1 || d.is_nan() { (i, d) } else { acc }
        });
    worst_seen.vertex = worst_seen.vertex.max(worst.1);
    if worst.1 > TOL_POSITION || worst.1.is_nan() {
        let i = worst.0;
        problems.push(format!(
            "slot `{name}`: vertex float {i} = {}, oracle {} (off by {})",
            buf[i], want[i], worst.1
        ));
    }
}

/// Compares every bone's world transform with a dumped frame.
fn check_bones(
    rig: &Rig,
    inst: &Instance,
    names: &Value,
    bones: &Value,
    label: &str,
    worst: &mut Worst,
    problems: &mut Vec<String>,
) {
    for (i, (name, want)) in names
        .as_array()
        .unwrap()
        .iter()
        .zip(bones.as_array().unwrap())
        .enumerate()
    {
        let name = name.as_str().unwrap();
        if rig.bones.get(i).map(|b| b.name.as_str()) != Some(name) {
            problems.push(format!("{label}: bone {i} is not `{name}`"));
            return;
        }
        let w = inst.world[i];
        let got = [w.a, w.b, w.c, w.d, w.x, w.y];
        for (k, g) in got.iter().enumerate() {
            let e = want[k].as_f64().unwrap();
            let seen = if k < 4 {
                &mut worst.matrix
            } else {
                &mut worst.position
            };
            *seen = seen.max((g - e).abs());
            if (g - e).abs() > TOL_BONE || g.is_nan() {
                problems.push(format!(
                    "{label}: bone `{name}` field {k} = {g}, oracle {e}"
                ));
                break;
            }
        }
    }
}

fn report(all: &mut Vec<String>, case: &Path, worst: &Worst, problems: Vec<String>) {
    let name = case.file_name().unwrap().to_string_lossy();
    println!(
        "{name}: worst vertex {:.2e}, bone matrix {:.2e}, bone origin {:.2e}",
        worst.vertex, worst.matrix, worst.position
    );
    if problems.is_empty() {
        return;
    }
    all.push(format!("{name}: {} mismatches", problems.len()));
    all.extend(
        problems
            .into_iter()
            .take(MAX_REPORTED)
            .map(|p| format!("  {p}")),
    );
}

#[test]
fn setup_pose_world_vertices_match_oracle() {
    let Some(fixtures) = sinew_testutil::require_fixtures("setup_pose_world_vertices_match_oracle")
    else {
        return;
    };
    let mut all = Vec::new();
    for path in cases(false) {
        let case = read_json(&path);
        let mut problems = Vec::new();
        let mut worst = Worst::default();
        match pose_case(&fixtures, &case) {
            Ok((rig, mut inst)) => {
                step(&rig, &mut inst, 0.0);
                check_slots(&rig, &inst, &case["slots"], &mut worst, &mut problems);
            }
            Err(e) => problems.push(e),
        }
        report(&mut all, &path, &worst, problems);
    }
    assert!(
        all.is_empty(),
        "world vertices differ from the oracle:\n{}",
        all.join("\n")
    );
}

#[test]
fn setup_stepping_with_paths_and_physics_matches_oracle() {
    let Some(fixtures) =
        sinew_testutil::require_fixtures("setup_stepping_with_paths_and_physics_matches_oracle")
    else {
        return;
    };
    let mut all = Vec::new();
    for path in cases(true) {
        let case = read_json(&path);
        let mut problems = Vec::new();
        let mut worst = Worst::default();
        match pose_case(&fixtures, &case) {
            Ok((rig, mut inst)) => {
                // The dump's schedule: one 0 s step, then 1/60 s steps; frames are sampled
                // after the step counts they list.
                step(&rig, &mut inst, 0.0);
                let mut taken = 0;
                for frame in case["frames"].as_array().unwrap() {
                    let target = frame["step"].as_u64().unwrap();
                    while taken < target {
                        step(&rig, &mut inst, 1.0 / 60.0);
                        taken += 1;
                    }
                    let label = format!("t={}", frame["time"]);
                    let (names, bones) = (&case["bone_names"], &frame["bones"]);
                    check_bones(&rig, &inst, names, bones, &label, &mut worst, &mut problems);
                }
                check_slots(&rig, &inst, &case["last_slots"], &mut worst, &mut problems);
            }
            Err(e) => problems.push(e),
        }
        report(&mut all, &path, &worst, problems);
    }
    assert!(
        all.is_empty(),
        "stepping differs from the oracle:\n{}",
        all.join("\n")
    );
}
