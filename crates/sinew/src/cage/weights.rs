//! [`CageBinding`]: dense bound weights (f32) and the deformation kernel
//! `x'_i = sum_j lambda_ij c'_j`.
//!
//! Layout: points in blocks of [`LANES`]; inside a block, one row of `LANES` weights per cage
//! vertex (`weights[(block * n + j) * LANES + lane]`). The kernel keeps a block's `LANES`
//! x and y accumulators in registers and streams its weights once, front to back, in a
//! loop over fixed-size arrays that stable Rust vectorises (no intrinsics, no `unsafe`).
//! The weighted sum runs relative to the deformed cage's first vertex, `x' = o + sum_j
//! lambda_ij (c'_j - o)` (equal in exact arithmetic because the weights sum to 1), so the
//! f32 rounding scales with the cage's size, not with its distance from the origin.
//! Verified by the unit tests below and the property tests in `proptests.rs`
//! (identity at rest, affine reproduction).

use super::CageError;

/// Points per block of the blocked weight layouts, dense and sparse (one 64-byte cache line
/// of f32 per cage vertex).
pub const LANES: usize = 16;

/// Dense weights of `points` mesh points over `cage_vertices` cage vertices.
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct CageBinding {
    cage_vertices: usize,
    points: usize,
    weights: Vec<f32>,
}

impl CageBinding {
    /// All-zero weights (filled by [`CageBinding::set_row`]).
    pub fn zeroed(points: usize, cage_vertices: usize) -> CageBinding {
        let blocks = points.div_ceil(LANES);
        CageBinding {
            cage_vertices,
            points,
            weights: vec![0.0; blocks * cage_vertices * LANES],
        }
    }

    /// Weights from row-major rows (`rows[point * cage_vertices + j]`).
    pub fn from_rows(
        points: usize,
        cage_vertices: usize,
        rows: &[f32],
    ) -> Result<CageBinding, CageError> {
        let expected = points.saturating_mul(cage_vertices);
        if rows.len() != expected {
            return Err(CageError::SizeMismatch {
                what: "weight rows",
                expected,
                got: rows.len(),
            });
        }
        let mut b = CageBinding::zeroed(points, cage_vertices);
        if cage_vertices > 0 {
            for (i, row) in rows.chunks_exact(cage_vertices).enumerate() {
                for (j, &w) in row.iter().enumerate() {
                    let k = b.index(i, j);
                    b.weights[k] = w;
                }
            }
        }
        Ok(b)
    }

    /// Sets point `i`'s weights from an f64 row, rounding to f32 so that the stored row
    /// sums to 1 as closely as f32 allows: the largest weight takes up the rounding of the
    /// others. Out-of-range `i` or a short row is ignored.
    pub fn set_row(&mut self, i: usize, row: &[f64]) {
        if i >= self.points || row.len() != self.cage_vertices {
            return;
        }
        super::bind::store_row(&mut self.weights, i, self.cage_vertices, row);
    }

    /// The blocked weights, for filling in place.
    pub(crate) fn weights_mut(&mut self) -> &mut [f32] {
        &mut self.weights
    }

    /// The blocked weights (`(block * n + j) * LANES + lane`).
    pub fn blocked_weights(&self) -> &[f32] {
        &self.weights
    }

    #[inline]
    fn index(&self, i: usize, j: usize) -> usize {
        ((i / LANES) * self.cage_vertices + j) * LANES + i % LANES
    }

    /// Number of bound points (mesh vertices).
    pub fn point_count(&self) -> usize {
        self.points
    }

    /// Number of cage vertices (columns).
    pub fn cage_vertex_count(&self) -> usize {
        self.cage_vertices
    }

    /// Weight of cage vertex `j` at point `i` (0 out of range).
    pub fn weight(&self, i: usize, j: usize) -> f32 {
        if i < self.points && j < self.cage_vertices {
            self.weights[self.index(i, j)]
        } else {
            0.0
        }
    }

    /// Point `i`'s weights into `out` (as many as fit).
    pub fn row(&self, i: usize, out: &mut [f32]) {
        for (j, o) in out.iter_mut().enumerate().take(self.cage_vertices) {
            *o = self.weight(i, j);
        }
    }

    /// All weights, row-major (`points * cage_vertices`).
    pub fn to_rows(&self) -> Vec<f32> {
        let mut rows = vec![0.0; self.points * self.cage_vertices];
        if self.cage_vertices > 0 {
            for (i, row) in rows.chunks_exact_mut(self.cage_vertices).enumerate() {
                self.row(i, row);
            }
        }
        rows
    }

    /// Number of [`LANES`]-point blocks.
    pub fn block_count(&self) -> usize {
        self.points.div_ceil(LANES)
    }

    /// Bytes of weight data the kernel streams per call.
    pub fn weight_bytes(&self) -> usize {
        self.weights.len() * std::mem::size_of::<f32>()
    }

    /// Deformed points from deformed cage vertices: `cage` holds `2 * cage_vertices` floats
    /// (x, y pairs in the cage's column order), `out` receives `2 * points` floats.
    /// Allocates nothing.
    pub fn deform(&self, cage: &[f32], out: &mut [f32]) -> Result<(), CageError> {
        self.check(cage, out)?;
        self.deform_blocks(cage, out, 0);
        Ok(())
    }

