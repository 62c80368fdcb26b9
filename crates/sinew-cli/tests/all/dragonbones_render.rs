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

/// The rig of `render-ref/offsets/patch.json` in a temporary directory: the shared
/// dragon_boy fixture with colour transforms (offsets included) on its setup slots and on
/// the 5.0 slot frames of one animation, beside copies of its atlas (`offsets.mjs` patches
/// the same way for the reference).
fn patched_rig(fx: &std::path::Path, patch: &Value, dir: &std::path::Path) -> PathBuf {
    let src = fx
        .join("dragonbones")
        .join(patch["fixture"].as_str().expect("fixture"));
    let mut ske: Value =
        serde_json::from_str(&std::fs::read_to_string(&src).expect("fixture")).expect("JSON");
    let arm = ske["armature"]
        .as_array_mut()
        .expect("armatures")
        .iter_mut()
        .find(|a| a["name"] == patch["armature"])
        .expect("the armature");
    for s in arm["slot"].as_array_mut().expect("slots") {
        let name = s["name"].as_str().unwrap_or_default().to_owned();
        if let Some(c) = patch["setup"].get(&name) {
            s["color"] = c.clone();
        }
    }
    let frames = &patch["frames"];
    let an = arm["animation"]
        .as_array_mut()
        .expect("animations")
        .iter_mut()
        .find(|a| a["name"] == frames["animation"])
        .expect("the animation");
    for st in an["slot"].as_array_mut().expect("slot timelines") {
        let name = st["name"].as_str().unwrap_or_default().to_owned();
        if let Some(colors) = frames["slots"].get(&name).and_then(Value::as_array) {
            for (i, f) in st["frame"]
                .as_array_mut()
                .expect("frames")
                .iter_mut()
                .enumerate()
            {
                f["color"] = colors[i % colors.len()].clone();
            }
        }
    }
    std::fs::create_dir_all(dir).expect("temp dir");
    let base = src.file_name().and_then(|n| n.to_str()).expect("name");
    let base = base.trim_end_matches("_ske.json");
    let ske_path = dir.join(format!("{base}_ske.json"));
    std::fs::write(&ske_path, serde_json::to_string(&ske).expect("JSON")).expect("write");
    for f in [format!("{base}_tex.json"), format!("{base}_tex.png")] {
        std::fs::copy(src.with_file_name(&f), dir.join(&f)).expect("copy the atlas");
    }
    ske_path
}

/// DragonBones colour offsets drawn as the runtime's `colour * multiplier + offset`: setup
/// colours and animated 5.0 slot frames with offsets on dragon_boy, rendered by both
/// renderers against references composited without sinew (`render-ref/offsets.mjs`).
#[test]
fn colour_offsets_draw_as_the_runtime_colours() {
    let test = "colour_offsets_draw_as_the_runtime_colours";
    let Some(fx) = sinew_testutil::require_fixtures(test) else {
        return;
    };
    let gpu = have_gpu(test);
    let refs = sinew_testutil::workspace_root().join("testdata/dragonbones/render-ref/offsets");
    let read = |f: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(refs.join(f)).expect(f)).expect("JSON")
    };
    let (patch, manifest) = (read("patch.json"), read("MANIFEST.json"));
    let out = std::env::temp_dir().join(format!("sinew-db-offsets-{}", std::process::id()));
    let ske = patched_rig(&fx, &patch, &out);
    let cases = manifest["cases"].as_array().expect("cases");
    assert!(cases.len() >= 4, "{} cases", cases.len());
    let backends: &[&str] = if gpu { &["cpu", "wgpu"] } else { &["cpu"] };
    let mut report = Vec::new();
    for c in cases {
        let name = c["name"].as_str().expect("name");
        let view: Vec<String> = c["view"]
            .as_array()
            .expect("view")
            .iter()
            .map(|v| v.to_string())
            .collect();
        for backend in backends {
            let png = out.join(format!("{name}-{backend}.png"));
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_sinew"))
                .arg("render")
                .arg(&ske)
                .args(["--anim", c["animation"].as_str().expect("animation")])
                .args(["--times", &c["time"].to_string(), "--fps", "60"])
                .args(["--size", c["size"].as_str().expect("size")])
                .args(["--view", &view.join(",")])
                .arg("--out")
                .arg(&png)
                .args(["--backend", backend])
                .output()
                .expect("the sinew binary runs");
            assert!(
                o.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let ours = load_rgba(&png).expect("our PNG").2;
            let (w, h, theirs) =
                load_rgba(&refs.join(c["png"].as_str().expect("png"))).expect("reference");
            assert_eq!(ours.len(), theirs.len(), "{name} ({backend}): want {w}x{h}");
            let (iou, psnr) = similarity(&ours, &theirs);
            report.push(format!("{name} {backend}: IoU {iou:.4} PSNR {psnr:.1}"));
            assert!(
                iou >= 0.98 && psnr >= 30.0,
                "{name} ({backend}): IoU {iou:.4}, PSNR {psnr:.1} dB (want >= 0.98, >= 30)"
            );
        }
    }
    println!("{}", report.join("\n"));
    let _ = std::fs::remove_dir_all(&out);
}
