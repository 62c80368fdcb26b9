//! A second file drawn beside the first in the same window (`--beside FILE`): e.g. a
//! Spine 4.2 export and its 4.3 conversion, each posed by its own version's semantics. The
//! canvas splits in two halves; the second file plays what the first plays (the same
//! animation names, loop, crossfade and time, restarted whenever the first is restarted
//! or scrubbed) with its own renderer, textures and fitted view; each half is labelled
//! with its file and format version.

use crate::model::{Loaded, Opening, Playback};
use crate::{Loader, ViewOptions};
use anyhow::Result;
use eframe::egui;
use sinew_formats::{Companion, LoadOptions};
use sinew_render::View;
use sinew_wgpu::{Frame, Gpu, GpuRenderer, Options};
use std::path::Path;

/// The second file and what draws it.
pub(crate) struct Beside {
    pub(crate) loaded: Option<Loaded>,
    pub(crate) error: Option<String>,
    pub(crate) renderer: GpuRenderer,
    pub(crate) texture: Option<(egui::TextureId, [u32; 2])>,
    /// Its canvas rectangle (pixels) and world view of the last frame.
    pub(crate) last_view: Option<([f32; 4], View)>,
    /// What it plays (the first file's playback, its clips only) and its own clock.
    play: Playback,
    label: String,
}

impl Beside {
    /// Loads `path` (its atlas beside it or `options.beside_atlas`) to play like `play`.
    pub(crate) fn open(
        loader: &Loader,
        options: &ViewOptions,
        gpu: &Gpu,
        path: &Path,
        play: &Playback,
    ) -> Beside {
        let renderer = GpuRenderer::with_options(
            gpu,
            Options {
                supersample: 2,
                mipmaps: true,
            },
        );
        let mut b = Beside {
            loaded: None,
            error: None,
            renderer,
            texture: None,
            last_view: None,
            play: play.clone(),
            label: path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        };
        match b.try_open(loader, options, path) {
            Ok(l) => {
                b.label = label(&l);
                b.loaded = Some(l);
            }
            Err(e) => b.error = Some(format!("{}: {e:#}", path.display())),
        }
        b
    }

    fn try_open(&mut self, loader: &Loader, options: &ViewOptions, path: &Path) -> Result<Loaded> {
        let given = LoadOptions {
            atlas: options
                .beside_atlas
                .as_deref()
                .map_or(Companion::Beside, |p| {
                    Companion::Named(p.display().to_string())
                }),
            ..Default::default()
        };
        let asset = loader(path, &given)?;
        let textures = sinew_render::asset_textures(&asset)?;
        self.renderer.set_pages(&textures);
        let character = asset.character();
        let opening = Opening {
            anim: self.play.anim.as_deref(),
            params: &[],
            skins: &options.skins,
        };
        let mut play = self.play.clone();
        let l = Loaded::new(path, asset, character, opening, &mut play)?;
        self.play = play;
        Ok(l)
    }

    /// Follows the first file's playback: restarts at its time when what plays changed or
    /// the time jumped (a scrub, a restart); else advances by `dt`.
    pub(crate) fn follow(&mut self, main: &Playback, dt: f64) {
        let Some(l) = self.loaded.as_mut() else {
            return;
        };
        let has = |name: &Option<String>| name.as_ref().is_none_or(|n| l.clips.contains(n));
        let same = self.play.anim == main.anim
            && self.play.anim2 == main.anim2
            && self.play.looping == main.looping
            && self.play.backwards == main.backwards
            && self.play.mix == main.mix;
        if !same || (self.play.time + dt - main.time).abs() > 1e-9 {
            let mut p = main.clone();
            // A clip the second file lacks is left out.
            if !has(&p.anim) {
                p.anim = None;
            }
            if !has(&p.anim2) {
                p.anim2 = None;
            }
            l.restart(&p);
            self.play = Playback {
                anim: main.anim.clone(),
                anim2: main.anim2.clone(),
                ..p
            };
        } else {
            l.character.update(dt);
            self.play.time = main.time;
        }
        l.list.clone_from(l.character.draw_list());
    }

    /// Draws the second file into `rect` (its own fitted view).
    pub(crate) fn paint(
        &mut self,
        ui: &mut egui::Ui,
        rect: egui::Rect,
        render_state: &eframe::egui_wgpu::RenderState,
    ) {
        let ppp = ui.ctx().pixels_per_point();
        let (w, h) = (
            ((rect.width() * ppp).round() as u32).max(1),
            ((rect.height() * ppp).round() as u32).max(1),
        );
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
        if l.view.is_none_or(|(_, size)| size != [w, h]) {
            l.view = l
                .character
                .fit_view(w, h, 0.05)
                .map(|[x0, y0, x1, y1]| (View { x0, y0, x1, y1 }, [w, h]));
        }
        if let Some((view, _)) = l.view {
            self.renderer.render(&Frame {
                list: &l.list,
                masks: &l.setup.slot_masks,
                group_masks: &l.setup.group_masks,
                view,
                width: w,
                height: h,
                background: sinew::Color::new(0.0, 0.0, 0.0, 0.0),
            });
            self.last_view = Some((
                [rect.min.x * ppp, rect.min.y * ppp, w as f32, h as f32],
                view,
            ));
            crate::canvas::register_texture(
                &mut self.texture,
                &self.renderer,
                render_state,
                [w, h],
            );
            if let Some((id, _)) = self.texture {
                let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
                ui.painter().image(id, rect, uv, egui::Color32::WHITE);
            }
        }
        paint_label(ui, rect, &self.label);
    }
}

/// "file — format version", e.g. `spineboy-pro.json — Spine 4.3.0`.
pub(crate) fn label(l: &Loaded) -> String {
    let name = l
        .path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let rig = l.character.rig();
    let format = match l.asset.format {
        sinew_formats::Format::SpineJson | sinew_formats::Format::SpineSkel => {
            format!("Spine {}", rig.version)
        }
        other => format!("{other:?}"),
    };
    format!("{name} — {format}")
}

/// A label at the bottom left of a half.
pub(crate) fn paint_label(ui: &egui::Ui, rect: egui::Rect, text: &str) {
    ui.painter().text(
        rect.left_bottom() + egui::vec2(8.0, -8.0),
        egui::Align2::LEFT_BOTTOM,
        text,
        egui::FontId::proportional(14.0),
        egui::Color32::from_rgb(200, 220, 255),
    );
}
