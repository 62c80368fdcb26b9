//! The getters: typed reads of `serde_json` values that name the JSON path of a wrong
//! value. They mirror Spine's official `getValue(map, key, default)`: a missing key (or
//! `null`) takes the default, a value of the wrong type is an error.

use super::{JsonIssue, Loc, Obj, R};
use serde_json::Value;
use sinew::types::Color;

/// The value as an object.
pub(crate) fn as_obj<'v>(v: &'v Value, at: &Loc) -> R<&'v Obj> {
    match v {
        Value::Object(m) => Ok(m),
        other => at.wrong_type("an object", other),
    }
}

/// The value as an array.
pub(crate) fn as_array<'v>(v: &'v Value, at: &Loc) -> R<&'v [Value]> {
    match v {
        Value::Array(a) => Ok(a),
        other => at.wrong_type("an array", other),
    }
}

/// The value as a finite number.
pub(crate) fn as_f64(v: &Value, at: &Loc) -> R<f64> {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(x) if x.is_finite() => Ok(x),
            _ => at.err("number out of range"),
        },
        other => at.wrong_type("a number", other),
    }
}

/// The value as a string.
pub(crate) fn as_str<'v>(v: &'v Value, at: &Loc) -> R<&'v str> {
    match v {
        Value::String(s) => Ok(s),
        other => at.wrong_type("a string", other),
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
        Some(other) => at.key(key).wrong_type("a boolean", other),
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
        None => at.missing(key),
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
        return at.out_of_range(format!("a whole number in 0..={max}"), x);
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
        return at.out_of_range("a 32-bit whole number", x);
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

/// An array member; absent or `null` is empty.
pub(crate) fn array_or_empty<'v>(m: &'v Obj, key: &str, at: &Loc) -> R<&'v [Value]> {
    Ok(array_opt(m, key, at)?.unwrap_or(&[]))
}

/// Refuses a member whose key is not in `allowed` (keys starting with `_` are comments), for
/// formats where a typo must fail loudly.
pub(crate) fn check_keys(m: &Obj, allowed: &'static [&'static str], at: &Loc) -> R<()> {
    match m
        .keys()
        .find(|k| !k.starts_with('_') && !allowed.contains(&k.as_str()))
    {
        None => Ok(()),
        Some(k) => at.err(JsonIssue::UnknownKey {
            key: k.clone(),
            allowed,
        }),
    }
}

/// A number as written (f64), refusing one that overflows the f32 the runtime stores (Spine
/// key data).
pub(crate) fn f32_ranged(v: &Value, at: &Loc) -> R<f64> {
    let x = as_f64(v, at)?;
    to_f32(x, at)?;
    Ok(x)
}

/// A number member as written ([`f32_ranged`]), or `default`.
pub(crate) fn f32_ranged_or(m: &Obj, key: &str, default: f64, at: &Loc) -> R<f64> {
    match member(m, key) {
        None => Ok(default),
        Some(v) => f32_ranged(v, &at.key(key)),
    }
}
