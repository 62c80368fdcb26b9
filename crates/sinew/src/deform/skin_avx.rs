//! Weighted (skinned) world vertices with AVX: two influences side by side in one 256-bit
//! register, in f64, in spine-ts's order of operations.
//!
//! For an influence on bone `m` with setup offset `(vx, vy)` (plus its deform offset) and
//! weight `w`, Spine computes `((vx·a + vy·b) + x)·w` and `((vx·c + vy·d) + y)·w` and adds it
//! to the vertex's running sum, influence after influence. Here the products of two
//! influences are formed at once — `(vx, vy)·(a, b)` and `(vx, vy)·(c, d)` folded by one
//! horizontal add into `(vx·a + vy·b, vx·c + vy·d)` per influence — and the running sum
//! still takes them one at a time, so every value is bit-identical to `vertices::skin` (the
//! plain loop beside it, which machines without AVX run, and which vertices of five or more
//! influences take here too). Verified by `vertices_tests.rs`
//! (`skin_kernels_agree_bit_for_bit`) and `sinew-formats/tests/all/fast_paths.rs` (every Spine
//! fixture's animations against the general `vertex_world` loop).
#![allow(unsafe_code)]

use crate::math::{WorldTransform, floats_of};
use std::arch::x86_64::{
    __m128d, __m256d, _mm_add_pd, _mm_castps_pd, _mm_cvtpd_ps, _mm_hadd_pd, _mm_loadu_pd,
    _mm_mul_pd, _mm_set1_pd, _mm_setr_pd, _mm_setr_ps, _mm_setzero_pd, _mm_storel_pd,
    _mm256_add_pd, _mm256_castpd256_pd128, _mm256_cvtps_pd, _mm256_extractf128_pd, _mm256_hadd_pd,
    _mm256_loadu2_m128d, _mm256_mul_pd, _mm256_setr_pd,
};

/// The kernel of `vertices::skin`; `DEFORM`: `deform` offsets each influence. Fills
/// `out.len() / 2` vertices, stopping early (as the plain loop does) on data the builder
/// would have rejected; returns `false` (what it wrote is not checked for finiteness).
#[target_feature(enable = "avx")]
pub fn skin<const DEFORM: bool>(
    world: &[WorldTransform],
    mut bones: &[u32],
    mut values: &[f32],
    mut deform: &[f64],
    out: &mut [f32],
) -> bool {
    let floats = floats_of(world);
    for o in out.chunks_exact_mut(2) {
        // Vertices of one to four influences (nearly all of them) take a path with the count
        // fixed at compile time, without the general loop's bookkeeping.
        let (b, v, d) = (&mut bones, &mut values, &mut deform);
        let fixed = match b.first() {
            Some(1) => Some(fixed::<1, 3, 2, DEFORM>(floats, b, v, d, o)),
            Some(2) => Some(fixed::<2, 6, 4, DEFORM>(floats, b, v, d, o)),
            Some(3) => Some(fixed::<3, 9, 6, DEFORM>(floats, b, v, d, o)),
            Some(4) => Some(fixed::<4, 12, 8, DEFORM>(floats, b, v, d, o)),
            _ => None,
        };
        match fixed {
            Some(true) => continue,
            Some(false) => return false,
            None => {}
        }
        // Five or more influences (a handful in the fixtures): the plain loop's arithmetic,
        // which gives the same bits.
        let Some((ids, vals, offs)) =
            super::vertices::next_vertex::<DEFORM>(&mut bones, &mut values, &mut deform)
        else {
            return false;
        };
        let Some(crate::math::Vec2 { x: wx, y: wy }) =
            super::vertices::vertex_sum::<DEFORM>(world, ids, vals, offs)
        else {
            return false;
        };
        o[0] = wx as f32;
        o[1] = wy as f32;
    }
    false
}

/// One influence's term `((vx·a + vy·b) + x)·w`, `((vx·c + vy·d) + y)·w` on the bone whose
/// six transform values are `m`.
#[target_feature(enable = "avx")]
#[inline]
fn single_term(m: &[f64; 6], vx: f64, vy: f64, w: f64) -> __m128d {
    let v = _mm_setr_pd(vx, vy);
    // SAFETY: `m` holds six f64, read two at a time.
    unsafe {
        let h = _mm_hadd_pd(
            _mm_mul_pd(v, _mm_loadu_pd(m.as_ptr())),
            _mm_mul_pd(v, _mm_loadu_pd(m.as_ptr().add(2))),
        );
        _mm_mul_pd(
            _mm_add_pd(h, _mm_loadu_pd(m.as_ptr().add(4))),
            _mm_set1_pd(w),
        )
    }
}

