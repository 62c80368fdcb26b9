//! World vertices of attachments (Spine `computeWorldVertices`): region quads, mesh,
//! bounding-box, clipping and path vertices (unweighted or skinned), point attachments and
//! the sequence frame a slot shows.
//!
//! Follows spine.md §6.6 and §7.6/§7.7, matching spine-ts 4.2: f64 arithmetic in Spine's
//! order of operations on f32 attachment data, region corners in spine-ts order (BL, UL, UR,
//! BR), and the slot's deform buffer used in place of (unweighted) or added to (weighted)
//! the setup vertices. Verified by the unit tests below (hand computations) and by
//! `sinew-formats/tests/all/vertices_setup.rs`, which compares every slot of every Spine fixture
//! with the official runtime's dump.

use crate::ids::{AttachmentId, BoneId, SlotId};
use crate::instance::Instance;
use crate::math::{SPINE_DEG_RAD, SPINE_RAD_DEG, Vec2, WorldTransform};
use crate::raw::Vertices;
use crate::rig::{AttachmentKind, Rig, VertexMath};

/// Number of world (x, y) pairs an attachment produces: 4 for a region, the vertex count
/// for mesh, bounding box, clipping and path attachments, 0 for a point (and for an id
/// that is not one of the rig's attachments).
pub fn world_vertex_count(rig: &Rig, attachment: AttachmentId) -> usize {
    let Some(att) = rig.attachments.get(attachment.index()) else {
        return 0;
    };
    match &att.kind {
        AttachmentKind::Region(_) => 4,
        AttachmentKind::Point { .. } => 0,
        AttachmentKind::Mesh(m) => m.vertices.count as usize,
        AttachmentKind::BoundingBox { vertices, .. }
        | AttachmentKind::Path(crate::rig::PathAttachment { vertices, .. })
        | AttachmentKind::Clipping { vertices, .. } => vertices.count as usize,
    }
}

/// The region a slot's current region or mesh attachment shows (Spine `Sequence.apply`):
/// an index into the attachment's `regions`. With a sequence it is the slot's sequence
/// index (-1: the sequence's setup index), clamped to the last region; without one it is 0.
/// `None` when the slot shows no region or mesh attachment, or the slot or instance is
/// not the rig's.
pub fn sequence_region_index(rig: &Rig, inst: &Instance, slot: SlotId) -> Option<usize> {
    if !inst.is_for(rig) || slot.index() >= rig.slots.len() {
        return None;
    }
    region_index(rig, inst, slot)
}

/// [`sequence_region_index`] for a slot and instance known to be the rig's (the draw stage).
pub(crate) fn region_index(rig: &Rig, inst: &Instance, slot: SlotId) -> Option<usize> {
    let att = inst.slots.attachment[slot.index()]?;
    let (sequence, regions) = match &rig.attachments[att.index()].kind {
        AttachmentKind::Region(r) => (r.sequence, r.regions.len()),
        AttachmentKind::Mesh(m) => (m.sequence, m.regions.len()),
        _ => return None,
    };
    let Some(seq) = sequence else { return Some(0) };
    let index = match inst.slots.sequence_index[slot.index()] {
        -1 => seq.setup_index as i64,
        i => i64::from(i),
    };
    let last = regions.max(1) as i64 - 1;
    Some(index.clamp(0, last) as usize)
}

/// World vertices of the slot's current attachment, as x,y pairs in `out` (f32; the math
/// is f64). Writes [`world_vertex_count`] pairs, or fewer if `out` is shorter; writes
/// nothing for points or an empty slot, or when the slot or instance is not the rig's.
pub fn compute_world_vertices(rig: &Rig, inst: &Instance, slot: SlotId, out: &mut [f32]) {
    if !inst.is_for(rig) || slot.index() >= rig.slots.len() {
        return;
    }
    world_vertices_checked(rig, inst, slot, out);
}

