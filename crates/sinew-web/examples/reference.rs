//! The browser test's references: each case posed by the same [`Player`] code the wasm
//! module runs (loaded through the same fetch loop, sought to the same time) and drawn by
//! sinew-render, the CPU renderer; plus the native per-frame cost the web figures are
//! compared with.
//!
//! `cargo run --release -p sinew-web --example reference -- OUT_DIR` writes
//! `OUT_DIR/refs.json` (each case: files relative to the served root, animation, time,
//! view, size, PNG) and the PNGs; with the shared fixtures missing only sinew's own
//! examples are written. It prints the native frame cost of spineboy as one JSON line.

use sinew_render::{
    Canvas, CharacterRenderer, MaskedRenderer, View, asset_textures, encode::encode_png,
};
use sinew_web::frame::BLEND_MODES;
use sinew_web::{Host, Loaded, Player};
use std::path::{Path, PathBuf};
use std::time::Instant;

const SIZE: u32 = 400;

struct Case {
    name: &'static str,
    /// Served as `<root>/<file>`: `examples/...`, `testdata/...` or `fixtures/...`.
    file: &'static str,
    anim: &'static str,
    time: f64,
}

const CASES: &[Case] = &[
    Case {
        name: "spineboy-run",
        file: "fixtures/spine/spineboy/spineboy-pro.json",
        anim: "run",
        time: 0.5,
    },
    Case {
        name: "spineboy-skel",
        file: "fixtures/spine/spineboy/spineboy-pro.skel",
        anim: "walk",
        time: 0.3,
    },
    Case {
        name: "dragon-boy",
        file: "fixtures/dragonbones/dragon_boy/dragon_boy_ske.json",
        anim: "",
        time: 0.4,
    },
    Case {
        name: "face-idle",
        file: "examples/face/face.inp",
        anim: "idle",
        time: 1.3,
    },
    Case {
        name: "stickbot-walk",
        file: "examples/stickbot/stickbot.json",
        anim: "walk",
        time: 0.4,
    },
    // Tint black on 52 slots, additive and multiply slots, a clipping polygon.
    Case {
        name: "tank-drive",
        file: "fixtures/spine/tank/tank-pro.json",
        anim: "drive",
        time: 1.0,
    },
    // Multiply slots and physics constraints.
    Case {
        name: "celestial-circus-swing",
        file: "fixtures/spine/celestial-circus/celestial-circus-pro.json",
        anim: "swing",
        time: 0.7,
    },
    // Spine 4.3 clipping: a plain clip, a concave one with `convex` (its hull) and an
    // `inverse` one (what lies outside its hull), untextured (no atlas).
    Case {
        name: "clip-lab-move",
        file: "testdata/spine43/clip-lab.json",
        anim: "move",
        time: 0.45,
    },
    // An Inochi2D composite (an off-screen group) and a mask.
    Case {
        name: "inx-groups",
        file: "fixtures/inochi2d/synthetic_inx_groups.inx",
        anim: "",
        time: 0.0,
    },
];

fn root_of(file: &str) -> Option<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match file.strip_prefix("fixtures/") {
        Some(rest) => sinew_testutil::fixtures_dir().map(|d| d.join(rest)),
        None => Some(repo.join(file)),
    }
}

/// Loads `path` as the page does: the main file, then each companion the loader names.
fn load(path: &Path) -> Result<Player, String> {
    let dir = path.parent().ok_or("no folder")?;
    let name = path
        .file_name()
        .ok_or("no name")?
        .to_string_lossy()
        .into_owned();
    let mut host = Host::default();
    host.add_file(&name, std::fs::read(path).ok());
    for _ in 0..8 {
        match host.load(&name, None, None) {
            Loaded::Needs(names) => {
                for n in names {
                    host.add_file(&n, std::fs::read(dir.join(&n)).ok());
                }
            }
            Loaded::Player(id) => return host.take(id).ok_or_else(|| "no player".into()),
            Loaded::Failed(e) => return Err(e),
        }
    }
    Err("the fetch loop did not end".into())
}

