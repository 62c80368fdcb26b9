//! The `cages` list of a rig-extras file: mean value cages bound to a slot's mesh in the
//! setup pose, driven by bones, by the mesh's own vertices or by the host, with point keys
//! per animation (`docs/EXTRAS.md`, "Cages"). This reader checks shapes and values, naming
//! the JSON path; names are resolved by `sinew::character::cage_rig::CageRig::build`
//! (whose problems the loader points at `$.cages[i]`). [`write_cages`] is its mirror.
//!
//! ```json
//! "cages": [
//!   { "name": "belly", "slot": "body", "attachment": "body", "drive": "bones",
//!     "bones": ["hip", "chest"], "weights": [[1, 0], [1, 0], [0, 1], [0, 1]],
//!     "mode": "replace", "loops": [ [[0, 0], [80, 0], [80, 60], [0, 60]] ],
//!     "animations": { "breathe": [ { "time": 0, "offsets": [[0, 0], [0, 0], [0, 0], [0, 0]] },
//!                                  { "time": 1, "offsets": [[0, 0], [0, 0], [4, 2], [0, 2]] } ] } },
//!   { "name": "face", "slot": "head", "drive": "mesh", "vertices": [[0, 4, 9, 12]] }
//! ]
//! ```

use super::{Fields, MAX_ITEMS};
use crate::json::*;
use serde_json::{Map, Value, json};
use sinew::character::cage_rig::{
    CageDesc, CageDrive, CageKeysDesc, CagePointKey, MAX_CAGE_POINTS,
};
use sinew::deform::cage_stage::CageMode;

const CAGE_KEYS: &[&str] = &[
    "name",
    "slot",
    "attachment",
    "drive",
    "mode",
    "loops",
    "bones",
    "weights",
    "vertices",
    "animations",
];

/// Reads `cages` (absent: none).
pub(super) fn read_cages(f: &Fields, at: &Loc) -> R<Vec<CageDesc>> {
    let ca = at.key("cages");
    let mut out = Vec::new();
    for (i, v) in f.array("cages")?.iter().enumerate() {
        out.push(read_cage(v, &ca.index(i))?);
    }
    Ok(out)
}

fn read_cage(v: &Value, at: &Loc) -> R<CageDesc> {
    let f = Fields::new(v, at, CAGE_KEYS)?;
    let name = f.required_string("name")?.to_owned();
    let slot = f.required_string("slot")?.to_owned();
    let mode = match f.string("mode")? {
        None | Some("replace") => CageMode::Replace,
        Some("offset") => CageMode::Offset,
        Some(m) => return Err(f.err("mode", format!("unknown mode `{m}` (replace, offset)"))),
    };
    let drive_name = f.string("drive")?.unwrap_or("host");
    // Which members each drive takes: any other is refused (a typo or a leftover).
    let (takes, drive) = match drive_name {
        "bones" => {
            let weights = match f.get("weights") {
                None => Vec::new(),
                Some(w) => rows(w, &f.at.key("weights"))?,
            };
            let bones = f.strings("bones")?;
            if bones.is_empty() {
                return Err(f.err("bones", "is required for `drive: bones` (one bone or more)"));
            }
            (
                &["bones", "weights", "loops"][..],
                CageDrive::Bones { bones, weights },
            )
        }
        "mesh" => {
            let Some(v) = f.get("vertices") else {
                return f.at.missing("vertices");
            };
            let vertices = index_loops(v, &f.at.key("vertices"))?;
            (&["vertices"][..], CageDrive::Mesh { vertices })
        }
        "host" => (&["loops"][..], CageDrive::Host),
        d => {
            return Err(f.err("drive", format!("unknown drive `{d}` (bones, mesh, host)")));
        }
    };
    for key in ["loops", "bones", "weights", "vertices"] {
        if f.get(key).is_some() && !takes.contains(&key) {
            return Err(f.err(key, format!("is not used by `drive: {drive_name}`")));
        }
    }
    let loops = match f.get("loops") {
        None if takes.contains(&"loops") => return f.at.missing("loops"),
        None => Vec::new(),
        Some(l) => point_loops(l, &f.at.key("loops"))?,
    };
    let mut d = CageDesc::new(name, slot, loops);
    d.attachment = f.string("attachment")?.map(str::to_owned);
    d.drive = drive;
    d.mode = mode;
    let points = d.point_count();
    if !(3..=MAX_CAGE_POINTS).contains(&points) {
        let key = if matches!(d.drive, CageDrive::Mesh { .. }) {
            "vertices"
        } else {
            "loops"
        };
        return Err(f.err(
            key,
            format!("{points} cage points (a cage needs 3 to {MAX_CAGE_POINTS})"),
        ));
    }
    if let Some(map) = obj_opt(f.map, "animations", &f.at)? {
        let aa = f.at.key("animations");
        check_len(map.len(), MAX_ITEMS, "animations", &aa)?;
        for (anim, keys) in map {
            if anim.starts_with('_') {
                continue;
            }
            d.animations.push(CageKeysDesc {
                animation: anim.clone(),
                keys: read_keys(keys, points, &aa.key(anim))?,
            });
        }
    }
    Ok(d)
}

/// `[x, y]` at `at`.
fn point(v: &Value, at: &Loc) -> R<[f64; 2]> {
    match as_array(v, at)? {
        [x, y] => Ok([as_f64(x, &at.index(0))?, as_f64(y, &at.index(1))?]),
        a => at.err(format!("expected [x, y], found {} numbers", a.len())),
    }
}

