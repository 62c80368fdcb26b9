//! Deformers: nestable maps that move the mesh vertices of their child slots after the
//! parameter stage (issue 6 item 3; Live2D rotation and warp deformers, Inochi2D MeshGroups).
//!
//! A [`DeformerSet`] is built once from [`RawDeformers`] (by [`build::build_deformers`], called
//! from the parameter builder) and hangs off the rig's [`crate::params::ParamSet`]. Every
//! deformer lives on a bone (its space is that bone's), may have a parent deformer, and moves
//! child slots (unweighted meshes) and child deformers. Three kinds:
//!
//! - **Rotation** `{pivot, angle, scale}`: `q -> pivot + scale · R(angle) · (q - pivot)`.
//! - **Warp**: a lattice of `(cols + 1) x (rows + 1)` control points over a regular rest grid;
//!   a point maps bilinearly from its rest cell to the cell's current corners. Points outside
//!   the rest grid extrapolate from the nearest edge cell (the bilinear formula with `u, v`
//!   outside 0..1): continuous, and exact for affine lattice motions. Because the rest grid is
//!   regular, a point's cell and `(u, v)` cost one division per axis, so rotation and warp
//!   children are mapped where they currently are (their own offsets included, as in Live2D)
//!   instead of through a stored binding.
//! - **Mesh** (Inochi2D MeshGroup, static mode): a control slot whose mesh triangles move the
//!   children piecewise-affinely. Child vertices are bound once, at build, to the rest
//!   triangle holding them (barycentric coordinates; exact point-in-triangle test with a
//!   tolerance); each frame the displacement `deformed - rest` of that triangle is added to the
//!   vertex, converted to the child's space, so the child's own deform bindings still add.
//!   Vertices outside every triangle are left unchanged, as the reference does. The
//!   reference looks each triangle up every frame from the current group-to-child transform;
//!   binding in the setup pose gives the same result unless a child moves relative to its
//!   group (then it keeps its setup triangle and weights).
//!
//! Nesting: deformers run parent first. A parent moves its children's control geometry: a
//! child warp's lattice points are mapped exactly; a child rotation's pivot is mapped exactly
//! and its rotation is composed with the parent's local linear part (Jacobian) at the pivot,
//! so the composition is exact wherever the parent is affine around the rotated children;
//! elsewhere the children stay an affine (unbent) image, close to Cubism's rotation deformer
//! under a warp. A child Mesh deformer's control
//! slot is a child slot of the parent. Rotation and warp state (angle, scale, pivot, lattice
//! offsets) is driven by [`DeformerBinding`]s: keyform grids over parameters evaluated with
//! the shared grid code ([`crate::params::grid`]), combined as Inochi2D combines bindings
//! (angle, pivot and lattice offsets add; scale multiplies).
//!
//! The stage ([`apply::apply_deformers`]) runs at the end of
//! [`crate::params::update_params`], after world transforms; it allocates nothing. Verified by
//! the unit tests in `tests.rs` (closed-form rotation, affine reproduction by warps and meshes,
//! rotation nested in a warp against the hand composition, parameter-driven state) and by
//! `sinew-formats/tests/inochi2d_meshgroup.rs` (the MeshGroup fixture by hand, no allocation).

pub mod apply;
pub mod build;
mod geom;

#[cfg(test)]
mod tests;

pub use apply::apply_deformers;
pub use build::build_deformers;

use crate::ids::{BoneId, SlotId};
use crate::params::GridAxis;
use crate::params::grid::Interp;
use crate::params::raw::RawAxis;

/// A deformer's index in [`DeformerSet::deformers`].
///
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DeformerId(pub u16);

impl DeformerId {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A deformer kind in authoring form (positions in the deformer bone's space).
///
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
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
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
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
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
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

/// A deformer binding in authoring form (a keyform grid like [`crate::params::raw::RawBinding`]).
///
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
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
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawDeformers {
    /// Deformers (any order; parents are resolved by name).
    pub deformers: Vec<RawDeformer>,
    /// Bindings driving them.
    pub bindings: Vec<RawDeformerBinding>,
}

/// A built deformer's kind and rest data.
///
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub enum DeformerKind {
    /// Rotation about a pivot.
    Rotation {
        /// Setup pivot.
        pivot: [f64; 2],
        /// Setup angle, degrees.
        angle: f64,
        /// Setup scale.
        scale: f64,
    },
    /// A lattice over a regular rest grid.
    Warp {
        /// Rest origin.
        origin: [f64; 2],
        /// Rest cell size.
        cell: [f64; 2],
        /// Cells across.
        cols: u16,
        /// Cells down.
        rows: u16,
        /// First float of this lattice in [`DeformerState::lattice`].
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
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct MeshBind {
    /// Per vertex: triangle index, `u32::MAX` for a vertex outside every triangle.
    pub triangle: Vec<u32>,
    /// Per vertex: three weights.
    pub weights: Vec<[f64; 3]>,
}

/// A built deformer.
///
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
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
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
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
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
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

/// A rotation's current effective map in its bone's space: `q -> pivot_out + jac · scale ·
/// R(angle) · (q - pivot)` (`jac` is the ancestors' linear part at the pivot).
///
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RotationFrame {
    /// Current pivot (setup plus offsets), before the ancestors.
    pub pivot: [f64; 2],
    /// Where the ancestors put the pivot.
    pub pivot_out: [f64; 2],
    /// The own linear part `scale · R(angle)`, row-major `[a, b, c, d]`.
    pub own: [f64; 4],
    /// The ancestors' linear part at the pivot, row-major.
    pub jac: [f64; 4],
}

impl RotationFrame {
    /// The identity map.
    pub const IDENTITY: RotationFrame = RotationFrame {
        pivot: [0.0; 2],
        pivot_out: [0.0; 2],
        own: [1.0, 0.0, 0.0, 1.0],
        jac: [1.0, 0.0, 0.0, 1.0],
    };
}

/// Per-instance deformer state, allocated once by [`DeformerState::new`].
///
/// Owner: the parameter stage (deformers run at its end; step 5 of `Character::update`).
#[derive(Debug, Clone, Default)]
pub struct DeformerState {
    /// Per deformer: added angle, scale factor, added pivot x, y (reset every frame).
    pub offsets: Vec<[f64; 4]>,
    /// Per rotation deformer (indexed like deformers): its current map.
    pub frames: Vec<RotationFrame>,
    /// All warp lattices' current points (offsets accumulate here, then ancestors map them).
    pub lattice: Vec<f64>,
}

impl DeformerState {
    /// Allocates the state for a deformer set.
    pub fn new(set: &DeformerSet) -> Self {
        DeformerState {
            offsets: vec![[0.0, 1.0, 0.0, 0.0]; set.deformers.len()],
            frames: vec![RotationFrame::IDENTITY; set.deformers.len()],
            lattice: vec![0.0; set.lattice_floats as usize],
        }
    }
}