/// The vertex's two sums rounded to f32 into `o`.
#[target_feature(enable = "avx")]
#[inline]
fn store(o: &mut [f32], acc: __m128d) {
    let mut pair = 0.0f64;
    // SAFETY: `pair` holds the 8 bytes `_mm_storel_pd` writes (two f32).
    unsafe { _mm_storel_pd(&mut pair, _mm_castps_pd(_mm_cvtpd_ps(acc))) };
    let bits = pair.to_bits();
    o[0] = f32::from_bits(bits as u32);
    o[1] = f32::from_bits((bits >> 32) as u32);
}

/// One vertex of exactly `N` influences (`V` = 3N setup floats, `D` = 2N deform offsets),
/// read from the front of `bones`, `values` and `deform`, which are advanced past it; its two
/// sums stored in `o`. `false` on data the builder would have rejected (too short, a
/// bone out of range): the caller stops as the plain loop does. The running sum starts at 0
/// and takes the terms in order, pairs formed two at a time.
#[target_feature(enable = "avx")]
#[inline]
fn fixed<const N: usize, const V: usize, const D: usize, const DEFORM: bool>(
    floats: &[f64],
    bones: &mut &[u32],
    values: &mut &[f32],
    deform: &mut &[f64],
    o: &mut [f32],
) -> bool {
    let bones_len = floats.len() / 6;
    let Some((ids, brest)) = bones.get(1..).and_then(|b| b.split_first_chunk::<N>()) else {
        return false;
    };
    let Some((vals, vrest)) = values.split_first_chunk::<V>() else {
        return false;
    };
    let (offs, drest): (&[f64], &[f64]) = if DEFORM {
        match deform.split_first_chunk::<D>() {
            Some((d, rest)) => (d, rest),
            None => return false,
        }
    } else {
        (&[], deform)
    };
    if ids.iter().any(|&b| b as usize >= bones_len) {
        return false;
    }
    let mut acc = _mm_setzero_pd();
    for k in 0..N / 2 {
        let (b0, b1) = (ids[2 * k] as usize, ids[2 * k + 1] as usize);
        let p = &vals[6 * k..6 * k + 6];
        let mut v = _mm256_cvtps_pd(_mm_setr_ps(p[0], p[1], p[3], p[4]));
        if DEFORM {
            let d = &offs[4 * k..4 * k + 4];
            v = _mm256_add_pd(v, _mm256_setr_pd(d[0], d[1], d[2], d[3]));
        }
        let w = _mm256_cvtps_pd(_mm_setr_ps(p[2], p[2], p[5], p[5]));
        // SAFETY: every index in `ids` is below `floats.len() / 6` (checked above), so the
        // six f64 at `6 * b` are inside `floats`.
        let q = unsafe {
            let (m0, m1) = (floats.as_ptr().add(6 * b0), floats.as_ptr().add(6 * b1));
            let ab = _mm256_loadu2_m128d(m1, m0);
            let cd = _mm256_loadu2_m128d(m1.add(2), m0.add(2));
            let xy = _mm256_loadu2_m128d(m1.add(4), m0.add(4));
            pair_terms(v, ab, cd, xy, w)
        };
        acc = _mm_add_pd(acc, _mm256_castpd256_pd128(q));
        acc = _mm_add_pd(acc, _mm256_extractf128_pd::<1>(q));
    }
    if N % 2 == 1 {
        let k = N - 1;
        let b = ids[k] as usize;
        let p = &vals[3 * k..3 * k + 3];
        let (mut vx, mut vy) = (f64::from(p[0]), f64::from(p[1]));
        if DEFORM {
            vx += offs[2 * k];
            vy += offs[2 * k + 1];
        }
        let Some(m) = floats[6 * b..].first_chunk::<6>() else {
            return false; // not reached: `b` was checked below `floats.len() / 6`
        };
        let t = single_term(m, vx, vy, f64::from(p[2]));
        acc = _mm_add_pd(acc, t);
    }
    store(o, acc);
    *bones = brest;
    *values = vrest;
    *deform = drest;
    true
}

/// Two influences' terms: with `v` = (vx0, vy0, vx1, vy1), the bones' (a, b), (c, d) and
/// (x, y) pairs and `w` = (w0, w0, w1, w1), the lanes of `((vx·a + vy·b) + x)·w` and
/// `((vx·c + vy·d) + y)·w` for each influence.
#[target_feature(enable = "avx")]
#[inline]
fn pair_terms(v: __m256d, ab: __m256d, cd: __m256d, xy: __m256d, w: __m256d) -> __m256d {
    let h = _mm256_hadd_pd(_mm256_mul_pd(v, ab), _mm256_mul_pd(v, cd));
    _mm256_mul_pd(_mm256_add_pd(h, xy), w)
}
