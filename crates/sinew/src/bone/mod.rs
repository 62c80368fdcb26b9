//! One bone's world transform from its applied local pose, and the inverse.
//!
//! Follows spine.md §6.1 (Spine 4.2 `Bone.updateWorldTransformWith` and
//! `Bone.updateAppliedTransform`) for all five inherit modes, shear, reflection and the
//! skeleton position/scale on the root. The arithmetic keeps the official runtime's order of
//! operations and its float-rounded pi ([`SPINE_DEG_RAD`]) so results match spine-ts to
//! about 1e-12. Verified by the unit tests in `skeleton/tests.rs` (closed forms, the
//! forward/inverse round trip, and oracle values from `dump.mjs`).
//!
//! Layer: stage kernel. Owns the math of one bone over the rig and the instance; imports data
//! only. The world stage (`skeleton`), the constraints and the physics call it
//! (docs/ARCHITECTURE.md, "Layers").

mod dragonbones;

use crate::ids::BoneId;
use crate::instance::Instance;
use crate::math::trig::{self, TrigMemo};
use crate::math::{SPINE_DEG_RAD, SPINE_PI, SPINE_RAD_DEG, WorldTransform};
use crate::rig::{LocalPose, Rig};
use crate::types::Inherit;

/// Computes one bone's world transform from its applied local pose `inst.applied[bone]`
/// (Spine `Bone.update`), using the parent's current world transform.
///
/// The common case, a child that inherits normally, reads the pose in place (no copy of
/// it and no rewrite of `applied`); the arithmetic is [`update_bone_world_with`]'s.
#[inline]
pub fn update_bone_world(rig: &Rig, inst: &mut Instance, bone: BoneId) {
    let i = bone.index();
    if let (Some(parent), Some(Inherit::Normal)) = (rig.bones[i].parent, inst.inherit.get(i)) {
        let (Some(pose), Some(&p), Some(memo)) = (
            inst.applied.get(i),
            inst.world.get(parent.index()),
            inst.trig.get_mut(i),
        ) else {
            return;
        };
        let w = normal_child_world(rig.exact_angles, &p, pose, memo);
        inst.world[i] = w;
        return;
    }
    let pose = inst.applied[i];
    update_bone_world_with(rig, inst, bone, pose);
}

