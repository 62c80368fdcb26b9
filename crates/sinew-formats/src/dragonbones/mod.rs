//! DragonBones 5.x JSON exports (`*_ske.json` + `*_tex.json`) into a [`RawRig`].
//!
//! One armature of the file (by name; default the file's `stage` armature, else the first,
//! as the official runtime's `buildArmature` without a name) becomes one rig:
//! - bones: `transform {x, y, skX, skY, scX, scY}` as Spine rotation `skY`, shear y
//!   `skX - skY`; the four inherit flags as [`Inherit::DragonBones`] (composed as
//!   DragonBones does) unless all are set; parents sorted before children (the file may
//!   list a child first);
//! - slots in `slot[]` order (the setup draw order), their display lists as skin entries
//!   (image -> region, mesh -> mesh; weighted meshes put into each influence's bind space,
//!   `inverse(bonePose) * slotPose * vertex`, unweighted ones through the display transform
//!   into bone space);
//! - IK (`chain` 0: one bone, else two), animations (see `anim.rs`, `emit.rs`, `ease.rs`);
//! - armature displays as empty points, with the armatures they show loaded beside the rig
//!   and posed by [`pose`] on their own clock (`children.rs`).
//!
//! Data stays in DragonBones' y-down space; the numbers are used as they are (the pose math
//! does not care which way y points). The rig uses exact trigonometry.
//!
//! The loader never panics and never allocates for a count the file only declares; what
//! keys expand into (samples, deform vectors, wrap-around twins) is charged to a budget
//! proportional to the file's size before it is made (`emit.rs`); errors name the file and
//! the JSON path.
//!
//! Playback: the raw clips carry their DragonBones facts ([`sinew::raw::RawPlayback`]; the
//! builder makes them [`sinew::anim::ClipPlayback`]), and the animation state plays them the
//! DragonBones way:
//! - `playTimes` (also in [`ClipInfo`]): 0 loops, 1 plays once and holds; N >= 2 loops N
//!   times and then holds the end (`Character::play`). COMPAT(dragonbones): while plays
//!   remain the runtime tweens a last key that ends before the animation end back to the
//!   first key, and holds it in the last play and when seeking; such animations get a held
//!   twin clip ([`ClipInfo::held`]) that the state poses in the last play.
//! - `fadeInTime`: the crossfade into the clip (`Character::play`/`fade_in`, and the mix
//!   of `set_animation`/`add_animation` when the mix table has no pair), with DragonBones'
//!   fade blending (`sinew::anim::state`, `dragonbones.rs`). The runtime's `play()` and
//!   `gotoAndStopByTime()` do not fade (the first clip of a track does not either, unless
//!   `fade_in` gives a time: then it fades in from no weight, as `fadeIn` on a new layer).
//! - Layers and groups: one track per layer and group, `Character::set_track_layer`
//!   (`sinew_character_set_track_layer`); higher layers take each bone's weight first.
//!   `fadeOutMode` `All`/`SameLayer`: `Character::fade_out_track` on the other tracks.
//! - Backwards: a negative time scale on the track (`Character::set_track_time_scale`,
//!   `sinew_character_set_track_time_scale`) plays the clip backwards as the runtime does
//!   (`sinew::anim::state`, `dragonbones.rs`).
//! - Colour offsets (`rO/gO/bO`): drawn through the two-colour tint (Spine's tint black):
//!   a slot whose setup colour or any colour key has offsets gets a dark colour, light =
//!   multipliers + offsets and dark = offsets (`two_colour`), which is the runtime's
//!   `colour * multiplier + offset`; its colour timelines set both. The alpha offset (`aO`)
//!   has no term in the tint and is dropped.
//!
//! Exact on seeded random 5.5 rigs (`testdata/dragonbones/random/`,
//! `tests/all/dragonbones_random.rs`, 32 of 32 cases): IK constraints run in the runtime's
//! bone order (`update_order`: a root waits for its target), bones keep the world rotation
//! the runtime holds (`Instance::db_rotation`), `tweenEasing` is evaluated exactly
//! (`RawCurve::Eased`) and colour multipliers are not clamped (they overshoot 1 while
//! easing, as in the runtime).

mod anim;
mod children;
mod ease;
mod emit;
mod pose;
pub(crate) mod tex;

pub use children::{ChildArmature, ChildDisplay};
pub use pose::{BonePose, ChildPose, EventPose, Frame, PoseMode, SlotPose, pose};
pub use tex::{load_tex_atlas, parse_tex_atlas};

use crate::error::LoadError;
use crate::json::lenient::*;
use crate::json::*;
use serde_json::Value;
use sinew::raw::*;
use sinew::types::{BlendMode, Color};
use sinew::{DragonBonesInherit, Inherit};
use std::collections::HashMap;
use std::path::Path;

/// Most bones, slots or displays per list (ids are 16-bit).
const MAX_ITEMS: usize = 65_535;
/// Most vertices of one mesh (triangle indices are u16).
const MAX_VERTICES: usize = 65_536;
/// Most influences of one weighted vertex.
const MAX_INFLUENCES: u32 = 32;
/// Largest file read, in bytes.
const MAX_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// An animation's playback settings (what the rig's clips do not carry).
#[derive(Debug, Clone, PartialEq)]
pub struct ClipInfo {
    /// Animation name (the clip's name).
    pub name: String,
    /// `playTimes`: 0 loops forever, otherwise the number of plays (default 1).
    pub play_times: u32,
    /// Length in frames (`max(duration, 1)`).
    pub frames: u32,
    /// `fadeInTime` in seconds (the runtime's `play` ignores it).
    pub fade_in: f64,
    /// The clip that holds the last key instead of tweening back to the first (the held
    /// twin, see the module docs), when a timeline wraps around; `None`: the clip itself.
    pub held: Option<String>,
}

