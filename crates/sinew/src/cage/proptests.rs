//! Property tests of the coordinates and the deformation over random star-shaped cages
//! (optionally with a clockwise hole) and random points inside and outside (math.md A.2):
//! partition of unity, linear precision, Lagrange property, linear on edges, continuity
//! across edges, reversal, identity at rest and reproduction of affine maps (f32).

use super::bind::bind_mvc;
use super::mvc::mvc_coordinates;
use super::polygon::Cage;
use proptest::prelude::*;

/// A star-shaped CCW loop: `n` sorted angles, radii in [0.4, 1], scaled and moved.
fn star(n: usize, seeds: &[(f64, f64)], scale: f64, centre: [f64; 2]) -> Vec<[f64; 2]> {
    let mut angles: Vec<f64> = seeds
        .iter()
        .take(n)
        .enumerate()
        .map(|(k, s)| (k as f64 + 0.1 + 0.8 * s.0) * std::f64::consts::TAU / n as f64)
        .collect();
    angles.sort_by(f64::total_cmp);
    angles
        .iter()
        .zip(seeds)
        .map(|(a, s)| {
            let r = scale * (0.4 + 0.6 * s.1);
            [centre[0] + r * a.cos(), centre[1] + r * a.sin()]
        })
        .collect()
}

prop_compose! {
    /// A random cage: a star loop and, half of the time, a small clockwise hole.
    fn cage_strategy()(
        n in 3usize..40,
        seeds in prop::collection::vec((0.0f64..1.0, 0.0f64..1.0), 40),
        hole in prop::option::of(3usize..7),
        scale in 0.5f64..50.0,
        cx in -20.0f64..20.0,
        cy in -20.0f64..20.0,
    ) -> Cage {
        let outer = star(n, &seeds, scale, [cx, cy]);
        let mut loops = vec![outer];
        // With 6+ vertices every angular gap is under 110 degrees, so the outer loop stays
        // at least 0.23 * scale from the centre and the hole fits inside.
        if let (Some(h), true) = (hole, n >= 6) {
            // Radii 0.05..0.15 of the scale: inside every star (min radius 0.4).
            let mut inner = star(h, &seeds[7..], 0.15 * scale, [cx, cy]);
            inner.reverse();
            loops.push(inner);
        }
        Cage::from_loops(&loops).expect("valid random cage")
    }
}

fn coords(c: &Cage, p: [f64; 2]) -> Vec<f64> {
    let mut w = vec![0.0; c.vertex_count()];
    mvc_coordinates(c, p, 0, &mut w).expect("defined off a well-oriented cage");
    w
}

