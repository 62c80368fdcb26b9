//! Animations of the Spine 4.2 binary writer, mirroring `animations.rs`: per clip the
//! timeline count, then the slot, bone, IK, transform, path, physics, attachment (deform and
//! sequence), draw-order and event sections. Timelines of one slot, bone, constraint or
//! attachment are grouped in order of first appearance (the reader's order for a rig read
//! from a `.skel`). Curve timelines store the first key, then per further key its time,
//! values and the curve of the key before it; the Bezier count is the number of Bezier
//! curves (one per value) the official reader allocates for.

use super::constraints43::Kind;
use super::write::{Names, Out, W, byte, inherit_code, lookup};
use super::write_skins::{Skins, deform_floats};
use sinew::raw::*;
use std::collections::HashMap;

/// How a curve timeline's key values are stored.
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
}

/// Items of type `T` keyed by `K`, in order of first appearance.
struct Groups<K, T> {
    list: Vec<(K, Vec<T>)>,
    at: HashMap<K, usize>,
}

impl<K: std::hash::Hash + Eq + Clone, T> Groups<K, T> {
    fn new() -> Self {
        Groups {
            list: Vec::new(),
            at: HashMap::new(),
        }
    }

    fn push(&mut self, k: K, t: T) {
        let list = &mut self.list;
        let i = *self.at.entry(k.clone()).or_insert_with(|| {
            list.push((k, Vec::new()));
            list.len() - 1
        });
        self.list[i].1.push(t);
    }
}

/// Writes every clip.
pub(crate) fn write_animations(
    o: &mut Out,
    rig: &RawRig,
    names: &Names,
    skins: &Skins,
    nonessential: bool,
) -> W<()> {
    o.context(format_args!("animations"));
    o.count(rig.clips.len())?;
    for clip in &rig.clips {
        o.context(format_args!("animation `{}`", clip.name));
        o.string(Some(&clip.name));
        write_clip(o, rig, names, skins, clip, nonessential)?;
    }
    Ok(())
}

