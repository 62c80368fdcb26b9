//! Discrete timelines: draw order, events and physics resets, as spine-ts 4.2
//! `DrawOrderTimeline`, `EventTimeline` and `PhysicsConstraintResetTimeline`.
//!
//! Events and resets fire for keys in (last time, time]; when time has wrapped (a looping
//! clip, `last_time > time`), keys after `last_time` fire first, then keys up to `time`.
//! Verified by the unit tests below.

use super::Args;
use crate::anim::curve::search;
use crate::anim::{EventKey, FiredEvent, MixBlend, MixDirection, Timeline};
use crate::ids::{ClipId, PhysicsId, SlotId};
use crate::instance::Instance;

/// Restores the setup draw order.
fn setup_order(inst: &mut Instance) {
    for (i, s) in inst.draw_order.iter_mut().enumerate() {
        *s = SlotId(i as u16);
    }
}

/// What a draw order (or folder) timeline does at `a`: nothing, the setup order, or a key's
/// order (Spine `DrawOrderTimeline.apply`: mixing out resets only from setup, before the
/// first key setup and first reset, a key without an order is the setup order).
enum Step<'o> {
    Keep,
    Setup,
    Order(&'o [SlotId]),
}

fn step<'o>(tl: &Timeline, orders: &'o [Option<Vec<SlotId>>], a: Args) -> Step<'o> {
    if a.direction == MixDirection::Out {
        return if a.blend == MixBlend::Setup {
            Step::Setup
        } else {
            Step::Keep
        };
    }
    if super::before_first(tl, a.time) {
        return if matches!(a.blend, MixBlend::Setup | MixBlend::First) {
            Step::Setup
        } else {
            Step::Keep
        };
    }
    match orders.get(tl.search(a.time, 1)) {
        Some(Some(order)) => Step::Order(order),
        _ => Step::Setup,
    }
}

pub(super) fn draw_order(
    inst: &mut Instance,
    tl: &Timeline,
    orders: &[Option<Vec<SlotId>>],
    a: Args,
) {
    match step(tl, orders, a) {
        Step::Keep => {}
        Step::Order(order) if order.len() == inst.draw_order.len() => {
            inst.draw_order.copy_from_slice(order)
        }
        _ => setup_order(inst),
    }
}

/// Puts `order` into the draw positions that hold any of `slots` (Spine 4.3
/// `DrawOrderFolderTimeline`: the folder's slots are reordered among their own positions).
fn fill_folder(inst: &mut Instance, slots: &[SlotId], order: &[SlotId]) {
    let mut next = order.iter();
    for s in inst.draw_order.iter_mut() {
        if slots.contains(s) {
            match next.next() {
                Some(&o) => *s = o,
                None => return,
            }
        }
    }
}

/// A Spine 4.3 draw order folder, with the cases of [`draw_order`]; the folder's setup is the
/// order of `slots`.
pub(super) fn draw_order_folder(
    inst: &mut Instance,
    tl: &Timeline,
    slots: &[SlotId],
    orders: &[Option<Vec<SlotId>>],
    a: Args,
) {
    match step(tl, orders, a) {
        Step::Keep => {}
        Step::Order(order) if order.len() == slots.len() => fill_folder(inst, slots, order),
        _ => fill_folder(inst, slots, slots),
    }
}

/// Pushes the events of keys in (`last_time`, `time`] (Spine `EventTimeline.apply`).
pub(super) fn events(
    times: &[f32],
    keys: &[EventKey],
    clip: ClipId,
    mut last_time: f64,
    time: f64,
    out: &mut Vec<FiredEvent>,
) {
    let n = times.len().min(keys.len());
    if n == 0 {
        return;
    }
    if last_time > time {
        // Wrapped: fire what is left after last_time first.
        events(times, keys, clip, last_time, f64::MAX, out);
        last_time = -1.0;
    } else if last_time >= f64::from(times[n - 1]) {
        return;
    }
    if time < f64::from(times[0]) {
        return;
    }
    let mut i = if last_time < f64::from(times[0]) {
        0
    } else {
        let mut i = search(&times[..n], last_time, 1) + 1;
        // Fire every key sharing the first time after last_time.
        let t = times[i];
        while i > 0 && times[i - 1] == t {
            i -= 1;
        }
        i
    };
    while i < n && time >= f64::from(times[i]) {
        out.push(FiredEvent::from_key(&keys[i], clip));
        i += 1;
    }
}

