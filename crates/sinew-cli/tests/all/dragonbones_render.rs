//! DragonBones drawn as the official runtime poses it: `sinew render` on the CPU and on the
//! GPU against reference images made without sinew's renderer (testdata/dragonbones/
//! render-ref: the runtime's poses composited with each rig's atlas by `compose.mjs`; its
//! README gives the rules). Every animation of the three shared fixtures at three times
//! (dragon_boy, effect's `skill` and its `sprite` armature, you_xin_body): alpha IoU >= 0.98
//! and PSNR >= 30 dB over grey, child armatures included (effect's `sprite` flip-book inside
//! `skill`'s flower, drawn by `Character::nest`).

use crate::common::images::{have_gpu, similarity};
use serde_json::Value;
use sinew_render::compare::load_rgba;
use std::path::PathBuf;

/// The references and their manifest.
fn manifest() -> (PathBuf, Vec<Value>) {
    let dir = sinew_testutil::workspace_root().join("testdata/dragonbones/render-ref");
    let text = std::fs::read_to_string(dir.join("MANIFEST.json")).expect("render-ref MANIFEST");
    let m: Value = serde_json::from_str(&text).expect("JSON");
    let cases = m["cases"].as_array().cloned().unwrap_or_default();
    assert!(cases.len() >= 48, "{} cases", cases.len());
    (dir, cases)
}

/// Whether the runtime drew a child armature's slots in this case.
fn shows_a_child(case: &Value) -> bool {
    case["drawn"]["childSlots"].as_u64().unwrap_or(0) > 0
}

/// The cases grouped by animation (they share a view and size): one render of all their
/// times per backend, `--times` joined and `--out` a numbered sequence.
fn by_animation(cases: &[Value]) -> Vec<(String, Vec<String>, Vec<&Value>)> {
    let mut groups: Vec<(String, Vec<String>, Vec<&Value>)> = Vec::new();
    for c in cases {
        let args: Vec<String> = c["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(|a| a.as_str().expect("a string").to_owned())
            .collect();
        let at = |flag: &str| args.iter().position(|a| a == flag).expect(flag) + 1;
        let (ti, oi) = (at("--times"), at("--out"));
        let mut key = args.clone();
        key[ti].clear();
        key[oi].clear();
        let key = key.join(" ");
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => {
                g.1[ti] = format!("{},{}", g.1[ti], args[ti]);
                g.2.push(c);
            }
            None => {
                let mut a = args.clone();
                a[oi] = "frame_%04d.png".into();
                groups.push((key, a, vec![c]));
            }
        }
    }
    groups
}

#[test]
fn both_renderers_match_the_official_poses_drawn_independently() {
    let test = "both_renderers_match_the_official_poses_drawn_independently";
    let Some(fx) = sinew_testutil::require_fixtures(test) else {
        return;
    };
    let gpu = have_gpu(test);
    let (refs, cases) = manifest();
    let out = std::env::temp_dir().join(format!("sinew-db-render-{}", std::process::id()));
    let mut report = Vec::new();
    // The child armature's cases are among them (and must stay: they test nesting).
    assert!(cases.iter().filter(|c| shows_a_child(c)).count() >= 2);
    let shown = cases;
    let backends: &[&str] = if gpu { &["cpu", "wgpu"] } else { &["cpu"] };
    for (gi, (_, args, group)) in by_animation(&shown).iter().enumerate() {
        for backend in backends {
            let dir = out.join(format!("{gi}-{backend}"));
            std::fs::create_dir_all(&dir).expect("temp dir");
            let mut a = args.clone();
            let oi = a.iter().position(|x| x == "--out").expect("--out") + 1;
            a[oi] = dir.join(&a[oi]).to_string_lossy().into_owned();
            a.extend(["--backend".into(), (*backend).into()]);
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_sinew"))
                .current_dir(&fx)
                .args(&a)
                .output()
                .expect("the sinew binary runs");
            assert!(
                o.status.success(),
                "sinew {}: {}",
                a.join(" "),
                String::from_utf8_lossy(&o.stderr)
            );
            for (i, c) in group.iter().enumerate() {
                let name = c["name"].as_str().expect("case name");
                let ours = load_rgba(&dir.join(format!("frame_{i:04}.png")))
                    .expect("our PNG")
                    .2;
                let (w, h, theirs) =
                    load_rgba(&refs.join(c["png"].as_str().expect("png"))).expect("reference");
                assert_eq!(
                    ours.len(),
                    theirs.len(),
                    "{name} ({backend}): size, want {w}x{h}"
                );
                let (iou, psnr) = similarity(&ours, &theirs);
                report.push(format!("{name} {backend}: IoU {iou:.4} PSNR {psnr:.1}"));
                assert!(
                    iou >= 0.98 && psnr >= 30.0,
                    "{name} ({backend}): IoU {iou:.4}, PSNR {psnr:.1} dB (want >= 0.98, >= 30)"
                );
            }
        }
    }
    println!("{}", report.join("\n"));
    assert_eq!(
        report.len(),
        shown.len() * backends.len(),
        "every case compared"
    );
}
