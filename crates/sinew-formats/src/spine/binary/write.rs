//! The Spine binary writer: a [`RawRig`] into `.skel` bytes in the rig's version (4.2, or
//! 4.3's layout for a 4.3 rig), the exact mirror of the reader in this module (the same header, string table, varints, sections and flag bits),
//! so that reading the bytes back gives the same rig.
//!
//! Values the format stores as 32-bit floats are rounded to f32 (a rig read from a `.skel`
//! holds f32 values, so those come back bit-equal); colours are written as bytes (channel
//! × 255, rounded). Nonessential data (slot visibility, mesh edges and sizes, bounding-box
//! colours) is written only when the rig has some. What the format cannot hold is refused
//! with a [`WriteError`] naming the item (a DragonBones inherit mode, a second root bone, a
//! reference to an unknown bone, a non-finite number, ...); the writer never panics.
//! Verified by `tests/all/spine_write.rs` (every official `.skel` read, written and read again
//! is the same rig; every JSON export written as `.skel` poses like the JSON) and, for 4.3,
//! `tests/all/spine43_upgrade.rs` and sinew-cli's `golden_spine43_manifest_of_sinew_skel_conversions`
//! (spine-core 4.3.13 reads the files too: `scripts/spine43/check_convert.py --skel`).

use super::hash_hex;
use super::{write_anims, write_skins};
use crate::budget::MAX_MAGNITUDE;
use sinew::raw::*;
use sinew::types::*;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Why a rig could not be written: the item and what is wrong with it.
///
/// Owner: the writers (`sinew-formats::spine`), offline.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct WriteError {
    /// What was being written, e.g. ``animation `run`, timeline 3 (bone `hip`)``.
    pub what: String,
    /// What cannot be written.
    pub message: String,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.what, self.message)
    }
}

impl std::error::Error for WriteError {}

/// Result of the writers (boxed so results stay one word wide).
pub(crate) type W<T> = Result<T, Box<WriteError>>;

/// A byte buffer with the string table being collected and the item being written.
pub(crate) struct Out {
    pub buf: Vec<u8>,
    strings: Vec<String>,
    index: HashMap<String, u32>,
    what: String,
    /// Writing Spine 4.3 (the sections whose layout changed read it).
    pub v43: bool,
}

/// A varint: 7 bits a byte, low bits first.
fn put_varint(buf: &mut Vec<u8>, mut v: u32) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            buf.push(b);
            return;
        }
        buf.push(b | 0x80);
    }
}

/// A string: byte count plus one (0 for null), then the bytes; characters beyond U+FFFF as
/// two 3-byte surrogate halves, as the official reader decodes them.
fn put_string(buf: &mut Vec<u8>, s: Option<&str>) {
    let Some(s) = s else {
        buf.push(0);
        return;
    };
    let mut bytes = Vec::with_capacity(s.len());
    for c in s.chars() {
        if (c as u32) < 0x10000 {
            let mut tmp = [0u8; 4];
            bytes.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units).iter() {
                let u = u32::from(*u);
                bytes.push(0xe0 | (u >> 12) as u8);
                bytes.push(0x80 | ((u >> 6) & 0x3f) as u8);
                bytes.push(0x80 | (u & 0x3f) as u8);
            }
        }
    }
    put_varint(buf, (bytes.len() as u32).saturating_add(1));
    buf.extend_from_slice(&bytes);
}

impl Out {
    pub fn new() -> Self {
        Out {
            buf: Vec::new(),
            strings: Vec::new(),
            index: HashMap::new(),
            what: String::from("header"),
            v43: false,
        }
    }

    /// Sets what is being written (named in errors).
    pub fn context(&mut self, args: std::fmt::Arguments) {
        self.what.clear();
        let _ = self.what.write_fmt(args);
    }

