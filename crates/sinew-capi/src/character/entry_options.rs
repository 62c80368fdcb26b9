//! Spine 4.3 track entry options from code (`TrackEntry.additive`, `keepHold`,
//! `mixInterpolation`) and an entry's mix weight (`TrackEntry.alpha`): set on, and read
//! from, a track's current entry or its last queued one (the entry
//! `sinew_character_add_animation` just queued: Spine hosts set options on the entry
//! `addAnimation` returns). The ABI has no entry ids, so a track and a `SinewTrackEntry`
//! name the entry. Wraps `sinew::Character::{set_entry_options, entry_options}` and the
//! entry's `alpha` field.
//!
//! Every field a host passes is checked before anything changes: flags are 0 or 1, the
//! curve a `SinewMixInterpolation` value (its power 1 or more for the powered ones), so an
//! uninitialised struct is an error, never a pose.

use super::{SinewCharacter, char_fail, with};
use crate::{Fail, Res, SinewStatus, guard, put, read_arg};
use sinew::CharacterError;
use sinew::anim::EntryId;
use sinew::anim::state::{AnimationState, EntryOptions, MAX_TRACKS, MixInterpolation};

/// Which entry of a track a call addresses (`sinew_character_set_entry_options`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinewTrackEntry {
    /// The entry playing now (what `sinew_character_set_animation` or `sinew_character_play`
    /// started, or a queued entry once it has started).
    Current = 0,
    /// The last entry queued on the track (what `sinew_character_add_animation` just
    /// queued, Spine's `addAnimation` return value); the current entry when none is queued.
    Last = 1,
}

/// The curve of an entry's crossfade in (Spine 4.3 `TrackEntry.mixInterpolation`, the
/// `Interpolation` family of spine-core): the linear mix percentage goes in, the curve's
/// value (clamped to 0..1) weights the entry against the one it mixes from.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinewMixInterpolation {
    /// `a`: Spine 4.2's only mix, the default.
    Linear = 0,
    /// Smoothstep, `a² (3 - 2a)`.
    Smooth = 1,
    /// Slow, then fast: `a²`.
    SlowFast = 2,
    /// Fast, then slow: `1 - (1 - a)²`.
    FastSlow = 3,
    /// Two quarter circles: slow in, fast through the middle, slow out.
    Circle = 4,
    /// Ease in and out with power `mix_power` (Spine `new Pow(power)`).
    Pow = 5,
    /// Ease out with power `mix_power` (Spine `new PowOut(power)`).
    PowOut = 6,
}

/// A track entry's Spine 4.3 options. All zero is the default (not additive, no kept hold,
/// a linear mix): an entry posed exactly as one without options.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SinewEntryOptions {
    /// 1: the entry's additive timelines add to the pose below instead of replacing it
    /// (Spine 4.3 `TrackEntry.additive`; set it before the next update). 0: not. Spine 4.3
    /// rigs only.
    pub additive: u32,
    /// 1: when timeline modes are computed again the entry keeps whether each of its
    /// timelines holds (Spine 4.3 `TrackEntry.keepHold`). 0: not.
    pub keep_hold: u32,
    /// A `SinewMixInterpolation` value: the curve of the entry's mix in.
    pub mix_interpolation: u32,
    /// The power of `SINEW_MIX_INTERPOLATION_POW` and `_POW_OUT`, 1 or more; read for those
    /// two only (and written 0 for the others).
    pub mix_power: u32,
}

/// A 0/1 flag of the struct; anything else (an uninitialised field) is refused.
fn flag(v: u32, what: &str) -> Res<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Fail::new(
            SinewStatus::InvalidArgument,
            format!("SinewEntryOptions.{what} is {v}: 0 or 1"),
        )),
    }
}

