//! DragonBones animations as raw clips.
//!
//! Keys sit at integer frames (running sums of `duration`, default 1); a zero-length key in
//! the middle holds for one frame and pushes later keys one frame on (COMPAT(dragonbones)).
//! Values are offsets on the setup pose (Spine's own convention for its bone timelines).
//! Easing: no `tweenEasing` holds, 0 is linear; `curve` Beziers are reproduced exactly as
//! the runtime evaluates them (COMPAT(dragonbones): pre-sampled at `N + 1` points for an
//! `N`-frame key, bisection to 1e-4, y rounded to 1/10000, linear between samples) by
//! writing the samples as linear keys (multi-segment curves with the runtime's segment
//! choice); `tweenEasing` strengths (evaluated exactly by the runtime) as 64 linear pieces,
//! within 2.5e-4 of the key's value change.
//! Looping animations (`playTimes != 1`): a timeline whose last key ends before the
//! animation end tweens back to its first key (COMPAT(dragonbones): the runtime's
//! wrap-around), written as a key at the end.

use super::json::*;
use super::{ClipInfo, Names, read_color, read_xf};
use sinew::raw::*;

/// Linear pieces of one `tweenEasing` ease (see [`read_ease`]).
const EASE_SEGMENTS: u32 = 64;

/// Most frames of one animation.
const MAX_FRAMES: f64 = 1_000_000.0;

#[derive(Clone)]
enum Ease {
    Hold,
    Linear,
    /// Sampled progress curve: (x, y) pairs strictly inside (0, 1).
    Samples(Vec<(f64, f64)>),
}

struct Key {
    frame: u32,
    ease: Ease,
    values: Vec<f64>,
    data: RawKeyData,
}

/// Progress through a quadratic/sine easing of strength `e` (the runtime's rule).
fn eased(e: f64, p: f64) -> f64 {
    let e = (e * 100.0).round() / 100.0;
    if e < 0.0 {
        p + (p * p - p) * (-e)
    } else if e <= 1.0 {
        p + ((1.0 - (1.0 - p) * (1.0 - p)) - p) * e
    } else {
        let s = e - 1.0;
        let io = 0.5 * (1.0 - (p * std::f64::consts::PI).cos());
        p + (io - p) * s
    }
}

fn bezier(p0: f64, p1: f64, p2: f64, p3: f64, t: f64) -> f64 {
    let u = 1.0 - t;
    u * u * u * p0 + 3.0 * u * u * t * p1 + 3.0 * u * t * t * p2 + t * t * t * p3
}

