//! The vector space the secondary-motion solvers run in: [`SimVec`] with a rotation type,
//! implemented for the core's 2D [`Vec2`] (f64) and, with the `glam` feature, for
//! [`glam::DVec3`] with [`glam::DQuat`] rotations. One solver (jiggle chains, colliders) is
//! written once against this trait and runs on 2D rigs and on 3D engine transforms alike.
//!
//! Verified by the unit tests below (the minimal rotation between unit vectors, blending,
//! composition) and through the solver tests that run both spaces.

use crate::math::Vec2;
use std::fmt::Debug;
use std::ops::{Add, Mul, Neg, Sub};

/// A vector of the simulation space, with the rotations of that space.
///
/// Owner: the jiggle solvers (`physics::jiggle`; step 7 of `Character::update`, and the 3D solver).
pub trait SimVec:
    Copy
    + Debug
    + PartialEq
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<f64, Output = Self>
    + Neg<Output = Self>
{
    /// A rotation of the space.
    type Rot: Copy + Debug + PartialEq;
    /// The zero vector.
    const ZERO: Self;
    /// The identity rotation.
    const ROT_IDENTITY: Self::Rot;
    /// A fixed unit vector (used when a direction is undefined).
    fn any_unit() -> Self;
    /// Some unit vector perpendicular to unit `self`.
    fn any_perp(self) -> Self;
    /// Dot product.
    fn dot(self, o: Self) -> f64;
    /// Whether every component is finite.
    fn is_finite(self) -> bool;
    /// The smallest rotation taking unit `a` to unit `b` (any axis when they are opposite).
    fn rot_between(a: Self, b: Self) -> Self::Rot;
    /// Applies a rotation.
    fn rot_apply(r: Self::Rot, v: Self) -> Self;
    /// `r1` after `r2`.
    fn rot_mul(r1: Self::Rot, r2: Self::Rot) -> Self::Rot;
    /// Spherical interpolation from `r1` (t = 0) to `r2` (t = 1).
    fn rot_slerp(r1: Self::Rot, r2: Self::Rot, t: f64) -> Self::Rot;
    /// Normalised linear interpolation: cheaper than [`SimVec::rot_slerp`], and as good for
    /// the small angles between consecutive steps (used for display interpolation).
    fn rot_nlerp(r1: Self::Rot, r2: Self::Rot, t: f64) -> Self::Rot;
    /// The rotation vector of `r` (axis times angle, radians; 2D: the angle in `x`).
    fn rot_log(r: Self::Rot) -> Self;
    /// The rotation of rotation vector `v` (the inverse of [`SimVec::rot_log`]).
    fn rot_exp(v: Self) -> Self::Rot;

    /// Length.
    #[inline]
    fn length(self) -> f64 {
        self.dot(self).sqrt()
    }
    /// Linear interpolation.
    #[inline]
    fn lerp(self, o: Self, t: f64) -> Self {
        self + (o - self) * t
    }
    /// The unit vector along `self`, or `fallback` when its length is (nearly) zero.
    #[inline]
    fn normalize_or(self, fallback: Self) -> Self {
        let l = self.length();
        if l > 1e-12 && l.is_finite() {
            self * (1.0 / l)
        } else {
            fallback
        }
    }
}

/// A 2D rotation as a unit complex number `(cos, sin)`.
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rot2 {
    /// Cosine.
    pub c: f64,
    /// Sine.
    pub s: f64,
}

impl Rot2 {
    /// The rotation by `radians`.
    #[inline]
    pub fn from_angle(radians: f64) -> Self {
        let (s, c) = radians.sin_cos();
        Rot2 { c, s }
    }
    /// The angle of the rotation, radians.
    #[inline]
    pub fn angle(self) -> f64 {
        self.s.atan2(self.c)
    }
}

impl SimVec for Vec2 {
    type Rot = Rot2;
    const ZERO: Vec2 = Vec2::new(0.0, 0.0);
    const ROT_IDENTITY: Rot2 = Rot2 { c: 1.0, s: 0.0 };
    #[inline]
    fn any_unit() -> Self {
        Vec2::new(1.0, 0.0)
    }
    #[inline]
    fn any_perp(self) -> Self {
        self.perp()
    }
    #[inline]
    fn dot(self, o: Self) -> f64 {
        Vec2::dot(self, o)
    }
    #[inline]
    fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
    #[inline]
    fn rot_between(a: Self, b: Self) -> Rot2 {
        // b * conj(a), renormalised against rounding.
        let (c, s) = (a.dot(b), a.cross(b));
        let l = (c * c + s * s).sqrt();
        if l > 1e-300 {
            Rot2 { c: c / l, s: s / l }
        } else {
            Self::ROT_IDENTITY
        }
    }
    #[inline]
    fn rot_apply(r: Rot2, v: Self) -> Self {
        Vec2::new(r.c * v.x - r.s * v.y, r.s * v.x + r.c * v.y)
    }
    #[inline]
    fn rot_mul(r1: Rot2, r2: Rot2) -> Rot2 {
        Rot2 {
            c: r1.c * r2.c - r1.s * r2.s,
            s: r1.s * r2.c + r1.c * r2.s,
        }
    }
    #[inline]
    fn rot_slerp(r1: Rot2, r2: Rot2, t: f64) -> Rot2 {
        if t == 0.0 {
            return r1;
        }
        if t == 1.0 {
            return r2;
        }
        // Angle of r2 relative to r1, scaled.
        let rel_c = r1.c * r2.c + r1.s * r2.s;
        let rel_s = r1.c * r2.s - r1.s * r2.c;
        let a = rel_s.atan2(rel_c) * t;
        Self::rot_mul(r1, Rot2::from_angle(a))
    }
    #[inline]
    fn rot_nlerp(r1: Rot2, r2: Rot2, t: f64) -> Rot2 {
        if t == 0.0 || r1 == r2 {
            return r1;
        }
        if t == 1.0 {
            return r2;
        }
        let (c, s) = (r1.c + (r2.c - r1.c) * t, r1.s + (r2.s - r1.s) * t);
        let l = (c * c + s * s).sqrt();
        // Opposite rotations have no midpoint: fall back to the exact slerp.
        if l > 1e-9 {
            Rot2 { c: c / l, s: s / l }
        } else {
            Self::rot_slerp(r1, r2, t)
        }
    }
    #[inline]
    fn rot_log(r: Rot2) -> Self {
        Vec2::new(r.s.atan2(r.c), 0.0)
    }
    #[inline]
    fn rot_exp(v: Self) -> Rot2 {
        Rot2::from_angle(v.x)
    }
}

