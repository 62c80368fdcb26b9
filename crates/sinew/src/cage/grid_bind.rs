//! Binding a [`GridBinding`](super::GridBinding): the grid's nodes computed on demand, each
//! point placed at the coarsest level within the tolerance, the placements pruned to what
//! saves nodes, and the binding assembled. Verified with the type (`grid_tests.rs`).

use super::super::CageError;
use super::super::mvc::mvc_coordinates;
use super::super::polygon::Cage;
use super::super::weights::CageBinding;
use super::{GridBinding, GridReport};
use std::collections::HashMap;

/// Cells along the longer side of the points' bounding square at level 0.
const BASE_CELLS: u32 = 4;

/// A point's place on the grid: its cell's corner nodes, bilinear weights, the L1 of its
/// effective weights from its own row, and the level.
pub(super) struct Choice {
    pub(super) ids: [u32; 4],
    pub(super) beta: [f64; 4],
    pub(super) l1: f64,
    pub(super) level: u32,
}

/// The grid while binding: node rows computed on demand, keyed by level and cell corner.
pub(super) struct Grid<'a> {
    cage: &'a Cage,
    origin: [f64; 2],
    side: f64,
    ids: HashMap<(u32, u32, u32), Option<u32>>,
    rows: Vec<f64>,
    positions: Vec<[f64; 2]>,
    /// Scratch: a point's interpolated row.
    mixed: Vec<f64>,
}

