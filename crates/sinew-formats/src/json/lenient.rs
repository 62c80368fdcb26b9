//! Getters for formats whose official runtimes read JSON leniently.
//!
//! COMPAT(dragonbones): DragonBones' parser reads every value through a "use the default
//! when absent or `null`" getter with JavaScript's coercions: a boolean where a number is
//! read counts as 1 or 0, a number where a boolean is read as its truth, a number where a
//! string is read is written out. Any other type is still an error naming its path.

use super::{JsonIssue, Loc, Obj, R, member};
use serde_json::Value;

/// An array member (absent or `null`: empty).
pub(crate) fn arr<'a>(m: &'a Obj, k: &str, at: &Loc) -> R<&'a [Value]> {
    super::array_or_empty(m, k, at)
}

/// A number member; absent or `null` gives `default`; a boolean counts as 1 or 0; must be
/// finite.
pub(crate) fn num(m: &Obj, k: &str, default: f64, at: &Loc) -> R<f64> {
    match member(m, k) {
        None => Ok(default),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if f.is_finite() => Ok(f),
            _ => at.key(k).err("number out of range"),
        },
        Some(Value::Bool(b)) => Ok(if *b { 1.0 } else { 0.0 }),
        Some(other) => at.key(k).wrong_type("a number", other),
    }
}

/// An optional number member (absent or `null`: `None`).
pub(crate) fn num_opt(m: &Obj, k: &str, at: &Loc) -> R<Option<f64>> {
    match member(m, k) {
        None => Ok(None),
        Some(_) => num(m, k, 0.0, at).map(Some),
    }
}

/// A boolean member (numbers count as their truth value).
pub(crate) fn boolean(m: &Obj, k: &str, default: bool, at: &Loc) -> R<bool> {
    match member(m, k) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::Number(n)) => Ok(n.as_f64().is_some_and(|f| f != 0.0)),
        Some(other) => at.key(k).wrong_type("a boolean", other),
    }
}

/// A string member (absent or `null`: `default`; numbers are written out).
pub(crate) fn string(m: &Obj, k: &str, default: &str, at: &Loc) -> R<String> {
    match member(m, k) {
        None => Ok(default.to_owned()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Number(n)) => Ok(n.to_string()),
        Some(other) => at.key(k).wrong_type("a string", other),
    }
}

/// A non-negative integer member, at most `max` (a fraction is truncated, as the runtime's
/// typed arrays do).
pub(crate) fn count(m: &Obj, k: &str, default: u32, max: u32, at: &Loc) -> R<u32> {
    let v = num(m, k, f64::from(default), at)?;
    if v < 0.0 || v > f64::from(max) {
        return at
            .key(k)
            .err(JsonIssue::range(format!("a count in 0..={max}"), v));
    }
    Ok(v as u32)
}

/// An array member of finite numbers (absent or `null`: empty).
pub(crate) fn nums(m: &Obj, k: &str, at: &Loc) -> R<Vec<f64>> {
    let a = arr(m, k, at)?;
    let p = at.key(k);
    let mut out = Vec::with_capacity(a.len());
    for (i, v) in a.iter().enumerate() {
        match v.as_f64() {
            Some(f) if f.is_finite() => out.push(f),
            _ => return p.index(i).wrong_type("a finite number", v),
        }
    }
    Ok(out)
}

/// A number, or `default` where the value is absent or not a finite number (Inochi2D).
///
/// COMPAT(inochi2d): the reference reads optional numbers with defaults and keeps the default
/// where a value does not parse; so does sinew, so a puppet that loads there loads here.
pub(crate) fn f64_or_default(v: Option<&Value>, default: f64) -> f64 {
    v.and_then(Value::as_f64)
        .filter(|x| x.is_finite())
        .unwrap_or(default)
}

/// Up to `N` numbers of an array, each keeping its `default` where absent or not a finite
/// number (Inochi2D, as [`f64_or_default`]).
pub(crate) fn f64s_or_default<const N: usize>(v: Option<&Value>, default: [f64; N]) -> [f64; N] {
    let mut out = default;
    if let Some(a) = v.and_then(Value::as_array) {
        for (o, x) in out.iter_mut().zip(a) {
            if let Some(x) = x.as_f64().filter(|x| x.is_finite()) {
                *o = x;
            }
        }
    }
    out
}
