//! Per-timeline mix modes (Spine `AnimationState._animationsChanged` / `computeHold`).
//!
//! When entries start or end, every timeline of every entry gets a mode: SUBSEQUENT when a
//! lower entry already keys its property, FIRST when it is the first to key it, and the HOLD
//! modes when the entry it mixes into keys the same property (so the property does not dip
//! toward setup during the crossfade). The property set is a stamp per dense property id,
//! so recomputing allocates nothing. Spine 4.3's entry options: an additive entry's
//! additive timelines get `ADD_*` modes from 4.3's per-track property owners (`from43`),
//! and `keep_hold` keeps each timeline's hold from the previous recompute.

use super::AnimationState;
use super::entry::{
    ADD_CURRENT, ADD_FIRST, ADD_SETUP, FIRST, HOLD_FIRST, HOLD_MIX, HOLD_MIX_SUBSEQUENT,
    HOLD_SUBSEQUENT, NONE, SUBSEQUENT, link,
};
use crate::anim::{MixBlend, TimelineKind, clip_data};
use crate::rig::Rig;

impl AnimationState {
    /// Recomputes the timeline modes of every entry.
    pub(super) fn recompute_modes(&mut self, rig: &Rig) {
        self.animations_changed = false;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Wrapped: clear the stamps so old marks cannot alias.
            self.property_stamp.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        for i in 0..self.tracks.len() {
            let Some(mut e) = link(self.tracks[i]) else {
                continue;
            };
            while let Some(f) = link(self.entries[e].mixing_from) {
                e = f;
            }
            loop {
                let en = &self.entries[e];
                if en.mixing_to == NONE || en.mix_blend != MixBlend::Add {
                    self.compute_hold(rig, e, i);
                }
                match link(self.entries[e].mixing_to) {
                    Some(t) => e = t,
                    None => break,
                }
            }
        }
    }

    /// Marks property `id` as keyed in this recompute: `None` when it is new (now owned by
    /// `track`), else the track that keyed it first.
    fn mark(&mut self, id: u32, track: usize) -> Option<u32> {
        let id = id as usize;
        if id >= self.property_stamp.len() {
            self.property_stamp.resize(id + 1, 0);
            self.property_owner.resize(id + 1, 0);
        }
        if self.property_stamp[id] == self.stamp {
            return Some(self.property_owner[id]);
        }
        self.property_stamp[id] = self.stamp;
        self.property_owner[id] = track as u32;
        None
    }

    /// Adds property ids to the set, owned by `track` where new; true when at least one was
    /// new (Spine `addAll`).
    fn add_all(&mut self, ids: &[u32], track: usize) -> bool {
        let mut added = false;
        for &id in ids {
            added |= self.mark(id, track).is_none();
        }
        added
    }

    /// Spine 4.3 `AnimationState.from` for an additive timeline of an additive entry on
    /// `track`: registers the unowned ids for the track and says where its mix starts:
    /// [`ADD_CURRENT`] when a lower track owns one of them, [`ADD_FIRST`] when an earlier
    /// entry of this track does, else [`ADD_SETUP`].
    fn from43(&mut self, ids: &[u32], track: usize) -> u8 {
        let mut from = ADD_SETUP;
        let mut other = false;
        for &id in ids {
            match self.mark(id, track) {
                None => {}
                // 4.3 returns at once, after registering the remaining ids as this goes on.
                Some(o) if o != track as u32 => other = true,
                Some(_) if !other => from = ADD_FIRST,
                Some(_) => {}
            }
        }
        if other { ADD_CURRENT } else { from }
    }

    fn compute_hold(&mut self, rig: &Rig, entry: usize, track: usize) {
        let to = link(self.entries[entry].mixing_to);
        let clip = clip_data(rig, self.entries[entry].clip);
        let n = clip.timelines.len();
        let mut mode = std::mem::take(&mut self.entries[entry].timeline_mode);
        let mut hold = std::mem::take(&mut self.entries[entry].timeline_hold_mix);
        mode.resize(n, SUBSEQUENT);
        hold.clear();
        hold.resize(n, NONE);
        let (additive, keep_hold) = (self.entries[entry].additive, self.entries[entry].keep_hold);
        let hold_previous = to.is_some_and(|t| self.entries[t].hold_previous);
        let mix_duration = self.entries[entry].mix_duration;
        for (i, tl) in clip.timelines.iter().enumerate() {
            let ids = tl.properties();
            if additive && tl.kind.is_additive() {
                // Spine 4.3: an additive timeline of an additive entry never holds.
                mode[i] = self.from43(ids, track);
                continue;
            }
            let m = if hold_previous {
                if self.add_all(ids, track) {
                    HOLD_FIRST
                } else {
                    HOLD_SUBSEQUENT
                }
            } else if self.v43 {
                self.hold_mode43(rig, tl, track, to, &mut hold[i])
            } else {
                self.hold_mode(rig, tl, track, to, mix_duration, &mut hold[i])
            };
            mode[i] = if keep_hold {
                keep_hold_of(m, mode[i])
            } else {
                m
            };
        }
        self.entries[entry].timeline_mode = mode;
        self.entries[entry].timeline_hold_mix = hold;
    }