/// The facade's options for what a host passed.
fn options_arg(o: SinewEntryOptions) -> Res<EntryOptions> {
    let power = || {
        if o.mix_power == 0 {
            Err(Fail::new(
                SinewStatus::InvalidArgument,
                "SinewEntryOptions.mix_power is 0: a powered mix curve needs a power of 1 or more",
            ))
        } else {
            Ok(o.mix_power)
        }
    };
    let mix_interpolation = match o.mix_interpolation {
        0 => MixInterpolation::Linear,
        1 => MixInterpolation::Smooth,
        2 => MixInterpolation::SlowFast,
        3 => MixInterpolation::FastSlow,
        4 => MixInterpolation::Circle,
        5 => MixInterpolation::Pow(power()?),
        6 => MixInterpolation::PowOut(power()?),
        v => {
            return Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!(
                    "SinewEntryOptions.mix_interpolation {v} is not a SinewMixInterpolation \
                     (0 to 6)"
                ),
            ));
        }
    };
    Ok(EntryOptions {
        additive: flag(o.additive, "additive")?,
        keep_hold: flag(o.keep_hold, "keep_hold")?,
        mix_interpolation,
    })
}

/// The C struct of the facade's options.
fn options_out(o: EntryOptions) -> SinewEntryOptions {
    let (kind, power) = match o.mix_interpolation {
        MixInterpolation::Linear => (SinewMixInterpolation::Linear, 0),
        MixInterpolation::Smooth => (SinewMixInterpolation::Smooth, 0),
        MixInterpolation::SlowFast => (SinewMixInterpolation::SlowFast, 0),
        MixInterpolation::FastSlow => (SinewMixInterpolation::FastSlow, 0),
        MixInterpolation::Circle => (SinewMixInterpolation::Circle, 0),
        MixInterpolation::Pow(p) => (SinewMixInterpolation::Pow, p),
        MixInterpolation::PowOut(p) => (SinewMixInterpolation::PowOut, p),
    };
    SinewEntryOptions {
        additive: u32::from(o.additive),
        keep_hold: u32::from(o.keep_hold),
        mix_interpolation: kind as u32,
        mix_power: power,
    }
}

/// The selector a host passed: an unknown value is `InvalidArgument`.
fn which_arg(which: u32) -> Res<SinewTrackEntry> {
    match which {
        0 => Ok(SinewTrackEntry::Current),
        1 => Ok(SinewTrackEntry::Last),
        _ => Err(Fail::new(
            SinewStatus::InvalidArgument,
            format!("entry {which} is not a SinewTrackEntry (0: current, 1: last)"),
        )),
    }
}

/// A track index below `MAX_TRACKS` (256), else `InvalidArgument` naming it.
pub(super) fn track_arg(track: u32) -> Res<usize> {
    let t = track as usize;
    if t < MAX_TRACKS {
        Ok(t)
    } else {
        Err(char_fail(CharacterError::TrackOutOfRange { track: t }))
    }
}

/// The entry `which` names on `track`, or `NotFound` saying the track is empty.
fn entry_of(state: &AnimationState, track: usize, which: SinewTrackEntry) -> Res<EntryId> {
    let Some(mut id) = state.current(track) else {
        return Err(Fail::new(
            SinewStatus::NotFound,
            format!("track {track} has no entry (nothing plays or is queued there)"),
        ));
    };
    if which == SinewTrackEntry::Last {
        // The queue is a list ending in the last `add_animation`'s entry.
        while let Some(next) = state.next(id) {
            id = next;
        }
    }
    Ok(id)
}

/// Sets the Spine 4.3 options of `track`'s entry `entry` (a `SinewTrackEntry`: 0 the current
/// one, 1 the last queued) to `*options` (Spine 4.3 `TrackEntry.additive`, `keepHold`,
/// `setMixInterpolation`); the rest of the entry is unchanged. Set `additive` before the
/// entry's first update, as Spine 4.3 asks. Statuses, nothing changed for any of them:
/// - `SINEW_STATUS_NULL_ARGUMENT`: `options` is null;
/// - `SINEW_STATUS_INVALID_ARGUMENT`: `entry` not 0 or 1, a flag not 0 or 1, an unknown
///   `mix_interpolation`, a powered curve with `mix_power` 0, or a track from 256 on;
/// - `SINEW_STATUS_NOT_FOUND`: nothing plays or is queued on the track;
/// - `SINEW_STATUS_UNSUPPORTED`: `additive` on a rig that is not Spine 4.3 (Spine 4.2's
///   additive is another arithmetic; a 4.2 rig takes `keep_hold` and the curve), or an
///   entry playing a DragonBones clip (it takes no Spine options).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_entry_options(
    character: *mut SinewCharacter,
    track: u32,
    entry: u32,
    options: *const SinewEntryOptions,
) -> SinewStatus {
    guard(|| {
        // Every bit pattern of the struct's u32 fields is valid; each is checked below.
        let raw = read_arg(options, "options")?;
        let which = which_arg(entry)?;
        let opts = options_arg(raw)?;
        let t = track_arg(track)?;
        with(character, |s| {
            let id = entry_of(s.character.state(), t, which)?;
            s.character
                .set_entry_options(id, opts)
                .map_err(|e| match e {
                    // The two refusals of a well-formed value: a rig or entry without these
                    // options.
                    CharacterError::OutOfRange { .. } => {
                        Fail::new(SinewStatus::Unsupported, e.to_string())
                    }
                    other => char_fail(other),
                })
        })
    })
}

