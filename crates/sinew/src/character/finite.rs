//! No NaN or infinity leaves a [`Character`](super::Character) (issue 12).
//!
//! - **Inputs** are checked where they enter: setters that return a `Result` refuse a
//!   non-finite value, or one of magnitude [`MAX_INPUT`] or more, with
//!   [`CharacterError::NotFinite`] (parameters, bone locals, IK targets, mix durations,
//!   queue delays); setters without one ignore such a value and keep the previous one
//!   (position, scale, colour, default mix); `update(dt)` takes a non-finite or negative `dt`
//!   (after the time scale) as 0.
//! - **Outputs** that can still overflow (finite values whose products pass f64 or f32: a
//!   chain of bones each scaled 1e29, vertices far out under a large scale) are checked once
//!   where they are produced: after each update the world transforms (a few values a bone),
//!   the draw list's positions when it is built, the world vertices when they are computed.
//!   A value that is not finite is replaced by 0 and [`Character::overflowed`] says so until
//!   the next update. Query helpers (`local_to_world`, `world_to_local`, the rotations) give
//!   `None` for a result that is not finite (a non-finite or huge argument).
//!
//! Verified by `character/tests_hostile.rs` (every output finite under NaN, infinity, 1e38,
//! -0 and zero scales through the public API).
//!
//! [`Character::overflowed`]: super::Character::overflowed

use super::error::CharacterError;
use crate::math::{Vec2, WorldTransform};

/// Inputs must be smaller than this in magnitude (the loaders refuse file values of the same
/// size: their products overflow the f32 outputs).
pub const MAX_INPUT: f64 = 1e30;

/// `v` when finite and under [`MAX_INPUT`] in magnitude, else [`CharacterError::NotFinite`]
/// naming `what`.
pub(crate) fn input(what: &'static str, v: f64) -> Result<f64, CharacterError> {
    if v.is_finite() && v.abs() < MAX_INPUT {
        Ok(v)
    } else {
        Err(CharacterError::NotFinite { what })
    }
}

/// Whether `v` is an acceptable input (see [`input`]).
pub(crate) fn ok(v: f64) -> bool {
    v.is_finite() && v.abs() < MAX_INPUT
}

/// The bits of `v - v`: zero for a finite `v`, a NaN's otherwise.
#[inline(always)]
#[allow(clippy::eq_op)] // `v - v` on purpose: it is what tells a finite value apart.
fn mark(v: f64) -> u64 {
    (v - v).to_bits()
}

/// Whether every value is finite: the or of every [`mark`] is zero. It runs over every world
/// transform every frame: with AVX when the CPU has it ([`all_finite_avx`]).
fn all_finite(values: &[f64]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let cpu = crate::math::simd::features();
        if cpu.avx_fma() {
            // SAFETY: the CPU supports AVX and FMA (`features` says so only then), the only
            // requirement of calling a function compiled with those target features.
            #[allow(unsafe_code)]
            return unsafe { all_finite_fma(values) };
        }
        if cpu.avx() {
            // SAFETY: the CPU supports AVX (`features` says so only then), the only requirement of
            // calling a function compiled with `target_feature(enable = "avx")`.
            #[allow(unsafe_code)]
            return unsafe { all_finite_avx(values) };
        }
    }
    all_finite_plain(values)
}

/// [`all_finite_plain`] with fused multiply-adds: `acc + v * 0` stays +0 while every value is
/// finite and turns NaN at the first infinity or NaN (`inf * 0` is NaN), one instruction per
/// four values with the load folded in; four accumulators, sixteen values a turn, so the
/// chain of adds does not hold the loop up (then four at a time, then the plain loop).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx,fma")]
#[allow(unsafe_code)]
fn all_finite_fma(values: &[f64]) -> bool {
    use std::arch::x86_64::{
        _mm256_castpd_si256, _mm256_fmadd_pd, _mm256_loadu_pd, _mm256_or_pd, _mm256_setzero_pd,
        _mm256_testz_si256,
    };
    let chunks = values.chunks_exact(16);
    let quads = chunks.remainder().chunks_exact(4);
    let tail = quads.remainder().iter().fold(0, |acc, &v| acc | mark(v));
    let zero = _mm256_setzero_pd();
    let mut acc = [zero; 4];
    for c in chunks {
        for (k, a) in acc.iter_mut().enumerate() {
            // SAFETY: `c` holds exactly sixteen f64 (chunks_exact), read unaligned.
            let v = unsafe { _mm256_loadu_pd(c.as_ptr().add(4 * k)) };
            *a = _mm256_fmadd_pd(v, zero, *a);
        }
    }
    for q in quads {
        // SAFETY: `q` holds exactly four f64 (chunks_exact), read unaligned.
        let v = unsafe { _mm256_loadu_pd(q.as_ptr()) };
        acc[0] = _mm256_fmadd_pd(v, zero, acc[0]);
    }
    let all = _mm256_or_pd(_mm256_or_pd(acc[0], acc[1]), _mm256_or_pd(acc[2], acc[3]));
    let bits = _mm256_castpd_si256(all);
    _mm256_testz_si256(bits, bits) == 1 && tail == 0
}

