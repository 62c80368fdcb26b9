//! Rig extras: a small JSON file that adds jiggle bones, colliders and their parameters to
//! any loaded rig by bone name, without re-exporting the rig.
//!
//! ```json
//! {
//!   "sinewExtras": 1,
//!   "jiggle": {
//!     "stepHz": 60, "maxSubsteps": 8, "maxFrameDt": 0.25,
//!     "gravity": [0, -980], "wind": [40, 0], "gust": { "amplitude": 0.5, "frequency": 0.4 },
//!     "teleportDistance": 400,
//!     "lod": { "coarseStep": 2, "coarseBeyond": 1500, "freezeBeyond": 4000 },
//!     "colliders": [
//!       { "name": "head", "bone": "head", "shape": "circle", "x": 24, "y": 0, "radius": 22 },
//!       { "name": "back", "bone": "torso", "shape": "capsule",
//!         "x": 0, "y": 10, "tailX": 60, "tailY": 10, "radius": 8 }
//!     ],
//!     "chains": [
//!       { "name": "hair", "bones": ["hair"], "preset": "hairTip", "colliders": ["head"] },
//!       { "name": "cape", "bones": ["cape-1", "cape-2"], "preset": "ribbon",
//!         "frequency": 1.2, "dampingRatio": 0.2, "maxAngle": 100, "colliders": ["back"] }
//!     ]
//!   }
//! }
//! ```
//!
//! Every key is optional except `chains[].name` and `chains[].bones`, collider `name`, `bone`
//! and `shape`. Units: rig units, seconds, degrees; `gravity` and `wind` are accelerations
//! (y up). Chain keys, applied in this order over the `preset` (default: a 2 Hz,
//! damping-ratio 0.4 spring):
//! - `model`: `"spring"` (default) or `"verlet"` (VRM SpringBone semantics);
//! - `mass`, then `stiffness`, `damping`, then `frequency` (Hz) and `dampingRatio` (1 =
//!   critical), which set stiffness and damping from the mass;
//! - `translateStiffness`, `translateDamping`, or `translateFrequency` and
//!   `translateDampingRatio`: a spring on the bone's origin (soft tissue);
//! - `maxOffset` (origin, rig units), `maxStretch` (fraction of the length), `maxAngle`
//!   (degrees from the animated direction), `gravity` and `wind` (scales), `velocityDamping`
//!   (quadratic drag), `hitRadius`, `strength` (0..1), `drag`, `unitScale`, `vrmStaleLength`
//!   (Verlet);
//! - `colliders` (names), `driver` (a bone to follow instead of the bone's own pose; offset
//!   from the setup pose), `length` (tip distance for bones of length 0).
//!
//! Delayed follows (`sinew::physics::follow`) are a top-level list:
//!
//! ```json
//! { "follow": [ { "name": "hair-lag", "bone": "hair", "source": "head", "delay": 0.12,
//!                 "mix": 0.5, "space": "world", "rotate": true, "translate": false,
//!                 "scale": false, "offset": { "rotate": 150 } } ] }
//! ```
//!
//! `name`, `bone` and `source` are required; `delay` (seconds, default 0), `mix` (0..1,
//! default 1), `space` (`"local"`, the default, or `"world"`), `rotate` (default true),
//! `translate` and `scale` (default false) and `offset` (`rotate`, `x`, `y`, `scaleX`,
//! `scaleY`, default 0) are optional; names are resolved by
//! `sinew::physics::follow::FollowRig::build`.
//!
//! Per animation, `jiggle.animations` keys chains' strength and stiffness/damping scales
//! and fades strength by events (`extras/cues.rs`). `cages` binds mean value cages to
//! slots' meshes (`extras/cages.rs`), `shapes` example shapes (`extras/shapes.rs`) and,
//! with the `rig-deformers` feature, `deformers` rotation and warp deformers on meshes
//! (`extras/deformers.rs`). [`write_extras`] writes any of it back;
//! [`try_write_extras`] and [`save_extras`] refuse what would not read back as it is.
//!
//! Presets: `softTissue`, `hairTip`, `ribbon`, `earring`, `tail`, `vrm`. Keys starting with
//! `_` are comments and ignored; any other unknown key is an error (typos fail loudly).
//! Bone names are resolved against the rig by `sinew::physics::jiggle::JiggleRig::build`,
//! which reports unknown names. Verified by the unit tests below and the CLI tests.

