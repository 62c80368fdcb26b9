//! The Spine 4.3 entry options ([`EntryOptions`]) on the hand-made rig of
//! `timeline/testrig.rs` (bone 1, setup rotation 10), with values computed by hand from
//! spine-core 4.3.13's `AnimationState` rules. The official runtime's own poses are compared
//! by sinew-cli's `golden_spine43_mix_options` (`testdata/spine43/golden-options/`).

use super::*;
use crate::anim::timeline::testrig::{instance, rig, tl1};
use crate::anim::{Clip, TimelineKind as K};
use crate::ids::BoneId;

/// A clip holding bone 1's rotation at `value` (property id 0).
fn hold_clip(name: &str, value: f32) -> Clip {
    let mut rot = tl1(K::Rotate(BoneId(1)), &[(0.0, value)]);
    rot.property_count = 1;
    Clip {
        name: name.into(),
        duration: 0.0,
        timelines: vec![rot],
        property_ids: vec![0],
        strings: Vec::new(),
        playback: None,
    }
}

fn two_clips() -> (Rig, ClipId, ClipId) {
    let mut rig = rig();
    rig.clips.push(hold_clip("a", 40.0));
    rig.clips.push(hold_clip("b", 20.0));
    (rig, ClipId(0), ClipId(1))
}

fn additive() -> EntryOptions {
    EntryOptions {
        additive: true,
        ..Default::default()
    }
}

#[test]
fn an_additive_track_adds_to_the_track_below() {
    let (rig, a, b) = two_clips();
    for (add, want) in [(false, 40.0), (true, 60.0)] {
        let mut inst = instance(&rig);
        let mut st = AnimationState::new(&rig);
        st.set_animation(&rig, 0, a, true);
        let id = st.set_animation(&rig, 1, b, true).expect("the rig's clip");
        st.entry_mut(id).expect("live").alpha = 0.5;
        let options = EntryOptions {
            additive: add,
            ..Default::default()
        };
        assert!(st.set_entry_options(id, options));
        for _ in 0..3 {
            st.update(1.0 / 60.0);
            st.apply(&rig, &mut inst);
            // Track 0: 10 + 40 = 50. Replacing at alpha .5: 50 + (10 + 20 - 50) * .5 = 40;
            // adding (4.3 `CURRENT` + add): 50 + 20 * .5 = 60, the same every frame.
            assert_eq!(inst.pose[1].rotation, want, "additive {add}");
        }
    }
}

#[test]
fn an_additive_track_alone_adds_to_the_setup_pose_without_accumulating() {
    let (rig, _, b) = two_clips();
    let mut inst = instance(&rig);
    let mut st = AnimationState::new(&rig);
    let id = st.set_animation(&rig, 1, b, true).expect("the rig's clip");
    st.entry_mut(id).expect("live").alpha = 0.5;
    st.set_entry_options(id, additive());
    for _ in 0..3 {
        st.update(1.0 / 60.0);
        st.apply(&rig, &mut inst);
        // No lower track keys the bone (4.3 `SETUP` + add): 10 + 20 * .5, every frame.
        assert_eq!(inst.pose[1].rotation, 20.0);
    }
}

#[test]
fn a_mix_interpolation_curves_the_crossfade() {
    let (rig, a, b) = two_clips();
    for (interp, want) in [
        (MixInterpolation::Linear, 45.0),
        (MixInterpolation::Smooth, 46.875),
        (MixInterpolation::SlowFast, 48.75),
    ] {
        let mut inst = instance(&rig);
        let mut st = AnimationState::new(&rig);
        st.set_mix(a, b, 0.5);
        st.set_animation(&rig, 0, a, true);
        st.update(0.0);
        st.apply(&rig, &mut inst);
        let id = st.set_animation(&rig, 0, b, true).expect("the rig's clip");
        let options = EntryOptions {
            mix_interpolation: interp,
            ..Default::default()
        };
        st.set_entry_options(id, options);
        st.update(0.125);
        st.apply(&rig, &mut inst);
        // a holds 50; b mixes toward 10 + 20 = 30 at the curve of .25: linear .25 (45),
        // smooth .15625 (46.875), slow-fast .0625 (48.75).
        assert_eq!(inst.pose[1].rotation, want, "{interp:?}");
        assert_eq!(st.entry(id).map(|e| e.mix_percent()), Some(0.25));
    }
}

#[test]
fn keep_hold_keeps_an_entry_that_never_held_from_holding() {
    let mut rig = rig();
    rig.clips.push(hold_clip("a", 40.0));
    rig.clips.push(hold_clip("c", 60.0));
    let (a, c) = (ClipId(0), ClipId(1));
    for (keep, want) in [(false, 60.0), (true, 50.0)] {
        let mut inst = instance(&rig);
        let mut st = AnimationState::new(&rig);
        st.set_mix(a, c, 0.5);
        let ida = st.set_animation(&rig, 0, a, true).expect("the rig's clip");
        let options = EntryOptions {
            keep_hold: keep,
            ..Default::default()
        };
        st.set_entry_options(ida, options);
        st.update(0.0);
        st.apply(&rig, &mut inst);
        st.set_animation(&rig, 0, c, true);
        st.update(0.25);
        st.apply(&rig, &mut inst);
        // Held (the default): a at full alpha (50), c half way to 10 + 60: 60. With
        // keepHold, a computed its modes with nothing to mix into, so it never holds: it
        // mixes out from setup at alpha .5 (10 + 40 * .5 = 30), and c goes half way from
        // there to 70: 50 (the dip toward setup that holding prevents).
        assert_eq!(inst.pose[1].rotation, want, "keep_hold {keep}");
    }
}

#[test]
fn options_are_refused_for_stale_entries() {
    let (rig, a, _) = two_clips();
    let mut st = AnimationState::new(&rig);
    let id = st.set_animation(&rig, 0, a, true).expect("the rig's clip");
    st.clear_tracks();
    assert!(!st.set_entry_options(id, additive()));
    assert!(st.entry(id).is_none());
}
