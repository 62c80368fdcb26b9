//! The keyform pass written with AVX intrinsics: 8 f32 lanes per instruction, widened to f64
//! only on the store. Left to its own devices the compiler splits the f32 sum into 4-lane
//! halves to match the 4-lane f64 stores; writing the lanes out halves the instructions.
//! Every lane does exactly the scalar arithmetic (f32 multiply, then add, left to right); the
//! tail runs two lanes at a time (a vertex's x and y), then the scalar loop, so results are
//! bit-identical to `kernel::pass`. Verified by
//! `kernel.rs`'s tests, which run whichever path the machine picks against the plain sum.
#![allow(unsafe_code)]

use super::kernel::Pair;
use std::arch::x86_64::{
    __m128, __m256, _mm_add_ps, _mm_castsi128_ps, _mm_cvtpd_ps, _mm_cvtps_pd, _mm_cvtsi64_si128,
    _mm_loadu_pd, _mm_mul_ps, _mm_storeu_pd, _mm256_add_ps, _mm256_castps256_ps128,
    _mm256_cvtpd_ps, _mm256_cvtps_pd, _mm256_extractf128_ps, _mm256_loadu_pd, _mm256_loadu_ps,
    _mm256_mul_ps, _mm256_set_m128, _mm256_set1_ps, _mm256_setzero_ps, _mm256_storeu_pd,
};

/// `kernel::pass` for CPUs with AVX.
#[target_feature(enable = "avx")]
pub fn pass(out: &mut [f64], base: Option<&[f32]>, pairs: &[Pair<'_>]) {
    super::kernel::by_count!(pass_n, out, base, pairs)
}

#[target_feature(enable = "avx")]
#[inline]
fn pass_n<const N: usize>(
    out: &mut [f64],
    base: Option<&[f32]>,
    keys: [&[f32]; N],
    weights: [f32; N],
) {
    let n = out.len();
    // `sum_pairs` checks every length and the stage's gather builds them to size; this keeps
    // the loads provably in bounds (and avoids `array::map`, which is not inlined into a
    // `target_feature` function).
    if keys.iter().any(|k| k.len() < n) || base.is_some_and(|b| b.len() < n) {
        return;
    }
    let lanes = n - n % 8;
    let mut wv = [_mm256_setzero_ps(); N];
    for p in 0..N {
        wv[p] = _mm256_set1_ps(weights[p]);
    }
    // `acc` plus every weighted key at `j`, widened and stored to `out[j..j + 8]`.
    // SAFETY (every use): `j + 8 <= lanes <= n`, and `out`, `base` and every key hold at
    // least `n` elements (checked above), so every load and store is in bounds.
    macro_rules! finish8 {
        ($acc:expr, $j:expr) => {{
            let (mut acc, j): (__m256, usize) = ($acc, $j);
            for p in 0..N {
                let k = _mm256_loadu_ps(keys[p].as_ptr().add(j));
                acc = _mm256_add_ps(acc, _mm256_mul_ps(wv[p], k));
            }
            let lo = _mm256_cvtps_pd(_mm256_castps256_ps128(acc));
            let hi = _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(acc));
            _mm256_storeu_pd(out.as_mut_ptr().add(j), lo);
            _mm256_storeu_pd(out.as_mut_ptr().add(j + 4), hi);
        }};
    }
    // The same on two lanes (the usual tail: two floats per vertex). SAFETY (every use):
    // `j + 2 <= n`.
    macro_rules! finish2 {
        ($acc:expr, $j:expr) => {{
            let (mut acc, j): (__m128, usize) = ($acc, $j);
            for p in 0..N {
                let k = two(keys[p].as_ptr().add(j));
                acc = _mm_add_ps(acc, _mm_mul_ps(_mm256_castps256_ps128(wv[p]), k));
            }
            _mm_storeu_pd(out.as_mut_ptr().add(j), _mm_cvtps_pd(acc));
        }};
    }
    // One loop per start (the setup vertices, or the buffer's own values), so the choice
    // is made once.
    let mut j = 0;
    // SAFETY: every access is within `n` as stated at each macro.
    unsafe {
        match base {
            Some(b) => {
                // Two vectors a turn: the loop's own bookkeeping is a fifth of a vector's
                // work at three pairs.
                while j + 16 <= lanes {
                    finish8!(_mm256_loadu_ps(b.as_ptr().add(j)), j);
                    finish8!(_mm256_loadu_ps(b.as_ptr().add(j + 8)), j + 8);
                    j += 16;
                }
                while j < lanes {
                    finish8!(_mm256_loadu_ps(b.as_ptr().add(j)), j);
                    j += 8;
                }
                while j + 2 <= n {
                    finish2!(two(b.as_ptr().add(j)), j);
                    j += 2;
                }
            }
            None => {
                while j < lanes {
                    let lo = _mm256_cvtpd_ps(_mm256_loadu_pd(out.as_ptr().add(j)));
                    let hi = _mm256_cvtpd_ps(_mm256_loadu_pd(out.as_ptr().add(j + 4)));
                    finish8!(_mm256_set_m128(hi, lo), j);
                    j += 8;
                }
                while j + 2 <= n {
                    finish2!(_mm_cvtpd_ps(_mm_loadu_pd(out.as_ptr().add(j))), j);
                    j += 2;
                }
            }
        }
    }
    for j in j..n {
        let mut acc = match base {
            Some(b) => b[j],
            None => out[j] as f32,
        };
        for p in 0..N {
            acc += weights[p] * keys[p][j];
        }
        out[j] = f64::from(acc);
    }
}

/// Two floats at `p` in the low lanes (the high lanes zero).
///
/// # Safety
/// `p` and `p + 1` must be readable.
#[target_feature(enable = "avx")]
#[inline]
unsafe fn two(p: *const f32) -> __m128 {
    // SAFETY: the caller guarantees both floats are readable; the read is unaligned. Read
    // as an integer so no float move can touch a NaN's bits.
    let bits = unsafe { p.cast::<i64>().read_unaligned() };
    _mm_castsi128_ps(_mm_cvtsi64_si128(bits))
}
