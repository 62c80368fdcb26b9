//! The GPU renderer: plans a frame as a list of operations (passes, stencil writes, draws,
//! backdrop copies), uploads the frame's vertices, indices and uniforms into reused buffers,
//! and records it in one command buffer. See the crate docs for what each part does.
//!
//! This module holds the public types, the renderer and its entry points; the parts are:
//! - `plan`: a frame as operations, with the staging vertices, indices and uniform slots
//!   (batching, clip fans, mask sources, composites);
//! - `pipeline`: pipeline keys, blend modes and the render pipelines made for them;
//! - `upload`: grow-only buffers, atlas pages with their mip chains, bind groups;
//! - `targets`: the size-dependent targets and reading the output back;
//! - `record`: the planned operations recorded as render passes and submitted.

use crate::gpu::{Gpu, GpuError};
use crate::grid::SampleGrid;
use pipeline::PipeKey;
use plan::Op;
use sinew::Color;
use sinew::draw::{DrawList, SlotMask};
use sinew_render::{Texture, View};
use std::collections::HashMap;
use std::num::NonZeroU64;
use targets::Targets;
use upload::{Grow, Page, frame_bind_group, make_page, upload_texture};

mod pipeline;
mod plan;
mod record;
mod targets;
mod upload;

/// Stencil bit of the active clip polygon.
const CLIP_BIT: u32 = 0x80;
/// Stencil bit of the union of a command's Mask sources.
const MASK_BIT: u32 = 0x01;
/// Stencil bit of the union of its DodgeMask sources.
const DODGE_BIT: u32 = 0x02;
/// Bytes between uniform slots (the largest `min_uniform_buffer_offset_alignment` allowed).
const SLOT_STRIDE: usize = 256;
/// Working and output colour format: premultiplied RGBA8, clamped like the CPU canvas.
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const STENCIL: wgpu::TextureFormat = wgpu::TextureFormat::Stencil8;

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Vertex {
    pos: [f32; 2],
    uv: [f32; 2],
    light: [f32; 4],
    dark: [f32; 4],
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
struct SlotData {
    /// World to clip space: `axis_x * x + axis_y * y + offset`.
    axis_x: [f32; 2],
    axis_y: [f32; 2],
    offset: [f32; 2],
    /// The sample grid's rotation (cos, sin) and origin ([`SampleGrid`]).
    rot: [f32; 2],
    origin: [f32; 2],
    pad0: [f32; 2],
    tint: [f32; 4],
    screen: [f32; 4],
    threshold: f32,
    factor: f32,
    mipmaps: f32,
    pad: f32,
}

/// Renderer settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Samples per pixel along each axis (1 = aliased; 8 = 64 samples, what `sinew render`
    /// uses to match the CPU renderer's exact-area coverage), on a lattice turned by
    /// `atan(1 / supersample)` so axis-aligned edges get `supersample^2` coverage steps.
    /// Lowered when the device's largest texture is too small for the turned target.
    pub supersample: u32,
    /// Sample the pages' mip chains (true: what a window wants when a character is drawn
    /// small) or only their base level (false: what the CPU renderer and the official Spine
    /// renders do, so `sinew render` images match them).
    pub mipmaps: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            supersample: 4,
            mipmaps: true,
        }
    }
}

/// One frame to draw: a draw list with its masks, the world rectangle shown and the image.
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    /// What to draw.
    pub list: &'a DrawList,
    /// Per slot index: mask sources (`sinew::draw::DrawSetup::slot_masks`; may be empty).
    pub masks: &'a [SlotMask],
    /// Per bone index: a composite group's mask sources (`DrawSetup::group_masks`).
    pub group_masks: &'a [SlotMask],
    /// The world rectangle that fills the image (y up).
    pub view: View,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Background, straight alpha.
    pub background: Color,
}

/// What the last frame cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FrameStats {
    /// Draw calls recorded (colour draws, stencil writes, composites, the downsample).
    pub draw_calls: u32,
    /// Draw calls that drew commands' colour (batches of commands).
    pub batches: u32,
    /// Commands drawn.
    pub commands: u32,
    /// Render passes.
    pub passes: u32,
    /// Copies of the target for shader-blended modes.
    pub backdrop_copies: u32,
}

/// Draws [`DrawList`]s with wgpu. Make one per device; reuse it for every frame.
#[derive(Debug)]
pub struct GpuRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    options: Options,
    shader: wgpu::ShaderModule,
    frame_layout: wgpu::BindGroupLayout,
    page_layout: wgpu::BindGroupLayout,
    extra_layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    pipelines: HashMap<PipeKey, wgpu::RenderPipeline>,
    downsample: HashMap<u32, wgpu::RenderPipeline>,
    sampler: wgpu::Sampler,
    pages: Vec<Page>,
    white: Page,
    dummy_view: wgpu::TextureView,
    vertices: Grow,
    indices: Grow,
    uniforms: Grow,
    frame_group: wgpu::BindGroup,
    targets: Option<Targets>,
    // Per-frame staging, reused.
    cpu_vertices: Vec<Vertex>,
    cpu_indices: Vec<u32>,
    cpu_slots: Vec<u8>,
    bases: Vec<u32>,
    ops: Vec<Op>,
    clip_in_stencil: Option<u32>,
    stats: FrameStats,
}

impl GpuRenderer {
    /// A renderer on `gpu`'s device with default [`Options`].
    pub fn new(gpu: &Gpu) -> Self {
        Self::with_options(gpu, Options::default())
    }

