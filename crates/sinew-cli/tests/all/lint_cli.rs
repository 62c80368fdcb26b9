//! `sinew lint` through the binary: exit 0 without errors, 1 with errors, 2 for a file that
//! cannot be read or loaded; text and JSON output; `--fix` output re-linted is clean.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn sinew(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sinew"))
        .args(args)
        .output()
        .expect("run sinew");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sinew-lint-cli-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A mesh on two bones whose vertex 1 weights sum to `sum`.
fn rig(sum: f64) -> Value {
    let w = sum / 2.0;
    json!({
        "skeleton": {"spine": "4.2.0"},
        "bones": [{"name": "root"}, {"name": "a", "parent": "root", "length": 50},
                  {"name": "b", "parent": "a", "x": 50, "length": 50}],
        "slots": [{"name": "arm", "bone": "root", "attachment": "arm"}],
        "skins": [{"name": "default", "attachments": {"arm": {"arm": {
            "type": "mesh", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [0, 1, 2, 2, 3, 0],
            "hull": 4, "width": 50, "height": 20,
            "vertices": [1, 1, 0, -10, 1, 2, 1, 50, -10, w, 2, 0, -10, w,
                         2, 1, 50, 10, 0.5, 2, 0, 10, 0.5, 1, 1, 0, 10, 1]
        }}}}],
        "animations": {"bend": {"bones": {"b": {"rotate": [{"value": 0}, {"time": 1, "value": 30}]}}}}
    })
}

fn write(dir: &Path, name: &str, v: &Value) -> String {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_vec(v).expect("json")).expect("write");
    p.display().to_string()
}

