//! sinew-formats: loaders that turn files into a [`sinew::RawRig`], plus texture atlases.
//!
//! Start with [`load_spine`] or [`load_inochi2d`]: one call gives an [`Asset`] (the built,
//! atlas-bound rig with its jiggle bones and drawing details) whose [`Asset::character`] is
//! ready to update and draw.
//!
//! - [`spine`]: Spine 4.2 JSON exports ([`spine::load_spine_json`], [`spine::parse_spine_json`]).
//! - [`extras`]: rig-extras JSON (jiggle bones and colliders added to any rig by bone name).
//! - [`physics3`]: Live2D Cubism physics settings (`*.physics3.json`) as pendulum chains.
//! - [`atlas`]: the libgdx/Spine `.atlas` text format and [`atlas::bind_atlas`], which puts an
//!   atlas's real regions into a built [`sinew::Rig`].
//!
//! Every loader returns a [`LoadError`] naming the file, the place and the culprit, and
//! never panics on bad input (checked by property tests and a fuzz target).

mod asset;
pub mod atlas;
mod error;
pub mod extras;
pub mod inochi2d;
pub mod physics3;
pub mod spine;

pub use asset::{Asset, LoadOptions, load_inochi2d, load_spine, puppet_draw_setup};
pub use atlas::bind_atlas;
pub use error::LoadError;
