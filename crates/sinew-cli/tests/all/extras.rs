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

/// World rotation (degrees) of each named bone at each frame of a dump.
fn bone_rotations(o: &Output, names: &[&str]) -> Vec<Vec<f64>> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("dump is JSON");
    v["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .map(|f| {
            let bones = f["bones"].as_array().expect("bones");
            names
                .iter()
                .map(|n| {
                    let b = bones
                        .iter()
                        .find(|b| b["name"] == *n)
                        .unwrap_or_else(|| panic!("no bone {n}"));
                    let (a, c) = (b["a"].as_f64().expect("a"), b["c"].as_f64().expect("c"));
                    c.atan2(a).to_degrees()
                })
                .collect()
        })
        .collect()
}

#[test]
fn dump_with_a_follow_shows_the_lag() {
    // `hair-target` (nothing hangs below it) takes the torso's world rotation of 0.25 s ago.
    let skel = example("stickbot.json");
    let extras = scratch(
        "follow.json",
        r#"{"follow": [{"name": "lag", "bone": "hair-target", "source": "torso",
            "delay": 0.25, "space": "world", "rotate": true}]}"#,
    );
    let names = ["torso", "hair-target"];
    let dump = |times: &str, extras: Option<&str>| {
        let mut args = vec![
            "dump",
            &skel,
            "--anim",
            "walk",
            "--times",
            times,
            "--no-vertices",
        ];
        if let Some(e) = extras {
            args.extend(["--extras", e]);
        }
        bone_rotations(&sinew(&args), &names)
    };
    let plain = dump("0.5,0.75,1,1.25", None);
    let follow = dump("0.75,1,1.25", Some(&extras));
    let mut lag_seen = 0.0f64;
    for (k, f) in follow.iter().enumerate() {
        // The follower now is the source 0.25 s (15 frames at 60 fps) ago.
        let want = plain[k][0];
        let d = (f[1] - want + 540.0).rem_euclid(360.0) - 180.0;
        assert!(
            d.abs() < 1e-6,
            "frame {k}: follower {} vs source then {want}",
            f[1]
        );
        // The source itself is unchanged, and it moved in those 0.25 s.
        assert!((f[0] - plain[k + 1][0]).abs() < 1e-9);
        lag_seen = lag_seen.max((plain[k + 1][0] - plain[k][0]).abs());
    }
    assert!(lag_seen > 0.5, "the torso barely moves: {lag_seen}");
}

#[test]
fn bad_follows_fail_with_one_clear_line() {
    let skel = example("stickbot.json");
    let path = scratch(
        "badfollow.json",
        r#"{"follow": [{"name": "ear", "bone": "ear", "source": "head", "delay": 0.1}]}"#,
    );
    let o = sinew(&["dump", &skel, "--times", "0", "--extras", &path]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("follow `ear`: unknown bone `ear`"), "{err}");
    assert!(err.contains("badfollow.json"), "{err}");
}
