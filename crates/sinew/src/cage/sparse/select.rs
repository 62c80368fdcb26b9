//! Choosing the kept weights of a [`SparseBinding`] from dense ones, and the projection
//! that restores partition of unity and linear precision (module docs of `sparse`).
//!
//! Per point the dense row (f32, read back as f64) is ordered by magnitude (ties by index).
//! The fixed-K path keeps the first K; the tolerance path grows the kept set one weight at a
//! time, updating the projection's 3x3 normal equations in O(1), and stops at the first
//! size whose exact L1 change `dropped mass + sum |correction|` is within the tolerance
//! (the dropped mass alone is a lower bound, so sizes below it are skipped unsolved).

use super::{SparseBinding, TruncationReport};
use crate::cage::CageError;
use crate::cage::polygon::Cage;
use crate::cage::weights::CageBinding;

/// How [`SparseBinding::from_dense_tolerance`] chooses the kept weights.
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of `Character::update`).
///
/// ```
/// use sinew::cage::SparseOptions;
/// // 0.05 units of error allowed while the cage strays at most 2.5 units from an affine
/// // motion of itself: weights may change by 0.02 in L1 per point.
/// let o = SparseOptions::for_error(0.05, 2.5);
/// assert!((o.tolerance - 0.02).abs() < 1e-15);
/// assert_eq!((o.min_weights, o.max_weights), (3, usize::MAX));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SparseOptions {
    /// Largest per-point L1 change of the weights, `sum_j |lambda_j - lambda'_j|`, after
    /// projection: the deformation error per unit of non-affine cage motion.
    pub tolerance: f64,
    /// Fewest weights kept (at least 3: the projection has three constraints).
    pub min_weights: usize,
    /// Most weights kept; a point that needs more keeps this many and counts in
    /// [`TruncationReport::over_tolerance`]. `usize::MAX`: no cap.
    pub max_weights: usize,
}

impl SparseOptions {
    /// Options with an L1 `tolerance`, at least 3 weights and no cap.
    pub fn new(tolerance: f64) -> SparseOptions {
        SparseOptions {
            tolerance,
            min_weights: 3,
            max_weights: usize::MAX,
        }
    }

    /// Options that keep the deformation within `max_error` units of the dense one while
    /// no deformed cage vertex is more than `motion` units from where some affine map of
    /// the rest cage puts it (the tolerance is `max_error / motion`).
    pub fn for_error(max_error: f64, motion: f64) -> SparseOptions {
        SparseOptions::new(max_error / motion)
    }
}

/// The per-point state of the projection: normal equations of the kept set.
struct Normal {
    m: [[f64; 3]; 3],
    /// `b - C lambda_S`.
    r: [f64; 3],
}

impl Normal {
    fn new() -> Normal {
        Normal {
            m: [[0.0; 3]; 3],
            r: [1.0, 0.0, 0.0],
        }
    }

    fn add(&mut self, c: [f64; 3], w: f64) {
        for p in 0..3 {
            self.r[p] -= c[p] * w;
            for q in 0..3 {
                self.m[p][q] += c[p] * c[q];
            }
        }
    }

    /// The multipliers `mu` (corrections are `c . mu`); `None` when singular.
    fn solve(&self) -> Option<[f64; 3]> {
        if self.r.iter().all(|&e| e == 0.0) {
            return Some([0.0; 3]);
        }
        solve3(self.m, self.r)
    }
}

/// Constraint column of cage vertex `v` at point `x` (offsets in units of the diameter).
fn column(v: [f64; 2], x: [f64; 2], diam: f64) -> [f64; 3] {
    [1.0, (v[0] - x[0]) / diam, (v[1] - x[1]) / diam]
}

fn dot(c: [f64; 3], mu: [f64; 3]) -> f64 {
    c[0] * mu[0] + c[1] * mu[1] + c[2] * mu[2]
}

/// What the selection of one point produced: its kept vertices and projected weights.
struct Row<'a> {
    sel: &'a [usize],
    lam: &'a [f64],
}

/// Accumulates the report and the compressed rows.
struct Builder<'a> {
    verts: &'a [[f64; 2]],
    diam: f64,
    out: SparseBinding,
    report: TruncationReport,
}

