//! Scalar bindings (bone transform components, slot colours and visibility, z-sorts,
//! driver settings): evaluated only when one of their parameters changed, and each target
//! re-folded only when one of its bindings was.
//!
//! A target (one component of one bone, slot or driver) keeps its combined value between
//! frames. When a parameter changes, the stage re-evaluates the bindings that read it, then
//! re-folds each touched target from its bindings' remembered values, in file order
//! (offsets add from 0, factors multiply from 1), and writes that one component: the
//! offset, and the bone's local or the slot's colour or visibility built from it. The fold
//! is the same sum in the same order as folding every binding every frame, so results are
//! bit-identical to recomputing everything (what an invalidated cache does).
//!
//! Physics-driven bindings are applied after physics: a target with any of them is folded
//! in both phases of a frame, first over its other bindings (the pose the drivers read),
//! then on from that over the driven ones. The plan (items, targets and
//! which parameter feeds what) is built once with the rig ([`super::scalar_plan`]). Verified
//! by `params/tests.rs` (`changed_targets_only_give_what_recomputing_everything_gives`) and
//! `sinew-formats/tests/all/inochi2d_cache.rs`.

use super::corners::{Cell, Corners, binding_corners};
pub use super::scalar_plan::{ScalarItem, ScalarPlan, TargetPlan};
use super::{ParamSet, Target};
use crate::instance::Instance;
pub(crate) use crate::instance::param_cache::ItemMemo;
use crate::rig::Rig;

/// Where a target's fold starts: 1 for factors, 0 for offsets.
#[inline(always)]
fn identity(mul: bool) -> f64 {
    if mul { 1.0 } else { 0.0 }
}

/// Writes a single-item target straight from its item `s`.
#[inline(always)]
fn write_solo(out: &mut Outputs<'_>, tp: &TargetPlan, s: u32, items: &[ItemMemo]) {
    let mul = tp.target.multiplies();
    out.write(tp, fold(identity(mul), mul, &[s], items));
}

/// A target's fold: `v` combined with each unmuted item's value, in order.
#[inline(always)]
fn fold(mut v: f64, mul: bool, items: &[u32], memo: &[ItemMemo]) -> f64 {
    for &s in items {
        if let Some(m) = memo.get(s as usize)
            && !m.muted
        {
            if mul {
                v *= m.value;
            } else {
                v += m.value;
            }
        }
    }
    v
}

