//! sinew: a data-oriented runtime for 2D skeletal animation and deformation.
//!
//! A [`Rig`] is shared and immutable; an [`Instance`] holds one character's state. A frame
//! runs pure stages over flat arrays: clips are sampled and mixed ([`anim`]), bones go from
//! local to world ([`skeleton`]), constraints run in a precomputed plan ([`constraint`],
//! [`physics`]), and attachments produce world vertices ([`deform`]). See
//! `docs/ARCHITECTURE.md` for the whole picture.

pub mod anim;
pub mod build;
pub mod cage;
pub mod character;
pub mod constraint;
pub mod deform;
pub mod deformer;
pub mod draw;
pub mod ids;
pub mod instance;
pub mod math;
pub mod params;
pub mod physics;
pub mod raw;
pub mod rig;
pub mod skeleton;
pub mod types;

pub use character::{Character, CharacterError};
pub use ids::*;
pub use instance::Instance;
pub use math::WorldTransform;
pub use raw::RawRig;
pub use rig::Rig;
pub use types::*;
