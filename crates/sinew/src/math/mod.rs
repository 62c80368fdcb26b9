//! The core's math vocabulary: one vector, [`Vec2`], and one affine map, [`WorldTransform`],
//! plus degree helpers, trigonometry ([`trig`], with the per-bone [`trig::TrigMemo`]),
//! keyform grid weights ([`grid`]) and the CPU feature choice and shared register shuffles of
//! the SIMD kernels ([`simd`]).
//!
//! # Conventions
//!
//! - **Numbers**: f64 for every pose, geometry and solver computation; f32 only in stored
//!   data (key values, attachment vertices, cage weights) and the draw list.
//! - **Axes**: a rig keeps its format's axes: Spine's world is y up, DragonBones' and
//!   Inochi2D's y down as their files have them (the draw setup says `y_down`, and draw
//!   lists are flipped to y up there). The math is the same either way; words like "+90°"
//!   or "counter-clockwise" below read y up. Angles in degrees where the formats keep
//!   degrees (bone rotations, shears), radians inside the solvers; Spine's float pi where a
//!   Spine result must match bit for bit ([`SPINE_PI`]).
//! - **Matrices**: column vectors. A [`WorldTransform`] is `p' = [a b; c d] · p + (x, y)`:
//!   `(a, c)` is the image of the x axis, `(b, d)` of the y axis; the 2x2 is read row by row
//!   `a b / c d`, which is also the field order. `m1 * m2` applies `m2` first. A purely
//!   linear map (a Jacobian, a deformer's scale-rotation) is a `WorldTransform` with zero
//!   translation ([`WorldTransform::linear`]).
//! - **Where each representation lives**:
//!   - [`Vec2`]: points and vectors in function signatures and in the solvers (jiggle,
//!     pendulums, chains, IK targets, the deformer stage, skinning sums);
//!   - `[f64; 2]`: authoring and public values that hosts and loaders fill from JSON or C:
//!     parameter values and ranges (a parameter has up to two axes, `[x, y]`), the
//!     `raw::*` deformer and physics fields, jiggle descriptors, and the cage library's
//!     points (its public API takes `&[[f64; 2]]`, as hosts hold them);
//!   - flat `f64`/`f32` buffers (`x, y` interleaved): vertex, deform and lattice buffers,
//!     and the SIMD lanes, because the kernels walk them as slices;
//!   - `(f64, f64)`: pairs that are not a point or a vector (a sine and cosine, a spring's
//!     offset and velocity, two angle offsets, a rotation and a scale, a clip's loop start
//!     and end, a two-value timeline's values, a page's width and height), and the
//!     facade's point queries
//!     ([`Character::local_to_world`](crate::Character::local_to_world)), which hand hosts
//!     plain numbers;
//!   - forms that are not this geometry: DragonBones' IK computes on its runtime's
//!     `[a, b, c, d, tx, ty]` matrices in that runtime's order of operations
//!     (`constraint/ik_dragonbones.rs`), and a spring's exact step is a 2x2 state matrix
//!     over (offset, velocity), `[[f64; 2]; 2]` (`sim/spring.rs`).
//!
//! Layer: data; imports nothing.

pub mod grid;
pub mod simd;
pub mod trig;
mod vec2;

pub use vec2::Vec2;

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