    /// The mode of one timeline of an entry mixing into `to` (Spine `computeHold`), its
    /// hold-mix entry written to `hold_mix`. An additive timeline mixing into an additive
    /// entry is not held (Spine 4.3: that entry adds to it instead of replacing it).
    fn hold_mode(
        &mut self,
        rig: &Rig,
        tl: &crate::anim::Timeline,
        track: usize,
        to: Option<usize>,
        mix_duration: f64,
        hold_mix: &mut u32,
    ) -> u8 {
        let ids = tl.properties();
        if !self.add_all(ids, track) {
            return SUBSEQUENT;
        }
        let discrete = matches!(
            tl.kind,
            TimelineKind::Attachment { .. }
                | TimelineKind::DrawOrder { .. }
                | TimelineKind::DrawOrderFolder(_)
                | TimelineKind::Event { .. }
        );
        let additive = tl.kind.is_additive();
        let overwrites = |s: &Self, e: usize| {
            !(additive && s.entries[e].additive)
                && clip_data(rig, s.entries[e].clip).has_property(ids)
        };
        let Some(t) = to.filter(|&t| !discrete && overwrites(self, t)) else {
            return FIRST;
        };
        let mut next = link(self.entries[t].mixing_to);
        while let Some(nx) = next {
            if overwrites(self, nx) {
                next = link(self.entries[nx].mixing_to);
                continue;
            }
            if mix_duration > 0.0 {
                *hold_mix = nx as u32;
                return HOLD_MIX;
            }
            break;
        }
        HOLD_FIRST
    }
}

/// Whether a timeline of the clip is discrete (never held: Spine's instant timelines).
fn discrete(tl: &crate::anim::Timeline) -> bool {
    matches!(
        tl.kind,
        TimelineKind::Attachment { .. }
            | TimelineKind::DrawOrder { .. }
            | TimelineKind::DrawOrderFolder(_)
            | TimelineKind::Event { .. }
    )
}

impl AnimationState {
    /// Spine 4.3 `computeHold` for one timeline: unlike 4.2, a property a lower entry of the
    /// chain already keys is held too (with the track blend), and the entry whose mix fades
    /// the hold out is the first later one not keying the property, when its own mix
    /// duration is above 0 (4.2 tested the held entry's duration).
    fn hold_mode43(
        &mut self,
        rig: &Rig,
        tl: &crate::anim::Timeline,
        track: usize,
        to: Option<usize>,
        hold_mix: &mut u32,
    ) -> u8 {
        let ids = tl.properties();
        let first = self.add_all(ids, track);
        let additive = tl.kind.is_additive();
        let overwrites = |s: &Self, e: usize| {
            !(additive && s.entries[e].additive)
                && clip_data(rig, s.entries[e].clip).has_property(ids)
        };
        let Some(t) = to.filter(|&t| !discrete(tl) && overwrites(self, t)) else {
            return if first { FIRST } else { SUBSEQUENT };
        };
        let mut next = link(self.entries[t].mixing_to);
        while let Some(nx) = next {
            if !overwrites(self, nx) {
                if self.entries[nx].mix_duration > 0.0 {
                    *hold_mix = nx as u32;
                    return if first { HOLD_MIX } else { HOLD_MIX_SUBSEQUENT };
                }
                break;
            }
            next = link(self.entries[nx].mixing_to);
        }
        if first { HOLD_FIRST } else { HOLD_SUBSEQUENT }
    }
}

/// Spine 4.3 `keepHold`: the newly computed mode with the hold of the mode it replaces.
fn keep_hold_of(new: u8, old: u8) -> u8 {
    let held = |m| {
        matches!(
            m,
            HOLD_SUBSEQUENT | HOLD_FIRST | HOLD_MIX | HOLD_MIX_SUBSEQUENT
        )
    };
    match (held(new), held(old)) {
        (false, true) if new == SUBSEQUENT => HOLD_SUBSEQUENT,
        (false, true) => HOLD_FIRST,
        (true, false) if matches!(new, HOLD_SUBSEQUENT | HOLD_MIX_SUBSEQUENT) => SUBSEQUENT,
        (true, false) => FIRST,
        _ => new,
    }
}
