//! The AVX kernel of `lanes.rs`: a run of bones that inherit normally in four instances,
//! each value in a 256-bit register holding the four lanes.
//!
//! Per bone: the applied poses gathered lane by lane, the angles and their comparison with
//! the trig memo (bitwise, as `local_matrix_with` compares), on a change the four
//! `sin_cos` at once ([`trig::sin_cos_avx`]) with the y axis turned from the x axis, then
//! the parent's matrices transposed in, the products, and the results transposed back
//! into each lane's `WorldTransform` (the shared transposes of [`simd`]). Plain `+` and `*` in
//! `normal_child_world`'s order, so every lane is bit-identical to the scalar bone step.
#![allow(unsafe_code)]

use crate::bone::{RIGHT, RIGHT_COS, RIGHT_SIN};
use crate::instance::Instance;
use crate::instance::plan::PlanOp;
use crate::math::trig::TrigMemo;
use crate::math::{SPINE_DEG_RAD, WorldTransform, simd, trig};
use crate::rig::{LocalPose, Rig};
use crate::types::Inherit;
use std::arch::x86_64::*;

/// One lane's arrays, cut to the rig's bone count.
struct Lane<'a> {
    applied: &'a [LocalPose],
    world: &'a mut [WorldTransform],
    trig: &'a mut [TrigMemo],
    inherit: &'a [Inherit],
}

/// The lane's arrays cut to `nb` bones, and its plan; `None` when one is shorter.
fn cut(inst: &mut Instance, nb: usize) -> Option<(Lane<'_>, &[PlanOp])> {
    let Instance {
        plan,
        applied,
        world,
        trig,
        inherit,
        ..
    } = inst;
    let lane = Lane {
        applied: applied.get(..nb)?,
        world: world.get_mut(..nb)?,
        trig: trig.get_mut(..nb)?,
        inherit: inherit.get(..nb)?,
    };
    Some((lane, plan))
}

/// Poses the bones of the shared plan from op `start` on, up to the first op that is not a
/// bone inheriting normally from a parent in every lane; returns how many (0: the caller
/// runs that op lane by lane). Spine angles only (0 for a rig with exact angles).
#[target_feature(enable = "avx")]
pub(super) fn normal_children(rig: &Rig, insts: &mut [&mut Instance; 4], start: usize) -> usize {
    if rig.exact_angles {
        return 0;
    }
    let nb = rig.bones.len();
    let [i0, i1, i2, i3] = insts;
    let (Some((l0, plan)), Some((l1, p1)), Some((l2, p2)), Some((l3, p3))) =
        (cut(i0, nb), cut(i1, nb), cut(i2, nb), cut(i3, nb))
    else {
        return 0;
    };
    let mut lanes = [l0, l1, l2, l3];
    let Some(ops) = plan.get(start..) else {
        return 0;
    };
    let bones = &rig.bones[..nb];
    let mut done = 0;
    for (k, op) in ops.iter().enumerate() {
        let PlanOp::Bone(b) = *op else { break };
        let k = start + k;
        if p1.get(k) != Some(op) || p2.get(k) != Some(op) || p3.get(k) != Some(op) {
            break; // the plans part ways here (`lanes::apart`)
        }
        let i = b.index();
        let Some(p) = bones
            .get(i)
            .and_then(|bone| bone.parent)
            .map(|p| p.index())
            .filter(|&p| p < nb)
        else {
            break;
        };
        if lanes.iter().any(|l| l.inherit[i] != Inherit::Normal) {
            break;
        }
        bone(&mut lanes, i, p);
        done += 1;
    }
    done
}

