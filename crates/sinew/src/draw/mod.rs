//! Draw list: what a posed instance shows, as plain data for any backend (the backend
//! boundary between the runtime and a renderer).
//!
//! [`build_draw_list`] walks the current draw order like the official Spine renderers
//! (spine-ts `SkeletonRenderer.draw`, 4.2): slots whose bone is inactive are skipped; a
//! region attachment becomes 4 vertices and 2 triangles (`0 1 2`, `2 3 0`, corners BL, UL, UR,
//! BR as [`crate::deform::compute_world_vertices`] writes them); a mesh becomes its world
//! vertices and triangles; a clipping attachment starts a clip polygon that applies to the
//! following commands up to and including its end slot (a second clipping attachment while one
//! is active is ignored, and the clip also ends after the last slot; a Spine 4.3 `convex` or
//! `inverse` clip holds its polygon's convex hull, computed once here by [`hull`] for every
//! renderer). Each command carries the
//! tint `skeleton * slot * attachment` (straight alpha), the slot's dark colour when it has one
//! (Spine "tint black"), the slot's blend mode and the atlas page of the region shown (the
//! sequence frame, for sequences).
//!
//! Off-screen groups (Inochi2D Composites) are runs of commands listed in
//! [`DrawList::groups`]: [`build_draw_list`] leaves it empty and a format adapter fills it with
//! [`DrawList::group_runs`]; a renderer draws each run onto its own layer.
//!
//! No allocation after warm-up: [`DrawList::for_rig`] reserves the largest size any pose of the
//! rig can need, and [`build_draw_list`] only clears and refills. Verified by the unit tests
//! below (quad triangles, tint products, clip ranges with an end slot, inactive bones, reuse
//! without growth) and by sinew-render's tests on real rigs.
//!
//! Layer: stage (step 10). Imports data and the world vertices of `deform`.

use crate::deform::vertices::{region_index, world_vertices_checked};
use crate::ids::{AttachmentId, BoneId, SlotId};
use crate::instance::Instance;
use crate::rig::{AttachmentKind, Rig};
use crate::types::{BlendMode, Color};
use hull::convex_hull_in_place;

/// Triangles of a region quad over its corners BL, UL, UR, BR (spine-ts `QUAD_TRIANGLES`).
pub const QUAD_TRIANGLES: [u16; 6] = [0, 1, 2, 2, 3, 0];

/// One textured triangle batch: a region or mesh attachment of one slot.
///
/// Owner: the draw stage (`draw`; step 10 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawCommand {
    /// The slot drawn.
    pub slot: SlotId,
    /// The attachment shown.
    pub attachment: AttachmentId,
    /// Atlas page of the region shown (index into the atlas's pages).
    pub page: u32,
    /// How the command composites onto what is below.
    pub blend: BlendMode,
    /// Tint, straight alpha: skeleton colour x slot colour x attachment colour.
    pub color: Color,
    /// Dark colour of two-colour tinting (Spine tint black; alpha unused), when the slot has one.
    pub dark: Option<Color>,
    /// Screen tint (Inochi2D Parts; alpha unused), when the slot has one: the texel is
    /// screened with it before the tint, `1 − (1 − texel)(1 − screen · texel alpha)` on
    /// premultiplied texels.
    pub screen: Option<Color>,
    /// First vertex in [`DrawList::positions`] / [`DrawList::uvs`] (in vertices, not floats).
    pub vertex_start: u32,
    /// Number of vertices.
    pub vertex_count: u32,
    /// First index in [`DrawList::indices`].
    pub index_start: u32,
    /// Number of indices (3 per triangle); indices are relative to `vertex_start`.
    pub index_count: u32,
    /// Clip polygon that masks this command (index into [`DrawList::clips`]), if any.
    pub clip: Option<u32>,
}