mod cages;
mod cues;
#[cfg(feature = "rig-deformers")]
mod deformers;
mod shapes;
#[cfg(test)]
mod tests_cages;
#[cfg(test)]
mod tests_deformers;
#[cfg(test)]
mod tests_roundtrip;
#[cfg(test)]
mod tests_shapes;
mod write;

pub use write::{save_extras, try_write_extras, write_extras};

use crate::LoadError;
use crate::json::*;
use serde_json::Value;
use sinew::physics::ClockSettings;
use sinew::physics::SpringParams;
use sinew::physics::follow::{FollowDesc, FollowOffset, FollowSpace};
use sinew::physics::jiggle::{
    ChainDesc, ColliderDesc, ColliderShape, Gust, JiggleDesc, JiggleModel, JiggleParams,
    LodSettings, Preset,
};
use std::path::Path;

/// What a rig-extras file adds to a rig.
///
/// Owner: the loaders (`sinew-formats`), at load time; the jiggle and follow stages (steps 6 and 7) run what it builds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RigExtras {
    /// Jiggle bones and colliders (empty when the file has no `jiggle` section).
    pub jiggle: JiggleDesc,
    /// Delayed follows, in file order (empty when the file has no `follow` list).
    pub follow: Vec<FollowDesc>,
    /// Cages on slots' meshes, in file order (empty when the file has no `cages` list;
    /// `extras/cages.rs`).
    pub cages: Vec<sinew::character::cage_rig::CageDesc>,
    /// Example shapes of slots' meshes, in file order (empty when the file has no `shapes`
    /// list; `extras/shapes.rs`).
    pub shapes: Vec<sinew::character::shape_rig::ShapeSetDesc>,
    /// Rotation and warp deformers on slots' meshes, in file order (empty when the file has
    /// no `deformers` list; `extras/deformers.rs`; the `rig-deformers` feature).
    #[cfg(feature = "rig-deformers")]
    pub deformers: Vec<sinew::character::deformer_rig::DeformerDesc>,
}

/// Most chains, colliders or bones per chain a file may declare.
const MAX_ITEMS: usize = 4096;

/// Reads and parses a rig-extras file.
pub fn load_extras(path: &Path) -> Result<RigExtras, LoadError> {
    let file = path.display().to_string();
    let text = crate::error::read_text(path, &file)?;
    parse_extras(&text, &file)
}

/// Parses rig-extras JSON text; `source` names the file in errors.
pub fn parse_extras(text: &str, source: &str) -> Result<RigExtras, LoadError> {
    parse_extras_with(text, source, &crate::budget::Budgets::DEFAULT)
}

/// [`parse_extras`] within `budgets`.
pub(crate) fn parse_extras_with(
    text: &str,
    source: &str,
    budgets: &crate::budget::Budgets,
) -> Result<RigExtras, LoadError> {
    let root: Value = crate::error::parse_json(text, source, budgets)?;
    read_root(&root).map_err(crate::json::in_file(source))
}

/// Binds `cages` (read from `file`) to `rig` (`None` when there are none); a problem is
/// [`LoadError::Invalid`] at `$.cages[i]`, naming the cage, with the builder's typed
/// problem (its offending name).
pub(crate) fn build_cages(
    rig: &std::sync::Arc<sinew::Rig>,
    cages: &[sinew::character::cage_rig::CageDesc],
    file: &str,
) -> Result<Option<std::sync::Arc<sinew::character::cage_rig::CageRig>>, LoadError> {
    if cages.is_empty() {
        return Ok(None);
    }
    match sinew::character::cage_rig::CageRig::build(rig, cages) {
        Ok(cr) => Ok(Some(std::sync::Arc::new(cr))),
        Err(e) => {
            // Every problem carries its cage's index; the first one is reported.
            let p = e.problems.into_iter().next();
            let i = match p.as_ref().and_then(|p| p.element) {
                Some(sinew::build::Element::Cage(i)) => i,
                _ => 0,
            };
            let problem = p.unwrap_or_else(|| {
                sinew::build::BuildProblem::new(
                    sinew::build::ProblemKind::Value,
                    "cages",
                    "do not bind",
                )
            });
            Err(LoadError::Invalid {
                file: file.to_owned(),
                path: format!("$.cages[{i}]"),
                name: cages.get(i).map(|c| c.name.clone()),
                issue: JsonIssue::Rig(Box::new(problem)),
            })
        }
    }
}

