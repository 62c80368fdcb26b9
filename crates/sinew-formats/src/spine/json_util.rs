//! Typed access to `serde_json` values with JSON-path error locations.
//!
//! [`Loc`] is a stack-allocated linked list of path segments: building one costs nothing,
//! and the path string is only rendered when an error is reported. Getters mirror the
//! official loader's `getValue(map, key, default)`: a missing key (or `null`) takes the
//! default, a value of the wrong type is an error. Verified by the unit tests below and by
//! the bad-input tests in `tests/all/errors.rs`.

use serde_json::{Map, Value};
use sinew::types::Color;

/// A JSON object.
pub(crate) type Obj = Map<String, Value>;

/// An error before the file name is attached: where, which item, what.
#[derive(Debug)]
pub(crate) struct Problem {
    /// Rendered JSON path (`$.slots[3]`).
    pub path: String,
    /// Innermost named item on the path.
    pub name: Option<String>,
    /// What is wrong.
    pub message: String,
}

/// Result of the JSON readers.
pub(crate) type R<T> = Result<T, Box<Problem>>;

#[derive(Clone, Copy)]
enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// A location in the JSON document, for error messages.
#[derive(Clone, Copy)]
pub(crate) struct Loc<'a> {
    parent: Option<&'a Loc<'a>>,
    seg: Seg<'a>,
    name: Option<&'a str>,
}

impl Loc<'static> {
    /// The document root, `$`.
    pub fn root() -> Self {
        Loc {
            parent: None,
            seg: Seg::Root,
            name: None,
        }
    }
}

impl<'a> Loc<'a> {
    /// The member `key` of this object.
    pub fn key<'b>(&'b self, key: &'b str) -> Loc<'b> {
        Loc {
            parent: Some(self),
            seg: Seg::Key(key),
            name: None,
        }
    }

    /// The element `i` of this array.
    pub fn index(&self, i: usize) -> Loc<'_> {
        Loc {
            parent: Some(self),
            seg: Seg::Index(i),
            name: None,
        }
    }

    /// The same location, recording the name of the item found there.
    pub fn named<'b>(self, name: &'b str) -> Loc<'b>
    where
        'a: 'b,
    {
        Loc {
            parent: self.parent,
            seg: self.seg,
            name: Some(name),
        }
    }

    /// An error at this location.
    pub fn err<T>(&self, message: impl Into<String>) -> R<T> {
        Err(Box::new(self.problem(message.into())))
    }

    /// Renders the path and the innermost name.
    pub fn problem(&self, message: String) -> Problem {
        let mut segs = Vec::new();
        let mut name = None;
        let mut cur = Some(self);
        while let Some(l) = cur {
            if name.is_none() {
                name = l.name;
            }
            segs.push(l.seg);
            cur = l.parent;
        }
        let mut path = String::new();
        for s in segs.iter().rev() {
            match s {
                Seg::Root => path.push('$'),
                Seg::Key(k) => {
                    path.push('.');
                    path.push_str(k);
                }
                Seg::Index(i) => {
                    path.push('[');
                    path.push_str(&i.to_string());
                    path.push(']');
                }
            }
        }
        Problem {
            path,
            name: name.map(str::to_owned),
            message,
        }
    }
}

/// JSON type name for messages.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The value as an object.
pub(crate) fn as_obj<'v>(v: &'v Value, at: &Loc) -> R<&'v Obj> {
    match v {
        Value::Object(m) => Ok(m),
        other => at.err(format!("expected an object, found {}", type_name(other))),
    }
}

/// The value as an array.
pub(crate) fn as_array<'v>(v: &'v Value, at: &Loc) -> R<&'v [Value]> {
    match v {
        Value::Array(a) => Ok(a),
        other => at.err(format!("expected an array, found {}", type_name(other))),
    }
}

/// The value as a finite number.
pub(crate) fn as_f64(v: &Value, at: &Loc) -> R<f64> {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(x) if x.is_finite() => Ok(x),
            _ => at.err("number out of range"),
        },
        other => at.err(format!("expected a number, found {}", type_name(other))),
    }
}

