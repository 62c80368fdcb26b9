//! Spine physics constraints: a damped spring per driven property, integrated at a
//! fixed step and applied to one bone's world transform.
//!
//! Spine 4.3 (a constraint whose [`PhysicsData::interpolate`] is set) displays the pose
//! between the last two steps: each update records what its steps added to each offset
//! (the lags, [`PhysicsState::lag`]) and shows `offset - lag * z`, `z` the part of a step
//! still to run, and it feeds that lagged rotation back into the next update (facts from
//! spine-core 4.3.13 `PhysicsConstraint.update`, `shared/oracle/spine43/README.md`). A 4.2
//! constraint's lags stay 0, so its arithmetic is 4.2's bit for bit. 4.3's `scaleY` mode
//! scales the y axis with the scale spring ([`ScaleYMode`]).
//!
//! Follows spine.md §6.5 and matches spine-ts 4.2 `PhysicsConstraint.update` operation for
//! operation (f64 math, Spine's float-rounded pi). The translation spring moves the bone's
//! world origin; the rotation spring turns its axes (shearX turns only the x axis); the
//! scale spring stretches its x axis. Time comes from the skeleton clock
//! ([`Instance::time`]); the steps not yet taken are carried in
//! [`PhysicsState::remaining`], so results depend only on the sequence of clock values.
//!
//! Bounded work (sinew's own caps; the official runtime has none): a constraint steps at
//! most [`MAX_FPS`] times a second (a rig whose `fps` is higher steps at `MAX_FPS`: the rig
//! builder clamps the step to `1 / MAX_FPS`; Spine's editor stores `fps` in a byte, so no
//! export reaches it), and one update takes at most [`MAX_STEPS_PER_UPDATE`] steps: time
//! beyond that is dropped (a long hitch is slow motion, never a freeze).
//!
//! Verified by the unit tests in `constraint/physics_tests.rs`: closed forms (a bone without
//! input stays put, a lone step of the x spring, geometric damping of the velocity, the
//! limit clamp) and per-step oracle values from `dump.mjs` on small hand-written rigs.

pub use crate::instance::PhysicsState;

use crate::ids::PhysicsId;
use crate::instance::Instance;
use crate::math::SPINE_PI2;
use crate::rig::{PhysicsData, Rig};
use crate::types::{Physics, ScaleYMode};

/// The highest step rate of a physics constraint, steps per second.
pub const MAX_FPS: f64 = 1000.0;

/// The most fixed steps one update of a physics constraint takes.
pub const MAX_STEPS_PER_UPDATE: f64 = 1000.0;

/// Spine `Skeleton.physicsTranslate`: [`PhysicsState::translate`] on every constraint.
pub(crate) fn physics_translate(inst: &mut Instance, x: f64, y: f64) {
    for s in &mut inst.physics {
        s.translate(x, y);
    }
}

/// Spine `Skeleton.physicsRotate`: [`PhysicsState::rotate`] on every constraint.
pub(crate) fn physics_rotate(inst: &mut Instance, x: f64, y: f64, degrees: f64) {
    for s in &mut inst.physics {
        s.rotate(x, y, degrees);
    }
}

/// Clamps `v` to `[-q, q]` the way Spine writes it (a NaN `v` passes through).
#[inline]
fn clamp_sym(v: f64, q: f64) -> f64 {
    if v > q {
        q
    } else if v < -q {
        -q
    } else {
        v
    }
}

