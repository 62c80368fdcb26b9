//! The unweighted world-vertex loop in f32 with fused multiply-adds
//! (`x' = fma(x, a, fma(y, b, tx))`, `y' = fma(y, d, fma(x, c, ty))`), written with AVX2 and
//! FMA: four vertices per 256-bit register, sixteen per turn. Used for rigs whose runtime
//! computes vertices in f32 ([`VertexMath::F32Fused`](crate::rig::VertexMath), Inochi2D),
//! where it costs less than half of the f64 loop in `affine_avx.rs`. Every lane does exactly
//! the arithmetic of `vertices::affine_fused_plain` (a source value rounded to f32 once, then
//! two fused multiply-adds, each rounded once), so the results are bit-identical to it on
//! any machine. Chosen at run time by `vertices::affine_fused` when the CPU has AVX2 and
//! FMA. Verified by `vertices_tests.rs` (`fused_kernels_agree_bit_for_bit`).
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m256, __m256i, _mm256_castps_si256, _mm256_castps128_ps256, _mm256_cvtpd_ps, _mm256_fmadd_ps,
    _mm256_insertf128_ps, _mm256_loadu_pd, _mm256_loadu_ps, _mm256_loadu_si256, _mm256_maskload_pd,
    _mm256_maskload_ps, _mm256_maskstore_ps, _mm256_permute_ps, _mm256_setr_ps, _mm256_setzero_pd,
    _mm256_setzero_ps, _mm256_storeu_ps, _mm256_testz_si256,
};

/// The map laid out for four (x, y) pairs side by side: the diagonal, the anti-diagonal
/// and the translation.
struct Lanes {
    diag: __m256,
    anti: __m256,
    t: __m256,
}

#[target_feature(enable = "avx2,fma")]
#[inline]
fn lanes(m: [f32; 6]) -> Lanes {
    let [a, b, c, d, x, y] = m;
    Lanes {
        diag: _mm256_setr_ps(a, d, a, d, a, d, a, d),
        anti: _mm256_setr_ps(b, c, b, c, b, c, b, c),
        t: _mm256_setr_ps(x, y, x, y, x, y, x, y),
    }
}

/// Four pairs mapped, in the scalar order: with `p` = (x, y) and `q` = (y, x),
/// `fma(p, (a, d), fma(q, (b, c), (tx, ty)))`.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn map4(l: &Lanes, p: __m256) -> __m256 {
    let q = _mm256_permute_ps::<0b1011_0001>(p);
    _mm256_fmadd_ps(p, l.diag, _mm256_fmadd_ps(q, l.anti, l.t))
}

/// `acc + v * 0`: stays +0 while every value is finite, becomes NaN for good at the first
/// infinity or NaN (`inf * 0` is NaN). One instruction per vector.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn mark(acc: __m256, v: __m256) -> __m256 {
    _mm256_fmadd_ps(v, _mm256_setzero_ps(), acc)
}

/// Whether any lane of a [`mark`] accumulator was marked.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn marked(acc: __m256) -> bool {
    let bits = _mm256_castps_si256(acc);
    _mm256_testz_si256(bits, bits) == 0
}

