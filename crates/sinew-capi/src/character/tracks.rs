//! Playing a clip with its format's defaults (DragonBones `playTimes` and `fadeInTime`),
//! animation durations, and what a track plays now (Spine `TrackEntry.trackTime`,
//! `animationTime`).

use super::{SinewCharacter, char_fail, key, with};
use crate::{Fail, SinewStatus, SinewStringView, guard, put, str_arg};
use sinew::ClipId;
use std::ffi::c_char;

/// What a track plays now (`sinew_character_track`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SinewTrackInfo {
    /// 1 when the track has a current entry; 0 (and every other field 0 or empty) when not.
    pub playing: u32,
    /// The entry's animation name (points into the rig; empty for an empty animation).
    pub animation: SinewStringView,
    /// Seconds since the entry started, scaled by its time scale (Spine `trackTime`).
    pub track_time: f64,
    /// The time in the animation now: wrapped when looping, else held at the end (Spine
    /// `getAnimationTime`). For a DragonBones entry it runs over all its plays (0 to
    /// `play_times` x the clip's duration).
    pub animation_time: f64,
    /// The span `animation_time` runs over (Spine `animationEnd - animationStart`: the
    /// clip's duration; a DragonBones entry's plays x the clip's duration).
    pub duration: f64,
    /// 1 when the entry loops (a Spine entry set looping, a DragonBones entry of 0 plays).
    pub looping: u32,
    /// The DragonBones play count of the entry (0: forever), or -1 for a Spine clip's entry
    /// (or an empty animation).
    pub play_times: i32,
    /// 1 once the track time has reached `duration` (Spine `isComplete`; a looping entry
    /// has completed at least one loop).
    pub complete: u32,
}

/// Plays animation `name` on `track` now with its format's defaults, as the Rust
/// `Character::fade_in` does (DragonBones `animation.fadeIn(name, fadeInTime, playTimes)`):
/// a DragonBones clip plays `play_times` times (0: forever) and then holds its end,
/// crossfading from what played over `fade_in` seconds; a Spine clip loops when
/// `play_times` is 0 and plays once for any positive count. `play_times` < 0 keeps the
/// clip's own (a DragonBones file's `playTimes`; a Spine clip loops); `fade_in` < 0 keeps
/// the mix table's duration for the pair, else the clip's `fadeInTime`. A non-finite
/// `fade_in` is `SINEW_STATUS_INVALID_ARGUMENT`; a track from 256 on too.
/// (`sinew_character_set_animation` plays a DragonBones clip forever when looping, else
/// once: the file's `playTimes` is not applied.)
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_play(
    character: *mut SinewCharacter,
    track: u32,
    name: *const c_char,
    name_len: usize,
    fade_in: f64,
    play_times: i32,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        if fade_in.is_nan() || fade_in.is_infinite() {
            return Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!("fade_in {fade_in} is not finite"),
            ));
        }
        let fade = (fade_in >= 0.0).then_some(fade_in);
        let plays = u32::try_from(play_times).ok();
        with(character, |s| {
            let clip = key::<ClipId>(s, name)?;
            s.character
                .fade_in(track as usize, clip, fade, plays)
                .map(drop)
                .map_err(char_fail)
        })
    })
}

/// Animation `name`'s duration in seconds (Spine `Animation.duration`: the time of its last
/// key; for a DragonBones clip, one play) into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_animation_duration(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    out: *mut f64,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let clip = key::<ClipId>(s, name)?;
            let rig = s.character.rig();
            let c = rig
                .clips
                .get(clip.index())
                .ok_or_else(|| super::not_found("animation", name))?;
            put(out, f64::from(c.duration), "out")
        })
    })
}

/// What `track` plays now into `*out`: its current entry's animation, track time,
/// animation time and duration (`playing` 0 for a track with nothing playing). A track
/// from 256 on is `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_track(
    character: *const SinewCharacter,
    track: u32,
    out: *mut SinewTrackInfo,
) -> SinewStatus {
    guard(|| {
        let t = super::entry_options::track_arg(track)?;
        with(character, |s| {
            let state = s.character.state();
            let mut info = SinewTrackInfo {
                playing: 0,
                animation: SinewStringView::EMPTY,
                track_time: 0.0,
                animation_time: 0.0,
                duration: 0.0,
                looping: 0,
                play_times: -1,
                complete: 0,
            };
            if let Some(e) = state.current(t).and_then(|id| state.entry(id)) {
                let rig = s.character.rig();
                info.playing = 1;
                info.animation = rig
                    .clips
                    .get(e.clip.index())
                    .map_or(SinewStringView::EMPTY, |c| SinewStringView::of(&c.name));
                info.track_time = e.track_time;
                info.animation_time = e.animation_time();
                info.duration = e.animation_end - e.animation_start;
                info.looping = u32::from(e.looping);
                info.play_times = e
                    .dragonbones_plays()
                    .map_or(-1, |n| i32::try_from(n).unwrap_or(i32::MAX));
                info.complete = u32::from(e.is_complete());
            }
            put(out, info, "out")
        })
    })
}