impl ClipInfo {
    /// The clip to pose when no play follows (the last play, `playTimes` 1, seeking).
    pub fn held_clip(&self) -> &str {
        self.held.as_deref().unwrap_or(&self.name)
    }
}

/// A loaded armature: the rig plus what only DragonBones has.
#[derive(Debug, Clone)]
pub struct DragonBonesRig {
    /// The rig.
    pub raw: RawRig,
    /// The armature's name.
    pub armature: String,
    /// Frames per second of the armature's timelines.
    pub frame_rate: f64,
    /// Per animation, in clip order.
    pub clips: Vec<ClipInfo>,
    /// The file's data version (`version`).
    pub version: String,
    /// Bone names in the file's `bone[]` order (what dumps list).
    pub file_bone_order: Vec<String>,
    /// Slot displays that show another armature of the file (see [`ChildDisplay`]).
    pub child_displays: Vec<ChildDisplay>,
    /// The armatures those displays show, loaded once each (their own displays of
    /// armatures are empty points: one level of nesting).
    pub children: Vec<ChildArmature>,
    /// Values (key values, samples, deform floats) the animation reader made for the whole
    /// file, children included: what its memory budget (a fixed multiple of the file's size)
    /// was charged.
    pub values_made: u64,
}

/// Reads a skeleton file and, optionally, its atlas description (`*_tex.json`).
pub fn load_dragonbones(
    ske: &Path,
    tex: Option<&Path>,
    armature: Option<&str>,
) -> Result<DragonBonesRig, LoadError> {
    let read = |p: &Path| -> Result<(String, String), LoadError> {
        let file = p.display().to_string();
        let size = std::fs::metadata(p)
            .map_err(|source| LoadError::Io {
                file: file.clone(),
                source,
            })?
            .len();
        if size > MAX_FILE_BYTES {
            return Err(LoadError::Invalid {
                file,
                path: "$".into(),
                name: None,
                issue: crate::JsonIssue::Other(format!(
                    "file is {size} bytes (limit {MAX_FILE_BYTES})"
                )),
            });
        }
        let text = crate::error::read_text(p, &file)?;
        Ok((text, file))
    };
    let (ske_text, ske_file) = read(ske)?;
    let tex = tex.map(read).transpose()?;
    parse_dragonbones(
        &ske_text,
        &ske_file,
        tex.as_ref().map(|(t, f)| (t.as_str(), f.as_str())),
        armature,
    )
}

/// Parses a skeleton's text (named `source`) with an optional atlas `(text, name)`.
pub fn parse_dragonbones(
    ske: &str,
    source: &str,
    tex: Option<(&str, &str)>,
    armature: Option<&str>,
) -> Result<DragonBonesRig, LoadError> {
    parse_dragonbones_with(ske, source, tex, armature, &crate::budget::Budgets::DEFAULT)
}

/// [`parse_dragonbones`] within `budgets`.
pub(crate) fn parse_dragonbones_with(
    ske: &str,
    source: &str,
    tex: Option<(&str, &str)>,
    armature: Option<&str>,
    budgets: &crate::budget::Budgets,
) -> Result<DragonBonesRig, LoadError> {
    let invalid = crate::json::in_file;
    let atlas = match tex {
        Some((text, file)) => {
            let v = crate::error::parse_json(text, file, budgets)?;
            read_atlas(&v).map_err(invalid(file))?
        }
        None => HashMap::new(),
    };
    let root = crate::error::parse_json(ske, source, budgets)?;
    let at = Loc::root();
    let root = as_obj(&root, &at).map_err(invalid(source))?;
    let version = string(root, "version", "", &at).map_err(invalid(source))?;
    let compat = string(root, "compatibleVersion", "", &at).map_err(invalid(source))?;
    const OK: [&str; 5] = ["4.0", "4.5", "5.0", "5.5", "5.6"];
    if !OK.contains(&version.as_str()) && !OK.contains(&compat.as_str()) {
        return Err(LoadError::Version {
            file: source.to_owned(),
            version,
        });
    }
    let mut budget = emit::Budget::for_input(ske.len());
    let mut rig = read_armature(root, &atlas, armature, source, &version, &mut budget, &[])
        .map_err(invalid(source))?;
    rig.values_made = budget.used();
    Ok(rig)
}

/// A SubTexture's drawn size and trim.
#[derive(Debug, Clone, Copy)]
struct Region {
    width: f64,
    height: f64,
    frame: Option<[f64; 4]>,
}

