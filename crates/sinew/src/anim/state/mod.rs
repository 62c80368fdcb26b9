//! AnimationState: tracks of queued clips with crossfades, a port of spine-ts 4.2
//! `AnimationState` (tracks, `setAnimation`/`addAnimation` with delays, mix durations from a
//! mix table, mixing-from chains weighted by mixTime/mixDuration, per-timeline hold modes,
//! rotation mixing with direction memory, attachment/draw-order/event thresholds, events).
//!
//! Lifecycle and key events are pushed, in the official order, to [`AnimationState::events`]
//! for the caller to drain. Entries come from a pool and keep their per-timeline buffers, so
//! steady-state `update` + `apply` allocate nothing.
//!
//! Files: `options.rs` (Spine 4.3 entry options), `entry.rs` (entries and pool), `update.rs`
//! (time), `apply.rs` (posing), `hold.rs`
//! (timeline modes). Verified by the unit tests in `tests.rs` (hand-computed crossfades,
//! queue delays, events, holds) and by the oracle crossfade test in
//! `crates/sinew-formats/tests/all/anim_local.rs`.

mod apply;
mod db_layers;
mod dragonbones;
mod entry;
mod hold;
mod mix_table;
mod options;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_options;
mod update;

pub use entry::{EntryId, TrackEntry};
pub use mix_table::MixTable;
pub use options::{EntryOptions, MixInterpolation};

use super::{EMPTY_CLIP, FiredEvent, clip_data};
use crate::ids::ClipId;
use crate::rig::Rig;
use entry::{NONE, link};

/// What happened to a track entry (Spine `EventType` plus the key events).
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StateEventKind {
    /// The entry became current.
    Start,
    /// Another entry replaced it.
    Interrupt,
    /// The entry is no longer applied (a [`StateEventKind::Dispose`] of it follows).
    End,
    /// The entry is discarded: after its end, or queued entries that never started.
    Dispose,
    /// The entry reached the end of its clip (each loop, when looping).
    Complete,
    /// A key event fired.
    Event(FiredEvent),
}

/// One lifecycle or key event, with the entry it concerns.
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StateEvent {
    /// What happened.
    pub kind: StateEventKind,
    /// The entry (may be stale once it has ended).
    pub entry: EntryId,
    /// The entry's track.
    pub track: usize,
    /// The entry's clip.
    pub clip: ClipId,
}

/// Tracks of queued and mixing clips for one character (Spine `AnimationState` plus its
/// `AnimationStateData` mix table).
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone)]
pub struct AnimationState {
    /// Speed multiplier for every track.
    pub time_scale: f64,
    /// Mix duration used when the mix table has no entry for a pair of clips, seconds.
    pub default_mix: f64,
    /// Lifecycle and key events, in order; drain them with [`AnimationState::drain_events`].
    pub events: Vec<StateEvent>,
    mixes: std::sync::Arc<MixTable>,
    entries: Vec<TrackEntry>,
    free: Vec<u32>,
    pending_free: Vec<u32>,
    tracks: Vec<u32>,
    fired: Vec<FiredEvent>,
    attachment_state: Vec<u64>,
    unkeyed_state: u64,
    property_stamp: Vec<u32>,
    /// Per property id, the track that keyed it first in the last mode recompute (valid
    /// where its stamp is current; Spine 4.3 `propertyIds` values).
    property_owner: Vec<u32>,
    stamp: u32,
    animations_changed: bool,
    /// Per track: its DragonBones layer where set (`set_track_layer`), else its index.
    layers: Vec<Option<i32>>,
    /// How DragonBones layers share each bone's weight (`db_layers.rs`).
    db_layers: db_layers::DbLayers,
    /// Scratch: the order tracks are applied in this frame.
    order: Vec<usize>,
    /// The [`Rig::uid`] and clip count of the rig this state was made for.
    rig_uid: u64,
    clips: usize,
    /// The rig is a Spine 4.3 one: crossfades weigh mixing-from chains the 4.3 way
    /// (`apply.rs` `apply_mixing_from`, `update.rs` `update_mixing_from`).
    v43: bool,
}

/// The most tracks an [`AnimationState`] plays (tracks `0..MAX_TRACKS`). Spine has no limit,
/// but a track index is a table index: a bound keeps a caller's `u32::MAX` from asking for
/// gigabytes. Rigs use a handful.
pub const MAX_TRACKS: usize = 256;

