//! From a sinew draw list to batches (one mesh each), and the off-screen passes of a character
//! that needs them.
//!
//! [`Batcher`] turns a `DrawList` into batches: runs of consecutive commands with the same
//! atlas page and blend mode become one mesh (so a character draws in one draw call per page
//! and blend run, in draw order). Each vertex carries the command's light tint and its dark
//! colour (Spine tint black) or screen tint (Inochi2D), which `sinew.wgsl` shades exactly as
//! sinew-render's `Tint::shade`. Clipped commands are clipped on the CPU against the clip
//! polygon, split into convex pieces with sinew-render's `ClipCache` (ear clipping, the
//! triangulation kept between frames) and `clip_convex` (Sutherland–Hodgman), the pieces'
//! texture coordinates interpolated in their source triangle: the same geometry the CPU
//! renderer fills. Spine 4.3 `convex` clips clip by the draw list's polygon (their hull) as
//! one convex piece, and `inverse` clips keep what lies outside it (`clip_outside`).
//!
//! Inochi2D masks: a masked command's sources are batched first ([`MaskMode::Source`],
//! depth only), then the command ([`MaskMode::Inside`] or `Outside`), all on one z layer;
//! see `material.rs` for the depth test. The mask is hard-edged (sinew-render scales by the
//! sources' coverage), and a command with both Mask and DodgeMask sources uses only the Mask
//! ones.
//!
//! **Layered characters.** A draw list with a composite group ([`DrawList::groups`]) or a
//! command whose blend mode reads the destination in a shader ([`reads_destination`]:
//! Overlay, Darken, Lighten, ColorDodge, LinearDodge, ColorBurn, HardLight, SoftLight,
//! Difference, Exclusion, Subtract) is drawn in off-screen *passes* when [`Batcher::build`]
//! is asked to layer it: each pass is drawn by its own camera into a layer image the size of
//! the view (`layers.rs`), in the order the passes are finished ([`Batcher::pass_order`]):
//! - the character's own chain draws into images 0 and 1 by turns: a command that reads the
//!   destination ends the pass, and the next pass starts with a copy of the last image
//!   (a screen quad with normal blending onto the cleared image) and draws the command with
//!   the last image bound as its backdrop (the blend formula in the shader, written over);
//! - a group's commands draw the same way into a chain of their own (images `2 + 2g` and
//!   `3 + 2g` for the g-th group), from transparent; then its last image is drawn onto the
//!   character's chain as a screen quad shaded with the group's tint, screen tint and
//!   opacity, in the group's blend mode and under the group's masks: the composite drawn
//!   once, as Inochi2D and sinew-render draw it;
//! - the character's last image is drawn in pass 0 (by the view's own camera, where an
//!   unlayered character's batches draw) as one screen quad with normal blending.
//!
//! A layered character is thereby flattened onto transparent before it meets the scene (as
//! Inochi2D draws a puppet into its scene buffer): its blend modes read its own parts, not
//! the sprites behind it. Unlayered (no view camera to follow), a group's tint and opacity
//! multiply its commands' colours and the destination-reading modes draw as normal.

use crate::material::MaskMode;
use sinew::draw::{DrawCommand, DrawGroup, DrawList, DrawSetup, SlotMask};
use sinew::{BlendMode, Color as SinewColor};
use sinew_render::clip::{ClipCache, clip_convex, clip_outside, signed_area2};

/// z distance between a character's consecutive batches (a character with `n` batches spans
/// `n * Z_STEP` above its own z).
pub const Z_STEP: f32 = 1e-4;

/// Whether a blend mode reads the destination in the shader (the separable modes of
/// `sinew_render::advanced` that fixed-function blending cannot draw).
pub fn reads_destination(mode: BlendMode) -> bool {
    sinew_render::advanced::separable(mode, 0.5, 0.5).is_some()
}

