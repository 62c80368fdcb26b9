//! Test plumbing shared by every sinew crate: where the shared fixtures live, the counting
//! allocator of the zero-allocation tests ([`alloc`]), and [`run_alone`] for the few tests
//! that must not share their process with the others of their binary.
//!
//! The differential fixtures (official Spine exports and the oracle's golden dumps) are not
//! part of the repository. They are found in ONE place, [`fixtures_dir`]: the directory named
//! by the environment variable `SINEW_FIXTURES`, else `<workspace root>/../shared/fixtures`.
//! Tests call [`require_fixtures`], which skips with a printed notice on a developer machine
//! without them and fails loudly when `CI=true`, so CI can never pass by skipping.
//!
//! Verified by the unit tests below (env override, missing paths, CI behaviour).

pub mod alloc;
pub mod images;

use std::path::{Path, PathBuf};

/// Environment variable that overrides the fixtures directory.
pub const FIXTURES_ENV: &str = "SINEW_FIXTURES";

/// The workspace root (the directory holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    // This crate lives at <root>/crates/sinew-testutil.
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent()
        .and_then(Path::parent)
        .unwrap_or(here)
        .to_path_buf()
}

/// The default fixtures location, `<workspace root>/../shared/fixtures`.
pub fn default_fixtures_dir() -> PathBuf {
    workspace_root().join("..").join("shared").join("fixtures")
}

/// Where the fixtures are expected: `$SINEW_FIXTURES` if set and non-empty, else the default.
pub fn expected_fixtures_dir() -> PathBuf {
    match std::env::var_os(FIXTURES_ENV) {
        Some(v) if !v.is_empty() => PathBuf::from(v),
        _ => default_fixtures_dir(),
    }
}

/// The shared fixtures directory, or `None` when it does not exist.
pub fn fixtures_dir() -> Option<PathBuf> {
    let dir = expected_fixtures_dir();
    dir.is_dir().then_some(dir)
}

/// Whether this run is under CI (`CI=true` or `CI=1`).
pub fn is_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// The fixtures directory for a test named `test_name`.
///
/// When the fixtures are missing this panics under CI (`CI=true`) and otherwise prints
/// `skipping <test>: shared fixtures not found at <dir>` and returns `None`; the caller then
/// returns early.
pub fn require_fixtures(test_name: &str) -> Option<PathBuf> {
    decide(test_name, fixtures_dir(), &expected_fixtures_dir(), is_ci())
}

/// The pure decision behind [`require_fixtures`] (separate so it can be unit tested).
fn decide(test_name: &str, found: Option<PathBuf>, expected: &Path, ci: bool) -> Option<PathBuf> {
    if found.is_some() {
        return found;
    }
    let msg = format!(
        "shared fixtures not found at {} (set {FIXTURES_ENV} to their directory)",
        expected.display()
    );
    if ci {
        panic!("{test_name}: {msg}; CI=true requires them");
    }
    println!("skipping {test_name}: {msg}");
    None
}

/// The Spine fixtures directory (`<fixtures>/spine`) for a test, as [`require_fixtures`].
pub fn require_spine_fixtures(test_name: &str) -> Option<PathBuf> {
    require_fixtures(test_name).map(|d| d.join("spine"))
}

/// The Spine 4.3 fixtures directory (`<fixtures>/spine43`: 4.2 exports converted to 4.3 and
/// goldens posed by spine-core 4.3.13) for a test, as [`require_fixtures`].
pub fn require_spine43_fixtures(test_name: &str) -> Option<PathBuf> {
    require_fixtures(test_name).map(|d| d.join("spine43"))
}

/// Every file one folder below the Spine fixtures (`<fixtures>/spine/*/`) whose extension is
/// one of `exts`, sorted, for a test with the policy of [`require_fixtures`]. The folders
/// `golden/` and `render-ref/` are folders like any other here (their dumps are `.json`).
pub fn spine_fixture_files(test_name: &str, exts: &[&str]) -> Option<Vec<PathBuf>> {
    let dir = require_spine_fixtures(test_name)?;
    let mut out = Vec::new();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for sub in entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
        let files = std::fs::read_dir(&sub).unwrap_or_else(|e| panic!("{}: {e}", sub.display()));
        out.extend(files.flatten().map(|f| f.path()).filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.contains(&x))
        }));
    }
    out.sort();
    Some(out)
}

/// A folder of the shared oracles (`<fixtures>/../oracle/<sub>`, e.g. `mvc/fixtures`) for a
/// test, with the same policy as [`require_fixtures`]: the oracles' committed outputs are
/// read in place, never copied into this repository.
pub fn require_oracle(test_name: &str, sub: &str) -> Option<PathBuf> {
    let expected = expected_fixtures_dir().join("../oracle").join(sub);
    let found = expected.is_dir().then(|| expected.clone());
    decide(test_name, found, &expected, is_ci())
}

