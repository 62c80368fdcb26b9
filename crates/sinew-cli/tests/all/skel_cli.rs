//! The CLI on Spine binary exports (`.skel`): `info`, `validate`, `dump`, `bench` and
//! `render` accept them (the format is told from the content, not the extension), and a
//! broken file is one error line naming the file, the byte offset and what was being read.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sinew(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sinew"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn spineboy(test: &str) -> Option<(PathBuf, PathBuf)> {
    let dir = sinew_testutil::require_spine_fixtures(test)?.join("spineboy");
    Some((dir.join("spineboy-pro.skel"), dir.join("spineboy.atlas")))
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sinew-skel-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn info_validate_dump_bench_and_render_read_a_skel() {
    let Some((skel, atlas)) = spineboy("info_validate_dump_bench_and_render_read_a_skel") else {
        return;
    };
    let s = skel.to_str().unwrap();
    let o = sinew(&["validate", s]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).starts_with("ok: "), "{}", text(&o));
    let o = sinew(&["info", s]);
    assert!(
        o.status.success() && text(&o).contains("Spine 4.2.22"),
        "{}",
        text(&o)
    );
    let o = sinew(&["dump", s, "--anim", "run", "--times", "0.1,0.2"]);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["meta"]["hash"], "-4337f1076bdcaaf");
    // The oracle's meta for a binary export: the loader named, no JSON key repair.
    assert_eq!(v["meta"]["loader"], "SkeletonBinary");
    assert!(v["meta"]["fixMixShearY"].is_null(), "{}", v["meta"]);
    assert_eq!(v["frames"].as_array().map(Vec::len), Some(2));
    let o = sinew(&[
        "bench",
        s,
        "--anim",
        "run",
        "--instances",
        "2",
        "--frames",
        "5",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = std::env::temp_dir().join(format!("sinew-skel-{}.png", std::process::id()));
    let o = sinew(&[
        "render",
        s,
        "--atlas",
        atlas.to_str().unwrap(),
        "--anim",
        "run",
        "--times",
        "0.2",
        "--size",
        "64x64",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(out.is_file());
    let _ = std::fs::remove_file(out);
}

#[test]
fn the_format_comes_from_the_content_not_the_extension() {
    let Some((skel, _)) = spineboy("the_format_comes_from_the_content_not_the_extension") else {
        return;
    };
    let renamed = scratch("spineboy.json", &std::fs::read(&skel).unwrap());
    let o = sinew(&["validate", renamed.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn a_broken_skel_names_the_file_and_the_byte() {
    let Some((skel, _)) = spineboy("a_broken_skel_names_the_file_and_the_byte") else {
        return;
    };
    let data = std::fs::read(&skel).unwrap();
    let cut: &Path = &scratch("cut.skel", &data[..data.len() / 2]);
    let o = sinew(&["validate", cut.to_str().unwrap()]);
    let msg = text(&o);
    assert!(!o.status.success(), "{msg}");
    assert_eq!(msg.trim().lines().count(), 1, "{msg}");
    assert!(msg.contains("cut.skel: byte "), "{msg}");
}
