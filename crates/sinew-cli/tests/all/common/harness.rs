//! The hostile-input tests' harness (`hostile*.rs`): scratch files, the binary under a 10 s
//! timeout and a 4 GiB address-space cap (`timeout` and `prlimit`), its peak resident memory
//! (read from `/proc` while it runs), in-process tests re-run as a capped child of the test
//! binary, and the checks every refused run must pass.
//!
//! Without `timeout` or `prlimit` a run would have no cap at all, so the caps are never
//! dropped silently: under CI (`CI=true`) the test fails, elsewhere it is skipped with a
//! notice on stderr ([`capped`]).
// Each test crate that includes this module uses its own subset.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

pub const STICKBOT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/stickbot/stickbot.json"
);
pub const FACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/face/face.inp");

/// The time cap of one run, seconds.
pub const TIMEOUT_S: u32 = 10;
/// The address-space cap of one run, bytes.
pub const MEMORY_CAP: u64 = 4 << 30;

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

/// Whether the caps can be applied (`timeout` and `prlimit` on the PATH). When they cannot,
/// this panics under CI and otherwise prints a notice naming `test`; the caller returns
/// (skips) on `false`.
pub fn capped(test: &str) -> bool {
    static TOOLS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *TOOLS.get_or_init(|| tool("timeout") && tool("prlimit")) {
        return true;
    }
    let msg = format!(
        "{test}: `timeout` and `prlimit` are needed to run hostile inputs under a {TIMEOUT_S} s \
         and 4 GiB cap"
    );
    if sinew_testutil::is_ci() {
        panic!("{msg}; CI=true requires them");
    }
    eprintln!("SKIPPED {msg} (install util-linux and coreutils to run it)");
    false
}

/// The timeout of the 70 MB inputs ([`sinew_peak_long`]): the test binary is unoptimised
/// and reads 70 MB in about 6 s on this 2-core machine when others build beside it.
pub const LONG_TIMEOUT_S: u32 = 40;

/// The capped command line for `program` (callers have checked [`capped`]).
fn capped_command(program: &Path, timeout_s: u32) -> Command {
    assert!(
        capped("a hostile-input run"),
        "the caps are required (call harness::capped first)"
    );
    let mut c = Command::new("timeout");
    c.args(["-s", "KILL", &timeout_s.to_string(), "prlimit"])
        .arg(format!("--as={MEMORY_CAP}"))
        .arg("--")
        .arg(program);
    c
}

/// Runs the binary with a 10 s timeout and a 4 GiB memory cap.
pub fn sinew(args: &[&str]) -> Output {
    sinew_peak(args).0
}

/// Runs the binary under the caps and returns its output and its peak resident memory in
/// bytes (`VmHWM` of the capped process, read from `/proc` every few milliseconds while it
/// runs; 0 where `/proc` is missing).
pub fn sinew_peak(args: &[&str]) -> (Output, u64) {
    sinew_peak_within(args, TIMEOUT_S)
}

/// [`sinew_peak`] under [`LONG_TIMEOUT_S`], for inputs of tens of megabytes.
pub fn sinew_peak_long(args: &[&str]) -> (Output, u64) {
    sinew_peak_within(args, LONG_TIMEOUT_S)
}

fn sinew_peak_within(args: &[&str], timeout_s: u32) -> (Output, u64) {
    let mut cmd = capped_command(Path::new(env!("CARGO_BIN_EXE_sinew")), timeout_s);
    let child = cmd
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sinew binary runs");
    // `timeout` forks the capped program (prlimit execs it): watch timeout's children.
    let outer = child.id();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut peak = 0u64;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                for pid in descendants(outer) {
                    peak = peak.max(vm_hwm(pid));
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            peak
        })
    };
    let out = child.wait_with_output().expect("the sinew binary runs");
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let peak = watcher.join().unwrap_or(0);
    (out, peak)
}

/// `pid` and its children, one level down (`timeout`'s child is the capped program).
fn descendants(pid: u32) -> Vec<u32> {
    let mut out = vec![pid];
    if let Ok(s) = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")) {
        out.extend(s.split_whitespace().filter_map(|p| p.parse::<u32>().ok()));
    }
    out
}

/// The peak resident set of `pid` in bytes (`VmHWM`), 0 when it cannot be read.
fn vm_hwm(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// Runs an in-process test body under the same caps: the test binary re-runs itself for
/// `test` alone as a capped child (the body runs there), and the parent asserts the child
/// passed. `module` is the caller's `module_path!()`. Returns `true` where the caller must
/// run the body (in the child, or nowhere: callers write
/// `if !harness::in_capped_child(module_path!(), "name") { return; }`).
pub fn in_capped_child(module: &str, test: &str) -> bool {
    const MARK: &str = "SINEW_HOSTILE_CAPPED_CHILD";
    if std::env::var_os(MARK).is_some() {
        return true;
    }
    if !capped(test) {
        return false;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = capped_command(&exe, TIMEOUT_S)
        .args([
            &sinew_testutil::test_path(module, test),
            "--exact",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(MARK, "1")
        .output()
        .expect("the test binary re-runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{test} in a capped child ({TIMEOUT_S} s, 4 GiB): {:?} (killed: a hang or out of memory?)\n{text}",
        out.status.code()
    );
    assert!(
        text.contains("1 passed"),
        "{test}: the capped child ran no test\n{text}"
    );
    false
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
