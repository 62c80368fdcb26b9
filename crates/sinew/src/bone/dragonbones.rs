//! World transforms of bones with DragonBones inherit flags ([`Inherit::DragonBones`]).
//!
//! Follows the DragonBones 5.x runtime's `Bone._updateGlobalTransformMatrix` (read in
//! `@cocos/dragonbones-js` 1.0.2; written here from its behaviour, nothing copied), with the
//! armature not flipped and data in y-down space (the oracle's `DragonBones.yDown = true`):
//!
//! - `inheritScale`: the local matrix, whose rotation drops the parent's world rotation when
//!   `inheritRotation` is false, is multiplied by the parent's world matrix;
//! - not `inheritScale`: the parent's matrix is not used for the axes at all; the world
//!   rotation is the local one plus the parent's world rotation (plus half a turn when the
//!   parent's decomposed x scale is negative; mirrored when the parent's matrix reflects,
//!   and then `inheritReflection` adds half a turn of skew), the local skew and scale stay;
//! - `inheritTranslation` false: the local position is the world position.
//!
//! The parent's world rotation is DragonBones' `Transform.fromMatrix` decomposition:
//! `atan(c / a)`, the x scale from the better-conditioned of `a / cos` and `c / sin`, and half
//! a turn more when that scale comes out negative while the parent's local x scale is not.
//!
//! A DragonBones rotation `r` and skew `k` are the x axis angle and the y axis angle less
//! 90 degrees less `r`; in sinew's local pose that is `rotation + shear_x` and
//! `shear_y - shear_x`. The skeleton scale applies as for Spine's non-normal modes (rows of
//! the unscaled result), which is exact for the unflipped armatures DragonBones loads.
//!
//! Verified by `skeleton/tests.rs` (closed forms and the forward/inverse round trip) and by
//! the DragonBones golden differential in `sinew-formats/tests/all/dragonbones_golden.rs`.

use crate::math::WorldTransform;
use crate::rig::LocalPose;
use crate::types::{DragonBonesInherit, Inherit};
use std::f64::consts::{FRAC_PI_4, PI};

/// The parent's world rotation (radians) and the sign-corrected x scale, decomposed from its
/// world matrix without the skeleton scale as DragonBones' `Transform.fromMatrix` does.
/// `local_sx` is the parent's local x scale (DragonBones' backup scale).
fn parent_rotation(p: &WorldTransform, local_sx: f64, sx: f64, sy: f64) -> (f64, f64) {
    let (a, c) = (over(p.a, sx), over(p.c, sy));
    if a == 0.0 && c == 0.0 {
        // A collapsed parent x axis (or skeleton scale): no direction to take.
        return (0.0, 0.0);
    }
    let mut rotation = (c / a).atan();
    let mut scale = if rotation > -FRAC_PI_4 && rotation < FRAC_PI_4 {
        a / rotation.cos()
    } else {
        c / rotation.sin()
    };
    if local_sx >= 0.0 && scale < 0.0 {
        scale = -scale;
        rotation -= PI;
    }
    (rotation, scale)
}

/// The 2x2 `[a b; c d]` (columns = axes) of a DragonBones rotation, skew and scale.
fn db_matrix(rotation: f64, skew: f64, scale_x: f64, scale_y: f64) -> (f64, f64, f64, f64) {
    let (sin_r, cos_r) = rotation.sin_cos();
    let (sin_y, cos_y) = (rotation + skew).sin_cos();
    (
        cos_r * scale_x,
        -sin_y * scale_y,
        sin_r * scale_x,
        cos_y * scale_y,
    )
}