    /// An error about the item being written.
    pub fn err<T>(&self, message: impl Into<String>) -> W<T> {
        Err(Box::new(WriteError {
            what: self.what.clone(),
            message: message.into(),
        }))
    }

    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    pub fn bool(&mut self, v: bool) {
        self.buf.push(u8::from(v));
    }

    pub fn i32(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    /// A float the reader accepts: finite and below [`MAX_MAGNITUDE`] once rounded to f32.
    pub fn f32(&mut self, v: f32) -> W<()> {
        if !v.is_finite() || f64::from(v.abs()) >= MAX_MAGNITUDE {
            return self.err(format!(
                "{v} cannot be written (numbers must be finite and below {MAX_MAGNITUDE:e})"
            ));
        }
        self.buf.extend_from_slice(&v.to_be_bytes());
        Ok(())
    }

    /// An f64 rounded to the format's f32.
    pub fn f64(&mut self, v: f64) -> W<()> {
        if !v.is_finite() {
            return self.err(format!("{v} is not a finite number"));
        }
        self.f32(v as f32)
    }

    /// `values` as f32s.
    pub fn floats(&mut self, values: &[f32]) -> W<()> {
        for &v in values {
            self.f32(v)?;
        }
        Ok(())
    }

    pub fn varint(&mut self, v: u32) {
        put_varint(&mut self.buf, v);
    }

    /// A length or index as a varint (refused past `u32`).
    pub fn count(&mut self, n: usize) -> W<()> {
        match u32::try_from(n) {
            Ok(v) => {
                self.varint(v);
                Ok(())
            }
            Err(_) => self.err(format!("{n} does not fit the format's 32-bit counts")),
        }
    }

    /// A zigzag-encoded signed varint.
    pub fn varint_signed(&mut self, v: i32) {
        self.varint(((v << 1) ^ (v >> 31)) as u32);
    }

    /// An inline string (null for `None`).
    pub fn string(&mut self, s: Option<&str>) {
        put_string(&mut self.buf, s);
    }

    /// A reference into the string table (0 for `None`), adding the string to the table.
    pub fn string_ref(&mut self, s: Option<&str>) -> W<()> {
        let Some(s) = s else {
            self.varint(0);
            return Ok(());
        };
        let i = match self.index.get(s) {
            Some(&i) => i,
            None => {
                let Ok(i) = u32::try_from(self.strings.len() + 1) else {
                    return self.err("too many strings for the string table");
                };
                self.strings.push(s.to_owned());
                self.index.insert(s.to_owned(), i);
                i
            }
        };
        self.varint(i);
        Ok(())
    }
}

/// Indices of every named item, as the reader numbers them.
pub(crate) struct Names<'a> {
    pub bones: HashMap<&'a str, usize>,
    pub slots: HashMap<&'a str, usize>,
    pub ik: HashMap<&'a str, usize>,
    pub transforms: HashMap<&'a str, usize>,
    pub paths: HashMap<&'a str, usize>,
    pub physics: HashMap<&'a str, usize>,
    pub sliders: HashMap<&'a str, usize>,
    pub events: HashMap<&'a str, usize>,
    /// Per kind (IK, transform, path, physics, slider) and index in its list, the constraint's
    /// index in the 4.3 constraint list.
    pub unified: [Vec<usize>; 5],
}

fn index_of<'a, T>(items: &'a [T], name: impl Fn(&'a T) -> &'a str) -> HashMap<&'a str, usize> {
    let mut m = HashMap::new();
    for (i, it) in items.iter().enumerate() {
        m.entry(name(it)).or_insert(i);
    }
    m
}

