//! `skeleton`, `bones`, `slots`, `ik`, `transform`, `path`, `physics` and `events` of a
//! Spine 4.2 JSON file, with the official loader's defaults (spine-ts `SkeletonJson`).
//!
//! Names are checked as they are read (a bone's parent must come before it, a slot's bone
//! must exist, names are unique) so errors carry the JSON path. Verified by the fixture
//! tests (every official export loads with the expected counts) and `tests/all/errors.rs`.

use super::limits::*;
use crate::json::*;
use sinew::raw::*;
use sinew::types::*;
use std::collections::HashMap;

/// Name -> index tables for everything later sections refer to, borrowing the JSON text.
#[derive(Default)]
pub(crate) struct Names<'j> {
    pub bones: HashMap<&'j str, usize>,
    pub slots: HashMap<&'j str, usize>,
    pub ik: HashMap<&'j str, usize>,
    pub transforms: HashMap<&'j str, usize>,
    pub paths: HashMap<&'j str, usize>,
    pub physics: HashMap<&'j str, usize>,
    pub sliders: HashMap<&'j str, usize>,
    pub skins: HashMap<&'j str, usize>,
    pub events: HashMap<&'j str, usize>,
    /// Whether each event definition has audio (event keys then carry volume/balance).
    pub event_audio: Vec<bool>,
    /// The file is Spine 4.3 JSON (the sections whose schema or defaults changed read it).
    pub v43: bool,
}

/// Inserts a name, refusing duplicates.
pub(crate) fn add_name<'j>(
    map: &mut HashMap<&'j str, usize>,
    name: &'j str,
    what: &str,
    at: &Loc,
) -> R<()> {
    let next = map.len();
    if map.insert(name, next).is_some() {
        return at.err(format!("duplicate {what} name `{name}`"));
    }
    Ok(())
}

/// Looks up a name, or reports `unknown <what> `name``.
pub(crate) fn find(map: &HashMap<&str, usize>, name: &str, what: &str, at: &Loc) -> R<usize> {
    match map.get(name) {
        Some(&i) => Ok(i),
        None => at.err(format!("unknown {what} `{name}`")),
    }
}

/// Reads the `skeleton` header into `rig`.
pub(crate) fn read_header(root: &Obj, rig: &mut RawRig, at: &Loc) -> R<()> {
    let Some(sk) = obj_opt(root, "skeleton", at)? else {
        return Ok(());
    };
    let at = at.key("skeleton");
    rig.hash = str_opt(sk, "hash", &at)?.unwrap_or_default().to_owned();
    rig.version = str_opt(sk, "spine", &at)?.unwrap_or_default().to_owned();
    rig.bounds = [
        f64_or(sk, "x", 0.0, &at)?,
        f64_or(sk, "y", 0.0, &at)?,
        f64_or(sk, "width", 0.0, &at)?,
        f64_or(sk, "height", 0.0, &at)?,
    ];
    rig.reference_scale = f64_or(sk, "referenceScale", 100.0, &at)?;
    Ok(())
}

fn inherit_from(s: &str, at: &Loc) -> R<Inherit> {
    Ok(match s {
        "normal" => Inherit::Normal,
        "onlyTranslation" => Inherit::OnlyTranslation,
        "noRotationOrReflection" => Inherit::NoRotationOrReflection,
        "noScale" => Inherit::NoScale,
        "noScaleOrReflection" => Inherit::NoScaleOrReflection,
        _ => return at.err(format!("unknown inherit mode `{s}`")),
    })
}

/// Parses an inherit mode name (also used by inherit timelines).
pub(crate) fn parse_inherit(s: &str, at: &Loc) -> R<Inherit> {
    inherit_from(s, at)
}