/// renderer.js's `fit`: the box whole in a `w` x `h` canvas, 5% padded on each side.
fn fit(b: [f64; 4], w: f64, h: f64) -> [f64; 4] {
    let bw = (b[2] - b[0]).max(1e-6) * 1.1;
    let bh = (b[3] - b[1]).max(1e-6) * 1.1;
    let s = (w / bw).min(h / bh);
    let (cx, cy) = ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
    let (hw, hh) = (w / s / 2.0, h / s / 2.0);
    [cx - hw, cy - hh, cx + hw, cy + hh]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).ok_or("usage: reference OUT_DIR")?);
    std::fs::create_dir_all(&out)?;
    let mut refs = Vec::new();
    for case in CASES {
        let Some(path) = root_of(case.file).filter(|p| p.is_file()) else {
            eprintln!("skipping {}: {} not found", case.name, case.file);
            continue;
        };
        let mut p = load(&path)?;
        let anim = (!case.anim.is_empty()).then_some(case.anim);
        let anim = match anim {
            Some(a) => Some(a.to_owned()),
            None => p
                .character_mut()
                .rig()
                .clips
                .first()
                .map(|c| c.name.clone()),
        };
        p.play(anim.as_deref(), true)?;
        let view = fit(
            p.clip_bounds().ok_or("draws nothing")?,
            f64::from(SIZE),
            f64::from(SIZE),
        );
        p.seek(case.time);
        let textures = asset_textures(p.asset())?;
        let mut canvas = Canvas::new(SIZE, SIZE, sinew::Color::new(0.0, 0.0, 0.0, 0.0));
        let v = View {
            x0: view[0],
            y0: view[1],
            x1: view[2],
            y1: view[3],
        };
        CharacterRenderer::new().draw(p.character_mut(), &textures, &v, &mut canvas);
        let png = format!("{}.png", case.name);
        std::fs::write(out.join(&png), encode_png(SIZE, SIZE, &canvas.to_rgba8())?)?;
        refs.push(serde_json::json!({
            "name": case.name, "src": case.file, "animation": anim, "time": case.time,
            "view": view, "size": SIZE, "png": png,
        }));
    }
    // Every blend mode: stickbot's commands all drawn in one mode over an opaque
    // background (the page sets the same override on its renderer), so each mode blends
    // with the background and with the parts below.
    let stickbot = root_of("examples/stickbot/stickbot.json").ok_or("no stickbot")?;
    let mut p = load(&stickbot)?;
    p.play(Some("walk"), true)?;
    let view = fit(
        p.clip_bounds().ok_or("draws nothing")?,
        f64::from(SIZE),
        f64::from(SIZE),
    );
    p.seek(0.4);
    let textures = asset_textures(p.asset())?;
    let background = [0.25f32, 0.5, 0.75, 1.0];
    let v = View {
        x0: view[0],
        y0: view[1],
        x1: view[2],
        y1: view[3],
    };
    for (n, mode) in BLEND_MODES.iter().enumerate().skip(1) {
        let (list, setup) = p.character_mut().draw_list_and_setup();
        let mut list = list.clone();
        for c in &mut list.commands {
            c.blend = *mode;
        }
        let [r, g, b, a] = background;
        let mut canvas = Canvas::new(SIZE, SIZE, sinew::Color::new(r, g, b, a));
        MaskedRenderer::new().render_grouped(
            &list,
            &textures,
            &setup.slot_masks,
            &setup.group_masks,
            &v,
            &mut canvas,
        );
        let name = format!("blend-{n}-{mode:?}").to_lowercase();
        let png = format!("{name}.png");
        std::fs::write(out.join(&png), encode_png(SIZE, SIZE, &canvas.to_rgba8())?)?;
        refs.push(serde_json::json!({
            "name": name, "src": "examples/stickbot/stickbot.json", "animation": "walk",
            "time": 0.4, "view": view, "size": SIZE, "png": png, "blend": n,
            "background": background,
        }));
    }
    std::fs::write(out.join("refs.json"), serde_json::to_string_pretty(&refs)?)?;
    if let Some(path) = root_of(CASES[0].file).filter(|p| p.is_file()) {
        let mut p = load(&path)?;
        p.play(Some("run"), true)?;
        let frames = 600;
        let t = Instant::now();
        for _ in 0..frames {
            p.update(1.0 / 60.0);
        }
        let update = t.elapsed().as_secs_f64() * 1e6 / f64::from(frames);
        let t = Instant::now();
        for _ in 0..frames {
            p.update(1.0 / 60.0);
            p.build_frame();
        }
        let both = t.elapsed().as_secs_f64() * 1e6 / f64::from(frames);
        println!(
            "{}",
            serde_json::json!({ "native_spineboy_run_us": { "update": update, "update_and_frame": both,
                "profile": if cfg!(debug_assertions) { "debug" } else { "release" } } })
        );
    }
    Ok(())
}
