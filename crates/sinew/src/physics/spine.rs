//! Spine 4.2 physics constraints.

use crate::rig::{PhysicsData, PhysicsParams};

/// Per-instance state of one physics constraint.
#[derive(Debug, Clone)]
pub struct PhysicsState {
    /// Animatable parameters.
    pub params: PhysicsParams,
}

impl PhysicsState {
    /// State for a constraint in its setup pose.
    pub fn new(data: &PhysicsData) -> Self {
        PhysicsState { params: data.setup }
    }
}
