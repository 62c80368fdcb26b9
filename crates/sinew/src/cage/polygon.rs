//! [`Cage`]: one or several closed loops of vertices (an outer boundary counter-clockwise,
//! holes clockwise, so the domain lies on the left of every edge), stored concatenated.
//!
//! A cage is given explicitly ([`Cage::from_loops`]), picked from mesh vertices by the
//! artist ([`Cage::from_control_points`], the "control points"), or traced from a triangle
//! mesh's boundary ([`Cage::from_mesh`]). Verified by the unit tests below (areas, winding
//! numbers, nesting orientation, validation errors).

use super::CageError;
use super::boundary::boundary_loops;

/// Relative tolerance of the boundary tests: a point within `EPS_REL * diameter` of a cage
/// vertex or edge is on it (the oracle's `eps_rel`).
pub const EPS_REL: f64 = 1e-12;

/// A cage: loops of 2D vertices in world or bind space, concatenated in loop order.
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct Cage {
    points: Vec<[f64; 2]>,
    /// Exclusive end of each loop in `points`.
    loop_ends: Vec<u32>,
    /// Length of the edge from each vertex to the next in its loop.
    edge_len: Vec<f64>,
    diameter: f64,
}

impl Cage {
    /// A cage from explicit loops, kept in the given order and orientation (outer
    /// counter-clockwise, holes clockwise; see [`Cage::with_nesting_orientation`]).
    pub fn from_loops<L: AsRef<[[f64; 2]]>>(loops: &[L]) -> Result<Cage, CageError> {
        if loops.is_empty() {
            return Err(CageError::NoLoops);
        }
        let total: usize = loops.iter().map(|l| l.as_ref().len()).sum();
        if total > usize::from(u16::MAX) {
            return Err(CageError::TooManyVertices { count: total });
        }
        let mut points = Vec::with_capacity(total);
        let mut loop_ends = Vec::with_capacity(loops.len());
        for (li, l) in loops.iter().enumerate() {
            let l = l.as_ref();
            if l.len() < 3 {
                return Err(CageError::LoopTooShort {
                    loop_index: li,
                    len: l.len(),
                });
            }
            for p in l {
                if !(p[0].is_finite() && p[1].is_finite()) {
                    return Err(CageError::NonFinite {
                        what: "cage vertex",
                        index: points.len(),
                    });
                }
                points.push(*p);
            }
            loop_ends.push(points.len() as u32);
        }
        let diameter = diameter_of(&points);
        let mut cage = Cage {
            points,
            loop_ends,
            edge_len: Vec::new(),
            diameter,
        };
        cage.edge_len = cage.compute_edge_lengths();
        let eps = cage.tolerance();
        for li in 0..cage.loop_count() {
            let r = cage.loop_range(li);
            for (k, &len) in cage.edge_len[r].iter().enumerate() {
                if len <= eps {
                    return Err(CageError::ZeroLengthEdge {
                        loop_index: li,
                        vertex: k,
                    });
                }
            }
        }
        cage.check_bindable()?;
        Ok(cage)
    }

    /// A cage whose loops are mesh vertices the artist chose: `loops[l]` lists indices into
    /// `positions`, in order around the loop.
    pub fn from_control_points(
        positions: &[[f64; 2]],
        loops: &[Vec<u32>],
    ) -> Result<Cage, CageError> {
        let mut pts = Vec::with_capacity(loops.len());
        for l in loops {
            let mut lp = Vec::with_capacity(l.len());
            for &i in l {
                let p = positions
                    .get(i as usize)
                    .ok_or(CageError::IndexOutOfRange {
                        index: i,
                        len: positions.len(),
                    })?;
                lp.push(*p);
            }
            pts.push(lp);
        }
        Cage::from_loops(&pts)
    }

    /// The cage traced from a triangle mesh's boundary (see [`boundary_loops`]), with the
    /// mesh vertex index of each cage vertex (concatenated loop order).
    pub fn from_mesh(
        positions: &[[f64; 2]],
        triangles: &[[u32; 3]],
    ) -> Result<(Cage, Vec<u32>), CageError> {
        let loops = boundary_loops(positions, triangles)?;
        let cage = Cage::from_control_points(positions, &loops)?;
        Ok((cage, loops.concat()))
    }

