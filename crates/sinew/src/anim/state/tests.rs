//! AnimationState unit tests on the hand-made rig of `timeline/testrig.rs`, with values
//! computed by hand from the official algorithm. The oracle comparisons (crossfade chains,
//! holds, thresholds, layers) are in `crates/sinew-formats/tests/all/anim_local.rs`.

use super::*;
use crate::anim::timeline::testrig::{instance, rig, times, tl1};
use crate::anim::{Clip, EventKey, Timeline, TimelineKind as K};
use crate::ids::{BoneId, EventId};

/// A clip with one rotate timeline on bone 1 (property id 0) from (time, value) keys, plus
/// optional event keys (property id 1).
fn rotate_clip(name: &str, keys: &[(f32, f32)], events: &[f32]) -> Clip {
    let mut rot = tl1(K::Rotate(BoneId(1)), keys);
    rot.property_count = 1;
    let mut timelines: Vec<Timeline> = vec![rot];
    let mut property_ids = vec![0];
    if !events.is_empty() {
        let keys = events
            .iter()
            .map(|&t| EventKey {
                time: t,
                event: EventId(0),
                int: 0,
                float: 0.0,
                string: None,
                volume: 0.0,
                balance: 0.0,
            })
            .collect();
        let mut ev = times(K::Event { keys }, events);
        ev.properties[0] = 1;
        ev.property_count = 1;
        timelines.push(ev);
        property_ids.push(1);
    }
    let duration = timelines.iter().map(|t| t.duration()).fold(0.0, f32::max);
    Clip {
        name: name.into(),
        duration,
        timelines,
        property_ids,
        strings: Vec::new(),
        playback: None,
    }
}

fn kinds(state: &mut AnimationState) -> Vec<(StateEventKind, ClipId)> {
    state.drain_events().map(|e| (e.kind, e.clip)).collect()
}

#[test]
fn single_entry_plays_its_clip() {
    let mut rig = rig();
    rig.clips
        .push(rotate_clip("a", &[(0.0, 0.0), (1.0, 40.0)], &[]));
    let mut inst = instance(&rig);
    let mut st = AnimationState::new(&rig);
    let id = st
        .set_animation(&rig, 0, ClipId(0), true)
        .expect("the rig's clip");
    st.update(0.0);
    assert!(st.apply(&rig, &mut inst));
    assert_eq!(inst.pose[1].rotation, 10.0);
    st.update(0.5);
    st.apply(&rig, &mut inst);
    assert_eq!(inst.pose[1].rotation, 30.0);
    assert_eq!(st.entry(id).map(|e| e.track_time), Some(0.5));
    assert_eq!(kinds(&mut st), [(StateEventKind::Start, ClipId(0))]);
}

#[test]
fn crossfade_holds_the_previous_clip_and_ends_it() {
    let mut rig = rig();
    rig.clips.push(rotate_clip("a", &[(0.0, 40.0)], &[]));
    rig.clips.push(rotate_clip("b", &[(0.0, 80.0)], &[]));
    let (a, b) = (ClipId(0), ClipId(1));
    let mut inst = instance(&rig);
    let mut st = AnimationState::new(&rig);
    st.set_mix(a, b, 0.5);
    st.set_animation(&rig, 0, a, true);
    st.update(0.0);
    st.apply(&rig, &mut inst);
    assert_eq!(inst.pose[1].rotation, 50.0);
    let idb = st.set_animation(&rig, 0, b, true).expect("the rig's clip");
    assert_eq!(st.entry(idb).map(|e| e.mix_duration), Some(0.5));
    st.update(0.25);
    st.apply(&rig, &mut inst);
    // a is HOLD_FIRST (b keys the same bone): setup 10 + 40 at full alpha = 50. b mixes in
    // at alpha 0.25 / 0.5 from 50 toward 10 + 80 along the shortest path: 50 + 40 * 0.5.
    assert_eq!(inst.pose[1].rotation, 70.0);
    st.update(0.5);
    st.apply(&rig, &mut inst);
    assert_eq!(inst.pose[1].rotation, 90.0);
    // The mix completed in that apply; the next update ends the mixing-from entry.
    assert!(st.mixing_from(idb).is_some());
    st.update(0.1);
    assert!(st.mixing_from(idb).is_none());
    // Zero-duration looping clips complete on every apply (as in spine-ts); skip those.
    let events: Vec<_> = kinds(&mut st)
        .into_iter()
        .filter(|e| e.0 != StateEventKind::Complete)
        .collect();
    assert_eq!(
        events,
        [
            (StateEventKind::Start, a),
            (StateEventKind::Interrupt, a),
            (StateEventKind::Start, b),
            (StateEventKind::End, a),
            (StateEventKind::Dispose, a),
        ]
    );
}