/// [`all_finite_plain`] four lanes at a time with AVX: the same marks, or-ed in registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[allow(unsafe_code)]
fn all_finite_avx(values: &[f64]) -> bool {
    use std::arch::x86_64::{
        _mm256_castpd_si256, _mm256_loadu_pd, _mm256_or_pd, _mm256_setzero_pd, _mm256_sub_pd,
        _mm256_testz_si256,
    };
    let chunks = values.chunks_exact(4);
    let tail = chunks.remainder().iter().fold(0, |acc, &v| acc | mark(v));
    let mut acc = _mm256_setzero_pd();
    for c in chunks {
        // SAFETY: `c` holds exactly four f64 (chunks_exact), read unaligned.
        let v = unsafe { _mm256_loadu_pd(c.as_ptr()) };
        acc = _mm256_or_pd(acc, _mm256_sub_pd(v, v));
    }
    let bits = _mm256_castpd_si256(acc);
    _mm256_testz_si256(bits, bits) == 1 && tail == 0
}

/// [`all_finite`]'s plain loop (its reference, and what machines without AVX run).
fn all_finite_plain(values: &[f64]) -> bool {
    values.iter().fold(0, |acc, &v| acc | mark(v)) == 0
}

/// Replaces the non-finite components of every world transform by 0; whether any was.
pub(crate) fn world(world: &mut [WorldTransform]) -> bool {
    if all_finite(crate::math::floats_of(world)) {
        return false;
    }
    let mut any = false;
    for w in world.iter_mut() {
        for v in [&mut w.a, &mut w.b, &mut w.c, &mut w.d, &mut w.x, &mut w.y] {
            if !v.is_finite() {
                *v = 0.0;
                any = true;
            }
        }
    }
    any
}

/// Whether every f32 is finite. It runs over every world vertex and draw-list position a
/// frame makes: with AVX when the CPU has it ([`all_finite_f32_avx`]), else
/// [`all_finite_f32_plain`].
fn all_finite_f32(values: &[f32]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let cpu = crate::math::simd::features();
        if cpu.avx_fma() {
            // SAFETY: the CPU supports AVX and FMA (`features` says so only then).
            #[allow(unsafe_code)]
            return unsafe { all_finite_f32_fma(values) };
        }
        if cpu.avx() {
            // SAFETY: the CPU supports AVX (`features` says so only then), the only requirement of
            // calling a function compiled with `target_feature(enable = "avx")`.
            #[allow(unsafe_code)]
            return unsafe { all_finite_f32_avx(values) };
        }
    }
    all_finite_f32_plain(values)
}

/// [`all_finite_f32`] as [`all_finite_fma`] does it: `acc + v * 0`, four accumulators,
/// thirty-two values a turn, then eight at a time, the last seven or fewer by the plain loop.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx,fma")]
#[allow(unsafe_code)]
fn all_finite_f32_fma(values: &[f32]) -> bool {
    use std::arch::x86_64::{
        _mm256_castps_si256, _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_or_ps, _mm256_setzero_ps,
        _mm256_testz_si256,
    };
    let chunks = values.chunks_exact(32);
    let eights = chunks.remainder().chunks_exact(8);
    let tail = all_finite_f32_plain(eights.remainder());
    let zero = _mm256_setzero_ps();
    let mut acc = [zero; 4];
    for c in chunks {
        for (k, a) in acc.iter_mut().enumerate() {
            // SAFETY: `c` holds exactly thirty-two f32 (chunks_exact), read unaligned.
            let v = unsafe { _mm256_loadu_ps(c.as_ptr().add(8 * k)) };
            *a = _mm256_fmadd_ps(v, zero, *a);
        }
    }
    for e in eights {
        // SAFETY: `e` holds exactly eight f32 (chunks_exact), read unaligned.
        let v = unsafe { _mm256_loadu_ps(e.as_ptr()) };
        acc[0] = _mm256_fmadd_ps(v, zero, acc[0]);
    }
    let all = _mm256_or_ps(_mm256_or_ps(acc[0], acc[1]), _mm256_or_ps(acc[2], acc[3]));
    let bits = _mm256_castps_si256(all);
    _mm256_testz_si256(bits, bits) == 1 && tail
}

/// [`all_finite_f32`]'s plain loop: an infinity or a NaN has every exponent bit set, so
/// one more unit of exponent carries into the sign bit.
fn all_finite_f32_plain(values: &[f32]) -> bool {
    let carried = values.iter().fold(0u32, |acc, v| {
        acc | ((v.to_bits() & 0x7fff_ffff) + 0x0080_0000)
    });
    carried & 0x8000_0000 == 0
}

