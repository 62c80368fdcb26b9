//! `animations` of a Spine 4.2 JSON file into [`RawClip`]s, with the official key defaults.
//!
//! Timelines come out in spine-ts `readAnimation` order (slots, bones, ik, transform, path,
//! physics, attachments, drawOrder, events), each section in file order. Key times, values
//! and curves stay as written, in f64 (colour channels byte / 255), because the official
//! loader samples Beziers from those numbers; numbers that would overflow the f32 the runtime
//! stores are refused. Curves are `[cx1, cy1, cx2, cy2]` per interpolated value (absolute
//! seconds, value units); the curve of a timeline's last key is dropped as the official
//! loader ignores it.
//! Draw-order keys are checked to describe a permutation and deform keys to fit their
//! attachment. Verified by the fixture tests (timeline counts against the JSON) and
//! `tests/all/errors.rs`.

use super::attachments::{Shape, Shapes};
use super::skeleton::{Names, find, parse_inherit};
use crate::json::*;
use serde_json::Value;
use sinew::raw::*;

/// How keys interpolate: held, or with `n` curve values per key.
#[derive(Clone, Copy)]
enum Interp {
    Stepped,
    Curves(usize),
}

/// Everything a clip reader needs.
struct Ctx<'r, 'j> {
    names: &'r Names<'j>,
    shapes: &'r Shapes<'j>,
    slot_count: usize,
}

/// Reads `animations`.
pub(crate) fn read_animations(
    root: &Obj,
    rig: &mut RawRig,
    names: &Names,
    shapes: &Shapes,
    at: &Loc,
) -> R<()> {
    let Some(map) = obj_opt(root, "animations", at)? else {
        return Ok(());
    };
    let at = at.key("animations");
    let ctx = Ctx {
        names,
        shapes,
        slot_count: rig.slots.len(),
    };
    for (name, v) in map {
        let at = at.key(name).named(name);
        let m = as_obj(v, &at)?;
        let mut clip = RawClip {
            name: name.clone(),
            timelines: Vec::new(),
            playback: None,
        };
        for key in m.keys() {
            if !matches!(
                key.as_str(),
                "slots"
                    | "bones"
                    | "ik"
                    | "transform"
                    | "path"
                    | "physics"
                    | "attachments"
                    | "drawOrder"
                    | "events"
            ) {
                // 4.3: draw order folders (read below) and the editor's animation colour
                // (nonessential, not kept).
                if ctx.names.v43 && matches!(key.as_str(), "drawOrderFolder" | "color" | "slider") {
                    continue;
                }
                return at
                    .key(key)
                    .err(format!("unknown animation section `{key}`"));
            }
        }
        read_slot_timelines(&ctx, m, &mut clip, &at)?;
        read_bone_timelines(&ctx, m, &mut clip, &at)?;
        read_constraint_timelines(&ctx, m, &mut clip, &at)?;
        read_attachment_timelines(&ctx, m, &mut clip, &at)?;
        read_draw_order(&ctx, m, &mut clip, &at)?;
        read_draw_order_folders(&ctx, m, &mut clip, &at)?;
        read_events(&ctx, m, &mut clip, &at)?;
        rig.clips.push(clip);
    }
    Ok(())
}

/// Reads a key list: `f` fills each key's values and returns its payload.
fn read_keys(
    v: &Value,
    at: &Loc,
    interp: Interp,
    mut f: impl FnMut(&Obj, &Loc, &mut Vec<f64>) -> R<RawKeyData>,
) -> R<Vec<RawKey>> {
    let list = as_array(v, at)?;
    let mut keys = Vec::with_capacity(list.len());
    let mut last_time = f64::NEG_INFINITY;
    for (i, kv) in list.iter().enumerate() {
        let at = at.index(i);
        let m = as_obj(kv, &at)?;
        let time = f32_ranged_or(m, "time", 0.0, &at)?;
        if time < last_time {
            return at.key("time").err(format!(
                "key time {time} is before the previous key's {last_time}"
            ));
        }
        last_time = time;
        let mut values = Vec::new();
        let data = f(m, &at, &mut values)?;
        let curve = match interp {
            Interp::Stepped => RawCurve::Stepped,
            Interp::Curves(_) if i + 1 == list.len() => RawCurve::Linear,
            Interp::Curves(n) => read_curve(m, n, &at)?,
        };
        keys.push(RawKey {
            time,
            values,
            curve,
            data,
        });
    }
    Ok(keys)
}

