//! Posing from the tracks (Spine `AnimationState.apply`, `applyMixingFrom`,
//! `applyAttachmentTimeline`, `applyRotateTimeline`, `queueEvents`).

use super::entry::{
    ADD_CURRENT, ADD_FIRST, ADD_SETUP, FIRST, HOLD_FIRST, HOLD_MIX_SUBSEQUENT, HOLD_SUBSEQUENT,
    NONE, SUBSEQUENT, link,
};
use super::options::MixInterpolation;
use super::{AnimationState, StateEvent, StateEventKind};
use crate::anim::timeline::{
    apply_timeline_add, before_first, curve_value, set_attachment_key, slot_active,
};
use crate::anim::{MixBlend, MixDirection, Timeline, TimelineKind, apply_timeline, clip_data};
use crate::ids::SlotId;
use crate::instance::Instance;
use crate::rig::Rig;

/// Slot attachment state: set from the setup pose after all tracks (Spine `SETUP`).
const SETUP: u64 = 1;
/// Slot attachment state: set by a timeline this frame (Spine `CURRENT`).
const CURRENT: u64 = 2;

/// Per-slot attachment bookkeeping shared by the attachment timelines of one apply.
pub(super) struct AttachmentState<'a> {
    pub(super) state: &'a mut [u64],
    pub(super) unkeyed: u64,
}

impl AnimationState {
    /// Poses `inst` from every track (Spine `AnimationState.apply`): mixing-from chains
    /// first, then each current entry, then setup attachments for slots that a mixing-out
    /// entry touched but nothing keyed. Returns whether any track was applied.
    /// Does nothing (returns `false`) when this state or `inst` was made for another rig.
    pub fn apply(&mut self, rig: &Rig, inst: &mut Instance) -> bool {
        self.is_for(rig) && inst.is_for(rig) && self.apply_to(rig, inst)
    }

