//! Track entries (Spine `TrackEntry`) and their pool.
//!
//! Entries live in a slab owned by the [`super::AnimationState`] and link to each other by
//! slab index (previous/next queue, mixing-from/mixing-to chain). Freed slots are reused, so
//! steady-state playback allocates nothing: each entry's per-timeline buffers keep their
//! capacity across reuses. An [`EntryId`] carries a generation so a stale id never reaches a
//! reused slot.

use super::options::{EntryOptions, MixInterpolation};
use crate::anim::MixBlend;
use crate::ids::ClipId;

/// Timeline mode: mixes with the track blend (Spine `SUBSEQUENT`).
pub(crate) const SUBSEQUENT: u8 = 0;
/// Timeline mode: first to key the property, mixes from setup (Spine `FIRST`).
pub(crate) const FIRST: u8 = 1;
/// Timeline mode: held at full alpha while the next entry mixes in, track blend.
pub(crate) const HOLD_SUBSEQUENT: u8 = 2;
/// Timeline mode: held at full alpha, from setup.
pub(crate) const HOLD_FIRST: u8 = 3;
/// Timeline mode: held while a later entry mixes in (alpha follows that entry's mix).
pub(crate) const HOLD_MIX: u8 = 4;
/// Timeline mode of an additive timeline of an additive entry (Spine 4.3 `computeHold`:
/// `add && timeline.additive`), from the setup value: no lower track or earlier entry of the
/// track keys the property (4.3 `SETUP`).
pub(crate) const ADD_SETUP: u8 = 5;
/// As [`ADD_SETUP`], an earlier entry of the same track keys it (4.3 `FIRST`).
pub(crate) const ADD_FIRST: u8 = 6;
/// As [`ADD_SETUP`], a lower track keys it (4.3 `CURRENT`).
pub(crate) const ADD_CURRENT: u8 = 7;

/// Timeline mode (Spine 4.3 only): as [`HOLD_MIX`] for a property a lower entry of the
/// chain already keys, so it mixes with the track blend (4.3 holds those too).
pub(crate) const HOLD_MIX_SUBSEQUENT: u8 = 8;

/// "No entry" in the slab links.
pub(crate) const NONE: u32 = u32::MAX;

/// A handle to a track entry; stale handles (of a freed entry) resolve to nothing.
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EntryId {
    /// Slot in the entry slab.
    pub index: u32,
    /// Generation of that slot when the handle was made.
    pub generation: u32,
}

/// One animation queued or playing on a track (Spine `TrackEntry`). Times are seconds (f64,
/// so long-running clocks do not drift); the public fields are the official tunables.
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone)]
pub struct TrackEntry {
    /// The clip ([`crate::anim::EMPTY_CLIP`] for the empty animation).
    pub clip: ClipId,
    /// Track index.
    pub track: usize,
    /// Whether the clip loops.
    pub looping: bool,
    /// Hold the previous entry's keyed properties at full alpha while mixing in.
    pub hold_previous: bool,
    /// Play the clip backwards (events are not fired).
    pub reverse: bool,
    /// Mix rotations along the shortest path each frame instead of remembering direction.
    pub shortest_rotation: bool,
    /// While mixing out, events fire while the mix percentage is below this.
    pub event_threshold: f64,
    /// While mixing out, attachment keys apply while the mix percentage is below this.
    pub mix_attachment_threshold: f64,
    /// Attachment keys apply while the entry's alpha is at least this.
    pub alpha_attachment_threshold: f64,
    /// While mixing out, draw-order keys apply while the mix percentage is below this.
    pub mix_draw_order_threshold: f64,
    /// Clip time where playback starts, seconds.
    pub animation_start: f64,
    /// Clip time where playback ends (or loops), seconds.
    pub animation_end: f64,
    /// Clip time at the previous apply (-1 before the first).
    pub animation_last: f64,
    pub(crate) next_animation_last: f64,
    /// Seconds to wait before the entry starts.
    pub delay: f64,
    /// Seconds the entry has played (scaled by its time scale).
    pub track_time: f64,
    /// Track time at the previous update (-1 before the first).
    pub track_last: f64,
    pub(crate) next_track_last: f64,
    /// Track time at which the entry ends (`f64::MAX`: never).
    pub track_end: f64,
    /// Speed multiplier.
    pub time_scale: f64,
    /// Weight of the entry against lower tracks.
    pub alpha: f64,
    /// Seconds mixed in so far.
    pub mix_time: f64,
    /// Crossfade duration from the previous entry, seconds.
    pub mix_duration: f64,
    pub(crate) interrupt_alpha: f64,
    pub(crate) total_alpha: f64,
    /// Blend for tracks above 0 (track 0 always uses [`MixBlend::First`]).
    pub mix_blend: MixBlend,
    /// Spine 4.3 options ([`super::AnimationState::set_entry_options`]).
    pub(crate) additive: bool,
    pub(crate) keep_hold: bool,
    pub(crate) mix_interpolation: MixInterpolation,
    pub(crate) previous: u32,
    pub(crate) next: u32,
    pub(crate) mixing_from: u32,
    pub(crate) mixing_to: u32,
    pub(crate) timeline_mode: Vec<u8>,
    pub(crate) timeline_hold_mix: Vec<u32>,
    pub(crate) timelines_rotation: Vec<f64>,
    /// Whether `timelines_rotation` holds state (Spine: its length is 2 × timelines).
    pub(crate) rotation_ready: bool,
    /// Played the DragonBones way (its clip has DragonBones playback facts).
    pub(crate) db: bool,
    /// DragonBones plays before the held end (0: forever).
    pub(crate) db_plays: u32,
    /// One DragonBones play, seconds.
    pub(crate) db_len: f64,
    /// The clip posed in the last play and after it (the held twin).
    pub(crate) db_held: ClipId,
    /// The entry's DragonBones weight when it began fading out.
    pub(crate) db_out_from: f64,
    /// A DragonBones fade out of the whole track (`fade_out_track`): its length in seconds
    /// (0: none) and the time it has run.
    pub(crate) db_fade_out: f64,
    pub(crate) db_fade_out_time: f64,
    pub(crate) generation: u32,
    pub(crate) live: bool,
}

