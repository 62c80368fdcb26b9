//! Synthetic DragonBones rigs (`testdata/dragonbones/`) against goldens the official runtime
//! made (`gen_goldens.py` through `shared/oracle/dragonbones/dump.mjs`, committed: CI needs no
//! node): the loop wrap-around (5.5 rotation the short way, 5.0 unnormalised), the last of N
//! plays and `--mode goto` holding the last key, `playTimes` 0/1/2, zOrder, IK keys, easing
//! strengths and curves, clockwise turns, a zero-length middle key, colour and display keys,
//! FFD, events with payloads, sounds and the 5.0 singular `event`, and DragonBones IK (one
//! and two bones, weight keys below 1, both bends, out of reach, under non-uniformly scaled,
//! reflected and skewed parents, y-up; chains that hold still between keys and after the
//! end, where the runtime re-solves from its last result, at 60 and 24 fps). Same
//! tolerances as the fixture goldens (`dragonbones_common`). Cases the manifest marks
//! `knownGap` (none today) must differ, so the list stays true. The shared fixtures are
//! also checked exactly on their key grids (`testdata/dragonbones/grid/`).
#![allow(clippy::unwrap_used)]

use crate::dragonbones_common;

use dragonbones_common::Case;
use sinew_formats::dragonbones::pose;

#[test]
fn synthetic_rigs_match_the_official_runtime() {
    let (dir, cases) = dragonbones_common::synthetic_cases("synthetic_rigs").unwrap();
    assert!(cases.len() >= 6, "{} cases", cases.len());
    let mut fail = Vec::new();
    for case in &cases {
        let name = case["golden"].as_str().unwrap();
        // Known gaps (the manifest says why) must still differ, so the list stays true.
        match (Case::new(&dir, case).check(), case["knownGap"].as_str()) {
            (Ok((wm, wp)), None) => {
                println!("{name}: matches (worst a..d {wm:.1e}, xy {wp:.1e})")
            }
            (Err(e), Some(why)) => println!("{name}: known gap ({why}): {e}"),
            (Ok(_), Some(_)) => fail.push(format!("{name}: a known gap that now matches")),
            (Err(e), None) => fail.push(format!("{name}: {e}")),
        }
    }
    assert!(fail.is_empty(), "{}", fail.join("\n"));
}

#[test]
fn fixtures_sampled_on_their_key_grid_match_the_official_runtime() {
    // Exactly on k / frameRate, where hold keys change (display frames, the sprite
    // flip-book, the child armature in `flower`): the runtime reaches key k there
    // (`floor(time * frameRate)`), though f32 key times may round past it.
    let Some((dir, cases)) = dragonbones_common::grid_cases("grid_goldens") else {
        return;
    };
    assert!(cases.len() >= 4, "{} cases", cases.len());
    let mut fail = Vec::new();
    for case in &cases {
        let name = case["golden"].as_str().unwrap();
        match Case::on_fixtures(&dir, case).check() {
            Ok((wm, wp)) => println!("{name}: matches (worst a..d {wm:.1e}, xy {wp:.1e})"),
            Err(e) => fail.push(format!("{name}: {e}")),
        }
    }
    assert!(fail.is_empty(), "{}", fail.join("\n"));
}

#[test]
fn looping_clips_with_a_wrap_around_have_a_held_twin() {
    let dir = sinew_testutil::workspace_root().join("testdata/dragonbones");
    let (asset, db) =
        sinew_formats::load_dragonbones(&dir.join("wrap55_ske.json"), None, None).unwrap();
    let info = |n: &str| db.clips.iter().find(|c| c.name == n).unwrap();
    // Looping clips whose last keys tween before the end hold them in a twin; playTimes 1
    // never wraps.
    assert_eq!(info("loop").held.as_deref(), Some("loop (held end)"));
    assert_eq!(info("twice").held_clip(), "twice (held end)");
    assert_eq!(info("once").held, None);
    assert!(asset.rig.clip("loop (held end)").is_some());
    // Events keep the first of their payload lists.
    let frames = pose(
        &asset,
        &db,
        Some("loop"),
        &[0.05],
        60.0,
        sinew_formats::dragonbones::PoseMode::Play,
        false,
    )
    .unwrap();
    let e = &frames[0].events[0];
    assert_eq!(
        (e.name.as_str(), e.int, e.float, e.string.as_str()),
        ("hit", 7, 0.5, "boom")
    );
}