/// One mesh's worth of a draw list: consecutive commands with one page and blend mode, or
/// one screen quad of a layered character.
///
/// Owner: [`Batcher`] (rebuilt each frame).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Batch {
    /// Atlas page (`DrawCommand::page`); unused when `image` is set.
    pub page: u32,
    /// A screen quad sampling this layer image of the character instead of a page (its
    /// positions are clip-space corners).
    pub image: Option<u16>,
    /// The layer image read as the destination by a blend mode that needs it.
    pub backdrop: Option<u16>,
    /// The pass that draws it: 0 the view's camera, `p > 0` the character's pass `p`.
    pub pass: u16,
    /// Blend mode.
    pub blend: BlendMode,
    /// Its role in an Inochi2D mask.
    pub mask: MaskMode,
    /// Its z layer: `layer * Z_STEP` above the character (a mask's sources and its part
    /// share one).
    pub layer: u32,
    /// Positions, world units, y up (z = 0).
    pub positions: Vec<[f32; 3]>,
    /// Texture coordinates on the page (v down).
    pub uvs: Vec<[f32; 2]>,
    /// Light tint, straight alpha.
    pub light: Vec<[f32; 4]>,
    /// Dark colour (w = 0) or screen tint (w = 1).
    pub dark: Vec<[f32; 4]>,
    /// Triangles.
    pub indices: Vec<u32>,
}

/// What a new batch is: its source, blend, mask role, z layer and pass.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Key {
    page: u32,
    image: Option<u16>,
    backdrop: Option<u16>,
    pass: u16,
    blend: BlendMode,
    mask: MaskMode,
    layer: u32,
}

impl Batch {
    fn clear(&mut self, k: Key) {
        self.page = k.page;
        self.image = k.image;
        self.backdrop = k.backdrop;
        self.pass = k.pass;
        self.blend = k.blend;
        self.mask = k.mask;
        self.layer = k.layer;
        self.positions.clear();
        self.uvs.clear();
        self.light.clear();
        self.dark.clear();
        self.indices.clear();
    }

    fn key(&self) -> Key {
        Key {
            page: self.page,
            image: self.image,
            backdrop: self.backdrop,
            pass: self.pass,
            blend: self.blend,
            mask: self.mask,
            layer: self.layer,
        }
    }

    fn push_vertex(&mut self, p: [f32; 2], uv: [f32; 2], light: [f32; 4], dark: [f32; 4]) -> u32 {
        let i = self.positions.len() as u32;
        self.positions.push([p[0], p[1], 0.0]);
        self.uvs.push(uv);
        self.light.push(light);
        self.dark.push(dark);
        i
    }
}

/// A chain of passes drawing into two layer images by turns.
#[derive(Debug, Clone, Copy)]
struct Chain {
    /// Its current pass.
    pass: u16,
    /// The images it alternates between.
    images: [u16; 2],
    /// Which of them the current pass draws into.
    which: usize,
}

impl Chain {
    fn image(&self) -> u16 {
        self.images[self.which]
    }
}

/// Builds [`Batch`]es from draw lists, reusing its buffers (see the module docs).
///
/// Owner: `draw_characters` keeps one per character (`SinewBatches`).
#[derive(Debug, Clone, Default)]
pub struct Batcher {
    batches: Vec<Batch>,
    pub(crate) used: usize,
    /// Per pass `p` (at `p - 1`): the layer image it draws into.
    pass_images: Vec<u16>,
    /// The passes in the order they are finished (the order their cameras run).
    pass_order: Vec<u16>,
    /// How many layer images the passes use.
    images: u16,
    layer: u32,
    clips: ClipCache,
    pieces: Vec<[[f32; 2]; 3]>,
    poly: Vec<[f32; 2]>,
    out: Vec<[f32; 2]>,
    tmp: Vec<[f32; 2]>,
    rest: Vec<[f32; 2]>,
}

impl Batcher {
    /// An empty batcher.
    pub fn new() -> Self {
        Self::default()
    }

    /// The batches of the last [`Batcher::build`], in draw order.
    pub fn batches(&self) -> &[Batch] {
        &self.batches[..self.used]
    }

    /// The off-screen passes of the last build, in the order they must be drawn (empty when
    /// it was not layered).
    pub fn pass_order(&self) -> &[u16] {
        &self.pass_order
    }

    /// The layer image pass `p` (1-based) draws into.
    pub fn pass_image(&self, p: u16) -> Option<u16> {
        self.pass_images
            .get(usize::from(p).checked_sub(1)?)
            .copied()
    }

    /// How many layer images the last build's passes use.
    pub fn images(&self) -> u16 {
        self.images
    }

    /// Whether a draw list needs off-screen passes to be drawn as sinew-render draws it.
    pub fn needs_layers(list: &DrawList) -> bool {
        !list.groups.is_empty() || list.commands.iter().any(|c| reads_destination(c.blend))
    }

