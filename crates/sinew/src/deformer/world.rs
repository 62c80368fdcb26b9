//! The world deformer stage: rotation and warp deformers declared for any rig (Spine,
//! DragonBones), run on the world vertices of the meshes they move after skinning, example
//! shapes and cages (step 8 of `Character::update`). A function over the bound deformers
//! ([`WorldDeformers`]) and a character's state ([`WorldDeformerState`]); the facade fills
//! the targets' input vertices and the animations' channel offsets first.
//!
//! The arithmetic is the puppet stage's (`apply.rs`) with the bone spaces replaced by the
//! world frame: a deformer without a bone gives the bits the puppet stage gives for the same
//! deformer on the slots' own bone at the identity (checked by
//! `character/tests_deformer_rig.rs`). A deformer riding a bone is conjugated by that bone's
//! motion since the setup pose. Nesting as in the puppet stage: a parent maps a child warp's
//! lattice points exactly, a child rotation's pivot exactly and its linear part by the
//! parent's Jacobian at the pivot. Allocation-free.

use super::geom::Grid;
use crate::instance::params::RotationFrame;
use crate::instance::world_deformers::WorldDeformerState;
use crate::math::{Vec2, WorldTransform};
use crate::rig::world_deformers::{WorldDeformerKind, WorldDeformers};

/// Runs every deformer of `d` over `st` with this frame's world transforms: prepares each
/// deformer's geometry (parents first), then moves every valid target's vertices.
pub fn pose_world_deformers(
    d: &WorldDeformers,
    st: &mut WorldDeformerState,
    world: &[WorldTransform],
) {
    if st.frames.len() != d.deformers.len()
        || st.valid.len() != d.targets.len()
        || st.vertices.len() != d.vertex_floats as usize
        || st.keyed.len() != d.channel_floats as usize
        || st.host.len() != d.channel_floats as usize
        || st.lattice.len() != d.lattice_floats as usize
    {
        return;
    }
    for i in 0..d.deformers.len() {
        prepare(d, st, world, i);
    }
    for (k, t) in d.targets.iter().enumerate() {
        let i = usize::from(t.deformer);
        if !st.valid[k] || !st.active.get(i).copied().unwrap_or(false) {
            continue;
        }
        let (start, end) = (t.start as usize, (t.start + t.len) as usize);
        let Some(def) = d.deformers.get(i) else {
            continue;
        };
        match def.kind {
            WorldDeformerKind::Rotation { .. } => {
                let f = st.frames[i];
                let lin = f.jac * f.own;
                let t = f.pivot_out - lin.apply_linear(f.pivot);
                let a = WorldTransform {
                    x: t.x,
                    y: t.y,
                    ..lin
                };
                for p in st.vertices[start..end].chunks_exact_mut(2) {
                    let q = a.apply(Vec2::new(f64::from(p[0]), f64::from(p[1])));
                    (p[0], p[1]) = (q.x as f32, q.y as f32);
                }
            }
            WorldDeformerKind::Warp { .. } => {
                let Some((grid, ls, n)) = grid_of(d, i) else {
                    continue;
                };
                let to_rest = st.to_rest[i];
                let (pts, verts) = (&st.lattice[ls..ls + n], &mut st.vertices[start..end]);
                for p in verts.chunks_exact_mut(2) {
                    let x = Vec2::new(f64::from(p[0]), f64::from(p[1]));
                    let q = to_rest.map_or(x, |r| r.apply(x));
                    let out = grid.map(pts, q).0;
                    (p[0], p[1]) = (out.x as f32, out.y as f32);
                }
            }
        }
    }
}

/// Warp `i`'s rest grid and its lattice range in the state.
fn grid_of(d: &WorldDeformers, i: usize) -> Option<(Grid, usize, usize)> {
    let def = d.deformers.get(i)?;
    match def.kind {
        WorldDeformerKind::Warp {
            origin,
            cell,
            cols,
            rows,
        } => Some((
            Grid {
                origin,
                cell,
                cols: usize::from(cols),
                rows: usize::from(rows),
            },
            def.lattice as usize,
            def.kind.channels(),
        )),
        WorldDeformerKind::Rotation { .. } => None,
    }
}