impl TrackEntry {
    pub(crate) fn blank() -> Self {
        TrackEntry {
            clip: ClipId(0),
            track: 0,
            looping: false,
            hold_previous: false,
            reverse: false,
            shortest_rotation: false,
            event_threshold: 0.0,
            mix_attachment_threshold: 0.0,
            alpha_attachment_threshold: 0.0,
            mix_draw_order_threshold: 0.0,
            animation_start: 0.0,
            animation_end: 0.0,
            animation_last: -1.0,
            next_animation_last: -1.0,
            delay: 0.0,
            track_time: 0.0,
            track_last: -1.0,
            next_track_last: -1.0,
            track_end: f64::MAX,
            time_scale: 1.0,
            alpha: 1.0,
            mix_time: 0.0,
            mix_duration: 0.0,
            interrupt_alpha: 1.0,
            total_alpha: 0.0,
            mix_blend: MixBlend::Replace,
            additive: false,
            keep_hold: false,
            mix_interpolation: MixInterpolation::Linear,
            previous: NONE,
            next: NONE,
            mixing_from: NONE,
            mixing_to: NONE,
            timeline_mode: Vec::new(),
            timeline_hold_mix: Vec::new(),
            timelines_rotation: Vec::new(),
            rotation_ready: false,
            db: false,
            db_plays: 0,
            db_len: 0.0,
            db_held: ClipId(0),
            db_out_from: 1.0,
            db_fade_out: 0.0,
            db_fade_out_time: 0.0,
            generation: 0,
            live: false,
        }
    }

    /// Re-initialises a pooled entry for a new clip with `timelines` timelines (Spine
    /// `AnimationState.trackEntry`); the buffers keep their capacity.
    pub(crate) fn init(
        &mut self,
        track: usize,
        clip: ClipId,
        looping: bool,
        duration: f64,
        timelines: usize,
        mix: f64,
    ) {
        let (generation, mut mode, mut hold, mut rot) = (
            self.generation,
            std::mem::take(&mut self.timeline_mode),
            std::mem::take(&mut self.timeline_hold_mix),
            std::mem::take(&mut self.timelines_rotation),
        );
        *self = TrackEntry::blank();
        mode.clear();
        mode.resize(timelines, SUBSEQUENT);
        hold.clear();
        hold.resize(timelines, NONE);
        rot.clear();
        rot.resize(timelines * 2, 0.0);
        self.timeline_mode = mode;
        self.timeline_hold_mix = hold;
        self.timelines_rotation = rot;
        self.generation = generation;
        self.live = true;
        self.track = track;
        self.clip = clip;
        self.looping = looping;
        self.animation_end = duration;
        self.mix_duration = mix;
    }

