//! Animations of the Spine 4.2 JSON writer: per clip the `slots`, `bones`, `ik`,
//! `transform`, `path`, `physics`, `attachments`, `drawOrder` and `events` sections, each
//! key with its time, values by the loader's names and the curve to the next key
//! (`"stepped"` or the `cx1, cy1, cx2, cy2` numbers per value; left out when linear and on
//! the last key, which the loader ignores).

use super::write_json::{Obj, W, fail, hex6, hex8, inherit_name, num, num32};
use serde_json::{Map, Value};
use sinew::raw::*;
use sinew::types::SpineRuntime;
use std::collections::HashMap;

/// The `animations` object.
pub(crate) fn write_animations(rig: &RawRig) -> W<Value> {
    let slot_index: HashMap<&str, usize> = rig
        .slots
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), i))
        .collect();
    let mut out = Map::new();
    for clip in &rig.clips {
        let what = format!("animation `{}`", clip.name);
        let v = write_clip(rig, &slot_index, clip)?;
        if out.insert(clip.name.clone(), v).is_some() {
            return fail(&what, "two animations of this name");
        }
    }
    Ok(Value::Object(out))
}

/// The object at `path` under `root`, made on the way.
fn at<'m>(root: &'m mut Map<String, Value>, path: &[&str]) -> W<&'m mut Map<String, Value>> {
    let mut cur = root;
    for key in path {
        let v = cur
            .entry((*key).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(m) = v else {
            return fail(key, "a timeline and a group share this name");
        };
        cur = m;
    }
    Ok(cur)
}

/// Puts a timeline's keys under `key` of `parent`, refusing a second one.
fn put(what: &str, parent: &mut Map<String, Value>, key: &str, keys: Vec<Value>) -> W<()> {
    if parent.insert(key.to_owned(), Value::Array(keys)).is_some() {
        return fail(
            what,
            format!("two `{key}` timelines of one item (JSON holds one)"),
        );
    }
    Ok(())
}