    /// A renderer on `gpu`'s device.
    pub fn with_options(gpu: &Gpu, options: Options) -> Self {
        let device = gpu.device.clone();
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("sinew-wgpu shader"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../shader.wgsl").into()),
        });
        let tex_entry = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        };
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sinew-wgpu frame"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: NonZeroU64::new(size_of::<SlotData>() as u64),
                },
                count: None,
            }],
        });
        let page_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sinew-wgpu page"),
            entries: &[
                tex_entry(0),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let extra_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sinew-wgpu backdrop"),
            entries: &[tex_entry(0), tex_entry(1)],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("sinew-wgpu"),
            bind_group_layouts: &[Some(&frame_layout), Some(&page_layout), Some(&extra_layout)],
            immediate_size: 0,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("sinew-wgpu page"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..Default::default()
        });
        let vertices = Grow::new(&device, "sinew-wgpu vertices", wgpu::BufferUsages::VERTEX);
        let indices = Grow::new(&device, "sinew-wgpu indices", wgpu::BufferUsages::INDEX);
        let uniforms = Grow::new(&device, "sinew-wgpu uniforms", wgpu::BufferUsages::UNIFORM);
        let frame_group = frame_bind_group(&device, &frame_layout, &uniforms.buffer);
        let dummy = upload_texture(&device, &gpu.queue, &Texture::white(), false);
        let dummy_view = dummy.create_view(&Default::default());
        let white = make_page(
            &device,
            &gpu.queue,
            &page_layout,
            &sampler,
            &Texture::white(),
        );
        GpuRenderer {
            white,
            device,
            queue: gpu.queue.clone(),
            options,
            shader,
            frame_layout,
            page_layout,
            extra_layout,
            pipeline_layout,
            pipelines: HashMap::new(),
            downsample: HashMap::new(),
            sampler,
            pages: Vec::new(),
            dummy_view,
            vertices,
            indices,
            uniforms,
            frame_group,
            targets: None,
            cpu_vertices: Vec::new(),
            cpu_indices: Vec::new(),
            cpu_slots: Vec::new(),
            bases: Vec::new(),
            ops: Vec::new(),
            clip_in_stencil: None,
            stats: FrameStats::default(),
        }
    }

    /// The device this renderer draws with.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// Uploads the atlas pages (premultiplied, as [`sinew_render::asset_textures`] gives them)
    /// with their mip chains, replacing any earlier ones. Call once per asset.
    pub fn set_pages(&mut self, textures: &[Texture]) {
        self.pages = textures
            .iter()
            .map(|t| {
                make_page(
                    &self.device,
                    &self.queue,
                    &self.page_layout,
                    &self.sampler,
                    t,
                )
            })
            .collect();
    }

    /// Bytes of the vertex, index and uniform buffers and capacities of the staging vectors
    /// (what stays constant once every frame fits: nothing is allocated per frame).
    pub fn buffer_sizes(&self) -> [u64; 6] {
        [
            self.vertices.buffer.size(),
            self.indices.buffer.size(),
            self.uniforms.buffer.size(),
            self.cpu_vertices.capacity() as u64,
            self.cpu_indices.capacity() as u64,
            self.ops.capacity() as u64,
        ]
    }

    /// What the last [`render`](Self::render) recorded.
    pub fn stats(&self) -> FrameStats {
        self.stats
    }

    /// The output texture of the last frame (premultiplied RGBA8, `width x height`), for a
    /// host that shows it; `None` before the first frame.
    pub fn output_view(&self) -> Option<&wgpu::TextureView> {
        self.targets.as_ref().map(|t| &t.output_view)
    }

    /// The output texture itself (see [`output_view`](Self::output_view)).
    pub fn output_texture(&self) -> Option<&wgpu::Texture> {
        self.targets.as_ref().map(|t| &t.output)
    }

    /// Draws `frame` into the renderer's target and submits it. Returns the frame's stats.
    pub fn render(&mut self, frame: &Frame<'_>) -> FrameStats {
        let (w, h) = (frame.width.max(1), frame.height.max(1));
        let max = self.device.limits().max_texture_dimension_2d.max(1);
        // The largest factor (up to the one asked for) whose turned target fits the device.
        let mut factor = self.options.supersample.clamp(1, 8);
        while factor > 1 && SampleGrid::new(w, h, factor).size.iter().any(|&d| d > max) {
            factor -= 1;
        }
        if !self
            .targets
            .as_ref()
            .is_some_and(|t| t.width == w && t.height == h && t.factor == factor)
        {
            self.targets = Some(self.make_targets(w, h, factor));
        }
        self.stats = FrameStats::default();
        self.plan(frame);
        let v = bytemuck::cast_slice(&self.cpu_vertices);
        self.vertices.write(&self.device, &self.queue, v);
        let i = bytemuck::cast_slice(&self.cpu_indices);
        self.indices.write(&self.device, &self.queue, i);
        if self
            .uniforms
            .write(&self.device, &self.queue, &self.cpu_slots)
        {
            self.frame_group =
                frame_bind_group(&self.device, &self.frame_layout, &self.uniforms.buffer);
        }
        self.ensure_pipelines(factor);
        self.execute(factor);
        self.stats
    }

    /// Renders `frame` and reads it back (see [`read_rgba`](Self::read_rgba)).
    pub fn render_rgba(&mut self, frame: &Frame<'_>) -> Result<Vec<u8>, GpuError> {
        self.render(frame);
        self.read_rgba()
    }
}
