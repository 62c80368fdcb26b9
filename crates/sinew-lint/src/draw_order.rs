//! `draw-order-still-frame` (warning): a draw-order key at which the slots that change
//! places barely move while they overlap, and a frame nearby hides the switch better (they
//! move faster there, or overlap less).
//!
//! The seed's reason: a layer that pops in front of another is visible as a jump unless the
//! switch happens while the parts move fast (a turn, a swing), when the eye cannot follow
//! it, or where they overlap little, since a switch changes only the pixels where both
//! parts are drawn (with no overlap it changes nothing at all).
//!
//! The slots that change places are those outside the longest common subsequence of the
//! orders before and after the key (the fewest slots that moved) and the slots they cross.
//! At a time `t` two things are measured: their summed speed (each slot's attachment
//! centroid, or its bone without one), and their overlap: for each pair whose order flips,
//! the intersection of the two slots' bounds over the smaller slot's area, summed over the
//! pairs (bounds are a cheap, conservative stand-in for the drawn pixels). How much of the
//! switch one sees is `visible = overlap × min(1, still / speed)`: the changed area,
//! discounted once the parts move faster than the still threshold `still`
//! ([`crate::Tolerances::still_fraction`] of the rig's size per second, 5%).
//!
//! A key is reported when, at the key, the slots move slower than `still` and overlap by at
//! least 1%, and a frame within [`crate::Tolerances::draw_order_window`] (0.2 s), never past
//! the neighbouring keys, has at most half the key's `visible` (frames at 30 fps, or on the
//! format's own frames: DragonBones keys sit on whole frames). The frame with the least
//! `visible` (the nearest on a tie) is the suggested time, and `--fix` moves the key there.
//! With the overlap constant this is the motion rule alone: a frame at least twice as fast
//! as `still`.

use crate::scene::{Scenario, Scene};
use crate::{Edit, Finding, Options, Severity, Where};
use sinew::anim::TimelineKind;
use sinew::character::Character;
use sinew::ids::{ClipId, SlotId};
use sinew::types::Physics;

/// The slots of `after` that left their place relative to `before` (the complement of the
/// longest common subsequence of the two permutations).
pub fn moved_slots(before: &[SlotId], after: &[SlotId]) -> Vec<SlotId> {
    let mut pos = vec![usize::MAX; before.len().max(after.len()) + 1];
    for (i, s) in before.iter().enumerate() {
        if let Some(p) = pos.get_mut(s.index()) {
            *p = i;
        }
    }
    let seq: Vec<usize> = after
        .iter()
        .map(|s| pos.get(s.index()).copied().unwrap_or(usize::MAX))
        .collect();
    // Longest increasing subsequence with predecessor links.
    let mut tails: Vec<usize> = Vec::new();
    let mut prev = vec![usize::MAX; seq.len()];
    for (i, &v) in seq.iter().enumerate() {
        if v == usize::MAX {
            continue;
        }
        let k = tails.partition_point(|&t| seq[t] < v);
        if k > 0 {
            prev[i] = tails[k - 1];
        }
        if k == tails.len() {
            tails.push(i);
        } else {
            tails[k] = i;
        }
    }
    let mut keep = vec![false; seq.len()];
    let mut i = tails.last().copied().unwrap_or(usize::MAX);
    while i != usize::MAX {
        keep[i] = true;
        i = prev[i];
    }
    after
        .iter()
        .zip(keep)
        .filter(|(_, k)| !k)
        .map(|(s, _)| *s)
        .collect()
}

/// The slots that change places: those that moved ([`moved_slots`]) and those they
/// crossed (whose order relative to a moved slot flips).
pub(crate) fn changed_places(before: &[SlotId], after: &[SlotId]) -> Vec<SlotId> {
    let moved = moved_slots(before, after);
    let place = |order: &[SlotId]| {
        let mut p = vec![usize::MAX; order.len().max(before.len()).max(after.len()) + 1];
        for (i, s) in order.iter().enumerate() {
            if let Some(x) = p.get_mut(s.index()) {
                *x = i;
            }
        }
        p
    };
    let (pb, pa) = (place(before), place(after));
    let mut out: Vec<SlotId> = moved.clone();
    for &s in after {
        if out.contains(&s) {
            continue;
        }
        let crossed = moved.iter().any(|m| {
            let (i, j) = (m.index(), s.index());
            (pb[i] < pb[j]) != (pa[i] < pa[j])
        });
        if crossed {
            out.push(s);
        }
    }
    out
}

/// A character posed at `t` of `clip` (physics off: the pose of the keys alone).
fn pose_at(scene: &Scene, clip: ClipId, t: f64) -> Character {
    let mut c = scene.start(Scenario::Clip(clip), false);
    c.set_physics(Physics::None);
    c.update(t.max(0.0));
    c
}

