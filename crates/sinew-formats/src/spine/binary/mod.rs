//! Spine 4.2 and 4.3 binary exports (`.skel`) into the same [`RawRig`] as the JSON loader.
//!
//! The layout (learnt from the official runtimes' readers, spine-ts 4.2 and spine-core 4.3.13
//! `SkeletonBinary`; written here from scratch): a header (hash, version, bounds, reference scale, and when the
//! export kept nonessential data the fps and image/audio folders), the string table, bones,
//! slots, IK, transform, path and physics constraints, the default skin and the other skins
//! with their attachments, event definitions and animations. Items refer to each other by
//! index; this reader turns every index into the name the [`RawRig`] uses, with the JSON
//! loader's conventions (scale 1, angles in degrees, colours byte / 255, the last key's curve
//! linear, deform keys as deltas from their offset, linked meshes by parent key and skin).
//!
//! Nothing is trusted: every count is checked against the bytes left (and the caps in
//! [`super::limits`]) before anything is allocated for it, every index against its table,
//! floats must be finite, and errors name the file, the byte offset and what was being read.
//! Verified by the golden suite over the official `.skel` exports
//! (`crates/sinew-cli/tests/all/golden.rs`), `tests/all/skel.rs` (every export loads and matches its
//! JSON twin's structure, truncations and mutations give errors, never panics) and the
//! `spine_skel` fuzz target.

mod animations;
mod attachments;
pub(crate) mod constraints43;
mod reader;
mod write;
mod write_anims;
mod write_skins;

use super::limits::*;
use crate::error::LoadError;
use reader::{Problem, R, Reader};
use sinew::raw::*;
use sinew::types::*;
use std::path::Path;
pub use write::{WriteError, write_spine_binary};

/// Reads and parses a Spine 4.2 or 4.3 binary (`.skel`) file.
pub fn load_spine_binary(path: &Path) -> Result<RawRig, LoadError> {
    let file = path.display().to_string();
    let data = read_bytes(path, &file)?;
    parse_spine_binary(&data, &file)
}

/// Reads a whole file: only a regular file within the `file_bytes` budget
/// ([`crate::budget`]) and [`MAX_FILE_BYTES`].
pub(crate) fn read_bytes(path: &Path, file: &str) -> Result<Vec<u8>, LoadError> {
    let budgets = crate::budget::Budgets::DEFAULT;
    let size = crate::budget::check_input(path, file, &budgets)?;
    if size > MAX_FILE_BYTES {
        return Err(LoadError::Binary {
            file: file.to_owned(),
            offset: 0,
            what: "file".into(),
            message: format!("file is {size} bytes (limit {MAX_FILE_BYTES})"),
        });
    }
    crate::budget::read_input(path, file, &budgets)
}

/// Parses the bytes of a Spine 4.2 or 4.3 binary export (the header's version sets
/// [`RawRig::runtime`]; 4.3 changed the constraint list, skins' constraint lists, bone,
/// vertex, mesh and linked mesh fields and added slider and folder sections, see
/// `constraints43.rs`); `source` names it in errors and in [`RawRig::source`].
pub fn parse_spine_binary(data: &[u8], source: &str) -> Result<RawRig, LoadError> {
    let fail = |p: Box<Problem>| LoadError::Binary {
        file: source.to_owned(),
        offset: p.offset,
        what: p.what,
        message: p.message,
    };
    let mut r = Reader::new(data);
    let mut rig = RawRig {
        source: source.to_owned(),
        reference_scale: 100.0,
        ..Default::default()
    };
    let nonessential = read_header(&mut r, &mut rig).map_err(fail)?;
    if !looks_like_version(&rig.version) {
        return Err(LoadError::Binary {
            file: source.to_owned(),
            offset: 8,
            what: "header".into(),
            message: format!(
                "not a Spine skeleton (neither JSON nor a binary export with a version string; \
                 found {:?})",
                rig.version.chars().take(24).collect::<String>()
            ),
        });
    }
    match super::json_runtime(&rig.version) {
        Some(runtime) if !rig.version.is_empty() => rig.runtime = runtime,
        _ => {
            return Err(LoadError::Version {
                file: source.to_owned(),
                version: rig.version,
            });
        }
    }
    r.v43 = rig.runtime == SpineRuntime::V43;
    read_body(&mut r, &mut rig, nonessential).map_err(fail)?;
    super::check_reference_scale(&rig, "header (referenceScale)")?;
    Ok(rig)
}

