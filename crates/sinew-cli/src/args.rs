//! Command-line forms of the `sinew` tool (clap derive). The `dump` options mirror the
//! oracle's `dump.mjs` exactly, so a golden case's argument list parses unchanged.

use clap::{ArgAction, Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// The `sinew` command line.
#[derive(Debug, Parser)]
#[command(
    name = "sinew",
    version,
    about = "Inspect, validate, pose, render, lint, convert and benchmark 2D character rigs: \
             Spine 4.2 (JSON or .skel), DragonBones 5.x and Inochi2D puppets"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Budgets (`--max-steps N`, ...; `crate::guard`).
    #[command(flatten)]
    pub budgets: crate::guard::BudgetArgs,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Pose a rig at given times and print bones and slot vertices as JSON (the schema of
    /// the official runtimes' dump oracles; a puppet's parameters too).
    Dump(DumpArgs),
    /// Print a summary: bones, slots, skins, animations, constraints; a puppet's parameters.
    Info(InfoArgs),
    /// Load and build a rig; print `ok: ...` or a one-line error (exit 1).
    Validate(ValidateArgs),
    /// Measure the cost of a skeleton-frame over many instances (Spine, DragonBones).
    Bench(BenchArgs),
    /// Draw a rig (Spine, DragonBones, Inochi2D) to a PNG, a PNG sequence (%04d), a GIF or
    /// an APNG.
    Render(RenderArgs),
    /// Cage coordinates: weights of points, bind a mesh, deform with a moved cage.
    Cage(crate::cage::CageArgs),
    /// Check a rig for seams, weights, draw-order keys, IK reach, physics frame rate,
    /// keyform grids, dense rigid meshes and cages (exit 1 on errors, 2 when unreadable).
    Lint(crate::lint::LintArgs),
    /// Convert a skeleton: Spine JSON <-> Spine `.skel`, DragonBones -> Spine 4.2 JSON or
    /// `.skel` (lists what cannot be converted exactly).
    Convert(crate::convert::ConvertArgs),
    /// Open the desktop viewer (any format; drag-and-drop opens another file). Scripted:
    /// `--screenshot OUT.png` saves the window after `--frames` frames and exits.
    View(ViewArgs),
}

/// How the animation is driven (`--mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// AnimationState on track 0 (official track and mix semantics). DragonBones: `play`.
    #[value(alias = "play")]
    State,
    /// Setup pose, then the clip applied with MixBlend.setup every step. DragonBones: `goto`.
    #[value(alias = "goto")]
    Apply,
}

impl Mode {
    /// The name the oracle prints in `meta.mode`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::State => "state",
            Mode::Apply => "apply",
        }
    }
}

/// Physics mode of the world-transform update (`--physics`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PhysicsArg {
    /// Step and apply physics.
    Update,
    /// Apply the last simulated state without stepping.
    Pose,
    /// Physics off.
    None,
    /// Reset, then update.
    Reset,
}

impl PhysicsArg {
    /// The name the oracle prints in `meta.physics`.
    pub fn name(self) -> &'static str {
        match self {
            PhysicsArg::Update => "update",
            PhysicsArg::Pose => "pose",
            PhysicsArg::None => "none",
            PhysicsArg::Reset => "reset",
        }
    }
}

