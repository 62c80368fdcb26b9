//! Replays every saved fuzz input (`fuzz/regressions/spine_json/*`) through the loader, the
//! builder and frames of each animation, exactly as the `spine_json` fuzz target does: none
//! may panic.
#![allow(clippy::unwrap_used)]

use sinew::build::build_rig;
use sinew_formats::spine::parse_spine_json;
use std::path::PathBuf;

/// The saved inputs of a fuzz target (`fuzz/regressions/TARGET/*`), sorted; at least its
/// two seeds.
fn saved_inputs(target: &str) -> Vec<PathBuf> {
    let dir = sinew_testutil::workspace_root()
        .join("fuzz")
        .join("regressions")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(
        files.len() >= 2,
        "expected the seed inputs in {}",
        dir.display()
    );
    files
}

/// Three frames of `dt` through the facade, as the fuzz targets play what loaded: update,
/// draw list, world vertices.
fn play(c: &mut sinew::Character, vertices: &mut [f32], dt: f64) {
    for _ in 0..3 {
        c.update(dt);
        c.draw_list();
        c.compute_world_vertices(vertices);
    }
}

#[test]
fn spine_json_regressions_do_not_panic() {
    for f in saved_inputs("spine_json") {
        let data = std::fs::read(&f).unwrap();
        let text = String::from_utf8_lossy(&data);
        let name = f.display().to_string();
        // Each input is a separate case: report which one panicked.
        let outcome = std::panic::catch_unwind(|| {
            let Ok(raw) = parse_spine_json(&text, &name) else {
                return;
            };
            let Ok(rig) = build_rig(&raw) else {
                return;
            };
            // As the fuzz target does: frames of each animation through the facade.
            let rig = std::sync::Arc::new(rig);
            let mut c = sinew::Character::new(rig.clone());
            let mut vertices = vec![0.0; c.max_world_floats()];
            for clip in rig.clips.iter().take(4) {
                let _ = c.set_animation(0, &clip.name, true);
                play(&mut c, &mut vertices, 1.0 / 30.0);
            }
        });
        assert!(outcome.is_ok(), "{name} panicked");
    }
}

/// Replays `fuzz/regressions/spine_skel/*` as the `spine_skel` fuzz target does (binary
/// reader, builder, a few frames): none may panic; the minimal seed must load and play.
#[test]
fn spine_skel_regressions_do_not_panic() {
    for f in saved_inputs("spine_skel") {
        let data = std::fs::read(&f).unwrap();
        let name = f.display().to_string();
        let outcome = std::panic::catch_unwind(|| {
            let raw = sinew_formats::spine::binary::parse_spine_binary(&data, &name).ok()?;
            let rig = std::sync::Arc::new(build_rig(&raw).ok()?);
            let mut c = sinew::Character::new(rig.clone());
            if let Some(clip) = rig.clips.first() {
                c.set_animation(0, &clip.name, true).ok()?;
            }
            let mut vertices = vec![0.0; c.max_world_floats()];
            play(&mut c, &mut vertices, 1.0 / 30.0);
            Some(())
        });
        match outcome {
            Ok(played) => assert!(
                played.is_some() || !name.contains("seed-"),
                "{name}: the seed does not load and play"
            ),
            Err(_) => panic!("{name} panicked"),
        }
    }
}

/// Replays `fuzz/regressions/dragonbones/*` as the `dragonbones` fuzz target does (the
/// skeleton, the tex JSON after a NUL byte bound as the atlas, the builder, frames of up to
/// four animations): none may panic; the seeds must load and play.
#[test]
fn dragonbones_regressions_do_not_panic() {
    for f in saved_inputs("dragonbones") {
        let data = std::fs::read(&f).unwrap();
        let name = f.display().to_string();
        let outcome = std::panic::catch_unwind(|| {
            let (ske, tex) = match data.iter().position(|&b| b == 0) {
                Some(i) => (&data[..i], Some(&data[i + 1..])),
                None => (&data[..], None),
            };
            let ske = String::from_utf8_lossy(ske);
            let tex = tex.map(String::from_utf8_lossy);
            let db = sinew_formats::dragonbones::parse_dragonbones(
                &ske,
                &name,
                tex.as_deref().map(|t| (t, "tex.json")),
                None,
            )
            .ok()?;
            let mut rig = build_rig(&db.raw).ok()?;
            rig.exact_angles = true;
            if let Some(t) = tex.as_deref() {
                let atlas =
                    sinew_formats::dragonbones::parse_tex_atlas(t, "tex.json", "tex.png", |_| {
                        Some((64, 64))
                    })
                    .ok()?;
                sinew_formats::atlas::bind_atlas(&mut rig, &atlas).ok()?;
            }
            let rig = std::sync::Arc::new(rig);
            let mut c = sinew::Character::new(rig.clone());
            let mut vertices = vec![0.0; c.max_world_floats()];
            for clip in db.clips.iter().take(4) {
                c.set_animation(0, &clip.name, clip.play_times != 1).ok()?;
                play(&mut c, &mut vertices, 1.0 / 24.0);
            }
            Some(db.clips.len())
        });
        match outcome {
            Ok(played) => assert!(
                played.is_some_and(|n| n > 0) || !name.contains("seed-"),
                "{name}: the seed does not load and play ({played:?})"
            ),
            Err(_) => panic!("{name} panicked"),
        }
    }
}

/// Replays `fuzz/regressions/spine43_json/*` and `spine43_skel/*` as the `spine43_json` and
/// `spine43_skel` fuzz targets and the seeded fuzzer (`fuzz43.rs`) check an input: it loads
/// or is refused with an error naming the file, never panics, the reader's heap stays
/// bounded, and what loads plays and is written back (`.skel` and JSON) readably. The seeds
/// must load and play.
#[test]
fn spine43_regressions_load_or_are_refused() {
    use super::fuzz43::{Reader, Tally, check};
    for (target, reader) in [
        ("spine43_json", Reader::Json),
        ("spine43_skel", Reader::Skel),
    ] {
        for f in saved_inputs(target) {
            let data = std::fs::read(&f).unwrap();
            let name = f.display().to_string();
            let mut tally = Tally::default();
            check(reader, &data, &name, &mut tally);
            assert!(tally.failures.is_empty(), "{:?}", tally.failures);
            assert!(
                tally.played == 1 || !name.contains("seed-"),
                "{name}: the seed does not load and play"
            );
        }
    }
}
