//! `sinew view --overlay lattices`: the lattice of a warp deformer declared in a rig-extras
//! file, drawn where the deformer's posed lattice points are. A 2 x 2 warp riding
//! stickbot's torso (pushed off its rest grid by its walk keys, so the check follows the
//! posed points, not the rest grid); the shot with the overlay differs from the one without
//! only along the lattice's rows and columns, placed with the printed view. Skips with a
//! notice when no display can be had; fails under `CI=true`.

#![cfg(feature = "view")]

use crate::view::{out_dir, overlay_where_expected, root, shot_of, unavailable, walk_at};

const EXTRAS: &str = r#"{
  "sinewExtras": 1,
  "deformers": [
    { "name": "body", "type": "warp", "origin": [-80, 40], "size": [160, 200], "cols": 2,
      "rows": 2, "bone": "torso", "slots": ["torso"],
      "animations": { "walk": [
        { "time": 0, "offsets": [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]] },
        { "time": 0.5, "offsets": [[0, 0], [0, 0], [0, 0], [-6, 0], [0, 0], [6, 0], [12, 4], [12, 6], [12, 4]] } ] } }
  ]
}"#;

#[test]
fn the_lattices_overlay_draws_each_warp_as_posed() {
    let extras = out_dir().join("lattice.extras.json");
    std::fs::write(&extras, EXTRAS).expect("extras written");
    let extras_arg = extras.to_str().expect("utf-8 path");
    let args = ["--anim", "walk", "--time", "0.3", "--extras", extras_arg];
    let file = "examples/stickbot/stickbot.json";
    let Some(plain) = shot_of(file, &args, "lattice-plain") else {
        unavailable("the viewer cannot run here");
        return;
    };
    let with: Vec<&str> = args
        .iter()
        .copied()
        .chain(["--overlay", "lattices"])
        .collect();
    let shown = shot_of(file, &with, "lattices").expect("viewer ran once");

    // The same character on the CPU: the lattice as the viewer's character posed it.
    let asset = sinew_cli::pose::load(
        &sinew_formats::budget::Budgets::DEFAULT,
        &root().join(file),
        None,
        Some(&extras),
    )
    .expect("stickbot with the warp loads");
    let c = walk_at(&asset, 0.3);
    let k = c.find_deformer("body").expect("the warp is attached");
    let p = c.deformer_lattice(k).expect("a warp has a lattice");
    assert_eq!(p.len(), 18, "3 x 3 points");
    // Posed, not at rest: the keys moved the top row right by 12 * (0.3 / 0.5) at most.
    let rest_x = [-80.0, 0.0, 80.0];
    assert!(
        (0..3).any(|i| (p[2 * (6 + i)] - rest_x[i]).abs() > 1.0),
        "the top row moved: {p:?}"
    );
    let at = |i: usize, j: usize| [p[2 * (3 * j + i)] as f32, p[2 * (3 * j + i) + 1] as f32];
    let mut segs = Vec::new();
    for j in 0..3 {
        for i in 0..2 {
            let (a, b) = (at(i, j), at(i + 1, j));
            segs.push([a[0], a[1], b[0], b[1]]);
            let (a, b) = (at(j, i), at(j, i + 1));
            segs.push([a[0], a[1], b[0], b[1]]);
        }
    }
    overlay_where_expected("lattices", &plain, &shown, &segs, 4.0, 200);
}
