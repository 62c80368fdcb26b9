//! Weighted (skinned) world vertices with AVX: two influences side by side in one 256-bit
//! register, in f64, in spine-ts's order of operations.
//!
//! For an influence on bone `m` with setup offset `(vx, vy)` (plus its deform offset) and
//! weight `w`, Spine computes `((vx·a + vy·b) + x)·w` and `((vx·c + vy·d) + y)·w` and adds it
//! to the vertex's running sum, influence after influence. Here the products of two
//! influences are formed at once — `(vx, vy)·(a, b)` and `(vx, vy)·(c, d)` folded by one
//! horizontal add into `(vx·a + vy·b, vx·c + vy·d)` per influence — and the running sum
//! still takes them one at a time, so every value is bit-identical to `vertices::skin` (the
//! plain loop beside it, which machines without AVX run). Verified by `vertices_tests.rs`
//! (`skin_kernels_agree_bit_for_bit`) and `sinew-formats/tests/fast_paths.rs` (every Spine
//! fixture's animations against the general `vertex_world` loop).
#![allow(unsafe_code)]

use crate::math::{WorldTransform, floats_of};
use std::arch::x86_64::{
    __m128d, __m256d, _mm_add_pd, _mm_castps_pd, _mm_cvtpd_ps, _mm_hadd_pd, _mm_loadu_pd,
    _mm_mul_pd, _mm_set1_pd, _mm_setr_pd, _mm_setr_ps, _mm_setzero_pd, _mm_storel_pd,
    _mm256_add_pd, _mm256_castpd256_pd128, _mm256_cvtps_pd, _mm256_extractf128_pd, _mm256_hadd_pd,
    _mm256_loadu_pd, _mm256_loadu2_m128d, _mm256_mul_pd, _mm256_setr_pd,
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
    let bones_len = world.len();
    for o in out.chunks_exact_mut(2) {
        // The commonest vertex, two influences, without the general loop's bookkeeping.
        if let ([2, b0, b1, brest @ ..], [v0, v1, w0, v2, v3, w1, vrest @ ..]) = (bones, values) {
            let (b0, b1) = (*b0 as usize, *b1 as usize);
            if b0 >= bones_len || b1 >= bones_len {
                return false;
            }
            let mut v = _mm256_cvtps_pd(_mm_setr_ps(*v0, *v1, *v2, *v3));
            if DEFORM {
                let [d0, d1, d2, d3, drest @ ..] = deform else {
                    return false;
                };
                v = _mm256_add_pd(v, _mm256_setr_pd(*d0, *d1, *d2, *d3));
                deform = drest;
            }
            let w = _mm256_cvtps_pd(_mm_setr_ps(*w0, *w0, *w1, *w1));
            // SAFETY: `b0` and `b1` are below `world.len()`, so the six f64 at `6 * b`
            // are inside `floats`.
            let q = unsafe {
                let (m0, m1) = (floats.as_ptr().add(6 * b0), floats.as_ptr().add(6 * b1));
                let ab = _mm256_loadu2_m128d(m1, m0);
                let cd = _mm256_loadu2_m128d(m1.add(2), m0.add(2));
                let xy = _mm256_loadu2_m128d(m1.add(4), m0.add(4));
                pair_terms(v, ab, cd, xy, w)
            };
            // `0 + first` as the running sum starts, then the second.
            let acc = _mm_add_pd(_mm_setzero_pd(), _mm256_castpd256_pd128(q));
            store(o, _mm_add_pd(acc, _mm256_extractf128_pd::<1>(q)));
            bones = brest;
            values = vrest;
            continue;
        }
        // One influence: its term alone (`0 + term`).
        if let ([1, b, brest @ ..], [vx, vy, w, vrest @ ..]) = (bones, values) {
            let b = *b as usize;
            let Some(m) = floats.get(6 * b..6 * b + 6) else {
                return false;
            };
            let (mut vx, mut vy) = (f64::from(*vx), f64::from(*vy));
            if DEFORM {
                let [dx, dy, drest @ ..] = deform else {
                    return false;
                };
                vx += dx;
                vy += dy;
                deform = drest;
            }
            let t = single_term(m, vx, vy, f64::from(*w));
            store(o, _mm_add_pd(_mm_setzero_pd(), t));
            bones = brest;
            values = vrest;
            continue;
        }
        let Some((&n, rest)) = bones.split_first() else {
            return false;
        };
        let n = n as usize;
        if rest.len() < n || values.len() < 3 * n || (DEFORM && deform.len() < 2 * n) {
            return false;
        }
        let (ids, rest) = rest.split_at(n);
        let (vals, vrest) = values.split_at(3 * n);
        bones = rest;
        values = vrest;
        let offs = if DEFORM {
            let (offs, drest) = deform.split_at(2 * n);
            deform = drest;
            offs
        } else {
            &[][..]
        };
        let mut acc = _mm_setzero_pd();
        // Raw pointers below: `ids` holds `n` indices, `vals` `3 * n` floats and (when
        // `DEFORM`) `offs` `2 * n` f64, as the splits above made them.
        let (pi, pv, pd) = (ids.as_ptr(), vals.as_ptr(), offs.as_ptr());
        for k in 0..n / 2 {
            // SAFETY: `2 * k + 1 < n`, so index `2k + 1`, floats `6k .. 6k + 6` and f64
            // `4k .. 4k + 4` are inside `ids`, `vals` and `offs`; `b0` and `b1` are checked
            // below `world.len()` before the six f64 at `6 * b` are read from `floats`.
            let q = unsafe {
                let (b0, b1) = (*pi.add(2 * k) as usize, *pi.add(2 * k + 1) as usize);
                if b0 >= bones_len || b1 >= bones_len {
                    return false;
                }
                let p = pv.add(6 * k);
                let mut v = _mm256_cvtps_pd(_mm_setr_ps(*p, *p.add(1), *p.add(3), *p.add(4)));
                if DEFORM {
                    v = _mm256_add_pd(v, _mm256_loadu_pd(pd.add(4 * k)));
                }
                let w = _mm256_cvtps_pd(_mm_setr_ps(*p.add(2), *p.add(2), *p.add(5), *p.add(5)));
                let (m0, m1) = (floats.as_ptr().add(6 * b0), floats.as_ptr().add(6 * b1));
                let ab = _mm256_loadu2_m128d(m1, m0);
                let cd = _mm256_loadu2_m128d(m1.add(2), m0.add(2));
                let xy = _mm256_loadu2_m128d(m1.add(4), m0.add(4));
                pair_terms(v, ab, cd, xy, w)
            };
            acc = _mm_add_pd(acc, _mm256_castpd256_pd128(q));
            acc = _mm_add_pd(acc, _mm256_extractf128_pd::<1>(q));
        }
        if n % 2 == 1 {
            let k = n - 1;
            let b = ids[k] as usize;
            let Some(m) = floats.get(6 * b..6 * b + 6) else {
                return false;
            };
            let p = &vals[3 * k..3 * k + 3];
            let (mut vx, mut vy) = (f64::from(p[0]), f64::from(p[1]));
            if DEFORM {
                vx += offs[2 * k];
                vy += offs[2 * k + 1];
            }
            let t = single_term(m, vx, vy, f64::from(p[2]));
            acc = _mm_add_pd(acc, t);
        }
        store(o, acc);
    }
    false
}

/// One influence's term `((vx·a + vy·b) + x)·w`, `((vx·c + vy·d) + y)·w` on the bone whose
/// six transform values are `m`.
#[target_feature(enable = "avx")]
#[inline]
fn single_term(m: &[f64], vx: f64, vy: f64, w: f64) -> __m128d {
    let m: &[f64; 6] = match m.try_into() {
        Ok(m) => m,
        Err(_) => return _mm_set1_pd(f64::NAN), // callers pass six values
    };
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

/// Two influences' terms: with `v` = (vx0, vy0, vx1, vy1), the bones' (a, b), (c, d) and
/// (x, y) pairs and `w` = (w0, w0, w1, w1), the lanes of `((vx·a + vy·b) + x)·w` and
/// `((vx·c + vy·d) + y)·w` for each influence.
#[target_feature(enable = "avx")]
#[inline]
fn pair_terms(v: __m256d, ab: __m256d, cd: __m256d, xy: __m256d, w: __m256d) -> __m256d {
    let h = _mm256_hadd_pd(_mm256_mul_pd(v, ab), _mm256_mul_pd(v, cd));
    _mm256_mul_pd(_mm256_add_pd(h, xy), w)
}
