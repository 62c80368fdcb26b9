//! Sparse bindings: K weights per point (u16 cage vertex index + f32 weight), chosen by
//! magnitude from the dense coordinates and then projected back onto the three affine
//! constraints (sum 1, sum lambda_j v_j = x), so the rest pose and every affine motion of
//! the cage stay exact: `lambda' = lambda_S + C^T (C C^T)^{-1} (b - C lambda_S)` with
//! `C = [1 ... 1; (v_S - x)^T]`, `b = [1; 0; 0]` (math.md A.3).
//!
//! Truncation does change non-affine deformation; [`TruncationReport`] says by how much
//! (math.md measured ~0.02-0.05 per unit of handle motion for MVC at K = 16 of 32: sparse
//! MVC is only safe for K close to the cage size; dense is the default). Verified by the
//! unit tests below (rest pose and affine reproduction to f32 rounding, K >= n is lossless).

use super::CageError;
use super::polygon::Cage;
use super::weights::CageBinding;

/// How much a sparse binding departs from the dense one it was made from.
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TruncationReport {
    /// Largest per-point L1 change of the weights, `sum_j |lambda_j - lambda'_j|`.
    pub max_l1: f64,
    /// Mean per-point L1 change.
    pub mean_l1: f64,
    /// Largest change of a single weight (the error per unit motion of one cage vertex).
    pub max_abs: f64,
    /// Largest rest-pose error of the stored (f32) sparse weights, as a fraction of the
    /// cage diameter.
    pub rest_error: f64,
    /// Largest weight magnitude after projection (projection with small K can make
    /// weights large, amplifying non-affine motion).
    pub max_weight: f64,
}

/// K weights per point.
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct SparseBinding {
    k: usize,
    cage_vertices: usize,
    indices: Vec<u16>,
    weights: Vec<f32>,
}

impl SparseBinding {
    /// Keeps the `k` largest weights of each point of `dense` (bound from `points` to
    /// `cage`), projected so rest pose and affine maps stay exact. `k` must be at least 3
    /// (three constraints); `k >= cage size` keeps every weight.
    pub fn from_dense(
        cage: &Cage,
        points: &[[f64; 2]],
        dense: &CageBinding,
        k: usize,
    ) -> Result<(SparseBinding, TruncationReport), CageError> {
        let n = cage.vertex_count();
        if dense.cage_vertex_count() != n || dense.point_count() != points.len() {
            return Err(CageError::SizeMismatch {
                what: "dense binding (points x cage vertices)",
                expected: points.len() * n,
                got: dense.point_count() * dense.cage_vertex_count(),
            });
        }
        if k < 3 {
            return Err(CageError::InvalidParameter(
                "sparse K must be at least 3 (sum and x, y constraints)",
            ));
        }
        let k = k.min(n);
        let diam = cage.diameter();
        let verts = cage.points();
        let mut out = SparseBinding {
            k,
            cage_vertices: n,
            indices: Vec::with_capacity(points.len() * k),
            weights: Vec::with_capacity(points.len() * k),
        };
        let mut report = TruncationReport::default();
        let mut row = vec![0.0f64; n];
        let mut order: Vec<usize> = (0..n).collect();
        let mut sel: Vec<usize> = Vec::with_capacity(k);
        let mut lam: Vec<f64> = vec![0.0; k];
        for (i, x) in points.iter().enumerate() {
            for (j, r) in row.iter_mut().enumerate() {
                *r = f64::from(dense.weight(i, j));
            }
            // Largest magnitude first; ties by index (stable).
            order.sort_unstable_by(|&a, &b| row[b].abs().total_cmp(&row[a].abs()).then(a.cmp(&b)));
            sel.clear();
            sel.extend_from_slice(&order[..k]);
            let mut next = k;
            loop {
                match project(verts, *x, diam, &row, &sel, &mut lam) {
                    Some(()) => break,
                    // Collinear selection: swap in the next candidate.
                    None if next < n => {
                        sel[k - 1] = order[next];
                        next += 1;
                    }
                    None => return Err(CageError::Singular { point: i }),
                }
            }
            // Report (in f64, against the dense row), then store with the largest weight
            // absorbing the f32 rounding of the others.
            let mut l1: f64 = row.iter().map(|w| w.abs()).sum();
            for (&j, &l) in sel.iter().zip(&lam) {
                l1 += (row[j] - l).abs() - row[j].abs();
                report.max_abs = report.max_abs.max((row[j] - l).abs());
                report.max_weight = report.max_weight.max(l.abs());
            }
            for (j, w) in row.iter().enumerate() {
                if !sel.contains(&j) {
                    report.max_abs = report.max_abs.max(w.abs());
                }
            }
            report.max_l1 = report.max_l1.max(l1);
            report.mean_l1 += l1;
            let big = (0..k).fold(0, |b, a| if lam[a].abs() > lam[b].abs() { a } else { b });
            let mut rest = 0.0;
            let base = out.weights.len();
            for (a, (&j, &l)) in sel.iter().zip(&lam).enumerate() {
                out.indices.push(j as u16);
                let lf = if a == big { 0.0 } else { l as f32 };
                rest += f64::from(lf);
                out.weights.push(lf);
            }
            out.weights[base + big] = (1.0 - rest) as f32;
            // Rest-pose error of what is stored, relative to the first selected vertex.
            let o = verts[sel[0]];
            let (mut ex, mut ey) = (o[0] - x[0], o[1] - x[1]);
            for a in 0..k {
                let w = f64::from(out.weights[base + a]);
                let v = verts[sel[a]];
                ex += w * (v[0] - o[0]);
                ey += w * (v[1] - o[1]);
            }
            report.rest_error = report.rest_error.max(ex.hypot(ey) / diam);
        }
        if !points.is_empty() {
            report.mean_l1 /= points.len() as f64;
        }
        Ok((out, report))
    }

