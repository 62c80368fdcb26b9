//! DragonBones 5.x armatures (`*_ske.json` + `*_tex.json`) as rigs: from paths or from
//! memory, both through `sinew_formats::load_bytes`, so both give the same rig.
//!
//! A character of a DragonBones rig plays as the Rust facade does: `sinew_character_play`
//! (Rust `Character::play` / `fade_in`) applies the file's `playTimes` and `fadeInTime` (or
//! the counts given) and holds the end; `sinew_character_set_animation` (Rust
//! `Character::set_animation`) plays it forever when looping, else once.

use crate::rig::{Load, SinewRig, check_out, expect, load_memory, load_path, opt_str, register};
use crate::{SinewStatus, guard, str_arg};
use sinew_formats::Format;
use std::ffi::c_char;

/// The armature name argument: empty means the file's default armature.
fn armature_arg<'a>(ptr: *const c_char, len: usize) -> crate::Res<Option<&'a str>> {
    let s = str_arg(ptr, len, "armature")?;
    Ok((!s.is_empty()).then_some(s))
}

/// Loads one armature of a DragonBones 5.x skeleton: `ske_path` (the `*_ske.json`),
/// `tex_path` (its `*_tex.json`, giving the page image `imagePath` and the texture
/// coordinates; length 0 loads untextured) and `armature` (length 0: the file's default
/// armature, else the first). The page's size comes from the tex file, else from the PNG
/// header beside it. Writes the new rig to `*out`. `SINEW_STATUS_IO` for a file that cannot
/// be read, `SINEW_STATUS_LOAD_FAILED` for bad content, an unsupported version, an unknown
/// armature or a display the atlas lacks (the last error names the file and the JSON path).
/// Render positions are y up, as for every format. Play an animation the DragonBones way
/// (its `playTimes`, `fadeInTime`, the held end) with `sinew_character_play`;
/// `sinew_character_set_animation` plays it forever when looping, else once.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_load_dragonbones(
    ske_path: *const c_char,
    ske_path_len: usize,
    tex_path: *const c_char,
    tex_path_len: usize,
    armature: *const c_char,
    armature_len: usize,
    out: *mut *mut SinewRig,
) -> SinewStatus {
    guard(|| {
        check_out(out)?;
        let ske = str_arg(ske_path, ske_path_len, "ske_path")?;
        let load = Load {
            atlas: opt_str(tex_path, tex_path_len, "tex_path")?,
            armature: armature_arg(armature, armature_len)?,
            ..Load::default()
        };
        register(expect(load_path(ske, &load)?, &[Format::DragonBones])?, out)
    })
}

/// `sinew_rig_load_dragonbones` from memory: the skeleton's JSON text, the tex JSON text
/// (length 0: untextured; it must give the page `width` and `height`, as there is no PNG
/// to read them from) and the armature name (length 0: the default). Error messages name
/// the buffers `<ske>` and `<tex>`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_load_dragonbones_memory(
    ske_text: *const c_char,
    ske_text_len: usize,
    tex_text: *const c_char,
    tex_text_len: usize,
    armature: *const c_char,
    armature_len: usize,
    out: *mut *mut SinewRig,
) -> SinewStatus {
    guard(|| {
        check_out(out)?;
        let ske = str_arg(ske_text, ske_text_len, "ske_text")?;
        let tex = str_arg(tex_text, tex_text_len, "tex_text")?;
        let load = Load {
            atlas: (!tex.is_empty()).then_some("<tex>"),
            armature: armature_arg(armature, armature_len)?,
            ..Load::default()
        };
        let files = [("<tex>", tex.as_bytes())];
        let asset = load_memory("<ske>", ske.as_bytes(), &files, &load)?;
        register(expect(asset, &[Format::DragonBones])?, out)
    })
}
