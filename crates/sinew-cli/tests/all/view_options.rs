//! `sinew view` takes what `render` takes and says what it does (issue 27): `--atlas`,
//! `--skin`, `--armature` (DragonBones `effect_ske.json`'s `sprite`), `--anim none` (plays
//! nothing; it was refused), a bare file name run in its own folder (the atlas beside it is
//! found), and a view that draws nothing (mix-and-match's default skin) says why on stderr,
//! listing the skins. Scripted runs under Xvfb as in `view.rs`; skips with a notice when no
//! display can be had (fails under `CI=true`).

#![cfg(feature = "view")]

use crate::view::{out_dir, root, unavailable, view_in};
use std::path::Path;
use std::process::Output;

/// `sinew view FILE ARGS --screenshot` in `dir` (one frame); `None` when no window opens.
fn scripted(dir: &Path, file: &str, args: &[&str], tag: &str) -> Option<Output> {
    let out = out_dir().join(format!("options-{tag}.png"));
    let mut all = vec![file];
    all.extend_from_slice(args);
    all.extend_from_slice(&[
        "--size",
        "320x240",
        "--frames",
        "2",
        "--screenshot",
        out.to_str().expect("utf-8 path"),
    ]);
    let o = view_in(dir, &all)?;
    let stderr = String::from_utf8_lossy(&o.stderr);
    if stderr.contains("cannot open the window") || stderr.contains("xvfb-run") {
        unavailable(&format!("the window did not open: {stderr}"));
        return None;
    }
    Some(o)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn succeeded(o: &Output, what: &str) -> String {
    let e = stderr(o);
    assert!(o.status.success(), "{what} failed: {e}");
    e
}

fn failed(o: &Output, what: &str) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{what} should exit 1: {e}");
    assert!(!e.contains("panicked"), "{what}: {e}");
    e
}

#[test]
fn view_takes_atlas_skin_armature_anim_none_and_a_bare_name() {
    let r = root();
    // A bare name, run in the skeleton's folder: its atlas is found beside it.
    let Some(o) = scripted(&r.join("examples/stickbot"), "stickbot.json", &[], "bare") else {
        return;
    };
    let e = succeeded(&o, "a bare file name");
    assert!(!e.contains("nothing to draw"), "{e}");
    // --atlas names the atlas; refused for a puppet, which embeds its textures.
    let atlas = ["--atlas", "examples/stickbot/stickbot.atlas"];
    let Some(o) = scripted(&r, "examples/stickbot/stickbot.json", &atlas, "atlas") else {
        return;
    };
    succeeded(&o, "--atlas");
    let Some(o) = scripted(&r, "examples/face/face.inp", &atlas, "atlas-puppet") else {
        return;
    };
    let e = failed(&o, "--atlas on a puppet");
    assert!(e.contains("--atlas does not apply"), "{e}");
    // --anim none plays nothing, with a parameter held.
    let none = ["--anim", "none", "--param", "ParamAngle=20,-10"];
    let Some(o) = scripted(&r, "examples/face/face.inp", &none, "anim-none") else {
        return;
    };
    succeeded(&o, "--anim none");
    // An unknown skin names the flag.
    let Some(o) = scripted(
        &r,
        "examples/stickbot/stickbot.json",
        &["--skin", "x"],
        "skin",
    ) else {
        return;
    };
    let e = failed(&o, "--skin x");
    assert!(e.contains("--skin") && e.contains('x'), "{e}");
}

#[test]
fn view_shows_a_dragonbones_armature_and_says_why_nothing_is_drawn() {
    let Some(fixtures) = sinew_testutil::require_fixtures("sinew view armature and skins") else {
        return;
    };
    let r = root();
    let ske = fixtures.join("dragonbones/effect/effect_ske.json");
    let ske = ske.to_str().expect("utf-8 path");
    let Some(o) = scripted(&r, ske, &["--armature", "sprite"], "armature") else {
        return;
    };
    let e = succeeded(&o, "--armature sprite");
    assert!(!e.contains("nothing to draw"), "{e}");
    let Some(o) = scripted(&r, ske, &["--armature", "nope"], "armature-bad") else {
        return;
    };
    let e = failed(&o, "--armature nope");
    assert!(e.contains("nope") && e.contains("sprite"), "{e}");

    let mm = fixtures.join("spine/mix-and-match/mix-and-match-pro.json");
    let mm = mm.to_str().expect("utf-8 path");
    let Some(o) = scripted(&r, mm, &[], "empty") else {
        return;
    };
    let e = succeeded(&o, "mix-and-match with its default skin");
    assert!(
        e.contains("nothing to draw") && e.contains("full-skins/girl") && e.contains("--skin"),
        "{e}"
    );
    let Some(o) = scripted(&r, mm, &["--skin", "full-skins/girl"], "skin-girl") else {
        return;
    };
    let e = succeeded(&o, "--skin full-skins/girl");
    assert!(!e.contains("nothing to draw"), "{e}");
}