    /// The same cage with every loop oriented by its nesting depth: loops inside an even
    /// number of others counter-clockwise, the rest (holes) clockwise. Loops must not cross.
    pub fn with_nesting_orientation(mut self) -> Cage {
        let n = self.loop_count();
        let mut flip = vec![false; n];
        for (li, f) in flip.iter_mut().enumerate() {
            let probe = self.loop_points(li)[0];
            let depth = (0..n)
                .filter(|&o| o != li && winding_of(self.loop_points(o), probe) != 0)
                .count();
            let want_ccw = depth % 2 == 0;
            *f = (self.signed_area(li) > 0.0) != want_ccw;
        }
        for (li, f) in flip.into_iter().enumerate() {
            if f {
                let r = self.loop_range(li);
                self.points[r].reverse();
            }
        }
        self.edge_len = self.compute_edge_lengths();
        self
    }

    fn compute_edge_lengths(&self) -> Vec<f64> {
        let mut len = Vec::with_capacity(self.points.len());
        for l in 0..self.loop_count() {
            let p = self.loop_points(l);
            for (k, a) in p.iter().enumerate() {
                let b = p[(k + 1) % p.len()];
                len.push((b[0] - a[0]).hypot(b[1] - a[1]));
            }
        }
        len
    }

    /// Length of the edge from vertex `i` to the next vertex of its loop (concatenated
    /// order).
    pub fn edge_lengths(&self) -> &[f64] {
        &self.edge_len
    }

    /// All vertices, concatenated in loop order (the column order of the weights).
    pub fn points(&self) -> &[[f64; 2]] {
        &self.points
    }

    /// Total number of vertices over all loops.
    pub fn vertex_count(&self) -> usize {
        self.points.len()
    }

    /// Number of loops.
    pub fn loop_count(&self) -> usize {
        self.loop_ends.len()
    }

    /// Index range of loop `l` in [`Cage::points`].
    pub fn loop_range(&self, l: usize) -> std::ops::Range<usize> {
        let start = if l == 0 {
            0
        } else {
            self.loop_ends[l - 1] as usize
        };
        start..self.loop_ends[l] as usize
    }

    /// The vertices of loop `l`.
    pub fn loop_points(&self, l: usize) -> &[[f64; 2]] {
        &self.points[self.loop_range(l)]
    }

    /// Diagonal of the bounding box (1 for a degenerate box): the cage's size for
    /// relative tolerances.
    pub fn diameter(&self) -> f64 {
        self.diameter
    }

    /// Absolute boundary tolerance: [`EPS_REL`] times the diameter.
    pub fn tolerance(&self) -> f64 {
        EPS_REL * self.diameter
    }

    /// Signed area of loop `l` (positive when counter-clockwise, y up).
    pub fn signed_area(&self, l: usize) -> f64 {
        let p = self.loop_points(l);
        let mut a = 0.0;
        for (k, v) in p.iter().enumerate() {
            let w = p[(k + 1) % p.len()];
            a += v[0] * w[1] - v[1] * w[0];
        }
        0.5 * a
    }

    /// Sum of the loops' winding numbers around `p` (1 inside the domain of a correctly
    /// oriented cage, 0 outside and inside holes). Undefined exactly on the boundary.
    pub fn winding_number(&self, p: [f64; 2]) -> i32 {
        (0..self.loop_count())
            .map(|l| winding_of(self.loop_points(l), p))
            .sum()
    }
}

/// Largest coordinate magnitude of a cage vertex (beyond it, weights and deformed points
/// overflow or lose every digit).
pub const MAX_COORD: f64 = 1e15;

/// Smallest cage size, relative to its distance from the origin (`max(1, |coord|)`): a cage
/// smaller than this has no representable interior.
pub const MIN_SIZE_REL: f64 = 1e-9;

