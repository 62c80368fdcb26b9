//! The Spine 4.2 JSON writer: a [`RawRig`] into the JSON the loader in this module (and the
//! official runtime's `SkeletonJson`) reads, so that reading the text back gives the same
//! rig.
//!
//! Numbers the rig holds as f64 are written with the shortest decimal that reads back to the
//! same f64; f32 data (vertices, UVs, deform deltas) with the shortest decimal that reads
//! back to the same f32. Fields equal to the loader's default are left out (a default that
//! follows another field, like `mixY` following `mixX`, is compared with what the loader
//! would fill in). Colours are hex bytes. What JSON cannot hold is refused with a
//! [`WriteError`] naming the item (a DragonBones inherit mode, two timelines of one property,
//! a non-finite number); the writer never panics. Verified by `tests/all/spine_write.rs` (every
//! export read, written and read again is the same rig; every `.skel` written as JSON poses
//! like the `.skel`).

use super::binary::WriteError;
use super::write_json_anims::write_animations;
use crate::budget::MAX_MAGNITUDE;
use serde_json::{Map, Value};
use sinew::raw::*;
use sinew::types::*;

/// Result of the JSON writer.
pub(crate) type W<T> = Result<T, Box<WriteError>>;

/// An error about `what`.
pub(crate) fn fail<T>(what: &str, message: impl Into<String>) -> W<T> {
    Err(Box::new(WriteError {
        what: what.to_owned(),
        message: message.into(),
    }))
}

/// A finite f64 below the loaders' [`MAX_MAGNITUDE`] as a JSON number.
pub(crate) fn num(what: &str, v: f64) -> W<Value> {
    match serde_json::Number::from_f64(v) {
        Some(n) if v.is_finite() && v.abs() < MAX_MAGNITUDE => Ok(Value::Number(n)),
        _ => fail(
            what,
            format!("{v} cannot be written (numbers must be finite and below {MAX_MAGNITUDE:e})"),
        ),
    }
}

/// An f32 as the shortest decimal that reads back (through f64) to the same f32.
pub(crate) fn num32(what: &str, v: f32) -> W<Value> {
    let short: Option<f64> = format!("{v}").parse().ok();
    match short {
        Some(d) if d as f32 == v => num(what, d),
        _ => num(what, f64::from(v)),
    }
}

/// An object being built, with what it is for errors.
pub(crate) struct Obj<'a> {
    pub map: Map<String, Value>,
    pub what: &'a str,
}

impl<'a> Obj<'a> {
    pub fn new(what: &'a str) -> Self {
        Obj {
            map: Map::new(),
            what,
        }
    }

    pub fn set(&mut self, key: &str, v: impl Into<Value>) {
        self.map.insert(key.to_owned(), v.into());
    }

    /// `key: v` unless `v` is the loader's default.
    pub fn num(&mut self, key: &str, v: f64, default: f64) -> W<()> {
        if v.to_bits() != default.to_bits() {
            let n = num(&format!("{}, `{key}`", self.what), v)?;
            self.map.insert(key.to_owned(), n);
        }
        Ok(())
    }

    /// `key: v` unless `v` is the default.
    pub fn flag(&mut self, key: &str, v: bool, default: bool) {
        if v != default {
            self.set(key, v);
        }
    }

    pub fn build(self) -> Value {
        Value::Object(self.map)
    }
}