/// Runs one physics constraint (Spine `PhysicsConstraint.update(physics)`): steps its
/// springs from the bone's current world transform (in `Update`/`Reset` mode), applies the
/// offsets to the bone's world transform, then updates the bone's applied pose.
pub(crate) fn apply_physics_constraint(
    rig: &Rig,
    inst: &mut Instance,
    id: PhysicsId,
    mode: Physics,
) {
    let data = &rig.physics[id.index()];
    let bone_id = data.bone;
    let time = inst.time;
    let (sx, sy) = (inst.scale_x, inst.scale_y);
    let mut bone = inst.world[bone_id.index()];
    let state = &mut inst.physics[id.index()];
    let mix = state.params.mix;
    if mix == 0.0 {
        return;
    }
    let x = data.x > 0.0;
    let y = data.y > 0.0;
    let rotate_or_shear_x = data.rotate > 0.0 || data.shear_x > 0.0;
    let scale_x = data.scale_x > 0.0;
    let l = rig.bones[bone_id.index()].length;
    // Spine 4.3's interpolation weight of the last step's lag (0 for 4.2 constraints, whose
    // lags stay 0: `offset - lag * z` is then the offset, bit for bit).
    let mut z = 0.0;

    match mode {
        Physics::None => return,
        Physics::Reset | Physics::Update => {
            if mode == Physics::Reset {
                state.reset_at(time);
            }
            let before = state.remaining;
            let delta = (time - state.last_time).max(0.0);
            state.remaining += delta;
            // Not in spine-ts: a bounded number of steps per update (module docs).
            if state.remaining > MAX_STEPS_PER_UPDATE * data.step {
                state.remaining = MAX_STEPS_PER_UPDATE * data.step;
            }
            state.last_time = time;
            if state.needs_reset {
                // The first update after a reset only records where the bone is.
                state.needs_reset = false;
                state.ux = bone.x;
                state.uy = bone.y;
            } else {
                z = step(
                    data,
                    state,
                    &mut bone,
                    l,
                    [delta, before],
                    rig.reference_scale,
                    sx,
                    sy,
                    [inst.wind_direction, inst.gravity_direction],
                );
            }
            state.cx = bone.x;
            state.cy = bone.y;
        }
        Physics::Pose => {
            if data.interpolate {
                z = (1.0 - state.remaining / data.step).max(0.0);
            }
            if x {
                bone.x += (state.x_offset - state.lag[0] * z) * mix * data.x;
            }
            if y {
                bone.y += (state.y_offset - state.lag[1] * z) * mix * data.y;
            }
        }
    }

    if rotate_or_shear_x {
        let o = (state.rotate_offset - state.lag[2] * z) * mix;
        if data.shear_x > 0.0 {
            // shearX turns only the x axis; rotate (if driven) turns both.
            let mut r = 0.0;
            if data.rotate > 0.0 {
                r = o * data.rotate;
                let (s, c) = r.sin_cos();
                let b = bone.b;
                bone.b = c * b - s * bone.d;
                bone.d = s * b + c * bone.d;
            }
            r += o * data.shear_x;
            let (s, c) = r.sin_cos();
            let a = bone.a;
            bone.a = c * a - s * bone.c;
            bone.c = s * a + c * bone.c;
        } else {
            let (s, c) = (o * data.rotate).sin_cos();
            let a = bone.a;
            bone.a = c * a - s * bone.c;
            bone.c = s * a + c * bone.c;
            let b = bone.b;
            bone.b = c * b - s * bone.d;
            bone.d = s * b + c * bone.d;
        }
    }
    if scale_x {
        let s = 1.0 + (state.scale_offset - state.lag[3] * z) * mix * data.scale_x;
        bone.a *= s;
        bone.c *= s;
        let sy = match data.scale_y {
            ScaleYMode::None => None,
            ScaleYMode::Uniform => Some(s),
            ScaleYMode::Volume => Some(volume_scale(s)),
        };
        if let Some(sy) = sy {
            bone.b *= sy;
            bone.d *= sy;
        }
    }
    if mode != Physics::Pose {
        state.tx = l * bone.a;
        state.ty = l * bone.c;
    }
    inst.world[bone_id.index()] = bone;
    crate::bone::update_applied_transform(rig, inst, bone_id);
}

/// Spine 4.3's `ScaleYMode.Volume`: the y scale that roughly keeps the area when x is
/// scaled by `s` (its reciprocal, flattened to a line below 0.7).
pub(crate) fn volume_scale(s: f64) -> f64 {
    let s = s.abs();
    if s >= 0.7 { 1.0 / s } else { 4.0 - 3.67347 * s }
}