/// Reads a key's `curve`: absent = linear, `"stepped"`, or 4 numbers per value.
fn read_curve(m: &Obj, n: usize, at: &Loc) -> R<RawCurve> {
    let Some(c) = member(m, "curve") else {
        return Ok(RawCurve::Linear);
    };
    let at = at.key("curve");
    match c {
        Value::String(s) if s == "stepped" => Ok(RawCurve::Stepped),
        Value::Array(list) => {
            if list.len() < 4 * n {
                return at.err(format!(
                    "curve needs {} numbers ({n} values), found {}",
                    4 * n,
                    list.len()
                ));
            }
            let mut out = Vec::with_capacity(4 * n);
            for (i, v) in list[..4 * n].iter().enumerate() {
                let at = at.index(i);
                out.push(f32_ranged(v, &at)?);
            }
            Ok(RawCurve::Bezier(out))
        }
        _ => at.err("expected \"stepped\" or an array of bezier numbers"),
    }
}

/// Pushes a timeline unless it has no keys.
fn push(clip: &mut RawClip, target: RawTarget, keys: Vec<RawKey>) {
    if !keys.is_empty() {
        clip.timelines.push(RawTimeline { target, keys });
    }
}

/// One-value keys: `value` (default `default`).
fn keys1(v: &Value, at: &Loc, default: f64) -> R<Vec<RawKey>> {
    read_keys(v, at, Interp::Curves(1), |m, at, out| {
        out.push(f32_ranged_or(m, "value", default, at)?);
        Ok(RawKeyData::None)
    })
}

/// Two-value keys: `x`, `y` (default `default`).
fn keys2(v: &Value, at: &Loc, default: f64) -> R<Vec<RawKey>> {
    read_keys(v, at, Interp::Curves(2), |m, at, out| {
        out.push(f32_ranged_or(m, "x", default, at)?);
        out.push(f32_ranged_or(m, "y", default, at)?);
        Ok(RawKeyData::None)
    })
}

/// A required colour of a key, pushing `channels` of r, g, b, a (byte / 255 in f64).
fn key_color(m: &Obj, key: &str, channels: usize, at: &Loc, out: &mut Vec<f64>) -> R<()> {
    let Some(s) = str_opt(m, key, at)? else {
        return at.err(format!("missing `{key}`"));
    };
    let c = parse_color_f64(s, &at.key(key))?;
    out.extend_from_slice(&c[..channels]);
    Ok(())
}

fn read_slot_timelines(ctx: &Ctx, m: &Obj, clip: &mut RawClip, at: &Loc) -> R<()> {
    let Some(slots) = obj_opt(m, "slots", at)? else {
        return Ok(());
    };
    let at = at.key("slots");
    for (slot, tm) in slots {
        let at = at.key(slot).named(slot);
        find(&ctx.names.slots, slot, "slot", &at)?;
        for (tl, v) in as_obj(tm, &at)? {
            let at = at.key(tl);
            let (property, keys) = match tl.as_str() {
                "attachment" => (
                    SlotProperty::Attachment,
                    read_keys(v, &at, Interp::Stepped, |m, at, _| {
                        Ok(RawKeyData::Attachment(
                            str_opt(m, "name", at)?.map(str::to_owned),
                        ))
                    })?,
                ),
                "rgba" => (
                    SlotProperty::Rgba,
                    read_keys(v, &at, Interp::Curves(4), |m, at, out| {
                        key_color(m, "color", 4, at, out)?;
                        Ok(RawKeyData::None)
                    })?,
                ),
                "rgb" => (
                    SlotProperty::Rgb,
                    read_keys(v, &at, Interp::Curves(3), |m, at, out| {
                        key_color(m, "color", 3, at, out)?;
                        Ok(RawKeyData::None)
                    })?,
                ),
                "alpha" => (SlotProperty::Alpha, keys1(v, &at, 0.0)?),
                "rgba2" => (
                    SlotProperty::Rgba2,
                    read_keys(v, &at, Interp::Curves(7), |m, at, out| {
                        key_color(m, "light", 4, at, out)?;
                        key_color(m, "dark", 3, at, out)?;
                        Ok(RawKeyData::None)
                    })?,
                ),
                "rgb2" => (
                    SlotProperty::Rgb2,
                    read_keys(v, &at, Interp::Curves(6), |m, at, out| {
                        key_color(m, "light", 3, at, out)?;
                        key_color(m, "dark", 3, at, out)?;
                        Ok(RawKeyData::None)
                    })?,
                ),
                other => return at.err(format!("unknown slot timeline `{other}`")),
            };
            push(
                clip,
                RawTarget::Slot {
                    slot: slot.clone(),
                    property,
                },
                keys,
            );
        }
    }
    Ok(())
}

