//! Spine 4.3 transform constraints: a property mapping (any source property, local or
//! world, drives any bone property, local or world, with its own offset, scale and clamp),
//! posed for a constraint whose [`TransformData::properties`] is not empty (a 4.3 rig's;
//! 4.2 rigs keep `transform.rs`).
//!
//! Facts from spine-core 4.3.13 `TransformConstraint.update` and the `From*`/`To*` classes
//! of `TransformConstraintData.js` (see `shared/oracle/spine43/README.md`): for each bone, for
//! each source property in order, `value = from(source) - from.offset`; each driven property
//! whose mix is not 0 gets `to.offset + value * to.scale` (clamped with `clamp`). World
//! values are divided by the skeleton scale and angles use Spine's float-rounded pi. What
//! 4.3 changed for the mappings 4.2 had: a local absolute scale is mixed toward the source
//! scale (4.2 divided by the bone's scale), an additive world shear is not wrapped, a shearY
//! offset is not negated under a reflected source, and a negative shear mix is applied.
//! A world target edits the world matrix and recomputes the applied pose; a local target
//! edits the applied pose and recomputes the world matrix.
//!
//! Verified by the own 4.3 goldens (`testdata/spine43/`, official 4.3.13 poses) in sinew-cli's
//! `golden_spine43_own`.

use crate::bone::{update_applied_transform, update_bone_world_with};
use crate::instance::Instance;
use crate::math::{SPINE_DEG_RAD, SPINE_PI, SPINE_PI2, SPINE_RAD_DEG, WorldTransform, trig};
use crate::rig::{LocalPose, Rig, TransformData, TransformMix};
use crate::types::{TransformProperty as P, TransformTo};

/// Runs a 4.3 transform constraint with mixes `mix` on every bone it constrains.
pub(crate) fn apply_transform43(
    rig: &Rig,
    inst: &mut Instance,
    data: &TransformData,
    mix: &TransformMix,
) {
    let scale = (inst.scale_x, inst.scale_y);
    for &bone in &data.bones {
        if data.local_target {
            let mut pose = inst.applied[bone.index()];
            for from in &data.properties {
                let value = source_value(inst, data, from.property, scale) - from.offset;
                for to in &from.to {
                    let m = mix_of(mix, to.property);
                    if m != 0.0 {
                        let v = target_value(data, to, value);
                        apply_local(&mut pose, to.property, v, m, data.relative);
                    }
                }
            }
            update_bone_world_with(rig, inst, bone, pose);
        } else {
            for from in &data.properties {
                let value = source_value(inst, data, from.property, scale) - from.offset;
                for to in &from.to {
                    let m = mix_of(mix, to.property);
                    if m != 0.0 {
                        let v = target_value(data, to, value);
                        let w = &mut inst.world[bone.index()];
                        apply_world(w, to.property, v, m, data.relative, scale);
                    }
                }
            }
            update_applied_transform(rig, inst, bone);
        }
    }
}

/// The mix of the driven property.
fn mix_of(mix: &TransformMix, p: P) -> f64 {
    match p {
        P::Rotate => mix.rotate,
        P::X => mix.x,
        P::Y => mix.y,
        P::ScaleX => mix.scale_x,
        P::ScaleY => mix.scale_y,
        P::ShearY => mix.shear_y,
    }
}