/// A DragonBones-inherit bone's world transform and the world rotation the runtime keeps
/// for it (see [`held_rotation`]). `p` is the parent's world transform, `parent_local_sx`
/// the parent's applied local x scale, `parent_held` the parent's held rotation (NaN: the
/// runtime decomposes the parent's matrix), `(sx, sy)` the skeleton scale and `(ox, oy)` the
/// skeleton position.
#[allow(clippy::too_many_arguments)]
pub(crate) fn dragonbones_child_world(
    p: &WorldTransform,
    parent_local_sx: f64,
    parent_held: f64,
    pose: &LocalPose,
    f: DragonBonesInherit,
    sx: f64,
    sy: f64,
    ox: f64,
    oy: f64,
) -> (WorldTransform, f64) {
    let (x, y) = if f.translation {
        (
            p.a * pose.x + p.b * pose.y + p.x,
            p.c * pose.x + p.d * pose.y + p.y,
        )
    } else {
        (pose.x * sx + ox, pose.y * sy + oy)
    };
    let local_rotation = (pose.rotation + pose.shear_x).to_radians();
    let mut skew = (pose.shear_y - pose.shear_x).to_radians();
    let (scale_x, scale_y) = (pose.scale_x, pose.scale_y);
    if f.scale {
        let rotation = if f.rotation {
            local_rotation
        } else {
            // COMPAT(dragonbones): the parent's rotation as the runtime holds it, which for a
            // parent it set directly can differ from the decomposition by half a turn (with
            // the x scale's sign): the result is then turned over.
            local_rotation - held_rotation(p, parent_local_sx, parent_held, sx, sy)
        };
        let (la, lb, lc, ld) = db_matrix(rotation, skew, scale_x, scale_y);
        let w = WorldTransform {
            a: p.a * la + p.b * lc,
            b: p.a * lb + p.b * ld,
            c: p.c * la + p.d * lc,
            d: p.c * lb + p.d * ld,
            x,
            y,
        };
        return (w, f64::NAN);
    }
    let mut rotation = local_rotation;
    if f.rotation {
        let (pr, ps) = parent_rotation(p, parent_local_sx, sx, sy);
        rotation = local_rotation + pr;
        if ps < 0.0 {
            rotation += PI;
        }
        if (p.a / sx) * (p.d / sy) - (p.b / sx) * (p.c / sy) < 0.0 {
            rotation -= local_rotation * 2.0;
            if f.reflection {
                skew += PI;
            }
        }
    }
    let (a, b, c, d) = db_matrix(rotation, skew, scale_x, scale_y);
    let w = WorldTransform {
        a: a * sx,
        b: b * sx,
        c: c * sy,
        d: d * sy,
        x,
        y,
    };
    (w, rotation)
}

/// The world rotation (radians) the DragonBones runtime holds for a bone with world
/// transform `w` and applied local x scale `local_sx`: `held` where it set the rotation
/// directly (a root bone, a bone that does not inherit scale, a bone IK posed), else the
/// decomposition of the matrix (`Transform.fromMatrix`, the local x scale as its sign hint).
/// The two describe the same matrix, but may differ by half a turn with the x scale's sign,
/// which matters where a child subtracts the rotation (inheritRotation off).
pub(crate) fn held_rotation(w: &WorldTransform, local_sx: f64, held: f64, sx: f64, sy: f64) -> f64 {
    if held.is_nan() {
        parent_rotation(w, local_sx, sx, sy).0
    } else {
        held
    }
}

/// `v / s`, or 0 when `s` is 0 (a collapsed axis) or the quotient is not finite.
fn over(v: f64, s: f64) -> f64 {
    let q = v / s;
    if s != 0.0 && q.is_finite() { q } else { 0.0 }
}