impl Cage {
    /// Refuses what no coordinates can bind: vertices beyond [`MAX_COORD`], a cage smaller
    /// than [`MIN_SIZE_REL`], a loop of (nearly) zero area (collinear vertices), and edges
    /// that cross or touch (a self-intersecting loop, a bow tie, loops that cross).
    fn check_bindable(&self) -> Result<(), CageError> {
        let far = self
            .points
            .iter()
            .map(|p| p[0].abs().max(p[1].abs()))
            .fold(0.0f64, f64::max);
        if let Some(i) = self
            .points
            .iter()
            .position(|p| !(p[0].abs() <= MAX_COORD && p[1].abs() <= MAX_COORD))
        {
            return Err(CageError::Unbindable {
                loop_index: self.loop_of(i),
                reason: format!("vertex {i} is beyond {MAX_COORD:e} in magnitude"),
            });
        }
        let (lo, hi) = bbox(&self.points);
        let size = (hi[0] - lo[0]).hypot(hi[1] - lo[1]);
        if size.is_nan() || size <= MIN_SIZE_REL * far.max(1.0) {
            return Err(CageError::Unbindable {
                loop_index: 0,
                reason: format!(
                    "the cage is {size:e} across, below the tolerance {:e}",
                    MIN_SIZE_REL * far.max(1.0)
                ),
            });
        }
        if let Some((e, f)) = self.crossing_edges() {
            return Err(CageError::Unbindable {
                loop_index: self.loop_of(e),
                reason: format!(
                    "edge {e} and edge {f} cross or touch (a self-intersecting or bow-tie cage)"
                ),
            });
        }
        for l in 0..self.loop_count() {
            let a = self.signed_area(l);
            if a.is_nan() || a.abs() <= EPS_REL * size * size * 1e3 {
                return Err(CageError::Unbindable {
                    loop_index: l,
                    reason: format!("its area is {a:e}: its vertices are collinear"),
                });
            }
        }
        Ok(())
    }

    fn loop_of(&self, vertex: usize) -> usize {
        self.loop_ends
            .iter()
            .position(|&end| vertex < end as usize)
            .unwrap_or(0)
    }

    /// The edge from vertex `i` to the next of its loop.
    fn edge(&self, i: usize) -> ([f64; 2], [f64; 2], usize) {
        let l = self.loop_of(i);
        let r = self.loop_range(l);
        let j = if i + 1 == r.end { r.start } else { i + 1 };
        (self.points[i], self.points[j], j)
    }

    /// Two edges (by first vertex) that cross or touch, other than neighbours sharing their
    /// common vertex. Edges sorted by their left end; each is tested against the edges whose
    /// x range overlaps its own.
    fn crossing_edges(&self) -> Option<(usize, usize)> {
        let n = self.points.len();
        let mut order: Vec<(f64, f64, usize)> = (0..n)
            .map(|i| {
                let (a, b, _) = self.edge(i);
                (a[0].min(b[0]), a[0].max(b[0]), i)
            })
            .collect();
        order.sort_by(|x, y| x.0.total_cmp(&y.0));
        for (k, &(_, max_x, e)) in order.iter().enumerate() {
            let (a, b, ej) = self.edge(e);
            for &(min_x, _, f) in &order[k + 1..] {
                if min_x > max_x {
                    break;
                }
                let (c, d, fj) = self.edge(f);
                let shared = ej == f || fj == e;
                if shared {
                    // Neighbours: they may only meet at the shared vertex, so they must not
                    // fold back over each other (collinear and overlapping).
                    let (p, q, r) = if ej == f { (a, b, d) } else { (c, d, b) };
                    if cross(p, q, r) == 0.0 && dot_sub(p, q, r) > 0.0 {
                        return Some((e.min(f), e.max(f)));
                    }
                    continue;
                }
                if segments_meet(a, b, c, d) {
                    return Some((e.min(f), e.max(f)));
                }
            }
        }
        None
    }
}