/// The value as a string.
pub(crate) fn as_str<'v>(v: &'v Value, at: &Loc) -> R<&'v str> {
    match v {
        Value::String(s) => Ok(s),
        other => at.err(format!("expected a string, found {}", type_name(other))),
    }
}

/// The member `key`, treating `null` as absent (as the official `getValue` defaults do).
pub(crate) fn member<'v>(m: &'v Obj, key: &str) -> Option<&'v Value> {
    match m.get(key) {
        None | Some(Value::Null) => None,
        Some(v) => Some(v),
    }
}

/// A number member, or `default`.
pub(crate) fn f64_or(m: &Obj, key: &str, default: f64, at: &Loc) -> R<f64> {
    match member(m, key) {
        None => Ok(default),
        Some(v) => as_f64(v, &at.key(key)),
    }
}

/// A number member stored as f32 (key data), or `default`.
pub(crate) fn f32_or(m: &Obj, key: &str, default: f32, at: &Loc) -> R<f32> {
    match member(m, key) {
        None => Ok(default),
        Some(v) => to_f32(as_f64(v, &at.key(key))?, &at.key(key)),
    }
}

/// Narrows to f32, refusing values that overflow to infinity.
pub(crate) fn to_f32(x: f64, at: &Loc) -> R<f32> {
    let y = x as f32;
    if y.is_finite() {
        Ok(y)
    } else {
        at.err("number out of range for f32")
    }
}

/// A boolean member, or `default`.
pub(crate) fn bool_or(m: &Obj, key: &str, default: bool, at: &Loc) -> R<bool> {
    match member(m, key) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => at
            .key(key)
            .err(format!("expected a boolean, found {}", type_name(other))),
    }
}

/// A string member, if present.
pub(crate) fn str_opt<'v>(m: &'v Obj, key: &str, at: &Loc) -> R<Option<&'v str>> {
    match member(m, key) {
        None => Ok(None),
        Some(v) => as_str(v, &at.key(key)).map(Some),
    }
}

/// A required string member.
pub(crate) fn str_req<'v>(m: &'v Obj, key: &str, at: &Loc) -> R<&'v str> {
    match str_opt(m, key, at)? {
        Some(s) => Ok(s),
        None => at.err(format!("missing `{key}`")),
    }
}

/// An array member, if present.
pub(crate) fn array_opt<'v>(m: &'v Obj, key: &str, at: &Loc) -> R<Option<&'v [Value]>> {
    match member(m, key) {
        None => Ok(None),
        Some(v) => as_array(v, &at.key(key)).map(Some),
    }
}

/// An object member, if present.
pub(crate) fn obj_opt<'v>(m: &'v Obj, key: &str, at: &Loc) -> R<Option<&'v Obj>> {
    match member(m, key) {
        None => Ok(None),
        Some(v) => as_obj(v, &at.key(key)).map(Some),
    }
}

/// A whole number in `0..=max`.
pub(crate) fn as_uint(v: &Value, max: u64, at: &Loc) -> R<u64> {
    let x = as_f64(v, at)?;
    if x.fract() != 0.0 || x < 0.0 || x > max as f64 {
        return at.err(format!("expected a whole number in 0..={max}, found {x}"));
    }
    Ok(x as u64)
}

/// A whole-number member in `0..=max`, or `default`.
pub(crate) fn uint_or(m: &Obj, key: &str, default: u64, max: u64, at: &Loc) -> R<u64> {
    match member(m, key) {
        None => Ok(default),
        Some(v) => as_uint(v, max, &at.key(key)),
    }
}

/// A whole number that fits an i32 (payloads, draw-order offsets, sequence indices).
pub(crate) fn as_i32(v: &Value, at: &Loc) -> R<i32> {
    let x = as_f64(v, at)?;
    if x.fract() != 0.0 || x < i32::MIN as f64 || x > i32::MAX as f64 {
        return at.err(format!("expected a 32-bit whole number, found {x}"));
    }
    Ok(x as i32)
}

