//! The world stage of four instances of one rig at once, one instance per SIMD lane.
//!
//! Characters of one rig with the same skin share the update plan, so one walk of it poses
//! all four: a run of bones that inherit normally in every lane (the bulk of every Spine
//! skeleton) is computed for the four lanes together, and every other op (a root, another
//! inherit mode, IK, transform, path and physics constraints) runs the scalar code lane
//! after lane, in plan order.
//!
//! One formula for a normal child: [`normal_child_world`], which the scalar stage runs, is
//! what the plain lanes path runs for each lane; the AVX kernel (`lanes_avx.rs`, chosen by
//! [`simd::features`](crate::math::simd::features)) does the same operations in the same
//! order (plain `+` and `*`, never fused) with the same trig memo, four lanes to a
//! register, and is tested against it bit for bit (`lanes_avx.rs`'s tests on random poses;
//! `sinew-formats/tests/all/batch_lanes.rs` on every Spine fixture's animations, on both
//! paths). So every value is bit-identical to [`world_transform`](super::world_transform)
//! on each instance alone.

use crate::bone::normal_child_world;
use crate::instance::Instance;
use crate::instance::plan::PlanOp;
#[cfg(test)]
use crate::math::WorldTransform;
use crate::rig::Rig;
use crate::types::{Inherit, Physics};

/// How many instances one batched pass poses.
pub const LANES: usize = 4;

/// Poses four instances of `rig` (the caller checks that every one [`Instance::is_for`] the
/// rig), each with its own physics mode; the results are those of `world_transform` on each
/// alone. Their plans are walked together while they agree (the same skin); where they
/// differ, each lane runs the rest of its own plan alone.
pub(crate) fn world_transform_lanes(
    rig: &Rig,
    insts: &mut [&mut Instance; LANES],
    physics: [Physics; LANES],
) {
    for inst in insts.iter_mut() {
        let inst = &mut **inst;
        inst.applied.copy_from_slice(&inst.pose);
        // DragonBones: every bone's held rotation is decomposed until set (`db_rotation`).
        inst.db_rotation.fill(f64::NAN);
    }
    #[cfg(target_arch = "x86_64")]
    {
        if crate::math::simd::features().avx() {
            // SAFETY: the CPU supports AVX (`features` says so only then), the only requirement of
            // calling a function compiled with `target_feature(enable = "avx")`.
            #[allow(unsafe_code)]
            unsafe {
                plan_lanes_avx(rig, insts, physics)
            };
            return;
        }
    }
    plan_lanes::<false>(rig, insts, physics);
}

/// [`plan_lanes`] compiled for AVX, its runs of bones in `lanes_avx.rs`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn plan_lanes_avx(rig: &Rig, insts: &mut [&mut Instance; LANES], physics: [Physics; LANES]) {
    plan_lanes::<true>(rig, insts, physics);
}