fn read_atlas(v: &Value) -> R<HashMap<String, Region>> {
    let at = Loc::root();
    let root = as_obj(v, &at)?;
    let scale = num(root, "scale", 1.0, &at)?;
    let scale = if scale > 0.0 { scale } else { 1.0 };
    let mut out = HashMap::new();
    let sa = at.key("SubTexture");
    for (i, t) in arr(root, "SubTexture", &at)?.iter().enumerate() {
        let p = sa.index(i);
        let t = as_obj(t, &p)?;
        let name = string(t, "name", "", &p)?;
        let (mut w, mut h) = (num(t, "width", 0.0, &p)?, num(t, "height", 0.0, &p)?);
        if boolean(t, "rotated", false, &p)? {
            std::mem::swap(&mut w, &mut h);
        }
        let frame = match num_opt(t, "frameWidth", &p)? {
            Some(fw) => Some([
                num(t, "frameX", 0.0, &p)? / scale,
                num(t, "frameY", 0.0, &p)? / scale,
                fw / scale,
                num(t, "frameHeight", 0.0, &p)? / scale,
            ]),
            None => None,
        };
        out.insert(
            name,
            Region {
                width: w / scale,
                height: h / scale,
                frame,
            },
        );
    }
    Ok(out)
}

/// Each bone's place in the runtime's update order (`ArmatureData.sortBones`): bones are
/// taken in a cyclic scan of file order, each once its parent is placed and, when it is a
/// constraint's root, once that constraint's target is. `parents` by file index; `links` are
/// (root, target) per constraint. Bones that could never be placed (a root whose target
/// hangs below it, where the runtime would loop forever) come last, in file order.
fn update_order(parents: &[Option<usize>], links: &[(usize, Option<usize>)]) -> Vec<usize> {
    let n = parents.len();
    let mut rank = vec![usize::MAX; n];
    let mut placed = 0;
    let ready = |i: usize, rank: &[usize]| {
        parents[i].is_none_or(|p| rank[p] != usize::MAX)
            && links
                .iter()
                .all(|&(r, t)| r != i || t.is_none_or(|t| rank[t] != usize::MAX))
    };
    let (mut i, mut idle) = (0, 0);
    while placed < n && idle < n {
        if rank[i] == usize::MAX && ready(i, &rank) {
            rank[i] = placed;
            placed += 1;
            idle = 0;
        } else {
            idle += 1;
        }
        i = (i + 1) % n;
    }
    for r in rank.iter_mut().filter(|r| **r == usize::MAX) {
        *r = placed;
        placed += 1;
    }
    rank
}

/// A DragonBones matrix in Flash order: `x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mat {
    a: f64,
    b: f64,
    c: f64,
    d: f64,
    tx: f64,
    ty: f64,
}

impl Mat {
    const ID: Mat = Mat {
        a: 1.0,
        b: 0.0,
        c: 0.0,
        d: 1.0,
        tx: 0.0,
        ty: 0.0,
    };
    fn from_slice(s: &[f64]) -> Mat {
        Mat {
            a: s[0],
            b: s[1],
            c: s[2],
            d: s[3],
            tx: s[4],
            ty: s[5],
        }
    }
    fn apply(&self, x: f64, y: f64) -> (f64, f64) {
        (
            self.a * x + self.c * y + self.tx,
            self.b * x + self.d * y + self.ty,
        )
    }
    fn apply_linear(&self, x: f64, y: f64) -> (f64, f64) {
        (self.a * x + self.c * y, self.b * x + self.d * y)
    }
    fn mul(&self, o: &Mat) -> Mat {
        let (tx, ty) = self.apply(o.tx, o.ty);
        Mat {
            a: self.a * o.a + self.c * o.b,
            b: self.b * o.a + self.d * o.b,
            c: self.a * o.c + self.c * o.d,
            d: self.b * o.c + self.d * o.d,
            tx,
            ty,
        }
    }
    fn invert(&self) -> Mat {
        let det = self.a * self.d - self.b * self.c;
        let det = if det == 0.0 || !det.is_finite() {
            1.0
        } else {
            det
        };
        let (a, b, c, d) = (self.d / det, -self.b / det, -self.c / det, self.a / det);
        Mat {
            a,
            b,
            c,
            d,
            tx: -(a * self.tx + c * self.ty),
            ty: -(b * self.tx + d * self.ty),
        }
    }
}

/// A `transform {x, y, skX, skY, scX, scY}` (degrees).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Xf {
    pub x: f64,
    pub y: f64,
    pub sk_x: f64,
    pub sk_y: f64,
    pub sc_x: f64,
    pub sc_y: f64,
}

pub(crate) fn read_xf(m: &Obj, path: &Loc) -> R<Xf> {
    let t = obj_opt(m, "transform", path)?;
    let p = path.key("transform");
    let empty = Obj::new();
    let t = t.unwrap_or(&empty);
    Ok(Xf {
        x: num(t, "x", 0.0, &p)?,
        y: num(t, "y", 0.0, &p)?,
        sk_x: num(t, "skX", 0.0, &p)?,
        sk_y: num(t, "skY", 0.0, &p)?,
        sc_x: num(t, "scX", 1.0, &p)?,
        sc_y: num(t, "scY", 1.0, &p)?,
    })
}

impl Xf {
    fn matrix(&self) -> Mat {
        let (sy, sx) = (self.sk_y.to_radians(), self.sk_x.to_radians());
        Mat {
            a: sy.cos() * self.sc_x,
            b: sy.sin() * self.sc_x,
            c: -sx.sin() * self.sc_y,
            d: sx.cos() * self.sc_y,
            tx: self.x,
            ty: self.y,
        }
    }
}