/// [`all_finite_f32`] eight lanes at a time: `v - v` or-ed in registers (zero bits exactly
/// when every value is finite), the tail by the plain loop.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[allow(unsafe_code)]
fn all_finite_f32_avx(values: &[f32]) -> bool {
    use std::arch::x86_64::{
        _mm256_castps_si256, _mm256_loadu_ps, _mm256_or_ps, _mm256_setzero_ps, _mm256_sub_ps,
        _mm256_testz_si256,
    };
    let chunks = values.chunks_exact(8);
    let tail = all_finite_f32_plain(chunks.remainder());
    let mut acc = _mm256_setzero_ps();
    for c in chunks {
        // SAFETY: `c` holds exactly eight f32 (chunks_exact), read unaligned.
        let v = unsafe { _mm256_loadu_ps(c.as_ptr()) };
        acc = _mm256_or_ps(acc, _mm256_sub_ps(v, v));
    }
    let bits = _mm256_castps_si256(acc);
    _mm256_testz_si256(bits, bits) == 1 && tail
}

/// Replaces the non-finite values of `values` by 0; whether any was.
pub(crate) fn floats(values: &mut [f32]) -> bool {
    if all_finite_f32(values) {
        return false;
    }
    let mut any = false;
    for v in values.iter_mut() {
        if !v.is_finite() {
            *v = 0.0;
            any = true;
        }
    }
    any
}

/// `Some(p)` when both coordinates are finite.
pub(crate) fn point(p: Vec2) -> Option<Vec2> {
    (p.x.is_finite() && p.y.is_finite()).then_some(p)
}

/// `Some(v)` when finite.
pub(crate) fn scalar(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_values_become_zero_and_are_reported() {
        let mut v = [1.0f32, f32::NAN, -0.0, f32::INFINITY, 3.0];
        assert!(floats(&mut v));
        assert_eq!(v, [1.0, 0.0, -0.0, 0.0, 3.0]);
        assert!(!floats(&mut v));
        let mut w = [WorldTransform::IDENTITY; 3];
        assert!(!world(&mut w));
        w[1].x = f64::NEG_INFINITY;
        w[2].b = f64::NAN;
        assert!(world(&mut w));
        assert_eq!((w[1].x, w[2].b, w[2].a), (0.0, 0.0, 1.0));
        assert!(input("x", 1e30).is_err() && input("x", f64::NAN).is_err());
        assert_eq!(input("x", -1e29), Ok(-1e29));
        assert_eq!(point(Vec2::new(1.0, f64::INFINITY)), None);
    }

    #[test]
    fn the_world_check_agrees_with_its_plain_loop() {
        for len in 0..40 {
            for bad in 0..=len {
                let mut v: Vec<f64> = (0..len).map(|i| i as f64 * 1e300 - 7.5).collect();
                if let Some(x) = v.get_mut(bad) {
                    *x = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY][bad % 3];
                }
                let plain = all_finite_plain(&v);
                assert_eq!(plain, bad == len, "len {len}, bad {bad}");
                assert_eq!(all_finite(&v), plain, "len {len}, bad {bad}");
                // Each vector loop on its own, whichever the dispatcher prefers here.
                #[cfg(target_arch = "x86_64")]
                #[allow(unsafe_code)]
                {
                    let cpu = crate::math::simd::detected();
                    if cpu.avx() {
                        // SAFETY: the CPU has AVX.
                        assert_eq!(unsafe { all_finite_avx(&v) }, plain, "avx, len {len}");
                    }
                    if cpu.avx_fma() {
                        // SAFETY: the CPU has AVX and FMA.
                        assert_eq!(unsafe { all_finite_fma(&v) }, plain, "fma, len {len}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_f32_check_agrees_with_its_plain_loop() {
        for len in 0..72 {
            for bad in 0..=len {
                let mut v: Vec<f32> = (0..len).map(|i| i as f32 * 1e36 - 7.5).collect();
                if let Some(x) = v.get_mut(bad) {
                    *x = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][bad % 3];
                }
                let plain = all_finite_f32_plain(&v);
                assert_eq!(plain, bad == len, "len {len}, bad {bad}");
                assert_eq!(all_finite_f32(&v), plain, "len {len}, bad {bad}");
                #[cfg(target_arch = "x86_64")]
                #[allow(unsafe_code)]
                {
                    let cpu = crate::math::simd::detected();
                    if cpu.avx() {
                        // SAFETY: the CPU has AVX.
                        assert_eq!(unsafe { all_finite_f32_avx(&v) }, plain, "avx, len {len}");
                    }
                    if cpu.avx_fma() {
                        // SAFETY: the CPU has AVX and FMA.
                        assert_eq!(unsafe { all_finite_f32_fma(&v) }, plain, "fma, len {len}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_exponent_carry_test_tells_every_class_apart() {
        let finite = [
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            1e-45,
            -1e-45,
            0.0,
            -0.0,
        ];
        let mut v = finite;
        assert!(!floats(&mut v));
        assert_eq!(v, finite);
        for bad in [
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7f80_0001),
        ] {
            let mut v = [f32::MAX, bad, -1e-45];
            assert!(floats(&mut v), "{bad:?}");
            assert_eq!(v, [f32::MAX, 0.0, -1e-45]);
        }
    }
}