/// Bone `i` (parent `p`, both below every lane's length) in the four lanes.
#[target_feature(enable = "avx")]
#[inline]
fn bone(lanes: &mut [Lane<'_>; 4], i: usize, p: usize) {
    let set = _mm256_set1_pd;
    let [a0, a1, a2, a3] = [
        &lanes[0].applied[i],
        &lanes[1].applied[i],
        &lanes[2].applied[i],
        &lanes[3].applied[i],
    ];
    macro_rules! pose {
        ($f:ident) => {
            _mm256_setr_pd(a0.$f, a1.$f, a2.$f, a3.$f)
        };
    }
    macro_rules! memo {
        ($f:ident, $k:literal) => {
            _mm256_setr_pd(
                lanes[0].trig[i].$f[$k],
                lanes[1].trig[i].$f[$k],
                lanes[2].trig[i].$f[$k],
                lanes[3].trig[i].$f[$k],
            )
        };
    }
    let rot = pose!(rotation);
    let rx = _mm256_mul_pd(_mm256_add_pd(rot, pose!(shear_x)), set(SPINE_DEG_RAD));
    let ry = _mm256_mul_pd(
        _mm256_add_pd(_mm256_add_pd(rot, set(90.0)), pose!(shear_y)),
        set(SPINE_DEG_RAD),
    );
    // Bitwise comparison with the memo's angles (a NaN angle never matches).
    let diff = _mm256_castpd_si256(_mm256_or_pd(
        _mm256_xor_pd(rx, memo!(angles, 0)),
        _mm256_xor_pd(ry, memo!(angles, 1)),
    ));
    if _mm256_testz_si256(diff, diff) == 0 {
        let turn = [a0, a1, a2, a3].map(|a| a.shear_x.to_bits() == a.shear_y.to_bits());
        recompute(lanes, i, rx, ry, diff, turn);
    }
    let (sx, sy) = (pose!(scale_x), pose!(scale_y));
    let (x, y) = (pose!(x), pose!(y));
    let la = _mm256_mul_pd(memo!(cos, 0), sx);
    let lb = _mm256_mul_pd(memo!(cos, 1), sy);
    let lc = _mm256_mul_pd(memo!(sin, 0), sx);
    let ld = _mm256_mul_pd(memo!(sin, 1), sy);
    // The parents' (a, b, c, d, x, y), transposed to one value per register.
    let [pa, pb, pc, pd, px, py] = simd::load_lanes([
        &lanes[0].world[p],
        &lanes[1].world[p],
        &lanes[2].world[p],
        &lanes[3].world[p],
    ]);
    let mul = _mm256_mul_pd;
    let add = _mm256_add_pd;
    let oa = add(mul(pa, la), mul(pb, lc));
    let ob = add(mul(pa, lb), mul(pb, ld));
    let oc = add(mul(pc, la), mul(pd, lc));
    let od = add(mul(pc, lb), mul(pd, ld));
    let ox = add(add(mul(pa, x), mul(pb, y)), px);
    let oy = add(add(mul(pc, x), mul(pd, y)), py);
    let [l0, l1, l2, l3] = lanes;
    simd::store_lanes(
        [oa, ob, oc, od, ox, oy],
        [
            &mut l0.world[i],
            &mut l1.world[i],
            &mut l2.world[i],
            &mut l3.world[i],
        ],
    );
}

/// The lanes whose angles changed (`diff` non-zero) get new sines and cosines in their
/// memo: `sin_cos` of the x angle for the four at once, the y axis turned from it
/// (unsheared, `turn`) or its own `sin_cos` (sheared), as `local_matrix_with` does.
#[target_feature(enable = "avx")]
#[inline(never)]
fn recompute(
    lanes: &mut [Lane<'_>; 4],
    i: usize,
    rx: __m256d,
    ry: __m256d,
    diff: __m256i,
    turn: [bool; 4],
) {
    let set = _mm256_set1_pd;
    let (sin_x, cos_x) = trig::sin_cos_avx(rx);
    let e = _mm256_sub_pd(_mm256_sub_pd(ry, rx), set(RIGHT));
    let sd = _mm256_add_pd(set(RIGHT_SIN), _mm256_mul_pd(e, set(RIGHT_COS)));
    let cd = _mm256_sub_pd(set(RIGHT_COS), _mm256_mul_pd(e, set(RIGHT_SIN)));
    let sin_y = _mm256_add_pd(_mm256_mul_pd(sin_x, cd), _mm256_mul_pd(cos_x, sd));
    let cos_y = _mm256_sub_pd(_mm256_mul_pd(cos_x, cd), _mm256_mul_pd(sin_x, sd));
    let mut v = [[0.0f64; 4]; 6];
    let mut d = [0u64; 4];
    // SAFETY: each array holds the four f64 (u64) an unaligned 256-bit store writes.
    unsafe {
        for (dst, src) in v.iter_mut().zip([rx, ry, sin_x, cos_x, sin_y, cos_y]) {
            _mm256_storeu_pd(dst.as_mut_ptr(), src);
        }
        _mm256_storeu_si256(d.as_mut_ptr().cast::<__m256i>(), diff);
    }
    let [rx, ry, sin_x, cos_x, mut sin_y, mut cos_y] = v;
    for (l, lane) in lanes.iter_mut().enumerate() {
        if d[l] == 0 {
            continue;
        }
        if !turn[l] {
            (sin_y[l], cos_y[l]) = trig::sin_cos(ry[l]);
        }
        lane.trig[i] = TrigMemo {
            angles: [rx[l], ry[l]],
            cos: [cos_x[l], cos_y[l]],
            sin: [sin_x[l], sin_y[l]],
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bone::normal_child_world;
    use crate::skeleton::testrig::{BoneRow, rig_with_bones};

    /// xorshift64: a fixed stream of test values.
    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// A value in [-r, r), now and then an awkward one (signed zeros, tiny, huge, NaN,
    /// infinities).
    fn value(seed: &mut u64, r: f64) -> f64 {
        let bits = next(seed);
        if bits.is_multiple_of(23) {
            let awkward = [
                0.0,
                -0.0,
                1e-300,
                -3e-9,
                1e300,
                f64::NAN,
                f64::INFINITY,
                7e5,
            ];
            return awkward[(bits >> 8) as usize % awkward.len()];
        }
        ((bits >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) * r
    }

    /// The bits of `v`, every NaN as one: Rust leaves the sign and payload of a NaN that
    /// arithmetic makes unspecified (the compiler may swap a sum's operands, and x86 keeps
    /// the first operand's NaN), so only "NaN" is a result to compare.
    fn canon(v: f64) -> u64 {
        if v.is_nan() {
            f64::NAN.to_bits()
        } else {
            v.to_bits()
        }
    }

    fn bits(w: &WorldTransform) -> [u64; 6] {
        [w.a, w.b, w.c, w.d, w.x, w.y].map(canon)
    }

    fn memo_bits(m: &TrigMemo) -> [u64; 6] {
        let [a0, a1] = m.angles;
        [a0, a1, m.cos[0], m.cos[1], m.sin[0], m.sin[1]].map(canon)
    }

    /// The AVX kernel against the one normal-child formula ([`normal_child_world`], what
    /// the scalar stage and the plain lanes run), bit for bit in the world transforms and
    /// the trig memos: random trees of normally inheriting bones, random root transforms per
    /// lane, random poses (sheared and unsheared, awkward values), lanes that hold still
    /// between frames (memo hits) beside lanes that move.
    #[test]
    fn avx_bones_match_normal_child_world() {
        if !crate::math::simd::detected().avx() {
            return; // no AVX: the kernel never runs here
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut bones_checked = 0usize;
        for tree in 0..40 {
            let nb = 2 + tree % 23;
            let rows: Vec<BoneRow> = (0..nb)
                .map(|i| {
                    let name: &'static str = Box::leak(format!("b{i}").into_boxed_str());
                    let parent = (i > 0).then(|| (next(&mut seed) % i as u64) as usize);
                    let id = [0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0];
                    (name, parent, 1.0, id, Inherit::Normal)
                })
                .collect();
            let rig = rig_with_bones(&rows);
            let fresh = || {
                let mut inst = Instance::new(&rig);
                crate::instance::plan::update_cache(&rig, &mut inst);
                inst
            };
            let mut lanes: Vec<Instance> = (0..4).map(|_| fresh()).collect();
            assert_eq!(
                lanes[0].plan.first(),
                Some(&PlanOp::Bone(crate::ids::BoneId(0)))
            );
            for frame in 0..12 {
                for (l, inst) in lanes.iter_mut().enumerate() {
                    if frame > 0 && (l + frame) % 3 == 0 {
                        continue; // this lane holds still: its memos hit
                    }
                    inst.world[0] = WorldTransform {
                        a: value(&mut seed, 2.0),
                        b: value(&mut seed, 2.0),
                        c: value(&mut seed, 2.0),
                        d: value(&mut seed, 2.0),
                        x: value(&mut seed, 500.0),
                        y: value(&mut seed, 500.0),
                    };
                    for pose in inst.applied.iter_mut().skip(1) {
                        pose.x = value(&mut seed, 100.0);
                        pose.y = value(&mut seed, 100.0);
                        pose.rotation = value(&mut seed, 720.0);
                        pose.scale_x = value(&mut seed, 3.0);
                        pose.scale_y = value(&mut seed, 3.0);
                        pose.shear_x = value(&mut seed, 30.0);
                        // Half the bones unsheared (the y axis turned from the x axis).
                        pose.shear_y = if next(&mut seed).is_multiple_of(2) {
                            pose.shear_x
                        } else {
                            value(&mut seed, 30.0)
                        };
                    }
                }
                let mut want: Vec<Instance> = lanes.clone();
                for inst in &mut want {
                    for i in 1..nb {
                        let p = rig.bones[i].parent.map_or(0, |p| p.index());
                        let parent = inst.world[p];
                        inst.world[i] =
                            normal_child_world(false, &parent, &inst.applied[i], &mut inst.trig[i]);
                    }
                }
                let [v0, v1, v2, v3] = &mut lanes[..] else {
                    unreachable!()
                };
                // SAFETY: the CPU has AVX (checked above).
                let done = unsafe { normal_children(&rig, &mut [v0, v1, v2, v3], 1) };
                assert_eq!(done, nb - 1, "tree {tree}: every child bone is in the run");
                for (l, (w, g)) in want.iter().zip(&lanes).enumerate() {
                    for i in 0..nb {
                        let at = format!("tree {tree} frame {frame} lane {l} bone {i}");
                        assert_eq!(bits(&w.world[i]), bits(&g.world[i]), "{at}");
                        assert_eq!(memo_bits(&w.trig[i]), memo_bits(&g.trig[i]), "{at} memo");
                    }
                    bones_checked += nb;
                }
            }
        }
        assert!(bones_checked > 4 * 12 * 40);
    }
}
