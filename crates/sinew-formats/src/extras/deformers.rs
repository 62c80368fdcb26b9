//! The `deformers` list of a rig-extras file: rotation and warp deformers on any rig's
//! meshes, nested, in the setup pose's world frame, riding a bone or not, with keys per
//! animation (`docs/EXTRAS.md`, "Deformers"). This reader checks shapes and values, naming
//! the JSON path; names are resolved by `sinew::character::deformer_rig::DeformerRig::build`
//! (whose problems the loader points at `$.deformers[i]`). [`write_deformers`] is its
//! mirror. Built with the crate's `rig-deformers` feature only.
//!
//! ```json
//! "deformers": [
//!   { "name": "body", "type": "warp", "origin": [-60, 20], "size": [120, 200],
//!     "cols": 2, "rows": 2, "bone": "torso", "slots": ["torso"] },
//!   { "name": "flap", "type": "rotation", "pivot": [0, 150], "angle": 0, "scale": 1,
//!     "parent": "body", "slots": [{ "slot": "cape", "attachment": "cape" }],
//!     "animations": { "walk": [ { "time": 0, "angle": 0 },
//!                               { "time": 0.5, "angle": 20, "curve": "stepped" } ] } }
//! ]
//! ```

use super::{Fields, MAX_ITEMS};
use crate::json::*;
use serde_json::{Map, Value, json};
use sinew::character::deformer_rig::{
    DeformerDesc, DeformerDescKind, DeformerKey, DeformerKeysDesc, DeformerTargetDesc,
    MAX_WARP_POINTS,
};

const ROTATION: &[&str] = &["pivot", "angle", "scale"];
const WARP: &[&str] = &["origin", "size", "cols", "rows"];

/// Reads `deformers` (absent: none).
pub(super) fn read_deformers(f: &Fields, at: &Loc) -> R<Vec<DeformerDesc>> {
    let da = at.key("deformers");
    let mut out = Vec::new();
    for (i, v) in f.array("deformers")?.iter().enumerate() {
        out.push(read_deformer(v, &da.index(i))?);
    }
    Ok(out)
}

fn read_deformer(v: &Value, at: &Loc) -> R<DeformerDesc> {
    let f = Fields::new(
        v,
        at,
        &[
            "name",
            "type",
            "pivot",
            "angle",
            "scale",
            "origin",
            "size",
            "cols",
            "rows",
            "parent",
            "bone",
            "slots",
            "animations",
        ],
    )?;
    let name = f.required_string("name")?.to_owned();
    let ty = f.required_string("type")?;
    // Which members each type takes: the other type's are refused (a typo or a leftover).
    let other = match ty {
        "rotation" => WARP,
        "warp" => ROTATION,
        t => return Err(f.err("type", format!("unknown type `{t}` (rotation, warp)"))),
    };
    if let Some(key) = other.iter().find(|k| f.get(k).is_some()) {
        return Err(f.err(key, format!("is not used by `type: {ty}`")));
    }
    let kind = if ty == "rotation" {
        DeformerDescKind::Rotation {
            pivot: f.vec2("pivot", [0.0, 0.0])?,
            angle: f.num_or("angle", 0.0)?,
            scale: f.num_or("scale", 1.0)?,
        }
    } else {
        let size = match f.get("size") {
            None => return f.at.missing("size"),
            Some(_) => f.vec2("size", [0.0, 0.0])?,
        };
        if !size.iter().all(|v| *v > 0.0) {
            return Err(f.err("size", "expected a width and a height > 0"));
        }
        let cells = |key: &str| -> R<u16> {
            match f.get(key) {
                None => f.at.missing(key),
                Some(v) => {
                    let n = as_uint(v, u64::from(u16::MAX), &f.at.key(key))?;
                    if n == 0 {
                        return Err(f.err(key, "expected 1 cell or more"));
                    }
                    Ok(n as u16)
                }
            }
        };
        let (cols, rows) = (cells("cols")?, cells("rows")?);
        let points = (usize::from(cols) + 1) * (usize::from(rows) + 1);
        if points > MAX_WARP_POINTS {
            return Err(f.err(
                "cols",
                format!("{points} lattice points (at most {MAX_WARP_POINTS})"),
            ));
        }
        DeformerDescKind::Warp {
            origin: f.vec2("origin", [0.0, 0.0])?,
            size,
            cols,
            rows,
        }
    };
    let mut d = DeformerDesc::new(name, kind, &[]);
    d.parent = f.string("parent")?.map(str::to_owned);
    d.bone = f.string("bone")?.map(str::to_owned);
    let sa = f.at.key("slots");
    for (i, s) in f.array("slots")?.iter().enumerate() {
        let ta = sa.index(i);
        d.targets.push(match s {
            Value::String(slot) => DeformerTargetDesc {
                slot: slot.clone(),
                attachment: None,
            },
            _ => {
                let t = Fields::new(s, &ta, &["slot", "attachment"])?;
                DeformerTargetDesc {
                    slot: t.required_string("slot")?.to_owned(),
                    attachment: t.string("attachment")?.map(str::to_owned),
                }
            }
        });
    }
    if let Some(map) = obj_opt(f.map, "animations", &f.at)? {
        let aa = f.at.key("animations");
        check_len(map.len(), MAX_ITEMS, "animations", &aa)?;
        for (anim, keys) in map {
            if anim.starts_with('_') {
                continue;
            }
            d.animations.push(DeformerKeysDesc {
                animation: anim.clone(),
                keys: read_keys(keys, &kind, &aa.key(anim))?,
            });
        }
    }
    Ok(d)
}

