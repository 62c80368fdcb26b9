//! The canvas: the frame's update, the fitted view under the camera (drag pans, the wheel
//! zooms about the cursor, a double click fits), the GPU render into the texture egui
//! shows, the overlays and the HUD.

use crate::app::App;
use crate::overlays::{self, ToScreen};
use eframe::egui;
use sinew_render::View;
use sinew_wgpu::{Frame, GpuRenderer};
use std::time::Instant;

impl App {
    pub(crate) fn canvas(&mut self, ui: &mut egui::Ui) {
        let rect = ui.available_rect_before_wrap();
        let ppp = ui.ctx().pixels_per_point();
        let (w, h) = (
            ((rect.width() * ppp).round() as u32).max(1),
            ((rect.height() * ppp).round() as u32).max(1),
        );
        let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
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
        let dt = if self.playing {
            self.speed * self.frame_dt
        } else {
            0.0
        };
        let t0 = Instant::now();
        l.character.update(dt);
        if self.playing {
            self.play.time += dt;
        }
        l.list.clone_from(l.character.draw_list());
        self.update_us = 0.9 * self.update_us + 0.1 * t0.elapsed().as_secs_f64() * 1e6;
        // Say why nothing is drawn (the reason is worked out once, when the list empties).
        if crate::model::draws_something(&l.list) {
            l.empty = None;
        } else if l.empty.is_none() {
            l.empty = l.empty_reason();
        }
        if let Some(why) = &l.empty {
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                why,
                egui::FontId::proportional(15.0),
                egui::Color32::from_rgb(255, 190, 90),
            );
        }
        // Fit what is drawn to the canvas on the first frame, whenever the canvas size
        // changes and on "fit" (the same fit as `sinew render`'s default view).
        if l.view.is_none_or(|(_, size)| size != [w, h]) {
            l.view = l
                .character
                .fit_view(w, h, 0.05)
                .map(|[x0, y0, x1, y1]| (View { x0, y0, x1, y1 }, [w, h]));
        }
        let Some((base, _)) = l.view else {
            return;
        };
        // Pan and zoom from the pointer (none in scripted runs: no input arrives).
        if response.double_clicked() {
            self.camera.fit();
            l.view = None;
        } else if response.dragged() {
            let d = response.drag_delta();
            self.camera
                .drag(&base, h, [f64::from(d.x * ppp), f64::from(d.y * ppp)]);
        }
        if response.hovered() {
            let (scroll, pinch, at) = ui.input(|i| {
                (
                    i.smooth_scroll_delta.y,
                    i.zoom_delta(),
                    i.pointer.hover_pos(),
                )
            });
            // 200 points of wheel scroll zoom by e (about 1.6x a notch of 50 points).
            let factor = pinch * (scroll / 200.0).exp();
            if let Some(p) = at
                && factor != 1.0
            {
                let at = [
                    f64::from((p.x - rect.min.x) * ppp),
                    f64::from((p.y - rect.min.y) * ppp),
                ];
                self.camera.zoom_at(&base, w, h, factor, at);
            }
        }
        let view = self.camera.view(&base, w, h);
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
        register_texture(
            &mut self.texture,
            &self.renderer,
            &self.render_state,
            [w, h],
        );
        if let Some((id, _)) = self.texture {
            ui.painter().image(
                id,
                rect,
                egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                egui::Color32::WHITE,
            );
        }
        let y_sign = if l.setup.y_down { -1.0 } else { 1.0 };
        overlays::paint(
            ui.painter(),
            self.overlays,
            ToScreen { rect, view },
            &mut l.character,
            &l.list,
            y_sign,
        );
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

/// Registers the renderer's output with egui once, and points the same id at the new target
/// when the renderer made one (the canvas size changed); every other frame the registered
/// texture already shows what the renderer drew.
fn register_texture(
    texture: &mut Option<(egui::TextureId, [u32; 2])>,
    renderer: &GpuRenderer,
    render_state: &eframe::egui_wgpu::RenderState,
    size: [u32; 2],
) {
    if texture.is_some_and(|(_, s)| s == size) {
        return;
    }
    let Some(view) = renderer.output_view() else {
        return;
    };
    let device = &render_state.device;
    let mut r = render_state.renderer.write();
    let id = match *texture {
        Some((id, _)) => {
            r.update_egui_texture_from_wgpu_texture(device, view, wgpu::FilterMode::Linear, id);
            id
        }
        None => r.register_native_texture(device, view, wgpu::FilterMode::Linear),
    };
    *texture = Some((id, size));
}
