//! Whole-character settings: the skins shown, resetting to the setup pose, placement and
//! scale in world space, the skeleton's tint and how Spine physics runs.

use super::{SinewCharacter, char_fail, finite, with};
use crate::{Fail, SinewStatus, SinewStr, guard, slice_arg, str_arg};
use sinew::{Color, Physics};

/// Shows these skins combined in order (later ones win; Spine `Skin.addSkin`); `count` 0
/// shows no skin. Slots showing the old skin's attachments switch to the new one's.
/// Allocates (recomputes the update plan): call it outside the frame loop.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_skins(
    character: *mut SinewCharacter,
    names: *const SinewStr,
    count: usize,
) -> SinewStatus {
    guard(|| {
        let names = slice_arg(names, count, "names")?;
        let mut v = Vec::with_capacity(names.len());
        for (i, n) in names.iter().enumerate() {
            v.push(str_arg(n.ptr, n.len, &format!("names[{i}]"))?);
        }
        with(character, |s| s.character.set_skins(&v).map_err(char_fail))
    })
}

/// Resets bones, constraints, slots and draw order to the setup pose (`slots_only`: only
/// slots: colours, attachments, draw order).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_to_setup_pose(
    character: *mut SinewCharacter,
    slots_only: bool,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            if slots_only {
                s.character.set_slots_to_setup_pose();
            } else {
                s.character.set_to_setup_pose();
            }
            Ok(())
        })
    })
}

/// Places and scales the skeleton in world space (Spine `skeleton.x/y/scaleX/scaleY`;
/// negative scales flip).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_transform(
    character: *mut SinewCharacter,
    x: f64,
    y: f64,
    scale_x: f64,
    scale_y: f64,
) -> SinewStatus {
    guard(|| {
        for (v, w) in [
            (x, "x"),
            (y, "y"),
            (scale_x, "scale_x"),
            (scale_y, "scale_y"),
        ] {
            finite(v, w)?;
        }
        with(character, |s| {
            s.character.set_position(x, y);
            s.character.set_scale(scale_x, scale_y);
            Ok(())
        })
    })
}

/// The skeleton's tint, multiplied into every vertex colour (Spine `skeleton.color`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_color(
    character: *mut SinewCharacter,
    r: f32,
    g: f32,
    b: f32,
    a: f32,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            s.character.set_color(Color::new(r, g, b, a));
            Ok(())
        })
    })
}

/// How Spine physics constraints run: 0 none, 1 reset, 2 update (default), 3 pose.
/// `reset_now` also resets physics and jiggle on the next update (after a teleport).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_physics(
    character: *mut SinewCharacter,
    mode: u32,
    reset_now: bool,
) -> SinewStatus {
    guard(|| {
        let physics = match mode {
            0 => Physics::None,
            1 => Physics::Reset,
            2 => Physics::Update,
            3 => Physics::Pose,
            _ => {
                return Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("physics mode {mode} is not 0..3"),
                ));
            }
        };
        with(character, |s| {
            s.character.set_physics(physics);
            if reset_now {
                s.character.reset_physics();
            }
            Ok(())
        })
    })
}