/// The local pose that gives world transform `w` under DragonBones inherit flags (the
/// inverse of [`dragonbones_child_world`], used after a constraint moved the bone). Shear x
/// comes back 0.
#[allow(clippy::too_many_arguments)]
pub(crate) fn dragonbones_applied(
    p: &WorldTransform,
    parent_local_sx: f64,
    parent_held: f64,
    w: &WorldTransform,
    f: DragonBonesInherit,
    sx: f64,
    sy: f64,
    ox: f64,
    oy: f64,
) -> LocalPose {
    // A singular parent (scaled to 0 on an axis) maps back through its pseudo-inverse, and
    // a zero skeleton scale gives 0 on that axis: finite, the least-squares local (as
    // `update_applied_transform` does for Spine's inherit modes).
    let det = p.a * p.d - p.b * p.c;
    let (ia, ib, ic, id) = if det != 0.0 && (1.0 / det).is_finite() {
        (p.d / det, p.b / det, p.c / det, p.a / det)
    } else {
        super::singular_inverse(p.a, p.b, p.c, p.d)
    };
    let (x, y) = if f.translation {
        let (dx, dy) = (w.x - p.x, w.y - p.y);
        if det != 0.0 && (1.0 / det).is_finite() {
            ((dx * p.d - dy * p.b) / det, (dy * p.a - dx * p.c) / det)
        } else {
            (ia * dx - ib * dy, id * dy - ic * dx)
        }
    } else {
        (over(w.x - ox, sx), over(w.y - oy, sy))
    };
    // The linear part the local values were turned into.
    let (ra, rb, rc, rd) = if f.scale {
        (
            ia * w.a - ib * w.c,
            ia * w.b - ib * w.d,
            id * w.c - ic * w.a,
            id * w.d - ic * w.b,
        )
    } else {
        (over(w.a, sx), over(w.b, sx), over(w.c, sy), over(w.d, sy))
    };
    // Both axes keep their length; the y axis's angle past the x axis's plus 90 degrees is
    // the skew (a reflection goes into a negative y scale).
    let scale_x = (ra * ra + rc * rc).sqrt();
    let det = ra * rd - rb * rc;
    let flip = if det < 0.0 { -1.0 } else { 1.0 };
    let scale_y = (rb * rb + rd * rd).sqrt() * flip;
    let mut rotation = if scale_x > 0.0001 {
        rc.atan2(ra).to_degrees()
    } else {
        (flip * rd).atan2(flip * rb).to_degrees() - 90.0
    };
    let y_angle = (flip * rd).atan2(flip * rb).to_degrees();
    let mut skew = y_angle - rotation - 90.0;
    skew -= (skew / 360.0).round() * 360.0;
    if f.scale {
        if !f.rotation {
            rotation += held_rotation(p, parent_local_sx, parent_held, sx, sy).to_degrees();
        }
    } else if f.rotation {
        let (pr, ps) = parent_rotation(p, parent_local_sx, sx, sy);
        let mut pr = pr.to_degrees();
        if ps < 0.0 {
            pr += 180.0;
        }
        let reflected = over(p.a, sx) * over(p.d, sy) - over(p.b, sx) * over(p.c, sy) < 0.0;
        if reflected {
            rotation = pr - rotation;
            if f.reflection {
                skew -= 180.0;
            }
        } else {
            rotation -= pr;
        }
    }
    LocalPose {
        x,
        y,
        rotation,
        scale_x,
        scale_y,
        shear_x: 0.0,
        shear_y: skew,
    }
}

