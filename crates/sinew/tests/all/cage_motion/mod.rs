//! Shared by the sparse-weight tests (`cage_sparse.rs`, `cage_oracle.rs`): a seeded random
//! source, non-affine cage motions of a stated magnitude, and the comparison of a
//! tolerance-chosen sparse binding's deformation with the dense one.
//!
//! Motion model: a random affine map of the rest cage (rotation up to 0.6 rad, axis
//! scales 0.7..1.4, shear up to 0.3, translation up to a diameter) plus a non-affine part
//! of at most `MOTION` x the cage diameter per vertex, of three kinds: a smooth warp (two
//! random sine modes over the plane with wavelengths of 0.5..2 diameters), one vertex
//! dragged, and independent per-vertex jitter (the worst case for sparse weights).

use sinew::cage::{
    Cage, CageBinding, GridBinding, GridOptions, GridReport, SparseBinding, SparseOptions,
    TruncationReport,
};

/// Non-affine motion, as a fraction of the cage diameter.
pub const MOTION: f64 = 0.1;
/// Allowed deformation error against dense, in units.
pub const MAX_ERROR: f64 = 1e-2;

/// SplitMix64: a small deterministic generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [lo, hi).
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A deformed cage (f32 x, y pairs) and the largest distance of a vertex from the affine
/// image of the rest cage it was made from.
pub struct Motion {
    pub cage: Vec<f32>,
    pub non_affine: f64,
}

/// The three motions of one cage (warp, drag, jitter) on one random affine map.
pub fn motions(cage: &Cage, rng: &mut Rng) -> Vec<Motion> {
    let d = cage.diameter();
    let m = MOTION * d;
    let (s, c) = rng.uniform(-0.6, 0.6).sin_cos();
    let (sx, sy, sh) = (
        rng.uniform(0.7, 1.4),
        rng.uniform(0.7, 1.4),
        rng.uniform(-0.3, 0.3),
    );
    let (tx, ty) = (rng.uniform(-d, d), rng.uniform(-d, d));
    let affine = move |p: [f64; 2]| {
        let (x, y) = (sx * p[0] + sh * p[1], sy * p[1]);
        [c * x - s * y + tx, s * x + c * y + ty]
    };
    let verts = cage.points();
    let n = verts.len();
    // Smooth warp: two plane waves, each of amplitude m / 2, so |r| <= m.
    let waves: Vec<[f64; 5]> = (0..2)
        .map(|_| {
            let a = rng.uniform(0.0, std::f64::consts::TAU);
            let k = std::f64::consts::TAU / (d * rng.uniform(0.5, 2.0));
            let b = rng.uniform(0.0, std::f64::consts::TAU);
            [
                k * a.cos(),
                k * a.sin(),
                rng.uniform(0.0, 6.3),
                b.cos(),
                b.sin(),
            ]
        })
        .collect();
    let warp: Vec<[f64; 2]> = verts
        .iter()
        .map(|v| {
            waves.iter().fold([0.0, 0.0], |acc, w| {
                let amp = 0.5 * m * (w[0] * v[0] + w[1] * v[1] + w[2]).sin();
                [acc[0] + amp * w[3], acc[1] + amp * w[4]]
            })
        })
        .collect();
    let dragged = rng.below(n);
    let da = rng.uniform(0.0, std::f64::consts::TAU);
    let drag: Vec<[f64; 2]> = (0..n)
        .map(|j| {
            if j == dragged {
                [m * da.cos(), m * da.sin()]
            } else {
                [0.0, 0.0]
            }
        })
        .collect();
    let jitter: Vec<[f64; 2]> = (0..n)
        .map(|_| {
            let (r, a) = (m * rng.uniform(0.0, 1.0).sqrt(), rng.uniform(0.0, 6.3));
            [r * a.cos(), r * a.sin()]
        })
        .collect();
    [warp, drag, jitter]
        .into_iter()
        .map(|res| {
            let mut non_affine = 0.0f64;
            let cage = verts
                .iter()
                .zip(&res)
                .flat_map(|(v, r)| {
                    non_affine = non_affine.max(r[0].hypot(r[1]));
                    let q = affine(*v);
                    [(q[0] + r[0]) as f32, (q[1] + r[1]) as f32]
                })
                .collect();
            Motion { cage, non_affine }
        })
        .collect()
}

/// What one cage's comparison found.
pub struct Outcome {
    pub report: TruncationReport,
    /// Largest |sparse - dense| over the points and motions, units.
    pub worst: f64,
    /// Largest f32 rounding allowance of the comparison, units.
    pub slack: f64,
    pub points: usize,
}

