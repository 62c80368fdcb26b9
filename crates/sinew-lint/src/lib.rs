//! `sinew lint`: finds the failures riggers hit, in the order the 2D seed says to look for
//! them, on any rig sinew loads (Spine 4.2 JSON or `.skel`, DragonBones 5.x JSON, Inochi2D
//! puppets).
//!
//! [`load`] reads a file (the format told from its content, [`Kind`]) into a [`LintInput`];
//! [`lint`] poses every animation through [`sinew::character::Character`] (and, for puppets,
//! sweeps every parameter over its range) and returns [`Finding`]s; [`fix::fixed_file`]
//! writes the mechanical fixes in the input's format (Spine JSON, `.skel`, DragonBones
//! JSON; puppets have none). Every finding has a `code`, a [`Severity`],
//! a message a rigger understands, where it is ([`Where`]) and what to do.
//!
//! The codes, each with the seed's reason (tolerances are in [`Tolerances`], in rig units,
//! and in `docs/LINT.md`):
//!
//! | code | severity | module |
//! |---|---|---|
//! | `weights-not-normalized` | error | [`weights`] |
//! | `seam-opens` | warning | [`seams`] |
//! | `draw-order-still-frame` | warning | [`draw_order`] |
//! | `ik-out-of-reach` | warning | [`ik`] |
//! | `physics-frame-rate` | warning | [`physics`] |
//! | `keyform-grid-incomplete` | error | [`keyforms`] |
//! | `rigid-dense-mesh` | info | [`dense`] |
//! | `cage-point-outside` | warning | [`cage`] |
//!
//! The work per rig is capped ([`Options`]): animations are sampled at 30 fps for at most
//! [`Options::max_seconds`] each, so a CI run over every shared fixture takes seconds.
//! Verified by `tests/all/codes.rs` (each code on a rig with the fault and the same rig fixed),
//! `tests/all/formats.rs` (DragonBones and `.skel` linted and fixed in their own format,
//! puppets refused by `--fix`) and `tests/all/fixtures.rs` (the shared Spine fixtures have no
//! errors).

pub mod cage;
pub mod dense;
pub mod dragonbones;
pub mod draw_order;
mod editor;
pub mod fix;
pub mod ik;
mod input;
pub mod keyforms;
pub mod physics;
mod scene;
pub mod seams;
pub mod skins;
pub mod weights;

pub use input::{Kind, json_tree, load, load_from};
use serde_json::{Map, Value, json};
use sinew_formats::Asset;
use std::fmt::Write as _;
use std::path::PathBuf;

/// How bad a finding is: `sinew lint` exits 1 when any finding is an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The rig is wrong (it poses differently from what the artist made).
    Error,
    /// The rig works but shows a known artefact.
    Warning,
    /// A suggestion (performance, authoring).
    Info,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// Where a finding is; every field is optional and only known ones are printed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Where {
    /// Skin holding the attachment.
    pub skin: Option<String>,
    /// Slot name.
    pub slot: Option<String>,
    /// Attachment name (its skin key).
    pub attachment: Option<String>,
    /// Vertex index within the attachment.
    pub vertex: Option<usize>,
    /// Bone name.
    pub bone: Option<String>,
    /// Constraint name (IK, physics, jiggle chain, pendulum).
    pub constraint: Option<String>,
    /// Animation name (or a parameter sweep, `sweep ParamName`).
    pub animation: Option<String>,
    /// Time in the animation, seconds.
    pub time: Option<f64>,
    /// Parameter name.
    pub parameter: Option<String>,
    /// JSON path in the input file (`$.skins[0].attachments.slot.name.vertices`).
    pub path: Option<String>,
    /// A second place (the other side of a seam), as `slot/attachment#vertex`.
    pub other: Option<String>,
}

impl Where {
    fn to_json(&self) -> Value {
        let mut m = Map::new();
        let mut put = |k: &str, v: Option<Value>| {
            if let Some(v) = v {
                m.insert(k.to_owned(), v);
            }
        };
        put("skin", self.skin.clone().map(Value::from));
        put("slot", self.slot.clone().map(Value::from));
        put("attachment", self.attachment.clone().map(Value::from));
        put("vertex", self.vertex.map(Value::from));
        put("bone", self.bone.clone().map(Value::from));
        put("constraint", self.constraint.clone().map(Value::from));
        put("animation", self.animation.clone().map(Value::from));
        put("time", self.time.map(|t| Value::from(round(t, 4))));
        put("parameter", self.parameter.clone().map(Value::from));
        put("path", self.path.clone().map(Value::from));
        put("other", self.other.clone().map(Value::from));
        Value::Object(m)
    }

