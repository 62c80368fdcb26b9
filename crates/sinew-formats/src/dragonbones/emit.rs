//! DragonBones keys to raw keys, within a memory budget.
//!
//! Keys sit at integer frames (running sums of `duration`, default 1); a zero-length key in
//! the middle holds for one frame and pushes later keys one frame on (COMPAT(dragonbones)).
//! Sampled easings become extra linear keys; every timeline ends with a key at the
//! animation end so the clip lasts its `duration`.
//!
//! Loop wrap-around (COMPAT(dragonbones)): while plays remain, a timeline whose last key
//! tweens and ends before the animation end tweens back to its first key over the rest of
//! the animation (5.5 rotation the short way, 5.0 rotation unnormalised); after the last
//! play, with `playTimes` 1 and in `gotoAndStopByTime` the runtime holds the last key. A
//! looping animation with such a timeline therefore gets two clips: its own name (the
//! wrap-around written as keys up to the end) and a held twin ([`super::ClipInfo::held`])
//! that holds the last key, which players use for the last play and for seeking.
//!
//! Budget: a crafted file can make a few bytes expand a lot (a 3-byte deform key of a large
//! mesh, a curve key sampled 4097 times, the wrap-around twin). Every value the reader is
//! about to make is charged first to a [`Budget`] proportional to the file's size, so no
//! input makes the reader hold more than a fixed multiple of its own size.

use super::ease::Ease;
use crate::json::lenient::*;
use crate::json::*;
use sinew::raw::*;

/// Values (numbers of keys, samples, deform vectors) the reader may make per byte of the
/// skeleton file (the fixtures use 0.41 to 0.54; `tests/all/dragonbones_golden.rs` checks them).
pub(crate) const VALUES_PER_BYTE: u64 = 8;
/// Values every file may use whatever its size (about 8 MiB of f64).
pub(crate) const VALUES_FLOOR: u64 = 1 << 20;
/// What one emitted key costs besides its values (its struct, about 190 bytes).
const KEY_COST: usize = 24;

/// Values the animation reader may still make.
#[derive(Debug)]
pub(crate) struct Budget {
    left: u64,
    limit: u64,
}

impl Budget {
    /// A budget of `limit` values.
    pub(crate) fn new(limit: u64) -> Budget {
        Budget { left: limit, limit }
    }

    /// The budget for a skeleton file of `bytes` bytes.
    pub(crate) fn for_input(bytes: usize) -> Budget {
        Budget::new(VALUES_FLOOR.saturating_add(VALUES_PER_BYTE.saturating_mul(bytes as u64)))
    }

    /// Takes `n` values, or refuses naming the JSON path that asked for them.
    pub(crate) fn take(&mut self, n: usize, path: &Loc) -> R<()> {
        let n = n as u64;
        if n > self.left {
            return path.err(format!(
                "the animations need more than their budget of {} values ({} per byte of \
                     the file + {}): keys that expand (curves, easings, deform keys of large \
                     meshes, loop wrap-arounds) would hold more memory than the file could",
                self.limit, VALUES_PER_BYTE, VALUES_FLOOR
            ));
        }
        self.left -= n;
        Ok(())
    }

    /// Values taken so far.
    pub(crate) fn used(&self) -> u64 {
        self.limit - self.left
    }
}

/// One DragonBones key: its frame, easing toward the next key, values, payload.
pub(crate) struct Key {
    pub frame: u32,
    pub ease: Ease,
    pub values: Vec<f64>,
    pub data: RawKeyData,
}

