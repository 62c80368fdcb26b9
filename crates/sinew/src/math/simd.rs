//! The one place that knows which SIMD instructions the CPU has, and the register shuffles
//! the AVX kernels share.
//!
//! Every AVX or FMA kernel of the crate (skeleton lanes, skinning, unweighted vertices, the
//! keyform sums, the finiteness checks, `sin_cos`) is chosen at run time by asking
//! [`features`]: the CPU is probed once per process (the answer is cached in an atomic), and
//! [`with_plain`] makes every kernel on the calling thread take its plain path, so a test can
//! run the same frame both ways and compare the bits. The kernels give bit-identical results
//! on either path (each kernel's tests compare them); the choice only changes speed.
//!
//! On x86-64 this module also holds the 4x6 transposes between four `WorldTransform`s
//! and six registers of four lanes (`load_lanes`, `store_lanes`), used by the skeleton's
//! lane kernel and by the skinning lanes' bone matrices.
//!
//! Layer: data (part of `math`); imports nothing from the crate but `WorldTransform`.

use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering};

/// The SIMD extensions the kernels may use on this thread (see [`features`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    bits: u8,
}

const AVX: u8 = 1;
const FMA: u8 = 2;
const AVX2: u8 = 4;
/// Set once the probe has run (so a machine with none of the extensions is cached too).
const PROBED: u8 = 0x80;

impl Features {
    /// No extension: every kernel's plain loop.
    pub const PLAIN: Features = Features { bits: 0 };

    /// AVX (256-bit f64 registers).
    #[inline(always)]
    pub fn avx(self) -> bool {
        self.bits & AVX != 0
    }

    /// AVX and FMA (fused multiply-add; every FMA CPU has AVX, but both are asked for).
    #[inline(always)]
    pub fn avx_fma(self) -> bool {
        self.bits & (AVX | FMA) == AVX | FMA
    }

    /// AVX2 and FMA (with AVX).
    #[inline(always)]
    pub fn avx2_fma(self) -> bool {
        self.bits & (AVX | AVX2 | FMA) == AVX | AVX2 | FMA
    }
}

/// The probe's answer, `PROBED` plus the feature bits; 0 until the first call.
static DETECTED: AtomicU8 = AtomicU8::new(0);

thread_local! {
    /// Set while [`with_plain`] runs on this thread.
    static PLAIN: Cell<bool> = const { Cell::new(false) };
}

/// What the CPU has, probed on the first call and cached for the process (also when
/// [`with_plain`] is in force: this is the machine, not the choice).
#[inline]
pub fn detected() -> Features {
    let bits = DETECTED.load(Ordering::Relaxed);
    if bits & PROBED != 0 {
        return Features {
            bits: bits & !PROBED,
        };
    }
    probe()
}

/// Runs the CPU probe and caches it. Racing threads compute the same answer, so a plain
/// store is enough.
#[cold]
fn probe() -> Features {
    #[allow(unused_mut)]
    let mut bits = 0;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx") {
            bits |= AVX;
            if has!("fma") {
                bits |= FMA;
            }
            if has!("avx2") {
                bits |= AVX2;
            }
        }
    }
    DETECTED.store(bits | PROBED, Ordering::Relaxed);
    Features { bits }
}

/// The extensions the kernels use now: [`detected`], or [`Features::PLAIN`] inside
/// [`with_plain`] on this thread. A kernel calls a `target_feature` function only when this
/// says the CPU has the feature.
#[inline]
pub fn features() -> Features {
    if PLAIN.with(Cell::get) {
        return Features::PLAIN;
    }
    detected()
}

/// Runs `f` with every kernel on this thread on its plain (portable) path, whatever the
/// CPU has; the results are the same bits, which is what tests comparing the paths check.
/// Nests; other threads (a crowd's workers) keep the detected features.
pub fn with_plain<R>(f: impl FnOnce() -> R) -> R {
    /// Puts the previous setting back, also when `f` unwinds.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            PLAIN.with(|p| p.set(self.0));
        }
    }
    let _restore = Restore(PLAIN.with(|p| p.replace(true)));
    f()
}

#[cfg(target_arch = "x86_64")]
pub(crate) use transpose::{load_lanes, store_lanes};

