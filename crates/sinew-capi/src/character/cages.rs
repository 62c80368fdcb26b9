//! A character's cages (declared in the rig's extras, `docs/EXTRAS.md` "Cages", or bound
//! by code): how many, found by name, their points as the last update left them, and the
//! points of a host-driven cage written by the host before each update; and the host's
//! weights of the extras' example shapes. Wraps `Character::{cage_count, find_cage,
//! cage_name, cage_world, cage_points_mut, set_shape_weight}`.

use super::{SinewCharacter, char_fail, with};
use crate::{Fail, Res, SinewStatus, SinewStringView, copy_out, guard, put, slice_arg, str_arg};
use std::ffi::c_char;

/// `SINEW_STATUS_INVALID_ARGUMENT` for a cage index out of range.
fn out_of_range(index: u32, count: usize) -> Fail {
    Fail::new(
        SinewStatus::InvalidArgument,
        format!("cage index {index} out of range ({count} cages)"),
    )
}

/// How many cages the character runs (those of its rig's extras first, in file order, then
/// those bound by code), into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_cage_count(
    character: *mut SinewCharacter,
    out: *mut u32,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let n = s.character.cage_count();
            put(out, u32::try_from(n).unwrap_or(u32::MAX), "out")
        })
    })
}

/// The index of the cage called `name` (declared in the rig's extras) into `*out`; an
/// unknown name is `SINEW_STATUS_NOT_FOUND`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_find_cage(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    out: *mut u32,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let i = s.character.find_cage(name).ok_or_else(|| {
                Fail::new(
                    SinewStatus::NotFound,
                    format!("the character has no cage `{name}`"),
                )
            })?;
            put(out, i as u32, "out")
        })
    })
}

/// The name of cage `index` into `*out` (empty for a cage bound by code; valid while the
/// character lives).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_cage_name(
    character: *mut SinewCharacter,
    index: u32,
    out: *mut SinewStringView,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let c = &s.character;
            if index as usize >= c.cage_count() {
                return Err(out_of_range(index, c.cage_count()));
            }
            let name = c.cage_name(index as usize).unwrap_or("");
            put(out, SinewStringView::of(name), "out")
        })
    })
}

/// Cage `index`'s points as the last update left them (x, y pairs, the world frame of the
/// character's world vertices) into `points` (capacity `cap` floats; `*len` gets the count
/// needed: `SINEW_STATUS_BUFFER_TOO_SMALL` when short). `SINEW_STATUS_NOT_FOUND` while the
/// cage did not run (its slot does not show its mesh, or no update yet).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_cage_points(
    character: *mut SinewCharacter,
    index: u32,
    points: *mut f32,
    cap: usize,
    len: *mut usize,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let c = &s.character;
            if index as usize >= c.cage_count() {
                return Err(out_of_range(index, c.cage_count()));
            }
            let (_, pts, _) = c.cage_world(index as usize).ok_or_else(|| {
                Fail::new(
                    SinewStatus::NotFound,
                    format!("cage {index} did not run in the last update (its mesh not shown)"),
                )
            })?;
            copy_out(pts, points, cap, len, "points")
        })
    })
}

/// Writes the points of host-driven cage `index` (`"drive": "host"` in the extras, or
/// bound by code with an external source): `count` floats, x, y pairs in the setup pose's
/// world frame (the frame it was bound in), used from the next update on. A count other
/// than the cage's, or a non-finite value, is `SINEW_STATUS_INVALID_ARGUMENT` (nothing
/// written). Points of bone- or mesh-driven cages are theirs: writing them changes nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_cage_points(
    character: *mut SinewCharacter,
    index: u32,
    points: *const f32,
    count: usize,
) -> SinewStatus {
    guard(|| {
        let src = slice_arg(points, count, "points")?;
        with(character, |s| {
            let n = s.character.cage_count();
            let dst = s
                .character
                .cage_points_mut(index as usize)
                .ok_or_else(|| out_of_range(index, n))?;
            set_points(dst, src)
        })
    })
}

fn set_points(dst: &mut [f32], src: &[f32]) -> Res {
    if src.len() != dst.len() {
        return Err(Fail::new(
            SinewStatus::InvalidArgument,
            format!(
                "points: {} floats for a cage of {} (x, y per point)",
                src.len(),
                dst.len()
            ),
        ));
    }
    if let Some(i) = src.iter().position(|v| !(v.is_finite() && v.abs() < 1e30)) {
        return Err(char_fail(sinew::CharacterError::NotFinite {
            what: if i % 2 == 0 {
                "cage point x"
            } else {
                "cage point y"
            },
        }));
    }
    dst.copy_from_slice(src);
    Ok(())
}

/// Sets the host's weight of example `example` (a name) of shape set `set` (a name,
/// declared in the rig's extras `shapes`) to `weight` in -10..10; the animations' weight
/// tracks add to it from the next update on. An unknown set or example is
/// `SINEW_STATUS_NOT_FOUND`; a weight out of range or not finite
/// `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_shape_weight(
    character: *mut SinewCharacter,
    set: *const c_char,
    set_len: usize,
    example: *const c_char,
    example_len: usize,
    weight: f64,
) -> SinewStatus {
    guard(|| {
        let set = str_arg(set, set_len, "set")?;
        let example = str_arg(example, example_len, "example")?;
        with(character, |s| {
            let not_found = |m: String| Fail::new(SinewStatus::NotFound, m);
            let sr = s
                .character
                .shape_rig()
                .ok_or_else(|| not_found("the character has no example shapes".into()))?;
            let i = sr
                .find(set)
                .ok_or_else(|| not_found(format!("no shape set `{set}`")))?;
            let k = sr.example(i, example).ok_or_else(|| {
                not_found(format!("shape set `{set}` has no example `{example}`"))
            })?;
            if !s.character.set_shape_weight(i, k, weight) {
                return Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("weight {weight}: expected a finite weight in -10..10"),
                ));
            }
            Ok(())
        })
    })
}