/// Reads `bones`.
pub(crate) fn read_bones<'j>(
    root: &'j Obj,
    rig: &mut RawRig,
    names: &mut Names<'j>,
    at: &Loc,
) -> R<()> {
    let Some(list) = array_opt(root, "bones", at)? else {
        return Ok(());
    };
    let at = at.key("bones");
    check_len(list.len(), MAX_BONES, "bones", &at)?;
    rig.bones.reserve(list.len());
    for (i, v) in list.iter().enumerate() {
        let at = at.index(i);
        let m = as_obj(v, &at)?;
        let name = str_req(m, "name", &at)?;
        let at = at.named(name);
        let parent = match str_opt(m, "parent", &at)? {
            // COMPAT(spine): the official loader treats an empty parent name as none.
            Some(p) if !p.is_empty() => {
                find(&names.bones, p, "parent bone", &at.key("parent"))?;
                Some(p.to_owned())
            }
            _ => None,
        };
        add_name(&mut names.bones, name, "bone", &at)?;
        // `inherit` is the 4.2 key; exports before 4.2 called it `transform`.
        let inherit = match str_opt(m, "inherit", &at)? {
            Some(s) => inherit_from(s, &at.key("inherit"))?,
            None => match str_opt(m, "transform", &at)? {
                Some(s) => inherit_from(s, &at.key("transform"))?,
                None => Inherit::Normal,
            },
        };
        rig.bones.push(RawBone {
            name: name.to_owned(),
            parent,
            length: f64_or(m, "length", 0.0, &at)?,
            x: f64_or(m, "x", 0.0, &at)?,
            y: f64_or(m, "y", 0.0, &at)?,
            rotation: f64_or(m, "rotation", 0.0, &at)?,
            scale_x: f64_or(m, "scaleX", 1.0, &at)?,
            scale_y: f64_or(m, "scaleY", 1.0, &at)?,
            shear_x: f64_or(m, "shearX", 0.0, &at)?,
            shear_y: f64_or(m, "shearY", 0.0, &at)?,
            inherit,
            skin_required: bool_or(m, "skin", false, &at)?,
        });
    }
    Ok(())
}

fn blend_from(s: &str, at: &Loc) -> R<BlendMode> {
    Ok(match s {
        "normal" => BlendMode::Normal,
        "additive" => BlendMode::Additive,
        "multiply" => BlendMode::Multiply,
        "screen" => BlendMode::Screen,
        _ => return at.err(format!("unknown blend mode `{s}`")),
    })
}

/// Reads `slots`.
pub(crate) fn read_slots<'j>(
    root: &'j Obj,
    rig: &mut RawRig,
    names: &mut Names<'j>,
    at: &Loc,
) -> R<()> {
    let Some(list) = array_opt(root, "slots", at)? else {
        return Ok(());
    };
    let at = at.key("slots");
    check_len(list.len(), MAX_SLOTS, "slots", &at)?;
    rig.slots.reserve(list.len());
    for (i, v) in list.iter().enumerate() {
        let at = at.index(i);
        let m = as_obj(v, &at)?;
        let name = str_req(m, "name", &at)?;
        let at = at.named(name);
        let bone = str_req(m, "bone", &at)?;
        find(&names.bones, bone, "bone", &at.key("bone"))?;
        add_name(&mut names.slots, name, "slot", &at)?;
        let blend = match str_opt(m, "blend", &at)? {
            Some(s) => blend_from(s, &at.key("blend"))?,
            None => BlendMode::Normal,
        };
        rig.slots.push(RawSlot {
            name: name.to_owned(),
            bone: bone.to_owned(),
            color: color_opt(m, "color", &at)?.unwrap_or(Color::WHITE),
            dark: color_opt(m, "dark", &at)?,
            attachment: str_opt(m, "attachment", &at)?.map(str::to_owned),
            blend,
            visible: bool_or(m, "visible", true, &at)?,
        });
    }
    Ok(())
}

/// Reads a constraint's `bones` list, checking every name.
pub(crate) fn bone_list(m: &Obj, names: &Names, at: &Loc) -> R<Vec<String>> {
    let Some(list) = array_opt(m, "bones", at)? else {
        return Ok(Vec::new());
    };
    let at = at.key("bones");
    check_len(list.len(), MAX_BONES, "bones", &at)?;
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let at = at.index(i);
        let b = as_str(v, &at)?;
        find(&names.bones, b, "bone", &at)?;
        out.push(b.to_owned());
    }
    Ok(out)
}

/// The constraint order (`order`, default 0).
fn order(m: &Obj, at: &Loc) -> R<u32> {
    Ok(uint_or(m, "order", 0, u64::from(u32::MAX), at)? as u32)
}

