//! Grid-interpolated cage weights: each point keeps four weights, over the corners of a
//! grid cell, and only the grid's nodes carry dense mean value coordinates.
//!
//! Truncating a point's own MVC row cannot be both accurate and sparse: MVC weights are
//! dense, and to drop one the error bound must afford its whole mass
//! (`docs/PERFORMANCE.md`, "Sparse cage weights"). But they are smooth inside the cage, so
//! the *deformation* is smooth there too, and a point can be placed from the deformed
//! positions of a few nearby nodes: `x' = sum_c beta_c f(q_c)`, `f(q) = sum_j w_j(q) c'_j`,
//! with `beta` the bilinear weights of the point in its cell. The binding is then a dense
//! binding of the nodes (far fewer than the points) plus four (node, weight) pairs per
//! point, and a deform is a dense pass over the nodes and a four-term sum per point.
//!
//! **The same bound as truncation.** The point's effective cage weights are
//! `lambda'_j = sum_c beta_c w_j(q_c)`. They sum to 1 (both `beta` and `w` do) and
//! reproduce the point (`sum beta_c q_c = p` for bilinear weights, `sum_j w_j(q) c_j = q`
//! for MVC), so with `delta = lambda' - w(p)`, which sums to 0 and reproduces the origin,
//! `|x'_grid - x'_dense| = |sum_j delta_j r_j| <= |delta|_1 * max_j |r_j|` for the
//! residual `r` of the deformed cage after any affine map: the same bound, with the same
//! meaning of the tolerance, as [`SparseOptions`](super::SparseOptions). Binding picks, per
//! point, the coarsest grid level (cell size halving per level) whose `|delta|_1` is within
//! the tolerance; a point no level serves (next to the cage, where the weights turn
//! sharply) keeps its own exact row as a node of its own.
//!
//! Verified by the unit tests below (rest pose, affine motions, the bound, against the f64
//! effective weights), `tests/all/cage_sparse.rs` (100 random cages under non-affine motion)
//! and `tests/all/cage_oracle.rs` (the oracle fixtures).

use super::CageError;
use super::mvc::mvc_coordinates;
use super::polygon::Cage;
use super::weights::CageBinding;
use grid_bind::{Choice, Grid, assemble, prune};

#[path = "grid_bind.rs"]
mod grid_bind;

/// How a [`GridBinding`] is chosen.
///
/// Owner: the cage solver (`cage`), at bind time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridOptions {
    /// Largest L1 difference allowed between a point's effective weights and its own MVC
    /// row: the deformation error bound per unit of non-affine cage motion.
    pub tolerance: f64,
    /// Finest level tried (cells of `side / (4 * 2^level)`); points no level up to it
    /// serves keep their exact row. At most 16.
    pub max_level: u32,
}

impl GridOptions {
    /// Options with an L1 `tolerance` and levels up to 7 (cells of 1/512 of the points'
    /// extent).
    pub fn new(tolerance: f64) -> GridOptions {
        GridOptions {
            tolerance,
            max_level: 7,
        }
    }

    /// Options that keep the deformation within `max_error` units of the dense one while
    /// no deformed cage vertex is more than `motion` units from where some affine map of
    /// the rest cage puts it (the tolerance is `max_error / motion`).
    pub fn for_error(max_error: f64, motion: f64) -> GridOptions {
        GridOptions::new(max_error / motion)
    }
}

/// What binding a [`GridBinding`] found.
///
/// Owner: the cage solver (`cage`), at bind time.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GridReport {
    /// Largest per-point L1 difference of the effective weights from the point's MVC row.
    pub max_l1: f64,
    /// Mean per-point L1 difference.
    pub mean_l1: f64,
    /// Grid nodes kept (dense rows over the cage).
    pub grid_nodes: usize,
    /// Points that kept their own exact row (no level within the tolerance).
    pub exact_points: usize,
    /// Points served by each level, coarsest first.
    pub per_level: Vec<usize>,
    /// Grid nodes whose coordinates were computed while binding (kept or not), at most
    /// [`GridBinding::node_budget`].
    pub nodes_computed: usize,
}

