//! ABI 107: Spine 4.3 track entry options (additive, keep hold, mix curve) through the C ABI,
//! set on a track's current or last queued entry. Poses equal the Rust facade's with the same
//! options bit for bit (testdata/spine43/slider-lab.json always; the shared 4.3 spineboy-pro
//! with the options of the golden-options case `walk-to-run+aim-all-options` when the shared
//! fixtures are there), the options change the pose, and every misuse is a typed status that
//! changes nothing (also 5,000 seeded random argument sets: no panic, what is accepted reads
//! back).

use crate::common::{character, last_error, rust_worlds, s, worlds};
use crate::{controls, dragonbones};
use sinew::anim::state::{EntryOptions, MixInterpolation};
use sinew_capi::*;
use std::path::Path;
use std::ptr::{null, null_mut};

const CURRENT: u32 = SinewTrackEntry::Current as u32;
const LAST: u32 = SinewTrackEntry::Last as u32;

fn load(path: &Path) -> *mut SinewRig {
    let p = path.to_str().expect("utf-8 path");
    let mut rig = null_mut();
    let st = sinew_rig_load_spine(p.as_ptr().cast(), p.len(), null(), 0, null(), 0, &mut rig);
    assert_eq!(st, SinewStatus::Ok, "{}: {}", p, last_error());
    rig
}

fn opts(
    additive: u32,
    keep_hold: u32,
    curve: SinewMixInterpolation,
    power: u32,
) -> SinewEntryOptions {
    SinewEntryOptions {
        additive,
        keep_hold,
        mix_interpolation: curve as u32,
        mix_power: power,
    }
}

fn get(c: *mut SinewCharacter, track: u32, which: u32) -> SinewEntryOptions {
    let mut o = opts(9, 9, SinewMixInterpolation::Circle, 9);
    let st = sinew_character_entry_options(c, track, which, &mut o);
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    o
}

fn set(c: *mut SinewCharacter, track: u32, which: u32, o: SinewEntryOptions) {
    let st = sinew_character_set_entry_options(c, track, which, &o);
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
}

/// A crossfade on track 0 (`from` looping, `to` queued at 0.3 s with a 0.4 s mix) and a layer
/// on track 1 (`layer` queued after an empty entry at 0.2 s with a 0.3 s mix), as `sinew dump
/// --from --at --mix --layers --layer-at --layer-mix` schedules them.
struct Plan<'a> {
    from: &'a str,
    to: &'a str,
    layer: &'a str,
    /// The `from` entry's options (set on track 0's current entry).
    first: (SinewEntryOptions, EntryOptions),
    /// The `to` entry's (set on track 0's last entry).
    next: (SinewEntryOptions, EntryOptions),
    /// The layer entry's (set on track 1's last entry).
    layer_options: (SinewEntryOptions, EntryOptions),
}

/// Plays `plan` through the ABI (with its options when `with_options`).
fn play_c(rig: *mut SinewRig, plan: &Plan, with_options: bool) -> *mut SinewCharacter {
    let c = character(rig);
    let ((f, fl), (t, tl), (l, ll)) = (s(plan.from), s(plan.to), s(plan.layer));
    assert_eq!(
        sinew_character_set_animation(c, 0, f, fl, true),
        SinewStatus::Ok
    );
    if with_options {
        set(c, 0, CURRENT, plan.first.0);
    }
    let st = sinew_character_add_animation(c, 0, t, tl, true, 0.3, 0.4);
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    if with_options {
        set(c, 0, LAST, plan.next.0);
        // The current entry kept its own options.
        assert_eq!(get(c, 0, CURRENT), plan.first.0);
        assert_eq!(get(c, 0, LAST), plan.next.0);
    }
    assert_eq!(
        sinew_character_set_empty_animation(c, 1, 0.0),
        SinewStatus::Ok
    );
    let st = sinew_character_add_animation(c, 1, l, ll, true, 0.2, 0.3);
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    if with_options {
        set(c, 1, LAST, plan.layer_options.0);
        assert_eq!(get(c, 1, CURRENT), SinewEntryOptions::default());
    }
    c
}

/// Plays `plan` on the Rust facade with its options.
fn play_rust(c: &mut sinew::Character, plan: &Plan) {
    let first = c.set_animation(0, plan.from, true).expect("from");
    c.set_entry_options(first, plan.first.1)
        .expect("first options");
    let next = c.add_animation(0, plan.to, true, 0.3).expect("to");
    c.state_mut().entry_mut(next).expect("queued").mix_duration = 0.4;
    c.set_entry_options(next, plan.next.1)
        .expect("next options");
    c.set_empty_animation(1, 0.0).expect("empty");
    let layer = c.add_animation(1, plan.layer, true, 0.2).expect("layer");
    c.state_mut().entry_mut(layer).expect("queued").mix_duration = 0.3;
    c.set_entry_options(layer, plan.layer_options.1)
        .expect("layer options");
}

