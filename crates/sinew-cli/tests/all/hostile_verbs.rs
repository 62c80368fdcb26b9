//! Hostile input, the classes of issue 12 that `hostile.rs` leaves: physics3 problems blamed
//! on the physics3 file with their JSON path, singular parents under `dump --local` giving a
//! finite pose, a clipping polygon over the `clip_vertices` budget refused naming the
//! attachment (and under it, rendered), and every verb reading its rig once. Crafted files
//! are generated here; the binary runs under a 10 s timeout and a 4 GiB address-space cap
//! (`timeout` and `prlimit`; without them the tests fail under CI and are skipped elsewhere).

use clap::Parser;
use std::fmt::Write as _;

use crate::common::harness;

use harness::{FACE, STICKBOT, run_refused, s, scratch, sinew, write};
use std::path::Path;

/// A run refused with exit 1, no panic, stderr naming every needle.
fn refused(args: &[&str], needles: &[&str]) {
    let (code, err) = run_refused(args, needles);
    assert_eq!(code, Some(1), "{args:?}: {err}");
}

/// A physics3 file with one setting: `input` as its input's parameter, `radius` as its
/// second vertex's radius.
fn physics3(input: &str, radius: &str) -> String {
    format!(
        r#"{{"Version": 3, "Meta": {{"Fps": 30}},
  "PhysicsSettings": [{{"Id": "Hair",
    "Input": [{{"Source": {{"Target": "Parameter", "Id": "{input}"}}, "Weight": 60, "Type": "X", "Reflect": false}}],
    "Output": [{{"Destination": {{"Target": "Parameter", "Id": "{input}"}}, "VertexIndex": 1, "Scale": 1, "Weight": 100, "Type": "Angle", "Reflect": false}}],
    "Vertices": [
      {{"Position": {{"X": 0, "Y": 0}}, "Mobility": 1, "Delay": 1, "Acceleration": 1, "Radius": 0}},
      {{"Position": {{"X": 0, "Y": 3}}, "Mobility": 0.9, "Delay": 0.9, "Acceleration": 1, "Radius": {radius}}}],
    "Normalization": {{"Position": {{"Minimum": -10, "Default": 0, "Maximum": 10}},
      "Angle": {{"Minimum": -10, "Default": 0, "Maximum": 10}}}}}}]}}"#
    )
}

