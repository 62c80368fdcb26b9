//! The hostile-input tests' harness (`hostile.rs`, `hostile_verbs.rs`): scratch files, the
//! binary under a 10 s timeout and a 4 GiB address-space cap (`timeout` and `prlimit`, when
//! present), and the checks every refused run must pass.
// Each test crate that includes this module uses its own subset.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const STICKBOT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/stickbot/stickbot.json"
);
pub const FACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/face/face.inp");

/// A path in this test crate's scratch directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sinew-{}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Writes `bytes` to a scratch file.
pub fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let p = scratch(name);
    std::fs::write(&p, bytes).expect("write");
    p
}

fn tool(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs the binary with a 10 s timeout and a 4 GiB memory cap.
pub fn sinew(args: &[&str]) -> Output {
    let bin = env!("CARGO_BIN_EXE_sinew");
    let mut cmd = if tool("timeout") && tool("prlimit") {
        let mut c = Command::new("timeout");
        c.args(["-s", "KILL", "10", "prlimit", "--as=4294967296", "--", bin]);
        c
    } else {
        Command::new(bin)
    };
    cmd.args(args).output().expect("the sinew binary runs")
}

/// Runs a command that must be refused: no panic, stderr naming every needle. Returns the
/// exit status (each caller says which it accepts) and stderr.
pub fn run_refused(args: &[&str], needles: &[&str]) -> (Option<i32>, String) {
    let o = sinew(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        !err.contains("panicked") && !err.contains("internal error"),
        "{args:?}: panic: {err}"
    );
    for n in needles {
        assert!(
            err.contains(n),
            "{args:?}: stderr should mention `{n}`: {err}"
        );
    }
    (o.status.code(), err)
}

/// A path as `&str` for an argument list.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}