/// Whether a `.skel` header's string is a version (`4.3.0`, `4.2.22-beta`): digits first,
/// at least two dot-separated parts of ASCII letters, digits and dashes. Anything else is
/// not a Spine binary; sinew's writer writes only such versions (a JSON file's may be
/// anything after its major.minor).
pub(crate) fn looks_like_version(v: &str) -> bool {
    v.split('.').count() >= 2
        && v.split('.')
            .all(|p| p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        && v.starts_with(|c: char| c.is_ascii_digit())
}

/// Everything after the header, in the file's order.
fn read_body(r: &mut Reader, rig: &mut RawRig, nonessential: bool) -> R<()> {
    read_strings(r)?;
    read_bones(r, rig, nonessential)?;
    read_slots(r, rig, nonessential)?;
    if r.v43 {
        constraints43::read_constraints(r, rig, nonessential)?;
    } else {
        read_constraints(r, rig)?;
    }
    let shapes = attachments::read_skins(r, rig, nonessential)?;
    let audio = read_events(r, rig)?;
    animations::read_animations(r, rig, &shapes, &audio, nonessential)?;
    if r.v43 {
        constraints43::read_slider_animations(r, rig)?;
    }
    Ok(())
}

/// `high` and `low` as the official runtime prints them: each in hex, a minus sign for a
/// negative one.
fn hash_hex(high: i32, low: i32) -> String {
    let hex = |v: i32| {
        if v < 0 {
            format!("-{:x}", -i64::from(v))
        } else {
            format!("{v:x}")
        }
    };
    format!("{}{}", hex(high), hex(low))
}

/// Reads the header; returns whether the file carries nonessential data.
fn read_header(r: &mut Reader, rig: &mut RawRig) -> R<bool> {
    r.context(format_args!("header"));
    let low = r.i32()?;
    let high = r.i32()?;
    rig.hash = if low == 0 && high == 0 {
        String::new()
    } else {
        hash_hex(high, low)
    };
    rig.version = r.string()?.unwrap_or_default();
    if !(rig.version.starts_with("4.2") || rig.version.starts_with("4.3")) {
        // The rest of the layout belongs to another version: stop before reading it.
        return Ok(false);
    }
    rig.bounds = [r.f64()?, r.f64()?, r.f64()?, r.f64()?];
    rig.reference_scale = r.f64()?;
    let nonessential = r.bool()?;
    if nonessential {
        r.f32()?; // fps
        r.string()?; // images path
        r.string()?; // audio path
    }
    Ok(nonessential)
}

fn read_strings(r: &mut Reader) -> R<()> {
    r.context(format_args!("string table"));
    let n = r.count("strings", 2, usize::MAX)?;
    for i in 0..n {
        r.context(format_args!("string table, string {i}"));
        let s = r.name("a string of the string table")?;
        r.strings.push(s);
    }
    Ok(())
}

/// An inherit mode byte (bones and inherit timelines).
fn inherit(r: &mut Reader) -> R<Inherit> {
    let at = r.pos();
    Ok(match r.u8()? {
        0 => Inherit::Normal,
        1 => Inherit::OnlyTranslation,
        2 => Inherit::NoRotationOrReflection,
        3 => Inherit::NoScale,
        4 => Inherit::NoScaleOrReflection,
        v => return r.err_at(at, format!("unknown inherit mode {v}")),
    })
}

fn read_bones(r: &mut Reader, rig: &mut RawRig, nonessential: bool) -> R<()> {
    r.context(format_args!("bones"));
    // A bone is at least a name, 8 floats, its inherit mode and a flag.
    let n = r.count("bones", 35, MAX_BONES)?;
    for i in 0..n {
        r.context(format_args!("bone {i}"));
        let name = r.name("bone name")?;
        r.context(format_args!("bone {i} `{name}`"));
        let parent = if i == 0 {
            None
        } else {
            let p = r.index("bone", i)?;
            Some(rig.bones[p].name.clone())
        };
        let rotation = r.f64()?;
        let x = r.f64()?;
        let y = r.f64()?;
        let scale_x = r.f64()?;
        let scale_y = r.f64()?;
        let shear_x = r.f64()?;
        let shear_y = r.f64()?;
        // 4.3 swapped the length and the inherit mode.
        let (length, inherit) = if r.v43 {
            let inherit = inherit(r)?;
            (r.f64()?, inherit)
        } else {
            (r.f64()?, inherit(r)?)
        };
        let skin_required = r.bool()?;
        if nonessential {
            r.i32()?; // editor colour
            r.string()?; // icon
            if r.v43 {
                r.f32()?; // icon size
                r.f32()?; // icon rotation
            }
            r.bool()?; // visible
        }
        rig.bones.push(RawBone {
            name,
            parent,
            length,
            x,
            y,
            rotation,
            scale_x,
            scale_y,
            shear_x,
            shear_y,
            inherit,
            skin_required,
        });
    }
    Ok(())
}

/// A colour from `0xRRGGBBAA`, channels byte / 255 (in f64, then f32 like the JSON loader).
fn rgba8888(v: i32) -> Color {
    let [r, g, b, a] = (v as u32)
        .to_be_bytes()
        .map(|c| (f64::from(c) / 255.0) as f32);
    Color::new(r, g, b, a)
}

fn read_slots(r: &mut Reader, rig: &mut RawRig, nonessential: bool) -> R<()> {
    r.context(format_args!("slots"));
    // A slot is at least a name, a bone, two colours, an attachment and a blend mode.
    let n = r.count("slots", 12, MAX_SLOTS)?;
    for i in 0..n {
        r.context(format_args!("slot {i}"));
        let name = r.name("slot name")?;
        r.context(format_args!("slot {i} `{name}`"));
        let bone = r.index("bone", rig.bones.len())?;
        let color = rgba8888(r.i32()?);
        let dark = match r.i32()? {
            -1 => None,
            v => {
                let [_, red, g, b] = (v as u32)
                    .to_be_bytes()
                    .map(|c| (f64::from(c) / 255.0) as f32);
                Some(Color::new(red, g, b, 1.0))
            }
        };
        let attachment = r.string_ref()?;
        let at = r.pos();
        let blend = match r.varint()? {
            0 => BlendMode::Normal,
            1 => BlendMode::Additive,
            2 => BlendMode::Multiply,
            3 => BlendMode::Screen,
            v => return r.err_at(at, format!("unknown blend mode {v}")),
        };
        let visible = if nonessential { r.bool()? } else { true };
        rig.slots.push(RawSlot {
            name,
            bone: rig.bones[bone].name.clone(),
            color,
            dark,
            attachment,
            blend,
            visible,
        });
    }
    Ok(())
}

/// A list of bone indices as names.
pub(crate) fn bone_list(r: &mut Reader, rig: &RawRig) -> R<Vec<String>> {
    let n = r.count("bones", 1, MAX_BONES)?;
    let mut out = Vec::new();
    for _ in 0..n {
        let b = r.index("bone", rig.bones.len())?;
        out.push(rig.bones[b].name.clone());
    }
    Ok(out)
}

/// A constraint's `order`.
fn order(r: &mut Reader) -> R<u32> {
    r.varint()
}

fn read_constraints(r: &mut Reader, rig: &mut RawRig) -> R<()> {
    r.context(format_args!("IK constraints"));
    let n = r.count("IK constraints", 5, MAX_CONSTRAINTS)?;
    for i in 0..n {
        r.context(format_args!("IK constraint {i}"));
        let name = r.name("IK constraint name")?;
        r.context(format_args!("IK constraint {i} `{name}`"));
        let order = order(r)?;
        let at = r.pos();
        let bones = bone_list(r, rig)?;
        if bones.is_empty() || bones.len() > 2 {
            return r.err_at(at, format!("IK needs 1 or 2 bones, found {}", bones.len()));
        }
        let target = r.index("bone", rig.bones.len())?;
        let f = r.u8()?;
        let mix = match (f & 32 != 0, f & 64 != 0) {
            (true, true) => r.f64()?,
            (true, false) => 1.0,
            (false, _) => 0.0,
        };
        let softness = if f & 128 != 0 { r.f64()? } else { 0.0 };
        rig.ik.push(RawIk {
            name,
            order,
            skin_required: f & 1 != 0,
            bones,
            target: rig.bones[target].name.clone(),
            mix,
            softness,
            bend_positive: f & 2 != 0,
            compress: f & 4 != 0,
            stretch: f & 8 != 0,
            uniform: f & 16 != 0,
            volume: false,
            solver: sinew::IkSolver::Spine,
        });
    }
    r.context(format_args!("transform constraints"));
    let n = r.count("transform constraints", 6, MAX_CONSTRAINTS)?;
    for i in 0..n {
        r.context(format_args!("transform constraint {i}"));
        let name = r.name("transform constraint name")?;
        r.context(format_args!("transform constraint {i} `{name}`"));
        let order = order(r)?;
        let bones = bone_list(r, rig)?;
        let target = r.index("bone", rig.bones.len())?;
        let f = r.u8()?;
        let opt =
            |r: &mut Reader, bit: u8| -> R<f64> { if f & bit != 0 { r.f64() } else { Ok(0.0) } };
        let offset_rotation = opt(r, 8)?;
        let offset_x = opt(r, 16)?;
        let offset_y = opt(r, 32)?;
        let offset_scale_x = opt(r, 64)?;
        let offset_scale_y = opt(r, 128)?;
        let g = r.u8()?;
        let opt =
            |r: &mut Reader, bit: u8| -> R<f64> { if g & bit != 0 { r.f64() } else { Ok(0.0) } };
        rig.transforms.push(RawTransform {
            name,
            order,
            skin_required: f & 1 != 0,
            bones,
            target: rig.bones[target].name.clone(),
            local: f & 2 != 0,
            relative: f & 4 != 0,
            offset_rotation,
            offset_x,
            offset_y,
            offset_scale_x,
            offset_scale_y,
            offset_shear_y: opt(r, 1)?,
            mix_rotate: opt(r, 2)?,
            mix_x: opt(r, 4)?,
            mix_y: opt(r, 8)?,
            mix_scale_x: opt(r, 16)?,
            mix_scale_y: opt(r, 32)?,
            mix_shear_y: opt(r, 64)?,
            properties: Vec::new(),
            local_target: false,
            clamp: false,
        });
    }
    r.context(format_args!("path constraints"));
    let n = r.count("path constraints", 26, MAX_CONSTRAINTS)?;
    for i in 0..n {
        r.context(format_args!("path constraint {i}"));
        let name = r.name("path constraint name")?;
        r.context(format_args!("path constraint {i} `{name}`"));
        let order = order(r)?;
        let skin_required = r.bool()?;
        let bones = bone_list(r, rig)?;
        let target = r.index("slot", rig.slots.len())?;
        let at = r.pos();
        let f = r.u8()?;
        let position_mode = if f & 1 != 0 {
            PositionMode::Percent
        } else {
            PositionMode::Fixed
        };
        let spacing_mode = match (f >> 1) & 3 {
            0 => SpacingMode::Length,
            1 => SpacingMode::Fixed,
            2 => SpacingMode::Percent,
            _ => SpacingMode::Proportional,
        };
        let rotate_mode = match (f >> 3) & 3 {
            0 => RotateMode::Tangent,
            1 => RotateMode::Chain,
            2 => RotateMode::ChainScale,
            v => return r.err_at(at, format!("unknown rotate mode {v}")),
        };
        let offset_rotation = if f & 128 != 0 { r.f64()? } else { 0.0 };
        rig.paths.push(RawPath {
            name,
            order,
            skin_required,
            bones,
            target: rig.slots[target].name.clone(),
            position_mode,
            spacing_mode,
            rotate_mode,
            offset_rotation,
            position: r.f64()?,
            spacing: r.f64()?,
            mix_rotate: r.f64()?,
            mix_x: r.f64()?,
            mix_y: r.f64()?,
        });
    }
    r.context(format_args!("physics constraints"));
    let n = r.count("physics constraints", 24, MAX_CONSTRAINTS)?;
    for i in 0..n {
        r.context(format_args!("physics constraint {i}"));
        let name = r.name("physics constraint name")?;
        r.context(format_args!("physics constraint {i} `{name}`"));
        let order = order(r)?;
        read_physics(r, rig, name, order)?;
    }
    Ok(())
}

/// A physics constraint after its name and order (the same in 4.2 and 4.3, but for 4.3's
/// scaleY mode riding on scaleX).
pub(crate) fn read_physics(r: &mut Reader, rig: &mut RawRig, name: String, order: u32) -> R<()> {
    let bone = r.index("bone", rig.bones.len())?;
    let f = r.u8()?;
    let opt = |r: &mut Reader, bit: u8, default: f64| -> R<f64> {
        if f & bit != 0 { r.f64() } else { Ok(default) }
    };
    let x = opt(r, 2, 0.0)?;
    let y = opt(r, 4, 0.0)?;
    let rotate = opt(r, 8, 0.0)?;
    // 4.3: the scaleY mode rides on scaleX, below -2 volume, below 0 uniform.
    let (scale_x, scale_y) = match opt(r, 16, 0.0)? {
        v if r.v43 && v < -2.0 => (-2.0 - v, ScaleYMode::Volume),
        v if r.v43 && v < 0.0 => (-1.0 - v, ScaleYMode::Uniform),
        v => (v, ScaleYMode::None),
    };
    let shear_x = opt(r, 32, 0.0)?;
    let limit = opt(r, 64, 5000.0)?;
    let at = r.pos();
    let fps = r.u8()?;
    if fps == 0 {
        return r.err_at(at, "fps must be positive, found 0");
    }
    let inertia = r.f64()?;
    let strength = r.f64()?;
    let damping = r.f64()?;
    // The file holds the inverse of the mass.
    let mass_inverse = opt(r, 128, 1.0)?;
    let wind = r.f64()?;
    let gravity = r.f64()?;
    let g = r.u8()?;
    let mix = if g & 128 != 0 { r.f64()? } else { 1.0 };
    rig.physics.push(RawPhysics {
        name,
        order,
        skin_required: f & 1 != 0,
        bone: rig.bones[bone].name.clone(),
        x,
        y,
        rotate,
        scale_x,
        shear_x,
        scale_y,
        limit,
        step: 1.0 / f64::from(fps),
        inertia,
        strength,
        damping,
        mass_inverse,
        wind,
        gravity,
        mix,
        inertia_global: g & 1 != 0,
        strength_global: g & 2 != 0,
        damping_global: g & 4 != 0,
        mass_global: g & 8 != 0,
        wind_global: g & 16 != 0,
        gravity_global: g & 32 != 0,
        mix_global: g & 64 != 0,
    });
    Ok(())
}

/// Reads the event definitions; returns whether each has audio (its keys then carry volume
/// and balance).
fn read_events(r: &mut Reader, rig: &mut RawRig) -> R<Vec<bool>> {
    r.context(format_args!("events"));
    let n = r.count("events", 8, MAX_EVENTS)?;
    let mut audio_flags = Vec::new();
    for i in 0..n {
        r.context(format_args!("event {i}"));
        let name = r.name("event name")?;
        r.context(format_args!("event {i} `{name}`"));
        let int = r.varint_signed()?;
        let float = r.f32()?;
        let string = r.string()?.unwrap_or_default();
        let audio = r.string()?.filter(|a| !a.is_empty());
        // COMPAT(spine): volume/balance are stored only for events with audio (else 0, 0,
        // as the JSON loader leaves them).
        let (volume, balance) = if audio.is_some() {
            (r.f32()?, r.f32()?)
        } else {
            (0.0, 0.0)
        };
        audio_flags.push(audio.is_some());
        rig.events.push(RawEvent {
            name,
            int,
            float,
            string,
            audio,
            volume,
            balance,
        });
    }
    Ok(audio_flags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_print_like_the_official_runtime() {
        assert_eq!(hash_hex(0x1a2b, 0x3c), "1a2b3c");
        assert_eq!(hash_hex(-1, 255), "-1ff");
        assert_eq!(hash_hex(i32::MIN, 0), "-800000000");
    }

    #[test]
    fn colours_are_bytes_over_255() {
        let c = rgba8888(0xff80_0040_u32 as i32);
        assert_eq!(
            (c.r, c.g, c.b, c.a),
            (
                1.0,
                (128.0f64 / 255.0) as f32,
                0.0,
                (64.0f64 / 255.0) as f32
            )
        );
    }
}
