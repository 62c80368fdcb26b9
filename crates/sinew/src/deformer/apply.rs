//! The deformer stage: after parameters and world transforms, deformers (parents first) take
//! their current control geometry, have their ancestors move it, then move their child slots'
//! deform buffers (absolute bind-space vertices, as the parameter stage leaves them).
//! Allocation-free. Verified by `tests.rs` and `sinew-formats/tests/all/inochi2d_meshgroup.rs`.

use super::geom::{Grid, barycentric, relative};
use super::{DeformerKind, DeformerSet, DeformerState, DeformerTarget, RotationFrame};
use crate::instance::params::ParamState;
use crate::instance::{Instance, SlotState};
use crate::math::grid::{AxisWeights, MAX_AXES, accumulate_grid, axis_weights, eval_scalar};
use crate::math::{Vec2, WorldTransform};
use crate::rig::params::ParamSet;
use crate::rig::{AttachmentKind, Rig};

/// Runs every deformer of the rig over the instance. Call after the parameter stage and world
/// transforms ([`crate::character::update_params`] does); a no-op for rigs without deformers.
pub fn apply_deformers(rig: &Rig, inst: &mut Instance) {
    if !inst.is_for(rig) {
        return;
    }
    let set = &rig.params.deformers;
    if set.is_empty() {
        return;
    }
    reset_slots(rig, set, &mut inst.slots);
    accumulate(&rig.params, &mut inst.params);
    for di in 0..set.deformers.len() {
        prepare(set, inst, di);
        map_slots(rig, set, inst, di);
    }
}

/// Puts child slots no parameter binding resets back to their setup vertices.
fn reset_slots(rig: &Rig, set: &DeformerSet, slots: &mut SlotState) {
    for &s in &set.reset_slots {
        let i = s.index();
        slots.deform_len[i] = 0;
        let Some(att) = slots.attachment[i] else {
            continue;
        };
        let AttachmentKind::Mesh(m) = &rig.attachments[att.index()].kind else {
            continue;
        };
        if m.vertices.is_weighted() {
            continue;
        }
        let n = m.vertices.values.len();
        let start = slots.deform_start[i] as usize;
        if n > slots.deform_capacity(i) {
            continue;
        }
        let Some(buf) = slots.deform.get_mut(start..start + n) else {
            continue;
        };
        for (d, &v) in buf.iter_mut().zip(&m.vertices.values) {
            *d = f64::from(v);
        }
        slots.deform_len[i] = n as u32;
    }
}

/// Resets the deformers' state to setup and adds every binding.
fn accumulate(params: &ParamSet, st: &mut ParamState) {
    let set = &params.deformers;
    let ds: &mut DeformerState = &mut st.deformers;
    ds.offsets.fill([0.0, 1.0, 0.0, 0.0]);
    for d in &set.deformers {
        if let DeformerKind::Warp {
            origin,
            cell,
            cols,
            rows,
            start,
        } = d.kind
        {
            let w = usize::from(cols) + 1;
            let n = w * (usize::from(rows) + 1);
            let start = start as usize;
            if let Some(pts) = ds.lattice.get_mut(start..start + 2 * n) {
                for (k, p) in pts.chunks_exact_mut(2).enumerate() {
                    p[0] = origin.x + cell.x * (k % w) as f64;
                    p[1] = origin.y + cell.y * (k / w) as f64;
                }
            }
        }
    }
    let mut weights = [AxisWeights::default(); MAX_AXES];
    for b in &set.bindings {
        if b.axes
            .iter()
            .any(|a| st.muted.get(a.param.index()).copied().unwrap_or(false))
        {
            continue;
        }
        let na = b.axes.len().min(MAX_AXES);
        for (w, ax) in weights.iter_mut().zip(&b.axes[..na]) {
            let pi = ax.param.index();
            let (Some(pd), Some(v)) = (params.params.get(pi), st.values.get(pi)) else {
                *w = AxisWeights::single(0);
                continue;
            };
            let c = usize::from(ax.component.min(1));
            *w = axis_weights(&ax.keys, pd.normalize(c, v[c]), b.interp);
        }
        let (axes, dims) = (&weights[..na], &b.dims[..na]);
        let di = b.deformer.index();
        match b.target {
            DeformerTarget::Lattice => {
                let Some(DeformerKind::Warp { start, .. }) = set.deformers.get(di).map(|d| &d.kind)
                else {
                    continue;
                };
                let start = *start as usize;
                if let Some(buf) = ds.lattice.get_mut(start..start + b.stride as usize) {
                    accumulate_grid(axes, dims, &b.values, 1.0, buf);
                }
            }
            target => {
                let v = eval_scalar(axes, dims, &b.values);
                if let Some(o) = ds.offsets.get_mut(di) {
                    match target {
                        DeformerTarget::Angle => o[0] += v,
                        DeformerTarget::Scale => o[1] *= v,
                        DeformerTarget::PivotX => o[2] += v,
                        DeformerTarget::PivotY => o[3] += v,
                        DeformerTarget::Lattice => {}
                    }
                }
            }
        }
    }
}

