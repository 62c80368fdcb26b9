//! Constraint mixes from code, by constraint name: an IK constraint's mix, softness, bend
//! direction, compress and stretch; a transform constraint's mixes; a path constraint's
//! position, spacing and mixes; a physics constraint's parameters. Each kind has a getter
//! and a setter wrapping `sinew::Character::{ik, set_ik, transform_mix, set_transform_mix,
//! path_mix, set_path_mix, physics_params, set_physics_params}`; names resolve through the
//! facade, so an unknown one's error lists the rig's names of that kind.

use super::{CharState, SinewCharacter, char_fail, key, with};
use crate::{Res, SinewStatus, guard, put, slice_arg, str_arg};
use sinew::instance::IkState;
use sinew::rig::{PathMix, PhysicsParams, TransformMix};
use sinew::{IkId, PathId, PhysicsId, TransformId};
use std::ffi::c_char;

/// An IK constraint's state (Spine `IkConstraint.mix`, `softness`, `bendDirection`,
/// `compress`, `stretch`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewIkState {
    /// Mix, 0 (the animated pose) to 1 (fully constrained).
    pub mix: f64,
    /// Softness (world units).
    pub softness: f64,
    /// Bend direction: 1 or -1 (anything else is refused by the setter).
    pub bend_direction: i32,
    /// Compress: 1 on, 0 off (the setter takes any non-zero value as on).
    pub compress: u32,
    /// Stretch: 1 on, 0 off (the setter takes any non-zero value as on).
    pub stretch: u32,
}

/// A transform constraint's mixes (Spine `mixRotate`, `mixX`, `mixY`, `mixScaleX`,
/// `mixScaleY`, `mixShearY`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewTransformMix {
    /// Rotation mix.
    pub rotate: f64,
    /// X mix.
    pub x: f64,
    /// Y mix.
    pub y: f64,
    /// Scale x mix.
    pub scale_x: f64,
    /// Scale y mix.
    pub scale_y: f64,
    /// Shear y mix.
    pub shear_y: f64,
}

/// A path constraint's position, spacing and mixes (Spine `position`, `spacing`,
/// `mixRotate`, `mixX`, `mixY`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewPathMix {
    /// Position along the path.
    pub position: f64,
    /// Spacing.
    pub spacing: f64,
    /// Rotation mix.
    pub mix_rotate: f64,
    /// X mix.
    pub mix_x: f64,
    /// Y mix.
    pub mix_y: f64,
}

/// A physics constraint's parameters (Spine `PhysicsConstraint.inertia`, `strength`,
/// `damping`, `massInverse`, `wind`, `gravity`, `mix`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewPhysicsParams {
    /// Inertia.
    pub inertia: f64,
    /// Strength.
    pub strength: f64,
    /// Damping.
    pub damping: f64,
    /// Inverse mass (0 or more).
    pub mass_inverse: f64,
    /// Wind.
    pub wind: f64,
    /// Gravity.
    pub gravity: f64,
    /// Mix.
    pub mix: f64,
}

/// The value behind a setter's `value` pointer (null: `SINEW_STATUS_NULL_ARGUMENT`).
fn read<T: Copy>(value: *const T) -> Res<T> {
    slice_arg(value, 1, "value")?
        .first()
        .copied()
        .ok_or_else(|| crate::null_arg("value"))
}

/// Runs `f` on the character with the constraint `name` resolved by the facade.
fn on_named<K: Copy, T>(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    f: impl FnOnce(&mut CharState, K) -> Res<T>,
) -> Res<T>
where
    for<'a> &'a str: sinew::character::Key<K>,
{
    let name = str_arg(name, name_len, "name")?;
    with(character, |s| {
        let id = key::<K>(s, name)?;
        f(s, id)
    })
}

/// A getter's "missing" case: the facade returns `None` only for an id it refused, which
/// `key` already reported; kept as an error rather than a panic.
fn gone(kind: &str) -> crate::Fail {
    crate::Fail::new(
        SinewStatus::NotFound,
        format!("{kind} is not one of this rig's"),
    )
}

/// IK constraint `name`'s current state into `*out` (after the last update: what the
/// animation or code set).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_ik(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    out: *mut SinewIkState,
) -> SinewStatus {
    guard(|| {
        on_named::<IkId, _>(character, name, name_len, |s, id| {
            let k = s.character.ik(id).ok_or_else(|| gone("IK constraint"))?;
            let v = SinewIkState {
                mix: k.mix,
                softness: k.softness,
                bend_direction: i32::from(k.bend_direction),
                compress: u32::from(k.compress),
                stretch: u32::from(k.stretch),
            };
            put(out, v, "out")
        })
    })
}