fn write_clip(rig: &RawRig, slot_index: &HashMap<&str, usize>, clip: &RawClip) -> W<Value> {
    let v43 = rig.runtime == SpineRuntime::V43;
    let mut root = Map::new();
    for (n, t) in clip.timelines.iter().enumerate() {
        let what = format!(
            "animation `{}`, timeline {} ({:?})",
            clip.name,
            n + 1,
            t.target
        );
        if t.keys.is_empty() {
            continue;
        }
        match &t.target {
            RawTarget::Slot { slot, property } => {
                let (name, keys) = slot_keys(&what, *property, &t.keys)?;
                put(&what, at(&mut root, &["slots", slot])?, name, keys)?;
            }
            RawTarget::Bone { bone, property } => {
                let (name, keys) = bone_keys(&what, *property, &t.keys)?;
                put(&what, at(&mut root, &["bones", bone])?, name, keys)?;
            }
            RawTarget::Ik(c) => {
                let keys = keys(&what, &t.keys, 2, |m, k| {
                    let (mix, softness) = match k.values.as_slice() {
                        [a, b] => (*a, *b),
                        _ => return fail(m.what, "an IK key needs mix and softness"),
                    };
                    m.num("mix", mix, 1.0)?;
                    m.num("softness", softness, 0.0)?;
                    if let RawKeyData::IkFlags {
                        bend_positive,
                        compress,
                        stretch,
                    } = k.data
                    {
                        m.flag("bendPositive", bend_positive, true);
                        m.flag("compress", compress, false);
                        m.flag("stretch", stretch, false);
                    }
                    Ok(())
                })?;
                put(&what, at(&mut root, &["ik"])?, c, keys)?;
            }
            RawTarget::Transform(c) => {
                let keys = keys(&what, &t.keys, 6, |m, k| {
                    let [r, x, y, sx, sy, shy] = values::<6>(m.what, k)?;
                    m.num("mixRotate", r, 1.0)?;
                    m.num("mixX", x, 1.0)?;
                    m.num("mixY", y, x)?;
                    m.num("mixScaleX", sx, 1.0)?;
                    // 4.3 keys default mixScaleY to 1, 4.2 keys to their mixScaleX.
                    m.num("mixScaleY", sy, if v43 { 1.0 } else { sx })?;
                    m.num("mixShearY", shy, 1.0)
                })?;
                put(&what, at(&mut root, &["transform"])?, c, keys)?;
            }
            RawTarget::SliderTime(c) | RawTarget::SliderMix(c) => {
                if !v43 {
                    return fail(&what, "slider timelines exist only in Spine 4.3");
                }
                let name = match t.target {
                    RawTarget::SliderTime(_) => "time",
                    _ => "mix",
                };
                let keys = keys(&what, &t.keys, 1, value_key(1.0))?;
                put(&what, at(&mut root, &["slider", c])?, name, keys)?;
            }
            RawTarget::PathPosition(c) => {
                let keys = keys(&what, &t.keys, 1, value_key(0.0))?;
                put(&what, at(&mut root, &["path", c])?, "position", keys)?;
            }
            RawTarget::PathSpacing(c) => {
                let keys = keys(&what, &t.keys, 1, value_key(0.0))?;
                put(&what, at(&mut root, &["path", c])?, "spacing", keys)?;
            }
            RawTarget::PathMix(c) => {
                let keys = keys(&what, &t.keys, 3, |m, k| {
                    let [r, x, y] = values::<3>(m.what, k)?;
                    m.num("mixRotate", r, 1.0)?;
                    m.num("mixX", x, 1.0)?;
                    m.num("mixY", y, x)
                })?;
                put(&what, at(&mut root, &["path", c])?, "mix", keys)?;
            }
            RawTarget::Physics {
                constraint,
                property,
            } => {
                use PhysicsProperty as P;
                let name = match property {
                    P::Inertia => "inertia",
                    P::Strength => "strength",
                    P::Damping => "damping",
                    P::Mass => "mass",
                    P::Wind => "wind",
                    P::Gravity => "gravity",
                    P::Mix => "mix",
                    P::Reset => "reset",
                };
                let keys = if *property == P::Reset {
                    stepped(&what, &t.keys, |_, _| Ok(()))?
                } else {
                    // 4.3 mix keys default to 1 (4.2: 0).
                    let default = if v43 && *property == P::Mix { 1.0 } else { 0.0 };
                    keys(&what, &t.keys, 1, value_key(default))?
                };
                let c = constraint.as_deref().unwrap_or("");
                put(&what, at(&mut root, &["physics", c])?, name, keys)?;
            }
            RawTarget::Deform {
                skin,
                slot,
                attachment,
            } => {
                let keys = keys(&what, &t.keys, 1, |m, k| {
                    let RawKeyData::Deform { offset, vertices } = &k.data else {
                        return fail(m.what, "a deform key without deltas");
                    };
                    if !vertices.is_empty() {
                        if *offset != 0 {
                            m.set("offset", *offset);
                        }
                        let mut v = Vec::with_capacity(vertices.len());
                        for &x in vertices {
                            v.push(num32(m.what, x)?);
                        }
                        m.set("vertices", v);
                    }
                    Ok(())
                })?;
                let path = ["attachments", skin, slot, attachment];
                put(&what, at(&mut root, &path)?, "deform", keys)?;
            }
            RawTarget::Sequence {
                skin,
                slot,
                attachment,
            } => {
                let keys = stepped(&what, &t.keys, |m, k| {
                    let RawKeyData::Sequence { mode, index, delay } = k.data else {
                        return fail(m.what, "a sequence key without sequence data");
                    };
                    use SequenceMode as M;
                    let mode = match mode {
                        M::Hold => "hold",
                        M::Once => "once",
                        M::Loop => "loop",
                        M::Pingpong => "pingpong",
                        M::OnceReverse => "onceReverse",
                        M::LoopReverse => "loopReverse",
                        M::PingpongReverse => "pingpongReverse",
                    };
                    m.set("mode", mode);
                    m.set("index", index);
                    m.set("delay", num32(m.what, delay)?);
                    Ok(())
                })?;
                let path = ["attachments", skin, slot, attachment];
                put(&what, at(&mut root, &path)?, "sequence", keys)?;
            }
            RawTarget::DrawOrder => {
                let index = |slot: &str| slot_index.get(slot).copied();
                let keys = stepped(&what, &t.keys, |m, k| draw_order_key(m, k, &index))?;
                put(&what, &mut root, "drawOrder", keys)?;
            }
            RawTarget::DrawOrderFolder { slots } => {
                if !v43 {
                    return fail(
                        &what,
                        "draw order folders are Spine 4.3 (write the rig as 4.3)",
                    );
                }
                let index = |slot: &str| slots.iter().position(|s| s == slot);
                let keys = stepped(&what, &t.keys, |m, k| draw_order_key(m, k, &index))?;
                let mut folder = Map::new();
                folder.insert("slots".into(), slots.clone().into());
                folder.insert("keys".into(), Value::Array(keys));
                let list = root
                    .entry("drawOrderFolder")
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(list) = list {
                    list.push(Value::Object(folder));
                }
            }
            RawTarget::Event => {
                let keys = stepped(&what, &t.keys, |m, k| {
                    let RawKeyData::Event {
                        name,
                        int,
                        float,
                        string,
                        volume,
                        balance,
                    } = &k.data
                    else {
                        return fail(m.what, "an event key without an event");
                    };
                    let Some(def) = rig.events.iter().find(|e| &e.name == name) else {
                        return fail(m.what, format!("unknown event `{name}`"));
                    };
                    m.set("name", name.as_str());
                    if let Some(i) = int {
                        m.set("int", *i);
                    }
                    if let Some(f) = float {
                        m.set("float", num32(m.what, *f)?);
                    }
                    if let Some(s) = string {
                        m.set("string", s.as_str());
                    }
                    if def.audio.as_deref().is_some_and(|a| !a.is_empty()) {
                        if let Some(v) = volume {
                            m.set("volume", num32(m.what, *v)?);
                        }
                        if let Some(b) = balance {
                            m.set("balance", num32(m.what, *b)?);
                        }
                    }
                    Ok(())
                })?;
                put(&what, &mut root, "events", keys)?;
            }
        }
    }
    Ok(Value::Object(root))
}

