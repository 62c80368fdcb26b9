//! The viewer's state: the loaded file, the playback settings, loading (with `--param`,
//! `--anim`, `--cage` and the rig extras applied), restarting at a time, the physics,
//! jiggle and follow switches, and the frame loop.

use crate::camera::Camera;
use crate::model::{Loaded, Opening, Playback};
use crate::overlays::Overlays;
use crate::script::Player;
use crate::shots::Shots;
use crate::{Loader, Status, ViewOptions, cage_bind, source};
use anyhow::Result;
use eframe::egui;
use sinew::Character;
use sinew_formats::{Asset, LoadOptions};
use sinew_render::View;
use sinew_wgpu::{Gpu, GpuRenderer, Options};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The side panel's width, points.
const SIDE_PANEL_WIDTH: f32 = 250.0;
/// The rig panel's width, points.
const RIG_PANEL_WIDTH: f32 = 340.0;

/// The longest step one frame advances playback (after a stall the animation resumes
/// instead of jumping).
const MAX_FRAME_DT: f64 = 0.1;

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
    /// What plays: clips, crossfade, loop, time.
    pub(crate) play: Playback,
    pub(crate) playing: bool,
    pub(crate) speed: f64,
    /// Spine physics constraints and puppet parameter physics.
    pub(crate) physics: bool,
    /// The rig extras' jiggle bones.
    pub(crate) jiggle: bool,
    /// The rig extras' delayed follows.
    pub(crate) follow: bool,
    pub(crate) overlays: Overlays,
    pub(crate) background: egui::Color32,
    pub(crate) camera: Camera,
    /// Seconds this frame advances playback (before the speed): the measured frame time,
    /// at most [`MAX_FRAME_DT`]; 1/60 s in scripted runs, so they are deterministic.
    pub(crate) frame_dt: f64,
    pub(crate) frame_no: u32,
    /// When `run` began (before the window, the device and the file).
    pub(crate) launched: Instant,
    /// When the app was made (window and device ready, before the file loaded).
    pub(crate) started: Instant,
    pub(crate) last: Instant,
    pub(crate) fps: f64,
    pub(crate) update_us: f64,
    /// CPU µs of the GPU renderer's encoding and submission (an average).
    pub(crate) submit_us: f64,
    pub(crate) draw_calls: u32,
    pub(crate) status: Status,
    pub(crate) shot_requested: bool,
    pub(crate) shots: Shots,
    /// The canvas rectangle (pixels) and world view of the last frame.
    pub(crate) last_view: Option<([f32; 4], View)>,
    /// What the viewer drew this frame under a name, for scripted input: sliders, buttons,
    /// cage handles (points).
    pub(crate) targets: BTreeMap<String, egui::Rect>,
    /// Scripted input.
    pub(crate) player: Player,
    /// The frame the script ended on.
    pub(crate) script_done: Option<u32>,
    /// The cage handle being dragged: (cage edit, point).
    pub(crate) cage_drag: Option<(usize, usize)>,
    /// A second file drawn beside the first (`--beside`).
    pub(crate) beside: Option<crate::beside::Beside>,
}