/// The name of the face puppet's first parameter (the line after `parameters: N` of
/// `sinew info`, `  NAME: range ...`).
fn a_face_param() -> String {
    let o = sinew(&["info", FACE]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    out.lines()
        .skip_while(|l| !l.starts_with("parameters:"))
        .nth(1)
        .and_then(|l| l.trim().split(':').next())
        .map(str::to_owned)
        .expect("the face puppet lists a parameter")
}

#[test]
fn physics3_problems_name_the_physics3_file_and_its_json_path() {
    if !harness::capped("physics3_problems_name_the_physics3_file_and_its_json_path") {
        return;
    }
    // A parameter the puppet lacks: the physics3 file and the input's path, not the puppet.
    let bad = write("bad.physics3.json", physics3("NoSuchParam", "3").as_bytes());
    for verb in [
        vec!["dump", FACE, "--physics3", s(&bad)],
        vec!["info", FACE, "--physics3", s(&bad)],
    ] {
        refused(
            &verb,
            &[
                "bad.physics3.json",
                "$.PhysicsSettings[0].Input[0]",
                "NoSuchParam",
                "Hair",
            ],
        );
        let o = sinew(&verb);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("face.inp: $"), "blamed on the puppet: {err}");
    }
    // A bad value on a known parameter: the vertex's path.
    let param = a_face_param();
    let neg = write("neg.physics3.json", physics3(&param, "-1").as_bytes());
    refused(
        &["dump", FACE, "--physics3", s(&neg)],
        &[
            "neg.physics3.json",
            "$.PhysicsSettings[0].Vertices[1]",
            "radius",
        ],
    );
    // Not JSON where a number belongs: the parser's path in the physics3 file.
    let typo = write("typo.physics3.json", physics3(&param, "\"x\"").as_bytes());
    refused(
        &["dump", FACE, "--physics3", s(&typo)],
        &["typo.physics3.json", "$.PhysicsSettings[0].Vertices[1]"],
    );
    // The same settings with a sound radius load and run.
    let good = write("good.physics3.json", physics3(&param, "3").as_bytes());
    let o = sinew(&["dump", FACE, "--physics3", s(&good), "--times", "0,0.5"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn singular_parents_under_local_give_a_finite_pose() {
    if !harness::capped("singular_parents_under_local_give_a_finite_pose") {
        return;
    }
    // p collapsed on x, on y and on both; c under it is moved by a transform constraint (its
    // applied pose recomputed through p's inverse) and by its own timeline.
    for (sx, sy) in [(0, 1), (1, 0), (0, 0)] {
        let rig = format!(
            r#"{{"bones": [{{"name": "root"}}, {{"name": "p", "parent": "root", "x": 3, "scaleX": {sx}, "scaleY": {sy}}},
                 {{"name": "c", "parent": "p", "x": 5}}],
               "transform": [{{"name": "t", "bones": ["c"], "target": "root", "x": 7, "y": 1}}],
               "animations": {{"a": {{"bones": {{"c": {{"rotate": [{{"time": 0, "value": 0}}, {{"time": 1, "value": 90}}]}}}}}}}}}}"#
        );
        let p = write(&format!("singular{sx}{sy}.json"), rig.as_bytes());
        let o = sinew(&["dump", s(&p), "--local", "--anim", "a", "--times", "0,0.5"]);
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        assert_eq!(o.status.code(), Some(0), "scale {sx},{sy}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("a dump");
        let frames = v["frames"].as_array().expect("frames");
        assert_eq!(frames.len(), 2);
        for f in frames {
            assert_eq!(sinew_cli::guard::first_nonfinite(f), None, "{f}");
            let applied = &f["bones"][2]["applied"];
            for key in ["x", "y", "rotation", "scaleX", "scaleY", "shearX", "shearY"] {
                assert!(
                    applied[key].is_number(),
                    "scale {sx},{sy}: applied.{key}: {applied}"
                );
            }
        }
    }
}

/// A star of `points` spikes as the clipping attachment `star` of slot `clip`, clipping a
/// square region, with an animation turning it.
fn star_rig(points: usize) -> String {
    let mut verts = String::new();
    let n = 2 * points;
    for k in 0..n {
        let a = k as f64 / n as f64 * std::f64::consts::TAU;
        let r = if k % 2 == 0 { 100.0 } else { 60.0 };
        let _ = write!(verts, "{},{},", r * a.cos(), r * a.sin());
    }
    verts.pop();
    format!(
        r#"{{"skeleton": {{"spine": "4.2.0", "width": 240, "height": 240}},
"bones": [{{"name": "root"}}, {{"name": "b", "parent": "root"}}],
"slots": [{{"name": "clip", "bone": "b", "attachment": "star"}}, {{"name": "r", "bone": "root", "attachment": "sq"}}],
"skins": [{{"name": "default", "attachments": {{
 "clip": {{"star": {{"type": "clipping", "end": "r", "vertexCount": {n}, "vertices": [{verts}]}}}},
 "r": {{"sq": {{"width": 240, "height": 240}}}}}}}}],
"animations": {{"turn": {{"bones": {{"b": {{"rotate": [{{"time": 0, "value": 0}}, {{"time": 1, "value": 360}}]}}}}}}}}}}"#
    )
}