    /// Batches `list` (commands in order; a new batch where the page or blend mode changes),
    /// with the masks of `setup` (a masked command: its sources, then itself, on one
    /// layer); in off-screen passes when `layered` and the list needs them (module docs).
    pub fn build(&mut self, list: &DrawList, setup: &DrawSetup, layered: bool) {
        self.used = 0;
        self.layer = 0;
        self.pass_images.clear();
        self.pass_order.clear();
        self.images = 0;
        if layered && Self::needs_layers(list) {
            self.build_layered(list, setup);
        } else {
            self.build_flat(list, setup);
        }
        // A clip that hid all of its batch's commands leaves an empty batch: drop it.
        let mut kept = 0;
        for i in 0..self.used {
            if !self.batches[i].indices.is_empty() {
                self.batches.swap(kept, i);
                kept += 1;
            }
        }
        self.used = kept;
    }

    fn build_flat(&mut self, list: &DrawList, setup: &DrawSetup) {
        for (k, cmd) in list.commands.iter().enumerate() {
            let mut color = cmd.color;
            if let Some(g) = list
                .groups
                .iter()
                .find(|g| (g.first as usize..(g.first + g.count) as usize).contains(&k))
            {
                color = SinewColor::new(
                    color.r * g.color.r,
                    color.g * g.color.g,
                    color.b * g.color.b,
                    color.a * g.color.a,
                );
            }
            self.command(list, setup, cmd, color, 0, None);
        }
    }

    fn build_layered(&mut self, list: &DrawList, setup: &DrawSetup) {
        let mut top = self.open_chain([0, 1]);
        let mut group: Option<(&DrawGroup, Chain)> = None;
        let mut groups = 0u16;
        for (k, cmd) in list.commands.iter().enumerate() {
            let k = k as u32;
            if group.is_none()
                && let Some(g) = list.groups.iter().find(|g| g.first == k && g.count > 0)
            {
                let base = 2 + 2 * groups;
                groups += 1;
                group = Some((g, self.open_chain([base, base + 1])));
            }
            let chain = match group.as_mut() {
                Some((_, c)) => c,
                None => &mut top,
            };
            let visible = cmd.color.a > 0.0 && !cmd.color.a.is_nan();
            if visible {
                let backdrop = reads_destination(cmd.blend).then(|| self.break_chain(chain));
                let pass = chain.pass;
                self.command(list, setup, cmd, cmd.color, pass, backdrop);
            }
            if let Some((g, chain)) = group.take_if(|(g, _)| k + 1 >= g.first + g.count) {
                self.pass_order.push(chain.pass);
                self.composite(list, &mut top, g, chain.image(), setup);
            }
        }
        if let Some((g, chain)) = group.take() {
            self.pass_order.push(chain.pass);
            self.composite(list, &mut top, g, chain.image(), setup);
        }
        self.pass_order.push(top.pass);
        self.layer += 1;
        let k = self.key(0, None, BlendMode::Normal, MaskMode::None);
        self.open(Key {
            image: Some(top.image()),
            ..k
        });
        self.push_screen_quad([1.0; 4], [0.0; 4]);
    }

    /// A new chain on two images, its first pass open.
    fn open_chain(&mut self, images: [u16; 2]) -> Chain {
        self.images = self.images.max(images[1] + 1);
        self.pass_images.push(images[0]);
        Chain {
            pass: self.pass_images.len() as u16,
            images,
            which: 0,
        }
    }

    /// Ends the chain's pass and starts the next on its other image with a copy of the
    /// last one; returns the last image (the backdrop of what follows).
    fn break_chain(&mut self, chain: &mut Chain) -> u16 {
        let last = chain.image();
        self.pass_order.push(chain.pass);
        chain.which ^= 1;
        self.pass_images.push(chain.image());
        chain.pass = self.pass_images.len() as u16;
        self.layer += 1;
        let k = self.key(chain.pass, None, BlendMode::Normal, MaskMode::None);
        self.open(Key {
            image: Some(last),
            ..k
        });
        self.push_screen_quad([1.0; 4], [0.0; 4]);
        last
    }

    /// Draws a finished group's image onto the character's chain (module docs).
    fn composite(
        &mut self,
        list: &DrawList,
        top: &mut Chain,
        g: &DrawGroup,
        image: u16,
        setup: &DrawSetup,
    ) {
        let c = g.color.clamped();
        let s = g.screen.clamped();
        let backdrop = reads_destination(g.blend).then(|| self.break_chain(top));
        let spec = setup
            .group_masks
            .get(g.bone.index())
            .filter(|m| !m.sources.is_empty());
        let mask = match spec {
            Some(spec) => self.mask_sources(spec, top.pass, list),
            None => {
                self.layer += 1;
                MaskMode::None
            }
        };
        let k = self.key(top.pass, backdrop, g.blend, mask);
        self.open(Key {
            image: Some(image),
            ..k
        });
        self.push_screen_quad([c.r, c.g, c.b, c.a], [s.r, s.g, s.b, 1.0]);
    }