/// [`compute_world_vertices`], returning `true` when every value written was checked to be
/// finite on the way (so the facade's guard can skip its own pass), `false` when unchecked.
pub(crate) fn world_vertices_checked(
    rig: &Rig,
    inst: &Instance,
    slot: SlotId,
    out: &mut [f32],
) -> bool {
    let Some(att) = inst.slots.attachment[slot.index()] else {
        return true;
    };
    kind_world_vertices(rig, inst, slot, &rig.attachments[att.index()].kind, out)
}

/// [`world_vertices_checked`] for the slot's current attachment `kind`, already looked up by
/// the caller. Always inlined: it runs once a slot a frame, and its callers have the slot's
/// data at hand already.
#[inline(always)]
pub(crate) fn kind_world_vertices(
    rig: &Rig,
    inst: &Instance,
    slot: SlotId,
    kind: &AttachmentKind,
    out: &mut [f32],
) -> bool {
    let bone = rig.slots[slot.index()].bone;
    match kind {
        AttachmentKind::Region(r) => region_corners(rig, inst, slot, bone, r, out),
        AttachmentKind::Point { .. } => true,
        kind => {
            let vertices = match kind {
                AttachmentKind::Mesh(m) => &m.vertices,
                AttachmentKind::BoundingBox { vertices, .. }
                | AttachmentKind::Path(crate::rig::PathAttachment { vertices, .. })
                | AttachmentKind::Clipping { vertices, .. } => vertices,
                _ => return true,
            };
            let n = (vertices.count as usize * 2).min(out.len() & !1);
            let deform = inst.slots.deform(slot);
            world_vertices_into(
                &inst.world,
                bone,
                vertices,
                deform,
                rig.vertex_math,
                &mut out[..n],
            )
        }
    }
}

/// The four world corners of a region attachment `r` on `bone` (spine-ts order); returns
/// whether they are finite.
#[inline]
fn region_corners(
    rig: &Rig,
    inst: &Instance,
    slot: SlotId,
    bone: BoneId,
    r: &crate::rig::RegionAttachment,
    out: &mut [f32],
) -> bool {
    // Without a sequence the region is the first (no second look-up of the slot).
    let index = match r.sequence {
        None => 0,
        Some(_) => sequence_region_index(rig, inst, slot).unwrap_or(0),
    };
    let Some(offsets) = r.offsets.get(index * 8..index * 8 + 8) else {
        return true;
    };
    let m = &inst.world[bone.index()];
    let mut finite = true;
    for (k, pair) in out.chunks_exact_mut(2).take(4).enumerate() {
        let (ox, oy) = (f64::from(offsets[2 * k]), f64::from(offsets[2 * k + 1]));
        pair[0] = (ox * m.a + oy * m.b + m.x) as f32;
        pair[1] = (ox * m.c + oy * m.d + m.y) as f32;
        finite &= pair[0].is_finite() & pair[1].is_finite();
    }
    finite
}

/// Spine `VertexAttachment.computeWorldVertices(slot, start, count, out, offset, stride)`
/// in f64 for the slot's current vertex attachment: `count` floats (count/2 vertices) from
/// float `start` of its vertex list, written at `out[offset]`, `stride` floats apart.
/// Does nothing when the slot shows no vertex attachment, `out` is too short, or the slot
/// or instance is not the rig's.
#[allow(clippy::too_many_arguments)]
pub fn compute_world_vertices_f64(
    rig: &Rig,
    inst: &Instance,
    slot: SlotId,
    start: usize,
    count: usize,
    out: &mut [f64],
    offset: usize,
    stride: usize,
) {
    if !inst.is_for(rig) || slot.index() >= rig.slots.len() {
        return;
    }
    world_vertices_f64(rig, inst, slot, start, count, out, offset, stride);
}