impl Builder<'_> {
    /// Stores one row (the largest weight absorbs the f32 rounding of the others) and
    /// adds it to the report against the dense `row`.
    fn push(&mut self, x: [f64; 2], dense: &[f64], row: Row<'_>) -> Result<(), CageError> {
        let r = &mut self.report;
        let mut l1: f64 = dense.iter().map(|w| w.abs()).sum();
        let mut kept_max = 0.0f64;
        for (&j, &l) in row.sel.iter().zip(row.lam) {
            l1 += (dense[j] - l).abs() - dense[j].abs();
            kept_max = kept_max.max((dense[j] - l).abs());
            r.max_weight = r.max_weight.max(l.abs());
        }
        // Dropped weights: each is a change of its full size.
        let dropped_max = dense
            .iter()
            .enumerate()
            .filter(|(j, _)| !row.sel.contains(j))
            .fold(0.0f64, |a, (_, w)| a.max(w.abs()));
        r.max_abs = r.max_abs.max(kept_max).max(dropped_max);
        r.max_l1 = r.max_l1.max(l1);
        r.mean_l1 += l1;
        let k = row.sel.len();
        r.max_kept = r.max_kept.max(k);
        r.min_kept = if self.out.point_count() == 0 {
            k
        } else {
            r.min_kept.min(k)
        };
        r.mean_kept += k as f64;
        let big = (0..k).fold(0, |b, a| {
            if row.lam[a].abs() > row.lam[b].abs() {
                a
            } else {
                b
            }
        });
        let base = self.out.weights.len();
        let mut rest = 0.0;
        for (a, (&j, &l)) in row.sel.iter().zip(row.lam).enumerate() {
            self.out.indices.push(j as u16);
            let lf = if a == big { 0.0 } else { l as f32 };
            rest += f64::from(lf);
            self.out.weights.push(lf);
        }
        self.out.weights[base + big] = (1.0 - rest) as f32;
        let end = u32::try_from(self.out.weights.len())
            .map_err(|_| CageError::InvalidParameter("sparse binding too large (u32 offsets)"))?;
        self.out.offsets.push(end);
        // Rest-pose error of what is stored, relative to the first kept vertex.
        let o = self.verts[row.sel[0]];
        let (mut ex, mut ey) = (o[0] - x[0], o[1] - x[1]);
        for (a, &j) in row.sel.iter().enumerate() {
            let w = f64::from(self.out.weights[base + a]);
            let v = self.verts[j];
            ex += w * (v[0] - o[0]);
            ey += w * (v[1] - o[1]);
        }
        r.rest_error = r.rest_error.max(ex.hypot(ey) / self.diam);
        Ok(())
    }

    fn finish(mut self) -> (SparseBinding, TruncationReport) {
        let o = self.out;
        self.out = SparseBinding::assemble(o.cage_vertices, o.offsets, o.indices, o.weights);
        let m = self.out.point_count();
        if m > 0 {
            self.report.mean_l1 /= m as f64;
            self.report.mean_kept /= m as f64;
        }
        (self.out, self.report)
    }
}

/// Checks sizes; returns the builder and a scratch row.
fn start<'a>(
    cage: &'a Cage,
    points: &[[f64; 2]],
    dense: &CageBinding,
) -> Result<Builder<'a>, CageError> {
    let n = cage.vertex_count();
    if dense.cage_vertex_count() != n || dense.point_count() != points.len() {
        return Err(CageError::SizeMismatch {
            what: "dense binding (points x cage vertices)",
            expected: points.len() * n,
            got: dense.point_count() * dense.cage_vertex_count(),
        });
    }
    if n > usize::from(u16::MAX) + 1 {
        return Err(CageError::TooManyVertices { count: n });
    }
    let mut offsets = Vec::with_capacity(points.len() + 1);
    offsets.push(0);
    Ok(Builder {
        verts: cage.points(),
        diam: cage.diameter(),
        out: SparseBinding {
            cage_vertices: n,
            offsets,
            indices: Vec::new(),
            weights: Vec::new(),
            blocks: Default::default(),
        },
        report: TruncationReport::default(),
    })
}

/// Point `i`'s dense row into `row` and its order by magnitude into `order`.
fn read_row(dense: &CageBinding, i: usize, row: &mut [f64], order: &mut [usize]) {
    for (j, r) in row.iter_mut().enumerate() {
        *r = f64::from(dense.weight(i, j));
    }
    for (k, o) in order.iter_mut().enumerate() {
        *o = k;
    }
    order.sort_unstable_by(|&a, &b| row[b].abs().total_cmp(&row[a].abs()).then(a.cmp(&b)));
}

