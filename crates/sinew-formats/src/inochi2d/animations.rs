//! The puppet's `animations` (inochi2d.md §7) into [`ParamAnimation`]s: per animation
//! `timestep`, `length`, `leadIn`, `leadOut`, `additive`, `animationWeight` and `lanes`; per
//! lane the parameter `uuid` (resolved to the parameter's index, the [`ParamId`] the built rig
//! gives it), the axis `target`, `interpolation`, `merge_mode` and `keyframes` (sorted by
//! frame, stably). Every count is capped and every number checked; errors name the
//! animation and the lane index. Verified by `tests/all/inochi2d_anim.rs`.

use crate::json::{Problem, R};
use serde_json::Value;
use sinew::ParamId;
use sinew::params::inochi_clip::{AnimLane, Keyframe, LaneInterp, LaneMerge, ParamAnimation};
use std::collections::HashMap;

/// Most animations accepted.
pub const MAX_ANIMATIONS: usize = 4096;
/// Most lanes in one animation.
pub const MAX_LANES: usize = 4096;
/// Most keyframes in one lane.
pub const MAX_KEYFRAMES: usize = 65_536;
/// Most keyframes in all animations together.
pub const MAX_TOTAL_KEYFRAMES: usize = 1 << 22;
/// Longest animation, frames.
pub const MAX_LENGTH: u64 = 1 << 24;

/// The parameter uuids in the order the parameters were read (Creator groups flattened, as
/// `params::read_params` does).
fn param_uuids(root: &Value) -> HashMap<u64, usize> {
    let list = root
        .get("param")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let mut out = HashMap::new();
    let mut n = 0usize;
    let mut push = |v: &Value| {
        // A repeated uuid names the later parameter, as the loader's own lookup does.
        if let Some(u) = v.get("uuid").and_then(Value::as_u64) {
            out.insert(u, n);
        }
        n += 1;
    };
    for e in list {
        if e.get("groupUUID").is_some() || (e.get("children").is_some() && e.get("uuid").is_none())
        {
            for c in e
                .get("children")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or(&[])
            {
                push(c);
            }
        } else {
            push(e);
        }
    }
    out
}

/// Reads `animations`; `param_count` is the number of parameters read.
pub(crate) fn read_animations(root: &Value, param_count: usize) -> R<Vec<ParamAnimation>> {
    let map = match root.get("animations") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Object(m)) => m,
        Some(_) => {
            return Err(Problem::at(
                "$.animations",
                None,
                "`animations` must be an object",
            ));
        }
    };
    if map.len() > MAX_ANIMATIONS {
        return Err(Problem::at(
            "$.animations",
            None,
            format!("{} animations (at most {MAX_ANIMATIONS})", map.len()),
        ));
    }
    let uuids = param_uuids(root);
    if uuids.values().any(|&i| i >= param_count) {
        return Err(Problem::at(
            "$.param",
            None,
            "parameter uuids do not match the parameters read",
        ));
    }
    let mut total = 0usize;
    let mut out = Vec::with_capacity(map.len());
    for (name, a) in map {
        out.push(read_animation(name, a, &uuids, &mut total)?);
    }
    Ok(out)
}