impl<'a> Names<'a> {
    fn new(rig: &'a RawRig) -> Self {
        Names {
            bones: index_of(&rig.bones, |b| b.name.as_str()),
            slots: index_of(&rig.slots, |s| s.name.as_str()),
            ik: index_of(&rig.ik, |c| c.name.as_str()),
            transforms: index_of(&rig.transforms, |c| c.name.as_str()),
            paths: index_of(&rig.paths, |c| c.name.as_str()),
            physics: index_of(&rig.physics, |c| c.name.as_str()),
            sliders: index_of(&rig.sliders, |c| c.name.as_str()),
            events: index_of(&rig.events, |e| e.name.as_str()),
            unified: {
                let mut u: [Vec<usize>; 5] = [
                    vec![0; rig.ik.len()],
                    vec![0; rig.transforms.len()],
                    vec![0; rig.paths.len()],
                    vec![0; rig.physics.len()],
                    vec![0; rig.sliders.len()],
                ];
                for (pos, (kind, i)) in super::constraints43::unified(rig).into_iter().enumerate() {
                    u[kind as usize][i] = pos;
                }
                u
            },
        }
    }

    /// The index a file of the writer's version gives constraint `i` of `kind`.
    pub fn constraint(&self, o: &Out, kind: super::constraints43::Kind, i: usize) -> usize {
        if o.v43 {
            self.unified[kind as usize][i]
        } else {
            i
        }
    }
}

/// The index of `name` in `map` (`what` names the table in the error).
pub(crate) fn lookup(o: &Out, map: &HashMap<&str, usize>, what: &str, name: &str) -> W<usize> {
    match map.get(name) {
        Some(&i) => Ok(i),
        None => o.err(format!("unknown {what} `{name}`")),
    }
}

/// Writes `rig` as a Spine binary export of its version ([`RawRig::runtime`]: 4.2 or 4.3).
pub fn write_spine_binary(rig: &RawRig) -> Result<Vec<u8>, WriteError> {
    write_all(&crate::spine::eased::without_eased(rig)).map_err(|e| *e)
}

fn write_all(rig: &RawRig) -> W<Vec<u8>> {
    let names = Names::new(rig);
    let nonessential = needs_nonessential(rig);
    let mut head = Out::new();
    write_header(&mut head, rig, nonessential)?;
    let mut o = Out::new();
    o.v43 = rig.runtime == sinew::types::SpineRuntime::V43;
    write_bones(&mut o, rig, &names, nonessential)?;
    write_slots(&mut o, rig, &names, nonessential)?;
    if o.v43 {
        super::constraints43::write_constraints(&mut o, rig, &names, nonessential)?;
    } else {
        write_constraints(&mut o, rig, &names)?;
    }
    let skins = write_skins::write_skins(&mut o, rig, &names, nonessential)?;
    write_events(&mut o, rig)?;
    write_anims::write_animations(&mut o, rig, &names, &skins, nonessential)?;
    if o.v43 {
        super::constraints43::write_slider_animations(&mut o, rig)?;
    }
    let mut bytes = head.buf;
    put_varint(&mut bytes, o.strings.len() as u32);
    for s in &o.strings {
        put_string(&mut bytes, Some(s));
    }
    bytes.extend_from_slice(&o.buf);
    Ok(bytes)
}

/// Whether the rig holds nonessential data the reader keeps (so writing it matters).
fn needs_nonessential(rig: &RawRig) -> bool {
    rig.slots.iter().any(|s| !s.visible)
        || (rig.sliders.iter()).any(|s| s.bone.as_ref().is_some_and(|b| b.max != 0.0))
        || rig
            .skins
            .iter()
            .flat_map(|s| &s.attachments)
            .any(|e| match &e.attachment.kind {
                RawAttachmentKind::Mesh {
                    edges,
                    width,
                    height,
                    ..
                } => !edges.is_empty() || *width != 0.0 || *height != 0.0,
                RawAttachmentKind::LinkedMesh { width, height, .. } => {
                    *width != 0.0 || *height != 0.0
                }
                RawAttachmentKind::BoundingBox { color, .. } => *color != Color::WHITE,
                _ => false,
            })
}