/// The Spine 4.3 options of `track`'s entry `entry` (a `SinewTrackEntry`) into `*out` (all
/// zero for an entry without options, such as a DragonBones one). Statuses, `*out` untouched
/// for any of them: `SINEW_STATUS_NULL_ARGUMENT` (`out` null), `SINEW_STATUS_INVALID_ARGUMENT`
/// (`entry` not 0 or 1, a track from 256 on), `SINEW_STATUS_NOT_FOUND` (an empty track).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_entry_options(
    character: *const SinewCharacter,
    track: u32,
    entry: u32,
    out: *mut SinewEntryOptions,
) -> SinewStatus {
    guard(|| {
        let which = which_arg(entry)?;
        let t = track_arg(track)?;
        with(character, |s| {
            let id = entry_of(s.character.state(), t, which)?;
            let o = s.character.entry_options(id).ok_or_else(|| {
                Fail::new(SinewStatus::NotFound, format!("track {t} has no entry"))
            })?;
            put(out, options_out(o), "out")
        })
    })
}

/// Sets the mix weight of `track`'s entry `entry` (a `SinewTrackEntry`) to `alpha` (Spine
/// `TrackEntry.alpha`, 1 when the entry starts): an entry on a higher track mixes over the
/// tracks below by it, an additive entry adds that share of its values. Any finite value
/// (Spine clamps nothing; 0 to 1 is the usual range). Statuses, nothing changed for any of
/// them: `SINEW_STATUS_INVALID_ARGUMENT` (`alpha` not finite or beyond 1e30 in magnitude,
/// `entry` not 0 or 1, a track from 256 on), `SINEW_STATUS_NOT_FOUND` (an empty track).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_entry_alpha(
    character: *mut SinewCharacter,
    track: u32,
    entry: u32,
    alpha: f64,
) -> SinewStatus {
    guard(|| {
        if !(alpha.is_finite() && alpha.abs() <= 1e30) {
            return Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!("alpha {alpha} is not finite (or beyond 1e30)"),
            ));
        }
        let which = which_arg(entry)?;
        let t = track_arg(track)?;
        with(character, |s| {
            let id = entry_of(s.character.state(), t, which)?;
            let e = s.character.state_mut().entry_mut(id).ok_or_else(|| {
                Fail::new(SinewStatus::NotFound, format!("track {t} has no entry"))
            })?;
            e.alpha = alpha;
            Ok(())
        })
    })
}

/// The mix weight (Spine `TrackEntry.alpha`) of `track`'s entry `entry` into `*out`.
/// Statuses, `*out` untouched for any of them: `SINEW_STATUS_NULL_ARGUMENT` (`out` null),
/// `SINEW_STATUS_INVALID_ARGUMENT` (`entry` not 0 or 1, a track from 256 on),
/// `SINEW_STATUS_NOT_FOUND` (an empty track).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_entry_alpha(
    character: *const SinewCharacter,
    track: u32,
    entry: u32,
    out: *mut f64,
) -> SinewStatus {
    guard(|| {
        let which = which_arg(entry)?;
        let t = track_arg(track)?;
        with(character, |s| {
            let state = s.character.state();
            let id = entry_of(state, t, which)?;
            let e = state.entry(id).ok_or_else(|| {
                Fail::new(SinewStatus::NotFound, format!("track {t} has no entry"))
            })?;
            put(out, e.alpha, "out")
        })
    })
}
