//! Shared by `tests/all/noop_spineboy.rs` and `benches/submit.rs`: a device on wgpu's noop
//! backend (wgpu-core validates and records everything, nothing reaches a driver) and
//! spineboy-pro playing `run`, set up as `sinew view` sets it up.

use sinew::Character;
use sinew::draw::{DrawList, DrawSetup};
use sinew_render::View;
use sinew_wgpu::{Frame, FrameStats, Gpu, GpuRenderer, Options};
use std::path::Path;

/// The viewer's canvas size the issue asks about.
pub const WIDTH: u32 = 1920;
/// See [`WIDTH`].
pub const HEIGHT: u32 = 1080;

/// A device on wgpu's noop backend.
pub fn noop_gpu() -> Result<Gpu, String> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::NOOP,
        backend_options: wgpu::BackendOptions {
            noop: wgpu::NoopBackendOptions::enabled(),
            ..Default::default()
        },
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        force_fallback_adapter: false,
        compatible_surface: None,
        apply_limit_buckets: false,
    }))
    .map_err(|e| format!("no noop adapter: {e}"))?;
    Gpu::from_adapter(&adapter).map_err(|e| e.to_string())
}

/// Spineboy on a noop device, as the viewer holds it.
pub struct Scene {
    /// The character, playing `run` (looping) on track 0.
    pub character: Character,
    /// The viewer's copy of the draw list (`clone_from` each frame, as `canvas.rs` does).
    pub list: DrawList,
    /// Masks (spineboy has none; passed as the viewer passes them).
    pub setup: DrawSetup,
    /// The view fitted once with 5% padding (the viewer's first-frame fit).
    pub view: View,
    /// The renderer with the viewer's options (supersample 2, mipmaps) and the pages set.
    pub renderer: GpuRenderer,
}

impl Scene {
    /// Loads `<spine fixtures>/spineboy/spineboy-pro.json` with `spineboy.atlas` through
    /// the facade calls the viewer's loader makes.
    pub fn new(spine: &Path, gpu: &Gpu) -> Result<Scene, String> {
        let dir = spine.join("spineboy");
        let asset = sinew_formats::load_spine(
            &dir.join("spineboy-pro.json"),
            Some(&dir.join("spineboy.atlas")),
            &Default::default(),
        )
        .map_err(|e| e.to_string())?;
        let textures = sinew_render::asset_textures(&asset).map_err(|e| e.to_string())?;
        let mut renderer = GpuRenderer::with_options(
            gpu,
            Options {
                supersample: 2,
                mipmaps: true,
            },
        );
        renderer.set_pages(&textures);
        let mut character = asset.character();
        character
            .set_animation(0, "run", true)
            .map_err(|e| e.to_string())?;
        character.update(0.0);
        let setup = character.draw_setup().clone();
        let list = character.draw_list().clone();
        let [x0, y0, x1, y1] = character
            .fit_view(WIDTH, HEIGHT, 0.05)
            .ok_or("spineboy has no bounds")?;
        Ok(Scene {
            character,
            list,
            setup,
            view: View { x0, y0, x1, y1 },
            renderer,
        })
    }

    /// One viewer frame's update: the animation advanced by 1/60 s.
    pub fn update(&mut self) {
        self.character.update(1.0 / 60.0);
    }

    /// The viewer's copy of the new draw list.
    pub fn draw_list(&mut self) {
        self.list.clone_from(self.character.draw_list());
    }

    /// Encodes and submits the frame (no readback).
    pub fn render(&mut self) -> FrameStats {
        self.renderer.render(&Frame {
            list: &self.list,
            masks: &self.setup.slot_masks,
            group_masks: &self.setup.group_masks,
            view: self.view,
            width: WIDTH,
            height: HEIGHT,
            background: sinew::Color::new(0.0, 0.0, 0.0, 0.0),
        })
    }
}