/// Binds `shapes` (read from `file`) to `rig` (`None` when there are none); a problem is
/// [`LoadError::Invalid`] at `$.shapes[i]`, naming the set, with the builder's typed
/// problem.
pub(crate) fn build_shapes(
    rig: &std::sync::Arc<sinew::Rig>,
    shapes: &[sinew::character::shape_rig::ShapeSetDesc],
    file: &str,
) -> Result<Option<std::sync::Arc<sinew::character::shape_rig::ShapeRig>>, LoadError> {
    if shapes.is_empty() {
        return Ok(None);
    }
    match sinew::character::shape_rig::ShapeRig::build(rig, shapes) {
        Ok(sr) => Ok(Some(std::sync::Arc::new(sr))),
        Err(e) => {
            let p = e.problems.into_iter().next();
            let i = match p.as_ref().and_then(|p| p.element) {
                Some(sinew::build::Element::ShapeSet(i)) => i,
                _ => 0,
            };
            let problem = p.unwrap_or_else(|| {
                sinew::build::BuildProblem::new(
                    sinew::build::ProblemKind::Value,
                    "shapes",
                    "do not bind",
                )
            });
            Err(LoadError::Invalid {
                file: file.to_owned(),
                path: format!("$.shapes[{i}]"),
                name: shapes.get(i).map(|c| c.name.clone()),
                issue: JsonIssue::Rig(Box::new(problem)),
            })
        }
    }
}

/// Binds `deformers` (read from `file`) to `rig` (`None` when there are none); a problem is
/// [`LoadError::Invalid`] at `$.deformers[i]`, naming the deformer, with the builder's typed
/// problem.
#[cfg(feature = "rig-deformers")]
pub(crate) fn build_deformers(
    rig: &std::sync::Arc<sinew::Rig>,
    deformers: &[sinew::character::deformer_rig::DeformerDesc],
    file: &str,
) -> Result<Option<std::sync::Arc<sinew::character::deformer_rig::DeformerRig>>, LoadError> {
    if deformers.is_empty() {
        return Ok(None);
    }
    match sinew::character::deformer_rig::DeformerRig::build(rig, deformers) {
        Ok(dr) => Ok(Some(std::sync::Arc::new(dr))),
        Err(e) => {
            let p = e.problems.into_iter().next();
            let i = match p.as_ref().and_then(|p| p.element) {
                Some(sinew::build::Element::Deformer(i)) => i,
                _ => 0,
            };
            let problem = p.unwrap_or_else(|| {
                sinew::build::BuildProblem::new(
                    sinew::build::ProblemKind::Value,
                    "deformers",
                    "do not bind",
                )
            });
            Err(LoadError::Invalid {
                file: file.to_owned(),
                path: format!("$.deformers[{i}]"),
                name: deformers.get(i).map(|d| d.name.clone()),
                issue: JsonIssue::Rig(Box::new(problem)),
            })
        }
    }
}

/// An object's members, checked against the keys it may have; problems name the object's
/// `name` member when it has one.
struct Fields<'a> {
    map: &'a Obj,
    at: Loc<'a>,
}

