//! ABI 105 jiggle controls on stickbot (examples/, its extras' `hair` and `cape` chains)
//! against the same calls on the Rust facade: chains on and off, solved every N-th step,
//! culling by a view rectangle; the extras' animation cues through the ABI against their
//! closed form at 30, 60 and 144 fps; hostile arguments (statuses, never a panic).

use crate::common;

use common::{character, last_error, rust_worlds, s, worlds};
use sinew_capi::*;
use std::ptr::{null, null_mut};

/// Stickbot with its extras (plus `cues`, an `animations` member, when given), through
/// the ABI and through `sinew_formats::load`.
fn stickbot(cues: Option<&str>) -> (*mut SinewRig, sinew::Character, tempfile_dir::Dir) {
    let dir = sinew_testutil::workspace_root().join("examples/stickbot");
    let skel = dir.join("stickbot.json");
    let mut extras = std::fs::read_to_string(dir.join("stickbot.extras.json")).expect("extras");
    if let Some(c) = cues {
        // Insert the cues as the jiggle section's first member.
        extras = extras.replacen(
            "\"jiggle\": {",
            &format!("\"jiggle\": {{ \"animations\": {c},"),
            1,
        );
    }
    let tmp = tempfile_dir::Dir::new();
    let ex = tmp.0.join("stickbot.extras.json");
    std::fs::write(&ex, &extras).expect("write extras");
    let (sk, exs) = (skel.to_str().expect("utf-8"), ex.to_str().expect("utf-8"));
    let mut rig = null_mut();
    let st = sinew_rig_load_spine(
        sk.as_ptr().cast(),
        sk.len(),
        null(),
        0,
        exs.as_ptr().cast(),
        exs.len(),
        &mut rig,
    );
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let options = sinew_formats::LoadOptions {
        atlas: sinew_formats::Companion::Without,
        extras: sinew_formats::Companion::Named(exs.to_owned()),
        ..Default::default()
    };
    let asset = sinew_formats::load(&skel, &options).expect("Rust load");
    (rig, asset.character(), tmp)
}

