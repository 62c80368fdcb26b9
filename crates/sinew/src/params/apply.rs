//! The parameter stage (ARCHITECTURE.md stage 4): parameter values x keyform grids ->
//! bone local offsets, slot vertex offsets, slot colours, visibility and draw order.
//!
//! Per frame the stage marks which parameters changed, re-evaluates their scalar bindings
//! and rewrites the targets those feed (offsets add, scale-like factors multiply; see
//! `super::scalars`), rewrites the deform buffers of slots whose inputs changed
//! (`super::deforms`) and sorts the draw order when a z-sort changed. When the cache is
//! invalid (the first frame, after `super::cache::ParamCache::invalidate`) it resets the
//! accumulators and writes every bound bone, colour and visibility. The phases (`before_physics`, `after_physics`, `finish_frame`) are
//! sequenced with world transforms, the drivers and the deformers by the facade
//! (`character::update_params`, inochi2d.md §3 "Frame order"); this module only evaluates
//! bindings and never calls another stage. Allocation-free. Verified by
//! `params/tests.rs` and the fixture tests in `sinew-formats/tests/inochi2d_*.rs`.

use super::{BoneOffset, SlotOffset};
use crate::ids::SlotId;
use crate::instance::Instance;
use crate::rig::Rig;

/// Clears the per-frame accumulators (bone offsets, slot factors, driver overrides).
fn clear_accumulators(inst: &mut Instance) {
    inst.params.bone.fill(BoneOffset::NONE);
    inst.params.slot.fill(SlotOffset::NONE);
    inst.params.group.fill(SlotOffset::NONE);
    for o in &mut inst.params.driver_offsets {
        *o = [0.0, 1.0];
    }
}

/// Marks which parameters (physics-driven ones when `driven`) changed since their bindings
/// were last evaluated (listing them in `changed_list` and marking the deformed slots they
/// feed), remembers their values, and normalises and locates the changed ones (every one
/// when the cache is invalid).
fn mark_changes(rig: &Rig, inst: &mut Instance, driven: bool) {
    let set = &rig.params;
    let plan = &set.plan;
    let st = &mut inst.params;
    let cache = &mut st.cache;
    let valid = cache.valid;
    for &p in &plan.phase_params[usize::from(driven)] {
        let i = usize::from(p);
        let (Some(d), Some(&v), Some(&m), Some(seen)) = (
            set.params.get(i),
            st.values.get(i),
            st.muted.get(i),
            cache.seen.get_mut(i),
        ) else {
            continue;
        };
        // Bitwise, so a NaN set by the caller counts as a change once, not every frame.
        let changed = v[0].to_bits() != seen.value[0].to_bits()
            || v[1].to_bits() != seen.value[1].to_bits()
            || m != seen.muted;
        if !changed && valid {
            continue;
        }
        *seen = super::cache::Seen { value: v, muted: m };
        if let (Some(t), Some(cell), Some(corners), Some(keys)) = (
            cache.norm.get_mut(i),
            cache.cells.get_mut(i),
            cache.corners.get_mut(i),
            plan.param_keys.get(i),
        ) {
            *t = [d.normalize(0, v[0]), d.normalize(1, v[1])];
            *cell = [
                super::corners::Cell::locate(&keys[0], t[0]),
                super::corners::Cell::locate(&keys[1], t[1]),
            ];
            let forms = plan.corner_forms.get(i).copied().unwrap_or(3);
            super::corners::update_param_corners(corners, *cell, keys[1].len(), forms);
        }
        if !changed {
            continue;
        }
        cache.changed_list.push(p);
        if let Some(&(start, end)) = plan.param_deforms.get(i) {
            let entries = &plan.param_deform_entries;
            for &k in entries.get(start as usize..end as usize).unwrap_or(&[]) {
                if let Some(d) = cache.deform.get_mut(k as usize)
                    && !d.dirty
                {
                    d.dirty = true;
                    cache.deform_queue.push(k);
                }
            }
        }
    }
}

/// Writes bound bones' locals: setup with the accumulated offsets added and scales
/// multiplied.
fn finalize_bones(rig: &Rig, inst: &mut Instance) {
    for &b in &rig.params.bound_bones {
        let i = b.index();
        let (Some(setup), Some(o)) = (rig.bones.get(i).map(|d| d.setup), inst.params.bone.get(i))
        else {
            continue;
        };
        let p = &mut inst.pose[i];
        p.x = setup.x + o.x;
        p.y = setup.y + o.y;
        p.rotation = setup.rotation + o.rotation;
        p.scale_x = setup.scale_x * o.scale_x;
        p.scale_y = setup.scale_y * o.scale_y;
    }
}

/// Writes every bound slot's colour and every slot's visibility.
fn finalize_slots(rig: &Rig, inst: &mut Instance) {
    let set = &rig.params;
    for &s in &set.color_slots {
        let i = s.index();
        let (Some(sd), Some(o)) = (rig.slots.get(i), inst.params.slot.get(i)) else {
            continue;
        };
        inst.slots.color[i] = o.tinted(sd.color);
    }
    for (i, vis) in inst.params.visible.iter_mut().enumerate() {
        let base = set.slot_visible.get(i).copied().unwrap_or(true);
        *vis = base && inst.params.slot.get(i).is_none_or(|o| o.visible >= 0.5);
    }
}