fn read_animation(
    name: &str,
    a: &Value,
    uuids: &HashMap<u64, usize>,
    total: &mut usize,
) -> R<ParamAnimation> {
    let path = format!("$.animations.{name}");
    let bad = |msg: String| Problem::at(&path, Some(name), format!("animation `{name}`: {msg}"));
    if !a.is_object() {
        return Err(bad("must be an object".into()));
    }
    let num = |k: &str, d: f64| -> R<f64> {
        match a.get(k) {
            None | Some(Value::Null) => Ok(d),
            Some(v) => v
                .as_f64()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(format!("`{k}` must be a finite number"))),
        }
    };
    let timestep = num("timestep", 0.0166)?;
    if timestep <= 0.0 {
        return Err(bad(format!("`timestep` {timestep} must be positive")));
    }
    let length = num("length", 0.0)?;
    if !(0.0..=MAX_LENGTH as f64).contains(&length) {
        return Err(bad(format!("`length` {length} must be 0..={MAX_LENGTH}")));
    }
    let length = length.round() as u32;
    // Lead-in/out are frames; -1 (the default) or anything outside the clip means none.
    let lead = |k: &str, ok: &dyn Fn(f64) -> bool| -> R<Option<u32>> {
        let v = num(k, -1.0)?;
        Ok((v >= 0.0 && v <= f64::from(length) && ok(v)).then(|| v.round() as u32))
    };
    // COMPAT(inochi2d): the reference loops back at `leadOut` whenever it is below the
    // length, so its default -1 would loop on frame 0 forever; sinew reads it as none.
    let lead_in = lead("leadIn", &|v| v > 0.0)?;
    let lead_out = lead("leadOut", &|v| v < f64::from(length))?;
    let additive = match a.get("additive") {
        None | Some(Value::Null) => false,
        Some(v) => v
            .as_bool()
            .ok_or_else(|| bad("`additive` must be true or false".into()))?,
    };
    let weight = num("animationWeight", 1.0)?;
    let lanes_json = match a.get("lanes") {
        None | Some(Value::Null) => &[][..],
        Some(v) => v
            .as_array()
            .map(Vec::as_slice)
            .ok_or_else(|| bad("`lanes` must be a list".into()))?,
    };
    if lanes_json.len() > MAX_LANES {
        return Err(bad(format!(
            "{} lanes (at most {MAX_LANES})",
            lanes_json.len()
        )));
    }
    let mut lanes = Vec::with_capacity(lanes_json.len());
    for (li, l) in lanes_json.iter().enumerate() {
        let lpath = format!("{path}.lanes[{li}]");
        let bad = |msg: String| {
            Problem::at(
                &lpath,
                Some(name),
                format!("animation `{name}` lane {li}: {msg}"),
            )
        };
        let uuid = l
            .get("uuid")
            .and_then(Value::as_u64)
            .ok_or_else(|| bad("has no numeric `uuid`".into()))?;
        let param = *uuids
            .get(&uuid)
            .ok_or_else(|| bad(format!("unknown parameter uuid {uuid}")))?;
        let component = match l.get("target").map(Value::as_u64) {
            None => 0,
            Some(Some(c @ (0 | 1))) => c as u8,
            Some(_) => return Err(bad("`target` must be 0 or 1".into())),
        };
        let interp = match l.get("interpolation") {
            None | Some(Value::Null) => LaneInterp::Linear,
            Some(v) => {
                let s = v.as_str().unwrap_or("");
                LaneInterp::from_name(s).ok_or_else(|| {
                    bad(format!(
                        "unknown interpolation {v} (Nearest, Stepped, Linear, Cubic, Bezier)"
                    ))
                })?
            }
        };
        let merge = match l.get("merge_mode") {
            None | Some(Value::Null) => LaneMerge::Passthrough,
            Some(v) => LaneMerge::from_name(v.as_str().unwrap_or(""))
                .ok_or_else(|| bad(format!("unknown merge_mode {v}")))?,
        };
        let frames = match l.get("keyframes") {
            None | Some(Value::Null) => &[][..],
            Some(v) => v
                .as_array()
                .map(Vec::as_slice)
                .ok_or_else(|| bad("`keyframes` must be a list".into()))?,
        };
        if frames.len() > MAX_KEYFRAMES {
            return Err(bad(format!(
                "{} keyframes (at most {MAX_KEYFRAMES})",
                frames.len()
            )));
        }
        *total += frames.len();
        if *total > MAX_TOTAL_KEYFRAMES {
            return Err(bad(format!(
                "more than {MAX_TOTAL_KEYFRAMES} keyframes in all animations"
            )));
        }
        let mut keys = Vec::with_capacity(frames.len());
        for (ki, k) in frames.iter().enumerate() {
            let field = |f: &str, d: Option<f64>| -> R<f64> {
                match (k.get(f), d) {
                    (None | Some(Value::Null), Some(d)) => Ok(d),
                    (v, _) => v
                        .and_then(Value::as_f64)
                        .filter(|x| x.is_finite() && x.abs() <= f64::from(f32::MAX))
                        .ok_or_else(|| bad(format!("keyframes[{ki}].{f} must be a finite number"))),
                }
            };
            keys.push(Keyframe {
                frame: field("frame", None)? as f32,
                value: field("value", None)? as f32,
                tension: field("tension", Some(0.5))? as f32,
            });
        }
        keys.sort_by(|a, b| a.frame.total_cmp(&b.frame));
        lanes.push(AnimLane {
            param: ParamId(param as u16),
            component,
            interp,
            merge,
            keys,
        });
    }
    Ok(ParamAnimation {
        name: name.to_owned(),
        timestep,
        length,
        lead_in,
        lead_out,
        additive,
        weight,
        lanes,
    })
}
