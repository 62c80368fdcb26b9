//! The `shapes` list of a rig-extras file: example shapes of a slot's mesh (each its
//! offsets from the setup pose, in the setup pose's world frame) blended by weight tracks
//! per animation and by the host (`docs/EXTRAS.md`, "Example shapes"). This reader checks
//! shapes and values, naming the JSON path; names are resolved by
//! `sinew::character::shape_rig::ShapeRig::build` (whose problems the loader points at
//! `$.shapes[i]`). [`write_shapes`] is its mirror.
//!
//! ```json
//! "shapes": [
//!   { "name": "mouth", "slot": "head", "attachment": "face",
//!     "examples": [ { "name": "open", "offsets": [[0, 0], [0, -6], [0, -6], [0, 0]] } ],
//!     "animations": { "talk": { "open": [ { "time": 0, "value": 0 }, { "time": 0.2, "value": 1 } ] } } }
//! ]
//! ```

use super::{Fields, MAX_ITEMS};
use crate::json::*;
use serde_json::{Map, Value, json};
use sinew::character::shape_rig::{ExampleDesc, MAX_EXAMPLES, ShapeSetDesc, ShapeTrackDesc};
use sinew::physics::jiggle::CueKey;

/// Most vertices an example may offset.
const MAX_VERTICES: usize = 65_536;

/// Reads `shapes` (absent: none).
pub(super) fn read_shapes(f: &Fields, at: &Loc) -> R<Vec<ShapeSetDesc>> {
    let sa = at.key("shapes");
    let mut out = Vec::new();
    for (i, v) in f.array("shapes")?.iter().enumerate() {
        out.push(read_set(v, &sa.index(i))?);
    }
    Ok(out)
}

fn read_set(v: &Value, at: &Loc) -> R<ShapeSetDesc> {
    let f = Fields::new(
        v,
        at,
        &["name", "slot", "attachment", "examples", "animations"],
    )?;
    let mut d = ShapeSetDesc {
        name: f.required_string("name")?.to_owned(),
        slot: f.required_string("slot")?.to_owned(),
        attachment: f.string("attachment")?.map(str::to_owned),
        examples: Vec::new(),
        tracks: Vec::new(),
    };
    let ea = f.at.key("examples");
    let list = f.array("examples")?;
    if list.is_empty() || list.len() > MAX_EXAMPLES {
        return Err(f.err(
            "examples",
            format!("{} examples (1 to {MAX_EXAMPLES})", list.len()),
        ));
    }
    for (i, e) in list.iter().enumerate() {
        let xa = ea.index(i);
        let x = Fields::new(e, &xa, &["name", "offsets"])?;
        let Some(o) = x.get("offsets") else {
            return x.at.missing("offsets");
        };
        let oa = x.at.key("offsets");
        let pts = as_array(o, &oa)?;
        check_len(pts.len(), MAX_VERTICES, "offsets", &oa)?;
        let mut offsets = Vec::with_capacity(pts.len());
        for (k, p) in pts.iter().enumerate() {
            let pa = oa.index(k);
            match as_array(p, &pa)? {
                [x, y] => offsets.push([as_f64(x, &pa.index(0))?, as_f64(y, &pa.index(1))?]),
                a => return pa.err(format!("expected [dx, dy], found {} numbers", a.len())),
            }
        }
        d.examples.push(ExampleDesc {
            name: x.required_string("name")?.to_owned(),
            offsets,
        });
    }
    if let Some(map) = obj_opt(f.map, "animations", &f.at)? {
        let aa = f.at.key("animations");
        check_len(map.len(), MAX_ITEMS, "animations", &aa)?;
        for (anim, examples) in map {
            if anim.starts_with('_') {
                continue;
            }
            let xa = aa.key(anim);
            let examples = as_obj(examples, &xa)?;
            check_len(examples.len(), MAX_EXAMPLES, "examples", &xa)?;
            for (example, keys) in examples {
                if example.starts_with('_') {
                    continue;
                }
                d.tracks.push(ShapeTrackDesc {
                    animation: anim.clone(),
                    example: example.clone(),
                    keys: read_keys(keys, &xa.key(example))?,
                });
            }
        }
    }
    Ok(d)
}

fn read_keys(v: &Value, at: &Loc) -> R<Vec<CueKey>> {
    let keys = as_array(v, at)?;
    check_len(keys.len(), MAX_ITEMS, "keys", at)?;
    if keys.is_empty() {
        return at.err("expected one key or more");
    }
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
        let Some(value) = f.num("value")? else {
            return ka.missing("value");
        };
        if !(-10.0..=10.0).contains(&value) {
            return Err(f.err("value", JsonIssue::range("a weight in -10..10", value)));
        }
        out.push(CueKey {
            time,
            value,
            curve: super::cues::read_curve(&f)?,
        });
    }
    Ok(out)
}

/// The `shapes` list as [`read_shapes`] reads it (each animation's tracks grouped under
/// its name, in the order of their first track).
pub(super) fn write_shapes(sets: &[ShapeSetDesc]) -> Value {
    Value::Array(sets.iter().map(write_set).collect())
}

fn write_set(d: &ShapeSetDesc) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(d.name));
    m.insert("slot".into(), json!(d.slot));
    if let Some(a) = &d.attachment {
        m.insert("attachment".into(), json!(a));
    }
    let examples: Vec<Value> = d
        .examples
        .iter()
        .map(|e| json!({ "name": e.name, "offsets": e.offsets }))
        .collect();
    m.insert("examples".into(), Value::Array(examples));
    if !d.tracks.is_empty() {
        let mut anims = Map::new();
        for t in &d.tracks {
            let keys = t
                .keys
                .iter()
                .map(|k| {
                    let mut o = Map::new();
                    o.insert("time".into(), json!(k.time));
                    o.insert("value".into(), json!(k.value));
                    super::write::curve(&mut o, k.curve);
                    Value::Object(o)
                })
                .collect();
            let entry = anims
                .entry(t.animation.clone())
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(e) = entry {
                e.insert(t.example.clone(), Value::Array(keys));
            }
        }
        m.insert("animations".into(), Value::Object(anims));
    }
    Value::Object(m)
}