fn bbox(points: &[[f64; 2]]) -> ([f64; 2], [f64; 2]) {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in points {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    (lo, hi)
}

/// Cross product of `b - a` and `c - a`.
fn cross(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// For neighbours a-b and b-c: positive when c lies back along b-a (the edges fold).
fn dot_sub(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (a[0] - b[0]) * (c[0] - b[0]) + (a[1] - b[1]) * (c[1] - b[1])
}

fn on_segment(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> bool {
    p[0] >= a[0].min(b[0])
        && p[0] <= a[0].max(b[0])
        && p[1] >= a[1].min(b[1])
        && p[1] <= a[1].max(b[1])
}

/// Whether segments a-b and c-d have a point in common.
fn segments_meet(a: [f64; 2], b: [f64; 2], c: [f64; 2], d: [f64; 2]) -> bool {
    let (d1, d2) = (cross(c, d, a), cross(c, d, b));
    let (d3, d4) = (cross(a, b, c), cross(a, b, d));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    (d1 == 0.0 && on_segment(c, d, a))
        || (d2 == 0.0 && on_segment(c, d, b))
        || (d3 == 0.0 && on_segment(a, b, c))
        || (d4 == 0.0 && on_segment(a, b, d))
}

/// Diagonal of the bounding box of `points`, or 1 when it is 0 (the oracle's scale).
fn diameter_of(points: &[[f64; 2]]) -> f64 {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in points {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let d = (hi[0] - lo[0]).hypot(hi[1] - lo[1]);
    if d > 0.0 && d.is_finite() { d } else { 1.0 }
}

/// Winding number of a closed polygon around `p` (crossing rule on upward/downward edges).
pub(crate) fn winding_of(poly: &[[f64; 2]], p: [f64; 2]) -> i32 {
    let mut w = 0;
    for (k, a) in poly.iter().enumerate() {
        let b = poly[(k + 1) % poly.len()];
        let side = (b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1]);
        if a[1] <= p[1] {
            if b[1] > p[1] && side > 0.0 {
                w += 1;
            }
        } else if b[1] <= p[1] && side < 0.0 {
            w -= 1;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: [[f64; 2]; 4] = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];

    #[test]
    fn square_area_winding_diameter() {
        let c = Cage::from_loops(&[SQUARE]).expect("valid");
        assert_eq!(c.signed_area(0), 1.0);
        assert_eq!(c.winding_number([0.5, 0.5]), 1);
        assert_eq!(c.winding_number([1.5, 0.5]), 0);
        assert_eq!(c.diameter(), 2f64.sqrt());
        assert_eq!(c.vertex_count(), 4);
        assert_eq!(c.loop_range(0), 0..4);
    }

    #[test]
    fn hole_has_winding_zero_and_nesting_orientation_fixes_it() {
        let outer = [[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];
        // Hole given counter-clockwise (wrong); outer given clockwise (wrong).
        let hole = [[1.0, 1.0], [3.0, 1.0], [3.0, 3.0], [1.0, 3.0]];
        let outer_cw: Vec<_> = outer.iter().rev().copied().collect();
        let c = Cage::from_loops(&[outer_cw, hole.to_vec()])
            .expect("valid")
            .with_nesting_orientation();
        assert_eq!(c.signed_area(0), 16.0);
        assert_eq!(c.signed_area(1), -4.0);
        assert_eq!(c.winding_number([0.5, 0.5]), 1);
        assert_eq!(c.winding_number([2.0, 2.0]), 0);
        assert_eq!(c.loop_range(1), 4..8);
    }

    #[test]
    fn validation_errors() {
        assert_eq!(
            Cage::from_loops::<[[f64; 2]; 4]>(&[]),
            Err(CageError::NoLoops)
        );
        assert_eq!(
            Cage::from_loops(&[[[0.0, 0.0], [1.0, 0.0]]]),
            Err(CageError::LoopTooShort {
                loop_index: 0,
                len: 2
            })
        );
        assert_eq!(
            Cage::from_loops(&[[[0.0, 0.0], [1.0, f64::NAN], [0.0, 1.0]]]),
            Err(CageError::NonFinite {
                what: "cage vertex",
                index: 1
            })
        );
        assert_eq!(
            Cage::from_loops(&[[[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]]),
            Err(CageError::ZeroLengthEdge {
                loop_index: 0,
                vertex: 1
            })
        );
        assert_eq!(
            Cage::from_control_points(&SQUARE, &[vec![0, 1, 9]]),
            Err(CageError::IndexOutOfRange { index: 9, len: 4 })
        );
    }
}
