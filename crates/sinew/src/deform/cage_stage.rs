//! The cage stage of the vertex pipeline: a [`CageDeformer`] moves bound mesh vertices by
//! mean value (or harmonic) coordinates of a cage whose vertices are driven by the mesh's
//! own control vertices, by bones, or by the caller (animation, deform keys, parameters).
//!
//! Order (architecture step 8): deform offsets, then skinning (both inside
//! [`compute_world_vertices`](super::compute_world_vertices)), then the cages, in the order
//! given to [`apply_cages`]. Deformers nest: a cage driven by mesh vertices reads them
//! after every earlier cage has moved them, so a child cage whose control vertices lie in a
//! parent cage's region follows the parent. Two modes:
//! - [`CageMode::Replace`]: `x' = sum_j lambda_j c'_j`, the classic cage deformation; the
//!   bound vertices follow the cage only (their own offsets and skinning are superseded,
//!   while the cage's control vertices carry theirs);
//! - [`CageMode::Offset`]: `x' = x + sum_j lambda_j (c'_j - c_j)`, the cage's motion from its
//!   bind pose added to whatever earlier stages produced (for a cage driven independently
//!   of the skinning, e.g. by parameters).
//!
//! Every buffer is allocated in [`CageDeformer::new`]; applying allocates nothing.
//! Verified by the unit tests below on a small hand-built rig (weighted mesh, deform
//! offsets, two bones): values computed by hand for each source, mode and for nesting.

use crate::cage::{Cage, CageBinding, CageError, GridBinding, bind_mvc};
use crate::ids::BoneId;
use crate::math::{Vec2, WorldTransform};

/// What drives a cage's vertices each frame.
///
/// Owner: the cage stage (after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub enum CageSource {
    /// Vertices of the deformed mesh itself (the artist's control points): indices into
    /// the world vertex buffer, read after offsets, skinning and earlier cages.
    MeshVertices(Vec<u32>),
    /// Skinned to bones: cage vertex `j` has influences `offsets[j]..offsets[j + 1]` into
    /// `bones` and `values` (bone-space x, y and weight).
    Bones {
        /// Influence ranges, one more than the cage's vertex count.
        offsets: Vec<u32>,
        /// Bone of each influence.
        bones: Vec<BoneId>,
        /// Bone-space position and weight of each influence.
        values: Vec<[f64; 3]>,
    },
    /// Written by the caller before each apply through [`CageDeformer::cage_mut`]
    /// (keys, parameters); starts at the bind pose.
    External,
}

/// How the cage's result combines with the incoming vertices.
///
/// Owner: the cage stage (after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CageMode {
    /// The bound vertices become the weighted sum of the cage's vertices.
    Replace,
    /// The cage's displacement from its bind pose is added to the bound vertices.
    Offset,
}

/// The weights a [`CageDeformer`] deforms with.
///
/// Owner: the cage stage (after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub enum CageWeights {
    /// A dense row per vertex ([`bind_mvc`], harmonic coordinates, a loaded file).
    Dense(CageBinding),
    /// Interpolated from grid nodes ([`GridBinding`]): a few nodes carry dense rows, each
    /// vertex four weights over them; within a stated error of dense, and faster on large
    /// meshes.
    Grid(GridBinding),
}

impl CageWeights {
    fn counts(&self) -> (usize, usize) {
        match self {
            CageWeights::Dense(b) => (b.point_count(), b.cage_vertex_count()),
            CageWeights::Grid(g) => (g.point_count(), g.cage_vertex_count()),
        }
    }

    fn scratch_len(&self) -> usize {
        match self {
            CageWeights::Dense(_) => 0,
            CageWeights::Grid(g) => g.scratch_len(),
        }
    }

    fn deform(&self, cage: &[f32], nodes: &mut [f32], out: &mut [f32]) -> Result<(), CageError> {
        match self {
            CageWeights::Dense(b) => b.deform(cage, out),
            CageWeights::Grid(g) => g.deform(cage, nodes, out),
        }
    }
}

/// A bound cage deforming some vertices of one mesh.
///
/// Owner: the cage stage (after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone)]
pub struct CageDeformer {
    weights: CageWeights,
    /// The grid nodes' deformed positions (empty for dense weights).
    nodes: Vec<f32>,
    targets: Vec<u32>,
    max_target: usize,
    source: CageSource,
    mode: CageMode,
    rest_cage: Vec<f32>,
    points: Vec<f32>,
    /// What the host wrote for a [`CageSource::External`] cage (starts at the bind pose).
    host_points: Vec<f32>,
    /// Bind-frame deltas added to the driven cage points ([`CageDeformer::point_offsets_mut`]).
    offsets: Vec<f32>,
    /// Whether `offsets` are added (off until first asked for, so an unkeyed cage's
    /// arithmetic is unchanged, signed zeros included).
    offsets_on: bool,
    /// One past the last cage vertex of each loop (the cage's loops, in order).
    loop_ends: Vec<u32>,
    delta: Vec<f32>,
    out: Vec<f32>,
}