    fn key(&self, pass: u16, backdrop: Option<u16>, blend: BlendMode, mask: MaskMode) -> Key {
        Key {
            page: 0,
            image: None,
            backdrop,
            pass,
            blend,
            mask,
            layer: self.layer,
        }
    }

    /// One command (with its mask sources) into pass `pass`.
    fn command(
        &mut self,
        list: &DrawList,
        setup: &DrawSetup,
        cmd: &DrawCommand,
        color: SinewColor,
        pass: u16,
        backdrop: Option<u16>,
    ) {
        if color.a <= 0.0 || color.a.is_nan() {
            return;
        }
        let (light, dark) = shading(color, cmd);
        let spec = setup
            .slot_masks
            .get(cmd.slot.index())
            .filter(|m| !m.sources.is_empty());
        let mask = match spec {
            Some(spec) => self.mask_sources(spec, pass, list),
            None => MaskMode::None,
        };
        let key = Key {
            page: cmd.page,
            ..self.key(pass, backdrop, cmd.blend, mask)
        };
        if mask != MaskMode::None || !self.continues(key) {
            if mask == MaskMode::None {
                self.layer += 1;
            }
            self.open(Key {
                layer: self.layer,
                ..key
            });
        }
        self.push(list, cmd, light, dark);
    }

    /// Batches a mask's sources (found in `list`) on a new z layer; returns the masked
    /// draw's role.
    fn mask_sources(&mut self, spec: &SlotMask, pass: u16, list: &DrawList) -> MaskMode {
        // COMPAT(inochi2d): inside the union of the Mask sources, outside the union of
        // the DodgeMask ones; with both kinds only the Mask sources are used here.
        let inside = spec.sources.iter().any(|&(_, dodge)| !dodge);
        self.layer += 1;
        let mut any = false;
        for &(src, dodge) in &spec.sources {
            if dodge == inside {
                continue;
            }
            let Some(source) = list.commands.iter().find(|c| c.slot == src) else {
                continue;
            };
            let key = Key {
                page: source.page,
                ..self.key(pass, None, BlendMode::Normal, MaskMode::Source)
            };
            if !any || !self.continues(key) {
                self.open(key);
            }
            any = true;
            self.push(list, source, [1.0; 4], [0.0, 0.0, 0.0, spec.threshold]);
        }
        if inside {
            MaskMode::Inside
        } else {
            MaskMode::Outside
        }
    }

    /// Whether the last batch takes a command of this key.
    fn continues(&self, key: Key) -> bool {
        self.used > 0
            && self.batches[self.used - 1].key() == key
            && key.backdrop.is_none()
            && key.image.is_none()
            && matches!(key.mask, MaskMode::None | MaskMode::Source)
    }

    /// Starts a batch.
    fn open(&mut self, key: Key) {
        if self.used == self.batches.len() {
            self.batches.push(Batch::default());
        }
        self.batches[self.used].clear(key);
        self.used += 1;
    }

    /// A quad over the whole view (clip-space corners; v down) into the last batch.
    fn push_screen_quad(&mut self, light: [f32; 4], dark: [f32; 4]) {
        let b = &mut self.batches[self.used - 1];
        for (p, uv) in [
            ([-1.0, -1.0], [0.0, 1.0]),
            ([1.0, -1.0], [1.0, 1.0]),
            ([1.0, 1.0], [1.0, 0.0]),
            ([-1.0, 1.0], [0.0, 0.0]),
        ] {
            b.push_vertex(p, uv, light, dark);
        }
        b.indices.extend([0, 1, 2, 2, 3, 0]);
    }

    /// Adds a command's triangles (clipped by its clip, if any) to the last batch.
    fn push(&mut self, list: &DrawList, cmd: &DrawCommand, light: [f32; 4], dark: [f32; 4]) {
        match cmd.clip {
            None => self.push_plain(list, cmd, light, dark),
            Some(c) => self.push_clipped(list, cmd, c, light, dark),
        }
    }
    fn push_plain(&mut self, list: &DrawList, cmd: &DrawCommand, light: [f32; 4], dark: [f32; 4]) {
        let b = &mut self.batches[self.used - 1];
        let base = b.positions.len() as u32;
        let (pos, uvs) = (list.command_positions(cmd), list.command_uvs(cmd));
        let n = pos.len() / 2;
        for i in 0..n {
            let uv = [
                uvs.get(2 * i).copied().unwrap_or(0.0),
                uvs.get(2 * i + 1).copied().unwrap_or(0.0),
            ];
            b.push_vertex([pos[2 * i], pos[2 * i + 1]], uv, light, dark);
        }
        for t in list.command_indices(cmd).chunks_exact(3) {
            if t.iter().all(|&i| (i as usize) < n) {
                b.indices.extend(t.iter().map(|&i| base + u32::from(i)));
            }
        }
    }

