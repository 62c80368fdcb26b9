//! The rig-extras writer: [`write_extras`] turns a [`RigExtras`] back into the JSON that
//! [`super::parse_extras`] reads, every value explicit (chains are written with their
//! resolved springs, never a preset), so `parse(write(x)) == x` for anything the reader
//! produced (infinite distances are written by leaving the key out; the clock's time scale
//! is not part of the format). Verified by the round-trip tests in `extras/tests.rs`.

use super::RigExtras;
use serde_json::{Map, Value, json};
use sinew::physics::follow::{FollowDesc, FollowSpace};
use sinew::physics::jiggle::{
    AnimCuesDesc, ChainDesc, ColliderDesc, ColliderShape, CueCurve, CueProperty, JiggleDesc,
    JiggleModel,
};

/// The extras as pretty-printed JSON (`sinewExtras: 1`).
pub fn write_extras(x: &RigExtras) -> String {
    let mut root = Map::new();
    root.insert("sinewExtras".into(), json!(1));
    root.insert("jiggle".into(), jiggle(&x.jiggle));
    if !x.follow.is_empty() {
        root.insert(
            "follow".into(),
            Value::Array(x.follow.iter().map(follow).collect()),
        );
    }
    if !x.cages.is_empty() {
        root.insert("cages".into(), super::cages::write_cages(&x.cages));
    }
    if !x.shapes.is_empty() {
        root.insert("shapes".into(), super::shapes::write_shapes(&x.shapes));
    }
    #[cfg(feature = "rig-deformers")]
    if !x.deformers.is_empty() {
        root.insert(
            "deformers".into(),
            super::deformers::write_deformers(&x.deformers),
        );
    }
    // Serialising a Value of plain maps, strings and finite numbers cannot fail.
    serde_json::to_string_pretty(&Value::Object(root)).unwrap_or_default()
}

/// [`write_extras`], refusing extras that would not read back as they are: the text is
/// parsed again and must give `x` (a non-finite value, a key the reader refuses, a mesh
/// cage with loops, two key lists of one animation are refused here, never written).
/// The error is the reader's, on the written text named `source`, or
/// [`crate::LoadError::Rig`] naming what would read back differently.
pub fn try_write_extras(x: &RigExtras, source: &str) -> Result<String, crate::LoadError> {
    let text = write_extras(x);
    let back = super::parse_extras(&text, source)?;
    // Animations are JSON object members: their order is the reader's (sorted, or the
    // file's with serde_json's preserve_order), so it does not count.
    let (back, x) = (unordered(back), &unordered(x.clone()));
    if back != *x {
        let what = if back.jiggle != x.jiggle {
            "jiggle"
        } else if back.follow != x.follow {
            "follow"
        } else if back.cages != x.cages {
            "cages"
        } else if back.shapes != x.shapes {
            "shapes"
        } else {
            "deformers"
        };
        return Err(crate::LoadError::Rig {
            file: source.to_owned(),
            message: format!(
                "`{what}` would not read back as it is (a value the format cannot hold, \
                 or a name given twice)"
            ),
        });
    }
    Ok(text)
}

/// `x` with its cages', shapes' and deformers' animation lists sorted by name.
fn unordered(mut x: RigExtras) -> RigExtras {
    for c in &mut x.cages {
        c.animations.sort_by(|a, b| a.animation.cmp(&b.animation));
    }
    for s in &mut x.shapes {
        s.tracks
            .sort_by(|a, b| (&a.animation, &a.example).cmp(&(&b.animation, &b.example)));
    }
    #[cfg(feature = "rig-deformers")]
    for d in &mut x.deformers {
        d.animations.sort_by(|a, b| a.animation.cmp(&b.animation));
    }
    x
}

/// Writes `x` to `path` ([`try_write_extras`]: nothing is written when it would not read
/// back as it is); errors name the file.
pub fn save_extras(path: &std::path::Path, x: &RigExtras) -> Result<(), crate::LoadError> {
    let file = path.display().to_string();
    let text = try_write_extras(x, &file)?;
    std::fs::write(path, text).map_err(|e| crate::LoadError::Io { file, source: e })
}

/// Inserts `v` under `k` when it is finite (the reader's default for a missing key is
/// infinity).
fn finite(m: &mut Map<String, Value>, k: &str, v: f64) {
    if v.is_finite() {
        m.insert(k.into(), json!(v));
    }
}

fn jiggle(d: &JiggleDesc) -> Value {
    let mut m = Map::new();
    m.insert("stepHz".into(), json!(d.clock.step_hz));
    m.insert("maxSubsteps".into(), json!(d.clock.max_substeps));
    m.insert("maxFrameDt".into(), json!(d.clock.max_frame_dt));
    m.insert("gravity".into(), json!(d.gravity));
    m.insert("wind".into(), json!(d.wind));
    m.insert(
        "gust".into(),
        json!({ "amplitude": d.gust.amplitude, "frequency": d.gust.frequency }),
    );
    finite(&mut m, "teleportDistance", d.teleport_distance);
    let mut lod = Map::new();
    lod.insert("coarseStep".into(), json!(d.lod.coarse_step));
    finite(&mut lod, "coarseBeyond", d.lod.coarse_beyond);
    finite(&mut lod, "freezeBeyond", d.lod.freeze_beyond);
    if let Some(c) = d.cull_margin {
        lod.insert("cullMargin".into(), json!(c));
    }
    m.insert("lod".into(), Value::Object(lod));
    m.insert(
        "colliders".into(),
        Value::Array(d.colliders.iter().map(collider).collect()),
    );
    m.insert(
        "chains".into(),
        Value::Array(d.chains.iter().map(chain).collect()),
    );
    if !d.animations.is_empty() {
        let mut a = Map::new();
        for cues in &d.animations {
            a.insert(cues.animation.clone(), animation(cues));
        }
        m.insert("animations".into(), Value::Object(a));
    }
    Value::Object(m)
}

