//! The bridge from the animation state to the jiggle cues (step 7 of `Character::update`):
//! which animations play this frame, at what time and weight, as [`CueWindow`]s for
//! [`JiggleState::apply_cues`]. Every track's current entry counts with its alpha and fires
//! its fade events; an entry being mixed out counts with its alpha times what is left of
//! the crossfade, and fires none. In clip mode the one clip counts fully. The cages' point
//! keys read the same windows ([`for_each_window`]). Allocation-free.

use super::AnimMode;
use crate::anim::AnimationState;
use crate::anim::state::TrackEntry;
use crate::physics::jiggle::{CueWindow, JiggleRig, JiggleState};
use crate::rig::Rig;

/// Clears the cue factors and applies the cues of every animation playing.
pub(super) fn feed_cues(
    rig: &Rig,
    jr: &JiggleRig,
    js: &mut JiggleState,
    state: &AnimationState,
    mode: &AnimMode,
    animates: bool,
) {
    js.clear_cues();
    for_each_window(rig, state, mode, animates, |w| js.apply_cues(jr, w));
}

/// Calls `f` with the window of every animation playing this frame (none when the rig does
/// not animate): the jiggle cues and the cages' point keys read the same windows.
pub(super) fn for_each_window(
    rig: &Rig,
    state: &AnimationState,
    mode: &AnimMode,
    animates: bool,
    mut f: impl FnMut(&CueWindow),
) {
    if !animates {
        return;
    }
    match *mode {
        AnimMode::State => {
            for track in 0..state.track_count() {
                let Some(mut id) = state.current(track) else {
                    continue;
                };
                let Some(mut to) = state.entry(id) else {
                    continue;
                };
                f(&window(to, to.alpha, state.time_scale, true));
                let mut weight = to.alpha;
                // Entries being mixed out fade with the crossfade.
                while let Some(from_id) = state.mixing_from(id) {
                    let Some(from) = state.entry(from_id) else {
                        break;
                    };
                    weight *= 1.0 - to.mix_percent();
                    let w = from.alpha * weight;
                    f(&window(from, w, state.time_scale, false));
                    (id, to) = (from_id, from);
                }
            }
        }
        AnimMode::Clip {
            clip,
            looping,
            time,
            prev,
            ..
        } => {
            let end = rig
                .clips
                .get(clip.index())
                .map_or(0.0, |c| f64::from(c.duration));
            let wrap = |t: f64| {
                if looping && end > 0.0 && t >= 0.0 {
                    t % end
                } else if looping || t < 0.0 {
                    t
                } else {
                    t.min(end)
                }
            };
            f(&CueWindow {
                clip,
                last: wrap(prev),
                time: wrap(time),
                start: 0.0,
                end,
                looping,
                weight: 1.0,
                speed: 1.0,
                events: true,
            });
        }
    }
}

/// The window of one track entry this frame.
fn window(e: &TrackEntry, weight: f64, state_scale: f64, events: bool) -> CueWindow {
    CueWindow {
        clip: e.clip,
        last: e.animation_last,
        time: e.animation_time(),
        start: e.animation_start,
        end: e.animation_end,
        looping: e.looping,
        weight,
        speed: e.time_scale * state_scale,
        events,
    }
}
