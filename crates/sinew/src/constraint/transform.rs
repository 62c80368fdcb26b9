//! Transform constraints: bones follow a target bone's transform (Spine 4.2
//! `TransformConstraint`).
//!
//! Follows spine.md §6.3: the four variants (world or local, absolute or relative), the
//! offsets, the six mixes, the sign flip of angle offsets under a reflected target, and the
//! local-absolute division by the bone's scale (an official quirk kept as is). World
//! variants edit the world matrix and then recompute the applied pose; local variants edit
//! the applied pose and recompute the world matrix. Verified by oracle values for
//! `synthetic/constraints-lab.json` (one bone per variant) in `skeleton/tests.rs`.

use crate::bone::{update_applied_transform, update_bone_world_with};
use crate::ids::{BoneId, TransformId};
use crate::instance::Instance;
use crate::math::{SPINE_DEG_RAD, SPINE_PI, SPINE_PI2, Vec2, trig};
use crate::rig::{LocalPose, Rig, TransformData, TransformMix};

/// Runs transform constraint `id` with its current mixes `inst.transforms[id]` (Spine
/// `TransformConstraint.update`). Does nothing when every mix is 0.
pub(crate) fn apply_transform_constraint(rig: &Rig, inst: &mut Instance, id: TransformId) {
    let data = &rig.transforms[id.index()];
    let mix = inst.transforms[id.index()];
    if mix.rotate == 0.0
        && mix.x == 0.0
        && mix.y == 0.0
        && mix.scale_x == 0.0
        && mix.scale_y == 0.0
        && mix.shear_y == 0.0
    {
        return;
    }
    if !data.properties.is_empty() {
        // A Spine 4.3 constraint: its property mapping, 4.3's arithmetic.
        super::transform43::apply_transform43(rig, inst, data, &mix);
        return;
    }
    for &bone in &data.bones {
        match (data.local, data.relative) {
            (false, false) => absolute_world(rig, inst, data, &mix, bone),
            (false, true) => relative_world(rig, inst, data, &mix, bone),
            (true, false) => absolute_local(rig, inst, data, &mix, bone),
            (true, true) => relative_local(rig, inst, data, &mix, bone),
        }
    }
}

/// Wraps radians once into [-pi, pi] with Spine's float-rounded pi (COMPAT(spine)).
#[inline]
fn wrap_rad_once(r: f64) -> f64 {
    if r > SPINE_PI {
        r - SPINE_PI2
    } else if r < -SPINE_PI {
        r + SPINE_PI2
    } else {
        r
    }
}

/// Angle offsets in radians, negated when the target is reflected (det < 0).
#[inline]
fn reflected_offsets(data: &TransformData, ta: f64, tb: f64, tc: f64, td: f64) -> (f64, f64) {
    let k = if ta * td - tb * tc > 0.0 {
        SPINE_DEG_RAD
    } else {
        -SPINE_DEG_RAD
    };
    (data.offset_rotation * k, data.offset_shear_y * k)
}

fn absolute_world(
    rig: &Rig,
    inst: &mut Instance,
    data: &TransformData,
    mix: &TransformMix,
    bone: BoneId,
) {
    let t = inst.world[data.target.index()];
    let (ta, tb, tc, td) = (t.a, t.b, t.c, t.d);
    let (off_rot, off_shear_y) = reflected_offsets(data, ta, tb, tc, td);
    let m = &mut inst.world[bone.index()];
    if mix.rotate != 0.0 {
        let (a, b, c, d) = (m.a, m.b, m.c, m.d);
        let r = wrap_rad_once(trig::atan2(tc, ta) - trig::atan2(c, a) + off_rot) * mix.rotate;
        let (sin, cos) = trig::sin_cos(r);
        m.a = cos * a - sin * c;
        m.b = cos * b - sin * d;
        m.c = sin * a + cos * c;
        m.d = sin * b + cos * d;
    }
    if mix.x != 0.0 || mix.y != 0.0 {
        let w = t.apply(Vec2::new(data.offset_x, data.offset_y));
        m.x += (w.x - m.x) * mix.x;
        m.y += (w.y - m.y) * mix.y;
    }
    if mix.scale_x != 0.0 {
        let mut s = (m.a * m.a + m.c * m.c).sqrt();
        if s != 0.0 {
            s = (s + ((ta * ta + tc * tc).sqrt() - s + data.offset_scale_x) * mix.scale_x) / s;
        }
        m.a *= s;
        m.c *= s;
    }
    if mix.scale_y != 0.0 {
        let mut s = (m.b * m.b + m.d * m.d).sqrt();
        if s != 0.0 {
            s = (s + ((tb * tb + td * td).sqrt() - s + data.offset_scale_y) * mix.scale_y) / s;
        }
        m.b *= s;
        m.d *= s;
    }
    if mix.shear_y > 0.0 {
        let (b, d) = (m.b, m.d);
        let by = trig::atan2(d, b);
        let r =
            wrap_rad_once(trig::atan2(td, tb) - trig::atan2(tc, ta) - (by - trig::atan2(m.c, m.a)));
        let r = by + (r + off_shear_y) * mix.shear_y;
        let s = (b * b + d * d).sqrt();
        let (sin, cos) = trig::sin_cos(r);
        m.b = cos * s;
        m.d = sin * s;
    }
    update_applied_transform(rig, inst, bone);
}