impl<'a> Fields<'a> {
    fn new(v: &'a Value, at: &'a Loc<'a>, allowed: &'static [&'static str]) -> R<Self> {
        let map = as_obj(v, at)?;
        let at = match map.get("name").and_then(Value::as_str) {
            Some(name) => at.named(name),
            None => *at,
        };
        check_keys(map, allowed, &at)?;
        Ok(Fields { map, at })
    }

    /// A problem with the member `key`.
    fn err(&self, key: &str, issue: impl Into<JsonIssue>) -> Box<Problem> {
        Box::new(self.at.key(key).problem(issue))
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        member(self.map, key)
    }

    fn num(&self, key: &str) -> R<Option<f64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => as_f64(v, &self.at.key(key)).map(Some),
        }
    }

    fn num_or(&self, key: &str, default: f64) -> R<f64> {
        f64_or(self.map, key, default, &self.at)
    }

    fn string(&self, key: &str) -> R<Option<&'a str>> {
        str_opt(self.map, key, &self.at)
    }

    fn required_string(&self, key: &str) -> R<&'a str> {
        str_req(self.map, key, &self.at)
    }

    fn boolean(&self, key: &str, default: bool) -> R<bool> {
        bool_or(self.map, key, default, &self.at)
    }

    /// `[x, y]`.
    fn vec2(&self, key: &str, default: [f64; 2]) -> R<[f64; 2]> {
        let Some(a) = array_opt(self.map, key, &self.at)? else {
            return Ok(default);
        };
        let at = self.at.key(key);
        match a {
            [x, y] => Ok([as_f64(x, &at.index(0))?, as_f64(y, &at.index(1))?]),
            _ => at.err(format!("expected [x, y], found {} numbers", a.len())),
        }
    }

    /// An array of at most [`MAX_ITEMS`] names (absent: empty).
    fn strings(&self, key: &str) -> R<Vec<String>> {
        let a = self.array(key)?;
        let at = self.at.key(key);
        a.iter()
            .enumerate()
            .map(|(i, s)| as_str(s, &at.index(i)).map(str::to_owned))
            .collect()
    }

    /// An array of at most [`MAX_ITEMS`] items (absent: empty).
    fn array(&self, key: &str) -> R<&'a [Value]> {
        let a = array_or_empty(self.map, key, &self.at)?;
        check_len(a.len(), MAX_ITEMS, "items", &self.at.key(key))?;
        Ok(a)
    }
}

fn read_root(root: &Value) -> R<RigExtras> {
    let at = Loc::root();
    // Without the `rig-deformers` feature (the web module), `deformers` is an unknown key.
    #[cfg(not(feature = "rig-deformers"))]
    const ROOT: &[&str] = &["sinewExtras", "jiggle", "follow", "cages", "shapes"];
    #[cfg(feature = "rig-deformers")]
    const ROOT: &[&str] = &[
        "sinewExtras",
        "jiggle",
        "follow",
        "cages",
        "shapes",
        "deformers",
    ];
    let f = Fields::new(root, &at, ROOT)?;
    if let Some(v) = f.num("sinewExtras")?
        && v != 1.0
    {
        return Err(f.err(
            "sinewExtras",
            format!("unsupported version {v} (sinew reads 1)"),
        ));
    }
    let jiggle = match f.get("jiggle") {
        None => JiggleDesc::new(),
        Some(j) => read_jiggle(j, &at.key("jiggle"))?,
    };
    let mut follow = Vec::new();
    let fa = at.key("follow");
    for (i, v) in f.array("follow")?.iter().enumerate() {
        follow.push(read_follow(v, &fa.index(i))?);
    }
    let cages = cages::read_cages(&f, &at)?;
    let shapes = shapes::read_shapes(&f, &at)?;
    Ok(RigExtras {
        jiggle,
        follow,
        cages,
        shapes,
        #[cfg(feature = "rig-deformers")]
        deformers: deformers::read_deformers(&f, &at)?,
    })
}

fn read_follow(v: &Value, at: &Loc) -> R<FollowDesc> {
    let f = Fields::new(
        v,
        at,
        &[
            "name",
            "bone",
            "source",
            "delay",
            "mix",
            "space",
            "rotate",
            "translate",
            "scale",
            "offset",
        ],
    )?;
    let mut d = FollowDesc::new(
        f.required_string("name")?,
        f.required_string("bone")?,
        f.required_string("source")?,
    );
    d.delay = f.num_or("delay", d.delay)?;
    if !(d.delay.is_finite() && d.delay >= 0.0) {
        return Err(f.err("delay", JsonIssue::range("seconds >= 0", d.delay)));
    }
    d.mix = f.num_or("mix", d.mix)?;
    if !(0.0..=1.0).contains(&d.mix) {
        return Err(f.err("mix", JsonIssue::range("a number in 0..1", d.mix)));
    }
    d.space = match f.string("space")? {
        None | Some("local") => FollowSpace::Local,
        Some("world") => FollowSpace::World,
        Some(s) => return Err(f.err("space", format!("unknown space `{s}` (local, world)"))),
    };
    d.rotate = f.boolean("rotate", d.rotate)?;
    d.translate = f.boolean("translate", d.translate)?;
    d.scale = f.boolean("scale", d.scale)?;
    if let Some(o) = f.get("offset") {
        let oa = f.at.key("offset");
        let o = Fields::new(o, &oa, &["rotate", "x", "y", "scaleX", "scaleY"])?;
        d.offset = FollowOffset {
            rotate: o.num_or("rotate", 0.0)?,
            x: o.num_or("x", 0.0)?,
            y: o.num_or("y", 0.0)?,
            scale_x: o.num_or("scaleX", 0.0)?,
            scale_y: o.num_or("scaleY", 0.0)?,
        };
    }
    Ok(d)
}