/// Iterates a constraint list: yields (object, located-and-named loc) to `f`.
fn each_constraint<'j>(
    root: &'j Obj,
    key: &str,
    at: &Loc,
    mut f: impl FnMut(&'j Obj, &'j str, &Loc) -> R<()>,
) -> R<()> {
    let Some(list) = array_opt(root, key, at)? else {
        return Ok(());
    };
    let at = at.key(key);
    check_len(list.len(), MAX_CONSTRAINTS, "constraints", &at)?;
    for (i, v) in list.iter().enumerate() {
        let at = at.index(i);
        let m = as_obj(v, &at)?;
        let name = str_req(m, "name", &at)?;
        f(m, name, &at.named(name))?;
    }
    Ok(())
}

/// Reads `ik`, `transform`, `path` and `physics` (Spine 4.2: one list per kind, each item
/// with its `order`).
pub(crate) fn read_constraints<'j>(
    root: &'j Obj,
    rig: &mut RawRig,
    names: &mut Names<'j>,
    at: &Loc,
) -> R<()> {
    each_constraint(root, "ik", at, |m, name, at| {
        ik_item(m, name, order(m, at)?, rig, names, at)
    })?;
    each_constraint(root, "transform", at, |m, name, at| {
        let bones = bone_list(m, names, at)?;
        let target = str_req(m, "target", at)?;
        find(&names.bones, target, "target bone", &at.key("target"))?;
        add_name(&mut names.transforms, name, "transform constraint", at)?;
        let mix_x = f64_or(m, "mixX", 1.0, at)?;
        let mix_scale_x = f64_or(m, "mixScaleX", 1.0, at)?;
        rig.transforms.push(RawTransform {
            name: name.to_owned(),
            order: order(m, at)?,
            skin_required: bool_or(m, "skin", false, at)?,
            bones,
            target: target.to_owned(),
            local: bool_or(m, "local", false, at)?,
            relative: bool_or(m, "relative", false, at)?,
            offset_rotation: f64_or(m, "rotation", 0.0, at)?,
            offset_x: f64_or(m, "x", 0.0, at)?,
            offset_y: f64_or(m, "y", 0.0, at)?,
            offset_scale_x: f64_or(m, "scaleX", 0.0, at)?,
            offset_scale_y: f64_or(m, "scaleY", 0.0, at)?,
            offset_shear_y: f64_or(m, "shearY", 0.0, at)?,
            mix_rotate: f64_or(m, "mixRotate", 1.0, at)?,
            mix_x,
            mix_y: f64_or(m, "mixY", mix_x, at)?,
            mix_scale_x,
            mix_scale_y: f64_or(m, "mixScaleY", mix_scale_x, at)?,
            mix_shear_y: f64_or(m, "mixShearY", 1.0, at)?,
            properties: Vec::new(),
            local_target: false,
            clamp: false,
        });
        Ok(())
    })?;
    each_constraint(root, "path", at, |m, name, at| {
        path_item(m, name, order(m, at)?, "target", rig, names, at)
    })?;
    each_constraint(root, "physics", at, |m, name, at| {
        physics_item(m, name, order(m, at)?, rig, names, at)
    })
}

/// One IK constraint (4.2 `ik` item, or 4.3 `constraints` item of type `ik`: `uniform`
/// became `scaleY`).
pub(crate) fn ik_item<'j>(
    m: &'j Obj,
    name: &'j str,
    order: u32,
    rig: &mut RawRig,
    names: &mut Names<'j>,
    at: &Loc,
) -> R<()> {
    let bones = bone_list(m, names, at)?;
    if bones.is_empty() || bones.len() > 2 {
        return at.err(format!("IK needs 1 or 2 bones, found {}", bones.len()));
    }
    let target = str_req(m, "target", at)?;
    find(&names.bones, target, "target bone", &at.key("target"))?;
    add_name(&mut names.ik, name, "IK constraint", at)?;
    let (uniform, volume) = if names.v43 {
        let mode = scale_y_mode(m, at)?;
        (mode == ScaleYMode::Uniform, mode == ScaleYMode::Volume)
    } else {
        (bool_or(m, "uniform", false, at)?, false)
    };
    rig.ik.push(RawIk {
        name: name.to_owned(),
        order,
        skin_required: bool_or(m, "skin", false, at)?,
        bones,
        target: target.to_owned(),
        mix: f64_or(m, "mix", 1.0, at)?,
        softness: f64_or(m, "softness", 0.0, at)?,
        bend_positive: bool_or(m, "bendPositive", true, at)?,
        compress: bool_or(m, "compress", false, at)?,
        stretch: bool_or(m, "stretch", false, at)?,
        uniform,
        volume,
        solver: if names.v43 {
            sinew::IkSolver::Spine43
        } else {
            sinew::IkSolver::Spine
        },
    });
    Ok(())
}

