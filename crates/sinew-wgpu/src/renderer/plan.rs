//! Planning a frame: the draw list's vertices, indices and uniform slots go into the staging
//! vectors and the frame becomes a list of operations (passes, backdrop copies, draws,
//! full-screen stencil writes and composites); consecutive compatible commands are batched.

use super::pipeline::{Kind, PipeKey, Stencil, mode_number, shader_mode};
use super::{CLIP_BIT, DODGE_BIT, Frame, GpuRenderer, MASK_BIT, SLOT_STRIDE, SlotData, Vertex};
use crate::grid::SampleGrid;
use sinew::draw::{DrawList, NO_PAGE, SlotMask};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Target {
    Main,
    Layer,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Op {
    /// Draw into `target` next, cleared to `clear` first when given.
    Begin {
        target: Target,
        clear: Option<wgpu::Color>,
    },
    /// Copy the current target into the backdrop.
    Copy,
    /// Indexed draw of `count` indices from `first`.
    Draw {
        key: PipeKey,
        page: u32,
        slot: u32,
        first: u32,
        count: u32,
        reference: u32,
        batchable: bool,
    },
    /// Full-screen triangle.
    Fullscreen {
        key: PipeKey,
        slot: u32,
        reference: u32,
    },
}

impl GpuRenderer {
    fn push_slot(&mut self, s: SlotData) -> u32 {
        let k = self.cpu_slots.len() / SLOT_STRIDE;
        self.cpu_slots.extend_from_slice(bytemuck::bytes_of(&s));
        self.cpu_slots.resize((k + 1) * SLOT_STRIDE, 0);
        k as u32
    }

    /// Fills the staging vectors and the operation list for `frame`.
    pub(super) fn plan(&mut self, frame: &Frame<'_>) {
        let list = frame.list;
        self.cpu_vertices.clear();
        self.cpu_indices.clear();
        self.cpu_slots.clear();
        self.bases.clear();
        self.ops.clear();
        self.clip_in_stencil = None;
        let grid = self.targets.as_ref().map_or_else(
            || SampleGrid::new(frame.width.max(1), frame.height.max(1), 1),
            |t| t.grid,
        );
        let [axis_x, axis_y, offset] =
            grid.world_to_clip(&frame.view, frame.width.max(1), frame.height.max(1));
        let f32s = |v: [f64; 2]| v.map(|c| c as f32);
        let base_slot = SlotData {
            axis_x: f32s(axis_x),
            axis_y: f32s(axis_y),
            offset: f32s(offset),
            rot: f32s(grid.rot),
            origin: f32s(grid.origin),
            factor: grid.factor as f32,
            mipmaps: if self.options.mipmaps { 1.0 } else { 0.0 },
            ..Default::default()
        };
        self.push_slot(base_slot);
        for c in &list.commands {
            self.bases.push(self.cpu_vertices.len() as u32);
            // As the CPU renderer's `Tint::new`: not clamped to 0..1 (the shader clamps).
            let l = c.color.tint_range();
            let light = [l.r * l.a, l.g * l.a, l.b * l.a, l.a];
            let dark = match (c.screen, c.dark) {
                (Some(s), _) => {
                    let s = s.clamped();
                    [s.r, s.g, s.b, 1.0]
                }
                (None, Some(d)) => {
                    let d = d.tint_range();
                    [d.r * l.a, d.g * l.a, d.b * l.a, 0.0]
                }
                (None, None) => [0.0; 4],
            };
            let (pos, uvs) = (list.command_positions(c), list.command_uvs(c));
            for (k, p) in pos.chunks_exact(2).enumerate() {
                let uv = uvs.get(2 * k..2 * k + 2).unwrap_or(&[0.0, 0.0]);
                self.cpu_vertices.push(Vertex {
                    pos: [p[0], p[1]],
                    uv: [uv[0], uv[1]],
                    light,
                    dark,
                });
            }
        }
        let bg = sinew_render::blend::premultiply(frame.background);
        self.ops.push(Op::Begin {
            target: Target::Main,
            clear: Some(wgpu::Color {
                r: f64::from(bg[0]),
                g: f64::from(bg[1]),
                b: f64::from(bg[2]),
                a: f64::from(bg[3]),
            }),
        });
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
                self.plan_command(frame, k);
                k += 1;
                continue;
            };
            let end = (k + g.count as usize).min(n);
            self.ops.push(Op::Begin {
                target: Target::Layer,
                clear: Some(wgpu::Color::TRANSPARENT),
            });
            for c in k..end {
                self.plan_command(frame, c);
            }
            self.ops.push(Op::Begin {
                target: Target::Main,
                clear: None,
            });
            let spec = frame
                .group_masks
                .get(g.bone.index())
                .filter(|m| !m.sources.is_empty());
            let mut stencil = Stencil::Off;
            if let Some(spec) = spec {
                self.plan_mask(frame, spec);
                stencil = Stencil::Test(MASK_BIT | DODGE_BIT);
            }
            let (c, s) = (g.color.clamped(), g.screen.clamped());
            let slot = self.push_slot(SlotData {
                tint: [c.r, c.g, c.b, c.a],
                screen: [s.r, s.g, s.b, 0.0],
                ..base_slot
            });
            let advanced = shader_mode(g.blend);
            if advanced.is_some() {
                self.ops.push(Op::Copy);
            }
            self.ops.push(Op::Fullscreen {
                key: PipeKey {
                    kind: if advanced.is_some() {
                        Kind::CompositeAdvanced
                    } else {
                        Kind::Composite
                    },
                    blend: mode_number(g.blend),
                    stencil,
                },
                slot,
                reference: MASK_BIT,
            });
            k = end;
            gi += 1;
        }
    }

    /// Appends command `k`'s indices (rebased) and returns (first, count).
    fn push_indices(&mut self, list: &DrawList, k: usize) -> (u32, u32) {
        let first = self.cpu_indices.len() as u32;
        if let Some(c) = list.commands.get(k) {
            let base = self.bases.get(k).copied().unwrap_or(0);
            let nv = c.vertex_count;
            for &i in list.command_indices(c) {
                if u32::from(i) < nv {
                    self.cpu_indices.push(base + u32::from(i));
                }
            }
        }
        (first, self.cpu_indices.len() as u32 - first)
    }

    fn page_of(&self, page: u32) -> u32 {
        if page == NO_PAGE || page as usize >= self.pages.len() {
            NO_PAGE
        } else {
            page
        }
    }

    fn plan_command(&mut self, frame: &Frame<'_>, k: usize) {
        let list = frame.list;
        let Some(cmd) = list.commands.get(k).copied() else {
            return;
        };
        if cmd.color.a <= 0.0 {
            return;
        }
        let (mut read, mut reference) = (0, 0);
        if let Some(c) = cmd.clip {
            if self.clip_in_stencil != Some(c) {
                self.plan_clip(list, c);
            }
            read |= CLIP_BIT;
            // Inside the polygon (its hull for Spine 4.3 `convex`; the draw list holds it),
            // or outside the hull for an `inverse` clip: the inverted test.
            if !list.clips.get(c as usize).is_some_and(|p| p.inverse) {
                reference |= CLIP_BIT;
            }
        }
        let spec = frame
            .masks
            .get(cmd.slot.index())
            .filter(|m| !m.sources.is_empty());
        if let Some(spec) = spec {
            self.plan_mask(frame, spec);
            read |= MASK_BIT | DODGE_BIT;
            reference |= MASK_BIT;
        }
        let advanced = shader_mode(cmd.blend).is_some();
        if advanced {
            self.ops.push(Op::Copy);
        }
        let key = PipeKey {
            kind: if advanced {
                Kind::Advanced
            } else {
                Kind::Content
            },
            blend: mode_number(cmd.blend),
            stencil: if read == 0 {
                Stencil::Off
            } else {
                Stencil::Test(read)
            },
        };
        let page = self.page_of(cmd.page);
        let (first, count) = self.push_indices(list, k);
        self.stats.commands += 1;
        let batchable = spec.is_none() && !advanced;
        if let Some(Op::Draw {
            key: k2,
            page: p2,
            slot: 0,
            first: f2,
            count: c2,
            reference: r2,
            batchable: true,
        }) = self.ops.last_mut()
            && batchable
            && *k2 == key
            && *p2 == page
            && *r2 == reference
            && *f2 + *c2 == first
        {
            *c2 += count;
            return;
        }
        self.ops.push(Op::Draw {
            key,
            page,
            slot: 0,
            first,
            count,
            reference,
            batchable,
        });
    }

    /// Writes clip polygon `c` into the clip bit (even-odd fan).
    fn plan_clip(&mut self, list: &DrawList, c: u32) {
        self.ops.push(Op::Fullscreen {
            key: PipeKey {
                kind: Kind::StencilFill,
                blend: 0,
                stencil: Stencil::Replace(CLIP_BIT),
            },
            slot: 0,
            reference: 0,
        });
        let base = self.cpu_vertices.len() as u32;
        let poly = list.clip_polygon(c);
        for p in poly.chunks_exact(2) {
            self.cpu_vertices.push(Vertex {
                pos: [p[0], p[1]],
                uv: [0.0; 2],
                light: [1.0; 4],
                dark: [0.0; 4],
            });
        }
        let n = (poly.len() / 2) as u32;
        let first = self.cpu_indices.len() as u32;
        for i in 1..n.saturating_sub(1) {
            self.cpu_indices
                .extend_from_slice(&[base, base + i, base + i + 1]);
        }
        let count = self.cpu_indices.len() as u32 - first;
        if count > 0 {
            self.ops.push(Op::Draw {
                key: PipeKey {
                    kind: Kind::Fan,
                    blend: 0,
                    stencil: Stencil::Invert(CLIP_BIT),
                },
                page: NO_PAGE,
                slot: 0,
                first,
                count,
                reference: 0,
                batchable: false,
            });
        }
        self.clip_in_stencil = Some(c);
    }

    /// Writes `spec`'s sources into the mask and dodge bits (the mask bit everywhere when it
    /// has no Mask sources).
    fn plan_mask(&mut self, frame: &Frame<'_>, spec: &SlotMask) {
        let fill = |mask| PipeKey {
            kind: Kind::StencilFill,
            blend: 0,
            stencil: Stencil::Replace(mask),
        };
        self.ops.push(Op::Fullscreen {
            key: fill(MASK_BIT | DODGE_BIT),
            slot: 0,
            reference: 0,
        });
        if !spec.sources.iter().any(|(_, dodge)| !dodge) {
            self.ops.push(Op::Fullscreen {
                key: fill(MASK_BIT),
                slot: 0,
                reference: MASK_BIT,
            });
        }
        let base = self
            .cpu_slots
            .get(..size_of::<SlotData>())
            .map_or_else(SlotData::default, bytemuck::pod_read_unaligned::<SlotData>);
        let slot = self.push_slot(SlotData {
            threshold: spec.threshold,
            ..base
        });
        let list = frame.list;
        for &(src, dodge) in &spec.sources {
            let Some(j) = list.commands.iter().position(|c| c.slot == src) else {
                continue;
            };
            let page = self.page_of(list.commands[j].page);
            let (first, count) = self.push_indices(list, j);
            let bit = if dodge { DODGE_BIT } else { MASK_BIT };
            self.ops.push(Op::Draw {
                key: PipeKey {
                    kind: Kind::MaskSource,
                    blend: 0,
                    stencil: Stencil::Replace(bit),
                },
                page,
                slot,
                first,
                count,
                reference: bit,
                batchable: false,
            });
        }
    }
}