impl App {
    pub(crate) fn new(
        options: ViewOptions,
        loader: Loader,
        gpu: Gpu,
        render_state: eframe::egui_wgpu::RenderState,
        status: Status,
        launched: Instant,
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
            play: Playback {
                time: options.time,
                ..Playback::default()
            },
            playing: options.screenshot.is_none() || options.play,
            overlays: options.overlays,
            options,
            loader,
            renderer,
            render_state,
            texture: None,
            loaded: None,
            error: None,
            speed: 1.0,
            physics: true,
            jiggle: true,
            follow: true,
            background,
            camera: Camera::default(),
            frame_dt: 1.0 / 60.0,
            frame_no: 0,
            launched,
            started: Instant::now(),
            last: Instant::now(),
            fps: 0.0,
            update_us: 0.0,
            submit_us: 0.0,
            draw_calls: 0,
            status,
            shot_requested: false,
            shots: Shots::default(),
            last_view: None,
            targets: BTreeMap::new(),
            player: Player::new(Vec::new()),
            script_done: None,
            cage_drag: None,
            beside: None,
        };
        app.player = Player::new(app.options.script.clone());
        if let Some(f) = app.options.file.clone() {
            let given = source::options_for(&app.options);
            app.open(&f, &given);
        }
        if let Some(b) = app.options.beside.clone() {
            let beside =
                crate::beside::Beside::open(&app.loader, &app.options, &gpu, &b, &app.play);
            if let Some(e) = &beside.error {
                eprintln!("sinew view: {e}");
            }
            app.beside = Some(beside);
        }
        app
    }

    /// Opens `path` with `given` extras (the command line's, for the file it names).
    fn open(&mut self, path: &Path, given: &LoadOptions) {
        self.camera.fit();
        match self.try_open(path, given) {
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

    fn try_open(&mut self, path: &Path, given: &LoadOptions) -> Result<Loaded> {
        let asset = (self.loader)(path, given)?;
        let extras_note = source::note(path, given, &asset);
        let textures = sinew_render::asset_textures(&asset)?;
        self.renderer.set_pages(&textures);
        let mut character = asset.character();
        self.apply_switches(&mut character, &asset);
        let opening = Opening {
            anim: self.options.anim.as_deref(),
            params: &self.options.params,
            skins: &self.options.skins,
        };
        let mut l = Loaded::new(path, asset, character, opening, &mut self.play)?;
        l.extras_note = extras_note;
        if let Some(p) = crate::tune::extras_path(path, given) {
            // The extras loaded above, read again as a description to tune and save.
            let save_to = self.options.save_extras.clone();
            l.tuning = Some(crate::tune::Tuning::load(&p, save_to.as_deref())?);
        }
        for slot in self.options.cages.clone() {
            let e = cage_bind::bind_boundary_cage(&mut l.character, &slot, None)?;
            l.caged.push(slot);
            l.cage_edits.push(e);
        }
        // Said once on stderr too (a scripted run has no one looking at the window).
        if let Some(why) = l.empty_reason() {
            eprintln!("sinew view: {}: {why}", path.display());
            l.empty = Some(why);
        }
        Ok(l)
    }

    /// Sets the physics, jiggle and follow switches on `c` (a character of `asset`).
    pub(crate) fn apply_switches(&self, c: &mut Character, asset: &Asset) {
        c.set_physics(if self.physics {
            sinew::Physics::Update
        } else {
            sinew::Physics::None
        });
        c.set_param_physics(self.physics);
        // The asset's own extras, built for this rig: never refused.
        let _ = c.set_jiggle(asset.jiggle.clone().filter(|_| self.jiggle));
        let _ = c.set_follows(asset.follow.clone().filter(|_| self.follow));
    }

    /// The panel's physics reset: Spine physics, follows and jiggle from rest on the next
    /// update; a puppet's parameter physics (pendulums, chains), which
    /// `Character::reset_physics` leaves running, by a fresh character of the same asset
    /// with the panel's settings (parameters, skins, switches, cages) at the same time.
    pub(crate) fn reset_physics(&self, l: &mut Loaded) {
        if l.asset.puppet.is_none() {
            l.character.reset_physics();
            return;
        }
        self.fresh_character(l);
    }

    /// Replaces `l`'s character by a fresh one of its asset (as its jiggle is now) with the
    /// panel's settings (parameters, skins, switches, cages and their handles), played to
    /// the same time: what a tuned jiggle chain shows at this time, had it always had its
    /// values.
    pub(crate) fn fresh_character(&self, l: &mut Loaded) {
        let mut c = l.asset.character();
        self.apply_switches(&mut c, &l.asset);
        for (name, _, _, _, value) in &l.params {
            let _ = c.set_param(name, *value);
        }
        if !l.skins.is_empty() {
            let names: Vec<&str> = l
                .skins
                .iter()
                .filter(|s| s.1)
                .map(|s| s.0.as_str())
                .collect();
            let _ = c.set_skins(&names);
        }
        l.character = c;
        l.install_param_animations();
        l.restart(&self.play);
        crate::panel::rebind_cages(l);
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
        // Real time while interactive; a fixed clock when scripted (screenshots repeat).
        self.frame_dt = if self.options.screenshot.is_some() {
            1.0 / 60.0
        } else {
            dt.clamp(0.0, MAX_FRAME_DT)
        };
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if let Some(p) = dropped.first() {
            // A dropped file starts fresh: its first animation at 0 s, its own parameters,
            // only its own sibling extras.
            self.play = Playback::default();
            self.options.anim = None;
            self.options.params.clear();
            self.options.cages.clear();
            self.options.skins.clear();
            self.open(p, &source::options_for(&ViewOptions::default()));
        }
        if ctx.input(|i| i.key_pressed(egui::Key::F12)) {
            self.shots.requested = true;
        }
        self.targets.clear();
        // Both panels have fixed widths: the canvas (and so the fitted view) does not
        // depend on what they list.
        egui::Panel::left("controls")
            .exact_size(SIDE_PANEL_WIDTH)
            .resizable(false)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.side_panel(ui));
            });
        if self.loaded.as_ref().is_some_and(App::has_rig_panel) {
            egui::Panel::right("rig")
                .exact_size(RIG_PANEL_WIDTH)
                .resizable(false)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| self.rig_panel(ui));
                });
        }
        egui::CentralPanel::default().show(ui, |ui| self.canvas(ui));
        self.frame_no += 1;
        if !self.options.script.is_empty() && self.player.done() && self.script_done.is_none() {
            self.script_done = Some(self.frame_no);
        }
        self.interactive_shot(&ctx);
        self.scripted_shot(&ctx);
        ctx.request_repaint();
    }

    /// Scripted input: this frame's pointer events, aimed at last frame's targets (a target
    /// that never appears fails the run and ends the script).
    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw: &mut egui::RawInput) {
        if !self.options.script.is_empty() {
            // egui tells clicks from presses by time: a scripted run's input runs on the
            // same fixed 1/60 s clock as its playback, however slow the frames are.
            raw.time = Some(f64::from(self.frame_no) / 60.0);
            raw.predicted_dt = 1.0 / 60.0;
        }
        match self.player.events(&self.targets) {
            Ok(events) => raw.events.extend(events),
            Err(e) => {
                eprintln!("sinew view: {e:#}");
                crate::fail(&self.status, format!("{e:#}"));
                self.player = Player::new(Vec::new());
            }
        }
    }
}
