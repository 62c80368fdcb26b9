//! `sinew view`: a desktop viewer for every format sinew reads, on eframe/egui with the
//! character drawn by sinew-wgpu on egui's own wgpu device.
//!
//! The window has a side panel (animation list with play/pause, scrub, speed, loop and backwards (DragonBones clips); a
//! second track with a crossfade time; skins, combined; parameter sliders for puppets, with
//! an XY pad for 2D parameters; physics (Spine constraints and puppet parameter physics)
//! on/off/reset, jiggle and follow on/off when the file has rig extras; overlays for bones,
//! bounds, mesh wireframes, clipping polygons, cages and warp deformer lattices, and
//! boundary cages to bind on mesh slots; background colour; zoom and fit; a screenshot button, also F12), a rig panel on
//! the right when the file has rig extras or a cage (a slider per parameter of each jiggle
//! chain, live; "save extras"; the dragged cages) and the character in the centre with a
//! HUD (fps, CPU µs per update, draw calls). Dragging a cage point moves it (the mesh
//! follows), dragging elsewhere on the canvas pans, the mouse wheel zooms about the cursor. Playback advances by the measured
//! frame time (at most 0.1 s a frame). Files open from the command line or by
//! drag-and-drop; rig extras come from [`ViewOptions::extras`] or, when not given, from a
//! `<stem>.extras.json` beside a Spine skeleton (the panel says which); a file that does not
//! load shows its error in the window; a view that draws nothing says why (and lists the
//! skins to pick) in the window and on stderr. A parameter set from the command line or a
//! control is held against the animation's lane for it until released in the panel.
//! Scripted: [`ViewOptions::screenshot`] runs `frames` frames (on a fixed 1/60 s clock, no
//! input) paused at
//! [`ViewOptions::time`], saves the window's image as PNG, prints the canvas rectangle and
//! the world view on stderr (`sinew view: canvas X,Y WxH; view X0,Y0,X1,Y1`) and closes;
//! [`run`] then returns the load error, if any.
//!
//! The host gives the loader ([`Loader`]), so the viewer opens exactly what the CLI opens.
//! Verified by the CLI's `tests/all/view.rs` under Xvfb.
//!
//! Modules: `model` (the loaded file and its playback without a window: which animation,
//! DragonBones clips started as `Character::play` starts them, held parameters, why a view
//! is empty), `app` (the state, loading, the frame loop), `source` (rig extras beside a
//! file, puppet physics reset), `panel` (the side panel), `canvas` (the character's
//! texture, pan and zoom, the overlays and the HUD), `camera` (the view's zoom and pan),
//! `shots` (the scripted and interactive screenshots), [`overlays`], `pads` (parameter
//! sliders and XY pads), `cage_bind` (boundary cages and their draggable handles), `tune`
//! and `rig_panel` (the rig editor: live sliders for each jiggle chain's parameters, saving
//! the tuned extras) and [`script`] (scripted pointer input, `--input`).

mod app;
mod beside;
mod cage_bind;
mod camera;
mod canvas;
mod model;
pub mod overlays;
mod pads;
mod panel;
mod rig_panel;
pub mod script;
mod shots;
mod source;
mod tune;

pub use model::NO_ANIMATION;
pub use overlays::Overlays;

use anyhow::{Result, anyhow};
use eframe::egui;
use sinew_formats::{Asset, LoadOptions};
use sinew_wgpu::Gpu;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Loads a file into an asset with optional rig extras and physics3 settings (the CLI's
/// loader: format from the content, atlas beside it; an option that does not apply to the
/// file's format is an error naming it).
pub type Loader = Arc<dyn Fn(&Path, &LoadOptions) -> Result<Asset> + Send + Sync>;

/// What `sinew view` was asked for.
#[derive(Debug, Clone, Default)]
pub struct ViewOptions {
    /// The file to open.
    pub file: Option<PathBuf>,
    /// Animation to play on track 0 (default: the first; [`NO_ANIMATION`]: none).
    pub anim: Option<String>,
    /// Parameters to set, `(name, [x, y])`: held there, whatever the animation's lanes for
    /// them say, until released in the panel.
    pub params: Vec<(String, [f64; 2])>,
    /// Skins to show, combined (empty: the rig's default).
    pub skins: Vec<String>,
    /// The atlas for [`ViewOptions::file`]: a Spine `.atlas` or a DragonBones `_tex.json`
    /// (default: the one beside the file).
    pub atlas: Option<PathBuf>,
    /// The DragonBones armature of [`ViewOptions::file`] (default: the file's first).
    pub armature: Option<String>,
    /// Start time in seconds (the animation is advanced to it before the first frame).
    pub time: f64,
    /// Save the window's image here after `frames` frames and close.
    pub screenshot: Option<PathBuf>,
    /// Frames to run before the screenshot.
    pub frames: u32,
    /// Scripted runs play from `time` (1/60 s a frame) instead of staying paused there.
    pub play: bool,
    /// Window size in logical pixels.
    pub size: (u32, u32),
    /// Canvas background, straight sRGB `[r, g, b]` (default a dark grey).
    pub background: Option<[u8; 3]>,
    /// Overlays shown from the start (each can be toggled in the panel).
    pub overlays: Overlays,
    /// Slots whose mesh gets its boundary cage when the file opens (see the panel's
    /// "Cages" list); an unknown slot or one without a mesh is a load error.
    pub cages: Vec<String>,
    /// Rig extras (jiggle bones, follows) for [`ViewOptions::file`] (Spine skeletons); when
    /// `None`, a `<stem>.extras.json` beside a Spine skeleton is loaded if there is one.
    /// Files dropped later get only their own sibling.
    pub extras: Option<PathBuf>,
    /// Cubism physics3 settings for [`ViewOptions::file`] (Inochi2D puppets).
    pub physics3: Option<PathBuf>,
    /// A second file drawn beside [`ViewOptions::file`] in the same window, playing what it
    /// plays (e.g. a Spine 4.2 export and its 4.3 conversion).
    pub beside: Option<PathBuf>,
    /// The atlas for [`ViewOptions::beside`] (default: the one beside that file).
    pub beside_atlas: Option<PathBuf>,
    /// Where the rig panel's "save extras" writes the tuned extras (default: the extras
    /// file they were loaded from).
    pub save_extras: Option<PathBuf>,
    /// Scripted input ([`script::parse`]): played from the first frame; a scripted
    /// screenshot waits for its end.
    pub script: Vec<script::Step>,
}

/// Opens the viewer window and returns when it closes: an error when the window cannot be
/// opened, and in a scripted run when the file did not load or the screenshot could not be
/// written.
pub fn run(options: ViewOptions, loader: Loader) -> Result<()> {
    // Start-up is measured from here (the CLI has parsed its arguments).
    let launched = std::time::Instant::now();
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
                launched,
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