fn read_bone_timelines(ctx: &Ctx, m: &Obj, clip: &mut RawClip, at: &Loc) -> R<()> {
    let Some(bones) = obj_opt(m, "bones", at)? else {
        return Ok(());
    };
    let at = at.key("bones");
    for (bone, tm) in bones {
        let at = at.key(bone).named(bone);
        find(&ctx.names.bones, bone, "bone", &at)?;
        for (tl, v) in as_obj(tm, &at)? {
            let at = at.key(tl);
            use BoneProperty as P;
            let (property, keys) = match tl.as_str() {
                "rotate" => (P::Rotate, keys1(v, &at, 0.0)?),
                "translate" => (P::Translate, keys2(v, &at, 0.0)?),
                "translatex" => (P::TranslateX, keys1(v, &at, 0.0)?),
                "translatey" => (P::TranslateY, keys1(v, &at, 0.0)?),
                "scale" => (P::Scale, keys2(v, &at, 1.0)?),
                "scalex" => (P::ScaleX, keys1(v, &at, 1.0)?),
                "scaley" => (P::ScaleY, keys1(v, &at, 1.0)?),
                "shear" => (P::Shear, keys2(v, &at, 0.0)?),
                "shearx" => (P::ShearX, keys1(v, &at, 0.0)?),
                "sheary" => (P::ShearY, keys1(v, &at, 0.0)?),
                "inherit" => (
                    P::Inherit,
                    read_keys(v, &at, Interp::Stepped, |m, at, _| {
                        let mode = match str_opt(m, "inherit", at)? {
                            Some(s) => parse_inherit(s, &at.key("inherit"))?,
                            None => sinew::types::Inherit::Normal,
                        };
                        Ok(RawKeyData::Inherit(mode))
                    })?,
                ),
                other => return at.err(format!("unknown bone timeline `{other}`")),
            };
            push(
                clip,
                RawTarget::Bone {
                    bone: bone.clone(),
                    property,
                },
                keys,
            );
        }
    }
    Ok(())
}

