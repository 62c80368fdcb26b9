//! Screenshots of the window: the scripted one (`--screenshot`: after `frames` frames, then
//! the window closes) and the panel's button / F12 (the next free `sinew-view-NNN.png` in
//! the current directory, the panel saying where it went). Both are egui's screenshot of
//! the whole window, written as PNG by sinew-render's encoder.

use crate::app::App;
use crate::{Status, fail};
use eframe::egui;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The interactive screenshots: the last one's outcome, shown in the panel.
#[derive(Default)]
pub(crate) struct Shots {
    /// A screenshot asked for this frame.
    pub(crate) requested: bool,
    /// `saved PATH` or the error, written by the screenshot callback.
    pub(crate) message: Arc<Mutex<Option<String>>>,
}

impl Shots {
    /// The panel's line about the last screenshot.
    pub(crate) fn message(&self) -> Option<String> {
        self.message.lock().ok().and_then(|m| m.clone())
    }
}

/// The first `sinew-view-NNN.png` (NNN from 001) that does not exist in `dir`.
pub(crate) fn next_free(dir: &Path) -> PathBuf {
    let mut n = 1u32;
    loop {
        let p = dir.join(format!("sinew-view-{n:03}.png"));
        if !p.exists() || n == u32::MAX {
            return p;
        }
        n += 1;
    }
}

/// Writes egui's screenshot `image` to `out` as PNG.
fn write(out: &Path, image: &egui::ColorImage) -> Result<(), String> {
    let [w, h] = image.size;
    let px: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    sinew_render::encode::write_png(out, w as u32, h as u32, &px)
        .map_err(|e| format!("writing {}: {e}", out.display()))
}

impl App {
    /// Takes the panel's screenshot if one was asked for (button or F12).
    pub(crate) fn interactive_shot(&mut self, ctx: &egui::Context) {
        if !std::mem::take(&mut self.shots.requested) {
            return;
        }
        let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let out = next_free(&dir);
        let message = self.shots.message.clone();
        ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(
            egui::ScreenshotCallback::new(move |image| {
                let text = match write(&out, &image) {
                    Ok(()) => format!("saved {}", out.display()),
                    Err(e) => format!("screenshot failed: {e}"),
                };
                if let Ok(mut m) = message.lock() {
                    *m = Some(text);
                }
            }),
        ));
    }

    /// The scripted run's end: after `frames` frames, report the canvas, view and frame
    /// costs on stderr, save the window's image and close.
    pub(crate) fn scripted_shot(&mut self, ctx: &egui::Context) {
        let Some(out) = self.options.screenshot.clone() else {
            return;
        };
        // A script's last events take a frame to show: two frames after its end.
        let script_end = match self.script_done {
            Some(f) => f.saturating_add(2),
            None if self.options.script.is_empty() => 0,
            None => u32::MAX,
        };
        if self.frame_no < self.options.frames.max(1)
            || self.frame_no < script_end
            || self.shot_requested
        {
            return;
        }
        self.shot_requested = true;
        if let Some(e) = &self.error {
            fail(&self.status, e.clone());
        }
        if let Some(([x, y, w, h], v)) = self.last_view {
            eprintln!(
                "sinew view: canvas {x},{y} {w}x{h}; view {},{},{},{}",
                v.x0, v.y0, v.x1, v.y1
            );
            if let Some(([x, y, w, h], v)) = self.beside.as_ref().and_then(|b| b.last_view) {
                eprintln!(
                    "sinew view: beside {x},{y} {w}x{h}; view {},{},{},{}",
                    v.x0, v.y0, v.x1, v.y1
                );
            }
            eprintln!(
                "sinew view: {} frames, CPU per frame: update + draw list {:.1} µs, GPU submission {:.1} µs; {} draw calls; {:.0} ms since start ({:.0} ms for the window and device before it)",
                self.frame_no,
                self.update_us,
                self.submit_us,
                self.draw_calls,
                self.started.elapsed().as_secs_f64() * 1e3,
                self.started.duration_since(self.launched).as_secs_f64() * 1e3
            );
        }
        let c2 = ctx.clone();
        let status: Status = self.status.clone();
        let launched = self.launched;
        ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(
            egui::ScreenshotCallback::new(move |image| {
                // The start-up figure: the window's image is ready (every frame so far
                // painted, the pipelines built).
                eprintln!(
                    "sinew view: window image ready {:.0} ms after start",
                    launched.elapsed().as_secs_f64() * 1e3
                );
                if let Err(e) = write(&out, &image) {
                    fail(&status, e);
                }
                c2.send_viewport_cmd(egui::ViewportCommand::Close);
            }),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_free_skips_taken_names() {
        let dir = std::env::temp_dir().join(format!("sinew-view-shots-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        assert_eq!(next_free(&dir), dir.join("sinew-view-001.png"));
        std::fs::write(dir.join("sinew-view-001.png"), b"x").expect("write");
        std::fs::write(dir.join("sinew-view-002.png"), b"x").expect("write");
        assert_eq!(next_free(&dir), dir.join("sinew-view-003.png"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_screenshot_is_written_as_png() {
        let dir = std::env::temp_dir().join(format!("sinew-view-png-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let image = egui::ColorImage::new([3, 2], vec![egui::Color32::from_rgb(10, 20, 30); 6]);
        let out = dir.join("a.png");
        write(&out, &image).expect("written");
        let (w, h, rgba) = sinew_render::compare::load_rgba(&out).expect("PNG");
        assert_eq!((w, h), (3, 2));
        assert_eq!(&rgba[..4], &[10, 20, 30, 255]);
        let e = write(&dir.join("no/such/dir/b.png"), &image).expect_err("no directory");
        assert!(e.contains("no/such/dir/b.png"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