/// `sinew dump` options (those of dump.mjs; `--atlas`, `--scale`, `--uvs` are not offered).
#[derive(Debug, Clone, Parser)]
#[command(name = "dump")]
pub struct DumpArgs {
    /// A Spine skeleton (JSON or binary `.skel`), a DragonBones skeleton (`*_ske.json`) or an
    /// Inochi2D puppet (`.inp`, `.inx`), told apart by the content.
    pub file: PathBuf,
    /// Animation to play (omit for the setup pose only).
    #[arg(long)]
    pub anim: Option<String>,
    /// Sample times in seconds: a comma list whose items may be `a:b:step` ranges.
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    pub times: String,
    /// Simulation step rate: the clock advances in steps of 1/fps seconds.
    #[arg(long, default_value_t = 60.0, allow_hyphen_values = true)]
    pub fps: f64,
    /// Skin name, or a comma list of skins combined in order.
    #[arg(long)]
    pub skin: Option<String>,
    /// state (AnimationState) or apply (Animation.apply on the setup pose).
    #[arg(long, value_enum, default_value_t = Mode::State)]
    pub mode: Mode,
    /// Physics mode for the world-transform update.
    #[arg(long, value_enum, default_value_t = PhysicsArg::Update)]
    pub physics: PhysicsArg,
    /// Crossfade test (state mode): play this animation looping from t = 0 and queue --anim.
    #[arg(long)]
    pub from: Option<String>,
    /// Delay of the queued --anim after --from starts, seconds.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub at: f64,
    /// Mix duration of the crossfade, seconds.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub mix: f64,
    /// Loop the animation.
    #[arg(long = "loop", default_value_t = true, action = ArgAction::Set)]
    pub looping: bool,
    /// Spine (state mode): more animations, looping, on tracks 1, 2, ...: `NAME[@ALPHA]`,
    /// comma separated (alpha 1 when omitted).
    #[arg(long)]
    pub layers: Option<String>,
    /// With --layer-mix > 0, the --layers start empty and are queued after this delay.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub layer_at: f64,
    /// Mix duration of the --layers from the empty animation, seconds (0: set at once).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub layer_mix: f64,
    /// Spine 4.3: the --layers entries are additive (TrackEntry.additive).
    #[arg(long)]
    pub additive: bool,
    /// The --from entry keeps its hold state (Spine 4.3 TrackEntry.keepHold).
    #[arg(long)]
    pub keep_hold: bool,
    /// Spine (state mode): more animations queued on track 0 after --anim, each
    /// `NAME:DELAY:MIX` (comma separated): added with that delay and mix duration, so a
    /// short delay interrupts a crossfade still running (mixing-from chains).
    #[arg(long)]
    pub then: Option<String>,
    /// Spine (state mode): the alpha of every track 0 entry (--from, --anim, --then).
    #[arg(long, allow_hyphen_values = true)]
    pub chain_alpha: Option<f64>,
    /// The mix curve of the --anim and --layers entries (Spine 4.3 mixInterpolation):
    /// linear, smooth, slowFast, fastSlow, circle, pow:N, powOut:N.
    #[arg(long)]
    pub mix_interpolation: Option<String>,
    /// Round every number to N decimals (0 to 20).
    #[arg(long, allow_hyphen_values = true,
          value_parser = clap::value_parser!(u32).range(0..=20))]
    pub round: Option<u32>,
    /// DragonBones: the atlas description (`*_tex.json`; default: the sibling `*_tex.json`).
    #[arg(long)]
    pub tex: Option<PathBuf>,
    /// DragonBones: the armature to pose (default: the file's `stage`, else the first).
    #[arg(long)]
    pub armature: Option<String>,
    /// DragonBones: report y up (world y negated) instead of the data's y down.
    #[arg(long)]
    pub y_up: bool,
    /// Omit world vertices.
    #[arg(long)]
    pub no_vertices: bool,
    /// Also dump local and applied bone values.
    #[arg(long)]
    pub local: bool,
    /// Rig-extras JSON adding jiggle bones and colliders by bone name.
    #[arg(long)]
    pub extras: Option<PathBuf>,
    /// Inochi2D puppets: Cubism physics settings (`*.physics3.json`) adding pendulum chains
    /// over the puppet's parameters (matched by name).
    #[arg(long)]
    pub physics3: Option<PathBuf>,
    /// Inochi2D puppets: set a parameter, `NAME=X` or `NAME=X,Y` (repeatable).
    #[arg(long = "param", allow_hyphen_values = true)]
    pub params: Vec<String>,
}

/// `sinew info` options.
#[derive(Debug, Clone, Args)]
pub struct InfoArgs {
    /// A Spine skeleton (JSON or binary `.skel`), a DragonBones skeleton (`*_ske.json`) or an
    /// Inochi2D puppet (`.inp`, `.inx`), told apart by the content.
    pub file: PathBuf,
    /// Machine-readable JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Inochi2D puppets: Cubism physics settings (`*.physics3.json`) adding pendulum chains
    /// over the puppet's parameters (matched by name).
    #[arg(long)]
    pub physics3: Option<PathBuf>,
}

/// `sinew validate` options.
#[derive(Debug, Clone, Args)]
pub struct ValidateArgs {
    /// A Spine skeleton (JSON or binary `.skel`), a DragonBones skeleton (`*_ske.json`) or an
    /// Inochi2D puppet (`.inp`, `.inx`), told apart by the content.
    pub file: PathBuf,
}

