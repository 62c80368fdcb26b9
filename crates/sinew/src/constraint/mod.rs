//! Constraints run by the update plan: IK ([`ik`]), transform ([`transform`]), path
//! ([`path`]) and Spine 4.2 physics ([`physics`]). Each is a function over the rig and the instance that reads the current
//! world transforms and leaves both world and applied poses consistent.
//!
//! Layer: stage (the constraint ops of the update plan, step 5). Imports data, one bone's
//! math (`bone`) and a path attachment's world vertices (`deform`); their per-instance state
//! (path scratch, physics springs) is instance data.

pub mod ik;
pub mod ik_dragonbones;
pub mod path;
pub mod physics;
pub mod transform;
