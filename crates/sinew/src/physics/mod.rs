//! Secondary motion: sinew's own machinery (Spine 4.2 physics constraints run in the plan as
//! constraints, [`crate::constraint::physics`], re-exported here as [`spine`]):
//! the fixed-step [`clock`], damped [`spring`]s, [`pendulum`]s, [`jiggle`] bones, delayed
//! [`follow`]s, the solver space [`vec`](mod@vec), and parameter physics: Inochi2D
//! pendulums ([`driver`]) and Cubism physics3-style pendulum chains ([`chain`]).
//!
//! Layer: stage (steps 6-7 of `Character::update`: follows and jiggle; parameter physics
//! inside step 5, ordered by `character::update_params`). Imports data, one
//! bone's math (`bone`), the world stage (`skeleton`, for a jiggle rig's setup pose at build
//! time) and re-exports the Spine physics constraint and the `sim` primitives at their old
//! paths.

pub mod chain;
pub mod driver;
pub mod follow;
#[cfg(test)]
mod follow_tests;
pub mod jiggle;

pub use crate::constraint::physics as spine;
pub use crate::sim::{clock, pendulum, spring, vec};
