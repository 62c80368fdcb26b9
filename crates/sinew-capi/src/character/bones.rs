//! Bones from code: local poses read and held, world transforms read (one bone or all), and
//! IK constraint targets held at a world position.

use super::{
    CharState, SinewBonePose, SinewCharacter, SinewWorldTransform, char_fail, finite, key,
    not_found, with,
};
use crate::{Res, SinewStatus, guard, put, slice_arg, str_arg};
use sinew::rig::LocalPose;
use std::ffi::c_char;

fn bone_of(s: &CharState, name: &str) -> Res<sinew::BoneId> {
    key(s, name)
}

/// A bone's local pose as the animation (or code) left it.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_bone_local(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    out: *mut SinewBonePose,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let b = bone_of(s, name)?;
            let p = s
                .character
                .bone_local(b)
                .ok_or_else(|| not_found("bone", name))?;
            put(
                out,
                SinewBonePose {
                    x: p.x,
                    y: p.y,
                    rotation: p.rotation,
                    scale_x: p.scale_x,
                    scale_y: p.scale_y,
                    shear_x: p.shear_x,
                    shear_y: p.shear_y,
                },
                "out",
            )
        })
    })
}

/// Holds a bone's local pose from code: from the next update on it replaces what the
/// animation writes, every frame, until `sinew_character_clear_bone_local`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_bone_local(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    pose: *const SinewBonePose,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        let p = *slice_arg(pose, 1, "pose")?
            .first()
            .ok_or_else(|| crate::null_arg("pose"))?;
        for (v, w) in [
            (p.x, "pose.x"),
            (p.y, "pose.y"),
            (p.rotation, "pose.rotation"),
            (p.scale_x, "pose.scale_x"),
            (p.scale_y, "pose.scale_y"),
            (p.shear_x, "pose.shear_x"),
            (p.shear_y, "pose.shear_y"),
        ] {
            finite(v, w)?;
        }
        with(character, |s| {
            let b = bone_of(s, name)?;
            let local = LocalPose {
                x: p.x,
                y: p.y,
                rotation: p.rotation,
                scale_x: p.scale_x,
                scale_y: p.scale_y,
                shear_x: p.shear_x,
                shear_y: p.shear_y,
            };
            s.character.set_bone_local(b, local).map_err(char_fail)
        })
    })
}

/// Lets the animation pose the bone again.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_clear_bone_local(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let b = bone_of(s, name)?;
            s.character.clear_bone_local(b).map_err(char_fail)
        })
    })
}

/// Marks a bone as moved for the next update (DragonBones' `invalidUpdate`): a DragonBones
/// IK chain under it is solved afresh instead of from its last result. Setting or clearing
/// a bone's local pose marks it already; no effect on other rigs.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_mark_bone_moved(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let b = bone_of(s, name)?;
            s.character.mark_bone_moved(b).map_err(char_fail)
        })
    })
}

fn world_of(w: sinew::WorldTransform) -> SinewWorldTransform {
    SinewWorldTransform {
        a: w.a,
        b: w.b,
        c: w.c,
        d: w.d,
        x: w.x,
        y: w.y,
    }
}

/// A bone's world transform after the last update.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_bone_world(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    out: *mut SinewWorldTransform,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let b = bone_of(s, name)?;
            let w = s
                .character
                .bone_world(b)
                .ok_or_else(|| not_found("bone", name))?;
            put(out, world_of(w), "out")
        })
    })
}

/// Every bone's world transform, in bone order, into `buf` (capacity `cap` transforms);
/// `*len` is the bone count. Short buffer: `SINEW_STATUS_BUFFER_TOO_SMALL`, nothing copied.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_bone_worlds(
    character: *const SinewCharacter,
    buf: *mut SinewWorldTransform,
    cap: usize,
    len: *mut usize,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let world = &s.character.instance().world;
            put(len, world.len(), "len")?;
            if world.len() > cap {
                return Err(crate::too_small("buf", world.len(), cap));
            }
            let out = crate::out_slice(buf, cap, "buf")?;
            for (o, w) in out.iter_mut().zip(world) {
                *o = world_of(*w);
            }
            Ok(())
        })
    })
}

fn ik_of(s: &CharState, name: &str) -> Res<sinew::IkId> {
    key(s, name)
}

/// Moves IK constraint `name`'s target bone to a world position, held every frame until
/// `sinew_character_clear_ik_target`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_ik_target(
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
            let k = ik_of(s, name)?;
            s.character.set_ik_target(k, x, y).map_err(char_fail)
        })
    })
}

/// Lets the animation place the IK target again.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_clear_ik_target(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let k = ik_of(s, name)?;
            s.character.clear_ik_target(k).map_err(char_fail)
        })
    })
}
