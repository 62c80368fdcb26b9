//! Secondary motion: sinew's own machinery (Spine 4.2 physics constraints run in the plan as
//! constraints, [`crate::constraint::physics`], re-exported here as [`spine`]):
//! the fixed-step [`clock`], damped [`spring`]s, [`pendulum`]s, [`jiggle`] bones, delayed
//! [`follow`]s, and the solver space [`vec`](mod@vec).

pub mod follow;
#[cfg(test)]
mod follow_tests;
pub mod jiggle;

pub use crate::constraint::physics as spine;
pub use crate::sim::{clock, pendulum, spring, vec};