    /// Weights per point.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Number of bound points.
    pub fn point_count(&self) -> usize {
        self.indices.len().checked_div(self.k).unwrap_or(0)
    }

    /// Number of cage vertices.
    pub fn cage_vertex_count(&self) -> usize {
        self.cage_vertices
    }

    /// Cage vertex indices, `k` per point.
    pub fn indices(&self) -> &[u16] {
        &self.indices
    }

    /// Weights, `k` per point.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// A sparse binding from raw parts (as loaded from a file); checks sizes and indices.
    pub fn from_parts(
        k: usize,
        cage_vertices: usize,
        indices: Vec<u16>,
        weights: Vec<f32>,
    ) -> Result<SparseBinding, CageError> {
        if k == 0 || indices.len() != weights.len() || !indices.len().is_multiple_of(k) {
            return Err(CageError::SizeMismatch {
                what: "sparse indices and weights",
                expected: indices.len(),
                got: weights.len(),
            });
        }
        if let Some(&bad) = indices.iter().find(|&&j| usize::from(j) >= cage_vertices) {
            return Err(CageError::IndexOutOfRange {
                index: u32::from(bad),
                len: cage_vertices,
            });
        }
        Ok(SparseBinding {
            k,
            cage_vertices,
            indices,
            weights,
        })
    }

