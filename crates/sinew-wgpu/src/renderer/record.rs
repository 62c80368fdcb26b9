//! Recording a planned frame: the operations as render passes (stencil cleared once, each
//! target cleared before its first use), backdrop copies, draws and composites, then the
//! downsample into the output, in one command buffer submitted at once.

use super::pipeline::Kind;
use super::plan::{Op, Target};
use super::{GpuRenderer, SLOT_STRIDE};

impl GpuRenderer {
    /// Records the planned operations and the downsample, and submits them.
    pub(super) fn execute(&mut self, factor: u32) {
        let Some(t) = self.targets.as_ref() else {
            return;
        };
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("sinew-wgpu frame"),
            });
        let mut stats = self.stats;
        let mut pass: Option<wgpu::RenderPass<'static>> = None;
        let mut target = Target::Main;
        let mut clear: Option<wgpu::Color> = None;
        let mut stencil_cleared = false;
        let open = |encoder: &mut wgpu::CommandEncoder,
                    target: Target,
                    clear: Option<wgpu::Color>,
                    clear_stencil: bool|
         -> wgpu::RenderPass<'static> {
            let view = match target {
                Target::Main => &t.main_view,
                Target::Layer => &t.layer_view,
            };
            encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("sinew-wgpu pass"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: clear.map_or(wgpu::LoadOp::Load, wgpu::LoadOp::Clear),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                        view: &t.stencil_view,
                        depth_ops: None,
                        stencil_ops: Some(wgpu::Operations {
                            load: if clear_stencil {
                                wgpu::LoadOp::Clear(0)
                            } else {
                                wgpu::LoadOp::Load
                            },
                            store: wgpu::StoreOp::Store,
                        }),
                    }),
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                })
                .forget_lifetime()
        };
        for op in &self.ops {
            // A target still waiting for its clear gets it before anything else happens.
            let needs_pass = matches!(op, Op::Draw { .. } | Op::Fullscreen { .. });
            if (!needs_pass && clear.is_some()) || (needs_pass && pass.is_none()) {
                pass = Some(open(&mut encoder, target, clear.take(), !stencil_cleared));
                stencil_cleared = true;
                stats.passes += 1;
            }
            match *op {
                Op::Begin {
                    target: to,
                    clear: c,
                } => {
                    pass = None;
                    target = to;
                    clear = c;
                }
                Op::Copy => {
                    pass = None;
                    let from = match target {
                        Target::Main => &t.main,
                        Target::Layer => &t.layer,
                    };
                    encoder.copy_texture_to_texture(
                        from.as_image_copy(),
                        t.backdrop.as_image_copy(),
                        from.size(),
                    );
                    stats.backdrop_copies += 1;
                }
                Op::Draw {
                    key,
                    page,
                    slot,
                    first,
                    count,
                    reference,
                    ..
                } => {
                    let (Some(p), Some(pipe)) = (pass.as_mut(), self.pipelines.get(&key)) else {
                        continue;
                    };
                    let page = self.pages.get(page as usize).unwrap_or(&self.white);
                    p.set_pipeline(pipe);
                    p.set_bind_group(0, &self.frame_group, &[slot * SLOT_STRIDE as u32]);
                    p.set_bind_group(1, &page.bind_group, &[]);
                    p.set_bind_group(2, &t.extra_plain, &[]);
                    p.set_stencil_reference(reference);
                    p.set_vertex_buffer(0, self.vertices.buffer.slice(..));
                    p.set_index_buffer(self.indices.buffer.slice(..), wgpu::IndexFormat::Uint32);
                    p.draw_indexed(first..first + count, 0, 0..1);
                    stats.draw_calls += 1;
                    if matches!(key.kind, Kind::Content | Kind::Advanced) {
                        stats.batches += 1;
                    }
                }
                Op::Fullscreen {
                    key,
                    slot,
                    reference,
                } => {
                    let (Some(p), Some(pipe)) = (pass.as_mut(), self.pipelines.get(&key)) else {
                        continue;
                    };
                    p.set_pipeline(pipe);
                    p.set_bind_group(0, &self.frame_group, &[slot * SLOT_STRIDE as u32]);
                    p.set_bind_group(1, &self.white.bind_group, &[]);
                    let extra = if matches!(key.kind, Kind::Composite | Kind::CompositeAdvanced) {
                        &t.extra_layer
                    } else {
                        &t.extra_plain
                    };
                    p.set_bind_group(2, extra, &[]);
                    p.set_stencil_reference(reference);
                    p.draw(0..3, 0..1);
                    stats.draw_calls += 1;
                }
            }
        }
        if clear.is_some() {
            pass = Some(open(&mut encoder, target, clear.take(), !stencil_cleared));
            stats.passes += 1;
        }
        drop(pass);
        if let Some(down) = self.downsample.get(&factor) {
            let mut p = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("sinew-wgpu downsample"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &t.output_view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            p.set_pipeline(down);
            p.set_bind_group(0, &self.frame_group, &[0]);
            p.set_bind_group(1, &self.white.bind_group, &[]);
            p.set_bind_group(2, &t.extra_down, &[]);
            p.draw(0..3, 0..1);
            stats.draw_calls += 1;
            stats.passes += 1;
        }
        self.queue.submit([encoder.finish()]);
        self.stats = stats;
    }
}