/// Where each slot is drawn: its attachment's centroid, or its bone's origin.
fn centroids(c: &Character, slots: &[SlotId], buf: &mut Vec<f32>) -> Vec<Option<(f64, f64)>> {
    let rig = c.rig().clone();
    slots
        .iter()
        .map(|&s| {
            c.world_vertices(s, buf);
            if buf.len() >= 2 {
                let n = (buf.len() / 2) as f64;
                let (sx, sy) = buf.chunks_exact(2).fold((0.0, 0.0), |(x, y), p| {
                    (x + f64::from(p[0]), y + f64::from(p[1]))
                });
                Some((sx / n, sy / n))
            } else {
                let w = c.instance().world.get(rig.slots[s.index()].bone.index())?;
                Some((w.x, w.y))
            }
        })
        .collect()
}

/// Summed speed (units/s) of `slots` around `t`.
fn speed(scene: &Scene, clip: ClipId, duration: f64, slots: &[SlotId], t: f64) -> f64 {
    let h = 1.0 / 60.0;
    let (t0, t1) = ((t - h).max(0.0), (t + h).min(duration.max(t)));
    if t1 <= t0 {
        return 0.0;
    }
    let mut buf = Vec::new();
    let a = centroids(&pose_at(scene, clip, t0), slots, &mut buf);
    let b = centroids(&pose_at(scene, clip, t1), slots, &mut buf);
    a.iter()
        .zip(&b)
        .filter_map(|(p, q)| Some((p.as_ref()?, q.as_ref()?)))
        .map(|(p, q)| (q.0 - p.0).hypot(q.1 - p.1) / (t1 - t0))
        .sum()
}

/// Below this overlap (a fraction of the smaller part) a switch shows nothing.
const MIN_OVERLAP: f64 = 0.01;

/// The pairs of `shown` slots whose order flips between `before` and `after`.
fn flipped_pairs(before: &[SlotId], after: &[SlotId], shown: &[SlotId]) -> Vec<(usize, usize)> {
    let place = |order: &[SlotId], s: SlotId| order.iter().position(|&o| o == s);
    let mut out = Vec::new();
    for i in 0..shown.len() {
        for j in i + 1..shown.len() {
            let b = place(before, shown[i]).zip(place(before, shown[j]));
            let a = place(after, shown[i]).zip(place(after, shown[j]));
            if let (Some((bi, bj)), Some((ai, aj))) = (b, a)
                && (bi < bj) != (ai < aj)
            {
                out.push((i, j));
            }
        }
    }
    out
}

/// Each slot's bounds `[min x, min y, max x, max y]` (`None`: nothing drawn).
fn bounds(c: &Character, slots: &[SlotId], buf: &mut Vec<f32>) -> Vec<Option<[f64; 4]>> {
    slots
        .iter()
        .map(|&s| {
            c.world_vertices(s, buf);
            let mut b = [
                f64::INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
            ];
            for p in buf.chunks_exact(2) {
                let (x, y) = (f64::from(p[0]), f64::from(p[1]));
                b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
            }
            (b[2] > b[0] && b[3] > b[1]).then_some(b)
        })
        .collect()
}

/// How much of the swapping parts changes what is on top: the overlap of the bounds of each
/// pair that changes places, over the smaller part of the pair, summed over the pairs
/// (1 when no pair has an area to judge by: then only motion can hide the switch).
fn overlap(boxes: &[Option<[f64; 4]>], pairs: &[(usize, usize)]) -> f64 {
    let area = |b: &[f64; 4]| (b[2] - b[0]) * (b[3] - b[1]);
    let (mut inter, mut smaller) = (0.0, 0.0);
    for &(i, j) in pairs {
        let (Some(p), Some(q)) = (boxes[i], boxes[j]) else {
            continue;
        };
        let w = (p[2].min(q[2]) - p[0].max(q[0])).max(0.0);
        let h = (p[3].min(q[3]) - p[1].max(q[1])).max(0.0);
        inter += w * h;
        smaller += area(&p).min(area(&q));
    }
    if smaller > 0.0 { inter / smaller } else { 1.0 }
}

/// How visible a switch would be at one time.
#[derive(Debug, Clone, Copy)]
struct Judged {
    /// Summed speed of the slots, units/s.
    speed: f64,
    /// Overlap of the pairs that change places, 0..1 ([`overlap`]).
    overlap: f64,
    /// `overlap × min(1, still / speed)`: the part of the swap one sees, discounted once
    /// the parts move faster than the still threshold (the eye does not follow them).
    visible: f64,
}

impl Judged {
    fn at(
        scene: &Scene,
        clip: ClipId,
        duration: f64,
        shown: &[SlotId],
        pairs: &[(usize, usize)],
        t: f64,
        still: f64,
    ) -> Judged {
        let speed = speed(scene, clip, duration, shown, t);
        let mut buf = Vec::new();
        let overlap = overlap(&bounds(&pose_at(scene, clip, t), shown, &mut buf), pairs);
        let visible = overlap * (still / speed.max(still)).min(1.0);
        Judged {
            speed,
            overlap,
            visible,
        }
    }
}

