//! Constraints run by the update plan: IK (`ik.rs`, DragonBones' solver in
//! `ik_dragonbones.rs`), transform (`transform.rs`), path (`path.rs`) and Spine 4.2 physics
//! (`physics.rs`); crate-private stages that `skeleton` walks in the plan's order. Each is a function over the rig and the instance that reads the current
//! world transforms and leaves both world and applied poses consistent.
//!
//! Layer: stage (the constraint ops of the update plan, step 5). Imports data, one bone's
//! math (`bone`) and a path attachment's world vertices (`deform`); their per-instance state
//! (path scratch, physics springs) is instance data.

pub(crate) mod ik;
pub(crate) mod ik_dragonbones;
pub(crate) mod path;
pub(crate) mod physics;
pub(crate) mod slider;
pub(crate) mod transform;
pub(crate) mod transform43;

pub use physics::{MAX_FPS, MAX_STEPS_PER_UPDATE};
