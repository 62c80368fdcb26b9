//! Spine 4.3 clipping flags drawn like spine-core 4.3.13 clips them. `testdata/spine43/
//! clip-lab.json` has a convex clip, a concave clip with `convex` (clipped by its hull) and an
//! `inverse` clip (what lies outside the hull stays), each polygon deformed by `move`. The
//! golden `clip-lab__move__clipped.json` holds the triangles the official `SkeletonClipping`
//! cut at five times (0 to 0.9 s) (`scripts/spine43/clip43.mjs`). The expected picture comes from those
//! triangles alone (point-in-triangle tests, not sinew's rasteriser): every pixel whose centre
//! is over a cut triangle, at least 1 px from every triangle edge, is fully covered; every
//! pixel 1 px away from all of them is empty; and the total coverage equals the triangles'
//! area. Drawing the lab allocates nothing after the first frame.
#![allow(clippy::unwrap_used)]

use sinew::{Character, Color};
use sinew_render::{Canvas, Renderer, View};
use sinew_testutil::alloc::count_allocations;

const VIEW: View = View {
    x0: -100.0,
    y0: -50.0,
    x1: 100.0,
    y1: 50.0,
};
// 1 px per world unit.
const W: u32 = 200;
const H: u32 = 100;

fn lab() -> Character {
    let dir = sinew_testutil::workspace_root().join("testdata/spine43");
    let raw = sinew_formats::spine::load_spine_json(&dir.join("clip-lab.json")).unwrap();
    let rig = sinew::build::build_rig(&raw).unwrap();
    let mut c = Character::new(std::sync::Arc::new(rig));
    c.set_animation(0, "move", true).unwrap();
    c
}

fn golden() -> serde_json::Value {
    let p = sinew_testutil::workspace_root().join("testdata/spine43/clip-lab__move__clipped.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

type Tri = [[f64; 2]; 3];

/// Every triangle the oracle drew at one time, world space.
fn oracle_triangles(frame: &serde_json::Value) -> Vec<Tri> {
    let mut out = Vec::new();
    for s in frame["slots"].as_array().unwrap() {
        let v: Vec<f64> = s["vertices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let t = s["triangles"].as_array().unwrap();
        for k in t.chunks_exact(3) {
            out.push(std::array::from_fn(|i| {
                let j = k[i].as_u64().unwrap() as usize;
                [v[2 * j], v[2 * j + 1]]
            }));
        }
    }
    out
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
fn clip_lab_draws_the_oracles_clipped_triangles() {
    let g = golden();
    let mut c = lab();
    c.update(0.0);
    let mut now = 0.0;
    let mut renderer = Renderer::new();
    let mut canvas = Canvas::new(W, H, Color::new(0.0, 0.0, 0.0, 0.0));
    let mut report = Vec::new();
    for frame in g["frames"].as_array().unwrap() {
        let t = frame["time"].as_f64().unwrap();
        advance(&mut c, &mut now, t);
        let tris = oracle_triangles(frame);
        assert!(tris.len() > 20, "t {t}: the oracle cut the quads");
        canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
        renderer.render(c.draw_list(), &[], &VIEW, &mut canvas);
        let (mut full, mut empty, mut wrong) = (0, 0, Vec::new());
        for j in 0..H {
            for i in 0..W {
                let p = [f64::from(i) - 99.5, 49.5 - f64::from(j)];
                let near = tris
                    .iter()
                    .any(|t| (0..3).any(|k| seg_dist(p, t[k], t[(k + 1) % 3]) < 1.0));
                if near {
                    continue;
                }
                let a = canvas.pixels[(j * W + i) as usize][3];
                if tris.iter().any(|t| inside(p, t)) {
                    full += 1;
                    if a < 0.999 {
                        wrong.push((i, j, a));
                    }
                } else {
                    empty += 1;
                    if a > 0.001 {
                        wrong.push((i, j, a));
                    }
                }
            }
        }
        let covered: f64 = canvas.pixels.iter().map(|p| f64::from(p[3])).sum();
        let expected: f64 = tris.iter().map(|t| area(t).abs()).sum();
        report.push(format!(
            "t {t}: {full} full, {empty} empty px checked, coverage {covered:.2} vs area {expected:.2}"
        ));
        assert!(
            wrong.is_empty(),
            "t {t}: {} px differ from the oracle's triangles, first {:?}",
            wrong.len(),
            &wrong[..wrong.len().min(5)]
        );
        assert!(full > 2000 && empty > 5000, "t {t}: {full} / {empty}");
        assert!(
            (covered - expected).abs() < 1e-3 * expected,
            "t {t}: coverage {covered} vs the oracle's area {expected}"
        );
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn drawing_convex_and_inverse_clips_allocates_nothing_after_warm_up() {
    let mut c = lab();
    let mut renderer = Renderer::new();
    let mut canvas = Canvas::new(W, H, Color::new(0.0, 0.0, 0.0, 0.0));
    let mut allocations = 0;
    for k in 0..=60 {
        c.update(if k == 0 { 0.0 } else { 1.0 / 60.0 });
        let n = count_allocations(|| {
            canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
            renderer.render(c.draw_list(), &[], &VIEW, &mut canvas);
        });
        if k > 0 {
            allocations += n;
        }
    }
    assert_eq!(allocations, 0, "frames 1..=60 allocated");
}
