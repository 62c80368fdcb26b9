//! Weighted (skinned) world vertices of four characters of one rig at once, one character
//! per SIMD lane.
//!
//! When four characters show the same weighted attachment, everything but the bone
//! matrices and the deform offsets is shared: the influence counts, bone indices, setup
//! offsets and weights are read once and broadcast, and each lane takes its own bone
//! matrix from a lane-major copy of the four world arrays ([`LaneMatrix`] per bone, made
//! by [`fill_lanes`] once per group). Each lane computes Spine's running sum
//! of `((vx·a + vy·b) + x)·w` and `((vx·c + vy·d) + y)·w` over the influences in order,
//! from 0, exactly as `vertices::vertex_sum` does (plain `+` and `*`, never fused), so every
//! value is bit-identical to `vertices::skin` and `skin_avx::skin` on each character alone
//! (`sinew-formats/tests/all/batch_lanes.rs` compares them over every Spine fixture). The
//! kernel runs in AVX registers when the CPU has it (runtime-detected), else as a plain
//! loop over `[f64; 4]`.

use crate::math::WorldTransform;

/// One bone's world transform in four lanes: `[a, b, c, d, x, y]`, each `[lane 0..4]`.
pub(crate) type LaneMatrix = [[f64; 4]; 6];

/// Four lanes' world arrays, bone by bone, into `out` (resized to the shortest array: it
/// allocates only when it grows, so not after the first frame of a rig). With AVX, each
/// bone's four rows are transposed in registers (`math::simd::load_lanes`).
pub(crate) fn fill_lanes(worlds: [&[WorldTransform]; 4], out: &mut Vec<LaneMatrix>) {
    let n = worlds.iter().map(|w| w.len()).min().unwrap_or(0);
    if out.len() != n {
        out.resize(n, [[0.0; 4]; 6]);
    }
    let [w0, w1, w2, w3] = worlds.map(|w| &w[..n]);
    #[cfg(target_arch = "x86_64")]
    {
        if crate::math::simd::features().avx() {
            // SAFETY: the CPU supports AVX (`features` says so only then), the only requirement of
            // calling functions compiled with `target_feature(enable = "avx")`.
            #[allow(unsafe_code)]
            unsafe {
                fill_avx([w0, w1, w2, w3], out)
            };
            return;
        }
    }
    for ((((o, m0), m1), m2), m3) in out.iter_mut().zip(w0).zip(w1).zip(w2).zip(w3) {
        *o = [
            [m0.a, m1.a, m2.a, m3.a],
            [m0.b, m1.b, m2.b, m3.b],
            [m0.c, m1.c, m2.c, m3.c],
            [m0.d, m1.d, m2.d, m3.d],
            [m0.x, m1.x, m2.x, m3.x],
            [m0.y, m1.y, m2.y, m3.y],
        ];
    }
}

/// [`fill_lanes`]'s loop with AVX: each bone's four lanes' `(a, b, c, d)` rows transposed
/// into the `a`, `b`, `c`, `d` rows of its [`LaneMatrix`], the `(x, y)` pairs likewise.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[allow(unsafe_code)]
fn fill_avx(worlds: [&[WorldTransform]; 4], out: &mut [LaneMatrix]) {
    use std::arch::x86_64::_mm256_storeu_pd;
    let [w0, w1, w2, w3] = worlds;
    for ((((o, m0), m1), m2), m3) in out.iter_mut().zip(w0).zip(w1).zip(w2).zip(w3) {
        let rows = crate::math::simd::load_lanes([m0, m1, m2, m3]);
        for (dst, row) in o.iter_mut().zip(rows) {
            // SAFETY: `dst` is one row of a `LaneMatrix`: four contiguous f64, written whole.
            unsafe { _mm256_storeu_pd(dst.as_mut_ptr(), row) };
        }
    }
}

/// Skins `outs[0].len() / 2` vertices (every `outs[l]` has that length) of one weighted
/// attachment (`bones`, `values` as the rig stores them) for four lanes; `deforms` offsets
/// each lane's influences when `Some` (every lane has a deform buffer). Returns `false` on
/// data the builder would have rejected (too short, a bone out of range), having written
/// a prefix: the caller then runs the scalar kernel lane by lane, which writes the same
/// prefix and stops where it does.
pub(crate) fn skin_lanes(
    soa: &[LaneMatrix],
    bones: &[u32],
    values: &[f32],
    deforms: Option<[&[f64]; 4]>,
    outs: &mut [&mut [f32]; 4],
) -> bool {
    let n = outs[0].len() / 2;
    if outs.iter().any(|o| o.len() / 2 != n) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if crate::math::simd::features().avx() {
            // SAFETY: the CPU supports AVX (`features` says so only then), the only requirement of
            // calling functions compiled with `target_feature(enable = "avx")`.
            #[allow(unsafe_code)]
            return unsafe {
                match deforms {
                    Some(d) => skin_avx::<true>(soa, bones, values, d, outs, n),
                    None => skin_avx::<false>(soa, bones, values, [&[]; 4], outs, n),
                }
            };
        }
    }
    match deforms {
        Some(d) => skin_body::<true>(soa, bones, values, d, outs, n),
        None => skin_body::<false>(soa, bones, values, [&[]; 4], outs, n),
    }
}

