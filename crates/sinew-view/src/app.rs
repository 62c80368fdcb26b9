//! The viewer's state: the loaded file, the playback settings, loading (with `--param`,
//! `--anim` and `--cage` applied), restarting at a time, and the frame loop with the
//! scripted screenshot.

use crate::overlays::Overlays;
use crate::{Loader, Status, ViewOptions, cage_bind, fail};
use anyhow::{Result, anyhow};
use eframe::egui;
use sinew::Character;
use sinew::draw::{DrawList, DrawSetup};
use sinew_render::View;
use sinew_wgpu::{Gpu, GpuRenderer, Options};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// A parameter's controls: name, 2D, min, max, value.
pub(crate) type ParamRow = (String, bool, [f64; 2], [f64; 2], [f64; 2]);

/// The loaded file.
pub(crate) struct Loaded {
    pub(crate) path: PathBuf,
    pub(crate) character: Character,
    pub(crate) setup: Arc<DrawSetup>,
    /// Skeletal animations, then a puppet's parameter animations.
    pub(crate) clips: Vec<String>,
    /// The puppet's parameter animations (played with `play_param_animation`).
    pub(crate) param_anims: Vec<String>,
    pub(crate) skins: Vec<(String, bool)>,
    pub(crate) params: Vec<ParamRow>,
    /// The fitted view and the canvas size (pixels) it was fitted to.
    pub(crate) view: Option<(View, [u32; 2])>,
    pub(crate) list: DrawList,
    /// Slots whose mesh carries the viewer's boundary cage.
    pub(crate) caged: Vec<String>,
    /// Slots showing a mesh (the "Cages" list).
    pub(crate) mesh_slots: Vec<String>,
}

/// The viewer: what is loaded and how it is shown.
pub(crate) struct App {
    pub(crate) options: ViewOptions,
    pub(crate) loader: Loader,
    pub(crate) renderer: GpuRenderer,
    pub(crate) render_state: eframe::egui_wgpu::RenderState,
    /// The renderer's output registered with egui, and the target size it was registered
    /// at (re-pointed only when the renderer made new targets).
    pub(crate) texture: Option<(egui::TextureId, [u32; 2])>,
    pub(crate) loaded: Option<Loaded>,
    pub(crate) error: Option<String>,
    pub(crate) anim: Option<String>,
    pub(crate) anim2: Option<String>,
    pub(crate) mix: f64,
    pub(crate) playing: bool,
    pub(crate) looping: bool,
    pub(crate) speed: f64,
    pub(crate) time: f64,
    pub(crate) physics: bool,
    pub(crate) overlays: Overlays,
    pub(crate) background: egui::Color32,
    pub(crate) zoom: f32,
    pub(crate) frame_no: u32,
    pub(crate) started: Instant,
    pub(crate) last: Instant,
    pub(crate) fps: f64,
    pub(crate) update_us: f64,
    /// CPU µs of the GPU renderer's encoding and submission (an average).
    pub(crate) submit_us: f64,
    pub(crate) draw_calls: u32,
    pub(crate) status: Status,
    pub(crate) shot_requested: bool,
    /// The canvas rectangle (pixels) and world view of the last frame.
    pub(crate) last_view: Option<([f32; 4], View)>,
}

impl App {
    pub(crate) fn new(
        options: ViewOptions,
        loader: Loader,
        gpu: Gpu,
        render_state: eframe::egui_wgpu::RenderState,
        status: Status,
    ) -> Self {
        let renderer = GpuRenderer::with_options(
            &gpu,
            Options {
                supersample: 2,
                mipmaps: true,
            },
        );
        let [r, g, b] = options.background.unwrap_or([48, 52, 60]);
        let background = egui::Color32::from_rgb(r, g, b);
        let mut app = App {
            anim: options.anim.clone(),
            time: options.time,
            playing: options.screenshot.is_none(),
            overlays: options.overlays,
            options,
            loader,
            renderer,
            render_state,
            texture: None,
            loaded: None,
            error: None,
            anim2: None,
            mix: 0.2,

            looping: true,
            speed: 1.0,
            physics: true,
            background,
            zoom: 1.0,
            frame_no: 0,
            started: Instant::now(),
            last: Instant::now(),
            fps: 0.0,
            update_us: 0.0,
            submit_us: 0.0,
            draw_calls: 0,
            status,
            shot_requested: false,
            last_view: None,
        };
        if let Some(f) = app.options.file.clone() {
            app.open(&f);
        }
        app
    }

    fn open(&mut self, path: &Path) {
        match self.try_open(path) {
            Ok(l) => {
                self.loaded = Some(l);
                self.error = None;
            }
            Err(e) => {
                self.loaded = None;
                self.error = Some(format!("{}: {e:#}", path.display()));
            }
        }
    }

