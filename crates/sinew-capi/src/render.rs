//! Batched render output: a character's draw list with consecutive commands merged when
//! they share texture page, blend mode, premultiplied-alpha flag, two-colour kind, clip
//! polygon and composite group, and no mask is involved (spine-cpp `SkeletonRenderer`'s
//! batching, except that clipping is left to the host's stencil instead of being done on
//! the CPU). A batch never exceeds 65,536 vertices, so its `u16` indices (relative to the
//! batch's first vertex, 0 to 65,535) always fit.

use crate::character::{CharState, SinewCharacter, character_obj};
use crate::rig::PageData;
use crate::{Fail, SinewStatus, copy_out, guard, put};
use sinew::Character;
use sinew::draw::{DrawList, NO_PAGE};

/// Most vertices in one batch: what `u16` indices 0 to 65,535 address. A single mesh can
/// have this many (its own indices are `u16`), so one command always fits in a batch.
pub const SINEW_MAX_BATCH_VERTICES: u32 = 65_536;

/// No page, clip, group or mask.
pub const SINEW_NONE: i32 = -1;

/// One draw call: triangles of consecutive commands sharing the same state.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewBatch {
    /// Texture page (index for `sinew_rig_page`), or -1: untextured (draw white).
    pub page: i32,
    /// Blend mode: 0 normal, 1 additive, 2 multiply, 3 screen; 4.. the Inochi2D modes in
    /// `sinew::BlendMode` order (overlay, darken, lighten, color dodge, linear dodge, add
    /// glow, color burn, hard light, soft light, difference, exclusion, subtract, inverse,
    /// destination in, clip to lower, slice from lower).
    pub blend: u32,
    /// 1 when the page is premultiplied: vertex colours are then premultiplied too
    /// (`rgb * a`) and the host blends with `ONE, ONE_MINUS_SRC_ALPHA`.
    pub premultiplied_alpha: u32,
    /// What `dark_colors` holds: 0 nothing, 1 Spine tint black (the two-colour shader:
    /// `texel.rgb * light.rgb + (1 - texel.rgb) * dark.rgb * texel.a`-style, as Spine's
    /// runtimes), 2 an Inochi2D screen tint (`1 - (1 - texel)(1 - screen * texel.a)` before
    /// the tint).
    pub dark_kind: u32,
    /// Clip polygon (index into `SinewRenderData::clips`) masking the batch, or -1.
    pub clip: i32,
    /// Composite group (index into `SinewRenderData::groups`) the batch is drawn into, or -1.
    pub group: i32,
    /// The masked slot when the batch's command has a mask (see
    /// `sinew_character_mask`), else -1. Batches of masked slots and of mask sources
    /// hold one command each.
    pub mask_slot: i32,
    /// The slot of the batch's first command.
    pub first_slot: u32,
    /// First vertex in the vertex arrays.
    pub vertex_start: u32,
    /// Vertex count (at most `SINEW_MAX_BATCH_VERTICES`).
    pub vertex_count: u32,
    /// First index in `indices`.
    pub index_start: u32,
    /// Index count (3 per triangle); indices are relative to `vertex_start`.
    pub index_count: u32,
    /// First draw command merged into the batch.
    pub first_command: u32,
    /// How many draw commands were merged into it.
    pub command_count: u32,
}

/// A clip polygon: `vertex_count` x, y pairs at `clip_vertices + 2 * vertex_start`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewClip {
    /// The clipping slot.
    pub slot: u32,
    /// First vertex in `clip_vertices`.
    pub vertex_start: u32,
    /// Vertex count.
    pub vertex_count: u32,
}

/// An off-screen group (an Inochi2D Composite): batches `first_batch..first_batch +
/// batch_count` are drawn into a transparent target, which is then shaded with `color` and
/// `screen` and composited once with `blend` (masked by the group's mask, see
/// `sinew_character_mask` with kind 1 and `bone`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewGroup {
    /// The composite's bone.
    pub bone: u32,
    /// First batch of the group.
    pub first_batch: u32,
    /// Batches in the group.
    pub batch_count: u32,
    /// Blend mode of the layer (as `SinewBatch.blend`).
    pub blend: u32,
    /// Tint and opacity of the layer, straight: r, g, b, a.
    pub color: [f32; 4],
    /// Screen tint of the layer: r, g, b.
    pub screen: [f32; 3],
}

