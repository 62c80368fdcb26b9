//! World transforms of a subset of bones, for the puppet frame (`character::update_params`,
//! around parameter physics): a bone is recomputed only when its inputs changed (the memo in
//! `instance::param_cache`), and the common case (a child bone inheriting normally) is
//! computed inline.
//!
//! The inline case calls the skeleton's own `Inherit::Normal` function
//! (`bone::normal_child_world`), so results are bit-identical to
//! [`crate::bone::update_bone_world_with`]; every other case calls that. Verified by
//! `params/tests.rs` (`world_subsets_around_physics_leave_nothing_stale`: a full skeleton
//! pass reproduces the stage's world transforms exactly) and
//! `sinew-formats/tests/all/inochi2d_cache.rs`.

use crate::bone::normal_child_world;
use crate::ids::BoneId;
use crate::instance::Instance;
use crate::instance::param_cache::BoneMemo;
use crate::rig::{LocalPose, Rig};
use crate::types::Inherit;

/// World transforms of `bones` (parent-first) from their local poses, recomputing only
/// bones whose local pose or inherit mode changed (bitwise) or whose parent was recomputed
/// after them (the skeleton position and scale count for roots).
pub(crate) fn update_bones(rig: &Rig, inst: &mut Instance, bones: &[BoneId]) {
    let skeleton = [inst.x, inst.y, inst.scale_x, inst.scale_y].map(f64::to_bits);
    let roots_moved = skeleton != inst.params.cache.skeleton;
    inst.params.cache.skeleton = skeleton;
    let nb = rig.bones.len();
    if inst.pose.len() < nb
        || inst.applied.len() < nb
        || inst.world.len() < nb
        || inst.trig.len() < nb
        || inst.inherit.len() < nb
        || inst.params.cache.bones.len() < nb
        || rig.params.plan.parents.len() < nb
    {
        return;
    }
    let mut k = 0;
    while k < bones.len() {
        k += if rig.exact_angles {
            children_run::<true>(rig, inst, &bones[k..])
        } else {
            children_run::<false>(rig, inst, &bones[k..])
        };
        if let Some(&b) = bones.get(k) {
            other_bone(rig, inst, b, roots_moved);
            k += 1;
        }
    }
}

/// Updates the leading run of `bones` that are children inheriting normally (the common
/// case, over slices the compiler can index without checks); returns how many it covered.
/// `EXACT` is the rig's `exact_angles`.
#[inline(never)]
fn children_run<const EXACT: bool>(rig: &Rig, inst: &mut Instance, bones: &[BoneId]) -> usize {
    let nb = rig.bones.len();
    let parents = &rig.params.plan.parents[..nb];
    let Instance {
        pose,
        applied,
        world,
        trig,
        inherit,
        params,
        ..
    } = inst;
    let (pose, applied, world, trig, inherit) = (
        &pose[..nb],
        &mut applied[..nb],
        &mut world[..nb],
        &mut trig[..nb],
        &inherit[..nb],
    );
    let cache = &mut params.cache;
    let valid = cache.valid;
    let memo = &mut cache.bones[..nb];
    // Stamps grow with the position in `bones` (recomputation order), so no counter has
    // to be carried through the loop.
    let base = cache.counter;
    for (k, &b) in bones.iter().enumerate() {
        let i = b.index();
        let p = usize::from(parents.get(i).copied().unwrap_or(u16::MAX));
        // Parent-first order puts a parent before its child; anything else is not a child
        // run (roots, other inherit modes).
        if p >= i || inherit[i] != Inherit::Normal {
            cache.counter = base + k as u64;
            return k;
        }
        let own = memo[i];
        // A bone whose parent was recomputed after it is recomputed anyway: its pose is
        // copied without comparing it.
        let moved = !valid || own.inherit != Inherit::Normal || memo[p].stamp > own.stamp;
        if !moved && same_pose(&pose[i], &applied[i]) {
            continue;
        }
        applied[i] = pose[i];
        let pw = world[p];
        world[i] = normal_child_world(EXACT, &pw, &pose[i], &mut trig[i]);
        memo[i] = BoneMemo {
            stamp: base + k as u64 + 1,
            inherit: Inherit::Normal,
        };
    }
    cache.counter = base + bones.len() as u64;
    bones.len()
}

/// Updates one bone that is not a normally inheriting child (a root, another inherit
/// mode) through the skeleton's general function.
fn other_bone(rig: &Rig, inst: &mut Instance, b: BoneId, roots_moved: bool) {
    let i = b.index();
    let Some(&own) = inst.params.cache.bones.get(i) else {
        return;
    };
    let parent_moved = match rig.bones.get(i).and_then(|d| d.parent) {
        Some(p) => inst
            .params
            .cache
            .bones
            .get(p.index())
            .is_none_or(|m| m.stamp > own.stamp),
        None => roots_moved,
    };
    let inherit = inst.inherit[i];
    let pose = inst.pose[i];
    let dirty = !inst.params.cache.valid
        || parent_moved
        || own.inherit != inherit
        || !same_pose(&pose, &inst.applied[i]);
    if !dirty {
        return;
    }
    crate::bone::update_bone_world_with(rig, inst, b, pose);
    let cache = &mut inst.params.cache;
    cache.counter += 1;
    cache.bones[i] = BoneMemo {
        stamp: cache.counter,
        inherit,
    };
}

/// Bitwise equality of two local poses.
#[inline]
fn same_pose(a: &LocalPose, b: &LocalPose) -> bool {
    let eq = |x: f64, y: f64| x.to_bits() == y.to_bits();
    eq(a.x, b.x)
        & eq(a.y, b.y)
        & eq(a.rotation, b.rotation)
        & eq(a.scale_x, b.scale_x)
        & eq(a.scale_y, b.scale_y)
        & eq(a.shear_x, b.shear_x)
        & eq(a.shear_y, b.shear_y)
}
