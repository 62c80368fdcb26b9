//! Constraints run by the update plan: IK ([`ik`]), transform ([`transform`]) and path
//! ([`path`]). Each is a function over the rig and the instance that reads the current
//! world transforms and leaves both world and applied poses consistent.

pub mod ik;
pub mod ik_dragonbones;
pub mod path;
pub mod physics;
pub mod transform;
