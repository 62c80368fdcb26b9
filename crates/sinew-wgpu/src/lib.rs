//! sinew-wgpu: a GPU renderer for sinew's [`sinew::draw::DrawList`], on wgpu (Vulkan, Metal,
//! DX12 or GL through wgpu's backends).
//!
//! [`GpuRenderer`] draws what the CPU rasteriser (`sinew-render`) draws, the same way:
//! - premultiplied alpha throughout (pages are premultiplied on load, as `sinew-render`'s
//!   [`sinew_render::Texture`] holds them; targets hold premultiplied colour);
//! - the four core blend modes with Spine's premultiplied factors, and the Inochi2D factor
//!   modes (AddGlow, Inverse, DestinationIn, ClipToLower, SliceFromLower) as fixed-function
//!   blending; the separable Inochi2D modes (Overlay ... Subtract) by a copy of the target (the
//!   backdrop) and a shader (`shader.wgsl`, the formulas of `sinew_render::advanced`);
//! - two-colour tint (Spine tint black) and Inochi2D screen tints in the fragment shader;
//! - Spine clipping: each clip polygon is drawn into a stencil bit as a triangle fan with
//!   `Invert` (even-odd, so concave polygons are exact) and the clipped commands test it
//!   (Spine 4.3: a `convex` clip's polygon is already its hull in the draw list, and an
//!   `inverse` clip's commands draw where the bit is clear);
//! - Inochi2D masks and dodge masks: the sources are drawn into two stencil bits (texels at
//!   or below the threshold discarded) and the masked command tests `mask && !dodge`;
//! - composites ([`sinew::draw::DrawGroup`]): the children go to an off-screen layer that is
//!   shaded with the group's tint, screen tint and opacity and composited once;
//! - anti-aliasing by supersampling ([`Options::supersample`]; `s x s` samples a pixel on a
//!   lattice turned by `atan(1 / s)` so axis-aligned edges get `s^2` coverage steps, like
//!   the CPU's exact areas (`grid.rs`); averaged by a downsample pass), which also keeps
//!   stencil masks smooth at their edges.
//!
//! Batching: consecutive commands with the same page, blend mode, clip and no mask are one
//! draw call ([`FrameStats::draw_calls`]). Every vertex and index of a frame goes into one
//! vertex and one index buffer that only grow, and the CPU-side staging vectors are reused,
//! so after the first frames nothing is allocated per frame. Atlas pages are uploaded once
//! ([`GpuRenderer::set_pages`]) with a full mip chain built on the CPU (box filter on
//! premultiplied texels).
//!
//! [`Gpu::headless`] opens a device without a window; [`GpuRenderer::render`] draws a frame
//! into the renderer's own target and [`GpuRenderer::read_rgba`] reads it back as straight
//! RGBA8 (what `sinew render --backend wgpu` encodes). A window host renders into the same
//! target and shows [`GpuRenderer::output_view`].
//!
//! Verified by `sinew-cli/tests/all/render_wgpu.rs` (`sinew render --backend wgpu` against the
//! CPU renderer on every Spine render reference and the puppets, by PSNR and alpha IoU),
//! this crate's `tests/all/synthetic.rs` (masks, composites, blend modes, batching counts, no
//! growth after warm-up), `tests/all/clip43.rs` (Spine 4.3 convex and inverse clips against
//! the CPU renderer and spine-core 4.3.13's clipped triangles), `tests/all/noop_spineboy.rs` (a frame on wgpu's noop backend) and the
//! unit tests in `renderer/`. Tests that need an adapter skip without one (fail
//! with `CI=true`).

mod gpu;
mod grid;
mod renderer;

pub use gpu::{Gpu, GpuError};
pub use renderer::{Frame, FrameStats, GpuRenderer, Options};
