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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deform::vertices::skin;
    use crate::math::simd;

    /// xorshift64: a fixed stream of test values.
    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// A value in [-r, r), now and then an awkward one (signed zeros, tiny, huge, infinite).
    fn value(seed: &mut u64, r: f64) -> f64 {
        let bits = next(seed);
        if bits.is_multiple_of(31) {
            let awkward = [0.0, -0.0, 1e-300, 3e38, 1e300, f64::INFINITY, -7e5];
            return awkward[(bits >> 8) as usize % awkward.len()];
        }
        ((bits >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) * r
    }

    /// The bits of `v`, every NaN as one (Rust leaves a computed NaN's sign and payload
    /// unspecified).
    fn canon(v: &f32) -> u32 {
        if v.is_nan() {
            f32::NAN.to_bits()
        } else {
            v.to_bits()
        }
    }

    /// `skin_lanes` (with the bone matrices from `fill_lanes`) on its plain path and, where
    /// the CPU has AVX, on its AVX path, against scalar skinning (`vertices::skin`) of each
    /// lane alone, bit for bit: generated meshes of 0 to 14 vertices (odd counts too) with
    /// 1 to 6 influences each, random weights and bone matrices per lane, with and without
    /// per-lane deform offsets; now and then a bone index out of range or data cut short,
    /// where both stop at the same vertex (`skin_lanes` says `false`).
    #[test]
    fn skin_lanes_match_scalar_skinning_on_both_paths() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let (mut avx_runs, mut plain_runs, mut stopped) = (0usize, 0usize, 0usize);
        for case in 0..600 {
            let nb = 1 + case % 9;
            let worlds: Vec<Vec<WorldTransform>> = (0..4)
                .map(|_| {
                    (0..nb)
                        .map(|_| WorldTransform {
                            a: value(&mut seed, 2.0),
                            b: value(&mut seed, 2.0),
                            c: value(&mut seed, 2.0),
                            d: value(&mut seed, 2.0),
                            x: value(&mut seed, 400.0),
                            y: value(&mut seed, 400.0),
                        })
                        .collect()
                })
                .collect();
            let n = case % 15;
            let bad = case % 29 == 3 && n > 0;
            let (mut ids, mut vals) = (Vec::new(), Vec::new());
            for v in 0..n {
                let count = 1 + (next(&mut seed) % 6) as usize;
                ids.push(count as u32);
                for k in 0..count {
                    let out_of_range = bad && v == n / 2 && k == count - 1;
                    let bone = next(&mut seed) % nb as u64;
                    ids.push(if out_of_range { nb as u32 } else { bone as u32 });
                    vals.push(value(&mut seed, 80.0) as f32);
                    vals.push(value(&mut seed, 80.0) as f32);
                    vals.push(value(&mut seed, 1.0) as f32); // weight
                }
            }
            let cut = case % 37 == 11 && !vals.is_empty();
            if cut {
                vals.pop(); // the last vertex's data cut short
            }
            let influences = vals.len() / 3;
            let deforms: Vec<Vec<f64>> = (0..4)
                .map(|_| (0..2 * influences).map(|_| value(&mut seed, 5.0)).collect())
                .collect();
            let world_refs = [&worlds[0][..], &worlds[1], &worlds[2], &worlds[3]];
            for with_deform in [false, true] {
                // Each lane alone, scalar.
                let want: Vec<Vec<f32>> = (0..4)
                    .map(|l| {
                        let mut out = vec![f32::NAN; 2 * n];
                        if with_deform {
                            skin::<true>(&worlds[l], &ids, &vals, &deforms[l], &mut out);
                        } else {
                            skin::<false>(&worlds[l], &ids, &vals, &[], &mut out);
                        }
                        out
                    })
                    .collect();
                let lanes = |plain: bool| {
                    let run = || {
                        let mut soa = Vec::new();
                        fill_lanes(world_refs, &mut soa);
                        let mut outs = vec![vec![f32::NAN; 2 * n]; 4];
                        let [o0, o1, o2, o3] = &mut outs[..] else {
                            unreachable!()
                        };
                        let d = [&deforms[0][..], &deforms[1], &deforms[2], &deforms[3]];
                        let ok = skin_lanes(
                            &soa,
                            &ids,
                            &vals,
                            with_deform.then_some(d),
                            &mut [o0, o1, o2, o3],
                        );
                        (ok, outs)
                    };
                    if plain { simd::with_plain(run) } else { run() }
                };
                let mut paths = vec![(true, lanes(true))];
                plain_runs += 1;
                if simd::detected().avx() {
                    paths.push((false, lanes(false)));
                    avx_runs += 1;
                }
                let complete = !bad && !cut;
                for (plain, (ok, got)) in paths {
                    let at = format!("case {case}, deform {with_deform}, plain {plain}");
                    assert_eq!(ok, complete, "{at}: whether every vertex was skinned");
                    stopped += usize::from(!ok);
                    for (l, (w, g)) in want.iter().zip(&got).enumerate() {
                        let (w, g): (Vec<u32>, Vec<u32>) =
                            (w.iter().map(canon).collect(), g.iter().map(canon).collect());
                        assert_eq!(w, g, "{at}, lane {l}");
                    }
                }
            }
        }
        assert_eq!(plain_runs, 1200);
        assert!(avx_runs == 0 || avx_runs == 1200);
        assert!(stopped > 0, "some cases stop early");
    }
}
