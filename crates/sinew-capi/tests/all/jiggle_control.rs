//! Jiggle control through the ABI on stickbot (examples/, its extras' `hair` and `cape`
//! chains) against the same calls on the Rust facade: strength now and faded, level of
//! detail, on/off, chains made from code on a rig loaded without extras; hostile arguments.

use crate::common;

use common::{character, last_error, rust_worlds, s, worlds};
use sinew::physics::jiggle::{ChainDesc, JiggleDesc, JiggleRig, Lod, Preset};
use sinew_capi::*;
use std::ptr::{null, null_mut};
use std::sync::Arc;

fn stickbot(extras: bool) -> (*mut SinewRig, sinew_formats::Asset) {
    let dir = sinew_testutil::workspace_root().join("examples/stickbot");
    let skel = dir.join("stickbot.json");
    let ex = dir.join("stickbot.extras.json");
    let (sk, exs) = (skel.to_str().expect("utf-8"), ex.to_str().expect("utf-8"));
    let exs = if extras { exs } else { "" };
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
        extras: if extras {
            sinew_formats::Companion::Named("stickbot.extras.json".into())
        } else {
            sinew_formats::Companion::Without
        },
        ..Default::default()
    };
    let asset = sinew_formats::load(&skel, &options).expect("Rust load");
    (rig, asset)
}

fn walk(c: *mut SinewCharacter, rust: &mut sinew::Character, frames: usize) {
    for f in 0..frames {
        assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
        rust.update(1.0 / 60.0);
        assert!(
            worlds(c) == rust_worlds(rust),
            "frame {f} differs from the facade"
        );
    }
}

fn strength(c: *mut SinewCharacter, chain: &str) -> f64 {
    let (n, l) = s(chain);
    let mut v = -1.0;
    assert_eq!(
        sinew_character_jiggle_strength(c, n, l, &mut v),
        SinewStatus::Ok,
        "{}",
        last_error()
    );
    v
}

fn lod(c: *mut SinewCharacter) -> u32 {
    let mut v = 9;
    assert_eq!(sinew_character_jiggle_lod(c, &mut v), SinewStatus::Ok);
    v
}

#[test]
fn jiggle_strength_fade_lod_and_switch_match_the_facade() {
    let (rig, asset) = stickbot(true);
    let c = character(rig);
    let mut rust = asset.character();
    let (w, wl) = s("walk");
    assert_eq!(
        sinew_character_set_animation(c, 0, w, wl, true),
        SinewStatus::Ok
    );
    rust.set_animation(0, "walk", true).expect("walk");
    let mut n = 0;
    assert_eq!(
        sinew_character_jiggle_chain_count(c, &mut n),
        SinewStatus::Ok
    );
    assert_eq!(n, 2);
    let mut names = Vec::new();
    for i in 0..n {
        let mut v = SinewStringView {
            ptr: null(),
            len: 0,
        };
        assert_eq!(
            sinew_character_jiggle_chain_name(c, i, &mut v),
            SinewStatus::Ok
        );
        // SAFETY: the view points into the character's live jiggle bones.
        let b = unsafe { std::slice::from_raw_parts(v.ptr.cast::<u8>(), v.len) };
        names.push(String::from_utf8(b.to_vec()).expect("utf-8"));
    }
    assert_eq!(names, ["hair", "cape"]);
    assert_eq!(strength(c, "hair"), 1.0);
    walk(c, &mut rust, 20);

    // Hair off at once, the cape faded to 0 over 0.5 s.
    let (hair, hl) = s("hair");
    let (cape, cl) = s("cape");
    assert_eq!(
        sinew_character_set_jiggle_strength(c, hair, hl, 0.0, 0.0),
        SinewStatus::Ok
    );
    assert_eq!(
        sinew_character_set_jiggle_strength(c, cape, cl, 0.0, 0.5),
        SinewStatus::Ok
    );
    {
        let (_, js) = rust.jiggle_mut().expect("jiggle");
        js.set_strength(0, 0.0);
        js.fade_strength(1, 0.0, 0.5);
    }
    assert_eq!(strength(c, "hair"), 0.0);
    walk(c, &mut rust, 15);
    let half = strength(c, "cape");
    assert!((half - 0.5).abs() < 1e-6, "cape strength half way: {half}");
    walk(c, &mut rust, 20);
    assert_eq!(strength(c, "cape"), 0.0);
    // Every chain back to full (the empty name), at once.
    assert_eq!(
        sinew_character_set_jiggle_strength(c, null(), 0, 1.0, 0.0),
        SinewStatus::Ok
    );
    {
        let (_, js) = rust.jiggle_mut().expect("jiggle");
        js.set_strength(0, 1.0);
        js.set_strength(1, 1.0);
    }
    assert_eq!((strength(c, "hair"), strength(c, "cape")), (1.0, 1.0));
    walk(c, &mut rust, 10);

    // Level of detail: set, and picked from the extras' distances (coarse beyond 1500,
    // frozen beyond 4000).
    assert_eq!(lod(c), 0);
    for (d, want, rust_lod) in [
        (5000.0, 2, Lod::Frozen),
        (2000.0, 1, Lod::Coarse),
        (0.0, 0, Lod::Full),
    ] {
        assert_eq!(
            sinew_character_set_jiggle_view_distance(c, d),
            SinewStatus::Ok
        );
        assert_eq!(lod(c), want, "distance {d}");
        let (jr, js) = rust.jiggle_mut().expect("jiggle");
        js.set_lod(jr, rust_lod);
        walk(c, &mut rust, 5);
    }
    assert_eq!(sinew_character_set_jiggle_lod(c, 1), SinewStatus::Ok);
    assert_eq!(lod(c), 1);
    {
        let (jr, js) = rust.jiggle_mut().expect("jiggle");
        js.set_lod(jr, Lod::Coarse);
    }
    walk(c, &mut rust, 10);

    // Off: the animated pose (equal to a character without extras); on again.
    assert_eq!(
        sinew_character_set_jiggle_enabled(c, false),
        SinewStatus::Ok
    );
    assert_eq!(
        sinew_character_jiggle_chain_count(c, &mut n),
        SinewStatus::Ok
    );
    assert_eq!(n, 0);
    let mut x = 0.0;
    assert_eq!(
        sinew_character_jiggle_strength(c, hair, hl, &mut x),
        SinewStatus::NotFound
    );
    assert!(last_error().contains("no jiggle bones"), "{}", last_error());
    rust.set_jiggle(None).expect("off");
    walk(c, &mut rust, 5);
    assert_eq!(sinew_character_set_jiggle_enabled(c, true), SinewStatus::Ok);
    assert_eq!(
        sinew_character_jiggle_chain_count(c, &mut n),
        SinewStatus::Ok
    );
    assert_eq!(n, 2);
    rust.set_jiggle(asset.jiggle.clone()).expect("on");
    walk(c, &mut rust, 10);
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}

