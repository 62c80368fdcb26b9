//! Attachment timelines: vertex deform and texture sequences, as spine-ts 4.2
//! `DeformTimeline` and `SequenceTimeline`.
//!
//! Deform keys hold full vertex arrays (setup + delta for unweighted attachments, deltas for
//! weighted ones) and write the slot's deform buffer (`inst.slots.deform` at the slot's
//! `deform_start`, length `deform_len`); they apply only while the slot shows an attachment
//! whose `timeline_attachment` is the timeline's attachment.
//!
//! Verified by the unit tests below (every blend, weighted and unweighted, before/inside/
//! after the keys; every sequence mode).

use super::slot::slot_active;
use super::{Args, before_first};
use crate::anim::curve::search;
use crate::anim::{MixBlend, MixDirection, SequenceKey, Timeline, TimelineKind};
use crate::ids::{AttachmentId, SlotId};
use crate::instance::Instance;
use crate::raw::SequenceMode;
use crate::rig::{AttachmentKind, Rig};

/// Whether an attachment is a vertex attachment (mesh, bounding box, path, clipping).
#[inline]
fn is_vertex(rig: &Rig, a: AttachmentId) -> bool {
    !matches!(
        rig.attachments[a.index()].kind,
        AttachmentKind::Region(_) | AttachmentKind::Point { .. }
    )
}

// Kept out of `apply_timeline`'s dispatch: inlined there it cost every timeline +0.5 instruction
// (callgrind, spineboy `run`).
#[inline(never)]
pub(super) fn deform(rig: &Rig, inst: &mut Instance, tl: &Timeline, a: Args) {
    let TimelineKind::Deform {
        slot, attachment, ..
    } = &tl.kind
    else {
        return;
    };
    deform_in(rig, inst, tl, *slot, a);
    // Spine 4.3: linked meshes in other slots that inherit the attachment's timelines.
    if let Some(att) = rig.attachments.get(attachment.index()) {
        for &other in &att.timeline_slots {
            deform_in(rig, inst, tl, other, a);
        }
    }
}

/// A deform timeline in one slot (the timeline's own or one of its attachment's
/// `timeline_slots`): acts when the slot shows an attachment that takes its timelines.
fn deform_in(rig: &Rig, inst: &mut Instance, tl: &Timeline, slot: SlotId, a: Args) {
    let TimelineKind::Deform {
        attachment,
        vertex_count,
        vertices,
        ..
    } = &tl.kind
    else {
        return;
    };
    let s = slot.index();
    if !slot_active(rig, inst, slot) {
        return;
    }
    let Some(cur) = inst.slots.attachment[s] else {
        return;
    };
    let cur_att = &rig.attachments[cur.index()];
    if !is_vertex(rig, cur) || cur_att.timeline_attachment != *attachment {
        return;
    }
    let Some(cur_vertices) = cur_att.vertices() else {
        return;
    };
    let n = *vertex_count as usize;
    let weighted = cur_vertices.is_weighted();
    let setup: &[f32] = if weighted { &[] } else { &cur_vertices.values };
    // Guards against inconsistent data (never true for a rig the builder accepted).
    if n > inst.slots.deform_capacity(s) || (!weighted && setup.len() < n) {
        return;
    }
    let start = inst.slots.deform_start[s] as usize;
    let mut blend = a.blend;
    if inst.slots.deform_len[s] == 0 {
        blend = MixBlend::Setup;
    }
    let alpha = a.alpha;
    let time = a.time;
    let times = &tl.frames;
    let deform = &mut inst.slots.deform[start..start + n];
    if before_first(tl, time) {
        match blend {
            MixBlend::Setup => inst.slots.deform_len[s] = 0,
            MixBlend::First => {
                if alpha == 1.0 {
                    inst.slots.deform_len[s] = 0;
                    return;
                }
                inst.slots.deform_len[s] = n as u32;
                if weighted {
                    let keep = 1.0 - alpha;
                    deform.iter_mut().for_each(|d| *d *= keep);
                } else {
                    for (d, &sv) in deform.iter_mut().zip(setup) {
                        *d += (f64::from(sv) - *d) * alpha;
                    }
                }
            }
            _ => {}
        }
        return;
    }
    // Spine 4.3 `add` from the current vertices is 4.2's additive blend, vertex for vertex.
    if a.add && blend != MixBlend::Setup {
        blend = MixBlend::Add;
    }
    inst.slots.deform_len[s] = n as u32;
    let last_key = times.len() - 1;
    if time >= f64::from(times[last_key]) {
        let last = &vertices[last_key * n..(last_key + 1) * n];
        mix_into(deform, setup, weighted, alpha, blend, |i| {
            f64::from(last[i])
        });
        return;
    }
    let key = search(times, time, 1);
    let percent = tl.curves.deform_percent(times, time, key);
    let prev = &vertices[key * n..(key + 1) * n];
    let next = &vertices[(key + 1) * n..(key + 2) * n];
    mix_into(deform, setup, weighted, alpha, blend, |i| {
        let p = f64::from(prev[i]);
        p + (f64::from(next[i]) - p) * percent
    });
}

