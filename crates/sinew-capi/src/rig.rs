//! Rigs: loaded once (from files or memory), immutable, shared by characters and threads.

use crate::handle::{Registry, TAG_RIG, handle, raw};
use crate::{Fail, Res, SinewStatus, SinewStringView, bytes_arg, guard, put, str_arg};
use sinew::params::inochi_clip::ParamAnimation;
use sinew_formats::budget::Budgets;
use sinew_formats::{Asset, Companion, Format, LoadError, LoadOptions};
use std::ffi::c_char;
use std::path::Path;
use std::sync::Arc;

/// A loaded rig (Spine skeleton + atlas, Inochi2D puppet or DragonBones armature) with its
/// extras: the shared, immutable half of characters. Opaque; handles follow the rules of the
/// header's preamble. Thread-safe: share it read-only across threads.
pub struct SinewRig {
    _opaque: [u8; 0],
}

/// One texture page: the host maps it to its own texture by `name`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SinewPageInfo {
    /// The image file name the atlas gives (Spine), or `texture-N` (Inochi2D: the puppet's
    /// N-th embedded texture).
    pub name: SinewStringView,
    /// Width in pixels (0 when unknown).
    pub width: u32,
    /// Height in pixels (0 when unknown).
    pub height: u32,
    /// 1 when the page's texels are premultiplied by alpha (the atlas `pma` flag; Inochi2D
    /// textures are straight, 0). Batches on the page carry the same flag.
    pub premultiplied_alpha: u32,
}

/// Sizes of a rig.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct SinewRigInfo {
    /// Bones.
    pub bones: u32,
    /// Slots.
    pub slots: u32,
    /// Animations (Spine clips).
    pub animations: u32,
    /// Parameter animations (Inochi2D).
    pub param_animations: u32,
    /// Skins.
    pub skins: u32,
    /// Parameters.
    pub params: u32,
    /// IK constraints.
    pub ik_constraints: u32,
    /// Texture pages.
    pub pages: u32,
    /// 1 for an Inochi2D puppet, 0 for a Spine skeleton.
    pub is_puppet: u32,
}

/// A parameter with its range (puppets).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SinewParamInfo {
    /// Its name.
    pub name: SinewStringView,
    /// 2 for an x, y parameter, 1 for x only.
    pub axes: u32,
    /// Minimum per axis.
    pub min: [f64; 2],
    /// Maximum per axis.
    pub max: [f64; 2],
    /// Default per axis.
    pub default_value: [f64; 2],
}

pub(crate) struct PageData {
    pub name: String,
    pub width: u32,
    pub height: u32,
    pub pma: bool,
}

/// What a rig handle holds: the loaders' `Asset` (from paths or memory alike: both load
/// through `sinew_formats::load_bytes`) and what the ABI reads of it.
pub(crate) struct RigObj {
    pub rig: Arc<sinew::Rig>,
    pub param_animations: Arc<[ParamAnimation]>,
    pub is_puppet: bool,
    pub pages: Vec<PageData>,
    asset: Box<Asset>,
}

impl RigObj {
    /// A new character of the rig with its jiggle bones, drawing details and parameter
    /// animations attached (`Asset::character`).
    pub(crate) fn character(&self) -> sinew::Character {
        self.asset.character()
    }

    /// The jiggle bones of the rig's extras, attached to each new character.
    pub(crate) fn jiggle(&self) -> Option<Arc<sinew::physics::jiggle::JiggleRig>> {
        self.asset.jiggle.clone()
    }
}

pub(crate) static RIGS: Registry<RigObj> = Registry::new(TAG_RIG, "rig");

pub(crate) fn rig_obj(rig: *const SinewRig) -> Res<Arc<RigObj>> {
    RIGS.get(raw(rig))
}

pub(crate) fn load_fail(e: LoadError) -> Fail {
    let status = match e {
        LoadError::Io { .. } | LoadError::NotAFile { .. } => SinewStatus::Io,
        _ => SinewStatus::LoadFailed,
    };
    Fail::new(status, e.to_string())
}

