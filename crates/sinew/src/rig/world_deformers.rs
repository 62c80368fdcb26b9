//! Rotation and warp deformers bound to a rig's meshes in world space (declared by name in a
//! rig-extras file, `docs/EXTRAS.md`, "Deformers"; bound by
//! `crate::character::deformer_rig::DeformerRig::build`). Data only: the stage that runs them
//! is [`crate::deformer::world`], its per-character state
//! [`crate::instance::world_deformers::WorldDeformerState`].
//!
//! Every deformer's geometry is in the world frame of the rig's setup pose. A deformer that
//! rides a bone is carried by that bone's motion since the setup pose (`M = W_now ·
//! W_setup⁻¹`): its map is `M ∘ f ∘ M⁻¹`. Deformers are stored parents first.

use crate::ids::{AttachmentId, BoneId, SlotId};
use crate::math::{Vec2, WorldTransform};

/// What a world-space deformer does (its setup state; animation keys and the host add to
/// it).
///
/// Owner: the world deformer stage (step 8 of `Character::update`); built at load time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WorldDeformerKind {
    /// `q -> pivot + scale · R(angle) · (q - pivot)`.
    Rotation {
        /// Pivot, setup-pose world frame.
        pivot: Vec2,
        /// Angle, degrees (counter-clockwise in a y-up frame).
        angle: f64,
        /// Uniform scale.
        scale: f64,
    },
    /// A lattice of `(cols + 1) x (rows + 1)` points over the regular rest grid from
    /// `origin` with cells of size `cell` (row-major, y slowest); points map bilinearly from
    /// their rest cell to its current corners, outside the grid from the nearest edge cell.
    Warp {
        /// Rest corner with the smallest coordinates.
        origin: Vec2,
        /// Rest cell size (both positive).
        cell: Vec2,
        /// Cells across.
        cols: u16,
        /// Cells down.
        rows: u16,
    },
}

impl WorldDeformerKind {
    /// How many state channels it has: a rotation's angle, scale and pivot offsets (4), a
    /// warp's `[dx, dy]` per lattice point.
    pub fn channels(&self) -> usize {
        match *self {
            WorldDeformerKind::Rotation { .. } => 4,
            WorldDeformerKind::Warp { cols, rows, .. } => {
                2 * (usize::from(cols) + 1) * (usize::from(rows) + 1)
            }
        }
    }
}

/// One bound deformer.
///
/// Owner: the world deformer stage (step 8 of `Character::update`); built at load time.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldDeformer {
    /// What it does.
    pub kind: WorldDeformerKind,
    /// Its parent (an index below its own), which moves its geometry.
    pub parent: Option<u16>,
    /// The bone it rides and the inverse of that bone's world transform in the setup pose.
    pub bone: Option<(BoneId, WorldTransform)>,
    /// Where its channels start in the state's channel buffers.
    pub channels: u32,
    /// Where its lattice points start in the state's lattice buffer (warps; x, y pairs).
    pub lattice: u32,
}

/// One mesh a deformer moves: a slot while it shows `attachment`.
///
/// Owner: the world deformer stage (step 8 of `Character::update`); built at load time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldDeformerTarget {
    /// The slot.
    pub slot: SlotId,
    /// The mesh attachment.
    pub attachment: AttachmentId,
    /// The deformer that moves it.
    pub deformer: u16,
    /// Where its vertices start in the state's vertex buffer (floats).
    pub start: u32,
    /// How many floats (2 per vertex).
    pub len: u32,
}

/// A rig's world-space deformers, parents first, and the meshes they move.
///
/// Owner: the world deformer stage (step 8 of `Character::update`); built at load time.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorldDeformers {
    /// Deformers, parents first.
    pub deformers: Vec<WorldDeformer>,
    /// The meshes they move (one deformer each).
    pub targets: Vec<WorldDeformerTarget>,
    /// Channel floats of all deformers.
    pub channel_floats: u32,
    /// Lattice floats of all warps.
    pub lattice_floats: u32,
    /// Vertex floats of all targets.
    pub vertex_floats: u32,
}
