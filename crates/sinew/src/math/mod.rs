//! Math conventions: y up, angles in degrees where Spine keeps degrees, column vectors.
//!
//! A [`WorldTransform`] maps bone space to world space: `world = [a b; c d] * p + (x, y)`,
//! so `(a, c)` is the bone's x axis in world space and `(b, d)` its y axis.
//!
//! Layer: data. Owns the vector/affine conventions, trigonometry ([`trig`], with the
//! per-bone [`trig::TrigMemo`]), keyform grid weights ([`grid`]) and the CPU feature choice
//! and shared register shuffles of the SIMD kernels ([`simd`]); imports nothing.

pub mod grid;
pub mod simd;
pub mod trig;

/// Degrees to radians.
pub const DEG_RAD: f64 = std::f64::consts::PI / 180.0;
/// Radians to degrees.
pub const RAD_DEG: f64 = 180.0 / std::f64::consts::PI;

/// Spine's pi (`MathUtils.PI`), rounded to float precision.
/// COMPAT(spine): spine-ts derives `degRad`/`radDeg` and its wrap limits from this value,
/// so pose math that must match the official runtime bit for bit uses these constants.
#[allow(clippy::approx_constant)]
pub const SPINE_PI: f64 = 3.1415927;
/// Spine's `2 * MathUtils.PI`.
pub const SPINE_PI2: f64 = SPINE_PI * 2.0;
/// Spine's degrees-to-radians factor (`MathUtils.degRad`).
pub const SPINE_DEG_RAD: f64 = SPINE_PI / 180.0;
/// Spine's radians-to-degrees factor (`MathUtils.radDeg`).
pub const SPINE_RAD_DEG: f64 = 180.0 / SPINE_PI;

/// A bone's world transform: 2x2 linear part plus translation.
///
/// Owner: shared vocabulary of every stage.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct WorldTransform {
    /// x axis, x component.
    pub a: f64,
    /// y axis, x component.
    pub b: f64,
    /// x axis, y component.
    pub c: f64,
    /// y axis, y component.
    pub d: f64,
    /// World x of the origin.
    pub x: f64,
    /// World y of the origin.
    pub y: f64,
}

impl WorldTransform {
    /// The identity.
    pub const IDENTITY: WorldTransform = WorldTransform {
        a: 1.0,
        b: 0.0,
        c: 0.0,
        d: 1.0,
        x: 0.0,
        y: 0.0,
    };

    /// Maps a bone-space point to world space.
    #[inline]
    pub fn apply(&self, px: f64, py: f64) -> (f64, f64) {
        (
            self.a * px + self.b * py + self.x,
            self.c * px + self.d * py + self.y,
        )
    }
}

/// The inverse of the 2x2 matrix `[a b; c d]`, as `[[ia, ib], [ic, id]]`; for a singular
/// matrix (determinant 0, or an inverse that overflows) its Moore-Penrose pseudo-inverse:
/// `transpose / (a² + b² + c² + d²)` (the exact pseudo-inverse of a rank-1 matrix), and all
/// zeros for the zero matrix. Always finite for finite input.
///
/// So world-to-local through a singular parent (a bone scaled to 0 on one or both axes)
/// gives the least-squares answer: the shortest local offset whose world position is
/// nearest the point, instead of the official runtimes' NaN or infinity.
///
/// ```
/// use sinew::math::inverse_linear;
/// assert_eq!(inverse_linear(2.0, 0.0, 0.0, 4.0), [[0.5, 0.0], [0.0, 0.25]]);
/// // Scale x 0: the x axis collapses; world x maps back to 0, world y through the y axis.
/// assert_eq!(inverse_linear(0.0, 0.0, 0.0, 2.0), [[0.0, 0.0], [0.0, 0.5]]);
/// assert_eq!(inverse_linear(0.0, 0.0, 0.0, 0.0), [[0.0; 2]; 2]);
/// ```
#[inline]
pub fn inverse_linear(a: f64, b: f64, c: f64, d: f64) -> [[f64; 2]; 2] {
    let det = a * d - b * c;
    let inv = 1.0 / det;
    let m = [[d * inv, -b * inv], [-c * inv, a * inv]];
    if det != 0.0 && m.iter().flatten().all(|v| v.is_finite()) {
        return m;
    }
    let f = a * a + b * b + c * c + d * d;
    if !(f > 0.0 && f.is_finite()) {
        return [[0.0; 2]; 2];
    }
    [[a / f, c / f], [b / f, d / f]]
}

// Six f64 and nothing else, in declaration order (`repr(C)`): what `floats_of` relies on.
const _: () = assert!(std::mem::size_of::<WorldTransform>() == 6 * 8);
const _: () = assert!(std::mem::align_of::<WorldTransform>() == std::mem::align_of::<f64>());

/// The components of `world` as one flat slice, `[a, b, c, d, x, y]` per transform (for
/// whole-array passes that vectorise, such as the facade's finiteness check).
pub(crate) fn floats_of(world: &[WorldTransform]) -> &[f64] {
    // SAFETY: `WorldTransform` is `repr(C)` with six `f64` fields, so it is exactly six
    // contiguous, aligned, initialised f64 with no padding (checked at compile time above);
    // the new slice covers the same bytes, for the same lifetime, read only.
    #[allow(unsafe_code)]
    unsafe {
        std::slice::from_raw_parts(world.as_ptr().cast::<f64>(), world.len() * 6)
    }
}

impl Default for WorldTransform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// Wraps degrees to [-180, 180] the way the Spine runtimes do
/// (COMPAT(spine): `r - ceil(r / 360 - 0.5) * 360`).
#[inline]
pub fn wrap_degrees(r: f64) -> f64 {
    r - ((r / 360.0 - 0.5).ceil()) * 360.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_degrees_stays_in_range() {
        assert_eq!(wrap_degrees(190.0), -170.0);
        assert_eq!(wrap_degrees(-190.0), 170.0);
        assert_eq!(wrap_degrees(45.0), 45.0);
        assert!((wrap_degrees(720.0 + 10.0) - 10.0).abs() < 1e-12);
    }
}
