//! The size-dependent targets (supersampled work textures, stencil, output, readback
//! buffer), made when the frame size or supersampling factor changes, and reading the output
//! back as straight RGBA8.

use super::upload::make_buffer;
use super::{FORMAT, GpuRenderer, STENCIL};
use crate::gpu::GpuError;
use crate::grid::SampleGrid;

/// Size-dependent resources.
#[derive(Debug)]
pub(super) struct Targets {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) factor: u32,
    /// The sample lattice of the supersampled targets (their size is `grid.size`).
    pub(super) grid: SampleGrid,
    pub(super) main: wgpu::Texture,
    pub(super) main_view: wgpu::TextureView,
    pub(super) layer: wgpu::Texture,
    pub(super) layer_view: wgpu::TextureView,
    pub(super) backdrop: wgpu::Texture,
    pub(super) stencil_view: wgpu::TextureView,
    pub(super) output: wgpu::Texture,
    pub(super) output_view: wgpu::TextureView,
    /// Backdrop and a dummy layer (draws into either target).
    pub(super) extra_plain: wgpu::BindGroup,
    /// Backdrop and the group layer (composites onto the main target).
    pub(super) extra_layer: wgpu::BindGroup,
    /// The main target as `layer` (the downsample).
    pub(super) extra_down: wgpu::BindGroup,
    pub(super) readback: wgpu::Buffer,
    pub(super) padded_row: u32,
}

impl GpuRenderer {
    /// The last frame as straight-alpha RGBA8, rows top first (what PNG stores, like
    /// `sinew_render::Canvas::to_rgba8`).
    pub fn read_rgba(&mut self) -> Result<Vec<u8>, GpuError> {
        let t = self
            .targets
            .as_ref()
            .ok_or_else(|| GpuError::Readback("no frame rendered yet".into()))?;
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("sinew-wgpu readback"),
            });
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &t.output,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &t.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(t.padded_row),
                    rows_per_image: Some(t.height),
                },
            },
            wgpu::Extent3d {
                width: t.width,
                height: t.height,
                depth_or_array_layers: 1,
            },
        );
        self.queue.submit([encoder.finish()]);
        let slice = t.readback.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        rx.recv()
            .map_err(|e| GpuError::Readback(e.to_string()))?
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        let mut out = Vec::with_capacity(t.width as usize * t.height as usize * 4);
        {
            let data = slice
                .get_mapped_range()
                .map_err(|e| GpuError::Readback(e.to_string()))?;
            for row in data.chunks_exact(t.padded_row as usize) {
                for p in row[..t.width as usize * 4].chunks_exact(4) {
                    out.extend_from_slice(&straight(p));
                }
            }
        }
        t.readback.unmap();
        Ok(out)
    }

    pub(super) fn make_targets(&self, width: u32, height: u32, factor: u32) -> Targets {
        let d = &self.device;
        let tex = |label, w, h, format, usage| {
            d.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width: w,
                    height: h,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        use wgpu::TextureUsages as U;
        let grid = SampleGrid::new(width, height, factor);
        let [sw, sh] = grid.size;
        let work = U::RENDER_ATTACHMENT | U::TEXTURE_BINDING | U::COPY_SRC;
        let main = tex("sinew-wgpu main", sw, sh, FORMAT, work);
        let layer = tex("sinew-wgpu layer", sw, sh, FORMAT, work);
        let backdrop = tex(
            "sinew-wgpu backdrop",
            sw,
            sh,
            FORMAT,
            U::TEXTURE_BINDING | U::COPY_DST,
        );
        let stencil = tex("sinew-wgpu stencil", sw, sh, STENCIL, U::RENDER_ATTACHMENT);
        let output = tex(
            "sinew-wgpu output",
            width,
            height,
            FORMAT,
            U::RENDER_ATTACHMENT | U::TEXTURE_BINDING | U::COPY_SRC,
        );
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let (main_view, layer_view, backdrop_view) = (view(&main), view(&layer), view(&backdrop));
        let extra = |a: &wgpu::TextureView, b: &wgpu::TextureView| {
            d.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("sinew-wgpu backdrop"),
                layout: &self.extra_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(a),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::TextureView(b),
                    },
                ],
            })
        };
        let padded_row = (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        Targets {
            width,
            height,
            factor,
            grid,
            extra_plain: extra(&backdrop_view, &self.dummy_view),
            extra_layer: extra(&backdrop_view, &layer_view),
            extra_down: extra(&self.dummy_view, &main_view),
            stencil_view: view(&stencil),
            output_view: view(&output),
            readback: make_buffer(
                d,
                "sinew-wgpu readback",
                wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                u64::from(padded_row) * u64::from(height),
            ),
            padded_row,
            main,
            main_view,
            layer,
            layer_view,
            backdrop,
            output,
        }
    }
}

/// A premultiplied RGBA8 texel as straight RGBA8 (`sinew_render::blend::to_straight_u8`).
fn straight(p: &[u8]) -> [u8; 4] {
    let a = u32::from(p[3]);
    if a == 0 {
        return [0; 4];
    }
    let q = |c: u8| ((u32::from(c) * 255 + a / 2) / a).min(255) as u8;
    [q(p[0]), q(p[1]), q(p[2]), p[3]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_matches_the_cpu_conversion() {
        for p in [
            [64u8, 32, 0, 128],
            [0, 0, 0, 0],
            [255, 255, 255, 255],
            [3, 1, 2, 7],
        ] {
            let f = p.map(|v| f32::from(v) / 255.0);
            assert_eq!(
                straight(&p),
                sinew_render::blend::to_straight_u8(f),
                "{p:?}"
            );
        }
    }
}