/// [`compute_world_vertices_f64`] for a slot and instance known to be the rig's (path
/// constraints).
#[allow(clippy::too_many_arguments)]
pub(crate) fn world_vertices_f64(
    rig: &Rig,
    inst: &Instance,
    slot: SlotId,
    start: usize,
    count: usize,
    out: &mut [f64],
    offset: usize,
    stride: usize,
) {
    let Some(att) = inst.slots.attachment[slot.index()] else {
        return;
    };
    let Some(vertices) = rig.attachments[att.index()].vertices() else {
        return;
    };
    let bone = rig.slots[slot.index()].bone;
    let pairs = count / 2;
    if pairs == 0 || offset + (pairs - 1) * stride + 2 > out.len() {
        return;
    }
    let deform = inst.slots.deform(slot);
    vertex_world(
        &inst.world,
        bone,
        vertices,
        deform,
        start,
        count,
        offset,
        stride,
        |i, v| out[i] = v,
    );
}

/// The core of `computeWorldVertices` for vertex data, writing each coordinate through `put`
/// (index, value). `slot_bone` places unweighted vertices; `deform` replaces unweighted
/// vertices or offsets each weighted influence when non-empty. Out-of-range data ends the
/// loop early instead of panicking (the builder has checked it).
#[allow(clippy::too_many_arguments)]
pub(crate) fn vertex_world(
    world: &[WorldTransform],
    slot_bone: BoneId,
    vertices: &Vertices,
    deform: &[f64],
    start: usize,
    count: usize,
    offset: usize,
    stride: usize,
    mut put: impl FnMut(usize, f64),
) {
    let pairs = count / 2;
    if !vertices.is_weighted() {
        let m = &world[slot_bone.index()];
        for k in 0..pairs {
            let v = start + 2 * k;
            // COMPAT(spine): for unweighted vertices the deform buffer holds absolute
            // positions (setup + delta), so it replaces the setup vertices.
            let (vx, vy) = if deform.is_empty() {
                match vertices.values.get(v..v + 2) {
                    Some(p) => (f64::from(p[0]), f64::from(p[1])),
                    None => return,
                }
            } else {
                match deform.get(v..v + 2) {
                    Some(p) => (p[0], p[1]),
                    None => return,
                }
            };
            let w = offset + k * stride;
            put(w, vx * m.a + vy * m.b + m.x);
            put(w + 1, vx * m.c + vy * m.d + m.y);
        }
        return;
    }
    let bones = &vertices.bones;
    let values = &vertices.values;
    // Skip the influences of the vertices before `start`.
    let (mut v, mut skip) = (0usize, 0usize);
    for _ in 0..start / 2 {
        let Some(&n) = bones.get(v) else { return };
        v += n as usize + 1;
        skip += n as usize;
    }
    let (mut b, mut f) = (skip * 3, skip * 2);
    for k in 0..pairs {
        let Some(&n) = bones.get(v) else { return };
        v += 1;
        let end = v + n as usize;
        let (mut wx, mut wy) = (0.0, 0.0);
        while v < end {
            let (Some(&bi), Some(p)) = (bones.get(v), values.get(b..b + 3)) else {
                return;
            };
            let Some(m) = world.get(bi as usize) else {
                return;
            };
            let (mut vx, mut vy) = (f64::from(p[0]), f64::from(p[1]));
            if !deform.is_empty() {
                let Some(d) = deform.get(f..f + 2) else {
                    return;
                };
                vx += d[0];
                vy += d[1];
            }
            let weight = f64::from(p[2]);
            wx += (vx * m.a + vy * m.b + m.x) * weight;
            wy += (vx * m.c + vy * m.d + m.y) * weight;
            v += 1;
            b += 3;
            f += 2;
        }
        let w = offset + k * stride;
        put(w, wx);
        put(w + 1, wy);
    }
}