impl AnimationState {
    /// An empty state for instances of `rig` (buffers sized from the rig).
    pub fn new(rig: &Rig) -> Self {
        let props = rig
            .clips
            .iter()
            .filter_map(|c| c.property_ids.last())
            .max()
            .map_or(0, |&m| m as usize + 1);
        AnimationState {
            time_scale: 1.0,
            default_mix: 0.0,
            events: Vec::with_capacity(16),
            mixes: std::sync::Arc::new(MixTable::default()),
            entries: Vec::with_capacity(8),
            free: Vec::with_capacity(8),
            pending_free: Vec::with_capacity(8),
            tracks: Vec::with_capacity(4),
            fired: Vec::with_capacity(8),
            attachment_state: vec![0; rig.slots.len()],
            unkeyed_state: 0,
            property_stamp: vec![0; props],
            property_owner: vec![0; props],
            stamp: 0,
            animations_changed: false,
            layers: Vec::new(),
            db_layers: db_layers::DbLayers::new(rig),
            order: Vec::with_capacity(4),
            rig_uid: rig.uid,
            clips: rig.clips.len(),
            v43: rig.runtime == crate::types::SpineRuntime::V43,
        }
    }

    /// Whether this state was made for `rig` ([`AnimationState::new`] with a rig of the
    /// same [`Rig::uid`] and clip count). The calls that take a rig do nothing for another.
    pub fn is_for(&self, rig: &Rig) -> bool {
        self.rig_uid == rig.uid && self.clips == rig.clips.len()
    }

    /// Whether `track` and `clip` can be played with `rig`: the state is the rig's, the
    /// track is under [`MAX_TRACKS`] and the clip is one of the rig's or [`EMPTY_CLIP`].
    fn playable(&self, rig: &Rig, track: usize, clip: ClipId) -> bool {
        self.is_for(rig) && track < MAX_TRACKS && (clip == EMPTY_CLIP || clip.index() < self.clips)
    }

    /// Sets the crossfade duration from one clip to another (Spine `setMix`). With a shared
    /// table ([`AnimationState::set_mix_table`]) this state gets its own copy first.
    pub fn set_mix(&mut self, from: ClipId, to: ClipId, duration: f64) {
        std::sync::Arc::make_mut(&mut self.mixes).set(from, to, duration);
    }

    /// Uses a shared mix table (Spine `AnimationStateData`): its pairs, and its default as
    /// [`AnimationState::default_mix`].
    pub fn set_mix_table(&mut self, table: std::sync::Arc<MixTable>) {
        self.default_mix = table.default_mix;
        self.mixes = table;
    }

    /// The mix table's pairs (shared, unless [`AnimationState::set_mix`] made a copy).
    pub fn mix_table(&self) -> &std::sync::Arc<MixTable> {
        &self.mixes
    }

    /// [`AnimationState::set_mix`] by clip names; false when a name is unknown.
    pub fn set_mix_by_name(&mut self, rig: &Rig, from: &str, to: &str, duration: f64) -> bool {
        match (rig.clip(from), rig.clip(to)) {
            (Some(f), Some(t)) => {
                self.set_mix(f, t, duration);
                true
            }
            _ => false,
        }
    }

    /// The crossfade duration from one clip to another (Spine `getMix`): the table's pair,
    /// else [`AnimationState::default_mix`].
    pub fn mix(&self, from: ClipId, to: ClipId) -> f64 {
        self.mixes.pair(from, to).unwrap_or(self.default_mix)
    }