fn write_clip(
    o: &mut Out,
    rig: &RawRig,
    names: &Names,
    skins: &Skins,
    clip: &RawClip,
    nonessential: bool,
) -> W<()> {
    let mut slots = Groups::new();
    let mut bones = Groups::new();
    let mut ik = Vec::new();
    let mut transforms = Vec::new();
    let mut paths = Groups::new();
    let mut physics = Groups::new();
    let mut sliders = Groups::new();
    let mut attachments: Groups<usize, (&str, &str, &RawTimeline)> = Groups::new();
    let mut draw_order = None;
    let mut folders: Vec<&RawTimeline> = Vec::new();
    let mut events = None;
    let mut count = 0usize;
    for (n, t) in clip.timelines.iter().enumerate() {
        o.context(format_args!(
            "animation `{}`, timeline {} ({:?})",
            clip.name,
            n + 1,
            t.target
        ));
        if t.keys.is_empty() {
            continue; // the reader drops empty timelines too
        }
        count += 1;
        match &t.target {
            RawTarget::Slot { slot, .. } => {
                slots.push(lookup(o, &names.slots, "slot", slot)?, t);
            }
            RawTarget::Bone { bone, .. } => {
                bones.push(lookup(o, &names.bones, "bone", bone)?, t);
            }
            RawTarget::Ik(c) => {
                let i = lookup(o, &names.ik, "IK constraint", c)?;
                ik.push((names.constraint(o, Kind::Ik, i), t));
            }
            RawTarget::Transform(c) => {
                let i = lookup(o, &names.transforms, "transform constraint", c)?;
                transforms.push((names.constraint(o, Kind::Transform, i), t));
            }
            RawTarget::PathPosition(c) | RawTarget::PathSpacing(c) | RawTarget::PathMix(c) => {
                let i = lookup(o, &names.paths, "path constraint", c)?;
                paths.push(names.constraint(o, Kind::Path, i), t);
            }
            RawTarget::Physics { constraint, .. } => {
                let i = match constraint {
                    Some(c) => {
                        let i = lookup(o, &names.physics, "physics constraint", c)?;
                        names.constraint(o, Kind::Physics, i) + 1
                    }
                    None => 0,
                };
                physics.push(i, t);
            }
            RawTarget::SliderTime(c) | RawTarget::SliderMix(c) => {
                if !o.v43 {
                    return o.err("slider timelines exist only in Spine 4.3");
                }
                let Some(i) = rig.sliders.iter().position(|s| &s.name == c) else {
                    return o.err(format!("unknown slider `{c}`"));
                };
                sliders.push(names.constraint(o, Kind::Slider, i), t);
            }
            RawTarget::Deform {
                skin,
                slot,
                attachment,
            }
            | RawTarget::Sequence {
                skin,
                slot,
                attachment,
            } => {
                let Some(&si) = skins.index.get(skin.as_str()) else {
                    return o.err(format!("unknown skin `{skin}`"));
                };
                attachments.push(si, (slot.as_str(), attachment.as_str(), t));
            }
            RawTarget::DrawOrderFolder { .. } => {
                if !o.v43 {
                    return o.err("draw order folders are Spine 4.3 (write the rig as 4.3)");
                }
                folders.push(t);
            }
            RawTarget::DrawOrder => {
                if draw_order.replace(t).is_some() {
                    return o.err("the format holds one draw-order timeline per animation");
                }
            }
            RawTarget::Event => {
                if events.replace(t).is_some() {
                    return o.err("the format holds one event timeline per animation");
                }
            }
        }
    }
    o.context(format_args!("animation `{}`", clip.name));
    o.count(count)?;
    let ctx = |o: &mut Out, target: &RawTarget| {
        o.context(format_args!("animation `{}`, {target:?}", clip.name));
    };
    // Slots.
    o.count(slots.list.len())?;
    for (slot, list) in &slots.list {
        o.count(*slot)?;
        o.count(list.len())?;
        for t in list {
            ctx(o, &t.target);
            let RawTarget::Slot { property, .. } = &t.target else {
                continue;
            };
            match property {
                SlotProperty::Attachment => {
                    o.u8(0);
                    stepped(o, &t.keys, |o, k| match &k.data {
                        RawKeyData::Attachment(a) => o.string_ref(a.as_deref()),
                        _ => o.err("an attachment key without an attachment"),
                    })?;
                }
                SlotProperty::Rgba => curve_keys(o, 1, &t.keys, Values::Bytes(4))?,
                SlotProperty::Rgb => curve_keys(o, 2, &t.keys, Values::Bytes(3))?,
                SlotProperty::Rgba2 => curve_keys(o, 3, &t.keys, Values::Bytes(7))?,
                SlotProperty::Rgb2 => curve_keys(o, 4, &t.keys, Values::Bytes(6))?,
                SlotProperty::Alpha => curve_keys(o, 5, &t.keys, Values::Bytes(1))?,
            }
        }
    }
    // Bones.
    o.count(bones.list.len())?;
    for (bone, list) in &bones.list {
        o.count(*bone)?;
        o.count(list.len())?;
        for t in list {
            ctx(o, &t.target);
            let RawTarget::Bone { property, .. } = &t.target else {
                continue;
            };
            use BoneProperty as P;
            let (ty, n) = match property {
                P::Inherit => {
                    o.u8(10);
                    stepped(o, &t.keys, |o, k| match k.data {
                        RawKeyData::Inherit(i) => {
                            let c = inherit_code(o, i)?;
                            o.u8(c);
                            Ok(())
                        }
                        _ => o.err("an inherit key without an inherit mode"),
                    })?;
                    continue;
                }
                P::Rotate => (0, 1),
                P::Translate => (1, 2),
                P::TranslateX => (2, 1),
                P::TranslateY => (3, 1),
                P::Scale => (4, 2),
                P::ScaleX => (5, 1),
                P::ScaleY => (6, 1),
                P::Shear => (7, 2),
                P::ShearX => (8, 1),
                P::ShearY => (9, 1),
            };
            curve_keys(o, ty, &t.keys, Values::Floats(n))?;
        }
    }
    // IK.
    o.count(ik.len())?;
    for (i, t) in ik {
        ctx(o, &t.target);
        o.count(i)?;
        ik_keys(o, &t.keys)?;
    }
    // Transform.
    o.count(transforms.len())?;
    for (i, t) in transforms {
        ctx(o, &t.target);
        o.count(i)?;
        curve_body(o, &t.keys, Values::Floats(6))?;
    }
    // Path.
    o.count(paths.list.len())?;
    for (i, list) in &paths.list {
        o.count(*i)?;
        o.count(list.len())?;
        for t in list {
            ctx(o, &t.target);
            match &t.target {
                RawTarget::PathPosition(_) => curve_keys(o, 0, &t.keys, Values::Floats(1))?,
                RawTarget::PathSpacing(_) => curve_keys(o, 1, &t.keys, Values::Floats(1))?,
                _ => curve_keys(o, 2, &t.keys, Values::Floats(3))?,
            }
        }
    }
    // Physics.
    o.count(physics.list.len())?;
    for (i, list) in &physics.list {
        o.count(*i)?;
        o.count(list.len())?;
        for t in list {
            ctx(o, &t.target);
            let RawTarget::Physics { property, .. } = &t.target else {
                continue;
            };
            use PhysicsProperty as P;
            let ty = match property {
                P::Reset => {
                    o.u8(8);
                    stepped(o, &t.keys, |_, _| Ok(()))?;
                    continue;
                }
                P::Inertia => 0,
                P::Strength => 1,
                P::Damping => 2,
                P::Mass => 4,
                P::Wind => 5,
                P::Gravity => 6,
                P::Mix => 7,
            };
            curve_keys(o, ty, &t.keys, Values::Floats(1))?;
        }
    }
    if o.v43 {
        o.count(sliders.list.len())?;
        for (i, list) in &sliders.list {
            o.count(*i)?;
            o.count(list.len())?;
            for t in list {
                ctx(o, &t.target);
                let ty = u8::from(matches!(t.target, RawTarget::SliderMix(_)));
                curve_keys(o, ty, &t.keys, Values::Floats(1))?;
            }
        }
    }
    write_attachment_timelines(o, names, skins, &attachments)?;
    // Draw order.
    o.context(format_args!("animation `{}`, draw order", clip.name));
    match draw_order {
        Some(t) => draw_order_keys(o, rig, names, &t.keys)?,
        None => o.varint(0),
    }
    if o.v43 {
        o.context(format_args!(
            "animation `{}`, draw order folders",
            clip.name
        ));
        o.count(folders.len())?;
        for t in folders {
            let RawTarget::DrawOrderFolder { slots } = &t.target else {
                continue;
            };
            o.count(slots.len())?;
            for s in slots {
                let i = lookup(o, &names.slots, "slot", s)?;
                o.count(i)?;
            }
            let in_folder = |slot: &str| slots.iter().position(|s| s == slot);
            offsets_keys(o, slots.len(), &in_folder, &t.keys)?;
        }
    }
    // Events.
    o.context(format_args!("animation `{}`, events", clip.name));
    match events {
        Some(t) => event_keys(o, rig, names, &t.keys)?,
        None => o.varint(0),
    }
    if o.v43 && nonessential {
        o.i32(-1); // editor colour
    }
    Ok(())
}