#[test]
fn exit_status_follows_the_findings() {
    let dir = temp("status");
    let (code, out, _) = sinew(&["lint", &write(&dir, "ok.json", &rig(1.0))]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 errors"), "{out}");
    let bad = write(&dir, "bad.json", &rig(0.6));
    let (code, out, _) = sinew(&["lint", &bad]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error [weights-not-normalized]"), "{out}");
    assert!(
        out.contains("where: skin default, slot arm, attachment arm, vertex 1"),
        "{out}"
    );
    assert!(out.contains("1 errors, 0 warnings"), "{out}");
}

#[test]
fn unreadable_files_exit_2() {
    let dir = temp("unreadable");
    let (code, _, err) = sinew(&["lint", &dir.join("missing.json").display().to_string()]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.json"), "{err}");
    let p = dir.join("broken.json");
    std::fs::write(&p, b"{\"skeleton\": ").expect("write");
    let (code, _, err) = sinew(&["lint", &p.display().to_string()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("error: "), "{err}");
}

#[test]
fn json_format() {
    let dir = temp("json");
    let bad = write(&dir, "bad.json", &rig(0.6));
    let (code, out, _) = sinew(&["lint", &bad, "--format", "json"]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).expect("JSON report");
    assert_eq!(v["file"], bad.as_str());
    let f = &v["findings"][0];
    assert_eq!(f["code"], "weights-not-normalized");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["where"]["slot"], "arm");
    assert_eq!(f["where"]["vertex"], 1);
    assert_eq!(
        f["where"]["path"],
        "$.skins[0].attachments.arm.arm.vertices"
    );
    assert!(f["message"].as_str().is_some_and(|m| m.contains("0.6000")));
    assert!(f["fix"].as_str().is_some_and(|m| !m.is_empty()));
    let (code, out, _) = sinew(&[
        "lint",
        &write(&dir, "ok.json", &rig(1.0)),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).expect("JSON report");
    assert_eq!(v["findings"], json!([]));
}

#[test]
fn fix_writes_a_clean_copy() {
    let dir = temp("fix");
    let bad = write(&dir, "bad.json", &rig(0.6));
    let fixed = dir.join("fixed.json").display().to_string();
    let (code, _, err) = sinew(&["lint", &bad, "--fix", &fixed]);
    assert_eq!(code, 1, "the report is of the input: {err}");
    let (code, out, _) = sinew(&["lint", &fixed]);
    assert_eq!(code, 0, "{out}");
    // Everything else is kept: the animation and the bone lengths.
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&fixed).expect("fixed")).expect("json");
    assert_eq!(v["animations"]["bend"], rig(1.0)["animations"]["bend"]);
    assert_eq!(v["bones"], rig(1.0)["bones"]);
    let verts = v["skins"][0]["attachments"]["arm"]["arm"]["vertices"]
        .as_array()
        .expect("vertices");
    assert_eq!(verts[9], json!(0.5));
    assert_eq!(verts[13], json!(0.5));
}

#[test]
fn puppets_and_skel_lint_too() {
    let root = sinew_testutil::workspace_root();
    let face = root.join("examples/face/face.inp").display().to_string();
    let (code, out, err) = sinew(&["lint", &face]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 errors"), "{out}");
    let stickbot = root
        .join("examples/stickbot/stickbot.json")
        .display()
        .to_string();
    let extras = root
        .join("examples/stickbot/stickbot.extras.json")
        .display()
        .to_string();
    let (code, out, _) = sinew(&["lint", &stickbot, "--extras", &extras]);
    assert_eq!(code, 0, "{out}");
    let Some(dir) = sinew_testutil::require_spine_fixtures("puppets_and_skel_lint_too") else {
        return;
    };
    let skel = dir.join("spineboy/spineboy-pro.skel").display().to_string();
    let (code, out, _) = sinew(&["lint", &skel]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ik-out-of-reach"), "{out}");
    // `--fix` writes the input's format: a `.skel` in, a `.skel` out (spineboy needs no
    // mechanical fix; its IK warning stays).
    let fixed = temp("skel-fix").join("fixed.skel");
    let (code, _, err) = sinew(&["lint", &skel, "--fix", &fixed.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&fixed).expect("fixed .skel written");
    assert!(!bytes.starts_with(b"{"), "binary, not JSON");
    let (code, out, _) = sinew(&["lint", &fixed.display().to_string()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ik-out-of-reach"), "{out}");
}

#[test]
fn options_that_do_not_apply_exit_2() {
    let root = sinew_testutil::workspace_root();
    let face = root.join("examples/face/face.inp").display().to_string();
    let extras = root
        .join("examples/stickbot/stickbot.extras.json")
        .display()
        .to_string();
    // Rig extras are Spine's (as in dump, render and bench).
    let (code, _, err) = sinew(&["lint", &face, "--extras", &extras]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--extras does not apply") && err.contains("Inochi2D puppet"),
        "{err}"
    );
    // No mechanical fix applies to a puppet: say so, and which fixes there are.
    let out = temp("puppet-fix").join("face.inp");
    let (code, _, err) = sinew(&["lint", &face, "--fix", &out.display().to_string()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--fix does not apply") && err.contains("bone weights"),
        "{err}"
    );
    assert!(!out.exists(), "nothing written");
}

#[test]
fn input_budgets_apply_before_parsing() {
    let dir = temp("budget");
    let cage = write(
        &dir,
        "cage.json",
        &json!({"vertices": [[1, 1], [2, 2]], "loops": [[[0, 0], [4, 0], [4, 4], [0, 4]]]}),
    );
    let (code, _, err) = sinew(&["lint", &cage, "--max-json-values", "5"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("json_values budget"), "{err}");
    let (code, _, err) = sinew(&[
        "lint",
        &write(&dir, "bad.json", &rig(0.6)),
        "--max-file-bytes",
        "10",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("file_bytes budget"), "{err}");
    // A number too large to pose is refused with its JSON path.
    let huge = write(
        &dir,
        "huge.json",
        &json!({"vertices": [[1, 1], [2e30, 2]], "loops": [[[0, 0], [4, 0], [4, 4], [0, 4]]]}),
    );
    let (code, _, err) = sinew(&["lint", &huge]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("$.vertices[1][0]"), "{err}");
}

#[test]
fn dragonbones_skeletons_lint() {
    let Some(dir) = sinew_testutil::require_fixtures("dragonbones_skeletons_lint") else {
        return;
    };
    let ske = dir
        .join("dragonbones/dragon_boy/dragon_boy_ske.json")
        .display()
        .to_string();
    let (code, out, err) = sinew(&["lint", &ske, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON report");
    assert_eq!(v["file"], ske.as_str());
    // `--fix` writes DragonBones JSON.
    let fixed = temp("db-fix").join("fixed_ske.json");
    let (code, _, err) = sinew(&["lint", &ske, "--fix", &fixed.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&fixed).expect("fixed")).expect("json");
    assert!(v["armature"].is_array(), "DragonBones out");
    let (code, out, _) = sinew(&["lint", &fixed.display().to_string()]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn cage_files() {
    let dir = temp("cage");
    let cage =
        |x: f64| json!({"vertices": [[1, 1], [x, 2]], "loops": [[[0, 0], [4, 0], [4, 4], [0, 4]]]});
    let (code, out, _) = sinew(&["lint", &write(&dir, "out.json", &cage(6.0))]);
    assert_eq!(code, 0, "a warning is not an error: {out}");
    assert!(out.contains("warning [cage-point-outside]"), "{out}");
    let (_, out, _) = sinew(&["lint", &write(&dir, "in.json", &cage(2.0))]);
    assert!(out.contains("0 errors, 0 warnings"), "{out}");
}
