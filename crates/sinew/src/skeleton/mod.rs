//! The world stage: walks the update plan (Spine's update cache, computed in
//! `instance::plan`) in order, posing bones with one bone's math (`bone`) and running each
//! constraint op (`constraint`), alone or for four instances in SIMD lanes.
//!
//! Follows spine.md §5 (update order) and §6.1 (bone math), matching spine-ts 4.2. Verified
//! by the unit tests in `skeleton/tests.rs` (closed forms, property tests and oracle values
//! generated with `dump.mjs` on `synthetic/constraints-lab.json`) and by the setup-pose
//! integration test over every Spine fixture in `sinew-formats/tests/all/setup_pose.rs`.
//!
//! Layer: stage (the world stage, step 5). Walks the update plan: one bone's math from
//! `bone`, each constraint op from `constraint`; imports data and those two only.

mod bone_run;
pub(crate) mod lanes;
#[cfg(target_arch = "x86_64")]
mod lanes_avx;
pub(crate) mod subset;

#[cfg(test)]
mod oracle_edge_tests;
#[cfg(test)]
mod oracle_tests;
#[cfg(test)]
pub(crate) mod testrig;
#[cfg(test)]
mod tests;

use crate::bone::update_bone_world;
pub use crate::bone::{local_matrix_fast, local_matrix_reference};
pub use crate::math::trig::TrigMemo;

use crate::instance::Instance;
use crate::instance::plan::PlanOp;
use crate::rig::Rig;
use crate::types::Physics;

/// Poses the skeleton (Spine `Skeleton.updateWorldTransform(physics)`): copies every bone's
/// local pose into its applied pose, then runs the update plan in order: bones compute
/// their world transforms, constraints adjust them. Inactive bones and constraints are not
/// in the plan (see `plan::update_cache`), so they are skipped. Allocation-free. Does
/// nothing when `inst` was made for another rig ([`Instance::is_for`]).
pub fn update_world_transform(rig: &Rig, inst: &mut Instance, physics: Physics) {
    if inst.is_for(rig) {
        world_transform(rig, inst, physics);
    }
}

/// [`update_world_transform`] for an instance known to be the rig's (the facade's own).
pub(crate) fn world_transform(rig: &Rig, inst: &mut Instance, physics: Physics) {
    inst.applied.copy_from_slice(&inst.pose);
    // DragonBones: every bone's held rotation is decomposed until set (`db_rotation`); the
    // runs of normal children below leave it so.
    inst.db_rotation.fill(f64::NAN);
    let mut i = 0;
    while i < inst.plan.len() {
        // Runs of normally inheriting children in one loop (`bone_run.rs`).
        let run = bone_run::normal_children(rig, inst, i);
        if run > 0 {
            i += run;
            continue;
        }
        let op = inst.plan[i];
        run_op(rig, inst, op, physics);
        i += 1;
    }
}

/// One op of the plan on one instance: a bone's world transform or one constraint. The world
/// stage's one dispatch; the lanes (`lanes.rs`) run their scalar ops through it too.
#[inline(always)]
pub(crate) fn run_op(rig: &Rig, inst: &mut Instance, op: PlanOp, physics: Physics) {
    match op {
        PlanOp::Bone(b) => update_bone_world(rig, inst, b),
        PlanOp::Ik(id) => crate::constraint::ik::apply_ik_constraint(rig, inst, id),
        PlanOp::Transform(id) => {
            crate::constraint::transform::apply_transform_constraint(rig, inst, id)
        }
        PlanOp::Path(id) => crate::constraint::path::apply_path_constraint(rig, inst, id),
        PlanOp::Physics(id) => {
            crate::constraint::physics::apply_physics_constraint(rig, inst, id, physics)
        }
        PlanOp::Slider(id) => crate::constraint::slider::apply_slider(rig, inst, id),
    }
}
