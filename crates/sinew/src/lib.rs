//! sinew: a data-oriented runtime for 2D skeletal animation and deformation.
//!
//! Hosts drive a [`Character`]: it holds a shared, immutable [`Rig`] (`Arc`) and one
//! character's state, and [`Character::update`] runs the whole frame for every format in one
//! documented order; [`Character::draw_list`] gives what to draw. Files load in one call with
//! `sinew_formats::load_spine` / `load_inochi2d` (quick starts there). Below the facade a
//! frame is pure stages over flat arrays: clips are sampled and mixed ([`anim`]), bones go
//! from local to world ([`skeleton`]), constraints run in a precomputed plan
//! ([`constraint`], [`physics`]), parameters drive keyforms ([`params`]), and attachments
//! produce world vertices ([`deform`]) and draw commands ([`draw`]). See
//! `docs/ARCHITECTURE.md` for the whole picture.
//!
//! # Quick start: a rig made by code, with a jiggle chain
//!
//! ```
//! use sinew::physics::jiggle::{ChainDesc, JiggleDesc, JiggleRig, Preset};
//! use sinew::raw::{RawBone, RawRig};
//! use sinew::rig::LocalPose;
//! use sinew::Character;
//! use std::sync::Arc;
//!
//! // A body with a two-bone tail, built with the builder (the one producer of a Rig).
//! let mut raw = RawRig::default();
//! raw.bones.push(RawBone::new("body", None));
//! for (name, parent) in [("tail-1", "body"), ("tail-2", "tail-1")] {
//!     let mut b = RawBone::new(name, Some(parent));
//!     b.x = 20.0;
//!     b.length = 20.0;
//!     raw.bones.push(b);
//! }
//! let rig = Arc::new(sinew::build::build_rig(&raw)?);
//!
//! // Jiggle from code: the tail lags behind the body.
//! let mut desc = JiggleDesc::new();
//! desc.gravity = [0.0, -980.0];
//! desc.chains.push(ChainDesc::new("tail", &["tail-1", "tail-2"], Preset::Tail.params()));
//! let jiggle = Arc::new(JiggleRig::build(&rig, &desc)?);
//!
//! let mut c = Character::new(rig.clone());
//! c.set_jiggle(Some(jiggle))?; // refused if built for another rig
//! let body = c.find_bone("body").expect("body");
//! for frame in 0..30 {
//!     // Move the body from code; the tail follows through the jiggle stage.
//!     let pose = LocalPose { x: frame as f64 * 3.0, ..LocalPose::IDENTITY };
//!     c.set_bone_local(body, pose)?;
//!     c.update(1.0 / 60.0);
//! }
//! let tip = c.find_bone("tail-2").expect("tail-2");
//! let sinew::math::Vec2 { x, y } = c.local_to_world(tip, (0.0, 0.0)).expect("a bone of this rig");
//! assert!(x.is_finite() && y.is_finite());
//! // Ids and names from elsewhere are refused, never a panic.
//! assert!(c.set_skins(&["no-such-skin"]).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Every type in a public signature must be nameable by a host: internals are private
// modules, so a public type they define is re-exported where the facade needs it.
#![warn(unnameable_types)]

pub mod anim;
pub(crate) mod bone;
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
pub(crate) mod sim;
pub mod skeleton;
pub mod types;

#[cfg(test)]
mod layering_tests;

pub use character::{Character, CharacterError};
pub use ids::*;
pub use instance::Instance;
pub use math::WorldTransform;
pub use raw::RawRig;
pub use rig::Rig;
pub use types::*;
