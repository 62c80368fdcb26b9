//! A character's parameters: setting and reading their values, and playing the puppet's
//! parameter animations (Inochi2D).

use super::{SinewCharacter, char_fail, finite, key, not_found, with};
use crate::{SinewStatus, guard, put, str_arg};
use std::ffi::c_char;

/// Sets parameter `name` to (x, y) (y ignored for one-axis parameters; clamped to the range
/// on use). With a parameter animation playing this is the base value it plays on.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_param(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    x: f64,
    y: f64,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        let (x, y) = (finite(x, "x")?, finite(y, "y")?);
        with(character, |s| {
            s.character.set_param(name, [x, y]).map_err(char_fail)
        })
    })
}

/// Parameter `name`'s current value (after the last update).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_get_param(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    x: *mut f64,
    y: *mut f64,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let id = key::<sinew::ParamId>(s, name)?;
            let v = s
                .character
                .param(id)
                .ok_or_else(|| not_found("parameter", name))?;
            put(x, v[0], "x")?;
            put(y, v[1], "y")
        })
    })
}

/// Plays the puppet's parameter animation `name` from its start (Inochi2D).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_play_param_animation(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    looping: bool,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            s.character
                .play_param_animation(name, looping)
                .map_err(char_fail)
        })
    })
}
