//! DragonBones animations as raw clips.
//!
//! Values are offsets on the setup pose (Spine's own convention for its bone timelines);
//! key positions, easing, the loop wrap-around and the memory budget are in `emit.rs` and
//! `ease.rs`. Main-timeline events (`events` lists, the 5.0 singular `event`, and `sound`)
//! become event keys; an event's `ints`/`floats`/`strings` lists give the key's int, float
//! and string payloads (COMPAT(dragonbones): the first of each list; Spine events carry one
//! of each).

use super::emit::{Budget, Clips, Key, Wrap, keys, unwrap_rotation};
use super::{ClipInfo, Names, read_color_transform, read_xf, two_colour};
use crate::json::lenient::*;
use crate::json::*;
use sinew::raw::*;

/// Most frames of one animation.
pub(crate) const MAX_FRAMES: u32 = 1_000_000;

fn plain(v: Vec<f64>) -> (Vec<f64>, RawKeyData) {
    (v, RawKeyData::None)
}

/// Keys of `k` with only the values `i..j`.
fn pick(k: &[Key], i: usize, j: usize) -> Vec<Key> {
    k.iter()
        .map(|k| Key {
            frame: k.frame,
            ease: k.ease.clone(),
            values: k.values.get(i..j).map(<[f64]>::to_vec).unwrap_or_default(),
            data: RawKeyData::None,
        })
        .collect()
}

/// A name for the held twin of `name` that no animation of the armature has.
fn held_name(name: &str, taken: &[&str]) -> String {
    let mut n = format!("{name} (held end)");
    while taken.contains(&n.as_str()) {
        n.push('\'');
    }
    n
}

pub(crate) fn read_animations(
    a: &Obj,
    ap: &Loc,
    rate: f64,
    names: &Names,
    rig: &mut RawRig,
    budget: &mut Budget,
) -> R<Vec<ClipInfo>> {
    let mut infos = Vec::new();
    let anp = ap.key("animation");
    let anims = arr(a, "animation", ap)?;
    let taken: Vec<&str> = anims
        .iter()
        .filter_map(|v| v.get("name").and_then(serde_json::Value::as_str))
        .collect();
    mark_offset_slots(anims, &mut rig.slots);
    for (ai, av) in anims.iter().enumerate() {
        let p = anp.index(ai);
        let an = as_obj(av, &p)?;
        let name = string(an, "name", "", &p)?;
        let p = p.named(&name);
        let total = count(an, "duration", 1, MAX_FRAMES, &p)?.max(1);
        let play_times = count(an, "playTimes", 1, u32::MAX, &p)?;
        let mut clips = Clips::new(name.clone(), total, rate, play_times != 1);
        bones(an, &p, total, names, &mut clips, budget)?;
        slots(an, &p, total, names, &rig.slots, &mut clips, budget)?;
        deforms(an, &p, total, names, &mut clips, budget)?;
        // IK.
        let ip = p.key("ik");
        for (ii, iv) in arr(an, "ik", &p)?.iter().enumerate() {
            let p = ip.index(ii);
            let m = as_obj(iv, &p)?;
            let ik = string(m, "name", "", &p)?;
            let p = p.named(&ik);
            if !names.ik.contains(&ik) {
                return p.err(format!("IK `{ik}` not found"));
            }
            let kp = p.key("frame");
            let k = keys(
                arr(m, "frame", &p)?,
                &kp,
                total,
                true,
                budget,
                |m, kp, _| {
                    let w = (num(m, "weight", 1.0, kp)? * 100.0).round() / 100.0;
                    Ok((
                        vec![w, 0.0],
                        RawKeyData::IkFlags {
                            bend_positive: boolean(m, "bendPositive", true, kp)?,
                            compress: false,
                            stretch: false,
                        },
                    ))
                },
            )?;
            clips.push(RawTarget::Ik(ik.clone()), &k, Wrap::First, budget, &p)?;
        }
        // zOrder.
        if let Some(z) = obj_opt(an, "zOrder", &p)? {
            let zp = p.key("zOrder");
            let kp = zp.key("frame");
            let k = keys(
                arr(z, "frame", &zp)?,
                &kp,
                total,
                false,
                budget,
                |m, kp, _| {
                    let list = nums(m, "zOrder", kp)?;
                    if list.is_empty() {
                        return Ok((vec![], RawKeyData::DrawOrder(None)));
                    }
                    let mut pairs = Vec::with_capacity(list.len() / 2);
                    for c in list.chunks_exact(2) {
                        let slot = names
                            .slots
                            .iter()
                            .find(|(_, (i, _))| *i as f64 == c[0])
                            .map(|(n, _)| n.clone());
                        let Some(slot) = slot else {
                            return kp
                                .key("zOrder")
                                .err(format!("slot index {} not found", c[0]));
                        };
                        pairs.push((slot, c[1] as i32));
                    }
                    Ok((vec![], RawKeyData::DrawOrder(Some(pairs))))
                },
            )?;
            clips.push(RawTarget::DrawOrder, &k, Wrap::No, budget, &zp)?;
        }
        if let Some(t) = events(an, &p, rate, rig, budget)? {
            clips.clip.timelines.push(t);
        }
        let (mut clip, held) = clips.finish(|| held_name(&name, &taken), budget, &p)?;
        let fade_in = num(an, "fadeInTime", 0.0, &p)?;
        // The rig says how the runtime plays the clip (see `sinew::anim::ClipPlayback`).
        let playback = |play_times, held| RawPlayback {
            play_times,
            fade_in,
            length: f64::from(total) / rate,
            frame_rate: rate,
            held,
        };
        clip.playback = Some(playback(play_times, held.as_ref().map(|h| h.name.clone())));
        rig.clips.push(clip);
        let held = held.map(|mut h| {
            let n = h.name.clone();
            h.playback = Some(playback(1, None));
            rig.clips.push(h);
            n
        });
        infos.push(ClipInfo {
            name,
            play_times,
            frames: total,
            fade_in,
            held,
        });
    }
    Ok(infos)
}

