//! `sinew render --backend wgpu`: frames drawn by sinew-wgpu on a headless device and read
//! back into a [`Canvas`], so every output format is encoded exactly as on the CPU path.
//! Verified by `tests/all/render_wgpu.rs` (GPU against CPU images on every Spine render reference
//! and the synthetic puppets).
//!
//! The GPU renderer is the `wgpu` cargo feature (on with `view`; off by default, so that a
//! plain build does not compile wgpu): without it `--backend wgpu` still parses and
//! [`GpuBackend::new`] says how to build a sinew that has it.

#[cfg(feature = "wgpu")]
use anyhow::Context;
use anyhow::Result;
use clap::ValueEnum;
use sinew::Color;
use sinew::draw::{DrawList, SlotMask};
use sinew_render::{Canvas, Texture, View};
#[cfg(feature = "wgpu")]
use sinew_wgpu::{Frame, Gpu, GpuRenderer, Options};

/// Which renderer draws the frames (`--backend`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Backend {
    /// sinew-render's CPU rasteriser (every core).
    #[default]
    Cpu,
    /// sinew-wgpu on the first GPU adapter (Vulkan, Metal, DX12 or GL).
    Wgpu,
}

/// What `--backend wgpu` says in a sinew built without the `wgpu` feature.
pub const NOT_BUILT: &str = "--backend wgpu: this sinew was built without the GPU renderer; \
     build it with the `wgpu` feature: cargo run --release -p sinew-cli --features wgpu -- render ...";

/// A headless GPU renderer with an asset's pages uploaded.
#[cfg(feature = "wgpu")]
#[derive(Debug)]
pub struct GpuBackend {
    renderer: GpuRenderer,
}

/// Without the `wgpu` feature there is no GPU renderer: [`GpuBackend::new`] fails with
/// [`NOT_BUILT`], so no value of this type exists.
#[cfg(not(feature = "wgpu"))]
#[derive(Debug)]
pub struct GpuBackend {
    never: std::convert::Infallible,
}

#[cfg(not(feature = "wgpu"))]
impl GpuBackend {
    /// Fails: this sinew has no GPU renderer ([`NOT_BUILT`]).
    pub fn new(_textures: &[Texture]) -> Result<Self> {
        Err(anyhow::anyhow!(NOT_BUILT))
    }

    /// Never called: there is no value to call it on.
    pub fn draw(
        &mut self,
        _list: &DrawList,
        _masks: &[SlotMask],
        _group_masks: &[SlotMask],
        _view: &View,
        _background: Color,
        _canvas: &mut Canvas,
    ) -> Result<()> {
        match self.never {}
    }
}

#[cfg(feature = "wgpu")]
impl GpuBackend {
    /// Opens a device and uploads `textures` (the asset's pages).
    pub fn new(textures: &[Texture]) -> Result<Self> {
        let gpu = Gpu::headless().context("--backend wgpu")?;
        // Base-level sampling, as the CPU renderer and the official renders sample; 8 x 8
        // samples a pixel, so edge coverage is within 1/16 of the CPU's exact area.
        let options = Options {
            supersample: 8,
            mipmaps: false,
        };
        let mut renderer = GpuRenderer::with_options(&gpu, options);
        renderer.set_pages(textures);
        Ok(GpuBackend { renderer })
    }

    /// Draws `list` over `background` into `canvas` (its size and contents replaced).
    pub fn draw(
        &mut self,
        list: &DrawList,
        masks: &[SlotMask],
        group_masks: &[SlotMask],
        view: &View,
        background: Color,
        canvas: &mut Canvas,
    ) -> Result<()> {
        let rgba = self
            .renderer
            .render_rgba(&Frame {
                list,
                masks,
                group_masks,
                view: *view,
                width: canvas.width,
                height: canvas.height,
                background,
            })
            .context("--backend wgpu")?;
        for (p, s) in canvas.pixels.iter_mut().zip(rgba.chunks_exact(4)) {
            let a = f32::from(s[3]) / 255.0;
            let c = |k: usize| (f32::from(s[k]) / 255.0 * a).min(1.0);
            *p = [c(0), c(1), c(2), a];
        }
        Ok(())
    }
}
