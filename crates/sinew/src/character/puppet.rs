//! The puppet's parameter frame (inochi2d.md §3 "Frame order"), written out with the rest of
//! the frame in the facade: the pendulum chains, the bindings no driver reads, world
//! transforms, the drivers (which read anchors and write their parameters), the driven
//! bindings, world transforms again, then the deformers.
//!
//! Each step is one stage (`params` evaluates bindings, `skeleton` poses bones, the
//! parameter physics steps `physics::chain` / `physics::driver`, `deformer` moves vertices);
//! only this file orders them. Allocation-free. Verified by `params/tests.rs`,
//! `physics/chain_tests.rs`, `deformer/tests.rs` and the Inochi2D fixture, cache and
//! allocation suites in `sinew-formats/tests`.

use crate::instance::Instance;
use crate::params::{apply, deforms};
use crate::physics::{chain, driver};
use crate::rig::Rig;
use crate::types::Physics;
use crate::{deformer, skeleton};

/// A whole parameter-driven frame of `dt` seconds: parameters, world transforms, and with
/// `physics` the drivers and the driven parameters (then world transforms again, over the
/// bones that need it when the plan allows; see `params::plan`). Does nothing for an
/// instance of another rig ([`Instance::is_for`]).
pub fn update_params(rig: &Rig, inst: &mut Instance, dt: f64, physics: bool) {
    if inst.is_for(rig) {
        params_frame(rig, inst, dt, physics);
    }
}

/// [`update_params`] for an instance known to be the rig's (the facade's own).
pub(crate) fn params_frame(rig: &Rig, inst: &mut Instance, dt: f64, physics: bool) {
    chain::step_chains(rig, inst, dt, physics);
    if !physics || rig.params.drivers.is_empty() {
        // The slots are remembered once, after the deformers have written too.
        apply::stage_without_physics(rig, inst);
        skeleton::update_world_transform(rig, inst, Physics::None);
        deformer::apply_deformers(rig, inst);
        deforms::remember_slots(inst);
        return;
    }
    apply::before_physics(rig, inst);
    let plan = &rig.params.plan;
    // The subsets assume the plan visits every bone (no skin-hidden bones, no constraints).
    let subsets = plan.bone_subsets && inst.plan.len() == rig.bones.len();
    if subsets {
        skeleton::subset::update_bones(rig, inst, &plan.pre_physics_bones);
    } else {
        skeleton::update_world_transform(rig, inst, Physics::None);
    }
    driver::step_drivers(rig, inst, dt);
    apply::after_physics(rig, inst);
    if subsets {
        skeleton::subset::update_bones(rig, inst, &plan.post_physics_bones);
    } else {
        skeleton::update_world_transform(rig, inst, Physics::None);
    }
    apply::finish_frame(rig, inst);
    deformer::apply_deformers(rig, inst);
    deforms::remember_slots(inst);
}
