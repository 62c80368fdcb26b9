//! The f64 numbers the official loader samples Beziers from, recovered from f32 key data.
//!
//! COMPAT(spine): spine-ts stores keys as f32 but samples each Bezier from the JSON's f64
//! numbers (times, values, handles). Raw keys are f32, so the builder recovers those f64s:
//! exports write short decimals, and the shortest decimal that round-trips an f32 is then
//! exactly the JSON text; colour channels are byte / 255. The recovered number is always
//! within f32 rounding of the key, so where the guess misses nothing gets worse. This takes
//! Bezier-driven values from ~1e-5 to ~1e-9 of the oracle (see `tests/anim_local.rs`).
//!
//! Verified by the unit tests below.

use std::fmt::Write;

/// The shortest decimal that round-trips `v`, as an f64.
pub(super) fn decimal(v: f32) -> f64 {
    let mut s = String::with_capacity(32);
    if write!(s, "{v}").is_err() {
        return f64::from(v);
    }
    match s.parse::<f64>() {
        Ok(d) if d as f32 == v => d,
        _ => f64::from(v),
    }
}

/// A colour channel: `byte / 255` when `v` is one, else `v`.
pub(super) fn channel(v: f32) -> f64 {
    let k = (f64::from(v) * 255.0).round();
    let c = k / 255.0;
    if c as f32 == v { c } else { f64::from(v) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_json_numbers() {
        assert_eq!(decimal(0.1667f32), 0.1667);
        assert_eq!(decimal(-33.74f32), -33.74);
        assert_eq!(decimal(0.0), 0.0);
        assert_eq!(decimal(1e-10f32), 1e-10);
        assert_eq!(channel((128.0f64 / 255.0) as f32), 128.0 / 255.0);
        assert_eq!(channel(1.0), 1.0);
        // Not a byte fraction: unchanged.
        assert_eq!(channel(0.3f32), f64::from(0.3f32));
    }
}
