//! A faster `sin_cos` for pose math: one range reduction and two short polynomials for
//! both values, instead of libm's two general-purpose evaluations.
//!
//! Accuracy: within 2 ulp of the correctly rounded values (std's `sin_cos` is within 1),
//! which is far inside the conformance tolerances (bone a..d 1e-3, bone origins 1e-5
//! while stepping physics). The reduction is Cody-Waite by pi/2 in three parts; angles of
//! 1e5 radians or more, infinities and NaN go to std, so the result is exact where it
//! matters and never worse than std's outside. Deterministic: plain f64 `+`/`*` only.
//! Verified by the tests below (against std over 2^20 angles, and special values).

/// pi/2 in three parts: `P1` and `P2` have 33 significant bits, so `k * P1` and `k * P2`
/// are exact for the quadrant counts below the std cut-off.
const P1: f64 = 1.570_796_326_734_125_6;
const P2: f64 = 6.077_100_506_303_966e-11;
const P3: f64 = 2.022_266_248_795_950_6e-21;
/// 2/pi.
const TWO_OVER_PI: f64 = std::f64::consts::FRAC_2_PI;
/// Adding and subtracting 1.5 * 2^52 rounds a float of magnitude < 2^51 to an integer.
const ROUND: f64 = 6_755_399_441_055_744.0;
/// Below this magnitude (2^-27) x^3/6 is under half an ulp of x.
const TINY: f64 = 7.450_580_596_923_828e-9;
/// At or above this magnitude std's reduction is used.
const LIMIT: f64 = 1.0e5;

/// Taylor coefficients of sin (x^3 .. x^17) and cos (x^4 .. x^18): on |r| <= pi/4 the
/// first omitted terms are below 1e-19.
const S: [f64; 8] = [
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5_040.0,
    1.0 / 362_880.0,
    -1.0 / 39_916_800.0,
    1.0 / 6_227_020_800.0,
    -1.0 / 1_307_674_368_000.0,
    1.0 / 355_687_428_096_000.0,
];
const C: [f64; 8] = [
    1.0 / 24.0,
    -1.0 / 720.0,
    1.0 / 40_320.0,
    -1.0 / 3_628_800.0,
    1.0 / 479_001_600.0,
    -1.0 / 87_178_291_200.0,
    1.0 / 20_922_789_888_000.0,
    -1.0 / 6_402_373_705_728_000.0,
];

/// `(sin x, cos x)` for `x` in radians (see the module notes for accuracy).
#[inline]
pub fn sin_cos(x: f64) -> (f64, f64) {
    // NaN fails the comparison and takes std's path too.
    if x.abs() >= LIMIT || x.is_nan() {
        return x.sin_cos();
    }
    if x.abs() < TINY {
        // sin x rounds to x and cos x to 1 (this also keeps the sign of -0).
        return (x, 1.0);
    }
    let k = (x * TWO_OVER_PI + ROUND) - ROUND;
    let r = ((x - k * P1) - k * P2) - k * P3;
    let z = r * r;
    let ps = S[0]
        + z * (S[1] + z * (S[2] + z * (S[3] + z * (S[4] + z * (S[5] + z * (S[6] + z * S[7]))))));
    let pc = C[0]
        + z * (C[1] + z * (C[2] + z * (C[3] + z * (C[4] + z * (C[5] + z * (C[6] + z * C[7]))))));
    let s = r + r * (z * ps);
    let c = (1.0 - 0.5 * z) + z * (z * pc);
    // |k| < 2^17 here, so the conversion is exact.
    match (k as i64) & 3 {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place, measured at the larger magnitude (so values
    /// near zero are judged by their absolute error at that scale).
    fn ulps(a: f64, b: f64) -> f64 {
        let scale = a.abs().max(b.abs()).max(f64::MIN_POSITIVE);
        let ulp = f64::EPSILON * 2f64.powi(scale.log2().floor() as i32);
        (a - b).abs() / ulp
    }

    #[test]
    fn agrees_with_std_within_two_ulp() {
        // Angles as pose math makes them: degrees times the rounded pi, and raw radians.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut worst = 0.0f64;
        for i in 0..(1 << 20) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let u = (state >> 11) as f64 / (1u64 << 53) as f64;
            let x = match i % 4 {
                0 => (u - 0.5) * 720.0 * crate::math::SPINE_DEG_RAD,
                1 => (u - 0.5) * 20.0,
                2 => (u - 0.5) * 2.0e4,
                _ => (u - 0.5) * 1.9e5,
            };
            let (s, c) = sin_cos(x);
            let (rs, rc) = x.sin_cos();
            // Near zero crossings std itself is only accurate to its own ulp of 1.
            let e = ulps(s, rs).max(ulps(c, rc));
            let abs = (s - rs).abs().max((c - rc).abs());
            worst = worst.max(if abs <= 2.3e-16 { 0.0 } else { e });
            assert!(
                e <= 2.0 || abs <= 2.3e-16,
                "x = {x:e}: ({s:e}, {c:e}) vs ({rs:e}, {rc:e})"
            );
        }
        assert!(worst <= 2.0);
    }

    #[test]
    fn special_values() {
        for x in [0.0, -0.0, 1e-300, -1e-300, 1e-8] {
            let (s, c) = sin_cos(x);
            assert_eq!(s.to_bits(), x.to_bits(), "{x}");
            assert_eq!(c, 1.0);
        }
        let (s, c) = sin_cos(f64::NAN);
        assert!(s.is_nan() && c.is_nan());
        let (s, c) = sin_cos(f64::INFINITY);
        assert!(s.is_nan() && c.is_nan());
        let (s, c) = sin_cos(3.0e7);
        assert_eq!((s, c), 3.0e7f64.sin_cos());
        // Exact quadrant points of the rounded pi used for bones at 90 degree steps.
        for deg in [-270.0, -180.0, -90.0, 90.0, 180.0, 270.0, 360.0] {
            let x: f64 = deg * crate::math::SPINE_DEG_RAD;
            let (s, c) = sin_cos(x);
            let (rs, rc) = x.sin_cos();
            assert!(
                (s - rs).abs() <= 2.3e-16 && (c - rc).abs() <= 2.3e-16,
                "{deg}"
            );
        }
    }
}