impl<'a> Grid<'a> {
    /// An empty grid over the bounding square of `points` (a single point, or a line of
    /// them, still gets cells).
    pub(super) fn new(cage: &'a Cage, points: &[[f64; 2]]) -> Grid<'a> {
        let (lo, hi) = bounds(points);
        let side = (hi[0] - lo[0])
            .max(hi[1] - lo[1])
            .max(1e-6 * cage.diameter());
        Grid {
            cage,
            origin: lo,
            side,
            ids: HashMap::new(),
            rows: Vec::new(),
            positions: Vec::new(),
            mixed: Vec::new(),
        }
    }

    /// Grid nodes computed so far.
    pub(super) fn node_count(&self) -> usize {
        self.positions.len()
    }

    /// The coarsest level at which point `p` (whose own MVC row is `own`) interpolates
    /// within `tolerance`, or `None` (no level up to `max_level` does, or computing its
    /// corners would take the grid past `budget` nodes).
    pub(super) fn place(
        &mut self,
        p: [f64; 2],
        own: &[f64],
        tolerance: f64,
        max_level: u32,
        budget: usize,
    ) -> Option<Choice> {
        for level in 0..=max_level {
            // Bounded memory whatever the points: past the budget, points keep their rows.
            if self.positions.len() + 4 > budget {
                return None;
            }
            let cells = BASE_CELLS << level;
            let h = self.side / f64::from(cells);
            let cell = |v: f64| {
                let f = v / h;
                let k = (f.floor().max(0.0) as u32).min(cells - 1);
                (k, (f - f64::from(k)).clamp(0.0, 1.0))
            };
            let (ix, u) = cell(p[0] - self.origin[0]);
            let (iy, v) = cell(p[1] - self.origin[1]);
            let beta = [(1.0 - u) * (1.0 - v), u * (1.0 - v), (1.0 - u) * v, u * v];
            let ids = [
                self.node(level, ix, iy),
                self.node(level, ix + 1, iy),
                self.node(level, ix, iy + 1),
                self.node(level, ix + 1, iy + 1),
            ];
            let [Some(a), Some(b), Some(c), Some(d)] = ids else {
                continue;
            };
            let ids = [a, b, c, d];
            // The interpolated row, in a buffer reused from point to point.
            let n = own.len();
            let mixed = &mut self.mixed;
            mixed.clear();
            mixed.resize(n, 0.0);
            for (&id, &bc) in ids.iter().zip(&beta) {
                let row = &self.rows[id as usize * n..(id as usize + 1) * n];
                for (m, &w) in mixed.iter_mut().zip(row) {
                    *m += bc * w;
                }
            }
            let l1: f64 = mixed.iter().zip(own).map(|(m, w)| (m - w).abs()).sum();
            if l1 <= tolerance {
                return Some(Choice {
                    ids,
                    beta,
                    l1,
                    level,
                });
            }
        }
        None
    }

    /// The node at corner (`ix`, `iy`) of `level`, computed on first use; `None` where
    /// the coordinates are singular there.
    fn node(&mut self, level: u32, ix: u32, iy: u32) -> Option<u32> {
        if let Some(&id) = self.ids.get(&(level, ix, iy)) {
            return id;
        }
        let n = self.cage.vertex_count();
        let h = self.side / f64::from(BASE_CELLS << level);
        let q = [
            self.origin[0] + f64::from(ix) * h,
            self.origin[1] + f64::from(iy) * h,
        ];
        let start = self.rows.len();
        self.rows.resize(start + n, 0.0);
        let id = match mvc_coordinates(self.cage, q, 0, &mut self.rows[start..]) {
            Ok(()) => {
                self.positions.push(q);
                Some((self.positions.len() - 1) as u32)
            }
            Err(_) => {
                self.rows.truncate(start);
                None
            }
        };
        self.ids.insert((level, ix, iy), id);
        id
    }

    fn row(&self, id: u32) -> &[f64] {
        let n = self.cage.vertex_count();
        &self.rows[id as usize * n..(id as usize + 1) * n]
    }
}

/// Drops the placements that cost nodes: a point two or more of whose corners serve no
/// other point costs more than its own row (few points per cell: small meshes, fine
/// levels), and the grid as a whole never costs more nodes than the points' own rows.
pub(super) fn prune(chosen: &mut [Option<Choice>], node_count: usize) {
    let mut uses = vec![0u32; node_count];
    for c in chosen.iter().flatten() {
        for &id in &c.ids {
            uses[id as usize] += 1;
        }
    }
    for c in chosen.iter_mut() {
        let Some(choice) = c else { continue };
        let private = choice
            .ids
            .iter()
            .filter(|&&id| uses[id as usize] == 1)
            .count();
        if private >= 2 {
            for &id in &choice.ids {
                uses[id as usize] -= 1;
            }
            *c = None;
        }
    }
    let grid_nodes = uses.iter().filter(|&&u| u > 0).count();
    let exact = chosen.iter().filter(|c| c.is_none()).count();
    if grid_nodes + exact >= chosen.len() {
        chosen.iter_mut().for_each(|c| *c = None);
    }
}

/// The binding: the grid nodes some point uses (in first-use order), then one node per
/// point kept exact, and every point's four (node, weight) pairs. Sets
/// `report.grid_nodes`.
pub(super) fn assemble(
    grid: &Grid<'_>,
    points: &[[f64; 2]],
    chosen: &[Option<Choice>],
    report: &mut GridReport,
) -> Result<GridBinding, CageError> {
    let n = grid.cage.vertex_count();
    let mut remap = vec![u32::MAX; grid.node_count()];
    let mut kept: Vec<u32> = Vec::new();
    for c in chosen.iter().flatten() {
        for &id in &c.ids {
            if remap[id as usize] == u32::MAX {
                remap[id as usize] = kept.len() as u32;
                kept.push(id);
            }
        }
    }
    report.grid_nodes = kept.len();
    let exact = chosen.iter().filter(|c| c.is_none()).count();
    let mut nodes = CageBinding::zeroed(kept.len() + exact, n);
    for (k, &id) in kept.iter().enumerate() {
        nodes.set_row(k, grid.row(id));
    }
    let mut own = vec![0.0; n];
    let mut corners = Vec::with_capacity(points.len());
    let mut betas = Vec::with_capacity(points.len());
    let mut next_exact = kept.len();
    for (i, c) in chosen.iter().enumerate() {
        match c {
            Some(c) => {
                corners.push(c.ids.map(|id| remap[id as usize]));
                betas.push(round_betas(c.beta));
            }
            None => {
                // Computed again rather than kept for every point while placing (that
                // would be a dense binding's worth of f64 rows).
                mvc_coordinates(grid.cage, points[i], i, &mut own)?;
                nodes.set_row(next_exact, &own);
                corners.push([next_exact as u32; 4]);
                betas.push([1.0, 0.0, 0.0, 0.0]);
                next_exact += 1;
            }
        }
    }
    Ok(GridBinding {
        points: points.len(),
        nodes,
        corners,
        betas,
    })
}

/// The points' bounding box (a unit box at the origin for no points).
fn bounds(points: &[[f64; 2]]) -> ([f64; 2], [f64; 2]) {
    if points.is_empty() {
        return ([0.0; 2], [1.0; 2]);
    }
    points.iter().fold(
        ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]),
        |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1])],
                [hi[0].max(p[0]), hi[1].max(p[1])],
            )
        },
    )
}

/// Bilinear weights in f32, the largest taking up the others' rounding so they sum to 1
/// as closely as f32 allows.
fn round_betas(b: [f64; 4]) -> [f32; 4] {
    let mut r = b.map(|v| v as f32);
    let big = (0..4).max_by(|&x, &y| b[x].total_cmp(&b[y])).unwrap_or(0);
    let others: f64 = (0..4).filter(|&k| k != big).map(|k| f64::from(r[k])).sum();
    r[big] = (1.0 - others) as f32;
    r
}
