//! Durations, track times, attachments from code and the names not-found errors list,
//! through the ABI on `controls::RIG`, each against what the facade says.

use crate::common;
use crate::controls;

use common::{character, last_error, s};
use sinew_capi::*;
use std::ptr::{null, null_mut};

fn view(v: SinewStringView) -> String {
    // SAFETY: the library's views point at `len` bytes in the live rig.
    let b = unsafe { std::slice::from_raw_parts(v.ptr.cast::<u8>(), v.len) };
    String::from_utf8(b.to_vec()).expect("utf-8")
}

fn track(c: *mut SinewCharacter, t: u32) -> SinewTrackInfo {
    let mut out = std::mem::MaybeUninit::<SinewTrackInfo>::uninit();
    assert_eq!(
        sinew_character_track(c, t, out.as_mut_ptr()),
        SinewStatus::Ok,
        "{}",
        last_error()
    );
    // SAFETY: filled by the successful call.
    unsafe { out.assume_init() }
}

#[test]
fn durations_and_track_times_follow_the_entry() {
    let (rig, mut rust) = controls::load();
    let c = character(rig);
    let mut d = 0.0;
    let (idle, il) = s("idle");
    assert_eq!(
        sinew_character_animation_duration(c, idle, il, &mut d),
        SinewStatus::Ok
    );
    assert_eq!(d, 1.0);
    let (run, rl) = s("run");
    assert_eq!(
        sinew_character_animation_duration(c, run, rl, &mut d),
        SinewStatus::Ok
    );
    assert_eq!(d, 0.5);

    let empty = track(c, 0);
    assert_eq!(
        (empty.playing, empty.animation.len, empty.track_time),
        (0, 0, 0.0)
    );
    assert_eq!(
        sinew_character_set_animation(c, 0, run, rl, true),
        SinewStatus::Ok
    );
    let id = rust.set_animation(0, "run", true).expect("run");
    for f in 1..=45 {
        assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
        rust.update(1.0 / 60.0);
        let t = track(c, 0);
        let e = rust.state().entry(id).expect("entry");
        assert_eq!(view(t.animation), "run");
        assert_eq!((t.playing, t.looping, t.play_times), (1, 1, -1));
        assert_eq!(t.track_time, e.track_time, "frame {f}");
        assert_eq!(t.animation_time, e.animation_time(), "frame {f}");
        assert_eq!(t.duration, 0.5);
        assert_eq!(t.complete, u32::from(e.is_complete()), "frame {f}");
        if f != 30 {
            // (Frame 30 is 0.5 s give or take the sum's rounding.)
            assert_eq!(t.complete, u32::from(f > 30), "frame {f}");
        }
    }
    // 45 frames of a 0.5 s loop: 0.75 s in, 0.25 s into the second loop.
    let t = track(c, 0);
    assert!((t.track_time - 0.75).abs() < 1e-9, "{}", t.track_time);
    assert!(
        (t.animation_time - 0.25).abs() < 1e-9,
        "{}",
        t.animation_time
    );
    // Not looping: the animation time holds at the end.
    assert_eq!(
        sinew_character_set_animation(c, 1, idle, il, false),
        SinewStatus::Ok
    );
    for _ in 0..90 {
        sinew_character_update(c, 1.0 / 60.0);
    }
    let t = track(c, 1);
    assert_eq!((t.looping, t.complete, t.animation_time), (0, 1, 1.0));

    // Hostile: unknown names list the animations, bad tracks, nulls, bad UTF-8.
    let (bad, bl) = s("runn");
    assert_eq!(
        sinew_character_animation_duration(c, bad, bl, &mut d),
        SinewStatus::NotFound
    );
    assert_eq!(
        last_error(),
        "animation not found: `runn`; this rig's animations: `idle`, `run`"
    );
    assert_eq!(
        sinew_character_animation_duration(c, run, rl, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_animation_duration(c, [0xc3u8].as_ptr().cast(), 1, &mut d),
        SinewStatus::InvalidUtf8
    );
    let mut out = std::mem::MaybeUninit::<SinewTrackInfo>::uninit();
    assert_eq!(
        sinew_character_track(c, 256, out.as_mut_ptr()),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_track(c, u32::MAX, out.as_mut_ptr()),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_track(c, 0, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_track(null(), 0, out.as_mut_ptr()),
        SinewStatus::InvalidHandle
    );
    assert_eq!(
        sinew_character_track(rig.cast(), 0, out.as_mut_ptr()),
        SinewStatus::WrongHandleType
    );
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}

#[test]
fn attachments_are_shown_and_hidden_from_c() {
    let (rig, mut rust) = controls::load();
    let c = character(rig);
    let (hand, hl) = s("hand");
    let attachment = |c| {
        let mut v = SinewStringView {
            ptr: null(),
            len: 0,
        };
        assert_eq!(
            sinew_character_attachment(c, hand, hl, &mut v),
            SinewStatus::Ok
        );
        view(v)
    };
    assert_eq!(attachment(c), "fist");
    let (open, ol) = s("open");
    assert_eq!(
        sinew_character_set_attachment(c, hand, hl, open, ol),
        SinewStatus::Ok
    );
    assert_eq!(attachment(c), "open");
    rust.set_attachment("hand", "open").expect("open");
    assert_eq!(sinew_character_update(c, 0.0), SinewStatus::Ok);
    rust.update(0.0);
    let r = common::render(c);
    assert_eq!(r.command_count, 1, "the hand draws");
    let list = rust.draw_list();
    let want: Vec<u32> = list
        .commands
        .iter()
        .flat_map(|cmd| list.command_positions(cmd).iter().map(|p| p.to_bits()))
        .collect();
    let got: Vec<u32> = r.positions.iter().map(|p| p.to_bits()).collect();
    assert!(got == want, "the shown attachment draws as the facade's");
    // Null name hides; an empty name hides too.
    assert_eq!(
        sinew_character_set_attachment(c, hand, hl, null(), 0),
        SinewStatus::Ok
    );
    assert_eq!(attachment(c), "");
    sinew_character_update(c, 0.0);
    assert_eq!(common::render(c).command_count, 0, "hidden");
    assert_eq!(
        sinew_character_set_attachment(c, hand, hl, open, 0),
        SinewStatus::Ok
    );
    assert_eq!(attachment(c), "");

    // Unknown attachment: the slot's attachments listed; unknown slot: the slots listed.
    let (sword, sl) = s("sword");
    assert_eq!(
        sinew_character_set_attachment(c, hand, hl, sword, sl),
        SinewStatus::NotFound
    );
    assert_eq!(
        last_error(),
        "slot `hand` has no attachment `sword` in its skins; its attachments in the rig's \
         skins: `fist`, `open`"
    );
    let (foot, fl) = s("foot");
    assert_eq!(
        sinew_character_set_attachment(c, foot, fl, open, ol),
        SinewStatus::NotFound
    );
    assert_eq!(
        last_error(),
        "slot not found: `foot`; this rig's slots: `track`, `hand`"
    );
    let mut v = SinewStringView {
        ptr: null(),
        len: 0,
    };
    assert_eq!(
        sinew_character_attachment(c, foot, fl, &mut v),
        SinewStatus::NotFound
    );
    // Hostile: a name pointer with a bad length is read only as far as given; bad UTF-8,
    // null out, null slot with a length, handles.
    assert_eq!(
        sinew_character_set_attachment(c, hand, hl, [0xffu8].as_ptr().cast(), 1),
        SinewStatus::InvalidUtf8
    );
    assert_eq!(
        sinew_character_set_attachment(c, null(), 4, open, ol),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_attachment(c, hand, hl, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_set_attachment(null_mut(), hand, hl, open, ol),
        SinewStatus::InvalidHandle
    );
    sinew_character_destroy(c);
    assert_eq!(
        sinew_character_attachment(c, hand, hl, &mut v),
        SinewStatus::InvalidHandle
    );
    sinew_rig_destroy(rig);
}

#[test]
fn every_not_found_error_lists_the_names() {
    let (rig, _) = controls::load();
    let c = character(rig);
    let (x, xl) = s("nope");
    let check = |st: SinewStatus, want: &str| {
        assert_eq!(st, SinewStatus::NotFound, "{want}");
        let e = last_error();
        assert!(e.contains(want), "{e}\nwants {want}");
        assert!(e.contains("`nope`"), "{e}");
    };
    let bones = "this rig's bones: `root`, `upper`, `lower`, `target`";
    check(
        sinew_character_set_animation(c, 0, x, xl, true),
        "this rig's animations: `idle`, `run`",
    );
    check(
        sinew_character_play(c, 0, x, xl, -1.0, -1),
        "this rig's animations: `idle`, `run`",
    );
    check(
        sinew_character_add_animation(c, 0, x, xl, true, 0.0, -1.0),
        "this rig's animations",
    );
    check(
        sinew_character_set_mix(c, x, xl, x, xl, 0.2),
        "this rig's animations",
    );
    let mut pose = SinewBonePose::default();
    check(sinew_character_bone_local(c, x, xl, &mut pose), bones);
    check(sinew_character_set_bone_local(c, x, xl, &pose), bones);
    check(sinew_character_clear_bone_local(c, x, xl), bones);
    check(sinew_character_mark_bone_moved(c, x, xl), bones);
    let mut w = SinewWorldTransform::default();
    check(sinew_character_bone_world(c, x, xl, &mut w), bones);
    let mut index = 0;
    check(sinew_rig_find_bone(rig, x, xl, &mut index), bones);
    check(
        sinew_character_set_ik_target(c, x, xl, 1.0, 2.0),
        "this rig's IK constraints: `leg-ik`",
    );
    check(sinew_character_clear_ik_target(c, x, xl), "`leg-ik`");
    let sk = SinewStr {
        ptr: x.cast(),
        len: xl,
    };
    check(
        sinew_character_set_skins(c, &sk, 1),
        "this rig's skins: `default`",
    );
    check(
        sinew_character_set_param(c, x, xl, 0.0, 0.0),
        "this rig has no parameters",
    );
    let (mut px, mut py) = (0.0, 0.0);
    check(
        sinew_character_get_param(c, x, xl, &mut px, &mut py),
        "this rig has no parameters",
    );
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}