fn read_jiggle(v: &Value, at: &Loc) -> R<JiggleDesc> {
    let f = Fields::new(
        v,
        at,
        &[
            "stepHz",
            "maxSubsteps",
            "maxFrameDt",
            "gravity",
            "wind",
            "gust",
            "teleportDistance",
            "lod",
            "colliders",
            "chains",
            "animations",
        ],
    )?;
    let d = ClockSettings::default();
    let max_substeps = f.num_or("maxSubsteps", f64::from(d.max_substeps))?;
    if !((1.0..=1000.0).contains(&max_substeps) && max_substeps.fract() == 0.0) {
        return Err(f.err(
            "maxSubsteps",
            JsonIssue::range("a whole number in 1..1000", max_substeps),
        ));
    }
    let mut desc = JiggleDesc::new();
    desc.clock = ClockSettings {
        step_hz: f.num_or("stepHz", d.step_hz)?,
        max_substeps: max_substeps as u32,
        max_frame_dt: f.num_or("maxFrameDt", d.max_frame_dt)?,
        time_scale: 1.0,
    };
    desc.gravity = f.vec2("gravity", [0.0, 0.0])?;
    desc.wind = f.vec2("wind", [0.0, 0.0])?;
    desc.teleport_distance = f.num_or("teleportDistance", f64::INFINITY)?;
    if let Some(g) = f.get("gust") {
        let ga = at.key("gust");
        let g = Fields::new(g, &ga, &["amplitude", "frequency"])?;
        desc.gust = Gust {
            amplitude: g.num_or("amplitude", 0.0)?,
            frequency: g.num_or("frequency", 0.0)?,
        };
    }
    if let Some(l) = f.get("lod") {
        let la = at.key("lod");
        let l = Fields::new(
            l,
            &la,
            &["coarseStep", "coarseBeyond", "freezeBeyond", "cullMargin"],
        )?;
        let def = LodSettings::default();
        let step = l.num_or("coarseStep", f64::from(def.coarse_step))?;
        if !(step.is_finite() && (1.0..=16.0).contains(&step) && step.fract() == 0.0) {
            return Err(l.err(
                "coarseStep",
                JsonIssue::range("a whole number in 1..16", step),
            ));
        }
        desc.lod = LodSettings {
            coarse_step: step as u32,
            coarse_beyond: l.num_or("coarseBeyond", def.coarse_beyond)?,
            freeze_beyond: l.num_or("freezeBeyond", def.freeze_beyond)?,
        };
        desc.cull_margin = l.num("cullMargin")?;
        if let Some(m) = desc.cull_margin
            && !(m.is_finite() && m >= 0.0)
        {
            return Err(l.err("cullMargin", JsonIssue::range("a distance >= 0", m)));
        }
    }
    let ca = at.key("colliders");
    for (i, c) in f.array("colliders")?.iter().enumerate() {
        desc.colliders.push(read_collider(c, &ca.index(i))?);
    }
    let ca = at.key("chains");
    for (i, c) in f.array("chains")?.iter().enumerate() {
        desc.chains.push(read_chain(c, &ca.index(i))?);
    }
    desc.animations = cues::read_animations(&f, at)?;
    Ok(desc)
}

fn read_collider(v: &Value, at: &Loc) -> R<ColliderDesc> {
    let f = Fields::new(
        v,
        at,
        &[
            "name", "bone", "shape", "x", "y", "tailX", "tailY", "radius",
        ],
    )?;
    let offset = [f.num_or("x", 0.0)?, f.num_or("y", 0.0)?];
    let radius = f.num_or("radius", 0.0)?;
    let shape = match f.required_string("shape")? {
        "circle" => ColliderShape::Circle { offset, radius },
        "capsule" => ColliderShape::Capsule {
            offset,
            tail: [f.num_or("tailX", 0.0)?, f.num_or("tailY", 0.0)?],
            radius,
        },
        other => {
            return Err(f.err(
                "shape",
                format!("unknown shape `{other}` (circle, capsule)"),
            ));
        }
    };
    Ok(ColliderDesc {
        name: f.required_string("name")?.to_owned(),
        bone: f.required_string("bone")?.to_owned(),
        shape,
    })
}