/// A clip polygon: world-space vertices of a clipping attachment, in
/// [`DrawList::clip_vertices`].
///
/// Owner: the draw stage (`draw`; step 10 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClipPolygon {
    /// The clipping slot.
    pub slot: SlotId,
    /// First vertex (in vertices, not floats).
    pub vertex_start: u32,
    /// Number of vertices.
    pub vertex_count: u32,
    /// Clip by the polygon's convex hull instead of the polygon (Spine 4.3 `convex`; set
    /// whenever `inverse` is). [`build_draw_list`] then stores the hull (counter-clockwise,
    /// no collinear vertices; no vertex at all when the polygon spans no area) in place of
    /// the polygon, so renderers use the vertices as they are; a list made by hand must hold
    /// a convex polygon here.
    pub convex: bool,
    /// Keep what lies outside the convex hull instead of inside (Spine 4.3 `inverse`); with
    /// no hull (no vertex) nothing is cut away.
    pub inverse: bool,
}

/// Everything a renderer needs for one frame, in draw order. Positions are world units, y up
/// for every format (y-down rigs are flipped by [`finish_draw_list`]).
///
/// Owner: the draw stage (`draw`; step 10 of `Character::update`).
#[derive(Debug, Clone, Default)]
pub struct DrawList {
    /// Commands in draw order.
    pub commands: Vec<DrawCommand>,
    /// World x, y per vertex.
    pub positions: Vec<f32>,
    /// Texture u, v per vertex (0..1 on the atlas page, v down).
    pub uvs: Vec<f32>,
    /// Triangle indices, relative to each command's `vertex_start`.
    pub indices: Vec<u16>,
    /// Clip polygons used by the commands.
    pub clips: Vec<ClipPolygon>,
    /// World x, y of clip polygon vertices.
    pub clip_vertices: Vec<f32>,
    /// Off-screen groups (Inochi2D Composites) over runs of `commands`, in command order;
    /// empty unless a format adapter fills it (see [`DrawGroup`], [`DrawList::group_runs`]).
    pub groups: Vec<DrawGroup>,
}

/// An off-screen group (an Inochi2D Composite): the commands `first..first + count` are drawn
/// onto a transparent layer, each with its own blend mode, then the layer is shaded with
/// `color` and `screen` and composited once with `blend`. Renderer-neutral: a GPU backend
/// draws the run into a render target and the target as one quad.
///
/// Owner: the draw stage (`draw`; step 10 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawGroup {
    /// The group's bone (the composite node); keys per-group side tables such as masks.
    pub bone: BoneId,
    /// First command of the group.
    pub first: u32,
    /// Number of consecutive commands.
    pub count: u32,
    /// How the layer composites onto what is below.
    pub blend: BlendMode,
    /// Multiplicative tint (rgb) and opacity (a) of the layer, straight.
    pub color: Color,
    /// Screen tint of the layer (rgb; alpha unused).
    pub screen: Color,
}

impl DrawList {
    /// An empty list with room for any pose of `rig`, so building never allocates.
    pub fn for_rig(rig: &Rig) -> Self {
        // Per slot, the largest attachment it can show; the sum bounds any frame.
        let ns = rig.slots.len();
        let (mut verts, mut idx, mut clip) = (vec![0usize; ns], vec![0usize; ns], vec![0usize; ns]);
        for a in &rig.attachments {
            let s = a.slot.index();
            if s >= ns {
                continue;
            }
            match &a.kind {
                AttachmentKind::Region(_) => {
                    verts[s] = verts[s].max(4);
                    idx[s] = idx[s].max(6);
                }
                AttachmentKind::Mesh(m) => {
                    verts[s] = verts[s].max(m.vertices.count as usize);
                    idx[s] = idx[s].max(m.triangles.len());
                }
                AttachmentKind::Clipping { vertices, .. } => {
                    clip[s] = clip[s].max(vertices.count as usize);
                }
                _ => {}
            }
        }
        let (v, i, c): (usize, usize, usize) =
            (verts.iter().sum(), idx.iter().sum(), clip.iter().sum());
        DrawList {
            commands: Vec::with_capacity(ns),
            positions: Vec::with_capacity(v * 2),
            uvs: Vec::with_capacity(v * 2),
            indices: Vec::with_capacity(i),
            clips: Vec::with_capacity(ns),
            clip_vertices: Vec::with_capacity(c * 2),
            groups: Vec::with_capacity(ns),
        }
    }

    /// Empties the list, keeping its capacity.
    pub fn clear(&mut self) {
        self.commands.clear();
        self.positions.clear();
        self.uvs.clear();
        self.indices.clear();
        self.clips.clear();
        self.clip_vertices.clear();
        self.groups.clear();
    }

