//! The Spine 4.3 `constraints` array: one list of every constraint, each item with its
//! `type`, updated in array order (4.3 has no `order`). IK, path and physics items share the
//! 4.2 readers (`skeleton.rs`, which read the keys and defaults that changed); transform
//! constraints have the 4.3 form: `source`, `localSource`/`localTarget`, `additive`,
//! `clamp` and a `properties` mapping (each source property with an `offset` drives target
//! properties with their own `offset`, `max` and `scale`). Facts from spine-core 4.3.13
//! `SkeletonJson.readSkeletonData` (see `shared/oracle/spine43/README.md`).
//!
//! The rig model poses a transform constraint the 4.2 way: a mapping that 4.2 can express
//! (each property drives itself, identity offsets and scale, both sides local or both world,
//! no clamp, in 4.2's order) becomes a [`RawTransform`]; any other mapping, a slider, and IK
//! `scaleY: volume` are refused with a typed error naming the constraint, not posed wrongly.
//!
//! Verified by `tests/all/spine43.rs` (every converted fixture loads; the refusals name file,
//! path and constraint) and the 4.3 golden suite of sinew-cli.

use super::limits::MAX_CONSTRAINTS;
use super::skeleton::{Names, add_name, bone_list, find, ik_item, path_item, physics_item};
use crate::json::*;
use sinew::raw::*;

/// The transform properties in the order 4.2 applies them (and the converter writes them).
const PROPERTIES: [&str; 6] = ["rotate", "x", "y", "scaleX", "scaleY", "shearY"];

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
            "slider" => {
                return at.key("type").err(JsonIssue::Other(
                    "slider constraints (Spine 4.3) are not supported yet".into(),
                ));
            }
            other => {
                return at
                    .key("type")
                    .err(format!("unknown constraint type `{other}`"));
            }
        }
    }
    Ok(())
}

/// A 4.3 transform constraint as the 4.2 model's [`RawTransform`].
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
    let local_source = bool_or(m, "localSource", false, at)?;
    let local_target = bool_or(m, "localTarget", false, at)?;
    if local_source != local_target {
        return at.key("localTarget").err(unsupported(
            "a local source with a world target (or the reverse)",
        ));
    }
    if bool_or(m, "clamp", false, at)? {
        return at.key("clamp").err(unsupported("`clamp`"));
    }
    let driven = read_properties(m, at)?;
    let has = |p: usize| driven[p];
    // 4.3 reads a mix only for a driven property; mixY and mixScaleY default to the mix
    // read before them (0 when that one is not driven).
    let mix = |p: usize, key: &str, default: f64| -> R<f64> {
        if has(p) {
            f64_or(m, key, default, at)
        } else {
            Ok(0.0)
        }
    };
    let mix_x = mix(1, "mixX", 1.0)?;
    let mix_scale_x = mix(3, "mixScaleX", 1.0)?;
    rig.transforms.push(RawTransform {
        name: name.to_owned(),
        order,
        skin_required: bool_or(m, "skin", false, at)?,
        bones,
        target: source.to_owned(),
        local: local_source,
        relative: bool_or(m, "additive", false, at)?,
        offset_rotation: f64_or(m, "rotation", 0.0, at)?,
        offset_x: f64_or(m, "x", 0.0, at)?,
        offset_y: f64_or(m, "y", 0.0, at)?,
        offset_scale_x: f64_or(m, "scaleX", 0.0, at)?,
        offset_scale_y: f64_or(m, "scaleY", 0.0, at)?,
        offset_shear_y: f64_or(m, "shearY", 0.0, at)?,
        mix_rotate: mix(0, "mixRotate", 1.0)?,
        mix_x,
        mix_y: mix(2, "mixY", mix_x)?,
        mix_scale_x,
        mix_scale_y: mix(4, "mixScaleY", mix_scale_x)?,
        mix_shear_y: mix(5, "mixShearY", 1.0)?,
    });
    Ok(())
}

/// Reads `properties` and returns which of [`PROPERTIES`] are driven, refusing a mapping
/// the 4.2 model cannot pose (a property driving another, an offset, a scale other than 1,
/// an order other than 4.2's).
fn read_properties(m: &Obj, at: &Loc) -> R<[bool; 6]> {
    let mut driven = [false; 6];
    let Some(props) = obj_opt(m, "properties", at)? else {
        return Ok(driven);
    };
    let at = at.key("properties");
    let mut last = None;
    for (from, entry) in props {
        let at = at.key(from);
        let Some(index) = PROPERTIES.iter().position(|p| p == from) else {
            return at.err(format!("unknown transform property `{from}`"));
        };
        let entry = as_obj(entry, &at)?;
        if f64_or(entry, "offset", 0.0, &at)? != 0.0 {
            return at
                .key("offset")
                .err(unsupported("a source property offset"));
        }
        let Some(to) = obj_opt(entry, "to", &at)? else {
            continue;
        };
        let at = at.key("to");
        for (target, t) in to {
            let at = at.key(target);
            if !PROPERTIES.contains(&target.as_str()) {
                return at.err(format!("unknown transform property `{target}`"));
            }
            if target != from {
                return at.err(unsupported(&format!("`{from}` driving `{target}`")));
            }
            let t = as_obj(t, &at)?;
            // `max` only matters with `clamp`, refused above.
            if f64_or(t, "offset", 0.0, &at)? != 0.0 {
                return at
                    .key("offset")
                    .err(unsupported("a target property offset"));
            }
            if f64_or(t, "scale", 1.0, &at)? != 1.0 {
                return at
                    .key("scale")
                    .err(unsupported("a property scale other than 1"));
            }
        }
        if to.is_empty() {
            continue;
        }
        if last.is_some_and(|l| l >= index) {
            return at.err(unsupported(
                "properties in another order than rotate, x, y, scaleX, scaleY, shearY",
            ));
        }
        last = Some(index);
        driven[index] = true;
    }
    Ok(driven)
}

/// The refusal of a 4.3 transform-constraint feature the runtime does not pose yet.
fn unsupported(what: &str) -> JsonIssue {
    JsonIssue::Other(format!(
        "transform constraint with {what} (Spine 4.3) is not supported yet"
    ))
}