fn collider(c: &ColliderDesc) -> Value {
    match c.shape {
        ColliderShape::Circle { offset, radius } => json!({
            "name": c.name, "bone": c.bone, "shape": "circle",
            "x": offset[0], "y": offset[1], "radius": radius
        }),
        ColliderShape::Capsule {
            offset,
            tail,
            radius,
        } => json!({
            "name": c.name, "bone": c.bone, "shape": "capsule",
            "x": offset[0], "y": offset[1], "tailX": tail[0], "tailY": tail[1], "radius": radius
        }),
    }
}

fn chain(c: &ChainDesc) -> Value {
    let p = &c.params;
    let mut m = Map::new();
    m.insert("name".into(), json!(c.name));
    m.insert("bones".into(), json!(c.bones));
    let model = match p.model {
        JiggleModel::Spring => "spring",
        JiggleModel::Verlet => "verlet",
        JiggleModel::Angular => "angular",
        JiggleModel::Lerp => "lerp",
    };
    m.insert("model".into(), json!(model));
    for (k, v) in [
        ("mass", p.mass),
        ("stiffness", p.stiffness),
        ("damping", p.damping),
        ("translateStiffness", p.translate_stiffness),
        ("translateDamping", p.translate_damping),
    ] {
        m.insert(k.into(), json!(v));
    }
    finite(&mut m, "maxOffset", p.max_offset);
    for (k, v) in [
        ("maxStretch", p.max_stretch),
        ("maxAngle", p.max_angle),
        ("gravity", p.gravity),
        ("wind", p.wind),
        ("velocityDamping", p.velocity_damping),
        ("hitRadius", p.hit_radius),
        ("strength", p.strength),
        ("drag", p.drag),
        ("unitScale", p.unit_scale),
    ] {
        m.insert(k.into(), json!(v));
    }
    m.insert("vrmStaleLength".into(), json!(p.vrm_stale_length));
    if !p.speed.is_off() {
        let c = &p.speed;
        m.insert(
            "speedCurve".into(),
            json!({ "from": c.from, "to": c.to, "stiffness": c.stiffness, "damping": c.damping }),
        );
    }
    m.insert("colliders".into(), json!(c.colliders));
    if let Some(d) = &c.driver {
        m.insert("driver".into(), json!(d));
    }
    if let Some(l) = c.tip_length {
        m.insert("length".into(), json!(l));
    }
    Value::Object(m)
}

fn animation(a: &AnimCuesDesc) -> Value {
    let mut m = Map::new();
    for (pname, property) in CueProperty::ALL {
        let mut chains = Map::new();
        for t in a.tracks.iter().filter(|t| t.property == property) {
            let keys = t
                .keys
                .iter()
                .map(|k| {
                    let mut o = Map::new();
                    o.insert("time".into(), json!(k.time));
                    o.insert("value".into(), json!(k.value));
                    curve(&mut o, k.curve);
                    Value::Object(o)
                })
                .collect();
            let name = t.chain.clone().unwrap_or_else(|| "*".to_owned());
            chains.insert(name, Value::Array(keys));
        }
        if !chains.is_empty() {
            m.insert(pname.into(), Value::Object(chains));
        }
    }
    if !a.events.is_empty() {
        let events = a
            .events
            .iter()
            .map(|e| {
                let mut o = Map::new();
                o.insert("time".into(), json!(e.time));
                if let Some(c) = &e.chain {
                    o.insert("chain".into(), json!(c));
                }
                o.insert("strength".into(), json!(e.strength));
                o.insert("fade".into(), json!(e.fade));
                Value::Object(o)
            })
            .collect();
        m.insert("events".into(), Value::Array(events));
    }
    Value::Object(m)
}

/// A key's `curve` member (none for linear, the reader's default).
pub(super) fn curve(o: &mut Map<String, Value>, c: CueCurve) {
    match c {
        CueCurve::Linear => {}
        CueCurve::Stepped => {
            o.insert("curve".into(), json!("stepped"));
        }
        CueCurve::Bezier(c) => {
            o.insert("curve".into(), json!(c));
        }
    }
}

fn follow(f: &FollowDesc) -> Value {
    json!({
        "name": f.name, "bone": f.bone, "source": f.source, "delay": f.delay, "mix": f.mix,
        "space": match f.space { FollowSpace::Local => "local", FollowSpace::World => "world" },
        "rotate": f.rotate, "translate": f.translate, "scale": f.scale,
        "offset": {
            "rotate": f.offset.rotate, "x": f.offset.x, "y": f.offset.y,
            "scaleX": f.offset.scale_x, "scaleY": f.offset.scale_y
        }
    })
}
