//! Small geometry for the deformer stage: maps between bone spaces, barycentric coordinates,
//! and the bilinear lattice map with its Jacobian, on the core's [`Vec2`] and
//! [`WorldTransform`]. f64 throughout; no allocation. Verified through the stage tests in
//! `tests.rs`.

use crate::math::{Vec2, WorldTransform};

/// The map from bone `from`'s space to bone `to`'s space under `world`
/// (`inverse(W_to) · W_from`), or `None` when `to` is singular.
pub(crate) fn relative(world: &[WorldTransform], from: usize, to: usize) -> Option<WorldTransform> {
    if from == to {
        return Some(WorldTransform::IDENTITY);
    }
    let (wf, wt) = (world.get(from)?, world.get(to)?);
    Some(wt.try_inverse()? * *wf)
}

/// Barycentric weights of `p` in triangle `(a, b, c)`, when `p` lies inside it (with a small
/// relative tolerance so points on edges are not lost); `None` for degenerate triangles.
pub(crate) fn barycentric(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> Option<[f64; 3]> {
    let (e1, e2) = (b - a, c - a);
    let det = e1.cross(e2);
    let size = e1.x.abs() + e1.y.abs() + e2.x.abs() + e2.y.abs();
    if !det.is_finite() || det.abs() <= 1e-12 * size * size {
        return None;
    }
    let d = p - a;
    let w1 = d.cross(e2) / det;
    let w2 = e1.cross(d) / det;
    let w0 = 1.0 - w1 - w2;
    // Relative to the triangle: generous enough for the ~2e-8 shear Spine's float pi puts in
    // every Inochi2D node matrix (a vertex on the mesh border must stay inside).
    const TOL: f64 = -1e-6;
    (w0 >= TOL && w1 >= TOL && w2 >= TOL).then_some([w0, w1, w2])
}

/// A regular rest lattice: `cols x rows` cells of size `cell` from `origin`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Grid {
    pub origin: Vec2,
    pub cell: Vec2,
    pub cols: usize,
    pub rows: usize,
}

impl Grid {
    /// The rest cell of `q` (clamped to the grid) and its unclamped offsets `(u, v)`: points
    /// outside extrapolate from the nearest edge cell.
    #[inline]
    pub fn locate(&self, q: Vec2) -> (usize, usize, f64, f64) {
        let fx = (q.x - self.origin.x) / self.cell.x;
        let fy = (q.y - self.origin.y) / self.cell.y;
        let cell = |f: f64, n: usize| {
            if f.is_finite() {
                (f.floor().max(0.0) as usize).min(n - 1)
            } else {
                0
            }
        };
        let (i, j) = (cell(fx, self.cols), cell(fy, self.rows));
        (i, j, fx - i as f64, fy - j as f64)
    }

    /// The current position of rest point `q` on lattice `pts` (x,y per point, row-major,
    /// `(cols + 1) x (rows + 1)` points) and the map's Jacobian there (a linear
    /// [`WorldTransform`]).
    #[inline]
    pub fn map(&self, pts: &[f64], q: Vec2) -> (Vec2, WorldTransform) {
        let (i, j, u, v) = self.locate(q);
        let w = self.cols + 1;
        let p = |ii: usize, jj: usize| {
            let k = 2 * (jj * w + ii);
            match pts.get(k..k + 2) {
                Some(s) => Vec2::new(s[0], s[1]),
                None => Vec2::ZERO,
            }
        };
        let (p00, p10, p01, p11) = (p(i, j), p(i + 1, j), p(i, j + 1), p(i + 1, j + 1));
        // Per component: the bilinear blend and its two partial derivatives.
        let axis = |c00: f64, c10: f64, c01: f64, c11: f64| {
            let out = (1.0 - v) * ((1.0 - u) * c00 + u * c10) + v * ((1.0 - u) * c01 + u * c11);
            let du = (1.0 - v) * (c10 - c00) + v * (c11 - c01);
            let dv = (1.0 - u) * (c01 - c00) + u * (c11 - c10);
            (out, du / self.cell.x, dv / self.cell.y)
        };
        let (x, a, b) = axis(p00.x, p10.x, p01.x, p11.x);
        let (y, c, d) = axis(p00.y, p10.y, p01.y, p11.y);
        (Vec2::new(x, y), WorldTransform::linear(a, b, c, d))
    }
}
