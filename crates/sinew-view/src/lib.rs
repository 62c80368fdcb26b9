//! `sinew view`: a desktop viewer for every format sinew reads, on eframe/egui with the
//! character drawn by sinew-wgpu on egui's own wgpu device.
//!
//! The window has a side panel (animation list with play/pause, scrub, speed and loop; a
//! second track with a crossfade time; skins, combined; parameter sliders for puppets, with
//! an XY pad for 2D parameters; physics on/off/reset; overlays for bones, bounds, mesh
//! wireframes, clipping polygons and cages, and boundary cages to bind on mesh slots;
//! background colour; zoom) and the
//! character in the centre with a HUD (fps, CPU µs per update, draw calls). Files open from
//! the command line or by drag-and-drop; a file that does not load shows its error in the
//! window. Scripted: [`ViewOptions::screenshot`] runs `frames` frames paused at
//! [`ViewOptions::time`], saves the window's image as PNG, prints the canvas rectangle and
//! the world view on stderr (`sinew view: canvas X,Y WxH; view X0,Y0,X1,Y1`) and closes;
//! [`run`] then returns the load error, if any.
//!
//! The host gives the loader ([`Loader`]), so the viewer opens exactly what the CLI opens.
//! Verified by the CLI's `tests/view.rs` under Xvfb.
//!
//! Modules: `app` (the state, loading, the frame loop and the scripted screenshot),
//! `panel` (the side panel), `canvas` (the character's texture, the overlays and the HUD),
//! [`overlays`], `pads` (parameter sliders and XY pads) and `cage_bind` (boundary cages).

mod app;
mod cage_bind;
mod canvas;
pub mod overlays;
mod pads;
mod panel;

pub use overlays::Overlays;

use anyhow::{Result, anyhow};
use eframe::egui;
use sinew_formats::Asset;
use sinew_wgpu::Gpu;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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
    /// Overlays shown from the start (each can be toggled in the panel).
    pub overlays: Overlays,
    /// Slots whose mesh gets its boundary cage when the file opens (see the panel's
    /// "Cages" list); an unknown slot or one without a mesh is a load error.
    pub cages: Vec<String>,
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
            Ok(Box::new(app::App::new(
                options,
                loader,
                gpu,
                rs.clone(),
                st,
            )))
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
