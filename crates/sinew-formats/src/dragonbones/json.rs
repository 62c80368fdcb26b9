//! Small typed getters over `serde_json` for the DragonBones loader, with JSON paths.
//!
//! DragonBones' parser reads every number through a "use the default when absent or
//! `null`" getter; these do the same, and a value of the wrong type is an error naming its
//! JSON path.

use serde_json::{Map, Value};

/// A JSON object.
pub(crate) type Obj = Map<String, Value>;

/// An error before the file name is attached: JSON path and message.
#[derive(Debug)]
pub(crate) struct Bad {
    /// JSON path (`$.armature[0].bone[3]`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// Result of the readers.
pub(crate) type R<T> = Result<T, Box<Bad>>;

/// An error at `path`.
pub(crate) fn bad<T>(path: &str, message: impl Into<String>) -> R<T> {
    Err(Box::new(Bad {
        path: path.to_owned(),
        message: message.into(),
    }))
}

/// `path.key`.
pub(crate) fn key(path: &str, k: &str) -> String {
    format!("{path}.{k}")
}

/// `path[i]`.
pub(crate) fn idx(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// The value as an object.
pub(crate) fn obj<'a>(v: &'a Value, path: &str) -> R<&'a Obj> {
    match v {
        Value::Object(m) => Ok(m),
        _ => bad(path, "expected an object"),
    }
}

/// An optional member that must be an object.
pub(crate) fn obj_opt<'a>(m: &'a Obj, k: &str, path: &str) -> R<Option<&'a Obj>> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => obj(v, &key(path, k)).map(Some),
    }
}

/// An optional member that must be an array (absent or null: empty).
pub(crate) fn arr<'a>(m: &'a Obj, k: &str, path: &str) -> R<&'a [Value]> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => bad(&key(path, k), "expected an array"),
    }
}

/// A number member; absent or null gives `default`; must be finite.
pub(crate) fn num(m: &Obj, k: &str, default: f64, path: &str) -> R<f64> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if f.is_finite() => Ok(f),
            _ => bad(&key(path, k), "number out of range"),
        },
        Some(Value::Bool(b)) => Ok(if *b { 1.0 } else { 0.0 }),
        Some(_) => bad(&key(path, k), "expected a number"),
    }
}

/// An optional number member (absent or null: `None`).
pub(crate) fn num_opt(m: &Obj, k: &str, path: &str) -> R<Option<f64>> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        _ => num(m, k, 0.0, path).map(Some),
    }
}

/// A boolean member (numbers count as their truth value).
pub(crate) fn boolean(m: &Obj, k: &str, default: bool, path: &str) -> R<bool> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::Number(n)) => Ok(n.as_f64().is_some_and(|f| f != 0.0)),
        Some(_) => bad(&key(path, k), "expected a boolean"),
    }
}

/// A string member (absent or null: `default`; numbers are written out).
pub(crate) fn string(m: &Obj, k: &str, default: &str, path: &str) -> R<String> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(default.to_owned()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Number(n)) => Ok(n.to_string()),
        Some(_) => bad(&key(path, k), "expected a string"),
    }
}

/// A non-negative integer member, at most `max`.
pub(crate) fn count(m: &Obj, k: &str, default: u32, max: u32, path: &str) -> R<u32> {
    let v = num(m, k, f64::from(default), path)?;
    if v < 0.0 || v > f64::from(max) {
        return bad(&key(path, k), format!("{v} is outside 0..={max}"));
    }
    Ok(v as u32)
}

/// An array of finite numbers.
pub(crate) fn nums(m: &Obj, k: &str, path: &str) -> R<Vec<f64>> {
    let a = arr(m, k, path)?;
    let p = key(path, k);
    let mut out = Vec::with_capacity(a.len());
    for (i, v) in a.iter().enumerate() {
        match v.as_f64() {
            Some(f) if f.is_finite() => out.push(f),
            _ => return bad(&idx(&p, i), "expected a finite number"),
        }
    }
    Ok(out)
}
