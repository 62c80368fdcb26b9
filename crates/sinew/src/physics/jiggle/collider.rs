//! Colliders for jiggle tips: spheres and capsules, which are circles and stadiums in 2D.
//!
//! A tip of radius `r` penetrates a shape when its distance to the shape's core (a point or
//! a segment) is below `R + r`; it is pushed out along the line from the nearest core point
//! (VRM SpringBone's sphere and capsule rules, math.md §B.2). Written once for any
//! [`SimVec`] space. Verified by the unit tests below (distances, push-out, degenerate
//! cases) and the chain tests that check no tip ends a step inside a collider.

use crate::sim::vec::SimVec;

/// A collider shape in world space.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape<V> {
    /// Sphere (circle in 2D).
    Sphere {
        /// Centre.
        center: V,
        /// Radius.
        radius: f64,
    },
    /// Capsule: all points within `radius` of the segment `a`-`b`.
    Capsule {
        /// Segment start.
        a: V,
        /// Segment end.
        b: V,
        /// Radius.
        radius: f64,
    },
}

impl<V: SimVec> Shape<V> {
    /// The nearest point of the shape's core (centre or segment) to `p`, and the radius.
    #[inline]
    fn core(&self, p: V) -> (V, f64) {
        match *self {
            Shape::Sphere { center, radius } => (center, radius),
            Shape::Capsule { a, b, radius } => {
                let ab = b - a;
                let t = (p - a).dot(ab);
                let l2 = ab.dot(ab);
                let q = if t <= 0.0 {
                    a
                } else if l2 <= t {
                    b
                } else {
                    a + ab * (t / l2)
                };
                (q, radius)
            }
        }
    }

    /// Signed distance from a ball of radius `r` at `p` to the shape's surface (negative:
    /// penetrating by that much).
    #[inline]
    pub fn distance(&self, p: V, r: f64) -> f64 {
        let (q, radius) = self.core(p);
        (p - q).length() - radius - r
    }

    /// Moves a ball of radius `r` at `p` out of the shape; returns the new position and
    /// whether it moved.
    #[inline]
    pub fn push_out(&self, p: V, r: f64) -> (V, bool) {
        let (q, radius) = self.core(p);
        let d = p - q;
        let len = d.length();
        let dist = len - radius - r;
        if dist >= 0.0 {
            return (p, false);
        }
        // At the exact core point any direction is as good as another.
        let n = if len > 1e-12 {
            d * (1.0 / len)
        } else {
            V::any_unit()
        };
        (p - n * dist, true)
    }

    /// The shape moved by `t` of the way toward `o` (same kind; otherwise `o`).
    #[inline]
    pub fn lerp(&self, o: &Shape<V>, t: f64) -> Shape<V> {
        match (*self, *o) {
            (Shape::Sphere { center: c0, .. }, Shape::Sphere { center: c1, radius }) => {
                Shape::Sphere {
                    center: c0.lerp(c1, t),
                    radius,
                }
            }
            (
                Shape::Capsule { a: a0, b: b0, .. },
                Shape::Capsule {
                    a: a1,
                    b: b1,
                    radius,
                },
            ) => Shape::Capsule {
                a: a0.lerp(a1, t),
                b: b0.lerp(b1, t),
                radius,
            },
            _ => *o,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    #[test]
    fn sphere_push_out() {
        let s = Shape::Sphere {
            center: Vec2::new(0.0, 0.0),
            radius: 2.0,
        };
        assert!((s.distance(Vec2::new(3.0, 0.0), 0.5) - 0.5).abs() < 1e-12);
        let (p, moved) = s.push_out(Vec2::new(1.0, 0.0), 0.5);
        assert!(moved);
        assert!((p - Vec2::new(2.5, 0.0)).length() < 1e-12);
        assert!(s.distance(p, 0.5).abs() < 1e-12);
        let (p, moved) = s.push_out(Vec2::new(5.0, 0.0), 0.5);
        assert!(!moved && p == Vec2::new(5.0, 0.0));
        // At the centre: pushed out along the fallback direction.
        let (p, _) = s.push_out(Vec2::ZERO, 0.0);
        assert!((p.length() - 2.0).abs() < 1e-12);
    }

    #[test]
    fn capsule_push_out() {
        let c = Shape::Capsule {
            a: Vec2::new(0.0, 0.0),
            b: Vec2::new(10.0, 0.0),
            radius: 1.0,
        };
        // Beside the middle: straight up.
        let (p, _) = c.push_out(Vec2::new(4.0, 0.5), 0.0);
        assert!((p - Vec2::new(4.0, 1.0)).length() < 1e-12);
        // Beyond the ends: round caps.
        assert!((c.distance(Vec2::new(-2.0, 0.0), 0.0) - 1.0).abs() < 1e-12);
        assert!((c.distance(Vec2::new(13.0, 4.0), 0.0) - 4.0).abs() < 1e-12);
        let (p, _) = c.push_out(Vec2::new(10.5, 0.0), 0.25);
        assert!((p - Vec2::new(11.25, 0.0)).length() < 1e-12);
        // A degenerate capsule acts as a sphere.
        let d = Shape::Capsule {
            a: Vec2::new(1.0, 1.0),
            b: Vec2::new(1.0, 1.0),
            radius: 1.0,
        };
        assert!((d.distance(Vec2::new(3.0, 1.0), 0.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn lerp_moves_the_shape() {
        let a = Shape::Sphere {
            center: Vec2::new(0.0, 0.0),
            radius: 1.0,
        };
        let b = Shape::Sphere {
            center: Vec2::new(2.0, 0.0),
            radius: 1.0,
        };
        assert_eq!(
            a.lerp(&b, 0.5),
            Shape::Sphere {
                center: Vec2::new(1.0, 0.0),
                radius: 1.0
            }
        );
    }
}