/// The core's one affine map, 2x2 linear part plus translation: a bone's world transform
/// (bone space to world space), and every other 2D affine map (one bone's space to
/// another's, a deformer's frame, a Jacobian with zero translation).
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

    /// A linear map (zero translation), `[a b; c d]`.
    #[inline]
    pub const fn linear(a: f64, b: f64, c: f64, d: f64) -> WorldTransform {
        WorldTransform {
            a,
            b,
            c,
            d,
            x: 0.0,
            y: 0.0,
        }
    }

    /// Maps a point: `[a b; c d] · p + (x, y)`.
    #[inline]
    pub fn apply(&self, p: Vec2) -> Vec2 {
        Vec2::new(
            self.a * p.x + self.b * p.y + self.x,
            self.c * p.x + self.d * p.y + self.y,
        )
    }

    /// Maps a vector (the linear part only): `[a b; c d] · v`.
    #[inline]
    pub fn apply_linear(&self, v: Vec2) -> Vec2 {
        Vec2::new(self.a * v.x + self.b * v.y, self.c * v.x + self.d * v.y)
    }

    /// The linear part alone (the translation set to zero).
    #[inline]
    pub const fn linear_part(&self) -> WorldTransform {
        WorldTransform::linear(self.a, self.b, self.c, self.d)
    }

    /// The translation `(x, y)`: where the origin goes.
    #[inline]
    pub fn translation(&self) -> Vec2 {
        Vec2::new(self.x, self.y)
    }

    /// The inverse map, or `None` when the linear part is (nearly) singular: a determinant
    /// that is not finite or at most `1e-12 · s²`, `s` the largest absolute entry.
    ///
    /// ```
    /// use sinew::math::{Vec2, WorldTransform};
    /// let m = WorldTransform { a: 2.0, b: 0.0, c: 0.0, d: 4.0, x: 1.0, y: 1.0 };
    /// let inv = m.try_inverse().expect("invertible");
    /// assert_eq!(inv.apply(m.apply(Vec2::new(3.0, 5.0))), Vec2::new(3.0, 5.0));
    /// assert_eq!(WorldTransform::linear(1.0, 2.0, 2.0, 4.0).try_inverse(), None);
    /// ```
    pub fn try_inverse(&self) -> Option<WorldTransform> {
        let det = self.a * self.d - self.b * self.c;
        let scale = [self.a, self.b, self.c, self.d]
            .iter()
            .fold(0.0f64, |s, v| s.max(v.abs()));
        if !det.is_finite() || det.abs() <= 1e-12 * scale * scale || scale == 0.0 {
            return None;
        }
        let r = 1.0 / det;
        let inv = WorldTransform::linear(self.d * r, -self.b * r, -self.c * r, self.a * r);
        let t = inv.apply_linear(self.translation());
        Some(WorldTransform {
            x: -t.x,
            y: -t.y,
            ..inv
        })
    }

    /// The inverse of the linear part `[a b; c d]` (the translation is ignored; the result
    /// has none); for a singular matrix (determinant 0, or an inverse that overflows) its
    /// Moore-Penrose pseudo-inverse: `transpose / (a² + b² + c² + d²)` (the exact
    /// pseudo-inverse of a rank-1 matrix), and all zeros for the zero matrix. Always finite
    /// for finite input.
    ///
    /// So world-to-local through a singular parent (a bone scaled to 0 on one or both axes)
    /// gives the least-squares answer: the shortest local offset whose world position is
    /// nearest the point, instead of the official runtimes' NaN or infinity.
    ///
    /// ```
    /// use sinew::math::WorldTransform as W;
    /// assert_eq!(W::linear(2.0, 0.0, 0.0, 4.0).inverse_linear(), W::linear(0.5, 0.0, 0.0, 0.25));
    /// // Scale x 0: the x axis collapses; world x maps back to 0, world y through the y axis.
    /// assert_eq!(W::linear(0.0, 0.0, 0.0, 2.0).inverse_linear(), W::linear(0.0, 0.0, 0.0, 0.5));
    /// assert_eq!(W::linear(0.0, 0.0, 0.0, 0.0).inverse_linear(), W::linear(0.0, 0.0, 0.0, 0.0));
    /// ```
    #[inline]
    pub fn inverse_linear(&self) -> WorldTransform {
        let (a, b, c, d) = (self.a, self.b, self.c, self.d);
        let det = a * d - b * c;
        let inv = 1.0 / det;
        let m = [d * inv, -b * inv, -c * inv, a * inv];
        if det != 0.0 && m.iter().all(|v| v.is_finite()) {
            return WorldTransform::linear(m[0], m[1], m[2], m[3]);
        }
        let f = a * a + b * b + c * c + d * d;
        if !(f > 0.0 && f.is_finite()) {
            return WorldTransform::linear(0.0, 0.0, 0.0, 0.0);
        }
        WorldTransform::linear(a / f, c / f, b / f, d / f)
    }
}

/// `self * q`: the map that applies `q` first, then `self` (`p -> self(q(p))`).
impl std::ops::Mul for WorldTransform {
    type Output = WorldTransform;
    #[inline]
    fn mul(self, q: WorldTransform) -> WorldTransform {
        let t = self.apply(q.translation());
        WorldTransform {
            a: self.a * q.a + self.b * q.c,
            b: self.a * q.b + self.b * q.d,
            c: self.c * q.a + self.d * q.c,
            d: self.c * q.b + self.d * q.d,
            x: t.x,
            y: t.y,
        }
    }
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
