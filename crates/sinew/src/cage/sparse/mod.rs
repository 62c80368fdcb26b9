//! Sparse bindings: a variable number of weights per point (compressed rows: offsets, u16
//! cage vertex indices, f32 weights), chosen from the dense coordinates and then projected
//! back onto the three affine constraints (sum 1, sum lambda_j v_j = x), so the rest pose
//! and every affine motion of the cage stay exact: `lambda' = lambda_S + C^T (C C^T)^{-1}
//! (b - C lambda_S)` with `C = [1 ... 1; (v_S - x)^T]`, `b = [1; 0; 0]` (math.md A.3).
//!
//! Two ways to choose the kept weights (`select.rs`):
//! - by tolerance ([`SparseBinding::from_dense_tolerance`], [`SparseOptions`]): per point the
//!   fewest largest weights whose projected weights change by at most `tolerance` in L1,
//!   `sum_j |lambda_j - lambda'_j| <= tolerance`. That sum bounds the deformation error:
//!   because both weight sets sum to 1 and reproduce the point, for any affine map `A`,
//!   `|x'_sparse - x'_dense| = |sum_j (lambda'_j - lambda_j) (c'_j - A v_j)| <= L1 * max_j
//!   |c'_j - A v_j|`, i.e. the error is at most the tolerance times how far the deformed
//!   cage is from the nearest affine image of the rest cage ([`SparseOptions::for_error`]);
//! - a fixed count K per point ([`SparseBinding::from_dense`], the older API): no bound, and
//!   math.md measured large errors for small K; [`TruncationReport::max_l1`] says how far.
//!
//! The deformation kernel ([`SparseBinding::deform`], `kernel.rs`) runs blocks of
//! [`LANES`] points over a padded copy of the rows; [`SparseBinding::deform_reference`] is
//! the plain f64 loop over the compressed rows it is tested against. Verified by the unit tests below and in `select.rs`, by `tests/all/cage_oracle.rs`
//! (the MVC fixtures) and `tests/all/cage_sparse.rs` (100 random cages, bound and error).

mod kernel;
mod select;

use super::CageError;
use kernel::Blocks;
pub use kernel::STACK_CAGE;
pub use select::SparseOptions;

/// How much a sparse binding departs from the dense one it was made from.
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TruncationReport {
    /// Largest per-point L1 change of the weights, `sum_j |lambda_j - lambda'_j|`: the
    /// deformation error bound per unit of non-affine cage motion (module docs).
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
    /// Fewest weights kept at a point.
    pub min_kept: usize,
    /// Most weights kept at a point.
    pub max_kept: usize,
    /// Mean weights kept per point.
    pub mean_kept: f64,
    /// Points whose L1 change exceeds the requested tolerance because
    /// [`SparseOptions::max_weights`] capped them (0 for fixed-K bindings).
    pub over_tolerance: usize,
}

/// Sparse weights: row `i` holds `offsets[i + 1] - offsets[i]` (cage vertex, weight) pairs.
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of `Character::update`).
///
/// ```
/// use sinew::cage::{Cage, SparseBinding, SparseOptions, bind_mvc};
///
/// // A 12-gon cage of radius 10 and three points inside it.
/// let ring: Vec<[f64; 2]> = (0..12)
///     .map(|k| {
///         let a = std::f64::consts::TAU * k as f64 / 12.0;
///         [10.0 * a.cos(), 10.0 * a.sin()]
///     })
///     .collect();
/// let cage = Cage::from_loops(&[ring])?;
/// let points = [[0.0, 0.0], [6.0, 1.0], [-2.0, 7.5]];
/// let dense = bind_mvc(&cage, &points)?;
///
/// // Within 0.01 units of dense while no cage vertex strays more than 1 unit from an
/// // affine motion of the cage.
/// let opts = SparseOptions::for_error(0.01, 1.0);
/// let (sparse, report) = SparseBinding::from_dense_tolerance(&cage, &points, &dense, &opts)?;
/// assert!(report.max_l1 <= opts.tolerance);
///
/// // Deform: move vertex 0 by 1 unit; sparse and dense agree within the bound.
/// let mut moved: Vec<f32> = cage.points().iter().flat_map(|p| [p[0] as f32, p[1] as f32]).collect();
/// moved[0] += 1.0;
/// let (mut a, mut b) = ([0.0f32; 6], [0.0f32; 6]);
/// sparse.deform(&moved, &mut a)?;
/// dense.deform(&moved, &mut b)?;
/// for (x, y) in a.iter().zip(&b) {
///     assert!((x - y).abs() <= 0.01 + 1e-5, "{x} vs {y}");
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SparseBinding {
    cage_vertices: usize,
    offsets: Vec<u32>,
    indices: Vec<u16>,
    weights: Vec<f32>,
    /// The kernel's blocked copy of the rows (derived; `kernel.rs`).
    blocks: Blocks,
}