    fn to_text(&self) -> String {
        let mut parts = Vec::new();
        let mut put = |k: &str, v: Option<String>| {
            if let Some(v) = v {
                parts.push(format!("{k} {v}"));
            }
        };
        put("skin", self.skin.clone());
        put("slot", self.slot.clone());
        put("attachment", self.attachment.clone());
        put("vertex", self.vertex.map(|v| v.to_string()));
        put("bone", self.bone.clone());
        put("constraint", self.constraint.clone());
        put("animation", self.animation.clone());
        put("time", self.time.map(|t| format!("{}s", round(t, 4))));
        put("parameter", self.parameter.clone());
        put("other", self.other.clone());
        put("at", self.path.clone());
        parts.join(", ")
    }
}

/// A mechanical fix `--fix` can make in the input ([`fix`] writes it in the input's format;
/// the places are named as the rig names them, and each format finds them in its file).
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Divide each weighted vertex's weights by their sum (equal weights for a zero sum) in
    /// the attachment `key` of `slot` in the skin named `skin` (Spine JSON: its `vertices`
    /// array; DragonBones: the display's `weights`; `.skel`: the raw rig's weights).
    NormalizeWeights {
        /// Skin name.
        skin: String,
        /// Slot name.
        slot: String,
        /// Attachment key in the skin.
        key: String,
    },
    /// Move draw-order key `index` of `animation` to `time` (Spine JSON:
    /// `animations[animation].drawOrder[index]`; DragonBones: `zOrder.frame[index]`).
    MoveDrawOrderKey {
        /// Animation name.
        animation: String,
        /// Key index.
        index: usize,
        /// New time, seconds.
        time: f64,
    },
}

/// One problem found.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Stable code (`seam-opens`, ...).
    pub code: &'static str,
    /// Severity.
    pub severity: Severity,
    /// What is wrong, for a rigger.
    pub message: String,
    /// Where.
    pub at: Where,
    /// What to do.
    pub fix: String,
    /// The mechanical fix, when `--fix` can make it.
    pub edit: Option<Edit>,
}

impl Finding {
    /// The finding as the JSON object of `sinew lint --format json`.
    pub fn to_json(&self) -> Value {
        json!({
            "code": self.code,
            "severity": self.severity.name(),
            "message": self.message,
            "where": self.at.to_json(),
            "fix": self.fix,
        })
    }
}

/// Tolerances, in rig units (Spine: pixels at scale 1; Inochi2D: pixels) unless said.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerances {
    /// A weighted vertex's weights must sum to 1 within this.
    pub weight_sum: f64,
    /// Two vertices closer than this in the setup pose coincide (form a seam).
    pub seam_coincide: f64,
    /// A seam opens when its vertices move apart by more than this (units) ...
    pub seam_gap: f64,
    /// ... or this fraction of the rig's size (the larger of the two).
    pub seam_gap_fraction: f64,
    /// A draw-order switch is on a still frame when the slots that change places move less
    /// than this fraction of the rig's size per second ...
    pub still_fraction: f64,
    /// ... and a frame within this many seconds moves them at least twice as fast.
    pub draw_order_window: f64,
    /// An IK target is out of reach when beyond the chain's reach by more than this (units)
    /// ...
    pub ik_shortfall: f64,
    /// ... or this fraction of the reach (the larger of the two).
    pub ik_shortfall_fraction: f64,
    /// Physics at 15 or 30 fps may differ from 60 fps by this fraction of the motion's range.
    pub physics_fraction: f64,
    /// ... and at least this much (units, degrees or a fraction of a parameter's range).
    pub physics_floor: f64,
    /// A mesh with at least this many vertices, rigid, is dense.
    pub dense_vertices: usize,
}

impl Default for Tolerances {
    fn default() -> Self {
        Tolerances {
            weight_sum: 1e-3,
            seam_coincide: 0.05,
            seam_gap: 1.0,
            seam_gap_fraction: 0.002,
            still_fraction: 0.05,
            draw_order_window: 0.2,
            ik_shortfall: 0.5,
            ik_shortfall_fraction: 0.01,
            physics_fraction: 0.1,
            physics_floor: 1.0,
            dense_vertices: 32,
        }
    }
}

/// Limits on the work per rig.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Sampling rate of the pose checks (seams, draw order, IK), frames per second.
    pub fps: f64,
    /// Seconds sampled per animation at most.
    pub max_seconds: f64,
    /// Skins checked for seams at most (the default skin plus each other skin).
    pub max_skins: usize,
    /// Parameters swept at most (puppets).
    pub max_sweeps: usize,
    /// Findings of one code at most (the rest are counted in one last finding).
    pub max_per_code: usize,
    /// Tolerances.
    pub tol: Tolerances,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            fps: 30.0,
            max_seconds: 10.0,
            max_skins: 8,
            max_sweeps: 64,
            max_per_code: 50,
            tol: Tolerances::default(),
        }
    }
}

