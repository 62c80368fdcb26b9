//! Tolerance-chosen sparse cage weights against dense ones on 100 seeded random cages
//! (issue 16 item 5): star-shaped loops of 8..=64 vertices, diameters of about 2..8 units,
//! a quarter of them with a clockwise hole; 150 random points inside each. Every cage is
//! deformed by a random affine map plus a non-affine warp, drag or jitter of up to 10 % of
//! its diameter (`cage_motion`), and the sparse deformation must stay within 1e-2 units of
//! the dense one and within its own bound. Prints the worst error and the kept counts.

use crate::cage_motion;

use cage_motion::{MAX_ERROR, MOTION, Rng, compare, compare_grid};
use sinew::cage::{Cage, bind_mvc};

/// A star-shaped counter-clockwise loop: `n` jittered angles, radii in [0.5, 1] x `radius`.
fn star(rng: &mut Rng, n: usize, radius: f64, centre: [f64; 2]) -> Vec<[f64; 2]> {
    (0..n)
        .map(|k| {
            let a = (k as f64 + rng.uniform(0.1, 0.9)) * std::f64::consts::TAU / n as f64;
            let r = radius * rng.uniform(0.5, 1.0);
            [centre[0] + r * a.cos(), centre[1] + r * a.sin()]
        })
        .collect()
}

/// A random cage and `m` random points inside it (not in its hole).
fn random_case(rng: &mut Rng, m: usize) -> (Cage, Vec<[f64; 2]>) {
    let n = 8 + rng.below(57);
    let radius = rng.uniform(1.0, 4.0);
    let centre = [rng.uniform(-50.0, 50.0), rng.uniform(-50.0, 50.0)];
    let mut loops = vec![star(rng, n, radius, centre)];
    if rng.below(4) == 0 {
        // Inside every star: the outer radius is at least 0.5 x radius.
        let h = 3 + rng.below(5);
        let mut hole = star(rng, h, 0.2 * radius, centre);
        hole.reverse();
        loops.push(hole);
    }
    let cage = Cage::from_loops(&loops).expect("valid random cage");
    let mut points = Vec::with_capacity(m);
    while points.len() < m {
        let p = [
            centre[0] + rng.uniform(-radius, radius),
            centre[1] + rng.uniform(-radius, radius),
        ];
        // Inside the outer loop and outside the hole (whose winding cancels the outer's).
        if cage.winding_number(p) == 1 {
            points.push(p);
        }
    }
    (cage, points)
}

#[test]
fn sparse_deformation_stays_within_1e2_of_dense_on_100_random_cages() {
    let mut rng = Rng(0x5EED_0016_0005);
    let (mut worst, mut worst_at) = (0.0f64, 0);
    let (mut kept_sum, mut kept_max, mut dense_sum, mut points) = (0.0, 0, 0usize, 0usize);
    let mut l1_max = 0.0f64;
    for case in 0..100 {
        let (cage, pts) = random_case(&mut rng, 150);
        let dense = bind_mvc(&cage, &pts).expect("bindable");
        let out = compare(&format!("cage {case}"), &cage, &pts, &dense, &mut rng);
        assert!(out.slack < 1e-3, "cage {case}: f32 allowance {}", out.slack);
        if out.worst > worst {
            (worst, worst_at) = (out.worst, case);
        }
        kept_sum += out.report.mean_kept * out.points as f64;
        kept_max = kept_max.max(out.report.max_kept);
        dense_sum += cage.vertex_count() * out.points;
        points += out.points;
        l1_max = l1_max.max(out.report.max_l1);
    }
    println!(
        "100 random cages, {points} points, non-affine motion {MOTION} x diameter: worst \
         |sparse - dense| {worst:.3e} units (cage {worst_at}); kept mean {:.1} (dense mean \
         {:.1}), max {kept_max}; max L1 {l1_max:.4}",
        kept_sum / points as f64,
        dense_sum as f64 / points as f64
    );
    assert!(worst <= MAX_ERROR);
    assert!(kept_sum < dense_sum as f64, "some weights were dropped");
}

/// The same cages and motions for grid-interpolated weights (`cage::grid`), 1,500 points
/// each: within 1e-2 units of dense and within the bound; prints the nodes kept.
#[test]
fn grid_deformation_stays_within_1e2_of_dense_on_100_random_cages() {
    let mut rng = Rng(0x5EED_0016_0008);
    let (mut worst, mut worst_at) = (0.0f64, 0);
    let (mut nodes, mut exact, mut points, mut l1_max) = (0usize, 0usize, 0usize, 0.0f64);
    let mut computed = 0usize;
    for case in 0..100 {
        // Meshes dense enough for cells to be shared (at 150 points most points keep
        // their own rows, which is exact and says little about the interpolation).
        let (cage, pts) = random_case(&mut rng, 1500);
        let dense = bind_mvc(&cage, &pts).expect("bindable");
        let out = compare_grid(&format!("cage {case}"), &cage, &pts, &dense, &mut rng);
        assert!(out.slack < 1e-3, "cage {case}: f32 allowance {}", out.slack);
        if out.worst > worst {
            (worst, worst_at) = (out.worst, case);
        }
        nodes += out.nodes;
        exact += out.report.exact_points;
        points += pts.len();
        l1_max = l1_max.max(out.report.max_l1);
        computed += out.report.nodes_computed;
    }
    println!(
        "100 random cages, {points} points, non-affine motion {MOTION} x diameter: worst \
         |grid - dense| {worst:.3e} units (cage {worst_at}); {nodes} nodes in all ({exact} \
         exact points; {computed} grid nodes computed while binding); max L1 {l1_max:.4}"
    );
    assert!(worst <= MAX_ERROR);
    assert!(nodes <= points, "never more nodes than points");
    assert!(exact < points / 2, "most points interpolate");
}