/// The fast path of [`vertex_world`] for a whole attachment written densely as f32 pairs
/// (`start` 0, `offset` 0, `stride` 2: what rendering asks for): for [`VertexMath::SpineF64`]
/// the same f64 arithmetic in the same order, so each value is bit-identical to
/// `vertex_world`'s rounded to f32 (a [`VertexMath::F32Fused`] rig's unweighted vertices take
/// [`affine_fused`] instead)
/// (`sinew-formats/tests/vertices_fast.rs` compares them over every fixture), but with the
/// slices cut once per vertex and the deform branch taken once per attachment. Fills
/// `out.len() / 2` vertices; stops early on data the builder would have rejected. Returns
/// `true` when it checked on the way that every value written is finite (the unweighted
/// loop does), `false` when the caller must check (weighted vertices).
#[inline(always)]
pub(crate) fn world_vertices_into(
    world: &[WorldTransform],
    slot_bone: BoneId,
    vertices: &Vertices,
    deform: &[f64],
    math: VertexMath,
    out: &mut [f32],
) -> bool {
    if !vertices.is_weighted() {
        let Some(m) = world.get(slot_bone.index()) else {
            return false;
        };
        let m = [m.a, m.b, m.c, m.d, m.x, m.y];
        // COMPAT(spine): the deform buffer holds absolute positions for unweighted vertices.
        let src = if deform.is_empty() {
            Source::F32(&vertices.values)
        } else {
            Source::F64(deform)
        };
        return match math {
            VertexMath::SpineF64 => affine(m, src, out),
            VertexMath::F32Fused => affine_fused(m, src, out),
        };
    }
    #[cfg(target_arch = "x86_64")]
    {
        if crate::math::simd::features().avx() {
            use super::skin_avx::skin as skin_avx;
            // SAFETY: the CPU supports AVX (`features` says so only then), the only requirement of
            // calling functions compiled with `target_feature(enable = "avx")`.
            #[allow(unsafe_code)]
            return unsafe {
                if deform.is_empty() {
                    skin_avx::<false>(world, &vertices.bones, &vertices.values, &[], out)
                } else {
                    skin_avx::<true>(world, &vertices.bones, &vertices.values, deform, out)
                }
            };
        }
    }
    if deform.is_empty() {
        skin::<false>(world, &vertices.bones, &vertices.values, &[], out)
    } else {
        skin::<true>(world, &vertices.bones, &vertices.values, deform, out)
    }
}

