//! `sinew view ... --screenshot OUT.png --frames N` under a display (Xvfb through
//! `xvfb-run -a` when `DISPLAY` is unset) on whatever wgpu adapter there is (Mesa's software
//! Vulkan in CI): the character is drawn where the CPU renderer draws it (alpha IoU >= 0.95
//! against `sinew-render` with the same `Character::fit_view` view), the HUD is there, a
//! different `--time` changes the image, and a bad file shows an error and exits 1 without
//! a panic. Skips with a notice when no display or adapter can be had; fails under
//! `CI=true`.

#![cfg(feature = "view")]

use sinew_render::compare::load_rgba;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn out_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("sinew-view-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Runs `sinew view ARGS`, under `xvfb-run -a` when there is no display; `None` when no
/// display can be had.
fn view(args: &[&str]) -> Option<Output> {
    let has_display = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty())
        || std::env::var_os("WAYLAND_DISPLAY").is_some_and(|d| !d.is_empty());
    let bin = env!("CARGO_BIN_EXE_sinew");
    let mut cmd = if has_display {
        Command::new(bin)
    } else if Command::new("xvfb-run")
        .arg("--help")
        .output()
        .is_ok_and(|o| o.status.success() || !o.stdout.is_empty() || !o.stderr.is_empty())
    {
        let mut c = Command::new("xvfb-run");
        c.args(["-a", "-s", "-screen 0 1920x1080x24", bin]);
        c
    } else {
        return None;
    };
    Some(
        cmd.arg("view")
            .args(args)
            .current_dir(root())
            .output()
            .expect("sinew view runs"),
    )
}

/// Skips (or fails under CI) when the viewer cannot run here.
fn unavailable(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true: sinew view cannot run: {why}");
    }
    eprintln!("skipping the sinew view tests: {why}");
}

/// The `sinew view: canvas X,Y WxH; view X0,Y0,X1,Y1` line: canvas `[x, y, w, h]`, view.
fn parse_line(stderr: &str) -> ([u32; 4], [f64; 4]) {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("sinew view: canvas "))
        .unwrap_or_else(|| panic!("no canvas line in: {stderr}"));
    let (canvas, view) = line.split_once("; view ").expect("view part");
    let (pos, size) = canvas.split_once(' ').expect("canvas size");
    let (x, y) = pos.split_once(',').expect("canvas x,y");
    let (w, h) = size.split_once('x').expect("canvas WxH");
    let c = [x, y, w, h].map(|s| s.parse::<f32>().expect("canvas number").round() as u32);
    let v: Vec<f64> = view
        .split(',')
        .map(|s| s.trim().parse().expect("view number"))
        .collect();
    (c, [v[0], v[1], v[2], v[3]])
}

/// CPU render of stickbot's `walk` at `time` into `w x h` with the fitted view, stepped as
/// the viewer steps (update(0), then 1/60 s steps and the rest).
fn cpu_render(time: f64, w: u32, h: u32) -> (Vec<u8>, [f64; 4]) {
    let skel = root().join("examples/stickbot/stickbot.json");
    let atlas = root().join("examples/stickbot/stickbot.atlas");
    let asset = sinew_cli::pose::load(&skel, Some(&atlas), None).expect("stickbot loads");
    let textures = sinew_render::asset_textures(&asset).expect("pages");
    let mut c = asset.character();
    c.set_default_mix(0.2);
    c.set_animation(0, "walk", true).expect("walk");
    c.update(0.0);
    let mut t = 0.0;
    while t + 1.0 / 60.0 <= time {
        c.update(1.0 / 60.0);
        t += 1.0 / 60.0;
    }
    if time > t {
        c.update(time - t);
    }
    let mut canvas = sinew_render::Canvas::new(w, h, sinew::Color::new(0.0, 0.0, 0.0, 0.0));
    let view = sinew_render::CharacterRenderer::new()
        .draw_fitted(&mut c, &textures, &mut canvas, 0.05)
        .expect("something drawn");
    (canvas.to_rgba8(), [view.x0, view.y0, view.x1, view.y1])
}

struct Shot {
    width: u32,
    rgba: Vec<u8>,
    canvas: [u32; 4],
    view: [f64; 4],
}

impl Shot {
    fn px(&self, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * self.width + x) * 4) as usize;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }
}

