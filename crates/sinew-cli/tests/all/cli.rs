//! Runs the built `sinew` binary: dump, info, validate and bench on a shared fixture, and
//! bad input (missing file, invalid JSON, wrong Spine version, unknown animation or skin,
//! bad --times) that must fail with exit status 1, a clear one-line message naming the
//! problem, and no panic. Fixture-based tests skip without the shared fixtures (and fail
//! under `CI=true`).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sinew(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sinew"))
        .args(args)
        .output()
        .expect("the sinew binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts a clean failure: exit 1, one error line containing every `needles`, no panic.
fn assert_fails(o: &Output, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(
        o.status.code(),
        Some(1),
        "expected exit 1; stderr: {err}; stdout: {}",
        stdout(o)
    );
    assert!(
        !err.contains("panicked") && !err.contains("internal error"),
        "panic: {err}"
    );
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected: {err}"
    );
    assert!(err.starts_with("error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "stderr should mention `{n}`: {err}");
    }
}

fn spineboy_ess(test: &str) -> Option<PathBuf> {
    let dir = sinew_testutil::require_spine_fixtures(test)?;
    Some(dir.join("spineboy/spineboy-ess.json"))
}

/// A scratch file unique to this test process.
fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sinew-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write scratch file");
    p
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn dump_poses_a_fixture_in_the_oracle_schema() {
    let Some(f) = spineboy_ess("dump_poses_a_fixture_in_the_oracle_schema") else {
        return;
    };
    let o = sinew(&[
        "dump",
        s(&f),
        "--anim",
        "walk",
        "--times",
        "0.1,0:0.5:0.25",
        "--round",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1, "one JSON line");
    let v: Value = serde_json::from_str(&out).expect("valid JSON");
    let keys: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["meta", "frames"]);
    assert_eq!(v["meta"]["animation"], "walk");
    assert_eq!(v["meta"]["mode"], "state");
    let frames = v["frames"].as_array().expect("an array");
    let times: Vec<f64> = frames
        .iter()
        .map(|f| f["time"].as_f64().expect("a number"))
        .collect();
    assert_eq!(times, [0.0, 0.1, 0.25, 0.5]);
    let steps: Vec<u64> = frames
        .iter()
        .map(|f| f["step"].as_u64().expect("an integer"))
        .collect();
    assert_eq!(steps, [0, 6, 15, 30]);
    let f = &frames[1];
    let frame_keys: Vec<&str> = f
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        frame_keys,
        ["time", "clock", "step", "bones", "slots", "events"]
    );
    assert_eq!(f["bones"].as_array().expect("an array").len(), 18);
    assert_eq!(f["slots"].as_array().expect("an array").len(), 20);
    let bone_keys: Vec<&str> = f["bones"][0]
        .as_object()
        .expect("present")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(bone_keys, ["name", "a", "b", "c", "d", "worldX", "worldY"]);
    let with_verts = f["slots"]
        .as_array()
        .expect("present")
        .iter()
        .filter(|s| s["vertices"].is_array())
        .count();
    assert!(with_verts > 0, "some slot has vertices");
}