    /// Checks the sizes of a [`CageBinding::deform`] call.
    pub(crate) fn check(&self, cage: &[f32], out: &[f32]) -> Result<(), CageError> {
        if cage.len() != 2 * self.cage_vertices {
            return Err(CageError::SizeMismatch {
                what: "deformed cage (x, y pairs)",
                expected: 2 * self.cage_vertices,
                got: cage.len(),
            });
        }
        if out.len() != 2 * self.points {
            return Err(CageError::SizeMismatch {
                what: "output vertices (x, y pairs)",
                expected: 2 * self.points,
                got: out.len(),
            });
        }
        Ok(())
    }

    /// The kernel over the blocks covered by `out`, which starts at block `first_block`
    /// (`out` holds the x, y pairs of points `first_block * LANES ..`).
    pub(crate) fn deform_blocks(&self, cage: &[f32], out: &mut [f32], first_block: usize) {
        let n = self.cage_vertices;
        if n == 0 {
            out.fill(0.0);
            return;
        }
        let (ox, oy) = (cage[0], cage[1]);
        let stride = n * LANES;
        let blocks = self.weights.chunks_exact(stride).skip(first_block);
        for (block, dst) in blocks.zip(out.chunks_mut(2 * LANES)) {
            let (ax, ay) = block_sum(block, cage, ox, oy);
            for (l, pair) in dst.chunks_exact_mut(2).enumerate() {
                pair[0] = ox + ax[l];
                pair[1] = oy + ay[l];
            }
        }
    }
}

/// `sum_j w_j (c_j - o)` for the `LANES` points of one block (weights `n * LANES`).
#[inline]
pub(crate) fn block_sum(
    block: &[f32],
    cage: &[f32],
    ox: f32,
    oy: f32,
) -> ([f32; LANES], [f32; LANES]) {
    let mut ax = [0.0f32; LANES];
    let mut ay = [0.0f32; LANES];
    for (w, c) in block.chunks_exact(LANES).zip(cage.chunks_exact(2)) {
        let (cx, cy) = (c[0] - ox, c[1] - oy);
        // Fixed-size lane loops: the compiler keeps ax/ay in vector registers.
        let w: &[f32; LANES] = match w.try_into() {
            Ok(w) => w,
            Err(_) => continue,
        };
        for l in 0..LANES {
            ax[l] += w[l] * cx;
            ay[l] += w[l] * cy;
        }
    }
    (ax, ay)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_through_the_blocked_layout() {
        let (m, n) = (37, 5);
        let rows: Vec<f32> = (0..m * n).map(|k| k as f32 * 0.25).collect();
        let b = CageBinding::from_rows(m, n, &rows).expect("sizes");
        assert_eq!(b.to_rows(), rows);
        assert_eq!(b.weight(36, 4), rows[36 * 5 + 4]);
        assert_eq!(b.block_count(), 3);
        assert!(matches!(
            CageBinding::from_rows(m, n, &rows[1..]),
            Err(CageError::SizeMismatch { .. })
        ));
    }

    #[test]
    fn deform_is_the_weighted_sum() {
        // Two points over a 3-vertex cage, by hand.
        let rows = [0.5, 0.25, 0.25, 0.0, 0.0, 1.0];
        let b = CageBinding::from_rows(2, 3, &rows).expect("sizes");
        let cage = [10.0, 0.0, 0.0, 4.0, 2.0, 2.0];
        let mut out = [0.0; 4];
        b.deform(&cage, &mut out).expect("sizes");
        // 0.5*(10,0) + 0.25*(0,4) + 0.25*(2,2) = (5.5, 1.5); second point = vertex 2.
        assert_eq!(out, [5.5, 1.5, 2.0, 2.0]);
        assert!(b.deform(&cage[..4], &mut out).is_err());
        assert!(b.deform(&cage, &mut out[..2]).is_err());
    }

    #[test]
    fn set_row_keeps_the_f32_row_summing_to_one() {
        let mut b = CageBinding::zeroed(1, 3);
        b.set_row(0, &[0.1, 0.7, 0.2]);
        let s: f64 = (0..3).map(|j| f64::from(b.weight(0, j))).sum();
        assert!((s - 1.0).abs() < 1e-7);
        assert_eq!(b.weight(0, 0), 0.1f32);
    }

    #[test]
    fn far_from_origin_rest_pose_stays_exact_to_the_cage_size() {
        // A 1-unit square 1e4 units from the origin: relative-to-first-vertex summation
        // keeps the error at f32 rounding of the cage size, not of 1e4.
        let rows = [0.25f32; 4];
        let b = CageBinding::from_rows(1, 4, &rows).expect("sizes");
        let o = 10_000.0f32;
        let cage = [o, o, o + 1.0, o, o + 1.0, o + 1.0, o, o + 1.0];
        let mut out = [0.0; 2];
        b.deform(&cage, &mut out).expect("sizes");
        assert_eq!(out, [o + 0.5, o + 0.5]);
    }
}
