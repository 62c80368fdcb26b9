//! Spine 4.3 sliders and the skeleton's wind and gravity directions from code: how many
//! sliders a character has, one found by name (its index, so a host driving a slider each
//! frame resolves the name once), its name, its time and mix read and written; and the
//! directions physics constraints' wind blows and gravity pulls. Wraps
//! `sinew::Character::{find_slider, slider, set_slider, physics_directions,
//! set_physics_directions}`. A 4.2 rig, a DragonBones armature or an Inochi2D puppet has no
//! slider (count 0); the directions apply to every rig with physics constraints.

use super::{SinewCharacter, char_fail, key, with};
use crate::{Fail, Res, SinewStatus, SinewStringView, guard, put, slice_arg, str_arg};
use sinew::SliderId;
use sinew::rig::SliderPose;
use std::ffi::c_char;

/// A Spine 4.3 slider's pose (Spine `SliderPose.time`, `mix`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewSliderPose {
    /// Time in the slider's animation, seconds.
    pub time: f64,
    /// Mix, 0 (the pose is left alone) to 1.
    pub mix: f64,
}

/// The directions physics constraints' wind blows and gravity pulls (Spine 4.3
/// `Skeleton.windX/windY`, `gravityX/gravityY`; x right, y down); each constraint's `wind`
/// and `gravity` scale them. Defaults `(1, 0)` and `(0, 1)`: Spine 4.2's fixed directions.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewPhysicsDirections {
    /// Wind direction, x.
    pub wind_x: f64,
    /// Wind direction, y.
    pub wind_y: f64,
    /// Gravity direction, x.
    pub gravity_x: f64,
    /// Gravity direction, y.
    pub gravity_y: f64,
}

/// The slider at `index`, or `SINEW_STATUS_INVALID_ARGUMENT` naming the count: checked here,
/// before the id is made, so an index past the id's range cannot wrap onto a real slider.
fn slider_id(character: &sinew::Character, index: u32) -> Res<SliderId> {
    let count = character.rig().sliders.len();
    match u16::try_from(index) {
        Ok(i) if usize::from(i) < count => Ok(SliderId(i)),
        _ => Err(Fail::new(
            SinewStatus::InvalidArgument,
            format!("slider index {index} out of range ({count} sliders)"),
        )),
    }
}

/// How many Spine 4.3 sliders the character's rig has (0 for any other rig), into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_slider_count(
    character: *const SinewCharacter,
    out: *mut u32,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let n = s.character.rig().sliders.len();
            put(out, u32::try_from(n).unwrap_or(u32::MAX), "out")
        })
    })
}

/// The index of the slider called `name` into `*out` (for `sinew_character_slider` and
/// `sinew_character_set_slider`); an unknown name is `SINEW_STATUS_NOT_FOUND`, its message
/// listing the rig's sliders.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_find_slider(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    out: *mut u32,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let id = key::<SliderId>(s, name)?;
            put(out, id.index() as u32, "out")
        })
    })
}

/// The name of slider `index` into `*out` (valid while the character lives).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_slider_name(
    character: *const SinewCharacter,
    index: u32,
    out: *mut SinewStringView,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let id = slider_id(&s.character, index)?;
            let rig = s.character.rig();
            let name = rig.sliders.get(id.index()).map_or("", |d| d.name.as_str());
            put(out, SinewStringView::of(name), "out")
        })
    })
}

/// Slider `index`'s current time and mix into `*out`: what the setup pose, an animation's
/// slider timelines, the driving bone (recomputed each update) or
/// `sinew_character_set_slider` left.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_slider(
    character: *const SinewCharacter,
    index: u32,
    out: *mut SinewSliderPose,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let id = slider_id(&s.character, index)?;
            let p = s.character.slider(id).ok_or_else(|| {
                Fail::new(SinewStatus::NotFound, format!("slider {index} not found"))
            })?;
            put(
                out,
                SinewSliderPose {
                    time: p.time,
                    mix: p.mix,
                },
                "out",
            )
        })
    })
}

/// Sets slider `index`'s time and mix (Spine `slider.pose.time`, `mix` between frames): held
/// until an animation keys the slider or the setup pose is restored; a slider driven by a
/// bone recomputes its time each update. Each value must be finite and under 1e30 in
/// magnitude (`SINEW_STATUS_INVALID_ARGUMENT`, nothing changed).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_slider(
    character: *mut SinewCharacter,
    index: u32,
    value: *const SinewSliderPose,
) -> SinewStatus {
    guard(|| {
        let v = read(value)?;
        with(character, |s| {
            let id = slider_id(&s.character, index)?;
            let pose = SliderPose {
                time: v.time,
                mix: v.mix,
            };
            s.character.set_slider(id, pose).map_err(char_fail)
        })
    })
}

/// The directions physics constraints' wind blows and gravity pulls into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_physics_directions(
    character: *const SinewCharacter,
    out: *mut SinewPhysicsDirections,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let ([wind_x, wind_y], [gravity_x, gravity_y]) = s.character.physics_directions();
            let v = SinewPhysicsDirections {
                wind_x,
                wind_y,
                gravity_x,
                gravity_y,
            };
            put(out, v, "out")
        })
    })
}

/// Sets the directions physics constraints' wind blows and gravity pulls (Spine 4.3
/// `skeleton.windX = ...`, for rigs of either version), from the next update on; an updraft
/// is wind `(0, -1)`. Each component must be finite and under 1e30 in magnitude
/// (`SINEW_STATUS_INVALID_ARGUMENT`, nothing changed).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_physics_directions(
    character: *mut SinewCharacter,
    value: *const SinewPhysicsDirections,
) -> SinewStatus {
    guard(|| {
        let v = read(value)?;
        with(character, |s| {
            s.character
                .set_physics_directions([v.wind_x, v.wind_y], [v.gravity_x, v.gravity_y])
                .map_err(char_fail)
        })
    })
}

/// The value behind a setter's `value` pointer (null: `SINEW_STATUS_NULL_ARGUMENT`).
fn read<T: Copy>(value: *const T) -> Res<T> {
    slice_arg(value, 1, "value")?
        .first()
        .copied()
        .ok_or_else(|| crate::null_arg("value"))
}