impl SparseBinding {
    /// Keeps the `k` largest weights of each point of `dense` (bound from `points` to
    /// `cage`), projected so rest pose and affine maps stay exact. `k` must be at least 3
    /// (three constraints); `k >= cage size` keeps every weight. No error bound: prefer
    /// [`SparseBinding::from_dense_tolerance`].
    ///
    /// ```
    /// use sinew::cage::{Cage, SparseBinding, bind_mvc};
    /// let cage = Cage::from_loops(&[[[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [2.0, 5.0], [0.0, 4.0]]])?;
    /// let dense = bind_mvc(&cage, &[[1.0, 1.0], [3.0, 2.0]])?;
    /// let (sparse, report) = SparseBinding::from_dense(&cage, &[[1.0, 1.0], [3.0, 2.0]], &dense, 3)?;
    /// assert_eq!((sparse.k(), report.max_kept), (3, 3));
    /// assert!(report.rest_error < 1e-6);
    /// # Ok::<(), sinew::cage::CageError>(())
    /// ```
    pub fn from_dense(
        cage: &Cage,
        points: &[[f64; 2]],
        dense: &CageBinding,
        k: usize,
    ) -> Result<(SparseBinding, TruncationReport), CageError> {
        if k < 3 {
            return Err(CageError::InvalidParameter(
                "sparse K must be at least 3 (sum and x, y constraints)",
            ));
        }
        let mut b = start(cage, points, dense)?;
        let n = cage.vertex_count();
        let k = k.min(n);
        let mut row = vec![0.0f64; n];
        let mut order = vec![0usize; n];
        let mut sel: Vec<usize> = Vec::with_capacity(k);
        let mut lam = vec![0.0f64; k];
        for (i, &x) in points.iter().enumerate() {
            read_row(dense, i, &mut row, &mut order);
            sel.clear();
            sel.extend_from_slice(&order[..k]);
            let mut next = k;
            loop {
                let mut nm = Normal::new();
                for &j in &sel {
                    nm.add(column(b.verts[j], x, b.diam), row[j]);
                }
                if let Some(mu) = nm.solve() {
                    for (l, &j) in lam.iter_mut().zip(&sel) {
                        *l = row[j] + dot(column(b.verts[j], x, b.diam), mu);
                    }
                    break;
                }
                // Collinear selection: swap in the next candidate.
                if next >= n {
                    return Err(CageError::Singular { point: i });
                }
                sel[k - 1] = order[next];
                next += 1;
            }
            b.push(
                x,
                &row,
                Row {
                    sel: &sel,
                    lam: &lam,
                },
            )?;
        }
        Ok(b.finish())
    }

    /// Keeps, per point of `dense` (bound from `points` to `cage`), the fewest largest
    /// weights whose projection changes the weights by at most `opts.tolerance` in L1, so
    /// the deformation stays within `tolerance * d` of the dense one when no deformed cage
    /// vertex is more than `d` from an affine image of the rest cage (module docs). Rest
    /// pose and affine motion stay exact (to f32 rounding). `tolerance` 0 keeps what the
    /// projection of f32 rounding needs, i.e. nearly every weight.
    ///
    /// ```
    /// use sinew::cage::{Cage, SparseBinding, SparseOptions, bind_mvc};
    /// let cage = Cage::from_loops(&[[[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [2.0, 5.0], [0.0, 4.0]]])?;
    /// let pts = [[1.0, 1.0], [3.0, 2.0], [2.0, 4.9]];
    /// let dense = bind_mvc(&cage, &pts)?;
    /// let (loose, r1) = SparseBinding::from_dense_tolerance(&cage, &pts, &dense, &SparseOptions::new(0.5))?;
    /// let (tight, r2) = SparseBinding::from_dense_tolerance(&cage, &pts, &dense, &SparseOptions::new(1e-3))?;
    /// assert!(r1.max_l1 <= 0.5 && r2.max_l1 <= 1e-3);
    /// assert!(loose.weight_count() <= tight.weight_count());
    /// assert!(SparseBinding::from_dense_tolerance(&cage, &pts, &dense, &SparseOptions::new(f64::NAN)).is_err());
    /// # Ok::<(), sinew::cage::CageError>(())
    /// ```
    pub fn from_dense_tolerance(
        cage: &Cage,
        points: &[[f64; 2]],
        dense: &CageBinding,
        opts: &SparseOptions,
    ) -> Result<(SparseBinding, TruncationReport), CageError> {
        let tol = opts.tolerance;
        if !tol.is_finite() || tol < 0.0 {
            return Err(CageError::InvalidParameter(
                "sparse tolerance must be finite and at least 0",
            ));
        }
        if opts.min_weights < 3 || opts.max_weights < opts.min_weights {
            return Err(CageError::InvalidParameter(
                "sparse weights: need 3 <= min_weights <= max_weights",
            ));
        }
        let mut b = start(cage, points, dense)?;
        let n = cage.vertex_count();
        let (lo, hi) = (opts.min_weights.min(n), opts.max_weights.min(n));
        let mut row = vec![0.0f64; n];
        let mut order = vec![0usize; n];
        let mut cols: Vec<[f64; 3]> = Vec::with_capacity(n);
        let mut lam: Vec<f64> = Vec::with_capacity(n);
        for (i, &x) in points.iter().enumerate() {
            read_row(dense, i, &mut row, &mut order);
            let total: f64 = row.iter().map(|w| w.abs()).sum();
            let mut kept = 0.0f64;
            let mut nm = Normal::new();
            cols.clear();
            let mut done: Option<[f64; 3]> = None;
            let mut over = false;
            for (k, &j) in order.iter().enumerate() {
                let c = column(b.verts[j], x, b.diam);
                nm.add(c, row[j]);
                cols.push(c);
                kept += row[j].abs();
                let size = k + 1;
                // The dropped mass (never negative) bounds the L1 change from below.
                let dropped = (total - kept).max(0.0);
                if size < lo || (dropped > tol && size < hi && size < n) {
                    continue;
                }
                let Some(mu) = nm.solve() else { continue };
                let l1 = dropped + cols.iter().map(|&c| dot(c, mu).abs()).sum::<f64>();
                if l1 <= tol || size >= hi || size == n {
                    over = l1 > tol && size >= hi && size < n;
                    done = Some(mu);
                    break;
                }
            }
            let Some(mu) = done else {
                return Err(CageError::Singular { point: i });
            };
            let sel = &order[..cols.len()];
            lam.clear();
            lam.extend(sel.iter().zip(&cols).map(|(&j, &c)| row[j] + dot(c, mu)));
            b.report.over_tolerance += usize::from(over);
            b.push(x, &row, Row { sel, lam: &lam })?;
        }
        Ok(b.finish())
    }
}