/// Resets physics when a key in (`last_time`, `time`] is crossed (Spine
/// `PhysicsConstraintResetTimeline.apply`); `None` resets every active constraint.
pub(super) fn physics_reset(
    inst: &mut Instance,
    times: &[f32],
    c: Option<PhysicsId>,
    mut last_time: f64,
    time: f64,
) {
    if let Some(c) = c
        && !inst.physics_active.get(c.index()).copied().unwrap_or(false)
    {
        return;
    }
    let Some(&last_key) = times.last() else {
        return;
    };
    if last_time > time {
        physics_reset(inst, times, c, last_time, f64::MAX);
        last_time = -1.0;
    } else if last_time >= f64::from(last_key) {
        return;
    }
    if time < f64::from(times[0]) {
        return;
    }
    if last_time < f64::from(times[0]) || time >= f64::from(times[search(times, last_time, 1) + 1])
    {
        match c {
            Some(c) => inst.physics[c.index()].reset(),
            None => {
                for (state, &active) in inst.physics.iter_mut().zip(&inst.physics_active) {
                    if active {
                        state.reset();
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testrig::*;
    use super::*;
    use crate::anim::{MixBlend::*, MixDirection::*, TimelineKind as K};
    use crate::ids::EventId;

    fn keys(times: &[f32]) -> Vec<EventKey> {
        times
            .iter()
            .enumerate()
            .map(|(i, &t)| EventKey {
                time: t,
                event: EventId(0),
                int: i as i32,
                float: 0.0,
                string: None,
                volume: 0.0,
                balance: 0.0,
            })
            .collect()
    }

    fn fired(times: &[f32], last: f64, now: f64) -> Vec<i32> {
        let mut out = Vec::new();
        events(times, &keys(times), ClipId(0), last, now, &mut out);
        out.iter().map(|e| e.int).collect()
    }

    #[test]
    fn events_fire_in_half_open_interval() {
        let t = [0.0f32, 0.5, 0.5, 1.0];
        assert_eq!(fired(&t, -1.0, 0.0), [0]);
        assert_eq!(fired(&t, 0.0, 0.4), [] as [i32; 0]);
        assert_eq!(fired(&t, 0.4, 0.5), [1, 2]);
        assert_eq!(fired(&t, 0.5, 0.9), [] as [i32; 0]);
        assert_eq!(fired(&t, 0.9, 1.0), [3]);
        assert_eq!(fired(&t, 1.0, 2.0), [] as [i32; 0]);
        // Wrapped: after 0.9 then up to 0.2 (key 0 at 0 fires again).
        assert_eq!(fired(&t, 0.9, 0.2), [3, 0]);
    }

    #[test]
    fn draw_order_keys() {
        let rig = rig();
        let mut inst = instance(&rig);
        let swap = vec![SlotId(1), SlotId(0)];
        let tl = times(
            K::DrawOrder {
                orders: vec![Some(swap.clone()), None],
            },
            &[0.5, 1.0],
        );
        run(&rig, &mut inst, &tl, 0.6, 1.0, Replace, In);
        assert_eq!(inst.draw_order, swap);
        run(&rig, &mut inst, &tl, 0.6, 1.0, Replace, Out);
        assert_eq!(inst.draw_order, swap);
        run(&rig, &mut inst, &tl, 0.1, 1.0, Replace, In);
        assert_eq!(inst.draw_order, swap);
        run(&rig, &mut inst, &tl, 1.0, 1.0, Replace, In);
        assert_eq!(inst.draw_order, [SlotId(0), SlotId(1)]);
        run(&rig, &mut inst, &tl, 0.6, 1.0, Replace, In);
        run(&rig, &mut inst, &tl, 0.6, 1.0, Setup, Out);
        assert_eq!(inst.draw_order, [SlotId(0), SlotId(1)]);
    }

    #[test]
    fn physics_reset_when_crossed() {
        let rig = rig();
        let mut inst = instance(&rig);
        let times = [0.5f32];
        let dirty = |inst: &mut Instance| {
            for p in &mut inst.physics {
                p.x_offset = 1.0;
            }
        };
        dirty(&mut inst);
        physics_reset(&mut inst, &times, Some(PhysicsId(1)), 0.1, 0.4);
        assert_eq!(inst.physics[1].x_offset, 1.0);
        physics_reset(&mut inst, &times, Some(PhysicsId(1)), 0.4, 0.5);
        assert_eq!(
            (inst.physics[0].x_offset, inst.physics[1].x_offset),
            (1.0, 0.0)
        );
        dirty(&mut inst);
        physics_reset(&mut inst, &times, None, 0.9, 0.1);
        assert_eq!(
            (inst.physics[0].x_offset, inst.physics[1].x_offset),
            (1.0, 1.0)
        );
        physics_reset(&mut inst, &times, None, 0.4, 0.6);
        assert_eq!(
            (inst.physics[0].x_offset, inst.physics[1].x_offset),
            (0.0, 0.0)
        );
    }
}
