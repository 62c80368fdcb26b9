//! Deformed slots' buffers: setup vertices plus every deform binding's interpolated
//! keyform, rewritten only when the slot's inputs changed (see [`super::cache`]).
//!
//! Each dirty slot gathers the non-zero (keyform, weight) corners of all its bindings and
//! sums them in one keyform pass ([`super::kernel`]), starting from the setup vertices.
//! Corners on all-zero keyforms (a rig's neutral keyform, usually) are left out: they add
//! nothing but the sign of a zero. Verified by the fixture tests
//! (`sinew-formats/tests/inochi2d_*.rs`), the property tests and `params/tests.rs`.

use super::cache::DeformMemo;
use super::corners::{Cell, binding_corners};
use super::kernel::{Pair, sum_pass_exact};
use super::plan::{DeformItem, DeformSlotPlan};
use crate::ids::AttachmentId;
use crate::instance::Instance;
use crate::rig::{AttachmentKind, Rig};

/// Most corners gathered before a slot's sum is flushed into its buffer: one keyform pass.
const GATHER: usize = super::kernel::PASS_PAIRS;

/// Rewrites the deform buffer of every deformed slot whose inputs changed.
///
/// When no slot's attachment or deform length changed since the stage's last frame (the
/// usual case, checked over two whole slices), only the slots a changed parameter marked
/// and those a deformer writes to are visited; otherwise every deformed slot is checked.
pub fn update_deforms(rig: &Rig, inst: &mut Instance) {
    let plan = &rig.params.plan;
    let cache = &inst.params.cache;
    let full = !cache.valid
        || !same_attachments(&inst.slots.attachment, &cache.attachments_seen)
        || inst.slots.deform_len != cache.lens_seen;
    if full {
        for k in 0..plan.deform.len() {
            visit(rig, inst, k);
        }
    } else {
        for q in 0..inst.params.cache.deform_queue.len() {
            let k = inst.params.cache.deform_queue[q] as usize;
            visit(rig, inst, k);
        }
        for &k in &plan.volatile_deforms {
            visit(rig, inst, k as usize);
        }
    }
    inst.params.cache.deform_queue.clear();
}

/// Rewrites deformed slot `k`'s buffer if its inputs changed.
#[inline]
fn visit(rig: &Rig, inst: &mut Instance, k: usize) {
    let valid = inst.params.cache.valid;
    let Some(entry) = rig.params.plan.deform.get(k) else {
        return;
    };
    let i = entry.slot_index as usize;
    let (Some(&att), Some(&len), Some(memo)) = (
        inst.slots.attachment.get(i),
        inst.slots.deform_len.get(i),
        inst.params.cache.deform.get(k),
    ) else {
        return;
    };
    let clean = valid
        && !entry.volatile
        && !memo.dirty
        && att.is_some()
        && memo.attachment == att
        && memo.len == len;
    if !clean {
        let written = rewrite(rig, inst, entry, att);
        inst.params.cache.deform[k] = written;
    }
}

/// An attachment as one number (`u32::MAX` for none; ids stop below it).
#[inline(always)]
fn attachment_code(a: &Option<AttachmentId>) -> u32 {
    a.map_or(u32::MAX, |id| id.0)
}

/// Whether the slots' attachments are the ones remembered: every pair compared without
/// stopping early, on 32-bit codes, so the loop vectorises (it runs every frame).
fn same_attachments(now: &[Option<AttachmentId>], seen: &[u32]) -> bool {
    now.len() == seen.len()
        && now
            .iter()
            .zip(seen)
            .fold(true, |same, (a, &s)| same & (attachment_code(a) == s))
}

/// Remembers every slot's attachment and deform length at the end of the stage's frame
/// (what [`update_deforms`] compares against next frame).
pub(crate) fn remember_slots(inst: &mut Instance) {
    let cache = &mut inst.params.cache;
    cache.attachments_seen.clear();
    cache
        .attachments_seen
        .extend(inst.slots.attachment.iter().map(attachment_code));
    if cache.lens_seen.len() == inst.slots.deform_len.len() {
        cache.lens_seen.copy_from_slice(&inst.slots.deform_len);
    } else {
        cache.lens_seen.clone_from(&inst.slots.deform_len);
    }
}

