//! Every format sinew loads is linted, and `--fix` writes the input's format: DragonBones
//! (a shared fixture and an armature made here with faults), Spine `.skel` (fixed and
//! written as `.skel`), and puppets (no mechanical fix applies: an error that says so).

use crate::rigs;

use serde_json::Value;
use sinew_lint::{Finding, Kind, Options, Severity, Source};
use std::path::{Path, PathBuf};

fn lint_file(path: &Path) -> Vec<Finding> {
    let input = sinew_lint::load(path, None).expect("rig loads");
    sinew_lint::lint(&input, &Options::default())
}

fn with<'a>(f: &'a [Finding], code: &str) -> Vec<&'a Finding> {
    f.iter().filter(|x| x.code == code).collect()
}

fn write_db(test: &str, v: &Value) -> PathBuf {
    rigs::write(&rigs::temp_dir(test), "rig_ske.json", v)
}

#[test]
fn dragonbones_fixtures_load_and_have_no_errors() {
    let Some(dir) =
        sinew_testutil::require_fixtures("dragonbones_fixtures_load_and_have_no_errors")
    else {
        return;
    };
    let dir = dir.join("dragonbones");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("dragonbones fixtures")
        .flatten()
        .flat_map(|e| std::fs::read_dir(e.path()).into_iter().flatten().flatten())
        .map(|f| f.path())
        .filter(|p| p.to_string_lossy().ends_with("_ske.json"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "expected the shared armatures: {files:?}");
    for p in &files {
        let input = sinew_lint::load(p, None).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(
            matches!(input.source, Source::DragonBones { .. }),
            "{}",
            p.display()
        );
        let findings = sinew_lint::lint(&input, &Options::default());
        let errors: Vec<_> = with(&findings, "weights-not-normalized");
        assert!(
            findings.iter().all(|f| f.severity != Severity::Error),
            "{}: {errors:#?}",
            p.display()
        );
        // Places are the file's: DragonBones paths, never Spine ones.
        for f in &findings {
            if let Some(path) = &f.at.path {
                assert!(path.starts_with("$.armature["), "{path}");
            }
        }
    }
}

#[test]
fn dragonbones_faults_are_found_where_the_file_has_them() {
    let bad = lint_file(&write_db("db-bad", &rigs::db::armature(0.8, 6)));
    let w = with(&bad, "weights-not-normalized");
    assert_eq!(w.len(), 1, "{bad:#?}");
    assert_eq!(w[0].at.slot.as_deref(), Some("arm"));
    assert_eq!(w[0].at.vertex, Some(1));
    assert_eq!(
        w[0].at.path.as_deref(),
        Some("$.armature[0].skin[0].slot[0].display[0].weights")
    );
    let d = with(&bad, "draw-order-still-frame");
    assert_eq!(d.len(), 1, "{bad:#?}");
    assert_eq!(
        d[0].at.path.as_deref(),
        Some("$.armature[0].animation[0].zOrder.frame[1]")
    );
    assert!((d[0].at.time.expect("time") - 0.2).abs() < 1e-6);
    // The suggestion is a whole frame (30 fps) where the boxes no longer overlap: the
    // mover is 66.7 units along at frame 10.
    let Some(sinew_lint::Edit::MoveDrawOrderKey { time, .. }) = d[0].edit else {
        panic!("a key move")
    };
    assert!((time * 30.0 - 10.0).abs() < 1e-6, "suggested {time}");
    let ok = lint_file(&write_db("db-ok", &rigs::db::armature(1.0, 10)));
    assert!(with(&ok, "weights-not-normalized").is_empty(), "{ok:#?}");
    assert!(with(&ok, "draw-order-still-frame").is_empty(), "{ok:#?}");
}

#[test]
fn dragonbones_fix_round_trip() {
    let path = write_db("db-fix", &rigs::db::armature(0.8, 6));
    let input = sinew_lint::load(&path, None).expect("loads");
    let findings = sinew_lint::lint(&input, &Options::default());
    let (bytes, n) = sinew_lint::fix::fixed_file(&input, &findings).expect("fixed");
    assert_eq!(n, 2, "weights and the key");
    let fixed: Value = serde_json::from_slice(&bytes).expect("DragonBones JSON");
    let arm = &fixed["armature"][0];
    // Vertex 1 is [2, 1, w, 2, w] from index 3: both weights become 0.5, bones stay.
    let weights = &arm["skin"][0]["slot"][0]["display"][0]["weights"];
    assert_eq!(weights[3], 2);
    assert_eq!(weights[4], 1);
    assert_eq!(weights[5], 0.5);
    assert_eq!(weights[7], 0.5);
    // The key starts at frame 10 now; the frames after it are where they were.
    let frames = &arm["animation"][0]["zOrder"]["frame"];
    assert_eq!(frames[0]["duration"], 10);
    assert_eq!(frames[1]["duration"], 20);
    let out = rigs::temp_dir("db-fix").join("fixed_ske.json");
    std::fs::write(&out, &bytes).expect("write");
    let after = lint_file(&out);
    assert!(
        with(&after, "weights-not-normalized").is_empty(),
        "{after:#?}"
    );
    assert!(
        with(&after, "draw-order-still-frame").is_empty(),
        "{after:#?}"
    );
}

/// A Spine JSON rig written as `.skel` by the binary writer.
fn as_skel(test: &str, v: &Value) -> PathBuf {
    let text = serde_json::to_string(v).expect("json");
    let raw = sinew_formats::spine::parse_spine_json(&text, "rig.json").expect("parses");
    let bytes = sinew_formats::spine::binary::write_spine_binary(&raw).expect("writes");
    let p = rigs::temp_dir(test).join("rig.skel");
    std::fs::write(&p, bytes).expect("write");
    p
}

/// Lints a `.skel`, fixes it, checks the output is a `.skel` without `code`.
fn skel_round_trip(test: &str, v: &Value, code: &str) {
    let path = as_skel(test, v);
    let input = sinew_lint::load(&path, None).expect("loads");
    assert!(matches!(input.source, Source::SpineBinary));
    let findings = sinew_lint::lint(&input, &Options::default());
    let found = with(&findings, code);
    assert_eq!(found.len(), 1, "{code} before the fix: {findings:#?}");
    // A `.skel` has no JSON path to name.
    assert_eq!(found[0].at.path, None);
    let (bytes, n) = sinew_lint::fix::fixed_file(&input, &findings).expect("fixed");
    assert!(n >= 1);
    assert!(!bytes.starts_with(b"{"), "binary out");
    let out = rigs::temp_dir(test).join("fixed.skel");
    std::fs::write(&out, &bytes).expect("write");
    let again = sinew_lint::load(&out, None).expect("fixed .skel loads");
    assert!(matches!(again.source, Source::SpineBinary));
    let after = sinew_lint::lint(&again, &Options::default());
    assert!(with(&after, code).is_empty(), "{code} after: {after:#?}");
}

#[test]
fn skel_fix_writes_skel() {
    skel_round_trip(
        "skel-weights",
        &rigs::weights(0.8),
        "weights-not-normalized",
    );
    skel_round_trip(
        "skel-order",
        &rigs::draw_order(0.2),
        "draw-order-still-frame",
    );
}

#[test]
fn puppets_have_no_mechanical_fix() {
    let face = sinew_testutil::workspace_root().join("examples/face/face.inp");
    let input = sinew_lint::load(&face, None).expect("face");
    let e = sinew_lint::fix::fixed_file(&input, &[]).expect_err("no fix for puppets");
    let msg = e.to_string();
    assert!(msg.contains("Inochi2D puppet"), "{msg}");
    assert!(
        msg.contains("bone weights") && msg.contains("draw-order"),
        "{msg}"
    );
    assert!(sinew_lint::fix::unsupported(Kind::Puppet).is_some());
    assert!(sinew_lint::fix::unsupported(Kind::DragonBones).is_none());
    // Rig extras are Spine's: a puppet given some is refused, naming the format.
    let extras = sinew_testutil::workspace_root().join("examples/stickbot/stickbot.extras.json");
    let e = sinew_lint::load(&face, Some(&extras)).expect_err("extras on a puppet");
    assert!(e.to_string().contains("Inochi2D puppet"), "{e}");
}

#[test]
fn each_format_is_read_once() {
    let face = sinew_testutil::workspace_root().join("examples/face/face.inp");
    let db = write_db("once-db", &rigs::db::armature(0.8, 6));
    let skel = as_skel("once-skel", &rigs::weights(0.8));
    let json = rigs::write(
        &rigs::temp_dir("once-json"),
        "rig.json",
        &rigs::weights(0.8),
    );
    for p in [face, db, skel, json] {
        // Loading, linting and fixing (the `.skel` fix parses the file again) in one scope.
        let (fixed, reads) = sinew_formats::read_once::read_once(|| {
            let input = sinew_lint::load(&p, None).expect("loads");
            let findings = sinew_lint::lint(&input, &Options::default());
            sinew_lint::fix::fixed_file(&input, &findings).is_ok()
        });
        assert_eq!(
            fixed,
            !p.ends_with("face.inp"),
            "{}: fixed unless a puppet",
            p.display()
        );
        let n: usize = reads.iter().filter(|(r, _)| r == &p).map(|(_, n)| n).sum();
        assert_eq!(n, 1, "{}: {reads:?}", p.display());
    }
}