/// A character's render output, library-owned: valid until the next call on that character
/// (any call may rebuild or move it). Positions are world units, y up for every format;
/// four floats per vertex in `colors` and `dark_colors`, two in `positions` and `uvs`
/// (u, v in 0..1, v down).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SinewRenderData {
    /// Batches in draw order.
    pub batches: *const SinewBatch,
    /// Number of batches (draw calls).
    pub batch_count: usize,
    /// The draw list's command count (draw calls without merging).
    pub command_count: usize,
    /// World x, y per vertex.
    pub positions: *const f32,
    /// Texture u, v per vertex.
    pub uvs: *const f32,
    /// Vertex colour r, g, b, a (premultiplied when the batch is).
    pub colors: *const f32,
    /// Dark or screen colour r, g, b, a per vertex (see `SinewBatch.dark_kind`).
    pub dark_colors: *const f32,
    /// Number of vertices in the arrays above.
    pub vertex_count: usize,
    /// Triangle indices, relative to each batch's first vertex.
    pub indices: *const u16,
    /// Number of indices.
    pub index_count: usize,
    /// Clip polygons.
    pub clips: *const SinewClip,
    /// Number of clip polygons.
    pub clip_count: usize,
    /// Clip polygon vertices (x, y pairs, y up).
    pub clip_vertices: *const f32,
    /// Composite groups.
    pub groups: *const SinewGroup,
    /// Number of groups.
    pub group_count: usize,
}

/// One mask source of a masked slot or group.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewMaskSource {
    /// The source slot (its batch has `first_slot` = this slot when it is drawn).
    pub slot: u32,
    /// 1: a dodge mask (content is kept outside the source), 0: content kept inside.
    pub dodge: u32,
}

/// The reused buffers of a character's render output.
pub(crate) struct RenderOut {
    batches: Vec<SinewBatch>,
    positions: Vec<f32>,
    uvs: Vec<f32>,
    colors: Vec<f32>,
    darks: Vec<f32>,
    indices: Vec<u16>,
    clips: Vec<SinewClip>,
    clip_vertices: Vec<f32>,
    groups: Vec<SinewGroup>,
    commands: usize,
    /// Per slot: it is masked or a mask source (its commands never merge).
    unmergeable: Vec<bool>,
    masked: Vec<bool>,
}

impl RenderOut {
    /// Buffers sized for any pose of the character's rig (so rendering allocates nothing).
    pub(crate) fn for_character(c: &Character) -> RenderOut {
        let list = DrawList::for_rig(c.rig());
        let v = list.positions.capacity() / 2;
        let ns = c.rig().slots.len();
        let setup = c.draw_setup();
        let mut unmergeable = vec![false; ns];
        let mut masked = vec![false; ns];
        let mut mark = |m: &sinew::draw::SlotMask, own: Option<usize>| {
            if m.sources.is_empty() {
                return;
            }
            if let Some(i) = own.filter(|&i| i < ns) {
                unmergeable[i] = true;
                masked[i] = true;
            }
            for (s, _) in &m.sources {
                if let Some(u) = unmergeable.get_mut(s.index()) {
                    *u = true;
                }
            }
        };
        for (i, m) in setup.slot_masks.iter().enumerate() {
            mark(m, Some(i));
        }
        for m in &setup.group_masks {
            mark(m, None);
        }
        RenderOut {
            batches: Vec::with_capacity(ns),
            positions: Vec::with_capacity(v * 2),
            uvs: Vec::with_capacity(v * 2),
            colors: Vec::with_capacity(v * 4),
            darks: Vec::with_capacity(v * 4),
            indices: Vec::with_capacity(list.indices.capacity()),
            clips: Vec::with_capacity(ns),
            clip_vertices: Vec::with_capacity(list.clip_vertices.capacity()),
            groups: Vec::with_capacity(ns),
            commands: 0,
            unmergeable,
            masked,
        }
    }