/// Writes one slot's buffer (setup plus every binding's corners) and says what it wrote.
fn rewrite(
    rig: &Rig,
    inst: &mut Instance,
    entry: &DeformSlotPlan,
    att: Option<AttachmentId>,
) -> DeformMemo {
    let i = entry.slot_index as usize;
    let mesh = att.and_then(|a| match &rig.attachments.get(a.index())?.kind {
        AttachmentKind::Mesh(m) if !m.vertices.is_weighted() => Some(m),
        _ => None,
    });
    let setup = mesh.map_or(&[][..], |m| &m.vertices.values[..]);
    let n = setup.len();
    let start = inst.slots.deform_start[i] as usize;
    let fits = n <= inst.slots.deform_capacity(i);
    let buf = match inst.slots.deform.get_mut(start..start + n) {
        Some(buf) if mesh.is_some() && fits => buf,
        _ => {
            inst.slots.deform_len[i] = 0;
            return DeformMemo::DIRTY;
        }
    };
    let set = &rig.params;
    let items = set
        .plan
        .deform_bindings
        .get(entry.start as usize..entry.end as usize)
        .unwrap_or(&[]);
    let cache = &inst.params.cache;
    let mut gather = Gather {
        pairs: [Pair {
            key: &[],
            weight: 0.0,
        }; GATHER],
        count: 0,
        base: Some(setup),
    };
    for item in items {
        let b = &set.bindings[item.binding as usize];
        if b.stride as usize != n || item.params.muted(&inst.params.muted, b) {
            continue;
        }
        match item.grid.and_then(|g| g.corners(&cache.corners)) {
            Some(c) => {
                for k in 0..c.len.min(4) {
                    let flat = c.flat[k];
                    if flat < 64 && item.zero_keys >> flat & 1 == 1 {
                        continue;
                    }
                    if let Some(key) = b.values.get(flat * n..flat * n + n) {
                        gather.push(buf, key, c.weight[k]);
                    }
                }
            }
            None => gather_generic(set, item, &cache.norm, &cache.cells, n, buf, &mut gather),
        }
    }
    gather.flush(buf);
    inst.slots.deform_len[i] = n as u32;
    DeformMemo {
        attachment: att,
        len: n as u32,
        dirty: false,
    }
}

/// The pairs gathered for one slot, summed into its buffer whenever [`GATHER`] are waiting
/// (the first sum starting from the setup vertices). Every key and the base are exactly as
/// long as the buffer (the keys are sliced to it, the base is the setup it was sized from),
/// which [`sum_pass_exact`] relies on.
struct Gather<'a> {
    pairs: [Pair<'a>; GATHER],
    count: usize,
    base: Option<&'a [f32]>,
}

impl<'a> Gather<'a> {
    #[inline(always)]
    fn push(&mut self, buf: &mut [f64], key: &'a [f32], weight: f64) {
        if self.count == GATHER {
            self.flush(buf);
        }
        if let Some(p) = self.pairs.get_mut(self.count) {
            *p = Pair { key, weight };
            self.count += 1;
        }
    }

    #[inline(always)]
    fn flush(&mut self, buf: &mut [f64]) {
        sum_pass_exact(buf, self.base.take(), &self.pairs[..self.count.min(GATHER)]);
        self.count = 0;
    }
}

/// Gathers the corners of a binding the per-parameter corners do not cover (other interpolations,
/// more axes, its own keys). Kept out of line so the common loop stays small.
#[inline(never)]
fn gather_generic<'a>(
    set: &'a super::ParamSet,
    item: &DeformItem,
    norm: &[[f64; 2]],
    cells: &[[Cell; 2]],
    n: usize,
    buf: &mut [f64],
    gather: &mut Gather<'a>,
) {
    let b = &set.bindings[item.binding as usize];
    let shared = set.plan.binding_cells.get(item.binding as usize);
    let cells = shared.copied().unwrap_or(false).then_some(cells);
    binding_corners(norm, cells, b, |flat, w| {
        if flat < 64 && item.zero_keys >> flat & 1 == 1 {
            return;
        }
        if let Some(key) = b.values.get(flat * n..flat * n + n) {
            gather.push(buf, key, w);
        }
    });
}