    /// Rebuilds [`DrawList::groups`] from runs of consecutive commands: `group_of(slot)` gives
    /// the group a command's slot belongs to (its `first`/`count` are ignored), and each
    /// maximal run of commands whose groups have the same bone becomes one group. No
    /// allocation when the list came from [`DrawList::for_rig`].
    pub fn group_runs(&mut self, mut group_of: impl FnMut(SlotId) -> Option<DrawGroup>) {
        self.groups.clear();
        for (k, c) in self.commands.iter().enumerate() {
            let Some(mut g) = group_of(c.slot) else {
                continue;
            };
            match self.groups.last_mut() {
                Some(last) if last.bone == g.bone && (last.first + last.count) as usize == k => {
                    last.count += 1;
                }
                _ => {
                    g.first = k as u32;
                    g.count = 1;
                    self.groups.push(g);
                }
            }
        }
    }

    /// World positions of a command's vertices (x, y pairs).
    pub fn command_positions(&self, c: &DrawCommand) -> &[f32] {
        let (s, n) = (c.vertex_start as usize * 2, c.vertex_count as usize * 2);
        self.positions.get(s..s + n).unwrap_or(&[])
    }

    /// UVs of a command's vertices (u, v pairs).
    pub fn command_uvs(&self, c: &DrawCommand) -> &[f32] {
        let (s, n) = (c.vertex_start as usize * 2, c.vertex_count as usize * 2);
        self.uvs.get(s..s + n).unwrap_or(&[])
    }

    /// A command's triangle indices (relative to its first vertex).
    pub fn command_indices(&self, c: &DrawCommand) -> &[u16] {
        let (s, n) = (c.index_start as usize, c.index_count as usize);
        self.indices.get(s..s + n).unwrap_or(&[])
    }

    /// World vertices of a clip polygon (x, y pairs).
    pub fn clip_polygon(&self, clip: u32) -> &[f32] {
        match self.clips.get(clip as usize) {
            Some(c) => {
                let (s, n) = (c.vertex_start as usize * 2, c.vertex_count as usize * 2);
                self.clip_vertices.get(s..s + n).unwrap_or(&[])
            }
            None => &[],
        }
    }

    /// World-space bounds `[x0, y0, x1, y1]` of every command's vertices (unclipped), or
    /// `None` when nothing is drawn.
    pub fn bounds(&self) -> Option<[f32; 4]> {
        let mut b = [
            f32::INFINITY,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
        ];
        for c in &self.commands {
            for p in self.command_positions(c).chunks_exact(2) {
                b = [
                    b[0].min(p[0]),
                    b[1].min(p[1]),
                    b[2].max(p[0]),
                    b[3].max(p[1]),
                ];
            }
        }
        (b[0] <= b[2] && b[1] <= b[3]).then_some(b)
    }
}