fn read_constraint_timelines(ctx: &Ctx, m: &Obj, clip: &mut RawClip, at: &Loc) -> R<()> {
    if let Some(ik) = obj_opt(m, "ik", at)? {
        let at = at.key("ik");
        for (name, v) in ik {
            let at = at.key(name).named(name);
            find(&ctx.names.ik, name, "IK constraint", &at)?;
            let keys = read_keys(v, &at, Interp::Curves(2), |m, at, out| {
                out.push(f32_ranged_or(m, "mix", 1.0, at)?);
                out.push(f32_ranged_or(m, "softness", 0.0, at)?);
                Ok(RawKeyData::IkFlags {
                    bend_positive: bool_or(m, "bendPositive", true, at)?,
                    compress: bool_or(m, "compress", false, at)?,
                    stretch: bool_or(m, "stretch", false, at)?,
                })
            })?;
            push(clip, RawTarget::Ik(name.clone()), keys);
        }
    }
    if let Some(tc) = obj_opt(m, "transform", at)? {
        let at = at.key("transform");
        let v43 = ctx.names.v43;
        for (name, v) in tc {
            let at = at.key(name).named(name);
            find(&ctx.names.transforms, name, "transform constraint", &at)?;
            let keys = read_keys(v, &at, Interp::Curves(6), |m, at, out| {
                let mix_x = f32_ranged_or(m, "mixX", 1.0, at)?;
                let mix_scale_x = f32_ranged_or(m, "mixScaleX", 1.0, at)?;
                out.extend_from_slice(&[
                    f32_ranged_or(m, "mixRotate", 1.0, at)?,
                    mix_x,
                    f32_ranged_or(m, "mixY", mix_x, at)?,
                    mix_scale_x,
                    // 4.3 keys default mixScaleY to 1, 4.2 keys to their mixScaleX.
                    f32_ranged_or(m, "mixScaleY", if v43 { 1.0 } else { mix_scale_x }, at)?,
                    f32_ranged_or(m, "mixShearY", 1.0, at)?,
                ]);
                Ok(RawKeyData::None)
            })?;
            push(clip, RawTarget::Transform(name.clone()), keys);
        }
    }
    if let Some(paths) = obj_opt(m, "path", at)? {
        let at = at.key("path");
        for (name, tm) in paths {
            let at = at.key(name).named(name);
            find(&ctx.names.paths, name, "path constraint", &at)?;
            for (tl, v) in as_obj(tm, &at)? {
                let at = at.key(tl);
                let (target, keys) = match tl.as_str() {
                    "position" => (RawTarget::PathPosition(name.clone()), keys1(v, &at, 0.0)?),
                    "spacing" => (RawTarget::PathSpacing(name.clone()), keys1(v, &at, 0.0)?),
                    "mix" => {
                        let keys = read_keys(v, &at, Interp::Curves(3), |m, at, out| {
                            let mix_x = f32_ranged_or(m, "mixX", 1.0, at)?;
                            out.extend_from_slice(&[
                                f32_ranged_or(m, "mixRotate", 1.0, at)?,
                                mix_x,
                                f32_ranged_or(m, "mixY", mix_x, at)?,
                            ]);
                            Ok(RawKeyData::None)
                        })?;
                        (RawTarget::PathMix(name.clone()), keys)
                    }
                    other => return at.err(format!("unknown path timeline `{other}`")),
                };
                push(clip, target, keys);
            }
        }
    }
    if let Some(sliders) = obj_opt(m, "slider", at)?.filter(|_| ctx.names.v43) {
        let at = at.key("slider");
        for (name, tm) in sliders {
            let at = at.key(name).named(name);
            find(&ctx.names.sliders, name, "slider", &at)?;
            for (tl, v) in as_obj(tm, &at)? {
                let at = at.key(tl);
                // Keys default to 1 (4.3 `readTimeline1(..., 1, 1)`).
                let target = match tl.as_str() {
                    "time" => RawTarget::SliderTime(name.clone()),
                    "mix" => RawTarget::SliderMix(name.clone()),
                    // COMPAT(spine): the official loader skips unknown slider timelines.
                    _ => continue,
                };
                push(clip, target, keys1(v, &at, 1.0)?);
            }
        }
    }
    if let Some(physics) = obj_opt(m, "physics", at)? {
        let at = at.key("physics");
        for (name, tm) in physics {
            let at = at.key(name).named(name);
            // The empty name addresses the constraints whose `*Global` flag is set.
            let constraint = if name.is_empty() {
                None
            } else {
                find(&ctx.names.physics, name, "physics constraint", &at)?;
                Some(name.clone())
            };
            for (tl, v) in as_obj(tm, &at)? {
                let at = at.key(tl);
                use PhysicsProperty as P;
                let property = match tl.as_str() {
                    "inertia" => P::Inertia,
                    "strength" => P::Strength,
                    "damping" => P::Damping,
                    "mass" => P::Mass,
                    "wind" => P::Wind,
                    "gravity" => P::Gravity,
                    "mix" => P::Mix,
                    "reset" => P::Reset,
                    // COMPAT(spine): the official loaders skip unknown physics timelines.
                    _ => continue,
                };
                let keys = if property == P::Reset {
                    read_keys(v, &at, Interp::Stepped, |_, _, _| Ok(RawKeyData::None))?
                } else if property == P::Mix && ctx.names.v43 {
                    // 4.3 mix keys default to 1 (4.2: 0).
                    keys1(v, &at, 1.0)?
                } else {
                    keys1(v, &at, 0.0)?
                };
                push(
                    clip,
                    RawTarget::Physics {
                        constraint: constraint.clone(),
                        property,
                    },
                    keys,
                );
            }
        }
    }
    Ok(())
}