    /// Takes every queued event, oldest first.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, StateEvent> {
        self.events.drain(..)
    }

    /// The entry behind a handle, unless it has been freed.
    pub fn entry(&self, id: EntryId) -> Option<&TrackEntry> {
        self.entries
            .get(id.index as usize)
            .filter(|e| e.live && e.generation == id.generation)
    }

    /// Mutable access to an entry's tunables, unless it has been freed.
    pub fn entry_mut(&mut self, id: EntryId) -> Option<&mut TrackEntry> {
        self.entries
            .get_mut(id.index as usize)
            .filter(|e| e.live && e.generation == id.generation)
    }

    /// How many tracks the state has (some may be empty): tracks `0..track_count()`.
    pub fn track_count(&self) -> usize {
        self.tracks.len()
    }

    /// The entry playing on a track.
    pub fn current(&self, track: usize) -> Option<EntryId> {
        self.tracks.get(track).and_then(|&i| self.id_of(i))
    }

    /// Puts `track` on DragonBones animation layer `layer` (`animation.fadeIn(name, time,
    /// plays, layer, group)`): DragonBones tracks are applied highest layer first, and a
    /// bone keyed by a higher layer leaves a lower one only the weight it did not take
    /// (tracks on one layer add their weights). A track's layer is its index until set,
    /// so a higher track takes precedence; one track per layer and group plays as the
    /// runtime's default `fadeOutMode` (same layer and group) does. Spine tracks ignore
    /// it. False for a track past [`MAX_TRACKS`].
    pub fn set_track_layer(&mut self, track: usize, layer: i32) -> bool {
        if track >= MAX_TRACKS {
            return false;
        }
        if self.layers.len() <= track {
            self.layers.resize(track + 1, None);
        }
        self.layers[track] = Some(layer);
        true
    }

    /// Fades the DragonBones clip on `track` out over `seconds` (DragonBones
    /// `animationState.fadeOut(time)`, what `fadeIn`'s `fadeOutMode` does to the states it
    /// replaces): its weight falls linearly from what it is now to 0, its playhead stands
    /// still, and the track ends when the fade has run (0 s: now). A DragonBones
    /// `fadeOutMode` other than the default (same layer and group, which `play` on the track
    /// does) is this on the other tracks: `All` on every one, `SameLayer` on those of the
    /// layer. False when nothing plays there or the clip is not a DragonBones one.
    pub fn fade_out_track(&mut self, track: usize, seconds: f64) -> bool {
        let Some(cur) = self.tracks.get(track).and_then(|&c| link(c)) else {
            return false;
        };
        if !self.entries[cur].db || !seconds.is_finite() {
            return false;
        }
        if seconds <= 0.0 {
            self.clear_track(track);
            return true;
        }
        let w = self.db_weight(cur);
        let e = &mut self.entries[cur];
        // COMPAT(dragonbones): a shorter fade already running is kept.
        if e.db_fade_out > 0.0 && e.db_fade_out - e.db_fade_out_time <= seconds {
            return true;
        }
        e.db_out_from = w;
        e.db_fade_out = seconds;
        e.db_fade_out_time = 0.0;
        true
    }

    /// The DragonBones layer of `track` ([`Self::set_track_layer`]; its index until set).
    pub fn track_layer(&self, track: usize) -> i32 {
        self.layers
            .get(track)
            .copied()
            .flatten()
            .unwrap_or(track.min(MAX_TRACKS) as i32)
    }

    /// The entry an entry is mixing from.
    pub fn mixing_from(&self, id: EntryId) -> Option<EntryId> {
        self.entry(id).and_then(|e| self.id_of(e.mixing_from))
    }

    /// The entry an entry is mixing into.
    pub fn mixing_to(&self, id: EntryId) -> Option<EntryId> {
        self.entry(id).and_then(|e| self.id_of(e.mixing_to))
    }

    /// The entry queued after an entry.
    pub fn next(&self, id: EntryId) -> Option<EntryId> {
        self.entry(id).and_then(|e| self.id_of(e.next))
    }

    /// Sets an entry's mix duration and, for a delay <= 0, recomputes the delay from the
    /// previous entry's completion (Spine `setMixDuration(mixDuration, delay)`).
    pub fn set_mix_duration_with_delay(&mut self, id: EntryId, mix_duration: f64, mut delay: f64) {
        let Some(e) = self.entry(id) else {
            return;
        };
        if delay <= 0.0 {
            delay = match link(e.previous) {
                Some(p) => (delay + self.entries[p].track_complete() - mix_duration).max(0.0),
                None => 0.0,
            };
        }
        let e = &mut self.entries[id.index as usize];
        e.mix_duration = mix_duration;
        e.delay = delay;
    }

    /// Sets an entry's Spine 4.3 options ([`EntryOptions`]: `additive`, `keepHold`,
    /// `mixInterpolation`, as spine-core 4.3.13 applies them). The timeline modes are
    /// computed again before the next apply (4.3 does so only when an entry starts or ends,
    /// so set `additive` before the entry is first applied, as 4.3 asks). The defaults pose
    /// exactly as an entry without options. False (nothing changes) for a stale handle or a
    /// DragonBones entry.
    ///
    /// The options follow 4.3's rules on a 4.2 rig too: a mix interpolation is only a curve
    /// on the mix percentage and `keep_hold` only freezes the holds, both well defined for
    /// 4.2 clips; `additive` is 4.3's additive (4.2's is [`TrackEntry::mix_blend`]
    /// [`crate::anim::MixBlend::Add`], whose arithmetic differs), which
    /// [`crate::Character::set_entry_options`] refuses for a 4.2 rig.
    pub fn set_entry_options(&mut self, id: EntryId, options: EntryOptions) -> bool {
        let Some(e) = self.entry_mut(id) else {
            return false;
        };
        if e.db {
            return false;
        }
        e.additive = options.additive;
        e.keep_hold = options.keep_hold;
        e.mix_interpolation = options.mix_interpolation;
        self.animations_changed = true;
        true
    }

    fn id_of(&self, i: u32) -> Option<EntryId> {
        link(i).map(|i| EntryId {
            index: i as u32,
            generation: self.entries[i].generation,
        })
    }

    /// Plays `clip` on `track` now, interrupting (and mixing from) the current entry and
    /// discarding queued ones (Spine `setAnimation`). `None`, and nothing changes, for a
    /// clip that is not the rig's, a track from [`MAX_TRACKS`] on, or another rig.
    pub fn set_animation(
        &mut self,
        rig: &Rig,
        track: usize,
        clip: ClipId,
        looping: bool,
    ) -> Option<EntryId> {
        if !self.playable(rig, track, clip) {
            return None;
        }
        let mut interrupt = true;
        let mut current = self.expand_to_index(track);
        if let Some(c) = current {
            if self.entries[c].next_track_last == -1.0 {
                // Never applied: do not mix from it.
                self.tracks[track] = self.entries[c].mixing_from;
                self.queue(StateEventKind::Interrupt, c);
                self.queue(StateEventKind::End, c);
                self.clear_next(c);
                current = link(self.entries[c].mixing_from);
                interrupt = false;
            } else {
                self.clear_next(c);
            }
        }
        let entry = self.track_entry(rig, track, clip, looping, current);
        self.set_current(track, entry, interrupt);
        self.drain();
        Some(self.handle(entry))
    }

    /// Plays `clip` on `track` now with its format's defaults (DragonBones
    /// `animation.fadeIn(name, fadeInTime, playTimes)`): `play_times` plays, 0 forever, then
    /// the end holds (`None`: the clip's own `playTimes`), crossfading over `fade_in`
    /// seconds (`None`: the mix table's pair, else the clip's `fadeInTime`). A clip without
    /// [`crate::anim::ClipPlayback`] (Spine) loops unless `play_times` is `Some(n)` with
    /// n >= 1, which plays it once. A negative or non-finite `fade_in` counts as 0. `None`
    /// as for [`AnimationState::set_animation`].
    pub fn play(
        &mut self,
        rig: &Rig,
        track: usize,
        clip: ClipId,
        fade_in: Option<f64>,
        play_times: Option<u32>,
    ) -> Option<EntryId> {
        let playback = if clip == EMPTY_CLIP {
            None
        } else {
            rig.clips.get(clip.index()).and_then(|c| c.playback)
        };
        let looping = play_times.is_none_or(|n| n == 0);
        let id = self.set_animation(rig, track, clip, looping)?;
        let e = &mut self.entries[id.index as usize];
        if let Some(p) = playback {
            let plays = play_times.unwrap_or(p.play_times);
            e.set_dragonbones(plays, p.length, p.held.unwrap_or(clip));
        }
        if let Some(f) = fade_in {
            e.mix_duration = if f.is_finite() && f > 0.0 { f } else { 0.0 };
        }
        Some(id)
    }

    /// [`AnimationState::set_animation`] by clip name; `None` when the rig has no such clip.
    pub fn set_animation_by_name(
        &mut self,
        rig: &Rig,
        track: usize,
        name: &str,
        looping: bool,
    ) -> Option<EntryId> {
        rig.clip(name)
            .and_then(|c| self.set_animation(rig, track, c, looping))
    }

    /// Queues `clip` after the last entry of `track` (Spine `addAnimation`). A `delay` <= 0
    /// starts it when the previous entry completes, minus the mix duration, plus `delay`.
    /// `None`, and nothing changes, as for [`AnimationState::set_animation`].
    pub fn add_animation(
        &mut self,
        rig: &Rig,
        track: usize,
        clip: ClipId,
        looping: bool,
        mut delay: f64,
    ) -> Option<EntryId> {
        if !self.playable(rig, track, clip) {
            return None;
        }
        let mut last = self.expand_to_index(track);
        if let Some(mut l) = last {
            while let Some(n) = link(self.entries[l].next) {
                l = n;
            }
            last = Some(l);
        }
        let entry = self.track_entry(rig, track, clip, looping, last);
        match last {
            None => {
                self.set_current(track, entry, true);
                self.drain();
                if delay < 0.0 {
                    delay = 0.0;
                }
            }
            Some(l) => {
                self.entries[l].next = entry as u32;
                self.entries[entry].previous = l as u32;
                if delay <= 0.0 {
                    delay = (delay + self.entries[l].track_complete()
                        - self.entries[entry].mix_duration)
                        .max(0.0);
                }
            }
        }
        self.entries[entry].delay = delay;
        Some(self.handle(entry))
    }

    /// [`AnimationState::add_animation`] by clip name.
    pub fn add_animation_by_name(
        &mut self,
        rig: &Rig,
        track: usize,
        name: &str,
        looping: bool,
        delay: f64,
    ) -> Option<EntryId> {
        rig.clip(name)
            .and_then(|c| self.add_animation(rig, track, c, looping, delay))
    }

    /// Mixes the track out to the setup pose over `mix_duration` (Spine `setEmptyAnimation`).
    /// `None` for a track from [`MAX_TRACKS`] on or another rig.
    pub fn set_empty_animation(
        &mut self,
        rig: &Rig,
        track: usize,
        mix_duration: f64,
    ) -> Option<EntryId> {
        let id = self.set_animation(rig, track, EMPTY_CLIP, false)?;
        let e = &mut self.entries[id.index as usize];
        e.mix_duration = mix_duration;
        e.track_end = mix_duration;
        Some(id)
    }

    /// Queues a mix out to the setup pose (Spine `addEmptyAnimation`).
    pub fn add_empty_animation(
        &mut self,
        rig: &Rig,
        track: usize,
        mix_duration: f64,
        delay: f64,
    ) -> Option<EntryId> {
        let id = self.add_animation(rig, track, EMPTY_CLIP, false, delay)?;
        let e = &mut self.entries[id.index as usize];
        if delay <= 0.0 {
            e.delay = (e.delay + e.mix_duration - mix_duration).max(0.0);
        }
        e.mix_duration = mix_duration;
        e.track_end = mix_duration;
        Some(id)
    }

    /// Mixes every track out to the setup pose (Spine `setEmptyAnimations`).
    pub fn set_empty_animations(&mut self, rig: &Rig, mix_duration: f64) {
        for i in 0..self.tracks.len() {
            if let Some(c) = link(self.tracks[i]) {
                let track = self.entries[c].track;
                self.set_empty_animation(rig, track, mix_duration);
            }
        }
        self.drain();
    }

    /// Removes every entry from every track without mixing (Spine `clearTracks`).
    pub fn clear_tracks(&mut self) {
        for i in 0..self.tracks.len() {
            self.clear_track_inner(i);
        }
        self.tracks.clear();
        self.drain();
    }

    /// Removes every entry from one track without mixing (Spine `clearTrack`).
    pub fn clear_track(&mut self, track: usize) {
        self.clear_track_inner(track);
        self.drain();
    }

    fn clear_track_inner(&mut self, track: usize) {
        let Some(current) = self.tracks.get(track).and_then(|&c| link(c)) else {
            return;
        };
        self.queue(StateEventKind::End, current);
        self.clear_next(current);
        let mut entry = current;
        while let Some(from) = link(self.entries[entry].mixing_from) {
            self.queue(StateEventKind::End, from);
            self.entries[entry].mixing_from = NONE;
            self.entries[entry].mixing_to = NONE;
            entry = from;
        }
        let t = self.entries[current].track;
        if let Some(slot) = self.tracks.get_mut(t) {
            *slot = NONE;
        }
    }

    fn handle(&self, i: usize) -> EntryId {
        EntryId {
            index: i as u32,
            generation: self.entries[i].generation,
        }
    }

    /// The current entry of `track`, growing the track list as needed.
    fn expand_to_index(&mut self, track: usize) -> Option<usize> {
        if track < self.tracks.len() {
            return link(self.tracks[track]);
        }
        self.tracks.resize(track + 1, NONE);
        None
    }

    /// Makes `current` the track's entry, mixing from the previous one (Spine `setCurrent`).
    fn set_current(&mut self, track: usize, current: usize, interrupt: bool) {
        let from = self.expand_to_index(track);
        self.tracks[track] = current as u32;
        self.entries[current].previous = NONE;
        if let Some(from) = from {
            if interrupt {
                self.queue(StateEventKind::Interrupt, from);
            }
            if self.entries[current].db {
                // DragonBones fades the old state out from the weight it has now.
                let w = self.db_weight(from);
                self.entries[from].db_out_from = w;
            }
            self.entries[current].mixing_from = from as u32;
            self.entries[from].mixing_to = current as u32;
            self.entries[current].mix_time = 0.0;
            // Keep the interrupted mix percentage.
            let f = &self.entries[from];
            if f.mixing_from != NONE && f.mix_duration > 0.0 {
                let keep = (f.mix_time / f.mix_duration).min(1.0);
                self.entries[current].interrupt_alpha *= keep;
            }
            self.entries[from].rotation_ready = false;
        }
        self.queue(StateEventKind::Start, current);
    }

    /// A fresh pooled entry (Spine `trackEntry`).
    fn track_entry(
        &mut self,
        rig: &Rig,
        track: usize,
        clip: ClipId,
        looping: bool,
        last: Option<usize>,
    ) -> usize {
        let data = clip_data(rig, clip);
        // A DragonBones clip fades in over its own `fadeInTime` unless the table says.
        let fallback = data.playback.map_or(self.default_mix, |p| p.fade_in);
        let mix = last.map_or(0.0, |l| {
            self.mixes
                .pair(self.entries[l].clip, clip)
                .unwrap_or(fallback)
        });
        let i = match self.free.pop() {
            Some(i) => i as usize,
            None => {
                self.entries.push(TrackEntry::blank());
                self.entries.len() - 1
            }
        };
        self.entries[i].init(
            track,
            clip,
            looping,
            f64::from(data.duration),
            data.timelines.len(),
            mix,
        );
        if let Some(p) = data.playback {
            // COMPAT(dragonbones): `looping` asks for playTimes 0, else one play; the
            // clip's own playTimes come with [`AnimationState::play`].
            let plays = u32::from(!looping);
            self.entries[i].set_dragonbones(plays, p.length, p.held.unwrap_or(clip));
        }
        i
    }

    /// Disposes every entry queued after `entry` (Spine `clearNext`).
    fn clear_next(&mut self, entry: usize) {
        let mut next = link(self.entries[entry].next);
        while let Some(n) = next {
            self.queue(StateEventKind::Dispose, n);
            next = link(self.entries[n].next);
        }
        self.entries[entry].next = NONE;
    }

    /// Records a lifecycle event (Spine `EventQueue`); ended and disposed entries return to
    /// the pool at the next drain.
    fn queue(&mut self, kind: StateEventKind, entry: usize) {
        let e = &self.entries[entry];
        let ev = StateEvent {
            kind,
            entry: self.handle(entry),
            track: e.track,
            clip: e.clip,
        };
        self.events.push(ev);
        match kind {
            StateEventKind::Start => self.animations_changed = true,
            StateEventKind::End => {
                // COMPAT(spine): listeners see `dispose` right after `end`.
                self.events.push(StateEvent {
                    kind: StateEventKind::Dispose,
                    ..ev
                });
                self.animations_changed = true;
                self.pending_free.push(entry as u32);
            }
            StateEventKind::Dispose => self.pending_free.push(entry as u32),
            _ => {}
        }
    }

    /// Returns ended and disposed entries to the pool (Spine `EventQueue.drain` + `Pool.free`).
    fn drain(&mut self) {
        for k in 0..self.pending_free.len() {
            let i = self.pending_free[k] as usize;
            let e = &mut self.entries[i];
            if e.live {
                e.live = false;
                e.generation = e.generation.wrapping_add(1);
                e.next = NONE;
                e.previous = NONE;
                e.mixing_from = NONE;
                e.mixing_to = NONE;
                self.free.push(i as u32);
            }
        }
        self.pending_free.clear();
    }
}
