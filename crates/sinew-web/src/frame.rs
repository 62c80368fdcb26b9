//! One frame for a GPU: a character's [`DrawList`] (and its [`DrawSetup`]'s masks and
//! composites) as one interleaved vertex buffer, one index buffer and a short list of
//! fixed-size ops that the page's WebGL2 renderer (`web/sinew.js`) walks in order.
//!
//! Vertices are [`FLOATS_PER_VERTEX`] floats: world x, y (y up), u, v, the light tint
//! premultiplied by its alpha (rgba), and the dark colour times the light alpha (rgb, a = 0)
//! or an Inochi2D screen tint (rgb, a = 1): the shading constants of sinew-render's `Tint`,
//! so the fragment shader is its `shade` on a premultiplied texel. Indices are absolute
//! (`u32`). Each op is [`OP_WORDS`] `u32` words, floats stored as their bits:
//!
//! | op | words |
//! |---|---|
//! | [`OP_DRAW`] | first index, index count, page, blend mode, stencil ref, stencil mask |
//! | [`OP_CLIP`] | first index, index count of the clip polygon's fan (drawn with INVERT into stencil bit 1) |
//! | [`OP_UNCLIP`] | (stencil bit 1 cleared) |
//! | [`OP_MASK_CLEAR`] | (stencil bits 2 and 4 cleared) |
//! | [`OP_MASK_SOURCE`] | first index, index count, page, stencil bit (2 mask, 4 dodge), threshold |
//! | [`OP_GROUP_BEGIN`] | (draw into a cleared layer) |
//! | [`OP_GROUP_END`] | (draw into the canvas again) |
//! | [`OP_COMPOSITE`] | blend mode, stencil ref, stencil mask, tint r g b a, screen r g b |
//!
//! A command draws where `stencil & mask == ref`: bit 1 when clipped (clear for an inverse
//! clip, what lies outside its hull; a `convex` clip's polygon is its hull), bit 2 when its slot
//! has `Mask` sources, and bit 4 must be clear when it has `DodgeMask` sources (the union
//! rules of sinew-render's `mask` module, with the mask's edge decided by the sources'
//! texel alpha against the threshold). Consecutive commands with the same page, blend mode
//! and stencil state become one draw (blend modes shaded against the backdrop, 4..=15
//! except 9, stay one draw per command: each reads what the previous drew).
//!
//! Built without allocating once the buffers have grown to a frame's size. Verified by the
//! unit tests below and, pixel for pixel against sinew-render, by the browser test
//! (`web/test/browser.mjs`).

use sinew::draw::{DrawCommand, DrawList, DrawSetup, SlotMask};
use sinew::{BlendMode, Color};

/// Floats per vertex: x, y, u, v, light rgba, dark/screen rgba.
pub const FLOATS_PER_VERTEX: usize = 12;
/// Words per op.
pub const OP_WORDS: usize = 12;
/// Draw triangles.
pub const OP_DRAW: u32 = 1;
/// Start a clip polygon.
pub const OP_CLIP: u32 = 2;
/// End the clip.
pub const OP_UNCLIP: u32 = 3;
/// Clear the mask bits.
pub const OP_MASK_CLEAR: u32 = 4;
/// Draw one mask source into the stencil.
pub const OP_MASK_SOURCE: u32 = 5;
/// Start an off-screen group.
pub const OP_GROUP_BEGIN: u32 = 6;
/// Back to the canvas.
pub const OP_GROUP_END: u32 = 7;
/// Composite the group's layer.
pub const OP_COMPOSITE: u32 = 8;

const STENCIL_CLIP: u32 = 1;
const STENCIL_MASK: u32 = 2;
const STENCIL_DODGE: u32 = 4;