/// Checks every draw-order key of every animation.
pub(crate) fn check(scene: &Scene, options: &Options) -> Vec<Finding> {
    let rig = &*scene.asset.rig;
    let setup: Vec<SlotId> = (0..rig.slots.len()).map(|i| SlotId(i as u16)).collect();
    let still = options.tol.still_fraction * scene.size;
    let mut out = Vec::new();
    for (ci, clip) in rig.clips.iter().enumerate() {
        let id = ClipId(ci as u32);
        let duration = f64::from(clip.duration);
        for tl in &clip.timelines {
            let TimelineKind::DrawOrder { orders } = &tl.kind else {
                continue;
            };
            let times: Vec<f64> = tl.frames.iter().map(|&t| f64::from(t)).collect();
            for (k, &tk) in times.iter().enumerate() {
                let order = |i: usize| orders.get(i).and_then(|o| o.as_deref()).unwrap_or(&setup);
                let before = if k == 0 { &setup[..] } else { order(k - 1) };
                let moved = changed_places(before, order(k));
                let shown: Vec<SlotId> = {
                    let c = pose_at(scene, id, tk);
                    moved
                        .into_iter()
                        .filter(|&s| c.attachment(s).is_some())
                        .collect()
                };
                if shown.is_empty() {
                    continue;
                }
                let pairs = flipped_pairs(before, order(k), &shown);
                let judge = |t: f64| Judged::at(scene, id, duration, &shown, &pairs, t, still);
                let at_key = judge(tk);
                // Moving fast already, or not overlapping: nothing to see at the key.
                if at_key.speed >= still || at_key.overlap < MIN_OVERLAP {
                    continue;
                }
                let lo = if k == 0 { 0.0 } else { times[k - 1] };
                let hi = times.get(k + 1).copied().unwrap_or(duration);
                let w = options.tol.draw_order_window;
                let step = scene.key_step.unwrap_or(1.0 / options.fps);
                let first = ((tk - w).max(lo) / step).ceil() as i64;
                let last = ((tk + w).min(hi) / step).floor() as i64;
                let mut best: Option<(f64, Judged)> = None;
                for j in first..=last {
                    let t = j as f64 * step;
                    if (t - tk).abs() < 1e-6
                        || (t <= lo && k > 0)
                        || (t >= hi && k + 1 < times.len())
                    {
                        continue;
                    }
                    let v = judge(t);
                    let better = best.as_ref().is_none_or(|(bt, bv)| {
                        v.visible < bv.visible - 1e-9
                            || (v.visible < bv.visible + 1e-9 && (t - tk).abs() < (bt - tk).abs())
                    });
                    if better {
                        best = Some((t, v));
                    }
                }
                let Some((bt, bv)) = best else { continue };
                if bv.visible > 0.5 * at_key.visible {
                    continue;
                }
                let why = if bv.overlap < 0.5 * at_key.overlap {
                    format!(
                        "they overlap by {:.0}% (moving {:.1} units/s), which hides the switch",
                        100.0 * bv.overlap,
                        bv.speed
                    )
                } else {
                    format!("they move {:.1} units/s, which hides the switch", bv.speed)
                };
                let names: Vec<String> = shown
                    .iter()
                    .take(4)
                    .map(|s| format!("`{}`", rig.slots[s.index()].name))
                    .collect();
                let more = if shown.len() > 4 {
                    format!(" and {} more", shown.len() - 4)
                } else {
                    String::new()
                };
                out.push(Finding {
                    code: "draw-order-still-frame",
                    severity: Severity::Warning,
                    message: format!(
                        "the draw-order key at {tk:.3}s of `{}` switches {}{more} while they \
                         move {:.1} units/s and overlap by {:.0}%, so the layer visibly jumps; \
                         at {bt:.3}s {why}",
                        clip.name,
                        names.join(", "),
                        at_key.speed,
                        100.0 * at_key.overlap
                    ),
                    at: Where {
                        animation: Some(clip.name.clone()),
                        time: Some(tk),
                        slot: shown.first().map(|s| rig.slots[s.index()].name.clone()),
                        path: Some(format!(
                            "$.animations{}.drawOrder[{k}]",
                            crate::key_segment(&clip.name)
                        )),
                        ..Default::default()
                    },
                    fix: format!(
                        "move the draw-order key to {:.4}s (`sinew lint --fix OUT` does), or \
                         hide the switch behind a fast motion or an overlapping part",
                        crate::round(bt, 4)
                    ),
                    edit: Some(Edit::MoveDrawOrderKey {
                        animation: clip.name.clone(),
                        index: k,
                        time: bt,
                    }),
                });
            }
        }
    }
    out
}