/// Writes key vertices `key(i)` into `deform` with the official per-blend rules.
#[inline]
fn mix_into(
    deform: &mut [f64],
    setup: &[f32],
    weighted: bool,
    alpha: f64,
    blend: MixBlend,
    key: impl Fn(usize) -> f64,
) {
    let sv = |i: usize| if weighted { 0.0 } else { f64::from(setup[i]) };
    if alpha == 1.0 {
        if blend == MixBlend::Add {
            for (i, d) in deform.iter_mut().enumerate() {
                *d += key(i) - sv(i);
            }
        } else {
            for (i, d) in deform.iter_mut().enumerate() {
                *d = key(i);
            }
        }
        return;
    }
    match blend {
        MixBlend::Setup => {
            for (i, d) in deform.iter_mut().enumerate() {
                *d = if weighted {
                    key(i) * alpha
                } else {
                    sv(i) + (key(i) - sv(i)) * alpha
                };
            }
        }
        MixBlend::First | MixBlend::Replace => {
            for (i, d) in deform.iter_mut().enumerate() {
                *d += (key(i) - *d) * alpha;
            }
        }
        MixBlend::Add => {
            for (i, d) in deform.iter_mut().enumerate() {
                *d += if weighted {
                    key(i) * alpha
                } else {
                    (key(i) - sv(i)) * alpha
                };
            }
        }
    }
}

/// JavaScript `x | 0` (ToInt32): truncation toward zero, wrapped to 32 bits; NaN and
/// infinities give 0.
#[inline]
fn to_int32(x: f64) -> i64 {
    if !x.is_finite() {
        return 0;
    }
    let m = x.trunc().rem_euclid(4294967296.0) as u64 as u32;
    i64::from(m as i32)
}

#[inline(never)]
pub(super) fn sequence(rig: &Rig, inst: &mut Instance, tl: &Timeline, a: Args) {
    let TimelineKind::Sequence {
        slot, attachment, ..
    } = &tl.kind
    else {
        return;
    };
    sequence_in(rig, inst, tl, *slot, a);
    if let Some(att) = rig.attachments.get(attachment.index()) {
        for &other in &att.timeline_slots {
            sequence_in(rig, inst, tl, other, a);
        }
    }
}

/// A sequence timeline in one slot (as [`deform_in`]).
fn sequence_in(rig: &Rig, inst: &mut Instance, tl: &Timeline, slot: SlotId, a: Args) {
    let TimelineKind::Sequence {
        attachment,
        count,
        keys,
        ..
    } = &tl.kind
    else {
        return;
    };
    let s = slot.index();
    if !slot_active(rig, inst, slot) {
        return;
    }
    let Some(cur) = inst.slots.attachment[s] else {
        return;
    };
    if cur != *attachment
        && (!is_vertex(rig, cur) || rig.attachments[cur.index()].timeline_attachment != *attachment)
    {
        return;
    }
    if a.direction == MixDirection::Out {
        if a.blend == MixBlend::Setup {
            inst.slots.sequence_index[s] = -1;
        }
        return;
    }
    if before_first(tl, a.time) {
        if matches!(a.blend, MixBlend::Setup | MixBlend::First) {
            inst.slots.sequence_index[s] = -1;
        }
        return;
    }
    let i = tl.search(a.time, 1);
    let (Some(key), true) = (keys.get(i), *count > 0) else {
        return;
    };
    inst.slots.sequence_index[s] =
        sequence_index(key, f64::from(tl.frames[i]), a.time, i64::from(*count)) as i32;
}