/// A frame's GPU buffers and ops (see the module docs).
///
/// Owner: the web host (`sinew-web`): rebuilt from the draw list each frame.
#[derive(Debug, Clone, Default)]
pub struct Frame {
    /// Interleaved vertices, [`FLOATS_PER_VERTEX`] floats each.
    pub vertices: Vec<f32>,
    /// Absolute vertex indices.
    pub indices: Vec<u32>,
    /// Ops, [`OP_WORDS`] words each.
    pub ops: Vec<u32>,
    /// Per command: its first index and index count in `indices`, and its page.
    ranges: Vec<(u32, u32, u32)>,
    /// Per slot: the command showing it (`u32::MAX`: none), for mask sources.
    slot_command: Vec<u32>,
    /// Where the character being appended goes.
    place: Placement,
}

/// Where a character is drawn in a shared frame: world `(x, y)` becomes
/// `(x * scale + dx, y * scale + dy)`.
///
/// Owner: the web host (`sinew-web`): set by the page per character.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// Uniform scale.
    pub scale: f32,
    /// Offset in x.
    pub dx: f32,
    /// Offset in y.
    pub dy: f32,
}

impl Placement {
    /// Where the character is.
    pub const IDENTITY: Placement = Placement {
        scale: 1.0,
        dx: 0.0,
        dy: 0.0,
    };

    fn apply(&self, x: f32, y: f32) -> [f32; 2] {
        [x * self.scale + self.dx, y * self.scale + self.dy]
    }
}

impl Default for Placement {
    fn default() -> Self {
        Placement::IDENTITY
    }
}

/// Every blend mode, in the renderer's numbering ([`blend_number`]).
pub const BLEND_MODES: [BlendMode; 20] = {
    use BlendMode as B;
    [
        B::Normal,
        B::Additive,
        B::Multiply,
        B::Screen,
        B::Overlay,
        B::Darken,
        B::Lighten,
        B::ColorDodge,
        B::LinearDodge,
        B::AddGlow,
        B::ColorBurn,
        B::HardLight,
        B::SoftLight,
        B::Difference,
        B::Exclusion,
        B::Subtract,
        B::Inverse,
        B::DestinationIn,
        B::ClipToLower,
        B::SliceFromLower,
    ]
};

/// The number `sinew::BlendMode` has in the renderer (its declaration order).
pub fn blend_number(mode: BlendMode) -> u32 {
    use BlendMode as B;
    match mode {
        B::Normal => 0,
        B::Additive => 1,
        B::Multiply => 2,
        B::Screen => 3,
        B::Overlay => 4,
        B::Darken => 5,
        B::Lighten => 6,
        B::ColorDodge => 7,
        B::LinearDodge => 8,
        B::AddGlow => 9,
        B::ColorBurn => 10,
        B::HardLight => 11,
        B::SoftLight => 12,
        B::Difference => 13,
        B::Exclusion => 14,
        B::Subtract => 15,
        B::Inverse => 16,
        B::DestinationIn => 17,
        B::ClipToLower => 18,
        B::SliceFromLower => 19,
    }
}

/// Whether the renderer shades mode number `n` against a copy of the backdrop.
pub fn reads_backdrop(n: u32) -> bool {
    (4..=15).contains(&n) && n != 9
}

impl Frame {
    /// Ops in the frame.
    pub fn op_count(&self) -> usize {
        self.ops.len() / OP_WORDS
    }

    /// Op `k`'s words.
    pub fn op(&self, k: usize) -> &[u32] {
        &self.ops[k * OP_WORDS..(k + 1) * OP_WORDS]
    }

    /// Rebuilds the frame from `list` with the masks and composites of `setup`; with
    /// `blend`, every command is drawn in that mode instead of its own (a preview).
    pub fn build(&mut self, list: &DrawList, setup: &DrawSetup, blend: Option<BlendMode>) {
        self.clear();
        self.append(list, setup, blend, Placement::IDENTITY);
    }

    /// Empties the frame (keeping its buffers).
    pub fn clear(&mut self) {
        self.vertices.clear();
        self.indices.clear();
        self.ops.clear();
    }

