//! World transforms for the parameter stage: a bone is recomputed only when its inputs
//! changed (see [`super::cache`]), and the common case (a child bone inheriting normally)
//! is computed inline.
//!
//! The inline case calls the skeleton's own `Inherit::Normal` function
//! (`skeleton::world::normal_child_world`), so results are bit-identical to
//! [`crate::skeleton::update_bone_world_with`]; every other case calls that. Verified by
//! `params/tests.rs` (`world_subsets_around_physics_leave_nothing_stale`: a full skeleton
//! pass reproduces the stage's world transforms exactly) and
//! `sinew-formats/tests/inochi2d_cache.rs`.

use crate::ids::BoneId;
use crate::instance::Instance;
use crate::rig::{LocalPose, Rig};
use crate::skeleton::world::normal_child_world;
use crate::types::Inherit;

/// World transforms of `bones` (parent-first) from their local poses, recomputing only
/// bones whose local pose or inherit mode changed (bitwise) or whose parent was recomputed
/// after them (the skeleton position and scale count for roots).
pub(crate) fn update_bones(rig: &Rig, inst: &mut Instance, bones: &[BoneId]) {
    let skeleton = [inst.x, inst.y, inst.scale_x, inst.scale_y].map(f64::to_bits);
    let roots_moved = skeleton != inst.params.cache.skeleton;
    inst.params.cache.skeleton = skeleton;
    let valid = inst.params.cache.valid;
    let nb = rig.bones.len();
    if inst.pose.len() < nb
        || inst.applied.len() < nb
        || inst.world.len() < nb
        || inst.trig.len() < nb
        || inst.inherit.len() < nb
        || inst.params.cache.stamp.len() < nb
        || inst.params.cache.inherit.len() < nb
    {
        return;
    }
    for &b in bones {
        let i = b.index();
        if i >= nb {
            continue;
        }
        let cache = &inst.params.cache;
        let own = cache.stamp[i];
        let parent = rig.bones[i].parent;
        let parent_moved = match parent {
            Some(p) => cache.stamp.get(p.index()).is_none_or(|&s| s > own),
            None => roots_moved,
        };
        let inherit = inst.inherit[i];
        let pose = inst.pose[i];
        let dirty = !valid
            || parent_moved
            || cache.inherit[i] != inherit
            || !same_pose(&pose, &inst.applied[i]);
        if !dirty {
            continue;
        }
        match (parent, inherit) {
            (Some(p), Inherit::Normal) if p.index() < nb => {
                inst.applied[i] = pose;
                let pw = inst.world[p.index()];
                inst.world[i] = normal_child_world(rig.exact_angles, &pw, &pose, &mut inst.trig[i]);
            }
            _ => crate::skeleton::update_bone_world_with(rig, inst, b, pose),
        }
        let cache = &mut inst.params.cache;
        cache.counter += 1;
        cache.stamp[i] = cache.counter;
        cache.inherit[i] = inherit;
    }
}

/// Bitwise equality of two local poses.
#[inline]
fn same_pose(a: &LocalPose, b: &LocalPose) -> bool {
    let eq = |x: f64, y: f64| x.to_bits() == y.to_bits();
    eq(a.x, b.x)
        & eq(a.y, b.y)
        & eq(a.rotation, b.rotation)
        & eq(a.scale_x, b.scale_x)
        & eq(a.scale_y, b.scale_y)
        & eq(a.shear_x, b.shear_x)
        & eq(a.shear_y, b.shear_y)
}
