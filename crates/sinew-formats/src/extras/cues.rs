//! The `animations` member of a rig-extras file's `jiggle` section: per animation, key
//! tracks of chains' `strength`, `stiffness` and `damping` (scales), and `events` that fade
//! chains' strength (`docs/EXTRAS.md`, "Jiggle under the animator's control").
//!
//! ```json
//! "animations": {
//!   "death": {
//!     "strength": { "cape": [ { "time": 0, "value": 1 }, { "time": 0.5, "value": 0 } ] },
//!     "stiffness": { "*": [ { "time": 0, "value": 2, "curve": "stepped" } ] },
//!     "events": [ { "time": 0.2, "chain": "hair", "strength": 0, "fade": 0.3 } ]
//!   }
//! }
//! ```
//!
//! Chain `*` is every chain. Names are resolved by `JiggleRig::build`; this reader checks
//! shapes and values, naming the JSON path.

use super::{Fields, MAX_ITEMS};
use crate::json::*;
use serde_json::Value;
use sinew::physics::jiggle::{
    AnimCuesDesc, CueCurve, CueKey, CueProperty, CueTrackDesc, FadeEventDesc,
};

/// Reads `animations` (absent: none).
pub(super) fn read_animations(f: &Fields, at: &Loc) -> R<Vec<AnimCuesDesc>> {
    let Some(map) = obj_opt(f.map, "animations", &f.at)? else {
        return Ok(Vec::new());
    };
    let aa = at.key("animations");
    check_len(map.len(), MAX_ITEMS, "animations", &aa)?;
    let mut out = Vec::with_capacity(map.len());
    for (name, v) in map {
        if name.starts_with('_') {
            continue;
        }
        let at = aa.key(name);
        let a = Fields::new(v, &at, &["strength", "stiffness", "damping", "events"])?;
        let mut cues = AnimCuesDesc {
            animation: name.clone(),
            ..Default::default()
        };
        for (pname, property) in CueProperty::ALL {
            let Some(chains) = obj_opt(a.map, pname, &at)? else {
                continue;
            };
            let pa = at.key(pname);
            check_len(chains.len(), MAX_ITEMS, "chains", &pa)?;
            for (chain, keys) in chains {
                if chain.starts_with('_') {
                    continue;
                }
                let ca = pa.key(chain);
                cues.tracks.push(CueTrackDesc {
                    chain: (chain != "*").then(|| chain.clone()),
                    property,
                    keys: read_keys(keys, property, &ca)?,
                });
            }
        }
        let ea = at.key("events");
        for (i, e) in a.array("events")?.iter().enumerate() {
            cues.events.push(read_event(e, &ea.index(i))?);
        }
        out.push(cues);
    }
    Ok(out)
}

fn read_keys(v: &Value, property: CueProperty, at: &Loc) -> R<Vec<CueKey>> {
    let keys = as_array(v, at)?;
    check_len(keys.len(), MAX_ITEMS, "keys", at)?;
    if keys.is_empty() {
        return at.err("expected one key or more");
    }
    let (lo, hi) = property.range();
    let mut out = Vec::with_capacity(keys.len());
    let mut last = 0.0;
    for (i, k) in keys.iter().enumerate() {
        let ka = at.index(i);
        let f = Fields::new(k, &ka, &["time", "value", "curve"])?;
        let time = f.num_or("time", 0.0)?;
        if !(time.is_finite() && time >= last) {
            return Err(f.err(
                "time",
                JsonIssue::range("seconds >= 0, not before the key above", time),
            ));
        }
        last = time;
        let value = match f.num("value")? {
            Some(v) => v,
            None => return ka.missing("value"),
        };
        if !(value >= lo && value <= hi) {
            return Err(f.err(
                "value",
                JsonIssue::range(format!("a number in {lo}..{hi}"), value),
            ));
        }
        out.push(CueKey {
            time,
            value,
            curve: read_curve(&f)?,
        });
    }
    Ok(out)
}

/// A key's `curve` (absent: linear); cage point keys read it too.
pub(super) fn read_curve(f: &Fields) -> R<CueCurve> {
    let at = f.at.key("curve");
    match f.get("curve") {
        None => Ok(CueCurve::Linear),
        Some(Value::String(s)) => match s.as_str() {
            "linear" => Ok(CueCurve::Linear),
            "stepped" => Ok(CueCurve::Stepped),
            other => at.err(format!(
                "unknown curve `{other}` (linear, stepped, [x1, y1, x2, y2])"
            )),
        },
        Some(Value::Array(a)) if a.len() == 4 => {
            let mut c = [0.0; 4];
            for (i, (v, out)) in a.iter().zip(&mut c).enumerate() {
                *out = as_f64(v, &at.index(i))?;
            }
            if !((0.0..=1.0).contains(&c[0]) && (0.0..=1.0).contains(&c[2])) {
                return at.err("expected x1 and x2 in 0..1");
            }
            Ok(CueCurve::Bezier(c))
        }
        Some(v) => at.wrong_type("\"linear\", \"stepped\" or [x1, y1, x2, y2]", v),
    }
}

fn read_event(v: &Value, at: &Loc) -> R<FadeEventDesc> {
    let f = Fields::new(v, at, &["time", "chain", "strength", "fade"])?;
    let time = f.num_or("time", 0.0)?;
    if !(time.is_finite() && time >= 0.0) {
        return Err(f.err("time", JsonIssue::range("seconds >= 0", time)));
    }
    let strength = match f.num("strength")? {
        Some(s) => s,
        None => return at.missing("strength"),
    };
    if !(0.0..=1.0).contains(&strength) {
        return Err(f.err("strength", JsonIssue::range("a number in 0..1", strength)));
    }
    let fade = f.num_or("fade", 0.0)?;
    if !(fade.is_finite() && fade >= 0.0) {
        return Err(f.err("fade", JsonIssue::range("seconds >= 0", fade)));
    }
    Ok(FadeEventDesc {
        time,
        chain: f.string("chain")?.map(str::to_owned),
        strength,
        fade,
    })
}