/// Splits a hash printed by [`hash_hex`] back into its (low, high) ints; (0, 0) (no hash)
/// when it is not such a print (a JSON export's hash is another encoding).
fn parse_hash(s: &str) -> (i32, i32) {
    fn hex(s: &str) -> Option<i32> {
        let (neg, digits) = match s.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, s),
        };
        if digits.is_empty() || digits.len() > 9 || digits.starts_with('+') {
            return None;
        }
        let v = i64::from_str_radix(digits, 16).ok()?;
        i32::try_from(if neg { -v } else { v }).ok()
    }
    for split in 1..s.len() {
        if !s.is_char_boundary(split) {
            continue;
        }
        let (a, b) = s.split_at(split);
        if let (Some(high), Some(low)) = (hex(a), hex(b))
            && hash_hex(high, low) == s
        {
            return (low, high);
        }
    }
    (0, 0)
}

fn write_header(o: &mut Out, rig: &RawRig, nonessential: bool) -> W<()> {
    o.context(format_args!("header"));
    let (low, high) = parse_hash(&rig.hash);
    o.i32(low);
    o.i32(high);
    let v43 = rig.runtime == sinew::types::SpineRuntime::V43;
    let (major_minor, fallback) = if v43 {
        ("4.3", "4.3.0")
    } else {
        ("4.2", "4.2.0")
    };
    // The rig's own version when the reader takes it as one (a JSON file's may hold any
    // text after its major.minor), else the fallback.
    let version = if rig.version.starts_with(major_minor) && super::looks_like_version(&rig.version)
    {
        rig.version.as_str()
    } else {
        fallback
    };
    o.string(Some(version));
    for v in rig.bounds {
        o.f64(v)?;
    }
    // The reader refuses a physics rig's referenceScale of 0: a positive one under f32's
    // smallest (a JSON file may hold 1e-300) would be written as 0.
    if !rig.physics.is_empty() && rig.reference_scale > 0.0 && rig.reference_scale as f32 == 0.0 {
        return o.err(format!(
            "referenceScale {:e} is 0 as a 32-bit float (a rig with physics needs a positive one)",
            rig.reference_scale
        ));
    }
    o.f64(rig.reference_scale)?;
    o.bool(nonessential);
    if nonessential {
        o.f32(30.0)?; // fps
        o.string(None); // images path
        o.string(None); // audio path
    }
    Ok(())
}

/// Spine's inherit byte.
pub(crate) fn inherit_code(o: &Out, inherit: Inherit) -> W<u8> {
    match inherit {
        Inherit::DragonBones(f) => o.err(format!(
            "DragonBones inherit flags (translation {}, rotation {}, scale {}, reflection {}) \
             have no Spine inherit mode",
            f.translation, f.rotation, f.scale, f.reflection
        )),
        i => Ok(i.code()),
    }
}

fn write_bones(o: &mut Out, rig: &RawRig, names: &Names, nonessential: bool) -> W<()> {
    o.context(format_args!("bones"));
    o.count(rig.bones.len())?;
    for (i, b) in rig.bones.iter().enumerate() {
        o.context(format_args!("bone {i} `{}`", b.name));
        o.string(Some(&b.name));
        match (i, &b.parent) {
            (0, None) => {}
            (0, Some(p)) => {
                return o.err(format!("the first bone must be the root (parent `{p}`)"));
            }
            (_, None) => return o.err("only the first bone may be a root"),
            (_, Some(p)) => {
                let pi = lookup(o, &names.bones, "parent bone", p)?;
                if pi >= i {
                    return o.err(format!("parent `{p}` must come before its child"));
                }
                o.count(pi)?;
            }
        }
        for v in [
            b.rotation, b.x, b.y, b.scale_x, b.scale_y, b.shear_x, b.shear_y,
        ] {
            o.f64(v)?;
        }
        // 4.3 swapped the length and the inherit mode.
        let code = inherit_code(o, b.inherit)?;
        if o.v43 {
            o.u8(code);
            o.f64(b.length)?;
        } else {
            o.f64(b.length)?;
            o.u8(code);
        }
        o.bool(b.skin_required);
        if nonessential {
            o.i32(0x9b9b9bff_u32 as i32); // editor colour
            o.string(None); // icon
            if o.v43 {
                o.f32(0.0)?; // icon size
                o.f32(0.0)?; // icon rotation
            }
            o.bool(true); // visible
        }
    }
    Ok(())
}