    fn clear(&mut self) {
        self.batches.clear();
        self.positions.clear();
        self.uvs.clear();
        self.colors.clear();
        self.darks.clear();
        self.indices.clear();
        self.clips.clear();
        self.clip_vertices.clear();
        self.groups.clear();
        self.commands = 0;
    }

    /// Batches `list` (see the module docs).
    pub(crate) fn build(&mut self, list: &DrawList, pages: &[PageData]) {
        self.clear();
        self.commands = list.commands.len();
        let mut group_cursor = 0usize;
        for (k, cmd) in list.commands.iter().enumerate() {
            // Groups are sorted runs of commands.
            while group_cursor < list.groups.len() && {
                let g = &list.groups[group_cursor];
                (g.first + g.count) as usize <= k
            } {
                group_cursor += 1;
            }
            let group = match list.groups.get(group_cursor) {
                Some(g) if g.first as usize <= k => group_cursor as i32,
                _ => SINEW_NONE,
            };
            // A page the rig does not have (a rig loaded without its atlas may still name
            // page 0) is drawn untextured, as the docs of `SinewBatch.page` promise.
            let page = if cmd.page == NO_PAGE || cmd.page as usize >= pages.len() {
                SINEW_NONE
            } else {
                cmd.page as i32
            };
            let pma = pages.get(cmd.page as usize).is_some_and(|p| p.pma);
            let si = cmd.slot.index();
            let solo = self.unmergeable.get(si).copied().unwrap_or(false);
            let mask_slot = if self.masked.get(si).copied().unwrap_or(false) {
                si as i32
            } else {
                SINEW_NONE
            };
            let (dark_kind, dark) = match (cmd.dark, cmd.screen) {
                (Some(d), _) => {
                    let a = cmd.color.a;
                    if pma {
                        (1, [d.r * a, d.g * a, d.b * a, 1.0])
                    } else {
                        (1, [d.r, d.g, d.b, 0.0])
                    }
                }
                (None, Some(s)) => (2, [s.r, s.g, s.b, 1.0]),
                (None, None) => (0, [0.0; 4]),
            };
            let clip = cmd.clip.map_or(SINEW_NONE, |c| c as i32);
            let blend = cmd.blend as u32;
            let vc = cmd.vertex_count;
            let merge = !solo
                && self.batches.last().is_some_and(|b| {
                    b.mask_slot == SINEW_NONE
                        && !self
                            .unmergeable
                            .get(b.first_slot as usize)
                            .copied()
                            .unwrap_or(false)
                        && b.page == page
                        && b.blend == blend
                        && b.premultiplied_alpha == u32::from(pma)
                        && b.dark_kind == dark_kind
                        && b.clip == clip
                        && b.group == group
                        && b.vertex_count + vc <= SINEW_MAX_BATCH_VERTICES
                });
            if !merge {
                self.batches.push(SinewBatch {
                    page,
                    blend,
                    premultiplied_alpha: u32::from(pma),
                    dark_kind,
                    clip,
                    group,
                    mask_slot,
                    first_slot: si as u32,
                    vertex_start: (self.positions.len() / 2) as u32,
                    vertex_count: 0,
                    index_start: self.indices.len() as u32,
                    index_count: 0,
                    first_command: k as u32,
                    command_count: 0,
                });
            }
            let Some(b) = self.batches.last_mut() else {
                continue;
            };
            let base = b.vertex_count;
            let pos = list.command_positions(cmd);
            let n = pos.len() / 2;
            self.positions.extend_from_slice(pos);
            let uv = list.command_uvs(cmd);
            if uv.len() == pos.len() {
                self.uvs.extend_from_slice(uv);
            } else {
                self.uvs.resize(self.positions.len(), 0.0);
            }
            let c = cmd.color;
            let light = if pma {
                [c.r * c.a, c.g * c.a, c.b * c.a, c.a]
            } else {
                [c.r, c.g, c.b, c.a]
            };
            for _ in 0..n {
                self.colors.extend_from_slice(&light);
                self.darks.extend_from_slice(&dark);
            }
            let idx = list.command_indices(cmd);
            self.indices
                .extend(idx.iter().map(|&i| (u32::from(i) + base) as u16));
            b.vertex_count += n as u32;
            b.index_count += idx.len() as u32;
            b.command_count += 1;
        }
        for c in &list.clips {
            self.clips.push(SinewClip {
                slot: c.slot.index() as u32,
                vertex_start: c.vertex_start,
                vertex_count: c.vertex_count,
            });
        }
        self.clip_vertices.extend_from_slice(&list.clip_vertices);
        for (gi, g) in list.groups.iter().enumerate() {
            let first = self
                .batches
                .iter()
                .position(|b| b.group == gi as i32)
                .unwrap_or(self.batches.len());
            let count = self.batches[first..]
                .iter()
                .take_while(|b| b.group == gi as i32)
                .count();
            self.groups.push(SinewGroup {
                bone: g.bone.index() as u32,
                first_batch: first as u32,
                batch_count: count as u32,
                blend: g.blend as u32,
                color: [g.color.r, g.color.g, g.color.b, g.color.a],
                screen: [g.screen.r, g.screen.g, g.screen.b],
            });
        }
    }

