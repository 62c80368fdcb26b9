//! Built pendulum chains (Cubism physics3 style) and their limits. Data only; the parameter
//! physics (`physics::chain`) steps them.

use super::ParamData;
use crate::ids::ParamId;
use crate::math::Vec2;
use crate::raw::params::ChainSource;
use crate::sim::clock::ClockSettings;

/// Most chains a rig may have.
pub const MAX_CHAINS: usize = 1024;
/// Most particles in one chain.
pub const MAX_PARTICLES: usize = 256;
/// Most inputs or outputs of one chain.
pub const MAX_PORTS: usize = 256;
/// Longest frame the chains simulate, seconds (longer frames are slow motion).
pub const MAX_FRAME_DT: f64 = 0.25;
/// COMPAT(cubism): gravity-direction changes turn a particle by this fraction's inverse.
pub const AIR_RESISTANCE: f64 = 5.0;
/// COMPAT(cubism): a particle's `delay` counts in 1/30 s.
pub const DELAY_RATE: f64 = 30.0;
/// COMPAT(cubism): weights are percentages.
pub const MAX_WEIGHT: f64 = 100.0;

/// A normalization range: how a parameter's range maps into physics space.
///
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Normalization {
    /// Image of the parameter's minimum.
    pub minimum: f64,
    /// Image of the middle of the parameter's range.
    pub default: f64,
    /// Image of the parameter's maximum.
    pub maximum: f64,
}

impl Normalization {
    /// Maps `v` (a value of component `c` of `pd`) into physics space, before the sign of
    /// the input's reflect: piecewise linear from the range middle (-> `default`) to the
    /// range ends (-> `minimum`, `maximum`). Non-finite values read as the middle.
    pub fn map(&self, pd: &ParamData, c: usize, v: f64) -> f64 {
        let (lo, hi) = (pd.min[c].min(pd.max[c]), pd.min[c].max(pd.max[c]));
        let (nlo, nhi) = (
            self.minimum.min(self.maximum),
            self.minimum.max(self.maximum),
        );
        let mid = lo + (hi - lo) * 0.5;
        let v = if v.is_finite() { v.clamp(lo, hi) } else { mid };
        if v > mid && hi > mid {
            self.default + (v - mid) / (hi - mid) * (nhi - self.default)
        } else if v < mid && lo < mid {
            self.default + (v - mid) / (lo - mid) * (nlo - self.default)
        } else {
            self.default
        }
    }
}

/// A built chain input.
///
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChainInput {
    /// Source parameter.
    pub param: ParamId,
    /// Its component (0 or 1).
    pub component: u8,
    /// Weight, 0..100.
    pub weight: f64,
    /// What it moves.
    pub kind: ChainSource,
    /// Reflect.
    pub reflect: bool,
}

/// A built chain output.
///
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChainOutput {
    /// Destination parameter.
    pub param: ParamId,
    /// Its component (0 or 1).
    pub component: u8,
    /// Particle read, `1..particles.len()`.
    pub vertex: u16,
    /// What is read.
    pub kind: ChainSource,
    /// Scale to parameter units.
    pub scale: f64,
    /// Weight, 0..100.
    pub weight: f64,
    /// Reflect.
    pub reflect: bool,
}

/// A chain particle.
///
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChainParticle {
    /// Position in the file (informational).
    pub position: Vec2,
    /// Mobility (velocity kept per step).
    pub mobility: f64,
    /// Delay (time scale, 1/30 s units).
    pub delay: f64,
    /// Acceleration along the chain's gravity.
    pub acceleration: f64,
    /// Distance to the previous particle.
    pub radius: f64,
}

/// A built pendulum chain (one physics3 setting).
///
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainData {
    /// Name, for messages.
    pub name: String,
    /// Inputs.
    pub inputs: Vec<ChainInput>,
    /// Outputs.
    pub outputs: Vec<ChainOutput>,
    /// Particles, root first (at least one).
    pub particles: Vec<ChainParticle>,
    /// Position normalization.
    pub position: Normalization,
    /// Angle normalization (degrees).
    pub angle: Normalization,
}

/// Every chain of a rig.
///
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainSet {
    /// Chains, in file order.
    pub chains: Vec<ChainData>,
    /// Steps per second.
    pub fps: f64,
    /// Wind, added to every particle's acceleration.
    pub wind: Vec2,
}

impl Default for ChainSet {
    fn default() -> Self {
        ChainSet {
            chains: Vec::new(),
            fps: 60.0,
            wind: Vec2::ZERO,
        }
    }
}

/// Straight down in physics space.
pub(crate) const DOWN: Vec2 = Vec2 { x: 0.0, y: 1.0 };

/// The clock settings for `fps` steps per second (60 when not positive and finite): at most
/// [`MAX_FRAME_DT`] of steps per frame.
pub fn clock_settings(fps: f64) -> ClockSettings {
    let fps = if fps.is_finite() && fps > 0.0 {
        fps.min(1000.0)
    } else {
        60.0
    };
    ClockSettings {
        step_hz: fps,
        max_substeps: (fps * MAX_FRAME_DT).ceil().max(1.0) as u32,
        max_frame_dt: MAX_FRAME_DT,
        time_scale: 1.0,
    }
}