fn write_attachment_timelines(
    o: &mut Out,
    names: &Names,
    skins: &Skins,
    attachments: &Groups<usize, (&str, &str, &RawTimeline)>,
) -> W<()> {
    o.count(attachments.list.len())?;
    for (skin, list) in &attachments.list {
        o.count(*skin)?;
        let mut by_slot: Groups<usize, (&str, &RawTimeline)> = Groups::new();
        for (slot, att, t) in list {
            by_slot.push(lookup(o, &names.slots, "slot", slot)?, (*att, *t));
        }
        o.count(by_slot.list.len())?;
        for (slot, entries) in &by_slot.list {
            o.count(*slot)?;
            o.count(entries.len())?;
            for (att, t) in entries {
                o.context(format_args!("{:?}", t.target));
                o.string_ref(Some(att))?;
                let (RawTarget::Deform { skin, slot, .. } | RawTarget::Sequence { skin, slot, .. }) =
                    &t.target
                else {
                    continue;
                };
                let Some(a) = skins.resolve(skin, slot, att) else {
                    return o.err(format!(
                        "skin `{skin}` has no attachment `{att}` in slot `{slot}`"
                    ));
                };
                if matches!(t.target, RawTarget::Deform { .. }) {
                    let floats = match &a.kind {
                        RawAttachmentKind::Mesh { vertices, .. }
                        | RawAttachmentKind::BoundingBox { vertices, .. }
                        | RawAttachmentKind::Path { vertices, .. }
                        | RawAttachmentKind::Clipping { vertices, .. } => deform_floats(vertices),
                        _ => return o.err(format!("`{att}` has no vertices to deform")),
                    };
                    o.u8(0);
                    deform_keys(o, &t.keys, floats)?;
                } else {
                    if !matches!(
                        a.kind,
                        RawAttachmentKind::Region { .. } | RawAttachmentKind::Mesh { .. }
                    ) {
                        return o.err(format!("`{att}` is neither a region nor a mesh"));
                    }
                    o.u8(1);
                    stepped(o, &t.keys, |o, k| match k.data {
                        RawKeyData::Sequence { mode, index, delay } => {
                            use SequenceMode as M;
                            let m = match mode {
                                M::Hold => 0,
                                M::Once => 1,
                                M::Loop => 2,
                                M::Pingpong => 3,
                                M::OnceReverse => 4,
                                M::LoopReverse => 5,
                                M::PingpongReverse => 6,
                            };
                            o.i32(index.wrapping_shl(4) | m);
                            o.f32(delay)
                        }
                        _ => o.err("a sequence key without sequence data"),
                    })?;
                }
            }
        }
    }
    Ok(())
}

