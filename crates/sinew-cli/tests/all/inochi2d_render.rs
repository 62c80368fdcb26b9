//! `sinew render` on the shared Inochi2D fixtures, in-process: every synthetic puppet renders,
//! its opaque pixels lie inside the projection of its parts' vertices (from `sinew dump`), a
//! sweep makes an animated GIF, and masks hide what lies outside their sources.

use clap::Parser;
use sinew_cli::args::Cli;
use sinew_render::Texture;
use std::path::{Path, PathBuf};

fn run(args: &[&str]) -> anyhow::Result<String> {
    let cli = Cli::try_parse_from(std::iter::once("sinew").chain(args.iter().copied()))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    sinew_cli::run_guarded(&cli)
}

fn out_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("sinew-inochi-render-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Pixel-space bounding boxes (y down) of every shown part, for a `size`-pixel square view
/// `[x0, y0, x1, y1]` (y up) of the puppet posed like `render` poses it.
fn part_boxes(puppet: &str, view: [f64; 4], size: f64) -> Vec<(String, [f64; 4])> {
    let dump: serde_json::Value =
        serde_json::from_str(&run(&["dump", puppet, "--times", "0"]).expect("dump")).expect("json");
    let mut boxes = Vec::new();
    for s in dump["frames"][0]["slots"].as_array().expect("slots") {
        let Some(v) = s["vertices"].as_array() else {
            continue;
        };
        let mut b = [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ];
        for p in v.chunks_exact(2) {
            let (x, y) = (p[0].as_f64().expect("x"), -p[1].as_f64().expect("y"));
            let px = (x - view[0]) / (view[2] - view[0]) * size;
            let py = (view[3] - y) / (view[3] - view[1]) * size;
            b = [b[0].min(px), b[1].min(py), b[2].max(px), b[3].max(py)];
        }
        if b[0] <= b[2] {
            boxes.push((s["slot"].as_str().unwrap_or("").to_owned(), b));
        }
    }
    boxes
}

/// The view `render` would pick for a square: all parts' bounds, squared and padded.
/// Renders `puppet` at 128x128 over synthetic_tiny's view (-600,-650 .. 600,550) to `out`
/// and decodes the result.
fn render_tiny_view(puppet: &str, out: &Path) -> Texture {
    run(&[
        "render",
        puppet,
        "--view",
        "-600,-650,600,550",
        "--size",
        "128x128",
        "--out",
        out.to_str().expect("utf-8"),
    ])
    .expect("render");
    Texture::load(out, false).expect("decode")
}

fn square_view(boxes_world: &[[f64; 4]]) -> [f64; 4] {
    let mut b = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    for q in boxes_world {
        b = [
            b[0].min(q[0]),
            b[1].min(q[1]),
            b[2].max(q[2]),
            b[3].max(q[3]),
        ];
    }
    let (cx, cy) = ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
    let r = 0.55 * (b[2] - b[0]).max(b[3] - b[1]);
    [cx - r, cy - r, cx + r, cy + r]
}

fn check_puppet(path: &Path, dir: &Path) -> usize {
    let name = path
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let p = path.to_str().expect("utf-8 path");
    // World bounds first (a unit view leaves pixel = world).
    let world = part_boxes(p, [0.0, 0.0, 1.0, 1.0], 1.0);
    let world: Vec<[f64; 4]> = world
        .iter()
        .map(|(_, b)| [b[0], -b[3] + 1.0, b[2], -b[1] + 1.0])
        .collect();
    let view = square_view(&world);
    let size = 128.0;
    let boxes = part_boxes(p, view, size);
    let out = dir.join(format!("{name}.png"));
    let vs = format!("{},{},{},{}", view[0], view[1], view[2], view[3]);
    run(&[
        "render",
        p,
        "--view",
        &vs,
        "--size",
        "128x128",
        "--out",
        out.to_str().expect("utf-8"),
    ])
    .unwrap_or_else(|e| panic!("{name}: {e:#}"));
    let img = Texture::load(&out, false).expect("decode output");
    assert_eq!((img.width, img.height), (128, 128));
    let mut opaque = 0;
    for y in 0..128 {
        for x in 0..128 {
            if img.texel(x, y)[3] < 0.5 {
                continue;
            }
            opaque += 1;
            let (cx, cy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            let inside = boxes.iter().any(|(_, b)| {
                cx >= b[0] - 1.0 && cx <= b[2] + 1.0 && cy >= b[1] - 1.0 && cy <= b[3] + 1.0
            });
            assert!(
                inside,
                "{name}: opaque pixel ({x}, {y}) outside every part {boxes:?}"
            );
        }
    }
    assert!(opaque > 0, "{name}: nothing drawn");
    opaque
}

#[test]
fn every_synthetic_puppet_renders_inside_its_parts() {
    let Some(dir) =
        sinew_testutil::require_fixtures("every_synthetic_puppet_renders_inside_its_parts")
    else {
        return;
    };
    let out = out_dir();
    let mut n = 0;
    for e in std::fs::read_dir(dir.join("inochi2d")).expect("fixture dir") {
        let path = e.expect("entry").path();
        let ext = path.extension().and_then(|x| x.to_str()).unwrap_or("");
        if ext == "inp" || ext == "inx" {
            check_puppet(&path, &out);
            n += 1;
        }
    }
    assert!(n >= 4, "expected the synthetic puppets, found {n}");
}

#[test]
fn mask_hides_content_outside_its_source() {
    let Some(dir) = sinew_testutil::require_fixtures("mask_hides_content_outside_its_source")
    else {
        return;
    };
    // synthetic_tiny: Part001 is masked by Part000, which it does not overlap at rest, so only
    // Part000 and Part002 show: no opaque pixel lies in Part001's box away from the others.
    let tiny = dir.join("inochi2d/synthetic_tiny.inp");
    let p = tiny.to_str().expect("utf-8 path");
    let view = [-600.0, -650.0, 600.0, 550.0];
    let boxes = part_boxes(p, view, 128.0);
    assert_eq!(boxes.len(), 3);
    let out = out_dir().join("tiny_mask.png");
    let img = render_tiny_view(p, &out);
    let find = |n: &str| boxes.iter().find(|(m, _)| m == n).expect("part").1;
    let b = find("Part001");
    let mut shown = 0;
    for y in b[1].ceil() as i32..b[3].floor() as i32 {
        for x in b[0].ceil() as i32..b[2].floor() as i32 {
            if img.texel(x, y)[3] > 0.0 {
                shown += 1;
            }
        }
    }
    let a = find("Part000");
    let mut first = 0;
    for y in a[1].ceil() as i32..a[3].floor() as i32 {
        for x in a[0].ceil() as i32..a[2].floor() as i32 {
            if img.texel(x, y)[3] > 0.5 {
                first += 1;
            }
        }
    }
    assert_eq!(shown, 0, "masked part drew outside its mask");
    assert!(first > 10, "the mask source itself draws");
}

#[test]
fn sweep_makes_an_animated_gif() {
    let Some(dir) = sinew_testutil::require_fixtures("sweep_makes_an_animated_gif") else {
        return;
    };
    let tiny = dir.join("inochi2d/synthetic_tiny.inp");
    let out = out_dir().join("sweep.gif");
    let msg = run(&[
        "render",
        tiny.to_str().expect("utf-8"),
        "--sweep",
        "Param2D_00",
        "--duration",
        "0.5",
        "--fps",
        "10",
        "--size",
        "64x64",
        "--out",
        out.to_str().expect("utf-8"),
    ])
    .expect("render sweep");
    assert!(msg.contains("5 frames"), "{msg}");
    assert_eq!(sinew_render::encode::frame_count(&out).expect("gif"), 5);
    let e = run(&[
        "render",
        tiny.to_str().expect("utf-8"),
        "--sweep",
        "Nope",
        "--out",
        "/tmp/x.gif",
    ])
    .expect_err("unknown parameter");
    assert!(
        format!("{e:#}").contains("parameter not found: Nope"),
        "{e:#}"
    );
}

#[test]
fn dodge_mask_keeps_content_outside_its_source() {
    let Some(dir) = sinew_testutil::require_fixtures("dodge_mask_keeps_content_outside_its_source")
    else {
        return;
    };
    // synthetic_tiny with Part001's mask turned into a dodge mask: Part001 lies wholly outside
    // Part000, so it now shows.
    let bytes = std::fs::read(dir.join("inochi2d/synthetic_tiny.inp")).expect("read");
    let c = sinew_formats::inochi2d::read_container(&bytes, "tiny").expect("container");
    let json = String::from_utf8(c.json.to_vec()).expect("utf-8");
    assert!(json.contains("\"mode\":\"Mask\"") || json.contains("\"mode\": \"Mask\""));
    let json = json
        .replace("\"mode\":\"Mask\"", "\"mode\":\"DodgeMask\"")
        .replace("\"mode\": \"Mask\"", "\"mode\": \"DodgeMask\"");
    let out = out_dir();
    let puppet = out.join("tiny_dodge.inp");
    std::fs::write(
        &puppet,
        sinew_formats::inochi2d::container::write_container(json.as_bytes(), &c.textures, &c.ext),
    )
    .expect("write");
    let p = puppet.to_str().expect("utf-8");
    let boxes = part_boxes(p, [-600.0, -650.0, 600.0, 550.0], 128.0);
    let png = out.join("tiny_dodge.png");
    let img = render_tiny_view(p, &png);
    let b = boxes
        .iter()
        .find(|(m, _)| m == "Part001")
        .expect("Part001")
        .1;
    let (cx, cy) = (((b[0] + b[2]) / 2.0) as i32, ((b[1] + b[3]) / 2.0) as i32);
    assert!(
        img.texel(cx, cy)[3] > 0.99,
        "dodged part hidden at its centre"
    );
}