/// The region index a sequence key shows at `time` (key at `before`), for `count` regions.
fn sequence_index(key: &SequenceKey, before: f64, time: f64, count: i64) -> i64 {
    let mut index = i64::from(key.index);
    if key.mode == SequenceMode::Hold {
        return index;
    }
    // COMPAT(spine): the 0.00001 bias and the ToInt32 truncation are the official ones.
    index += to_int32((time - before) / f64::from(key.delay) + 0.00001);
    let n = (count << 1) - 2;
    match key.mode {
        SequenceMode::Hold => {}
        SequenceMode::Once => index = index.min(count - 1),
        SequenceMode::Loop => index %= count,
        SequenceMode::Pingpong => {
            index = if n == 0 { 0 } else { index % n };
            if index >= count {
                index = n - index;
            }
        }
        SequenceMode::OnceReverse => index = (count - 1 - index).max(0),
        SequenceMode::LoopReverse => index = count - 1 - (index % count),
        SequenceMode::PingpongReverse => {
            index = if n == 0 { 0 } else { (index + count - 1) % n };
            if index >= count {
                index = n - index;
            }
        }
    }
    index
}

#[cfg(test)]
mod tests {
    use super::super::testrig::*;
    use super::*;
    use crate::anim::{MixBlend::*, MixDirection::*, TimelineKind as K};
    use crate::ids::SlotId;

    fn deform_tl(att: u32, weighted: bool, keys: &[(f32, &[f32])]) -> Timeline {
        let n = keys[0].1.len();
        let t: Vec<f32> = keys.iter().map(|k| k.0).collect();
        let vertices = keys.iter().flat_map(|k| k.1.iter().copied()).collect();
        times(
            K::Deform {
                slot: SlotId(0),
                attachment: AttachmentId(att),
                vertex_count: n as u32,
                vertices,
                weighted,
            },
            &t,
        )
    }

    #[test]
    fn unweighted_deform_blends() {
        let rig = rig();
        let mut inst = instance(&rig);
        // Setup vertices 1..6; keys are setup + delta: delta 0 at t=0, +10 at t=1.
        let setup = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
        let plus10: Vec<f32> = setup.iter().map(|v| v + 10.0).collect();
        let tl = deform_tl(1, false, &[(0.0, &setup), (1.0, &plus10)]);
        // Not applied while the slot shows another attachment.
        run(&rig, &mut inst, &tl, 0.5, 1.0, Replace, In);
        assert_eq!(inst.slots.deform_len[0], 0);
        inst.set_attachment(&rig, SlotId(0), Some(AttachmentId(1)));
        // Empty deform forces setup: setup + 5 * alpha(.5).
        run(&rig, &mut inst, &tl, 0.5, 0.5, Replace, In);
        assert_eq!(
            inst.slots.deform(SlotId(0)),
            &[3.5, 4.5, 5.5, 6.5, 7.5, 8.5]
        );
        // Replace toward the key (setup + 5) by .5 from current (setup + 2.5).
        run(&rig, &mut inst, &tl, 0.5, 0.5, Replace, In);
        assert_eq!(inst.slots.deform(SlotId(0))[0], 3.5 + (6.0 - 3.5) * 0.5);
        // Add after the last key: += (last - setup) * alpha.
        run(&rig, &mut inst, &tl, 2.0, 1.0, Setup, In);
        assert_eq!(inst.slots.deform(SlotId(0))[0], 11.0);
        run(&rig, &mut inst, &tl, 2.0, 0.5, Add, In);
        assert_eq!(inst.slots.deform(SlotId(0))[0], 16.0);
        // First before the first key moves toward setup; alpha 1 clears.
        let late = deform_tl(1, false, &[(1.0, &setup), (2.0, &plus10)]);
        run(&rig, &mut inst, &late, 0.5, 0.5, First, In);
        assert_eq!(inst.slots.deform(SlotId(0))[0], 16.0 + (1.0 - 16.0) * 0.5);
        run(&rig, &mut inst, &late, 0.5, 1.0, First, In);
        assert_eq!(inst.slots.deform_len[0], 0);
    }

