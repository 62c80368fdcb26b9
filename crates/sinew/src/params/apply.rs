//! The parameter stage (ARCHITECTURE.md stage 4): parameter values x keyform grids ->
//! bone local offsets, slot vertex offsets, slot colours, visibility and draw order.
//!
//! Per frame: [`reset_params`] clears the accumulators and puts every deformed slot's buffer
//! back to its setup vertices; [`accumulate_params`] adds every binding (offsets add,
//! scale-like factors multiply); [`finalize_params`] writes the results into the instance.
//! [`update_params`] sequences a whole parameter frame with physics the way the Inochi2D
//! reference does (inochi2d.md §3 "Frame order"): parameters no driver writes, world
//! transforms, the drivers (which read anchors and write their parameters), then the driven
//! parameters' bindings and the world transforms again. Allocation-free. Verified by
//! `params/tests.rs` and the fixture tests in `sinew-formats/tests/inochi2d_*.rs`.

use super::grid::{AxisWeights, MAX_AXES, accumulate_grid, axis_weights, eval_scalar};
use super::{BoneOffset, SlotOffset, Target};
use crate::ids::SlotId;
use crate::instance::Instance;
use crate::rig::{AttachmentKind, Rig};
use crate::types::Physics;

/// Clears the accumulators and resets deformed slots to their setup vertices.
pub fn reset_params(rig: &Rig, inst: &mut Instance) {
    inst.params.bone.fill(BoneOffset::NONE);
    inst.params.slot.fill(SlotOffset::NONE);
    for o in &mut inst.params.driver_offsets {
        *o = [0.0, 1.0];
    }
    for &slot in &rig.params.deform_slots {
        let i = slot.index();
        inst.slots.deform_len[i] = 0;
        let Some(att) = inst.slots.attachment[i] else {
            continue;
        };
        let AttachmentKind::Mesh(m) = &rig.attachments[att.index()].kind else {
            continue;
        };
        if m.vertices.is_weighted() {
            continue;
        }
        let n = m.vertices.values.len();
        let start = inst.slots.deform_start[i] as usize;
        let Some(buf) = inst.slots.deform.get_mut(start..start + n) else {
            continue;
        };
        for (d, &v) in buf.iter_mut().zip(&m.vertices.values) {
            *d = f64::from(v);
        }
        inst.slots.deform_len[i] = n as u32;
    }
}

/// Adds the bindings whose `driven` flag equals `driven` (physics-driven parameters are
/// applied after physics).
pub fn accumulate_params(rig: &Rig, inst: &mut Instance, driven: bool) {
    let set = &rig.params;
    let st = &mut inst.params;
    let mut weights = [AxisWeights::default(); MAX_AXES];
    for b in set.bindings.iter().filter(|b| b.driven == driven) {
        if b.axes
            .iter()
            .any(|a| st.muted.get(a.param.index()).copied().unwrap_or(false))
        {
            continue;
        }
        let na = b.axes.len().min(MAX_AXES);
        for (w, ax) in weights.iter_mut().zip(&b.axes[..na]) {
            let pi = ax.param.index();
            let (Some(pd), Some(v)) = (set.params.get(pi), st.values.get(pi)) else {
                *w = AxisWeights::single(0);
                continue;
            };
            let c = usize::from(ax.component.min(1));
            *w = axis_weights(&ax.keys, pd.normalize(c, v[c]), b.interp);
        }
        let (axes, dims) = (&weights[..na], &b.dims[..na]);
        match b.target {
            Target::SlotDeform(slot) => {
                let i = slot.index();
                let len = inst.slots.deform_len[i] as usize;
                if len != b.stride as usize {
                    continue;
                }
                let start = inst.slots.deform_start[i] as usize;
                if let Some(buf) = inst.slots.deform.get_mut(start..start + len) {
                    accumulate_grid(axes, dims, &b.values, 1.0, buf);
                }
            }
            target => {
                let v = eval_scalar(axes, dims, &b.values);
                apply_scalar(st, target, v);
            }
        }
    }
}

