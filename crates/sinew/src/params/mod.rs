//! Parameters (Live2D / Inochi2D style): named values with ranges that drive keyform grids.
//!
//! A parameter has one or two components (Inochi2D's 1D and 2D parameters), each with a
//! range and a default; values are clamped to the range. A [`Binding`] is a keyform grid
//! over one or more parameter components (an Inochi2D binding spans one parameter's axes;
//! a Cubism keyform grid spans several parameters at once), interpolated per axis with
//! [`Interp`] (see [`grid`]), whose result drives one [`Target`]: a bone (node) transform
//! component, a slot's mesh vertex offsets, its opacity, tint, z-sort or visibility. Several
//! bindings of one target combine as Inochi2D does: offsets add, scale-like factors multiply.
//!
//! The stage ([`apply_params`], `apply.rs`) runs before world transforms: it combines the bindings of every
//! target, then writes bone locals (setup ⊕ offsets), slot deform buffers (absolute
//! bind-space vertices = setup + offsets), slot colours and the draw order, recomputing only
//! what changed parameters feed (`cache`, `scalars`).
//! Parameter animation is [`inochi_clip`] lanes mixed on tracks by [`player`]. Parameter
//! physics (Inochi2D pendulums, `physics::driver`; Cubism-style pendulum chains,
//! `physics::chain`; re-exported here as [`driver`] and [`chain`]) is the physics stage's,
//! ordered around the bindings by `character::update_params`. Rigs are built from
//! a name-based [`raw::RawParams`] by [`build::build_params`].
//!
//! Verified by the unit tests beside each file, the property tests in `proptests.rs`, and
//! `sinew-formats/tests/inochi2d_*.rs`, which match the Inochi2D fixtures' expected deforms.
//!
//! Layer: stage (step 5). Evaluates bindings only: the parameter data is rig data
//! ([`crate::rig::params`]) and its state instance data ([`crate::instance::params`]), both
//! re-exported here; the frame that orders bindings, world transforms, drivers and deformers is
//! the facade's (`character::update_params`). Imports data, and from
//! [`build::build_params`] the deformers' and chains' builders (`deformer`, `physics`).

pub(crate) mod apply;
pub(crate) mod build;
pub(crate) mod deforms;
pub mod inochi_clip;
pub(crate) mod kernel;
#[cfg(target_arch = "x86_64")]
mod kernel_avx;
pub mod player;
pub(crate) mod scalars;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub(crate) use crate::instance::param_cache as cache;
pub use crate::instance::params::{BoneOffset, ParamState, SlotOffset};
pub use crate::math::grid::{self, Interp, MAX_AXES};
pub use crate::physics::{chain, driver};
pub use crate::raw::params as raw;
pub use crate::rig::params::{Binding, GridAxis, ParamData, ParamSet, Target};
pub(crate) use crate::rig::params::{corners, plan, scalar_plan};
pub use apply::{apply_params, finalize_params};
pub use build::{MAX_KEYFORMS, MAX_KEYS, MAX_PARAMS, build_params};