/// A draw order key's `offsets`, slots in the order `index` gives them (the loader's order).
fn draw_order_key(m: &mut Obj, k: &RawKey, index: &dyn Fn(&str) -> Option<usize>) -> W<()> {
    let RawKeyData::DrawOrder(offsets) = &k.data else {
        return fail(m.what, "a draw-order key without offsets");
    };
    if let Some(list) = offsets {
        let mut sorted = Vec::with_capacity(list.len());
        for (slot, off) in list {
            let Some(i) = index(slot) else {
                return fail(m.what, format!("unknown slot `{slot}`"));
            };
            sorted.push((i, slot, *off));
        }
        sorted.sort_by_key(|e| e.0);
        let v: Vec<Value> = sorted
            .into_iter()
            .map(|(_, slot, off)| {
                let mut o = Map::new();
                o.insert("slot".into(), slot.as_str().into());
                o.insert("offset".into(), off.into());
                Value::Object(o)
            })
            .collect();
        m.set("offsets", v);
    }
    Ok(())
}

fn values<const N: usize>(what: &str, k: &RawKey) -> W<[f64; N]> {
    match <[f64; N]>::try_from(k.values.as_slice()) {
        Ok(v) => Ok(v),
        Err(_) => fail(
            what,
            format!("a key with {} values where {N} are needed", k.values.len()),
        ),
    }
}

/// A one-value key written as `value` (left out when `default`).
fn value_key(default: f64) -> impl Fn(&mut Obj, &RawKey) -> W<()> {
    move |m, k| {
        let [v] = values::<1>(m.what, k)?;
        m.num("value", v, default)
    }
}

/// Refuses a key time before the previous one.
fn check_times(what: &str, keys: &[RawKey]) -> W<()> {
    for w in keys.windows(2) {
        if w[1].time < w[0].time {
            return fail(
                what,
                format!(
                    "key time {} is before the previous key's {}",
                    w[1].time, w[0].time
                ),
            );
        }
    }
    Ok(())
}

/// Keys of a curve timeline over `n` values: time, what `data` writes, the curve.
fn keys(
    what: &str,
    keys: &[RawKey],
    n: usize,
    data: impl Fn(&mut Obj, &RawKey) -> W<()>,
) -> W<Vec<Value>> {
    check_times(what, keys)?;
    let mut out = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        let mut m = Obj::new(what);
        m.num("time", k.time, 0.0)?;
        data(&mut m, k)?;
        if i + 1 < keys.len() {
            match &k.curve {
                RawCurve::Linear => {}
                RawCurve::Stepped => m.set("curve", "stepped"),
                // `spine_json_value` turns them into linear keys first (`spine::eased`).
                RawCurve::Eased { .. } => {
                    return fail(what, "an eased key Spine cannot express");
                }
                RawCurve::Bezier(v) => {
                    if v.len() != 4 * n {
                        return fail(
                            what,
                            format!("a Bezier of {} numbers for {n} values", v.len()),
                        );
                    }
                    let mut c = Vec::with_capacity(v.len());
                    for &x in v {
                        c.push(num(what, x)?);
                    }
                    m.set("curve", c);
                }
            }
        }
        out.push(m.build());
    }
    Ok(out)
}