/// A colour as `0xRRGGBBAA` bytes.
pub(crate) fn rgba8888(c: Color) -> i32 {
    u32::from_be_bytes([byte(c.r), byte(c.g), byte(c.b), byte(c.a)]) as i32
}

/// A channel as the byte the reader turns back into it (× 255, rounded, clamped).
pub(crate) fn byte(v: f32) -> u8 {
    if v.is_nan() {
        return 0;
    }
    (f64::from(v.clamp(0.0, 1.0)) * 255.0).round() as u8
}

fn write_slots(o: &mut Out, rig: &RawRig, names: &Names, nonessential: bool) -> W<()> {
    o.context(format_args!("slots"));
    o.count(rig.slots.len())?;
    for (i, s) in rig.slots.iter().enumerate() {
        o.context(format_args!("slot {i} `{}`", s.name));
        o.string(Some(&s.name));
        let bone = lookup(o, &names.bones, "bone", &s.bone)?;
        o.count(bone)?;
        o.i32(rgba8888(s.color));
        match s.dark {
            // The alpha byte is not read; 0 keeps white apart from -1 (no dark colour).
            Some(d) => o.i32(u32::from_be_bytes([0, byte(d.r), byte(d.g), byte(d.b)]) as i32),
            None => o.i32(-1),
        }
        o.string_ref(s.attachment.as_deref())?;
        o.varint(match s.blend {
            BlendMode::Normal => 0,
            BlendMode::Additive => 1,
            BlendMode::Multiply => 2,
            BlendMode::Screen => 3,
            other => return o.err(format!("blend mode {other:?} has no Spine equivalent")),
        });
        if nonessential {
            o.bool(s.visible);
        }
    }
    Ok(())
}

pub(crate) fn bone_list(o: &mut Out, names: &Names, bones: &[String]) -> W<()> {
    o.count(bones.len())?;
    for b in bones {
        let i = lookup(o, &names.bones, "bone", b)?;
        o.count(i)?;
    }
    Ok(())
}