/// A slot's `blendMode`, compared without case as the runtime's parser does (editors write
/// `hardLight`). Flash's `alpha` and `erase` keep or erase what is already drawn by the
/// source's alpha (DestinationIn, SliceFromLower); `invert` and `layer` have no sinew
/// equivalent and draw normally, as the PixiJS and Cocos adapters draw them.
fn blend_mode(name: &str) -> BlendMode {
    match name.to_ascii_lowercase().as_str() {
        "add" => BlendMode::Additive,
        "multiply" => BlendMode::Multiply,
        "screen" => BlendMode::Screen,
        "overlay" => BlendMode::Overlay,
        "darken" => BlendMode::Darken,
        "lighten" => BlendMode::Lighten,
        "difference" => BlendMode::Difference,
        "hardlight" => BlendMode::HardLight,
        "subtract" => BlendMode::Subtract,
        "alpha" => BlendMode::DestinationIn,
        "erase" => BlendMode::SliceFromLower,
        _ => BlendMode::Normal,
    }
}

/// A DragonBones colour transform `{aM, rM, gM, bM, aO, rO, gO, bO}`: the multipliers
/// (percent, as 0..1) and the colour offsets (-255..255, as -1..1; the alpha offset is not
/// kept: sinew's tint has no term for it). `quantise`: whole numbers, as the runtime keeps
/// key values.
pub(crate) fn read_color_transform(
    m: Option<&Obj>,
    path: &Loc,
    quantise: bool,
) -> R<(Color, [f32; 3])> {
    let Some(m) = m else {
        return Ok((Color::WHITE, [0.0; 3]));
    };
    let q = |v: f64| if quantise { v.round() } else { v };
    let mul = |k: &str| -> R<f32> { Ok((q(num(m, k, 100.0, path)?) / 100.0) as f32) };
    let off = |k: &str| -> R<f32> { Ok((q(num(m, k, 0.0, path)?) / 255.0) as f32) };
    Ok((
        Color::new(mul("rM")?, mul("gM")?, mul("bM")?, mul("aM")?),
        [off("rO")?, off("gO")?, off("bO")?],
    ))
}

/// The light and dark colours of a colour transform on sinew's two-colour tint (Spine's
/// tint black, `rgb = (a - t) * dark + t * light` on premultiplied texels `t`): light =
/// multipliers + offsets, dark = offsets, which gives `t * multipliers + a * offsets`, the
/// runtime's `colour * multiplier + offset` on straight colour.
pub(crate) fn two_colour(mul: Color, off: [f32; 3]) -> (Color, Color) {
    (
        Color::new(mul.r + off[0], mul.g + off[1], mul.b + off[2], mul.a),
        Color::new(off[0], off[1], off[2], 1.0),
    )
}

/// What the animation reader needs about the armature.
pub(crate) struct Names {
    /// Bone names in file order.
    pub bones: Vec<String>,
    /// Slot name -> (setup index, display keys in display order).
    pub slots: HashMap<String, (usize, Vec<String>)>,
    /// (skin, slot, display name) -> (attachment key, weighted influence map): for weighted
    /// meshes the per-vertex list of bind-space linear maps, one per influence.
    pub meshes: HashMap<(String, String, String), MeshInfo>,
    /// IK names.
    pub ik: Vec<String>,
}

/// A mesh display as deform timelines see it.
pub(crate) struct MeshInfo {
    /// Attachment key.
    pub key: String,
    /// Vertex count.
    pub vertices: usize,
    /// Weighted: per vertex, the linear maps (slot space -> bind space) of its influences.
    pub weighted: Option<Vec<Vec<Mat>>>,
    /// Floats of one deform key: x, y per vertex, or per influence when weighted.
    pub deform_len: usize,
    /// Unweighted: the display transform's linear part (slot space -> bone space).
    pub linear: Mat,
}

/// How deep child armatures nest (the armature loaded is level 1).
const MAX_NESTING: usize = 8;

