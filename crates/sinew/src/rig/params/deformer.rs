//! Built deformers (rotation, warp, mesh) and the bindings driving them. Data only; the
//! deformer stage (`deformer`) applies them.

use super::GridAxis;
use crate::ids::{BoneId, SlotId};
use crate::math::Vec2;
use crate::math::grid::Interp;
use crate::raw::deformers::DeformerTarget;

/// A deformer's index in [`DeformerSet::deformers`].
///
/// Owner: the builder writes it; the deformer stage (the end of step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DeformerId(pub u16);

impl DeformerId {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A built deformer's kind and rest data.
///
/// Owner: the builder writes it; the deformer stage (the end of step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum DeformerKind {
    /// Rotation about a pivot.
    Rotation {
        /// Setup pivot.
        pivot: Vec2,
        /// Setup angle, degrees.
        angle: f64,
        /// Setup scale.
        scale: f64,
    },
    /// A lattice over a regular rest grid.
    Warp {
        /// Rest origin.
        origin: Vec2,
        /// Rest cell size.
        cell: Vec2,
        /// Cells across.
        cols: u16,
        /// Cells down.
        rows: u16,
        /// First float of this lattice in [`crate::instance::params::DeformerState::lattice`].
        start: u32,
    },
    /// A control mesh.
    Mesh {
        /// The control slot.
        control: SlotId,
        /// Its rest vertices, x,y (the setup mesh).
        rest: Vec<f32>,
        /// Its triangles.
        triangles: Vec<[u16; 3]>,
    },
}

/// A child slot's binding to a Mesh deformer: per vertex, its rest triangle and barycentric
/// weights (f64: derived pose math, kept exact so affine motions reproduce to 1e-9).
///
/// Owner: the builder writes it; the deformer stage (the end of step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshBind {
    /// Per vertex: triangle index, `u32::MAX` for a vertex outside every triangle.
    pub triangle: Vec<u32>,
    /// Per vertex: three weights.
    pub weights: Vec<[f64; 3]>,
}

/// A built deformer.
///
/// Owner: the builder writes it; the deformer stage (the end of step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Deformer {
    /// Name.
    pub name: String,
    /// The bone whose space it works in.
    pub bone: BoneId,
    /// Parent deformer (earlier in [`DeformerSet::deformers`]).
    pub parent: Option<DeformerId>,
    /// Kind and rest data.
    pub kind: DeformerKind,
    /// Child slots.
    pub slots: Vec<SlotId>,
    /// Mesh deformers: per child slot, the vertex bindings (empty for other kinds).
    pub binds: Vec<MeshBind>,
}

/// A built deformer binding.
///
/// Owner: the builder writes it; the deformer stage (the end of step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct DeformerBinding {
    /// The deformer.
    pub deformer: DeformerId,
    /// What it drives.
    pub target: DeformerTarget,
    /// Interpolation.
    pub interp: Interp,
    /// Axes (1..=[`crate::params::MAX_AXES`]).
    pub axes: Vec<GridAxis>,
    /// Keys per axis.
    pub dims: Vec<u32>,
    /// Floats per keyform.
    pub stride: u32,
    /// Keyforms.
    pub values: Vec<f32>,
}

/// The deformers of a rig (empty for rigs without any).
///
/// Owner: the builder writes it; the deformer stage (the end of step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeformerSet {
    /// Deformers, parents before children.
    pub deformers: Vec<Deformer>,
    /// Bindings.
    pub bindings: Vec<DeformerBinding>,
    /// Child slots no parameter binding resets: the stage puts them back to setup first.
    pub reset_slots: Vec<SlotId>,
    /// Floats of all warp lattices together.
    pub lattice_floats: u32,
}

impl DeformerSet {
    /// Whether there are no deformers.
    pub fn is_empty(&self) -> bool {
        self.deformers.is_empty()
    }

    /// Finds a deformer by name.
    pub fn find(&self, name: &str) -> Option<DeformerId> {
        self.deformers
            .iter()
            .position(|d| d.name == name)
            .map(|i| DeformerId(i as u16))
    }
}