/// Stores `pose` as the bone's applied local pose and computes its world transform from it
/// (Spine `Bone.updateWorldTransformWith`). Constraints use this to pose a bone.
pub fn update_bone_world_with(rig: &Rig, inst: &mut Instance, bone: BoneId, pose: LocalPose) {
    let i = bone.index();
    inst.applied[i] = pose;
    let (sx, sy) = (inst.scale_x, inst.scale_y);
    let LocalPose {
        x,
        y,
        rotation,
        scale_x,
        scale_y,
        shear_x,
        shear_y,
    } = pose;
    let Some(parent) = rig.bones[i].parent else {
        // Root: the skeleton scale applies to both the matrix and the position.
        // DragonBones holds a root's local rotation as its world rotation.
        inst.set_db_held(i, (rotation + shear_x).to_radians());
        let (la, lb, lc, ld) = local_matrix(rig.exact_angles, &mut inst.trig[i], &pose);
        inst.world[i] = WorldTransform {
            a: la * sx,
            b: lb * sx,
            c: lc * sy,
            d: ld * sy,
            x: x * sx + inst.x,
            y: y * sy + inst.y,
        };
        return;
    };
    // DragonBones decomposes a child's matrix unless it does not inherit scale (below).
    inst.set_db_held(i, f64::NAN);
    let p = inst.world[parent.index()];
    let (mut pa, mut pb, mut pc, mut pd) = (p.a, p.b, p.c, p.d);
    let world_x = pa * x + pb * y + p.x;
    let world_y = pc * x + pd * y + p.y;
    let (a, b, c, d) = match inst.inherit[i] {
        Inherit::Normal => {
            inst.world[i] = normal_child_world(rig.exact_angles, &p, &pose, &mut inst.trig[i]);
            return;
        }
        Inherit::OnlyTranslation => local_matrix(rig.exact_angles, &mut inst.trig[i], &pose),
        Inherit::DragonBones(f) => {
            let psx = inst.applied[parent.index()].scale_x;
            let (w, r) = dragonbones::dragonbones_child_world(
                &p,
                psx,
                inst.db_held(parent.index()),
                &pose,
                f,
                sx,
                sy,
                inst.x,
                inst.y,
            );
            inst.world[i] = w;
            inst.set_db_held(i, r);
            return;
        }
        Inherit::NoRotationOrReflection => {
            // Strip the skeleton scale, then rebuild the parent's second column so that only
            // its scale and skew remain (the parent's rotation `prx` is subtracted below).
            let (isx, isy) = (1.0 / sx, 1.0 / sy);
            pa *= isx;
            pc *= isy;
            let mut s = pa * pa + pc * pc;
            let prx;
            // A near-zero parent x axis: Spine 4.2 below 1e-4, 4.3 below 1e-10 (epsilon2).
            let eps = if rig.runtime == crate::types::SpineRuntime::V43 {
                1e-10
            } else {
                0.0001
            };
            if s > eps {
                s = (pa * pd * isy - pb * isx * pc).abs() / s;
                pb = pc * s;
                pd = pa * s;
                prx = trig::atan2(pc, pa) * SPINE_RAD_DEG;
            } else {
                pa = 0.0;
                pc = 0.0;
                prx = 90.0 - trig::atan2(pd, pb) * SPINE_RAD_DEG;
            }
            let rx = (rotation + shear_x - prx) * SPINE_DEG_RAD;
            let ry = (rotation + shear_y - prx + 90.0) * SPINE_DEG_RAD;
            let ((sin_x, cos_x), (sin_y, cos_y)) = (trig::sin_cos(rx), trig::sin_cos(ry));
            let la = cos_x * scale_x;
            let lb = cos_y * scale_y;
            let lc = sin_x * scale_x;
            let ld = sin_y * scale_y;
            (
                pa * la - pb * lc,
                pa * lb - pb * ld,
                pc * la + pd * lc,
                pc * lb + pd * ld,
            )
        }
        mode @ (Inherit::NoScale | Inherit::NoScaleOrReflection) => {
            // The local rotation only picks a direction in the parent's frame; the result
            // is a unit-scale frame along it (reflected for noScale when the parent is).
            let r = rotation * SPINE_DEG_RAD;
            let (sin, cos) = trig::sin_cos(r);
            let (za, zc, zb, zd) = no_scale_frame(pa, pb, pc, pd, cos, sin, sx, sy, mode);
            let shx = shear_x * SPINE_DEG_RAD;
            let shy = (90.0 + shear_y) * SPINE_DEG_RAD;
            let ((sin_x, cos_x), (sin_y, cos_y)) = (trig::sin_cos(shx), trig::sin_cos(shy));
            let la = cos_x * scale_x;
            let lb = cos_y * scale_y;
            let lc = sin_x * scale_x;
            let ld = sin_y * scale_y;
            (
                za * la + zb * lc,
                za * lb + zb * ld,
                zc * la + zd * lc,
                zc * lb + zd * ld,
            )
        }
    };
    inst.world[i] = WorldTransform {
        a: a * sx,
        b: b * sx,
        c: c * sy,
        d: d * sy,
        x: world_x,
        y: world_y,
    };
}

/// The world transform of a child bone that inherits normally: the parent's matrix times
/// the local one, the position through the parent (the skeleton scale is already in the
/// parent's matrix). The parameter stage's world pass calls it too.
#[inline(always)]
pub(crate) fn normal_child_world(
    exact: bool,
    p: &WorldTransform,
    pose: &LocalPose,
    memo: &mut TrigMemo,
) -> WorldTransform {
    let (pa, pb, pc, pd) = (p.a, p.b, p.c, p.d);
    let (la, lb, lc, ld) = local_matrix(exact, memo, pose);
    WorldTransform {
        a: pa * la + pb * lc,
        b: pa * lb + pb * ld,
        c: pc * la + pd * lc,
        d: pc * lb + pd * ld,
        x: pa * pose.x + pb * pose.y + p.x,
        y: pc * pose.x + pd * pose.y + p.y,
    }
}

/// The local 2x2 `[la lb; lc ld]` of a pose's rotation, scale and shear (degrees), with
/// the fast [`trig::sin_cos`] (within 2 ulp of std) behind the memo, and for an unsheared
/// Spine bone the y axis turned from the x axis (within 4 ulp of std).
#[inline]
fn local_matrix(exact: bool, memo: &mut TrigMemo, pose: &LocalPose) -> (f64, f64, f64, f64) {
    local_matrix_with(exact, memo, pose, trig::sin_cos, true)
}

