//! Animations of a Spine 4.2 binary export into [`RawClip`]s.
//!
//! Sections come in the official order (slots, bones, IK, transform, path, physics,
//! attachment deform/sequence, draw order, events), which is also the JSON loader's timeline
//! order. A curve timeline stores its first key, then per further key its time, values and
//! the curve of the key before it (0 linear, 1 stepped, 2 Bezier with `cx1 cy1 cx2 cy2` per
//! value, in seconds and value units, exactly what [`RawCurve::Bezier`] holds); the last
//! key's curve is linear. Colour channels are bytes (byte / 255 in f64, like the JSON
//! loader's). Times must not decrease, deform keys must fit their attachment, draw-order keys
//! must describe a permutation. Verified by `tests/all/skel.rs` (clip by clip, timeline by
//! timeline against the JSON twin) and the golden suite.

use super::attachments::{Shape, Shapes};
use super::constraints43::{Kind, name_of, unified};
use super::reader::R;
use super::{Reader, inherit};
use sinew::raw::*;

/// Reads `animations`.
pub(super) fn read_animations(
    r: &mut Reader,
    rig: &mut RawRig,
    shapes: &Shapes,
    event_audio: &[bool],
    nonessential: bool,
) -> R<()> {
    let unified = unified(rig);
    r.context(format_args!("animations"));
    let n = r.count("animations", 11, usize::MAX)?;
    for i in 0..n {
        r.context(format_args!("animation {i}"));
        let name = r.name("animation name")?;
        let mut a = Anim {
            rig,
            shapes,
            event_audio,
            name: &name,
            timeline: 0,
            unified: &unified,
            nonessential,
            clip: RawClip {
                name: name.clone(),
                timelines: Vec::new(),
                playback: None,
            },
        };
        a.read(r)?;
        let clip = a.clip;
        rig.clips.push(clip);
    }
    Ok(())
}

/// One animation being read.
struct Anim<'a> {
    rig: &'a RawRig,
    shapes: &'a Shapes,
    event_audio: &'a [bool],
    name: &'a str,
    /// Timelines begun so far (named in errors).
    timeline: usize,
    clip: RawClip,
    /// The 4.3 constraint list (what its indices mean).
    unified: &'a [(Kind, usize)],
    /// The file carries nonessential data (4.3 animations end with an editor colour).
    nonessential: bool,
}

/// How many values a curve timeline's keys hold and how each is stored.
#[derive(Clone, Copy)]
enum Values {
    /// `n` floats.
    Floats(usize),
    /// `n` colour bytes.
    Bytes(usize),
}

impl Values {
    fn count(self) -> usize {
        match self {
            Values::Floats(n) | Values::Bytes(n) => n,
        }
    }

    /// The fewest bytes one key takes (its time and values).
    fn key_bytes(self) -> usize {
        match self {
            Values::Floats(n) => 4 + 4 * n,
            Values::Bytes(n) => 4 + n,
        }
    }

    fn read(self, r: &mut Reader, out: &mut Vec<f64>) -> R<()> {
        match self {
            Values::Floats(n) => {
                for _ in 0..n {
                    out.push(r.f64()?);
                }
            }
            Values::Bytes(n) => {
                for _ in 0..n {
                    // COMPAT(spine): channels are byte / 255 in double precision.
                    out.push(f64::from(r.u8()?) / 255.0);
                }
            }
        }
        Ok(())
    }
}