fn bones(
    an: &Obj,
    p: &Loc,
    total: u32,
    names: &Names,
    clips: &mut Clips,
    budget: &mut Budget,
) -> R<()> {
    let bp = p.key("bone");
    for (bi, bv) in arr(an, "bone", p)?.iter().enumerate() {
        let p = bp.index(bi);
        let b = as_obj(bv, &p)?;
        let bone = string(b, "name", "", &p)?;
        let p = p.named(&bone);
        if !names.bones.contains(&bone) {
            return p.err(format!("bone `{bone}` not found"));
        }
        let target = |property| RawTarget::Bone {
            bone: bone.clone(),
            property,
        };
        let tp = p.key("translateFrame");
        let k = keys(
            arr(b, "translateFrame", &p)?,
            &tp,
            total,
            true,
            budget,
            |m, kp, _| Ok(plain(vec![num(m, "x", 0.0, kp)?, num(m, "y", 0.0, kp)?])),
        )?;
        clips.push(
            target(BoneProperty::Translate),
            &k,
            Wrap::First,
            budget,
            &tp,
        )?;
        let rp = p.key("rotateFrame");
        let rf = arr(b, "rotateFrame", &p)?;
        let mut turns = Vec::with_capacity(rf.len());
        let mut k = keys(rf, &rp, total, true, budget, |m, kp, _| {
            turns.push(num(m, "clockwise", 0.0, kp)?);
            Ok(plain(vec![
                num(m, "rotate", 0.0, kp)?,
                num(m, "skew", 0.0, kp)?,
            ]))
        })?;
        unwrap_rotation(&mut k, &turns);
        // COMPAT(dragonbones): 5.5 rotation wraps around the short way.
        let rot = pick(&k, 0, 1);
        clips.push(
            target(BoneProperty::Rotate),
            &rot,
            Wrap::FirstShortWay,
            budget,
            &rp,
        )?;
        let skew = pick(&k, 1, 2);
        if skew.iter().any(|k| k.values.first() != Some(&0.0)) {
            clips.push(
                target(BoneProperty::ShearY),
                &skew,
                Wrap::First,
                budget,
                &rp,
            )?;
        }
        let scp = p.key("scaleFrame");
        let k = keys(
            arr(b, "scaleFrame", &p)?,
            &scp,
            total,
            true,
            budget,
            |m, kp, _| Ok(plain(vec![num(m, "x", 1.0, kp)?, num(m, "y", 1.0, kp)?])),
        )?;
        clips.push(target(BoneProperty::Scale), &k, Wrap::First, budget, &scp)?;
        // 5.0: one `frame` list with whole transforms.
        let fp = p.key("frame");
        let ff = arr(b, "frame", &p)?;
        if ff.is_empty() {
            continue;
        }
        let mut turns = Vec::with_capacity(ff.len());
        let k = keys(ff, &fp, total, true, budget, |m, kp, _| {
            turns.push(num(m, "tweenRotate", 0.0, kp)?);
            let x = read_xf(m, kp)?;
            Ok(plain(vec![
                x.x,
                x.y,
                x.sk_y,
                x.sk_x - x.sk_y,
                x.sc_x,
                x.sc_y,
            ]))
        })?;
        clips.push(
            target(BoneProperty::Translate),
            &pick(&k, 0, 2),
            Wrap::First,
            budget,
            &fp,
        )?;
        let mut rot = pick(&k, 2, 3);
        unwrap_rotation(&mut rot, &turns);
        // COMPAT(dragonbones): 5.0 rotation spins back to the first key unnormalised.
        clips.push(target(BoneProperty::Rotate), &rot, Wrap::First, budget, &fp)?;
        let skew = pick(&k, 3, 4);
        if skew.iter().any(|k| k.values.first() != Some(&0.0)) {
            clips.push(
                target(BoneProperty::ShearY),
                &skew,
                Wrap::First,
                budget,
                &fp,
            )?;
        }
        clips.push(
            target(BoneProperty::Scale),
            &pick(&k, 4, 6),
            Wrap::First,
            budget,
            &fp,
        )?;
    }
    Ok(())
}