#[test]
fn dump_setup_pose_without_vertices() {
    let Some(f) = spineboy_ess("dump_setup_pose_without_vertices") else {
        return;
    };
    let o = sinew(&[
        "dump",
        s(&f),
        "--no-vertices",
        "--mode",
        "apply",
        "--physics",
        "none",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["meta"]["animation"], Value::Null);
    assert_eq!(v["frames"].as_array().expect("an array").len(), 1);
    assert!(
        v["frames"][0]["slots"]
            .as_array()
            .expect("present")
            .iter()
            .all(|s| s.get("vertices").is_none())
    );
}

#[test]
fn info_prints_text_and_json() {
    let Some(f) = spineboy_ess("info_prints_text_and_json") else {
        return;
    };
    let o = sinew(&["info", s(&f)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("bones (18)"), "{out}");
    assert!(out.contains("slots (20)"), "{out}");
    assert!(out.contains("walk"), "{out}");
    let o = sinew(&["info", s(&f), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["counts"]["bones"], 18);
    assert!(
        v["animations"]
            .as_array()
            .expect("present")
            .iter()
            .any(|a| a["name"] == "walk")
    );
}

#[test]
fn validate_accepts_a_fixture() {
    let Some(f) = spineboy_ess("validate_accepts_a_fixture") else {
        return;
    };
    let o = sinew(&["validate", s(&f)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("ok: ") && out.ends_with('\n'), "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
}

#[test]
fn bench_ends_with_a_json_line() {
    let Some(f) = spineboy_ess("bench_ends_with_a_json_line") else {
        return;
    };
    let o = sinew(&[
        "bench",
        s(&f),
        "--anim",
        "walk",
        "--instances",
        "3",
        "--frames",
        "5",
        "--warmup",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let last = out.trim_end().lines().last().unwrap_or_default();
    let v: Value = serde_json::from_str(last).expect("last line is JSON");
    for k in [
        "us_per_skeleton_frame",
        "world_vertices_per_s",
        "instances",
        "frames",
        "vertices_per_frame",
    ] {
        assert!(v[k].is_number(), "{k} missing: {last}");
    }
    assert_eq!(v["instances"], 3);
    assert!(v["vertices_per_frame"].as_f64().expect("a number") > 0.0);
}

#[test]
fn bench_on_threads_reports_throughput() {
    let Some(f) = spineboy_ess("bench_on_threads_reports_throughput") else {
        return;
    };
    let run = |threads: &str| {
        sinew(&[
            "bench",
            s(&f),
            "--anim",
            "walk",
            "--instances",
            "20",
            "--frames",
            "5",
            "--warmup",
            "1",
            "--threads",
            threads,
        ])
    };
    let o = run("2");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let last = out.trim_end().lines().last().unwrap_or_default();
    let v: Value = serde_json::from_str(last).expect("last line is JSON");
    assert_eq!(v["threads"], 2, "{last}");
    for k in ["us_per_skeleton_frame", "skeleton_frames_per_s"] {
        assert!(v[k].as_f64().is_some_and(|x| x > 0.0), "{k}: {last}");
    }
    let o = run("0");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--threads 0"), "{}", stderr(&o));
}

#[test]
fn missing_file_fails_cleanly() {
    let p = "/nonexistent/dir/nope.json";
    for cmd in [
        vec!["dump", p],
        vec!["info", p],
        vec!["validate", p],
        vec!["bench", p, "--anim", "x"],
    ] {
        assert_fails(&sinew(&cmd), &[p]);
    }
}

#[test]
fn invalid_json_fails_cleanly() {
    let p = scratch(
        "broken.json",
        "{\"skeleton\": {\"spine\": \"4.2.22\"}, \"bones\": [",
    );
    for cmd in ["dump", "info", "validate"] {
        assert_fails(&sinew(&[cmd, s(&p)]), &["broken.json"]);
    }
}

#[test]
fn wrong_spine_version_fails_cleanly() {
    let p = scratch(
        "old.json",
        r#"{"skeleton": {"spine": "3.8.99"}, "bones": [{"name": "root"}]}"#,
    );
    assert_fails(&sinew(&["validate", s(&p)]), &["old.json", "3.8.99"]);
    assert_fails(&sinew(&["dump", s(&p)]), &["old.json", "3.8.99"]);
}

#[test]
fn unknown_animation_lists_what_exists() {
    let Some(f) = spineboy_ess("unknown_animation_lists_what_exists") else {
        return;
    };
    let o = sinew(&["dump", s(&f), "--anim", "nope"]);
    assert_fails(
        &o,
        &["animation not found: nope", "walk", "spineboy-ess.json"],
    );
    let o = sinew(&["bench", s(&f), "--anim", "nope", "--frames", "1"]);
    assert_fails(&o, &["animation not found: nope", "walk"]);
}

#[test]
fn unknown_skin_lists_what_exists() {
    let Some(f) = spineboy_ess("unknown_skin_lists_what_exists") else {
        return;
    };
    let o = sinew(&["dump", s(&f), "--skin", "nope"]);
    assert_fails(&o, &["skin not found: nope", "default"]);
}

#[test]
fn bad_times_fail_cleanly() {
    // The time list is checked before the file is read, so no fixture is needed.
    for bad in ["x", "0:1:0", "-1", "0:1"] {
        let o = sinew(&["dump", "whatever.json", "--times", bad]);
        assert_fails(&o, &["bad --times"]);
    }
}

#[test]
fn usage_errors_exit_2() {
    let o = sinew(&["dump", "x.json", "--loop", "maybe"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = sinew(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