fn grid_of(kind: &DeformerKind) -> Option<(Grid, usize, usize)> {
    match *kind {
        DeformerKind::Warp {
            origin,
            cell,
            cols,
            rows,
            start,
        } => {
            let (cols, rows) = (usize::from(cols), usize::from(rows));
            let n = 2 * (cols + 1) * (rows + 1);
            Some((
                Grid {
                    origin,
                    cell,
                    cols,
                    rows,
                },
                start as usize,
                n,
            ))
        }
        _ => None,
    }
}

/// The current image of point `q` (in deformer `di`'s space) under that deformer alone, and
/// the map's linear part there. Mesh deformers leave points outside every triangle unchanged.
fn map_point(
    set: &DeformerSet,
    st: &DeformerState,
    slots: &SlotState,
    di: usize,
    q: Vec2,
) -> (Vec2, WorldTransform) {
    const I: WorldTransform = WorldTransform::IDENTITY;
    let Some(d) = set.deformers.get(di) else {
        return (q, I);
    };
    match &d.kind {
        DeformerKind::Rotation { .. } => {
            let f = st
                .frames
                .get(di)
                .copied()
                .unwrap_or(RotationFrame::IDENTITY);
            let lin = f.jac * f.own;
            (f.pivot_out + lin.apply_linear(q - f.pivot), lin)
        }
        DeformerKind::Warp { .. } => {
            let Some((grid, start, n)) = grid_of(&d.kind) else {
                return (q, I);
            };
            match st.lattice.get(start..start + n) {
                Some(pts) => grid.map(pts, q),
                None => (q, I),
            }
        }
        DeformerKind::Mesh {
            control,
            rest,
            triangles,
        } => {
            let cur = slots.deform(*control);
            let cur = if cur.len() == rest.len() {
                cur
            } else {
                &[][..]
            };
            let r = |k: u16| {
                let k = 2 * usize::from(k);
                Vec2::new(f64::from(rest[k]), f64::from(rest[k + 1]))
            };
            let c = |k: u16| {
                let k = 2 * usize::from(k);
                match cur.get(k..k + 2) {
                    Some(p) => Vec2::new(p[0], p[1]),
                    None => Vec2::new(f64::from(rest[k]), f64::from(rest[k + 1])),
                }
            };
            for t in triangles {
                let (r0, r1, r2) = (r(t[0]), r(t[1]), r(t[2]));
                let Some(w) = barycentric(q, r0, r1, r2) else {
                    continue;
                };
                let (c0, c1, c2) = (c(t[0]), c(t[1]), c(t[2]));
                let out = Vec2::new(
                    w[0] * c0.x + w[1] * c1.x + w[2] * c2.x,
                    w[0] * c0.y + w[1] * c1.y + w[2] * c2.y,
                );
                // The triangle's edge matrices (edges as columns), rest and current.
                let rm = WorldTransform::linear(r1.x - r0.x, r2.x - r0.x, r1.y - r0.y, r2.y - r0.y);
                let cm = WorldTransform::linear(c1.x - c0.x, c2.x - c0.x, c1.y - c0.y, c2.y - c0.y);
                let jac = rm.try_inverse().map_or(I, |ri| cm * ri);
                return (out, jac);
            }
            (q, I)
        }
    }
}

