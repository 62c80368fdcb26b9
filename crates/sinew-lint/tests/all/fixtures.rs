//! The shared Spine fixtures (`<fixtures>/spine/*/*.json`, skeletons only: the golden dumps
//! and manifests are skipped) lint without `error` findings, within a CI budget.

use sinew_lint::{Options, Severity};

#[test]
fn shared_spine_fixtures_have_no_errors() {
    let Some(dir) = sinew_testutil::require_spine_fixtures("shared_spine_fixtures_have_no_errors")
    else {
        return;
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("fixtures dir").flatten() {
        let sub = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !sub.is_dir() || name == "golden" || name == "render-ref" {
            continue;
        }
        for f in std::fs::read_dir(&sub).expect("fixture dir").flatten() {
            let p = f.path();
            if p.extension().is_some_and(|e| e == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(
        files.len() >= 10,
        "expected the shared skeletons, found {files:?}"
    );
    let started = std::time::Instant::now();
    for p in &files {
        let input = sinew_lint::load(p, None).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let findings = sinew_lint::lint(&input, &Options::default());
        let errors: Vec<_> = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", p.display());
    }
    println!(
        "{} skeletons linted in {:?}",
        files.len(),
        started.elapsed()
    );
}

#[test]
fn spineboy_reads_sensibly() {
    let Some(dir) = sinew_testutil::require_spine_fixtures("spineboy_reads_sensibly") else {
        return;
    };
    let p = dir.join("spineboy/spineboy-pro.json");
    let input = sinew_lint::load(&p, None).expect("spineboy");
    let findings = sinew_lint::lint(&input, &Options::default());
    // docs/LINT.md shows this report: one warning, the front leg straightened by its IK
    // while spineboy is in the air in `jump`.
    let codes: Vec<_> = findings.iter().map(|f| f.code).collect();
    assert_eq!(codes, ["ik-out-of-reach"], "{findings:#?}");
    assert_eq!(findings[0].at.constraint.as_deref(), Some("front-leg-ik"));
    assert_eq!(findings[0].at.animation.as_deref(), Some("jump"));
}