/// Parses Spine's hex colour: `RRGGBBAA`, or `RRGGBB` with alpha 1, optional leading `#`
/// (Spine `Color.setFromString`).
pub(crate) fn parse_color(s: &str, at: &Loc) -> R<Color> {
    let [r, g, b, a] = parse_color_f64(s, at)?;
    Ok(Color::new(r as f32, g as f32, b as f32, a as f32))
}

/// [`parse_color`]'s channels `[r, g, b, a]` before rounding to f32: byte / 255 in double
/// precision, as the official loader holds them (animation keys sample Beziers from these).
pub(crate) fn parse_color_f64(s: &str, at: &Loc) -> R<[f64; 4]> {
    let hex = s.strip_prefix('#').unwrap_or(s);
    if !(hex.len() == 6 || hex.len() == 8) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return at.err(format!(
            "invalid colour `{s}` (expected RRGGBB or RRGGBBAA)"
        ));
    }
    let ch = |i: usize| -> f64 {
        let v = u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
        // COMPAT(spine): channels are byte / 255 computed in double precision.
        f64::from(v) / 255.0
    };
    let a = if hex.len() == 8 { ch(6) } else { 1.0 };
    Ok([ch(0), ch(2), ch(4), a])
}

/// A colour member, if present.
pub(crate) fn color_opt(m: &Obj, key: &str, at: &Loc) -> R<Option<Color>> {
    match str_opt(m, key, at)? {
        None => Ok(None),
        Some(s) => parse_color(s, &at.key(key)).map(Some),
    }
}

/// Refuses a list longer than `max` items.
pub(crate) fn check_len(len: usize, max: usize, what: &str, at: &Loc) -> R<()> {
    if len > max {
        return at.err(format!("too many {what}: {len} (limit {max})"));
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn path_renders_keys_indices_and_innermost_name() {
        let root = Loc::root();
        let skins = root.key("skins");
        let s0 = skins.index(0).named("default");
        let atts = s0.key("attachments");
        let slot = atts.key("head");
        let att = slot.key("eye").named("eye");
        let v = att.key("vertices");
        let p = v.index(12).problem("bad".into());
        assert_eq!(p.path, "$.skins[0].attachments.head.eye.vertices[12]");
        assert_eq!(p.name.as_deref(), Some("eye"));
    }

    #[test]
    fn colors_parse_like_spine() {
        let at = Loc::root();
        let c = parse_color("ff8000ff", &at).unwrap();
        assert_eq!(
            (c.r, c.g, c.b, c.a),
            (1.0, (128.0f64 / 255.0) as f32, 0.0, 1.0)
        );
        let c = parse_color("#20304080", &at).unwrap();
        assert_eq!(c.a, (128.0f64 / 255.0) as f32);
        assert_eq!(parse_color("203040", &at).unwrap().a, 1.0);
        assert!(parse_color("20304", &at).is_err());
        assert!(parse_color("zz3040", &at).is_err());
        assert!(parse_color("é0304", &at).is_err());
        assert_eq!(
            parse_color_f64("#ff800040", &at).unwrap(),
            [1.0, 128.0 / 255.0, 0.0, 64.0 / 255.0]
        );
        assert_eq!(parse_color_f64("000000", &at).unwrap()[3], 1.0);
    }

    #[test]
    fn getters_default_and_type_check() {
        let v: Value = serde_json::from_str(r#"{"a": 2.5, "b": "x", "n": null, "w": 3}"#).unwrap();
        let m = v.as_object().unwrap();
        let at = Loc::root();
        assert_eq!(f64_or(m, "a", 1.0, &at).unwrap(), 2.5);
        assert_eq!(f64_or(m, "n", 1.0, &at).unwrap(), 1.0);
        assert_eq!(f64_or(m, "zz", 7.0, &at).unwrap(), 7.0);
        let e = f64_or(m, "b", 1.0, &at).unwrap_err();
        assert_eq!(e.path, "$.b");
        assert_eq!(uint_or(m, "w", 0, 10, &at).unwrap(), 3);
        assert!(uint_or(m, "a", 0, 10, &at).is_err());
        assert!(uint_or(m, "w", 0, 2, &at).is_err());
    }
}