/// Sorts the draw order again when a z-sort changed (or the cache was invalid).
fn finish_draw_order(rig: &Rig, inst: &mut Instance) {
    if !rig.params.bone_zsort.is_empty()
        && (inst.params.cache.zsort_dirty || !inst.params.cache.valid)
    {
        sort_draw_order(rig, inst);
    }
    inst.params.cache.zsort_dirty = false;
}

/// Writes the accumulated results: bound bones' locals (setup with offsets added and scales
/// multiplied), bound slots' colours, visibility, absolute z-sorts and the draw order.
/// Does nothing for an instance of another rig.
pub fn finalize_params(rig: &Rig, inst: &mut Instance) {
    if !inst.is_for(rig) {
        return;
    }
    finalize_bones(rig, inst);
    finalize_slots(rig, inst);
    finish_draw_order(rig, inst);
}

/// Absolute z-sort per bone, then the draw order: descending z-sort, each composite group
/// kept together at its own z-sort (COMPAT(inochi2d): drawables are drawn by descending
/// z-sort; a composite sorts its children separately). Ties keep tree order. Insertion sort
/// from the previous frame's order: linear when nothing moved, allocation-free.
fn sort_draw_order(rig: &Rig, inst: &mut Instance) {
    let set = &rig.params;
    let st = &mut inst.params;
    for (i, bd) in rig.bones.iter().enumerate() {
        let own =
            set.bone_zsort.get(i).copied().unwrap_or(0.0) + st.bone.get(i).map_or(0.0, |o| o.zsort);
        let parent = bd
            .parent
            .and_then(|p| st.zsort.get(p.index()).copied())
            .unwrap_or(0.0);
        if let Some(z) = st.zsort.get_mut(i) {
            *z = parent + own;
        }
    }
    let zs = &st.zsort;
    let key = |s: SlotId| {
        let sd = &rig.slots[s.index()];
        let own = zs.get(sd.bone.index()).copied().unwrap_or(0.0);
        match set.slot_group.get(s.index()).copied().flatten() {
            Some(g) => (
                zs.get(g.index()).copied().unwrap_or(0.0),
                g.index(),
                own,
                s.index(),
            ),
            None => (own, sd.bone.index(), own, s.index()),
        }
    };
    // "a before b": higher z first, then tree order, then higher z inside a group.
    let before = |a: (f64, usize, f64, usize), b: (f64, usize, f64, usize)| {
        if a.0 != b.0 {
            return a.0 > b.0;
        }
        if a.1 != b.1 {
            return a.1 < b.1;
        }
        if a.2 != b.2 {
            return a.2 > b.2;
        }
        a.3 < b.3
    };
    let order = &mut inst.draw_order;
    for i in 1..order.len() {
        let cur = order[i];
        let kc = key(cur);
        let mut j = i;
        while j > 0 && before(kc, key(order[j - 1])) {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = cur;
    }
}

/// Starts a parameter frame: forgets last frame's changes and, when the cache is invalid,
/// resets the accumulators (every target is folded again).
fn begin_frame(inst: &mut Instance) {
    inst.params.cache.changed_list.clear();
    if !inst.params.cache.valid {
        clear_accumulators(inst);
    }
}

/// The bindings applied before physics: change marks, the scalar targets that changed
/// (their components written), and when the cache is invalid every bound bone's local.
pub(crate) fn before_physics(rig: &Rig, inst: &mut Instance) {
    begin_frame(inst);
    mark_changes(rig, inst, false);
    super::scalars::update_scalars(rig, inst, 0);
    if !inst.params.cache.valid {
        finalize_bones(rig, inst);
    }
}

/// The physics-driven bindings: their change marks and targets.
pub(crate) fn after_physics(rig: &Rig, inst: &mut Instance) {
    mark_changes(rig, inst, true);
    super::scalars::update_scalars(rig, inst, 1);
}

/// The end of a parameter frame: deform buffers, (when invalid) every colour and
/// visibility, the draw order; the cache is valid from here on.
pub(crate) fn finish_frame(rig: &Rig, inst: &mut Instance) {
    super::deforms::update_deforms(rig, inst);
    if !inst.params.cache.valid {
        finalize_slots(rig, inst);
    }
    finish_draw_order(rig, inst);
    inst.params.cache.valid = true;
}

/// One parameter frame without physics: every binding, bone locals, deform buffers,
/// colours and draw order. Call before world transforms. Does nothing for an instance of
/// another rig.
pub fn apply_params(rig: &Rig, inst: &mut Instance) {
    if !inst.is_for(rig) {
        return;
    }
    stage_without_physics(rig, inst);
    super::deforms::remember_slots(inst);
}

/// Both binding phases with no drivers between them, and the frame's end.
pub(crate) fn stage_without_physics(rig: &Rig, inst: &mut Instance) {
    before_physics(rig, inst);
    after_physics(rig, inst);
    finish_frame(rig, inst);
}