/// A channel as its byte.
pub(crate) fn byte(v: f64) -> u8 {
    if v.is_nan() {
        return 0;
    }
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// `RRGGBBAA`.
pub(crate) fn hex8(c: [f64; 4]) -> String {
    format!(
        "{:02x}{:02x}{:02x}{:02x}",
        byte(c[0]),
        byte(c[1]),
        byte(c[2]),
        byte(c[3])
    )
}

/// `RRGGBB`.
pub(crate) fn hex6(c: [f64; 3]) -> String {
    format!("{:02x}{:02x}{:02x}", byte(c[0]), byte(c[1]), byte(c[2]))
}

fn color8(c: Color) -> String {
    hex8([c.r, c.g, c.b, c.a].map(f64::from))
}

/// An x with `1 / x == target` (for fps and mass, which the rig holds inverted), searched
/// a few ulps around `1 / target`; not every f64 is the inverse of one, so the nearest
/// otherwise.
pub(crate) fn inverse_exact(target: f64) -> f64 {
    let x = 1.0 / target;
    if 1.0 / x.round() == target {
        return x.round();
    }
    let mut best = x;
    let mut best_err = f64::INFINITY;
    for d in -64i64..=64 {
        let c = f64::from_bits(x.to_bits().wrapping_add_signed(d));
        let err = (1.0 / c - target).abs();
        if err == 0.0 {
            return c;
        }
        if err < best_err {
            best = c;
            best_err = err;
        }
    }
    best
}

/// Spine's name for an inherit mode.
pub(crate) fn inherit_name(what: &str, i: Inherit) -> W<&'static str> {
    Ok(match i {
        Inherit::Normal => "normal",
        Inherit::OnlyTranslation => "onlyTranslation",
        Inherit::NoRotationOrReflection => "noRotationOrReflection",
        Inherit::NoScale => "noScale",
        Inherit::NoScaleOrReflection => "noScaleOrReflection",
        Inherit::DragonBones(f) => {
            return fail(
                what,
                format!(
                    "DragonBones inherit flags (translation {}, rotation {}, scale {}, \
                     reflection {}) have no Spine inherit mode",
                    f.translation, f.rotation, f.scale, f.reflection
                ),
            );
        }
    })
}

/// Writes `rig` as a Spine 4.2 JSON value, without the read-back check of
/// [`write_spine_json`].
pub fn spine_json_value(rig: &RawRig) -> Result<Value, WriteError> {
    write_root(&super::eased::without_eased(rig)).map_err(|e| *e)
}

/// Writes `rig` as Spine 4.2 JSON text (indented when `pretty`). The text is read back by
/// the JSON loader before it is returned, so a rig whose references or lists the loader
/// would refuse (a dangling bone name, a deform past its mesh, ...) is an error naming the
/// JSON path, never a file that does not load.
pub fn write_spine_json(rig: &RawRig, pretty: bool) -> Result<String, WriteError> {
    let v = spine_json_value(rig)?;
    let text = if pretty {
        serde_json::to_string_pretty(&v)
    } else {
        serde_json::to_string(&v)
    }
    .map_err(|e| WriteError {
        what: "skeleton".into(),
        message: e.to_string(),
    })?;
    match super::parse_spine_json(&text, "output") {
        Ok(_) => Ok(text),
        Err(crate::error::LoadError::Invalid {
            path, name, issue, ..
        }) => Err(WriteError {
            what: match name {
                Some(n) => format!("{path} (`{n}`)"),
                None => path,
            },
            message: format!("the JSON loader would refuse it: {issue}"),
        }),
        Err(e) => Err(WriteError {
            what: "skeleton".into(),
            message: format!("the JSON loader would refuse it: {e}"),
        }),
    }
}

fn write_root(rig: &RawRig) -> W<Value> {
    let mut root = Obj::new("skeleton");
    let mut sk = Obj::new("skeleton");
    if !rig.hash.is_empty() {
        sk.set("hash", rig.hash.as_str());
    }
    let v43 = rig.runtime == SpineRuntime::V43;
    let (major_minor, fallback) = if v43 {
        ("4.3", "4.3.0")
    } else {
        ("4.2", "4.2.0")
    };
    let version = if rig.version.starts_with(major_minor) {
        rig.version.as_str()
    } else {
        fallback
    };
    sk.set("spine", version);
    for (k, v) in ["x", "y", "width", "height"].iter().zip(rig.bounds) {
        sk.num(k, v, 0.0)?;
    }
    sk.num("referenceScale", rig.reference_scale, 100.0)?;
    root.set("skeleton", sk.build());
    root.set("bones", bones(rig)?);
    root.set("slots", slots(rig)?);
    if v43 {
        // 4.3: one list in update order, each item with its `type`.
        let list = super::write_json_constraints::constraints43(rig)?;
        if !list.is_empty() {
            root.set("constraints", list);
        }
    } else {
        let (ik, transform, path, physics) = super::write_json_constraints::constraints42(rig)?;
        for (k, v) in [
            ("ik", ik),
            ("transform", transform),
            ("path", path),
            ("physics", physics),
        ] {
            if !v.is_empty() {
                root.set(k, v);
            }
        }
    }
    root.set("skins", super::write_json_skins::skins(rig)?);
    if !rig.events.is_empty() {
        root.set("events", events(rig)?);
    }
    if !rig.clips.is_empty() {
        root.set("animations", write_animations(rig)?);
    }
    Ok(root.build())
}