/// Fills `list` with what `inst` shows, in draw order, tinted by `skeleton_color` (Spine
/// `skeleton.color`; white for none). Allocates nothing when `list` came from
/// [`DrawList::for_rig`] for the same rig. An instance of another rig leaves `list` empty.
pub fn build_draw_list(rig: &Rig, inst: &Instance, skeleton_color: Color, list: &mut DrawList) {
    list.clear();
    if !inst.is_for(rig) {
        return;
    }
    // The active clip: (clip index, end slot).
    let mut clip: Option<(u32, Option<SlotId>)> = None;
    for &slot in &inst.draw_order {
        let si = slot.index();
        let Some(data) = rig.slots.get(si) else {
            continue;
        };
        let ends_here = |clip: &Option<(u32, Option<SlotId>)>| matches!(clip, Some((_, Some(end))) if *end == slot);
        if !inst.bone_active[data.bone.index()] {
            if ends_here(&clip) {
                clip = None;
            }
            continue;
        }
        let Some(att_id) = inst.slots.attachment[si] else {
            if ends_here(&clip) {
                clip = None;
            }
            continue;
        };
        let att = &rig.attachments[att_id.index()];
        let region = region_index(rig, inst, slot).unwrap_or(0);
        let (count, page, att_color) = match &att.kind {
            AttachmentKind::Region(r) => {
                (4usize, r.regions.get(region).map_or(0, |x| x.page), r.color)
            }
            AttachmentKind::Mesh(m) => (
                m.vertices.count as usize,
                m.regions.get(region).map_or(0, |x| x.page),
                m.color,
            ),
            AttachmentKind::Clipping {
                end,
                vertices,
                convex,
                inverse,
            } => {
                // COMPAT(spine): SkeletonClipping.clipStart ignores a clip while one is active,
                // and the clipping slot itself never ends a clip.
                if clip.is_none() {
                    let n = vertices.count as usize;
                    let start = list.clip_vertices.len();
                    list.clip_vertices.resize(start + n * 2, 0.0);
                    world_vertices_checked(rig, inst, slot, &mut list.clip_vertices[start..]);
                    let mut n = n;
                    if *convex || *inverse {
                        // Once here for every renderer: the hull replaces the polygon.
                        n = convex_hull_in_place(&mut list.clip_vertices[start..]);
                        list.clip_vertices.truncate(start + n * 2);
                    }
                    list.clips.push(ClipPolygon {
                        slot,
                        vertex_start: (start / 2) as u32,
                        vertex_count: n as u32,
                        convex: *convex,
                        inverse: *inverse,
                    });
                    clip = Some(((list.clips.len() - 1) as u32, *end));
                }
                continue;
            }
            _ => {
                if ends_here(&clip) {
                    clip = None;
                }
                continue;
            }
        };
        let vstart = list.positions.len() / 2;
        list.positions.resize((vstart + count) * 2, 0.0);
        world_vertices_checked(rig, inst, slot, &mut list.positions[vstart * 2..]);
        let istart = list.indices.len();
        match &att.kind {
            AttachmentKind::Region(r) => {
                let uv = r.uvs.get(region * 8..region * 8 + 8).unwrap_or(&[0.0; 8]);
                list.uvs.extend_from_slice(uv);
                list.indices.extend_from_slice(&QUAD_TRIANGLES);
            }
            AttachmentKind::Mesh(m) => {
                let n = m.region_uvs.len();
                match m.uvs.get(region * n..region * n + n) {
                    Some(uv) if n == count * 2 => list.uvs.extend_from_slice(uv),
                    _ => list.uvs.resize(list.positions.len(), 0.0),
                }
                // Keep only triangles whose indices exist (the builder checked; this is cheap).
                for t in m.triangles.chunks_exact(3) {
                    if t.iter().all(|&i| (i as usize) < count) {
                        list.indices.extend_from_slice(t);
                    }
                }
            }
            _ => {}
        }
        let slot_color = inst.slots.color[si];
        let color = Color::new(
            skeleton_color.r * slot_color.r * att_color.r,
            skeleton_color.g * slot_color.g * att_color.g,
            skeleton_color.b * slot_color.b * att_color.b,
            skeleton_color.a * slot_color.a * att_color.a,
        );
        list.commands.push(DrawCommand {
            slot,
            attachment: att_id,
            page,
            blend: data.blend,
            color,
            dark: data.dark.map(|_| inst.slots.dark[si]),
            screen: slot_screen(rig, inst, si),
            vertex_start: vstart as u32,
            vertex_count: count as u32,
            index_start: istart as u32,
            index_count: (list.indices.len() - istart) as u32,
            clip: clip.map(|c| c.0),
        });
        if ends_here(&clip) {
            clip = None;
        }
    }
}

pub mod hull;
mod setup;
#[cfg(test)]
mod tests;

pub use setup::{DrawSetup, NO_PAGE, SlotMask, finish_draw_list};

/// A slot's screen tint: its rig's base plus the parameter stage's offsets, `None` when the
/// rig gives the slot none and no binding moved it off zero.
fn slot_screen(rig: &Rig, inst: &Instance, si: usize) -> Option<Color> {
    let base = rig.params.slot_screen.get(si).copied().unwrap_or([0.0; 3]);
    let s = inst.params.slot.get(si).map_or(base, |o| o.screened(base));
    (s != [0.0; 3]).then(|| Color::new(s[0], s[1], s[2], 1.0))
}
