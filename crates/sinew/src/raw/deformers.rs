//! Deformers in authoring form (names, not ids), as loaders produce them.

use super::params::RawAxis;
use crate::math::grid::Interp;

/// A deformer kind in authoring form (positions in the deformer bone's space).
///
/// Owner: the loaders produce it; the builder reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum RawDeformerKind {
    /// Rotation about a pivot, degrees, with a uniform scale.
    Rotation {
        /// Pivot.
        pivot: [f64; 2],
        /// Setup angle, degrees.
        angle: f64,
        /// Setup scale.
        scale: f64,
    },
    /// A lattice of `(cols + 1) x (rows + 1)` points over the rest rectangle `origin .. origin
    /// + size`, row-major (y slowest).
    Warp {
        /// Rest corner with the smallest coordinates.
        origin: [f64; 2],
        /// Rest width and height (both positive).
        size: [f64; 2],
        /// Cells across.
        cols: u16,
        /// Cells down.
        rows: u16,
    },
    /// A slot's mesh (unweighted) whose triangles move the children (Inochi2D MeshGroup).
    Mesh {
        /// The control slot; the deformer lives on its bone.
        control: String,
    },
}

/// A deformer in authoring form.
///
/// Owner: the loaders produce it; the builder reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawDeformer {
    /// Unique name.
    pub name: String,
    /// The bone whose space it works in (ignored for [`RawDeformerKind::Mesh`], which uses
    /// its control slot's bone).
    pub bone: String,
    /// The parent deformer.
    pub parent: Option<String>,
    /// What it is.
    pub kind: RawDeformerKind,
    /// Slots it moves (names; unweighted meshes).
    pub slots: Vec<String>,
}

/// What a deformer binding drives.
///
/// Owner: the loaders produce it; the builder reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeformerTarget {
    /// A rotation deformer's angle, degrees (added).
    Angle,
    /// A rotation deformer's scale (multiplied).
    Scale,
    /// A rotation deformer's pivot x (added).
    PivotX,
    /// A rotation deformer's pivot y (added).
    PivotY,
    /// A warp deformer's lattice point offsets, x,y per point (added; stride 2 x points).
    Lattice,
}

/// A deformer binding in authoring form (a keyform grid like [`super::params::RawBinding`]).
///
/// Owner: the loaders produce it; the builder reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawDeformerBinding {
    /// Deformer name.
    pub deformer: String,
    /// Target.
    pub target: DeformerTarget,
    /// Interpolation.
    pub interp: Interp,
    /// Axes, slowest first.
    pub axes: Vec<RawAxis>,
    /// Floats per keyform (1, or 2 x lattice points for [`DeformerTarget::Lattice`]).
    pub stride: u32,
    /// Keyforms.
    pub values: Vec<f32>,
}

/// A rig's deformers in authoring form.
///
/// Owner: the loaders produce it; the builder reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawDeformers {
    /// Deformers (any order; parents are resolved by name).
    pub deformers: Vec<RawDeformer>,
    /// Bindings driving them.
    pub bindings: Vec<RawDeformerBinding>,
}