/// A cage binding whose points are interpolated from grid nodes (module docs).
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of
/// `Character::update`).
///
/// ```
/// use sinew::cage::{Cage, GridBinding, GridOptions, bind_mvc};
///
/// // A 12-gon cage of radius 10 and a ring of points inside it.
/// let ring: Vec<[f64; 2]> = (0..12)
///     .map(|k| {
///         let a = std::f64::consts::TAU * k as f64 / 12.0;
///         [10.0 * a.cos(), 10.0 * a.sin()]
///     })
///     .collect();
/// let cage = Cage::from_loops(&[ring]).unwrap();
/// let points: Vec<[f64; 2]> = (0..40)
///     .map(|k| {
///         let a = k as f64 * 0.7;
///         [4.0 * a.cos(), 4.0 * a.sin()]
///     })
///     .collect();
/// // Within 1e-2 units of dense while the cage stays within 1 unit of an affine motion.
/// let (grid, report) = GridBinding::bind(&cage, &points, &GridOptions::for_error(1e-2, 1.0))?;
/// assert!(report.max_l1 <= 1e-2);
///
/// // Drag one cage vertex by 1 unit and compare with the dense deformation.
/// let mut moved: Vec<f32> = cage.points().iter().flat_map(|p| [p[0] as f32, p[1] as f32]).collect();
/// moved[0] += 1.0;
/// let mut nodes = vec![0.0; grid.scratch_len()];
/// let mut out = vec![0.0; 2 * points.len()];
/// grid.deform(&moved, &mut nodes, &mut out)?;
/// let mut dense_out = vec![0.0; 2 * points.len()];
/// bind_mvc(&cage, &points)?.deform(&moved, &mut dense_out)?;
/// let worst = out.iter().zip(&dense_out).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
/// assert!(worst <= 1e-2);
/// # Ok::<(), sinew::cage::CageError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GridBinding {
    points: usize,
    /// Dense MVC rows of every node: the grid corners in use, then the exact points.
    nodes: CageBinding,
    /// Each point's four nodes (an exact point names its own node four times).
    corners: Vec<[u32; 4]>,
    /// Each point's four weights, in corner order (an exact point: 1, 0, 0, 0).
    betas: Vec<[f32; 4]>,
}

impl GridBinding {
    /// Binds `points` (bind space, the cage's space) to `cage`: each point to the coarsest
    /// grid level whose interpolated weights stay within `opts.tolerance` (L1) of its own
    /// mean value coordinates, or to its own row. Fails as
    /// [`bind_mvc`](super::bind_mvc) does on a point that is not finite or where the
    /// coordinates are singular, or with [`CageError::InvalidParameter`] for a negative or
    /// NaN tolerance.
    pub fn bind(
        cage: &Cage,
        points: &[[f64; 2]],
        opts: &GridOptions,
    ) -> Result<(GridBinding, GridReport), CageError> {
        if opts.tolerance.is_nan() || opts.tolerance < 0.0 {
            return Err(CageError::InvalidParameter(
                "grid tolerance must be a number at least 0",
            ));
        }
        let mut grid = Grid::new(cage, points);
        let max_level = opts.max_level.min(16);
        let budget = GridBinding::node_budget(points.len());
        let mut own = vec![0.0; cage.vertex_count()];
        // Per point: its cell's corners, bilinear weights, L1 and level, or None (exact).
        let mut chosen: Vec<Option<Choice>> = Vec::with_capacity(points.len());
        for (i, &p) in points.iter().enumerate() {
            mvc_coordinates(cage, p, i, &mut own)?;
            chosen.push(grid.place(p, &own, opts.tolerance, max_level, budget));
        }
        prune(&mut chosen, grid.node_count());
        let mut report = GridReport {
            per_level: vec![0; max_level as usize + 1],
            nodes_computed: grid.node_count(),
            ..GridReport::default()
        };
        let mut l1_sum = 0.0;
        for c in &chosen {
            match c {
                Some(c) => {
                    report.per_level[c.level as usize] += 1;
                    report.max_l1 = report.max_l1.max(c.l1);
                    l1_sum += c.l1;
                }
                None => report.exact_points += 1,
            }
        }
        report.mean_l1 = if points.is_empty() {
            0.0
        } else {
            l1_sum / points.len() as f64
        };
        let binding = assemble(&grid, points, &chosen, &mut report)?;
        Ok((binding, report))
    }

    /// A binding from its parts (a decoded file): the nodes' dense rows, and per point four
    /// node indices and four weights. Fails when the counts disagree, an index names no
    /// node, or a point's weights are not each within [0, 1] (up to 1e-3) or do not sum to
    /// 1 within `row_tolerance`.
    pub fn from_parts(
        nodes: CageBinding,
        corners: Vec<[u32; 4]>,
        betas: Vec<[f32; 4]>,
        row_tolerance: f64,
    ) -> Result<GridBinding, CageError> {
        if corners.len() != betas.len() {
            return Err(CageError::SizeMismatch {
                what: "grid weights (one set of four per point)",
                expected: corners.len(),
                got: betas.len(),
            });
        }
        let n = nodes.point_count();
        if let Some(&bad) = corners.iter().flatten().find(|&&c| c as usize >= n) {
            return Err(CageError::IndexOutOfRange { index: bad, len: n });
        }
        // Bilinear weights: each within [0, 1] (up to rounding), together 1.
        let bad_row = |b: &[f32; 4]| {
            let sum: f64 = b.iter().map(|&v| f64::from(v)).sum();
            !b.iter().all(|&v| (-1e-3..=1.001).contains(&v)) || (sum - 1.0).abs() > row_tolerance
        };
        if betas.iter().any(bad_row) {
            return Err(CageError::InvalidParameter(
                "grid weights must be within [0, 1] and sum to 1 at every point",
            ));
        }
        Ok(GridBinding {
            points: corners.len(),
            nodes,
            corners,
            betas,
        })
    }