/// The plain reference for `local_matrix`: no memo, std's `sin_cos` for both axes.
/// `sinew-formats/tests/all/fast_paths.rs` compares the two over every fixture.
pub fn local_matrix_reference(exact: bool, pose: &LocalPose) -> (f64, f64, f64, f64) {
    let mut memo = TrigMemo::EMPTY;
    local_matrix_with(exact, &mut memo, pose, f64::sin_cos, false)
}

/// Spine's y-axis turn, `90 * degRad` with its float-rounded pi (a little over pi/2), and
/// its sine and cosine (from a 60-digit evaluation of the exact binary value).
pub(crate) const RIGHT: f64 = 90.0 * SPINE_DEG_RAD;
pub(crate) const RIGHT_SIN: f64 = 0.999_999_999_999_999_8;
pub(crate) const RIGHT_COS: f64 = -2.320_510_333_314_241_7e-8;

/// `local_matrix` with the memo (public for the comparison test).
pub fn local_matrix_fast(
    exact: bool,
    memo: &mut TrigMemo,
    pose: &LocalPose,
) -> (f64, f64, f64, f64) {
    local_matrix(exact, memo, pose)
}

/// The body of [`local_matrix`] and its reference, over a `sin_cos`.
#[inline(always)]
fn local_matrix_with(
    exact: bool,
    memo: &mut TrigMemo,
    pose: &LocalPose,
    sin_cos: impl Fn(f64) -> (f64, f64),
    turn_y: bool,
) -> (f64, f64, f64, f64) {
    let (rotation, sx, sy) = (pose.rotation, pose.scale_x, pose.scale_y);
    let (shx, shy) = (pose.shear_x, pose.shear_y);
    // Spine: both axes from Spine's rounded pi. Exact: the y axis is the x axis's angle
    // (with the y shear) turned by exactly 90 degrees: cos(a + 90) = -sin a, sin(a + 90) = cos a.
    let (rx, ry) = if exact {
        ((rotation + shx).to_radians(), (rotation + shy).to_radians())
    } else {
        (
            (rotation + shx) * SPINE_DEG_RAD,
            (rotation + 90.0 + shy) * SPINE_DEG_RAD,
        )
    };
    // Bitwise comparison: a NaN angle never matches, so it is recomputed (and stays NaN).
    if rx.to_bits() != memo.angles[0].to_bits() || ry.to_bits() != memo.angles[1].to_bits() {
        let (sin_x, cos_x) = sin_cos(rx);
        let (sin_y, cos_y) = if exact {
            // Without shear both axes share the angle: no second sincos.
            let (s, c) = if ry.to_bits() == rx.to_bits() {
                (sin_x, cos_x)
            } else {
                sin_cos(ry)
            };
            (c, -s)
        } else if turn_y && shx.to_bits() == shy.to_bits() {
            // Unsheared: ry is rx turned by RIGHT plus the rounding of the two angle sums
            // (`e`, a few ulp), so sin/cos(ry) follow from rx's by the angle-sum formulas
            // (first order in e: e^2 is below 1e-29).
            let e = (ry - rx) - RIGHT;
            let (sd, cd) = (RIGHT_SIN + e * RIGHT_COS, RIGHT_COS - e * RIGHT_SIN);
            (sin_x * cd + cos_x * sd, cos_x * cd - sin_x * sd)
        } else {
            sin_cos(ry)
        };
        *memo = TrigMemo {
            angles: [rx, ry],
            cos: [cos_x, cos_y],
            sin: [sin_x, sin_y],
        };
    }
    (
        memo.cos[0] * sx,
        memo.cos[1] * sy,
        memo.sin[0] * sx,
        memo.sin[1] * sy,
    )
}

/// The unit frame noScale bones inherit: the parent's image of the direction
/// `(cos, sin)` without skeleton scale, normalised, and its perpendicular, negated for
/// `noScale` when the parent's reflection differs from the skeleton's. Returns
/// `(za, zc, zb, zd)`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn no_scale_frame(
    pa: f64,
    pb: f64,
    pc: f64,
    pd: f64,
    cos: f64,
    sin: f64,
    sx: f64,
    sy: f64,
    mode: Inherit,
) -> (f64, f64, f64, f64) {
    let mut za = (pa * cos + pb * sin) / sx;
    let mut zc = (pc * cos + pd * sin) / sy;
    let mut s = (za * za + zc * zc).sqrt();
    if s > 0.00001 {
        s = 1.0 / s;
    }
    za *= s;
    zc *= s;
    s = (za * za + zc * zc).sqrt();
    if mode == Inherit::NoScale && (pa * pd - pb * pc < 0.0) != ((sx < 0.0) != (sy < 0.0)) {
        s = -s;
    }
    // COMPAT(spine): this angle uses the exact pi, unlike the degree conversions.
    let r = std::f64::consts::FRAC_PI_2 + trig::atan2(zc, za);
    let (sin, cos) = trig::sin_cos(r);
    (za, zc, cos * s, sin * s)
}