/// Gives every slot a colour key of any animation offsets a black dark colour (no change to
/// how it draws), so all its colour timelines set both colours: a key without offsets puts
/// them back to 0, as the runtime's colour transform does.
fn mark_offset_slots(anims: &[serde_json::Value], setup: &mut [RawSlot]) {
    use serde_json::Value;
    // Read as the keys are (`colour_values`); a key that does not read is reported there.
    let at = Loc::root();
    let offset = |c: Option<&Value>| {
        c.and_then(Value::as_object).is_some_and(|c| {
            read_color_transform(Some(c), &at, true).is_ok_and(|(_, o)| o != [0.0; 3])
        })
    };
    for an in anims {
        let Some(slots) = an.get("slot").and_then(Value::as_array) else {
            continue;
        };
        for sv in slots {
            let keyed = ["colorFrame", "frame"].iter().any(|list| {
                sv.get(*list).and_then(Value::as_array).is_some_and(|ks| {
                    ks.iter()
                        .any(|k| offset(k.get("value")) || offset(k.get("color")))
                })
            });
            let name = sv.get("name").and_then(Value::as_str);
            if let (true, Some(name)) = (keyed, name)
                && let Some(s) = setup
                    .iter_mut()
                    .find(|s| s.name == name && s.dark.is_none())
            {
                s.dark = Some(sinew::types::Color::new(0.0, 0.0, 0.0, 1.0));
            }
        }
    }
}

/// A colour key's values: light r, g, b, alpha, dark r, g, b ([`two_colour`]).
fn colour_values(m: Option<&Obj>, p: &Loc) -> R<Vec<f64>> {
    let (mul, off) = read_color_transform(m, p, true)?;
    let (l, d) = two_colour(mul, off);
    Ok([l.r, l.g, l.b, l.a, d.r, d.g, d.b].map(f64::from).to_vec())
}

/// Pushes a slot's colour keys (values as [`colour_values`]): light and dark (`Rgba2`) for a
/// slot with a dark colour ([`mark_offset_slots`]), else the light colour alone (`Rgba`).
fn push_colours(
    slot: &str,
    setup: &RawSlot,
    k: Vec<Key>,
    clips: &mut Clips,
    budget: &mut Budget,
    p: &Loc,
) -> R<()> {
    let two = setup.dark.is_some();
    let target = RawTarget::Slot {
        slot: slot.to_owned(),
        property: if two {
            SlotProperty::Rgba2
        } else {
            SlotProperty::Rgba
        },
    };
    let k: Vec<Key> = if two { k } else { pick(&k, 0, 4) };
    clips.push(target, &k, Wrap::First, budget, p)
}