fn read_attachment_timelines(ctx: &Ctx, m: &Obj, clip: &mut RawClip, at: &Loc) -> R<()> {
    let Some(skins) = obj_opt(m, "attachments", at)? else {
        return Ok(());
    };
    let at = at.key("attachments");
    for (skin, sv) in skins {
        let at = at.key(skin).named(skin);
        let si = find(&ctx.names.skins, skin, "skin", &at)?;
        for (slot, slv) in as_obj(sv, &at)? {
            let at = at.key(slot).named(slot);
            let slot_index = find(&ctx.names.slots, slot, "slot", &at)?;
            for (att, av) in as_obj(slv, &at)? {
                let at = at.key(att).named(att);
                // Linked meshes already carry their source mesh's shape.
                let Some(&shape) = ctx.shapes.get(&(si, slot_index, att.as_str())) else {
                    return at.err(format!(
                        "skin `{skin}` has no attachment `{att}` in slot `{slot}`"
                    ));
                };
                for (tl, v) in as_obj(av, &at)? {
                    let at = at.key(tl);
                    let target = match tl.as_str() {
                        "deform" => {
                            let Shape::Vertex { floats, .. } = shape else {
                                return at.err(format!("`{att}` has no vertices to deform"));
                            };
                            let keys = read_keys(v, &at, Interp::Curves(1), |m, at, _| {
                                deform_key(m, floats, at)
                            })?;
                            let target = RawTarget::Deform {
                                skin: skin.clone(),
                                slot: slot.clone(),
                                attachment: att.clone(),
                            };
                            (target, keys)
                        }
                        "sequence" => {
                            if !matches!(shape, Shape::Region | Shape::Vertex { mesh: true, .. }) {
                                return at.err(format!("`{att}` is neither a region nor a mesh"));
                            }
                            let mut last_delay = 0.0;
                            let keys = read_keys(v, &at, Interp::Stepped, |m, at, _| {
                                let key = sequence_key(m, last_delay, at)?;
                                if let RawKeyData::Sequence { delay, .. } = key {
                                    last_delay = delay;
                                }
                                Ok(key)
                            })?;
                            let target = RawTarget::Sequence {
                                skin: skin.clone(),
                                slot: slot.clone(),
                                attachment: att.clone(),
                            };
                            (target, keys)
                        }
                        other => return at.err(format!("unknown attachment timeline `{other}`")),
                    };
                    push(clip, target.0, target.1);
                }
            }
        }
    }
    Ok(())
}

/// A deform key: `offset` (0) and `vertices` (deltas; absent = none), which must fit in the
/// attachment's `floats` deform values.
fn deform_key(m: &Obj, floats: usize, at: &Loc) -> R<RawKeyData> {
    let offset = uint_or(m, "offset", 0, u64::from(u32::MAX), at)? as usize;
    let mut vertices = Vec::new();
    if let Some(list) = array_opt(m, "vertices", at)? {
        if offset.saturating_add(list.len()) > floats {
            return at.key("vertices").err(format!(
                "{} deform values at offset {offset} run past the attachment's {floats}",
                list.len()
            ));
        }
        vertices.reserve(list.len());
        for (i, v) in list.iter().enumerate() {
            let at = at.key("vertices");
            let at = at.index(i);
            vertices.push(to_f32(as_f64(v, &at)?, &at)?);
        }
    }
    Ok(RawKeyData::Deform {
        offset: offset as u32,
        vertices,
    })
}

/// A sequence key: `mode` (hold), `index` (0), `delay` (the previous key's).
fn sequence_key(m: &Obj, last_delay: f32, at: &Loc) -> R<RawKeyData> {
    let mode = match str_opt(m, "mode", at)?.unwrap_or("hold") {
        "hold" => SequenceMode::Hold,
        "once" => SequenceMode::Once,
        "loop" => SequenceMode::Loop,
        "pingpong" => SequenceMode::Pingpong,
        "onceReverse" => SequenceMode::OnceReverse,
        "loopReverse" => SequenceMode::LoopReverse,
        "pingpongReverse" => SequenceMode::PingpongReverse,
        other => {
            return at
                .key("mode")
                .err(format!("unknown sequence mode `{other}`"));
        }
    };
    let index = match member(m, "index") {
        Some(v) => as_i32(v, &at.key("index"))?,
        None => 0,
    };
    Ok(RawKeyData::Sequence {
        mode,
        index,
        delay: f32_or(m, "delay", last_delay, at)?,
    })
}