/// What the file was.
#[derive(Debug, Clone)]
pub enum Source {
    /// Spine JSON, with its tree (for JSON paths and `--fix`).
    SpineJson(Value),
    /// Spine binary `.skel` (`--fix` reads it again for its raw rig).
    SpineBinary,
    /// DragonBones JSON, with its tree (for JSON paths and `--fix`).
    DragonBones {
        /// The whole file.
        tree: Value,
        /// The armature linted (the file's default one).
        armature: String,
        /// Its frame rate (keys sit on whole frames).
        frame_rate: f64,
    },
    /// Inochi2D puppet, with its payload JSON (for keyform flags and paths).
    Puppet(Value),
}

/// A loaded rig ready to lint.
#[derive(Debug, Clone)]
pub struct LintInput {
    /// The file.
    pub file: PathBuf,
    /// The loaded asset (no atlas: linting needs no textures).
    pub asset: Asset,
    /// The format and its tree.
    pub source: Source,
}

/// Runs every check; findings sorted by severity, then code, in a stable order.
pub fn lint(input: &LintInput, options: &Options) -> Vec<Finding> {
    let mut scene = scene::Scene::new(&input.asset, options);
    if let Source::DragonBones { frame_rate, .. } = &input.source
        && *frame_rate > 0.0
    {
        // DragonBones keys sit on whole frames: suggest times on them.
        scene.key_step = Some(1.0 / frame_rate);
    }
    let mut all = Vec::new();
    let mut add = |mut v: Vec<Finding>| {
        cap(&mut v, options.max_per_code);
        all.extend(v);
    };
    add(weights::check(&input.asset, options));
    add(keyforms::check(input, options));
    add(seams::check(&scene, options));
    add(draw_order::check(&scene, options));
    add(ik::check(&scene, options));
    add(physics::check(&scene, options));
    add(dense::check(&input.asset, options));
    add(skins::check(&input.asset));
    locate(input, &mut all);
    editor::advise(input, &mut all);
    // Stable sort: each check's own order (file order) within a severity and code.
    all.sort_by(|a, b| a.severity.cmp(&b.severity).then(a.code.cmp(b.code)));
    all
}

/// Puts each finding's JSON path in the input's terms: the checks write Spine JSON paths;
/// a DragonBones file gets its own, and a `.skel` or a puppet none (there is no such place
/// in it), except the puppet's own keyform paths.
fn locate(input: &LintInput, findings: &mut [Finding]) {
    const SPINE_PATHS: [&str; 3] = [
        "weights-not-normalized",
        "rigid-dense-mesh",
        "draw-order-still-frame",
    ];
    for f in findings
        .iter_mut()
        .filter(|f| SPINE_PATHS.contains(&f.code))
    {
        match &input.source {
            Source::SpineJson(_) => {}
            Source::DragonBones { tree, armature, .. } => {
                f.at.path = dragonbones::path_of(tree, armature, f);
            }
            Source::SpineBinary | Source::Puppet(_) => f.at.path = None,
        }
    }
}

/// Keeps the first `max` findings and says how many more there were.
fn cap(v: &mut Vec<Finding>, max: usize) {
    if v.len() > max && max > 0 {
        let extra = v.len() - max;
        v.truncate(max);
        if let Some(last) = v.last().cloned() {
            v.push(Finding {
                message: format!("... and {extra} more findings of this kind"),
                at: Where::default(),
                edit: None,
                ..last
            });
        }
    }
}

/// Whether any finding is an error.
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}

/// The report as `sinew lint --format json` prints it.
pub fn report_json(file: &str, findings: &[Finding]) -> Value {
    json!({
        "file": file,
        "findings": findings.iter().map(Finding::to_json).collect::<Vec<_>>(),
    })
}

/// The report as text: one block per finding, then a summary line.
pub fn report_text(file: &str, findings: &[Finding]) -> String {
    let mut s = String::new();
    for f in findings {
        let _ = writeln!(
            s,
            "{file}: {} [{}] {}",
            f.severity.name(),
            f.code,
            f.message
        );
        let at = f.at.to_text();
        if !at.is_empty() {
            let _ = writeln!(s, "    where: {at}");
        }
        let _ = writeln!(s, "    fix: {}", f.fix);
    }
    let count = |sev| findings.iter().filter(|f| f.severity == sev).count();
    let _ = writeln!(
        s,
        "{file}: {} errors, {} warnings, {} infos",
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info)
    );
    s
}

/// `x` rounded to `digits` decimals (for printing).
pub(crate) fn round(x: f64, digits: i32) -> f64 {
    let p = 10f64.powi(digits);
    (x * p).round() / p
}

/// A JSON path segment for an object key (`.key`, or `["key"]` when it is not a plain name).
pub(crate) fn key_segment(key: &str) -> String {
    if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        format!(".{key}")
    } else {
        format!("[{}]", Value::from(key))
    }
}