#[test]
fn a_huge_clipping_polygon_is_refused_naming_it_and_a_large_one_renders() {
    if !harness::capped("a_huge_clipping_polygon_is_refused_naming_it_and_a_large_one_renders") {
        return;
    }
    let huge = write("huge-clip.json", star_rig(32_767).as_bytes());
    for verb in ["validate", "info", "dump"] {
        refused(
            &[verb, s(&huge)],
            &[
                "huge-clip.json",
                "clipping attachment `star`",
                "clip_vertices",
                "--max-clip-vertices",
            ],
        );
    }
    let gif = scratch("star.gif");
    refused(
        &[
            "render",
            s(&huge),
            "--atlas",
            "none",
            "--anim",
            "turn",
            "--out",
            s(&gif),
        ],
        &["huge-clip.json", "`star`", "clip_vertices"],
    );
    // 1,000 vertices (within the budget): 30 frames in well under the 10 s cap, since the
    // triangulation is kept between frames.
    let large = write("large-clip.json", star_rig(500).as_bytes());
    let o = sinew(&[
        "render",
        s(&large),
        "--atlas",
        "none",
        "--anim",
        "turn",
        "--duration",
        "1",
        "--size",
        "96x96",
        "--out",
        s(&gif),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(sinew_render::encode::frame_count(&gif).expect("a GIF"), 30);
}

#[test]
fn every_verb_reads_its_rig_once() {
    // In process: run as a capped child of this test binary (the harness).
    if !harness::in_capped_child(module_path!(), "every_verb_reads_its_rig_once") {
        return;
    }
    let out = scratch("once.png");
    let skel = scratch("once.skel");
    let cases: Vec<Vec<String>> = [
        vec![
            "dump", STICKBOT, "--anim", "walk", "--times", "0,0.1", "--local",
        ],
        vec!["info", STICKBOT],
        vec!["validate", STICKBOT],
        vec![
            "render",
            STICKBOT,
            "--atlas",
            "none",
            "--anim",
            "walk",
            "--out",
            s(&out),
        ],
        vec!["lint", STICKBOT],
        vec![
            "bench", STICKBOT, "--anim", "walk", "--frames", "5", "--warmup", "1",
        ],
        vec!["convert", STICKBOT, s(&skel)],
        vec!["dump", FACE, "--times", "0,0.1"],
        vec!["info", FACE],
        vec!["validate", FACE],
        vec!["render", FACE, "--out", s(&out)],
    ]
    .iter()
    .map(|v| v.iter().map(|a| (*a).to_owned()).collect())
    .collect();
    for args in cases {
        let argv: Vec<&str> = std::iter::once("sinew")
            .chain(args.iter().map(String::as_str))
            .collect();
        let ((), reads) = sinew_formats::read_once::read_once(|| {
            let cli = sinew_cli::args::Cli::parse_from(&argv);
            match &cli.command {
                // As the binary runs it: the guard, then the linter.
                sinew_cli::args::Command::Lint(a) => {
                    sinew_cli::guard::precheck(&cli).expect("lint's inputs pass the guard");
                    sinew_cli::lint_guarded(a, &cli.budgets.budgets()).expect("lint runs");
                }
                _ => {
                    sinew_cli::run(&cli).expect("the verb runs");
                }
            }
        });
        let rig = Path::new(&args[1]);
        let n = reads.iter().find(|(p, _)| p == rig).map_or(0, |(_, n)| *n);
        assert_eq!(n, 1, "{args:?}: the rig was read {n} times ({reads:?})");
    }
}

#[test]
fn a_dump_larger_than_the_output_budget_is_refused_after_one_frame() {
    if !harness::capped("a_dump_larger_than_the_output_budget_is_refused_after_one_frame") {
        return;
    }
    // 2,000 slots with a region each: about 30 values a slot a frame, 1,001 samples.
    let slots: Vec<String> = (0..2000)
        .map(|i| format!(r#"{{"name": "s{i}", "bone": "root", "attachment": "r"}}"#))
        .collect();
    let skins: Vec<String> = (0..2000)
        .map(|i| format!(r#""s{i}": {{"r": {{"width": 10, "height": 10}}}}"#))
        .collect();
    let rig = format!(
        r#"{{"bones": [{{"name": "root"}}], "slots": [{}], "skins": [{{"name": "default", "attachments": {{{}}}}}]}}"#,
        slots.join(","),
        skins.join(",")
    );
    let p = write("wide.json", rig.as_bytes());
    refused(
        &["dump", s(&p), "--times", "0:10:0.01"],
        &[
            "wide.json",
            "1001 samples",
            "output_values",
            "--max-output-values",
        ],
    );
    // A few samples fit.
    let o = sinew(&["dump", s(&p), "--times", "0,0.5"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
