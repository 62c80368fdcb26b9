//! Advancing track time: delays, queued entries becoming current, track ends and the end of
//! crossfades (Spine `AnimationState.update` / `updateMixingFrom`).

use super::entry::{NONE, link};
use super::{AnimationState, StateEventKind};

impl AnimationState {
    /// Advances every track by `delta` seconds (scaled by [`AnimationState::time_scale`] and
    /// each entry's time scale). Does not pose anything; call [`AnimationState::apply`].
    /// A NaN or infinite `delta` (a broken clock) is treated as 0 so track times stay finite.
    pub fn update(&mut self, delta: f64) {
        let delta = if delta.is_finite() {
            delta * self.time_scale
        } else {
            0.0
        };
        for i in 0..self.tracks.len() {
            let Some(cur) = link(self.tracks[i]) else {
                continue;
            };
            let e = &mut self.entries[cur];
            e.animation_last = e.next_animation_last;
            e.track_last = e.next_track_last;
            let mut current_delta = delta * e.time_scale;
            if e.delay > 0.0 {
                e.delay -= current_delta;
                if e.delay > 0.0 {
                    continue;
                }
                current_delta = -e.delay;
                e.delay = 0.0;
            }
            let (next_link, track_last, track_end, mixing_from) =
                (e.next, e.track_last, e.track_end, e.mixing_from);
            if let Some(next) = link(next_link) {
                // When the next entry's delay has passed, switch to it, keeping leftover time.
                let next_time = track_last - self.entries[next].delay;
                if next_time >= 0.0 {
                    let scale = self.entries[cur].time_scale;
                    let n = &mut self.entries[next];
                    n.delay = 0.0;
                    // COMPAT(dragonbones): a state fading in starts at its first frame.
                    let paused = n.db && n.mix_duration > 0.0;
                    n.track_time += if scale == 0.0 || paused {
                        0.0
                    } else {
                        (next_time / scale + delta) * n.time_scale
                    };
                    self.entries[cur].track_time += current_delta;
                    self.set_current(i, next, true);
                    let mut m = next;
                    while let Some(from) = link(self.entries[m].mixing_from) {
                        self.entries[m].mix_time += delta;
                        m = from;
                    }
                    continue;
                }
            } else if track_last >= track_end && mixing_from == NONE {
                self.tracks[i] = NONE;
                self.queue(StateEventKind::End, cur);
                self.clear_next(cur);
                continue;
            }
            if self.entries[cur].mixing_from != NONE && self.update_mixing_from(cur, delta) {
                // Every mixing-from entry has finished: end them all.
                let mut from = link(self.entries[cur].mixing_from);
                self.entries[cur].mixing_from = NONE;
                if let Some(f) = from {
                    self.entries[f].mixing_to = NONE;
                }
                while let Some(f) = from {
                    self.queue(StateEventKind::End, f);
                    from = link(self.entries[f].mixing_from);
                }
            }
            let e = &mut self.entries[cur];
            if e.db_fade_out > 0.0 {
                // A track fading out (`fade_out_track`): its playhead stands still
                // (`pauseFadeOut`) and the track ends when the fade has run.
                e.db_fade_out_time += delta;
                if e.db_fade_out_time >= e.db_fade_out && e.next_track_last != -1.0 {
                    self.tracks[i] = NONE;
                    self.queue(StateEventKind::End, cur);
                    self.clear_next(cur);
                    let mut from = link(self.entries[cur].mixing_from);
                    while let Some(f) = from {
                        self.queue(StateEventKind::End, f);
                        from = link(self.entries[f].mixing_from);
                    }
                }
                continue;
            }
            // COMPAT(dragonbones): a state fades in from no weight also when nothing played
            // before it (a new layer).
            let alone = e.db && e.mixing_from == NONE && e.mix_time < e.mix_duration;
            if alone {
                e.mix_time += delta;
            }
            // COMPAT(dragonbones): the playhead of a state fading in waits for the fade
            // (`pauseFadeIn`); the step that completes it plays whole.
            if !(e.db && e.mix_time < e.mix_duration && (e.mixing_from != NONE || alone)) {
                e.track_time += current_delta;
            }
        }
        self.drain();
    }

    /// Advances the mixing-from chain below `to`; true when every entry in it has finished
    /// mixing out.
    fn update_mixing_from(&mut self, to: usize, delta: f64) -> bool {
        let Some(from) = link(self.entries[to].mixing_from) else {
            return true;
        };
        let finished = self.update_mixing_from(from, delta);
        let f = &mut self.entries[from];
        f.animation_last = f.next_animation_last;
        f.track_last = f.next_track_last;
        let t = &self.entries[to];
        // The from entry was applied at least once and the mix is complete.
        if t.next_track_last != -1.0 && t.mix_time >= t.mix_duration {
            // Mixing is complete for all entries before the from entry, or the mix is instant.
            if self.entries[from].total_alpha == 0.0 || t.mix_duration == 0.0 {
                let ff = self.entries[from].mixing_from;
                self.entries[to].mixing_from = ff;
                if let Some(ff) = link(ff) {
                    self.entries[ff].mixing_to = to as u32;
                }
                self.entries[to].interrupt_alpha = self.entries[from].interrupt_alpha;
                // Spine 4.3: once an entry that had faded to nothing leaves the chain, the
                // entries still mixing out above it keep the holds they have.
                if self.v43 && self.entries[from].total_alpha == 0.0 {
                    let mut next = to;
                    while let Some(up) = link(self.entries[next].mixing_to) {
                        self.entries[next].keep_hold = true;
                        next = up;
                    }
                }
                self.queue(StateEventKind::End, from);
            }
            return finished;
        }
        let f = &mut self.entries[from];
        // COMPAT(dragonbones): a state fading out stops its playhead (`pauseFadeOut`).
        if !f.db {
            f.track_time += delta * f.time_scale;
        }
        self.entries[to].mix_time += delta;
        false
    }
}
