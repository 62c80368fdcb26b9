//! `sinew view ... --screenshot OUT.png --frames N` under a display (Xvfb through
//! `xvfb-run -a` when `DISPLAY` is unset) on whatever wgpu adapter there is (Mesa's software
//! Vulkan in CI): the character is drawn where the CPU renderer draws it (alpha IoU >= 0.95
//! against `sinew-render` with the same `Character::fit_view` view), the HUD is there, a
//! different `--time` changes the image, and a bad file shows an error and exits 1 without
//! a panic. The overlays (`--overlay wireframe`, `clipping`, `cages` with `--cage SLOT`)
//! change pixels only along the geometry they show (the draw list's triangle edges and
//! clip polygons, the caged mesh's boundary, placed with the printed view), and a 2D
//! parameter set with `--param NAME=X,Y` changes the puppet. Stickbot's sibling
//! `stickbot.extras.json` is loaded (its jiggle and follow move the hair and cape against a
//! run with an empty `--extras`), `--physics3` loads with a puppet, and both are refused for
//! the other formats. Skips with a notice when no display or adapter can be had; fails under
//! `CI=true`.

#![cfg(feature = "view")]

use sinew_render::compare::load_rgba;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub(crate) fn out_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("sinew-view-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Runs `sinew view ARGS` in the workspace root, under `xvfb-run -a` when there is no
/// display; `None` when no display can be had.
fn view(args: &[&str]) -> Option<Output> {
    view_in(&root(), args)
}

/// [`view`] run in `dir`.
pub(crate) fn view_in(dir: &Path, args: &[&str]) -> Option<Output> {
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
            .current_dir(dir)
            .output()
            .expect("sinew view runs"),
    )
}

/// Skips (or fails under CI) when the viewer cannot run here.
pub(crate) fn unavailable(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true: sinew view cannot run: {why}");
    }
    eprintln!("skipping the sinew view tests: {why}");
}

/// The `sinew view: canvas X,Y WxH; view X0,Y0,X1,Y1` line: canvas `[x, y, w, h]`, view.
pub(crate) fn parse_line(stderr: &str) -> ([u32; 4], [f64; 4]) {
    parse_line_of(stderr, "sinew view: canvas ")
}

