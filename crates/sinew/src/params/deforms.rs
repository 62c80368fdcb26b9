//! Deformed slots' buffers: setup vertices plus every deform binding's interpolated
//! keyform, rewritten only when the slot's inputs changed (see [`super::cache`]).
//!
//! Each dirty slot gathers the non-zero (keyform, weight) corners of all its bindings and
//! sums them in one pass with [`super::kernel::sum_pairs`], starting from the setup
//! vertices. Verified by the fixture tests (`sinew-formats/tests/inochi2d_*.rs`), the
//! property tests and `params/tests.rs`.

use super::corners::{binding_corners, linear_corners};
use super::kernel::{Pair, sum_pairs};
use crate::instance::Instance;
use crate::rig::{AttachmentKind, Rig};

/// Most corners gathered before a slot's sum is flushed into its buffer.
const GATHER: usize = 8;

/// Rewrites the deform buffer of every deformed slot whose inputs changed.
pub fn update_deforms(rig: &Rig, inst: &mut Instance) {
    let set = &rig.params;
    let valid = inst.params.cache.valid;
    for entry in &set.plan.deform {
        let (k, i) = (entry.slot as usize, entry.slot_index as usize);
        let att = inst.slots.attachment.get(i).copied().flatten();
        let cache = &inst.params.cache;
        if valid
            && !entry.volatile
            && att.is_some()
            && !cache.slot_dirty.get(k).copied().unwrap_or(true)
            && cache.slot_attachment.get(k) == Some(&att)
            && cache.slot_len.get(k) == inst.slots.deform_len.get(i)
        {
            continue;
        }
        rewrite(rig, inst, entry);
    }
}

/// Writes one slot's buffer: setup plus every binding's corners.
fn rewrite(rig: &Rig, inst: &mut Instance, entry: &super::plan::DeformSlotPlan) {
    let set = &rig.params;
    let (k, i) = (entry.slot as usize, entry.slot_index as usize);
    let mesh = inst.slots.attachment[i].and_then(|att| match &rig.attachments[att.index()].kind {
        AttachmentKind::Mesh(m) if !m.vertices.is_weighted() => Some((att, m)),
        _ => None,
    });
    let cache = &mut inst.params.cache;
    let Some((att, mesh)) = mesh else {
        inst.slots.deform_len[i] = 0;
        cache.slot_attachment[k] = None;
        return;
    };
    let setup = &mesh.vertices.values;
    let n = setup.len();
    let start = inst.slots.deform_start[i] as usize;
    let Some(buf) = inst.slots.deform.get_mut(start..start + n) else {
        inst.slots.deform_len[i] = 0;
        cache.slot_attachment[k] = None;
        return;
    };
    let range = entry.start as usize..entry.end as usize;
    let bindings = set.plan.deform_bindings.get(range).unwrap_or(&[]);
    let (norm, muted) = (&inst.params.cache.norm, &inst.params.muted);
    let cells = |bi: u32| {
        set.plan
            .binding_cells
            .get(bi as usize)
            .copied()
            .unwrap_or(false)
            .then_some(&inst.params.cache.cells[..])
    };
    let usable = |b: &super::Binding| {
        b.stride as usize == n
            && !b
                .axes
                .iter()
                .any(|a| muted.get(a.param.index()).copied().unwrap_or(false))
    };
    // The common case: one linear binding over one or two axes, at most four corners.
    if let [bi] = bindings
        && let b = &set.bindings[*bi as usize]
        && let Some(c) = linear_corners(norm, cells(*bi), b)
    {
        let mut pairs = [Pair {
            key: &[],
            weight: 0.0,
        }; 4];
        let mut count = 0;
        if usable(b) {
            for k in 0..c.len {
                let flat = c.flat[k];
                if let Some(key) = b.values.get(flat * n..flat * n + n) {
                    pairs[count] = Pair {
                        key,
                        weight: c.weight[k],
                    };
                    count += 1;
                }
            }
        }
        sum_pairs(buf, Some(setup), &pairs[..count]);
        finish(inst, entry, att, n);
        return;
    }
    let mut pairs = [Pair {
        key: &[],
        weight: 0.0,
    }; GATHER];
    let mut count = 0;
    let mut base = Some(&setup[..]);
    for &bi in bindings {
        let b = &set.bindings[bi as usize];
        if !usable(b) {
            continue;
        }
        binding_corners(norm, cells(bi), b, |flat, w| {
            let Some(key) = b.values.get(flat * n..flat * n + n) else {
                return;
            };
            if count == GATHER {
                sum_pairs(buf, base.take(), &pairs[..count]);
                count = 0;
            }
            pairs[count] = Pair { key, weight: w };
            count += 1;
        });
    }
    sum_pairs(buf, base.take(), &pairs[..count]);
    finish(inst, entry, att, n);
}

/// Records that the slot's buffer now holds `n` floats computed for `att`.
fn finish(
    inst: &mut Instance,
    entry: &super::plan::DeformSlotPlan,
    att: crate::ids::AttachmentId,
    n: usize,
) {
    let (k, i) = (entry.slot as usize, entry.slot_index as usize);
    inst.slots.deform_len[i] = n as u32;
    let cache = &mut inst.params.cache;
    cache.slot_attachment[k] = Some(att);
    cache.slot_len[k] = n as u32;
    if let Some(d) = cache.slot_dirty.get_mut(k) {
        *d = false;
    }
}
