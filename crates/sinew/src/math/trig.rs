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

/// [`sin_cos`] of four angles in AVX registers: the same reduction and polynomials on the
/// four lanes at once, the quadrant (`k mod 4`, read from the rounding sum's low bits) as
/// blends and sign flips (a negation flips the sign bit, as
/// scalar `-` does), lanes outside the polynomial's range redone by [`sin_cos`]. Returns
/// `(sines, cosines)`, lane by lane bit-identical to [`sin_cos`] (verified by
/// `sin_cos_avx_matches_scalar` below).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[inline]
#[allow(unsafe_code)]
pub(crate) fn sin_cos_avx(
    x: std::arch::x86_64::__m256d,
) -> (std::arch::x86_64::__m256d, std::arch::x86_64::__m256d) {
    use std::arch::x86_64::*;
    let set = _mm256_set1_pd;
    let t = _mm256_add_pd(_mm256_mul_pd(x, set(TWO_OVER_PI)), set(ROUND));
    let k = _mm256_sub_pd(t, set(ROUND));
    let r = _mm256_sub_pd(
        _mm256_sub_pd(
            _mm256_sub_pd(x, _mm256_mul_pd(k, set(P1))),
            _mm256_mul_pd(k, set(P2)),
        ),
        _mm256_mul_pd(k, set(P3)),
    );
    let z = _mm256_mul_pd(r, r);
    let (mut ps, mut pc) = (set(S[7]), set(C[7]));
    for j in (0..7).rev() {
        ps = _mm256_add_pd(set(S[j]), _mm256_mul_pd(z, ps));
        pc = _mm256_add_pd(set(C[j]), _mm256_mul_pd(z, pc));
    }
    let s = _mm256_add_pd(r, _mm256_mul_pd(r, _mm256_mul_pd(z, ps)));
    let c = _mm256_add_pd(
        _mm256_sub_pd(set(1.0), _mm256_mul_pd(set(0.5), z)),
        _mm256_mul_pd(z, _mm256_mul_pd(z, pc)),
    );
    // t = 1.5 * 2^52 + k exactly: bit 0 of its mantissa says "swap", bit 1 "negate the
    // sine"; the cosine is negated when the two bits differ (quadrants 1 and 2).
    let bit = |b: u64| _mm256_castsi256_pd(_mm256_set1_epi64x(b as i64));
    let zero = _mm256_setzero_pd();
    let swap = _mm256_cmp_pd::<_CMP_NEQ_UQ>(_mm256_and_pd(t, bit(1)), zero);
    let neg_s = _mm256_cmp_pd::<_CMP_NEQ_UQ>(_mm256_and_pd(t, bit(2)), zero);
    let neg_c = _mm256_xor_pd(swap, neg_s);
    let sign = bit(1 << 63);
    let a = _mm256_blendv_pd(s, c, swap);
    let b = _mm256_blendv_pd(c, s, swap);
    let mut sin = _mm256_xor_pd(a, _mm256_and_pd(neg_s, sign));
    let mut cos = _mm256_xor_pd(b, _mm256_and_pd(neg_c, sign));
    // Lanes the polynomial does not serve (NaN fails `< LIMIT`): the scalar path.
    let ax = _mm256_andnot_pd(sign, x);
    let ok = _mm256_and_pd(
        _mm256_cmp_pd::<_CMP_LT_OQ>(ax, set(LIMIT)),
        _mm256_cmp_pd::<_CMP_GE_OQ>(ax, set(TINY)),
    );
    if _mm256_movemask_pd(ok) != 0b1111 {
        let (mut xs, mut ss, mut cs) = ([0.0; 4], [0.0; 4], [0.0; 4]);
        // SAFETY: each array holds the four f64 an unaligned 256-bit store writes.
        unsafe {
            _mm256_storeu_pd(xs.as_mut_ptr(), x);
            _mm256_storeu_pd(ss.as_mut_ptr(), sin);
            _mm256_storeu_pd(cs.as_mut_ptr(), cos);
        }
        for l in 0..4 {
            let ax = xs[l].abs();
            if ax >= LIMIT || ax.is_nan() || ax < TINY {
                (ss[l], cs[l]) = sin_cos(xs[l]);
            }
        }
        // SAFETY: each array holds four f64.
        unsafe {
            sin = _mm256_loadu_pd(ss.as_ptr());
            cos = _mm256_loadu_pd(cs.as_ptr());
        }
    }
    (sin, cos)
}

