//! The Spine 4.2 writers against the official exports in the shared fixtures:
//! - every `.skel` read, written as `.skel` and read again is the same rig (Debug-equal, so
//!   every float bit-equal);
//! - every JSON export written as `.skel` and read back poses like the JSON through
//!   [`sinew::Character`] (bone a..d within 1e-3, positions and vertices within 1e-2) over
//!   a few animations and times;
//! - every JSON export read, written as JSON and read again is the same rig, and every
//!   `.skel` written as JSON reads back as the same rig and poses like the `.skel`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sinew::build::build_rig;
use sinew::raw::RawRig;
use sinew::{Character, SlotId};
use sinew_formats::spine::binary::{parse_spine_binary, write_spine_binary};
use sinew_formats::spine::{load_spine_json, parse_spine_json, write_spine_json};
use std::path::PathBuf;
use std::sync::Arc;

/// Every file with extension `ext` one folder below the Spine fixtures.
fn fixtures(test: &str, ext: &str) -> Option<Vec<PathBuf>> {
    sinew_testutil::spine_fixture_files(test, &[ext])
}

/// A pose: per bone `[a, b, c, d, x, y]`, per slot its world vertices.
type Pose = (Vec<[f64; 6]>, Vec<Vec<f32>>);

fn pose(rig: &Arc<sinew::Rig>, clip: Option<&str>, t: f64) -> Pose {
    let mut c = Character::new(rig.clone());
    if let Some(clip) = clip {
        c.set_animation(0, clip, true).unwrap();
    }
    c.update(0.0);
    // Small steps, the same on both sides (physics depends on them).
    let steps = (t * 60.0).round() as usize;
    for _ in 0..steps {
        c.update(t / steps as f64);
    }
    let bones = (0..rig.bones.len())
        .map(|i| {
            let w = c.bone_world(sinew::BoneId(i as u16)).unwrap();
            [w.a, w.b, w.c, w.d, w.x, w.y]
        })
        .collect();
    let slots = (0..rig.slots.len())
        .map(|i| {
            let mut v = Vec::new();
            c.world_vertices(SlotId(i as u16), &mut v);
            v
        })
        .collect();
    (bones, slots)
}

/// Compares the poses of two rigs over up to `clips` animations at a few times; returns the
/// worst differences (matrix, position) and the first mismatch.
pub fn compare_poses(a: &RawRig, b: &RawRig, clips: usize) -> Result<(f64, f64), String> {
    let ra = Arc::new(build_rig(a).map_err(|e| format!("{e}"))?);
    let rb = Arc::new(build_rig(b).map_err(|e| format!("{e}"))?);
    let mut names: Vec<Option<&str>> = vec![None];
    names.extend(a.clips.iter().take(clips).map(|c| Some(c.name.as_str())));
    let (mut worst_m, mut worst_p) = (0.0f64, 0.0f64);
    for clip in names {
        for t in [0.0f64, 0.3, 0.77] {
            let (pa, pb) = (pose(&ra, clip, t), pose(&rb, clip, t));
            for (i, (x, y)) in pa.0.iter().zip(&pb.0).enumerate() {
                for k in 0..6 {
                    let d = (x[k] - y[k]).abs();
                    let (tol, worst) = if k < 4 {
                        (1e-3, &mut worst_m)
                    } else {
                        (1e-2, &mut worst_p)
                    };
                    *worst = worst.max(d);
                    if d > tol {
                        return Err(format!(
                            "{clip:?} t={t}: bone `{}` value {k}: {} vs {}",
                            a.bones[i].name, x[k], y[k]
                        ));
                    }
                }
            }
            for (i, (x, y)) in pa.1.iter().zip(&pb.1).enumerate() {
                if x.len() != y.len() {
                    return Err(format!(
                        "{clip:?} t={t}: slot `{}` has {} vs {} vertex floats",
                        a.slots[i].name,
                        x.len(),
                        y.len()
                    ));
                }
                for (u, v) in x.iter().zip(y) {
                    let d = f64::from((u - v).abs());
                    worst_p = worst_p.max(d);
                    if d > 1e-2 {
                        return Err(format!(
                            "{clip:?} t={t}: slot `{}` vertex {u} vs {v}",
                            a.slots[i].name
                        ));
                    }
                }
            }
        }
    }
    Ok((worst_m, worst_p))
}

