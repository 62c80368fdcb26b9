//! Masked and grouped drawing (Inochi2D masks and composites): a command whose slot has mask
//! sources is drawn only inside the union of its `Mask` sources (everywhere when it has none)
//! and outside the union of its `DodgeMask` sources; the commands of an off-screen group
//! ([`sinew::draw::DrawGroup`], an Inochi2D Composite) are drawn onto a transparent layer that
//! is composited once ([`crate::composite`]), masked the same way by the group's sources.
//!
//! [`MaskedRenderer::render_grouped`] draws a [`DrawList`] command by command through the
//! ordinary [`Renderer`]. An unmasked command goes straight onto its target (the canvas, or
//! its group's layer). A masked one is drawn off-screen: its sources (at their current pose,
//! full opacity, normal blend) into a mask layer whose alpha, zeroed below the source's
//! threshold, is the mask; the content into a second layer, which is scaled by
//! `mask * (1 - dodge)` per pixel and composited with the command's blend mode. The layers and
//! the mask are allocated on the first frame of a size and reused. Verified by the unit tests
//! below (a square masked by a half-plane square, the same dodged), the composite tests in
//! [`crate::composite`], `tests/all/alloc.rs` and the CLI render tests on the synthetic puppets.

use crate::advanced::blend_coverage;
use crate::composite::composite_layer;
use crate::renderer::{Canvas, Renderer, View};
use crate::texture::Texture;
use sinew::draw::{DrawCommand, DrawList};
use sinew::{BlendMode, Color};

pub use sinew::draw::SlotMask;

/// Scratch state for masked and grouped drawing (reused across frames).
///
/// Owner: the CPU renderer (`sinew-render`): masks and composites.
#[derive(Debug, Clone, Default)]
pub struct MaskedRenderer {
    renderer: Renderer,
    /// The commands of one sub-draw (a single command, or a mask's sources).
    sub: Vec<DrawCommand>,
    mask: Vec<f32>,
    layer: Option<Canvas>,
    group_layer: Option<Canvas>,
}

pub(crate) const CLEAR: Color = Color {
    r: 0.0,
    g: 0.0,
    b: 0.0,
    a: 0.0,
};

/// The layer in `slot`, (re)made transparent at `w x h` when missing or of another size.
fn layer_of(slot: &mut Option<Canvas>, w: u32, h: u32) -> Canvas {
    match slot.take() {
        Some(l) if l.width == w && l.height == h => l,
        _ => Canvas::new(w, h, CLEAR),
    }
}

impl MaskedRenderer {
    /// Empty scratch buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Draws `list` onto `canvas` without groups' masks; `masks[slot index]` gives a slot's
    /// mask sources (a slot beyond the slice, or with no sources, is unmasked).
    pub fn render(
        &mut self,
        list: &DrawList,
        textures: &[Texture],
        masks: &[SlotMask],
        view: &View,
        canvas: &mut Canvas,
    ) {
        self.render_grouped(list, textures, masks, &[], view, canvas);
    }

    /// Draws `list` onto `canvas`: `masks[slot index]` gives a slot's mask sources and
    /// `group_masks[bone index]` those of the group ([`sinew::draw::DrawGroup::bone`]) on that
    /// bone. Commands covered by [`DrawList::groups`] (sorted, not overlapping; others are
    /// ignored) are drawn onto a transparent layer composited once per group.
    pub fn render_grouped(
        &mut self,
        list: &DrawList,
        textures: &[Texture],
        masks: &[SlotMask],
        group_masks: &[SlotMask],
        view: &View,
        canvas: &mut Canvas,
    ) {
        let (w, h) = (canvas.width, canvas.height);
        let n = list.commands.len();
        let (mut k, mut gi) = (0, 0);
        while k < n {
            while list.groups.get(gi).is_some_and(|g| (g.first as usize) < k) {
                gi += 1;
            }
            let group = list
                .groups
                .get(gi)
                .filter(|g| g.first as usize == k && g.count > 0)
                .copied();
            let Some(g) = group else {
                self.draw_command(list, k, textures, masks, view, canvas);
                k += 1;
                continue;
            };
            let end = (k + g.count as usize).min(n);
            let mut layer = layer_of(&mut self.group_layer, w, h);
            layer.clear(CLEAR);
            for c in k..end {
                self.draw_command(list, c, textures, masks, view, &mut layer);
            }
            let spec = group_masks
                .get(g.bone.index())
                .filter(|m| !m.sources.is_empty());
            let mask = match spec {
                Some(spec) => {
                    self.build_mask(list, spec, textures, view, w, h);
                    Some(self.mask.as_slice())
                }
                None => None,
            };
            composite_layer(&g, &layer, mask, canvas);
            self.group_layer = Some(layer);
            k = end;
            gi += 1;
        }
    }