impl SparseBinding {
    /// Most weights at any point (the K of a fixed-K binding).
    pub fn k(&self) -> usize {
        self.offsets
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()
            .unwrap_or(0)
    }

    /// Whether every point has the same number of weights.
    pub fn is_uniform(&self) -> bool {
        let k = self.k();
        self.offsets.windows(2).all(|w| (w[1] - w[0]) as usize == k)
    }

    /// Number of bound points.
    pub fn point_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Number of cage vertices.
    pub fn cage_vertex_count(&self) -> usize {
        self.cage_vertices
    }

    /// Weights stored in all (the sum of the per-point counts).
    pub fn weight_count(&self) -> usize {
        self.weights.len()
    }

    /// Row offsets, `point_count() + 1` of them: point `i`'s weights are
    /// `weights()[offsets[i]..offsets[i + 1]]`.
    ///
    /// ```
    /// use sinew::cage::SparseBinding;
    /// let b = SparseBinding::from_csr(4, vec![0, 1, 4], vec![3, 0, 1, 2], vec![1.0, 0.2, 0.3, 0.5])?;
    /// let row = |i: usize| {
    ///     let (s, e) = (b.offsets()[i] as usize, b.offsets()[i + 1] as usize);
    ///     (&b.indices()[s..e], &b.weights()[s..e])
    /// };
    /// assert_eq!(row(1), (&[0u16, 1, 2][..], &[0.2f32, 0.3, 0.5][..]));
    /// assert_eq!((b.k(), b.weight_count(), b.is_uniform()), (3, 4, false));
    /// // The kernel pads each block of LANES points to its longest row.
    /// assert_eq!(b.kernel_slots(), 3 * sinew::cage::LANES);
    /// # Ok::<(), sinew::cage::CageError>(())
    /// ```
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// Cage vertex indices, row after row.
    pub fn indices(&self) -> &[u16] {
        &self.indices
    }

    /// Weights, row after row.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// Bytes of weight data the kernel streams per call: the blocked layout's weights,
    /// u8 indices and block starts for cages of up to [`STACK_CAGE`] vertices, else the
    /// compressed rows' weights, indices and offsets.
    pub fn weight_bytes(&self) -> usize {
        if self.cage_vertices <= STACK_CAGE {
            self.blocks.bytes()
        } else {
            self.weights.len() * 4 + self.indices.len() * 2 + self.offsets.len() * 4
        }
    }

    /// Weights the kernel multiplies per call: [`SparseBinding::weight_count`] plus the
    /// blocked layout's padding (each block of [`LANES`](crate::cage::LANES) points runs as long as its longest
    /// row) for cages of up to [`STACK_CAGE`] vertices.
    pub fn kernel_slots(&self) -> usize {
        if self.cage_vertices <= STACK_CAGE {
            self.blocks.slots()
        } else {
            self.weights.len()
        }
    }