/// Debug text of a rig without its source name.
fn text(rig: &RawRig) -> String {
    let mut r = rig.clone();
    r.source.clear();
    format!("{r:#?}")
}

/// The first differing line of two Debug texts, for the failure message.
fn first_diff(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {i}: {x:?} vs {y:?}");
        }
    }
    format!("lengths {} vs {}", a.lines().count(), b.lines().count())
}

/// With `SINEW_KEEP_WRITTEN=DIR`, keeps each written file (for the official runtime's
/// `dump.mjs`).
fn keep(f: &std::path::Path, bytes: &[u8]) {
    if let Some(dir) = std::env::var_os("SINEW_KEEP_WRITTEN") {
        let name = f.with_extension("skel");
        let name = name.file_name().unwrap();
        std::fs::write(PathBuf::from(dir).join(name), bytes).unwrap();
    }
}

#[test]
fn every_skel_reads_back_equal_after_writing() {
    let Some(files) = fixtures("skel_write_roundtrip", "skel") else {
        return;
    };
    assert!(files.len() >= 20, "expected the 20 .skel exports");
    let mut failures = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let rig = parse_spine_binary(&bytes, "a").unwrap();
        let out = match write_spine_binary(&rig) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{}: write: {e}", f.display()));
                continue;
            }
        };
        let back = match parse_spine_binary(&out, "a") {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{}: read back: {e}", f.display()));
                continue;
            }
        };
        let (x, y) = (text(&rig), text(&back));
        if x != y {
            failures.push(format!("{}: {}", f.display(), first_diff(&x, &y)));
        }
        eprintln!(
            "{}: {} bytes read, {} written",
            f.display(),
            bytes.len(),
            out.len()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{} .skel files round-trip", files.len());
}

