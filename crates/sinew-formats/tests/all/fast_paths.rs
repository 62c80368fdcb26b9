//! The fast per-frame paths agree bit for bit with the plain reference paths they replace,
//! over every Spine fixture's animations.
//!
//! World vertices: `compute_world_vertices` (the dense f32 kernel the renderer and
//! `Character::compute_world_vertices` use) against `compute_world_vertices_f64` (the
//! general `vertex_world` loop) rounded to f32, for every slot of every frame. The fixtures
//! come from `$SINEW_FIXTURES`; when they are missing the test skips with a notice (fails
//! under `CI=true`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sinew::deform::{compute_world_vertices, compute_world_vertices_f64, world_vertex_count};
use sinew::{Character, Rig, SlotId};
use std::path::PathBuf;
use std::sync::Arc;

/// Every `*.json` and `*.skel` Spine fixture (one level below `spine/`).
fn spine_files() -> Option<Vec<PathBuf>> {
    sinew_testutil::spine_fixture_files("fast_paths", &["json", "skel"])
}

fn load(path: &std::path::Path) -> Option<Arc<Rig>> {
    sinew_formats::load_spine(path, None, &Default::default())
        .ok()
        .map(|a| a.rig)
}

/// Plays each clip (at most 8 per rig) for 40 frames of 1/30 s and compares every slot.
#[test]
fn world_vertices_fast_path_matches_reference() {
    let Some(files) = spine_files() else { return };
    let (mut rigs, mut compared) = (0, 0usize);
    let (mut fast, mut reference) = (Vec::new(), Vec::new());
    for path in &files {
        let Some(rig) = load(path) else { continue };
        rigs += 1;
        let names: Vec<String> = rig.clips.iter().map(|c| c.name.clone()).take(8).collect();
        for name in &names {
            let mut ch = Character::new(rig.clone());
            ch.set_animation(0, name, true).unwrap();
            for frame in 0..40 {
                ch.update(1.0 / 30.0);
                let inst = ch.instance();
                for s in 0..rig.slots.len() {
                    let slot = SlotId(s as u16);
                    let Some(att) = inst.slots.attachment[s] else {
                        continue;
                    };
                    let n = world_vertex_count(&rig, att) * 2;
                    fast.clear();
                    fast.resize(n, f32::NAN);
                    reference.clear();
                    reference.resize(n, f64::NAN);
                    compute_world_vertices(&rig, inst, slot, &mut fast);
                    if rig.attachments[att.index()].vertices().is_none() {
                        continue; // regions and points: one path only
                    }
                    compute_world_vertices_f64(&rig, inst, slot, 0, n, &mut reference, 0, 2);
                    for (k, (f, r)) in fast.iter().zip(&reference).enumerate() {
                        assert_eq!(
                            f.to_bits(),
                            (*r as f32).to_bits(),
                            "{} {name} frame {frame} slot {s} float {k}: {f} vs {r}",
                            path.display()
                        );
                    }
                    compared += n;
                }
            }
        }
    }
    assert!(rigs > 0 && compared > 0, "nothing compared");
    println!("{rigs} rigs, {compared} floats compared");
}

/// The bones' local matrices from the fast `sin_cos` (behind the trig memo) against std's,
/// for every bone's applied pose of every frame: within 4 ulp of the scale (the y axis of an
/// unsheared Spine bone is turned from the x axis).
#[test]
fn local_matrix_fast_trig_matches_reference() {
    use sinew::skeleton::{TrigMemo, local_matrix_fast, local_matrix_reference};
    let Some(files) = spine_files() else { return };
    let (mut compared, mut worst) = (0usize, 0.0f64);
    for path in &files {
        let Some(rig) = load(path) else { continue };
        let names: Vec<String> = rig.clips.iter().map(|c| c.name.clone()).take(8).collect();
        for name in &names {
            let mut ch = Character::new(rig.clone());
            ch.set_animation(0, name, true).unwrap();
            let mut memos = vec![TrigMemo::EMPTY; rig.bones.len()];
            for frame in 0..40 {
                ch.update(1.0 / 30.0);
                for (b, pose) in ch.instance().applied.iter().enumerate() {
                    let r = local_matrix_reference(rig.exact_angles, pose);
                    let f = local_matrix_fast(rig.exact_angles, &mut memos[b], pose);
                    let scale = pose.scale_x.abs().max(pose.scale_y.abs()).max(1.0);
                    for (x, y) in [(f.0, r.0), (f.1, r.1), (f.2, r.2), (f.3, r.3)] {
                        let e = (x - y).abs() / scale;
                        worst = worst.max(e);
                        assert!(
                            e <= 4.0 * f64::EPSILON || (x.is_nan() && y.is_nan()),
                            "{} {name} frame {frame} bone {b}: {f:?} vs {r:?}",
                            path.display()
                        );
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 0, "nothing compared");
    println!("{compared} local matrices compared, worst {worst:e} (relative to scale)");
}
