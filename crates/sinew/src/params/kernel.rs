//! The keyform sum of one deformed slot: `out[j] = base[j] + w0·k0[j] + w1·k1[j] + …`, the
//! hot loop of the parameter stage.
//!
//! All the (keyform, weight) pairs of all of a slot's bindings are summed in one pass over
//! the vertices (up to four pairs per pass), so the buffer is read and written once instead
//! of once per grid corner. The sum is in f32, the keyforms' own precision and that of the
//! Inochi2D reference, which halves the work per vertex. Additions happen strictly left to
//! right for each element (no reassociation, no fused multiply-add), so the result is the
//! same on every machine; vectorising only runs several elements side by side. On x86-64
//! an AVX version (`kernel_avx.rs`, 8 lanes) is chosen at run time when the CPU has it; the
//! baseline build (SSE2) runs the plain loop. Verified by the unit tests below (against the
//! plain sequential sum, bit for bit) and the fixture tests that match the Inochi2D
//! reference deforms.

/// Most pairs one pass sums; longer lists are summed in several passes over the buffer
/// (each continuing the left-to-right sum).
pub const PASS_PAIRS: usize = 4;

/// One keyform scaled by a weight.
///
/// Owner: the parameter stage (`params`; step 5 of `Character::update`).
#[derive(Debug, Clone, Copy)]
pub struct Pair<'a> {
    /// The keyform (at least as long as the output).
    pub key: &'a [f32],
    /// Its weight.
    pub weight: f64,
}

