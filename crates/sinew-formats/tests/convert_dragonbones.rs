//! DragonBones -> Spine 4.2 JSON against the official DragonBones runtime: every case of
//! `fixtures/dragonbones/golden/MANIFEST.json`, with the armature converted
//! ([`sinew_formats::convert::dragonbones_to_spine`]), written as Spine JSON, read back by
//! the Spine JSON loader and posed the way the golden suite poses DragonBones (same clock
//! and play counts). The converted rig is y-up (every transform mirrored by
//! `F = diag(1, -1)`), so its world matrices are `F W F` and points `F p`: they are mirrored
//! back before comparing (bone a..d within 1e-3, positions and vertices within 1e-2,
//! display names, colours and events exact as in the golden suite, draw order equal; child
//! armatures are not converted, so not compared).
//!
//! Every case must match except those in [`INEXACT`], whose difference docs/CONVERT.md
//! explains; an inexact case that starts matching fails too, so the list stays true.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod dragonbones_common;

use dragonbones_common::Case;
use serde_json::Value;
use sinew_formats::convert::dragonbones_to_spine;
use sinew_formats::dragonbones::{load_tex_atlas, pose};
use sinew_formats::spine::{parse_spine_json, write_spine_json};
use std::path::Path;
use std::sync::Arc;

/// Cases the conversion cannot pose exactly: bone `hair0605` (a child of `hair0603`, whose
/// DragonBones inherit flags have no Spine inherit mode) is off by about 0.02 units.
const INEXACT: [&str; 3] = [
    "you_xin_body__idle.json",
    "you_xin_body__shy.json",
    "you_xin_body__speak.json",
];

/// Poses one case through the converted rig; the worst (matrix, position) errors, or the
/// first mismatch.
fn check_case(dir: &Path, case: &Value) -> Result<(f64, f64), String> {
    let c = Case::new(dir, case);
    let (_, db) =
        sinew_formats::load_dragonbones(&c.skeleton, c.texture.as_deref(), c.armature.as_deref())
            .expect("the DragonBones fixture loads");
    let conv = dragonbones_to_spine(&db);
    let text = write_spine_json(&conv.rig, false).map_err(|e| format!("write: {e}"))?;
    let raw = parse_spine_json(&text, "converted.json").map_err(|e| e.to_string())?;
    let mut rig = sinew::build::build_rig(&raw).map_err(|e| e.to_string())?;
    if let Some(t) = &c.texture {
        let atlas = load_tex_atlas(t).map_err(|e| e.to_string())?;
        sinew_formats::bind_atlas(&mut rig, &atlas).map_err(|e| e.to_string())?;
    }
    let asset = sinew_formats::Asset {
        rig: Arc::new(rig),
        atlas: None,
        atlas_path: None,
        jiggle: None,
        follow: None,
        draw: Arc::new(Default::default()),
        param_animations: Arc::from(Vec::new()),
        puppet: None,
    };
    let frames = pose(
        &asset,
        &db,
        c.anim.as_deref(),
        &c.times,
        c.fps,
        c.mode,
        false,
    )?;
    c.compare(&frames, true)
}

#[test]
fn converted_dragonbones_rigs_pose_like_the_dragonbones_goldens() {
    let Some((dir, cases)) = dragonbones_common::cases("convert_dragonbones") else {
        return;
    };
    let (mut pass, mut inexact, mut fail) = (0, 0, Vec::new());
    for case in &cases {
        let name = case["golden"].as_str().unwrap().to_owned();
        let listed = INEXACT.contains(&name.as_str());
        match (check_case(&dir, case), listed) {
            (Ok((wm, wp)), false) => {
                pass += 1;
                println!("{name}: matches (worst a..d {wm:.1e}, xy {wp:.1e})");
            }
            (Ok(_), true) => fail.push(format!(
                "{name}: listed as inexact but matches (take it off INEXACT and CONVERT.md)"
            )),
            (Err(e), true) => {
                inexact += 1;
                println!("{name}: not exact (DragonBones inherit flags): {e}");
            }
            (Err(e), false) => fail.push(format!("{name}: {e}")),
        }
    }
    println!(
        "converted DragonBones: {pass} of {} goldens match, {inexact} differ where the semantics \
         do not coincide",
        cases.len(),
    );
    assert!(fail.is_empty(), "{}", fail.join("\n"));
    assert_eq!(pass + inexact, cases.len());
}