/// Binds `dense` sparsely for [`MAX_ERROR`] at [`MOTION`] x diameter, deforms with each
/// motion and checks the error against dense: within the bound `L1 * non-affine motion`
/// (plus f32 rounding of both kernels) and within [`MAX_ERROR`] (or the f32 rounding,
/// where that is larger: cages far from the origin).
pub fn compare(
    name: &str,
    cage: &Cage,
    points: &[[f64; 2]],
    dense: &CageBinding,
    rng: &mut Rng,
) -> Outcome {
    let opts = SparseOptions::for_error(MAX_ERROR, MOTION * cage.diameter());
    let (sparse, report) =
        SparseBinding::from_dense_tolerance(cage, points, dense, &opts).expect("sparse bind");
    assert!(
        report.max_l1 <= opts.tolerance,
        "{name}: L1 {} over the tolerance {}",
        report.max_l1,
        opts.tolerance
    );
    assert_eq!(report.over_tolerance, 0, "{name}: no cap was set");
    let (worst, worst_slack) = check_against_dense(
        name,
        cage,
        points.len(),
        dense,
        rng,
        (report.max_l1, report.max_weight),
        |c, out| sparse.deform(c, out).expect("sizes"),
    );
    Outcome {
        report,
        worst,
        slack: worst_slack,
        points: points.len(),
    }
}

/// Deforms with each motion through `deform` and through `dense`, and checks every
/// point: within the bound `max_l1 * non-affine motion` (plus f32 rounding of both
/// kernels) and within [`MAX_ERROR`] (or the f32 rounding, where that is larger: cages far
/// from the origin). Returns the worst error and the largest rounding allowance.
pub fn check_against_dense(
    name: &str,
    cage: &Cage,
    points: usize,
    dense: &CageBinding,
    rng: &mut Rng,
    (max_l1, max_weight): (f64, f64),
    mut deform: impl FnMut(&[f32], &mut [f32]),
) -> (f64, f64) {
    let (mut a, mut b) = (vec![0.0f32; 2 * points], vec![0.0f32; 2 * points]);
    let mut worst = 0.0f64;
    let mut worst_slack = 0.0f64;
    for (k, motion) in motions(cage, rng).iter().enumerate() {
        deform(&motion.cage, &mut a);
        dense.deform(&motion.cage, &mut b).expect("sizes");
        // f32 rounding of both kernels: the final position (2 ulps of the largest
        // coordinate) and each term of the sums (weights up to max_weight times offsets
        // up to the deformed cage's extent). Below 2e-4 units for the random cages; it
        // exceeds 1e-2 only where f32 cannot resolve 1e-2 (the 3e5-unit fixture, ulp 0.03).
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for v in motion.cage.chunks_exact(2) {
            for a in 0..2 {
                lo[a] = lo[a].min(f64::from(v[a]));
                hi[a] = hi[a].max(f64::from(v[a]));
            }
        }
        let extent = (hi[0] - lo[0]).hypot(hi[1] - lo[1]);
        let far = lo.iter().chain(&hi).fold(0.0f64, |m, c| m.max(c.abs()));
        let eps = f64::from(f32::EPSILON);
        let slack =
            eps * (2.0 * far + 2.0 * cage.vertex_count() as f64 * max_weight.max(1.0) * extent);
        worst_slack = worst_slack.max(slack);
        let bound = max_l1 * motion.non_affine + slack;
        for (i, (p, q)) in a.chunks_exact(2).zip(b.chunks_exact(2)).enumerate() {
            let e = f64::from(p[0] - q[0]).hypot(f64::from(p[1] - q[1]));
            worst = worst.max(e);
            assert!(
                e <= bound && e <= MAX_ERROR.max(slack),
                "{name} motion {k} point {i}: |approx - dense| = {e:.3e}, bound {bound:.3e}"
            );
        }
    }
    (worst, worst_slack)
}

/// What one cage's grid comparison found.
pub struct GridOutcome {
    pub report: GridReport,
    /// Nodes with a dense row (grid corners plus exact points).
    pub nodes: usize,
    /// Largest |grid - dense| over the points and motions, units.
    pub worst: f64,
    /// Largest f32 rounding allowance of the comparison, units.
    pub slack: f64,
}

/// [`compare`] for a [`GridBinding`] bound for [`MAX_ERROR`] at [`MOTION`] x diameter.
pub fn compare_grid(
    name: &str,
    cage: &Cage,
    points: &[[f64; 2]],
    dense: &CageBinding,
    rng: &mut Rng,
) -> GridOutcome {
    let opts = GridOptions::for_error(MAX_ERROR, MOTION * cage.diameter());
    let (grid, report) = GridBinding::bind(cage, points, &opts).expect("grid bind");
    assert!(
        report.max_l1 <= opts.tolerance,
        "{name}: L1 {} over the tolerance {}",
        report.max_l1,
        opts.tolerance
    );
    let mut row = vec![0.0; cage.vertex_count()];
    let max_weight = (0..points.len()).fold(0.0f64, |m, i| {
        grid.effective_row(i, &mut row);
        row.iter().fold(m, |m, w| m.max(w.abs()))
    });
    let mut nodes = vec![0.0f32; grid.scratch_len()];
    let (worst, slack) = check_against_dense(
        name,
        cage,
        points.len(),
        dense,
        rng,
        (report.max_l1, max_weight),
        |c, out| grid.deform(c, &mut nodes, out).expect("sizes"),
    );
    GridOutcome {
        nodes: grid.node_count(),
        report,
        worst,
        slack,
    }
}
