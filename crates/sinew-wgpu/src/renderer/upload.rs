//! What goes onto the device: grow-only buffers (the frame's vertices, indices and uniform
//! slots), atlas pages with their mip chains built on the CPU, and their bind groups.

use super::{FORMAT, SlotData};
use sinew_render::Texture;
use std::num::NonZeroU64;

/// A page on the device.
#[derive(Debug)]
pub(super) struct Page {
    pub(super) bind_group: wgpu::BindGroup,
}

/// A grow-only GPU buffer.
#[derive(Debug)]
pub(super) struct Grow {
    pub(super) buffer: wgpu::Buffer,
    usage: wgpu::BufferUsages,
    label: &'static str,
}

impl Grow {
    pub(super) fn new(
        device: &wgpu::Device,
        label: &'static str,
        usage: wgpu::BufferUsages,
    ) -> Self {
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        Grow {
            buffer: make_buffer(device, label, usage, 4096),
            usage,
            label,
        }
    }

    /// Writes `bytes` at the start, growing (to a power of two) first when needed; true when
    /// the buffer was replaced.
    pub(super) fn write(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        bytes: &[u8],
    ) -> bool {
        let need = (bytes.len() as u64).max(4).next_multiple_of(4);
        let mut grew = false;
        if need > self.buffer.size() {
            self.buffer = make_buffer(device, self.label, self.usage, need.next_power_of_two());
            grew = true;
        }
        if !bytes.is_empty() {
            queue.write_buffer(&self.buffer, 0, bytes);
        }
        grew
    }
}

pub(super) fn make_buffer(
    device: &wgpu::Device,
    label: &str,
    usage: wgpu::BufferUsages,
    size: u64,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage,
        mapped_at_creation: false,
    })
}

pub(super) fn make_page(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layout: &wgpu::BindGroupLayout,
    sampler: &wgpu::Sampler,
    t: &Texture,
) -> Page {
    let tex = upload_texture(device, queue, t, true);
    let view = tex.create_view(&Default::default());
    Page {
        bind_group: device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("sinew-wgpu page"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(sampler),
                },
            ],
        }),
    }
}

pub(super) fn frame_bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    buffer: &wgpu::Buffer,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("sinew-wgpu frame"),
        layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer,
                offset: 0,
                size: NonZeroU64::new(size_of::<SlotData>() as u64),
            }),
        }],
    })
}

/// The mip chain of a premultiplied texture: each level the 2x2 mean of the one above.
fn mip_chain(t: &Texture) -> Vec<(u32, u32, Vec<u8>)> {
    let mut levels = vec![(t.width, t.height, t.texels.clone())];
    while let Some((w, h, px)) = levels.last() {
        let (w, h) = (*w, *h);
        if w <= 1 && h <= 1 {
            break;
        }
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let mut out = vec![0u8; nw as usize * nh as usize * 4];
        for y in 0..nh {
            for x in 0..nw {
                let mut sum = [0u32; 4];
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let sx = (2 * x + dx).min(w - 1);
                    let sy = (2 * y + dy).min(h - 1);
                    let i = (sy as usize * w as usize + sx as usize) * 4;
                    for (k, s) in sum.iter_mut().enumerate() {
                        *s += u32::from(px.get(i + k).copied().unwrap_or(0));
                    }
                }
                let o = (y as usize * nw as usize + x as usize) * 4;
                for k in 0..4 {
                    out[o + k] = ((sum[k] + 2) / 4) as u8;
                }
            }
        }
        levels.push((nw, nh, out));
    }
    levels
}

pub(super) fn upload_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    t: &Texture,
    mipmaps: bool,
) -> wgpu::Texture {
    let levels = if mipmaps {
        mip_chain(t)
    } else {
        vec![(t.width, t.height, t.texels.clone())]
    };
    let tex = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("sinew-wgpu page"),
        size: wgpu::Extent3d {
            width: t.width.max(1),
            height: t.height.max(1),
            depth_or_array_layers: 1,
        },
        mip_level_count: levels.len() as u32,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    for (level, (w, h, px)) in levels.iter().enumerate() {
        let need = *w as usize * *h as usize * 4;
        if px.len() < need {
            continue;
        }
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &tex,
                mip_level: level as u32,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            &px[..need],
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(w * 4),
                rows_per_image: Some(*h),
            },
            wgpu::Extent3d {
                width: *w,
                height: *h,
                depth_or_array_layers: 1,
            },
        );
    }
    tex
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mip_chain_halves_to_one_texel() {
        let t = Texture::from_rgba8(5, 2, vec![200; 40], true);
        let chain = mip_chain(&t);
        let sizes: Vec<(u32, u32)> = chain.iter().map(|l| (l.0, l.1)).collect();
        assert_eq!(sizes, vec![(5, 2), (2, 1), (1, 1)]);
        assert!(chain.iter().all(|l| l.2.iter().all(|&v| v == 200)));
    }
}
