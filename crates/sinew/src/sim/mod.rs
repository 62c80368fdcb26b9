//! Simulation primitives shared by the secondary-motion stages: the fixed-step [`clock`],
//! damped [`spring`]s, [`pendulum`]s and the solver space [`vec`](mod@vec).
//!
//! Data and math only (layer: data; imports `math`, never a stage): each primitive is a
//! small state type with its step functions, held in the per-instance state
//! ([`crate::Instance`]'s parameter drivers and chains, jiggle and follow states) and stepped
//! by the stages that own them (`physics`, the parameter drivers). Crate-private: the types
//! a host configures or holds ([`ClockSettings`](crate::physics::ClockSettings),
//! [`SpringParams`](crate::physics::SpringParams), the pendulum and spring types,
//! [`SimVec`](crate::physics::SimVec)) are re-exported by [`crate::physics`].

pub(crate) mod clock;
pub(crate) mod pendulum;
pub(crate) mod spring;
pub(crate) mod vec;
