//! Tests for grid-interpolated cage weights.

use super::*;
use crate::cage::bind_mvc;

/// A wavy star cage of `n` vertices around the origin (radius 10 +- 2.5).
fn blob(n: usize) -> Cage {
    let pts: Vec<[f64; 2]> = (0..n)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            let r = 10.0 + 2.5 * (3.0 * a).sin();
            [r * a.cos(), r * a.sin()]
        })
        .collect();
    Cage::from_loops(&[pts]).expect("valid cage")
}

/// `m` points on a sunflower spiral of radius 7.
fn spiral(m: usize) -> Vec<[f64; 2]> {
    (0..m)
        .map(|k| {
            let r = 7.0 * ((k as f64 + 0.5) / m as f64).sqrt();
            let a = k as f64 * 2.399_963_229_728_653;
            [r * a.cos(), r * a.sin()]
        })
        .collect()
}

fn flat(points: &[[f64; 2]], f: impl Fn([f64; 2]) -> [f64; 2]) -> Vec<f32> {
    points
        .iter()
        .flat_map(|&p| {
            let q = f(p);
            [q[0] as f32, q[1] as f32]
        })
        .collect()
}

fn run(g: &GridBinding, cage: &[f32]) -> Vec<f32> {
    let mut nodes = vec![0.0; g.scratch_len()];
    let mut out = vec![0.0; 2 * g.point_count()];
    g.deform(cage, &mut nodes, &mut out).expect("sizes");
    out
}

#[test]
fn rest_pose_and_affine_motions_are_reproduced() {
    let cage = blob(32);
    let pts = spiral(300);
    let (g, rep) = GridBinding::bind(&cage, &pts, &GridOptions::new(0.05)).expect("bind");
    assert_eq!(g.point_count(), 300);
    assert!(rep.grid_nodes > 0 && g.node_count() < 300, "{rep:?}");
    let affine = |p: [f64; 2]| [1.3 * p[0] - 0.4 * p[1] + 7.0, 0.2 * p[0] + 0.8 * p[1] - 3.0];
    for map in [(|p| p) as fn([f64; 2]) -> [f64; 2], affine] {
        let out = run(&g, &flat(cage.points(), map));
        for (o, &p) in out.chunks_exact(2).zip(&pts) {
            let q = map(p);
            let e = (f64::from(o[0]) - q[0]).hypot(f64::from(o[1]) - q[1]);
            assert!(e < 2e-5 * cage.diameter(), "point {p:?}: off by {e}");
        }
    }
}

#[test]
fn error_against_dense_stays_within_the_l1_bound() {
    let cage = blob(48);
    let pts = spiral(500);
    let dense = bind_mvc(&cage, &pts).expect("bind");
    for tol in [0.0, 0.01, 0.05, 0.3] {
        let (g, rep) = GridBinding::bind(&cage, &pts, &GridOptions::new(tol)).expect("bind");
        assert!(rep.max_l1 <= tol, "tol {tol}: {rep:?}");
        assert_eq!(
            rep.per_level.iter().sum::<usize>() + rep.exact_points,
            pts.len()
        );
        // Drag vertex 5 by 2 units and jitter the rest by up to 0.5: residual <= 2.
        let mut moved = flat(cage.points(), |p| p);
        for (k, v) in moved.iter_mut().enumerate() {
            *v += 0.5 * ((k as f32) * 1.37).sin();
        }
        moved[10] += 1.5;
        let mut want = vec![0.0; 2 * pts.len()];
        dense.deform(&moved, &mut want).expect("sizes");
        let got = run(&g, &moved);
        let bound = rep.max_l1 * 2.0 + 1e-4;
        for (a, b) in got.chunks_exact(2).zip(want.chunks_exact(2)) {
            let e = f64::from(a[0] - b[0]).hypot(f64::from(a[1] - b[1]));
            assert!(e <= bound, "tol {tol}: error {e} over the bound {bound}");
        }
        if tol == 0.0 {
            assert_eq!(rep.exact_points, pts.len(), "nothing interpolates exactly");
        }
    }
}

#[test]
fn kernel_matches_the_f64_reference() {
    let cage = blob(24);
    let pts = spiral(200);
    let (g, _) = GridBinding::bind(&cage, &pts, &GridOptions::new(0.1)).expect("bind");
    let moved = flat(cage.points(), |p| {
        [p[0] * 0.9 + (p[1] * 0.3).sin(), p[1] + 1.0]
    });
    let got = run(&g, &moved);
    let want = g.deform_reference(&moved);
    for (a, b) in got.chunks_exact(2).zip(&want) {
        let e = (f64::from(a[0]) - b[0]).hypot(f64::from(a[1]) - b[1]);
        assert!(e < 1e-4, "kernel {a:?} reference {b:?}");
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let cage = blob(12);
    let pts = spiral(20);
    assert!(GridBinding::bind(&cage, &pts, &GridOptions::new(f64::NAN)).is_err());
    assert!(GridBinding::bind(&cage, &pts, &GridOptions::new(-1.0)).is_err());
    assert!(GridBinding::bind(&cage, &[[f64::NAN, 0.0]], &GridOptions::new(0.1)).is_err());
    let (g, _) = GridBinding::bind(&cage, &pts, &GridOptions::new(0.1)).expect("bind");
    let moved = flat(cage.points(), |p| p);
    let mut nodes = vec![0.0; g.scratch_len()];
    let mut out = vec![0.0; 2 * pts.len()];
    assert!(g.deform(&moved[..4], &mut nodes, &mut out).is_err());
    assert!(g.deform(&moved, &mut nodes[..1], &mut out).is_err());
    assert!(g.deform(&moved, &mut nodes, &mut out[..3]).is_err());
    // No points, one point, a line of points.
    for set in [
        vec![],
        vec![[1.0, 2.0]],
        vec![[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]],
    ] {
        let (g, _) = GridBinding::bind(&cage, &set, &GridOptions::new(0.1)).expect("bind");
        let out = run(&g, &moved);
        for (o, p) in out.chunks_exact(2).zip(&set) {
            assert!((f64::from(o[0]) - p[0]).abs() < 1e-4 && (f64::from(o[1]) - p[1]).abs() < 1e-4);
        }
    }
}

#[test]
fn points_no_level_serves_keep_their_rows_within_the_node_budget() {
    // Points on the cage's own edges: the weights turn sharply there, so every level fails
    // and every point keeps its row; the bind computes at most the budget of grid nodes.
    let cage = blob(40);
    let v = cage.points().to_vec();
    let pts: Vec<[f64; 2]> = (0..400)
        .map(|k| {
            let (a, b) = (v[k % 40], v[(k + 1) % 40]);
            let t = (k / 40) as f64 / 10.0 + 0.05;
            [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]
        })
        .collect();
    let (g, rep) = GridBinding::bind(&cage, &pts, &GridOptions::new(1e-6)).expect("bind");
    assert!(
        rep.nodes_computed <= GridBinding::node_budget(pts.len()),
        "{rep:?}"
    );
    assert!(g.node_count() <= pts.len());
    let moved = flat(cage.points(), |p| [p[0] + 0.3 * p[1], p[1] - 2.0]);
    let got = run(&g, &moved);
    for (o, p) in got.chunks_exact(2).zip(&pts) {
        let want = [p[0] + 0.3 * p[1], p[1] - 2.0];
        assert!(
            (f64::from(o[0]) - want[0]).abs() < 1e-3 && (f64::from(o[1]) - want[1]).abs() < 1e-3
        );
    }
}