/// `to.offset + value * to.scale`, clamped between `to.offset` and `to.max` with `clamp`.
fn target_value(data: &TransformData, to: &TransformTo, value: f64) -> f64 {
    let v = to.offset + value * to.scale;
    if !data.clamp {
        return v;
    }
    let (lo, hi) = if to.offset < to.max {
        (to.offset, to.max)
    } else {
        (to.max, to.offset)
    };
    // Spine's MathUtils.clamp: below first, then above (a NaN passes through).
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

/// Wraps radians once into [-pi, pi] with Spine's float-rounded pi (COMPAT(spine)).
#[inline]
fn wrap_once(r: f64) -> f64 {
    if r > SPINE_PI {
        r - SPINE_PI2
    } else if r < -SPINE_PI {
        r + SPINE_PI2
    } else {
        r
    }
}

/// A source property with the constraint's offset for it (`localSource`: the source's
/// applied pose; else its world matrix over the skeleton scale).
fn source_value(inst: &Instance, data: &TransformData, p: P, scale: (f64, f64)) -> f64 {
    let offsets = [
        data.offset_rotation,
        data.offset_x,
        data.offset_y,
        data.offset_scale_x,
        data.offset_scale_y,
        data.offset_shear_y,
    ];
    property_value(inst, data.target.index(), data.local, p, &offsets, scale)
}

/// A bone property as 4.3's `FromProperty.value` reads it: from the bone's applied local
/// pose (`local`) or its world matrix over the skeleton scale, plus `offsets` (rotation,
/// x, y, scaleX, scaleY, shearY). Shared by transform constraints and sliders.
pub(crate) fn property_value(
    inst: &Instance,
    bone: usize,
    local: bool,
    p: P,
    offsets: &[f64; 6],
    (sx, sy): (f64, f64),
) -> f64 {
    let [o_rot, o_x, o_y, o_sx, o_sy, o_shy] = *offsets;
    if local {
        let s = &inst.applied[bone];
        return match p {
            P::Rotate => s.rotation + o_rot,
            P::X => s.x + o_x,
            P::Y => s.y + o_y,
            P::ScaleX => s.scale_x + o_sx,
            P::ScaleY => s.scale_y + o_sy,
            P::ShearY => s.shear_y + o_shy,
        };
    }
    let s = &inst.world[bone];
    match p {
        P::Rotate => {
            let offset = if (s.a * s.d - s.b * s.c) * sx * sy > 0.0 {
                o_rot
            } else {
                -o_rot
            };
            let v = trig::atan2(s.c / sy, s.a / sx) * SPINE_RAD_DEG + offset;
            if v < 0.0 { v + 360.0 } else { v }
        }
        P::X => (o_x * s.a + o_y * s.b + s.x) / sx,
        P::Y => (o_x * s.c + o_y * s.d + s.y) / sy,
        P::ScaleX => {
            let (a, c) = (s.a / sx, s.c / sy);
            (a * a + c * c).sqrt() + o_sx
        }
        P::ScaleY => {
            let (b, d) = (s.b / sx, s.d / sy);
            (b * b + d * d).sqrt() + o_sy
        }
        P::ShearY => {
            let (ix, iy) = (1.0 / sx, 1.0 / sy);
            (trig::atan2(s.d * iy, s.b * ix) - trig::atan2(s.c * iy, s.a * ix)) * SPINE_RAD_DEG
                - 90.0
                + o_shy
        }
    }
}

/// Writes a driven property into a bone's local pose.
fn apply_local(pose: &mut LocalPose, p: P, value: f64, mix: f64, additive: bool) {
    let toward = |current: f64| if additive { value } else { value - current };
    match p {
        P::Rotate => pose.rotation += toward(pose.rotation) * mix,
        P::X => pose.x += toward(pose.x) * mix,
        P::Y => pose.y += toward(pose.y) * mix,
        P::ScaleX => scale_local(&mut pose.scale_x, value, mix, additive),
        P::ScaleY => scale_local(&mut pose.scale_y, value, mix, additive),
        P::ShearY => pose.shear_y += toward(pose.shear_y) * mix,
    }
}

/// A local scale: multiplied by the mixed value when additive, else mixed toward it (a zero
/// scale stays zero).
fn scale_local(scale: &mut f64, value: f64, mix: f64, additive: bool) {
    if additive {
        *scale *= 1.0 + (value - 1.0) * mix;
    } else if *scale != 0.0 {
        *scale += (value - *scale) * mix;
    }
}

/// Writes a driven property into a bone's world matrix (skeleton scale `(sx, sy)`).
fn apply_world(
    m: &mut WorldTransform,
    p: P,
    value: f64,
    mix: f64,
    additive: bool,
    (sx, sy): (f64, f64),
) {
    match p {
        P::Rotate => {
            let (ix, iy) = (1.0 / sx, 1.0 / sy);
            let (a, b, c, d) = (m.a * ix, m.b * ix, m.c * iy, m.d * iy);
            let mut r = value * SPINE_DEG_RAD;
            if !additive {
                r -= trig::atan2(c, a);
            }
            let r = wrap_once(r) * mix;
            let (sin, cos) = trig::sin_cos(r);
            m.a = (cos * a - sin * c) * sx;
            m.b = (cos * b - sin * d) * sx;
            m.c = (sin * a + cos * c) * sy;
            m.d = (sin * b + cos * d) * sy;
        }
        P::X => {
            let v = if additive { value } else { value - m.x / sx };
            m.x += v * mix * sx;
        }
        P::Y => {
            let v = if additive { value } else { value - m.y / sy };
            m.y += v * mix * sy;
        }
        P::ScaleX => {
            if let Some(s) = world_scale(m.a / sx, m.c / sy, value, mix, additive) {
                m.a *= s;
                m.c *= s;
            }
        }
        P::ScaleY => {
            if let Some(s) = world_scale(m.b / sx, m.d / sy, value, mix, additive) {
                m.b *= s;
                m.d *= s;
            }
        }
        P::ShearY => {
            let (b, d) = (m.b / sx, m.d / sy);
            let by = trig::atan2(d, b);
            let mut r = (value + 90.0) * SPINE_DEG_RAD;
            if additive {
                r -= SPINE_PI / 2.0;
            } else {
                r = wrap_once(r - (by - trig::atan2(m.c / sy, m.a / sx)));
            }
            let r = by + r * mix;
            let s = (b * b + d * d).sqrt();
            let (sin, cos) = trig::sin_cos(r);
            m.b = cos * s * sx;
            m.d = sin * s * sy;
        }
    }
}

/// The factor on one world axis `(x, y)` (already over the skeleton scale): additive
/// `1 + (value - 1) * mix`, else the one that mixes the axis length toward `value`; `None`
/// for a zero-length axis (left as is).
fn world_scale(x: f64, y: f64, value: f64, mix: f64, additive: bool) -> Option<f64> {
    if additive {
        return Some(1.0 + (value - 1.0) * mix);
    }
    let s = (x * x + y * y).sqrt();
    (s != 0.0).then(|| 1.0 + (value - s) * mix / s)
}