#[cfg(feature = "glam")]
impl SimVec for glam::DVec3 {
    type Rot = glam::DQuat;
    const ZERO: Self = glam::DVec3::ZERO;
    const ROT_IDENTITY: glam::DQuat = glam::DQuat::IDENTITY;
    #[inline]
    fn any_unit() -> Self {
        glam::DVec3::X
    }
    #[inline]
    fn any_perp(self) -> Self {
        self.any_orthonormal_vector()
    }
    #[inline]
    fn dot(self, o: Self) -> f64 {
        glam::DVec3::dot(self, o)
    }
    #[inline]
    fn is_finite(self) -> bool {
        glam::DVec3::is_finite(self)
    }
    #[inline]
    fn rot_between(a: Self, b: Self) -> glam::DQuat {
        glam::DQuat::from_rotation_arc(a, b)
    }
    #[inline]
    fn rot_apply(r: glam::DQuat, v: Self) -> Self {
        r * v
    }
    #[inline]
    fn rot_mul(r1: glam::DQuat, r2: glam::DQuat) -> glam::DQuat {
        r1 * r2
    }
    #[inline]
    fn rot_slerp(r1: glam::DQuat, r2: glam::DQuat, t: f64) -> glam::DQuat {
        if t == 0.0 {
            return r1;
        }
        if t == 1.0 {
            return r2;
        }
        r1.slerp(r2, t)
    }
    #[inline]
    fn rot_nlerp(r1: glam::DQuat, r2: glam::DQuat, t: f64) -> glam::DQuat {
        if t == 0.0 || r1 == r2 {
            return r1;
        }
        if t == 1.0 {
            return r2;
        }
        // glam's lerp takes the short way and normalises.
        r1.lerp(r2, t)
    }
    #[inline]
    fn rot_log(r: glam::DQuat) -> Self {
        r.to_scaled_axis()
    }
    #[inline]
    fn rot_exp(v: Self) -> glam::DQuat {
        glam::DQuat::from_scaled_axis(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec2, b: Vec2) -> bool {
        (a - b).length() < 1e-12
    }

    #[test]
    fn rotation_between_unit_vectors_2d() {
        let a = Vec2::new(1.0, 0.0);
        let b = Vec2::new(0.0, 1.0);
        let r = Vec2::rot_between(a, b);
        assert!(close(Vec2::rot_apply(r, a), b));
        assert!(close(Vec2::rot_apply(r, b), Vec2::new(-1.0, 0.0)));
        // Opposite vectors: a half turn.
        let r = Vec2::rot_between(a, -a);
        assert!(close(Vec2::rot_apply(r, a), -a));
    }

    #[test]
    fn slerp_and_compose_2d() {
        let r = Rot2::from_angle(1.0);
        let half = Vec2::rot_slerp(Vec2::ROT_IDENTITY, r, 0.5);
        assert!((half.angle() - 0.5).abs() < 1e-12);
        let n = Vec2::rot_nlerp(Vec2::ROT_IDENTITY, Rot2::from_angle(0.2), 0.5);
        assert!((n.angle() - 0.1).abs() < 1e-12);
        let twice = Vec2::rot_mul(r, r);
        assert!((twice.angle() - 2.0).abs() < 1e-12);
        // Slerp takes the short way across +-pi.
        let a = Rot2::from_angle(3.0);
        let b = Rot2::from_angle(-3.0);
        let m = Vec2::rot_slerp(a, b, 0.5);
        assert!((m.angle().abs() - std::f64::consts::PI).abs() < 1e-12);
    }

    #[test]
    fn normalize_falls_back_on_zero() {
        assert_eq!(
            Vec2::ZERO.normalize_or(Vec2::any_unit()),
            Vec2::new(1.0, 0.0)
        );
        let n = Vec2::new(3.0, 4.0).normalize_or(Vec2::ZERO);
        assert!(close(n, Vec2::new(0.6, 0.8)));
    }

    #[cfg(feature = "glam")]
    #[test]
    fn rotation_between_unit_vectors_3d() {
        use glam::DVec3;
        let a = DVec3::new(0.0, -1.0, 0.0);
        let b = DVec3::new(1.0, 0.0, 1.0).normalize();
        let r = DVec3::rot_between(a, b);
        assert!((DVec3::rot_apply(r, a) - b).length() < 1e-12);
        let half = DVec3::rot_slerp(DVec3::ROT_IDENTITY, r, 0.5);
        let m = DVec3::rot_apply(half, a);
        assert!((m.dot(a) - m.dot(b)).abs() < 1e-12);
    }
}