/// Where deformer `i` (prepared) puts world point `x`, and its linear part there.
fn map_point(
    d: &WorldDeformers,
    st: &WorldDeformerState,
    i: usize,
    x: Vec2,
) -> (Vec2, WorldTransform) {
    const I: WorldTransform = WorldTransform::IDENTITY;
    if !st.active.get(i).copied().unwrap_or(false) {
        return (x, I);
    }
    match d.deformers.get(i).map(|d| d.kind) {
        Some(WorldDeformerKind::Rotation { .. }) => {
            let f = st.frames[i];
            let lin = f.jac * f.own;
            (f.pivot_out + lin.apply_linear(x - f.pivot), lin)
        }
        Some(WorldDeformerKind::Warp { .. }) => {
            let Some((grid, ls, n)) = grid_of(d, i) else {
                return (x, I);
            };
            let pts = &st.lattice[ls..ls + n];
            match st.to_rest[i] {
                None => grid.map(pts, x),
                // The lattice is in the world frame, the rest grid in the setup frame.
                Some(r) => {
                    let (p, j) = grid.map(pts, r.apply(x));
                    (p, j * r.linear_part())
                }
            }
        }
        None => (x, I),
    }
}

/// Sets deformer `i`'s geometry this frame: setup + animation + host offsets, carried by
/// its bone, then moved by its parent.
fn prepare(d: &WorldDeformers, st: &mut WorldDeformerState, world: &[WorldTransform], i: usize) {
    let def = &d.deformers[i];
    let ch = def.channels as usize;
    // The bone's motion since the setup pose, and its inverse.
    let motion = match def.bone {
        None => Some(None),
        Some((b, setup_inverse)) => world.get(b.index()).and_then(|w| {
            let m = *w * setup_inverse;
            m.try_inverse().map(|r| Some((m, r)))
        }),
    };
    let Some(motion) = motion else {
        // A bone collapsed to a point: the deformer does nothing this frame.
        st.active[i] = false;
        return;
    };
    st.active[i] = true;
    st.to_rest[i] = motion.map(|(_, r)| r);
    let parent = def.parent.map(usize::from).filter(|&p| p < i);
    match def.kind {
        WorldDeformerKind::Rotation {
            pivot,
            angle,
            scale,
        } => {
            let o = |k: usize| st.keyed[ch + k] + st.host[ch + k];
            let p = Vec2::new(pivot.x + o(2), pivot.y + o(3));
            let (sin, cos) = (angle + o(0)).to_radians().sin_cos();
            let s = scale + o(1);
            let mut f = RotationFrame {
                pivot: p,
                pivot_out: p,
                own: WorldTransform::linear(s * cos, -s * sin, s * sin, s * cos),
                jac: WorldTransform::IDENTITY,
            };
            if let Some((m, r)) = motion {
                f.pivot = m.apply(p);
                f.pivot_out = f.pivot;
                f.own = m.linear_part() * (f.own * r.linear_part());
            }
            if let Some(pi) = parent {
                let (q, j) = map_point(d, st, pi, f.pivot);
                f.pivot_out = q;
                f.jac = j;
            }
            st.frames[i] = f;
        }
        WorldDeformerKind::Warp {
            origin, cell, cols, ..
        } => {
            let w = usize::from(cols) + 1;
            let (ls, n) = (def.lattice as usize, def.kind.channels());
            for k in 0..n / 2 {
                // The puppet stage's rest point, then its offsets, in the same order.
                let mut p = Vec2::new(
                    origin.x + cell.x * (k % w) as f64,
                    origin.y + cell.y * (k / w) as f64,
                );
                p.x += st.keyed[ch + 2 * k];
                p.y += st.keyed[ch + 2 * k + 1];
                p.x += st.host[ch + 2 * k];
                p.y += st.host[ch + 2 * k + 1];
                if let Some((m, _)) = motion {
                    p = m.apply(p);
                }
                if let Some(pi) = parent {
                    p = map_point(d, st, pi, p).0;
                }
                st.lattice[ls + 2 * k] = p.x;
                st.lattice[ls + 2 * k + 1] = p.y;
            }
        }
    }
}