/// The rectangle and view of the line starting with `prefix` (`sinew view: canvas ` or,
/// for `--beside`, `sinew view: beside `).
fn parse_line_of(stderr: &str, prefix: &str) -> ([u32; 4], [f64; 4]) {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` line in: {stderr}"));
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

/// Stickbot with its rig extras (`stickbot.extras.json`, which the viewer loads from beside
/// the skeleton).
fn stickbot_asset() -> sinew_formats::Asset {
    let skel = root().join("examples/stickbot/stickbot.json");
    let atlas = root().join("examples/stickbot/stickbot.atlas");
    let extras = root().join("examples/stickbot/stickbot.extras.json");
    sinew_cli::pose::load(
        &sinew_formats::budget::Budgets::DEFAULT,
        &skel,
        Some(&atlas),
        Some(&extras),
    )
    .expect("stickbot loads")
}

/// CPU render of stickbot's `walk` at `time` into `w x h` with the fitted view, stepped as
/// the viewer steps (update(0), then 1/60 s steps and the rest).
fn cpu_render(time: f64, w: u32, h: u32) -> (Vec<u8>, [f64; 4]) {
    let asset = stickbot_asset();
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

pub(crate) struct Shot {
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
    shot_of(
        "examples/stickbot/stickbot.json",
        &["--anim", "walk", "--time", time],
        time,
    )
}

/// `sinew view FILE EXTRA... --screenshot` in a 1240x600 window (a 635x584 canvas beside
/// the side panel and, for a rig with extras or a cage, the rig panel) on a `#ff00ff` background
/// (a colour the characters do not use, so coverage is told from the background); `None`
/// when the viewer cannot run here.
pub(crate) fn shot_of(file: &str, extra: &[&str], tag: &str) -> Option<Shot> {
    let out = out_dir().join(format!("view-{tag}.png"));
    let mut args = vec![file];
    args.extend_from_slice(extra);
    args.extend_from_slice(&[
        "--size",
        "1240x600",
        "--frames",
        "4",
        "--background",
        "#ff00ff",
        "--screenshot",
        out.to_str().expect("utf-8 path"),
    ]);
    let o = view(&args)?;
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    if !o.status.success() {
        if stderr.contains("cannot open the window") || stderr.contains("xvfb-run") {
            unavailable(&format!("the window did not open: {stderr}"));
            return None;
        }
        panic!("sinew view {args:?} failed: {stderr}");
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

/// Canvas pixels (below the HUD band) where `b` differs from `a` by more than 24 in a
/// channel, as canvas-relative `(x, y)`.
fn changed_pixels(a: &Shot, b: &Shot) -> Vec<(u32, u32)> {
    assert_eq!(a.canvas, b.canvas, "same canvas");
    let [cx, cy, cw, ch] = a.canvas;
    let mut out = Vec::new();
    for y in 32..ch {
        for x in 0..cw {
            let (p, q) = (a.px(cx + x, cy + y), b.px(cx + x, cy + y));
            if (0..3).any(|k| p[k].abs_diff(q[k]) > 24) {
                out.push((x, y));
            }
        }
    }
    out
}

/// Canvas pixels within `radius` of the world segments `segs` (x0, y0, x1, y1; y up),
/// placed with the shot's view.
struct Near {
    w: u32,
    mask: Vec<bool>,
}

impl Near {
    fn new(shot: &Shot, segs: &[[f32; 4]], radius: f64) -> Near {
        let [_, _, cw, ch] = shot.canvas;
        let v = shot.view;
        let to_px = |x: f32, y: f32| {
            (
                (f64::from(x) - v[0]) / (v[2] - v[0]) * f64::from(cw),
                (v[3] - f64::from(y)) / (v[3] - v[1]) * f64::from(ch),
            )
        };
        let mut mask = vec![false; (cw * ch) as usize];
        let r = radius.ceil() as i64;
        for s in segs {
            let (a, b) = (to_px(s[0], s[1]), to_px(s[2], s[3]));
            let steps = ((b.0 - a.0).hypot(b.1 - a.1).ceil() as usize).max(1);
            for k in 0..=steps {
                let t = k as f64 / steps as f64;
                let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
                for dy in -r..=r {
                    for dx in -r..=r {
                        let (px, py) = (x.floor() as i64 + dx, y.floor() as i64 + dy);
                        let (fx, fy) = (px as f64 + 0.5 - x, py as f64 + 0.5 - y);
                        if px >= 0
                            && py >= 0
                            && px < i64::from(cw)
                            && py < i64::from(ch)
                            && fx.hypot(fy) <= radius
                        {
                            mask[(py as u32 * cw + px as u32) as usize] = true;
                        }
                    }
                }
            }
        }
        Near { w: cw, mask }
    }

    fn has(&self, (x, y): (u32, u32)) -> bool {
        self.mask[(y * self.w + x) as usize]
    }
}

/// Stickbot's `walk` at `time` posed as the viewer poses it (see [`cpu_render`]).
fn stickbot_at(time: f64) -> sinew::Character {
    walk_at(&stickbot_asset(), time)
}

/// An asset's character playing `walk` at `time`, stepped as the viewer steps it.
pub(crate) fn walk_at(asset: &sinew_formats::Asset, time: f64) -> sinew::Character {
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
    c
}

/// The edges of a closed polygon of x, y pairs.
fn loop_edges(points: &[f32], out: &mut Vec<[f32; 4]>) {
    let n = points.len() / 2;
    for i in 0..n {
        let j = (i + 1) % n;
        out.push([
            points[2 * i],
            points[2 * i + 1],
            points[2 * j],
            points[2 * j + 1],
        ]);
    }
}

/// Checks that the overlay shot `b` differs from the plain shot `a` in more than
/// `min_changed` pixels, nearly all of them (>= 97%) near `segs`; returns the count.
pub(crate) fn overlay_where_expected(
    name: &str,
    a: &Shot,
    b: &Shot,
    segs: &[[f32; 4]],
    radius: f64,
    min_changed: usize,
) -> usize {
    let changed = changed_pixels(a, b);
    let near = Near::new(b, segs, radius);
    let inside = changed.iter().filter(|p| near.has(**p)).count();
    let share = inside as f64 / changed.len().max(1) as f64;
    eprintln!(
        "--overlay {name}: {} px changed, {:.1}% within {radius} px of its {} segments",
        changed.len(),
        share * 100.0,
        segs.len()
    );
    assert!(
        changed.len() > min_changed,
        "--overlay {name} changed only {} px",
        changed.len()
    );
    assert!(
        share >= 0.97,
        "--overlay {name}: only {:.1}% of the changed pixels lie on its geometry",
        share * 100.0
    );
    changed.len()
}

#[test]
fn overlays_draw_the_geometry_and_a_2d_param_moves_the_puppet() {
    let Some(plain) = shot_of(
        "examples/stickbot/stickbot.json",
        &["--anim", "walk", "--time", "0.3"],
        "plain",
    ) else {
        if view(&[]).is_none() {
            unavailable("no DISPLAY and no xvfb-run");
        }
        return;
    };
    let mut c = stickbot_at(0.3);
    let list = c.draw_list().clone();

    // Wireframe: every triangle edge of the draw list.
    let wire = shot_of(
        "examples/stickbot/stickbot.json",
        &["--anim", "walk", "--time", "0.3", "--overlay", "wireframe"],
        "wireframe",
    )
    .expect("viewer ran once");
    let mut segs = Vec::new();
    for cmd in &list.commands {
        let pos = list.command_positions(cmd);
        for t in list.command_indices(cmd).chunks_exact(3) {
            let mut tri = Vec::new();
            for &i in t {
                tri.extend_from_slice(&pos[2 * i as usize..2 * i as usize + 2]);
            }
            loop_edges(&tri, &mut segs);
        }
    }
    overlay_where_expected("wireframe", &plain, &wire, &segs, 2.5, 1000);

    // Clipping: the visor's clip polygon.
    assert!(!list.clips.is_empty(), "stickbot clips its visor");
    let clip = shot_of(
        "examples/stickbot/stickbot.json",
        &["--anim", "walk", "--time", "0.3", "--overlay", "clipping"],
        "clipping",
    )
    .expect("viewer ran once");
    let mut segs = Vec::new();
    for k in 0..list.clips.len() as u32 {
        loop_edges(list.clip_polygon(k), &mut segs);
    }
    overlay_where_expected("clipping", &plain, &clip, &segs, 3.0, 30);

    // Cages: the cape's boundary cage (bound by --cage; it moves nothing at this pose, so
    // what changes is the overlay), drawn along the cape mesh's outline.
    let cape_plain = shot_of(
        "examples/stickbot/stickbot.json",
        &["--anim", "walk", "--time", "0.3", "--cage", "cape"],
        "cape-plain",
    )
    .expect("viewer ran once");
    let caged = shot_of(
        "examples/stickbot/stickbot.json",
        &[
            "--anim",
            "walk",
            "--time",
            "0.3",
            "--cage",
            "cape",
            "--overlay",
            "cages",
        ],
        "cages",
    )
    .expect("viewer ran once");
    let slot = c.find_slot("cape").expect("cape slot");
    let cmd = list
        .commands
        .iter()
        .find(|cmd| cmd.slot == slot.id())
        .expect("the cape is drawn");
    let pos = list.command_positions(cmd);
    let tris = list.command_indices(cmd);
    let points: Vec<[f64; 2]> = pos
        .chunks_exact(2)
        .map(|p| [f64::from(p[0]), f64::from(p[1])])
        .collect();
    let tris: Vec<[u32; 3]> = tris
        .chunks_exact(3)
        .map(|t| [u32::from(t[0]), u32::from(t[1]), u32::from(t[2])])
        .collect();
    let mut segs = Vec::new();
    for lp in sinew::cage::boundary_loops(&points, &tris).expect("the cape has a boundary") {
        let flat: Vec<f32> = lp
            .iter()
            .flat_map(|&i| [pos[2 * i as usize], pos[2 * i as usize + 1]])
            .collect();
        loop_edges(&flat, &mut segs);
    }
    overlay_where_expected("cages", &cape_plain, &caged, &segs, 4.5, 100);
    // A bad overlay name or cage slot is refused before the window opens.
    let o = view(&["examples/stickbot/stickbot.json", "--overlay", "grid"]).expect("display");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown overlay `grid`"));

    // A 2D parameter: the puppet's 3x3 `Param2D_00` at two corners of its pad.
    let Some(fx) = sinew_testutil::require_fixtures("view: 2D parameter") else {
        return;
    };
    let puppet = fx.join("inochi2d/synthetic_tiny.inp");
    let puppet = puppet.to_str().expect("utf-8 path");
    let low = shot_of(puppet, &["--param", "Param2D_00=-1,-1"], "p2d-low").expect("viewer ran");
    let high = shot_of(puppet, &["--param", "Param2D_00=1,1"], "p2d-high").expect("viewer ran");
    let only_x = shot_of(puppet, &["--param", "Param2D_00=1,-1"], "p2d-x").expect("viewer ran");
    let both = changed_pixels(&low, &high).len();
    let y_alone = changed_pixels(&only_x, &high).len();
    eprintln!("Param2D_00 (-1,-1) vs (1,1): {both} px changed; (1,-1) vs (1,1): {y_alone} px");
    assert!(
        both > 500,
        "the 2D parameter does not change the image ({both} px)"
    );
    assert!(
        y_alone > 100,
        "the parameter's y does not change the image ({y_alone} px)"
    );
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

#[test]
fn extras_load_beside_the_skeleton_and_are_refused_where_they_do_not_apply() {
    // Refused before the window opens, with the other verbs' wording.
    let Some(o) = view(&[
        "examples/face/face.inp",
        "--extras",
        "examples/stickbot/stickbot.extras.json",
    ]) else {
        unavailable("no DISPLAY and no xvfb-run");
        return;
    };
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "--extras on a puppet: {err}");
    assert!(
        err.contains("--extras does not apply") && err.contains("Inochi2D puppet"),
        "{err}"
    );
    let dir = out_dir();
    let physics3 = dir.join("hair.physics3.json");
    std::fs::write(&physics3, PHYSICS3).expect("write physics3");
    let p3 = physics3.to_str().expect("utf-8 path");
    let o = view(&["examples/stickbot/stickbot.json", "--physics3", p3]).expect("display");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "--physics3 on a skeleton: {err}");
    assert!(err.contains("--physics3 does not apply"), "{err}");

    // A puppet takes its physics3 file.
    let Some(_) = shot_of(
        "examples/face/face.inp",
        &["--physics3", p3, "--time", "0.5"],
        "face-physics3",
    ) else {
        return;
    };

    // Stickbot's own extras (found beside the skeleton) against none: the jiggling hair and
    // cape and the lagging hair move pixels. The view is fitted to each pose, so compare
    // the fitted views too: both runs draw the character at 1 s into the walk.
    let auto = shot_of(
        "examples/stickbot/stickbot.json",
        &["--anim", "walk", "--time", "1.0"],
        "extras-auto",
    )
    .expect("viewer ran");
    let empty = dir.join("empty.extras.json");
    std::fs::write(&empty, br#"{"sinewExtras": 1}"#).expect("write extras");
    let none = shot_of(
        "examples/stickbot/stickbot.json",
        &[
            "--anim",
            "walk",
            "--time",
            "1.0",
            "--extras",
            empty.to_str().expect("utf-8 path"),
        ],
        "extras-none",
    )
    .expect("viewer ran");
    // The extras move the cape, which moves the fitted view's centre a little (a fraction
    // of a pixel); the pixels are compared where they are, so the views must agree within a
    // pixel for the count to mean the cape.
    let px = (auto.view[3] - auto.view[1]) / f64::from(auto.canvas[3]);
    for k in 0..4 {
        assert!(
            (auto.view[k] - none.view[k]).abs() < px,
            "views {:?} / {:?} differ by a pixel or more",
            auto.view,
            none.view
        );
    }
    let changed = changed_pixels(&auto, &none).len();
    eprintln!(
        "sibling extras vs none at 1 s: views {:?} / {:?}, {changed} px differ",
        auto.view, none.view
    );
    assert!(
        changed > 200,
        "the sibling extras change nothing ({changed} px)"
    );
    // The CPU with the extras (what `stickbot_at` loads) fits the view the viewer fitted.
    let mut c = stickbot_at(1.0);
    let [_, _, cw, ch] = auto.canvas;
    let fit = c.fit_view(cw, ch, 0.05).expect("drawn");
    let unit = (fit[3] - fit[1]) / f64::from(ch);
    for k in 0..4 {
        assert!(
            (auto.view[k] - fit[k]).abs() < unit * 0.01,
            "view {:?} vs fit_view with the extras {fit:?}",
            auto.view
        );
    }
}

/// A Cubism physics3 file swinging the face's `ParamHairSwing` from itself.
const PHYSICS3: &str = r#"{"Version": 3, "Meta": {"Fps": 30},
  "PhysicsSettings": [{"Id": "Hair",
    "Input": [{"Source": {"Target": "Parameter", "Id": "ParamHairSwing"}, "Weight": 60, "Type": "X", "Reflect": false}],
    "Output": [{"Destination": {"Target": "Parameter", "Id": "ParamHairSwing"}, "VertexIndex": 1, "Scale": 1, "Weight": 100, "Type": "Angle", "Reflect": false}],
    "Vertices": [
      {"Position": {"X": 0, "Y": 0}, "Mobility": 1, "Delay": 1, "Acceleration": 1, "Radius": 0},
      {"Position": {"X": 0, "Y": 3}, "Mobility": 0.9, "Delay": 0.9, "Acceleration": 1, "Radius": 3}],
    "Normalization": {"Position": {"Minimum": -10, "Default": 0, "Maximum": 10},
      "Angle": {"Minimum": -10, "Default": 0, "Maximum": 10}}}]}"#;

#[test]
fn scripted_play_advances_on_a_fixed_clock() {
    let args = ["--anim", "walk", "--time", "0.3"];
    let Some(paused) = shot_of("examples/stickbot/stickbot.json", &args, "play-paused") else {
        return;
    };
    let played = |tag: &str| {
        let mut a = args.to_vec();
        a.push("--play");
        shot_of("examples/stickbot/stickbot.json", &a, tag).expect("viewer ran")
    };
    let (a, b) = (played("play-a"), played("play-b"));
    let moved = changed_pixels(&paused, &a).len();
    let repeat = changed_pixels(&a, &b).len();
    eprintln!(
        "--play, 4 frames: {moved} px moved from the paused pose; two runs differ in {repeat} px"
    );
    assert!(moved > 500, "--play did not advance ({moved} px)");
    // A fixed 1/60 s a frame, whatever the frame took: the same frames give the same image.
    assert_eq!(repeat, 0, "two --play runs differ");
}

/// The viewer draws a DragonBones rig (images upright, meshes) as the CPU renderer does:
/// dragon_boy's `walk` at 0.3 s against `sinew render` of the same view and size. Colours
/// are compared where the CPU render is opaque (an image turned over in its quad changes
/// them), coverage as alpha IoU.
#[test]
fn viewer_draws_a_dragonbones_rig_as_the_cpu_does() {
    let Some(fx) =
        sinew_testutil::require_fixtures("viewer_draws_a_dragonbones_rig_as_the_cpu_does")
    else {
        return;
    };
    let ske = fx.join("dragonbones/dragon_boy/dragon_boy_ske.json");
    let ske = ske.to_str().expect("utf-8 path");
    let Some(a) = shot_of(ske, &["--anim", "walk", "--time", "0.3"], "dragon_boy") else {
        if view(&[]).is_none() {
            unavailable("no DISPLAY and no xvfb-run");
        }
        return;
    };
    let [cx, cy, cw, ch] = a.canvas;
    let [x0, y0, x1, y1] = a.view;
    let cpu_png = out_dir().join("dragon_boy-cpu.png");
    let o = Command::new(env!("CARGO_BIN_EXE_sinew"))
        .args([
            "render",
            ske,
            "--anim",
            "walk",
            "--times",
            "0.3",
            "--fps",
            "60",
            "--size",
            &format!("{cw}x{ch}"),
            "--view",
            &format!("{x0},{y0},{x1},{y1}"),
            "--out",
            cpu_png.to_str().expect("utf-8 path"),
        ])
        .output()
        .expect("sinew runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (_, _, cpu) = load_rgba(&cpu_png).expect("the CPU render");
    let bg = [255u8, 0, 255];
    let (mut inter, mut union, mut opaque, mut se) = (0u64, 0u64, 0u64, 0.0f64);
    for y in 32..ch {
        for x in 0..cw {
            let g = a.px(cx + x, cy + y);
            let i = ((y * cw + x) * 4) as usize;
            let c = &cpu[i..i + 4];
            let shown = (0..3).any(|k| g[k].abs_diff(bg[k]) > 24);
            let drawn = c[3] > 96;
            inter += u64::from(shown && drawn);
            union += u64::from(shown || drawn);
            if c[3] == 255 {
                opaque += 1;
                se += (0..3)
                    .map(|k| (f64::from(g[k]) - f64::from(c[k])).powi(2))
                    .sum::<f64>();
            }
        }
    }
    let iou = inter as f64 / union.max(1) as f64;
    let psnr = 10.0 * (255.0f64 * 255.0 / (se / (3 * opaque.max(1)) as f64).max(1e-9)).log10();
    eprintln!(
        "sinew view vs CPU, dragon_boy: alpha IoU {iou:.4}, PSNR {psnr:.1} dB over {opaque} opaque px"
    );
    assert!(
        opaque > 5000,
        "the CPU render shows the dragon ({opaque} opaque px)"
    );
    assert!(iou >= 0.95, "alpha IoU {iou:.4} < 0.95");
    assert!(
        psnr >= 25.0,
        "PSNR {psnr:.1} dB < 25 where the CPU render is opaque"
    );
}

/// The viewer opens a Spine 4.3 file (the shared spineboy-pro conversion, with the 4.2
/// export's atlas) and draws it as it draws the 4.2 original: `run` at 0.3 s, the same view,
/// the same picture (the 4.3 goldens give both the same pose).
#[test]
fn viewer_draws_a_spine_43_file_as_its_42_original() {
    let test = "viewer_draws_a_spine_43_file_as_its_42_original";
    let (Some(new), Some(old)) = (
        sinew_testutil::require_spine43_fixtures(test),
        sinew_testutil::require_spine_fixtures(test),
    ) else {
        return;
    };
    let atlas = old.join("spineboy/spineboy.atlas");
    let atlas = atlas.to_str().expect("utf-8 path");
    let new = new.join("spineboy/spineboy-pro.json");
    let old = old.join("spineboy/spineboy-pro.json");
    let args = ["--anim", "run", "--time", "0.3", "--atlas", atlas];
    let Some(a) = shot_of(new.to_str().expect("utf-8 path"), &args, "spineboy43") else {
        if view(&[]).is_none() {
            unavailable("no DISPLAY and no xvfb-run");
        }
        return;
    };
    let b = shot_of(old.to_str().expect("utf-8 path"), &args, "spineboy42")
        .expect("the 4.2 original opens where the 4.3 file did");
    assert_eq!(a.canvas, b.canvas);
    let [cx, cy, cw, ch] = a.canvas;
    let bg = [255u8, 0, 255];
    let (mut inter, mut union, mut se, mut n) = (0u64, 0u64, 0.0f64, 0u64);
    // Below the HUD line, whose text names the file.
    for y in 32..ch {
        for x in 0..cw {
            let (p, q) = (a.px(cx + x, cy + y), b.px(cx + x, cy + y));
            let shown = |c: [u8; 4]| (0..3).any(|k| c[k].abs_diff(bg[k]) > 24);
            inter += u64::from(shown(p) && shown(q));
            union += u64::from(shown(p) || shown(q));
            se += (0..3)
                .map(|k| (f64::from(p[k]) - f64::from(q[k])).powi(2))
                .sum::<f64>();
            n += 3;
        }
    }
    let iou = inter as f64 / union.max(1) as f64;
    let psnr = 10.0 * (255.0f64 * 255.0 / (se / n.max(1) as f64).max(1e-9)).log10();
    eprintln!("sinew view, spineboy 4.3 vs 4.2: IoU {iou:.4}, PSNR {psnr:.1} dB");
    assert!(union > 5000, "spineboy is drawn ({union} px)");
    assert!(iou >= 0.99, "IoU {iou:.4} < 0.99");
    assert!(psnr >= 40.0, "PSNR {psnr:.1} dB < 40");
}

/// `--beside`: a Spine 4.2 export and its 4.3 conversion in one window, each posed by its
/// own version's semantics, playing together (30 frames of `run` from 0.3 s): the two halves
/// show the same picture (the 4.3 file poses as its 4.2 original), so the second file
/// follows the first's animation and clock.
#[test]
fn viewer_plays_a_42_and_a_43_rig_side_by_side() {
    let test = "viewer_plays_a_42_and_a_43_rig_side_by_side";
    let (Some(new), Some(old)) = (
        sinew_testutil::require_spine43_fixtures(test),
        sinew_testutil::require_spine_fixtures(test),
    ) else {
        return;
    };
    let atlas = old.join("spineboy/spineboy.atlas");
    let (old, new) = (
        old.join("spineboy/spineboy-pro.json"),
        new.join("spineboy/spineboy-pro.json"),
    );
    let out = out_dir().join("view-beside.png");
    let args = [
        old.to_str().expect("utf-8 path"),
        "--beside",
        new.to_str().expect("utf-8 path"),
        "--beside-atlas",
        atlas.to_str().expect("utf-8 path"),
        "--anim",
        "run",
        "--time",
        "0.3",
        "--play",
        "--frames",
        "30",
        "--size",
        "1240x600",
        "--background",
        "#ff00ff",
        "--screenshot",
        out.to_str().expect("utf-8 path"),
    ];
    let Some(o) = view(&args) else {
        unavailable("no DISPLAY and no xvfb-run");
        return;
    };
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    if !o.status.success()
        && (stderr.contains("cannot open the window") || stderr.contains("xvfb-run"))
    {
        unavailable(&format!("the window did not open: {stderr}"));
        return;
    }
    assert!(o.status.success(), "sinew view --beside failed: {stderr}");
    let (width, _, rgba) = load_rgba(&out).expect("screenshot written");
    let shot = Shot {
        width,
        rgba,
        canvas: [0; 4],
        view: [0.0; 4],
    };
    let ([ax, ay, aw, ah], va) = parse_line_of(&stderr, "sinew view: canvas ");
    let ([bx, by, bw, bh], vb) = parse_line_of(&stderr, "sinew view: beside ");
    assert_eq!((aw, ah), (bw, bh), "two halves of one size");
    assert_eq!(by, ay);
    assert!(bx >= ax + aw, "the second file is right of the first");
    assert_eq!(va, vb, "both fitted alike (same rig, same pose)");
    let bg = [255u8, 0, 255];
    let shown = |c: [u8; 4]| (0..3).any(|k| c[k].abs_diff(bg[k]) > 24);
    let (mut inter, mut union, mut se, mut n) = (0u64, 0u64, 0.0f64, 0u64);
    // Between the HUD line (top of the left half) and the labels (bottom of each half).
    for y in 32..ah.saturating_sub(28) {
        for x in 0..aw {
            let (p, q) = (shot.px(ax + x, ay + y), shot.px(bx + x, by + y));
            inter += u64::from(shown(p) && shown(q));
            union += u64::from(shown(p) || shown(q));
            se += (0..3)
                .map(|k| (f64::from(p[k]) - f64::from(q[k])).powi(2))
                .sum::<f64>();
            n += 3;
        }
    }
    let iou = inter as f64 / union.max(1) as f64;
    let psnr = 10.0 * (255.0f64 * 255.0 / (se / n.max(1) as f64).max(1e-9)).log10();
    eprintln!(
        "sinew view --beside, spineboy 4.2 | 4.3 after 30 frames: IoU {iou:.4}, PSNR {psnr:.1} dB"
    );
    assert!(union > 5000, "spineboy is drawn ({union} px)");
    assert!(iou >= 0.99, "IoU {iou:.4} < 0.99");
    assert!(psnr >= 40.0, "PSNR {psnr:.1} dB < 40");
}
