//! JSON helpers that make `sinew dump` print numbers the way the oracle (JavaScript) does.
//!
//! JS prints integral numbers without a fraction (`1`, not `1.0`), has no `-0` after the
//! oracle's `+ 0`, and writes non-finite numbers as `null`. `--round N` rounds every number
//! with JS `Math.round(v * 10^N) / 10^N` (ties toward +infinity). Verified by the unit tests.

use serde_json::{Map, Number, Value};

/// Largest integer magnitude printed as an integer (JS safe-integer range).
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// A JSON number as JS would print `v`: integers without a fraction, non-finite as `null`.
pub fn num(v: f64) -> Value {
    if !v.is_finite() {
        return Value::Null;
    }
    if v == v.trunc() && v.abs() <= MAX_SAFE {
        // Exact: v is integral and within i64 range; -0 becomes 0 as in JS output.
        return Value::Number(Number::from(v as i64));
    }
    Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// A JSON array of numbers.
pub fn nums(vs: impl IntoIterator<Item = f64>) -> Value {
    Value::Array(vs.into_iter().map(num).collect())
}

/// JS `Math.round`: the nearest integer, ties toward +infinity.
pub fn js_round(x: f64) -> f64 {
    let f = x.floor();
    // x - floor(x) is exact for every finite double.
    if x - f >= 0.5 { f + 1.0 } else { f }
}

/// Rounds one number like the oracle's `--round`: `Math.round(v * f) / f + 0`.
pub fn round_num(v: f64, decimals: u32) -> f64 {
    let f = 10f64.powi(decimals as i32);
    js_round(v * f) / f + 0.0
}

/// Rounds every number in `value` in place (the oracle's `roundAll`).
pub fn round_all(value: &mut Value, decimals: u32) {
    match value {
        Value::Number(n) => {
            if let Some(v) = n.as_f64() {
                *value = num(round_num(v, decimals));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| round_all(v, decimals)),
        Value::Object(map) => map.values_mut().for_each(|v| round_all(v, decimals)),
        _ => {}
    }
}

/// A small builder for ordered JSON objects (key order is preserved by serde_json's
/// `preserve_order` feature, enabled in this crate).
#[derive(Debug, Default)]
pub struct Obj(pub Map<String, Value>);

impl Obj {
    /// An empty object.
    pub fn new() -> Self {
        Obj(Map::new())
    }

    /// Appends a key.
    pub fn set(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0.insert(key.to_owned(), value.into());
        self
    }

    /// Appends a numeric key.
    pub fn num(self, key: &str, v: f64) -> Self {
        self.set(key, num(v))
    }

    /// Appends a key in place.
    pub fn push(&mut self, key: &str, value: impl Into<Value>) {
        self.0.insert(key.to_owned(), value.into());
    }

    /// The finished object.
    pub fn build(self) -> Value {
        Value::Object(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_print_like_js() {
        assert_eq!(num(1.0).to_string(), "1");
        assert_eq!(num(-0.0).to_string(), "0");
        assert_eq!(num(0.25).to_string(), "0.25");
        assert_eq!(num(f64::NAN), Value::Null);
        assert_eq!(num(f64::INFINITY), Value::Null);
    }

    #[test]
    fn rounding_matches_math_round() {
        assert_eq!(js_round(2.5), 3.0);
        assert_eq!(js_round(-2.5), -2.0);
        assert_eq!(js_round(0.49999999999999994), 0.0);
        // Values checked with node: Math.round(0.125*100)/100 = 0.13, (-0.125) -> -0.12.
        assert_eq!(round_num(0.125, 2), 0.13);
        assert_eq!(round_num(-0.125, 2), -0.12);
        assert_eq!(round_num(-0.000001, 5), 0.0);
        assert!(round_num(-0.000001, 5).is_sign_positive());
    }

    #[test]
    fn round_all_walks_nested_values() {
        let mut v = serde_json::json!({"a": [1.234567, {"b": 2.0000001}], "s": "x", "n": null});
        round_all(&mut v, 3);
        assert_eq!(v.to_string(), r#"{"a":[1.235,{"b":2}],"s":"x","n":null}"#);
    }

    #[test]
    fn objects_keep_insertion_order() {
        let o = Obj::new().num("z", 1.0).set("a", "x").build();
        assert_eq!(o.to_string(), r#"{"z":1,"a":"x"}"#);
    }
}
