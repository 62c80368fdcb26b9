//! Timelines with payloads: deform (full key vertex arrays), sequence, draw order
//! (offsets to permutations) and events (defaults resolved).

use super::values::describe;
use super::{Built, Ctx};
use crate::ids::{AttachmentId, SlotId};
use crate::raw::{RawCurve, RawKeyData, RawTimeline};
use crate::rig::AttachmentKind;
use crate::rig::clip::{EventKey, SequenceKey, TimelineKind};
use crate::rig::curve::Curves;
use crate::rig::problem::ProblemKind;

/// Resolves `skin/slot/key` to the attachment a deform or sequence timeline targets.
fn attachment(
    cx: &mut Ctx<'_>,
    rt: &RawTimeline,
    skin: &str,
    slot: &str,
    key: &str,
) -> Option<(SlotId, AttachmentId)> {
    let found = (|| {
        let sk = cx.rig.skin(skin)?;
        let s = cx.rig.slot(slot)?;
        let k = *cx.rig.names.attachment_keys.get(key)?;
        Some((s, cx.rig.skins.get(sk.index())?.get(s, k)?))
    })();
    if found.is_none() {
        cx.problem(
            ProblemKind::UnknownName,
            format!("{}: no such skin, slot or attachment", describe(&rt.target)),
        );
    }
    found
}

/// A times-only frame list (f32, as the official Float32Array frames).
fn times(rt: &RawTimeline) -> Vec<f32> {
    rt.keys.iter().map(|k| k.time as f32).collect()
}

pub(super) fn deform(
    cx: &mut Ctx<'_>,
    rt: &RawTimeline,
    skin: &str,
    slot: &str,
    key: &str,
) -> Option<Built> {
    let (s, att) = attachment(cx, rt, skin, slot, key)?;
    let Some(verts) = cx.rig.attachments[att.index()].vertices() else {
        cx.problem(
            ProblemKind::Value,
            format!("{}: not a vertex attachment", describe(&rt.target)),
        );
        return None;
    };
    let weighted = verts.is_weighted();
    let setup: &[f32] = &verts.values;
    // Weighted vertices hold x, y, weight per influence; the deform has x, y per influence.
    let len = if weighted {
        setup.len() / 3 * 2
    } else {
        setup.len()
    };
    let capacity = cx
        .rig
        .slot_deform_capacity
        .get(s.index())
        .copied()
        .unwrap_or(0) as usize;
    if len > capacity {
        cx.problem(
            ProblemKind::Value,
            format!(
                "{}: needs {len} deform floats, slot capacity is {capacity}",
                describe(&rt.target)
            ),
        );
        return None;
    }
    // Every key is stored whole: charged to the rig's deform budget before it is made.
    let need = (len as u64).saturating_mul(rt.keys.len() as u64);
    if need > *cx.deform_left {
        cx.problem(
            ProblemKind::Value,
            format!(
                "{}: {} keys of {len} deform floats each ({need} floats) exceed what is left                  of the rig's deform budget ({} floats, {} per value of the rig's data): the                  keys would take far more memory than the file holds",
                describe(&rt.target),
                rt.keys.len(),
                *cx.deform_left,
                super::DEFORM_PER_RAW,
            ),
        );
        return None;
    }
    *cx.deform_left -= need;
    let mut vertices = Vec::with_capacity(len * rt.keys.len());
    for (k, key) in rt.keys.iter().enumerate() {
        let RawKeyData::Deform {
            offset,
            vertices: deltas,
        } = &key.data
        else {
            cx.problem(
                ProblemKind::Value,
                format!("{}: key {k} has no deform data", describe(&rt.target)),
            );
            return None;
        };
        let start = vertices.len();
        if deltas.is_empty() {
            // COMPAT(spine): no vertices = setup (unweighted) or zero deltas (weighted).
            if weighted {
                vertices.resize(start + len, 0.0);
            } else {
                vertices.extend_from_slice(setup);
            }
            continue;
        }
        vertices.resize(start + len, 0.0);
        let key_vertices = &mut vertices[start..];
        // COMPAT(spine): deltas past the end are dropped, as a Float32Array write would be.
        for (i, &d) in deltas.iter().enumerate() {
            if let Some(v) = key_vertices.get_mut(*offset as usize + i) {
                *v = d;
            }
        }
        if !weighted {
            for (v, &sv) in key_vertices.iter_mut().zip(setup) {
                *v = (f64::from(*v) + f64::from(sv)) as f32;
            }
        }
    }
    let mut curves = Curves::new(rt.keys.len());
    for k in 0..rt.keys.len().saturating_sub(1) {
        let (a, b) = (&rt.keys[k], &rt.keys[k + 1]);
        match &a.curve {
            RawCurve::Linear => {}
            RawCurve::Stepped => curves.set_stepped(k),
            &RawCurve::Eased { easing, hundredths } => curves.set_eased(k, easing, hundredths),
            // COMPAT(spine): sampled from the loader's f64 times and handles.
            RawCurve::Bezier(c) if c.len() >= 4 => {
                curves.push_deform_bezier(k, a.time, c[0], c[1], c[2], c[3], b.time)
            }
            RawCurve::Bezier(_) => {
                cx.problem(
                    ProblemKind::Value,
                    format!("{}: key {k} curve needs 4 numbers", describe(&rt.target)),
                );
                return None;
            }
        }
    }
    let kind = TimelineKind::Deform {
        slot: s,
        attachment: att,
        vertex_count: len as u32,
        vertices,
        weighted,
    };
    Some((kind, times(rt), curves))
}