/// What one ABI load asks for: the companions by the host's paths (files) or names (memory).
#[derive(Default)]
pub(crate) struct Load<'a> {
    pub atlas: Option<&'a str>,
    pub extras: Option<&'a str>,
    pub physics3: Option<&'a str>,
    pub armature: Option<&'a str>,
}

impl Load<'_> {
    /// The options, each companion named by `name` (`None`: none); no page images (the host
    /// loads its own textures by page name).
    fn options(&self, mut name: impl FnMut(&str) -> String) -> LoadOptions {
        let mut named = |c: Option<&str>| match c {
            Some(c) => Companion::Named(name(c)),
            None => Companion::Without,
        };
        LoadOptions {
            atlas: named(self.atlas),
            extras: named(self.extras),
            physics3: named(self.physics3),
            armature: self.armature.map(str::to_owned),
            textures: false,
            ..LoadOptions::default()
        }
    }
}

/// Loads the file at `path` with the companions `load` names by path (as the host gives
/// them: relative to the current folder), through `sinew_formats::load_bytes`.
pub(crate) fn load_path(path: &str, load: &Load<'_>) -> Res<Asset> {
    let main = Path::new(path);
    let files = sinew_formats::FileCompanions::beside(main, Budgets::DEFAULT);
    let options = load.options(|p| files.given(Path::new(p)));
    let bytes = files.read_main().map_err(load_fail)?;
    sinew_formats::load_bytes(&files.main_name(), &bytes, &files, &options).map_err(load_fail)
}

/// Loads `main` (named `name` in errors) from memory, its companions the `files` (name,
/// bytes) that `load` names; nothing else is fetched and no file is read.
pub(crate) fn load_memory(
    name: &str,
    main: &[u8],
    files: &[(&str, &[u8])],
    load: &Load<'_>,
) -> Res<Asset> {
    let options = load.options(str::to_owned);
    let companions = |want: &str| {
        files
            .iter()
            .find(|(n, _)| *n == want)
            .map(|(_, b)| b.to_vec())
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
    };
    sinew_formats::load_bytes(name, main, &companions, &options).map_err(load_fail)
}

fn pages_of(atlas: Option<&sinew_formats::atlas::Atlas>, textures: usize) -> Vec<PageData> {
    match atlas {
        Some(atlas) => atlas
            .pages
            .iter()
            .map(|p| PageData {
                name: p.name.clone(),
                width: p.width,
                height: p.height,
                pma: p.pma,
            })
            .collect(),
        None => (0..textures)
            .map(|i| PageData {
                name: format!("texture-{i}"),
                width: 0,
                height: 0,
                pma: false,
            })
            .collect(),
    }
}

pub(crate) fn register(asset: Asset, out: *mut *mut SinewRig) -> Res {
    let textures = asset.puppet.as_ref().map_or(0, |p| p.textures.len());
    let obj = RigObj {
        rig: asset.rig.clone(),
        param_animations: asset.param_animations.clone(),
        is_puppet: asset.puppet.is_some(),
        pages: pages_of(asset.atlas.as_ref(), textures),
        asset: Box::new(asset),
    };
    let h = RIGS.insert(obj)?;
    put(out, handle(h), "out")
}

pub(crate) fn check_out(out: *mut *mut SinewRig) -> Res {
    if out.is_null() {
        return Err(crate::null_arg("out"));
    }
    Ok(())
}

