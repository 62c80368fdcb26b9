//! Seeded random DragonBones 5.5 rigs (`testdata/dragonbones/random/`, made by its `gen.py`)
//! against goldens the official runtime made (`shared/oracle/dragonbones/dump.mjs`, committed:
//! CI needs no node). Every 5.5 timeline kind, `tweenEasing` in [-2, 3] (with -2, null and
//! absent), single- and multi-segment curves, `clockwise` -3..3, IK weight and bend keys, bones
//! with inheritRotation/inheritScale off, weighted and unweighted meshes with FFD, zOrder,
//! colour keys with offsets (seeds 17-24, compared as `colorOffset`); play and goto at odd
//! multiples of 1/120 s. Same comparison and tolerances as the fixture goldens
//! (`dragonbones_common`: bone a..d 1e-3, positions and vertices 1e-2). Cases the manifest
//! marks `knownGap` must still differ, so the list stays true.
#![allow(clippy::unwrap_used)]

use crate::dragonbones_common::{self, Case};

#[test]
fn random_rigs_match_the_official_runtime() {
    let (dir, cases) = dragonbones_common::random_cases("random_rigs").unwrap();
    assert!(cases.len() >= 24, "{} cases", cases.len());
    let (mut fail, mut matched) = (Vec::new(), 0);
    for case in &cases {
        let name = case["golden"].as_str().unwrap();
        match (Case::new(&dir, case).check(), case["knownGap"].as_str()) {
            (Ok((wm, wp)), None) => {
                matched += 1;
                println!("{name}: matches (worst a..d {wm:.1e}, xy {wp:.1e})")
            }
            (Err(e), Some(why)) => println!("{name}: known gap ({why}): {e}"),
            (Ok(_), Some(_)) => fail.push(format!("{name}: a known gap that now matches")),
            (Err(e), None) => fail.push(format!("{name}: {e}")),
        }
    }
    println!("{matched} of {} random cases match", cases.len());
    assert!(fail.is_empty(), "{}", fail.join("\n"));
}