fn apply_scalar(st: &mut super::ParamState, target: Target, v: f64) {
    match target {
        Target::BoneX(b) => with(&mut st.bone, b.index(), |o| o.x += v),
        Target::BoneY(b) => with(&mut st.bone, b.index(), |o| o.y += v),
        Target::BoneRotation(b) => with(&mut st.bone, b.index(), |o| o.rotation += v),
        Target::BoneScaleX(b) => with(&mut st.bone, b.index(), |o| o.scale_x *= v),
        Target::BoneScaleY(b) => with(&mut st.bone, b.index(), |o| o.scale_y *= v),
        Target::BoneZSort(b) => with(&mut st.bone, b.index(), |o| o.zsort += v),
        Target::SlotOpacity(s) => with(&mut st.slot, s.index(), |o| o.opacity *= v),
        Target::SlotTint(s, c) => with(&mut st.slot, s.index(), |o| {
            o.tint[usize::from(c.min(2))] *= v
        }),
        Target::SlotScreenTint(s, c) => with(&mut st.slot, s.index(), |o| {
            o.screen[usize::from(c.min(2))] += v
        }),
        Target::SlotVisible(s) => with(&mut st.slot, s.index(), |o| o.visible *= v),
        Target::DriverLength(d) => with(&mut st.driver_offsets, usize::from(d), |o| o[0] += v),
        Target::DriverGravity(d) => with(&mut st.driver_offsets, usize::from(d), |o| o[1] *= v),
        Target::SlotDeform(_) => {}
    }
}

#[inline]
fn with<T>(v: &mut [T], i: usize, f: impl FnOnce(&mut T)) {
    if let Some(x) = v.get_mut(i) {
        f(x);
    }
}

/// Writes the accumulated results: bound bones' locals (setup with offsets added and scales
/// multiplied), bound slots' colours, visibility, absolute z-sorts and the draw order.
pub fn finalize_params(rig: &Rig, inst: &mut Instance) {
    let set = &rig.params;
    for &b in &set.bound_bones {
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
    for &s in &set.color_slots {
        let i = s.index();
        let (Some(sd), Some(o)) = (rig.slots.get(i), inst.params.slot.get(i)) else {
            continue;
        };
        let c = sd.color;
        inst.slots.color[i] = crate::Color::new(
            (f64::from(c.r) * o.tint[0]) as f32,
            (f64::from(c.g) * o.tint[1]) as f32,
            (f64::from(c.b) * o.tint[2]) as f32,
            (f64::from(c.a) * o.opacity) as f32,
        );
    }
    for (i, vis) in inst.params.visible.iter_mut().enumerate() {
        let base = set.slot_visible.get(i).copied().unwrap_or(true);
        *vis = base && inst.params.slot.get(i).is_none_or(|o| o.visible >= 0.5);
    }
    if !set.bone_zsort.is_empty() {
        sort_draw_order(rig, inst);
    }
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

/// One parameter frame without physics: reset, every binding, finalize. Call before world
/// transforms.
pub fn apply_params(rig: &Rig, inst: &mut Instance) {
    reset_params(rig, inst);
    accumulate_params(rig, inst, false);
    accumulate_params(rig, inst, true);
    finalize_params(rig, inst);
}

/// A whole parameter-driven frame of `dt` seconds: parameters, world transforms, and with
/// `physics` the drivers and the driven parameters (then world transforms again).
pub fn update_params(rig: &Rig, inst: &mut Instance, dt: f64, physics: bool) {
    super::chain::step_chains(rig, inst, dt, physics);
    reset_params(rig, inst);
    accumulate_params(rig, inst, false);
    if !physics || rig.params.drivers.is_empty() {
        accumulate_params(rig, inst, true);
        finalize_params(rig, inst);
        crate::skeleton::update_world_transform(rig, inst, Physics::None);
        crate::deformer::apply_deformers(rig, inst);
        return;
    }
    finalize_params(rig, inst);
    crate::skeleton::update_world_transform(rig, inst, Physics::None);
    super::driver::step_drivers(rig, inst, dt);
    accumulate_params(rig, inst, true);
    finalize_params(rig, inst);
    crate::skeleton::update_world_transform(rig, inst, Physics::None);
    crate::deformer::apply_deformers(rig, inst);
}