/// Point from unit-square parameters over the cage's bounding box, enlarged by half.
fn point_in_box(c: &Cage, u: f64, v: f64) -> [f64; 2] {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in c.points() {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let w = [hi[0] - lo[0], hi[1] - lo[1]];
    [
        lo[0] - 0.25 * w[0] + 1.5 * w[0] * u,
        lo[1] - 0.25 * w[1] + 1.5 * w[1] * v,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn partition_of_unity_and_linear_precision(c in cage_strategy(), u in 0.0f64..1.0, v in 0.0f64..1.0) {
        let p = point_in_box(&c, u, v);
        let w = coords(&c, p);
        let s: f64 = w.iter().sum();
        let mag: f64 = w.iter().map(|x| x.abs()).sum();
        prop_assert!((s - 1.0).abs() <= 1e-12 * mag.max(1.0), "sum {s}");
        let (mut x, mut y) = (0.0, 0.0);
        for (wj, vj) in w.iter().zip(c.points()) {
            x += wj * vj[0];
            y += wj * vj[1];
        }
        let err = (x - p[0]).hypot(y - p[1]);
        let scale = c.diameter() + p[0].hypot(p[1]);
        prop_assert!(err <= 1e-12 * mag.max(1.0) * scale, "linear precision {err}");
    }

    #[test]
    fn lagrange_and_edge_linearity(c in cage_strategy(), j in 0usize..64, t in 0.01f64..0.99) {
        let n = c.vertex_count();
        let j = j % n;
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        prop_assert_eq!(coords(&c, c.points()[j]), e);
        // The next vertex in j's own loop.
        let l = (0..c.loop_count()).find(|&l| c.loop_range(l).contains(&j)).unwrap_or(0);
        let r = c.loop_range(l);
        let k = if j + 1 == r.end { r.start } else { j + 1 };
        let (a, b) = (c.points()[j], c.points()[k]);
        let q = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
        let w = coords(&c, q);
        prop_assert!((w[j] - (1.0 - t)).abs() < 1e-9, "w_j {} vs {}", w[j], 1.0 - t);
        prop_assert!((w[k] - t).abs() < 1e-9);
        let others: f64 = w.iter().enumerate().filter(|(i, _)| *i != j && *i != k).map(|(_, x)| x.abs()).sum();
        prop_assert!(others < 1e-9);
    }

    #[test]
    fn continuous_across_edges(c in cage_strategy(), j in 0usize..64, t in 0.2f64..0.8) {
        let n = c.vertex_count();
        let j = j % n;
        let l = (0..c.loop_count()).find(|&l| c.loop_range(l).contains(&j)).unwrap_or(0);
        let r = c.loop_range(l);
        let k = if j + 1 == r.end { r.start } else { j + 1 };
        let (a, b) = (c.points()[j], c.points()[k]);
        let q = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
        let len = (b[0] - a[0]).hypot(b[1] - a[1]);
        let nrm = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
        let on = coords(&c, q);
        let h = 1e-7 * c.diameter();
        for side in [1.0, -1.0] {
            let off = coords(&c, [q[0] + side * h * nrm[0], q[1] + side * h * nrm[1]]);
            let d = on.iter().zip(&off).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
            prop_assert!(d < 1e-3, "jump {d} at h = {h}");
        }
    }

    #[test]
    fn reversal_reindexes(c in cage_strategy(), u in 0.0f64..1.0, v in 0.0f64..1.0) {
        let p = point_in_box(&c, u, v);
        let loops: Vec<Vec<[f64; 2]>> = (0..c.loop_count())
            .map(|l| c.loop_points(l).iter().rev().copied().collect())
            .collect();
        let rev = Cage::from_loops(&loops).expect("valid");
        let (w, wr) = (coords(&c, p), coords(&rev, p));
        let mag: f64 = w.iter().map(|x| x.abs()).sum();
        for l in 0..c.loop_count() {
            let r = c.loop_range(l);
            for (a, i) in r.clone().enumerate() {
                let ri = r.end - 1 - a;
                prop_assert!((w[i] - wr[ri]).abs() <= 1e-11 * mag.max(1.0));
            }
        }
    }

    #[test]
    fn deform_is_identity_at_rest_and_reproduces_affine_maps(
        c in cage_strategy(),
        m in prop::array::uniform4(-2.0f64..2.0),
        t in prop::array::uniform2(-5.0f64..5.0),
        uv in prop::collection::vec((0.15f64..0.85, 0.15f64..0.85), 50),
    ) {
        // Points in the middle of the box: inside or near the cage, bounded weights.
        let pts: Vec<[f64; 2]> = uv.iter().map(|&(u, v)| point_in_box(&c, u, v)).collect();
        let b = bind_mvc(&c, &pts).expect("bindable");
        let mag = pts.iter().map(|p| coords(&c, *p).iter().map(|x| x.abs()).sum::<f64>()).fold(1.0, f64::max);
        let rest: Vec<f32> = c.points().iter().flat_map(|p| [p[0] as f32, p[1] as f32]).collect();
        let mut out = vec![0.0f32; 2 * pts.len()];
        b.deform(&rest, &mut out).expect("sizes");
        let d = c.diameter();
        for (p, o) in pts.iter().zip(out.chunks_exact(2)) {
            let err = (f64::from(o[0]) - p[0]).hypot(f64::from(o[1]) - p[1]);
            // f32 storage: 1e-6 of the cage size per unit of weight magnitude, plus the
            // rounding of the output coordinates themselves.
            prop_assert!(err <= 1e-6 * d * mag + 2e-7 * p[0].hypot(p[1]), "rest err {err}, diam {d}");
        }
        let f = |p: [f64; 2]| [m[0] * p[0] + m[1] * p[1] + t[0], m[2] * p[0] + m[3] * p[1] + t[1]];
        let moved: Vec<f32> = c.points().iter().flat_map(|p| { let q = f(*p); [q[0] as f32, q[1] as f32] }).collect();
        b.deform(&moved, &mut out).expect("sizes");
        let norm = m.iter().map(|x| x.abs()).sum::<f64>().max(1e-3);
        for (p, o) in pts.iter().zip(out.chunks_exact(2)) {
            let q = f(*p);
            let err = (f64::from(o[0]) - q[0]).hypot(f64::from(o[1]) - q[1]);
            prop_assert!(err <= 1e-6 * d * mag * norm + 2e-7 * q[0].hypot(q[1]) + 1e-6, "affine err {err}");
        }
    }
}

#[test]
fn similarity_invariant_but_not_shear_invariant() {
    let u: Vec<[f64; 2]> = vec![
        [0.0, 0.0],
        [3.0, 0.0],
        [3.0, 3.0],
        [2.0, 3.0],
        [2.0, 1.0],
        [1.0, 1.0],
        [1.0, 3.0],
        [0.0, 3.0],
    ];
    let p = [2.5, 2.2];
    let base = coords(
        &Cage::from_loops(std::slice::from_ref(&u)).expect("valid"),
        p,
    );
    let map = |m: [f64; 4], q: [f64; 2]| {
        [
            m[0] * q[0] + m[1] * q[1] + 3.1,
            m[2] * q[0] + m[3] * q[1] - 1.7,
        ]
    };
    let (s, c) = (2.7 * 0.83f64.sin(), 2.7 * 0.83f64.cos());
    let sim = [c, -s, s, c];
    let moved: Vec<[f64; 2]> = u.iter().map(|q| map(sim, *q)).collect();
    let w = coords(&Cage::from_loops(&[moved]).expect("valid"), map(sim, p));
    let d = base
        .iter()
        .zip(&w)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(d < 1e-12, "similarity changed the weights by {d}");
    let shear = [3.0, 0.7, 0.0, 0.5];
    let moved: Vec<[f64; 2]> = u.iter().map(|q| map(shear, *q)).collect();
    let w = coords(&Cage::from_loops(&[moved]).expect("valid"), map(shear, p));
    let d = base
        .iter()
        .zip(&w)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    // MVC are not affine invariant: catches an accidental affine-invariant substitute.
    assert!(d > 1e-3, "shear left the weights unchanged ({d})");
}