fn slots(
    an: &Obj,
    p: &Loc,
    total: u32,
    names: &Names,
    setup: &[RawSlot],
    clips: &mut Clips,
    budget: &mut Budget,
) -> R<()> {
    let sp = p.key("slot");
    for (si, sv) in arr(an, "slot", p)?.iter().enumerate() {
        let p = sp.index(si);
        let s = as_obj(sv, &p)?;
        let slot = string(s, "name", "", &p)?;
        let p = p.named(&slot);
        let Some((index, displays)) = names.slots.get(&slot) else {
            return p.err(format!("slot `{slot}` not found"));
        };
        let Some(setup) = setup.get(*index) else {
            return p.err(format!("slot `{slot}` not found"));
        };
        let attach = |d: f64| -> RawKeyData {
            let a = if d < 0.0 {
                None
            } else {
                displays.get(d as usize).cloned()
            };
            RawKeyData::Attachment(a)
        };
        let att = RawTarget::Slot {
            slot: slot.clone(),
            property: SlotProperty::Attachment,
        };
        let dp = p.key("displayFrame");
        let k = keys(
            arr(s, "displayFrame", &p)?,
            &dp,
            total,
            false,
            budget,
            |m, kp, _| Ok((vec![], attach(num(m, "value", 0.0, kp)?))),
        )?;
        clips.push(att.clone(), &k, Wrap::No, budget, &dp)?;
        let cp = p.key("colorFrame");
        let k = keys(
            arr(s, "colorFrame", &p)?,
            &cp,
            total,
            true,
            budget,
            |m, kp, _| {
                Ok(plain(colour_values(
                    obj_opt(m, "value", kp)?,
                    &kp.key("value"),
                )?))
            },
        )?;
        push_colours(&slot, setup, k, clips, budget, &cp)?;
        // 5.0 slot frames: display index and colour in one list.
        let fp = p.key("frame");
        let ff = arr(s, "frame", &p)?;
        if ff.is_empty() {
            continue;
        }
        let k = keys(ff, &fp, total, true, budget, |m, kp, _| {
            let c = colour_values(obj_opt(m, "color", kp)?, &kp.key("color"))?;
            let d = num(m, "displayIndex", 0.0, kp)?;
            Ok((c, attach(d)))
        })?;
        let atts: Vec<Key> = k
            .iter()
            .map(|k| Key {
                frame: k.frame,
                ease: super::ease::Ease::Hold,
                values: vec![],
                data: k.data.clone(),
            })
            .collect();
        clips.push(att, &atts, Wrap::No, budget, &fp)?;
        let cols: Vec<Key> = k
            .into_iter()
            .map(|k| Key {
                data: RawKeyData::None,
                ..k
            })
            .collect();
        push_colours(&slot, setup, cols, clips, budget, &fp)?;
    }
    Ok(())
}