fn relative_world(
    rig: &Rig,
    inst: &mut Instance,
    data: &TransformData,
    mix: &TransformMix,
    bone: BoneId,
) {
    let t = inst.world[data.target.index()];
    let (ta, tb, tc, td) = (t.a, t.b, t.c, t.d);
    let (off_rot, off_shear_y) = reflected_offsets(data, ta, tb, tc, td);
    let m = &mut inst.world[bone.index()];
    if mix.rotate != 0.0 {
        let (a, b, c, d) = (m.a, m.b, m.c, m.d);
        let r = wrap_rad_once(trig::atan2(tc, ta) + off_rot) * mix.rotate;
        let (sin, cos) = trig::sin_cos(r);
        m.a = cos * a - sin * c;
        m.b = cos * b - sin * d;
        m.c = sin * a + cos * c;
        m.d = sin * b + cos * d;
    }
    if mix.x != 0.0 || mix.y != 0.0 {
        let w = t.apply(Vec2::new(data.offset_x, data.offset_y));
        m.x += w.x * mix.x;
        m.y += w.y * mix.y;
    }
    if mix.scale_x != 0.0 {
        let s = ((ta * ta + tc * tc).sqrt() - 1.0 + data.offset_scale_x) * mix.scale_x + 1.0;
        m.a *= s;
        m.c *= s;
    }
    if mix.scale_y != 0.0 {
        let s = ((tb * tb + td * td).sqrt() - 1.0 + data.offset_scale_y) * mix.scale_y + 1.0;
        m.b *= s;
        m.d *= s;
    }
    if mix.shear_y > 0.0 {
        let r = wrap_rad_once(trig::atan2(td, tb) - trig::atan2(tc, ta));
        let (b, d) = (m.b, m.d);
        // COMPAT(spine): the right angle uses the float-rounded pi.
        let r = trig::atan2(d, b) + (r - SPINE_PI / 2.0 + off_shear_y) * mix.shear_y;
        let s = (b * b + d * d).sqrt();
        let (sin, cos) = trig::sin_cos(r);
        m.b = cos * s;
        m.d = sin * s;
    }
    update_applied_transform(rig, inst, bone);
}

fn absolute_local(
    rig: &Rig,
    inst: &mut Instance,
    data: &TransformData,
    mix: &TransformMix,
    bone: BoneId,
) {
    let t = inst.applied[data.target.index()];
    let ap = inst.applied[bone.index()];
    let mut rotation = ap.rotation;
    if mix.rotate != 0.0 {
        rotation += (t.rotation - rotation + data.offset_rotation) * mix.rotate;
    }
    let x = ap.x + (t.x - ap.x + data.offset_x) * mix.x;
    let y = ap.y + (t.y - ap.y + data.offset_y) * mix.y;
    let (mut scale_x, mut scale_y) = (ap.scale_x, ap.scale_y);
    // COMPAT(spine): every official 4.2 runtime divides the mixed scale by the bone's
    // scale here (so the result is a ratio, not a scale); copied as is.
    if mix.scale_x != 0.0 && scale_x != 0.0 {
        scale_x = (scale_x + (t.scale_x - scale_x + data.offset_scale_x) * mix.scale_x) / scale_x;
    }
    if mix.scale_y != 0.0 && scale_y != 0.0 {
        scale_y = (scale_y + (t.scale_y - scale_y + data.offset_scale_y) * mix.scale_y) / scale_y;
    }
    let mut shear_y = ap.shear_y;
    if mix.shear_y != 0.0 {
        shear_y += (t.shear_y - shear_y + data.offset_shear_y) * mix.shear_y;
    }
    let pose = LocalPose {
        x,
        y,
        rotation,
        scale_x,
        scale_y,
        shear_x: ap.shear_x,
        shear_y,
    };
    update_bone_world_with(rig, inst, bone, pose);
}

fn relative_local(
    rig: &Rig,
    inst: &mut Instance,
    data: &TransformData,
    mix: &TransformMix,
    bone: BoneId,
) {
    let t = inst.applied[data.target.index()];
    let ap = inst.applied[bone.index()];
    let pose = LocalPose {
        x: ap.x + (t.x + data.offset_x) * mix.x,
        y: ap.y + (t.y + data.offset_y) * mix.y,
        rotation: ap.rotation + (t.rotation + data.offset_rotation) * mix.rotate,
        scale_x: ap.scale_x * ((t.scale_x - 1.0 + data.offset_scale_x) * mix.scale_x + 1.0),
        scale_y: ap.scale_y * ((t.scale_y - 1.0 + data.offset_scale_y) * mix.scale_y + 1.0),
        shear_x: ap.shear_x,
        shear_y: ap.shear_y + (t.shear_y + data.offset_shear_y) * mix.shear_y,
    };
    update_bone_world_with(rig, inst, bone, pose);
}