/// The flags of a DragonBones-inherit bone, `None` for Spine's modes.
#[inline]
pub(crate) fn flags(mode: Inherit) -> Option<DragonBonesInherit> {
    match mode {
        Inherit::DragonBones(f) => Some(f),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skeleton::testrig::pose;

    const ALL: DragonBonesInherit = DragonBonesInherit {
        translation: true,
        rotation: true,
        scale: true,
        reflection: true,
    };

    fn parent() -> WorldTransform {
        // Rotated 30 degrees, scaled (2, 0.5), skewed: what DragonBones' scale timelines make.
        let (s, c) = 30f64.to_radians().sin_cos();
        let (sy, cy) = 130f64.to_radians().sin_cos();
        WorldTransform {
            a: c * 2.0,
            b: cy * 0.5,
            c: s * 2.0,
            d: sy * 0.5,
            x: 10.0,
            y: -4.0,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn all_flags_is_the_matrix_product() {
        let p = parent();
        let l = pose([3.0, 4.0, 20.0, 1.5, 0.8, 0.0, 10.0]);
        let w = dragonbones_child_world(&p, 2.0, f64::NAN, &l, ALL, 1.0, 1.0, 0.0, 0.0).0;
        let (la, lb, lc, ld) = db_matrix(20f64.to_radians(), 10f64.to_radians(), 1.5, 0.8);
        assert!(close(w.a, p.a * la + p.b * lc) && close(w.d, p.c * lb + p.d * ld));
        assert!(close(w.x, p.a * 3.0 + p.b * 4.0 + 10.0));
        assert!(close(w.y, p.c * 3.0 + p.d * 4.0 - 4.0));
    }

    #[test]
    fn no_scale_keeps_local_scale_and_adds_the_parent_rotation() {
        let p = parent();
        let f = DragonBonesInherit {
            scale: false,
            ..ALL
        };
        let l = pose([3.0, 4.0, 20.0, 1.5, 0.8, 0.0, 10.0]);
        let w = dragonbones_child_world(&p, 2.0, f64::NAN, &l, f, 1.0, 1.0, 0.0, 0.0).0;
        // The parent's rotation is its x axis angle (30); its scale and skew are dropped.
        let (a, b, c, d) = db_matrix(50f64.to_radians(), 10f64.to_radians(), 1.5, 0.8);
        assert!(close(w.a, a) && close(w.b, b) && close(w.c, c) && close(w.d, d));
        assert!(close(w.x, p.a * 3.0 + p.b * 4.0 + 10.0));
        // Without rotation either: the local axes are the world axes.
        let f = DragonBonesInherit {
            rotation: false,
            ..f
        };
        let w = dragonbones_child_world(&p, 2.0, f64::NAN, &l, f, 1.0, 1.0, 0.0, 0.0).0;
        let (a, _, c, _) = db_matrix(20f64.to_radians(), 10f64.to_radians(), 1.5, 0.8);
        assert!(close(w.a, a) && close(w.c, c));
    }

    #[test]
    fn no_rotation_subtracts_the_decomposed_parent_rotation() {
        let p = parent();
        let f = DragonBonesInherit {
            rotation: false,
            ..ALL
        };
        let l = pose([0.0, 0.0, 20.0, 1.0, 1.0, 0.0, 0.0]);
        let w = dragonbones_child_world(&p, 2.0, f64::NAN, &l, f, 1.0, 1.0, 0.0, 0.0).0;
        let (la, lb, lc, ld) = db_matrix(-10f64.to_radians(), 0.0, 1.0, 1.0);
        assert!(close(w.a, p.a * la + p.b * lc) && close(w.b, p.a * lb + p.b * ld));
    }

    #[test]
    fn no_rotation_subtracts_the_rotation_the_runtime_holds() {
        // A parent held at rotation 2.5 rad with x scale -1 (a DragonBones bone that does not
        // inherit scale): its matrix decomposes to about 2.5 - pi with x scale +1. The child
        // (inherits scale, not rotation) is the parent's matrix times its local turned by
        // -2.5, not by -(2.5 - pi), which would turn the result over.
        let r: f64 = 2.5;
        let (a, b, c, d) = db_matrix(r, 0.0, -1.0, 1.0);
        let p = WorldTransform {
            a,
            b,
            c,
            d,
            x: 0.0,
            y: 0.0,
        };
        let f = no_rotation();
        let l = pose([0.0, 0.0, 40.0, 1.0, 1.0, 0.0, 0.0]);
        let (held, _) = dragonbones_child_world(&p, -1.0, r, &l, f, 1.0, 1.0, 0.0, 0.0);
        let (la, lb, lc, ld) = db_matrix(40f64.to_radians() - r, 0.0, 1.0, 1.0);
        assert!(close(held.a, p.a * la + p.b * lc) && close(held.d, p.c * lb + p.d * ld));
        let (decomposed, _) =
            dragonbones_child_world(&p, -1.0, f64::NAN, &l, f, 1.0, 1.0, 0.0, 0.0);
        assert!(close(decomposed.a, -held.a) && close(decomposed.d, -held.d));
        // The inverse takes the same held rotation back.
        let back = dragonbones_applied(&p, -1.0, r, &held, f, 1.0, 1.0, 0.0, 0.0);
        let (again, _) = dragonbones_child_world(&p, -1.0, r, &back, f, 1.0, 1.0, 0.0, 0.0);
        assert!(close(again.a, held.a) && close(again.b, held.b) && close(again.c, held.c));
    }

    /// Inherits scale and translation, not rotation.
    fn no_rotation() -> DragonBonesInherit {
        DragonBonesInherit {
            rotation: false,
            ..ALL
        }
    }

    #[test]
    fn no_translation_uses_the_local_position() {
        let f = DragonBonesInherit {
            translation: false,
            ..ALL
        };
        let l = pose([3.0, 4.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
        let w = dragonbones_child_world(&parent(), 2.0, f64::NAN, &l, f, 1.0, 1.0, 0.0, 0.0).0;
        assert_eq!((w.x, w.y), (3.0, 4.0));
    }

    #[test]
    fn reflected_parent_mirrors_the_rotation_and_flips_the_skew() {
        let mut p = parent();
        p.b = -p.b;
        p.d = -p.d;
        let f = DragonBonesInherit {
            scale: false,
            ..ALL
        };
        let l = pose([0.0, 0.0, 20.0, 1.0, 1.0, 0.0, 0.0]);
        let w = dragonbones_child_world(&p, 2.0, f64::NAN, &l, f, 1.0, 1.0, 0.0, 0.0).0;
        let (a, b, c, d) = db_matrix(10f64.to_radians(), PI, 1.0, 1.0);
        assert!(close(w.a, a) && close(w.b, b) && close(w.c, c) && close(w.d, d));
    }

    #[test]
    fn applied_inverts_world_for_every_flag_combination() {
        let l = pose([3.0, -4.0, 25.0, 1.3, 0.7, 0.0, 12.0]);
        for bits in 0..16u8 {
            let f = DragonBonesInherit {
                translation: bits & 1 != 0,
                rotation: bits & 2 != 0,
                scale: bits & 4 != 0,
                reflection: bits & 8 != 0,
            };
            for reflect in [false, true] {
                let mut p = parent();
                if reflect {
                    p.b = -p.b;
                    p.d = -p.d;
                }
                let w = dragonbones_child_world(&p, 2.0, f64::NAN, &l, f, 1.0, 1.0, 0.0, 0.0).0;
                let back = dragonbones_applied(&p, 2.0, f64::NAN, &w, f, 1.0, 1.0, 0.0, 0.0);
                let w2 = dragonbones_child_world(&p, 2.0, f64::NAN, &back, f, 1.0, 1.0, 0.0, 0.0).0;
                for (u, v) in [
                    (w.a, w2.a),
                    (w.b, w2.b),
                    (w.c, w2.c),
                    (w.d, w2.d),
                    (w.x, w2.x),
                    (w.y, w2.y),
                ] {
                    assert!(close(u, v), "{f:?} reflect {reflect}: {w:?} vs {w2:?}");
                }
            }
        }
    }

    #[test]
    fn applied_is_finite_under_singular_parents_and_zero_scales() {
        let w = dragonbones_child_world(
            &parent(),
            2.0,
            f64::NAN,
            &pose([3.0, -4.0, 25.0, 1.3, 0.7, 0.0, 12.0]),
            ALL,
            1.0,
            1.0,
            0.0,
            0.0,
        )
        .0;
        let mut singular = [parent(), parent(), WorldTransform::IDENTITY];
        // x axis collapsed; y axis collapsed; everything collapsed.
        (singular[0].a, singular[0].c) = (0.0, 0.0);
        (singular[1].b, singular[1].d) = (0.0, 0.0);
        singular[2] = WorldTransform {
            a: 0.0,
            b: 0.0,
            c: 0.0,
            d: 0.0,
            ..parent()
        };
        for bits in 0..16u8 {
            let f = DragonBonesInherit {
                translation: bits & 1 != 0,
                rotation: bits & 2 != 0,
                scale: bits & 4 != 0,
                reflection: bits & 8 != 0,
            };
            for p in &singular {
                for (sx, sy) in [(1.0, 1.0), (0.0, 1.0), (1.0, 0.0), (0.0, 0.0)] {
                    let l = dragonbones_applied(p, 0.0, f64::NAN, &w, f, sx, sy, 0.0, 0.0);
                    let v = [
                        l.x, l.y, l.rotation, l.scale_x, l.scale_y, l.shear_x, l.shear_y,
                    ];
                    assert!(
                        v.iter().all(|x| x.is_finite()),
                        "{f:?} {p:?} {sx},{sy}: {l:?}"
                    );
                }
            }
        }
        // A regular parent still inverts exactly (the fallback is only for singular ones).
        let back = dragonbones_applied(&parent(), 2.0, f64::NAN, &w, ALL, 1.0, 1.0, 0.0, 0.0);
        let w2 =
            dragonbones_child_world(&parent(), 2.0, f64::NAN, &back, ALL, 1.0, 1.0, 0.0, 0.0).0;
        assert!(close(w.x, w2.x) && close(w.a, w2.a), "{w:?} vs {w2:?}");
    }
}