/// Walks the shared plan: runs of bones that inherit normally in every lane together
/// (`AVX`: the AVX kernel, which only [`plan_lanes_avx`] asks for), the rest lane by lane.
#[inline(always)]
fn plan_lanes<const AVX: bool>(
    rig: &Rig,
    insts: &mut [&mut Instance; LANES],
    physics: [Physics; LANES],
) {
    let n = insts[0].plan.len();
    if insts.iter().any(|s| s.plan.len() != n) {
        return apart(rig, insts, physics, 0);
    }
    let mut k = 0;
    while k < n {
        // Only a bone that inherits normally in lane 0 may start a run.
        let starts = match insts[0].plan[k] {
            PlanOp::Bone(b) => insts[0].inherit.get(b.index()) == Some(&Inherit::Normal),
            _ => false,
        };
        #[cfg(target_arch = "x86_64")]
        let run = if !starts {
            0
        } else if AVX {
            // SAFETY: `AVX` is true only inside `plan_lanes_avx`, which runs after the CPU
            // was found to support AVX.
            #[allow(unsafe_code)]
            unsafe {
                super::lanes_avx::normal_children(rig, insts, k)
            }
        } else {
            normal_children(rig, insts, k)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let run = if starts {
            normal_children(rig, insts, k)
        } else {
            0
        };
        if run > 0 {
            k += run;
            continue;
        }
        let op = insts[0].plan[k];
        if !same_op(insts, k, op) {
            return apart(rig, insts, physics, k);
        }
        for (inst, &ph) in insts.iter_mut().zip(&physics) {
            run_op(rig, inst, op, ph);
        }
        k += 1;
    }
}

/// Whether every lane's plan has `op` at `k`.
#[inline(always)]
pub(super) fn same_op(insts: &[&mut Instance; LANES], k: usize, op: PlanOp) -> bool {
    insts[1..].iter().all(|s| s.plan.get(k) == Some(&op))
}

/// Where the lanes' plans part ways (other skins): each lane runs the rest of its own plan
/// from op `k` alone (what `world_transform` would run from there).
#[cold]
fn apart(rig: &Rig, insts: &mut [&mut Instance; LANES], physics: [Physics; LANES], k: usize) {
    for (inst, &ph) in insts.iter_mut().zip(&physics) {
        let mut i = k;
        while let Some(&op) = inst.plan.get(i) {
            run_op(rig, inst, op, ph);
            i += 1;
        }
    }
}

/// The plain run of bones: from op `start`, the bones that inherit normally from a parent
/// in every lane, one [`bone_lanes`] each; returns how many.
fn normal_children(rig: &Rig, insts: &mut [&mut Instance; LANES], start: usize) -> usize {
    if rig.exact_angles {
        return 0;
    }
    let mut done = 0;
    while let Some(&op @ PlanOp::Bone(b)) = insts[0].plan.get(start + done) {
        let i = b.index();
        if !same_op(insts, start + done, op) {
            break;
        }
        let Some(p) = rig.bones.get(i).and_then(|bone| bone.parent) else {
            break;
        };
        if !insts
            .iter()
            .all(|s| s.inherit.get(i) == Some(&Inherit::Normal))
            || !bone_lanes(insts, i, p.index())
        {
            break;
        }
        done += 1;
    }
    done
}

/// One op of the plan on one instance, as `world_transform` runs it ([`super::run_op`]),
/// kept out of line so the lane loops stay small.
#[inline(never)]
fn run_op(rig: &Rig, inst: &mut Instance, op: PlanOp, physics: Physics) {
    super::run_op(rig, inst, op, physics);
}

/// Bone `i` (parent `p`, normal inheritance, Spine angles) in the four lanes: each lane
/// through [`normal_child_world`], the one formula of a normal child that the scalar stage
/// runs too (the AVX kernel is tested against it bit for bit). `false` (nothing written)
/// when an index is out of range in a lane (not for a rig's own instance): the caller then
/// runs the scalar op.
#[inline(always)]
fn bone_lanes(insts: &mut [&mut Instance; LANES], i: usize, p: usize) -> bool {
    let fits = |s: &Instance| i.max(p) < s.world.len() && i < s.applied.len() && i < s.trig.len();
    if !insts.iter().all(|s| fits(s)) {
        return false;
    }
    for inst in insts.iter_mut() {
        let Instance {
            applied,
            world,
            trig,
            ..
        } = &mut **inst;
        let parent = world[p];
        world[i] = normal_child_world(false, &parent, &applied[i], &mut trig[i]);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skeleton::testrig::{BoneRow, rig_with_bones};

    /// Both lane kernels (plain and, where the CPU has it, AVX) against the scalar stage,
    /// bit for bit, over poses that move in some lanes and stay in others (memo hits),
    /// sheared bones, another inherit mode in one lane, and awkward angles.
    #[test]
    fn lane_kernels_match_the_scalar_stage() {
        let id = [0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0];
        let rows: Vec<BoneRow> = vec![
            ("root", None, 0.0, id, Inherit::Normal),
            (
                "a",
                Some(0),
                10.0,
                [5.0, 1.0, 30.0, 1.5, 0.5, 0.0, 0.0],
                Inherit::Normal,
            ),
            (
                "b",
                Some(1),
                10.0,
                [7.0, -2.0, -45.0, 1.0, 2.0, 10.0, -5.0],
                Inherit::Normal,
            ),
            (
                "c",
                Some(2),
                10.0,
                [1.0, 2.0, 90.0, -1.0, 1.0, 0.0, 0.0],
                Inherit::NoScale,
            ),
            (
                "d",
                Some(3),
                10.0,
                [3.0, 4.0, 12.5, 1.0, 1.0, 0.0, 0.0],
                Inherit::Normal,
            ),
            (
                "e",
                Some(1),
                10.0,
                [0.5, 0.5, 1e-12, 1.0, 1.0, 0.0, 0.0],
                Inherit::Normal,
            ),
        ];
        let rig = rig_with_bones(&rows);
        let fresh = || {
            let mut inst = Instance::new(&rig);
            crate::instance::plan::update_cache(&rig, &mut inst);
            inst
        };
        let mut scalar: Vec<Instance> = (0..LANES).map(|_| fresh()).collect();
        let kernels: &[bool] = &[false, true];
        for &avx in kernels {
            #[cfg(target_arch = "x86_64")]
            if avx && !crate::math::simd::detected().avx() {
                continue;
            }
            #[cfg(not(target_arch = "x86_64"))]
            if avx {
                continue;
            }
            let mut lanes: Vec<Instance> = (0..LANES).map(|_| fresh()).collect();
            for frame in 0..40 {
                for (l, (s, v)) in scalar.iter_mut().zip(&mut lanes).enumerate() {
                    for (b, pose) in s.pose.iter_mut().enumerate().skip(1) {
                        // Lane 2 holds still every other frame (its memo hits).
                        if l == 2 && frame % 2 == 1 {
                            continue;
                        }
                        let t = (frame * 7 + l * 13 + b * 3) as f64;
                        pose.rotation += t * 1.37 - 20.0;
                        pose.shear_y = if b == 4 && l == 1 {
                            t * 0.1
                        } else {
                            pose.shear_y
                        };
                        if frame == 17 && l == 3 {
                            pose.rotation = [f64::NAN, 1e9, -1e-300, 0.0][b % 4];
                        }
                    }
                    // Lane 1's bone d inherits differently: that bone runs lane by lane.
                    s.inherit[4] = if l == 1 {
                        Inherit::OnlyTranslation
                    } else {
                        Inherit::Normal
                    };
                    v.pose.clone_from(&s.pose);
                    v.inherit.clone_from(&s.inherit);
                    crate::skeleton::world_transform(&rig, s, Physics::Update);
                }
                let [v0, v1, v2, v3] = &mut lanes[..] else {
                    unreachable!()
                };
                let mut insts = [v0, v1, v2, v3];
                let physics = [Physics::Update; LANES];
                for inst in insts.iter_mut() {
                    let inst = &mut **inst;
                    inst.applied.copy_from_slice(&inst.pose);
                }
                if avx {
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: the CPU has AVX (checked above).
                    #[allow(unsafe_code)]
                    unsafe {
                        plan_lanes_avx(&rig, &mut insts, physics)
                    };
                } else {
                    plan_lanes::<false>(&rig, &mut insts, physics);
                }
                for (l, (s, v)) in scalar.iter().zip(&lanes).enumerate() {
                    for (b, (p, q)) in s.world.iter().zip(&v.world).enumerate() {
                        let bits =
                            |w: &WorldTransform| [w.a, w.b, w.c, w.d, w.x, w.y].map(f64::to_bits);
                        assert_eq!(
                            bits(p),
                            bits(q),
                            "avx {avx} frame {frame} lane {l} bone {b}"
                        );
                    }
                    assert_eq!(format!("{:?}", s.trig), format!("{:?}", v.trig));
                }
            }
            scalar = (0..LANES).map(|_| fresh()).collect();
        }
    }
}