    /// Clip time for the current track time: wrapped when looping, else clamped to the end
    /// (Spine `getAnimationTime`).
    pub fn animation_time(&self) -> f64 {
        if self.looping {
            let duration = self.animation_end - self.animation_start;
            if duration == 0.0 {
                return self.animation_start;
            }
            return self.track_time % duration + self.animation_start;
        }
        (self.track_time + self.animation_start).min(self.animation_end)
    }

    /// Whether the track time has reached the clip's duration (Spine `isComplete`).
    pub fn is_complete(&self) -> bool {
        self.track_time >= self.animation_end - self.animation_start
    }

    /// Track time at which the next completion happens (Spine `getTrackComplete`).
    pub fn track_complete(&self) -> f64 {
        let duration = self.animation_end - self.animation_start;
        if duration != 0.0 {
            if self.looping {
                // COMPAT(spine): `(trackTime / duration) | 0` truncates.
                return duration * (1.0 + (self.track_time / duration).trunc());
            }
            if self.track_time < duration {
                return duration;
            }
        }
        self.track_time
    }

    /// Whether the entry has been applied at least once (Spine `wasApplied`).
    pub fn was_applied(&self) -> bool {
        self.next_track_last != -1.0
    }

    /// Sets the clip time of the previous apply, e.g. to skip events (Spine
    /// `setAnimationLast`).
    pub fn set_animation_last(&mut self, t: f64) {
        self.animation_last = t;
        self.next_animation_last = t;
    }

    /// Forgets the remembered rotation directions (Spine `resetRotationDirections`).
    pub fn reset_rotation_directions(&mut self) {
        self.rotation_ready = false;
    }

    /// Whether the entry plays the DragonBones way and, if so, its play count (0: forever;
    /// then the end holds). Set from the clip's [`crate::anim::ClipPlayback`] when the
    /// entry is made.
    pub fn dragonbones_plays(&self) -> Option<u32> {
        self.db.then_some(self.db_plays)
    }

    /// Makes this a DragonBones entry of `plays` plays (0: forever) of `len` seconds each,
    /// the last play and the held end posed from `held`.
    pub(crate) fn set_dragonbones(&mut self, plays: u32, len: f64, held: ClipId) {
        self.db = true;
        self.db_plays = plays;
        self.db_len = len;
        self.db_held = held;
        self.looping = plays == 0;
        self.animation_start = 0.0;
        self.animation_end = len * f64::from(plays.max(1));
    }

    /// The entry's current mix percentage, 0..1 (1 when not mixing), linear in time.
    pub fn mix_percent(&self) -> f64 {
        if self.mix_duration == 0.0 {
            1.0
        } else {
            (self.mix_time / self.mix_duration).min(1.0)
        }
    }

    /// The entry's crossfade weight (Spine 4.3 `TrackEntry.mix()`): the mix percentage
    /// through its [`MixInterpolation`], clamped to 0..1; 1 when the mix duration is 0.
    #[inline]
    pub fn mix(&self) -> f64 {
        if self.mix_duration == 0.0 {
            return 1.0;
        }
        let m = (self.mix_time / self.mix_duration).min(1.0);
        if m == 1.0 || self.mix_interpolation == MixInterpolation::Linear {
            return m;
        }
        self.mix_interpolation.apply(m).clamp(0.0, 1.0)
    }

    /// The entry's Spine 4.3 options.
    pub fn options(&self) -> EntryOptions {
        EntryOptions {
            additive: self.additive,
            keep_hold: self.keep_hold,
            mix_interpolation: self.mix_interpolation,
        }
    }
}

/// Index form of an optional link.
#[inline]
pub(crate) fn link(i: u32) -> Option<usize> {
    (i != NONE).then_some(i as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn animation_time_loops_and_clamps() {
        let mut e = TrackEntry::blank();
        e.init(0, ClipId(0), true, 2.0, 3, 0.0);
        e.track_time = 5.5;
        assert_eq!(e.animation_time(), 1.5);
        assert_eq!(e.track_complete(), 6.0);
        e.looping = false;
        assert_eq!(e.animation_time(), 2.0);
        assert!(e.is_complete());
        assert_eq!(e.track_complete(), 5.5);
        e.track_time = 1.0;
        assert_eq!(e.track_complete(), 2.0);
        assert_eq!((e.timeline_mode.len(), e.timelines_rotation.len()), (3, 6));
    }
}
