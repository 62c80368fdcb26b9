//! `--extras FILE` on `sinew dump`, `sinew bench` and `sinew render` with the example
//! character's jiggle file: the jiggle bones move away from the plain animation, other bones
//! do not, and bad extras files fail with one clear line naming the file and the culprit.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn sinew(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sinew"))
        .args(args)
        .output()
        .expect("the sinew binary runs")
}

fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/stickbot")
        .join(name)
        .display()
        .to_string()
}

fn scratch(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sinew-extras-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write scratch file");
    p.display().to_string()
}

/// World x of each bone at each frame of a dump.
fn bone_xs(o: &Output) -> Vec<Vec<(String, f64)>> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("dump is JSON");
    v["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .map(|f| {
            f["bones"]
                .as_array()
                .expect("bones")
                .iter()
                .map(|b| {
                    (
                        b["name"].as_str().unwrap_or("").to_owned(),
                        b["worldX"].as_f64().unwrap_or(f64::NAN),
                    )
                })
                .collect()
        })
        .collect()
}

#[test]
fn dump_with_extras_moves_only_the_jiggle_bones_and_what_hangs_below() {
    let skel = example("stickbot.json");
    let extras = example("stickbot.extras.json");
    let base = [
        "dump",
        &skel,
        "--anim",
        "walk",
        "--times",
        "0.5,1,1.5",
        "--no-vertices",
    ];
    let plain = bone_xs(&sinew(&base));
    let mut args = base.to_vec();
    args.extend(["--extras", &extras]);
    let jig = bone_xs(&sinew(&args));
    let mut moved = 0.0f64;
    for (pf, jf) in plain.iter().zip(&jig) {
        for ((name, px), (_, jx)) in pf.iter().zip(jf) {
            assert!(jx.is_finite(), "{name}");
            if ["hair", "cape-1", "cape-2"].contains(&name.as_str()) {
                moved = moved.max((px - jx).abs());
            } else {
                assert!((px - jx).abs() < 1e-9, "{name} moved: {px} vs {jx}");
            }
        }
    }
    assert!(moved > 1.0, "jiggle bones did not move: {moved}");
}

#[test]
fn bench_and_render_accept_extras() {
    let skel = example("stickbot.json");
    let extras = example("stickbot.extras.json");
    let o = sinew(&[
        "bench",
        &skel,
        "--anim",
        "walk",
        "--instances",
        "3",
        "--frames",
        "20",
        "--warmup",
        "2",
        "--extras",
        &extras,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = scratch("jiggle.png", "");
    let o = sinew(&[
        "render", &skel, "--anim", "walk", "--times", "0.5", "--size", "64x64", "--extras",
        &extras, "--out", &out,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        std::fs::metadata(&out)
            .map(|m| m.len() > 100)
            .unwrap_or(false)
    );
}

#[test]
fn bad_extras_fail_with_one_clear_line() {
    let skel = example("stickbot.json");
    let cases = [
        (
            r#"{"jiggle": {"chains": [{"name": "tail", "bones": ["tail-1"]}]}}"#,
            "chain `tail`: unknown bone `tail-1`",
        ),
        (
            r#"{"jiggle": {"chains": [{"name": "h", "bones": ["hair"], "colliders": ["nose"]}]}}"#,
            "chain `h`: unknown collider `nose`",
        ),
        (
            r#"{"jiggle": {"chains": [{"name": "h", "bones": ["hair"], "drag": 3}]}}"#,
            "`drag` must be in 0..1",
        ),
        (r#"{"jiggle": {"chainz": []}}"#, "unknown key `chainz`"),
        ("{", "invalid JSON"),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let path = scratch(&format!("bad{i}.json"), text);
        for cmd in ["dump", "render"] {
            let mut args = vec![cmd, skel.as_str(), "--extras", path.as_str()];
            if cmd == "render" {
                args.extend(["--anim", "walk", "--out", "/tmp/never-written.gif"]);
            }
            let o = sinew(&args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "{cmd} {want}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(
                err.contains(want) && err.contains(&format!("bad{i}.json")),
                "{cmd}: want `{want}` in {err}"
            );
        }
    }
}