/// Unweighted vertex pairs, as the rig stores them (f32) or as a deform buffer holds them.
#[derive(Clone, Copy)]
pub(crate) enum Source<'a> {
    F32(&'a [f32]),
    F64(&'a [f64]),
}

/// `out` = the affine map `m` = `[a, b, c, d, x, y]` applied to the pairs of `src`
/// (`(vx * a + vy * b + x, vx * c + vy * d + y)` in f64, rounded to f32), as many whole
/// pairs as both hold; returns whether every value written is finite. The AVX loop
/// (`affine_avx.rs`) when the CPU has it, else [`affine_plain`]; bit-identical either way.
#[inline]
pub(crate) fn affine(m: [f64; 6], src: Source<'_>, out: &mut [f32]) -> bool {
    // Written only by the AVX path (x86_64).
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let (mut done, mut bad) = (0, false);
    #[cfg(target_arch = "x86_64")]
    {
        if crate::math::simd::features().avx() {
            // SAFETY: the CPU supports AVX (`features` says so only then), the only requirement of
            // calling functions compiled with `target_feature(enable = "avx")`.
            #[allow(unsafe_code)]
            unsafe {
                (done, bad) = match src {
                    Source::F32(v) => super::affine_avx::map_f32(m, v, out),
                    Source::F64(v) => super::affine_avx::map_f64(m, v, out),
                };
            }
        }
    }
    let out = &mut out[done..];
    let rest_finite = match src {
        Source::F32(v) => affine_plain(m, v.get(done..).unwrap_or(&[]), out),
        Source::F64(v) => affine_plain(m, v.get(done..).unwrap_or(&[]), out),
    };
    !bad && rest_finite
}

/// The plain loop of [`affine`] (its reference, and what machines without AVX run);
/// returns whether every value written is finite.
pub(crate) fn affine_plain<T: Copy + Into<f64>>(m: [f64; 6], src: &[T], out: &mut [f32]) -> bool {
    let [a, b, c, d, x, y] = m;
    let mut finite = true;
    for (o, p) in out.chunks_exact_mut(2).zip(src.chunks_exact(2)) {
        let (vx, vy): (f64, f64) = (p[0].into(), p[1].into());
        o[0] = (vx * a + vy * b + x) as f32;
        o[1] = (vx * c + vy * d + y) as f32;
        finite &= o[0].is_finite() & o[1].is_finite();
    }
    finite
}

/// `out` = the affine map `m` applied to the pairs of `src` in f32 with fused multiply-adds
/// (the source value and the map rounded to f32, then `fma(vx, a, fma(vy, b, x))`,
/// `fma(vy, d, fma(vx, c, y))`: each output's own coordinate last, so one vector of
/// (x, y) pairs and one of (y, x) pairs compute both): what [`VertexMath::F32Fused`] rigs use. The AVX2/FMA loop
/// (`affine_fma.rs`) when the CPU has it, else [`affine_fused_plain`]; bit-identical
/// either way (fused multiply-adds are exactly rounded on every machine). Returns whether
/// every value written is finite.
#[inline]
pub(crate) fn affine_fused(m: [f64; 6], src: Source<'_>, out: &mut [f32]) -> bool {
    let m = m.map(|v| v as f32);
    #[cfg(target_arch = "x86_64")]
    {
        if crate::math::simd::features().avx2_fma() {
            // SAFETY: the CPU supports AVX, AVX2 and FMA (`features` says so only then), the only
            // requirement of calling functions compiled with those target features.
            #[allow(unsafe_code)]
            unsafe {
                return match src {
                    Source::F32(v) => !super::affine_fma::map_f32(m, v, out),
                    Source::F64(v) => !super::affine_fma::map_f64(m, v, out),
                };
            }
        }
    }
    match src {
        Source::F32(v) => affine_fused_plain(m, v.iter().copied(), out),
        Source::F64(v) => affine_fused_plain(m, v.iter().map(|&x| x as f32), out),
    }
}

/// The plain loop of [`affine_fused`] over source values already rounded to f32 (its
/// reference, and what machines without AVX2 and FMA run); returns whether every value
/// written is finite.
pub(crate) fn affine_fused_plain(
    m: [f32; 6],
    mut src: impl Iterator<Item = f32>,
    out: &mut [f32],
) -> bool {
    let [a, b, c, d, x, y] = m;
    let mut finite = true;
    for o in out.chunks_exact_mut(2) {
        let (Some(vx), Some(vy)) = (src.next(), src.next()) else {
            break;
        };
        o[0] = vx.mul_add(a, vy.mul_add(b, x));
        o[1] = vy.mul_add(d, vx.mul_add(c, y));
        finite &= o[0].is_finite() & o[1].is_finite();
    }
    finite
}

/// Weighted vertices of [`world_vertices_into`] (its reference, and what machines without
/// AVX run; `skin_avx.rs` is the same arithmetic two influences at a time); `DEFORM`:
/// `deform` offsets each influence.
/// Returns `false`: what it wrote is not checked for finiteness (the caller does). Kept out
/// of line so that its registers and stack do not weigh on the unweighted path's callers.
#[inline(never)]
pub(crate) fn skin<const DEFORM: bool>(
    world: &[WorldTransform],
    mut bones: &[u32],
    mut values: &[f32],
    mut deform: &[f64],
    out: &mut [f32],
) -> bool {
    for o in out.chunks_exact_mut(2) {
        let Some((ids, vals, offs)) = next_vertex::<DEFORM>(&mut bones, &mut values, &mut deform)
        else {
            return false;
        };
        let Some(Vec2 { x: wx, y: wy }) = vertex_sum::<DEFORM>(world, ids, vals, offs) else {
            return false;
        };
        o[0] = wx as f32;
        o[1] = wy as f32;
    }
    // Not checked here: a check per vertex costs more than the facade's vector pass.
    false
}

/// Splits the next weighted vertex off the front of `bones` (its influence count, then that
/// many bone indices), `values` (`vx, vy, weight` per influence) and, when `DEFORM`,
/// `deform` (`dx, dy` per influence), advancing all three past it. `None` when the data is
/// shorter than the count says (the builder rejects such data; the kernels stop there).
#[inline(always)]
pub(crate) fn next_vertex<'b, 'v, 'd, const DEFORM: bool>(
    bones: &mut &'b [u32],
    values: &mut &'v [f32],
    deform: &mut &'d [f64],
) -> Option<(&'b [u32], &'v [f32], &'d [f64])> {
    let (&n, rest) = bones.split_first()?;
    let n = n as usize;
    if rest.len() < n || values.len() < 3 * n || (DEFORM && deform.len() < 2 * n) {
        return None;
    }
    let (ids, rest) = rest.split_at(n);
    let (vals, vrest) = values.split_at(3 * n);
    let offs = if DEFORM {
        let (offs, drest) = deform.split_at(2 * n);
        *deform = drest;
        offs
    } else {
        &[][..]
    };
    *bones = rest;
    *values = vrest;
    Some((ids, vals, offs))
}

