//! Path constraints: bones spread along the cubic Bezier spline of a path attachment.
//!
//! Follows spine.md §6.4 and matches spine-ts 4.2 `PathConstraint.update` operation for
//! operation (f64 math, Spine's float-rounded pi): spaces from the bone lengths and the
//! spacing mode, positions along the path (`path_positions.rs`, including the arc-length
//! tables), then each bone moved to its point and turned toward the tangent or the next
//! point (chainScale also stretches it), with the bone-tip correction of `chain`. A Spine
//! 4.3 rig (`Rig::runtime`) clamps a bone's length spacing at 0 and restarts the segment
//! search at each wrapped point of a closed path, as spine-core 4.3.13 does (checked by
//! `testdata/spine43/path-lab.json`'s official 4.3 golden).
//!
//! Verified by the unit tests in `constraint/path_tests.rs`: oracle values from `dump.mjs`
//! for hand-written rigs covering every position, spacing and rotate mode, open and closed,
//! constant-speed or not, weighted paths and mixes below 1.

#[path = "path_positions.rs"]
mod positions;

pub use crate::instance::PathScratch;

use crate::ids::{BoneId, PathId};
use crate::instance::Instance;
use crate::math::{SPINE_DEG_RAD, SPINE_PI, SPINE_PI2, trig};
use crate::rig::{AttachmentKind, Rig};
use crate::types::{RotateMode, SpacingMode};

/// Bones shorter than this take the raw spacing (Spine `PathConstraint.epsilon`).
const EPSILON: f64 = 0.00001;

/// Grows `v` to at least `n` entries. Only a rig that lied about its sizes makes this
/// allocate; [`PathScratch::new`] sizes everything up front.
#[inline]
pub(crate) fn ensure_len(v: &mut Vec<f64>, n: usize) {
    if v.len() < n {
        v.resize(n, 0.0);
    }
}

/// Runs one path constraint (Spine `PathConstraint.update`): moves and turns its bones
/// along the target slot's path, then updates each bone's applied pose. Does nothing unless
/// the target slot shows a path attachment and some mix is non-zero.
pub(crate) fn apply_path_constraint(rig: &Rig, inst: &mut Instance, id: PathId) {
    let data = &rig.paths[id.index()];
    let Some(att) = inst.slots.attachment[data.target.index()] else {
        return;
    };
    let AttachmentKind::Path(path) = &rig.attachments[att.index()].kind else {
        return;
    };
    let mix = inst.paths[id.index()];
    let (mix_rotate, mix_x, mix_y) = (mix.mix_rotate, mix.mix_x, mix.mix_y);
    if mix_rotate == 0.0 && mix_x == 0.0 && mix_y == 0.0 {
        return;
    }
    let bone_count = data.bones.len();
    if bone_count == 0 {
        return;
    }
    let tangents = data.rotate_mode == RotateMode::Tangent;
    let scale = data.rotate_mode == RotateMode::ChainScale;
    let spaces_count = if tangents { bone_count } else { bone_count + 1 };

    // Taken out so the positions can be computed from `inst` while writing the scratch.
    let mut scratch = std::mem::take(&mut inst.path_scratch);
    ensure_len(&mut scratch.spaces, spaces_count);
    ensure_len(&mut scratch.lengths, bone_count);
    compute_spaces(
        rig,
        inst,
        &data.bones,
        data.spacing_mode,
        scale,
        mix.spacing,
        spaces_count,
        &mut scratch,
    );
    let computed = positions::compute_world_positions(
        rig,
        inst,
        data,
        path,
        spaces_count,
        tangents,
        mix,
        &mut scratch,
    );
    if !computed {
        inst.path_scratch = scratch;
        return;
    }

    let positions = &scratch.positions;
    let mut bone_x = positions[0];
    let mut bone_y = positions[1];
    let mut offset_rotation = data.offset_rotation;
    let tip;
    if offset_rotation == 0.0 {
        tip = data.rotate_mode == RotateMode::Chain;
    } else {
        tip = false;
        let p = &inst.world[rig.slots[data.target.index()].bone.index()];
        // A reflected slot bone turns the offset the other way.
        offset_rotation *= if p.a * p.d - p.b * p.c > 0.0 {
            SPINE_DEG_RAD
        } else {
            -SPINE_DEG_RAD
        };
    }
    for (i, &bone_id) in data.bones.iter().enumerate() {
        let p = 3 * (i + 1);
        let bone = &mut inst.world[bone_id.index()];
        bone.x += (bone_x - bone.x) * mix_x;
        bone.y += (bone_y - bone.y) * mix_y;
        let (x, y) = (positions[p], positions[p + 1]);
        let (dx, dy) = (x - bone_x, y - bone_y);
        if scale {
            let length = scratch.lengths[i];
            if length != 0.0 {
                let s = ((dx * dx + dy * dy).sqrt() / length - 1.0) * mix_rotate + 1.0;
                bone.a *= s;
                bone.c *= s;
            }
        }
        bone_x = x;
        bone_y = y;
        if mix_rotate > 0.0 {
            let (a, b, c, d) = (bone.a, bone.b, bone.c, bone.d);
            let mut r = if tangents {
                positions[p - 1]
            } else if scratch.spaces[i + 1] == 0.0 {
                positions[p + 2]
            } else {
                trig::atan2(dy, dx)
            };
            r -= trig::atan2(c, a);
            if tip {
                // COMPAT(spine): chain mode moves the next point to this bone's turned tip.
                let (sin, cos) = trig::sin_cos(r);
                let length = rig.bones[bone_id.index()].length;
                bone_x += (length * (cos * a - sin * c) - dx) * mix_rotate;
                bone_y += (length * (sin * a + cos * c) - dy) * mix_rotate;
            } else {
                r += offset_rotation;
            }
            if r > SPINE_PI {
                r -= SPINE_PI2;
            } else if r < -SPINE_PI {
                r += SPINE_PI2;
            }
            r *= mix_rotate;
            let (sin, cos) = trig::sin_cos(r);
            bone.a = cos * a - sin * c;
            bone.b = cos * b - sin * d;
            bone.c = sin * a + cos * c;
            bone.d = sin * b + cos * d;
        }
        crate::bone::update_applied_transform(rig, inst, bone_id);
    }
    inst.path_scratch = scratch;
}