    fn push_clipped(
        &mut self,
        list: &DrawList,
        cmd: &DrawCommand,
        clip: u32,
        light: [f32; 4],
        dark: [f32; 4],
    ) {
        self.poly.clear();
        self.poly.extend(
            list.clip_polygon(clip)
                .chunks_exact(2)
                .map(|p| [p[0], p[1]]),
        );
        let (key, convex, inverse) = list
            .clips
            .get(clip as usize)
            .map_or((u32::MAX, false, false), |c| {
                (u32::from(c.slot.0), c.convex, c.inverse)
            });
        if convex || inverse {
            // Spine 4.3: the draw list holds the polygon's hull already (`sinew::draw::hull`),
            // one convex piece; only its orientation is to fix for the clippers.
            if signed_area2(&self.poly) < 0.0 {
                self.poly.reverse();
            }
            if self.poly.len() < 3 && !inverse {
                return; // no area: hides what it clips; an inverse clip then cuts nothing
            }
        } else {
            self.clips.pieces(key, &self.poly, &mut self.pieces);
            if self.pieces.is_empty() {
                return; // a degenerate clip polygon hides what it clips (as sinew-render)
            }
        }
        let (pos, uvs) = (list.command_positions(cmd), list.command_uvs(cmd));
        let at = |v: &[f32], i: u16| {
            let i = usize::from(i) * 2;
            [
                v.get(i).copied().unwrap_or(0.0),
                v.get(i + 1).copied().unwrap_or(0.0),
            ]
        };
        let Batcher {
            batches,
            used,
            pieces,
            poly,
            out,
            tmp,
            rest,
            ..
        } = self;
        let b = &mut batches[*used - 1];
        for t in list.command_indices(cmd).chunks_exact(3) {
            let p = [at(pos, t[0]), at(pos, t[1]), at(pos, t[2])];
            let uv = [at(uvs, t[0]), at(uvs, t[1]), at(uvs, t[2])];
            let Some(bary) = Barycentric::new(p) else {
                continue;
            };
            // One clipped polygon as a fan, its texture coordinates from the source triangle.
            let mut emit = |q: &[[f32; 2]]| {
                if q.len() < 3 {
                    return;
                }
                let base = b.positions.len() as u32;
                for &q in q {
                    let w = bary.weights(q);
                    let u = w[0] * uv[0][0] + w[1] * uv[1][0] + w[2] * uv[2][0];
                    let v = w[0] * uv[0][1] + w[1] * uv[1][1] + w[2] * uv[2][1];
                    b.push_vertex(q, [u, v], light, dark);
                }
                for i in 1..q.len() as u32 - 1 {
                    b.indices.extend([base, base + i, base + i + 1]);
                }
            };
            if inverse {
                // What lies outside the hull, in convex pieces (as sinew-render cuts it).
                clip_outside(&p, poly, rest, out, tmp, &mut emit);
            } else if convex {
                clip_convex(&p, poly, out, tmp);
                emit(out);
            } else {
                for piece in pieces.iter() {
                    clip_convex(&p, piece, out, tmp);
                    emit(out);
                }
            }
        }
    }
}

/// Barycentric coordinates over one triangle.
struct Barycentric {
    p0: [f32; 2],
    e1: [f32; 2],
    e2: [f32; 2],
    inv_det: f32,
}

impl Barycentric {
    fn new(p: [[f32; 2]; 3]) -> Option<Self> {
        let e1 = [p[1][0] - p[0][0], p[1][1] - p[0][1]];
        let e2 = [p[2][0] - p[0][0], p[2][1] - p[0][1]];
        let det = e1[0] * e2[1] - e1[1] * e2[0];
        (det != 0.0 && det.is_finite()).then(|| Barycentric {
            p0: p[0],
            e1,
            e2,
            inv_det: 1.0 / det,
        })
    }

