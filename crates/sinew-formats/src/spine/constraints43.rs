//! The Spine 4.3 `constraints` array: one list of every constraint, each item with its
//! `type`, updated in array order (4.3 has no `order`). IK, path and physics items share the
//! 4.2 readers (`skeleton.rs`, which read the keys and defaults that changed); transform
//! constraints have the 4.3 form: `source`, `localSource`/`localTarget`, `additive`,
//! `clamp` and a `properties` mapping (each source property with an `offset` drives target
//! properties with their own `offset`, `max` and `scale`). Facts from spine-core 4.3.13
//! `SkeletonJson.readSkeletonData` (see `shared/oracle/spine43/README.md`).
//!
//! A transform constraint keeps its whole mapping ([`RawTransform::properties`]), posed by
//! the transform stage with 4.3's arithmetic (`sinew::constraint` transform43); IK items get
//! `IkSolver::Spine43` (4.3's thresholds, parent shear, `scaleY: volume`); sliders are
//! `RawSlider`s (their animation bound by name when the rig is built).
//!
//! Verified by `tests/all/spine43.rs` (every converted fixture loads as its 4.2 original; the
//! 4.3 defaults; the refusals name file, path and constraint) and the 4.3 golden suites of
//! sinew-cli (`golden_spine43_manifest`, `golden_spine43_own`).

use super::limits::MAX_CONSTRAINTS;
use super::skeleton::{Names, add_name, bone_list, find, ik_item, path_item, physics_item};
use crate::json::*;
use sinew::raw::*;
use sinew::types::{TransformFrom, TransformProperty, TransformTo};

/// Reads the 4.3 `constraints` array into the rig's per-kind lists, each with its array
/// index as its update order.
pub(crate) fn read_constraints<'j>(
    root: &'j Obj,
    rig: &mut RawRig,
    names: &mut Names<'j>,
    at: &Loc,
) -> R<()> {
    let Some(list) = array_opt(root, "constraints", at)? else {
        return Ok(());
    };
    let at = at.key("constraints");
    check_len(list.len(), MAX_CONSTRAINTS, "constraints", &at)?;
    for (i, v) in list.iter().enumerate() {
        let at = at.index(i);
        let m = as_obj(v, &at)?;
        let name = str_req(m, "name", &at)?;
        let at = at.named(name);
        // Fits: check_len capped the list at MAX_CONSTRAINTS.
        let order = i as u32;
        match str_req(m, "type", &at)? {
            "ik" => ik_item(m, name, order, rig, names, &at)?,
            "transform" => transform_item(m, name, order, rig, names, &at)?,
            "path" => path_item(m, name, order, "slot", rig, names, &at)?,
            "physics" => physics_item(m, name, order, rig, names, &at)?,
            "slider" => slider_item(m, name, order, rig, names, &at)?,
            other => {
                return at
                    .key("type")
                    .err(format!("unknown constraint type `{other}`"));
            }
        }
    }
    Ok(())
}

/// A 4.3 slider: its animation (bound by name when the rig is built), `additive`, `loop`,
/// `mix` (default 1) and either its own `time` or a driving `bone` with `property`, `from`,
/// `to`, `scale` (default 1), `max` and `local` (spine-core 4.3.13 `SkeletonJson`).
fn slider_item<'j>(
    m: &'j Obj,
    name: &'j str,
    order: u32,
    rig: &mut RawRig,
    names: &mut Names<'j>,
    at: &Loc,
) -> R<()> {
    add_name(&mut names.sliders, name, "slider", at)?;
    let bone = match str_opt(m, "bone", at)? {
        None => None,
        Some(bone) => {
            find(&names.bones, bone, "bone", &at.key("bone"))?;
            let property = property_named(str_req(m, "property", at)?, &at.key("property"))?;
            Some(RawSliderBone {
                bone: bone.to_owned(),
                property,
                from: f64_or(m, "from", 0.0, at)?,
                to: f64_or(m, "to", 0.0, at)?,
                scale: f64_or(m, "scale", 1.0, at)?,
                max: f64_or(m, "max", 0.0, at)?,
                local: bool_or(m, "local", false, at)?,
            })
        }
    };
    rig.sliders.push(RawSlider {
        name: name.to_owned(),
        order,
        skin_required: bool_or(m, "skin", false, at)?,
        animation: str_req(m, "animation", at)?.to_owned(),
        additive: bool_or(m, "additive", false, at)?,
        looping: bool_or(m, "loop", false, at)?,
        // 4.3 reads `time` only for a slider without a bone.
        time: if bone.is_none() {
            f64_or(m, "time", 0.0, at)?
        } else {
            0.0
        },
        mix: f64_or(m, "mix", 1.0, at)?,
        bone,
    });
    Ok(())
}