/// 60 frames of `plan` from C equal the facade's bit for bit, differ from the same schedule
/// without options, and read their options back once the queued entries play.
fn check_plan(path: &Path, plan: &Plan) {
    let rig = load(path);
    let c = play_c(rig, plan, true);
    let plain = play_c(rig, plan, false);
    let mut rust = sinew_formats::load_spine(path, None, &Default::default())
        .expect("the rig loads")
        .character();
    play_rust(&mut rust, plan);
    let mut differs = 0;
    for frame in 0..60 {
        for x in [c, plain] {
            assert_eq!(sinew_character_update(x, 1.0 / 60.0), SinewStatus::Ok);
        }
        rust.update(1.0 / 60.0);
        let w = worlds(c);
        assert_eq!(
            w,
            rust_worlds(&rust),
            "{}: frame {frame}: C and the facade differ",
            path.display()
        );
        differs += usize::from(w != worlds(plain));
    }
    assert!(
        differs > 10,
        "{}: the options changed {differs} of 60 frames",
        path.display()
    );
    // After 1 s both queued entries are current: the options moved with them.
    assert_eq!(get(c, 0, CURRENT), plan.next.0);
    assert_eq!(get(c, 0, LAST), plan.next.0);
    assert_eq!(get(c, 1, CURRENT), plan.layer_options.0);
    assert_eq!(get(plain, 1, CURRENT), SinewEntryOptions::default());
    for x in [c, plain] {
        sinew_character_destroy(x);
    }
    sinew_rig_destroy(rig);
}

#[test]
fn options_pose_as_the_facade_on_slider_lab() {
    let path = sinew_testutil::workspace_root().join("testdata/spine43/slider-lab.json");
    use SinewMixInterpolation as M;
    let plan = Plan {
        from: "wave",
        to: "bend",
        layer: "nod",
        first: (
            opts(0, 1, M::Linear, 0),
            EntryOptions {
                keep_hold: true,
                ..Default::default()
            },
        ),
        next: (
            opts(0, 0, M::Pow, 3),
            EntryOptions {
                mix_interpolation: MixInterpolation::Pow(3),
                ..Default::default()
            },
        ),
        layer_options: (
            opts(1, 0, M::PowOut, 2),
            EntryOptions {
                additive: true,
                keep_hold: false,
                mix_interpolation: MixInterpolation::PowOut(2),
            },
        ),
    };
    check_plan(&path, &plan);
    // Every other curve, on the crossfade, also as the facade's.
    for (c, power, m) in [
        (M::Smooth, 0, MixInterpolation::Smooth),
        (M::SlowFast, 0, MixInterpolation::SlowFast),
        (M::FastSlow, 0, MixInterpolation::FastSlow),
        (M::Circle, 0, MixInterpolation::Circle),
        (M::Pow, 2, MixInterpolation::Pow(2)),
        (M::PowOut, 5, MixInterpolation::PowOut(5)),
    ] {
        let curve = EntryOptions {
            mix_interpolation: m,
            ..Default::default()
        };
        let plan = Plan {
            next: (opts(0, 0, c, power), curve),
            layer_options: (
                opts(1, 0, c, power),
                EntryOptions {
                    additive: true,
                    ..curve
                },
            ),
            ..plan
        };
        check_plan(&path, &plan);
    }
}

#[test]
fn options_pose_as_the_facade_on_spineboy_43() {
    let test = "options_pose_as_the_facade_on_spineboy_43";
    let Some(fx43) = sinew_testutil::require_spine43_fixtures(test) else {
        return;
    };
    // testdata/spine43/golden-options' walk-to-run+aim-all-options (its layer at alpha 1:
    // the ABI sets no entry alpha).
    let slow_fast = EntryOptions {
        mix_interpolation: MixInterpolation::SlowFast,
        ..Default::default()
    };
    let m = SinewMixInterpolation::SlowFast;
    let plan = Plan {
        from: "walk",
        to: "run",
        layer: "aim",
        first: (
            opts(0, 1, SinewMixInterpolation::Linear, 0),
            EntryOptions {
                keep_hold: true,
                ..Default::default()
            },
        ),
        next: (opts(0, 0, m, 0), slow_fast),
        layer_options: (
            opts(1, 0, m, 0),
            EntryOptions {
                additive: true,
                ..slow_fast
            },
        ),
    };
    check_plan(&fx43.join("spineboy/spineboy-pro.json"), &plan);
}