fn bones(rig: &RawRig) -> W<Vec<Value>> {
    let mut out = Vec::with_capacity(rig.bones.len());
    for b in &rig.bones {
        let what = format!("bone `{}`", b.name);
        let mut m = Obj::new(&what);
        m.set("name", b.name.as_str());
        if let Some(p) = &b.parent {
            m.set("parent", p.as_str());
        }
        m.num("length", b.length, 0.0)?;
        m.num("rotation", b.rotation, 0.0)?;
        m.num("x", b.x, 0.0)?;
        m.num("y", b.y, 0.0)?;
        m.num("scaleX", b.scale_x, 1.0)?;
        m.num("scaleY", b.scale_y, 1.0)?;
        m.num("shearX", b.shear_x, 0.0)?;
        m.num("shearY", b.shear_y, 0.0)?;
        if b.inherit != Inherit::Normal {
            m.set("inherit", inherit_name(&what, b.inherit)?);
        }
        m.flag("skin", b.skin_required, false);
        out.push(m.build());
    }
    Ok(out)
}

fn slots(rig: &RawRig) -> W<Vec<Value>> {
    let mut out = Vec::with_capacity(rig.slots.len());
    for s in &rig.slots {
        let what = format!("slot `{}`", s.name);
        let mut m = Obj::new(&what);
        m.set("name", s.name.as_str());
        m.set("bone", s.bone.as_str());
        if s.color != Color::WHITE {
            m.set("color", color8(s.color));
        }
        if let Some(d) = s.dark {
            m.set("dark", hex6([d.r, d.g, d.b].map(f64::from)));
        }
        if let Some(a) = &s.attachment {
            m.set("attachment", a.as_str());
        }
        let blend = match s.blend {
            BlendMode::Normal => None,
            BlendMode::Additive => Some("additive"),
            BlendMode::Multiply => Some("multiply"),
            BlendMode::Screen => Some("screen"),
            other => {
                return fail(
                    &what,
                    format!("blend mode {other:?} has no Spine equivalent"),
                );
            }
        };
        if let Some(b) = blend {
            m.set("blend", b);
        }
        m.flag("visible", s.visible, true);
        out.push(m.build());
    }
    Ok(out)
}

fn events(rig: &RawRig) -> W<Value> {
    let mut out = Map::new();
    for e in &rig.events {
        let what = format!("event `{}`", e.name);
        let mut m = Obj::new(&what);
        if e.int != 0 {
            m.set("int", e.int);
        }
        if e.float != 0.0 {
            m.set("float", num32(&what, e.float)?);
        }
        if !e.string.is_empty() {
            m.set("string", e.string.as_str());
        }
        if let Some(a) = e.audio.as_deref().filter(|a| !a.is_empty()) {
            m.set("audio", a);
            if e.volume != 1.0 {
                m.set("volume", num32(&what, e.volume)?);
            }
            if e.balance != 0.0 {
                m.set("balance", num32(&what, e.balance)?);
            }
        }
        if out.insert(e.name.clone(), m.build()).is_some() {
            return fail(&what, "two events of this name");
        }
    }
    Ok(Value::Object(out))
}