    /// Adds another character's list after what the frame holds, its positions placed by
    /// `at`: characters of one rig drawn in one go, a draw merging with the previous
    /// character's last when the page, blend mode and stencil state agree (a rig without
    /// clipping or masks: one draw call for the whole crowd).
    pub fn append(
        &mut self,
        list: &DrawList,
        setup: &DrawSetup,
        blend: Option<BlendMode>,
        at: Placement,
    ) {
        self.place = at;
        self.ranges.clear();
        self.slot_command.clear();
        for (k, c) in list.commands.iter().enumerate() {
            let slot = c.slot.index();
            if self.slot_command.len() <= slot {
                self.slot_command.resize(slot + 1, u32::MAX);
            }
            self.slot_command[slot] = k as u32;
            let (first, count) = self.push_command(list, c);
            self.ranges.push((first, count, c.page));
        }
        let mut clip: Option<u32> = None;
        let mut masks: Option<&SlotMask> = None;
        let mut group = 0usize;
        for (k, c) in list.commands.iter().enumerate() {
            let g = list.groups.get(group);
            if g.is_some_and(|g| g.first as usize == k) {
                self.end_clip(&mut clip);
                self.op_words(&[OP_GROUP_BEGIN]);
                masks = None;
            }
            if c.clip != clip {
                self.end_clip(&mut clip);
                if let Some(i) = c.clip {
                    self.push_clip(list, i);
                    clip = Some(i);
                }
            }
            let mut stencil = (0, 0);
            if let Some(i) = clip {
                // Inside the fan (the hull for Spine 4.3 `convex`: the draw list holds it),
                // or outside it for an `inverse` clip: bit 1 clear.
                let inverse = list.clips.get(i as usize).is_some_and(|p| p.inverse);
                stencil = (if inverse { 0 } else { STENCIL_CLIP }, STENCIL_CLIP);
            }
            if let Some(m) = setup.slot_masks.get(c.slot.index())
                && !m.sources.is_empty()
            {
                if masks != Some(m) {
                    self.push_mask(m);
                    masks = Some(m);
                }
                stencil = add_mask_bits(stencil, m);
            }
            let (first, count, _) = self.ranges[k];
            let blend = blend_number(blend.unwrap_or(c.blend));
            self.push_draw(first, count, c.page, blend, stencil);
            if let Some(g) = g.filter(|g| (g.first + g.count) as usize == k + 1) {
                self.end_clip(&mut clip);
                self.op_words(&[OP_GROUP_END]);
                let mut stencil = (0, 0);
                match setup.group_masks.get(g.bone.index()) {
                    Some(m) if !m.sources.is_empty() => {
                        self.push_mask(m);
                        stencil = add_mask_bits(stencil, m);
                    }
                    _ => {}
                }
                masks = None;
                let (t, s) = (g.color.clamped(), g.screen.clamped());
                self.op_words(&[
                    OP_COMPOSITE,
                    blend_number(g.blend),
                    stencil.0,
                    stencil.1,
                    t.r.to_bits(),
                    t.g.to_bits(),
                    t.b.to_bits(),
                    t.a.to_bits(),
                    s.r.to_bits(),
                    s.g.to_bits(),
                    s.b.to_bits(),
                ]);
                group += 1;
            }
        }
        self.end_clip(&mut clip);
    }

    /// Appends command `c`'s vertices and indices; returns its index range.
    fn push_command(&mut self, list: &DrawList, c: &DrawCommand) -> (u32, u32) {
        let base = (self.vertices.len() / FLOATS_PER_VERTEX) as u32;
        let (light, dark) = shading(c);
        let pos = list.command_positions(c);
        let uvs = list.command_uvs(c);
        for (p, uv) in pos.chunks_exact(2).zip(uvs.chunks_exact(2)) {
            let [x, y] = self.place.apply(p[0], p[1]);
            self.vertices.extend_from_slice(&[x, y, uv[0], uv[1]]);
            self.vertices.extend_from_slice(&light);
            self.vertices.extend_from_slice(&dark);
        }
        let n = (pos.len() / 2).min(uvs.len() / 2) as u32;
        let first = self.indices.len() as u32;
        for &i in list.command_indices(c) {
            if u32::from(i) < n {
                self.indices.push(base + u32::from(i));
            }
        }
        (first, self.indices.len() as u32 - first)
    }