/// The parent inverse of [`update_applied_transform`] in its `(ia, ib, ic, id)` form (the
/// inverse is `[ia -ib; -ic id]`) for a singular parent: the Moore-Penrose pseudo-inverse
/// ([`WorldTransform::inverse_linear`]), where Spine divides by a zero determinant.
pub(crate) fn singular_inverse(pa: f64, pb: f64, pc: f64, pd: f64) -> (f64, f64, f64, f64) {
    let m = WorldTransform::linear(pa, pb, pc, pd).inverse_linear();
    (m.a, -m.b, -m.c, m.d)
}

/// Recomputes a bone's applied local pose from its world transform (Spine
/// `Bone.updateAppliedTransform`), after a constraint changed the world transform.
///
/// The result reproduces the world transform but may differ from the local pose that
/// made it (e.g. shear x becomes 0). Under a singular parent (scaled to 0 on an axis, where
/// the official runtimes divide by zero and give NaN) the parent's pseudo-inverse is used
/// instead: the applied pose is finite, the least-squares local whose world transform is
/// nearest (all zeros under a parent scaled to 0 on both axes).
pub fn update_applied_transform(rig: &Rig, inst: &mut Instance, bone: BoneId) {
    let i = bone.index();
    let w = inst.world[i];
    let (sx, sy) = (inst.scale_x, inst.scale_y);
    let Some(parent) = rig.bones[i].parent else {
        // COMPAT(spine): the root ignores the skeleton scale here, keeps scale y positive
        // and takes shear y with the opposite sign of the general case.
        inst.applied[i] = LocalPose {
            x: w.x - inst.x,
            y: w.y - inst.y,
            rotation: trig::atan2(w.c, w.a) * SPINE_RAD_DEG,
            scale_x: (w.a * w.a + w.c * w.c).sqrt(),
            scale_y: (w.b * w.b + w.d * w.d).sqrt(),
            shear_x: 0.0,
            shear_y: trig::atan2(w.a * w.b + w.c * w.d, w.a * w.d - w.b * w.c) * SPINE_RAD_DEG,
        };
        return;
    };
    let p = inst.world[parent.index()];
    if let Some(f) = dragonbones::flags(inst.inherit[i]) {
        let psx = inst.applied[parent.index()].scale_x;
        let held = inst.db_held(parent.index());
        inst.applied[i] =
            dragonbones::dragonbones_applied(&p, psx, held, &w, f, sx, sy, inst.x, inst.y);
        return;
    }
    let (mut pa, mut pb, mut pc, mut pd) = (p.a, p.b, p.c, p.d);
    let mut pid = 1.0 / (pa * pd - pb * pc);
    let (mut ia, mut ib, mut ic, mut id) = (pd * pid, pb * pid, pc * pid, pa * pid);
    if !pid.is_finite() {
        // A singular parent (scale 0): the pseudo-inverse, finite (see `singular_inverse`).
        (ia, ib, ic, id) = singular_inverse(pa, pb, pc, pd);
    }
    let dx = w.x - p.x;
    let dy = w.y - p.y;
    let x = dx * ia - dy * ib;
    let y = dy * id - dx * ic;
    let mode = inst.inherit[i];
    let (ra, rb, rc, rd) = if mode == Inherit::OnlyTranslation {
        (w.a, w.b, w.c, w.d)
    } else {
        match mode {
            Inherit::NoRotationOrReflection => {
                // COMPAT(spine): only the first row of the inverse (ia, ib) is rebuilt
                // from the modified parent; ic and id keep the real parent's values.
                let mut s = (pa * pd - pb * pc).abs() / (pa * pa + pc * pc);
                if !s.is_finite() {
                    s = 0.0; // a parent whose x axis is 0
                }
                pb = -pc * sx * s / sy;
                pd = pa * sy * s / sx;
                pid = 1.0 / (pa * pd - pb * pc);
                ia = pd * pid;
                ib = pb * pid;
                if !pid.is_finite() {
                    (ia, ib, _, _) = singular_inverse(pa, pb, pc, pd);
                }
            }
            Inherit::NoScale | Inherit::NoScaleOrReflection => {
                // COMPAT(spine): the direction comes from the unconstrained local rotation
                // (`Bone.rotation`), not the applied one, and the reflection test reads the
                // sign of the real parent's determinant.
                let r = inst.pose[i].rotation * SPINE_DEG_RAD;
                let (sin, cos) = r.sin_cos();
                let mut za = (pa * cos + pb * sin) / sx;
                let mut zc = (pc * cos + pd * sin) / sy;
                let mut s = (za * za + zc * zc).sqrt();
                if s > 0.00001 {
                    s = 1.0 / s;
                }
                za *= s;
                zc *= s;
                s = (za * za + zc * zc).sqrt();
                if mode == Inherit::NoScale && (pid < 0.0) != ((sx < 0.0) != (sy < 0.0)) {
                    s = -s;
                }
                // COMPAT(spine): here the runtime uses its float-rounded pi.
                let r = SPINE_PI / 2.0 + trig::atan2(zc, za);
                pa = za;
                pc = zc;
                pb = r.cos() * s;
                pd = r.sin() * s;
                pid = 1.0 / (pa * pd - pb * pc);
                ia = pd * pid;
                ib = pb * pid;
                ic = pc * pid;
                id = pa * pid;
                if !pid.is_finite() {
                    (ia, ib, ic, id) = singular_inverse(pa, pb, pc, pd);
                }
            }
            Inherit::Normal | Inherit::OnlyTranslation | Inherit::DragonBones(_) => {}
        }
        (
            ia * w.a - ib * w.c,
            ia * w.b - ib * w.d,
            id * w.c - ic * w.a,
            id * w.d - ic * w.b,
        )
    };
    let mut scale_x = (ra * ra + rc * rc).sqrt();
    let (scale_y, shear_y, rotation);
    if scale_x > 0.0001 {
        let det = ra * rd - rb * rc;
        scale_y = det / scale_x;
        shear_y = -trig::atan2(ra * rb + rc * rd, det) * SPINE_RAD_DEG;
        rotation = trig::atan2(rc, ra) * SPINE_RAD_DEG;
    } else {
        scale_x = 0.0;
        scale_y = (rb * rb + rd * rd).sqrt();
        shear_y = 0.0;
        rotation = 90.0 - trig::atan2(rd, rb) * SPINE_RAD_DEG;
    }
    inst.applied[i] = LocalPose {
        x,
        y,
        rotation,
        scale_x,
        scale_y,
        shear_x: 0.0,
        shear_y,
    };
}

