//! Simulation primitives shared by the secondary-motion stages: the fixed-step [`clock`],
//! damped [`spring`]s, [`pendulum`]s and the solver space [`vec`](mod@vec).
//!
//! Data and math only (layer: data; imports `math`, never a stage): each primitive is a
//! small state type with its step functions, held in the per-instance state
//! ([`crate::Instance`]'s parameter drivers and chains, jiggle and follow states) and stepped
//! by the stages that own them (`physics`, the parameter drivers). The paths
//! `sinew::physics::{clock, spring, pendulum, vec}` re-export these modules.

pub mod clock;
pub mod pendulum;
pub mod spring;
pub mod vec;