/// The 4x6 transposes of the AVX lane kernels.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod transpose {
    use crate::math::WorldTransform;
    use std::arch::x86_64::*;

    /// Four transforms, one per lane, as six registers `[a, b, c, d, x, y]`, each holding
    /// that value of lanes 0..4.
    #[target_feature(enable = "avx")]
    #[inline]
    pub(crate) fn load_lanes(w: [&WorldTransform; 4]) -> [__m256d; 6] {
        let [w0, w1, w2, w3] = w.map(|m| (m as *const WorldTransform).cast::<f64>());
        // SAFETY: each pointer is a `WorldTransform` (`repr(C)`: six contiguous, aligned,
        // initialised f64, checked at compile time in `math`), read four and two at a time
        // within it.
        unsafe {
            let (r0, r1) = (_mm256_loadu_pd(w0), _mm256_loadu_pd(w1));
            let (r2, r3) = (_mm256_loadu_pd(w2), _mm256_loadu_pd(w3));
            let (t0, t1) = (_mm256_unpacklo_pd(r0, r1), _mm256_unpackhi_pd(r0, r1));
            let (t2, t3) = (_mm256_unpacklo_pd(r2, r3), _mm256_unpackhi_pd(r2, r3));
            let u0 = _mm256_set_m128d(_mm_loadu_pd(w2.add(4)), _mm_loadu_pd(w0.add(4)));
            let u1 = _mm256_set_m128d(_mm_loadu_pd(w3.add(4)), _mm_loadu_pd(w1.add(4)));
            [
                _mm256_permute2f128_pd::<0x20>(t0, t2),
                _mm256_permute2f128_pd::<0x20>(t1, t3),
                _mm256_permute2f128_pd::<0x31>(t0, t2),
                _mm256_permute2f128_pd::<0x31>(t1, t3),
                _mm256_unpacklo_pd(u0, u1),
                _mm256_unpackhi_pd(u0, u1),
            ]
        }
    }

    /// The inverse of `load_lanes`: six registers `[a, b, c, d, x, y]` of four lanes
    /// written as four transforms, lane `l` into `out[l]`.
    #[target_feature(enable = "avx")]
    #[inline]
    pub(crate) fn store_lanes(v: [__m256d; 6], out: [&mut WorldTransform; 4]) {
        let [a, b, c, d, x, y] = v;
        let (t0, t1) = (_mm256_unpacklo_pd(a, b), _mm256_unpackhi_pd(a, b));
        let (t2, t3) = (_mm256_unpacklo_pd(c, d), _mm256_unpackhi_pd(c, d));
        let (v0, v1) = (_mm256_unpacklo_pd(x, y), _mm256_unpackhi_pd(x, y));
        let rows = [
            (
                _mm256_permute2f128_pd::<0x20>(t0, t2),
                _mm256_castpd256_pd128(v0),
            ),
            (
                _mm256_permute2f128_pd::<0x20>(t1, t3),
                _mm256_castpd256_pd128(v1),
            ),
            (
                _mm256_permute2f128_pd::<0x31>(t0, t2),
                _mm256_extractf128_pd::<1>(v0),
            ),
            (
                _mm256_permute2f128_pd::<0x31>(t1, t3),
                _mm256_extractf128_pd::<1>(v1),
            ),
        ];
        for (w, (abcd, xy)) in out.into_iter().zip(rows) {
            let w = (w as *mut WorldTransform).cast::<f64>();
            // SAFETY: `w` is a `WorldTransform` borrowed mutably (six contiguous f64),
            // written four and two at a time within it.
            unsafe {
                _mm256_storeu_pd(w, abcd);
                _mm_storeu_pd(w.add(4), xy);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_plain_forces_the_plain_path_on_this_thread_only_and_nests() {
        let cpu = detected();
        assert_eq!(features(), cpu);
        with_plain(|| {
            assert_eq!(features(), Features::PLAIN);
            assert!(!features().avx() && !features().avx_fma() && !features().avx2_fma());
            with_plain(|| assert_eq!(features(), Features::PLAIN));
            assert_eq!(
                features(),
                Features::PLAIN,
                "the inner scope restores, not clears"
            );
            let other = std::thread::spawn(features).join().unwrap();
            assert_eq!(other, cpu, "another thread keeps the detected features");
            assert_eq!(detected(), cpu);
        });
        assert_eq!(features(), cpu);
        let unwound = std::panic::catch_unwind(|| with_plain(|| panic!("inside")));
        assert!(unwound.is_err());
        assert_eq!(features(), cpu, "restored after a panic");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn detected_matches_the_cpu() {
        use std::arch::is_x86_feature_detected as has;
        let f = detected();
        assert_eq!(f.avx(), has!("avx"));
        assert_eq!(f.avx_fma(), has!("avx") && has!("fma"));
        assert_eq!(f.avx2_fma(), has!("avx") && has!("avx2") && has!("fma"));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    #[allow(unsafe_code)]
    fn the_transposes_move_every_value_to_its_lane_and_back() {
        use crate::math::WorldTransform;
        use std::arch::x86_64::_mm256_storeu_pd;
        if !detected().avx() {
            return; // nothing to run: the kernels that use them never run here either
        }
        let w: Vec<WorldTransform> = (0..4)
            .map(|l| {
                let v = |k: usize| (10 * l + k) as f64 + 0.5;
                WorldTransform {
                    a: v(0),
                    b: v(1),
                    c: v(2),
                    d: v(3),
                    x: v(4),
                    y: v(5),
                }
            })
            .collect();
        // SAFETY: the CPU has AVX (checked above); each row holds the four f64 a store writes.
        let (rows, back) = unsafe {
            let regs = load_lanes([&w[0], &w[1], &w[2], &w[3]]);
            let mut rows = [[0.0; 4]; 6];
            for (row, r) in rows.iter_mut().zip(regs) {
                _mm256_storeu_pd(row.as_mut_ptr(), r);
            }
            let mut back = [WorldTransform::IDENTITY; 4];
            let [b0, b1, b2, b3] = &mut back;
            store_lanes(regs, [b0, b1, b2, b3]);
            (rows, back)
        };
        for (l, m) in w.iter().enumerate() {
            let vals = [m.a, m.b, m.c, m.d, m.x, m.y];
            for (k, v) in vals.iter().enumerate() {
                assert_eq!(rows[k][l], *v, "component {k} lane {l}");
            }
            assert_eq!(back[l], *m, "lane {l} round trip");
        }
    }
}
