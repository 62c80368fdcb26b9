//! Image helpers shared by the render tests: the GPU probe, running one render on both
//! backends, and the similarity measure every reference comparison uses.

use sinew_render::compare::load_rgba;
pub use sinew_testutil::images::similarity;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `sinew` binary in `dir`.
pub fn sinew_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sinew"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the sinew binary runs")
}

/// Asserts the run succeeded; its stdout.
pub fn ok(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "sinew failed: {err}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A scratch folder of this test process.
pub fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sinew-images-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Whether a GPU adapter is there: `false` (with a notice) when not, a failure under CI.
pub fn have_gpu(test: &str) -> bool {
    match sinew_wgpu_probe() {
        Ok(()) => true,
        Err(e) if sinew_testutil::is_ci() => panic!("{test}: CI=true and {e}"),
        Err(e) => {
            eprintln!("skipping {test}: {e}");
            false
        }
    }
}

/// Renders the stickbot on the GPU; the error when that fails for want of an adapter.
fn sinew_wgpu_probe() -> Result<(), String> {
    // One file per call: every test of this binary probes, in parallel threads of one
    // process, and they must not write one file at the same time.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let root = sinew_testutil::workspace_root();
    let out = out_dir("probe").join(format!("probe-{n}.png"));
    let o = sinew_in(
        &root,
        &[
            "render",
            "examples/stickbot/stickbot.json",
            "--anim",
            "walk",
            "--size",
            "16x16",
            "--backend",
            "wgpu",
            "--out",
            &out.to_string_lossy(),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    if o.status.success() {
        Ok(())
    } else if err.contains("no GPU adapter") {
        Err(err.trim().to_owned())
    } else {
        panic!("sinew render --backend wgpu failed: {err}")
    }
}

/// Runs `args` (ending in `--out FILE`) with each backend; returns (cpu, gpu) RGBA8.
pub fn both(dir: &Path, args: &[String], out: &Path, name: &str) -> (Vec<u8>, Vec<u8>) {
    let mut images = Vec::new();
    for backend in ["cpu", "wgpu"] {
        let mut a = args.to_vec();
        let file = out.join(format!("{name}.{backend}.png"));
        match a.iter().position(|x| x == "--out") {
            Some(i) => a[i + 1] = file.to_string_lossy().into_owned(),
            None => a.extend(["--out".into(), file.to_string_lossy().into_owned()]),
        }
        a.extend(["--backend".into(), backend.into()]);
        ok(&sinew_in(
            dir,
            &a.iter().map(String::as_str).collect::<Vec<_>>(),
        ));
        images.push(load_rgba(&file).expect("PNG").2);
    }
    let gpu = images.pop().unwrap_or_default();
    let cpu = images.pop().unwrap_or_default();
    (cpu, gpu)
}
