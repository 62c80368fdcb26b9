//! Rigs: loaded once (from files or memory), immutable, shared by characters and threads.

use crate::handle::{Registry, TAG_RIG, handle, raw};
use crate::{Fail, Res, SinewStatus, SinewStringView, bytes_arg, guard, put, str_arg};
use sinew::draw::DrawSetup;
use sinew::params::inochi_clip::ParamAnimation;
use sinew::physics::follow::FollowRig;
use sinew::physics::jiggle::JiggleRig;
use sinew_formats::{Asset, LoadError, LoadOptions};
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

/// What a rig handle holds: the loaders' `Asset` (path loads), or the same parts built from
/// memory buffers (so this crate never spells out `Asset`'s fields).
pub(crate) struct RigObj {
    pub rig: Arc<sinew::Rig>,
    pub param_animations: Arc<[ParamAnimation]>,
    pub is_puppet: bool,
    pub pages: Vec<PageData>,
    source: Source,
}

enum Source {
    Asset(Box<Asset>),
    Memory {
        jiggle: Option<Arc<JiggleRig>>,
        follow: Option<Arc<FollowRig>>,
        draw: Arc<DrawSetup>,
    },
}

impl RigObj {
    /// A new character of the rig with its jiggle bones, drawing details and parameter
    /// animations attached (`Asset::character`).
    pub(crate) fn character(&self) -> sinew::Character {
        match &self.source {
            Source::Asset(a) => a.character(),
            Source::Memory {
                jiggle,
                follow,
                draw,
            } => {
                let mut c = sinew::Character::new(self.rig.clone());
                c.set_draw_setup(draw.clone());
                // Built for this very rig when it was loaded: never refused.
                let _ = c.set_jiggle(jiggle.clone());
                let _ = c.set_follows(follow.clone());
                if !self.param_animations.is_empty() {
                    c.set_param_animations(self.param_animations.clone());
                }
                c
            }
        }
    }
}

/// The parts of a rig loaded from memory.
pub(crate) struct MemoryRig {
    pub rig: sinew::Rig,
    pub atlas: Option<sinew_formats::atlas::Atlas>,
    pub textures: usize,
    pub jiggle: (Option<Arc<JiggleRig>>, Option<Arc<FollowRig>>),
    pub draw: DrawSetup,
    pub param_animations: Vec<ParamAnimation>,
}

pub(crate) static RIGS: Registry<RigObj> = Registry::new(TAG_RIG, "rig");

pub(crate) fn rig_obj(rig: *const SinewRig) -> Res<Arc<RigObj>> {
    RIGS.get(raw(rig))
}

pub(crate) fn load_fail(e: LoadError) -> Fail {
    let status = match e {
        LoadError::Io { .. } => SinewStatus::Io,
        _ => SinewStatus::LoadFailed,
    };
    Fail::new(status, e.to_string())
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
        source: Source::Asset(Box::new(asset)),
    };
    let h = RIGS.insert(obj)?;
    put(out, handle(h), "out")
}

pub(crate) fn register_memory(m: MemoryRig, is_puppet: bool, out: *mut *mut SinewRig) -> Res {
    let obj = RigObj {
        rig: Arc::new(m.rig),
        param_animations: Arc::from(m.param_animations),
        is_puppet,
        pages: pages_of(m.atlas.as_ref(), m.textures),
        source: Source::Memory {
            jiggle: m.jiggle.0,
            follow: m.jiggle.1,
            draw: Arc::new(m.draw),
        },
    };
    let h = RIGS.insert(obj)?;
    put(out, handle(h), "out")
}