    fn data(&self) -> SinewRenderData {
        SinewRenderData {
            batches: self.batches.as_ptr(),
            batch_count: self.batches.len(),
            command_count: self.commands,
            positions: self.positions.as_ptr(),
            uvs: self.uvs.as_ptr(),
            colors: self.colors.as_ptr(),
            dark_colors: self.darks.as_ptr(),
            vertex_count: self.positions.len() / 2,
            indices: self.indices.as_ptr(),
            index_count: self.indices.len(),
            clips: self.clips.as_ptr(),
            clip_count: self.clips.len(),
            clip_vertices: self.clip_vertices.as_ptr(),
            groups: self.groups.as_ptr(),
            group_count: self.groups.len(),
        }
    }
}

/// Builds the character's batched render output for its current pose into library-owned
/// buffers and describes them in `*out`. The pointers stay valid until the next call on this
/// character (or its destruction). Allocation-free after the first call.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_render(
    character: *mut SinewCharacter,
    out: *mut SinewRenderData,
) -> SinewStatus {
    guard(|| {
        if out.is_null() {
            return Err(crate::null_arg("out"));
        }
        let obj = character_obj(character)?;
        let mut guard = obj.lock();
        let s: &mut CharState = &mut guard;
        let list = s.character.draw_list();
        s.render.build(list, &s.rig.pages);
        put(out, s.render.data(), "out")
    })
}

/// The mask of a masked slot (`kind` 0, `index` a slot) or of a composite group (`kind` 1,
/// `index` the group's bone): its sources into `buf` (capacity `cap`; `*len` the count) and
/// its threshold (mask alpha at or below which a source does not mask) in `*threshold`.
/// No mask: `*len` = 0.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_mask(
    character: *const SinewCharacter,
    kind: u32,
    index: u32,
    buf: *mut SinewMaskSource,
    cap: usize,
    len: *mut usize,
    threshold: *mut f32,
) -> SinewStatus {
    guard(|| {
        let obj = character_obj(character)?;
        let s = obj.lock();
        let setup = s.character.draw_setup();
        let masks = match kind {
            0 => &setup.slot_masks,
            1 => &setup.group_masks,
            _ => {
                return Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("mask kind {kind} is not 0 (slot) or 1 (group)"),
                ));
            }
        };
        let rig = s.character.rig();
        let limit = if kind == 0 {
            rig.slots.len()
        } else {
            rig.bones.len()
        };
        if index as usize >= limit {
            return Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!("index {index} out of range ({limit})"),
            ));
        }
        let (sources, t): (Vec<SinewMaskSource>, f32) = match masks.get(index as usize) {
            Some(m) => (
                m.sources
                    .iter()
                    .map(|(s, d)| SinewMaskSource {
                        slot: s.index() as u32,
                        dodge: u32::from(*d),
                    })
                    .collect(),
                m.threshold,
            ),
            None => (Vec::new(), 0.0),
        };
        put(threshold, t, "threshold")?;
        copy_out(&sources, buf, cap, len, "buf")
    })
}
