//! The CLI on DragonBones exports (`*_ske.json` + `*_tex.json` + page image): `info`,
//! `validate` and `render` accept them, told from the content (a copy without the usual
//! name still loads), and render draws through the atlas the tex file describes; `dump`
//! prints the oracle's schema with `--tex`, `--armature`, `--mode goto` and `--y-up`.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn sinew(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sinew"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `sinew dump ARGS` as JSON (the command must succeed).
fn dump(args: &[&str]) -> Value {
    let o = sinew(&[&["dump"], args].concat());
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn dragon_boy(test: &str) -> Option<PathBuf> {
    let dir = sinew_testutil::require_fixtures(test)?.join("dragonbones/dragon_boy");
    let p = dir.join("dragon_boy_ske.json");
    p.is_file().then_some(p)
}

/// A bone of a dumped frame by name.
fn bone<'a>(frame: &'a Value, name: &str) -> &'a Value {
    frame["bones"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap()
}

#[test]
fn dump_goto_and_y_up_match_the_runtime_on_a_synthetic_rig() {
    let dir = sinew_testutil::workspace_root().join("testdata/dragonbones");
    let ske = dir.join("wrap55_ske.json");
    let s = ske.to_str().unwrap();
    let golden: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("wrap55__loop_goto.json")).unwrap())
            .unwrap();
    // 1.575 s lies in the last key's span: goto holds it where play would tween back.
    let want = golden["frames"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["time"] == 1.575)
        .unwrap();
    let args = ["--anim", "loop", "--times", "1.575", "--mode", "goto"];
    let down = dump(&[&[s], &args[..]].concat());
    let up = dump(&[&[s], &args[..], &["--y-up"]].concat());
    let play = dump(&[s, "--anim", "loop", "--times", "1.575"]);
    assert_eq!(down["meta"]["mode"], "goto");
    assert_eq!(
        (down["meta"]["yDown"].clone(), up["meta"]["yDown"].clone()),
        (true.into(), false.into())
    );
    let (d, u, p) = (&down["frames"][0], &up["frames"][0], &play["frames"][0]);
    for name in ["arm", "hand", "tail"] {
        let (g, d, u) = (bone(want, name), bone(d, name), bone(u, name));
        for k in ["a", "b", "c", "d", "worldX", "worldY"] {
            let (gv, dv, uv) = (
                g[k].as_f64().unwrap(),
                d[k].as_f64().unwrap(),
                u[k].as_f64().unwrap(),
            );
            assert!((gv - dv).abs() < 1e-3, "{name}.{k}: {dv} want {gv}");
            // y up: F * M, so c, d and worldY change sign.
            let sign = if matches!(k, "c" | "d" | "worldY") {
                -1.0
            } else {
                1.0
            };
            assert!((uv - sign * dv).abs() < 1e-9, "{name}.{k}: {uv} vs {dv}");
        }
    }
    // Play mode tweens the last key back toward the first: a different pose.
    let pa = bone(p, "arm")["a"].as_f64().unwrap();
    assert!((pa - bone(d, "arm")["a"].as_f64().unwrap()).abs() > 1e-2);
    // Slots: colour multipliers and displays as the golden, events only in play mode.
    for (ds, gs) in d["slots"]
        .as_array()
        .unwrap()
        .iter()
        .zip(want["slots"].as_array().unwrap())
    {
        assert_eq!(ds["slot"], gs["slot"]);
        assert_eq!(ds["display"], gs["display"]);
        let (dc, gc) = (
            ds["color"].as_array().unwrap(),
            gs["color"].as_array().unwrap(),
        );
        for (a, b) in dc.iter().zip(gc) {
            assert!(
                (a.as_f64().unwrap() - b.as_f64().unwrap()).abs() < 1e-3,
                "{ds}"
            );
        }
    }
    assert!(d.get("events").is_none() && p["events"].is_array());
    // A missing armature names the ones there are.
    let o = sinew(&["dump", s, "--armature", "nope", "--times", "0"]);
    assert!(
        !o.status.success() && text(&o).contains("have: wrap"),
        "{}",
        text(&o)
    );
}