/// A 4.3 transform constraint: its property mapping ([`RawTransform::properties`], posed
/// with 4.3's arithmetic), `localSource` as `local`, `additive` as `relative`.
fn transform_item<'j>(
    m: &'j Obj,
    name: &'j str,
    order: u32,
    rig: &mut RawRig,
    names: &mut Names<'j>,
    at: &Loc,
) -> R<()> {
    let bones = bone_list(m, names, at)?;
    let source = str_req(m, "source", at)?;
    find(&names.bones, source, "source bone", &at.key("source"))?;
    add_name(&mut names.transforms, name, "transform constraint", at)?;
    let properties = read_properties(m, at)?;
    let driven = |p: TransformProperty| {
        properties
            .iter()
            .any(|f| f.to.iter().any(|t| t.property == p))
    };
    // 4.3 reads a mix only for a driven property; mixY and mixScaleY default to the mix
    // read before them (0 when that one is not driven).
    let mix = |p: TransformProperty, key: &str, default: f64| -> R<f64> {
        if driven(p) {
            f64_or(m, key, default, at)
        } else {
            Ok(0.0)
        }
    };
    use TransformProperty as P;
    let mix_x = mix(P::X, "mixX", 1.0)?;
    let mix_scale_x = mix(P::ScaleX, "mixScaleX", 1.0)?;
    rig.transforms.push(RawTransform {
        name: name.to_owned(),
        order,
        skin_required: bool_or(m, "skin", false, at)?,
        bones,
        target: source.to_owned(),
        local: bool_or(m, "localSource", false, at)?,
        relative: bool_or(m, "additive", false, at)?,
        offset_rotation: f64_or(m, "rotation", 0.0, at)?,
        offset_x: f64_or(m, "x", 0.0, at)?,
        offset_y: f64_or(m, "y", 0.0, at)?,
        offset_scale_x: f64_or(m, "scaleX", 0.0, at)?,
        offset_scale_y: f64_or(m, "scaleY", 0.0, at)?,
        offset_shear_y: f64_or(m, "shearY", 0.0, at)?,
        mix_rotate: mix(P::Rotate, "mixRotate", 1.0)?,
        mix_x,
        mix_y: mix(P::Y, "mixY", mix_x)?,
        mix_scale_x,
        mix_scale_y: mix(P::ScaleY, "mixScaleY", mix_scale_x)?,
        mix_shear_y: mix(P::ShearY, "mixShearY", 1.0)?,
        local_target: bool_or(m, "localTarget", false, at)?,
        clamp: bool_or(m, "clamp", false, at)?,
        properties,
    });
    Ok(())
}

/// A property name of `properties`.
fn property_named(name: &str, at: &Loc) -> R<TransformProperty> {
    use TransformProperty as P;
    Ok(match name {
        "rotate" => P::Rotate,
        "x" => P::X,
        "y" => P::Y,
        "scaleX" => P::ScaleX,
        "scaleY" => P::ScaleY,
        "shearY" => P::ShearY,
        _ => return at.err(format!("unknown transform property `{name}`")),
    })
}

/// Reads `properties`: each source property (`offset`, default 0) and the properties it
/// drives (`offset` 0, `max` 1, `scale` 1), in file order; a source driving nothing is
/// dropped, as 4.3 does.
fn read_properties(m: &Obj, at: &Loc) -> R<Vec<TransformFrom>> {
    let mut out = Vec::new();
    let Some(props) = obj_opt(m, "properties", at)? else {
        return Ok(out);
    };
    let at = at.key("properties");
    for (from, entry) in props {
        let at = at.key(from);
        let property = property_named(from, &at)?;
        let entry = as_obj(entry, &at)?;
        let offset = f64_or(entry, "offset", 0.0, &at)?;
        let mut to = Vec::new();
        if let Some(targets) = obj_opt(entry, "to", &at)? {
            let at = at.key("to");
            for (target, t) in targets {
                let at = at.key(target);
                let property = property_named(target, &at)?;
                let t = as_obj(t, &at)?;
                to.push(TransformTo {
                    property,
                    offset: f64_or(t, "offset", 0.0, &at)?,
                    max: f64_or(t, "max", 1.0, &at)?,
                    scale: f64_or(t, "scale", 1.0, &at)?,
                });
            }
        }
        if !to.is_empty() {
            out.push(TransformFrom {
                property,
                offset,
                to,
            });
        }
    }
    Ok(out)
}