/// Refuses a key time before the previous one (the reader would).
fn check_times(o: &Out, keys: &[RawKey]) -> W<()> {
    for w in keys.windows(2) {
        if w[1].time < w[0].time {
            return o.err(format!(
                "key time {} is before the previous key's {}",
                w[1].time, w[0].time
            ));
        }
    }
    Ok(())
}

/// Held keys: the count, then a time each and what `data` writes.
fn stepped(
    o: &mut Out,
    keys: &[RawKey],
    mut data: impl FnMut(&mut Out, &RawKey) -> W<()>,
) -> W<()> {
    check_times(o, keys)?;
    o.count(keys.len())?;
    for k in keys {
        o.f64(k.time)?;
        data(o, k)?;
    }
    Ok(())
}

/// Bezier curves over `n` values among the keys but the last.
fn bezier_count(keys: &[RawKey], n: usize) -> usize {
    let Some((_, rest)) = keys.split_last() else {
        return 0;
    };
    rest.iter()
        .filter(|k| matches!(k.curve, RawCurve::Bezier(_)))
        .count()
        * n
}

/// The curve of a key (to the next): the type byte, and for a Bezier its `4 × n` numbers.
fn curve(o: &mut Out, c: &RawCurve, n: usize) -> W<()> {
    match c {
        RawCurve::Linear => o.u8(0),
        RawCurve::Stepped => o.u8(1),
        // `write_spine_binary` turns them into linear keys first (`spine::eased`).
        RawCurve::Eased { .. } => return o.err("an eased key Spine cannot express"),
        RawCurve::Bezier(v) => {
            if v.len() != 4 * n {
                return o.err(format!(
                    "a Bezier of {} numbers where {} values need {}",
                    v.len(),
                    n,
                    4 * n
                ));
            }
            o.u8(2);
            for &x in v {
                o.f64(x)?;
            }
        }
    }
    Ok(())
}

/// A typed curve timeline: the type byte and the keys.
fn curve_keys(o: &mut Out, ty: u8, keys: &[RawKey], values: Values) -> W<()> {
    o.u8(ty);
    curve_body(o, keys, values)
}

/// Key count, Bezier count, then per key its time and values and (after the first) the
/// previous key's curve.
fn curve_body(o: &mut Out, keys: &[RawKey], values: Values) -> W<()> {
    check_times(o, keys)?;
    let n = values.count();
    o.count(keys.len())?;
    o.count(bezier_count(keys, n))?;
    for (i, k) in keys.iter().enumerate() {
        if k.values.len() != n {
            return o.err(format!(
                "key at {} has {} values where {n} are needed",
                k.time,
                k.values.len()
            ));
        }
        o.f64(k.time)?;
        for &v in &k.values {
            match values {
                Values::Floats(_) => o.f64(v)?,
                Values::Bytes(_) => o.u8(byte(v as f32)),
            }
        }
        if i > 0 {
            curve(o, &keys[i - 1].curve, n)?;
        }
    }
    Ok(())
}

fn ik_keys(o: &mut Out, keys: &[RawKey]) -> W<()> {
    check_times(o, keys)?;
    o.count(keys.len())?;
    o.count(bezier_count(keys, 2))?;
    for (i, k) in keys.iter().enumerate() {
        let (mix, softness) = match k.values.as_slice() {
            [m, s] => (*m, *s),
            [m] => (*m, 0.0),
            _ => return o.err(format!("IK key at {} needs mix and softness", k.time)),
        };
        let (bend, compress, stretch) = match k.data {
            RawKeyData::IkFlags {
                bend_positive,
                compress,
                stretch,
            } => (bend_positive, compress, stretch),
            _ => (true, false, false),
        };
        let prev = i.checked_sub(1).map(|p| &keys[p].curve);
        let mut f = 0u8;
        for (bit, on) in [
            (1, mix != 0.0),
            (2, mix != 0.0 && mix != 1.0),
            (4, softness != 0.0),
            (8, bend),
            (16, compress),
            (32, stretch),
            (64, matches!(prev, Some(RawCurve::Stepped))),
            (128, matches!(prev, Some(RawCurve::Bezier(_)))),
        ] {
            if on {
                f |= bit;
            }
        }
        o.u8(f);
        o.f64(k.time)?;
        if f & 2 != 0 {
            o.f64(mix)?;
        }
        if f & 4 != 0 {
            o.f64(softness)?;
        }
        if let Some(c @ RawCurve::Bezier(_)) = prev {
            // The type is in the flags: only the numbers follow.
            let mut tmp = Out::new();
            curve(&mut tmp, c, 2).or_else(|e| o.err(e.message))?;
            o.buf
                .extend_from_slice(tmp.buf.get(1..).unwrap_or_default());
        }
    }
    Ok(())
}

