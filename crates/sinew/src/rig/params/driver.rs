//! Built parameter drivers (Inochi2D SimplePhysics): a pendulum anchored at a bone writing
//! a parameter. Data only; the parameter physics (`physics::driver`) steps them.

use crate::ids::{BoneId, ParamId};
use crate::math::Vec2;
use crate::raw::params::{DriverMap, PendulumModel};
use crate::sim::clock::ClockSettings;
use crate::sim::pendulum::{PendulumKind, PendulumMap, PendulumParams};

/// A built driver.
///
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct DriverData {
    /// Name.
    pub name: String,
    /// Anchor bone.
    pub bone: BoneId,
    /// Output parameter.
    pub param: ParamId,
    /// Model.
    pub model: PendulumModel,
    /// Mapping.
    pub map: DriverMap,
    /// Gravity, rig units/s².
    pub gravity: f64,
    /// Length, rig units.
    pub length: f64,
    /// Frequency, Hz.
    pub frequency: f64,
    /// Angle damping ratio.
    pub angle_damping: f64,
    /// Length damping ratio.
    pub length_damping: f64,
    /// Output scale.
    pub output_scale: [f64; 2],
    /// Anchor at the local translation.
    pub local_only: bool,
}

/// Gravity direction in rig space (y-down puppets).
pub(crate) const DOWN: Vec2 = Vec2 { x: 0.0, y: 1.0 };

impl DriverData {
    /// The pendulum kind of this driver's model.
    pub(crate) fn pendulum_kind(&self) -> PendulumKind {
        match self.model {
            PendulumModel::Rigid => PendulumKind::Rigid,
            PendulumModel::Spring => PendulumKind::Spring,
        }
    }

    /// Pendulum parameters with binding offsets applied (length added, gravity multiplied).
    pub(crate) fn pendulum_params(&self, length_add: f64, gravity_mul: f64) -> PendulumParams {
        PendulumParams {
            length: self.length + length_add,
            gravity: self.gravity * gravity_mul,
            angle_damping: self.angle_damping,
            length_damping: self.length_damping,
            frequency: self.frequency,
            output_scale: [1.0, 1.0],
            map: PendulumMap::AngleLength,
        }
    }
}

/// The physics clock settings: 100 steps/s, at most 25 per frame (a 0.25 s frame).
pub fn clock_settings() -> ClockSettings {
    ClockSettings {
        step_hz: 100.0,
        max_substeps: 25,
        max_frame_dt: 0.25,
        time_scale: 1.0,
    }
}