/// Loads a Spine 4.2 skeleton file (JSON or binary `.skel`, told apart by content) with its
/// `.atlas` file and, optionally, a rig-extras JSON file (jiggle bones). Empty (length 0)
/// `atlas_path` loads untextured; empty `extras_path` loads none. Writes the new rig to
/// `*out`. `SINEW_STATUS_IO` for a file that cannot be read,
/// `SINEW_STATUS_LOAD_FAILED` for bad content (the last error names file, JSON path, name).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_load_spine(
    skeleton_path: *const c_char,
    skeleton_path_len: usize,
    atlas_path: *const c_char,
    atlas_path_len: usize,
    extras_path: *const c_char,
    extras_path_len: usize,
    out: *mut *mut SinewRig,
) -> SinewStatus {
    guard(|| {
        check_out(out)?;
        let skel = str_arg(skeleton_path, skeleton_path_len, "skeleton_path")?;
        let load = Load {
            atlas: opt_str(atlas_path, atlas_path_len, "atlas_path")?,
            extras: opt_str(extras_path, extras_path_len, "extras_path")?,
            ..Load::default()
        };
        register(
            expect(
                load_path(skel, &load)?,
                &[Format::SpineJson, Format::SpineSkel],
            )?,
            out,
        )
    })
}

/// `sinew_rig_load_spine` from memory: the skeleton's bytes (JSON text or `.skel`), the
/// atlas text (length 0: untextured) and the extras JSON text (length 0: none). Error
/// messages name the buffers `<skeleton>`, `<atlas>`, `<extras>`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_load_spine_memory(
    skeleton: *const u8,
    skeleton_len: usize,
    atlas_text: *const c_char,
    atlas_text_len: usize,
    extras_text: *const c_char,
    extras_text_len: usize,
    out: *mut *mut SinewRig,
) -> SinewStatus {
    guard(|| {
        check_out(out)?;
        let data = bytes_arg(skeleton, skeleton_len, "skeleton")?;
        let atlas = str_arg(atlas_text, atlas_text_len, "atlas_text")?.as_bytes();
        let extras = str_arg(extras_text, extras_text_len, "extras_text")?.as_bytes();
        let load = Load {
            atlas: (!atlas.is_empty()).then_some("<atlas>"),
            extras: (!extras.is_empty()).then_some("<extras>"),
            ..Load::default()
        };
        let files = [("<atlas>", atlas), ("<extras>", extras)];
        let asset = load_memory("<skeleton>", data, &files, &load)?;
        register(expect(asset, &[Format::SpineJson, Format::SpineSkel])?, out)
    })
}

/// One companion file given from memory: its name as the main file names it (relative to
/// the main file: `hero.atlas`, `hero.png`, `hero.extras.json`) and its bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SinewFile {
    /// The name (UTF-8, not NUL-terminated).
    pub name: *const c_char,
    /// Length of `name` in bytes.
    pub name_len: usize,
    /// The file's bytes.
    pub data: *const u8,
    /// Length of `data` in bytes.
    pub len: usize,
}

/// Loads a rig of any format from memory, told apart by its content: a Spine skeleton (JSON
/// or `.skel`), a DragonBones `*_ske.json` or an Inochi2D puppet. `name` names the main file
/// (in errors, and to find its companions: `hero.json` takes `hero.atlas`, `hero_ske.json`
/// takes `hero_tex.json`, any rig `hero.extras.json`, a puppet `hero.physics3.json`, when
/// `files` has them). `files` are the companion files (`files_len` of them; page images are
/// not needed); `armature` picks a DragonBones armature (length 0: the first). No file is
/// read. `SINEW_STATUS_LOAD_FAILED` for bad content or a file that is not a rig (the last
/// error says what it is).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_load_memory(
    name: *const c_char,
    name_len: usize,
    data: *const u8,
    len: usize,
    files: *const SinewFile,
    files_len: usize,
    armature: *const c_char,
    armature_len: usize,
    out: *mut *mut SinewRig,
) -> SinewStatus {
    guard(|| {
        check_out(out)?;
        let name = str_arg(name, name_len, "name")?;
        let main = bytes_arg(data, len, "data")?;
        let mut given = Vec::new();
        for (i, f) in crate::slice_arg(files, files_len, "files")?
            .iter()
            .enumerate()
        {
            let n = str_arg(f.name, f.name_len, &format!("files[{i}].name"))?;
            given.push((n, bytes_arg(f.data, f.len, &format!("files[{i}].data"))?));
        }
        let options = LoadOptions {
            extras: Companion::Beside,
            physics3: Companion::Beside,
            armature: opt_str(armature, armature_len, "armature")?.map(str::to_owned),
            textures: false,
            ..LoadOptions::default()
        };
        let companions = |want: &str| {
            given
                .iter()
                .find(|(n, _)| *n == want)
                .map(|(_, b)| b.to_vec())
                .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
        };
        let asset =
            sinew_formats::load_bytes(name, main, &companions, &options).map_err(load_fail)?;
        register(asset, out)
    })
}