/// Asserts `st` is `want` and the last error contains `says`.
fn refused(st: SinewStatus, want: SinewStatus, says: &str) {
    assert_eq!(st, want, "{}", last_error());
    let e = last_error();
    assert!(e.contains(says), "`{e}` does not say `{says}`");
}

#[test]
fn every_misuse_is_a_status_and_changes_nothing() {
    let path = sinew_testutil::workspace_root().join("testdata/spine43/slider-lab.json");
    let rig = load(&path);
    let c = character(rig);
    let good = opts(1, 1, SinewMixInterpolation::Pow, 4);
    let mut out = SinewEntryOptions::default();
    use SinewStatus::*;

    // An empty track, before anything plays and after it is cleared.
    for which in [CURRENT, LAST] {
        refused(
            sinew_character_set_entry_options(c, 0, which, &good),
            NotFound,
            "track 0 has no entry",
        );
        refused(
            sinew_character_entry_options(c, 3, which, &mut out),
            NotFound,
            "track 3 has no entry",
        );
    }
    let (wave, wl) = s("wave");
    assert_eq!(sinew_character_set_animation(c, 0, wave, wl, true), Ok);
    set(c, 0, CURRENT, good);
    assert_eq!(get(c, 0, LAST), good, "nothing queued: last is current");

    // Tracks from 256 on.
    for track in [256, 1000, u32::MAX] {
        refused(
            sinew_character_set_entry_options(c, track, CURRENT, &good),
            InvalidArgument,
            "track",
        );
        refused(
            sinew_character_entry_options(c, track, LAST, &mut out),
            InvalidArgument,
            "track",
        );
    }
    // Selectors, flags, curves and powers out of range (garbage an uninitialised struct holds).
    for which in [2, 7, u32::MAX] {
        refused(
            sinew_character_set_entry_options(c, 0, which, &good),
            InvalidArgument,
            "not a SinewTrackEntry",
        );
        refused(
            sinew_character_entry_options(c, 0, which, &mut out),
            InvalidArgument,
            "not a SinewTrackEntry",
        );
    }
    let bad = [
        (
            opts(2, 0, SinewMixInterpolation::Linear, 0),
            "additive is 2",
        ),
        (
            opts(0, u32::MAX, SinewMixInterpolation::Linear, 0),
            "keep_hold is 4294967295",
        ),
        (opts(0, 0, SinewMixInterpolation::Pow, 0), "mix_power is 0"),
        (
            opts(0, 0, SinewMixInterpolation::PowOut, 0),
            "mix_power is 0",
        ),
        (
            SinewEntryOptions {
                mix_interpolation: 7,
                ..Default::default()
            },
            "mix_interpolation 7 is not a SinewMixInterpolation",
        ),
        (
            SinewEntryOptions {
                mix_interpolation: u32::MAX,
                ..Default::default()
            },
            "mix_interpolation 4294967295",
        ),
    ];
    for (o, says) in bad {
        refused(
            sinew_character_set_entry_options(c, 0, CURRENT, &o),
            InvalidArgument,
            says,
        );
    }
    // A power is read for the powered curves only, and written 0 for the others.
    set(c, 0, CURRENT, opts(0, 0, SinewMixInterpolation::Smooth, 77));
    assert_eq!(
        get(c, 0, CURRENT),
        opts(0, 0, SinewMixInterpolation::Smooth, 0)
    );
    set(c, 0, CURRENT, good);
    // Null pointers and handles.
    refused(
        sinew_character_set_entry_options(c, 0, CURRENT, null()),
        NullArgument,
        "options is null",
    );
    refused(
        sinew_character_entry_options(c, 0, CURRENT, null_mut()),
        NullArgument,
        "out is null",
    );
    assert_eq!(
        sinew_character_set_entry_options(null_mut(), 0, CURRENT, &good),
        InvalidHandle
    );
    assert_eq!(
        sinew_character_entry_options(null(), 0, CURRENT, &mut out),
        InvalidHandle
    );
    assert_eq!(
        sinew_character_set_entry_options(rig.cast(), 0, CURRENT, &good),
        WrongHandleType
    );
    // Nothing above changed the entry.
    assert_eq!(get(c, 0, CURRENT), good);
    // A misaligned struct is read as well (a packed host struct).
    let mut bytes = [0u8; std::mem::size_of::<SinewEntryOptions>() + 1];
    let words = [0u32, 1, SinewMixInterpolation::Circle as u32, 0];
    for (k, w) in words.iter().enumerate() {
        bytes[1 + 4 * k..5 + 4 * k].copy_from_slice(&w.to_ne_bytes());
    }
    let misaligned = bytes[1..].as_ptr().cast::<SinewEntryOptions>();
    assert_eq!(
        sinew_character_set_entry_options(c, 0, CURRENT, misaligned),
        Ok
    );
    assert_eq!(
        get(c, 0, CURRENT),
        opts(0, 1, SinewMixInterpolation::Circle, 0)
    );

    sinew_character_destroy(c);
    refused(
        sinew_character_set_entry_options(c, 0, CURRENT, &good),
        InvalidHandle,
        "",
    );
    sinew_rig_destroy(rig);
}