/// A scratch directory removed on drop.
mod tempfile_dir {
    pub struct Dir(pub std::path::PathBuf);
    impl Dir {
        pub fn new() -> Self {
            use std::sync::atomic::{AtomicU32, Ordering};
            static N: AtomicU32 = AtomicU32::new(0);
            let p = std::env::temp_dir().join(format!(
                "sinew-jiggle-chains-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&p).expect("temp dir");
            Dir(p)
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn walk(c: *mut SinewCharacter, rust: &mut sinew::Character, frames: usize, dt: f64) {
    for f in 0..frames {
        assert_eq!(sinew_character_update(c, dt), SinewStatus::Ok);
        rust.update(dt);
        assert!(
            worlds(c) == rust_worlds(rust),
            "frame {f} differs from the facade"
        );
    }
}

fn play_walk(c: *mut SinewCharacter, rust: &mut sinew::Character) {
    let (w, wl) = s("walk");
    assert_eq!(
        sinew_character_set_animation(c, 0, w, wl, true),
        SinewStatus::Ok
    );
    rust.set_animation(0, "walk", true).expect("walk");
}

#[test]
fn chains_on_off_every_nth_and_culling_match_the_facade() {
    let (rig, mut rust, _tmp) = stickbot(None);
    let c = character(rig);
    play_walk(c, &mut rust);
    walk(c, &mut rust, 20, 1.0 / 60.0);
    let (cape, cl) = s("cape");
    let (hair, hl) = s("hair");

    // The cape off: not solved, the animated pose; the hair solved every 4th step.
    assert_eq!(
        sinew_character_set_jiggle_chain_enabled(c, cape, cl, false),
        SinewStatus::Ok
    );
    assert_eq!(
        sinew_character_set_jiggle_chain_every(c, hair, hl, 4),
        SinewStatus::Ok
    );
    {
        let (_, js) = rust.jiggle_mut().expect("jiggle");
        js.set_chain_enabled(1, false);
        js.set_chain_every(0, 4);
    }
    let mut on = true;
    assert_eq!(
        sinew_character_jiggle_chain_enabled(c, cape, cl, &mut on),
        SinewStatus::Ok
    );
    assert!(!on);
    let mut every = 0;
    assert_eq!(
        sinew_character_jiggle_chain_every(c, hair, hl, &mut every),
        SinewStatus::Ok
    );
    assert_eq!(every, 4);
    walk(c, &mut rust, 30, 1.0 / 60.0);
    walk(c, &mut rust, 30, 1.0 / 144.0);

    // Every chain back on and full (the empty name).
    assert_eq!(
        sinew_character_set_jiggle_chain_enabled(c, null(), 0, true),
        SinewStatus::Ok
    );
    assert_eq!(
        sinew_character_set_jiggle_chain_every(c, null(), 0, 1),
        SinewStatus::Ok
    );
    {
        let (_, js) = rust.jiggle_mut().expect("jiggle");
        for i in 0..2 {
            js.set_chain_enabled(i, true);
            js.set_chain_every(i, 1);
        }
    }
    walk(c, &mut rust, 20, 1.0 / 60.0);

    // A view far away culls; one over the character does not.
    let mut culled = false;
    for (rect, want) in [
        ([1e5, 1e5, 1e5 + 10.0, 1e5 + 10.0], true),
        ([-500.0, -500.0, 500.0, 500.0], false),
    ] {
        assert_eq!(
            sinew_character_set_jiggle_view(c, rect.as_ptr()),
            SinewStatus::Ok
        );
        {
            let (_, js) = rust.jiggle_mut().expect("jiggle");
            assert!(js.set_view(Some(rect)));
        }
        walk(c, &mut rust, 10, 1.0 / 60.0);
        assert_eq!(
            sinew_character_jiggle_culled(c, &mut culled),
            SinewStatus::Ok
        );
        assert_eq!(culled, want, "{rect:?}");
    }
    assert_eq!(sinew_character_set_jiggle_view(c, null()), SinewStatus::Ok);
    rust.jiggle_mut().expect("jiggle").1.set_view(None);
    walk(c, &mut rust, 10, 1.0 / 60.0);
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}

#[test]
fn extras_cues_fade_the_cape_as_their_closed_form() {
    let cues = r#"{ "walk": {
        "strength": { "cape": [ { "time": 0, "value": 1 }, { "time": 0.5, "value": 0 } ] },
        "events": [ { "time": 0.1, "chain": "hair", "strength": 0, "fade": 0.25 } ] } }"#;
    for fps in [30.0, 60.0, 144.0] {
        let (rig, mut rust, _tmp) = stickbot(Some(cues));
        let c = character(rig);
        play_walk(c, &mut rust);
        let (cape, cl) = s("cape");
        let (hair, hl) = s("hair");
        let dt = 1.0 / fps;
        for f in 1..=(0.9 * fps) as usize {
            walk(c, &mut rust, 1, dt);
            let t = f as f64 * dt;
            let (mut sc, mut sh) = (-1.0, -1.0);
            assert_eq!(
                sinew_character_jiggle_effective_strength(c, cape, cl, &mut sc),
                SinewStatus::Ok
            );
            assert_eq!(
                sinew_character_jiggle_effective_strength(c, hair, hl, &mut sh),
                SinewStatus::Ok
            );
            let want_cape = (1.0 - t / 0.5).max(0.0);
            let want_hair = (1.0 - (t - 0.1) / 0.25).clamp(0.0, 1.0);
            assert!(
                (sc - want_cape).abs() < 1e-9,
                "{fps} fps frame {f}: cape {sc} vs {want_cape}"
            );
            assert!(
                (sh - want_hair).abs() < 1e-9,
                "{fps} fps frame {f}: hair {sh} vs {want_hair}"
            );
        }
        sinew_character_destroy(c);
        sinew_rig_destroy(rig);
    }
}

#[test]
fn hostile_arguments_are_statuses() {
    let (rig, _rust, _tmp) = stickbot(None);
    let c = character(rig);
    let (cape, cl) = s("cape");
    let (nope, nl) = s("nope");
    let bad_utf8 = [0xffu8, 0xfe];
    let mut b = false;
    let mut u = 0u32;
    let mut x = 0.0;
    // Null and dangling-length names, invalid UTF-8, unknown chains.
    assert_eq!(
        sinew_character_set_jiggle_chain_enabled(c, null(), 5, false),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_set_jiggle_chain_every(c, bad_utf8.as_ptr().cast(), 2, 2),
        SinewStatus::InvalidUtf8
    );
    assert_eq!(
        sinew_character_set_jiggle_chain_enabled(c, nope, nl, false),
        SinewStatus::NotFound
    );
    assert!(last_error().contains("`hair`, `cape`"), "{}", last_error());
    assert_eq!(
        sinew_character_jiggle_chain_every(c, null(), 0, &mut u),
        SinewStatus::InvalidArgument,
        "a getter names one chain"
    );
    assert_eq!(
        sinew_character_jiggle_effective_strength(c, nope, nl, &mut x),
        SinewStatus::NotFound
    );
    // Levels out of range change nothing.
    for every in [0, 17, u32::MAX] {
        assert_eq!(
            sinew_character_set_jiggle_chain_every(c, cape, cl, every),
            SinewStatus::InvalidArgument,
            "{every}"
        );
    }
    assert_eq!(
        sinew_character_jiggle_chain_every(c, cape, cl, &mut u),
        SinewStatus::Ok
    );
    assert_eq!(u, 1);
    // Null outputs.
    assert_eq!(
        sinew_character_jiggle_chain_enabled(c, cape, cl, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_jiggle_chain_every(c, cape, cl, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_jiggle_effective_strength(c, cape, cl, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_jiggle_culled(c, null_mut()),
        SinewStatus::NullArgument
    );
    // Bad rectangles are refused and culling stays off.
    for rect in [
        [f64::NAN, 0.0, 1.0, 1.0],
        [0.0, f64::NEG_INFINITY, 1.0, 1.0],
        [0.0, 0.0, f64::INFINITY, 1.0],
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 1.0, 0.0],
    ] {
        assert_eq!(
            sinew_character_set_jiggle_view(c, rect.as_ptr()),
            SinewStatus::InvalidArgument,
            "{rect:?}"
        );
    }
    assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
    assert_eq!(sinew_character_jiggle_culled(c, &mut b), SinewStatus::Ok);
    assert!(!b);
    // Wrong handles: a rig, null, destroyed.
    assert_eq!(
        sinew_character_jiggle_culled(rig.cast(), &mut b),
        SinewStatus::WrongHandleType
    );
    assert_eq!(
        sinew_character_set_jiggle_view(null_mut(), null()),
        SinewStatus::InvalidHandle
    );
    // No jiggle bones: not found, never a panic.
    assert_eq!(
        sinew_character_set_jiggle_enabled(c, false),
        SinewStatus::Ok
    );
    assert_eq!(
        sinew_character_set_jiggle_chain_every(c, cape, cl, 2),
        SinewStatus::NotFound
    );
    assert_eq!(
        sinew_character_jiggle_culled(c, &mut b),
        SinewStatus::NotFound
    );
    sinew_character_destroy(c);
    for st in [
        sinew_character_set_jiggle_chain_enabled(c, cape, cl, true),
        sinew_character_set_jiggle_chain_every(c, cape, cl, 1),
        sinew_character_jiggle_chain_enabled(c, cape, cl, &mut b),
        sinew_character_jiggle_chain_every(c, cape, cl, &mut u),
        sinew_character_jiggle_effective_strength(c, cape, cl, &mut x),
        sinew_character_set_jiggle_view(c, null()),
        sinew_character_jiggle_culled(c, &mut b),
    ] {
        assert_eq!(st, SinewStatus::InvalidHandle);
    }
    sinew_rig_destroy(rig);
}