/// The runtime's pre-sampled curve for a key of `frames` frames.
///
/// `c` is `[c1, c2, (anchor, c3, c4)*]` as x, y pairs. A sample at x picks the segment
/// whose end anchor's x is the first at or past it; COMPAT(dragonbones): the first and the
/// last segment run from (0, 0) to (1, 1) instead of their anchors, only middle segments
/// use theirs (a two-segment curve through (0.5, 0.5) jumps at the anchor, as in the runtime).
fn curve_samples(c: &[f64], frames: u32) -> Vec<(f64, f64)> {
    // COMPAT(dragonbones): keys longer than 4096 frames get 4097 samples, not N + 1.
    let n = frames.clamp(1, 4096) as usize;
    let at = |i: isize| -> f64 {
        usize::try_from(i)
            .ok()
            .and_then(|i| c.get(i))
            .copied()
            .unwrap_or(f64::NAN)
    };
    let len = c.len() as isize;
    let mut step: isize = -2;
    let mut out = Vec::with_capacity(n + 1);
    for k in 1..=n + 1 {
        let x = k as f64 / (n + 2) as f64;
        while step + 6 < len && at(step + 6) < x {
            step += 6;
        }
        let inside = step >= 0 && step + 6 < len;
        let (x1, y1) = if inside {
            (at(step), at(step + 1))
        } else {
            (0.0, 0.0)
        };
        let (x2, y2, x3, y3) = (at(step + 2), at(step + 3), at(step + 4), at(step + 5));
        let (x4, y4) = if inside {
            (at(step + 6), at(step + 7))
        } else {
            (1.0, 1.0)
        };
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let mut y = 0.0;
        while hi - lo > 1e-4 {
            let mid = (lo + hi) / 2.0;
            let xm = bezier(x1, x2, x3, x4, mid);
            y = bezier(y1, y2, y3, y4, mid);
            if x - xm > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        out.push((x, (y * 10000.0).round() / 10000.0));
    }
    out
}

fn read_ease(m: &Obj, frames: u32, p: &str) -> R<Ease> {
    let curve = nums(m, "curve", p)?;
    if curve.len() >= 4 {
        return Ok(Ease::Samples(curve_samples(&curve, frames)));
    }
    Ok(match num_opt(m, "tweenEasing", p)? {
        None => Ease::Hold,
        Some(e) if e.abs() < f64::MIN_POSITIVE => Ease::Linear,
        Some(e) => {
            // The runtime evaluates these easings exactly at each time; sinew's curve model
            // (Spine's Bezier, itself pre-sampled in 10 segments) cannot express the sine
            // one, so both are written as EASE_SEGMENTS linear pieces: off by at most
            // 2.5e-4 of the key's value change (quadratic: strength / (4 * 64^2) <= 6.2e-5;
            // sine: strength * pi^2 / (16 * 64^2) <= 1.5e-4).
            let n = EASE_SEGMENTS;
            Ease::Samples(
                (1..n)
                    .map(|k| {
                        let x = f64::from(k) / f64::from(n);
                        (x, eased(e, x))
                    })
                    .collect(),
            )
        }
    })
}

/// Reads `frame[]`-style key lists: positions, easing, and per key values via `f`.
fn keys(
    frames: &[serde_json::Value],
    p: &str,
    total: u32,
    mut f: impl FnMut(&Obj, &str) -> R<(Vec<f64>, RawKeyData)>,
) -> R<Vec<Key>> {
    let mut out = Vec::with_capacity(frames.len().min(total as usize + 1));
    let mut pos: u32 = 0;
    let n = frames.len();
    for (i, fv) in frames.iter().enumerate() {
        let kp = idx(p, i);
        let m = obj(fv, &kp)?;
        if pos > total {
            // COMPAT(dragonbones): keys past the end are never read by the runtime.
            break;
        }
        let mut d = count(m, "duration", 1, MAX_FRAMES as u32, &kp)?;
        let mut ease_span = if i + 1 < n { d } else { total - pos };
        let zero_mid = d == 0 && i + 1 < n;
        if zero_mid {
            d = 1;
            ease_span = 1;
        }
        let (values, data) = f(m, &kp)?;
        let ease = if zero_mid {
            Ease::Hold
        } else {
            read_ease(m, ease_span, &kp)?
        };
        out.push(Key {
            frame: pos,
            ease,
            values,
            data,
        });
        pos = pos.saturating_add(d);
    }
    Ok(out)
}

/// Writes keys as raw keys, sampled easings as extra linear keys, the end wrap or hold.
fn emit(keys: &[Key], total: u32, rate: f64, wrap: Option<Vec<f64>>, interp: bool) -> Vec<RawKey> {
    let mut out = Vec::with_capacity(keys.len() * 2);
    let lerp = |a: &[f64], b: &[f64], t: f64| -> Vec<f64> {
        a.iter().zip(b).map(|(x, y)| x + (y - x) * t).collect()
    };
    for (i, k) in keys.iter().enumerate() {
        let t0 = f64::from(k.frame) / rate;
        let next = match keys.get(i + 1) {
            Some(n) => Some((n.frame, n.values.clone())),
            None if k.frame < total => wrap.clone().map(|v| (total, v)),
            None => None,
        };
        let ease = if interp { k.ease.clone() } else { Ease::Hold };
        let curve = match (&ease, &next) {
            (Ease::Linear | Ease::Samples(_), Some(_)) => RawCurve::Linear,
            _ => RawCurve::Stepped,
        };
        let deform = |v: &[f64]| match &k.data {
            RawKeyData::Deform { .. } => RawKeyData::Deform {
                offset: 0,
                vertices: v.iter().map(|&x| x as f32).collect(),
            },
            other => other.clone(),
        };
        let is_deform = matches!(k.data, RawKeyData::Deform { .. });
        let vals = |v: &[f64]| if is_deform { vec![] } else { v.to_vec() };
        out.push(RawKey {
            time: t0,
            values: vals(&k.values),
            curve,
            data: deform(&k.values),
        });
        if let (Ease::Samples(s), Some((f1, v1))) = (&ease, &next) {
            let span = f64::from(f1 - k.frame) / rate;
            // Bounded work: at most ~4M interpolated numbers per key (long deform keys
            // keep every n-th sample).
            let every = (s.len() * (k.values.len() + 1)).div_ceil(1 << 22).max(1);
            for &(x, y) in s.iter().step_by(every) {
                let v = lerp(&k.values, v1, y);
                out.push(RawKey {
                    time: t0 + x * span,
                    values: vals(&v),
                    curve: RawCurve::Linear,
                    data: deform(&v),
                });
            }
        }
    }
    // End key: the wrap target, or the last key held, so the clip lasts `total` frames.
    if let Some(last) = keys.last()
        && last.frame < total
    {
        let v = match (&wrap, interp, &last.ease) {
            (Some(w), true, Ease::Linear | Ease::Samples(_)) => w.clone(),
            _ => last.values.clone(),
        };
        let is_deform = matches!(last.data, RawKeyData::Deform { .. });
        out.push(RawKey {
            time: f64::from(total) / rate,
            values: if is_deform { vec![] } else { v.clone() },
            curve: RawCurve::Stepped,
            data: match &last.data {
                RawKeyData::Deform { .. } => RawKeyData::Deform {
                    offset: 0,
                    vertices: v.iter().map(|&x| x as f32).collect(),
                },
                other => other.clone(),
            },
        });
    }
    out
}

fn norm180(d: f64) -> f64 {
    let r = (d + 180.0).rem_euclid(360.0) - 180.0;
    if r == -180.0 { 180.0 } else { r }
}

/// Unwraps rotation keys (index `slot` of each key's values): each key the short way from
/// the previous one, plus the previous key's extra signed turns.
fn unwrap_rotation(keys: &mut [Key], turns: &[f64]) {
    for i in 1..keys.len() {
        let prev = keys[i - 1].values[0];
        let raw = keys[i].values[0];
        let mut r = prev + norm180(raw - prev);
        let t = turns.get(i - 1).copied().unwrap_or(0.0);
        if t > 0.0 {
            while r < prev {
                r += 360.0;
            }
            r += 360.0 * (t - 1.0).max(0.0);
        } else if t < 0.0 {
            while r > prev {
                r -= 360.0;
            }
            r -= 360.0 * (-t - 1.0).max(0.0);
        }
        keys[i].values[0] = r;
    }
}

fn push(
    clip: &mut RawClip,
    target: RawTarget,
    keys: &[Key],
    total: u32,
    rate: f64,
    looping: bool,
    interp: bool,
) {
    if keys.is_empty() {
        return;
    }
    let wrap = if looping {
        keys.first().map(|k| k.values.clone())
    } else {
        None
    };
    clip.timelines.push(RawTimeline {
        target,
        keys: emit(keys, total, rate, wrap, interp),
    });
}

fn plain(v: Vec<f64>) -> (Vec<f64>, RawKeyData) {
    (v, RawKeyData::None)
}

pub(crate) fn read_animations(
    a: &Obj,
    ap: &str,
    rate: f64,
    names: &Names,
    rig: &mut RawRig,
) -> R<Vec<ClipInfo>> {
    let mut infos = Vec::new();
    let anp = key(ap, "animation");
    for (ai, av) in arr(a, "animation", ap)?.iter().enumerate() {
        let p = idx(&anp, ai);
        let an = obj(av, &p)?;
        let name = string(an, "name", "", &p)?;
        let total = count(an, "duration", 1, MAX_FRAMES as u32, &p)?.max(1);
        let play_times = count(an, "playTimes", 1, u32::MAX, &p)?;
        let looping = play_times != 1;
        let mut clip = RawClip {
            name: name.clone(),
            timelines: vec![],
        };
        // Bones.
        let bp = key(&p, "bone");
        for (bi, bv) in arr(an, "bone", &p)?.iter().enumerate() {
            let p = idx(&bp, bi);
            let b = obj(bv, &p)?;
            let bone = string(b, "name", "", &p)?;
            if !names.bones.contains(&bone) {
                return bad(&p, format!("bone `{bone}` not found"));
            }
            let target = |property| RawTarget::Bone {
                bone: bone.clone(),
                property,
            };
            let tp = key(&p, "translateFrame");
            let k = keys(arr(b, "translateFrame", &p)?, &tp, total, |m, kp| {
                Ok(plain(vec![num(m, "x", 0.0, kp)?, num(m, "y", 0.0, kp)?]))
            })?;
            push(
                &mut clip,
                target(BoneProperty::Translate),
                &k,
                total,
                rate,
                looping,
                true,
            );
            let rp = key(&p, "rotateFrame");
            let rf = arr(b, "rotateFrame", &p)?;
            let mut turns = Vec::with_capacity(rf.len());
            let mut k = keys(rf, &rp, total, |m, kp| {
                turns.push(num(m, "clockwise", 0.0, kp)?);
                Ok(plain(vec![
                    num(m, "rotate", 0.0, kp)?,
                    num(m, "skew", 0.0, kp)?,
                ]))
            })?;
            unwrap_rotation(&mut k, &turns);
            let (rot, skew) = split(&k);
            push(
                &mut clip,
                target(BoneProperty::Rotate),
                &rot,
                total,
                rate,
                looping,
                true,
            );
            if skew.iter().any(|k| k.values[0] != 0.0) {
                push(
                    &mut clip,
                    target(BoneProperty::ShearY),
                    &skew,
                    total,
                    rate,
                    looping,
                    true,
                );
            }
            let scp = key(&p, "scaleFrame");
            let k = keys(arr(b, "scaleFrame", &p)?, &scp, total, |m, kp| {
                Ok(plain(vec![num(m, "x", 1.0, kp)?, num(m, "y", 1.0, kp)?]))
            })?;
            push(
                &mut clip,
                target(BoneProperty::Scale),
                &k,
                total,
                rate,
                looping,
                true,
            );
            // 5.0: one `frame` list with whole transforms.
            let fp = key(&p, "frame");
            let ff = arr(b, "frame", &p)?;
            if !ff.is_empty() {
                let mut turns = Vec::with_capacity(ff.len());
                let k = keys(ff, &fp, total, |m, kp| {
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
                let pick = |i: usize, j: usize| -> Vec<Key> {
                    k.iter()
                        .map(|k| Key {
                            frame: k.frame,
                            ease: k.ease.clone(),
                            values: k.values[i..j].to_vec(),
                            data: RawKeyData::None,
                        })
                        .collect()
                };
                push(
                    &mut clip,
                    target(BoneProperty::Translate),
                    &pick(0, 2),
                    total,
                    rate,
                    looping,
                    true,
                );
                let mut rot = pick(2, 3);
                unwrap_rotation(&mut rot, &turns);
                // COMPAT(dragonbones): 5.0 rotation spins back to the first key unnormalised.
                push(
                    &mut clip,
                    target(BoneProperty::Rotate),
                    &rot,
                    total,
                    rate,
                    looping,
                    true,
                );
                let skew = pick(3, 4);
                if skew.iter().any(|k| k.values[0] != 0.0) {
                    push(
                        &mut clip,
                        target(BoneProperty::ShearY),
                        &skew,
                        total,
                        rate,
                        looping,
                        true,
                    );
                }
                push(
                    &mut clip,
                    target(BoneProperty::Scale),
                    &pick(4, 6),
                    total,
                    rate,
                    looping,
                    true,
                );
            }
        }
        // Slots.
        let sp = key(&p, "slot");
        for (si, sv) in arr(an, "slot", &p)?.iter().enumerate() {
            let p = idx(&sp, si);
            let s = obj(sv, &p)?;
            let slot = string(s, "name", "", &p)?;
            let Some((_, displays)) = names.slots.get(&slot) else {
                return bad(&p, format!("slot `{slot}` not found"));
            };
            let attach = |d: f64| -> RawKeyData {
                let a = if d < 0.0 {
                    None
                } else {
                    displays.get(d as usize).cloned()
                };
                RawKeyData::Attachment(a)
            };
            let dp = key(&p, "displayFrame");
            let k = keys(arr(s, "displayFrame", &p)?, &dp, total, |m, kp| {
                Ok((vec![], attach(num(m, "value", 0.0, kp)?)))
            })?;
            let att = RawTarget::Slot {
                slot: slot.clone(),
                property: SlotProperty::Attachment,
            };
            push(&mut clip, att.clone(), &k, total, rate, false, false);
            let cp = key(&p, "colorFrame");
            let k = keys(arr(s, "colorFrame", &p)?, &cp, total, |m, kp| {
                let c = read_color(obj_opt(m, "value", kp)?, &key(kp, "value"), true)?;
                Ok(plain(
                    vec![c.r, c.g, c.b, c.a]
                        .into_iter()
                        .map(f64::from)
                        .collect(),
                ))
            })?;
            let rgba = RawTarget::Slot {
                slot: slot.clone(),
                property: SlotProperty::Rgba,
            };
            push(&mut clip, rgba.clone(), &k, total, rate, looping, true);
            // 5.0 slot frames.
            let fp = key(&p, "frame");
            let ff = arr(s, "frame", &p)?;
            if !ff.is_empty() {
                let k = keys(ff, &fp, total, |m, kp| {
                    let c = read_color(obj_opt(m, "color", kp)?, &key(kp, "color"), true)?;
                    let d = num(m, "displayIndex", 0.0, kp)?;
                    Ok((
                        vec![c.r, c.g, c.b, c.a]
                            .into_iter()
                            .map(f64::from)
                            .collect(),
                        attach(d),
                    ))
                })?;
                let atts: Vec<Key> = k
                    .iter()
                    .map(|k| Key {
                        frame: k.frame,
                        ease: Ease::Hold,
                        values: vec![],
                        data: k.data.clone(),
                    })
                    .collect();
                push(&mut clip, att, &atts, total, rate, false, false);
                let cols: Vec<Key> = k
                    .into_iter()
                    .map(|k| Key {
                        data: RawKeyData::None,
                        ..k
                    })
                    .collect();
                push(&mut clip, rgba, &cols, total, rate, looping, true);
            }
        }
        // Deform.
        let fp = key(&p, "ffd");
        for (fi, fv) in arr(an, "ffd", &p)?.iter().enumerate() {
            let p = idx(&fp, fi);
            let f = obj(fv, &p)?;
            let mut skin = string(f, "skin", "", &p)?;
            if skin.is_empty() {
                skin = "default".into();
            }
            let slot = string(f, "slot", "", &p)?;
            let disp = string(f, "name", "", &p)?;
            let Some(mi) = names
                .meshes
                .get(&(skin.clone(), slot.clone(), disp.clone()))
            else {
                return bad(&p, format!("mesh `{disp}` of slot `{slot}` not found"));
            };
            let kp = key(&p, "frame");
            let k = keys(arr(f, "frame", &p)?, &kp, total, |m, kp| {
                let off = count(m, "offset", 0, u32::MAX, kp)? as usize;
                let v = nums(m, "vertices", kp)?;
                let mut slot_space = vec![0.0; mi.vertices * 2];
                for (i, d) in v.iter().enumerate() {
                    if let Some(s) = slot_space.get_mut(off.saturating_add(i)) {
                        *s = *d;
                    }
                }
                let out: Vec<f64> = match &mi.weighted {
                    Some(maps) => {
                        let mut o =
                            Vec::with_capacity(maps.iter().map(Vec::len).sum::<usize>() * 2);
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
            })?;
            let target = RawTarget::Deform {
                skin,
                slot,
                attachment: mi.key.clone(),
            };
            push(&mut clip, target, &k, total, rate, looping, true);
        }
        // IK.
        let ip = key(&p, "ik");
        for (ii, iv) in arr(an, "ik", &p)?.iter().enumerate() {
            let p = idx(&ip, ii);
            let m = obj(iv, &p)?;
            let ik = string(m, "name", "", &p)?;
            if !names.ik.contains(&ik) {
                return bad(&p, format!("IK `{ik}` not found"));
            }
            let kp = key(&p, "frame");
            let k = keys(arr(m, "frame", &p)?, &kp, total, |m, kp| {
                let w = (num(m, "weight", 1.0, kp)? * 100.0).round() / 100.0;
                Ok((
                    vec![w, 0.0],
                    RawKeyData::IkFlags {
                        bend_positive: boolean(m, "bendPositive", true, kp)?,
                        compress: false,
                        stretch: false,
                    },
                ))
            })?;
            push(&mut clip, RawTarget::Ik(ik), &k, total, rate, looping, true);
        }
        // zOrder.
        if let Some(z) = obj_opt(an, "zOrder", &p)? {
            let zp = key(&p, "zOrder");
            let kp = key(&zp, "frame");
            let k = keys(arr(z, "frame", &zp)?, &kp, total, |m, kp| {
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
                        return bad(&key(kp, "zOrder"), format!("slot index {} not found", c[0]));
                    };
                    pairs.push((slot, c[1] as i32));
                }
                Ok((vec![], RawKeyData::DrawOrder(Some(pairs))))
            })?;
            push(
                &mut clip,
                RawTarget::DrawOrder,
                &k,
                total,
                rate,
                false,
                false,
            );
        }
        // Events (and sounds) of the main timeline.
        let ep = key(&p, "frame");
        let mut events = Vec::new();
        let mut pos = 0u32;
        for (i, fv) in arr(an, "frame", &p)?.iter().enumerate() {
            let kp = idx(&ep, i);
            let m = obj(fv, &kp)?;
            let t = f64::from(pos) / rate;
            for (j, e) in arr(m, "events", &kp)?.iter().enumerate() {
                let e = obj(e, &idx(&key(&kp, "events"), j))?;
                events.push((t, string(e, "name", "", &kp)?));
            }
            if let Some(s) = m.get("sound").and_then(serde_json::Value::as_str) {
                events.push((t, s.to_owned()));
            }
            pos = pos.saturating_add(count(m, "duration", 1, MAX_FRAMES as u32, &kp)?);
        }
        if !events.is_empty() {
            let mut keys = Vec::with_capacity(events.len());
            for (t, n) in events {
                if !rig.events.iter().any(|e| e.name == n) {
                    rig.events.push(RawEvent {
                        name: n.clone(),
                        ..Default::default()
                    });
                }
                keys.push(RawKey {
                    time: t,
                    values: vec![],
                    curve: RawCurve::Stepped,
                    data: RawKeyData::Event {
                        name: n,
                        int: None,
                        float: None,
                        string: None,
                        volume: None,
                        balance: None,
                    },
                });
            }
            clip.timelines.push(RawTimeline {
                target: RawTarget::Event,
                keys,
            });
        }
        rig.clips.push(clip);
        infos.push(ClipInfo {
            name,
            play_times,
            frames: total,
            fade_in: num(an, "fadeInTime", 0.0, &p)?,
        });
    }
    Ok(infos)
}

/// Splits [rotation, skew] keys into two one-value lists.
fn split(k: &[Key]) -> (Vec<Key>, Vec<Key>) {
    let one = |i: usize| {
        k.iter()
            .map(|k| Key {
                frame: k.frame,
                ease: k.ease.clone(),
                values: vec![k.values[i]],
                data: RawKeyData::None,
            })
            .collect()
    };
    (one(0), one(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sampled curve's value at progress `p` (linear between samples, ends 0 and 1).
    fn at(samples: &[(f64, f64)], p: f64) -> f64 {
        let mut pts = vec![(0.0, 0.0)];
        pts.extend_from_slice(samples);
        pts.push((1.0, 1.0));
        let k = pts.windows(2).position(|w| p <= w[1].0).unwrap();
        let ((x0, y0), (x1, y1)) = (pts[k], pts[k + 1]);
        y0 + (y1 - y0) * (p - x0) / (x1 - x0)
    }

    #[test]
    fn multi_segment_curves_follow_the_runtime_segment_rule() {
        // Values from the oracle's README rule (quirks.mjs, checked against the runtime).
        let multi = [0.1, 0.4, 0.2, 0.5, 0.5, 0.5, 0.8, 0.5, 0.9, 0.6];
        let s = curve_samples(&multi, 20);
        assert_eq!(s.len(), 21);
        for (p, want) in [
            (0.1, 0.2801),
            (0.3, 0.5203),
            (0.45, 0.63894),
            (0.55, 0.36106),
            (0.7, 0.4797),
            (0.9, 0.7199),
        ] {
            assert!((at(&s, p) - want).abs() < 1e-9, "{p}: {}", at(&s, p));
        }
        // Malformed lengths give numbers (maybe NaN), never a panic.
        let _ = curve_samples(&[0.1, 0.2, 0.3, 0.4, 0.5], 3);
    }

    #[test]
    fn tween_easing_pieces_stay_within_the_stated_bound() {
        for e in [-1.0, -0.33, 0.5, 1.0, 1.5, 2.0] {
            let m: Obj = serde_json::from_str(&format!(r#"{{"tweenEasing": {e}}}"#)).unwrap();
            let Ease::Samples(s) = read_ease(&m, 10, "$").unwrap() else {
                panic!("not sampled")
            };
            let worst = (0..=1000)
                .map(|k| f64::from(k) / 1000.0)
                .map(|p| (at(&s, p) - eased(e, p)).abs())
                .fold(0.0, f64::max);
            assert!(worst < 2.5e-4, "{e}: {worst}");
        }
    }
}
