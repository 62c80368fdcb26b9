//! Vertices: deform offsets, skinning and world vertices of attachments.
//!
//! Layer: stage (step 9, world vertices; the cage stage). Imports data and the `cage`
//! library, no other stage.

#[cfg(target_arch = "x86_64")]
mod affine_avx;
#[cfg(target_arch = "x86_64")]
mod affine_fma;
pub mod cage_stage;
pub mod shapes;
#[cfg(target_arch = "x86_64")]
mod skin_avx;
pub(crate) mod skin_lanes;
pub mod vertices;

#[cfg(test)]
pub(crate) mod testing;

pub use vertices::{
    compute_world_vertices, compute_world_vertices_f64, point_world, sequence_region_index,
    world_vertex_count,
};
