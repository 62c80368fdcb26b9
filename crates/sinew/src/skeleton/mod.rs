//! Bones: local to world transforms in one parent-first pass, with Spine's inherit modes,
//! and the update plan (Spine's update cache).

pub mod plan;

use crate::ids::BoneId;
use crate::instance::Instance;
use crate::rig::Rig;
use crate::types::Physics;

/// Poses the skeleton: copies locals to applied, then runs the update plan (bones and
/// constraints) (Spine `Skeleton.updateWorldTransform(physics)`).
pub fn update_world_transform(rig: &Rig, inst: &mut Instance, physics: Physics) {
    let _ = (rig, inst, physics);
}

/// Computes one bone's world transform from its applied local pose (Spine
/// `Bone.updateWorldTransformWith(ax, ...)`).
pub fn update_bone_world(rig: &Rig, inst: &mut Instance, bone: BoneId) {
    let _ = (rig, inst, bone);
}

/// Recomputes a bone's applied local pose from its world transform (Spine
/// `Bone.updateAppliedTransform`), after a constraint changed the world transform.
pub fn update_applied_transform(rig: &Rig, inst: &mut Instance, bone: BoneId) {
    let _ = (rig, inst, bone);
}