const CHAIN_KEYS: &[&str] = &[
    "name",
    "bones",
    "preset",
    "model",
    "mass",
    "stiffness",
    "damping",
    "frequency",
    "dampingRatio",
    "translateStiffness",
    "translateDamping",
    "translateFrequency",
    "translateDampingRatio",
    "maxOffset",
    "maxStretch",
    "maxAngle",
    "gravity",
    "wind",
    "velocityDamping",
    "hitRadius",
    "strength",
    "drag",
    "unitScale",
    "vrmStaleLength",
    "speedCurve",
    "colliders",
    "driver",
    "length",
];

fn read_chain(v: &Value, at: &Loc) -> R<ChainDesc> {
    let f = Fields::new(v, at, CHAIN_KEYS)?;
    let name = f.required_string("name")?.to_owned();
    let bones = f.strings("bones")?;
    if bones.is_empty() {
        return Err(f.err("bones", "is required (one bone name or more)"));
    }
    let mut p = match f.string("preset")? {
        None => JiggleParams::default(),
        Some(n) => Preset::from_name(n).map(Preset::params).ok_or_else(|| {
            let have: Vec<&str> = Preset::ALL.iter().map(|(n, _)| *n).collect();
            f.err(
                "preset",
                format!("unknown preset `{n}` (have: {})", have.join(", ")),
            )
        })?,
    };
    match f.string("model")? {
        None => {}
        Some("spring") => p.model = JiggleModel::Spring,
        Some("verlet") => p.model = JiggleModel::Verlet,
        Some("angular") => p.model = JiggleModel::Angular,
        Some("lerp") => p.model = JiggleModel::Lerp,
        Some(m) => {
            return Err(f.err(
                "model",
                format!("unknown model `{m}` (spring, verlet, angular, lerp)"),
            ));
        }
    }
    p.mass = f.num_or("mass", p.mass)?;
    p.stiffness = f.num_or("stiffness", p.stiffness)?;
    p.damping = f.num_or("damping", p.damping)?;
    (p.stiffness, p.damping) = frequency_pair(
        &f,
        "frequency",
        "dampingRatio",
        p.stiffness,
        p.damping,
        p.mass,
    )?;
    p.translate_stiffness = f.num_or("translateStiffness", p.translate_stiffness)?;
    p.translate_damping = f.num_or("translateDamping", p.translate_damping)?;
    (p.translate_stiffness, p.translate_damping) = frequency_pair(
        &f,
        "translateFrequency",
        "translateDampingRatio",
        p.translate_stiffness,
        p.translate_damping,
        p.mass,
    )?;
    p.max_offset = f.num_or("maxOffset", p.max_offset)?;
    p.max_stretch = f.num_or("maxStretch", p.max_stretch)?;
    p.max_angle = f.num_or("maxAngle", p.max_angle)?;
    p.gravity = f.num_or("gravity", p.gravity)?;
    p.wind = f.num_or("wind", p.wind)?;
    p.velocity_damping = f.num_or("velocityDamping", p.velocity_damping)?;
    p.hit_radius = f.num_or("hitRadius", p.hit_radius)?;
    p.strength = f.num_or("strength", p.strength)?;
    p.drag = f.num_or("drag", p.drag)?;
    p.unit_scale = f.num_or("unitScale", p.unit_scale)?;
    p.vrm_stale_length = f.boolean("vrmStaleLength", p.vrm_stale_length)?;
    if let Some(v) = f.get("speedCurve") {
        let sa = f.at.key("speedCurve");
        let c = Fields::new(v, &sa, &["from", "to", "stiffness", "damping"])?;
        p.speed = sinew::physics::jiggle::SpeedCurve {
            from: c.num_or("from", 0.0)?,
            to: c.num_or("to", 0.0)?,
            stiffness: c.num_or("stiffness", 1.0)?,
            damping: c.num_or("damping", 1.0)?,
        };
        if let Err(e) = p.speed.validate() {
            return Err(sa.problem(e).into());
        }
    }
    Ok(ChainDesc {
        name,
        bones,
        driver: f.string("driver")?.map(str::to_owned),
        tip_length: f.num("length")?,
        params: p,
        colliders: f.strings("colliders")?,
    })
}

