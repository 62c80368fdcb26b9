//! `sinew view`: a desktop viewer for every format sinew reads, on eframe/egui with the
//! character drawn by sinew-wgpu on egui's own wgpu device.
//!
//! The window has a side panel (animation list with play/pause, scrub, speed and loop; a
//! second track with a crossfade time; skins, combined; parameter sliders for puppets;
//! physics on/off/reset; overlays for bones and bounds; background colour; zoom) and the
//! character in the centre with a HUD (fps, CPU µs per update, draw calls). Files open from
//! the command line or by drag-and-drop; a file that does not load shows its error in the
//! window. Scripted: [`ViewOptions::screenshot`] runs `frames` frames paused at
//! [`ViewOptions::time`], saves the window's image as PNG, prints the canvas rectangle and
//! the world view on stderr (`sinew view: canvas X,Y WxH; view X0,Y0,X1,Y1`) and closes;
//! [`run`] then returns the load error, if any.
//!
//! The host gives the loader ([`Loader`]), so the viewer opens exactly what the CLI opens.
//! Verified by the CLI's `tests/view.rs` under Xvfb.

use anyhow::{Result, anyhow};
use eframe::egui;
use sinew::Character;
use sinew::draw::{DrawList, DrawSetup};
use sinew_formats::Asset;
use sinew_render::View;
use sinew_wgpu::{Frame, Gpu, GpuRenderer, Options};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Loads a file into an asset (the CLI's loader: format from the content, atlas beside it).
pub type Loader = Arc<dyn Fn(&Path) -> Result<Asset> + Send + Sync>;

/// What `sinew view` was asked for.
#[derive(Debug, Clone, Default)]
pub struct ViewOptions {
    /// The file to open.
    pub file: Option<PathBuf>,
    /// Animation to play on track 0 (default: the first).
    pub anim: Option<String>,
    /// Parameters to set, `(name, [x, y])`.
    pub params: Vec<(String, [f64; 2])>,
    /// Start time in seconds (the animation is advanced to it before the first frame).
    pub time: f64,
    /// Save the window's image here after `frames` frames and close.
    pub screenshot: Option<PathBuf>,
    /// Frames to run before the screenshot.
    pub frames: u32,
    /// Window size in logical pixels.
    pub size: (u32, u32),
    /// Canvas background, straight sRGB `[r, g, b]` (default a dark grey).
    pub background: Option<[u8; 3]>,
}

/// Opens the viewer window and returns when it closes: an error when the window cannot be
/// opened, and in a scripted run when the file did not load or the screenshot could not be
/// written.
pub fn run(options: ViewOptions, loader: Loader) -> Result<()> {
    let (w, h) = options.size;
    let status: Status = Arc::new(Mutex::new(None));
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("sinew view")
            .with_inner_size([w as f32, h as f32])
            .with_drag_and_drop(true),
        renderer: eframe::Renderer::Wgpu,
        ..Default::default()
    };
    let st = status.clone();
    eframe::run_native(
        "sinew view",
        native,
        Box::new(move |cc| {
            let rs = cc
                .wgpu_render_state
                .as_ref()
                .ok_or_else(|| anyhow!("eframe gave no wgpu device"))?;
            let gpu = Gpu::from_parts(rs.device.clone(), rs.queue.clone(), rs.adapter.get_info());
            Ok(Box::new(App::new(options, loader, gpu, rs.clone(), st)))
        }),
    )
    .map_err(|e| anyhow!("cannot open the window: {e}"))?;
    let failure = status
        .lock()
        .map_err(|_| anyhow!("status lock poisoned"))?
        .take();
    match failure {
        Some(e) => Err(anyhow!(e)),
        None => Ok(()),
    }
}

/// What went wrong in a scripted run (`None`: nothing).
type Status = Arc<Mutex<Option<String>>>;

/// Records a scripted run's failure.
fn fail(status: &Status, message: String) {
    if let Ok(mut s) = status.lock() {
        *s = Some(message);
    }
}

/// A parameter slider: name, 2D, min, max, value.
type ParamRow = (String, bool, [f64; 2], [f64; 2], [f64; 2]);

/// The loaded file.
struct Loaded {
    path: PathBuf,
    character: Character,
    setup: Arc<DrawSetup>,
    /// Skeletal animations, then a puppet's parameter animations.
    clips: Vec<String>,
    /// The puppet's parameter animations (played with `play_param_animation`).
    param_anims: Vec<String>,
    skins: Vec<(String, bool)>,
    params: Vec<ParamRow>,
    /// The fitted view and the canvas size (pixels) it was fitted to.
    view: Option<(View, [u32; 2])>,
    list: DrawList,
}