    fn try_open(&mut self, path: &Path) -> Result<Loaded> {
        let asset = (self.loader)(path)?;
        let textures = sinew_render::asset_textures(&asset)?;
        self.renderer.set_pages(&textures);
        let mut character = asset.character();
        let rig = character.rig().clone();
        let param_anims: Vec<String> = asset
            .param_animations
            .iter()
            .map(|a| a.name.clone())
            .collect();
        let clips: Vec<String> = rig
            .clips
            .iter()
            .map(|c| c.name.clone())
            .chain(param_anims.iter().cloned())
            .collect();
        let skins: Vec<(String, bool)> = rig
            .skins
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    s.name.clone(),
                    rig.default_skin.map(|d| d.index()) == Some(i),
                )
            })
            .collect();
        let params = character
            .params()
            .iter()
            .map(|p| (p.name.clone(), p.is_2d, p.min, p.max, p.default))
            .collect::<Vec<_>>();
        let mut params = params;
        for (name, v) in &self.options.params {
            character
                .set_param(name, *v)
                .map_err(|e| anyhow!("--param {name}: {e}"))?;
            if let Some(p) = params.iter_mut().find(|p| &p.0 == name) {
                p.4 = *v;
            }
        }
        if let Some(a) = &self.anim {
            if !clips.contains(a) {
                return Err(anyhow!(
                    "animation not found: {a} (have: {})",
                    clips.join(", ")
                ));
            }
        } else {
            self.anim = clips.first().cloned();
        }
        let setup = Arc::new(character.draw_setup().clone());
        let mesh_slots = cage_bind::mesh_slots(&character);
        let mut l = Loaded {
            path: path.to_path_buf(),
            character,
            setup,
            clips,
            param_anims,
            skins,
            params,
            view: None,
            list: DrawList::default(),
            caged: Vec::new(),
            mesh_slots,
        };
        self.restart(&mut l);
        for slot in self.options.cages.clone() {
            cage_bind::bind_boundary_cage(&mut l.character, &slot)?;
            l.caged.push(slot);
        }
        Ok(l)
    }

    /// Starts the tracks again and advances to `self.time`.
    pub(crate) fn restart(&self, l: &mut Loaded) {
        let c = &mut l.character;
        c.set_default_mix(self.mix);
        if let Some(a) = &self.anim {
            if l.param_anims.contains(a) {
                let _ = c.play_param_animation(a, self.looping);
            } else {
                let _ = c.set_animation(0, a, self.looping);
            }
        }
        if let Some(a) = &self.anim2 {
            let _ = c.set_animation(1, a, self.looping);
        }
        c.update(0.0);
        let mut t = 0.0;
        while t + 1.0 / 60.0 <= self.time {
            c.update(1.0 / 60.0);
            t += 1.0 / 60.0;
        }
        if self.time > t {
            c.update(self.time - t);
        }
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        if dt > 0.0 {
            self.fps = 0.9 * self.fps + 0.1 / dt;
        }
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if let Some(p) = dropped.first() {
            // A dropped file starts fresh: its first animation at 0 s, its own parameters.
            self.anim = None;
            self.anim2 = None;
            self.time = 0.0;
            self.options.params.clear();
            self.options.cages.clear();
            self.open(p);
        }
        egui::Panel::left("controls").show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| self.side_panel(ui));
        });
        egui::CentralPanel::default().show(ui, |ui| self.canvas(ui));
        self.frame_no += 1;
        if let Some(out) = self.options.screenshot.clone()
            && self.frame_no >= self.options.frames.max(1)
            && !self.shot_requested
        {
            self.shot_requested = true;
            if let Some(e) = &self.error {
                fail(&self.status, e.clone());
            }
            if let Some(([x, y, w, h], v)) = self.last_view {
                eprintln!(
                    "sinew view: canvas {x},{y} {w}x{h}; view {},{},{},{}",
                    v.x0, v.y0, v.x1, v.y1
                );
                eprintln!(
                    "sinew view: {} frames, CPU per frame: update + draw list {:.1} µs, GPU submission {:.1} µs; {} draw calls; {:.0} ms since start",
                    self.frame_no,
                    self.update_us,
                    self.submit_us,
                    self.draw_calls,
                    self.started.elapsed().as_secs_f64() * 1e3
                );
            }
            let c2 = ctx.clone();
            let status = self.status.clone();
            ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(
                egui::ScreenshotCallback::new(move |image| {
                    let [w, h] = image.size;
                    let px: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
                    if let Err(e) = sinew_render::encode::write_png(&out, w as u32, h as u32, &px) {
                        fail(&status, format!("writing {}: {e}", out.display()));
                    }
                    c2.send_viewport_cmd(egui::ViewportCommand::Close);
                }),
            ));
        }
        ctx.request_repaint();
    }
}