/// atan(k / 32) for k = 0..=32, correctly rounded (a 70-digit evaluation).
#[allow(clippy::approx_constant)]
const ATAN_32: [f64; 33] = [
    0.0,
    0.031239833430268277,
    0.06241880999595735,
    0.09347678115858947,
    0.12435499454676144,
    0.15499674192394097,
    0.18534794999569476,
    0.21535769969773805,
    0.24497866312686414,
    0.2741674511196588,
    0.3028848683749714,
    0.3310960767041321,
    0.35877067027057225,
    0.38588266939807375,
    0.4124104415973873,
    0.43833655985795783,
    0.4636476090008061,
    0.48833395105640554,
    0.5123894603107377,
    0.5358112379604637,
    0.5585993153435624,
    0.5807563535676704,
    0.6022873461349642,
    0.6231993299340659,
    0.6435011087932844,
    0.6632029927060933,
    0.6823165548747481,
    0.7008544078844502,
    0.7188299996216245,
    0.7362574289814281,
    0.7531512809621944,
    0.7695264804056583,
    0.7853981633974483,
];
/// Magnitudes outside [2^-500, 2^500] (and zeros, infinities, NaN) go to std's `atan2`.
const ATAN_MIN: f64 = 3.054_936_363_499_605e-151;
const ATAN_MAX: f64 = 3.273_390_607_896_142e150;

/// `atan2(y, x)` in radians, within 3 ulp of the correctly rounded value (std's is within
/// 1): the ratio of the smaller to the larger magnitude is reduced to within 1/64 of a
/// multiple of 1/32 (`atan z = atan c + atan((z - c) / (1 + z c))`, `z - c` exact), whose
/// arctangent is a five-term Taylor polynomial (the first omitted term is below 1e-19 of
/// it), then unfolded into the octant. Zeros, infinities, NaN and extreme magnitudes take
/// std's path, so its sign and special-value rules hold. Verified by the tests below.
#[inline]
pub fn atan2(y: f64, x: f64) -> f64 {
    let (ax, ay) = (x.abs(), y.abs());
    // NaN fails every comparison and takes std's path.
    let ok = ax >= ATAN_MIN && ay >= ATAN_MIN && ax <= ATAN_MAX && ay <= ATAN_MAX;
    if !ok {
        return y.atan2(x);
    }
    let swap = ay > ax;
    let z = if swap { ax / ay } else { ay / ax };
    // z is in [0, 1]; k = round(32 z) is in 0..=32.
    let k = (z * 32.0 + 0.5) as usize;
    let c = k as f64 * (1.0 / 32.0);
    let t = (z - c) / (1.0 + z * c);
    let t2 = t * t;
    let p = t2 * (-1.0 / 3.0 + t2 * (1.0 / 5.0 + t2 * (-1.0 / 7.0 + t2 * (1.0 / 9.0))));
    let base = ATAN_32
        .get(k)
        .copied()
        .unwrap_or(std::f64::consts::FRAC_PI_4);
    let mut r = base + (t + t * p);
    if swap {
        r = std::f64::consts::FRAC_PI_2 - r;
    }
    if x < 0.0 {
        r = std::f64::consts::PI - r;
    }
    if y < 0.0 { -r } else { r }
}

