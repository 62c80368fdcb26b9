//! The README's core examples run and print what they promise: the jiggle example's tail
//! lags behind its animated place while the body moves, then settles; the cage example's
//! reloaded weights deform identically.
//!
//! The examples are built by `cargo test -p sinew` (and `--workspace`); under a filtered
//! `--test all` run they may be missing, and then these tests skip with a notice (fail with
//! `CI=true`).

use std::path::PathBuf;
use std::process::Command;

fn run_example(name: &str) -> Option<String> {
    let exe = std::env::current_exe().expect("test binary path");
    let bin: PathBuf = exe
        .parent()?
        .parent()?
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if !bin.exists() {
        let msg = format!("example `{name}` not built at {}", bin.display());
        assert!(!sinew_testutil::is_ci(), "{msg}: cargo test builds it");
        println!("skipping: {msg} (run `cargo test -p sinew` to build it)");
        return None;
    }
    let out = Command::new(&bin).output().expect("the example starts");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{name} failed: {text}");
    Some(text)
}

#[test]
fn jiggle_example_lags_then_settles() {
    let Some(text) = run_example("jiggle_code") else {
        return;
    };
    // "frame  NN: tail tip off its animated place by (  x,   y)", every 10 frames.
    let offsets: Vec<f64> = text
        .lines()
        .filter_map(|l| {
            l.split_once("by (")?
                .1
                .split_once(',')?
                .0
                .trim()
                .parse()
                .ok()
        })
        .collect();
    assert_eq!(offsets.len(), 12, "{text}");
    let peak = offsets.iter().fold(0f64, |m, x| m.max(x.abs()));
    assert!(peak > 1.0, "the tail lags while the body moves: {text}");
    let last = offsets.last().copied().unwrap_or(f64::NAN).abs();
    assert!(last < peak / 4.0, "and settles once it stops: {text}");
}

#[test]
fn cage_example_reloads_identical_weights() {
    let Some(text) = run_example("cage_deform") else {
        return;
    };
    assert!(text.contains("point 0: "), "{text}");
    assert!(text.contains("deformed again: identical"), "{text}");
}