/// The simulating half of an update: feeds the bone's motion into the springs, takes the
/// fixed steps `remaining` allows, and moves the bone's origin by the translation offsets.
/// `times` is the clock delta and the time carried before it. Returns the 4.3 interpolation
/// weight `z` of the lags (0 for a 4.2 constraint).
#[allow(clippy::too_many_arguments)]
fn step(
    data: &PhysicsData,
    state: &mut PhysicsState,
    bone: &mut crate::math::WorldTransform,
    l: f64,
    times: [f64; 2],
    reference_scale: f64,
    sx: f64,
    sy: f64,
    [[wx, wy], [gx, gy]]: [[f64; 2]; 2],
) -> f64 {
    let [delta, before] = times;
    let lagged = data.interpolate;
    let x = data.x > 0.0;
    let y = data.y > 0.0;
    let rotate_or_shear_x = data.rotate > 0.0 || data.shear_x > 0.0;
    let scale_x = data.scale_x > 0.0;
    let p = state.params;
    let mix = p.mix;
    let t = data.step;
    let i = p.inertia;
    let f = reference_scale;
    let mut a = state.remaining;
    // COMPAT(spine): -1 means "damping factor not computed yet", as in spine-ts.
    let mut d = -1.0;
    let qx = data.limit * delta * sx.abs();
    let qy = data.limit * delta * sy.abs();

    if x || y {
        if x {
            let u = (state.ux - bone.x) * i;
            state.x_offset += clamp_sym(u, qx);
            state.ux = bone.x;
        }
        if y {
            let u = (state.uy - bone.y) * i;
            state.y_offset += clamp_sym(u, qy);
            state.uy = bone.y;
        }
        if a >= t {
            let (xs, ys) = (state.x_offset, state.y_offset);
            d = p.damping.powf(60.0 * t);
            let m = p.mass_inverse * t;
            let e = p.strength;
            // 4.3: wind and gravity along the skeleton's directions; with the defaults
            // ((1, 0) and (0, 1)) exactly 4.2's `wind * f * sx` and `gravity * f * sy`.
            let (w, g) = (p.wind * f, p.gravity * f);
            let ax = (w * wx + g * gx) * sx;
            // Skeleton scale y is y-up here (spine-ts negates it only in y-down mode).
            let ay = (w * wy + g * gy) * sy;
            loop {
                if x {
                    state.x_velocity += (ax - state.x_offset * e) * m;
                    state.x_offset += state.x_velocity * t;
                    state.x_velocity *= d;
                }
                if y {
                    state.y_velocity -= (ay + state.y_offset * e) * m;
                    state.y_offset += state.y_velocity * t;
                    state.y_velocity *= d;
                }
                a -= t;
                if a < t {
                    break;
                }
            }
            if lagged {
                state.lag[0] = state.x_offset - xs;
                state.lag[1] = state.y_offset - ys;
            }
        }
        let z = if lagged { (1.0 - a / t).max(0.0) } else { 0.0 };
        if x {
            bone.x += (state.x_offset - state.lag[0] * z) * mix * data.x;
        }
        if y {
            bone.y += (state.y_offset - state.lag[1] * z) * mix * data.y;
        }
    }

    if rotate_or_shear_x || scale_x {
        let ca = bone.c.atan2(bone.a);
        let mut mr = 0.0;
        let dx = clamp_sym(state.cx - bone.x, qx);
        let dy = clamp_sym(state.cy - bone.y, qy);
        let mut c;
        let mut s;
        // 4.3 reads the previous update's lag at the previous carried time.
        let zb = if lagged {
            (1.0 - before / t).max(0.0)
        } else {
            0.0
        };
        if rotate_or_shear_x {
            mr = (data.rotate + data.shear_x) * mix;
            let zr = state.lag[2] * zb;
            let r = (dy + state.ty).atan2(dx + state.tx) - ca - (state.rotate_offset - zr) * mr;
            // COMPAT(spine): wrap to ±pi with Spine's float-rounded 2pi.
            state.rotate_offset += (r - (r * (1.0 / SPINE_PI2) - 0.5).ceil() * SPINE_PI2) * i;
            let r = (state.rotate_offset - zr) * mr + ca;
            (s, c) = r.sin_cos();
            if scale_x {
                let r = l * len2(bone.a, bone.c);
                if r > 0.0 {
                    state.scale_offset += (dx * c + dy * s) * i / r;
                }
            }
        } else {
            (s, c) = ca.sin_cos();
            let r = l * len2(bone.a, bone.c) - state.lag[3] * zb;
            if r > 0.0 {
                state.scale_offset += (dx * c + dy * s) * i / r;
            }
        }
        a = state.remaining;
        if a >= t {
            let (rs, ss) = (state.rotate_offset, state.scale_offset);
            if d == -1.0 {
                d = p.damping.powf(60.0 * t);
            }
            let m = p.mass_inverse * t;
            let e = p.strength;
            let w = p.wind * wx + p.gravity * gx;
            let g = p.wind * wy + p.gravity * gy;
            let h = l / f;
            loop {
                a -= t;
                if scale_x {
                    state.scale_velocity += (w * c - g * s - state.scale_offset * e) * m;
                    state.scale_offset += state.scale_velocity * t;
                    state.scale_velocity *= d;
                }
                if rotate_or_shear_x {
                    state.rotate_velocity -= ((w * s + g * c) * h + state.rotate_offset * e) * m;
                    state.rotate_offset += state.rotate_velocity * t;
                    state.rotate_velocity *= d;
                    if a < t {
                        break;
                    }
                    let r = state.rotate_offset * mr + ca;
                    (s, c) = r.sin_cos();
                } else if a < t {
                    break;
                }
            }
            if lagged {
                state.lag[2] = state.rotate_offset - rs;
                state.lag[3] = state.scale_offset - ss;
            }
        }
    }
    state.remaining = a;
    if lagged { (1.0 - a / t).max(0.0) } else { 0.0 }
}

/// `sqrt(a² + c²)` as Spine computes it (not `hypot`, which rounds differently).
#[inline]
fn len2(a: f64, c: f64) -> f64 {
    (a * a + c * c).sqrt()
}

#[cfg(test)]
#[path = "physics_tests.rs"]
mod tests;
