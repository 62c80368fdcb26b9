//! Small geometry for the deformer stage: affine maps between bone spaces, barycentric
//! coordinates, and the bilinear lattice map with its Jacobian. f64 throughout; no allocation.
//! Verified through the stage tests in `tests.rs`.

use crate::math::WorldTransform;

/// A 2x2 matrix, row-major `[a, b, c, d]` (`x' = a x + b y`, `y' = c x + d y`).
pub(crate) type Mat2 = [f64; 4];

/// The identity matrix.
pub(crate) const I2: Mat2 = [1.0, 0.0, 0.0, 1.0];

#[inline]
pub(crate) fn mat_mul(p: Mat2, q: Mat2) -> Mat2 {
    [
        p[0] * q[0] + p[1] * q[2],
        p[0] * q[1] + p[1] * q[3],
        p[2] * q[0] + p[3] * q[2],
        p[2] * q[1] + p[3] * q[3],
    ]
}

#[inline]
pub(crate) fn mat_vec(m: Mat2, v: [f64; 2]) -> [f64; 2] {
    [m[0] * v[0] + m[1] * v[1], m[2] * v[0] + m[3] * v[1]]
}

/// The inverse, or `None` when (nearly) singular.
#[inline]
pub(crate) fn mat_inv(m: Mat2) -> Option<Mat2> {
    let det = m[0] * m[3] - m[1] * m[2];
    let scale = m.iter().fold(0.0f64, |s, x| s.max(x.abs()));
    if !det.is_finite() || det.abs() <= 1e-12 * scale * scale || scale == 0.0 {
        return None;
    }
    let r = 1.0 / det;
    Some([m[3] * r, -m[1] * r, -m[2] * r, m[0] * r])
}

/// An affine map: linear part plus translation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Affine {
    pub m: Mat2,
    pub t: [f64; 2],
}

impl Affine {
    pub const IDENTITY: Affine = Affine { m: I2, t: [0.0; 2] };

    #[inline]
    pub fn from_world(w: &WorldTransform) -> Affine {
        Affine {
            m: [w.a, w.b, w.c, w.d],
            t: [w.x, w.y],
        }
    }

    #[inline]
    pub fn apply(&self, p: [f64; 2]) -> [f64; 2] {
        let v = mat_vec(self.m, p);
        [v[0] + self.t[0], v[1] + self.t[1]]
    }

    /// `self ∘ q` (q first).
    #[inline]
    pub fn then_after(&self, q: &Affine) -> Affine {
        Affine {
            m: mat_mul(self.m, q.m),
            t: self.apply(q.t),
        }
    }

    pub fn inverse(&self) -> Option<Affine> {
        let mi = mat_inv(self.m)?;
        let t = mat_vec(mi, self.t);
        Some(Affine {
            m: mi,
            t: [-t[0], -t[1]],
        })
    }
}

/// The map from bone `from`'s space to bone `to`'s space under `world`
/// (`inverse(W_to) · W_from`), or `None` when `to` is singular.
pub(crate) fn relative(world: &[WorldTransform], from: usize, to: usize) -> Option<Affine> {
    if from == to {
        return Some(Affine::IDENTITY);
    }
    let (wf, wt) = (world.get(from)?, world.get(to)?);
    let inv = Affine::from_world(wt).inverse()?;
    Some(inv.then_after(&Affine::from_world(wf)))
}

/// Barycentric weights of `p` in triangle `(a, b, c)`, when `p` lies inside it (with a small
/// relative tolerance so points on edges are not lost); `None` for degenerate triangles.
pub(crate) fn barycentric(p: [f64; 2], a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> Option<[f64; 3]> {
    let (e1, e2) = ([b[0] - a[0], b[1] - a[1]], [c[0] - a[0], c[1] - a[1]]);
    let det = e1[0] * e2[1] - e1[1] * e2[0];
    let size = e1[0].abs() + e1[1].abs() + e2[0].abs() + e2[1].abs();
    if !det.is_finite() || det.abs() <= 1e-12 * size * size {
        return None;
    }
    let d = [p[0] - a[0], p[1] - a[1]];
    let w1 = (d[0] * e2[1] - d[1] * e2[0]) / det;
    let w2 = (e1[0] * d[1] - e1[1] * d[0]) / det;
    let w0 = 1.0 - w1 - w2;
    // Relative to the triangle: generous enough for the ~2e-8 shear Spine's float pi puts in
    // every Inochi2D node matrix (a vertex on the mesh border must stay inside).
    const TOL: f64 = -1e-6;
    (w0 >= TOL && w1 >= TOL && w2 >= TOL).then_some([w0, w1, w2])
}

/// A regular rest lattice: `cols x rows` cells of size `cell` from `origin`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Grid {
    pub origin: [f64; 2],
    pub cell: [f64; 2],
    pub cols: usize,
    pub rows: usize,
}

impl Grid {
    /// The rest cell of `q` (clamped to the grid) and its unclamped offsets `(u, v)`: points
    /// outside extrapolate from the nearest edge cell.
    #[inline]
    pub fn locate(&self, q: [f64; 2]) -> (usize, usize, f64, f64) {
        let fx = (q[0] - self.origin[0]) / self.cell[0];
        let fy = (q[1] - self.origin[1]) / self.cell[1];
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
    /// `(cols + 1) x (rows + 1)` points) and the map's Jacobian there.
    #[inline]
    pub fn map(&self, pts: &[f64], q: [f64; 2]) -> ([f64; 2], Mat2) {
        let (i, j, u, v) = self.locate(q);
        let w = self.cols + 1;
        let p = |ii: usize, jj: usize| {
            let k = 2 * (jj * w + ii);
            match pts.get(k..k + 2) {
                Some(s) => [s[0], s[1]],
                None => [0.0, 0.0],
            }
        };
        let (p00, p10, p01, p11) = (p(i, j), p(i + 1, j), p(i, j + 1), p(i + 1, j + 1));
        let mut out = [0.0; 2];
        let mut jac = [0.0; 4];
        for k in 0..2 {
            out[k] = (1.0 - v) * ((1.0 - u) * p00[k] + u * p10[k])
                + v * ((1.0 - u) * p01[k] + u * p11[k]);
            let du = (1.0 - v) * (p10[k] - p00[k]) + v * (p11[k] - p01[k]);
            let dv = (1.0 - u) * (p01[k] - p00[k]) + u * (p11[k] - p10[k]);
            jac[2 * k] = du / self.cell[0];
            jac[2 * k + 1] = dv / self.cell[1];
        }
        (out, jac)
    }
}
