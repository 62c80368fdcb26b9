//! Deformed slots' buffers: setup vertices plus every deform binding's interpolated
//! keyform, rewritten only when the slot's inputs changed (see [`super::cache`]).
//!
//! Each dirty slot gathers the non-zero (keyform, weight) corners of all its bindings and
//! sums them in one pass with [`super::kernel::sum_pairs`], starting from the setup
//! vertices. Verified by the fixture tests (`sinew-formats/tests/inochi2d_*.rs`), the
//! property tests and `params/tests.rs`.

use super::grid::{AxisWeights, MAX_AXES, axis_weights, for_each_corner};
use super::kernel::{Pair, sum_pairs};
use crate::instance::Instance;
use crate::rig::{AttachmentKind, Rig};

/// Most corners gathered before a slot's sum is flushed into its buffer.
const GATHER: usize = 16;

/// Rewrites the deform buffer of every deformed slot whose inputs changed.
pub fn update_deforms(rig: &Rig, inst: &mut Instance) {
    let set = &rig.params;
    for entry in &set.plan.deform {
        let k = entry.slot as usize;
        let Some(&slot) = set.deform_slots.get(k) else {
            continue;
        };
        let i = slot.index();
        let mesh =
            inst.slots.attachment[i].and_then(|att| match &rig.attachments[att.index()].kind {
                AttachmentKind::Mesh(m) if !m.vertices.is_weighted() => Some((att, m)),
                _ => None,
            });
        let Some((att, mesh)) = mesh else {
            inst.slots.deform_len[i] = 0;
            inst.params.cache.slot_attachment[k] = None;
            continue;
        };
        let setup = &mesh.vertices.values;
        let n = setup.len();
        let range = entry.start as usize..entry.end as usize;
        let bindings = set.plan.deform_bindings.get(range).unwrap_or(&[]);
        let cache = &inst.params.cache;
        let clean = cache.valid
            && !entry.volatile
            && !cache.slot_dirty.get(k).copied().unwrap_or(true)
            && cache.slot_attachment[k] == Some(att)
            && inst.slots.deform_len[i] as usize == n;
        if clean {
            continue;
        }
        let start = inst.slots.deform_start[i] as usize;
        let Some(buf) = inst.slots.deform.get_mut(start..start + n) else {
            inst.slots.deform_len[i] = 0;
            inst.params.cache.slot_attachment[k] = None;
            continue;
        };
        let mut pairs = [Pair {
            key: &[],
            weight: 0.0,
        }; GATHER];
        let mut count = 0;
        let mut base = Some(&setup[..]);
        let mut weights = [AxisWeights::default(); MAX_AXES];
        for &bi in bindings {
            let b = &set.bindings[bi as usize];
            if b.stride as usize != n
                || b.axes.iter().any(|a| {
                    inst.params
                        .muted
                        .get(a.param.index())
                        .copied()
                        .unwrap_or(false)
                })
            {
                continue;
            }
            let na = b.axes.len().min(MAX_AXES);
            for (w, ax) in weights.iter_mut().zip(&b.axes[..na]) {
                let pi = ax.param.index();
                let (Some(pd), Some(v)) = (set.params.get(pi), inst.params.values.get(pi)) else {
                    *w = AxisWeights::single(0);
                    continue;
                };
                let c = usize::from(ax.component.min(1));
                *w = axis_weights(&ax.keys, pd.normalize(c, v[c]), b.interp);
            }
            for_each_corner(&weights[..na], &b.dims[..na], 1.0, |flat, w| {
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
        inst.slots.deform_len[i] = n as u32;
        inst.params.cache.slot_attachment[k] = Some(att);
        if let Some(d) = inst.params.cache.slot_dirty.get_mut(k) {
            *d = false;
        }
    }
}