#[test]
fn dump_reads_tex_and_armature_options() {
    let Some(dir) = sinew_testutil::require_fixtures("dump_reads_tex_and_armature_options") else {
        return;
    };
    let dir = dir.join("dragonbones/effect");
    let ske = dir.join("effect_ske.json");
    let tex = dir.join("effect_tex.json");
    let (s, t) = (ske.to_str().unwrap(), tex.to_str().unwrap());
    // The sibling tex file is found; `--tex` names it explicitly; same numbers.
    let args = [
        "--armature",
        "sprite",
        "--anim",
        "sprite",
        "--times",
        "0.35",
    ];
    let own = dump(&[&[s], &args[..]].concat());
    let named = dump(&[&[s, "--tex", t], &args[..]].concat());
    assert_eq!(own["frames"], named["frames"]);
    assert_eq!(own["meta"]["armature"], "sprite");
    let slot = &own["frames"][0]["slots"][0];
    assert_eq!(slot["display"], "1 (4)");
    assert_eq!(slot["vertices"].as_array().map(Vec::len), Some(8));
    // A copy without its tex file: images have no size (a quad of one point).
    let tmp = std::env::temp_dir().join(format!("sinew-db-dump-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let copy = tmp.join("effect_ske.json");
    std::fs::copy(&ske, &copy).unwrap();
    let bare = dump(&[&[copy.to_str().unwrap()], &args[..]].concat());
    let v: Vec<f64> = bare["frames"][0]["slots"][0]["vertices"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    assert!(v.chunks(2).all(|p| p == &v[..2]), "{bare}");
    std::fs::remove_dir_all(&tmp).ok();
    // The default armature is the first (`flower`); its `sprite` slot shows the child
    // armature at 1.65 s, posed on its own clock.
    let flower = dump(&[s, "--anim", "skill", "--times", "1.65833"]);
    assert_eq!(flower["meta"]["armature"], "flower");
    let sprite = flower["frames"][0]["slots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["slot"] == "sprite")
        .unwrap();
    assert_eq!(sprite["child"]["armature"], "sprite");
    assert_eq!(sprite["child"]["slots"][0]["display"], "1 (10)");
}

#[test]
fn info_validate_and_render_read_a_dragonbones_skeleton() {
    let Some(ske) = dragon_boy("info_validate_and_render_read_a_dragonbones_skeleton") else {
        return;
    };
    let s = ske.to_str().unwrap();
    let o = sinew(&["validate", s]);
    assert!(
        o.status.success() && text(&o).contains("DragonBones 5.0, 19 bones, 18 slots"),
        "{}",
        text(&o)
    );
    let o = sinew(&["info", s]);
    assert!(
        o.status.success() && text(&o).contains(": DragonBones 5.0"),
        "{}",
        text(&o)
    );
    let o = sinew(&["info", s, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "dragonbones");
    assert_eq!(v["counts"]["animations"], 4.0);
    // Content, not the name: a copy called `.data` is still DragonBones.
    let dir = std::env::temp_dir().join(format!("sinew-db-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("boy.data");
    std::fs::copy(&ske, &copy).unwrap();
    let o = sinew(&["info", copy.to_str().unwrap()]);
    assert!(text(&o).contains(": DragonBones 5.0"), "{}", text(&o));
    // Render: textured through the sibling tex file; `--atlas none` also renders.
    let mut opaque = Vec::new();
    for atlas in [None, Some("none")] {
        let out = dir.join(format!("walk-{}.png", atlas.is_some()));
        let mut args = vec!["render", s, "--anim", "walk", "--size", "64x64"];
        args.extend(["--out", out.to_str().unwrap()]);
        if let Some(a) = atlas {
            args.extend(["--atlas", a]);
        }
        let o = sinew(&args);
        assert!(o.status.success(), "{}", text(&o));
        let img = sinew_render::Texture::load(&out, false).unwrap();
        let px: Vec<&[u8]> = img.texels.chunks_exact(4).collect();
        opaque.push(px.iter().filter(|p| p[3] > 0).count());
        // The textured frame has colours the slot-colour fallback does not (the boy is green).
        if atlas.is_none() {
            assert!(
                px.iter()
                    .any(|p| p[3] > 200 && u16::from(p[1]) > u16::from(p[0]) + 40),
                "no green"
            );
        }
    }
    // Without the tex file images have no size (as in the runtime), so only meshes would
    // show; the dragon boy has none.
    assert!(opaque[0] > 200 && opaque[1] == 0, "{opaque:?}");
    std::fs::remove_dir_all(&dir).ok();
    // Bench: the same report as for Spine; options that don't apply are refused.
    let bench = [
        "bench",
        s,
        "--anim",
        "walk",
        "--instances",
        "3",
        "--frames",
        "4",
    ];
    let o = sinew(&bench);
    assert!(o.status.success(), "{}", text(&o));
    let last = String::from_utf8_lossy(&o.stdout)
        .trim_end()
        .lines()
        .last()
        .unwrap_or_default()
        .to_owned();
    let v: serde_json::Value = serde_json::from_str(&last).expect("a JSON line");
    assert!(v["us_per_skeleton_frame"].is_number(), "{last}");
    assert!(
        v["vertices_per_frame"].as_f64().is_some_and(|x| x > 0.0),
        "{last}"
    );
    let o = sinew(&[&bench[..], &["--extras", s]].concat());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("--extras does not apply"), "{}", text(&o));
}
