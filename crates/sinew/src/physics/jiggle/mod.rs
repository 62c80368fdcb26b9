//! Jiggle bones: hair tips, tails, capes, earrings, chest and belly that lag, overshoot and
//! settle on their own, on top of whatever animation and constraints posed the rig.
//!
//! How it plugs into a frame: after `skeleton::update_world_transform` (world matrices
//! final), [`JiggleState::update`] reads each jiggle bone's animated world transform as its
//! target, steps the springs on the fixed-step clock ([`FixedClock`](crate::physics::FixedClock)) and writes
//! the jiggle bones' world transforms, their applied locals, and re-poses the bones below
//! them. Attach jiggle bones to any rig without re-exporting it: describe them by bone name
//! ([`JiggleDesc`], what a rig-extras file holds) and resolve with [`JiggleRig::build`].
//!
//! Models (math.md §B.2, §B.4):
//! - [`JiggleModel::Spring`] (default): physical springs (stiffness, damping, mass) pull the
//!   bone's tip, and for soft tissue its origin, toward the target; exact-step integration,
//!   so it is stable at any step and matches the closed-form damped oscillator in its linear
//!   regime; damping is per second, so the look does not depend on the step.
//! - [`JiggleModel::Verlet`]: VRM SpringBone 1.0 (position Verlet, per-step drag, a
//!   constant-speed pull to the rest direction, gravity power). At a 60 Hz step it
//!   reproduces three-vrm 3.5.5 (to 1e-12 with `vrm_stale_length`, its segment-length
//!   quirk; the default uses the rest length the spec describes, which differs by up to
//!   0.04 m after a sudden 0.2 m root move).
//!
//! - [`JiggleModel::Angular`]: an angular spring-damper on each bone's rotation toward its
//!   target direction (exact step on the rotation vector: the closed-form oscillator at any
//!   angle; translation of the parent swings nothing).
//! - [`JiggleModel::Lerp`]: the cheapest, the tip moves a fixed fraction of the way to its
//!   target each step (`exp(-stiffness h)` kept: exponential decay, no overshoot).
//!
//! Any model's stiffness and damping may follow the driver's speed ([`SpeedCurve`]).
//! All share targets that follow the parent's simulated motion (chains are solved root to
//! tip), gravity and wind (with gusts), length and angle limits, circle and capsule
//! colliders on bones, strength 0..1 per chain (set or faded from code, or keyed and faded
//! by the animations playing: [`cues`]), level of detail per chain (off, solved every N-th
//! step with the display interpolated between its last two solves, or full; frozen beyond a
//! distance; culled outside the host's view rectangle; chains at strength 0 are not
//! solved), teleport resets and [`presets`]. The solver core
//! ([`chain`]) is generic over the space ([`SimVec`](crate::physics::SimVec)); [`solver3d`]
//! runs it on glam 3D transforms.
//!
//! Verified by `tests.rs` (closed-form oscillator, three-vrm trajectories in 2D and 3D,
//! 30/60/144 fps independence, hitches and bad dt, energy, colliders, rig integration) and
//! the `jiggle` criterion benchmark.

mod attach;
pub mod chain;
pub mod collider;
pub mod cues;
mod desc;
mod params;
pub mod presets;
#[cfg(feature = "glam")]
pub mod solver3d;
mod state;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cues;
#[cfg(test)]
mod tests_display;
#[cfg(test)]
mod tests_lod;
#[cfg(test)]
mod tests_modes;
#[cfg(test)]
mod tests_rig;

pub use attach::{ColliderDef, JiggleRig};
pub use chain::ChainRun;
pub use cues::{
    AnimCuesDesc, CueCurve, CueKey, CueProperty, CueTrackDesc, CueWindow, FadeEventDesc,
};
pub use desc::{ChainDesc, ColliderDesc, ColliderShape, Gust, JiggleDesc, LodSettings};
pub use params::{JiggleModel, JiggleParams, SpeedCurve, StepCoeffs};
pub use presets::Preset;
pub use state::{JiggleState, Lod};