fn deforms(
    an: &Obj,
    p: &Loc,
    total: u32,
    names: &Names,
    clips: &mut Clips,
    budget: &mut Budget,
) -> R<()> {
    let fp = p.key("ffd");
    for (fi, fv) in arr(an, "ffd", p)?.iter().enumerate() {
        let p = fp.index(fi);
        let f = as_obj(fv, &p)?;
        let mut skin = string(f, "skin", "", &p)?;
        if skin.is_empty() {
            skin = "default".into();
        }
        let slot = string(f, "slot", "", &p)?;
        let disp = string(f, "name", "", &p)?;
        let p = p.named(&disp);
        let Some(mi) = names
            .meshes
            .get(&(skin.clone(), slot.clone(), disp.clone()))
        else {
            return p.err(format!("mesh `{disp}` of slot `{slot}` not found"));
        };
        let kp = p.key("frame");
        let k = keys(
            arr(f, "frame", &p)?,
            &kp,
            total,
            true,
            budget,
            |m, kp, budget| {
                let off = count(m, "offset", 0, u32::MAX, kp)? as usize;
                let v = nums(m, "vertices", kp)?;
                // Each key is a whole deform vector (the runtime's too): charged before it is
                // made, so a tiny key of a large mesh counts what it costs.
                budget.take(mi.vertices * 2 + mi.deform_len, kp)?;
                let mut slot_space = vec![0.0; mi.vertices * 2];
                for (i, d) in v.iter().enumerate() {
                    if let Some(s) = slot_space.get_mut(off.saturating_add(i)) {
                        *s = *d;
                    }
                }
                let out: Vec<f64> = match &mi.weighted {
                    Some(maps) => {
                        let mut o = Vec::with_capacity(mi.deform_len);
                        for (vi, vm) in maps.iter().enumerate() {
                            for m in vm {
                                let (x, y) =
                                    m.apply_linear(slot_space[vi * 2], slot_space[vi * 2 + 1]);
                                o.push(x);
                                o.push(y);
                            }
                        }
                        o
                    }
                    None => slot_space
                        .chunks_exact(2)
                        .flat_map(|c| {
                            let (x, y) = mi.linear.apply_linear(c[0], c[1]);
                            [x, y]
                        })
                        .collect(),
                };
                Ok((
                    out,
                    RawKeyData::Deform {
                        offset: 0,
                        vertices: vec![],
                    },
                ))
            },
        )?;
        let target = RawTarget::Deform {
            skin,
            slot,
            attachment: mi.key.clone(),
        };
        clips.push(target, &k, Wrap::First, budget, &kp)?;
    }
    Ok(())
}

/// The main timeline's events and sounds as one event timeline (`None` without any).
fn events(
    an: &Obj,
    p: &Loc,
    rate: f64,
    rig: &mut RawRig,
    budget: &mut Budget,
) -> R<Option<RawTimeline>> {
    let ep = p.key("frame");
    let mut keys = Vec::new();
    let mut pos = 0u32;
    for (i, fv) in arr(an, "frame", p)?.iter().enumerate() {
        let kp = ep.index(i);
        let m = as_obj(fv, &kp)?;
        let t = f64::from(pos) / rate;
        let mut fired: Vec<(RawKeyData, bool)> = Vec::new();
        let lp = kp.key("events");
        for (j, e) in arr(m, "events", &kp)?.iter().enumerate() {
            let ep = lp.index(j);
            fired.push((event(as_obj(e, &ep)?, &ep)?, false));
        }
        // 5.0: one event by name.
        if let Some(n) = m.get("event").and_then(serde_json::Value::as_str) {
            fired.push((named(n.to_owned(), None, None, None), false));
        }
        // Sounds are events whose data names the sound as its audio.
        if let Some(s) = m.get("sound").and_then(serde_json::Value::as_str) {
            fired.push((named(s.to_owned(), None, None, None), true));
        }
        budget.take(fired.len() * 16, &kp)?;
        for (data, sound) in fired {
            if let RawKeyData::Event { name, .. } = &data
                && !rig.events.iter().any(|e| &e.name == name)
            {
                rig.events.push(RawEvent {
                    name: name.clone(),
                    audio: sound.then(|| name.clone()),
                    ..Default::default()
                });
            }
            keys.push(RawKey {
                time: t,
                values: vec![],
                curve: RawCurve::Stepped,
                data,
            });
        }
        pos = pos.saturating_add(count(m, "duration", 1, MAX_FRAMES, &kp)?);
    }
    Ok((!keys.is_empty()).then_some(RawTimeline {
        target: RawTarget::Event,
        keys,
    }))
}

fn named(name: String, int: Option<i32>, float: Option<f32>, string: Option<String>) -> RawKeyData {
    RawKeyData::Event {
        name,
        int,
        float,
        string,
        volume: None,
        balance: None,
    }
}

/// One `events[]` entry: its name and the first of its `ints`, `floats` and `strings`.
fn event(e: &Obj, p: &Loc) -> R<RawKeyData> {
    let name = string(e, "name", "", p)?;
    let int = nums(e, "ints", p)?
        .first()
        .map(|&i| i.clamp(-2147483648.0, 2147483647.0) as i32);
    let float = nums(e, "floats", p)?.first().map(|&f| f as f32);
    let sp = p.key("strings");
    let string = match arr(e, "strings", p)?.first() {
        None => None,
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        Some(_) => return sp.index(0).err("expected a string"),
    };
    Ok(named(name, int, float, string))
}