/// Fills `scratch.spaces` (and `scratch.lengths` for chainScale) from the bones' current
/// world lengths and the spacing mode; `spaces[0]` stays 0.
#[allow(clippy::too_many_arguments)]
fn compute_spaces(
    rig: &Rig,
    inst: &Instance,
    bones: &[BoneId],
    mode: SpacingMode,
    scale: bool,
    spacing: f64,
    spaces_count: usize,
    scratch: &mut PathScratch,
) {
    let spaces = &mut scratch.spaces;
    let lengths = &mut scratch.lengths;
    let v43 = rig.runtime == crate::types::SpineRuntime::V43;
    spaces[0] = 0.0;
    // The world length of bone i's setup length, as Spine measures it.
    let world_length = |i: usize| {
        let b = bones[i];
        let setup_length = rig.bones[b.index()].length;
        let w = &inst.world[b.index()];
        let (x, y) = (setup_length * w.a, setup_length * w.c);
        (setup_length, (x * x + y * y).sqrt())
    };
    match mode {
        SpacingMode::Percent => {
            if scale {
                for (i, l) in lengths.iter_mut().enumerate().take(spaces_count - 1) {
                    *l = world_length(i).1;
                }
            }
            spaces[1..spaces_count].fill(spacing);
        }
        SpacingMode::Proportional => {
            let mut sum = 0.0;
            for i in 0..spaces_count - 1 {
                let (setup_length, length) = world_length(i);
                if setup_length < EPSILON {
                    if scale {
                        lengths[i] = 0.0;
                    }
                    spaces[i + 1] = spacing;
                } else {
                    if scale {
                        lengths[i] = length;
                    }
                    spaces[i + 1] = length;
                    sum += length;
                }
            }
            if sum > 0.0 {
                let k = spaces_count as f64 / sum * spacing;
                for s in &mut spaces[1..spaces_count] {
                    *s *= k;
                }
            }
        }
        SpacingMode::Length | SpacingMode::Fixed => {
            let length_spacing = mode == SpacingMode::Length;
            for i in 0..spaces_count - 1 {
                let (setup_length, length) = world_length(i);
                if setup_length < EPSILON {
                    if scale {
                        lengths[i] = 0.0;
                    }
                    spaces[i + 1] = spacing;
                } else {
                    if scale {
                        lengths[i] = length;
                    }
                    let base = if !length_spacing {
                        spacing
                    } else if v43 && setup_length + spacing < 0.0 {
                        // Spine 4.3 clamps a bone's length spacing at 0.
                        0.0
                    } else {
                        setup_length + spacing
                    };
                    spaces[i + 1] = base * length / setup_length;
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "path_tests.rs"]
mod tests;