pub(super) fn sequence(
    cx: &mut Ctx<'_>,
    rt: &RawTimeline,
    skin: &str,
    slot: &str,
    key: &str,
) -> Option<Built> {
    let (s, att) = attachment(cx, rt, skin, slot, key)?;
    let seq = match &cx.rig.attachments[att.index()].kind {
        AttachmentKind::Region(r) => r.sequence,
        AttachmentKind::Mesh(m) => m.sequence,
        _ => None,
    };
    let Some(seq) = seq.filter(|q| q.count > 0) else {
        cx.problem(
            ProblemKind::Geometry,
            format!("{}: the attachment has no sequence", describe(&rt.target)),
        );
        return None;
    };
    let mut keys = Vec::with_capacity(rt.keys.len());
    for key in &rt.keys {
        let RawKeyData::Sequence { mode, index, delay } = key.data else {
            cx.problem(
                ProblemKind::Geometry,
                format!("{}: key without sequence data", describe(&rt.target)),
            );
            return None;
        };
        keys.push(SequenceKey { mode, index, delay });
    }
    let count = i32::try_from(seq.count).unwrap_or(i32::MAX);
    let kind = TimelineKind::Sequence {
        slot: s,
        attachment: att,
        count,
        keys,
    };
    Some((kind, times(rt), Curves::new(rt.keys.len())))
}

pub(super) fn draw_order(cx: &mut Ctx<'_>, rt: &RawTimeline) -> Option<Built> {
    let n = cx.rig.slots.len();
    let mut orders = Vec::with_capacity(rt.keys.len());
    for (k, key) in rt.keys.iter().enumerate() {
        let RawKeyData::DrawOrder(offsets) = &key.data else {
            cx.problem(
                ProblemKind::Value,
                format!("draw order key {k} has no offsets"),
            );
            return None;
        };
        match offsets {
            None => orders.push(None),
            Some(offsets) => match permutation(cx, n, offsets) {
                Ok(p) => orders.push(Some(p)),
                Err(msg) => {
                    cx.problem(ProblemKind::Value, format!("draw order key {k}: {msg}"));
                    return None;
                }
            },
        }
    }
    Some((
        TimelineKind::DrawOrder { orders },
        times(rt),
        Curves::new(rt.keys.len()),
    ))
}

/// Turns (slot, offset) pairs into the draw order they describe (Spine `readAnimation`):
/// moved slots go to index + offset, the others keep their relative order in the gaps.
fn permutation(cx: &Ctx<'_>, n: usize, offsets: &[(String, i32)]) -> Result<Vec<SlotId>, String> {
    permutation_of(n, offsets, |name| cx.rig.slot(name).map(|s| s.index()))
}