/// Solves a symmetric 3x3 system by Cramer's rule; `None` when it is nearly singular.
fn solve3(m: [[f64; 3]; 3], r: [f64; 3]) -> Option<[f64; 3]> {
    let det = |a: [[f64; 3]; 3]| {
        a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
            - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
    };
    let d = det(m);
    let scale = m[0][0] * m[1][1] * m[2][2];
    if !d.is_finite() || d.abs() <= 1e-10 * scale.abs() {
        return None;
    }
    let mut out = [0.0; 3];
    for (c, o) in out.iter_mut().enumerate() {
        let mut a = m;
        for row in 0..3 {
            a[row][c] = r[row];
        }
        *o = det(a) / d;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cage::bind::bind_mvc;

    fn blob(n: usize) -> Cage {
        let pts: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / n as f64;
                let r = 1.0 + 0.25 * (3.0 * a).cos();
                [r * a.cos(), r * a.sin()]
            })
            .collect();
        Cage::from_loops(&[pts]).expect("valid")
    }

    fn points() -> Vec<[f64; 2]> {
        let mut p: Vec<[f64; 2]> = (0..200)
            .map(|k| {
                let t = f64::from(k);
                [0.6 * (t * 0.37).sin(), 0.6 * (t * 0.23).cos()]
            })
            .collect();
        p.push([1.25, 0.0]); // on cage vertex 0
        p
    }

    fn flat(c: &Cage, f: impl Fn([f64; 2]) -> [f64; 2]) -> Vec<f32> {
        c.points()
            .iter()
            .flat_map(|&p| {
                let q = f(p);
                [q[0] as f32, q[1] as f32]
            })
            .collect()
    }

    /// Largest distance of the deformed points from `f` applied to the rest points.
    fn affine_error(
        sb: &SparseBinding,
        cage: &Cage,
        pts: &[[f64; 2]],
        f: impl Fn([f64; 2]) -> [f64; 2] + Copy,
    ) -> f64 {
        let mut out = vec![0.0; 2 * pts.len()];
        sb.deform(&flat(cage, f), &mut out).expect("sizes");
        pts.iter()
            .zip(out.chunks_exact(2))
            .map(|(p, o)| {
                let q = f(*p);
                (f64::from(o[0]) - q[0]).hypot(f64::from(o[1]) - q[1])
            })
            .fold(0.0, f64::max)
    }

    fn affine(p: [f64; 2]) -> [f64; 2] {
        [
            1.5 * p[0] + 0.4 * p[1] + 3.0,
            -0.2 * p[0] + 0.7 * p[1] - 1.0,
        ]
    }

    #[test]
    fn fixed_k_keeps_rest_pose_and_affine_maps_exact() {
        let cage = blob(32);
        let pts = points();
        let dense = bind_mvc(&cage, &pts).expect("inside");
        for k in [3, 4, 8, 16] {
            let (sb, rep) = SparseBinding::from_dense(&cage, &pts, &dense, k).expect("ok");
            assert_eq!((sb.k(), rep.min_kept, rep.max_kept), (k, k, k));
            assert!(sb.is_uniform());
            assert!(rep.rest_error < 1e-6, "K={k}: rest {}", rep.rest_error);
            assert!(rep.max_l1 > 0.0 && rep.mean_l1 <= rep.max_l1);
            // f32 rounding, amplified by the projected weights' magnitude.
            let err = affine_error(&sb, &cage, &pts, affine);
            assert!(err < 1e-5 * rep.max_weight.max(1.0), "K={k}: {err}");
        }
    }

    #[test]
    fn k_at_least_the_cage_size_is_lossless() {
        let cage = blob(6);
        let pts = points();
        let dense = bind_mvc(&cage, &pts).expect("inside");
        let (sb, rep) = SparseBinding::from_dense(&cage, &pts, &dense, 10).expect("ok");
        assert_eq!(sb.k(), 6);
        assert!(rep.max_abs < 1e-6, "{}", rep.max_abs);
        assert!(SparseBinding::from_dense(&cage, &pts, &dense, 2).is_err());
    }

    #[test]
    fn tolerance_bounds_the_l1_change_and_keeps_affine_maps_exact() {
        let cage = blob(32);
        let pts = points();
        let dense = bind_mvc(&cage, &pts).expect("inside");
        let mut last_count = 0;
        for tol in [0.5, 0.2, 0.05, 0.01] {
            let opts = SparseOptions::new(tol);
            let (sb, rep) =
                SparseBinding::from_dense_tolerance(&cage, &pts, &dense, &opts).expect("ok");
            assert!(rep.max_l1 <= tol, "tol {tol}: {}", rep.max_l1);
            assert_eq!(rep.over_tolerance, 0);
            assert!(rep.min_kept >= 3 && rep.max_kept <= 32);
            assert!(sb.weight_count() >= last_count, "tighter keeps more");
            last_count = sb.weight_count();
            assert!(rep.rest_error < 1e-6, "tol {tol}: rest {}", rep.rest_error);
            let err = affine_error(&sb, &cage, &pts, affine);
            assert!(err < 1e-5 * rep.max_weight.max(1.0), "tol {tol}: {err}");
            // The report's L1 is the true change against the dense row.
            let mut worst = 0.0f64;
            for i in 0..pts.len() {
                let (s, e) = (sb.offsets()[i] as usize, sb.offsets()[i + 1] as usize);
                let mut l1: f64 = (0..32).map(|j| f64::from(dense.weight(i, j)).abs()).sum();
                for (&j, &w) in sb.indices()[s..e].iter().zip(&sb.weights()[s..e]) {
                    let d = f64::from(dense.weight(i, usize::from(j)));
                    l1 += (d - f64::from(w)).abs() - d.abs();
                }
                worst = worst.max(l1);
            }
            assert!(
                (worst - rep.max_l1).abs() < 1e-6,
                "{worst} vs {}",
                rep.max_l1
            );
        }
    }

    #[test]
    fn a_cap_is_reported_and_bad_options_are_errors() {
        let cage = blob(32);
        let pts = points();
        let dense = bind_mvc(&cage, &pts).expect("inside");
        let capped = SparseOptions {
            max_weights: 5,
            ..SparseOptions::new(1e-3)
        };
        let (sb, rep) =
            SparseBinding::from_dense_tolerance(&cage, &pts, &dense, &capped).expect("ok");
        assert_eq!(sb.k(), 5);
        assert!(rep.over_tolerance > 0 && rep.max_l1 > 1e-3);
        for bad in [
            SparseOptions::new(-1.0),
            SparseOptions::new(f64::INFINITY),
            SparseOptions {
                min_weights: 2,
                ..SparseOptions::new(0.1)
            },
            SparseOptions {
                max_weights: 3,
                min_weights: 4,
                ..SparseOptions::new(0.1)
            },
        ] {
            assert!(matches!(
                SparseBinding::from_dense_tolerance(&cage, &pts, &dense, &bad),
                Err(CageError::InvalidParameter(_))
            ));
        }
        let wrong = bind_mvc(&cage, &pts[..10]).expect("inside");
        assert!(
            SparseBinding::from_dense_tolerance(&cage, &pts, &wrong, &SparseOptions::new(0.1))
                .is_err()
        );
    }
}