    /// Draws command `k` of `list` onto `target`, masked by its slot's sources.
    fn draw_command(
        &mut self,
        list: &DrawList,
        k: usize,
        textures: &[Texture],
        masks: &[SlotMask],
        view: &View,
        target: &mut Canvas,
    ) {
        let Some(cmd) = list.commands.get(k) else {
            return;
        };
        let spec = masks
            .get(cmd.slot.index())
            .filter(|m| !m.sources.is_empty());
        let Some(spec) = spec else {
            self.sub.clear();
            self.sub.push(*cmd);
            self.renderer
                .render_commands(list, &self.sub, textures, view, target);
            return;
        };
        let (w, h) = (target.width, target.height);
        self.build_mask(list, spec, textures, view, w, h);
        let mut layer = layer_of(&mut self.layer, w, h);
        layer.clear(CLEAR);
        self.sub.clear();
        let mut c = *cmd;
        c.blend = BlendMode::Normal;
        self.sub.push(c);
        self.renderer
            .render_commands(list, &self.sub, textures, view, &mut layer);
        for ((d, s), m) in target.pixels.iter_mut().zip(&layer.pixels).zip(&self.mask) {
            if s[3] <= 0.0 || *m <= 0.0 {
                continue;
            }
            *d = blend_coverage(cmd.blend, *s, *m, *d);
        }
        self.layer = Some(layer);
    }

    /// Fills `self.mask` (`w x h`) with `spec`'s mask: the union of its Mask sources (1
    /// everywhere when there are none) times one minus the union of its dodges.
    fn build_mask(
        &mut self,
        list: &DrawList,
        spec: &SlotMask,
        textures: &[Texture],
        view: &View,
        w: u32,
        h: u32,
    ) {
        let mut layer = layer_of(&mut self.layer, w, h);
        self.mask.clear();
        self.mask.resize(w as usize * h as usize, 1.0);
        for dodge in [false, true] {
            let mut any = false;
            layer.clear(CLEAR);
            self.sub.clear();
            for &(src, d) in &spec.sources {
                if d != dodge {
                    continue;
                }
                any = true;
                if let Some(c) = list.commands.iter().find(|c| c.slot == src) {
                    let mut c = *c;
                    c.blend = BlendMode::Normal;
                    c.color.a = 1.0;
                    self.sub.push(c);
                }
            }
            if !any {
                continue;
            }
            self.renderer
                .render_commands(list, &self.sub, textures, view, &mut layer);
            for (m, p) in self.mask.iter_mut().zip(&layer.pixels) {
                let a = if p[3] > spec.threshold {
                    p[3].min(1.0)
                } else {
                    0.0
                };
                *m *= if dodge { 1.0 - a } else { a };
            }
        }
        self.layer = Some(layer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blend::Rgba;
    use sinew::draw::DrawCommand;
    use sinew::{AttachmentId, SlotId};

    /// Two axis-aligned squares: slot 0 over [0,4]^2, slot 1 (the mask) over [2,6]x[0,4].
    fn list() -> DrawList {
        let mut l = DrawList::default();
        for (s, x0) in [(0u32, 0.0f32), (1, 2.0)] {
            let start = (l.positions.len() / 2) as u32;
            l.positions
                .extend([x0, 0.0, x0, 4.0, x0 + 4.0, 4.0, x0 + 4.0, 0.0]);
            l.uvs.extend([0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
            let istart = l.indices.len() as u32;
            l.indices.extend([0, 1, 2, 2, 3, 0]);
            l.commands.push(DrawCommand {
                slot: SlotId(s as u16),
                attachment: AttachmentId(s),
                page: 99,
                blend: BlendMode::Normal,
                color: Color::new(1.0, 0.0, 0.0, 1.0),
                dark: None,
                screen: None,
                vertex_start: start,
                vertex_count: 4,
                index_start: istart,
                index_count: 6,
                clip: None,
            });
        }
        // Draw only slot 0 (the mask source stays in the list but is hidden by order: it is
        // drawn first at zero opacity).
        l.commands.swap(0, 1);
        l.commands[0].color.a = 0.0;
        l
    }

    fn draw(dodge: bool) -> Canvas {
        let view = View {
            x0: 0.0,
            y0: 0.0,
            x1: 8.0,
            y1: 4.0,
        };
        let mut canvas = Canvas::new(8, 4, CLEAR);
        let masks = vec![SlotMask {
            sources: vec![(SlotId(1), dodge)],
            threshold: 0.0,
        }];
        MaskedRenderer::new().render(&list(), &[], &masks, &view, &mut canvas);
        canvas
    }

    #[test]
    fn mask_keeps_the_inside_and_dodge_the_outside() {
        let alpha = |c: &Canvas, x: usize| c.pixels[x + 8].at(3);
        let m = draw(false);
        let d = draw(true);
        // Content covers x in [0,4]; the mask x in [2,6].
        for x in 0..8 {
            let (want_m, want_d) = match x {
                0 | 1 => (0.0, 1.0),
                2 | 3 => (1.0, 0.0),
                _ => (0.0, 0.0),
            };
            assert!(
                (alpha(&m, x) - want_m).abs() < 1e-5,
                "mask x={x}: {}",
                alpha(&m, x)
            );
            assert!(
                (alpha(&d, x) - want_d).abs() < 1e-5,
                "dodge x={x}: {}",
                alpha(&d, x)
            );
        }
    }

    trait At {
        fn at(&self, i: usize) -> f32;
    }
    impl At for Rgba {
        fn at(&self, i: usize) -> f32 {
            self[i]
        }
    }
}
