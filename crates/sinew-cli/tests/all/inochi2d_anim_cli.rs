//! `sinew info`, `dump --anim` and `render --anim` on `synthetic_tiny.inp` with an
//! `animations` block added to its payload (the container rebuilt and written to a temp
//! file): info lists the animation, the dump's parameters follow the keyframes and the pose
//! moves over time, the render writes a GIF of one loop.

use clap::Parser;
use serde_json::{Value, json};
use sinew_cli::args::Cli;
use sinew_formats::inochi2d::container::write_container;
use sinew_formats::inochi2d::read_container;
use std::path::PathBuf;

fn run(args: &[&str]) -> anyhow::Result<String> {
    let cli = Cli::try_parse_from(std::iter::once("sinew").chain(args.iter().copied()))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    sinew_cli::run_guarded(&cli)
}

/// Writes `synthetic_tiny.inp` plus `animations` to a temp dir; returns the dir and file.
fn puppet(animations: Value) -> Option<(PathBuf, PathBuf)> {
    let dir = sinew_testutil::require_fixtures("inochi2d_anim_cli")?;
    let bytes = std::fs::read(dir.join("inochi2d/synthetic_tiny.inp")).expect("fixture");
    let c = read_container(&bytes, "synthetic_tiny.inp").expect("container");
    let mut payload: Value = serde_json::from_slice(c.json).expect("payload");
    payload["animations"] = animations;
    let json = serde_json::to_vec(&payload).expect("json");
    let out = write_container(&json, &c.textures, &c.ext);
    let d = std::env::temp_dir().join(format!("sinew-inochi-anim-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    let f = d.join("tiny_anim.inp");
    std::fs::write(&f, out).expect("write");
    Some((d, f))
}

#[test]
fn info_dump_and_render_play_an_animation() {
    let anims = json!({
        "sway": {
            "timestep": 0.1, "length": 10, "additive": false, "animationWeight": 1.0,
            "lanes": [
                {"uuid": 1006, "target": 0, "interpolation": "Linear",
                 "keyframes": [{"frame": 0, "value": -1.0}, {"frame": 5, "value": 1.0},
                               {"frame": 10, "value": -1.0}]},
                {"uuid": 1005, "target": 0, "interpolation": "Cubic",
                 "keyframes": [{"frame": 0, "value": 0.0}, {"frame": 5, "value": 0.8},
                               {"frame": 10, "value": 0.0}]}
            ]
        }
    });
    let Some((dir, file)) = puppet(anims) else {
        return;
    };
    let f = file.to_str().expect("utf-8 path");
    let info = run(&["info", f]).expect("info");
    assert!(info.contains("animations: 1"), "{info}");
    assert!(
        info.contains("sway: 1.000 s (10 frames of 0.1 s), 2 lanes"),
        "{info}"
    );
    let j: Value = serde_json::from_str(&run(&["info", f, "--json"]).expect("info")).expect("json");
    assert_eq!(j["animations"][0]["name"], "sway");
    assert_eq!(j["animations"][0]["length"].as_f64(), Some(1.0));

    let out = run(&[
        "dump",
        f,
        "--anim",
        "sway",
        "--times",
        "0,0.25,0.5,1.25",
        "--fps",
        "20",
        "--physics",
        "none",
    ])
    .expect("dump");
    let v: Value = serde_json::from_str(&out).expect("json");
    let frames = v["frames"].as_array().expect("frames");
    let x = |i: usize| frames[i]["params"]["Param2D_00"][0].as_f64().expect("x");
    let p1 = |i: usize| frames[i]["params"]["Param1D_00"].as_f64().expect("p1");
    // Linear -1 -> 1 over frames 0..5, back by 10; looping: 1.25 s is frame 2.5.
    assert!((x(0) + 1.0).abs() < 1e-9, "{}", x(0));
    assert!((x(1) - 0.0).abs() < 1e-9, "{}", x(1));
    assert!((x(2) - 1.0).abs() < 1e-9, "{}", x(2));
    assert!((x(3) - 0.0).abs() < 1e-9, "{}", x(3));
    // Catmull-Rom at t = 0.5 of 0 -> 0.8 (p0 clamped to 0, p3 = 0): 9 x 0.8 / 16.
    assert!((p1(1) - 0.45).abs() < 1e-6, "{}", p1(1));
    let verts = |i: usize| frames[i]["slots"].to_string();
    assert_ne!(verts(0), verts(1), "the pose changes over time");
    assert_ne!(verts(1), verts(2));
    assert_eq!(v["meta"]["anim"], "sway");
    let e = run(&["dump", f, "--anim", "nope"]).expect_err("unknown animation");
    assert!(
        format!("{e:#}").contains("animation not found: nope (have: sway)"),
        "{e:#}"
    );

    let gif = dir.join("sway.gif");
    let msg = run(&[
        "render",
        f,
        "--anim",
        "sway",
        "--fps",
        "10",
        "--size",
        "64x64",
        "--out",
        gif.to_str().expect("utf-8"),
    ])
    .expect("render");
    assert!(msg.contains("10 frames"), "{msg}");
    assert!(std::fs::metadata(&gif).expect("gif").len() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}
