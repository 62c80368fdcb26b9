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
        let full = ui.available_rect_before_wrap();
        // With `--beside`, the first file takes the left half and the second the right.
        let rect = if let Some(b) = self.beside.as_mut() {
            let (left, right) = full.split_left_right_at_fraction(0.5);
            let dt = if self.playing {
                self.speed * self.frame_dt
            } else {
                0.0
            };
            // The first file's playback after this frame (it advances below).
            let mut next = self.play.clone();
            if self.playing && self.loaded.is_some() {
                next.time += dt;
            }
            b.follow(&next, dt);
            ui.painter().rect_filled(right, 0.0, self.background);
            b.paint(ui, right, &self.render_state);
            left
        } else {
            full
        };
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
        // Drag a cage handle, or pan, and zoom from the pointer (scripted runs get only
        // their script's input).
        let y_sign = if l.setup.y_down { -1.0 } else { 1.0 };
        let handles = cage_handles(
            l,
            ToScreen {
                rect,
                view: self.camera.view(&base, w, h),
            },
            y_sign,
        );
        if response.drag_started() {
            let at = ui.input(|i| i.pointer.press_origin());
            self.cage_drag = at.and_then(|p| nearest_handle(&handles, p));
        }
        if response.double_clicked() {
            self.camera.fit();
            l.view = None;
        } else if response.dragged() {
            let d = response.drag_delta();
            match self.cage_drag {
                Some((k, j)) => {
                    let v = self.camera.view(&base, w, h);
                    // Points to world units (y up), then to the cage's frame (the rig's).
                    let dx = f64::from(d.x) * (v.x1 - v.x0) / f64::from(rect.width());
                    let dy = -f64::from(d.y) * (v.y1 - v.y0) / f64::from(rect.height());
                    if let Some(e) = l.cage_edits.get_mut(k) {
                        e.drag(&mut l.character, j, [dx as f32, (dy * y_sign) as f32]);
                    }
                }
                None => self
                    .camera
                    .drag(&base, h, [f64::from(d.x * ppp), f64::from(d.y * ppp)]),
            }
        }
        if response.drag_stopped()
            && let Some((k, j)) = self.cage_drag.take()
            && let Some(o) = l
                .cage_edits
                .get(k)
                .and_then(|e| e.offsets.get(2 * j..2 * j + 2))
        {
            eprintln!(
                "sinew view: cage {k} point {j} dragged by ({}, {}) from its bind pose",
                o[0], o[1]
            );
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
        overlays::paint(
            ui.painter(),
            self.overlays,
            ToScreen { rect, view },
            &mut l.character,
            &l.list,
            y_sign,
            &l.cage_edits,
        );
        // The handles where they are drawn now (the cages overlay's dots), named for
        // scripted input.
        let to = ToScreen { rect, view };
        for (k, j, p) in cage_handles(l, to, y_sign) {
            let size = egui::vec2(2.0 * HANDLE_RADIUS, 2.0 * HANDLE_RADIUS);
            self.targets.insert(
                format!("cage:{k}.{j}"),
                egui::Rect::from_center_size(p, size),
            );
        }
        if self.beside.is_some() {
            crate::beside::paint_label(ui, rect, &crate::beside::label(l));
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

/// Registers the renderer's output with egui once, and points the same id at the new target
/// when the renderer made one (the canvas size changed); every other frame the registered
/// texture already shows what the renderer drew.
pub(crate) fn register_texture(
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

/// How near (points) the pointer must press to a cage handle to drag it.
const HANDLE_RADIUS: f32 = 6.0;

/// Every cage handle on the screen: (cage edit, point, where).
fn cage_handles(
    l: &crate::model::Loaded,
    to: ToScreen,
    y_sign: f64,
) -> Vec<(usize, usize, egui::Pos2)> {
    let mut out = Vec::new();
    for (k, e) in l.cage_edits.iter().enumerate() {
        let Some(points) = e.positions(&l.character) else {
            continue;
        };
        for (j, p) in points.chunks_exact(2).enumerate() {
            out.push((k, j, to.at(f64::from(p[0]), f64::from(p[1]) * y_sign)));
        }
    }
    out
}

/// The handle nearest `p` within [`HANDLE_RADIUS`].
fn nearest_handle(handles: &[(usize, usize, egui::Pos2)], p: egui::Pos2) -> Option<(usize, usize)> {
    handles
        .iter()
        .map(|(k, j, at)| (at.distance(p), *k, *j))
        .filter(|(d, _, _)| *d <= HANDLE_RADIUS)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k, j)| (k, j))
}