/// Reads `frame[]`-style key lists: positions, easing (`eases`: else every key holds), and
/// per key values via `f`.
pub(crate) fn keys(
    frames: &[serde_json::Value],
    p: &Loc,
    total: u32,
    eases: bool,
    budget: &mut Budget,
    mut f: impl FnMut(&Obj, &Loc, &mut Budget) -> R<(Vec<f64>, RawKeyData)>,
) -> R<Vec<Key>> {
    let mut out = Vec::with_capacity(frames.len().min(total as usize + 1));
    let mut pos: u32 = 0;
    let n = frames.len();
    for (i, fv) in frames.iter().enumerate() {
        let kp = p.index(i);
        let m = as_obj(fv, &kp)?;
        if pos > total {
            // COMPAT(dragonbones): keys past the end are never read by the runtime.
            break;
        }
        budget.take(KEY_COST, &kp)?;
        let mut d = count(m, "duration", 1, super::anim::MAX_FRAMES, &kp)?;
        let mut ease_span = if i + 1 < n { d } else { total - pos };
        let zero_mid = d == 0 && i + 1 < n;
        if zero_mid {
            d = 1;
            ease_span = 1;
        }
        let (values, data) = f(m, &kp, budget)?;
        let ease = if zero_mid || !eases {
            Ease::Hold
        } else {
            super::ease::read_ease(m, ease_span, &kp, budget)?
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

/// How a timeline's last key wraps around while plays remain.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wrap {
    /// Never (attachments, draw order).
    No,
    /// Toward the first key's values.
    First,
    /// Toward the first key, the first value (a rotation) the short way (5.5 `rotateFrame`).
    FirstShortWay,
}

/// One animation's clip and, when a timeline wraps around, its held twin.
pub(crate) struct Clips {
    /// The clip as played while plays remain.
    pub clip: RawClip,
    /// (timeline index, held keys) of the timelines that wrap.
    held: Vec<(usize, Vec<RawKey>)>,
    total: u32,
    rate: f64,
    looping: bool,
}

impl Clips {
    /// An empty clip of `total` frames at `rate` frames a second.
    pub(crate) fn new(name: String, total: u32, rate: f64, looping: bool) -> Clips {
        Clips {
            clip: RawClip {
                name,
                timelines: vec![],
                playback: None,
            },
            held: vec![],
            total,
            rate,
            looping,
        }
    }

    /// Adds a timeline of `keys` (nothing when empty).
    pub(crate) fn push(
        &mut self,
        target: RawTarget,
        keys: &[Key],
        wrap: Wrap,
        budget: &mut Budget,
        p: &Loc,
    ) -> R<()> {
        let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
            return Ok(());
        };
        let wraps =
            self.looping && wrap != Wrap::No && last.frame < self.total && last.ease.tweens();
        let to = wraps.then(|| {
            let mut v = first.values.clone();
            if wrap == Wrap::FirstShortWay
                && let (Some(r), Some(&l)) = (v.first_mut(), last.values.first())
            {
                *r = l + norm180(*r - l);
            }
            v
        });
        let played = emit(keys, self.total, self.rate, to.as_deref(), budget, p)?;
        if wraps {
            let held = emit(keys, self.total, self.rate, None, budget, p)?;
            self.held.push((self.clip.timelines.len(), held));
        }
        self.clip.timelines.push(RawTimeline {
            target,
            keys: played,
        });
        Ok(())
    }

    /// The clip and, if any timeline wraps, the held twin named `held_name`.
    pub(crate) fn finish(
        self,
        held_name: impl FnOnce() -> String,
        budget: &mut Budget,
        p: &Loc,
    ) -> R<(RawClip, Option<RawClip>)> {
        if self.held.is_empty() {
            return Ok((self.clip, None));
        }
        let mut twin = RawClip {
            name: held_name(),
            timelines: Vec::with_capacity(self.clip.timelines.len()),
            playback: None,
        };
        let mut held = self.held.into_iter().peekable();
        for (i, t) in self.clip.timelines.iter().enumerate() {
            match held.next_if(|(j, _)| *j == i) {
                Some((_, keys)) => twin.timelines.push(RawTimeline {
                    target: t.target.clone(),
                    keys,
                }),
                None => {
                    let values: usize = t.keys.iter().map(key_size).sum();
                    budget.take(values, p)?;
                    twin.timelines.push(t.clone());
                }
            }
        }
        Ok((self.clip, Some(twin)))
    }
}

/// Values one raw key holds (what the budget charges for it).
fn key_size(k: &RawKey) -> usize {
    let payload = match &k.data {
        RawKeyData::Deform { vertices, .. } => vertices.len(),
        _ => 0,
    };
    KEY_COST + k.values.len() + payload
}

/// Writes keys as raw keys, sampled easings as extra linear keys, then the end key: the
/// wrap target `wrap` (if the last key tweens) or the last key held.
fn emit(
    keys: &[Key],
    total: u32,
    rate: f64,
    wrap: Option<&[f64]>,
    budget: &mut Budget,
    p: &Loc,
) -> R<Vec<RawKey>> {
    let mut out = Vec::with_capacity(keys.len() * 2);
    let lerp = |a: &[f64], b: &[f64], t: f64| -> Vec<f64> {
        a.iter().zip(b).map(|(x, y)| x + (y - x) * t).collect()
    };
    let mut put = |out: &mut Vec<RawKey>, time: f64, v: &[f64], curve, data: &RawKeyData| {
        budget.take(KEY_COST + v.len(), p)?;
        let (values, data) = match data {
            RawKeyData::Deform { .. } => (
                vec![],
                RawKeyData::Deform {
                    offset: 0,
                    vertices: v.iter().map(|&x| x as f32).collect(),
                },
            ),
            other => (v.to_vec(), other.clone()),
        };
        out.push(RawKey {
            time,
            values,
            curve,
            data,
        });
        Ok::<(), Box<Problem>>(())
    };
    for (i, k) in keys.iter().enumerate() {
        // COMPAT(dragonbones): at or before the frame's time, so the runtime's key is reached
        // there (see `ClipPlayback::grid_time`).
        let t0 = sinew::anim::f32_at_or_before(f64::from(k.frame) / rate);
        let next: Option<(u32, &[f64])> = match keys.get(i + 1) {
            Some(n) => Some((n.frame, &n.values)),
            None if k.frame < total => wrap.map(|v| (total, v)),
            None => None,
        };
        let curve = match (&k.ease, &next) {
            (Ease::Linear | Ease::Samples(_), Some(_)) => RawCurve::Linear,
            (&Ease::Eased(easing, hundredths), Some(_)) => RawCurve::Eased { easing, hundredths },
            _ => RawCurve::Stepped,
        };
        put(&mut out, t0, &k.values, curve, &k.data)?;
        if let (Ease::Samples(s), Some((f1, v1))) = (&k.ease, next) {
            let span = f64::from(f1 - k.frame) / rate;
            // Bounded work: at most ~4M interpolated numbers per key (long deform keys
            // keep every n-th sample).
            let every = (s.len() * (k.values.len() + 1)).div_ceil(1 << 22).max(1);
            for &(x, y) in s.iter().step_by(every) {
                let v = lerp(&k.values, v1, y);
                put(&mut out, t0 + x * span, &v, RawCurve::Linear, &k.data)?;
            }
        }
    }
    // End key: the wrap target, or the last key held, so the clip lasts `total` frames.
    if let Some(last) = keys.last()
        && last.frame < total
    {
        let v = match wrap {
            Some(w) if last.ease.tweens() => w,
            _ => &last.values,
        };
        put(
            &mut out,
            f64::from(total) / rate,
            v,
            RawCurve::Stepped,
            &last.data,
        )?;
    }
    Ok(out)
}

/// `d` degrees brought into (-180, 180].
pub(crate) fn norm180(d: f64) -> f64 {
    let r = (d + 180.0).rem_euclid(360.0) - 180.0;
    if r == -180.0 { 180.0 } else { r }
}

/// Unwraps rotation keys (the first value of each key) as the runtime's parser does: with
/// no extra turns on the previous key, the short way from it; COMPAT(dragonbones): with
/// `clockwise` (5.5) / `tweenRotate` (5.0) turns `c` on the previous key, the key's own
/// value plus `c` whole turns, one turn fewer when the value already lies on the side the
/// turns go to (`c > 0` and value >= previous, or `c < 0` and value <= previous): the
/// turns count from the key's raw value, not from the previous key.
pub(crate) fn unwrap_rotation(keys: &mut [Key], turns: &[f64]) {
    for i in 1..keys.len() {
        let (Some(&prev), Some(&raw)) = (keys[i - 1].values.first(), keys[i].values.first()) else {
            continue;
        };
        let mut c = turns.get(i - 1).copied().unwrap_or(0.0);
        let r = if c == 0.0 {
            prev + norm180(raw - prev)
        } else {
            if (c > 0.0 && raw >= prev) || (c < 0.0 && raw <= prev) {
                c -= c.signum();
            }
            raw + 360.0 * c
        };
        keys[i].values[0] = r;
    }
}