/// A 4.3 `scaleY` mode (`none`, `uniform`, `volume`; absent: none).
pub(crate) fn scale_y_mode(m: &Obj, at: &Loc) -> R<ScaleYMode> {
    Ok(match str_opt(m, "scaleY", at)? {
        None | Some("none") => ScaleYMode::None,
        Some("uniform") => ScaleYMode::Uniform,
        Some("volume") => ScaleYMode::Volume,
        Some(s) => return at.key("scaleY").err(format!("unknown scaleY mode `{s}`")),
    })
}

/// One path constraint; its slot is `slot_key` (4.2 `target`, 4.3 `slot`).
pub(crate) fn path_item<'j>(
    m: &'j Obj,
    name: &'j str,
    order: u32,
    slot_key: &str,
    rig: &mut RawRig,
    names: &mut Names<'j>,
    at: &Loc,
) -> R<()> {
    let bones = bone_list(m, names, at)?;
    let target = str_req(m, slot_key, at)?;
    find(&names.slots, target, "target slot", &at.key(slot_key))?;
    add_name(&mut names.paths, name, "path constraint", at)?;
    let position_mode = match str_opt(m, "positionMode", at)?.unwrap_or("percent") {
        "percent" => PositionMode::Percent,
        "fixed" => PositionMode::Fixed,
        s => {
            return at
                .key("positionMode")
                .err(format!("unknown position mode `{s}`"));
        }
    };
    let spacing_mode = match str_opt(m, "spacingMode", at)?.unwrap_or("length") {
        "length" => SpacingMode::Length,
        "fixed" => SpacingMode::Fixed,
        "percent" => SpacingMode::Percent,
        "proportional" => SpacingMode::Proportional,
        s => {
            return at
                .key("spacingMode")
                .err(format!("unknown spacing mode `{s}`"));
        }
    };
    let rotate_mode = match str_opt(m, "rotateMode", at)?.unwrap_or("tangent") {
        "tangent" => RotateMode::Tangent,
        "chain" => RotateMode::Chain,
        "chainScale" => RotateMode::ChainScale,
        s => {
            return at
                .key("rotateMode")
                .err(format!("unknown rotate mode `{s}`"));
        }
    };
    let mix_x = f64_or(m, "mixX", 1.0, at)?;
    rig.paths.push(RawPath {
        name: name.to_owned(),
        order,
        skin_required: bool_or(m, "skin", false, at)?,
        bones,
        target: target.to_owned(),
        position_mode,
        spacing_mode,
        rotate_mode,
        offset_rotation: f64_or(m, "rotation", 0.0, at)?,
        position: f64_or(m, "position", 0.0, at)?,
        spacing: f64_or(m, "spacing", 0.0, at)?,
        mix_rotate: f64_or(m, "mixRotate", 1.0, at)?,
        mix_x,
        mix_y: f64_or(m, "mixY", mix_x, at)?,
    });
    Ok(())
}