/// An array of at most `max` items.
fn items<'v>(v: &'v Value, max: usize, what: &str, at: &Loc) -> R<&'v [Value]> {
    let a = as_array(v, at)?;
    check_len(a.len(), max, what, at)?;
    Ok(a)
}

/// `[[[x, y], ...], ...]`: one list of points per loop.
fn point_loops(v: &Value, at: &Loc) -> R<Vec<Vec<[f64; 2]>>> {
    let mut out = Vec::new();
    for (i, l) in items(v, MAX_CAGE_POINTS, "loops", at)?.iter().enumerate() {
        let la = at.index(i);
        let pts = items(l, MAX_CAGE_POINTS, "points", &la)?;
        let mut loop_ = Vec::with_capacity(pts.len());
        for (k, p) in pts.iter().enumerate() {
            loop_.push(point(p, &la.index(k))?);
        }
        out.push(loop_);
    }
    Ok(out)
}

/// `[[i, ...], ...]`: one list of mesh vertex indices per loop.
fn index_loops(v: &Value, at: &Loc) -> R<Vec<Vec<u32>>> {
    let mut out = Vec::new();
    for (i, l) in items(v, MAX_CAGE_POINTS, "loops", at)?.iter().enumerate() {
        let la = at.index(i);
        let ids = items(l, MAX_CAGE_POINTS, "vertices", &la)?;
        let mut loop_ = Vec::with_capacity(ids.len());
        for (k, x) in ids.iter().enumerate() {
            loop_.push(as_uint(x, u64::from(u32::MAX), &la.index(k))? as u32);
        }
        out.push(loop_);
    }
    Ok(out)
}

/// `[[w, ...], ...]`: one row of weights per cage point.
fn rows(v: &Value, at: &Loc) -> R<Vec<Vec<f64>>> {
    let mut out = Vec::new();
    for (i, r) in items(v, MAX_CAGE_POINTS, "rows", at)?.iter().enumerate() {
        let ra = at.index(i);
        let ws = items(r, MAX_ITEMS, "weights", &ra)?;
        let mut row = Vec::with_capacity(ws.len());
        for (k, w) in ws.iter().enumerate() {
            row.push(as_f64(w, &ra.index(k))?);
        }
        out.push(row);
    }
    Ok(out)
}

fn read_keys(v: &Value, points: usize, at: &Loc) -> R<Vec<CagePointKey>> {
    let keys = items(v, MAX_ITEMS, "keys", at)?;
    if keys.is_empty() {
        return at.err("expected one key or more");
    }
    let mut out = Vec::with_capacity(keys.len());
    let mut last = 0.0;
    for (i, k) in keys.iter().enumerate() {
        let ka = at.index(i);
        let f = Fields::new(k, &ka, &["time", "curve", "offsets"])?;
        let time = f.num_or("time", 0.0)?;
        if !(time.is_finite() && time >= last) {
            return Err(f.err(
                "time",
                JsonIssue::range("seconds >= 0, not before the key above", time),
            ));
        }
        last = time;
        let Some(o) = f.get("offsets") else {
            return ka.missing("offsets");
        };
        let oa = ka.key("offsets");
        let list = items(o, MAX_CAGE_POINTS, "offsets", &oa)?;
        if list.len() != points {
            return Err(f.err(
                "offsets",
                format!("{} offsets for {points} cage points", list.len()),
            ));
        }
        let mut offsets = Vec::with_capacity(points);
        for (j, p) in list.iter().enumerate() {
            offsets.push(point(p, &oa.index(j))?);
        }
        out.push(CagePointKey {
            time,
            curve: super::cues::read_curve(&f)?,
            offsets,
        });
    }
    Ok(out)
}

/// The `cages` list as [`read_cages`] reads it.
pub(super) fn write_cages(cages: &[CageDesc]) -> Value {
    Value::Array(cages.iter().map(write_cage).collect())
}

fn write_cage(d: &CageDesc) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(d.name));
    m.insert("slot".into(), json!(d.slot));
    if let Some(a) = &d.attachment {
        m.insert("attachment".into(), json!(a));
    }
    match &d.drive {
        CageDrive::Bones { bones, weights } => {
            m.insert("drive".into(), json!("bones"));
            m.insert("bones".into(), json!(bones));
            if !weights.is_empty() {
                m.insert("weights".into(), json!(weights));
            }
        }
        CageDrive::Mesh { vertices } => {
            m.insert("drive".into(), json!("mesh"));
            m.insert("vertices".into(), json!(vertices));
        }
        CageDrive::Host => {
            m.insert("drive".into(), json!("host"));
        }
    }
    let mode = match d.mode {
        CageMode::Replace => "replace",
        CageMode::Offset => "offset",
    };
    m.insert("mode".into(), json!(mode));
    // A mesh drive's points are the mesh's: loops given with one are not written (and
    // `try_write_extras` refuses such extras, as they would not read back the same).
    if !matches!(d.drive, CageDrive::Mesh { .. }) {
        m.insert("loops".into(), json!(d.loops));
    }
    if !d.animations.is_empty() {
        let mut a = Map::new();
        for k in &d.animations {
            let keys = k
                .keys
                .iter()
                .map(|key| {
                    let mut o = Map::new();
                    o.insert("time".into(), json!(key.time));
                    super::write::curve(&mut o, key.curve);
                    o.insert("offsets".into(), json!(key.offsets));
                    Value::Object(o)
                })
                .collect();
            a.insert(k.animation.clone(), Value::Array(keys));
        }
        m.insert("animations".into(), Value::Object(a));
    }
    Value::Object(m)
}
