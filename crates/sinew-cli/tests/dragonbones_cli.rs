//! The CLI on DragonBones exports (`*_ske.json` + `*_tex.json` + page image): `info`,
//! `validate` and `render` accept them, told from the content (a copy without the usual
//! name still loads), and render draws through the atlas the tex file describes.
#![allow(clippy::unwrap_used)]

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

fn dragon_boy(test: &str) -> Option<PathBuf> {
    let dir = sinew_testutil::require_fixtures(test)?.join("dragonbones/dragon_boy");
    let p = dir.join("dragon_boy_ske.json");
    p.is_file().then_some(p)
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