/// Environment variable that marks a child test binary started by [`run_alone`]; its value
/// is the one test the child runs.
const ALONE_ENV: &str = "SINEW_TEST_ALONE";

/// A test's path inside its test binary (what libtest filters on): `module` (the caller's
/// `module_path!()`) without the crate's name, then `name`. `all::render_stream` and `peak`
/// give `render_stream::peak`.
pub fn test_path(module: &str, name: &str) -> String {
    match module.split_once("::") {
        Some((_, rest)) => format!("{rest}::{name}"),
        None => name.to_owned(),
    }
}

/// Runs a test in a process of its own, for a test that measures or changes something
/// process-wide (every thread's allocations, the C ABI's thread pool): each crate's tests are
/// one binary whose tests run in parallel threads. The test binary re-runs itself for this
/// one test (`--exact`, one test thread) and asserts that the child ran it and passed.
///
/// `module` is the caller's `module_path!()` and `name` the test function's name. Returns
/// `true` in the child, where the caller runs the body, and `false` in the parent once the
/// child passed: callers write
/// `if !sinew_testutil::run_alone(module_path!(), "name") { return; }`.
pub fn run_alone(module: &str, name: &str) -> bool {
    let path = test_path(module, name);
    if std::env::var_os(ALONE_ENV).is_some_and(|v| v == path.as_str()) {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(exe)
        .args([
            path.as_str(),
            "--exact",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(ALONE_ENV, &path)
        .output()
        .expect("the test binary re-runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // Passed on, so that a skip notice of the child shows with `--nocapture`.
    print!("{text}");
    assert!(
        out.status.success(),
        "{path} in a process of its own failed ({:?})\n{text}",
        out.status.code()
    );
    assert!(
        text.contains("1 passed"),
        "{path}: the child test binary ran no test named so\n{text}"
    );
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_next_to_workspace() {
        let d = default_fixtures_dir();
        assert!(d.ends_with("../shared/fixtures"));
        assert!(workspace_root().join("Cargo.toml").is_file());
    }

    #[test]
    fn a_test_path_drops_the_crate_name() {
        assert_eq!(
            test_path("all::render_stream", "peak"),
            "render_stream::peak"
        );
        assert_eq!(test_path("all::a::b", "t"), "a::b::t");
        assert_eq!(test_path("all", "t"), "t");
    }

    /// Each crate's integration tests are one binary, `tests/all/main.rs` (one link of the
    /// crate graph per crate): a new `tests/*.rs` would be a binary of its own, and a file in
    /// `tests/all/` without its `mod` line in main.rs would never be compiled.
    #[test]
    fn each_crate_has_one_integration_test_binary() {
        let crates = workspace_root().join("crates");
        let mut checked = 0;
        for krate in std::fs::read_dir(&crates).expect("crates/").flatten() {
            let tests = krate.path().join("tests");
            if !tests.is_dir() {
                continue;
            }
            for e in std::fs::read_dir(&tests).expect("tests/").flatten() {
                let p = e.path();
                let stray = p.extension().is_some_and(|x| x == "rs")
                    || (p.is_dir() && p.file_name() != Some("all".as_ref()));
                assert!(
                    !stray,
                    "{}: integration tests go in tests/all/ as modules of its main.rs",
                    p.display()
                );
            }
            let all = tests.join("all");
            let main = std::fs::read_to_string(all.join("main.rs"))
                .unwrap_or_else(|e| panic!("{}/main.rs: {e}", all.display()));
            for e in std::fs::read_dir(&all).expect("tests/all/").flatten() {
                let p = e.path();
                let Some(stem) = p.file_stem().and_then(|s| s.to_str()) else {
                    continue;
                };
                if p.extension().is_some_and(|x| x == "rs") && stem != "main" {
                    assert!(
                        main.lines().any(|l| l.trim() == format!("mod {stem};")),
                        "{}: not declared in tests/all/main.rs (`mod {stem};`), so never compiled",
                        p.display()
                    );
                }
            }
            checked += 1;
        }
        assert!(checked >= 7, "only {checked} crates with tests found");
    }

    #[test]
    fn found_dir_is_returned_as_is() {
        let p = PathBuf::from("/x/y");
        assert_eq!(decide("t", Some(p.clone()), &p, true), Some(p));
    }

    #[test]
    fn missing_dir_skips_outside_ci() {
        assert_eq!(decide("t", None, Path::new("/nope"), false), None);
    }

    #[test]
    #[should_panic(expected = "CI=true requires them")]
    fn missing_dir_panics_under_ci() {
        decide("t", None, Path::new("/nope"), true);
    }
}