fn read_draw_order(ctx: &Ctx, m: &Obj, clip: &mut RawClip, at: &Loc) -> R<()> {
    let Some(v) = member(m, "drawOrder") else {
        return Ok(());
    };
    let at = at.key("drawOrder");
    // Scratch for the permutation check, sized by the slots that exist.
    let mut taken = vec![false; ctx.slot_count];
    let keys = read_keys(v, &at, Interp::Stepped, |m, at, _| {
        draw_order_offsets(m, at, &mut taken, |slot, at| {
            find(&ctx.names.slots, slot, "slot", at)
        })
    })?;
    push(clip, RawTarget::DrawOrder, keys);
    Ok(())
}

/// Spine 4.3 `drawOrderFolder`: a list of folders, each its `slots` and stepped `keys` whose
/// offsets count among the folder's slots.
fn read_draw_order_folders(ctx: &Ctx, m: &Obj, clip: &mut RawClip, at: &Loc) -> R<()> {
    let Some(list) = array_opt(m, "drawOrderFolder", at)? else {
        return Ok(());
    };
    let at = at.key("drawOrderFolder");
    for (i, f) in list.iter().enumerate() {
        let at = at.index(i);
        let fm = as_obj(f, &at)?;
        let mut slots: Vec<String> = Vec::new();
        if let Some(names) = array_opt(fm, "slots", &at)? {
            let at = at.key("slots");
            check_len(names.len(), ctx.slot_count, "folder slots", &at)?;
            for (k, n) in names.iter().enumerate() {
                let at = at.index(k);
                let name = as_str(n, &at)?;
                find(&ctx.names.slots, name, "slot", &at)?;
                if slots.iter().any(|s| s == name) {
                    return at.err(format!("slot `{name}` is listed twice in the folder"));
                }
                slots.push(name.to_owned());
            }
        }
        let mut taken = vec![false; slots.len()];
        let keys = match member(fm, "keys") {
            Some(v) => read_keys(v, &at.key("keys"), Interp::Stepped, |m, at, _| {
                draw_order_offsets(m, at, &mut taken, |slot, at| {
                    match slots.iter().position(|s| s == slot) {
                        Some(p) => Ok(p),
                        None => at.err(format!("slot `{slot}` is not in the folder")),
                    }
                })
            })?,
            None => Vec::new(),
        };
        push(clip, RawTarget::DrawOrderFolder { slots }, keys);
    }
    Ok(())
}

/// A draw order key's `offsets` (absent: the setup order): slots in increasing `index_of`
/// order, each moved by its offset to a free position among `taken.len()`.
fn draw_order_offsets(
    m: &Obj,
    at: &Loc,
    taken: &mut [bool],
    index_of: impl Fn(&str, &Loc) -> R<usize>,
) -> R<RawKeyData> {
    let Some(list) = array_opt(m, "offsets", at)? else {
        return Ok(RawKeyData::DrawOrder(None));
    };
    let at = at.key("offsets");
    let count = taken.len();
    taken.iter_mut().for_each(|t| *t = false);
    let mut next_original = 0usize;
    let mut out = Vec::with_capacity(list.len().min(count));
    for (i, ov) in list.iter().enumerate() {
        let at = at.index(i);
        let om = as_obj(ov, &at)?;
        let slot = str_req(om, "slot", &at)?;
        let at = at.named(slot);
        let index = index_of(slot, &at.key("slot"))?;
        if index < next_original {
            return at.err(format!(
                "slot `{slot}` is out of order (offsets list slots in setup order once each)"
            ));
        }
        let offset = match member(om, "offset") {
            Some(v) => as_i32(v, &at.key("offset"))?,
            None => 0,
        };
        let target = index as i64 + i64::from(offset);
        if target < 0 || target >= count as i64 || taken[target as usize] {
            return at.key("offset").err(format!(
                "offset {offset} moves slot `{slot}` to an invalid or taken position {target}"
            ));
        }
        taken[target as usize] = true;
        next_original = index + 1;
        out.push((slot.to_owned(), offset));
    }
    Ok(RawKeyData::DrawOrder(Some(out)))
}

