//! DragonBones playback rules the goldens do not reach: `playTimes` N >= 2 loops N times
//! and then holds the end pose (the runtime's rule; the shared goldens only have 0 and 1).
#![allow(clippy::unwrap_used)]

use sinew_formats::dragonbones::{PoseMode, pose};

#[test]
fn play_times_loops_then_holds_the_end() {
    let ske = sinew_testutil::workspace_root()
        .join("fuzz/regressions/dragonbones/seed-minimal-armature.json");
    let (asset, db) = sinew_formats::load_dragonbones(&ske, None, None).unwrap();
    let clip = db.clips.iter().find(|c| c.name == "a").unwrap();
    assert_eq!((clip.play_times, clip.frames), (3, 20));
    let d = 20.0 / 24.0;
    let times = [0.3, d + 0.3, 2.0 * d + 0.3, 3.0 * d + 0.3, 5.0 * d + 0.1];
    let f = pose(&asset, &db, Some("a"), &times, 60.0, PoseMode::Play, false).unwrap();
    let arm = |k: usize| f[k].bones.iter().find(|(n, _)| n == "arm").unwrap().1;
    let close = |a: [f64; 6], b: [f64; 6]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
    // Plays 1..3 repeat the same pose at the same time into the play (the clock sums
    // 1/60 steps, so within 1e-5).
    assert!(close(arm(0), arm(1)) && close(arm(1), arm(2)));
    // After the third play: the end pose, held.
    assert!(!close(arm(2), arm(3)), "still looping after playTimes");
    assert!(close(arm(3), arm(4)));
    let end = pose(&asset, &db, Some("a"), &[d], 60.0, PoseMode::Goto, false).unwrap();
    let end_arm = end[0].bones.iter().find(|(n, _)| n == "arm").unwrap().1;
    // `gotoAndStopByTime(duration)` samples 1e-6 s before the end.
    let near = arm(3)
        .iter()
        .zip(end_arm)
        .all(|(x, y)| (x - y).abs() < 1e-4);
    assert!(near, "{:?} vs {end_arm:?}", arm(3));
}
