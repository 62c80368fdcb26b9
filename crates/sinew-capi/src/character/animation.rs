//! A character's animation tracks: playing, queueing and clearing animations, mixes
//! between them and the whole character's time scale (Spine `AnimationState`).

use super::{SinewCharacter, char_fail, finite, with};
use crate::{Fail, SinewStatus, guard, str_arg};
use std::ffi::c_char;

/// Plays animation `name` on `track` now, mixing from what played (Spine `setAnimation`),
/// looping as `looping` says. A DragonBones clip plays the DragonBones way (fading in over
/// its `fadeInTime`, the end held) forever when looping, else once: its file's `playTimes`
/// is not applied (`sinew_character_play` applies it), as Rust `Character::set_animation`.
/// An unknown name is `SINEW_STATUS_NOT_FOUND`, the last error listing the rig's animations.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_animation(
    character: *mut SinewCharacter,
    track: u32,
    name: *const c_char,
    name_len: usize,
    looping: bool,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            s.character
                .set_animation(track as usize, name, looping)
                .map(drop)
                .map_err(char_fail)
        })
    })
}

/// Queues animation `name` after the track's last entry (Spine `addAnimation`): `delay` <= 0
/// starts it when the previous entry completes, minus the mix, plus `delay`. A
/// `mix_duration` >= 0 overrides the mix table's duration for this entry (and, with
/// `delay` <= 0, is what the start is moved back by); < 0 keeps the table's.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_add_animation(
    character: *mut SinewCharacter,
    track: u32,
    name: *const c_char,
    name_len: usize,
    looping: bool,
    delay: f64,
    mix_duration: f64,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        let delay = finite(delay, "delay")?;
        let mix = finite(mix_duration, "mix_duration")?;
        with(character, |s| {
            let id = s
                .character
                .add_animation(track as usize, name, looping, delay)
                .map_err(char_fail)?;
            if mix >= 0.0 {
                if delay <= 0.0 {
                    s.character
                        .state_mut()
                        .set_mix_duration_with_delay(id, mix, delay);
                } else if let Some(e) = s.character.state_mut().entry_mut(id) {
                    e.mix_duration = mix;
                }
            }
            Ok(())
        })
    })
}

/// Mixes `track` out to the setup pose over `mix_duration` seconds (Spine
/// `setEmptyAnimation`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_empty_animation(
    character: *mut SinewCharacter,
    track: u32,
    mix_duration: f64,
) -> SinewStatus {
    guard(|| {
        let mix = finite(mix_duration, "mix_duration")?;
        with(character, |s| {
            s.character
                .set_empty_animation(track as usize, mix)
                .map_err(char_fail)?;
            Ok(())
        })
    })
}

/// Removes every entry of `track` at once (Spine `clearTrack`; the pose stays as it is).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_clear_track(
    character: *mut SinewCharacter,
    track: u32,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            s.character.state_mut().clear_track(track as usize);
            Ok(())
        })
    })
}

/// Removes every track's entries (Spine `clearTracks`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_clear_tracks(character: *mut SinewCharacter) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            s.character.state_mut().clear_tracks();
            Ok(())
        })
    })
}

/// Speed multiplier of the whole character (animation, physics, jiggle); 1 by default.
/// Negative or non-finite: `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_time_scale(
    character: *mut SinewCharacter,
    scale: f64,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            if s.character.set_time_scale(scale) {
                Ok(())
            } else {
                Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("time scale {scale} is negative or not finite"),
                ))
            }
        })
    })
}

/// Speed of the clip playing on `track` now (its entry's time scale; 1 when started).
/// Negative plays a DragonBones clip backwards as the runtime does. No clip on the track:
/// `SINEW_STATUS_INVALID_ARGUMENT`; not finite: `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_track_time_scale(
    character: *mut SinewCharacter,
    track: u32,
    scale: f64,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            s.character
                .set_track_time_scale(track as usize, scale)
                .map_err(|e| Fail::new(SinewStatus::InvalidArgument, e.to_string()))
        })
    })
}

/// Puts `track` on DragonBones animation layer `layer` (DragonBones `animation.fadeIn(name,
/// fadeInTime, playTimes, layer, group)`): a higher layer takes each bone's weight first, a
/// lower one keeps what is left, tracks on one layer add their weights. A track's layer is
/// its index until set; play one group of a layer per track. Spine clips ignore it. Track
/// out of range (256 or more): `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_track_layer(
    character: *mut SinewCharacter,
    track: u32,
    layer: i32,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            s.character
                .set_track_layer(track as usize, layer)
                .map_err(|e| Fail::new(SinewStatus::InvalidArgument, e.to_string()))
        })
    })
}

/// Fades the DragonBones clip on `track` out over `seconds` (DragonBones
/// `animationState.fadeOut`): its weight falls to 0 with its playhead still, then the track
/// ends (0: now). DragonBones' `fadeOutMode` `All` / `SameLayer` is this on the other tracks
/// (of the layer) before `sinew_character_play`. Nothing plays there, not a DragonBones clip
/// or a time not finite: `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_fade_out_track(
    character: *mut SinewCharacter,
    track: u32,
    seconds: f64,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            s.character
                .fade_out_track(track as usize, seconds)
                .map_err(|e| Fail::new(SinewStatus::InvalidArgument, e.to_string()))
        })
    })
}

/// Sets this character's crossfade from animation `from` to `to` (Spine
/// `AnimationStateData.setMix`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_mix(
    character: *mut SinewCharacter,
    from: *const c_char,
    from_len: usize,
    to: *const c_char,
    to_len: usize,
    seconds: f64,
) -> SinewStatus {
    guard(|| {
        let from = str_arg(from, from_len, "from")?;
        let to = str_arg(to, to_len, "to")?;
        let seconds = finite(seconds, "seconds")?;
        with(character, |s| {
            s.character.set_mix(from, to, seconds).map_err(char_fail)
        })
    })
}

/// The mix duration for pairs the mix table does not list.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_default_mix(
    character: *mut SinewCharacter,
    seconds: f64,
) -> SinewStatus {
    guard(|| {
        let seconds = finite(seconds, "seconds")?;
        with(character, |s| {
            s.character.set_default_mix(seconds);
            Ok(())
        })
    })
}
