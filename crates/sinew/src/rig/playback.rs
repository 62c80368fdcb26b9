//! Clip playback facts of formats whose runtime plays clips unlike Spine's (the rig says
//! so; the animation state follows them).
//!
//! A DragonBones clip carries its `playTimes`, its `fadeInTime`, its length and the "held
//! twin" that holds the last keys once no play follows (DragonBones tweens a last key back
//! to the first only while plays remain). [`crate::anim::state::AnimationState`] plays a
//! clip with such facts the DragonBones way: see `state/dragonbones.rs`.

use crate::ids::ClipId;

/// Whose runtime semantics a clip follows when the animation state plays it.
///
/// Owner: the builder (from the loaders' [`crate::raw::RawPlayback`]); the animation stage
/// (step 2 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlaybackStyle {
    /// The DragonBones runtime (`dragonBones.Animation` 5.x): `playTimes` plays then the
    /// held end; crossfades over the new clip's `fadeInTime` with both playheads paused,
    /// bone values blended as weighted offsets from the setup pose (rotations of the
    /// fading-out clip wrapped to ±180°, never a shortest-path mix), slot colours and
    /// deforms eased in by the fade progress to the 4th and 2nd power.
    DragonBones,
}

/// A clip's playback facts (see the module docs).
///
/// ```
/// use sinew::anim::{ClipPlayback, PlaybackStyle};
/// let p = ClipPlayback::dragonbones(3, 0.2, 1.5, 24.0, None);
/// assert_eq!((p.style, p.play_times, p.fade_in), (PlaybackStyle::DragonBones, 3, 0.2));
/// // Keys on the 24 fps grid are reached at exactly their frame's time.
/// assert_eq!(p.grid_time(0.5), 0.5);
/// ```
///
/// Owner: the builder (from the loaders' [`crate::raw::RawPlayback`]); the animation stage
/// (step 2 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClipPlayback {
    /// Whose semantics.
    pub style: PlaybackStyle,
    /// Plays before the end is held; 0 plays forever (DragonBones `playTimes`).
    pub play_times: u32,
    /// Crossfade into this clip, seconds (DragonBones `fadeInTime`), used when the mix
    /// table has no pair for the two clips.
    pub fade_in: f64,
    /// One play, seconds (the animation's `duration` in frames over the frame rate).
    pub length: f64,
    /// The frame rate of the key grid (the armature's `frameRate`); 0 when unknown.
    pub frame_rate: f64,
    /// The clip posed in the last play and once the plays are over (its last keys hold
    /// instead of tweening back to the first); `None`: this clip itself.
    pub held: Option<ClipId>,
}

impl ClipPlayback {
    /// DragonBones facts. Non-finite or negative times and rates count as 0.
    pub fn dragonbones(
        play_times: u32,
        fade_in: f64,
        length: f64,
        frame_rate: f64,
        held: Option<ClipId>,
    ) -> Self {
        let clean = |v: f64| if v.is_finite() && v > 0.0 { v } else { 0.0 };
        ClipPlayback {
            style: PlaybackStyle::DragonBones,
            play_times,
            fade_in: clean(fade_in),
            length: clean(length),
            frame_rate: clean(frame_rate),
            held,
        }
    }

    /// The clip time at which to look keys up so that the key reached is the runtime's:
    /// DragonBones reaches key frame `k` when `floor(time * frameRate) >= k`, while sinew
    /// stores key times as f32 (Spine's convention; the DragonBones loader rounds them down
    /// to the f32 at or before `k / frameRate`). The result stays within one f32 step of
    /// `time` and lies in `[key(f), key(f + 1))` for the runtime's frame `f`.
    pub fn grid_time(&self, time: f64) -> f64 {
        let r = self.frame_rate;
        if r <= 0.0 || !time.is_finite() || time < 0.0 {
            return time;
        }
        let f = (time * r).floor();
        let lo = f32_at_or_before(f / r);
        let hi = f32_at_or_before((f + 1.0) / r);
        // Just below the next key's stored time (f64 steps: the f32 grid is far coarser).
        let below = if hi > lo { hi - hi * f64::EPSILON } else { hi };
        time.clamp(lo, below.max(lo))
    }
}

/// The largest time that f32 holds exactly and that is not after `t`: where the
/// DragonBones loader puts a key of frame time `t` (COMPAT(dragonbones): the runtime reaches
/// a key at exactly its frame's time, so its stored time must not round up past it).
pub fn f32_at_or_before(t: f64) -> f64 {
    let f = t as f32;
    f64::from(if f64::from(f) > t { f.next_down() } else { f })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_cleaned() {
        let p = ClipPlayback::dragonbones(2, f64::NAN, 1.0, -3.0, Some(ClipId(0)));
        assert_eq!((p.fade_in, p.length, p.frame_rate), (0.0, 1.0, 0.0));
        assert_eq!(p.grid_time(0.37), 0.37);
    }

    #[test]
    fn grid_times_reach_the_runtimes_key() {
        let p = ClipPlayback::dragonbones(0, 0.0, 2.0, 10.0, None);
        for k in 0..200u32 {
            let exact = f64::from(k) / 10.0;
            let key = f32_at_or_before(exact);
            let next = f32_at_or_before(f64::from(k + 1) / 10.0);
            for t in [exact, exact + 1e-9, exact - 1e-15, exact + 0.05] {
                if t < 0.0 {
                    continue;
                }
                let frame = (t * 10.0).floor();
                let g = p.grid_time(t);
                // The key the runtime shows is reached, the next one is not.
                assert!(g >= f32_at_or_before(frame / 10.0), "t {t}");
                assert!(g < f32_at_or_before((frame + 1.0) / 10.0), "t {t}");
                // Within one f32 step of the clock.
                assert!((g - t).abs() <= t * f64::from(f32::EPSILON), "t {t} -> {g}");
            }
            assert!(key <= exact && exact - key <= exact * f64::from(f32::EPSILON));
            assert!(key < next);
        }
        // Exactly on the grid (0.4 s at 10 fps: f32 0.4 rounds up) the key is reached.
        assert!(p.grid_time(0.4) >= f32_at_or_before(0.4));
        // A clock a hair below the grid (sums of 1/60 s steps) stays on the previous key.
        let below = 0.4f64.next_down();
        assert!((below * 10.0).floor() == 3.0);
        assert!(p.grid_time(below) < f32_at_or_before(0.4));
    }
}