/// Sets IK constraint `name`'s state (Spine `ik.mix = ...` between frames): it holds until
/// an animation keys the constraint or the setup pose is restored. `mix` and `softness`
/// must be finite and under 1e30 in magnitude and `bend_direction` 1 or -1
/// (`SINEW_STATUS_INVALID_ARGUMENT`, nothing changed).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_ik(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    value: *const SinewIkState,
) -> SinewStatus {
    guard(|| {
        let v = read(value)?;
        on_named::<IkId, _>(character, name, name_len, |s, id| {
            // Outside i8 cannot be 1 or -1: the facade refuses the clamped value the same way.
            let bend = v.bend_direction.clamp(-2, 2) as i8;
            let state = IkState {
                mix: v.mix,
                softness: v.softness,
                bend_direction: bend,
                compress: v.compress != 0,
                stretch: v.stretch != 0,
            };
            s.character.set_ik(id, state).map_err(char_fail)
        })
    })
}

/// Transform constraint `name`'s current mixes into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_transform_mix(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    out: *mut SinewTransformMix,
) -> SinewStatus {
    guard(|| {
        on_named::<TransformId, _>(character, name, name_len, |s, id| {
            let m = s
                .character
                .transform_mix(id)
                .ok_or_else(|| gone("transform constraint"))?;
            let v = SinewTransformMix {
                rotate: m.rotate,
                x: m.x,
                y: m.y,
                scale_x: m.scale_x,
                scale_y: m.scale_y,
                shear_y: m.shear_y,
            };
            put(out, v, "out")
        })
    })
}

/// Sets transform constraint `name`'s mixes (each finite and under 1e30 in magnitude, else
/// `SINEW_STATUS_INVALID_ARGUMENT`); held until an animation keys the constraint.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_transform_mix(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    value: *const SinewTransformMix,
) -> SinewStatus {
    guard(|| {
        let v = read(value)?;
        on_named::<TransformId, _>(character, name, name_len, |s, id| {
            let mix = TransformMix {
                rotate: v.rotate,
                x: v.x,
                y: v.y,
                scale_x: v.scale_x,
                scale_y: v.scale_y,
                shear_y: v.shear_y,
            };
            s.character.set_transform_mix(id, mix).map_err(char_fail)
        })
    })
}

/// Path constraint `name`'s current position, spacing and mixes into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_path_mix(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    out: *mut SinewPathMix,
) -> SinewStatus {
    guard(|| {
        on_named::<PathId, _>(character, name, name_len, |s, id| {
            let m = s
                .character
                .path_mix(id)
                .ok_or_else(|| gone("path constraint"))?;
            let v = SinewPathMix {
                position: m.position,
                spacing: m.spacing,
                mix_rotate: m.mix_rotate,
                mix_x: m.mix_x,
                mix_y: m.mix_y,
            };
            put(out, v, "out")
        })
    })
}

/// Sets path constraint `name`'s position, spacing and mixes (each finite and under 1e30 in
/// magnitude, else `SINEW_STATUS_INVALID_ARGUMENT`); held until an animation keys it.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_path_mix(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    value: *const SinewPathMix,
) -> SinewStatus {
    guard(|| {
        let v = read(value)?;
        on_named::<PathId, _>(character, name, name_len, |s, id| {
            let mix = PathMix {
                position: v.position,
                spacing: v.spacing,
                mix_rotate: v.mix_rotate,
                mix_x: v.mix_x,
                mix_y: v.mix_y,
            };
            s.character.set_path_mix(id, mix).map_err(char_fail)
        })
    })
}

/// Physics constraint `name`'s current parameters into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_physics_params(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    out: *mut SinewPhysicsParams,
) -> SinewStatus {
    guard(|| {
        on_named::<PhysicsId, _>(character, name, name_len, |s, id| {
            let p = s
                .character
                .physics_params(id)
                .ok_or_else(|| gone("physics constraint"))?;
            let v = SinewPhysicsParams {
                inertia: p.inertia,
                strength: p.strength,
                damping: p.damping,
                mass_inverse: p.mass_inverse,
                wind: p.wind,
                gravity: p.gravity,
                mix: p.mix,
            };
            put(out, v, "out")
        })
    })
}

/// Sets physics constraint `name`'s parameters (each finite and under 1e30 in magnitude,
/// `mass_inverse` not negative, else `SINEW_STATUS_INVALID_ARGUMENT`); held until an
/// animation keys them.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_physics_params(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    value: *const SinewPhysicsParams,
) -> SinewStatus {
    guard(|| {
        let v = read(value)?;
        on_named::<PhysicsId, _>(character, name, name_len, |s, id| {
            let p = PhysicsParams {
                inertia: v.inertia,
                strength: v.strength,
                damping: v.damping,
                mass_inverse: v.mass_inverse,
                wind: v.wind,
                gravity: v.gravity,
                mix: v.mix,
            };
            s.character.set_physics_params(id, p).map_err(char_fail)
        })
    })
}