/// Applies the scalar items of `phase` (0: before physics, 1: the physics-driven ones):
/// re-evaluates those whose parameters changed (every one when the cache is invalid) and
/// re-folds and writes the targets they feed, plus every target with driven items.
pub(crate) fn update_scalars(rig: &Rig, inst: &mut Instance, phase: usize) {
    let set = &rig.params;
    let plan = &set.plan.scalars;
    let Instance {
        params,
        pose,
        slots,
        ..
    } = inst;
    let super::ParamState {
        muted,
        bone,
        slot,
        group,
        visible,
        driver_offsets,
        cache,
        ..
    } = params;
    let memo = &mut cache.scalars;
    if memo.items.len() != plan.items.len() || memo.targets.len() != plan.targets.len() {
        return;
    }
    let (Some(list), Some(ranges)) = (plan.param_item_list.get(phase), plan.param_items.get(phase))
    else {
        return;
    };
    memo.pass += 1;
    let pass = memo.pass;
    memo.queue.clear();
    let inputs = Inputs {
        set,
        plan,
        norm: &cache.norm,
        cells: &cache.cells,
        corners: &cache.corners,
        muted,
    };
    let mut out = Outputs {
        rig,
        pose,
        color: &mut slots.color,
        bone,
        slot,
        group,
        visible,
        driver_offsets,
        zsort_dirty: &mut cache.zsort_dirty,
    };
    let valid = cache.valid;
    if valid {
        for &p in &cache.changed_list {
            let Some(&(a, b)) = ranges.get(usize::from(p)) else {
                continue;
            };
            for &s in list.get(a as usize..b as usize).unwrap_or(&[]) {
                let (Some(item), Some(m)) =
                    (plan.items.get(s as usize), memo.items.get_mut(s as usize))
                else {
                    continue;
                };
                if m.pass == pass {
                    continue;
                }
                let (value, muted) = inputs.eval(item);
                *m = ItemMemo { value, pass, muted };
                let t = item.target as usize;
                let Some(tp) = plan.targets.get(t) else {
                    continue;
                };
                if item.solo {
                    write_solo(&mut out, tp, s, &memo.items);
                } else if let Some(tm) = memo.targets.get_mut(t)
                    && tm.pass != pass
                {
                    tm.pass = pass;
                    memo.queue.push(item.target);
                }
            }
        }
    } else {
        for (s, item) in plan.items.iter().enumerate() {
            if usize::from(set.bindings[item.binding as usize].driven) == phase {
                let (value, muted) = inputs.eval(item);
                memo.items[s] = ItemMemo { value, pass, muted };
                // Driven single-item targets are in no fold list: write them here.
                if phase == 1
                    && item.solo
                    && let Some(tp) = plan.targets.get(item.target as usize)
                {
                    write_solo(&mut out, tp, s as u32, &memo.items);
                }
            }
        }
    }
    // Fold the queued targets and every target with driven items (every target in the
    // first phase of an invalid frame).
    let all = !valid && phase == 0;
    let queued = if all { 0 } else { memo.queue.len() };
    let phase_targets = if phase == 0 {
        &plan.early_targets
    } else {
        &plan.phase_targets
    };
    let count = if all {
        plan.targets.len()
    } else {
        queued + phase_targets.len()
    };
    for k in 0..count {
        let t = if all {
            k
        } else if k < queued {
            memo.queue[k] as usize
        } else {
            phase_targets[k - queued] as usize
        };
        let (Some(tp), Some(tm)) = (plan.targets.get(t), memo.targets.get(t)) else {
            continue;
        };
        // A queued target with driven items is folded from the second list.
        if k < queued && tp.driven != tp.end {
            continue;
        }
        let mul = tp.target.multiplies();
        let (start, end, v) = if phase == 0 {
            (tp.start, tp.driven, identity(mul))
        } else {
            (tp.driven, tp.end, tm.before)
        };
        let items = plan
            .target_items
            .get(start as usize..end as usize)
            .unwrap_or(&[]);
        let v = fold(v, mul, items, &memo.items);
        if phase == 0
            && let Some(tm) = memo.targets.get_mut(t)
        {
            tm.before = v;
        }
        out.write(tp, v);
    }
}

/// What evaluating an item reads.
struct Inputs<'a> {
    set: &'a ParamSet,
    plan: &'a ScalarPlan,
    norm: &'a [[f64; 2]],
    cells: &'a [[Cell; 2]],
    corners: &'a [[Corners; 2]],
    muted: &'a [bool],
}

impl Inputs<'_> {
    /// An item's value and whether one of its parameters is muted.
    #[inline(always)]
    fn eval(&self, item: &ScalarItem) -> (f64, bool) {
        let b = &self.set.bindings[item.binding as usize];
        let muted = item.params.muted(self.muted, b);
        if let Some(c) = item.grid.and_then(|g| g.corners(self.corners)) {
            let values = self.plan.values.get(item.values as usize..).unwrap_or(&[]);
            return (c.scalar(values), muted);
        }
        (self.generic(item.binding, b), muted)
    }

    /// The value of a binding the per-parameter corners do not cover. Kept out of line so
    /// the common loop stays small.
    #[inline(never)]
    fn generic(&self, index: u32, b: &super::Binding) -> f64 {
        let shared = self
            .set
            .plan
            .binding_cells
            .get(index as usize)
            .copied()
            .unwrap_or(false);
        let cells = shared.then_some(self.cells);
        let mut v = 0.0;
        binding_corners(self.norm, cells, b, |flat, w| {
            if let Some(&k) = b.values.get(flat) {
                v += w * f64::from(k);
            }
        });
        v
    }
}

/// What writing a target touches.
struct Outputs<'a> {
    rig: &'a Rig,
    pose: &'a mut [crate::rig::LocalPose],
    color: &'a mut [crate::Color],
    bone: &'a mut [super::BoneOffset],
    slot: &'a mut [super::SlotOffset],
    group: &'a mut [super::SlotOffset],
    visible: &'a mut [bool],
    driver_offsets: &'a mut [[f64; 2]],
    zsort_dirty: &'a mut bool,
}

