//! A character's state of its world-space deformers
//! ([`crate::rig::world_deformers::WorldDeformers`]): the channel offsets the animations and
//! the host add, this frame's geometry and the moved vertices. Allocated once
//! ([`WorldDeformerState::new`]); the stage ([`crate::deformer::world`]) allocates nothing.

use crate::instance::params::RotationFrame;
use crate::math::WorldTransform;
use crate::rig::world_deformers::WorldDeformers;

/// Per-character state of a rig's world-space deformers.
///
/// Owner: per-character state; the world deformer stage (step 8 of `Character::update`)
/// writes it, the host writes `host`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorldDeformerState {
    /// Channel offsets from the animations playing, this frame.
    pub keyed: Vec<f64>,
    /// Channel offsets set by the host (kept until changed).
    pub host: Vec<f64>,
    /// Per deformer: a rotation's map this frame (world frame).
    pub frames: Vec<RotationFrame>,
    /// Per deformer: `M⁻¹` for a deformer riding a bone (world to its setup frame); `None`
    /// without a bone.
    pub to_rest: Vec<Option<WorldTransform>>,
    /// Per deformer: whether it acts this frame (its bone's motion is invertible).
    pub active: Vec<bool>,
    /// Every warp's current lattice points, world frame (x, y pairs).
    pub lattice: Vec<f64>,
    /// Every target's world vertices: the stage's input, then its output (x, y pairs).
    pub vertices: Vec<f32>,
    /// Per target: whether its slot shows its mesh this frame (the stage moves only those).
    pub valid: Vec<bool>,
}

impl WorldDeformerState {
    /// State sized for `d`, every offset 0.
    pub fn new(d: &WorldDeformers) -> Self {
        let n = d.deformers.len();
        WorldDeformerState {
            keyed: vec![0.0; d.channel_floats as usize],
            host: vec![0.0; d.channel_floats as usize],
            frames: vec![RotationFrame::IDENTITY; n],
            to_rest: vec![None; n],
            active: vec![true; n],
            lattice: vec![0.0; d.lattice_floats as usize],
            vertices: vec![0.0; d.vertex_floats as usize],
            valid: vec![false; d.targets.len()],
        }
    }
}