/// Refuses an asset of another format than the entry point loads (naming what it is).
pub(crate) fn expect(asset: Asset, formats: &[Format]) -> Res<Asset> {
    if formats.contains(&asset.format) {
        return Ok(asset);
    }
    Err(Fail::new(
        SinewStatus::LoadFailed,
        format!(
            "{}: {}, not {}",
            asset.rig.source,
            asset.format.describe(),
            formats.first().map_or("a rig", |f| f.family())
        ),
    ))
}

/// An optional string argument: length 0 is `None`.
pub(crate) fn opt_str<'a>(ptr: *const c_char, len: usize, what: &str) -> Res<Option<&'a str>> {
    let s = str_arg(ptr, len, what)?;
    Ok((!s.is_empty()).then_some(s))
}

/// Loads an Inochi2D puppet (`.inp`/`.inx`) with, optionally, a Cubism `physics3.json`
/// (pendulum chains) and a rig-extras file (empty paths: none).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_load_inochi2d(
    path: *const c_char,
    path_len: usize,
    physics3_path: *const c_char,
    physics3_path_len: usize,
    extras_path: *const c_char,
    extras_path_len: usize,
    out: *mut *mut SinewRig,
) -> SinewStatus {
    guard(|| {
        check_out(out)?;
        let p = str_arg(path, path_len, "path")?;
        let load = Load {
            extras: opt_str(extras_path, extras_path_len, "extras_path")?,
            physics3: opt_str(physics3_path, physics3_path_len, "physics3_path")?,
            ..Load::default()
        };
        register(expect(load_path(p, &load)?, &[Format::Inochi2D])?, out)
    })
}

/// `sinew_rig_load_inochi2d` from memory: the puppet's bytes, the physics3 JSON text and
/// the extras JSON text (length 0: none).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_load_inochi2d_memory(
    puppet: *const u8,
    puppet_len: usize,
    physics3_text: *const c_char,
    physics3_text_len: usize,
    extras_text: *const c_char,
    extras_text_len: usize,
    out: *mut *mut SinewRig,
) -> SinewStatus {
    guard(|| {
        check_out(out)?;
        let data = bytes_arg(puppet, puppet_len, "puppet")?;
        let physics3 = str_arg(physics3_text, physics3_text_len, "physics3_text")?.as_bytes();
        let extras = str_arg(extras_text, extras_text_len, "extras_text")?.as_bytes();
        let load = Load {
            physics3: (!physics3.is_empty()).then_some("<physics3>"),
            extras: (!extras.is_empty()).then_some("<extras>"),
            ..Load::default()
        };
        let files = [("<physics3>", physics3), ("<extras>", extras)];
        let asset = load_memory("<puppet>", data, &files, &load)?;
        register(expect(asset, &[Format::Inochi2D])?, out)
    })
}

/// Destroys a rig handle. Characters made from it keep working (they hold the rig's data).
/// Null or already destroyed: no-op.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_destroy(rig: *mut SinewRig) -> SinewStatus {
    guard(|| RIGS.remove(raw(rig)).map(drop))
}

/// Sizes of a rig.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_info(rig: *const SinewRig, out: *mut SinewRigInfo) -> SinewStatus {
    guard(|| {
        let r = rig_obj(rig)?;
        let g = &r.rig;
        let n = |x: usize| x as u32;
        put(
            out,
            SinewRigInfo {
                bones: n(g.bones.len()),
                slots: n(g.slots.len()),
                animations: n(g.clips.len()),
                param_animations: n(r.param_animations.len()),
                skins: n(g.skins.len()),
                params: n(g.params.params.len()),
                ik_constraints: n(g.ik.len()),
                pages: n(r.pages.len()),
                is_puppet: u32::from(r.is_puppet),
            },
            "out",
        )
    })
}