    /// A fixed-K binding from raw parts (as loaded from a file): `k` weights per point;
    /// checks sizes and indices.
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
        let points = indices.len() / k;
        let offsets = (0..=points)
            .map(|i| u32::try_from(i * k))
            .collect::<Result<Vec<u32>, _>>()
            .map_err(|_| CageError::InvalidParameter("sparse binding too large (u32 offsets)"))?;
        SparseBinding::from_csr(cage_vertices, offsets, indices, weights)
    }

    /// A binding from compressed rows: `offsets` (`points + 1` entries, from 0, never
    /// decreasing, ending at the weight count), `indices` (each below `cage_vertices`) and
    /// `weights` of equal length. Every row must hold at least one weight.
    ///
    /// ```
    /// use sinew::cage::SparseBinding;
    /// // Point 0 on cage vertex 2; point 1 halfway between vertices 0 and 1.
    /// let b = SparseBinding::from_csr(3, vec![0, 1, 3], vec![2, 0, 1], vec![1.0, 0.5, 0.5])?;
    /// let mut out = [0.0f32; 4];
    /// b.deform(&[0.0, 0.0, 2.0, 0.0, 5.0, 5.0], &mut out)?;
    /// assert_eq!(out, [5.0, 5.0, 1.0, 0.0]);
    /// assert!(SparseBinding::from_csr(3, vec![0, 2], vec![0, 3], vec![0.5, 0.5]).is_err());
    /// # Ok::<(), sinew::cage::CageError>(())
    /// ```
    pub fn from_csr(
        cage_vertices: usize,
        offsets: Vec<u32>,
        indices: Vec<u16>,
        weights: Vec<f32>,
    ) -> Result<SparseBinding, CageError> {
        if indices.len() != weights.len() {
            return Err(CageError::SizeMismatch {
                what: "sparse indices and weights",
                expected: indices.len(),
                got: weights.len(),
            });
        }
        let last = offsets.last().map_or(0, |&o| o as usize);
        if offsets.first().copied().unwrap_or(1) != 0 || last != weights.len() {
            return Err(CageError::SizeMismatch {
                what: "sparse row offsets (0 first, the weight count last)",
                expected: weights.len(),
                got: last,
            });
        }
        if offsets.windows(2).any(|w| w[1] <= w[0]) {
            return Err(CageError::InvalidParameter(
                "sparse row offsets must increase (at least one weight per point)",
            ));
        }
        if let Some(&bad) = indices.iter().find(|&&j| usize::from(j) >= cage_vertices) {
            return Err(CageError::IndexOutOfRange {
                index: u32::from(bad),
                len: cage_vertices,
            });
        }
        Ok(SparseBinding::assemble(
            cage_vertices,
            offsets,
            indices,
            weights,
        ))
    }

    /// The binding of validated rows, with its kernel layout.
    fn assemble(
        cage_vertices: usize,
        offsets: Vec<u32>,
        indices: Vec<u16>,
        weights: Vec<f32>,
    ) -> SparseBinding {
        let blocks = Blocks::build(cage_vertices, &offsets, &indices, &weights);
        SparseBinding {
            cage_vertices,
            offsets,
            indices,
            weights,
            blocks,
        }
    }

    fn check(&self, cage: &[f32], out: &[f32]) -> Result<(), CageError> {
        if cage.len() != 2 * self.cage_vertices {
            return Err(CageError::SizeMismatch {
                what: "sparse deform: deformed cage (x, y pairs)",
                expected: 2 * self.cage_vertices,
                got: cage.len(),
            });
        }
        if out.len() != 2 * self.point_count() {
            return Err(CageError::SizeMismatch {
                what: "sparse deform: output vertices (x, y pairs)",
                expected: 2 * self.point_count(),
                got: out.len(),
            });
        }
        Ok(())
    }

    /// Deformed points from deformed cage vertices (`cage`: x, y pairs; `out`: x, y pairs
    /// per point). The sums run relative to the deformed cage's first vertex like the dense
    /// kernel, so the f32 rounding scales with the cage, not with its distance from the
    /// origin. Allocates nothing (kernels: `kernel.rs`; cages of up to [`STACK_CAGE`]
    /// vertices take a blocked layout, larger ones the compressed rows).
    pub fn deform(&self, cage: &[f32], out: &mut [f32]) -> Result<(), CageError> {
        self.check(cage, out)?;
        self.deform_unchecked(cage, out);
        Ok(())
    }

    /// The plain reference of [`SparseBinding::deform`]: one f64 sum per point over its
    /// weights, relative to the deformed cage's first vertex. Slower; for tests and checks.
    ///
    /// ```
    /// use sinew::cage::SparseBinding;
    /// let b = SparseBinding::from_csr(3, vec![0, 2, 3], vec![0, 2, 1], vec![0.25, 0.75, 1.0])?;
    /// let cage = [1000.0, 0.0, 1001.0, 0.5, 1000.0, 2.0];
    /// let (mut fast, mut slow) = ([0.0f32; 4], [0.0f32; 4]);
    /// b.deform(&cage, &mut fast)?;
    /// b.deform_reference(&cage, &mut slow)?;
    /// assert_eq!(slow, [1000.0, 1.5, 1001.0, 0.5]);
    /// assert_eq!(fast, slow);
    /// # Ok::<(), sinew::cage::CageError>(())
    /// ```
    pub fn deform_reference(&self, cage: &[f32], out: &mut [f32]) -> Result<(), CageError> {
        self.check(cage, out)?;
        for (i, pair) in out.chunks_exact_mut(2).enumerate() {
            let (s, e) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
            let at = |j: u16| {
                let c = 2 * usize::from(j);
                (f64::from(cage[c]), f64::from(cage[c + 1]))
            };
            let (ox, oy) = at(0);
            let (mut x, mut y) = (0.0f64, 0.0f64);
            for (&j, &w) in self.indices[s..e].iter().zip(&self.weights[s..e]) {
                let (cx, cy) = at(j);
                x += f64::from(w) * (cx - ox);
                y += f64::from(w) * (cy - oy);
            }
            pair[0] = (ox + x) as f32;
            pair[1] = (oy + y) as f32;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic binding with 1..=9 weights per point over `n` cage vertices.
    fn ragged(n: u16) -> SparseBinding {
        let (mut offsets, mut indices, mut weights) = (vec![0u32], Vec::new(), Vec::new());
        for i in 0..40u32 {
            let count = 1 + (i * 7 % 9);
            let mut sum = 0.0f32;
            for a in 0..count {
                indices.push(((i * 3 + a * 5) % u32::from(n)) as u16);
                let w = if a + 1 == count {
                    1.0 - sum
                } else {
                    0.3 * ((i + a) as f32 * 0.7).sin()
                };
                sum += w;
                weights.push(w);
            }
            offsets.push(indices.len() as u32);
        }
        SparseBinding::from_csr(usize::from(n), offsets, indices, weights).expect("valid")
    }

    #[test]
    fn fast_kernels_match_the_reference() {
        // 11 cage vertices: the stack-buffer kernel; 300: the subtracting one.
        for n in [11u16, 300] {
            let b = ragged(n);
            assert_eq!(b.point_count(), 40);
            assert_eq!(b.k(), 9);
            assert!(!b.is_uniform());
            let cage: Vec<f32> = (0..2 * usize::from(n))
                .map(|k| 100.0 + (k as f32 * 1.3).cos() * 7.0)
                .collect();
            let (mut fast, mut slow) = (vec![0.0f32; 80], vec![0.0f32; 80]);
            b.deform(&cage, &mut fast).expect("sizes");
            b.deform_reference(&cage, &mut slow).expect("sizes");
            for (f, s) in fast.iter().zip(&slow) {
                // Weights up to ~2 in magnitude over a 14-unit cage: f32 rounding only.
                assert!((f - s).abs() < 2e-5, "n={n}: {f} vs {s}");
            }
            assert!(b.deform(&cage[2..], &mut fast).is_err());
            assert!(b.deform(&cage, &mut fast[2..]).is_err());
            assert!(b.deform_reference(&cage, &mut fast[2..]).is_err());
        }
        let empty = SparseBinding::from_csr(0, vec![0], vec![], vec![]).expect("valid");
        assert_eq!(empty.deform(&[], &mut []), Ok(()));
    }

    #[test]
    fn parts_are_validated() {
        assert!(SparseBinding::from_parts(3, 4, vec![0, 1, 4], vec![0.5; 3]).is_err());
        assert!(SparseBinding::from_parts(3, 4, vec![0, 1], vec![0.5; 2]).is_err());
        assert!(SparseBinding::from_parts(0, 4, vec![], vec![]).is_err());
        let b = SparseBinding::from_parts(3, 4, vec![0, 1, 3], vec![0.5; 3]).expect("valid");
        assert_eq!((b.k(), b.point_count(), b.offsets()), (3, 1, &[0, 3][..]));
        assert!(b.is_uniform());
        // Offsets: must start at 0, end at the count, and increase.
        let csr = |o: Vec<u32>| SparseBinding::from_csr(4, o, vec![0, 1, 2], vec![0.5, 0.25, 0.25]);
        assert!(csr(vec![0, 1, 3]).is_ok());
        assert!(csr(vec![1, 3]).is_err());
        assert!(csr(vec![0, 2]).is_err());
        assert!(csr(vec![0, 1, 1, 3]).is_err());
        assert!(csr(vec![]).is_err());
        assert!(SparseBinding::from_csr(4, vec![0], vec![], vec![]).is_ok());
    }
}