    fn weights(&self, q: [f32; 2]) -> [f32; 3] {
        let d = [q[0] - self.p0[0], q[1] - self.p0[1]];
        let w1 = (d[0] * self.e2[1] - d[1] * self.e2[0]) * self.inv_det;
        let w2 = (self.e1[0] * d[1] - self.e1[1] * d[0]) * self.inv_det;
        [1.0 - w1 - w2, w1, w2]
    }
}

/// A command's vertex colours: the light tint (DragonBones ranges kept, as sinew-render's
/// `Tint::new`) and the dark colour or screen tint.
fn shading(color: SinewColor, cmd: &DrawCommand) -> ([f32; 4], [f32; 4]) {
    let l = color.tint_range();
    let dark = match (cmd.screen, cmd.dark) {
        (Some(s), _) => {
            let s = s.clamped();
            [s.r, s.g, s.b, 1.0]
        }
        (None, Some(d)) => {
            let d = d.tint_range();
            [d.r, d.g, d.b, 0.0]
        }
        (None, None) => [0.0; 4],
    };
    ([l.r, l.g, l.b, l.a], dark)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sinew::draw::ClipPolygon;
    use sinew::{AttachmentId, SlotId};

    /// A unit quad command at `x` (corners BL, UL, UR, BR, uvs over the whole page).
    fn quad(
        list: &mut DrawList,
        slot: u16,
        x: f32,
        page: u32,
        blend: BlendMode,
        clip: Option<u32>,
    ) {
        let vertex_start = (list.positions.len() / 2) as u32;
        list.positions
            .extend([x, 0.0, x, 1.0, x + 1.0, 1.0, x + 1.0, 0.0]);
        list.uvs.extend([0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
        let index_start = list.indices.len() as u32;
        list.indices.extend(sinew::draw::QUAD_TRIANGLES);
        list.commands.push(DrawCommand {
            slot: SlotId(slot),
            attachment: AttachmentId(0),
            page,
            blend,
            color: SinewColor::new(1.0, 0.5, 0.25, 0.5),
            dark: Some(SinewColor::new(0.1, 0.2, 0.3, 1.0)),
            screen: None,
            vertex_start,
            vertex_count: 4,
            index_start,
            index_count: 6,
            clip,
        });
    }

    fn area(b: &Batch) -> f32 {
        b.indices
            .chunks_exact(3)
            .map(|t| {
                let [p, q, r] = [0, 1, 2].map(|k| b.positions[t[k] as usize]);
                ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])).abs() / 2.0
            })
            .sum()
    }

    #[test]
    fn runs_of_one_page_and_blend_make_one_batch() {
        let mut list = DrawList::default();
        quad(&mut list, 0, 0.0, 0, BlendMode::Normal, None);
        quad(&mut list, 1, 2.0, 0, BlendMode::Normal, None);
        quad(&mut list, 2, 4.0, 0, BlendMode::Additive, None);
        quad(&mut list, 3, 6.0, 1, BlendMode::Additive, None);
        quad(&mut list, 4, 8.0, 1, BlendMode::Additive, None);
        let mut b = Batcher::new();
        b.build(&list, &DrawSetup::default(), false);
        let runs: Vec<_> = b
            .batches()
            .iter()
            .map(|x| (x.page, x.blend, x.indices.len()))
            .collect();
        assert_eq!(
            runs,
            [
                (0, BlendMode::Normal, 12),
                (0, BlendMode::Additive, 6),
                (1, BlendMode::Additive, 12)
            ]
        );
        // Indices of the second quad point at its own vertices, colours per vertex.
        let first = &b.batches()[0];
        assert_eq!(&first.indices[6..], &[4, 5, 6, 6, 7, 4]);
        assert_eq!(first.light[5], [1.0, 0.5, 0.25, 0.5]);
        assert_eq!(first.dark[5], [0.1, 0.2, 0.3, 0.0]);
        // Rebuilt with fewer commands, the batcher reuses its batches.
        list.commands.truncate(1);
        b.build(&list, &DrawSetup::default(), false);
        assert_eq!(b.batches().len(), 1);
        assert_eq!(b.batches()[0].positions.len(), 4);
    }

    #[test]
    fn a_clip_cuts_the_triangles_and_keeps_their_texture_coordinates() {
        let mut list = DrawList::default();
        // The clip: the left half of the quad, as a triangle pair's outline.
        list.clip_vertices
            .extend([0.0, 0.0, 0.5, 0.0, 0.5, 1.0, 0.0, 1.0]);
        list.clips.push(ClipPolygon {
            slot: SlotId(9),
            vertex_start: 0,
            vertex_count: 4,
            convex: false,
            inverse: false,
        });
        quad(&mut list, 0, 0.0, 0, BlendMode::Normal, Some(0));
        let mut b = Batcher::new();
        b.build(&list, &DrawSetup::default(), false);
        let batch = &b.batches()[0];
        assert!(
            (area(batch) - 0.5).abs() < 1e-5,
            "half the quad: {}",
            area(batch)
        );
        for (p, uv) in batch.positions.iter().zip(&batch.uvs) {
            assert!(p[0] <= 0.5 + 1e-6, "inside the clip: {p:?}");
            // u follows x and v is 1 - y on this quad.
            assert!((uv[0] - p[0]).abs() < 1e-5 && (uv[1] - (1.0 - p[1])).abs() < 1e-5);
        }
        // A degenerate clip hides what it clips (as sinew-render does).
        list.clip_vertices.clear();
        list.clip_vertices.extend([0.0; 8]);
        b.build(&list, &DrawSetup::default(), false);
        assert!(b.batches().is_empty());
    }

    #[test]
    fn convex_and_inverse_clips_keep_inside_and_outside_their_hull() {
        // A diamond in the quad (area 0.5), clockwise as a mirrored rig would give it.
        let diamond = [0.5, 0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 0.5];
        for inverse in [false, true] {
            let mut list = DrawList::default();
            list.clip_vertices.extend(diamond);
            list.clips.push(ClipPolygon {
                slot: SlotId(9),
                vertex_start: 0,
                vertex_count: 4,
                convex: true,
                inverse,
            });
            quad(&mut list, 0, 0.0, 0, BlendMode::Normal, Some(0));
            let mut b = Batcher::new();
            b.build(&list, &DrawSetup::default(), false);
            let batch = &b.batches()[0];
            assert!(
                (area(batch) - 0.5).abs() < 1e-5,
                "{inverse}: {}",
                area(batch)
            );
            for (p, uv) in batch.positions.iter().zip(&batch.uvs) {
                let d = (p[0] - 0.5).abs() + (p[1] - 0.5).abs();
                if inverse {
                    assert!(d >= 0.5 - 1e-5, "outside the diamond: {p:?}");
                } else {
                    assert!(d <= 0.5 + 1e-5, "inside the diamond: {p:?}");
                }
                assert!((uv[0] - p[0]).abs() < 1e-5 && (uv[1] - (1.0 - p[1])).abs() < 1e-5);
            }
        }
        // No hull (a polygon without area): a convex clip hides, an inverse one keeps all.
        for (inverse, kept) in [(false, 0.0), (true, 1.0)] {
            let mut list = DrawList::default();
            list.clips.push(ClipPolygon {
                slot: SlotId(9),
                vertex_start: 0,
                vertex_count: 0,
                convex: true,
                inverse,
            });
            quad(&mut list, 0, 0.0, 0, BlendMode::Normal, Some(0));
            let mut b = Batcher::new();
            b.build(&list, &DrawSetup::default(), false);
            let got = b.batches().first().map_or(0.0, area);
            assert!((got - kept).abs() < 1e-5, "{inverse}: {got}");
        }
    }

    #[test]
    fn screen_tints_and_groups_reach_the_vertices() {
        let mut list = DrawList::default();
        quad(&mut list, 0, 0.0, 0, BlendMode::Normal, None);
        list.commands[0].screen = Some(SinewColor::new(0.5, 2.0, -1.0, 1.0));
        list.groups.push(sinew::draw::DrawGroup {
            bone: sinew::BoneId(0),
            first: 0,
            count: 1,
            blend: BlendMode::Normal,
            color: SinewColor::new(1.0, 1.0, 1.0, 0.5),
            screen: SinewColor::new(0.0, 0.0, 0.0, 1.0),
        });
        let mut b = Batcher::new();
        b.build(&list, &DrawSetup::default(), false);
        let batch = &b.batches()[0];
        assert_eq!(
            batch.dark[0],
            [0.5, 1.0, 0.0, 1.0],
            "screen tint clamped, w = 1"
        );
        assert_eq!(batch.light[0][3], 0.25, "the group's opacity multiplies");
        // A transparent command is left out.
        list.commands[0].color.a = 0.0;
        b.build(&list, &DrawSetup::default(), false);
        assert!(b.batches().is_empty());
    }

    #[test]
    fn a_masked_command_follows_its_sources_on_their_layer() {
        let mut list = DrawList::default();
        quad(&mut list, 0, 0.0, 0, BlendMode::Normal, None);
        quad(&mut list, 1, 0.5, 1, BlendMode::Multiply, None);
        quad(&mut list, 2, 3.0, 1, BlendMode::Multiply, None);
        let mut setup = DrawSetup {
            slot_masks: vec![sinew::draw::SlotMask::default(); 3],
            ..DrawSetup::default()
        };
        setup.slot_masks[1] = sinew::draw::SlotMask {
            sources: vec![(SlotId(0), false)],
            threshold: 0.25,
        };
        let mut b = Batcher::new();
        b.build(&list, &setup, false);
        let roles: Vec<_> = b
            .batches()
            .iter()
            .map(|x| (x.page, x.blend, x.mask, x.layer))
            .collect();
        assert_eq!(
            roles,
            [
                (0, BlendMode::Normal, MaskMode::None, 1),
                (0, BlendMode::Normal, MaskMode::Source, 2),
                (1, BlendMode::Multiply, MaskMode::Inside, 2),
                (1, BlendMode::Multiply, MaskMode::None, 3),
            ]
        );
        // The source carries the threshold and its own geometry.
        let source = &b.batches()[1];
        assert_eq!(source.dark[0], [0.0, 0.0, 0.0, 0.25]);
        assert_eq!(source.positions[0], [0.0, 0.0, 0.0]);
        // Dodge sources only: outside.
        setup.slot_masks[1].sources[0].1 = true;
        b.build(&list, &setup, false);
        assert_eq!(b.batches()[2].mask, MaskMode::Outside);
    }

    #[test]
    fn a_layered_list_draws_in_passes_with_backdrops_and_group_layers() {
        let mut list = DrawList::default();
        quad(&mut list, 0, 0.0, 0, BlendMode::Normal, None);
        quad(&mut list, 1, 0.5, 0, BlendMode::Overlay, None);
        quad(&mut list, 2, 1.0, 0, BlendMode::Normal, None);
        quad(&mut list, 3, 1.5, 0, BlendMode::Normal, None);
        list.groups.push(sinew::draw::DrawGroup {
            bone: sinew::BoneId(0),
            first: 2,
            count: 2,
            blend: BlendMode::Difference,
            color: SinewColor::new(1.0, 0.5, 1.0, 0.5),
            screen: SinewColor::new(0.25, 0.0, 0.0, 1.0),
        });
        let mut b = Batcher::new();
        // Not layered: one flat run per blend mode, the group's colour multiplied in.
        b.build(&list, &DrawSetup::default(), false);
        assert!(b.pass_order().is_empty());
        assert_eq!(b.batches().len(), 3);
        assert_eq!(b.batches()[2].light[0][3], 0.25);
        b.build(&list, &DrawSetup::default(), true);
        let shape: Vec<_> = b
            .batches()
            .iter()
            .map(|x| (x.pass, x.image, x.backdrop, x.blend))
            .collect();
        use BlendMode::{Difference, Normal, Overlay};
        assert_eq!(
            shape,
            [
                (1, None, None, Normal),           // the first quad into image 0
                (2, Some(0), None, Normal),        // pass 2 (image 1) starts with a copy of 0
                (2, None, Some(0), Overlay),       // then Overlay over that backdrop
                (3, None, None, Normal),           // the group's two quads, image 2
                (4, Some(1), None, Normal),        // Difference reads: pass 4 (image 0) copies 1
                (4, Some(2), Some(1), Difference), // the group's layer, styled, over 1
                (0, Some(0), None, Normal),        // the character's last image in the view
            ]
        );
        assert_eq!(b.pass_order(), [1, 3, 2, 4]);
        assert_eq!(
            [1, 2, 3, 4].map(|p| b.pass_image(p)),
            [0, 1, 2, 0].map(Some)
        );
        assert_eq!(b.images(), 4);
        // The group's quad carries its tint and opacity (light) and screen tint (dark, w = 1),
        // the group's colour no longer multiplies its commands.
        let group = &b.batches()[5];
        assert_eq!(group.light[0], [1.0, 0.5, 1.0, 0.5]);
        assert_eq!(group.dark[0], [0.25, 0.0, 0.0, 1.0]);
        assert_eq!(b.batches()[3].light[0][3], 0.5);
        assert_eq!(group.positions.len(), 4, "a screen quad");
        // z layers keep rising through the passes.
        assert!(
            b.batches()
                .windows(2)
                .all(|w| w[0].layer < w[1].layer
                    || w[0].pass == w[1].pass && w[0].layer == w[1].layer)
        );
    }
}