/// `sinew view stickbot --time T --screenshot`; `None` when the viewer cannot run here.
fn shot(time: &str) -> Option<Shot> {
    let out = out_dir().join(format!("view-{time}.png"));
    let o = view(&[
        "examples/stickbot/stickbot.json",
        "--anim",
        "walk",
        "--time",
        time,
        "--size",
        "900x600",
        "--frames",
        "4",
        // A colour the character does not use, so coverage is told from the background.
        "--background",
        "#ff00ff",
        "--screenshot",
        out.to_str().expect("utf-8 path"),
    ])?;
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    if !o.status.success() {
        if stderr.contains("cannot open the window") || stderr.contains("xvfb-run") {
            unavailable(&format!("the window did not open: {stderr}"));
            return None;
        }
        panic!("sinew view failed: {stderr}");
    }
    let (width, _, rgba) = load_rgba(&out).expect("screenshot written");
    let (canvas, view) = parse_line(&stderr);
    Some(Shot {
        width,
        rgba,
        canvas,
        view,
    })
}

#[test]
fn viewer_draws_what_the_cpu_draws_with_a_hud_and_reports_errors() {
    let Some(a) = shot("0.3") else {
        if view(&[]).is_none() {
            unavailable("no DISPLAY and no xvfb-run");
        }
        return;
    };
    let [cx, cy, cw, ch] = a.canvas;
    let bg = a.px(cx + cw - 2, cy + ch - 2);

    // Same fit as the library's: the viewer's view is `Character::fit_view` of the canvas.
    let (cpu, cpu_view) = cpu_render(0.3, cw, ch);
    let unit = (cpu_view[3] - cpu_view[1]) / f64::from(ch);
    for k in 0..4 {
        assert!(
            (a.view[k] - cpu_view[k]).abs() < unit * 0.01,
            "view {:?} vs fit_view {:?}",
            a.view,
            cpu_view
        );
    }

    // Coverage: screenshot pixels that differ from the background vs CPU alpha; the HUD's
    // band at the top of the canvas is left out.
    let differs = |p: [u8; 4]| (0..3).any(|k| p[k].abs_diff(bg[k]) > 24);
    let (mut inter, mut union, mut drawn) = (0u64, 0u64, 0u64);
    for y in 32..ch {
        for x in 0..cw {
            let g = differs(a.px(cx + x, cy + y));
            let c = cpu[((y * cw + x) * 4 + 3) as usize] > 96;
            inter += u64::from(g && c);
            union += u64::from(g || c);
            drawn += u64::from(c);
        }
    }
    let iou = inter as f64 / union.max(1) as f64;
    eprintln!(
        "sinew view vs CPU: alpha IoU {iou:.4} over {union} px ({drawn} drawn by the CPU), canvas {cw}x{ch}"
    );
    assert!(drawn > 2000, "the CPU render shows the character");
    assert!(iou >= 0.95, "alpha IoU {iou:.4} < 0.95");

    // The HUD: its yellow text in the band at the canvas's top left.
    let mut hud = 0;
    for y in cy..cy + 30 {
        for x in cx..cx + 400.min(cw) {
            let p = a.px(x, y);
            hud += u32::from(p[0] > 200 && p[1] > 180 && p[2] < 140);
        }
    }
    eprintln!("HUD pixels: {hud}");
    assert!(hud > 100, "HUD text missing ({hud} yellow pixels)");

    // Another time, another pose.
    let b = shot("0.7").expect("second run");
    let mut changed = 0;
    for y in 32..ch {
        for x in 0..cw {
            let (p, q) = (a.px(cx + x, cy + y), b.px(cx + x, cy + y));
            changed += u32::from((0..3).any(|k| p[k].abs_diff(q[k]) > 24));
        }
    }
    eprintln!("pixels changed between --time 0.3 and 0.7: {changed}");
    assert!(
        changed > 500,
        "--time does not change the image ({changed} px)"
    );

    // A bad file: an error in the window, exit status 1, no panic.
    let bad = out_dir().join("bad.json");
    std::fs::write(&bad, b"{\"skeleton\": ").expect("write");
    let png = out_dir().join("bad.png");
    let o = view(&[
        bad.to_str().expect("utf-8"),
        "--frames",
        "3",
        "--screenshot",
        png.to_str().expect("utf-8"),
    ])
    .expect("display");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "exit 1 on a bad file: {stderr}");
    assert!(stderr.contains("error:"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The window showed the error (red text) before closing.
    let (w, h, rgba) = load_rgba(&png).expect("error screenshot written");
    let red = rgba
        .chunks_exact(4)
        .filter(|p| p[0] > 200 && p[1] < 150 && p[2] < 150)
        .count();
    eprintln!("error screenshot {w}x{h}: {red} red text pixels");
    assert!(red > 50, "no error text in the window");
}
