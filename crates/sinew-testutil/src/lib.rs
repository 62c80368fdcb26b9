//! Test plumbing shared by every sinew crate: where the shared fixtures live, and the
//! counting allocator of the zero-allocation tests ([`alloc`]).
//!
//! The differential fixtures (official Spine exports and the oracle's golden dumps) are not
//! part of the repository. They are found in ONE place, [`fixtures_dir`]: the directory named
//! by the environment variable `SINEW_FIXTURES`, else `<workspace root>/../shared/fixtures`.
//! Tests call [`require_fixtures`], which skips with a printed notice on a developer machine
//! without them and fails loudly when `CI=true`, so CI can never pass by skipping.
//!
//! Verified by the unit tests below (env override, missing paths, CI behaviour).

pub mod alloc;

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
