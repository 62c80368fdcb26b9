//! Secondary motion: Spine 4.2 physics constraints ([`spine`]), and sinew's own machinery:
//! the fixed-step [`clock`], damped [`spring`]s, [`pendulum`]s, [`jiggle`] bones, delayed
//! [`follow`]s, and the solver space [`vec`](mod@vec).

pub mod clock;
pub mod follow;
#[cfg(test)]
mod follow_tests;
pub mod jiggle;
pub mod pendulum;
pub mod spine;
pub mod spring;
pub mod vec;
