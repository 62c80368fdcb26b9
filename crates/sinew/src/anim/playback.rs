//! Clip playback facts of formats whose runtime plays clips unlike Spine's (the rig says
//! so; the animation state follows them).
//!
//! A DragonBones clip carries its `playTimes`, its `fadeInTime`, its length and the "held
//! twin" that holds the last keys once no play follows (DragonBones tweens a last key back
//! to the first only while plays remain). [`crate::anim::state::AnimationState`] plays a
//! clip with such facts the DragonBones way: see `state/dragonbones.rs`.

use crate::ids::ClipId;
use crate::rig::Rig;

/// Whose runtime semantics a clip follows when the animation state plays it.
///
/// Owner: the loaders (through [`set_clip_playback`]); the animation stage (step 2 of
/// `Character::update`) reads it.
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
/// let p = ClipPlayback::dragonbones(3, 0.2, 1.5, None);
/// assert_eq!((p.style, p.play_times, p.fade_in), (PlaybackStyle::DragonBones, 3, 0.2));
/// ```
///
/// Owner: the loaders (through [`set_clip_playback`]); the animation stage (step 2 of
/// `Character::update`) reads it.
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
    /// The clip posed in the last play and once the plays are over (its last keys hold
    /// instead of tweening back to the first); `None`: this clip itself.
    pub held: Option<ClipId>,
}

impl ClipPlayback {
    /// DragonBones facts. Non-finite or negative times count as 0.
    pub fn dragonbones(play_times: u32, fade_in: f64, length: f64, held: Option<ClipId>) -> Self {
        let clean = |v: f64| if v.is_finite() && v > 0.0 { v } else { 0.0 };
        ClipPlayback {
            style: PlaybackStyle::DragonBones,
            play_times,
            fade_in: clean(fade_in),
            length: clean(length),
            held,
        }
    }
}

/// Gives clip `name` of `rig` its playback facts; false (and nothing changes) when the rig
/// has no such clip or `held` is not one of its clips. For loaders, before the rig is
/// shared.
pub fn set_clip_playback(rig: &mut Rig, name: &str, playback: ClipPlayback) -> bool {
    let held_ok = playback.held.is_none_or(|h| h.index() < rig.clips.len());
    match rig.clip(name).and_then(|c| rig.clips.get_mut(c.index())) {
        Some(clip) if held_ok => {
            clip.playback = Some(playback);
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::Clip;

    #[test]
    fn facts_are_set_by_name_and_checked() {
        let mut rig = Rig::default();
        rig.clips.push(Clip {
            name: "walk".into(),
            ..Default::default()
        });
        rig.names.clips.insert("walk".into(), ClipId(0));
        let p = ClipPlayback::dragonbones(2, f64::NAN, 1.0, Some(ClipId(0)));
        assert_eq!(p.fade_in, 0.0);
        assert!(set_clip_playback(&mut rig, "walk", p));
        assert_eq!(rig.clips[0].playback, Some(p));
        assert!(!set_clip_playback(&mut rig, "run", p));
        let bad = ClipPlayback::dragonbones(2, 0.1, 1.0, Some(ClipId(7)));
        assert!(!set_clip_playback(&mut rig, "walk", bad));
        assert_eq!(rig.clips[0].playback, Some(p));
    }
}
