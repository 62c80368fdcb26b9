//! Deformers: nestable maps that move the mesh vertices of their child slots after the
//! parameter stage (issue 6 item 3; Live2D rotation and warp deformers, Inochi2D MeshGroups).
//!
//! A [`DeformerSet`] is built once from [`RawDeformers`] (by [`build::build_deformers`], called
//! from the parameter builder) and hangs off the rig's [`crate::rig::params::ParamSet`]. Every
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
//! the shared grid code ([`crate::math::grid`]), combined as Inochi2D combines bindings
//! (angle, pivot and lattice offsets add; scale multiplies).
//!
//! The stage ([`apply::apply_deformers`]) runs at the end of
//! [`crate::character::update_params`], after world transforms; it allocates nothing. Verified by
//! the unit tests in `tests.rs` (closed-form rotation, affine reproduction by warps and meshes,
//! rotation nested in a warp against the hand composition, parameter-driven state) and by
//! `sinew-formats/tests/all/inochi2d_meshgroup.rs` (the MeshGroup fixture by hand, no allocation).
//!
//! Layer: stage (the end of the puppet frame). The deformer tables are rig data
//! ([`crate::rig::params::deformer`]), their state instance data
//! ([`crate::instance::params`]), both re-exported here; imports data, and the world stage
//! (`skeleton`) only to bind meshes in the setup pose at build time.

pub(crate) mod apply;
pub(crate) mod build;
mod geom;
#[cfg(feature = "rig-deformers")]
pub mod world;

#[cfg(test)]
pub(crate) mod tests;

pub use apply::apply_deformers;
pub use build::build_deformers;

pub use crate::instance::params::{DeformerState, RotationFrame};
pub use crate::raw::deformers::{
    DeformerTarget, RawDeformer, RawDeformerBinding, RawDeformerKind, RawDeformers,
};
pub use crate::rig::params::deformer::{
    Deformer, DeformerBinding, DeformerId, DeformerKind, DeformerSet, MeshBind,
};