/// A Spine 4.3 draw order folder: per key the folder's slots in their new order (offsets
/// count among the folder's slots), or `None` for the folder's own order.
pub(super) fn draw_order_folder(
    cx: &mut Ctx<'_>,
    rt: &RawTimeline,
    names: &[String],
) -> Option<Built> {
    let mut slots = Vec::with_capacity(names.len());
    for name in names {
        let Some(s) = cx.rig.slot(name) else {
            cx.problem(
                ProblemKind::UnknownName,
                format!("draw order folder: unknown slot `{name}`"),
            );
            return None;
        };
        if slots.contains(&s) {
            cx.problem(
                ProblemKind::DuplicateName,
                format!("draw order folder: slot `{name}` listed twice"),
            );
            return None;
        }
        slots.push(s);
    }
    let mut orders = Vec::with_capacity(rt.keys.len());
    for (k, key) in rt.keys.iter().enumerate() {
        let RawKeyData::DrawOrder(offsets) = &key.data else {
            cx.problem(
                ProblemKind::Value,
                format!("draw order folder key {k} has no offsets"),
            );
            return None;
        };
        match offsets {
            None => orders.push(None),
            Some(offsets) => {
                let in_folder = |name: &str| names.iter().position(|n| n == name);
                match permutation_of(slots.len(), offsets, in_folder) {
                    Ok(p) => orders.push(Some(p.iter().map(|i| slots[i.index()]).collect())),
                    Err(msg) => {
                        cx.problem(
                            ProblemKind::Value,
                            format!("draw order folder key {k}: {msg}"),
                        );
                        return None;
                    }
                }
            }
        }
    }
    Some((
        TimelineKind::DrawOrderFolder(Box::new(crate::rig::clip::DrawOrderFolder {
            slots,
            orders,
        })),
        times(rt),
        Curves::new(rt.keys.len()),
    ))
}

/// [`permutation`] over `n` items, `index_of` naming an item's index.
fn permutation_of(
    n: usize,
    offsets: &[(String, i32)],
    index_of: impl Fn(&str) -> Option<usize>,
) -> Result<Vec<SlotId>, String> {
    let mut order: Vec<Option<usize>> = vec![None; n];
    let mut unchanged = Vec::with_capacity(n);
    let mut original = 0usize;
    for (name, offset) in offsets {
        let slot = index_of(name).ok_or_else(|| format!("unknown slot `{name}`"))?;
        if slot < original {
            return Err(format!("slot `{name}` is out of setup order"));
        }
        while original != slot {
            unchanged.push(original);
            original += 1;
        }
        let to = original as i64 + i64::from(*offset);
        let Some(cell) = usize::try_from(to).ok().and_then(|t| order.get_mut(t)) else {
            return Err(format!(
                "slot `{name}` offset {offset} leaves the draw order"
            ));
        };
        if cell.is_some() {
            return Err(format!(
                "slot `{name}` offset {offset} collides with another slot"
            ));
        }
        *cell = Some(original);
        original += 1;
    }
    while original < n {
        unchanged.push(original);
        original += 1;
    }
    // Fill the gaps from the back with the unchanged slots.
    for cell in order.iter_mut().rev() {
        if cell.is_none() {
            *cell = unchanged.pop();
        }
    }
    order
        .into_iter()
        .map(|c| {
            c.map(|i| SlotId(i as u16))
                .ok_or_else(|| "offsets do not form a permutation".into())
        })
        .collect()
}

pub(super) fn events(cx: &mut Ctx<'_>, rt: &RawTimeline) -> Option<Built> {
    let mut keys = Vec::with_capacity(rt.keys.len());
    for (k, key) in rt.keys.iter().enumerate() {
        let RawKeyData::Event {
            name,
            int,
            float,
            string,
            volume,
            balance,
        } = &key.data
        else {
            cx.problem(
                ProblemKind::Value,
                format!("event key {k} has no event data"),
            );
            return None;
        };
        let Some(&id) = cx.rig.names.events.get(name) else {
            cx.problem(
                ProblemKind::UnknownName,
                format!("event key {k}: unknown event `{name}`"),
            );
            return None;
        };
        let data = &cx.rig.events[id.index()];
        let string = string.as_ref().map(|s| {
            cx.strings.push(s.clone());
            (cx.strings.len() - 1) as u32
        });
        // COMPAT(spine): volume/balance are set only for events with audio (else 0, 0).
        let (volume, balance) = if data.audio.is_some() {
            (volume.unwrap_or(1.0), balance.unwrap_or(0.0))
        } else {
            (0.0, 0.0)
        };
        keys.push(EventKey {
            time: key.time as f32,
            event: id,
            int: int.unwrap_or(data.int),
            float: float.unwrap_or(data.float),
            string,
            volume,
            balance,
        });
    }
    Some((
        TimelineKind::Event { keys },
        times(rt),
        Curves::new(rt.keys.len()),
    ))
}