    /// The nodes' dense rows (grid corners in use, then points kept exact).
    pub fn nodes(&self) -> &CageBinding {
        &self.nodes
    }

    /// Each point's four node indices.
    pub fn corners(&self) -> &[[u32; 4]] {
        &self.corners
    }

    /// Each point's four weights, in [`GridBinding::corners`] order.
    pub fn betas(&self) -> &[[f32; 4]] {
        &self.betas
    }

    /// Most grid nodes a bind of `points` points computes (four per point, plus a few): the
    /// bind's memory stays within a small multiple of a dense binding's however the points
    /// lie (points on the cage's edges, say, which no level serves).
    pub fn node_budget(points: usize) -> usize {
        points.saturating_mul(4).saturating_add(64)
    }

    /// Bound points.
    pub fn point_count(&self) -> usize {
        self.points
    }

    /// Cage vertices the binding expects.
    pub fn cage_vertex_count(&self) -> usize {
        self.nodes.cage_vertex_count()
    }

    /// Nodes with a dense row: grid corners in use plus points kept exact.
    pub fn node_count(&self) -> usize {
        self.nodes.point_count()
    }

    /// Floats of the node scratch buffer [`GridBinding::deform`] takes.
    pub fn scratch_len(&self) -> usize {
        2 * self.node_count()
    }

    /// Bytes of weights a deform reads: the nodes' dense rows and the points' pairs.
    pub fn weight_bytes(&self) -> usize {
        self.nodes.weight_bytes() + self.points * (16 + 16)
    }

    /// Deforms every point for the deformed `cage` (x, y pairs, f32) into `out` (x, y
    /// pairs), using `nodes` ([`GridBinding::scratch_len`] floats) for the nodes' deformed
    /// positions. Allocates nothing. Fails on wrong sizes.
    pub fn deform(
        &self,
        cage: &[f32],
        nodes: &mut [f32],
        out: &mut [f32],
    ) -> Result<(), CageError> {
        if nodes.len() != self.scratch_len() {
            return Err(CageError::SizeMismatch {
                what: "node scratch (x, y pairs)",
                expected: self.scratch_len(),
                got: nodes.len(),
            });
        }
        if out.len() != 2 * self.points {
            return Err(CageError::SizeMismatch {
                what: "output vertices (x, y pairs)",
                expected: 2 * self.points,
                got: out.len(),
            });
        }
        self.nodes.deform(cage, nodes)?;
        let pos: &[[f32; 2]] = as_pairs(nodes);
        for ((dst, c), b) in out.chunks_exact_mut(2).zip(&self.corners).zip(&self.betas) {
            // Built in range; `get` keeps a corrupt binding from panicking.
            let at = |k: usize| pos.get(c[k] as usize).copied().unwrap_or([0.0; 2]);
            let (p0, p1, p2, p3) = (at(0), at(1), at(2), at(3));
            dst[0] = b[0] * p0[0] + b[1] * p1[0] + b[2] * p2[0] + b[3] * p3[0];
            dst[1] = b[0] * p0[1] + b[1] * p1[1] + b[2] * p2[1] + b[3] * p3[1];
        }
        Ok(())
    }

    /// Point `i`'s effective weights over the cage, `sum_c beta_c w(q_c)`, in f64 from the
    /// stored f32 values (zeros for an out-of-range `i` or a short `out`).
    pub fn effective_row(&self, i: usize, out: &mut [f64]) {
        let n = self.cage_vertex_count();
        out.fill(0.0);
        if i >= self.points || out.len() < n {
            return;
        }
        for (&id, &b) in self.corners[i].iter().zip(&self.betas[i]) {
            for (j, o) in out.iter_mut().enumerate().take(n) {
                *o += f64::from(b) * f64::from(self.nodes.weight(id as usize, j));
            }
        }
    }

    /// The deformation through the effective weights in f64, point by point: the plain
    /// reference the kernel is tested against.
    pub fn deform_reference(&self, cage: &[f32]) -> Vec<[f64; 2]> {
        let n = self.cage_vertex_count();
        let mut row = vec![0.0; n];
        (0..self.points)
            .map(|i| {
                self.effective_row(i, &mut row);
                row.iter()
                    .zip(cage.chunks_exact(2))
                    .fold([0.0, 0.0], |acc, (&w, c)| {
                        [acc[0] + w * f64::from(c[0]), acc[1] + w * f64::from(c[1])]
                    })
            })
            .collect()
    }
}

/// `[x, y, x, y, ...]` as pairs (a trailing odd float is left out).
fn as_pairs(v: &[f32]) -> &[[f32; 2]] {
    let (pairs, _) = v.as_chunks::<2>();
    pairs
}

#[cfg(test)]
#[path = "grid_tests.rs"]
mod tests;
