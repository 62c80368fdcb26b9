//! The unweighted world-vertex loop (`x' = a·x + b·y + tx`, `y' = c·x + d·y + ty`, f64,
//! rounded to f32) written with AVX: two vertices per 256-bit register, four per turn.
//! Every lane does exactly the scalar arithmetic of `vertices::affine_plain` (each product
//! rounded, then `(x·a + y·b) + tx`, no fused multiply-add), so the results are bit-identical
//! to it; the machine only runs several vertices side by side. Chosen at run time by
//! `vertices::affine` when the CPU has AVX. Verified by `vertices_tests.rs`
//! (`affine_kernels_agree_bit_for_bit`) and `sinew-formats/tests/all/fast_paths.rs`.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m128, __m256d, _mm_castps_si128, _mm_cvtsi128_si64, _mm_loadu_ps, _mm_or_ps, _mm_setzero_ps,
    _mm_storeu_ps, _mm_sub_ps, _mm_unpackhi_epi64, _mm256_add_pd, _mm256_cvtpd_ps, _mm256_cvtps_pd,
    _mm256_loadu_pd, _mm256_movedup_pd, _mm256_mul_pd, _mm256_permute_pd, _mm256_setr_pd,
};

/// The affine map's columns laid out for two (x, y) pairs side by side.
struct Lanes {
    xs: __m256d,
    ys: __m256d,
    t: __m256d,
}

#[target_feature(enable = "avx")]
#[inline]
fn lanes(m: [f64; 6]) -> Lanes {
    let [a, b, c, d, x, y] = m;
    Lanes {
        xs: _mm256_setr_pd(a, c, a, c),
        ys: _mm256_setr_pd(b, d, b, d),
        t: _mm256_setr_pd(x, y, x, y),
    }
}

/// `p` = (x0, y0, x1, y1) mapped: (x0', y0', x1', y1'), in the scalar order.
#[target_feature(enable = "avx")]
#[inline]
fn map2(l: &Lanes, p: __m256d) -> __m256d {
    let x = _mm256_movedup_pd(p);
    let y = _mm256_permute_pd::<0b1111>(p);
    _mm256_add_pd(
        _mm256_add_pd(_mm256_mul_pd(x, l.xs), _mm256_mul_pd(y, l.ys)),
        l.t,
    )
}

/// `acc` with the non-finite lanes of `v` marked: `v - v` is +0 for a finite value and a
/// NaN for an infinity or a NaN, so the or of them is all zero bits exactly when every value
/// written was finite.
#[target_feature(enable = "avx")]
#[inline]
fn mark(acc: __m128, v: __m128) -> __m128 {
    _mm_or_ps(acc, _mm_sub_ps(v, v))
}

/// Whether any lane of a [`mark`] accumulator was marked.
#[target_feature(enable = "avx")]
#[inline]
fn marked(acc: __m128) -> bool {
    let bits = _mm_castps_si128(acc);
    (_mm_cvtsi128_si64(bits) | _mm_cvtsi128_si64(_mm_unpackhi_epi64(bits, bits))) != 0
}

/// Maps the f64 pairs of `src` into `out` (as many whole pairs as both hold); returns how
/// many floats it wrote (a multiple of 4; the caller finishes the rest) and whether any of
/// them is not finite.
#[target_feature(enable = "avx")]
pub fn map_f64(m: [f64; 6], src: &[f64], out: &mut [f32]) -> (usize, bool) {
    let l = lanes(m);
    let mut acc = _mm_setzero_ps();
    let n = src.len().min(out.len());
    let quads = n - n % 4;
    let eights = n - n % 8;
    let mut j = 0;
    // SAFETY (both loops): `j + 8 <= eights <= n` (`j + 4 <= quads <= n`), and `src` and
    // `out` hold at least `n` elements, so every load and store is in bounds.
    unsafe {
        while j < eights {
            let r0 = _mm256_cvtpd_ps(map2(&l, _mm256_loadu_pd(src.as_ptr().add(j))));
            let r1 = _mm256_cvtpd_ps(map2(&l, _mm256_loadu_pd(src.as_ptr().add(j + 4))));
            _mm_storeu_ps(out.as_mut_ptr().add(j), r0);
            _mm_storeu_ps(out.as_mut_ptr().add(j + 4), r1);
            acc = mark(mark(acc, r0), r1);
            j += 8;
        }
        while j < quads {
            let r = _mm256_cvtpd_ps(map2(&l, _mm256_loadu_pd(src.as_ptr().add(j))));
            _mm_storeu_ps(out.as_mut_ptr().add(j), r);
            acc = mark(acc, r);
            j += 4;
        }
    }
    (j, marked(acc))
}

/// [`map_f64`] for f32 source pairs (widened exactly before the f64 arithmetic).
#[target_feature(enable = "avx")]
pub fn map_f32(m: [f64; 6], src: &[f32], out: &mut [f32]) -> (usize, bool) {
    let l = lanes(m);
    let mut acc = _mm_setzero_ps();
    let n = src.len().min(out.len());
    let quads = n - n % 4;
    let mut j = 0;
    // SAFETY: `j + 4 <= quads <= n`, and `src` and `out` hold at least `n` elements.
    unsafe {
        while j < quads {
            let p = _mm256_cvtps_pd(_mm_loadu_ps(src.as_ptr().add(j)));
            let r = _mm256_cvtpd_ps(map2(&l, p));
            _mm_storeu_ps(out.as_mut_ptr().add(j), r);
            acc = mark(acc, r);
            j += 4;
        }
    }
    (j, marked(acc))
}
