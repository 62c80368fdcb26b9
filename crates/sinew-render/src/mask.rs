//! Masked drawing (Inochi2D masks): a command whose slot has mask sources is drawn only
//! inside the union of its `Mask` sources (everywhere when it has none) and outside the union
//! of its `DodgeMask` sources.
//!
//! [`MaskedRenderer::render`] draws a [`DrawList`] command by command through the ordinary
//! [`Renderer`]. An unmasked command goes straight onto the canvas. A masked one is drawn
//! off-screen: its sources (at their current pose, full opacity, normal blend) into a mask
//! layer whose alpha, zeroed below the source's threshold, is the mask; the content into a
//! second layer, which is scaled by `mask * (1 - dodge)` per pixel and composited with the
//! command's blend mode. Verified by the unit tests below (a square masked by a half-plane
//! square, the same dodged) and by the CLI render tests on the synthetic puppets.

use crate::blend::{Rgba, blend};
use crate::renderer::{Canvas, Renderer, View};
use crate::texture::Texture;
use sinew::draw::DrawList;
use sinew::{BlendMode, Color, SlotId};

/// The mask sources of one slot.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SlotMask {
    /// Source slots and whether each is a dodge mask (content kept outside it).
    pub sources: Vec<(SlotId, bool)>,
    /// Mask alpha at or below which a source does not mask.
    pub threshold: f32,
}

/// Scratch state for masked drawing (reused across frames).
#[derive(Debug, Clone, Default)]
pub struct MaskedRenderer {
    renderer: Renderer,
    sub: DrawList,
    mask: Vec<f32>,
    layer: Option<Canvas>,
}

const CLEAR: Color = Color {
    r: 0.0,
    g: 0.0,
    b: 0.0,
    a: 0.0,
};

impl MaskedRenderer {
    /// Empty scratch buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Draws `list` onto `canvas`; `masks[slot index]` gives a slot's mask sources (a slot
    /// beyond the slice, or with no sources, is unmasked).
    pub fn render(
        &mut self,
        list: &DrawList,
        textures: &[Texture],
        masks: &[SlotMask],
        view: &View,
        canvas: &mut Canvas,
    ) {
        let (w, h) = (canvas.width, canvas.height);
        let n = w as usize * h as usize;
        self.sub.clone_from(list);
        for cmd in &list.commands {
            let spec = masks
                .get(cmd.slot.index())
                .filter(|m| !m.sources.is_empty());
            let Some(spec) = spec else {
                self.sub.commands.clear();
                self.sub.commands.push(*cmd);
                self.renderer.render(&self.sub, textures, view, canvas);
                continue;
            };
            let layer = match &mut self.layer {
                Some(l) if l.width == w && l.height == h => l,
                slot => slot.insert(Canvas::new(w, h, CLEAR)),
            };
            self.mask.clear();
            self.mask.resize(n, 1.0);
            // Union of Mask sources (1 everywhere when there are none), then the dodges.
            for dodge in [false, true] {
                let mut any = false;
                layer.clear(CLEAR);
                self.sub.commands.clear();
                for &(src, d) in &spec.sources {
                    if d != dodge {
                        continue;
                    }
                    any = true;
                    if let Some(c) = list.commands.iter().find(|c| c.slot == src) {
                        let mut c = *c;
                        c.blend = BlendMode::Normal;
                        c.color.a = 1.0;
                        self.sub.commands.push(c);
                    }
                }
                if !any {
                    continue;
                }
                self.renderer.render(&self.sub, textures, view, layer);
                for (m, p) in self.mask.iter_mut().zip(&layer.pixels) {
                    let a = if p[3] > spec.threshold {
                        p[3].min(1.0)
                    } else {
                        0.0
                    };
                    *m *= if dodge { 1.0 - a } else { a };
                }
            }
            layer.clear(CLEAR);
            self.sub.commands.clear();
            let mut c = *cmd;
            c.blend = BlendMode::Normal;
            self.sub.commands.push(c);
            self.renderer.render(&self.sub, textures, view, layer);
            for ((d, s), m) in canvas.pixels.iter_mut().zip(&layer.pixels).zip(&self.mask) {
                if s[3] <= 0.0 || *m <= 0.0 {
                    continue;
                }
                let s: Rgba = s.map(|v| v * m);
                *d = blend(cmd.blend, s, *d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sinew::AttachmentId;
    use sinew::draw::DrawCommand;

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
