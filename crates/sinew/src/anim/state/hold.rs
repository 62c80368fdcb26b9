//! Per-timeline mix modes (Spine `AnimationState._animationsChanged` / `computeHold`).
//!
//! When entries start or end, every timeline of every entry gets a mode: SUBSEQUENT when a
//! lower entry already keys its property, FIRST when it is the first to key it, and the HOLD
//! modes when the entry it mixes into keys the same property (so the property does not dip
//! toward setup during the crossfade). The property set is a stamp per dense property id,
//! so recomputing allocates nothing.

use super::AnimationState;
use super::entry::{FIRST, HOLD_FIRST, HOLD_MIX, HOLD_SUBSEQUENT, NONE, SUBSEQUENT, link};
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
                    self.compute_hold(rig, e);
                }
                match link(self.entries[e].mixing_to) {
                    Some(t) => e = t,
                    None => break,
                }
            }
        }
    }

    /// Adds property ids to the set; true when at least one was new (Spine `addAll`).
    fn add_all(&mut self, ids: &[u32]) -> bool {
        let mut added = false;
        for &id in ids {
            let id = id as usize;
            if id >= self.property_stamp.len() {
                self.property_stamp.resize(id + 1, 0);
            }
            if self.property_stamp[id] != self.stamp {
                self.property_stamp[id] = self.stamp;
                added = true;
            }
        }
        added
    }

    fn compute_hold(&mut self, rig: &Rig, entry: usize) {
        let to = link(self.entries[entry].mixing_to);
        let clip = clip_data(rig, self.entries[entry].clip);
        let n = clip.timelines.len();
        let mut mode = std::mem::take(&mut self.entries[entry].timeline_mode);
        let mut hold = std::mem::take(&mut self.entries[entry].timeline_hold_mix);
        mode.resize(n, SUBSEQUENT);
        hold.clear();
        hold.resize(n, NONE);
        if to.is_some_and(|t| self.entries[t].hold_previous) {
            for (i, tl) in clip.timelines.iter().enumerate() {
                mode[i] = if self.add_all(tl.properties()) {
                    HOLD_FIRST
                } else {
                    HOLD_SUBSEQUENT
                };
            }
        } else {
            let mix_duration = self.entries[entry].mix_duration;
            'outer: for (i, tl) in clip.timelines.iter().enumerate() {
                let ids = tl.properties();
                if !self.add_all(ids) {
                    mode[i] = SUBSEQUENT;
                    continue;
                }
                let discrete = matches!(
                    tl.kind,
                    TimelineKind::Attachment { .. }
                        | TimelineKind::DrawOrder { .. }
                        | TimelineKind::DrawOrderFolder(_)
                        | TimelineKind::Event { .. }
                );
                let Some(t) = to.filter(|&t| {
                    !discrete && clip_data(rig, self.entries[t].clip).has_property(ids)
                }) else {
                    mode[i] = FIRST;
                    continue;
                };
                let mut next = link(self.entries[t].mixing_to);
                while let Some(nx) = next {
                    if clip_data(rig, self.entries[nx].clip).has_property(ids) {
                        next = link(self.entries[nx].mixing_to);
                        continue;
                    }
                    if mix_duration > 0.0 {
                        mode[i] = HOLD_MIX;
                        hold[i] = nx as u32;
                        continue 'outer;
                    }
                    break;
                }
                mode[i] = HOLD_FIRST;
            }
        }
        self.entries[entry].timeline_mode = mode;
        self.entries[entry].timeline_hold_mix = hold;
    }
}