impl CageDeformer {
    /// Binds the mesh vertices `targets`, at bind-space positions `bind_points`, to `cage`
    /// (bind space) with mean value coordinates.
    pub fn new(
        cage: &Cage,
        bind_points: &[[f64; 2]],
        targets: Vec<u32>,
        source: CageSource,
        mode: CageMode,
    ) -> Result<CageDeformer, CageError> {
        let binding = bind_mvc(cage, bind_points)?;
        CageDeformer::with_binding(binding, cage, targets, source, mode)
    }

    /// A deformer from weights bound elsewhere (harmonic coordinates, a loaded file).
    pub fn with_binding(
        binding: CageBinding,
        cage: &Cage,
        targets: Vec<u32>,
        source: CageSource,
        mode: CageMode,
    ) -> Result<CageDeformer, CageError> {
        CageDeformer::with_weights(CageWeights::Dense(binding), cage, targets, source, mode)
    }

    /// A deformer from dense or grid-interpolated weights, one point per target.
    ///
    /// ```
    /// use sinew::cage::{Cage, GridBinding, GridOptions};
    /// use sinew::deform::cage_stage::{CageDeformer, CageMode, CageSource, CageWeights, apply_cage};
    ///
    /// // A square cage driven by the caller, and 400 mesh vertices inside it.
    /// let cage = Cage::from_loops(&[[[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]])?;
    /// let points: Vec<[f64; 2]> =
    ///     (0..400).map(|k| [1.0 + f64::from(k % 20) * 0.4, 1.0 + f64::from(k / 20) * 0.4]).collect();
    /// let (grid, _) = GridBinding::bind(&cage, &points, &GridOptions::for_error(1e-2, 1.0))?;
    /// let targets = (0..400).collect();
    /// let weights = CageWeights::Grid(grid);
    /// let mut def =
    ///     CageDeformer::with_weights(weights, &cage, targets, CageSource::External, CageMode::Replace)?;
    ///
    /// // Move the whole cage by (5, 0): every bound vertex follows.
    /// for (k, v) in def.cage_mut().iter_mut().enumerate() {
    ///     if k % 2 == 0 {
    ///         *v += 5.0;
    ///     }
    /// }
    /// let mut vertices: Vec<f32> = points.iter().flat_map(|p| [p[0] as f32, p[1] as f32]).collect();
    /// apply_cage(&mut def, &[], &mut vertices)?;
    /// assert!((vertices[0] - 6.0).abs() < 1e-4 && (vertices[1] - 1.0).abs() < 1e-4);
    /// # Ok::<(), sinew::cage::CageError>(())
    /// ```
    pub fn with_weights(
        weights: CageWeights,
        cage: &Cage,
        targets: Vec<u32>,
        source: CageSource,
        mode: CageMode,
    ) -> Result<CageDeformer, CageError> {
        let n = cage.vertex_count();
        let (points, cage_vertices) = weights.counts();
        if cage_vertices != n || points != targets.len() {
            return Err(CageError::SizeMismatch {
                what: "cage deformer binding (targets x cage vertices)",
                expected: targets.len() * n,
                got: points * cage_vertices,
            });
        }
        let driven = match &source {
            CageSource::MeshVertices(v) => v.len(),
            CageSource::Bones {
                offsets,
                bones,
                values,
            } => {
                if bones.len() != values.len()
                    || offsets.first() != Some(&0)
                    || offsets.windows(2).any(|w| w[0] > w[1])
                    || offsets.last().map(|&e| e as usize) != Some(bones.len())
                {
                    return Err(CageError::InvalidParameter(
                        "bone-driven cage: offsets must rise from 0 to the influence count",
                    ));
                }
                offsets.len() - 1
            }
            CageSource::External => n,
        };
        if driven != n {
            return Err(CageError::SizeMismatch {
                what: "cage source vertices",
                expected: n,
                got: driven,
            });
        }
        let rest_cage: Vec<f32> = cage
            .points()
            .iter()
            .flat_map(|p| [p[0] as f32, p[1] as f32])
            .collect();
        let max_target = targets.iter().map(|&t| t as usize).max().unwrap_or(0);
        let mut max_read = 0;
        if let CageSource::MeshVertices(v) = &source {
            max_read = v.iter().map(|&t| t as usize).max().unwrap_or(0);
        }
        let loop_ends = (0..cage.loop_count())
            .map(|l| cage.loop_range(l).end as u32)
            .collect();
        Ok(CageDeformer {
            loop_ends,
            out: vec![0.0; 2 * targets.len()],
            delta: vec![0.0; 2 * n],
            points: rest_cage.clone(),
            host_points: rest_cage.clone(),
            offsets: vec![0.0; 2 * n],
            offsets_on: false,
            rest_cage,
            nodes: vec![0.0; weights.scratch_len()],
            weights,
            max_target: max_target.max(max_read),
            targets,
            source,
            mode,
        })
    }