fn read_keys(v: &Value, kind: &DeformerDescKind, at: &Loc) -> R<Vec<DeformerKey>> {
    let keys = as_array(v, at)?;
    check_len(keys.len(), MAX_ITEMS, "keys", at)?;
    if keys.is_empty() {
        return at.err("expected one key or more");
    }
    let channels = kind.channels();
    let mut out = Vec::with_capacity(keys.len());
    let mut last = 0.0;
    for (i, k) in keys.iter().enumerate() {
        let ka = at.index(i);
        let f = match kind {
            DeformerDescKind::Rotation { .. } => {
                Fields::new(k, &ka, &["time", "curve", "angle", "scale", "x", "y"])?
            }
            DeformerDescKind::Warp { .. } => Fields::new(k, &ka, &["time", "curve", "offsets"])?,
        };
        let time = f.num_or("time", 0.0)?;
        if !(time.is_finite() && time >= last) {
            return Err(f.err(
                "time",
                JsonIssue::range("seconds >= 0, not before the key above", time),
            ));
        }
        last = time;
        let values = match kind {
            DeformerDescKind::Rotation { .. } => vec![
                f.num_or("angle", 0.0)?,
                f.num_or("scale", 0.0)?,
                f.num_or("x", 0.0)?,
                f.num_or("y", 0.0)?,
            ],
            DeformerDescKind::Warp { .. } => {
                let Some(o) = f.get("offsets") else {
                    return ka.missing("offsets");
                };
                let oa = ka.key("offsets");
                let list = as_array(o, &oa)?;
                if 2 * list.len() != channels {
                    return Err(f.err(
                        "offsets",
                        format!("{} offsets for {} lattice points", list.len(), channels / 2),
                    ));
                }
                let mut values = Vec::with_capacity(channels);
                for (j, p) in list.iter().enumerate() {
                    let pa = oa.index(j);
                    match as_array(p, &pa)? {
                        [x, y] => {
                            values.extend([as_f64(x, &pa.index(0))?, as_f64(y, &pa.index(1))?])
                        }
                        a => {
                            return pa.err(format!("expected [dx, dy], found {} numbers", a.len()));
                        }
                    }
                }
                values
            }
        };
        out.push(DeformerKey {
            time,
            curve: super::cues::read_curve(&f)?,
            values,
        });
    }
    Ok(out)
}

/// The `deformers` list as [`read_deformers`] reads it.
pub(super) fn write_deformers(list: &[DeformerDesc]) -> Value {
    Value::Array(list.iter().map(write_deformer).collect())
}

fn write_deformer(d: &DeformerDesc) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(d.name));
    match d.kind {
        DeformerDescKind::Rotation {
            pivot,
            angle,
            scale,
        } => {
            m.insert("type".into(), json!("rotation"));
            m.insert("pivot".into(), json!(pivot));
            m.insert("angle".into(), json!(angle));
            m.insert("scale".into(), json!(scale));
        }
        DeformerDescKind::Warp {
            origin,
            size,
            cols,
            rows,
        } => {
            m.insert("type".into(), json!("warp"));
            m.insert("origin".into(), json!(origin));
            m.insert("size".into(), json!(size));
            m.insert("cols".into(), json!(cols));
            m.insert("rows".into(), json!(rows));
        }
    }
    if let Some(p) = &d.parent {
        m.insert("parent".into(), json!(p));
    }
    if let Some(b) = &d.bone {
        m.insert("bone".into(), json!(b));
    }
    let slots: Vec<Value> = d
        .targets
        .iter()
        .map(|t| match &t.attachment {
            None => json!(t.slot),
            Some(a) => json!({ "slot": t.slot, "attachment": a }),
        })
        .collect();
    m.insert("slots".into(), Value::Array(slots));
    if !d.animations.is_empty() {
        let mut a = Map::new();
        for k in &d.animations {
            let keys = k.keys.iter().map(|key| write_key(&d.kind, key)).collect();
            a.insert(k.animation.clone(), Value::Array(keys));
        }
        m.insert("animations".into(), Value::Object(a));
    }
    Value::Object(m)
}

/// One key; values the kind cannot hold (a count that is not its own) are written as far
/// as they fit, so that `try_write_extras` finds them changed and refuses them.
fn write_key(kind: &DeformerDescKind, key: &DeformerKey) -> Value {
    let mut o = Map::new();
    o.insert("time".into(), json!(key.time));
    super::write::curve(&mut o, key.curve);
    match kind {
        DeformerDescKind::Rotation { .. } => {
            for (i, name) in ["angle", "scale", "x", "y"].iter().enumerate() {
                if let Some(v) = key.values.get(i) {
                    o.insert((*name).into(), json!(v));
                }
            }
        }
        DeformerDescKind::Warp { .. } => {
            let pairs: Vec<[f64; 2]> = key.values.chunks_exact(2).map(|p| [p[0], p[1]]).collect();
            o.insert("offsets".into(), json!(pairs));
        }
    }
    Value::Object(o)
}