/// Sets `out` to `base` plus every pair's weighted keyform, or, with `base == None`, adds
/// them to `out`; the sum runs in f32 (see `pass_n`). Keyforms shorter than `out` are
/// ignored (the builder checks sizes).
#[inline]
#[cfg(test)]
pub fn sum_pairs(out: &mut [f64], base: Option<&[f32]>, pairs: &[Pair<'_>]) {
    let n = out.len();
    if pairs.iter().any(|p| p.key.len() < n) || base.is_some_and(|b| b.len() < n) {
        // Never reached with a built rig; keep the semantics simple and safe.
        return sum_valid(out, base, pairs);
    }
    if pairs.is_empty() && base.is_none() {
        return;
    }
    let mut base = base;
    let mut rest = pairs;
    loop {
        let take = rest.len().min(PASS_PAIRS);
        let (now, later) = rest.split_at(take);
        dispatch(out, base, now);
        base = None;
        rest = later;
        if rest.is_empty() {
            return;
        }
    }
}

/// One pass of at most [`PASS_PAIRS`] pairs (any beyond are ignored): what [`sum_pairs`]
/// does for them, without its splitting and length checks. For callers that build every
/// key and `base` exactly `out.len()` long (the stage's gather does); a shorter one leaves
/// `out` unwritten on AVX machines and panics elsewhere.
#[inline]
pub(super) fn sum_pass_exact(out: &mut [f64], base: Option<&[f32]>, pairs: &[Pair<'_>]) {
    let pairs = &pairs[..pairs.len().min(PASS_PAIRS)];
    debug_assert!(
        pairs.iter().all(|p| p.key.len() == out.len()) && base.is_none_or(|b| b.len() == out.len())
    );
    if pairs.is_empty() && base.is_none() {
        return;
    }
    dispatch(out, base, pairs);
}

/// The slow path for inconsistent lengths: skips short keyforms, pads a short base with 0.
#[cfg(test)]
fn sum_valid(out: &mut [f64], base: Option<&[f32]>, pairs: &[Pair<'_>]) {
    let n = out.len();
    if let Some(b) = base {
        for (j, o) in out.iter_mut().enumerate() {
            *o = b.get(j).map_or(0.0, |&v| f64::from(v));
        }
    }
    for p in pairs.iter().filter(|p| p.key.len() >= n) {
        for (o, &k) in out.iter_mut().zip(p.key) {
            *o += p.weight * f64::from(k);
        }
    }
}

#[inline]
fn dispatch(out: &mut [f64], base: Option<&[f32]>, pairs: &[Pair<'_>]) {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::math::simd::features().avx() {
            // SAFETY: the CPU supports AVX (`features` says so only then), the only requirement of
            // calling a function compiled with `target_feature(enable = "avx")`.
            #[allow(unsafe_code)]
            unsafe {
                super::kernel_avx::pass(out, base, pairs)
            };
            return;
        }
    }
    pass(out, base, pairs);
}

/// Calls `$pass_n(out, base, keys, weights)` with the first (up to [`PASS_PAIRS`]) pairs as
/// fixed-size arrays, so each count gets its own unrolled copy of the sum. Shared by the
/// plain pass and the AVX one (`kernel_avx.rs`).
macro_rules! by_count {
    ($pass_n:ident, $out:expr, $base:expr, $pairs:expr) => {
        match $pairs {
            [] => $pass_n::<0>($out, $base, [], []),
            [a] => $pass_n($out, $base, [a.key], [a.weight as f32]),
            [a, b] => $pass_n(
                $out,
                $base,
                [a.key, b.key],
                [a.weight as f32, b.weight as f32],
            ),
            [a, b, c] => $pass_n(
                $out,
                $base,
                [a.key, b.key, c.key],
                [a.weight as f32, b.weight as f32, c.weight as f32],
            ),
            [a, b, c, d, ..] => $pass_n(
                $out,
                $base,
                [a.key, b.key, c.key, d.key],
                [
                    a.weight as f32,
                    b.weight as f32,
                    c.weight as f32,
                    d.weight as f32,
                ],
            ),
        }
    };
}
// Only the AVX kernel (x86_64) names it from outside this file.
#[cfg(target_arch = "x86_64")]
pub(super) use by_count;

/// One pass over the buffer with up to [`PASS_PAIRS`] pairs, specialised by count so the
/// inner sum unrolls and the element loop vectorises.
#[inline(always)]
fn pass(out: &mut [f64], base: Option<&[f32]>, pairs: &[Pair<'_>]) {
    by_count!(pass_n, out, base, pairs)
}

/// The sum runs in f32, the precision of the keyforms and of the Inochi2D reference's own
/// deformation (8 lanes per AVX instruction instead of 4); the buffer stays f64. Adding to
/// an existing buffer continues the f32 sum from its value.
#[inline(always)]
fn pass_n<const N: usize>(
    out: &mut [f64],
    base: Option<&[f32]>,
    keys: [&[f32]; N],
    weights: [f32; N],
) {
    let n = out.len();
    // Re-slicing to `n` lets the compiler drop every bounds check in the loops.
    let keys = keys.map(|k| &k[..n]);
    match base {
        Some(b) => {
            let b = &b[..n];
            for j in 0..n {
                let mut acc = b[j];
                for p in 0..N {
                    acc += weights[p] * keys[p][j];
                }
                out[j] = f64::from(acc);
            }
        }
        None => {
            for j in 0..n {
                let mut acc = out[j] as f32;
                for p in 0..N {
                    acc += weights[p] * keys[p][j];
                }
                out[j] = f64::from(acc);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain definition: base, then each pair added element by element in order.
    /// Passes of up to [`PASS_PAIRS`], each an f32 sum from the buffer's value.
    fn sequential(n: usize, base: Option<&[f32]>, pairs: &[Pair<'_>], start: &[f64]) -> Vec<f64> {
        let mut out: Vec<f64> = match base {
            Some(b) => b[..n].iter().map(|&v| f64::from(v)).collect(),
            None => start.to_vec(),
        };
        if pairs.is_empty() {
            return out;
        }
        for chunk in pairs.chunks(PASS_PAIRS) {
            for (j, o) in out.iter_mut().enumerate() {
                let mut acc = *o as f32;
                for p in chunk {
                    acc += p.weight as f32 * p.key[j];
                }
                *o = f64::from(acc);
            }
        }
        out
    }

    fn data(seed: u32, n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| (((i as u32).wrapping_mul(2654435761) ^ seed) % 2000) as f32 / 7.3 - 130.0)
            .collect()
    }

    #[test]
    fn matches_sequential_sum_bit_for_bit() {
        for n in [0, 1, 3, 4, 7, 8, 33, 234] {
            let keys: Vec<Vec<f32>> = (0..11).map(|s| data(s, n + 2)).collect();
            let base = data(99, n);
            let start: Vec<f64> = (0..n).map(|i| i as f64 * 0.37 - 2.0).collect();
            for count in 0..=11 {
                let pairs: Vec<Pair<'_>> = keys[..count]
                    .iter()
                    .enumerate()
                    .map(|(i, k)| Pair {
                        key: k,
                        weight: 0.1 + i as f64 * 0.173,
                    })
                    .collect();
                let want = sequential(n, Some(&base), &pairs, &start);
                let mut got = vec![f64::NAN; n];
                sum_pairs(&mut got, Some(&base), &pairs);
                assert_eq!(got, want, "n={n} pairs={count} with base");
                let want = sequential(n, None, &pairs, &start);
                let mut got = start.clone();
                sum_pairs(&mut got, None, &pairs);
                assert_eq!(got, want, "n={n} pairs={count} adding");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx_and_plain_passes_agree_bit_for_bit() {
        if !crate::math::simd::detected().avx() {
            eprintln!("no AVX on this machine: only the plain pass runs");
            return;
        }
        for n in [0, 5, 8, 9, 16, 31, 234] {
            let keys: Vec<Vec<f32>> = (0..4).map(|s| data(s + 20, n)).collect();
            let base = data(7, n);
            let start: Vec<f64> = (0..n).map(|i| i as f64 * 1.37 - 40.0).collect();
            for count in 0..=4 {
                let pairs: Vec<Pair<'_>> = keys[..count]
                    .iter()
                    .enumerate()
                    .map(|(i, k)| Pair {
                        key: k,
                        weight: 0.3 - i as f64 * 0.21,
                    })
                    .collect();
                for b in [Some(&base[..]), None] {
                    let (mut plain, mut avx) = (start.clone(), start.clone());
                    pass(&mut plain, b, &pairs);
                    // SAFETY: AVX is present (checked above).
                    #[allow(unsafe_code)]
                    unsafe {
                        super::super::kernel_avx::pass(&mut avx, b, &pairs)
                    };
                    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&plain), bits(&avx), "n={n} pairs={count}");
                }
            }
        }
    }

    #[test]
    fn short_keyforms_are_skipped() {
        let long = [1.0f32, 2.0, 3.0];
        let short = [5.0f32];
        let mut out = [0.0; 3];
        let pairs = [
            Pair {
                key: &long,
                weight: 2.0,
            },
            Pair {
                key: &short,
                weight: 1.0,
            },
        ];
        sum_pairs(&mut out, Some(&[1.0, 1.0]), &pairs);
        assert_eq!(out, [3.0, 5.0, 6.0]);
    }
}
