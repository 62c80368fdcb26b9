//! The update plan: bones and constraints in Spine's update order for the current skin.

use crate::ids::*;
use crate::instance::Instance;
use crate::rig::Rig;

/// One operation of the update plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanOp {
    /// Compute a bone's world transform from its applied local pose.
    Bone(BoneId),
    /// Run an IK constraint.
    Ik(IkId),
    /// Run a transform constraint.
    Transform(TransformId),
    /// Run a path constraint.
    Path(PathId),
    /// Run a physics constraint.
    Physics(PhysicsId),
}

/// Recomputes which bones and constraints are active and the update plan (Spine
/// `Skeleton.updateCache`). Allocation-free when the plan's capacity suffices.
pub fn update_cache(rig: &Rig, inst: &mut Instance) {
    // Placeholder until the skeleton module lands: bones in order, no constraints.
    inst.plan.clear();
    for i in 0..rig.bones.len() {
        inst.plan.push(PlanOp::Bone(BoneId(i as u16)));
    }
}
