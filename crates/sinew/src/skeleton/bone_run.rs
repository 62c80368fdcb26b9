//! The common stretch of the update plan in one loop: consecutive bones that inherit
//! normally from a parent, the bulk of every skeleton.
//!
//! [`update_world_transform`](super::update_world_transform) hands each such run here
//! instead of calling [`update_bone_world`](super::update_bone_world) once per bone: the
//! instance's arrays are cut to the rig's bone count once, so the loop indexes them without
//! a bounds check per field, and the per-bone call (with its saved registers) is gone. The
//! arithmetic is `world::normal_child_world`'s, so the results are bit-identical to the
//! per-bone path (`sinew-formats/tests/all/fast_paths.rs` and every golden compare them).

use crate::bone::normal_child_world;
use crate::instance::Instance;
use crate::instance::plan::PlanOp;
use crate::rig::Rig;
use crate::types::Inherit;

/// Updates the bones of `plan[start..]` up to the first op that is not a normally
/// inheriting child bone (a constraint, a root, another inherit mode); returns how many it
/// updated (0 when `plan[start]` is not one: the caller takes the general path).
pub(super) fn normal_children(rig: &Rig, inst: &mut Instance, start: usize) -> usize {
    let nb = rig.bones.len();
    let Instance {
        plan,
        applied,
        world,
        trig,
        inherit,
        ..
    } = inst;
    let (Some(applied), Some(world), Some(trig), Some(inherit), Some(ops)) = (
        applied.get(..nb),
        world.get_mut(..nb),
        trig.get_mut(..nb),
        inherit.get(..nb),
        plan.get(start..),
    ) else {
        return 0; // an instance of another rig: the per-bone path reports nothing either
    };
    let bones = &rig.bones[..nb];
    let exact = rig.exact_angles;
    let mut done = 0;
    for op in ops {
        let PlanOp::Bone(b) = *op else { break };
        let i = b.index();
        let (Some(bone), Some(&mode)) = (bones.get(i), inherit.get(i)) else {
            break;
        };
        let Some(p) = bone.parent.map(|p| p.index()).filter(|&p| p < nb) else {
            break;
        };
        if mode != Inherit::Normal {
            break;
        }
        let pw = world[p];
        world[i] = normal_child_world(exact, &pw, &applied[i], &mut trig[i]);
        done += 1;
    }
    done
}
