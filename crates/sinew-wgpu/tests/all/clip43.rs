//! Spine 4.3 clipping flags on the GPU. `testdata/spine43/clip-lab.json` has a convex clip, a
//! concave clip with `convex` (clipped by its hull) and an `inverse` clip (what lies outside
//! the hull stays), each polygon deformed by `move`. At the five times of spine-core
//! 4.3.13's golden `clip-lab__move__clipped.json` (`scripts/spine43/clip43.mjs`) the frame
//! drawn by sinew-wgpu is compared with sinew-render's (alpha IoU and PSNR, as the other
//! render comparisons) and with the oracle's clipped triangles themselves: every pixel whose
//! centre is over one of them, at least 1 px from every triangle edge, is opaque, and every
//! pixel 1 px away from all of them is empty. Needs a GPU adapter (Mesa's lavapipe is
//! enough): skips with a notice without one, fails with `CI=true`.

use sinew::{Character, Color};
use sinew_render::{Canvas, Renderer, View};
use sinew_testutil::images::similarity;
use sinew_wgpu::{Frame, Gpu, GpuRenderer};

const VIEW: View = View {
    x0: -100.0,
    y0: -50.0,
    x1: 100.0,
    y1: 50.0,
};
// 2 px per world unit.
const W: u32 = 400;
const H: u32 = 200;
const PX: f64 = 2.0;

type Tri = [[f64; 2]; 3];

fn lab() -> Character {
    let dir = sinew_testutil::workspace_root().join("testdata/spine43");
    let raw = sinew_formats::spine::load_spine_json(&dir.join("clip-lab.json")).expect("lab");
    let rig = sinew::build::build_rig(&raw).expect("rig");
    let mut c = Character::new(std::sync::Arc::new(rig));
    c.set_animation(0, "move", true).expect("move");
    c
}

/// (time, every triangle the oracle drew then, world space) per golden frame.
fn golden() -> Vec<(f64, Vec<Tri>)> {
    let p = sinew_testutil::workspace_root().join("testdata/spine43/clip-lab__move__clipped.json");
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p).expect("golden")).expect("json");
    let num = |v: &serde_json::Value| v.as_f64().expect("number");
    let frames = g["frames"].as_array().expect("frames");
    frames
        .iter()
        .map(|f| {
            let mut tris = Vec::new();
            for s in f["slots"].as_array().expect("slots") {
                let v: Vec<f64> = s["vertices"]
                    .as_array()
                    .expect("v")
                    .iter()
                    .map(num)
                    .collect();
                let t = s["triangles"].as_array().expect("t");
                for k in t.chunks_exact(3) {
                    tris.push(std::array::from_fn(|i| {
                        let j = num(&k[i]) as usize;
                        [v[2 * j], v[2 * j + 1]]
                    }));
                }
            }
            (num(&f["time"]), tris)
        })
        .collect()
}

fn area(t: &Tri) -> f64 {
    ((t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[2][0] - t[0][0]) * (t[1][1] - t[0][1])) / 2.0
}

/// Distance from `p` to segment `a b`.
fn seg_dist(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let l2 = dx * dx + dy * dy;
    let t = if l2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((p[0] - a[0] - t * dx).powi(2) + (p[1] - a[1] - t * dy).powi(2)).sqrt()
}

fn inside(p: [f64; 2], t: &Tri) -> bool {
    if area(t) == 0.0 {
        return false; // a sliver covers nothing (and would hold every point of its line)
    }
    let s =
        |a: [f64; 2], b: [f64; 2]| (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    let (d0, d1, d2) = (s(t[0], t[1]), s(t[1], t[2]), s(t[2], t[0]));
    (d0 >= 0.0 && d1 >= 0.0 && d2 >= 0.0) || (d0 <= 0.0 && d1 <= 0.0 && d2 <= 0.0)
}

/// Steps `c` from its current time to `t` as the oracle does (1/60 s steps, one shorter step).
fn advance(c: &mut Character, now: &mut f64, t: f64) {
    let dt = 1.0 / 60.0;
    while *now + dt <= t + 1e-9 {
        c.update(dt);
        *now += dt;
    }
    if t - *now > 1e-9 {
        c.update(t - *now);
        *now = t;
    }
}

#[test]
fn clip_lab_matches_the_cpu_renderer_and_the_oracles_triangles() {
    let g = match Gpu::headless() {
        Ok(g) => g,
        Err(e) if sinew_testutil::is_ci() => panic!("CI=true and {e}"),
        Err(e) => {
            eprintln!("skipping clip_lab_matches_the_cpu_renderer_and_the_oracles_triangles: {e}");
            return;
        }
    };
    let mut gpu = GpuRenderer::new(&g);
    gpu.set_pages(&[]);
    let mut cpu = Renderer::new();
    let clear = Color::new(0.0, 0.0, 0.0, 0.0);
    let mut canvas = Canvas::new(W, H, clear);
    let mut c = lab();
    c.update(0.0);
    let mut now = 0.0;
    for (t, tris) in golden() {
        advance(&mut c, &mut now, t);
        assert!(tris.len() > 20, "t {t}: the oracle cut the quads");
        canvas.clear(clear);
        cpu.render(c.draw_list(), &[], &VIEW, &mut canvas);
        let img = gpu
            .render_rgba(&Frame {
                list: c.draw_list(),
                masks: &[],
                group_masks: &[],
                view: VIEW,
                width: W,
                height: H,
                background: clear,
            })
            .expect("readback");
        let (iou, psnr) = similarity(&canvas.to_rgba8(), &img);
        let (mut full, mut empty, mut wrong) = (0, 0, Vec::new());
        for j in 0..H {
            for i in 0..W {
                let p = [
                    (f64::from(i) + 0.5) / PX - 100.0,
                    50.0 - (f64::from(j) + 0.5) / PX,
                ];
                let near = tris
                    .iter()
                    .any(|t| (0..3).any(|k| seg_dist(p, t[k], t[(k + 1) % 3]) < 1.0 / PX));
                if near {
                    continue;
                }
                let a = img[(4 * (j * W + i) + 3) as usize];
                if tris.iter().any(|t| inside(p, t)) {
                    full += 1;
                    if a < 255 {
                        wrong.push((i, j, a));
                    }
                } else {
                    empty += 1;
                    if a > 0 {
                        wrong.push((i, j, a));
                    }
                }
            }
        }
        eprintln!("t {t}: IoU {iou:.4} PSNR {psnr:.1}; {full} full, {empty} empty px checked");
        assert!(
            iou >= 0.99 && psnr >= 35.0,
            "t {t}: IoU {iou} PSNR {psnr} against sinew-render"
        );
        assert!(
            wrong.is_empty(),
            "t {t}: {} px differ from the oracle's triangles, first {:?}",
            wrong.len(),
            &wrong[..wrong.len().min(5)]
        );
        assert!(full > 8000 && empty > 20000, "t {t}: {full} / {empty}");
    }
}