/// A bone's last local rotation angles (radians, x and y axes) with their cosines and
/// sines. Reusing them when the angles are bit-identical gives exactly the values
/// recomputing would, and saves two `sincos` per bone in most frames.
///
/// Owner: per-instance state ([`crate::Instance`] holds one per bone); the world stage
/// (`skeleton`; step 5 of `Character::update`) reads and writes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrigMemo {
    /// The x and y axis angles, radians (NaN: nothing cached yet).
    pub angles: [f64; 2],
    /// Their cosines.
    pub cos: [f64; 2],
    /// Their sines.
    pub sin: [f64; 2],
}

impl TrigMemo {
    /// Nothing cached.
    pub const EMPTY: TrigMemo = TrigMemo {
        angles: [f64::NAN; 2],
        cos: [0.0; 2],
        sin: [0.0; 2],
    };
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn sin_cos_avx_matches_scalar() {
        if !crate::math::simd::detected().avx() {
            return; // no AVX: the kernel never runs here
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let special = [
            0.0,
            -0.0,
            1e-9,
            -3e-300,
            f64::NAN,
            f64::INFINITY,
            -f64::INFINITY,
            1e5,
            -99_999.9,
            2e17,
            std::f64::consts::FRAC_PI_4,
            -std::f64::consts::PI,
        ];
        for round in 0..20_000 {
            let mut x = [0.0; 4];
            for v in &mut x {
                let bits = next();
                *v = if round % 7 == 0 {
                    special[(bits % special.len() as u64) as usize]
                } else {
                    // Angles up to a few thousand radians, both signs.
                    (bits >> 11) as f64 / (1u64 << 53) as f64 * 8_000.0 - 4_000.0
                };
            }
            {
                let (mut vs, mut vc) = ([0.0; 4], [0.0; 4]);
                // SAFETY: the CPU has AVX (checked above); the arrays hold four f64 each.
                #[allow(unsafe_code)]
                unsafe {
                    use std::arch::x86_64::*;
                    let (a, b) = sin_cos_avx(_mm256_loadu_pd(x.as_ptr()));
                    _mm256_storeu_pd(vs.as_mut_ptr(), a);
                    _mm256_storeu_pd(vc.as_mut_ptr(), b);
                }
                for l in 0..4 {
                    let (rs, rc) = sin_cos(x[l]);
                    assert_eq!(vs[l].to_bits(), rs.to_bits(), "avx sin {}", x[l]);
                    assert_eq!(vc[l].to_bits(), rc.to_bits(), "avx cos {}", x[l]);
                }
            }
        }
    }

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

    #[test]
    fn atan2_agrees_with_std_within_three_ulp() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for i in 0..(1 << 20) {
            let (u, v) = (next() - 0.5, next() - 0.5);
            let (y, x) = match i % 4 {
                0 => (u, v),
                1 => (u * 1e3, v),
                2 => (u, v * 1e-4),
                _ => (u * 1e-9, v * 1e9),
            };
            let (f, r) = (atan2(y, x), y.atan2(x));
            assert!(ulps(f, r) <= 3.0, "atan2({y:e}, {x:e}) = {f:e} vs {r:e}");
        }
        // Exact octant edges and axes.
        for (y, x) in [
            (1.0, 1.0),
            (-1.0, 1.0),
            (1.0, -1.0),
            (-1.0, -1.0),
            (3.0, 0.0),
            (0.0, -2.0),
        ] {
            let (f, r) = (atan2(y, x), f64::atan2(y, x));
            assert!(ulps(f, r) <= 1.0, "atan2({y}, {x}) = {f:e} vs {r:e}");
        }
    }

    #[test]
    fn atan2_special_values_are_std() {
        let specials = [
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            1e-300,
            1e300,
            1.0,
            -1.0,
        ];
        for y in specials {
            for x in specials {
                let (f, r) = (atan2(y, x), y.atan2(x));
                assert!(
                    f.to_bits() == r.to_bits() || (f.is_nan() && r.is_nan()) || ulps(f, r) <= 1.0,
                    "atan2({y:e}, {x:e}) = {f:e} vs {r:e}"
                );
            }
        }
    }
}