/// [`skin_body`] in AVX registers: per influence the setup offsets and weight broadcast,
/// the bone's lane-major values loaded as they are, the four sums side by side; the same
/// operations in the same order per lane.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[allow(unsafe_code)]
fn skin_avx<const DEFORM: bool>(
    soa: &[LaneMatrix],
    mut bones: &[u32],
    mut values: &[f32],
    mut deforms: [&[f64]; 4],
    outs: &mut [&mut [f32]; 4],
    n: usize,
) -> bool {
    use std::arch::x86_64::*;
    for v in 0..n {
        let Some((&count, rest)) = bones.split_first() else {
            return false;
        };
        let count = count as usize;
        if rest.len() < count
            || values.len() < 3 * count
            || (DEFORM && deforms.iter().any(|d| d.len() < 2 * count))
        {
            return false;
        }
        let (ids, brest) = rest.split_at(count);
        let (vals, vrest) = values.split_at(3 * count);
        let (mut wx, mut wy) = (_mm256_setzero_pd(), _mm256_setzero_pd());
        for (k, (&bi, p)) in ids.iter().zip(vals.chunks_exact(3)).enumerate() {
            let Some(m) = soa.get(bi as usize) else {
                return false;
            };
            let mut vx = _mm256_set1_pd(f64::from(p[0]));
            let mut vy = _mm256_set1_pd(f64::from(p[1]));
            if DEFORM {
                let [d0, d1, d2, d3] = deforms;
                let (j, j1) = (2 * k, 2 * k + 1);
                vx = _mm256_add_pd(vx, _mm256_setr_pd(d0[j], d1[j], d2[j], d3[j]));
                vy = _mm256_add_pd(vy, _mm256_setr_pd(d0[j1], d1[j1], d2[j1], d3[j1]));
            }
            let w = _mm256_set1_pd(f64::from(p[2]));
            // SAFETY: `m` is six rows of four f64, each read whole.
            let [a, b, c, d, x, y] = unsafe {
                [
                    _mm256_loadu_pd(m[0].as_ptr()),
                    _mm256_loadu_pd(m[1].as_ptr()),
                    _mm256_loadu_pd(m[2].as_ptr()),
                    _mm256_loadu_pd(m[3].as_ptr()),
                    _mm256_loadu_pd(m[4].as_ptr()),
                    _mm256_loadu_pd(m[5].as_ptr()),
                ]
            };
            let tx = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(vx, a), _mm256_mul_pd(vy, b)), x);
            let ty = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(vx, c), _mm256_mul_pd(vy, d)), y);
            wx = _mm256_add_pd(wx, _mm256_mul_pd(tx, w));
            wy = _mm256_add_pd(wy, _mm256_mul_pd(ty, w));
        }
        // (x0, x1, x2, x3) and (y0, y1, y2, y3) rounded to f32, interleaved into each lane's
        // (x, y) pair.
        let (fx, fy) = (_mm256_cvtpd_ps(wx), _mm256_cvtpd_ps(wy));
        let mut pairs = [0.0f32; 8];
        // SAFETY: `pairs` holds the eight f32 two unaligned 128-bit stores write.
        unsafe {
            _mm_storeu_ps(pairs.as_mut_ptr(), _mm_unpacklo_ps(fx, fy));
            _mm_storeu_ps(pairs.as_mut_ptr().add(4), _mm_unpackhi_ps(fx, fy));
        }
        for (o, pair) in outs.iter_mut().zip(pairs.chunks_exact(2)) {
            if let Some(dst) = o.get_mut(2 * v..2 * v + 2) {
                dst.copy_from_slice(pair);
            }
        }
        bones = brest;
        values = vrest;
        if DEFORM {
            deforms = deforms.map(|d| &d[2 * count..]);
        }
    }
    true
}

/// The four-lane loop: `n` vertices, influence after influence, each lane's sum from 0.
#[inline(always)]
fn skin_body<const DEFORM: bool>(
    soa: &[LaneMatrix],
    mut bones: &[u32],
    mut values: &[f32],
    mut deforms: [&[f64]; 4],
    outs: &mut [&mut [f32]; 4],
    n: usize,
) -> bool {
    for v in 0..n {
        let Some((&count, rest)) = bones.split_first() else {
            return false;
        };
        let count = count as usize;
        if rest.len() < count
            || values.len() < 3 * count
            || (DEFORM && deforms.iter().any(|d| d.len() < 2 * count))
        {
            return false;
        }
        let (ids, brest) = rest.split_at(count);
        let (vals, vrest) = values.split_at(3 * count);
        let (mut wx, mut wy) = ([0.0f64; 4], [0.0f64; 4]);
        for (k, (&bi, p)) in ids.iter().zip(vals.chunks_exact(3)).enumerate() {
            let Some(m) = soa.get(bi as usize) else {
                return false;
            };
            let (vx, vy, w) = (f64::from(p[0]), f64::from(p[1]), f64::from(p[2]));
            let (mut lx, mut ly) = ([vx; 4], [vy; 4]);
            if DEFORM {
                for l in 0..4 {
                    lx[l] += deforms[l][2 * k];
                    ly[l] += deforms[l][2 * k + 1];
                }
            }
            for l in 0..4 {
                wx[l] += (lx[l] * m[0][l] + ly[l] * m[1][l] + m[4][l]) * w;
                wy[l] += (lx[l] * m[2][l] + ly[l] * m[3][l] + m[5][l]) * w;
            }
        }
        for (o, (x, y)) in outs.iter_mut().zip(wx.into_iter().zip(wy)) {
            if let Some(pair) = o.get_mut(2 * v..2 * v + 2) {
                pair[0] = x as f32;
                pair[1] = y as f32;
            }
        }
        bones = brest;
        values = vrest;
        if DEFORM {
            deforms = deforms.map(|d| &d[2 * count..]);
        }
    }
    true
}