/// `sinew bench` options.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// A Spine skeleton (JSON or binary `.skel`) or a DragonBones skeleton (`*_ske.json`),
    /// told apart by the content (puppets are not benchmarked).
    pub file: PathBuf,
    /// Animation every instance plays (looping).
    #[arg(long)]
    pub anim: String,
    /// Number of instances, staggered in time (instance i starts i*7 ms in).
    #[arg(long, default_value_t = 100, allow_hyphen_values = true)]
    pub instances: u32,
    /// Measured frames.
    #[arg(long, default_value_t = 600, allow_hyphen_values = true)]
    pub frames: u32,
    /// Unmeasured warm-up frames.
    #[arg(long, default_value_t = 60, allow_hyphen_values = true)]
    pub warmup: u32,
    /// Frame rate (dt = 1/fps).
    #[arg(long, default_value_t = 60.0, allow_hyphen_values = true)]
    pub fps: f64,
    /// Skin name, or a comma list of skins combined in order.
    #[arg(long)]
    pub skin: Option<String>,
    /// Physics mode for the world-transform update.
    #[arg(long, value_enum, default_value_t = PhysicsArg::Update)]
    pub physics: PhysicsArg,
    /// Rig-extras JSON adding jiggle bones and colliders by bone name.
    #[arg(long)]
    pub extras: Option<PathBuf>,
    /// Update the instances on this many threads (`sinew::character::Crowd`, a persistent
    /// pool), each building its draw list; the report gains `threads` and
    /// `skeleton_frames_per_s`.
    #[arg(long, allow_hyphen_values = true)]
    pub threads: Option<u32>,
}

/// `sinew render` options (a contract other tools call: keep the forms exact).
#[derive(Debug, Clone, Args)]
pub struct RenderArgs {
    /// A Spine skeleton (JSON or binary `.skel`), a DragonBones skeleton (`*_ske.json`) or an
    /// Inochi2D puppet (`.inp`, `.inx`), told apart by the content.
    pub file: PathBuf,
    /// The atlas. Spine: a `.atlas` (default: `<stem>.atlas` beside the skeleton, or
    /// `<base>.atlas` for `<base>-pro` / `<base>-ess`, else the only `.atlas` in its
    /// folder). DragonBones: a `*_tex.json` (default: `<stem>_tex.json` beside
    /// `<stem>_ske.json`). `none` draws untextured. Puppets embed their textures: not for them.
    #[arg(long)]
    pub atlas: Option<String>,
    /// DragonBones: the armature to draw (default: the file's `stage`, else the first); a
    /// name the file lacks is an error listing its armatures.
    #[arg(long)]
    pub armature: Option<String>,
    /// Animation to play (looping, AnimationState track 0); required for Spine skeletons.
    #[arg(long, default_value = "")]
    pub anim: String,
    /// Inochi2D puppets: set a parameter, `NAME=X` or `NAME=X,Y` (repeatable).
    #[arg(long = "param", allow_hyphen_values = true)]
    pub params: Vec<String>,
    /// Inochi2D puppets: sweep this parameter's x axis over its range (min, max, back) as an
    /// animation (`--duration` seconds, default 2).
    #[arg(long)]
    pub sweep: Option<String>,
    /// Skin name, or a comma list of skins combined in order.
    #[arg(long)]
    pub skin: Option<String>,
    /// Frames per second: the clock steps at 1/fps and animated output runs at this rate.
    #[arg(long, default_value_t = 30.0, allow_hyphen_values = true)]
    pub fps: f64,
    /// Seconds to render (round(S * fps) frames from t = 0; default: one loop).
    #[arg(long, conflicts_with = "times", allow_hyphen_values = true)]
    pub duration: Option<f64>,
    /// Frame times in seconds: a comma list whose items may be `a:b:step` ranges.
    #[arg(long, allow_hyphen_values = true)]
    pub times: Option<String>,
    /// Image size WxH (default: fit the animation's bounds, longer side 512 pixels).
    #[arg(long, allow_hyphen_values = true)]
    pub size: Option<String>,
    /// Pixels per world unit.
    #[arg(long, allow_hyphen_values = true)]
    pub scale: Option<f64>,
    /// World rectangle X0,Y0,X1,Y1 (y up, X0,Y0 bottom-left) that fills the image exactly.
    #[arg(long, allow_hyphen_values = true)]
    pub view: Option<String>,
    /// Background #rrggbbaa (default transparent; white for GIF).
    #[arg(long, allow_hyphen_values = true)]
    pub background: Option<String>,
    /// Output file: .png (one frame, or a %04d pattern for a sequence), .gif or .apng.
    #[arg(long)]
    pub out: PathBuf,
    /// Renderer: `cpu` (sinew-render, the default) or `wgpu` (the GPU, through sinew-wgpu).
    #[arg(long, value_enum, default_value_t)]
    pub backend: crate::gpu_backend::Backend,
    /// Rig-extras JSON adding jiggle bones and colliders by bone name.
    #[arg(long)]
    pub extras: Option<PathBuf>,
    /// Inochi2D puppets: Cubism physics settings (`*.physics3.json`) adding pendulum chains
    /// over the puppet's parameters (matched by name).
    #[arg(long)]
    pub physics3: Option<PathBuf>,
}