    /// A clip polygon as a triangle fan and the op drawing it into the stencil.
    fn push_clip(&mut self, list: &DrawList, clip: u32) {
        let poly = list.clip_polygon(clip);
        let base = (self.vertices.len() / FLOATS_PER_VERTEX) as u32;
        for p in poly.chunks_exact(2) {
            let [x, y] = self.place.apply(p[0], p[1]);
            self.vertices.extend_from_slice(&[x, y, 0.0, 0.0]);
            self.vertices.extend_from_slice(&[0.0; 8]);
        }
        let n = (poly.len() / 2) as u32;
        let first = self.indices.len() as u32;
        for i in 1..n.saturating_sub(1) {
            self.indices
                .extend_from_slice(&[base, base + i, base + i + 1]);
        }
        let count = self.indices.len() as u32 - first;
        self.op_words(&[OP_CLIP, first, count]);
    }

    fn end_clip(&mut self, clip: &mut Option<u32>) {
        if clip.take().is_some() {
            self.op_words(&[OP_UNCLIP]);
        }
    }

    /// The ops drawing a slot's (or group's) mask sources into the stencil.
    fn push_mask(&mut self, m: &SlotMask) {
        self.op_words(&[OP_MASK_CLEAR]);
        for &(source, dodge) in &m.sources {
            let Some(&k) = self.slot_command.get(source.index()) else {
                continue;
            };
            // The source command's geometry is already in the buffers.
            let Some(&(first, count, page)) = self.ranges.get(k as usize) else {
                continue;
            };
            let bit = if dodge { STENCIL_DODGE } else { STENCIL_MASK };
            self.op_words(&[
                OP_MASK_SOURCE,
                first,
                count,
                page,
                bit,
                m.threshold.to_bits(),
            ]);
        }
    }

    fn push_draw(&mut self, first: u32, count: u32, page: u32, blend: u32, stencil: (u32, u32)) {
        let n = self.ops.len();
        if n >= OP_WORDS && !reads_backdrop(blend) {
            let last = &mut self.ops[n - OP_WORDS..];
            if last[0] == OP_DRAW
                && last[1] + last[2] == first
                && last[3] == page
                && last[4] == blend
                && (last[5], last[6]) == stencil
            {
                last[2] += count;
                return;
            }
        }
        self.op_words(&[OP_DRAW, first, count, page, blend, stencil.0, stencil.1]);
    }

    /// Appends one op, zero-padded to [`OP_WORDS`].
    fn op_words(&mut self, words: &[u32]) {
        self.ops.extend_from_slice(words);
        self.ops.resize(self.ops.len() + OP_WORDS - words.len(), 0);
    }
}

/// A command's stencil test with its mask's bits added.
fn add_mask_bits(stencil: (u32, u32), m: &SlotMask) -> (u32, u32) {
    let (mut r, mut k) = stencil;
    if m.sources.iter().any(|s| !s.1) {
        r |= STENCIL_MASK;
        k |= STENCIL_MASK;
    }
    if m.sources.iter().any(|s| s.1) {
        k |= STENCIL_DODGE;
    }
    (r, k)
}

/// A command's shading constants (sinew-render's `Tint::new` / `Tint::screened`).
fn shading(c: &DrawCommand) -> ([f32; 4], [f32; 4]) {
    let l = c.color.tint_range();
    let light = [l.r * l.a, l.g * l.a, l.b * l.a, l.a];
    if let Some(s) = c.screen {
        let s = s.clamped();
        return (light, [s.r, s.g, s.b, 1.0]);
    }
    let d = c
        .dark
        .map_or(Color::new(0.0, 0.0, 0.0, 1.0), Color::tint_range);
    (light, [d.r * l.a, d.g * l.a, d.b * l.a, 0.0])
}

#[cfg(test)]
#[path = "frame_tests.rs"]
mod tests;