#[test]
fn additive_needs_a_spine_43_rig_and_a_spine_entry() {
    use SinewStatus::*;
    // Spine 4.2: keep hold and the curve, not 4.3's additive.
    let (rig42, _) = controls::load();
    let c = character(rig42);
    let (run, rl) = s("run");
    assert_eq!(sinew_character_set_animation(c, 0, run, rl, true), Ok);
    let additive = opts(1, 0, SinewMixInterpolation::Linear, 0);
    refused(
        sinew_character_set_entry_options(c, 0, CURRENT, &additive),
        Unsupported,
        "additive",
    );
    assert_eq!(get(c, 0, CURRENT), SinewEntryOptions::default());
    let curve = opts(0, 1, SinewMixInterpolation::FastSlow, 0);
    set(c, 0, CURRENT, curve);
    assert_eq!(get(c, 0, LAST), curve);
    sinew_character_destroy(c);
    sinew_rig_destroy(rig42);

    // DragonBones: no Spine options at all; its entry reads as the defaults.
    let (st, db) = dragonbones::load_memory(dragonbones::SKE, dragonbones::TEX, "");
    assert_eq!(st, Ok, "{}", last_error());
    let c = character(db);
    let (spin, sl) = s("spin");
    assert_eq!(sinew_character_play(c, 0, spin, sl, -1.0, -1), Ok);
    for o in [curve, additive, SinewEntryOptions::default()] {
        refused(
            sinew_character_set_entry_options(c, 0, CURRENT, &o),
            Unsupported,
            "DragonBones",
        );
    }
    assert_eq!(get(c, 0, CURRENT), SinewEntryOptions::default());
    sinew_character_destroy(c);
    sinew_rig_destroy(db);
}

#[test]
fn random_arguments_never_panic_and_what_is_accepted_reads_back() {
    use SinewStatus::*;
    let path = sinew_testutil::workspace_root().join("testdata/spine43/slider-lab.json");
    let rig = load(&path);
    let c = character(rig);
    let (wave, wl) = s("wave");
    let (bend, bl) = s("bend");
    assert_eq!(sinew_character_set_animation(c, 0, wave, wl, true), Ok);
    assert_eq!(
        sinew_character_add_animation(c, 0, bend, bl, true, 0.3, 0.4),
        Ok
    );
    assert_eq!(sinew_character_set_animation(c, 2, bend, bl, true), Ok);
    // A seeded xorshift: a value below `n` seven times in eight (so many calls are
    // accepted), any u32 otherwise.
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |n: u32| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let v = (x >> 32) as u32;
        if x & 7 == 0 { v } else { v % n }
    };
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..5000 {
        let o = SinewEntryOptions {
            additive: next(2),
            keep_hold: next(2),
            mix_interpolation: next(7),
            mix_power: next(4),
        };
        let (track, which) = (next(3), next(2));
        let st = sinew_character_set_entry_options(c, track, which, &o);
        assert_ne!(st, Panic, "{o:?} on track {track}, entry {which}");
        let mut got = SinewEntryOptions::default();
        let read = sinew_character_entry_options(c, track, which, &mut got);
        assert_ne!(read, Panic);
        if st == Ok {
            accepted += 1;
            assert_eq!(read, Ok);
            let powered = o.mix_interpolation >= SinewMixInterpolation::Pow as u32;
            let want = SinewEntryOptions {
                mix_power: if powered { o.mix_power } else { 0 },
                ..o
            };
            assert_eq!(got, want, "track {track}, entry {which}");
        } else {
            refused += 1;
            let valid = o.additive <= 1
                && o.keep_hold <= 1
                && o.mix_interpolation <= 6
                && (o.mix_interpolation < 5 || o.mix_power > 0)
                && which <= 1
                && [0, 2].contains(&track);
            assert!(
                !valid,
                "{o:?} on track {track}, entry {which} refused: {st:?}"
            );
        }
        if next(8) == 0 {
            assert_eq!(sinew_character_update(c, 1.0 / 60.0), Ok);
        }
    }
    println!("random entry options: {accepted} accepted, {refused} refused");
    assert!(
        accepted > 1000 && refused > 1000,
        "{accepted} accepted, {refused} refused"
    );
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}