struct App {
    options: ViewOptions,
    loader: Loader,
    renderer: GpuRenderer,
    render_state: eframe::egui_wgpu::RenderState,
    texture: Option<egui::TextureId>,
    loaded: Option<Loaded>,
    error: Option<String>,
    anim: Option<String>,
    anim2: Option<String>,
    mix: f64,
    playing: bool,
    looping: bool,
    speed: f64,
    time: f64,
    physics: bool,
    bones: bool,
    bounds: bool,
    background: egui::Color32,
    zoom: f32,
    frame_no: u32,
    started: Instant,
    last: Instant,
    fps: f64,
    update_us: f64,
    /// CPU µs of the GPU renderer's encoding and submission (an average).
    submit_us: f64,
    draw_calls: u32,
    status: Status,
    shot_requested: bool,
    /// The canvas rectangle (pixels) and world view of the last frame.
    last_view: Option<([f32; 4], View)>,
}

impl App {
    fn new(
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
            bones: false,
            bounds: false,
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
        };
        self.restart(&mut l);
        Ok(l)
    }

    /// Starts the tracks again and advances to `self.time`.
    fn restart(&self, l: &mut Loaded) {
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

    fn side_panel(&mut self, ui: &mut egui::Ui) {
        let Some(mut l) = self.loaded.take() else {
            ui.label("Drop a file here (Spine .json/.skel, Inochi2D .inp/.inx, DragonBones).");
            return;
        };
        ui.label(
            l.path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
        let mut restart = false;
        ui.separator();
        ui.horizontal(|ui| {
            if ui
                .button(if self.playing { "Pause" } else { "Play" })
                .clicked()
            {
                self.playing = !self.playing;
            }
            restart |= ui.checkbox(&mut self.looping, "loop").changed();
        });
        ui.add(egui::Slider::new(&mut self.speed, 0.0..=3.0).text("speed"));
        if ui
            .add(egui::Slider::new(&mut self.time, 0.0..=10.0).text("time (scrub)"))
            .changed()
        {
            restart = true;
        }
        egui::CollapsingHeader::new("Animations")
            .default_open(true)
            .show(ui, |ui| {
                for c in &l.clips {
                    if ui
                        .selectable_label(self.anim.as_ref() == Some(c), c)
                        .clicked()
                    {
                        self.anim = Some(c.clone());
                        self.time = 0.0;
                        restart = true;
                    }
                }
            });
        egui::CollapsingHeader::new("Track 2 (crossfade)").show(ui, |ui| {
            restart |= ui
                .add(egui::Slider::new(&mut self.mix, 0.0..=2.0).text("mix s"))
                .changed();
            if ui
                .selectable_label(self.anim2.is_none(), "(none)")
                .clicked()
            {
                self.anim2 = None;
                restart = true;
            }
            for c in &l.clips {
                if ui
                    .selectable_label(self.anim2.as_ref() == Some(c), c)
                    .clicked()
                {
                    self.anim2 = Some(c.clone());
                    let _ = l.character.set_animation(1, c, self.looping);
                }
            }
        });
        if !l.skins.is_empty() {
            egui::CollapsingHeader::new("Skins").show(ui, |ui| {
                let mut changed = false;
                for (name, on) in &mut l.skins {
                    changed |= ui.checkbox(on, name.as_str()).changed();
                }
                if changed {
                    let names: Vec<&str> = l
                        .skins
                        .iter()
                        .filter(|s| s.1)
                        .map(|s| s.0.as_str())
                        .collect();
                    let _ = l.character.set_skins_by_name(&names);
                }
            });
        }
        if !l.params.is_empty() {
            egui::CollapsingHeader::new("Parameters")
                .default_open(true)
                .show(ui, |ui| {
                    for (name, is_2d, min, max, value) in &mut l.params {
                        let mut changed = ui
                            .add(
                                egui::Slider::new(&mut value[0], min[0]..=max[0])
                                    .text(name.as_str()),
                            )
                            .changed();
                        if *is_2d {
                            changed |= ui
                                .add(egui::Slider::new(&mut value[1], min[1]..=max[1]).text("  y"))
                                .changed();
                        }
                        if changed {
                            let _ = l.character.set_param(name, *value);
                        }
                    }
                });
        }
        ui.separator();
        ui.horizontal(|ui| {
            if ui.checkbox(&mut self.physics, "physics").changed() {
                l.character.set_physics(if self.physics {
                    sinew::Physics::Update
                } else {
                    sinew::Physics::None
                });
            }
            if ui.button("reset").clicked() {
                l.character.reset_physics();
            }
        });
        ui.checkbox(&mut self.bones, "bones");
        ui.checkbox(&mut self.bounds, "bounds");
        ui.add(egui::Slider::new(&mut self.zoom, 0.2..=5.0).text("zoom"));
        ui.horizontal(|ui| {
            ui.label("background");
            ui.color_edit_button_srgba(&mut self.background);
        });
        if restart {
            self.restart(&mut l);
        }
        self.loaded = Some(l);
    }

    fn canvas(&mut self, ui: &mut egui::Ui) {
        let rect = ui.available_rect_before_wrap();
        let ppp = ui.ctx().pixels_per_point();
        let (w, h) = (
            ((rect.width() * ppp).round() as u32).max(1),
            ((rect.height() * ppp).round() as u32).max(1),
        );
        ui.painter().rect_filled(rect, 0.0, self.background);
        if let Some(e) = &self.error {
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                format!("error: {e}"),
                egui::FontId::proportional(16.0),
                egui::Color32::from_rgb(255, 110, 110),
            );
            return;
        }
        let Some(l) = self.loaded.as_mut() else {
            return;
        };
        let dt = if self.playing { self.speed / 60.0 } else { 0.0 };
        let t0 = Instant::now();
        l.character.update(dt);
        if self.playing {
            self.time += dt;
        }
        l.list.clone_from(l.character.draw_list());
        self.update_us = 0.9 * self.update_us + 0.1 * t0.elapsed().as_secs_f64() * 1e6;
        // Fit what is drawn to the canvas on the first frame and whenever the canvas size
        // changes (the same fit as `sinew render`'s default view).
        if l.view.is_none_or(|(_, size)| size != [w, h]) {
            l.view = l
                .character
                .fit_view(w, h, 0.05)
                .map(|[x0, y0, x1, y1]| (View { x0, y0, x1, y1 }, [w, h]));
        }
        let Some((base, _)) = l.view else {
            return;
        };
        // Keep the fitted world centre and scale; follow the panel's aspect and the zoom.
        let (cx, cy) = ((base.x0 + base.x1) / 2.0, (base.y0 + base.y1) / 2.0);
        let scale = (base.y1 - base.y0) / f64::from(h) / f64::from(self.zoom);
        let (hw, hh) = (f64::from(w) * scale / 2.0, f64::from(h) * scale / 2.0);
        let view = View {
            x0: cx - hw,
            y0: cy - hh,
            x1: cx + hw,
            y1: cy + hh,
        };
        let t1 = Instant::now();
        let stats = self.renderer.render(&Frame {
            list: &l.list,
            masks: &l.setup.slot_masks,
            group_masks: &l.setup.group_masks,
            view,
            width: w,
            height: h,
            background: sinew::Color::new(0.0, 0.0, 0.0, 0.0),
        });
        self.submit_us = 0.9 * self.submit_us + 0.1 * t1.elapsed().as_secs_f64() * 1e6;
        self.draw_calls = stats.draw_calls;
        self.last_view = Some((
            [rect.min.x * ppp, rect.min.y * ppp, w as f32, h as f32],
            view,
        ));
        if let Some(tex) = self.renderer.output_view() {
            let mut r = self.render_state.renderer.write();
            let device = &self.render_state.device;
            self.texture = Some(match self.texture {
                Some(id) => {
                    r.update_egui_texture_from_wgpu_texture(
                        device,
                        tex,
                        wgpu::FilterMode::Linear,
                        id,
                    );
                    id
                }
                None => r.register_native_texture(device, tex, wgpu::FilterMode::Linear),
            });
        }
        if let Some(id) = self.texture {
            ui.painter().image(
                id,
                rect,
                egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                egui::Color32::WHITE,
            );
        }
        let to_screen = |x: f64, y: f64| {
            egui::pos2(
                rect.min.x + ((x - view.x0) / (view.x1 - view.x0)) as f32 * rect.width(),
                rect.min.y + ((view.y1 - y) / (view.y1 - view.y0)) as f32 * rect.height(),
            )
        };
        let y_sign = if l.setup.y_down { -1.0 } else { 1.0 };
        if self.bones {
            let rig = l.character.rig().clone();
            for (i, b) in rig.bones.iter().enumerate() {
                let Some(w) = l.character.instance().world.get(i) else {
                    continue;
                };
                let (x, y) = (w.x, w.y * y_sign);
                let len = b.length.max(4.0);
                let (ex, ey) = (x + w.a * len, y + w.c * len * y_sign);
                let stroke = egui::Stroke::new(1.5, egui::Color32::from_rgb(90, 200, 255));
                ui.painter()
                    .line_segment([to_screen(x, y), to_screen(ex, ey)], stroke);
                ui.painter()
                    .circle_filled(to_screen(x, y), 2.5, egui::Color32::YELLOW);
            }
        }
        if self.bounds
            && let Some(b) = l.list.bounds()
        {
            let r = egui::Rect::from_two_pos(
                to_screen(f64::from(b[0]), f64::from(b[1])),
                to_screen(f64::from(b[2]), f64::from(b[3])),
            );
            ui.painter().rect_stroke(
                r,
                0.0,
                egui::Stroke::new(1.0, egui::Color32::GREEN),
                egui::StrokeKind::Middle,
            );
        }
        ui.painter().text(
            rect.min + egui::vec2(8.0, 8.0),
            egui::Align2::LEFT_TOP,
            format!(
                "{:.0} fps | update {:.1} µs | submit {:.1} µs | {} draw calls",
                self.fps, self.update_us, self.submit_us, self.draw_calls
            ),
            egui::FontId::monospace(14.0),
            egui::Color32::from_rgb(255, 230, 80),
        );
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