    #[test]
    fn weighted_deform_blends() {
        let rig = rig();
        let mut inst = instance(&rig);
        inst.set_attachment(&rig, SlotId(0), Some(AttachmentId(2)));
        let tl = deform_tl(
            2,
            true,
            &[(0.0, &[0.0, 0.0, 0.0, 0.0]), (1.0, &[4.0, 8.0, -4.0, 2.0])],
        );
        run(&rig, &mut inst, &tl, 0.25, 1.0, Replace, In);
        assert_eq!(inst.slots.deform(SlotId(0)), &[1.0, 2.0, -1.0, 0.5]);
        run(&rig, &mut inst, &tl, 1.0, 0.5, Setup, In);
        assert_eq!(inst.slots.deform(SlotId(0)), &[2.0, 4.0, -2.0, 1.0]);
        run(&rig, &mut inst, &tl, 1.0, 1.0, Add, In);
        assert_eq!(inst.slots.deform(SlotId(0)), &[6.0, 12.0, -6.0, 3.0]);
        let late = deform_tl(2, true, &[(1.0, &[0.0; 4]), (2.0, &[1.0; 4])]);
        run(&rig, &mut inst, &late, 0.0, 0.25, First, In);
        assert_eq!(inst.slots.deform(SlotId(0)), &[4.5, 9.0, -4.5, 2.25]);
    }

    #[test]
    fn deform_bezier_percent() {
        let rig = rig();
        let mut inst = instance(&rig);
        inst.set_attachment(&rig, SlotId(0), Some(AttachmentId(2)));
        let mut tl = deform_tl(2, true, &[(0.0, &[0.0; 4]), (1.0, &[1.0; 4])]);
        // A straight "curve" gives the linear fraction.
        tl.curves
            .push_deform_bezier(0, 0.0, 1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0, 1.0);
        run(&rig, &mut inst, &tl, 0.45, 1.0, Replace, In);
        assert!((inst.slots.deform(SlotId(0))[0] - 0.45).abs() < 1e-6);
    }

    #[test]
    fn sequence_modes() {
        let key = |mode, index| SequenceKey {
            mode,
            index,
            delay: 0.1,
        };
        use SequenceMode::*;
        let at = |k: &SequenceKey, t: f64| sequence_index(k, 0.0, t, 4);
        assert_eq!(at(&key(Hold, 2), 5.0), 2);
        assert_eq!(at(&key(Once, 0), 0.25), 2);
        assert_eq!(at(&key(Once, 0), 5.0), 3);
        assert_eq!(at(&key(Loop, 0), 0.55), 1);
        // Pingpong over 4 regions: 0 1 2 3 2 1 0 1 ...
        let pp: Vec<i64> = (0..8)
            .map(|f| at(&key(Pingpong, 0), f as f64 * 0.1))
            .collect();
        assert_eq!(pp, [0, 1, 2, 3, 2, 1, 0, 1]);
        assert_eq!(at(&key(OnceReverse, 0), 0.1), 2);
        assert_eq!(at(&key(OnceReverse, 0), 9.0), 0);
        assert_eq!(at(&key(LoopReverse, 0), 0.5), 2);
        // PingpongReverse starts at the last region: 3 2 1 0 1 2 3 2.
        let pr: Vec<i64> = (0..8)
            .map(|f| at(&key(PingpongReverse, 0), f as f64 * 0.1))
            .collect();
        assert_eq!(pr, [3, 2, 1, 0, 1, 2, 3, 2]);
        // One region: pingpong stays 0. Zero delay: ToInt32(inf) = 0.
        assert_eq!(sequence_index(&key(Pingpong, 0), 0.0, 3.0, 1), 0);
        let z = SequenceKey {
            mode: Loop,
            index: 1,
            delay: 0.0,
        };
        assert_eq!(sequence_index(&z, 0.0, 3.0, 4), 1);
    }

    #[test]
    fn sequence_timeline_needs_its_attachment() {
        let rig = rig();
        let mut inst = instance(&rig);
        let keys = vec![SequenceKey {
            mode: SequenceMode::Loop,
            index: 0,
            delay: 0.5,
        }];
        let tl = times(
            K::Sequence {
                slot: SlotId(0),
                attachment: AttachmentId(0),
                count: 3,
                keys,
            },
            &[0.0],
        );
        run(&rig, &mut inst, &tl, 1.2, 1.0, Replace, In);
        assert_eq!(inst.slots.sequence_index[0], 2);
        run(&rig, &mut inst, &tl, 1.2, 1.0, Setup, Out);
        assert_eq!(inst.slots.sequence_index[0], -1);
        inst.set_attachment(&rig, SlotId(0), Some(AttachmentId(1)));
        run(&rig, &mut inst, &tl, 1.2, 1.0, Replace, In);
        assert_eq!(inst.slots.sequence_index[0], -1);
    }
}