/// Stiffness and damping from a frequency / damping-ratio pair when either is given (the
/// other keeps its current value).
fn frequency_pair(f: &Fields, fk: &str, zk: &str, k: f64, c: f64, m: f64) -> R<(f64, f64)> {
    let (hz, zeta) = (f.num(fk)?, f.num(zk)?);
    if hz.is_none() && zeta.is_none() {
        return Ok((k, c));
    }
    let cur = SpringParams {
        stiffness: k,
        damping: c,
        mass: m,
    };
    let hz = hz.unwrap_or_else(|| cur.omega0() / std::f64::consts::TAU);
    let zeta = zeta.unwrap_or_else(|| if k > 0.0 { cur.zeta() } else { 0.0 });
    if !(hz.is_finite() && hz > 0.0) {
        return Err(f.err(fk, JsonIssue::range("a frequency > 0 Hz", hz)));
    }
    if !(zeta.is_finite() && zeta >= 0.0) {
        return Err(f.err(zk, JsonIssue::range("a damping ratio >= 0", zeta)));
    }
    let sp = SpringParams::from_frequency(hz, zeta, m);
    Ok((sp.stiffness, sp.damping))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_example() {
        let text = r#"{
          "sinewExtras": 1,
          "_comment": "ignored",
          "jiggle": {
            "stepHz": 120, "maxSubsteps": 4, "gravity": [0, -980], "wind": [40, 0],
            "gust": { "amplitude": 0.5, "frequency": 0.4 }, "teleportDistance": 400,
            "lod": { "coarseStep": 3, "coarseBeyond": 1500, "freezeBeyond": 4000 },
            "colliders": [
              { "name": "head", "bone": "head", "shape": "circle", "x": 24, "y": 0, "radius": 22 },
              { "name": "back", "bone": "torso", "shape": "capsule", "x": 0, "y": 10,
                "tailX": 60, "tailY": 10, "radius": 8 }
            ],
            "chains": [
              { "name": "hair", "bones": ["hair"], "preset": "hairTip", "colliders": ["head"] },
              { "name": "cape", "bones": ["cape-1", "cape-2"], "preset": "ribbon",
                "frequency": 1.2, "dampingRatio": 0.2, "maxAngle": 100, "colliders": ["back"] },
              { "name": "vrm", "bones": ["tail"], "model": "verlet", "stiffness": 2, "drag": 0.3,
                "vrmStaleLength": true, "length": 12, "driver": "hip" }
            ]
          }
        }"#;
        let x = parse_extras(text, "x.json").expect("parses");
        let j = &x.jiggle;
        assert_eq!(j.clock.step_hz, 120.0);
        assert_eq!(j.clock.max_substeps, 4);
        assert_eq!(j.gravity, [0.0, -980.0]);
        assert_eq!(j.lod.coarse_step, 3);
        assert_eq!(j.colliders.len(), 2);
        assert_eq!(
            j.colliders[1].shape,
            ColliderShape::Capsule {
                offset: [0.0, 10.0],
                tail: [60.0, 10.0],
                radius: 8.0
            }
        );
        assert_eq!(j.chains[0].params, Preset::HairTip.params());
        let cape = j.chains[1].params.tip_spring();
        assert!((cape.omega0() - std::f64::consts::TAU * 1.2).abs() < 1e-9);
        assert!((cape.zeta() - 0.2).abs() < 1e-12);
        assert_eq!(j.chains[1].params.max_angle, 100.0);
        let vrm = &j.chains[2];
        assert_eq!(vrm.params.model, JiggleModel::Verlet);
        assert!(vrm.params.vrm_stale_length);
        assert_eq!(vrm.tip_length, Some(12.0));
        assert_eq!(vrm.driver.as_deref(), Some("hip"));
    }

    #[test]
    fn parses_follows() {
        let text = r#"{
          "follow": [
            { "name": "hair-lag", "bone": "hair", "source": "head", "delay": 0.12, "mix": 0.5,
              "space": "world", "rotate": true, "translate": true, "scale": true,
              "offset": { "rotate": 150, "x": 1, "y": -2, "scaleX": 0.1, "scaleY": 0.2 } },
            { "name": "plain", "bone": "a", "source": "b", "_note": "defaults" }
          ]
        }"#;
        let x = parse_extras(text, "x.json").expect("parses");
        assert_eq!(x.jiggle, JiggleDesc::new());
        let f = &x.follow[0];
        assert_eq!((f.name.as_str(), f.bone.as_str()), ("hair-lag", "hair"));
        assert_eq!((f.source.as_str(), f.delay, f.mix), ("head", 0.12, 0.5));
        assert_eq!(f.space, FollowSpace::World);
        assert!(f.rotate && f.translate && f.scale);
        assert_eq!(
            f.offset,
            FollowOffset {
                rotate: 150.0,
                x: 1.0,
                y: -2.0,
                scale_x: 0.1,
                scale_y: 0.2
            }
        );
        assert_eq!(x.follow[1], FollowDesc::new("plain", "a", "b"));
    }

    #[test]
    fn errors_name_the_file_and_the_place() {
        let cases = [
            ("{", "x.json: invalid JSON"),
            (
                r#"{"jiggle": {"chains": [{"name": "a", "bones": ["b"], "stifness": 3}]}}"#,
                "$.jiggle.chains[0] (`a`): unknown key `stifness`",
            ),
            (
                r#"{"jiggle": {"chains": [{"name": "a"}]}}"#,
                "$.jiggle.chains[0].bones (`a`): is required",
            ),
            (
                r#"{"jiggle": {"chains": [{"name": "a", "bones": ["b"], "preset": "fur"}]}}"#,
                "unknown preset `fur`",
            ),
            (
                r#"{"jiggle": {"chains": [{"name": "a", "bones": ["b"], "frequency": -1}]}}"#,
                "$.jiggle.chains[0].frequency (`a`): expected a frequency",
            ),
            (
                r#"{"jiggle": {"colliders": [{"name": "c", "bone": "b", "shape": "box"}]}}"#,
                "unknown shape `box`",
            ),
            (
                r#"{"jiggle": {"gravity": [0]}}"#,
                "$.jiggle.gravity: expected [x, y]",
            ),
            (r#"{"sinewExtras": 2}"#, "unsupported version 2"),
            (
                r#"{"jiggle": {"maxSubsteps": 2.5}}"#,
                "$.jiggle.maxSubsteps: expected a whole number",
            ),
            (r#"[]"#, "$: expected an object"),
            (
                r#"{"follow": [{"name": "f", "bone": "a", "source": "b", "spce": "world"}]}"#,
                "$.follow[0] (`f`): unknown key `spce`",
            ),
            (
                r#"{"follow": [{"name": "f", "bone": "a"}]}"#,
                "$.follow[0] (`f`): missing `source`",
            ),
            (
                r#"{"follow": [{"name": "f", "bone": "a", "source": "b", "mix": 2}]}"#,
                "$.follow[0].mix (`f`): expected a number in 0..1",
            ),
            (
                r#"{"follow": [{"name": "f", "bone": "a", "source": "b", "delay": -0.1}]}"#,
                "$.follow[0].delay (`f`): expected seconds >= 0",
            ),
            (
                r#"{"follow": [{"name": "f", "bone": "a", "source": "b", "space": "screen"}]}"#,
                "$.follow[0].space (`f`): unknown space `screen`",
            ),
            (
                r#"{"follow": [{"name": "f", "bone": "a", "source": "b", "offset": {"z": 1}}]}"#,
                "$.follow[0].offset (`f`): unknown key `z`",
            ),
            (r#"{"follow": {}}"#, "$.follow: expected an array"),
        ];
        for (text, want) in cases {
            let e = parse_extras(text, "x.json")
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(
                e.starts_with("x.json") && e.contains(want),
                "{want}: got `{e}`"
            );
        }
    }

    #[test]
    fn empty_file_means_no_jiggle() {
        let x = parse_extras("{}", "e.json").expect("parses");
        assert!(x.jiggle.chains.is_empty() && x.jiggle.colliders.is_empty());
    }
}