/// One weighted vertex's world position in f64, Spine's running sum of
/// `((vx·a + vy·b) + x)·w` and `((vx·c + vy·d) + y)·w` over its influences in order (`ids`,
/// `vals` and `offs` as [`next_vertex`] splits them); `None` for a bone out of range.
#[inline(always)]
pub(crate) fn vertex_sum<const DEFORM: bool>(
    world: &[WorldTransform],
    ids: &[u32],
    vals: &[f32],
    offs: &[f64],
) -> Option<Vec2> {
    let (mut wx, mut wy) = (0.0, 0.0);
    let mut offs = offs.chunks_exact(2);
    for (&bi, p) in ids.iter().zip(vals.chunks_exact(3)) {
        let m = world.get(bi as usize)?;
        let (mut vx, mut vy) = (f64::from(p[0]), f64::from(p[1]));
        if DEFORM {
            let d = offs.next()?;
            vx += d[0];
            vy += d[1];
        }
        let weight = f64::from(p[2]);
        wx += (vx * m.a + vy * m.b + m.x) * weight;
        wy += (vx * m.c + vy * m.d + m.y) * weight;
    }
    Some(Vec2::new(wx, wy))
}

/// World position and rotation of the slot's current point attachment: (x, y, degrees).
/// The rotation uses the C/Java runtimes' formula, in degrees (spine.md §7.7: spine-ts's
/// `computeWorldRotation` scales by degRad instead; this is the corrected value).
/// `None` when the slot shows no point attachment, or the slot or instance is not the rig's.
pub fn point_world(rig: &Rig, inst: &Instance, slot: SlotId) -> Option<(f64, f64, f64)> {
    if !inst.is_for(rig) || slot.index() >= rig.slots.len() {
        return None;
    }
    let att = inst.slots.attachment[slot.index()]?;
    let AttachmentKind::Point { x, y, rotation } = rig.attachments[att.index()].kind else {
        return None;
    };
    let m = &inst.world[rig.slots[slot.index()].bone.index()];
    let wx = x * m.a + y * m.b + m.x;
    let wy = x * m.c + y * m.d + m.y;
    let (sin, cos) = (rotation * SPINE_DEG_RAD).sin_cos();
    let rx = cos * m.a + sin * m.b;
    let ry = cos * m.c + sin * m.d;
    Some((wx, wy, ry.atan2(rx) * SPINE_RAD_DEG))
}

#[cfg(test)]
#[path = "vertices_tests.rs"]
mod tests;
