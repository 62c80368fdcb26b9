//! DragonBones 5.x armatures (`*_ske.json` + `*_tex.json`) as rigs: from paths through
//! `sinew_formats::load_dragonbones`, or from memory through the same parser, atlas reader
//! and build steps, so both give the same rig.
//!
//! A character of a DragonBones rig loops every animation (`sinew_character_set_animation`'s
//! `looping`); the file's `playTimes` is not applied (as a plain `sinew::Character`).

use crate::rig::{MemoryRig, SinewRig, check_out, load_fail, opt_path, register, register_memory};
use crate::{Fail, SinewStatus, guard, str_arg};
use sinew::draw::DrawSetup;
use sinew_formats::LoadError;
use std::ffi::c_char;
use std::path::Path;

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
/// Render positions are y up, as for every format. Every animation loops (`playTimes` is
/// not applied).
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
        let tex = opt_path(tex_path, tex_path_len, "tex_path")?;
        let armature = armature_arg(armature, armature_len)?;
        let (asset, _) =
            sinew_formats::load_dragonbones(Path::new(ske), tex, armature).map_err(load_fail)?;
        register(asset, out)
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
        let armature = armature_arg(armature, armature_len)?;
        let tex = (!tex.is_empty()).then_some(tex);
        let db = sinew_formats::dragonbones::parse_dragonbones(
            ske,
            "<ske>",
            tex.map(|t| (t, "<tex>")),
            armature,
        )
        .map_err(load_fail)?;
        let mut rig = sinew::build::build_rig(&db.raw)
            .map_err(|e| Fail::new(SinewStatus::LoadFailed, format!("<ske>: invalid rig: {e}")))?;
        // As the path loader: DragonBones poses use exact trigonometry.
        rig.exact_angles = true;
        let atlas = match tex {
            None => None,
            Some(text) => {
                let a = sinew_formats::dragonbones::parse_tex_atlas(text, "<tex>", "", |_| None)
                    .map_err(load_fail)?;
                sinew_formats::bind_atlas(&mut rig, &a).map_err(|e| {
                    load_fail(match e {
                        LoadError::MissingRegion { region, attachment } => {
                            LoadError::AtlasMissing {
                                atlas: "<tex>".into(),
                                skeleton: "<ske>".into(),
                                region,
                                attachment,
                            }
                        }
                        other => other,
                    })
                })?;
                Some(a)
            }
        };
        let m = MemoryRig {
            rig,
            atlas,
            textures: 0,
            jiggle: (None, None),
            // DragonBones data is y down; the draw list flips it to y up.
            draw: DrawSetup {
                y_down: true,
                ..DrawSetup::default()
            },
            param_animations: Vec::new(),
        };
        register_memory(m, false, out)
    })
}