#[test]
fn queued_entry_starts_at_completion_minus_mix() {
    let mut rig = rig();
    rig.clips
        .push(rotate_clip("a", &[(0.0, 0.0), (1.0, 40.0)], &[]));
    let mut inst = instance(&rig);
    let mut st = AnimationState::new(&rig);
    st.default_mix = 0.25;
    st.set_animation(&rig, 0, ClipId(0), false);
    let next = st
        .add_animation(&rig, 0, ClipId(0), false, 0.0)
        .expect("the rig's clip");
    // delay = 0 + track complete (1) - mix duration (0.25).
    assert_eq!(st.entry(next).map(|e| e.delay), Some(0.75));
    for _ in 0..4 {
        st.update(0.25);
        st.apply(&rig, &mut inst);
    }
    // The switch happens on the update after track time 0.75 was applied.
    assert_eq!(st.current(0), Some(next));
    assert_eq!(st.entry(next).map(|e| e.track_time), Some(0.25));
    assert!(st.mixing_from(next).is_some());
}

#[test]
fn events_and_complete_in_order_across_the_loop() {
    let mut rig = rig();
    rig.clips
        .push(rotate_clip("a", &[(0.0, 0.0), (1.0, 40.0)], &[0.1, 0.9]));
    let mut inst = instance(&rig);
    let mut st = AnimationState::new(&rig);
    st.set_animation(&rig, 0, ClipId(0), true);
    st.update(0.0);
    st.apply(&rig, &mut inst);
    st.update(0.85);
    st.apply(&rig, &mut inst);
    st.drain_events().for_each(drop);
    // 0.85 -> 1.2 (0.2 after the wrap): the 0.9 key, then complete, then the 0.1 key.
    st.update(0.35);
    st.apply(&rig, &mut inst);
    let got: Vec<String> = st
        .drain_events()
        .map(|e| match e.kind {
            StateEventKind::Event(f) => format!("event {}", f.time as f32),
            k => format!("{k:?}"),
        })
        .collect();
    assert_eq!(got, ["event 0.9", "Complete", "event 0.1"]);
}

#[test]
fn empty_animation_mixes_to_setup_and_ends() {
    let mut rig = rig();
    rig.clips.push(rotate_clip("a", &[(0.0, 40.0)], &[]));
    let mut inst = instance(&rig);
    let mut st = AnimationState::new(&rig);
    st.set_animation(&rig, 0, ClipId(0), true);
    st.update(0.0);
    st.apply(&rig, &mut inst);
    st.set_empty_animation(&rig, 0, 0.5);
    st.update(0.25);
    st.apply(&rig, &mut inst);
    // a is FIRST (the empty clip keys nothing): setup blend at alpha 1 - 0.5, from 50 to 30
    // along memory-less shortest path: 10 + 40 * 0.5.
    assert_eq!(inst.pose[1].rotation, 30.0);
    for _ in 0..4 {
        st.update(0.25);
        st.apply(&rig, &mut inst);
    }
    assert!(st.current(0).is_none());
    let ends = st
        .drain_events()
        .filter(|e| e.kind == StateEventKind::End)
        .count();
    assert_eq!(ends, 2);
}

#[test]
fn steady_state_reuses_pooled_entries() {
    let mut rig = rig();
    rig.clips
        .push(rotate_clip("a", &[(0.0, 0.0), (1.0, 40.0)], &[0.5]));
    let mut inst = instance(&rig);
    let mut st = AnimationState::new(&rig);
    for _ in 0..3 {
        st.set_animation(&rig, 0, ClipId(0), true);
        st.update(0.1);
        st.apply(&rig, &mut inst);
    }
    let slab = st.entries.len();
    for _ in 0..20 {
        st.set_animation(&rig, 0, ClipId(0), true);
        st.update(0.1);
        st.apply(&rig, &mut inst);
        st.drain_events().for_each(drop);
    }
    assert_eq!(st.entries.len(), slab);
    // Stale handles do not reach reused slots.
    let old = st
        .set_animation(&rig, 0, ClipId(0), true)
        .expect("the rig's clip");
    st.clear_tracks();
    assert!(st.entry(old).is_none());
}

#[test]
fn non_finite_time_never_panics_or_poisons_the_state() {
    let mut rig = rig();
    rig.clips
        .push(rotate_clip("a", &[(0.0, 0.0), (1.0, 40.0)], &[0.5]));
    let clip = ClipId(0);
    let mut inst = instance(&rig);
    let mut state = AnimationState::new(&rig);
    state.set_animation(&rig, 0, clip, true);
    for dt in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.1] {
        state.update(dt);
        state.apply(&rig, &mut inst);
    }
    let id = state.current(0).expect("entry");
    let t = state.entry(id).expect("entry").track_time;
    assert!(t.is_finite() && (t - 0.1).abs() < 1e-12, "track time {t}");
    for time in [f64::NAN, f64::INFINITY] {
        crate::anim::apply_clip(
            &rig,
            &mut inst,
            clip,
            f64::NAN,
            time,
            true,
            None,
            1.0,
            crate::anim::MixBlend::Setup,
            crate::anim::MixDirection::In,
        );
    }
    assert!(
        inst.pose
            .iter()
            .all(|p| p.rotation.is_finite() && p.x.is_finite())
    );
    inst.advance_time(0.5);
    for dt in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        inst.advance_time(dt);
    }
    assert_eq!(
        inst.time, 0.5,
        "a broken clock leaves the skeleton clock alone"
    );
}