/// Maps the f64 pairs of `src` (each rounded to f32 first) into `out`, as many whole pairs
/// as both hold (the last one to three pairs by the last eight floats again, overlapping,
/// or with masked loads and stores when there are fewer than four pairs); returns whether
/// any value written is not finite.
#[target_feature(enable = "avx2,fma")]
pub fn map_f64(m: [f32; 6], src: &[f64], out: &mut [f32]) -> bool {
    let l = lanes(m);
    let mut acc = _mm256_setzero_ps();
    let n = src.len().min(out.len()) & !1;
    let (thirty_twos, eights) = (n - n % 32, n - n % 8);
    let mut j = 0;
    let load = |j: usize| {
        // SAFETY: callers pass `j + 8 <= n`; `src` holds at least `n` elements.
        unsafe {
            let lo = _mm256_cvtpd_ps(_mm256_loadu_pd(src.as_ptr().add(j)));
            let hi = _mm256_cvtpd_ps(_mm256_loadu_pd(src.as_ptr().add(j + 4)));
            _mm256_insertf128_ps::<1>(_mm256_castps128_ps256(lo), hi)
        }
    };
    // SAFETY (both loops): `j + 32 <= thirty_twos <= n` (`j + 8 <= eights <= n`), and
    // `out` holds at least `n` elements, so every store is in bounds.
    unsafe {
        while j < thirty_twos {
            let r = [0, 8, 16, 24].map(|k| map4(&l, load(j + k)));
            for (k, r) in r.iter().enumerate() {
                _mm256_storeu_ps(out.as_mut_ptr().add(j + 8 * k), *r);
            }
            acc = mark(mark(mark(mark(acc, r[0]), r[1]), r[2]), r[3]);
            j += 32;
        }
        while j < eights {
            let r = map4(&l, load(j));
            _mm256_storeu_ps(out.as_mut_ptr().add(j), r);
            acc = mark(acc, r);
            j += 8;
        }
    }
    let rest = n - j;
    if rest > 0 && n >= 8 {
        // The last eight floats again, overlapping what is written: each output depends on
        // its own pair only, so the overlap is rewritten with the same bits.
        // SAFETY: `n - 8 + 8 = n`: in bounds of `src` and `out`.
        unsafe {
            let r = map4(&l, load(n - 8));
            _mm256_storeu_ps(out.as_mut_ptr().add(n - 8), r);
            acc = mark(acc, r);
        }
    } else if rest > 0 {
        // SAFETY: `rest` < 8, so the masks cover only elements `j..n` of `src` and `out`
        // (masked-out lanes are neither read nor written); the second load's pointer is
        // formed only when `rest` > 4, i.e. when it is inside `src`.
        unsafe {
            let lo = _mm256_maskload_pd(src.as_ptr().add(j), mask64(rest.min(4)));
            let hi = if rest > 4 {
                _mm256_maskload_pd(src.as_ptr().add(j + 4), mask64(rest - 4))
            } else {
                _mm256_setzero_pd()
            };
            let p = _mm256_insertf128_ps::<1>(
                _mm256_castps128_ps256(_mm256_cvtpd_ps(lo)),
                _mm256_cvtpd_ps(hi),
            );
            let r = map4(&l, p);
            _mm256_maskstore_ps(out.as_mut_ptr().add(j), mask32(rest), r);
            acc = mark(acc, r);
        }
    }
    marked(acc)
}

/// [`map_f64`] for f32 source pairs.
#[target_feature(enable = "avx2,fma")]
pub fn map_f32(m: [f32; 6], src: &[f32], out: &mut [f32]) -> bool {
    let l = lanes(m);
    let mut acc = _mm256_setzero_ps();
    let n = src.len().min(out.len()) & !1;
    let eights = n - n % 8;
    let mut j = 0;
    // SAFETY: `j + 8 <= eights <= n`, and `src` and `out` hold at least `n` elements.
    unsafe {
        while j < eights {
            let r = map4(&l, _mm256_loadu_ps(src.as_ptr().add(j)));
            _mm256_storeu_ps(out.as_mut_ptr().add(j), r);
            acc = mark(acc, r);
            j += 8;
        }
    }
    let rest = n - j;
    if rest > 0 && n >= 8 {
        // As in `map_f64`: the last eight floats again, overlapping, same bits.
        // SAFETY: `n - 8 + 8 = n`: in bounds of `src` and `out`.
        unsafe {
            let r = map4(&l, _mm256_loadu_ps(src.as_ptr().add(n - 8)));
            _mm256_storeu_ps(out.as_mut_ptr().add(n - 8), r);
            acc = mark(acc, r);
        }
    } else if rest > 0 {
        // SAFETY: `rest` < 8: the mask covers only elements `j..n` of `src` and `out`.
        unsafe {
            let mask = mask32(rest);
            let r = map4(&l, _mm256_maskload_ps(src.as_ptr().add(j), mask));
            _mm256_maskstore_ps(out.as_mut_ptr().add(j), mask, r);
            acc = mark(acc, r);
        }
    }
    marked(acc)
}

/// All-ones lanes then zeros: a mask's first `k` (< 8) lanes from offset `8 - k`.
const MASK_TABLE: [i32; 16] = [-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0];

/// A mask of the first `k` (<= 8) 32-bit lanes.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn mask32(k: usize) -> __m256i {
    // SAFETY: `8 - k` + 8 <= 16 for `k` <= 8.
    unsafe { _mm256_loadu_si256(MASK_TABLE.as_ptr().add(8 - k).cast()) }
}

/// A mask of the first `k` (<= 4) 64-bit lanes.
#[target_feature(enable = "avx2,fma")]
#[inline]
fn mask64(k: usize) -> __m256i {
    // Two all-ones 32-bit lanes make one all-ones 64-bit lane.
    mask32(2 * k)
}