/// Held keys: time and what `data` writes.
fn stepped(
    what: &str,
    keys: &[RawKey],
    mut data: impl FnMut(&mut Obj, &RawKey) -> W<()>,
) -> W<Vec<Value>> {
    check_times(what, keys)?;
    let mut out = Vec::with_capacity(keys.len());
    for k in keys {
        let mut m = Obj::new(what);
        m.num("time", k.time, 0.0)?;
        data(&mut m, k)?;
        out.push(m.build());
    }
    Ok(out)
}

fn slot_keys(what: &str, p: SlotProperty, ks: &[RawKey]) -> W<(&'static str, Vec<Value>)> {
    use SlotProperty as P;
    Ok(match p {
        P::Attachment => (
            "attachment",
            stepped(what, ks, |m, k| match &k.data {
                RawKeyData::Attachment(a) => {
                    if let Some(a) = a {
                        m.set("name", a.as_str());
                    }
                    Ok(())
                }
                _ => fail(m.what, "an attachment key without an attachment"),
            })?,
        ),
        P::Rgba => (
            "rgba",
            keys(what, ks, 4, |m, k| {
                let v = values::<4>(m.what, k)?;
                m.set("color", hex8(v));
                Ok(())
            })?,
        ),
        P::Rgb => (
            "rgb",
            keys(what, ks, 3, |m, k| {
                m.set("color", hex6(values::<3>(m.what, k)?));
                Ok(())
            })?,
        ),
        P::Alpha => ("alpha", keys(what, ks, 1, value_key(0.0))?),
        P::Rgba2 => (
            "rgba2",
            keys(what, ks, 7, |m, k| {
                let [r, g, b, a, dr, dg, db] = values::<7>(m.what, k)?;
                m.set("light", hex8([r, g, b, a]));
                m.set("dark", hex6([dr, dg, db]));
                Ok(())
            })?,
        ),
        P::Rgb2 => (
            "rgb2",
            keys(what, ks, 6, |m, k| {
                let [r, g, b, dr, dg, db] = values::<6>(m.what, k)?;
                m.set("light", hex6([r, g, b]));
                m.set("dark", hex6([dr, dg, db]));
                Ok(())
            })?,
        ),
    })
}

fn bone_keys(what: &str, p: BoneProperty, ks: &[RawKey]) -> W<(&'static str, Vec<Value>)> {
    use BoneProperty as P;
    let two = |default: f64| {
        move |m: &mut Obj, k: &RawKey| -> W<()> {
            let [x, y] = values::<2>(m.what, k)?;
            m.num("x", x, default)?;
            m.num("y", y, default)
        }
    };
    Ok(match p {
        P::Rotate => ("rotate", keys(what, ks, 1, value_key(0.0))?),
        P::Translate => ("translate", keys(what, ks, 2, two(0.0))?),
        P::TranslateX => ("translatex", keys(what, ks, 1, value_key(0.0))?),
        P::TranslateY => ("translatey", keys(what, ks, 1, value_key(0.0))?),
        P::Scale => ("scale", keys(what, ks, 2, two(1.0))?),
        P::ScaleX => ("scalex", keys(what, ks, 1, value_key(1.0))?),
        P::ScaleY => ("scaley", keys(what, ks, 1, value_key(1.0))?),
        P::Shear => ("shear", keys(what, ks, 2, two(0.0))?),
        P::ShearX => ("shearx", keys(what, ks, 1, value_key(0.0))?),
        P::ShearY => ("sheary", keys(what, ks, 1, value_key(0.0))?),
        P::Inherit => (
            "inherit",
            stepped(what, ks, |m, k| match k.data {
                RawKeyData::Inherit(i) => {
                    let name = inherit_name(m.what, i)?;
                    m.set("inherit", name);
                    Ok(())
                }
                _ => fail(m.what, "an inherit key without an inherit mode"),
            })?,
        ),
    })
}