    /// The points the host gives a [`CageSource::External`] cage (x, y pairs, bind
    /// frame; they start at the bind pose and keep what was written): write them before
    /// each apply. Unused by mesh- and bone-driven cages.
    pub fn cage_mut(&mut self) -> &mut [f32] {
        &mut self.host_points
    }

    /// The current cage (x, y pairs): the bind pose until the first apply, then what its
    /// source drove it to plus the point offsets (world units for mesh- and bone-driven
    /// cages).
    pub fn cage(&self) -> &[f32] {
        &self.points
    }

    /// The cage's points at bind time (x, y pairs, bind frame).
    pub fn rest_cage(&self) -> &[f32] {
        &self.rest_cage
    }

    /// Deltas (x, y pairs, bind frame) added to the cage's points after its source placed
    /// them, at every apply from now on: animation keys on a cage write these each frame.
    /// They add in the bind frame: on a bone-driven cage they move with its points but do
    /// not turn with its bones. Zero until written.
    pub fn point_offsets_mut(&mut self) -> &mut [f32] {
        self.offsets_on = true;
        &mut self.offsets
    }

    /// One past the last vertex of each of the cage's loops, in the [`Cage`]'s loop order,
    /// to draw or walk the loops of [`CageDeformer::cage`].
    pub fn loop_ends(&self) -> &[u32] {
        &self.loop_ends
    }

    /// The bound weights.
    pub fn weights(&self) -> &CageWeights {
        &self.weights
    }

    /// How many world vertices the mesh must have (one past the largest vertex the deformer
    /// reads or moves).
    pub fn vertices_needed(&self) -> usize {
        if self.targets.is_empty() && !matches!(self.source, CageSource::MeshVertices(_)) {
            0
        } else {
            self.max_target + 1
        }
    }

    /// The mesh vertices this deformer moves.
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }
}

/// Applies one deformer to world vertices (x, y pairs, as written by
/// `compute_world_vertices`), in place. `world` gives bone transforms for bone-driven cages.
pub fn apply_cage(
    def: &mut CageDeformer,
    world: &[WorldTransform],
    vertices: &mut [f32],
) -> Result<(), CageError> {
    if 2 * def.max_target + 2 > vertices.len() && !def.targets.is_empty() {
        return Err(CageError::SizeMismatch {
            what: "world vertices for the cage deformer",
            expected: 2 * def.max_target + 2,
            got: vertices.len(),
        });
    }
    match &def.source {
        CageSource::MeshVertices(ids) => {
            for (c, &i) in def.points.chunks_exact_mut(2).zip(ids) {
                let i = 2 * i as usize;
                c.copy_from_slice(&vertices[i..i + 2]);
            }
        }
        CageSource::Bones {
            offsets,
            bones,
            values,
        } => {
            for (j, c) in def.points.chunks_exact_mut(2).enumerate() {
                let (a, b) = (offsets[j] as usize, offsets[j + 1] as usize);
                let (mut x, mut y) = (0.0, 0.0);
                for (bone, v) in bones[a..b].iter().zip(&values[a..b]) {
                    let m = world.get(bone.index()).ok_or(CageError::IndexOutOfRange {
                        index: u32::from(bone.0),
                        len: world.len(),
                    })?;
                    let w = m.apply(Vec2::new(v[0], v[1]));
                    x += w.x * v[2];
                    y += w.y * v[2];
                }
                c[0] = x as f32;
                c[1] = y as f32;
            }
        }
        CageSource::External => def.points.copy_from_slice(&def.host_points),
    }
    if def.offsets_on {
        for (c, d) in def.points.iter_mut().zip(&def.offsets) {
            *c += d;
        }
    }
    match def.mode {
        CageMode::Replace => {
            def.weights
                .deform(&def.points, &mut def.nodes, &mut def.out)?;
            for (p, &t) in def.out.chunks_exact(2).zip(&def.targets) {
                let t = 2 * t as usize;
                vertices[t..t + 2].copy_from_slice(p);
            }
        }
        CageMode::Offset => {
            for ((d, c), r) in def.delta.iter_mut().zip(&def.points).zip(&def.rest_cage) {
                *d = c - r;
            }
            def.weights
                .deform(&def.delta, &mut def.nodes, &mut def.out)?;
            for (p, &t) in def.out.chunks_exact(2).zip(&def.targets) {
                let t = 2 * t as usize;
                vertices[t] += p[0];
                vertices[t + 1] += p[1];
            }
        }
    }
    Ok(())
}

/// Applies deformers in order (parents before the children they drive).
pub fn apply_cages(
    defs: &mut [CageDeformer],
    world: &[WorldTransform],
    vertices: &mut [f32],
) -> Result<(), CageError> {
    for d in defs {
        apply_cage(d, world, vertices)?;
    }
    Ok(())
}

#[cfg(test)]
#[path = "cage_stage_tests.rs"]
mod tests;