#[test]
fn jiggle_chains_from_code_without_an_extras_file() {
    let (rig, asset) = stickbot(false);
    let c = character(rig);
    let mut rust = asset.character();
    let mut plain = asset.character();
    let mut n = 9;
    assert_eq!(
        sinew_character_jiggle_chain_count(c, &mut n),
        SinewStatus::Ok
    );
    assert_eq!(n, 0, "no extras, no chains");
    let bones = [
        SinewStr {
            ptr: "cape-1".as_ptr().cast(),
            len: 6,
        },
        SinewStr {
            ptr: "cape-2".as_ptr().cast(),
            len: 6,
        },
    ];
    let chain = SinewJiggleChain {
        name: SinewStr {
            ptr: "cape".as_ptr().cast(),
            len: 4,
        },
        bones: bones.as_ptr(),
        bone_count: 2,
        preset: SinewJigglePreset::Ribbon as u32,
    };
    assert_eq!(
        sinew_character_set_jiggle_chains(c, &chain, 1),
        SinewStatus::Ok,
        "{}",
        last_error()
    );
    let mut desc = JiggleDesc::new();
    desc.chains.push(ChainDesc::new(
        "cape",
        &["cape-1", "cape-2"],
        Preset::Ribbon.params(),
    ));
    let jr = JiggleRig::build(rust.rig(), &desc).expect("build");
    rust.set_jiggle(Some(Arc::new(jr))).expect("attach");
    assert_eq!(
        sinew_character_jiggle_chain_count(c, &mut n),
        SinewStatus::Ok
    );
    assert_eq!(n, 1);
    let (w, wl) = s("walk");
    assert_eq!(
        sinew_character_set_animation(c, 0, w, wl, true),
        SinewStatus::Ok
    );
    rust.set_animation(0, "walk", true).expect("walk");
    plain.set_animation(0, "walk", true).expect("walk");
    walk(c, &mut rust, 40);
    for _ in 0..40 {
        plain.update(1.0 / 60.0);
    }
    assert!(worlds(c) != rust_worlds(&plain), "the chain moved nothing");
    // Off and on keep the chains made from code.
    assert_eq!(
        sinew_character_set_jiggle_enabled(c, false),
        SinewStatus::Ok
    );
    assert_eq!(sinew_character_set_jiggle_enabled(c, true), SinewStatus::Ok);
    assert_eq!(
        sinew_character_jiggle_chain_count(c, &mut n),
        SinewStatus::Ok
    );
    assert_eq!(n, 1);

    // Refused, nothing changed: an unknown bone (the bones listed), a bad preset, null
    // bones with a count, bad UTF-8, a bone in two chains.
    let bad_bone = [SinewStr {
        ptr: "cap".as_ptr().cast(),
        len: 3,
    }];
    let with = |bones: *const SinewStr, bone_count: usize, preset: u32| SinewJiggleChain {
        bones,
        bone_count,
        preset,
        ..chain
    };
    assert_eq!(
        sinew_character_set_jiggle_chains(c, &with(bad_bone.as_ptr(), 1, 1), 1),
        SinewStatus::NotFound
    );
    assert!(
        last_error().contains("bone not found: `cap`; this rig's bones: `root`"),
        "{}",
        last_error()
    );
    assert_eq!(
        sinew_character_set_jiggle_chains(c, &with(bones.as_ptr(), 2, 6), 1),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_set_jiggle_chains(c, &with(bones.as_ptr(), 2, u32::MAX), 1),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_set_jiggle_chains(c, &with(null(), 2, 1), 1),
        SinewStatus::NullArgument
    );
    let utf = [SinewStr {
        ptr: [0xffu8].as_ptr().cast(),
        len: 1,
    }];
    assert_eq!(
        sinew_character_set_jiggle_chains(c, &with(utf.as_ptr(), 1, 1), 1),
        SinewStatus::InvalidUtf8
    );
    let twice = [chain, chain];
    assert_eq!(
        sinew_character_set_jiggle_chains(c, twice.as_ptr(), 2),
        SinewStatus::InvalidArgument
    );
    assert!(last_error().contains("cape-1"), "{}", last_error());
    assert_eq!(
        sinew_character_set_jiggle_chains(c, null(), 3),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_jiggle_chain_count(c, &mut n),
        SinewStatus::Ok
    );
    assert_eq!(n, 1, "a refused call changed the chains");
    // Zero chains: none.
    assert_eq!(
        sinew_character_set_jiggle_chains(c, null(), 0),
        SinewStatus::Ok
    );
    assert_eq!(
        sinew_character_jiggle_chain_count(c, &mut n),
        SinewStatus::Ok
    );
    assert_eq!(n, 0);
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}

