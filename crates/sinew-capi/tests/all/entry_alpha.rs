//! ABI 107: an entry's mix weight (Spine `TrackEntry.alpha`) through the C ABI, on a
//! one-bone Spine 4.3 rig whose poses have closed forms: `go` on track 0 (rotation 10 + 20)
//! and `tilt` (+5) on track 1 at alpha 0.5 give 30 + 0.5 * 5 = 32.5 when additive and
//! 30 + 0.5 * (15 - 30) = 22.5 when replacing, the same bits as the Rust facade's
//! `entry_mut(id).alpha`; the last queued entry is addressed apart from the current one; every
//! misuse is a typed status that changes nothing.

use crate::common::{character, last_error, s};
use sinew_capi::*;
use std::ptr::null_mut;

const CURRENT: u32 = SinewTrackEntry::Current as u32;
const LAST: u32 = SinewTrackEntry::Last as u32;

const RIG: &str = r#"{"skeleton":{"spine":"4.3.13"},"bones":[{"name":"root"},
 {"name":"b","parent":"root","rotation":10}],"animations":{
 "go":{"bones":{"b":{"translate":[{"x":100}],"rotate":[{"value":20}]}}},
 "tilt":{"bones":{"b":{"rotate":[{"value":5}]}}}}}"#;

fn rig() -> *mut SinewRig {
    let mut rig = null_mut();
    let st = sinew_rig_load_spine_memory(
        RIG.as_ptr(),
        RIG.len(),
        std::ptr::null(),
        0,
        std::ptr::null(),
        0,
        &mut rig,
    );
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    rig
}

fn ok(st: SinewStatus) {
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
}

fn alpha(c: *mut SinewCharacter, track: u32, which: u32) -> f64 {
    let mut a = f64::NAN;
    ok(sinew_character_entry_alpha(c, track, which, &mut a));
    a
}

/// b's rotation after `go` on track 0 and `tilt` on track 1 (weighted `a`) for 0.25 s.
fn layered(rig: *mut SinewRig, additive: bool, a: f64) -> f64 {
    let c = character(rig);
    let (go, n) = s("go");
    ok(sinew_character_set_animation(c, 0, go, n, true));
    let (tilt, n) = s("tilt");
    ok(sinew_character_set_animation(c, 1, tilt, n, true));
    let o = SinewEntryOptions {
        additive: u32::from(additive),
        ..Default::default()
    };
    ok(sinew_character_set_entry_options(c, 1, CURRENT, &o));
    assert_eq!(alpha(c, 1, CURRENT), 1.0, "an entry starts at alpha 1");
    ok(sinew_character_set_entry_alpha(c, 1, CURRENT, a));
    assert_eq!(alpha(c, 1, CURRENT), a);
    ok(sinew_character_update(c, 0.25));
    let mut p = SinewBonePose::default();
    let (b, n) = s("b");
    ok(sinew_character_bone_local(c, b, n, &mut p));
    ok(sinew_character_destroy(c));
    p.rotation
}

#[test]
fn alpha_weights_a_layer_as_the_closed_form_and_the_facade() {
    let rig = rig();
    assert_eq!(layered(rig, true, 0.5), 32.5);
    assert_eq!(layered(rig, false, 0.5), 22.5);
    assert_eq!(layered(rig, true, 1.0), 35.0);

    // The facade with the same weight: the same bits.
    let raw = sinew_formats::spine::parse_spine(RIG.as_bytes(), "alpha.json").expect("rig");
    let built = std::sync::Arc::new(sinew::build::build_rig(&raw).expect("builds"));
    for additive in [true, false] {
        let mut c = sinew::Character::new(built.clone());
        c.set_animation(0, "go", true).expect("go");
        let e = c.set_animation(1, "tilt", true).expect("tilt");
        let o = sinew::anim::state::EntryOptions {
            additive,
            ..Default::default()
        };
        c.set_entry_options(e, o).expect("options");
        c.state_mut().entry_mut(e).expect("entry").alpha = 0.5;
        c.update(0.25);
        let r = c.bone_local("b").expect("b").rotation;
        assert_eq!(r.to_bits(), layered(rig, additive, 0.5).to_bits());
    }
    ok(sinew_rig_destroy(rig));
}

#[test]
fn the_last_entry_is_weighted_apart_and_misuse_changes_nothing() {
    let rig = rig();
    let c = character(rig);
    let mut a = 7.0;
    // An empty track.
    assert_eq!(
        sinew_character_set_entry_alpha(c, 0, CURRENT, 0.5),
        SinewStatus::NotFound
    );
    assert!(
        last_error().contains("track 0 has no entry"),
        "{}",
        last_error()
    );
    assert_eq!(
        sinew_character_entry_alpha(c, 0, CURRENT, &mut a),
        SinewStatus::NotFound
    );
    assert_eq!(a, 7.0, "untouched");
    let (go, n) = s("go");
    ok(sinew_character_set_animation(c, 0, go, n, true));
    let (tilt, tn) = s("tilt");
    ok(sinew_character_add_animation(
        c, 0, tilt, tn, true, 0.0, -1.0,
    ));
    ok(sinew_character_set_entry_alpha(c, 0, LAST, 0.25));
    assert_eq!(alpha(c, 0, LAST), 0.25, "the queued entry");
    assert_eq!(alpha(c, 0, CURRENT), 1.0, "the current entry keeps its own");
    for (bad, what) in [
        (f64::NAN, "NaN"),
        (f64::INFINITY, "inf"),
        (-f64::INFINITY, "-inf"),
        (1e31, "1e31"),
    ] {
        assert_eq!(
            sinew_character_set_entry_alpha(c, 0, CURRENT, bad),
            SinewStatus::InvalidArgument,
            "{what}"
        );
        assert!(last_error().contains("alpha"), "{}", last_error());
    }
    assert_eq!(
        sinew_character_set_entry_alpha(c, 0, 2, 0.5),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_set_entry_alpha(c, 256, CURRENT, 0.5),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_entry_alpha(c, 0, CURRENT, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_entry_alpha(c, 0, 9, &mut a),
        SinewStatus::InvalidArgument
    );
    assert_eq!(alpha(c, 0, CURRENT), 1.0, "nothing changed");
    assert_eq!(alpha(c, 0, LAST), 0.25, "nothing changed");
    // Handles: null and destroyed.
    assert_eq!(
        sinew_character_set_entry_alpha(null_mut(), 0, CURRENT, 0.5),
        SinewStatus::InvalidHandle
    );
    ok(sinew_character_destroy(c));
    assert_ne!(
        sinew_character_set_entry_alpha(c, 0, CURRENT, 0.5),
        SinewStatus::Ok
    );
    ok(sinew_rig_destroy(rig));
}