fn index_check(index: u32, len: usize, what: &str) -> Res<usize> {
    let i = index as usize;
    if i < len {
        Ok(i)
    } else {
        Err(Fail::new(
            SinewStatus::InvalidArgument,
            format!("{what} index {index} out of range (the rig has {len})"),
        ))
    }
}

/// Texture page `index` (0..pages of `sinew_rig_info`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_page(
    rig: *const SinewRig,
    index: u32,
    out: *mut SinewPageInfo,
) -> SinewStatus {
    guard(|| {
        let r = rig_obj(rig)?;
        let p = &r.pages[index_check(index, r.pages.len(), "page")?];
        put(
            out,
            SinewPageInfo {
                name: SinewStringView::of(&p.name),
                width: p.width,
                height: p.height,
                premultiplied_alpha: u32::from(p.pma),
            },
            "out",
        )
    })
}

/// Parameter `index` with its range (0..params of `sinew_rig_info`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_param(
    rig: *const SinewRig,
    index: u32,
    out: *mut SinewParamInfo,
) -> SinewStatus {
    guard(|| {
        let r = rig_obj(rig)?;
        let ps = &r.rig.params.params;
        let p = &ps[index_check(index, ps.len(), "parameter")?];
        put(
            out,
            SinewParamInfo {
                name: SinewStringView::of(&p.name),
                axes: if p.is_2d { 2 } else { 1 },
                min: p.min,
                max: p.max,
                default_value: p.default,
            },
            "out",
        )
    })
}

/// What a name lookup of `sinew_rig_name` lists.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinewNameKind {
    /// Bones, parents first.
    Bone = 0,
    /// Slots, in setup draw order.
    Slot = 1,
    /// Animations (Spine clips).
    Animation = 2,
    /// Skins.
    Skin = 3,
    /// IK constraints.
    Ik = 4,
    /// Parameter animations (Inochi2D).
    ParamAnimation = 5,
}

/// The name of item `index` of a kind (a `SinewNameKind` value): bones, slots,
/// animations, skins, IK constraints, parameter animations.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_name(
    rig: *const SinewRig,
    kind: u32,
    index: u32,
    out: *mut SinewStringView,
) -> SinewStatus {
    guard(|| {
        let r = rig_obj(rig)?;
        let g = &r.rig;
        let names: Vec<&str> = match kind {
            0 => g.bones.iter().map(|b| b.name.as_str()).collect(),
            1 => g.slots.iter().map(|s| s.name.as_str()).collect(),
            2 => g.clips.iter().map(|c| c.name.as_str()).collect(),
            3 => g.skins.iter().map(|s| s.name.as_str()).collect(),
            4 => g.ik.iter().map(|c| c.name.as_str()).collect(),
            5 => r.param_animations.iter().map(|a| a.name.as_str()).collect(),
            _ => {
                return Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("name kind {kind} is not a SinewNameKind"),
                ));
            }
        };
        let s = names[index_check(index, names.len(), "name")?];
        put(out, SinewStringView::of(s), "out")
    })
}

/// The index of a bone by name (for `sinew_character_bone_worlds`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_rig_find_bone(
    rig: *const SinewRig,
    name: *const c_char,
    name_len: usize,
    out: *mut u32,
) -> SinewStatus {
    guard(|| {
        let r = rig_obj(rig)?;
        let name = str_arg(name, name_len, "name")?;
        let b = r.rig.bone(name).ok_or_else(|| {
            // The facade's message, listing the rig's bones.
            let e = sinew::CharacterError::UnknownName {
                kind: "bone",
                name: name.to_owned(),
                known: r.rig.bones.iter().map(|b| b.name.clone()).collect(),
            };
            Fail::new(SinewStatus::NotFound, e.to_string())
        })?;
        put(out, b.index() as u32, "out")
    })
}