#[test]
fn every_json_written_as_skel_poses_like_the_json() {
    let Some(files) = fixtures("json_to_skel_poses", "json") else {
        return;
    };
    let mut failures = Vec::new();
    let mut n = 0;
    for f in &files {
        let Ok(rig) = load_spine_json(f) else {
            continue; // not a skeleton (e.g. an extras file)
        };
        n += 1;
        let result = write_spine_binary(&rig)
            .map_err(|e| format!("write: {e}"))
            .inspect(|b| keep(f, b))
            .and_then(|b| parse_spine_binary(&b, "a").map_err(|e| format!("read back: {e}")))
            .and_then(|back| compare_poses(&rig, &back, 3));
        match result {
            Ok((m, p)) => eprintln!("{}: worst a..d {m:.2e}, xy {p:.2e}", f.display()),
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(n >= 20, "expected the 20 JSON exports, found {n}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_json_reads_back_equal_after_writing_json() {
    let Some(files) = fixtures("json_write_roundtrip", "json") else {
        return;
    };
    let mut failures = Vec::new();
    let mut n = 0;
    for f in &files {
        let Ok(rig) = load_spine_json(f) else {
            continue;
        };
        n += 1;
        let back = write_spine_json(&rig, false)
            .map_err(|e| format!("write: {e}"))
            .and_then(|t| parse_spine_json(&t, "a").map_err(|e| format!("read back: {e}")));
        match back {
            Ok(back) => {
                let (x, y) = (text(&rig), text(&back));
                if x != y {
                    failures.push(format!("{}: {}", f.display(), first_diff(&x, &y)));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(n >= 20, "expected the 20 JSON exports, found {n}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{n} JSON files round-trip");
}

#[test]
fn every_skel_written_as_json_reads_back_equal_and_poses_the_same() {
    let Some(files) = fixtures("skel_to_json", "skel") else {
        return;
    };
    let mut failures = Vec::new();
    for f in &files {
        let rig = parse_spine_binary(&std::fs::read(f).unwrap(), "a").unwrap();
        let back = write_spine_json(&rig, true)
            .map_err(|e| format!("write: {e}"))
            .and_then(|t| parse_spine_json(&t, "a").map_err(|e| format!("read back: {e}")));
        let mut back = match back {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        // JSON stores the mass, the rig its inverse: an inverse that is no f64's exact
        // reciprocal reads back an ulp off.
        for (a, b) in rig.physics.iter().zip(&mut back.physics) {
            if (a.mass_inverse - b.mass_inverse).abs() <= 1e-15 * a.mass_inverse.abs() {
                b.mass_inverse = a.mass_inverse;
            }
        }
        let (x, y) = (text(&rig), text(&back));
        if x != y {
            failures.push(format!("{}: {}", f.display(), first_diff(&x, &y)));
        }
        match compare_poses(&rig, &back, 3) {
            Ok((m, p)) => eprintln!("{}: worst a..d {m:.2e}, xy {p:.2e}", f.display()),
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(files.len() >= 20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A tiny deterministic generator for the mutation test.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// One random damage to a rig: a bad number, a dangling name, a broken list.
fn mutate(rig: &mut RawRig, g: &mut Lcg) {
    use sinew::raw::*;
    let nb = rig.bones.len();
    match g.next(12) {
        0 => rig.bones[g.next(nb)].x = [f64::NAN, f64::INFINITY, 1e31][g.next(3)],
        1 => rig.bones[g.next(nb)].parent = Some("no such bone".into()),
        2 => {
            rig.bones[g.next(nb)].inherit = sinew::Inherit::DragonBones(sinew::DragonBonesInherit {
                scale: false,
                ..Default::default()
            })
        }
        3 => {
            let n = rig.slots.len();
            rig.slots[g.next(n)].bone = "no such bone".into();
        }
        4 => {
            rig.bones.remove(g.next(nb));
        }
        5 => {
            let n = rig.ik.len();
            if n > 0 {
                rig.ik[g.next(n)].bones.clear();
            }
        }
        _ => {
            let n = rig.clips.len();
            let clip = &mut rig.clips[g.next(n)];
            let n = clip.timelines.len();
            if n == 0 {
                return;
            }
            let t = &mut clip.timelines[g.next(n)];
            let nk = t.keys.len();
            let k = &mut t.keys[g.next(nk)];
            match g.next(6) {
                0 => t.keys.reverse(),
                1 => k.values.clear(),
                2 => k.curve = RawCurve::Bezier(vec![0.0; 3]),
                3 => k.time = f64::NAN,
                4 => match &mut k.data {
                    RawKeyData::Deform { offset, .. } => *offset = 1_000_000,
                    RawKeyData::Event { name, .. } => *name = "no such event".into(),
                    RawKeyData::DrawOrder(Some(list)) => {
                        if let Some(first) = list.first().cloned() {
                            list.push(first);
                        }
                    }
                    d => *d = RawKeyData::None,
                },
                _ => t.target = RawTarget::Ik("no such constraint".into()),
            }
        }
    }
}

/// The writers never panic on a damaged rig, and what they do write reads back.
#[test]
fn writers_refuse_damaged_rigs_without_panicking() {
    let Some(files) = fixtures("write_mutations", "skel") else {
        return;
    };
    let mut g = Lcg(0x5eed);
    let (mut refused, mut written) = (0, 0);
    for f in &files {
        let base = parse_spine_binary(&std::fs::read(f).unwrap(), "a").unwrap();
        for _ in 0..40 {
            let mut rig = base.clone();
            mutate(&mut rig, &mut g);
            match write_spine_binary(&rig) {
                Ok(bytes) => {
                    written += 1;
                    let back = parse_spine_binary(&bytes, "m.skel");
                    assert!(
                        back.is_ok(),
                        "{}: written but unreadable: {back:?}",
                        f.display()
                    );
                }
                Err(e) => {
                    refused += 1;
                    assert!(!e.what.is_empty() && !e.message.is_empty());
                }
            }
            match write_spine_json(&rig, false) {
                Ok(text) => {
                    let back = parse_spine_json(&text, "m.json");
                    assert!(
                        back.is_ok(),
                        "{}: written but unreadable: {back:?}",
                        f.display()
                    );
                }
                Err(e) => assert!(!e.what.is_empty() && !e.message.is_empty()),
            }
        }
    }
    eprintln!("damaged rigs: {refused} refused, {written} written and read back");
    assert!(refused > 0 && written > 0);
}