fn write_constraints(o: &mut Out, rig: &RawRig, names: &Names) -> W<()> {
    o.context(format_args!("IK constraints"));
    o.count(rig.ik.len())?;
    for (i, c) in rig.ik.iter().enumerate() {
        o.context(format_args!("IK constraint {i} `{}`", c.name));
        if c.bones.is_empty() || c.bones.len() > 2 {
            return o.err(format!("IK needs 1 or 2 bones, has {}", c.bones.len()));
        }
        o.string(Some(&c.name));
        o.varint(c.order);
        bone_list(o, names, &c.bones)?;
        let t = lookup(o, &names.bones, "target bone", &c.target)?;
        o.count(t)?;
        let mut f = 0u8;
        for (bit, on) in [
            (1, c.skin_required),
            (2, c.bend_positive),
            (4, c.compress),
            (8, c.stretch),
            (16, c.uniform),
            (32, c.mix != 0.0),
            (64, c.mix != 0.0 && c.mix != 1.0),
            (128, c.softness != 0.0),
        ] {
            if on {
                f |= bit;
            }
        }
        o.u8(f);
        if f & 64 != 0 {
            o.f64(c.mix)?;
        }
        if f & 128 != 0 {
            o.f64(c.softness)?;
        }
    }
    o.context(format_args!("transform constraints"));
    o.count(rig.transforms.len())?;
    for (i, c) in rig.transforms.iter().enumerate() {
        o.context(format_args!("transform constraint {i} `{}`", c.name));
        o.string(Some(&c.name));
        o.varint(c.order);
        bone_list(o, names, &c.bones)?;
        let t = lookup(o, &names.bones, "target bone", &c.target)?;
        o.count(t)?;
        let offsets = [
            c.offset_rotation,
            c.offset_x,
            c.offset_y,
            c.offset_scale_x,
            c.offset_scale_y,
        ];
        let mut f = u8::from(c.skin_required) | u8::from(c.local) << 1 | u8::from(c.relative) << 2;
        for (k, v) in offsets.iter().enumerate() {
            if *v != 0.0 {
                f |= 8 << k;
            }
        }
        o.u8(f);
        for v in offsets.into_iter().filter(|v| *v != 0.0) {
            o.f64(v)?;
        }
        let rest = [
            c.offset_shear_y,
            c.mix_rotate,
            c.mix_x,
            c.mix_y,
            c.mix_scale_x,
            c.mix_scale_y,
            c.mix_shear_y,
        ];
        let mut g = 0u8;
        for (k, v) in rest.iter().enumerate() {
            if *v != 0.0 {
                g |= 1 << k;
            }
        }
        o.u8(g);
        for v in rest.into_iter().filter(|v| *v != 0.0) {
            o.f64(v)?;
        }
    }
    o.context(format_args!("path constraints"));
    o.count(rig.paths.len())?;
    for (i, c) in rig.paths.iter().enumerate() {
        o.context(format_args!("path constraint {i} `{}`", c.name));
        o.string(Some(&c.name));
        o.varint(c.order);
        o.bool(c.skin_required);
        bone_list(o, names, &c.bones)?;
        let t = lookup(o, &names.slots, "target slot", &c.target)?;
        o.count(t)?;
        let position = u8::from(matches!(c.position_mode, PositionMode::Percent));
        let spacing = match c.spacing_mode {
            SpacingMode::Length => 0u8,
            SpacingMode::Fixed => 1,
            SpacingMode::Percent => 2,
            SpacingMode::Proportional => 3,
        };
        let rotate = match c.rotate_mode {
            RotateMode::Tangent => 0u8,
            RotateMode::Chain => 1,
            RotateMode::ChainScale => 2,
        };
        let offset = c.offset_rotation != 0.0;
        o.u8(position | spacing << 1 | rotate << 3 | u8::from(offset) << 7);
        if offset {
            o.f64(c.offset_rotation)?;
        }
        for v in [c.position, c.spacing, c.mix_rotate, c.mix_x, c.mix_y] {
            o.f64(v)?;
        }
    }
    o.context(format_args!("physics constraints"));
    o.count(rig.physics.len())?;
    for (i, c) in rig.physics.iter().enumerate() {
        o.context(format_args!("physics constraint {i} `{}`", c.name));
        write_physics(o, names, c)?;
    }
    Ok(())
}

fn write_physics(o: &mut Out, names: &Names, c: &RawPhysics) -> W<()> {
    o.string(Some(&c.name));
    o.varint(c.order);
    write_physics_body(o, names, c)
}