/// `sinew view` options.
#[derive(Debug, Clone, Args)]
pub struct ViewArgs {
    /// Spine skeleton (.json/.skel, atlas beside it), Inochi2D puppet (.inp/.inx) or
    /// DragonBones `*_ske.json`; none: drop one on the window.
    pub file: Option<PathBuf>,
    /// Animation to play on track 0 (default: the first; `none`: no animation).
    #[arg(long)]
    pub anim: Option<String>,
    /// Set a parameter, `NAME=X` or `NAME=X,Y` (repeatable); it stays there whatever the
    /// animation's lane for it says, until released in the panel.
    #[arg(long = "param", allow_hyphen_values = true)]
    pub params: Vec<String>,
    /// Skins to show, combined (comma-separated; default: the rig's default skin).
    #[arg(long, value_delimiter = ',')]
    pub skin: Vec<String>,
    /// Atlas: a Spine `.atlas` or a DragonBones `_tex.json` (default: the one beside FILE).
    #[arg(long)]
    pub atlas: Option<PathBuf>,
    /// DragonBones: the armature to show (default: the file's first).
    #[arg(long)]
    pub armature: Option<String>,
    /// Start time in seconds.
    #[arg(long, default_value_t = 0.0)]
    pub time: f64,
    /// Save the window's image as PNG after `--frames` frames and exit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Frames to run before the screenshot.
    #[arg(long, default_value_t = 3)]
    pub frames: u32,
    /// Scripted runs: play from `--time`, 1/60 s a frame (default: paused at `--time`).
    #[arg(long)]
    pub play: bool,
    /// Window size WxH in logical pixels (default 1280x800).
    #[arg(long)]
    pub size: Option<String>,
    /// Canvas background #rrggbb (default a dark grey).
    #[arg(long)]
    pub background: Option<String>,
    /// Overlays shown from the start: bones, bounds, wireframe, clipping, cages, lattices
    /// (repeatable or comma-separated).
    #[arg(long = "overlay", value_delimiter = ',')]
    pub overlays: Vec<String>,
    /// Bind the boundary cage of the mesh this slot shows (repeatable; `--overlay cages`
    /// draws it).
    #[arg(long = "cage")]
    pub cages: Vec<String>,
    /// Spine skeletons: rig-extras JSON (jiggle bones, colliders, delayed follows by bone
    /// name); default: `<stem>.extras.json` beside the skeleton, when there is one.
    #[arg(long)]
    pub extras: Option<PathBuf>,
    /// Inochi2D puppets: Cubism physics settings (`*.physics3.json`) adding pendulum chains
    /// over the puppet's parameters (matched by name).
    #[arg(long)]
    pub physics3: Option<PathBuf>,
    /// Where the rig panel's "save extras" writes the tuned rig extras (default: the
    /// extras file they were loaded from).
    #[arg(long)]
    pub save_extras: Option<PathBuf>,
    /// Scripted pointer input, one step a line: `drag TARGET to FRACTION`, `drag TARGET by
    /// DX,DY`, `click TARGET`, `wait FRAMES` (targets: `slider:CHAIN.KEY`,
    /// `button:save-extras`, `cage:K.J`).
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// A second file drawn beside FILE in the same window, playing what FILE plays (e.g. a
    /// Spine 4.2 export beside its 4.3 conversion).
    #[arg(long)]
    pub beside: Option<PathBuf>,
    /// The atlas for `--beside` (default: the one beside that file).
    #[arg(long)]
    pub beside_atlas: Option<PathBuf>,
}