fn read_events(ctx: &Ctx, m: &Obj, clip: &mut RawClip, at: &Loc) -> R<()> {
    let Some(v) = member(m, "events") else {
        return Ok(());
    };
    let at = at.key("events");
    let mut keys = read_keys(v, &at, Interp::Stepped, |m, at, _| {
        let name = str_req(m, "name", at)?;
        let at = at.named(name);
        let index = find(&ctx.names.events, name, "event", &at.key("name"))?;
        let has_audio = ctx.names.event_audio.get(index).copied().unwrap_or(false);
        // COMPAT(spine): keys of events with audio always set volume (1) and balance (0).
        let (volume, balance) = if has_audio {
            (
                Some(f32_or(m, "volume", 1.0, &at)?),
                Some(f32_or(m, "balance", 0.0, &at)?),
            )
        } else {
            (None, None)
        };
        Ok(RawKeyData::Event {
            name: name.to_owned(),
            int: member(m, "int")
                .map(|v| as_i32(v, &at.key("int")))
                .transpose()?,
            float: member(m, "float")
                .map(|v| to_f32(as_f64(v, &at.key("float"))?, &at.key("float")))
                .transpose()?,
            string: str_opt(m, "string", &at)?.map(str::to_owned),
            volume,
            balance,
        })
    })?;
    // COMPAT(spine): the official loader rounds event times to f32 (`toSinglePrecision`).
    for key in &mut keys {
        key.time = f64::from(key.time as f32);
    }
    push(clip, RawTarget::Event, keys);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::parse_spine_json;
    use sinew::raw::{RawCurve, RawTarget};

    #[test]
    fn keys_keep_the_file_numbers_and_event_times_round_to_f32() {
        let json = r##"{
            "skeleton": {"spine": "4.2.22"},
            "bones": [{"name": "root"}],
            "slots": [{"name": "s", "bone": "root"}],
            "events": {"e": {}},
            "animations": {"a": {
                "slots": {"s": {"rgba": [
                    {"color": "ff800040", "curve": [0.1, 0.2, 0.3, 0.4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]},
                    {"time": 0.7, "color": "ffffffff"}
                ]}},
                "bones": {"root": {"rotate": [
                    {"time": 0.1, "value": 33.74, "curve": [0.1667, 33.74, 0.2333, -12.3]},
                    {"time": 0.3}
                ]}},
                "events": [{"time": 0.1, "name": "e"}]
            }}
        }"##;
        let raw = parse_spine_json(json, "t.json").unwrap();
        let tls = &raw.clips[0].timelines;
        // Slot timelines come first: colour channels are byte / 255 in f64.
        let rgba = &tls[0].keys;
        assert_eq!(rgba[0].values, [1.0, 128.0 / 255.0, 0.0, 64.0 / 255.0]);
        assert_eq!(rgba[1].time, 0.7);
        let rotate = &tls[1].keys;
        assert_eq!((rotate[0].time, rotate[0].values[0]), (0.1, 33.74));
        assert_eq!(
            rotate[0].curve,
            RawCurve::Bezier(vec![0.1667, 33.74, 0.2333, -12.3])
        );
        // The last key's value defaults to 0 and its curve is linear.
        assert_eq!((rotate[1].time, &rotate[1].values[..]), (0.3, &[0.0][..]));
        assert_eq!(rotate[1].curve, RawCurve::Linear);
        assert!(matches!(tls[2].target, RawTarget::Event));
        assert_eq!(tls[2].keys[0].time, f64::from(0.1f32));
    }

    #[test]
    fn key_numbers_past_f32_are_refused() {
        let json = r#"{"bones": [{"name": "root"}], "animations": {"a": {"bones": {"root":
            {"rotate": [{"time": 0, "value": 1e39}]}}}}}"#;
        let err = parse_spine_json(json, "t.json").unwrap_err().to_string();
        assert!(err.contains("f32"), "{err}");
    }
}