/// A physics constraint after its name and order (4.2) or type (4.3): the same layout, but
/// for 4.3's scaleY mode riding on scaleX (uniform: -1 - x, volume: -2 - x).
pub(crate) fn write_physics_body(o: &mut Out, names: &Names, c: &RawPhysics) -> W<()> {
    let b = lookup(o, &names.bones, "bone", &c.bone)?;
    o.count(b)?;
    let scale_x = match (c.scale_y, o.v43) {
        (ScaleYMode::None, _) => c.scale_x,
        (_, false) => return o.err("a scaleY mode (Spine 4.3) has no Spine 4.2 binary form"),
        (_, true) if c.scale_x < 0.0 => {
            return o.err("a negative scaleX with a scaleY mode cannot be written");
        }
        (ScaleYMode::Uniform, true) => -1.0 - c.scale_x,
        (ScaleYMode::Volume, true) => -2.0 - c.scale_x,
    };
    let drives = [c.x, c.y, c.rotate, scale_x, c.shear_x];
    let mut f = u8::from(c.skin_required);
    for (k, v) in drives.iter().enumerate() {
        if *v != 0.0 {
            f |= 2 << k;
        }
    }
    if c.limit != 5000.0 {
        f |= 64;
    }
    if c.mass_inverse != 1.0 {
        f |= 128;
    }
    o.u8(f);
    for v in drives.into_iter().filter(|v| *v != 0.0) {
        o.f64(v)?;
    }
    if f & 64 != 0 {
        o.f64(c.limit)?;
    }
    let fps = if c.step > 0.0 {
        (1.0 / c.step).round()
    } else {
        0.0
    };
    if !(1.0..=255.0).contains(&fps) {
        return o.err(format!(
            "step {} s is not 1/fps for an fps in 1..=255",
            c.step
        ));
    }
    o.u8(fps as u8);
    for v in [c.inertia, c.strength, c.damping] {
        o.f64(v)?;
    }
    if f & 128 != 0 {
        o.f64(c.mass_inverse)?;
    }
    o.f64(c.wind)?;
    o.f64(c.gravity)?;
    let mut g = 0u8;
    for (k, on) in [
        c.inertia_global,
        c.strength_global,
        c.damping_global,
        c.mass_global,
        c.wind_global,
        c.gravity_global,
        c.mix_global,
        c.mix != 1.0,
    ]
    .into_iter()
    .enumerate()
    {
        if on {
            g |= 1 << k;
        }
    }
    o.u8(g);
    if g & 128 != 0 {
        o.f64(c.mix)?;
    }
    Ok(())
}

fn write_events(o: &mut Out, rig: &RawRig) -> W<()> {
    o.context(format_args!("events"));
    o.count(rig.events.len())?;
    for (i, e) in rig.events.iter().enumerate() {
        o.context(format_args!("event {i} `{}`", e.name));
        o.string(Some(&e.name));
        o.varint_signed(e.int);
        o.f32(e.float)?;
        o.string(Some(&e.string));
        let audio = e.audio.as_deref().filter(|a| !a.is_empty());
        o.string(audio);
        if audio.is_some() {
            o.f32(e.volume)?;
            o.f32(e.balance)?;
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn hashes_split_back_into_their_ints() {
        for (high, low) in [(0x1a2b, 0x3c), (-1, 255), (i32::MIN, 0), (7, -9)] {
            let s = hash_hex(high, low);
            let (l, h) = parse_hash(&s);
            assert_eq!(hash_hex(h, l), s);
        }
        assert_eq!(parse_hash("itfFESDjM1c"), (0, 0));
        assert_eq!(parse_hash(""), (0, 0));
    }

    #[test]
    fn varints_and_strings_mirror_the_reader() {
        let mut o = Out::new();
        for v in [0, 127, 128, u32::MAX] {
            o.varint(v);
        }
        for v in [0, -1, 1, i32::MIN, i32::MAX] {
            o.varint_signed(v);
        }
        o.string(None);
        o.string(Some(""));
        o.string(Some("é\u{1f600}"));
        let mut r = super::super::Reader::new(&o.buf);
        for v in [0, 127, 128, u32::MAX] {
            assert_eq!(r.varint().unwrap(), v);
        }
        for v in [0, -1, 1, i32::MIN, i32::MAX] {
            assert_eq!(r.varint_signed().unwrap(), v);
        }
        assert_eq!(r.string().unwrap(), None);
        assert_eq!(r.string().unwrap().as_deref(), Some(""));
        assert_eq!(r.string().unwrap().as_deref(), Some("é\u{1f600}"));
        assert_eq!(r.remaining(), 0);
    }

    #[test]
    fn colours_survive_bytes() {
        for b in 0..=255u8 {
            let v = (f64::from(b) / 255.0) as f32;
            assert_eq!(byte(v), b);
        }
    }
}
