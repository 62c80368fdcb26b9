//! Secondary motion: sinew's own machinery (Spine 4.2 physics constraints run in the plan as
//! constraints, `constraint/physics.rs`): [`jiggle`] bones, delayed [`follow`]s, and
//! parameter physics: Inochi2D pendulums ([`driver`]) and Cubism physics3-style pendulum
//! chains ([`chain`]). The simulation primitives they run on (the crate-private `sim`
//! module) are re-exported here by type: the fixed-step clock ([`ClockSettings`],
//! [`FixedClock`]), damped springs ([`SpringParams`], [`LinearSpring`], [`AngularSpring`],
//! [`ExactStep`]), pendulums ([`Pendulum`], [`PendulumParams`]) and the solver space
//! ([`SimVec`] with [`Rot2`], over [`crate::math::Vec2`]).
//!
//! Layer: stage (steps 6-7 of `Character::update`: follows and jiggle; parameter physics
//! inside step 5, ordered by `character::update_params`). Imports data, one
//! bone's math (`bone`) and the world stage (`skeleton`, for a jiggle rig's setup pose at
//! build time).

pub mod chain;
pub mod driver;
pub mod follow;
#[cfg(test)]
mod follow_tests;
pub mod jiggle;

pub use crate::sim::clock::{ClockSettings, FixedClock};
pub use crate::sim::pendulum::{Pendulum, PendulumKind, PendulumMap, PendulumParams};
pub use crate::sim::spring::{AngularSpring, ExactStep, Integrator, LinearSpring, SpringParams};
pub use crate::sim::vec::{Rot2, SimVec};