pub(crate) fn opt_path<'a>(ptr: *const c_char, len: usize, what: &str) -> Res<Option<&'a Path>> {
    let s = str_arg(ptr, len, what)?;
    Ok((!s.is_empty()).then(|| Path::new(s)))
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
        let atlas = opt_path(atlas_path, atlas_path_len, "atlas_path")?;
        let options = LoadOptions {
            extras: opt_path(extras_path, extras_path_len, "extras_path")?.map(Path::to_path_buf),
            physics3: None,
        };
        let asset =
            sinew_formats::load_spine(Path::new(skel), atlas, &options).map_err(load_fail)?;
        register(asset, out)
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
        let atlas_text = str_arg(atlas_text, atlas_text_len, "atlas_text")?;
        let extras_text = str_arg(extras_text, extras_text_len, "extras_text")?;
        let raw_rig = sinew_formats::spine::parse_spine(data, "<skeleton>").map_err(load_fail)?;
        let mut rig = sinew::build::build_rig(&raw_rig).map_err(|e| {
            Fail::new(
                SinewStatus::LoadFailed,
                format!("<skeleton>: invalid rig: {e}"),
            )
        })?;
        let atlas = if atlas_text.is_empty() {
            None
        } else {
            let a = sinew_formats::atlas::parse_atlas(atlas_text, "<atlas>").map_err(load_fail)?;
            sinew_formats::bind_atlas(&mut rig, &a).map_err(load_fail)?;
            Some(a)
        };
        let jiggle = jiggle_from_text(extras_text, &rig)?;
        let m = MemoryRig {
            rig,
            atlas,
            textures: 0,
            jiggle,
            draw: DrawSetup::default(),
            param_animations: Vec::new(),
        };
        register_memory(m, false, out)
    })
}

/// What a rig-extras text adds to a rig: its jiggle bones and its follows.
type Extras = (Option<Arc<JiggleRig>>, Option<Arc<FollowRig>>);

/// The jiggle bones and follows of a rig-extras text (as `load_spine` reads a file's).
fn jiggle_from_text(text: &str, rig: &sinew::Rig) -> Res<Extras> {
    if text.is_empty() {
        return Ok((None, None));
    }
    let extras = sinew_formats::extras::parse_extras(text, "<extras>").map_err(load_fail)?;
    let jr = JiggleRig::build(rig, &extras.jiggle)
        .map_err(|e| Fail::new(SinewStatus::LoadFailed, format!("<extras>: {e}")))?;
    let follow = if extras.follow.is_empty() {
        None
    } else {
        let fr = FollowRig::build(rig, &extras.follow)
            .map_err(|e| Fail::new(SinewStatus::LoadFailed, format!("<extras>: {e}")))?;
        Some(Arc::new(fr))
    };
    Ok((Some(Arc::new(jr)), follow))
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
        let options = LoadOptions {
            extras: opt_path(extras_path, extras_path_len, "extras_path")?.map(Path::to_path_buf),
            physics3: opt_path(physics3_path, physics3_path_len, "physics3_path")?
                .map(Path::to_path_buf),
        };
        let asset = sinew_formats::load_inochi2d(Path::new(p), &options).map_err(load_fail)?;
        register(asset, out)
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
        let physics3 = str_arg(physics3_text, physics3_text_len, "physics3_text")?;
        let extras = str_arg(extras_text, extras_text_len, "extras_text")?;
        let mut p = sinew_formats::inochi2d::parse_inochi2d(data, "<puppet>").map_err(load_fail)?;
        if !physics3.is_empty() {
            p.params.chains = sinew_formats::physics3::parse_physics3(physics3, "<physics3>")
                .map_err(load_fail)?;
        }
        let rig = sinew_formats::inochi2d::build_puppet(&p).map_err(load_fail)?;
        let draw = sinew_formats::puppet_draw_setup(&p, &rig);
        let jiggle = jiggle_from_text(extras, &rig)?;
        let m = MemoryRig {
            rig,
            atlas: None,
            textures: p.textures.len(),
            jiggle,
            draw,
            param_animations: p.animations,
        };
        register_memory(m, true, out)
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
        let b = r
            .rig
            .bone(name)
            .ok_or_else(|| Fail::new(SinewStatus::NotFound, format!("bone not found: {name}")))?;
        put(out, b.index() as u32, "out")
    })
}