#[cfg(test)]
mod turn_tests {
    use super::*;

    #[test]
    fn right_turn_constants_are_std_values() {
        let (s, c) = RIGHT.sin_cos();
        assert!((s - RIGHT_SIN).abs() <= f64::EPSILON / 2.0, "{s:e}");
        assert!((c - RIGHT_COS).abs() <= 1e-23, "{c:e}");
    }

    #[test]
    fn turned_y_axis_is_within_four_ulp_of_std() {
        for k in -4000..4000 {
            let rotation = f64::from(k) * 0.0937 + 0.013;
            for shear in [0.0, -0.0, 1.5, -30.0] {
                let pose = LocalPose {
                    rotation,
                    scale_x: 1.0,
                    scale_y: -2.0,
                    shear_x: shear,
                    shear_y: shear,
                    ..LocalPose::IDENTITY
                };
                let mut memo = TrigMemo::EMPTY;
                let f = local_matrix_with(false, &mut memo, &pose, trig::sin_cos, true);
                let r = local_matrix_reference(false, &pose);
                // Errors relative to each axis's scale (1 for x, 2 for y).
                let errs = [
                    (f.0 - r.0).abs(),
                    (f.1 - r.1).abs() / 2.0,
                    (f.2 - r.2).abs(),
                    (f.3 - r.3).abs() / 2.0,
                ];
                for e in errs {
                    assert!(
                        e <= 4.0 * f64::EPSILON,
                        "rotation {rotation} shear {shear}: {f:?} vs {r:?}"
                    );
                }
            }
        }
    }
}