impl Anim<'_> {
    /// Starts timeline number `self.timeline` (named in errors) on `target`.
    fn begin(&mut self, r: &mut Reader, target: std::fmt::Arguments) {
        self.timeline += 1;
        r.context(format_args!(
            "animation `{}`, timeline {} ({target})",
            self.name, self.timeline
        ));
    }

    fn push(&mut self, target: RawTarget, keys: Vec<RawKey>) {
        if !keys.is_empty() {
            self.clip.timelines.push(RawTimeline { target, keys });
        }
    }

    fn read(&mut self, r: &mut Reader) -> R<()> {
        r.context(format_args!("animation `{}`", self.name));
        r.varint()?; // timeline count, only a hint for allocating
        self.read_slots(r)?;
        self.read_bones(r)?;
        self.read_constraints(r)?;
        self.read_physics(r)?;
        if r.v43 {
            self.read_sliders(r)?;
        }
        self.read_attachments(r)?;
        self.read_draw_order(r)?;
        if r.v43 {
            self.read_draw_order_folders(r)?;
        }
        self.read_events(r)?;
        if r.v43 && self.nonessential {
            r.i32()?; // editor colour
        }
        Ok(())
    }

    /// 4.3 slider timelines: per slider, its timelines (time 0, mix 1), one value each.
    fn read_sliders(&mut self, r: &mut Reader) -> R<()> {
        r.context(format_args!("animation `{}`, slider timelines", self.name));
        let n = r.count("sliders", 2, usize::MAX)?;
        for _ in 0..n {
            let index = self.constraint(r, Kind::Slider, "slider")?;
            let name = &self.rig.sliders[index].name;
            let nn = r.count("slider timelines", 3, usize::MAX)?;
            for _ in 0..nn {
                self.begin(r, format_args!("slider `{name}`"));
                let at = r.pos();
                let target = match r.u8()? {
                    0 => RawTarget::SliderTime(name.clone()),
                    1 => RawTarget::SliderMix(name.clone()),
                    t => return r.err_at(at, format!("unknown slider timeline type {t}")),
                };
                let keys = curve_keys(r, Values::Floats(1))?;
                self.push(target, keys);
            }
        }
        Ok(())
    }

    /// A constraint index: into the kind's own list (4.2), or into the 4.3 constraint list,
    /// where it must name a constraint of `kind`.
    fn constraint(&self, r: &mut Reader, kind: Kind, what: &str) -> R<usize> {
        if !r.v43 {
            let len = match kind {
                Kind::Ik => self.rig.ik.len(),
                Kind::Transform => self.rig.transforms.len(),
                Kind::Path => self.rig.paths.len(),
                Kind::Physics => self.rig.physics.len(),
                Kind::Slider => self.rig.sliders.len(),
            };
            return r.index(what, len);
        }
        let at = r.pos();
        let (k, i) = self.unified[r.index("constraint", self.unified.len())?];
        if k != kind {
            return r.err_at(
                at,
                format!("constraint `{}` is not a {what}", name_of(self.rig, (k, i))),
            );
        }
        Ok(i)
    }

    fn read_slots(&mut self, r: &mut Reader) -> R<()> {
        let n = r.count("slots", 2, usize::MAX)?;
        for _ in 0..n {
            let slot = r.index("slot", self.rig.slots.len())?;
            let slot_name = &self.rig.slots[slot].name;
            let nn = r.count("slot timelines", 2, usize::MAX)?;
            for _ in 0..nn {
                self.begin(r, format_args!("slot `{slot_name}`"));
                let at = r.pos();
                let ty = r.u8()?;
                let (property, keys) = match ty {
                    0 => {
                        let frames = r.count("keys", 5, usize::MAX)?;
                        let keys = stepped_keys(r, frames, |r| {
                            Ok(RawKeyData::Attachment(r.string_ref()?))
                        })?;
                        (SlotProperty::Attachment, keys)
                    }
                    1 => (SlotProperty::Rgba, curve_keys(r, Values::Bytes(4))?),
                    2 => (SlotProperty::Rgb, curve_keys(r, Values::Bytes(3))?),
                    3 => (SlotProperty::Rgba2, curve_keys(r, Values::Bytes(7))?),
                    4 => (SlotProperty::Rgb2, curve_keys(r, Values::Bytes(6))?),
                    5 => (SlotProperty::Alpha, curve_keys(r, Values::Bytes(1))?),
                    t => return r.err_at(at, format!("unknown slot timeline type {t}")),
                };
                let target = RawTarget::Slot {
                    slot: slot_name.clone(),
                    property,
                };
                self.push(target, keys);
            }
        }
        Ok(())
    }

    fn read_bones(&mut self, r: &mut Reader) -> R<()> {
        r.context(format_args!("animation `{}`, bone timelines", self.name));
        let n = r.count("bones", 2, usize::MAX)?;
        for _ in 0..n {
            let bone = r.index("bone", self.rig.bones.len())?;
            let bone_name = &self.rig.bones[bone].name;
            let nn = r.count("bone timelines", 2, usize::MAX)?;
            for _ in 0..nn {
                self.begin(r, format_args!("bone `{bone_name}`"));
                let at = r.pos();
                let ty = r.u8()?;
                use BoneProperty as P;
                let (property, keys) = match ty {
                    10 => {
                        let frames = r.count("keys", 5, usize::MAX)?;
                        let keys =
                            stepped_keys(r, frames, |r| Ok(RawKeyData::Inherit(inherit(r)?)))?;
                        (P::Inherit, keys)
                    }
                    0 => (P::Rotate, curve_keys(r, Values::Floats(1))?),
                    1 => (P::Translate, curve_keys(r, Values::Floats(2))?),
                    2 => (P::TranslateX, curve_keys(r, Values::Floats(1))?),
                    3 => (P::TranslateY, curve_keys(r, Values::Floats(1))?),
                    4 => (P::Scale, curve_keys(r, Values::Floats(2))?),
                    5 => (P::ScaleX, curve_keys(r, Values::Floats(1))?),
                    6 => (P::ScaleY, curve_keys(r, Values::Floats(1))?),
                    7 => (P::Shear, curve_keys(r, Values::Floats(2))?),
                    8 => (P::ShearX, curve_keys(r, Values::Floats(1))?),
                    9 => (P::ShearY, curve_keys(r, Values::Floats(1))?),
                    t => return r.err_at(at, format!("unknown bone timeline type {t}")),
                };
                let target = RawTarget::Bone {
                    bone: bone_name.clone(),
                    property,
                };
                self.push(target, keys);
            }
        }
        Ok(())
    }

    fn read_constraints(&mut self, r: &mut Reader) -> R<()> {
        r.context(format_args!("animation `{}`, IK timelines", self.name));
        let n = r.count("IK timelines", 4, usize::MAX)?;
        for _ in 0..n {
            let index = self.constraint(r, Kind::Ik, "IK constraint")?;
            let name = &self.rig.ik[index].name;
            self.begin(r, format_args!("IK constraint `{name}`"));
            let keys = ik_keys(r)?;
            self.push(RawTarget::Ik(name.clone()), keys);
        }
        r.context(format_args!(
            "animation `{}`, transform timelines",
            self.name
        ));
        let n = r.count("transform timelines", 4, usize::MAX)?;
        for _ in 0..n {
            let index = self.constraint(r, Kind::Transform, "transform constraint")?;
            let name = &self.rig.transforms[index].name;
            self.begin(r, format_args!("transform constraint `{name}`"));
            let keys = curve_keys(r, Values::Floats(6))?;
            self.push(RawTarget::Transform(name.clone()), keys);
        }
        r.context(format_args!("animation `{}`, path timelines", self.name));
        let n = r.count("path constraints", 2, usize::MAX)?;
        for _ in 0..n {
            let index = self.constraint(r, Kind::Path, "path constraint")?;
            let name = &self.rig.paths[index].name;
            let nn = r.count("path timelines", 3, usize::MAX)?;
            for _ in 0..nn {
                self.begin(r, format_args!("path constraint `{name}`"));
                let at = r.pos();
                let (target, keys) = match r.u8()? {
                    0 => (
                        RawTarget::PathPosition(name.clone()),
                        curve_keys(r, Values::Floats(1))?,
                    ),
                    1 => (
                        RawTarget::PathSpacing(name.clone()),
                        curve_keys(r, Values::Floats(1))?,
                    ),
                    2 => (
                        RawTarget::PathMix(name.clone()),
                        curve_keys(r, Values::Floats(3))?,
                    ),
                    t => return r.err_at(at, format!("unknown path timeline type {t}")),
                };
                self.push(target, keys);
            }
        }
        Ok(())
    }

    fn read_physics(&mut self, r: &mut Reader) -> R<()> {
        r.context(format_args!("animation `{}`, physics timelines", self.name));
        let n = r.count("physics constraints", 2, usize::MAX)?;
        for _ in 0..n {
            // 0 addresses the constraints whose `*_global` flag is set, i the constraint i - 1.
            let at = r.pos();
            let index = r.varint()? as usize;
            let index = match index.checked_sub(1) {
                // 4.3 counts in the one constraint list.
                Some(i) if r.v43 => match self.unified.get(i) {
                    Some(&(Kind::Physics, p)) => p + 1,
                    _ => {
                        return r.err_at(at, format!("constraint {i} is not a physics constraint"));
                    }
                },
                _ => index,
            };
            let constraint = match index.checked_sub(1) {
                None => None,
                Some(i) => match self.rig.physics.get(i) {
                    Some(p) => Some(p.name.clone()),
                    None => {
                        return r.err_at(
                            at,
                            format!(
                                "physics constraint index {i} out of range ({} constraints)",
                                self.rig.physics.len()
                            ),
                        );
                    }
                },
            };
            let nn = r.count("physics timelines", 2, usize::MAX)?;
            for _ in 0..nn {
                self.begin(
                    r,
                    format_args!(
                        "physics constraint `{}`",
                        constraint.as_deref().unwrap_or("")
                    ),
                );
                let at = r.pos();
                let ty = r.u8()?;
                use PhysicsProperty as P;
                let (property, keys) = match ty {
                    8 => {
                        let frames = r.count("keys", 4, usize::MAX)?;
                        (P::Reset, stepped_keys(r, frames, |_| Ok(RawKeyData::None))?)
                    }
                    0 => (P::Inertia, curve_keys(r, Values::Floats(1))?),
                    1 => (P::Strength, curve_keys(r, Values::Floats(1))?),
                    2 => (P::Damping, curve_keys(r, Values::Floats(1))?),
                    4 => (P::Mass, curve_keys(r, Values::Floats(1))?),
                    5 => (P::Wind, curve_keys(r, Values::Floats(1))?),
                    6 => (P::Gravity, curve_keys(r, Values::Floats(1))?),
                    7 => (P::Mix, curve_keys(r, Values::Floats(1))?),
                    t => return r.err_at(at, format!("unknown physics timeline type {t}")),
                };
                let target = RawTarget::Physics {
                    constraint: constraint.clone(),
                    property,
                };
                self.push(target, keys);
            }
        }
        Ok(())
    }

    fn read_attachments(&mut self, r: &mut Reader) -> R<()> {
        r.context(format_args!(
            "animation `{}`, attachment timelines",
            self.name
        ));
        let n = r.count("skins", 2, usize::MAX)?;
        for _ in 0..n {
            let skin = r.index("skin", self.rig.skins.len())?;
            let skin_name = &self.rig.skins[skin].name;
            let nn = r.count("slots", 2, usize::MAX)?;
            for _ in 0..nn {
                let slot = r.index("slot", self.rig.slots.len())?;
                let slot_name = &self.rig.slots[slot].name;
                let nnn = r.count("attachments", 3, usize::MAX)?;
                for _ in 0..nnn {
                    let at = r.pos();
                    let att = r.name_ref("attachment key")?;
                    self.begin(
                        r,
                        format_args!("skin `{skin_name}`, slot `{slot_name}`, attachment `{att}`"),
                    );
                    let Some(shape) = self.shapes.get(skin, slot, &att) else {
                        return r.err_at(
                            at,
                            format!(
                                "skin `{skin_name}` has no attachment `{att}` in slot `{slot_name}`"
                            ),
                        );
                    };
                    let at = r.pos();
                    let ty = r.u8()?;
                    let (skin, slot, attachment) =
                        (skin_name.clone(), slot_name.clone(), att.clone());
                    match ty {
                        0 => {
                            let Shape::Vertex { floats, .. } = shape else {
                                return r.err_at(at, format!("`{att}` has no vertices to deform"));
                            };
                            let keys = deform_keys(r, floats)?;
                            let target = RawTarget::Deform {
                                skin,
                                slot,
                                attachment,
                            };
                            self.push(target, keys);
                        }
                        1 => {
                            if !matches!(shape, Shape::Region | Shape::Vertex { mesh: true, .. }) {
                                return r
                                    .err_at(at, format!("`{att}` is neither a region nor a mesh"));
                            }
                            let frames = r.count("keys", 12, usize::MAX)?;
                            let keys = stepped_keys(r, frames, sequence_key)?;
                            let target = RawTarget::Sequence {
                                skin,
                                slot,
                                attachment,
                            };
                            self.push(target, keys);
                        }
                        t => {
                            return r.err_at(at, format!("unknown attachment timeline type {t}"));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn read_draw_order(&mut self, r: &mut Reader) -> R<()> {
        r.context(format_args!("animation `{}`, draw order", self.name));
        let frames = r.count("draw order keys", 5, usize::MAX)?;
        if frames == 0 {
            return Ok(());
        }
        self.begin(r, format_args!("draw order"));
        let slot_count = self.rig.slots.len();
        // The key (counted from 1) that took each position: no clearing between keys, so a
        // file with many keys over many slots costs no more than its offsets.
        let mut taken = vec![0usize; slot_count];
        let mut key = 0usize;
        let slots = &self.rig.slots;
        let keys = stepped_keys(r, frames, |r| {
            key += 1;
            offsets_key(r, slot_count, |i| &slots[i].name, &mut taken, key)
        })?;
        self.push(RawTarget::DrawOrder, keys);
        Ok(())
    }

    /// Spine 4.3 draw order folders: per folder its slots, then stepped keys whose offsets
    /// count among the folder's slots.
    fn read_draw_order_folders(&mut self, r: &mut Reader) -> R<()> {
        r.context(format_args!(
            "animation `{}`, draw order folders",
            self.name
        ));
        let n = r.count("draw order folders", 2, usize::MAX)?;
        let slot_count = self.rig.slots.len();
        for _ in 0..n {
            self.begin(r, format_args!("draw order folder"));
            let m = r.count("folder slots", 1, slot_count)?;
            let mut slots: Vec<String> = Vec::with_capacity(m);
            for _ in 0..m {
                let at = r.pos();
                let name = &self.rig.slots[r.index("slot", slot_count)?].name;
                if slots.contains(name) {
                    return r.err_at(at, format!("slot `{name}` is listed twice in the folder"));
                }
                slots.push(name.clone());
            }
            let mut taken = vec![0usize; m];
            let mut key = 0usize;
            let frames = r.count("draw order folder keys", 5, usize::MAX)?;
            let keys = stepped_keys(r, frames, |r| {
                key += 1;
                offsets_key(r, m, |i| &slots[i], &mut taken, key)
            })?;
            self.push(RawTarget::DrawOrderFolder { slots }, keys);
        }
        Ok(())
    }

    fn read_events(&mut self, r: &mut Reader) -> R<()> {
        r.context(format_args!("animation `{}`, events", self.name));
        let frames = r.count("event keys", 11, usize::MAX)?;
        if frames == 0 {
            return Ok(());
        }
        self.begin(r, format_args!("events"));
        let events = &self.rig.events;
        let audio = self.event_audio;
        let keys = stepped_keys(r, frames, |r| {
            let index = r.index("event", events.len())?;
            let int = r.varint_signed()?;
            let float = r.f32()?;
            let string = r.string()?;
            let (volume, balance) = if audio.get(index).copied().unwrap_or(false) {
                (Some(r.f32()?), Some(r.f32()?))
            } else {
                (None, None)
            };
            Ok(RawKeyData::Event {
                name: events[index].name.clone(),
                int: Some(int),
                float: Some(float),
                string,
                volume,
                balance,
            })
        })?;
        self.push(RawTarget::Event, keys);
        Ok(())
    }
}

/// Refuses a key time before the previous one.
fn check_time(r: &Reader, at: usize, time: f64, last: f64) -> R<()> {
    if time < last {
        return r.err_at(
            at,
            format!("key time {time} is before the previous key's {last}"),
        );
    }
    Ok(())
}

/// `frames` held keys: a time each, then what `data` reads.
fn stepped_keys(
    r: &mut Reader,
    frames: usize,
    mut data: impl FnMut(&mut Reader) -> R<RawKeyData>,
) -> R<Vec<RawKey>> {
    let mut keys = Vec::new();
    let mut last = f64::NEG_INFINITY;
    for _ in 0..frames {
        let at = r.pos();
        let time = r.f64()?;
        check_time(r, at, time, last)?;
        last = time;
        let data = data(r)?;
        keys.push(RawKey {
            time,
            values: Vec::new(),
            curve: RawCurve::Stepped,
            data,
        });
    }
    Ok(keys)
}

/// The curve of the key before this one: a type byte, and for a Bezier `n` curves.
fn curve(r: &mut Reader, n: usize) -> R<RawCurve> {
    let at = r.pos();
    match r.u8()? {
        0 => Ok(RawCurve::Linear),
        1 => Ok(RawCurve::Stepped),
        2 => bezier(r, n),
        t => r.err_at(at, format!("unknown curve type {t}")),
    }
}

/// `n` Bezier curves: `cx1 cy1 cx2 cy2` each.
fn bezier(r: &mut Reader, n: usize) -> R<RawCurve> {
    let mut v = Vec::with_capacity(4 * n);
    for _ in 0..4 * n {
        v.push(r.f64()?);
    }
    Ok(RawCurve::Bezier(v))
}

/// A key count, which a curve timeline needs at least one of.
fn curve_frames(r: &mut Reader, key_bytes: usize) -> R<usize> {
    let at = r.pos();
    let frames = r.count("keys", key_bytes, usize::MAX)?;
    if frames == 0 {
        return r.err_at(at, "a curve timeline needs at least one key");
    }
    Ok(frames)
}

/// A curve timeline: key count, Bezier count (a hint, not used), then the keys.
fn curve_keys(r: &mut Reader, values: Values) -> R<Vec<RawKey>> {
    let frames = curve_frames(r, values.key_bytes())?;
    r.varint()?; // Bezier count
    let n = values.count();
    let mut keys: Vec<RawKey> = Vec::new();
    let mut last = f64::NEG_INFINITY;
    for frame in 0..frames {
        let at = r.pos();
        let time = r.f64()?;
        check_time(r, at, time, last)?;
        last = time;
        let mut v = Vec::with_capacity(n);
        values.read(r, &mut v)?;
        if let Some(prev) = frame.checked_sub(1) {
            keys[prev].curve = curve(r, n)?;
        }
        keys.push(RawKey {
            time,
            values: v,
            curve: RawCurve::Linear,
            data: RawKeyData::None,
        });
    }
    Ok(keys)
}

/// IK keys: per key a flags byte (mix present / not 1, softness present, bend, compress,
/// stretch, and the previous key's curve: bit 6 stepped, bit 7 Bezier), the time, mix and
/// softness.
fn ik_keys(r: &mut Reader) -> R<Vec<RawKey>> {
    let frames = curve_frames(r, 5)?;
    r.varint()?; // Bezier count
    let mut keys: Vec<RawKey> = Vec::new();
    let mut last = f64::NEG_INFINITY;
    for frame in 0..frames {
        let f = r.u8()?;
        let at = r.pos();
        let time = r.f64()?;
        check_time(r, at, time, last)?;
        last = time;
        let mix = match (f & 1 != 0, f & 2 != 0) {
            (true, true) => r.f64()?,
            (true, false) => 1.0,
            (false, _) => 0.0,
        };
        let softness = if f & 4 != 0 { r.f64()? } else { 0.0 };
        if let Some(prev) = frame.checked_sub(1) {
            keys[prev].curve = if f & 64 != 0 {
                RawCurve::Stepped
            } else if f & 128 != 0 {
                bezier(r, 2)?
            } else {
                RawCurve::Linear
            };
        }
        keys.push(RawKey {
            time,
            values: vec![mix, softness],
            curve: RawCurve::Linear,
            data: RawKeyData::IkFlags {
                bend_positive: f & 8 != 0,
                compress: f & 16 != 0,
                stretch: f & 32 != 0,
            },
        });
    }
    Ok(keys)
}

/// One draw order key over `count` slots (all of them, or a 4.3 folder's), `name` naming
/// slot `i`: the moved slots in increasing index, each with its offset to a position not yet
/// `taken` by key number `key` (no clearing between keys: a file with many keys over many
/// slots costs no more than its offsets).
fn offsets_key<'n>(
    r: &mut Reader,
    count: usize,
    name: impl Fn(usize) -> &'n str,
    taken: &mut [usize],
    key: usize,
) -> R<RawKeyData> {
    let n = r.count("draw order offsets", 2, count)?;
    let mut next_original = 0usize;
    let mut out = Vec::new();
    for _ in 0..n {
        let at = r.pos();
        let index = r.index("slot", count)?;
        let slot = name(index);
        if index < next_original {
            return r.err_at(
                at,
                format!(
                    "slot `{slot}` is out of order (offsets list slots in setup order once each)"
                ),
            );
        }
        // COMPAT(spine): the offset is written as an unsigned varint holding the 32-bit
        // two's complement of a negative offset.
        let offset = r.varint()? as i32;
        let target = index as i64 + i64::from(offset);
        if target < 0 || target >= count as i64 || taken[target as usize] == key {
            return r.err_at(
                at,
                format!(
                    "offset {offset} moves slot `{slot}` to an invalid or taken position {target}"
                ),
            );
        }
        taken[target as usize] = key;
        next_original = index + 1;
        out.push((slot.to_owned(), offset));
    }
    Ok(RawKeyData::DrawOrder(Some(out)))
}

/// Deform keys of an attachment with `floats` deform values: the time, then per key a
/// value count (0: no deltas) with its start and the deltas, then the next key's time and
/// this key's curve (one Bezier, for the 0..1 mix).
fn deform_keys(r: &mut Reader, floats: usize) -> R<Vec<RawKey>> {
    let frames = curve_frames(r, 5)?;
    r.varint()?; // Bezier count
    let mut keys: Vec<RawKey> = Vec::new();
    let mut at = r.pos();
    let mut time = r.f64()?;
    let mut last = f64::NEG_INFINITY;
    for frame in 0..frames {
        check_time(r, at, time, last)?;
        last = time;
        let count_at = r.pos();
        let end = r.varint()? as usize;
        let (offset, vertices) = if end == 0 {
            (0, Vec::new())
        } else {
            let start = r.varint()? as usize;
            if start.saturating_add(end) > floats {
                return r.err_at(
                    count_at,
                    format!(
                        "{end} deform values at offset {start} run past the attachment's {floats}"
                    ),
                );
            }
            (start as u32, r.floats(end)?)
        };
        keys.push(RawKey {
            time,
            values: Vec::new(),
            curve: RawCurve::Linear,
            data: RawKeyData::Deform { offset, vertices },
        });
        if frame + 1 == frames {
            break;
        }
        at = r.pos();
        time = r.f64()?;
        keys[frame].curve = curve(r, 1)?;
    }
    Ok(keys)
}

/// A sequence key: mode (low 4 bits) and index (the rest, signed) in one int, then the delay.
fn sequence_key(r: &mut Reader) -> R<RawKeyData> {
    let at = r.pos();
    let v = r.i32()?;
    use SequenceMode as M;
    let mode = match v & 0xf {
        0 => M::Hold,
        1 => M::Once,
        2 => M::Loop,
        3 => M::Pingpong,
        4 => M::OnceReverse,
        5 => M::LoopReverse,
        6 => M::PingpongReverse,
        m => return r.err_at(at, format!("unknown sequence mode {m}")),
    };
    Ok(RawKeyData::Sequence {
        mode,
        index: v >> 4,
        delay: r.f32()?,
    })
}