/// One physics constraint. 4.3 changed the defaults of `inertia` (1 -> 0.5) and `damping`
/// (1 -> 0.85) and added `scaleY`.
pub(crate) fn physics_item<'j>(
    m: &'j Obj,
    name: &'j str,
    order: u32,
    rig: &mut RawRig,
    names: &mut Names<'j>,
    at: &Loc,
) -> R<()> {
    let bone = str_req(m, "bone", at)?;
    find(&names.bones, bone, "bone", &at.key("bone"))?;
    add_name(&mut names.physics, name, "physics constraint", at)?;
    let fps = f64_or(m, "fps", 60.0, at)?;
    if fps <= 0.0 {
        return at
            .key("fps")
            .err(format!("fps must be positive, found {fps}"));
    }
    let mass = f64_or(m, "mass", 1.0, at)?;
    if mass == 0.0 {
        return at.key("mass").err("mass must not be 0");
    }
    let (inertia, damping, scale_y) = if names.v43 {
        (0.5, 0.85, scale_y_mode(m, at)?)
    } else {
        (1.0, 1.0, ScaleYMode::None)
    };
    rig.physics.push(RawPhysics {
        name: name.to_owned(),
        order,
        skin_required: bool_or(m, "skin", false, at)?,
        bone: bone.to_owned(),
        x: f64_or(m, "x", 0.0, at)?,
        y: f64_or(m, "y", 0.0, at)?,
        rotate: f64_or(m, "rotate", 0.0, at)?,
        scale_x: f64_or(m, "scaleX", 0.0, at)?,
        shear_x: f64_or(m, "shearX", 0.0, at)?,
        scale_y,
        limit: f64_or(m, "limit", 5000.0, at)?,
        step: 1.0 / fps,
        inertia: f64_or(m, "inertia", inertia, at)?,
        strength: f64_or(m, "strength", 100.0, at)?,
        damping: f64_or(m, "damping", damping, at)?,
        mass_inverse: 1.0 / mass,
        wind: f64_or(m, "wind", 0.0, at)?,
        gravity: f64_or(m, "gravity", 0.0, at)?,
        mix: f64_or(m, "mix", 1.0, at)?,
        inertia_global: bool_or(m, "inertiaGlobal", false, at)?,
        strength_global: bool_or(m, "strengthGlobal", false, at)?,
        damping_global: bool_or(m, "dampingGlobal", false, at)?,
        mass_global: bool_or(m, "massGlobal", false, at)?,
        wind_global: bool_or(m, "windGlobal", false, at)?,
        gravity_global: bool_or(m, "gravityGlobal", false, at)?,
        mix_global: bool_or(m, "mixGlobal", false, at)?,
    });
    Ok(())
}

/// Reads `events` (an object keyed by event name).
pub(crate) fn read_events<'j>(
    root: &'j Obj,
    rig: &mut RawRig,
    names: &mut Names<'j>,
    at: &Loc,
) -> R<()> {
    let Some(map) = obj_opt(root, "events", at)? else {
        return Ok(());
    };
    let at = at.key("events");
    check_len(map.len(), MAX_EVENTS, "events", &at)?;
    for (name, v) in map {
        let at = at.key(name).named(name);
        let m = as_obj(v, &at)?;
        add_name(&mut names.events, name, "event", &at)?;
        let audio = str_opt(m, "audio", &at)?
            .filter(|a| !a.is_empty())
            .map(str::to_owned);
        // COMPAT(spine): volume/balance are read only for events with audio (else 0, 0).
        let (volume, balance) = if audio.is_some() {
            (
                f32_or(m, "volume", 1.0, &at)?,
                f32_or(m, "balance", 0.0, &at)?,
            )
        } else {
            (0.0, 0.0)
        };
        names.event_audio.push(audio.is_some());
        rig.events.push(RawEvent {
            name: name.clone(),
            int: match member(m, "int") {
                Some(v) => as_i32(v, &at.key("int"))?,
                None => 0,
            },
            float: f32_or(m, "float", 0.0, &at)?,
            string: str_opt(m, "string", &at)?.unwrap_or_default().to_owned(),
            audio,
            volume,
            balance,
        });
    }
    Ok(())
}

/// Reads the names of a skin-scoped list (`bones`, `ik`, ...) checking each one.
pub(crate) fn name_list(
    m: &Obj,
    key: &str,
    table: &HashMap<&str, usize>,
    what: &str,
    at: &Loc,
) -> R<Vec<String>> {
    let Some(list) = array_opt(m, key, at)? else {
        return Ok(Vec::new());
    };
    let at = at.key(key);
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let at = at.index(i);
        let s = as_str(v, &at)?;
        find(table, s, what, &at)?;
        out.push(s.to_owned());
    }
    Ok(out)
}