#[test]
fn jiggle_calls_refuse_hostile_arguments() {
    let (rig, _) = stickbot(true);
    let c = character(rig);
    let (hair, hl) = s("hair");
    let (bad, bl) = s("hiar");
    let mut x = 0.0;
    assert_eq!(
        sinew_character_jiggle_strength(c, bad, bl, &mut x),
        SinewStatus::NotFound
    );
    assert_eq!(
        last_error(),
        "jiggle chain not found: `hiar`; this rig's jiggle chains: `hair`, `cape`"
    );
    assert_eq!(
        sinew_character_set_jiggle_strength(c, bad, bl, 1.0, 0.0),
        SinewStatus::NotFound
    );
    assert_eq!(
        sinew_character_jiggle_strength(c, null(), 0, &mut x),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_jiggle_strength(c, hair, hl, null_mut()),
        SinewStatus::NullArgument
    );
    for (st, f) in [
        (1.5, 0.0),
        (-0.1, 0.0),
        (f64::NAN, 0.0),
        (0.5, -1.0),
        (0.5, f64::NAN),
    ] {
        assert_eq!(
            sinew_character_set_jiggle_strength(c, hair, hl, st, f),
            SinewStatus::InvalidArgument,
            "strength {st}, fade {f}"
        );
    }
    assert_eq!(
        strength(c, "hair"),
        1.0,
        "a refused call changed the strength"
    );
    assert_eq!(
        sinew_character_set_jiggle_strength(c, [0xc0u8].as_ptr().cast(), 1, 1.0, 0.0),
        SinewStatus::InvalidUtf8
    );
    assert_eq!(
        sinew_character_set_jiggle_lod(c, 3),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_set_jiggle_lod(c, u32::MAX),
        SinewStatus::InvalidArgument
    );
    for d in [f64::NAN, f64::INFINITY, -1.0] {
        assert_eq!(
            sinew_character_set_jiggle_view_distance(c, d),
            SinewStatus::InvalidArgument
        );
    }
    assert_eq!(lod(c), 0);
    assert_eq!(
        sinew_character_jiggle_lod(c, null_mut()),
        SinewStatus::NullArgument
    );
    let mut v = SinewStringView {
        ptr: null(),
        len: 0,
    };
    assert_eq!(
        sinew_character_jiggle_chain_name(c, 2, &mut v),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_jiggle_chain_count(c, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_set_jiggle_enabled(rig.cast(), true),
        SinewStatus::WrongHandleType
    );
    sinew_character_destroy(c);
    for st in [
        sinew_character_set_jiggle_lod(c, 0),
        sinew_character_set_jiggle_strength(c, hair, hl, 1.0, 0.0),
        sinew_character_set_jiggle_view_distance(c, 1.0),
        sinew_character_set_jiggle_enabled(c, true),
        sinew_character_set_jiggle_chains(c, null(), 0),
        sinew_character_jiggle_chain_count(c, &mut 0),
    ] {
        assert_eq!(st, SinewStatus::InvalidHandle);
    }
    sinew_rig_destroy(rig);
}
