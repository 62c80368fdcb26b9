//! The GPU renderer: plans a frame as a list of operations (passes, stencil writes, draws,
//! backdrop copies), uploads the frame's vertices, indices and uniforms into reused buffers,
//! and records it in one command buffer. See the crate docs for what each part does.

use crate::gpu::{Gpu, GpuError};
use crate::grid::SampleGrid;
use sinew::draw::{DrawList, NO_PAGE, SlotMask};
use sinew::{BlendMode, Color};
use sinew_render::{Texture, View};
use std::collections::HashMap;
use std::num::NonZeroU64;

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    /// A command's colour, fixed-function blended.
    Content,
    /// A command's colour, blended in the shader over a backdrop copy.
    Advanced,
    /// A mask source into a stencil bit.
    MaskSource,
    /// A clip polygon's fan into the clip bit.
    Fan,
    /// A full-screen stencil write.
    StencilFill,
    /// A group's layer, fixed-function blended.
    Composite,
    /// A group's layer, blended in the shader.
    CompositeAdvanced,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Stencil {
    Off,
    /// Pass where `stencil & mask == reference`.
    Test(u32),
    /// Replace the bits of `mask` with the reference.
    Replace(u32),
    /// Invert the bits of `mask`.
    Invert(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct PipeKey {
    kind: Kind,
    blend: u32,
    stencil: Stencil,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Main,
    Layer,
}

#[derive(Debug, Clone, Copy)]
enum Op {
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

/// The separable modes' index in the shader (`override mode`), `None` for the others.
fn shader_mode(mode: BlendMode) -> Option<u32> {
    Some(match mode {
        BlendMode::Overlay => 4,
        BlendMode::Darken => 5,
        BlendMode::Lighten => 6,
        BlendMode::ColorDodge => 7,
        BlendMode::LinearDodge => 8,
        BlendMode::ColorBurn => 10,
        BlendMode::HardLight => 11,
        BlendMode::SoftLight => 12,
        BlendMode::Difference => 13,
        BlendMode::Exclusion => 14,
        BlendMode::Subtract => 15,
        _ => return None,
    })
}

/// Key number of a blend mode (fixed-function ones below 4 or from 16; see [`shader_mode`]).
fn mode_number(mode: BlendMode) -> u32 {
    match mode {
        BlendMode::Normal => 0,
        BlendMode::Additive => 1,
        BlendMode::Multiply => 2,
        BlendMode::Screen => 3,
        BlendMode::AddGlow => 9,
        BlendMode::Inverse => 16,
        BlendMode::DestinationIn => 17,
        BlendMode::ClipToLower => 18,
        BlendMode::SliceFromLower => 19,
        m => shader_mode(m).unwrap_or(0),
    }
}

/// The fixed-function blend of a key number (premultiplied; the tables of
/// `sinew_render::blend` and `sinew_render::advanced`).
fn blend_state(number: u32) -> wgpu::BlendState {
    use wgpu::BlendFactor as F;
    let c = |src_factor, dst_factor| wgpu::BlendComponent {
        src_factor,
        dst_factor,
        operation: wgpu::BlendOperation::Add,
    };
    let over = c(F::One, F::OneMinusSrcAlpha);
    let (color, alpha) = match number {
        1 => (c(F::One, F::One), c(F::One, F::One)),
        2 => (c(F::Dst, F::OneMinusSrcAlpha), over),
        3 => (c(F::One, F::OneMinusSrc), over),
        9 => (c(F::One, F::One), over),
        16 => (c(F::OneMinusDst, F::OneMinusSrcAlpha), over),
        17 => (c(F::Zero, F::SrcAlpha), c(F::Zero, F::SrcAlpha)),
        18 => (
            c(F::DstAlpha, F::OneMinusSrcAlpha),
            c(F::DstAlpha, F::OneMinusSrcAlpha),
        ),
        19 => (
            c(F::Zero, F::OneMinusSrcAlpha),
            c(F::Zero, F::OneMinusSrcAlpha),
        ),
        _ => (over, over),
    };
    wgpu::BlendState { color, alpha }
}

/// A page on the device.
#[derive(Debug)]
struct Page {
    bind_group: wgpu::BindGroup,
}

/// Size-dependent resources.
#[derive(Debug)]
struct Targets {
    width: u32,
    height: u32,
    factor: u32,
    /// The sample lattice of the supersampled targets (their size is `grid.size`).
    grid: SampleGrid,
    main: wgpu::Texture,
    main_view: wgpu::TextureView,
    layer: wgpu::Texture,
    layer_view: wgpu::TextureView,
    backdrop: wgpu::Texture,
    stencil_view: wgpu::TextureView,
    output: wgpu::Texture,
    output_view: wgpu::TextureView,
    /// Backdrop and a dummy layer (draws into either target).
    extra_plain: wgpu::BindGroup,
    /// Backdrop and the group layer (composites onto the main target).
    extra_layer: wgpu::BindGroup,
    /// The main target as `layer` (the downsample).
    extra_down: wgpu::BindGroup,
    readback: wgpu::Buffer,
    padded_row: u32,
}

/// A grow-only GPU buffer.
#[derive(Debug)]
struct Grow {
    buffer: wgpu::Buffer,
    usage: wgpu::BufferUsages,
    label: &'static str,
}

impl Grow {
    fn new(device: &wgpu::Device, label: &'static str, usage: wgpu::BufferUsages) -> Self {
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        Grow {
            buffer: make_buffer(device, label, usage, 4096),
            usage,
            label,
        }
    }

    /// Writes `bytes` at the start, growing (to a power of two) first when needed; true when
    /// the buffer was replaced.
    fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, bytes: &[u8]) -> bool {
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

fn make_buffer(
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
            source: wgpu::ShaderSource::Wgsl(include_str!("shader.wgsl").into()),
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

    fn make_targets(&self, width: u32, height: u32, factor: u32) -> Targets {
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

    fn push_slot(&mut self, s: SlotData) -> u32 {
        let k = self.cpu_slots.len() / SLOT_STRIDE;
        self.cpu_slots.extend_from_slice(bytemuck::bytes_of(&s));
        self.cpu_slots.resize((k + 1) * SLOT_STRIDE, 0);
        k as u32
    }

    /// Fills the staging vectors and the operation list for `frame`.
    fn plan(&mut self, frame: &Frame<'_>) {
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
            let l = c.color.clamped();
            let light = [l.r * l.a, l.g * l.a, l.b * l.a, l.a];
            let dark = match (c.screen, c.dark) {
                (Some(s), _) => {
                    let s = s.clamped();
                    [s.r, s.g, s.b, 1.0]
                }
                (None, Some(d)) => {
                    let d = d.clamped();
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
            reference |= CLIP_BIT;
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

    fn ensure_pipelines(&mut self, factor: u32) {
        for i in 0..self.ops.len() {
            let key = match self.ops[i] {
                Op::Draw { key, .. } | Op::Fullscreen { key, .. } => key,
                _ => continue,
            };
            if !self.pipelines.contains_key(&key) {
                let p = self.make_pipeline(key);
                self.pipelines.insert(key, p);
            }
        }
        if !self.downsample.contains_key(&factor) {
            let p = self.make_downsample();
            self.downsample.insert(factor, p);
        }
    }

    fn make_pipeline(&self, key: PipeKey) -> wgpu::RenderPipeline {
        let fullscreen = matches!(
            key.kind,
            Kind::StencilFill | Kind::Composite | Kind::CompositeAdvanced
        );
        let fs = match key.kind {
            Kind::Content | Kind::Fan | Kind::StencilFill => "fs_main",
            Kind::Advanced => "fs_advanced",
            Kind::MaskSource => "fs_mask",
            Kind::Composite => "fs_composite",
            Kind::CompositeAdvanced => "fs_composite_advanced",
        };
        let stencil_only = matches!(key.kind, Kind::MaskSource | Kind::Fan | Kind::StencilFill);
        let advanced = matches!(key.kind, Kind::Advanced | Kind::CompositeAdvanced);
        let face = |compare, pass_op| wgpu::StencilFaceState {
            compare,
            fail_op: wgpu::StencilOperation::Keep,
            depth_fail_op: wgpu::StencilOperation::Keep,
            pass_op,
        };
        let (state, read_mask, write_mask) = match key.stencil {
            Stencil::Off => (
                face(wgpu::CompareFunction::Always, wgpu::StencilOperation::Keep),
                0,
                0,
            ),
            Stencil::Test(m) => (
                face(wgpu::CompareFunction::Equal, wgpu::StencilOperation::Keep),
                m,
                0,
            ),
            Stencil::Replace(m) => (
                face(
                    wgpu::CompareFunction::Always,
                    wgpu::StencilOperation::Replace,
                ),
                0,
                m,
            ),
            Stencil::Invert(m) => (
                face(
                    wgpu::CompareFunction::Always,
                    wgpu::StencilOperation::Invert,
                ),
                0,
                m,
            ),
        };
        let constants: &[(&str, f64)] = &[("mode", f64::from(key.blend))];
        let vertex_layout = [Some(vertex_layout())];
        self.device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("sinew-wgpu pipeline"),
                layout: Some(&self.pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &self.shader,
                    entry_point: Some(if fullscreen {
                        "vs_fullscreen"
                    } else {
                        "vs_main"
                    }),
                    compilation_options: Default::default(),
                    buffers: if fullscreen { &[] } else { &vertex_layout },
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: STENCIL,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(wgpu::CompareFunction::Always),
                    stencil: wgpu::StencilState {
                        front: state,
                        back: state,
                        read_mask,
                        write_mask,
                    },
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &self.shader,
                    entry_point: Some(fs),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: if advanced { constants } else { &[] },
                        ..Default::default()
                    },
                    targets: &[Some(wgpu::ColorTargetState {
                        format: FORMAT,
                        blend: if stencil_only || advanced {
                            None
                        } else {
                            Some(blend_state(key.blend))
                        },
                        write_mask: if stencil_only {
                            wgpu::ColorWrites::empty()
                        } else {
                            wgpu::ColorWrites::ALL
                        },
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
    }

    fn make_downsample(&self) -> wgpu::RenderPipeline {
        self.device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("sinew-wgpu downsample"),
                layout: Some(&self.pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &self.shader,
                    entry_point: Some("vs_fullscreen"),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &self.shader,
                    entry_point: Some("fs_downsample"),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: FORMAT,
                        blend: None,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
    }

    /// Records the planned operations and the downsample, and submits them.
    fn execute(&mut self, factor: u32) {
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

fn make_page(
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

fn vertex_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRS: [wgpu::VertexAttribute; 4] = wgpu::vertex_attr_array![
        0 => Float32x2, 1 => Float32x2, 2 => Float32x4, 3 => Float32x4
    ];
    wgpu::VertexBufferLayout {
        array_stride: size_of::<Vertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRS,
    }
}

fn frame_bind_group(
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

/// A premultiplied RGBA8 texel as straight RGBA8 (`sinew_render::blend::to_straight_u8`).
fn straight(p: &[u8]) -> [u8; 4] {
    let a = u32::from(p[3]);
    if a == 0 {
        return [0; 4];
    }
    let q = |c: u8| ((u32::from(c) * 255 + a / 2) / a).min(255) as u8;
    [q(p[0]), q(p[1]), q(p[2]), p[3]]
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

fn upload_texture(
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

    #[test]
    fn mip_chain_halves_to_one_texel() {
        let t = Texture::from_rgba8(5, 2, vec![200; 40], true);
        let chain = mip_chain(&t);
        let sizes: Vec<(u32, u32)> = chain.iter().map(|l| (l.0, l.1)).collect();
        assert_eq!(sizes, vec![(5, 2), (2, 1), (1, 1)]);
        assert!(chain.iter().all(|l| l.2.iter().all(|&v| v == 200)));
    }

    #[test]
    fn every_mode_has_a_path() {
        use BlendMode::*;
        for m in [
            Normal,
            Additive,
            Multiply,
            Screen,
            Overlay,
            Darken,
            Lighten,
            ColorDodge,
            LinearDodge,
            AddGlow,
            ColorBurn,
            HardLight,
            SoftLight,
            Difference,
            Exclusion,
            Subtract,
            Inverse,
            DestinationIn,
            ClipToLower,
            SliceFromLower,
        ] {
            let n = mode_number(m);
            assert_eq!(
                shader_mode(m).is_some(),
                (4..=15).contains(&n) && n != 9,
                "{m:?}"
            );
        }
    }
}