/// Sets deformer `di`'s current control geometry: its own state, then moved by its parent.
fn prepare(set: &DeformerSet, inst: &mut Instance, di: usize) {
    let d = &set.deformers[di];
    let parent = d.parent.map(|p| p.index());
    // From this deformer's space to its parent's, and back.
    let to_parent = parent.and_then(|p| {
        let m = relative(&inst.world, d.bone.index(), set.deformers[p].bone.index())?;
        Some((m, m.try_inverse()?))
    });
    let st = &mut inst.params.deformers;
    match &d.kind {
        DeformerKind::Rotation {
            pivot,
            angle,
            scale,
        } => {
            let o = st.offsets.get(di).copied().unwrap_or([0.0, 1.0, 0.0, 0.0]);
            let p = Vec2::new(pivot.x + o[2], pivot.y + o[3]);
            let (sin, cos) = (angle + o[0]).to_radians().sin_cos();
            let s = scale * o[1];
            let mut f = RotationFrame {
                pivot: p,
                pivot_out: p,
                own: WorldTransform::linear(s * cos, -s * sin, s * sin, s * cos),
                jac: WorldTransform::IDENTITY,
            };
            if let (Some(pi), Some((m, back))) = (parent, to_parent) {
                let (q, j) = map_point(set, st, &inst.slots, pi, m.apply(p));
                f.pivot_out = back.apply(q);
                f.jac = back.linear_part() * (j * m.linear_part());
            }
            if let Some(slot) = st.frames.get_mut(di) {
                *slot = f;
            }
        }
        DeformerKind::Warp { .. } => {
            let (Some(pi), Some((m, back)), Some((_, start, n))) =
                (parent, to_parent, grid_of(&d.kind))
            else {
                return;
            };
            for k in (start..start + n).step_by(2) {
                let Some(p) = st.lattice.get(k..k + 2).map(|s| Vec2::new(s[0], s[1])) else {
                    return;
                };
                let q = back.apply(map_point(set, st, &inst.slots, pi, m.apply(p)).0);
                st.lattice[k] = q.x;
                st.lattice[k + 1] = q.y;
            }
        }
        DeformerKind::Mesh { .. } => {}
    }
}

/// Moves deformer `di`'s child slots.
fn map_slots(rig: &Rig, set: &DeformerSet, inst: &mut Instance, di: usize) {
    let d = &set.deformers[di];
    for (si, &s) in d.slots.iter().enumerate() {
        let i = s.index();
        let Some(to_def) = slot_to_deformer(rig, &inst.world, s, d.bone) else {
            continue;
        };
        let Some(back) = to_def.try_inverse() else {
            continue;
        };
        let (start, len) = (
            inst.slots.deform_start[i] as usize,
            inst.slots.deform_len[i] as usize,
        );
        match &d.kind {
            DeformerKind::Rotation { .. } => {
                let f = inst.params.deformers.frames[di];
                let lin = f.jac * f.own;
                let t = f.pivot_out - lin.apply_linear(f.pivot);
                let own = WorldTransform {
                    x: t.x,
                    y: t.y,
                    ..lin
                };
                let a = back * (own * to_def);
                let Some(buf) = inst.slots.deform.get_mut(start..start + len) else {
                    continue;
                };
                for p in buf.chunks_exact_mut(2) {
                    let q = a.apply(Vec2::new(p[0], p[1]));
                    (p[0], p[1]) = (q.x, q.y);
                }
            }
            DeformerKind::Warp { .. } => {
                let Some((grid, ls, n)) = grid_of(&d.kind) else {
                    continue;
                };
                let (Some(pts), Some(buf)) = (
                    inst.params.deformers.lattice.get(ls..ls + n),
                    inst.slots.deform.get_mut(start..start + len),
                ) else {
                    continue;
                };
                for p in buf.chunks_exact_mut(2) {
                    let q = back.apply(grid.map(pts, to_def.apply(Vec2::new(p[0], p[1]))).0);
                    (p[0], p[1]) = (q.x, q.y);
                }
            }
            DeformerKind::Mesh {
                control,
                rest,
                triangles: tris,
            } => {
                let Some(bind) = d.binds.get(si) else {
                    continue;
                };
                let c = control.index();
                let (cs, clen) = (
                    inst.slots.deform_start[c] as usize,
                    inst.slots.deform_len[c] as usize,
                );
                // An unmoved control mesh (no deform) moves nothing; sizes must match the bind.
                if clen != rest.len() || len != 2 * bind.triangle.len() {
                    continue;
                }
                let buf = &mut inst.slots.deform;
                for (k, (&t, w)) in bind.triangle.iter().zip(&bind.weights).enumerate() {
                    let Some(tri) = tris.get(t as usize) else {
                        continue;
                    };
                    let mut delta = [0.0; 2];
                    for (&v, &wv) in tri.iter().zip(w) {
                        let v = 2 * usize::from(v);
                        for (c, dd) in delta.iter_mut().enumerate() {
                            *dd += wv * (buf[cs + v + c] - f64::from(rest[v + c]));
                        }
                    }
                    let dl = back.apply_linear(Vec2::from(delta));
                    buf[start + 2 * k] += dl.x;
                    buf[start + 2 * k + 1] += dl.y;
                }
            }
        }
    }
}

/// The map from slot `s`'s bone space to the deformer bone's space.
fn slot_to_deformer(
    rig: &Rig,
    world: &[WorldTransform],
    s: crate::ids::SlotId,
    bone: crate::ids::BoneId,
) -> Option<WorldTransform> {
    let sb = rig.slots.get(s.index())?.bone;
    relative(world, sb.index(), bone.index())
}