    /// Deformed points from deformed cage vertices (x, y pairs), relative to each point's
    /// first selected vertex like the dense kernel. Allocates nothing.
    pub fn deform(&self, cage: &[f32], out: &mut [f32]) -> Result<(), CageError> {
        if cage.len() != 2 * self.cage_vertices || out.len() != 2 * self.point_count() {
            return Err(CageError::SizeMismatch {
                what: "sparse deform (cage, output)",
                expected: 2 * self.cage_vertices,
                got: cage.len(),
            });
        }
        let k = self.k;
        for ((idx, w), pair) in self
            .indices
            .chunks_exact(k)
            .zip(self.weights.chunks_exact(k))
            .zip(out.chunks_exact_mut(2))
        {
            let o = 2 * usize::from(idx[0]);
            let (ox, oy) = (cage[o], cage[o + 1]);
            let (mut ax, mut ay) = (0.0f32, 0.0f32);
            for (&j, &wj) in idx.iter().zip(w) {
                let c = 2 * usize::from(j);
                ax += wj * (cage[c] - ox);
                ay += wj * (cage[c + 1] - oy);
            }
            pair[0] = ox + ax;
            pair[1] = oy + ay;
        }
        Ok(())
    }
}

/// Projects `row[sel]` onto the affine constraints at point `x`, writing `lam`; `None` when
/// the selected vertices are (nearly) collinear.
fn project(
    verts: &[[f64; 2]],
    x: [f64; 2],
    diam: f64,
    row: &[f64],
    sel: &[usize],
    lam: &mut [f64],
) -> Option<()> {
    // Constraint rows in units of the diameter: C = [1; u; v], b = [1; 0; 0].
    let mut m = [[0.0f64; 3]; 3];
    let mut r = [1.0f64, 0.0, 0.0];
    for (a, &j) in sel.iter().enumerate() {
        lam[a] = row[j];
        let c = [
            1.0,
            (verts[j][0] - x[0]) / diam,
            (verts[j][1] - x[1]) / diam,
        ];
        for p in 0..3 {
            r[p] -= c[p] * row[j];
            for q in 0..3 {
                m[p][q] += c[p] * c[q];
            }
        }
    }
    if r.iter().all(|&e| e == 0.0) {
        return Some(());
    }
    let mu = solve3(m, r)?;
    for (a, &j) in sel.iter().enumerate() {
        let c = [
            1.0,
            (verts[j][0] - x[0]) / diam,
            (verts[j][1] - x[1]) / diam,
        ];
        lam[a] += c[0] * mu[0] + c[1] * mu[1] + c[2] * mu[2];
    }
    Some(())
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
    if d.is_nan() || d.abs() <= 1e-10 * scale.abs() {
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

    #[test]
    fn rest_pose_and_affine_maps_stay_exact() {
        let cage = blob(32);
        let pts = points();
        let dense = bind_mvc(&cage, &pts).expect("inside");
        for k in [3, 4, 8, 16] {
            let (sb, rep) = SparseBinding::from_dense(&cage, &pts, &dense, k).expect("ok");
            assert_eq!(sb.k(), k);
            assert!(rep.rest_error < 1e-6, "K={k}: rest {}", rep.rest_error);
            assert!(rep.max_l1 > 0.0 && rep.mean_l1 <= rep.max_l1);
            let affine = |p: [f64; 2]| {
                [
                    1.5 * p[0] + 0.4 * p[1] + 3.0,
                    -0.2 * p[0] + 0.7 * p[1] - 1.0,
                ]
            };
            let mut out = vec![0.0; 2 * pts.len()];
            sb.deform(&flat(&cage, affine), &mut out).expect("sizes");
            for (p, o) in pts.iter().zip(out.chunks_exact(2)) {
                let q = affine(*p);
                let err = (f64::from(o[0]) - q[0]).hypot(f64::from(o[1]) - q[1]);
                // f32 rounding, amplified by the projected weights' magnitude.
                assert!(err < 1e-5 * rep.max_weight.max(1.0), "K={k}: {err}");
            }
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
    fn parts_are_validated() {
        assert!(SparseBinding::from_parts(3, 4, vec![0, 1, 4], vec![0.5; 3]).is_err());
        assert!(SparseBinding::from_parts(3, 4, vec![0, 1], vec![0.5; 2]).is_err());
        assert!(SparseBinding::from_parts(3, 4, vec![0, 1, 3], vec![0.5; 3]).is_ok());
    }
}