impl Outputs<'_> {
    /// Stores a target's combined value and rewrites what it feeds: one component of a
    /// bone's local (setup plus offset, or times factor), of a slot's colour, its
    /// visibility, or a driver setting. The same arithmetic as the stage's full writes
    /// ([`super::apply::finalize_params`]).
    #[inline(always)]
    fn write(&mut self, tp: &TargetPlan, v: f64) {
        let s = tp.setup;
        match tp.target {
            Target::BoneX(b) => self.bone_part(b, v, s + v, |o| &mut o.x, |p| &mut p.x),
            Target::BoneY(b) => self.bone_part(b, v, s + v, |o| &mut o.y, |p| &mut p.y),
            Target::BoneRotation(b) => {
                self.bone_part(b, v, s + v, |o| &mut o.rotation, |p| &mut p.rotation)
            }
            Target::BoneScaleX(b) => {
                self.bone_part(b, v, s * v, |o| &mut o.scale_x, |p| &mut p.scale_x)
            }
            Target::BoneScaleY(b) => {
                self.bone_part(b, v, s * v, |o| &mut o.scale_y, |p| &mut p.scale_y)
            }
            Target::BoneZSort(b) => {
                if let Some(o) = self.bone.get_mut(b.index()) {
                    if o.zsort.to_bits() != v.to_bits() {
                        *self.zsort_dirty = true;
                    }
                    o.zsort = v;
                }
            }
            Target::SlotOpacity(s) => {
                if let Some(o) = self.slot.get_mut(s.index()) {
                    o.opacity = v;
                }
                self.recolor(s);
            }
            Target::SlotTint(s, c) => {
                if let Some(o) = self.slot.get_mut(s.index()) {
                    o.tint[usize::from(c.min(2))] = v;
                }
                self.recolor(s);
            }
            Target::SlotScreenTint(s, c) => {
                if let Some(o) = self.slot.get_mut(s.index()) {
                    o.screen[usize::from(c.min(2))] = v;
                }
            }
            Target::SlotVisible(s) => {
                let base = self
                    .rig
                    .params
                    .slot_visible
                    .get(s.index())
                    .copied()
                    .unwrap_or(true);
                if let (Some(o), Some(vis)) = (
                    self.slot.get_mut(s.index()),
                    self.visible.get_mut(s.index()),
                ) {
                    o.visible = v;
                    *vis = base && v >= 0.5;
                }
            }
            Target::GroupOpacity(b) => {
                if let Some(o) = self.group.get_mut(b.index()) {
                    o.opacity = v;
                }
            }
            Target::GroupTint(b, c) => {
                if let Some(o) = self.group.get_mut(b.index()) {
                    o.tint[usize::from(c.min(2))] = v;
                }
            }
            Target::GroupScreenTint(b, c) => {
                if let Some(o) = self.group.get_mut(b.index()) {
                    o.screen[usize::from(c.min(2))] = v;
                }
            }
            Target::DriverLength(d) => {
                if let Some(o) = self.driver_offsets.get_mut(usize::from(d)) {
                    o[0] = v;
                }
            }
            Target::DriverGravity(d) => {
                if let Some(o) = self.driver_offsets.get_mut(usize::from(d)) {
                    o[1] = v;
                }
            }
            Target::SlotDeform(_) => {}
        }
    }

    /// Stores one component of a bone's offset and of its local pose.
    #[inline(always)]
    fn bone_part(
        &mut self,
        b: crate::ids::BoneId,
        offset: f64,
        local: f64,
        in_offset: impl FnOnce(&mut super::BoneOffset) -> &mut f64,
        in_local: impl FnOnce(&mut crate::rig::LocalPose) -> &mut f64,
    ) {
        if let (Some(o), Some(p)) = (self.bone.get_mut(b.index()), self.pose.get_mut(b.index())) {
            *in_offset(o) = offset;
            *in_local(p) = local;
        }
    }

    /// Rewrites a slot's colour from its setup colour and current factors.
    fn recolor(&mut self, s: crate::ids::SlotId) {
        let i = s.index();
        if let (Some(sd), Some(o), Some(c)) = (
            self.rig.slots.get(i),
            self.slot.get(i),
            self.color.get_mut(i),
        ) {
            *c = o.tinted(sd.color);
        }
    }
}
