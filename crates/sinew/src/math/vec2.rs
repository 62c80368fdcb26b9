//! [`Vec2`]: the one f64 2D vector of the core (points and directions in bone, world and
//! solver space). Each operator is the plain component formula written once here, so code
//! that moved onto it computes the same bits it computed on the tuples and arrays before.
//!
//! Verified by the unit tests below and through every stage that uses it (the jiggle and
//! parameter physics suites, the deformer stage, the IK constraints).

use std::ops::{Add, Mul, Neg, Sub};

/// A 2D vector or point (f64).
///
/// Owner: shared vocabulary of every stage ([`crate::math`] lists where it is used and where
/// plain arrays stay).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vec2 {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
}

impl Vec2 {
    /// The zero vector.
    pub const ZERO: Vec2 = Vec2::new(0.0, 0.0);

    /// Builds a vector.
    #[inline]
    pub const fn new(x: f64, y: f64) -> Self {
        Vec2 { x, y }
    }
    /// The vector rotated +90°: `(-y, x)`.
    #[inline]
    pub fn perp(self) -> Self {
        Vec2::new(-self.y, self.x)
    }
    /// Dot product, `x·ox + y·oy`.
    #[inline]
    pub fn dot(self, o: Self) -> f64 {
        self.x * o.x + self.y * o.y
    }
    /// 2D cross product (z of the 3D cross), `x·oy - y·ox`.
    #[inline]
    pub fn cross(self, o: Self) -> f64 {
        self.x * o.y - self.y * o.x
    }
    /// The components as an array `[x, y]` (the storage form of flat buffers).
    #[inline]
    pub const fn to_array(self) -> [f64; 2] {
        [self.x, self.y]
    }
}

impl From<(f64, f64)> for Vec2 {
    fn from((x, y): (f64, f64)) -> Self {
        Vec2::new(x, y)
    }
}

impl From<[f64; 2]> for Vec2 {
    #[inline]
    fn from([x, y]: [f64; 2]) -> Self {
        Vec2 { x, y }
    }
}

impl From<Vec2> for [f64; 2] {
    #[inline]
    fn from(v: Vec2) -> Self {
        [v.x, v.y]
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    #[inline]
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}
impl Sub for Vec2 {
    type Output = Vec2;
    #[inline]
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}
impl Mul<f64> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn mul(self, s: f64) -> Vec2 {
        Vec2::new(self.x * s, self.y * s)
    }
}
impl Neg for Vec2 {
    type Output = Vec2;
    #[inline]
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_are_the_component_formulas() {
        let (a, b) = (Vec2::new(3.0, -2.0), Vec2::new(0.5, 4.0));
        assert_eq!(a + b, Vec2::new(3.5, 2.0));
        assert_eq!(a - b, Vec2::new(2.5, -6.0));
        assert_eq!(a * 2.0, Vec2::new(6.0, -4.0));
        assert_eq!(-a, Vec2::new(-3.0, 2.0));
        assert_eq!(a.dot(b), 1.5 - 8.0);
        assert_eq!(a.cross(b), 12.0 + 1.0);
        assert_eq!(a.perp(), Vec2::new(2.0, 3.0));
        assert_eq!(a.perp().dot(a), 0.0);
        assert_eq!(Vec2::from([1.0, 2.0]).to_array(), [1.0, 2.0]);
        assert_eq!(<[f64; 2]>::from(b), [0.5, 4.0]);
    }
}