    /// The order tracks are applied in (`self.order`): by index, or when every playing
    /// track is a DragonBones one, highest layer first (then by index), as the runtime
    /// orders its states. Allocation-free once the scratch holds every track.
    fn order_tracks(&mut self) {
        self.order.clear();
        self.order.extend(0..self.tracks.len());
        let db = |s: &Self, i: usize| link(s.tracks[i]).is_none_or(|e| s.entries[e].db);
        if !(0..self.tracks.len()).all(|i| db(self, i)) {
            return;
        }
        // Insertion sort: few tracks, stable, no allocation.
        for k in 1..self.order.len() {
            let mut j = k;
            while j > 0 && self.track_layer(self.order[j - 1]) < self.track_layer(self.order[j]) {
                self.order.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// [`AnimationState::apply`] for a state and instance known to be the rig's (the
    /// facade's own).
    pub(crate) fn apply_to(&mut self, rig: &Rig, inst: &mut Instance) -> bool {
        if self.animations_changed {
            self.recompute_modes(rig);
        }
        let mut applied = false;
        // DragonBones IK: bones hold still unless a track moves them (`apply_dragonbones`).
        inst.db_hold.still.fill(true);
        self.order_tracks();
        self.db_layers.begin_frame();
        for k in 0..self.order.len() {
            let i = self.order[k];
            let Some(cur) = link(self.tracks[i]) else {
                continue;
            };
            if self.entries[cur].delay > 0.0 {
                continue;
            }
            applied = true;
            if self.entries[cur].db {
                let layer = self.track_layer(i);
                self.apply_dragonbones(rig, inst, cur, layer);
                continue;
            }
            // A Spine-style track may move any bone.
            inst.db_hold.still.fill(false);
            let blend = if i == 0 {
                MixBlend::First
            } else {
                self.entries[cur].mix_blend
            };
            let mut alpha = self.entries[cur].alpha;
            if self.entries[cur].mixing_from != NONE {
                alpha *= self.apply_mixing_from(rig, inst, cur, blend);
            } else if self.entries[cur].track_time >= self.entries[cur].track_end
                && self.entries[cur].next == NONE
            {
                alpha = 0.0;
            }
            let e = &self.entries[cur];
            let mut attachments = alpha >= e.alpha_attachment_threshold;
            let animation_last = e.animation_last;
            let animation_time = e.animation_time();
            let clip_id = e.clip;
            let clip = clip_data(rig, clip_id);
            let reverse = e.reverse;
            let apply_time = if reverse {
                f64::from(clip.duration) - animation_time
            } else {
                animation_time
            };
            let mut att = AttachmentState {
                state: &mut self.attachment_state,
                unkeyed: self.unkeyed_state,
            };
            if (i == 0 && alpha == 1.0) || blend == MixBlend::Add {
                if i == 0 {
                    attachments = true;
                }
                for tl in &clip.timelines {
                    if let TimelineKind::Attachment { .. } = tl.kind {
                        apply_attachment(rig, inst, &mut att, tl, apply_time, blend, attachments);
                    } else {
                        let ev = if reverse { None } else { Some(&mut self.fired) };
                        apply_timeline(
                            rig,
                            inst,
                            clip_id,
                            tl,
                            animation_last,
                            apply_time,
                            ev,
                            alpha,
                            blend,
                            MixDirection::In,
                        );
                    }
                }
            } else {
                let e = &mut self.entries[cur];
                // Spine 4.3: an additive entry mixes rotations the shortest way.
                let add = e.additive;
                let shortest = e.shortest_rotation || add;
                let first_frame = !shortest && !e.rotation_ready;
                if first_frame {
                    e.rotation_ready = true;
                }
                let mut rot = std::mem::take(&mut e.timelines_rotation);
                rot.resize(clip.timelines.len() * 2, 0.0);
                for (ii, tl) in clip.timelines.iter().enumerate() {
                    let mode = self.entries[cur].timeline_mode.get(ii).copied();
                    let tb = match mode {
                        Some(SUBSEQUENT) => blend,
                        Some(ADD_FIRST) => MixBlend::First,
                        Some(ADD_CURRENT) => MixBlend::Replace,
                        _ => MixBlend::Setup,
                    };
                    match tl.kind {
                        TimelineKind::Rotate(_) if !shortest => apply_rotate(
                            rig,
                            inst,
                            tl,
                            apply_time,
                            alpha,
                            tb,
                            &mut rot,
                            ii << 1,
                            first_frame,
                        ),
                        TimelineKind::Attachment { .. } => apply_attachment(
                            rig,
                            inst,
                            &mut att,
                            tl,
                            apply_time,
                            blend,
                            attachments,
                        ),
                        _ => {
                            let ev = if reverse { None } else { Some(&mut self.fired) };
                            apply_timeline_add(
                                rig,
                                inst,
                                clip_id,
                                tl,
                                animation_last,
                                apply_time,
                                ev,
                                alpha,
                                tb,
                                MixDirection::In,
                                add,
                            );
                        }
                    }
                }
                self.entries[cur].timelines_rotation = rot;
            }
            self.queue_events(cur, animation_time);
            self.fired.clear();
            let e = &mut self.entries[cur];
            e.next_animation_last = animation_time;
            e.next_track_last = e.track_time;
        }
        // Slots a mixing-out entry touched but nothing keyed this frame get their setup
        // attachment, so later timelines see a consistent deform.
        let setup_state = self.unkeyed_state + SETUP;
        for (s, sd) in rig.slots.iter().enumerate() {
            if self.attachment_state.get(s) == Some(&setup_state) {
                set_attachment_key(rig, inst, SlotId(s as u16), sd.attachment);
            }
        }
        self.unkeyed_state += 2;
        self.drain();
        applied
    }

    /// Applies the mixing-from chain below `to`; returns `to`'s mix percentage.
    fn apply_mixing_from(
        &mut self,
        rig: &Rig,
        inst: &mut Instance,
        to: usize,
        mut blend: MixBlend,
    ) -> f64 {
        let Some(from) = link(self.entries[to].mixing_from) else {
            return 1.0;
        };
        let from_mix = if self.entries[from].mixing_from != NONE {
            self.apply_mixing_from(rig, inst, from, blend)
        } else {
            1.0
        };
        let t = &self.entries[to];
        let f = &self.entries[from];
        let mix;
        if t.mix_duration == 0.0 {
            // A single-frame mix to undo the mixing-from changes. Spine 4.3 keeps the
            // track's blend (its timelines of properties keyed lower in the chain mix from
            // the current pose, so alpha 0 leaves them), 4.2 mixes them from setup.
            mix = 1.0;
            if blend == MixBlend::First && !self.v43 {
                blend = MixBlend::Setup;
            }
        } else {
            mix = t.mix();
            if blend != MixBlend::First {
                blend = f.mix_blend;
            }
        }
        let attachments = mix < f.mix_attachment_threshold;
        let draw_order = mix < f.mix_draw_order_threshold;
        let (alpha_hold, alpha_mix) = if self.v43 {
            // Spine 4.3: an entry's weight is scaled by how far the entry it mixes from had
            // mixed in (no interrupt alpha), and a held timeline is weighed so that, after
            // `to` is applied over it with its own alpha, the pose keeps the from entry's share.
            let a = f.alpha * from_mix;
            let alpha_mix = a * (1.0 - mix);
            let keep = 1.0 - mix * t.alpha;
            let hold = if keep > 0.0 { alpha_mix / keep } else { a };
            (hold, alpha_mix)
        } else {
            let alpha_hold = f.alpha * t.interrupt_alpha;
            (alpha_hold, alpha_hold * (1.0 - mix))
        };
        let animation_last = f.animation_last;
        let animation_time = f.animation_time();
        let clip_id = f.clip;
        let clip = clip_data(rig, clip_id);
        let reverse = f.reverse;
        let apply_time = if reverse {
            f64::from(clip.duration) - animation_time
        } else {
            animation_time
        };
        let events = !reverse && mix < f.event_threshold;
        let alpha_attachment_threshold = f.alpha_attachment_threshold;
        let to_mix_duration = t.mix_duration;
        let mut att = AttachmentState {
            state: &mut self.attachment_state,
            unkeyed: self.unkeyed_state,
        };
        if blend == MixBlend::Add {
            for tl in &clip.timelines {
                let ev = if events { Some(&mut self.fired) } else { None };
                apply_timeline(
                    rig,
                    inst,
                    clip_id,
                    tl,
                    animation_last,
                    apply_time,
                    ev,
                    alpha_mix,
                    blend,
                    MixDirection::Out,
                );
            }
        } else {
            let fe = &mut self.entries[from];
            let add = fe.additive;
            let shortest = fe.shortest_rotation || add;
            let first_frame = !shortest && !fe.rotation_ready;
            if first_frame {
                fe.rotation_ready = true;
            }
            let mut rot = std::mem::take(&mut fe.timelines_rotation);
            rot.resize(clip.timelines.len() * 2, 0.0);
            fe.total_alpha = 0.0;
            let mut total_alpha = 0.0;
            for (i, tl) in clip.timelines.iter().enumerate() {
                let mut direction = MixDirection::Out;
                let mode = self.entries[from]
                    .timeline_mode
                    .get(i)
                    .copied()
                    .unwrap_or(FIRST);
                let (tb, alpha) = match mode {
                    SUBSEQUENT => {
                        if !draw_order && tl.kind.is_draw_order() {
                            continue;
                        }
                        (blend, alpha_mix)
                    }
                    FIRST | ADD_SETUP => (MixBlend::Setup, alpha_mix),
                    ADD_FIRST => (MixBlend::First, alpha_mix),
                    ADD_CURRENT => (MixBlend::Replace, alpha_mix),
                    HOLD_SUBSEQUENT => (blend, alpha_hold),
                    HOLD_FIRST => (MixBlend::Setup, alpha_hold),
                    hold_mix => {
                        let hold_alpha = match self.entries[from]
                            .timeline_hold_mix
                            .get(i)
                            .and_then(|&h| link(h))
                        {
                            Some(h) => {
                                let hm = &self.entries[h];
                                if hm.mix_interpolation == MixInterpolation::Linear {
                                    (1.0 - hm.mix_time / hm.mix_duration).max(0.0)
                                } else {
                                    1.0 - hm.mix()
                                }
                            }
                            None => 0.0,
                        };
                        let tb = if hold_mix == HOLD_MIX_SUBSEQUENT {
                            blend
                        } else {
                            MixBlend::Setup
                        };
                        (tb, alpha_hold * hold_alpha)
                    }
                };
                total_alpha += alpha;
                match tl.kind {
                    TimelineKind::Rotate(_) if !shortest => apply_rotate(
                        rig,
                        inst,
                        tl,
                        apply_time,
                        alpha,
                        tb,
                        &mut rot,
                        i << 1,
                        first_frame,
                    ),
                    TimelineKind::Attachment { .. } => apply_attachment(
                        rig,
                        inst,
                        &mut att,
                        tl,
                        apply_time,
                        tb,
                        attachments && alpha >= alpha_attachment_threshold,
                    ),
                    _ => {
                        if draw_order && tl.kind.is_draw_order() && tb == MixBlend::Setup {
                            direction = MixDirection::In;
                        }
                        let ev = if events { Some(&mut self.fired) } else { None };
                        apply_timeline_add(
                            rig,
                            inst,
                            clip_id,
                            tl,
                            animation_last,
                            apply_time,
                            ev,
                            alpha,
                            tb,
                            direction,
                            add,
                        );
                    }
                }
            }
            let fe = &mut self.entries[from];
            fe.timelines_rotation = rot;
            fe.total_alpha = total_alpha;
        }
        if to_mix_duration > 0.0 {
            self.queue_events(from, animation_time);
        }
        self.fired.clear();
        let fe = &mut self.entries[from];
        fe.next_animation_last = animation_time;
        fe.next_track_last = fe.track_time;
        mix
    }

    /// Queues the fired key events and the completion of an entry in the official order
    /// (Spine `queueEvents`): events before the loop point, complete, events after it.
    pub(super) fn queue_events(&mut self, entry: usize, animation_time: f64) {
        let e = &self.entries[entry];
        let (start, end) = (e.animation_start, e.animation_end);
        let duration = end - start;
        let track_last_wrapped = e.track_last % duration;
        let complete = if e.looping {
            duration == 0.0 || {
                let cycles = (e.track_time / duration).floor();
                cycles > 0.0 && cycles > (e.track_last / duration).floor()
            }
        } else {
            animation_time >= end && e.animation_last < end
        };
        let (id, track, clip) = (self.handle(entry), e.track, e.clip);
        let push = |events: &mut Vec<StateEvent>, kind| {
            events.push(StateEvent {
                kind,
                entry: id,
                track,
                clip,
            })
        };
        let n = self.fired.len();
        let mut i = 0;
        while i < n {
            let ev = self.fired[i];
            if ev.time < track_last_wrapped {
                break;
            }
            // Events outside the animation start/end are discarded.
            if ev.time <= end {
                push(&mut self.events, StateEventKind::Event(ev));
            }
            i += 1;
        }
        if complete {
            push(&mut self.events, StateEventKind::Complete);
        }
        while i < n {
            let ev = self.fired[i];
            if ev.time >= start {
                push(&mut self.events, StateEventKind::Event(ev));
            }
            i += 1;
        }
    }
}

/// Spine `applyAttachmentTimeline`: sets the keyed (or setup) attachment and records whether
/// a timeline set it (`attachments`) or the setup attachment must be restored later.
pub(super) fn apply_attachment(
    rig: &Rig,
    inst: &mut Instance,
    att: &mut AttachmentState<'_>,
    tl: &Timeline,
    time: f64,
    blend: MixBlend,
    attachments: bool,
) {
    let TimelineKind::Attachment { slot, names } = &tl.kind else {
        return;
    };
    if !slot_active(rig, inst, *slot) {
        return;
    }
    let s = slot.index();
    let key = if before_first(tl, time) {
        if !matches!(blend, MixBlend::Setup | MixBlend::First) {
            None
        } else {
            Some(rig.slots[s].attachment)
        }
    } else {
        Some(names.get(tl.search(time, 1)).copied().flatten())
    };
    if let Some(key) = key {
        set_attachment_key(rig, inst, *slot, key);
        if attachments && let Some(st) = att.state.get_mut(s) {
            *st = att.unkeyed + CURRENT;
        }
    }
    // If no attachment was set (before the first key, or attachments off), the setup
    // attachment is restored after all tracks.
    if let Some(st) = att.state.get_mut(s)
        && *st <= att.unkeyed
    {
        *st = att.unkeyed + SETUP;
    }
}

/// Spine `applyRotateTimeline`: mixes a rotation along the shortest path on the first frame
/// and then keeps that direction (stored in `rot[i]` = total, `rot[i + 1]` = last diff).
#[allow(clippy::too_many_arguments)]
fn apply_rotate(
    rig: &Rig,
    inst: &mut Instance,
    tl: &Timeline,
    time: f64,
    alpha: f64,
    blend: MixBlend,
    rot: &mut [f64],
    i: usize,
    first_frame: bool,
) {
    if first_frame {
        rot[i] = 0.0;
    }
    if alpha == 1.0 {
        apply_timeline(
            rig,
            inst,
            crate::ids::ClipId(0),
            tl,
            0.0,
            time,
            None,
            1.0,
            blend,
            MixDirection::In,
        );
        return;
    }
    let TimelineKind::Rotate(bone) = tl.kind else {
        return;
    };
    let b = bone.index();
    if !inst.bone_active[b] {
        return;
    }
    let setup = rig.bones[b].setup.rotation;
    let (r1, r2);
    if before_first(tl, time) {
        match blend {
            MixBlend::Setup => {
                inst.pose[b].rotation = setup;
                return;
            }
            MixBlend::First => {
                r1 = inst.pose[b].rotation;
                r2 = setup;
            }
            _ => return,
        }
    } else {
        r1 = if blend == MixBlend::Setup {
            setup
        } else {
            inst.pose[b].rotation
        };
        r2 = setup + curve_value(tl, time);
    }
    // Mix between rotations using the direction of the shortest route on the first frame,
    // detecting when the route crosses so the direction does not flip mid-mix.
    let mut diff = r2 - r1;
    diff -= (diff / 360.0 - 0.5).ceil() * 360.0;
    let total;
    if diff == 0.0 {
        total = rot[i];
    } else {
        let (last_total, last_diff) = if first_frame {
            (0.0, diff)
        } else {
            (rot[i], rot[i + 1])
        };
        let loops = last_total - last_total % 360.0;
        let mut t = diff + loops;
        let current = diff >= 0.0;
        let mut dir = last_total >= 0.0;
        if last_diff.abs() <= 90.0 && signum(last_diff) != signum(diff) {
            if (last_total - loops).abs() > 180.0 {
                t += 360.0 * signum(last_total);
                dir = current;
            } else if loops != 0.0 {
                t -= 360.0 * signum(last_total);
            } else {
                dir = current;
            }
        }
        if dir != current {
            t += 360.0 * signum(last_total);
        }
        rot[i] = t;
        total = t;
    }
    rot[i + 1] = diff;
    inst.pose[b].rotation = r1 + total * alpha;
}

#[inline]
fn signum(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}