/// The number of JSON values in `v` (itself included).
fn json_values(v: &Value) -> usize {
    let mut n = 0;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        n += 1;
        match v {
            Value::Array(a) => stack.extend(a.iter()),
            Value::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    n
}

fn read_armature(
    root: &Obj,
    atlas: &HashMap<String, Region>,
    want: Option<&str>,
    source: &str,
    version: &str,
    budget: &mut emit::Budget,
    ancestors: &[&str],
) -> R<DragonBonesRig> {
    let at = Loc::root();
    let arms = arr(root, "armature", &at)?;
    let aa = at.key("armature");
    let names: Vec<String> = arms
        .iter()
        .map(|a| {
            a.get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        })
        .collect();
    let pick = match want {
        Some(w) => match names.iter().position(|n| n == w) {
            Some(i) => i,
            None => {
                return aa.err(format!(
                    "no armature named `{w}` (have: {})",
                    names.join(", ")
                ));
            }
        },
        None => {
            let stage = string(root, "stage", "", &at)?;
            names.iter().position(|n| *n == stage).unwrap_or(0)
        }
    };
    let Some(av) = arms.get(pick) else {
        return aa.err("the file has no armature");
    };
    let ap = aa.index(pick).named(&names[pick]);
    let a = as_obj(av, &ap)?;
    let global_rate = num(root, "frameRate", 24.0, &at)?;
    let mut frame_rate = num(a, "frameRate", global_rate, &ap)?;
    if frame_rate <= 0.0 {
        frame_rate = if global_rate > 0.0 { global_rate } else { 24.0 };
    }
    let mut rig = RawRig {
        source: source.to_owned(),
        version: version.to_owned(),
        reference_scale: 100.0,
        ..Default::default()
    };
    if let Some(bb) = obj_opt(a, "aabb", &ap)? {
        let p = ap.key("aabb");
        rig.bounds = [
            num(bb, "x", 0.0, &p)?,
            num(bb, "y", 0.0, &p)?,
            num(bb, "width", 0.0, &p)?,
            num(bb, "height", 0.0, &p)?,
        ];
    }

    // Bones, file order, then sorted parent-first.
    let bp = ap.key("bone");
    let bones_v = arr(a, "bone", &ap)?;
    if bones_v.len() > MAX_ITEMS {
        return bp.err("too many bones");
    }
    let mut file_bones = Vec::with_capacity(bones_v.len());
    let mut bone_index = HashMap::new();
    for (i, b) in bones_v.iter().enumerate() {
        let p = bp.index(i);
        let b = as_obj(b, &p)?;
        let name = string(b, "name", "", &p)?;
        let p = p.named(&name);
        let parent = b.get("parent").and_then(Value::as_str).map(str::to_owned);
        let xf = read_xf(b, &p)?;
        let mut rb = RawBone::new(&name, parent.as_deref());
        rb.length = num(b, "length", 0.0, &p)?;
        rb.x = xf.x;
        rb.y = xf.y;
        rb.rotation = xf.sk_y;
        rb.shear_y = xf.sk_x - xf.sk_y;
        rb.scale_x = xf.sc_x;
        rb.scale_y = xf.sc_y;
        let rot = boolean(b, "inheritRotation", true, &p)?;
        let scale = boolean(b, "inheritScale", true, &p)?;
        let translation = boolean(b, "inheritTranslation", true, &p)?;
        let reflection = boolean(b, "inheritReflection", true, &p)?;
        // All four inherited: Spine's normal mode (the same product of matrices); any flag
        // off: DragonBones' own composition.
        rb.inherit = if rot && scale && translation && reflection {
            Inherit::Normal
        } else {
            Inherit::DragonBones(DragonBonesInherit {
                translation,
                rotation: rot,
                scale,
                reflection,
            })
        };
        if bone_index.insert(name.clone(), i).is_some() {
            return p.err(format!("duplicate bone `{name}`"));
        }
        file_bones.push(rb);
    }
    // Parent-first order; a parent that is missing or in a cycle is an error.
    let mut placed = vec![false; file_bones.len()];
    let mut order = Vec::with_capacity(file_bones.len());
    let mut progress = true;
    while order.len() < file_bones.len() && progress {
        progress = false;
        for (i, b) in file_bones.iter().enumerate() {
            if placed[i] {
                continue;
            }
            let ready = match &b.parent {
                None => true,
                Some(p) => match bone_index.get(p) {
                    Some(&j) => placed[j],
                    None => return bp.index(i).err(format!("parent bone `{p}` not found")),
                },
            };
            if ready {
                placed[i] = true;
                order.push(i);
                progress = true;
            }
        }
    }
    if order.len() < file_bones.len() {
        return bp.err("bone parents form a cycle");
    }
    // rig index of each file index
    let mut rig_of = vec![0u32; file_bones.len()];
    for (r, &f) in order.iter().enumerate() {
        rig_of[f] = r as u32;
        rig.bones.push(file_bones[f].clone());
    }
    let bone_names: Vec<String> = file_bones.iter().map(|b| b.name.clone()).collect();

    // Slots.
    let sp = ap.key("slot");
    let slots_v = arr(a, "slot", &ap)?;
    if slots_v.len() > MAX_ITEMS {
        return sp.err("too many slots");
    }
    let mut setup_display = Vec::with_capacity(slots_v.len());
    let mut slot_index = HashMap::new();
    for (i, s) in slots_v.iter().enumerate() {
        let p = sp.index(i);
        let s = as_obj(s, &p)?;
        let name = string(s, "name", "", &p)?;
        let p = p.named(&name);
        let bone = string(s, "parent", "", &p)?;
        if !bone_index.contains_key(&bone) {
            return p.err(format!("slot `{name}`: bone `{bone}` not found"));
        }
        let display = num(s, "displayIndex", 0.0, &p)?;
        setup_display.push(display);
        let (mul, off) = read_color_transform(obj_opt(s, "color", &p)?, &p.key("color"), false)?;
        // Offsets draw through the two-colour tint (`two_colour`); the animation reader adds
        // a dark colour to a slot whose keys have offsets.
        let (color, dark) = if off == [0.0; 3] {
            (mul, None)
        } else {
            let (l, d) = two_colour(mul, off);
            (l, Some(d))
        };
        rig.slots.push(RawSlot {
            name: name.clone(),
            bone,
            color,
            dark,
            attachment: None,
            blend: blend_mode(&string(s, "blendMode", "normal", &p)?),
            visible: true,
        });
        if slot_index.insert(name.clone(), i).is_some() {
            return p.err(format!("duplicate slot `{name}`"));
        }
    }

    // Skins.
    let mut info = Names {
        bones: bone_names,
        slots: HashMap::new(),
        meshes: HashMap::new(),
        ik: Vec::new(),
    };
    let mut child_displays = Vec::new();
    let kp = ap.key("skin");
    let skins_v = arr(a, "skin", &ap)?;
    let has_default = skins_v.iter().any(|s| {
        matches!(
            s.get("name").and_then(Value::as_str),
            None | Some("") | Some("default")
        )
    });
    for (si, s) in skins_v.iter().enumerate() {
        let p = kp.index(si);
        let s = as_obj(s, &p)?;
        let mut skin_name = string(s, "name", "", &p)?;
        if skin_name.is_empty() || (!has_default && si == 0) {
            // COMPAT(dragonbones): "" (or, when no skin is the default, the first skin) is
            // the default skin.
            skin_name = "default".into();
        }
        let mut skin = RawSkin {
            name: skin_name.clone(),
            bones: vec![],
            ik: vec![],
            transforms: vec![],
            paths: vec![],
            physics: vec![],
            sliders: vec![],
            attachments: vec![],
        };
        let ssp = p.key("slot");
        for (j, e) in arr(s, "slot", &p)?.iter().enumerate() {
            let p = ssp.index(j);
            let e = as_obj(e, &p)?;
            let slot = string(e, "name", "", &p)?;
            let p = p.named(&slot);
            let Some(&slot_i) = slot_index.get(&slot) else {
                return p.err(format!("skin slot `{slot}` not found"));
            };
            let dp = p.key("display");
            let displays = arr(e, "display", &p)?;
            if displays.len() > MAX_ITEMS {
                return dp.err("too many displays");
            }
            let mut keys = Vec::with_capacity(displays.len());
            for (k, d) in displays.iter().enumerate() {
                let p = dp.index(k);
                let d = as_obj(d, &p)?;
                let name = string(d, "name", "", &p)?;
                let p = p.named(&name);
                let mut attach_key = name.clone();
                if keys.contains(&attach_key) {
                    attach_key = format!("{name}#{k}");
                }
                keys.push(attach_key.clone());
                let kind = match string(d, "type", "image", &p)?.as_str() {
                    "image" => image(d, &name, atlas, &p)?,
                    "mesh" => {
                        let bone = &rig.slots[slot_i].bone;
                        let (kind, mi) = mesh(d, &name, attach_key.clone(), &rig_of, bone, &p)?;
                        info.meshes
                            .insert((skin_name.clone(), slot.clone(), name.clone()), mi);
                        kind
                    }
                    "armature" => {
                        if skin_name == "default" {
                            child_displays.push(children::display(
                                d,
                                &name,
                                &slot,
                                &attach_key,
                                &p,
                            )?);
                        }
                        // Drawn by the pose of its child armature, not by the rig.
                        RawAttachmentKind::Point {
                            x: 0.0,
                            y: 0.0,
                            rotation: 0.0,
                        }
                    }
                    // COMPAT(dragonbones): bounding boxes and paths are not drawn; an empty
                    // point keeps the display index meaningful.
                    _ => RawAttachmentKind::Point {
                        x: 0.0,
                        y: 0.0,
                        rotation: 0.0,
                    },
                };
                skin.attachments.push(RawSkinEntry {
                    slot: slot.clone(),
                    key: attach_key,
                    attachment: RawAttachment { name, kind },
                });
            }
            if skin_name == "default" || !info.slots.contains_key(&slot) {
                info.slots.insert(slot.clone(), (slot_i, keys));
            }
        }
        rig.skins.push(skin);
    }
    for (i, s) in rig.slots.iter_mut().enumerate() {
        let d = setup_display[i];
        if d >= 0.0
            && let Some((_, keys)) = info.slots.get(&s.name)
        {
            s.attachment = keys.get(d as usize).cloned();
        }
    }
    for (i, s) in rig.slots.iter().enumerate() {
        info.slots.entry(s.name.clone()).or_insert((i, Vec::new()));
    }

    // IK.
    let ip = ap.key("ik");
    for (i, k) in arr(a, "ik", &ap)?.iter().enumerate() {
        let p = ip.index(i);
        let k = as_obj(k, &p)?;
        let name = string(k, "name", "", &p)?;
        let p = p.named(&name);
        let bone = string(k, "bone", "", &p)?;
        let target = string(k, "target", "", &p)?;
        let Some(&bi) = bone_index.get(&bone) else {
            return p.err(format!("IK bone `{bone}` not found"));
        };
        let chain = num(k, "chain", 0.0, &p)?;
        let mut bones = vec![bone];
        if chain >= 1.0 {
            match &file_bones[bi].parent {
                Some(parent) => bones.insert(0, parent.clone()),
                None => return p.err("a two-bone IK chain needs a parent bone"),
            }
        }
        rig.ik.push(RawIk {
            name: name.clone(),
            order: i as u32,
            skin_required: false,
            bones,
            target,
            mix: num(k, "weight", 1.0, &p)?,
            softness: 0.0,
            // Checked against the goldens: DragonBones' positive bend is Spine's positive
            // one in the same (y-down) numbers.
            bend_positive: boolean(k, "bendPositive", true, &p)?,
            compress: false,
            stretch: false,
            uniform: false,
            volume: false,
            solver: sinew::IkSolver::DragonBones,
        });
        info.ik.push(name);
    }
    // COMPAT(dragonbones): a constraint runs when the runtime updates its root bone, in the
    // order `ArmatureData.sortBones` gives (a root waits for its target): not file order.
    let parents: Vec<Option<usize>> = file_bones
        .iter()
        .map(|b| b.parent.as_ref().and_then(|p| bone_index.get(p).copied()))
        .collect();
    let links: Vec<(usize, Option<usize>)> = rig
        .ik
        .iter()
        .filter_map(|k| {
            let root = *bone_index.get(k.bones.first()?)?;
            Some((root, bone_index.get(&k.target).copied()))
        })
        .collect();
    if links.len() == rig.ik.len() {
        let rank = update_order(&parents, &links);
        let mut by_root: Vec<usize> = (0..links.len()).collect();
        by_root.sort_by_key(|&i| (rank[links[i].0], i));
        for (n, &i) in by_root.iter().enumerate() {
            rig.ik[i].order = n as u32;
        }
    }

    let clips = anim::read_animations(a, &ap, frame_rate, &info, &mut rig, budget)?;
    children::starts(a, &ap, frame_rate, &mut child_displays, budget)?;
    let armature = names.get(pick).cloned().unwrap_or_default();
    let mut children = Vec::new();
    // Child armatures nest to any depth up to MAX_NESTING; one that shows itself or an
    // armature it is inside of shows nothing (the runtime would recurse without end).
    let mut inside: Vec<&str> = ancestors.to_vec();
    inside.push(&armature);
    if inside.len() <= MAX_NESTING {
        for d in &mut child_displays {
            // COMPAT(dragonbones): a display naming no armature of the file shows nothing.
            if inside.contains(&d.armature.as_str()) || !names.contains(&d.armature) {
                continue;
            }
            let at = match children
                .iter()
                .position(|c: &ChildArmature| c.rig.armature == d.armature)
            {
                Some(i) => i,
                None => {
                    // Each nested read is charged its armature's size: a file of armatures
                    // showing each other cannot make reading grow faster than the budget.
                    if let Some(k) = names.iter().position(|n| *n == d.armature) {
                        let size = arms.get(k).map_or(1, json_values);
                        budget.take(size, &aa.index(k).named(&d.armature))?;
                    }
                    let rig = read_armature(
                        root,
                        atlas,
                        Some(&d.armature),
                        source,
                        version,
                        budget,
                        &inside,
                    )?;
                    children.push(ChildArmature { rig: Box::new(rig) });
                    children.len() - 1
                }
            };
            d.child = Some(at);
        }
    }
    Ok(DragonBonesRig {
        file_bone_order: info.bones,
        raw: rig,
        armature,
        frame_rate,
        clips,
        version: version.to_owned(),
        child_displays,
        children,
        values_made: 0,
    })
}

/// An image display as a region attachment: the region `(0,0)-(w,h)` shifted by the pivot,
/// through the display transform.
fn image(d: &Obj, name: &str, atlas: &HashMap<String, Region>, p: &Loc) -> R<RawAttachmentKind> {
    let path = string(d, "path", name, p)?;
    let xf = read_xf(d, p)?;
    let region = atlas.get(&path).copied().unwrap_or(Region {
        width: 0.0,
        height: 0.0,
        frame: None,
    });
    let (pvx, pvy) = match obj_opt(d, "pivot", p)? {
        // COMPAT(dragonbones): a pivot object with a missing coordinate gives 0 for it.
        Some(pv) => (
            num(pv, "x", 0.0, &p.key("pivot"))?,
            num(pv, "y", 0.0, &p.key("pivot"))?,
        ),
        None => (0.5, 0.5),
    };
    let (px, py) = match region.frame {
        Some([fx, fy, fw, fh]) => (pvx * fw + fx, pvy * fh + fy),
        None => (pvx * region.width, pvy * region.height),
    };
    // Centre of the drawn rectangle in display space, then through the display transform.
    let (cx, cy) = (region.width / 2.0 - px, region.height / 2.0 - py);
    let (x, y) = xf.matrix().apply(cx, cy);
    Ok(RawAttachmentKind::Region {
        path,
        x,
        y,
        scale_x: xf.sc_x,
        // A region's corners take their texture rows as in Spine, whose y points up: the
        // texture's top row at +height/2. DragonBones is y-down (its top row at -height/2 of
        // the display), so the region is mirrored in y to draw the image upright.
        scale_y: -xf.sc_y,
        // COMPAT(dragonbones): a skewed image transform (skX != skY) is drawn unskewed.
        rotation: xf.sk_y,
        width: region.width,
        height: region.height,
        color: Color::WHITE,
        sequence: None,
    })
}

fn mesh(
    d: &Obj,
    name: &str,
    attach_key: String,
    rig_of: &[u32],
    _bone: &str,
    p: &Loc,
) -> R<(RawAttachmentKind, MeshInfo)> {
    let path = string(d, "path", name, p)?;
    let verts = nums(d, "vertices", p)?;
    if verts.len() % 2 != 0 || verts.len() / 2 > MAX_VERTICES {
        return p
            .key("vertices")
            .err("needs an even count of at most 131072 numbers");
    }
    let n = verts.len() / 2;
    let uvs = nums(d, "uvs", p)?;
    if uvs.len() != verts.len() {
        return p.key("uvs").err(format!("needs {} numbers", verts.len()));
    }
    let tris = nums(d, "triangles", p)?;
    let mut triangles = Vec::with_capacity(tris.len());
    for (i, &t) in tris.iter().enumerate() {
        if t < 0.0 || t as usize >= n || t.fract() != 0.0 {
            return p.key("triangles").index(i).err("not a vertex index");
        }
        triangles.push(t as u16);
    }
    if triangles.len() % 3 != 0 {
        return p.key("triangles").err("count is not a multiple of 3");
    }
    let edges = nums(d, "edges", p)?;
    let edges: Vec<u16> = edges
        .iter()
        .filter(|&&e| e >= 0.0 && (e as usize) < n)
        .map(|&e| e as u16)
        .collect();
    let weights = nums(d, "weights", p)?;
    let mut info = MeshInfo {
        key: attach_key,
        vertices: n,
        weighted: None,
        deform_len: 2 * n,
        linear: Mat::ID,
    };
    let vertices = if weights.is_empty() {
        let m = read_xf(d, p)?.matrix();
        info.linear = Mat {
            tx: 0.0,
            ty: 0.0,
            ..m
        };
        let mut values = Vec::with_capacity(verts.len());
        for v in verts.chunks_exact(2) {
            let (x, y) = m.apply(v[0], v[1]);
            values.push(x as f32);
            values.push(y as f32);
        }
        Vertices {
            count: n as u32,
            bones: vec![],
            values,
        }
    } else {
        let wp = p.key("weights");
        let slot_pose = nums(d, "slotPose", p)?;
        let slot_pose = if slot_pose.len() >= 6 {
            Mat::from_slice(&slot_pose)
        } else {
            Mat::ID
        };
        let bp = nums(d, "bonePose", p)?;
        let mut bind: HashMap<usize, Mat> = HashMap::new();
        for c in bp.chunks_exact(7) {
            bind.insert(c[0] as usize, Mat::from_slice(&c[1..]));
        }
        let mut bones = Vec::with_capacity(weights.len().min(n * 5));
        let mut values = Vec::with_capacity(weights.len().min(n * 15));
        let mut maps = Vec::with_capacity(n);
        let mut k = 0usize;
        for v in verts.chunks_exact(2) {
            let Some(&cnt) = weights.get(k) else {
                return wp.err("ends before every vertex has its influences");
            };
            if !(1.0..=f64::from(MAX_INFLUENCES)).contains(&cnt) {
                return wp.index(k).err("influence count out of range");
            }
            let cnt = cnt as usize;
            if k + 1 + 2 * cnt > weights.len() {
                return wp.err("ends inside a vertex's influences");
            }
            bones.push(cnt as u32);
            let mut vm = Vec::with_capacity(cnt);
            let sv = slot_pose.apply(v[0], v[1]);
            for j in 0..cnt {
                let bi = weights[k + 1 + 2 * j];
                let w = weights[k + 2 + 2 * j];
                if bi < 0.0 || bi as usize >= rig_of.len() {
                    return wp.index(k + 1 + 2 * j).err("not a bone index");
                }
                let bi = bi as usize;
                let inv = bind.get(&bi).copied().unwrap_or(Mat::ID).invert();
                let (x, y) = inv.apply(sv.0, sv.1);
                bones.push(rig_of[bi]);
                values.push(x as f32);
                values.push(y as f32);
                values.push(w as f32);
                let lin = inv.mul(&slot_pose);
                vm.push(Mat {
                    tx: 0.0,
                    ty: 0.0,
                    ..lin
                });
            }
            maps.push(vm);
            k += 1 + 2 * cnt;
        }
        info.deform_len = 2 * (bones.len() - n);
        info.weighted = Some(maps);
        Vertices {
            count: n as u32,
            bones,
            values,
        }
    };
    let hull = (edges.len() / 2) as u32;
    Ok((
        RawAttachmentKind::Mesh {
            path,
            color: Color::WHITE,
            vertices,
            uvs: uvs.iter().map(|&u| u as f32).collect(),
            triangles,
            hull,
            edges,
            width: num(d, "width", 0.0, p)?,
            height: num(d, "height", 0.0, p)?,
            sequence: None,
        },
        info,
    ))
}

#[cfg(test)]
mod blend_tests {
    use super::*;

    #[test]
    fn constraints_run_in_the_runtime_bone_order_where_roots_wait_for_targets() {
        // root, b0 (IK "one" root, target t1), b1 (IK "two" root, target t2), b2, t2, t1:
        // the scan places root, t2, t1 first (b0 waits for t1, b1 and b2 for b0), then
        // wraps to b0, b1, b2. "one" runs before "two" whatever the file order.
        let parents = [None, Some(0), Some(1), Some(2), Some(0), Some(0)];
        let links = [(2, Some(4)), (1, Some(5))];
        let rank = update_order(&parents, &links);
        assert_eq!(rank, vec![0, 3, 4, 5, 1, 2]);
        // A root whose target hangs below it can never be placed (the runtime would spin):
        // it and its children come last, in file order.
        let rank = update_order(&[None, Some(0), Some(1)], &[(1, Some(2))]);
        assert_eq!(rank, vec![0, 1, 2]);
        let rank = update_order(&[None, Some(0), Some(1), None], &[(1, Some(2))]);
        assert_eq!(rank, vec![0, 2, 3, 1]);
    }

    #[test]
    fn blend_modes_are_read_without_case_as_the_runtime_reads_them() {
        for (name, want) in [
            ("hardLight", BlendMode::HardLight),
            ("HARDLIGHT", BlendMode::HardLight),
            ("Add", BlendMode::Additive),
            ("multiply", BlendMode::Multiply),
            ("Screen", BlendMode::Screen),
            ("alpha", BlendMode::DestinationIn),
            ("erase", BlendMode::SliceFromLower),
            ("subtract", BlendMode::Subtract),
            ("invert", BlendMode::Normal),
            ("layer", BlendMode::Normal),
            ("nonsense", BlendMode::Normal),
        ] {
            assert_eq!(blend_mode(name), want, "{name}");
        }
    }
}