/// Deform keys: the first time, then per key its deltas (count, start, values) and, before
/// each further key, that key's time and this key's curve.
fn deform_keys(o: &mut Out, keys: &[RawKey], floats: usize) -> W<()> {
    check_times(o, keys)?;
    o.count(keys.len())?;
    o.count(bezier_count(keys, 1))?;
    let Some(first) = keys.first() else {
        return Ok(());
    };
    o.f64(first.time)?;
    for (i, k) in keys.iter().enumerate() {
        let RawKeyData::Deform { offset, vertices } = &k.data else {
            return o.err(format!("deform key at {} without deform data", k.time));
        };
        if vertices.is_empty() {
            o.varint(0);
        } else {
            if (*offset as usize).saturating_add(vertices.len()) > floats {
                return o.err(format!(
                    "{} deform values at offset {offset} run past the attachment's {floats}",
                    vertices.len()
                ));
            }
            o.count(vertices.len())?;
            o.varint(*offset);
            o.floats(vertices)?;
        }
        if let Some(next) = keys.get(i + 1) {
            o.f64(next.time)?;
            curve(o, &k.curve, 1)?;
        }
    }
    Ok(())
}

fn draw_order_keys(o: &mut Out, rig: &RawRig, names: &Names, keys: &[RawKey]) -> W<()> {
    let index = |slot: &str| names.slots.get(slot).copied();
    offsets_keys(o, rig.slots.len(), &index, keys)
}

/// Stepped draw order keys over `n` slots, `index` numbering a slot among them: per key the
/// moved slots in increasing index, each with its offset.
fn offsets_keys(
    o: &mut Out,
    n: usize,
    index: &dyn Fn(&str) -> Option<usize>,
    keys: &[RawKey],
) -> W<()> {
    let mut taken = vec![usize::MAX; n];
    let mut key_no = 0usize;
    stepped(o, keys, |o, k| {
        key_no += 1;
        let RawKeyData::DrawOrder(offsets) = &k.data else {
            return o.err(format!("draw-order key at {} without offsets", k.time));
        };
        let mut list: Vec<(usize, i32)> = Vec::new();
        for (slot, off) in offsets.iter().flatten() {
            let Some(i) = index(slot) else {
                return o.err(format!(
                    "draw-order key at {}: unknown slot `{slot}`",
                    k.time
                ));
            };
            list.push((i, *off));
        }
        // The format lists slots in setup order, each once.
        list.sort_by_key(|&(i, _)| i);
        o.count(list.len())?;
        let mut last = None;
        for (i, off) in list {
            let target = i as i64 + i64::from(off);
            if last == Some(i)
                || target < 0
                || target >= n as i64
                || taken[target as usize] == key_no
            {
                return o.err(format!(
                    "draw-order key at {}: slot {i} listed twice or moved to an invalid or \
                     taken position {target}",
                    k.time
                ));
            }
            taken[target as usize] = key_no;
            last = Some(i);
            o.count(i)?;
            o.varint(off as u32);
        }
        Ok(())
    })
}

fn event_keys(o: &mut Out, rig: &RawRig, names: &Names, keys: &[RawKey]) -> W<()> {
    stepped(o, keys, |o, k| {
        let RawKeyData::Event {
            name,
            int,
            float,
            string,
            volume,
            balance,
        } = &k.data
        else {
            return o.err(format!("event key at {} without an event", k.time));
        };
        let i = lookup(o, &names.events, "event", name)?;
        let def = &rig.events[i];
        o.count(i)?;
        o.varint_signed(int.unwrap_or(def.int));
        o.f32(float.unwrap_or(def.float))?;
        o.string(string.as_deref());
        if def.audio.as_deref().is_some_and(|a| !a.is_empty()) {
            o.f32(volume.unwrap_or(def.volume))?;
            o.f32(balance.unwrap_or(def.balance))?;
        }
        Ok(())
    })
}
