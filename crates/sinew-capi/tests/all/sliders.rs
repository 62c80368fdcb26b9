//! ABI 106: Spine 4.3 sliders and the wind and gravity directions of physics through the C
//! ABI, on the 4.3 rigs of `testdata/spine43` (`slider-lab.json`: five sliders, keyed, driven
//! by bones, additive, off; `physics-lab.json`: six physics constraints). Every pose a C
//! character reaches equals the Rust facade's bit for bit when both get the same calls
//! (`Character::set_slider`, `set_physics_directions`); misuse (null, wrong or destroyed
//! handles, indices out of range, non-finite values) returns a typed status and changes
//! nothing.

use crate::common::{character, last_error, rust_worlds, s, worlds};
use sinew::rig::SliderPose;
use sinew_capi::*;
use std::ptr::{null, null_mut};

fn rig_path(name: &str) -> std::path::PathBuf {
    sinew_testutil::workspace_root().join(name)
}

fn load(path: &std::path::Path) -> *mut SinewRig {
    let p = path.to_str().expect("utf-8 path");
    let mut rig = null_mut();
    let st = sinew_rig_load_spine(p.as_ptr().cast(), p.len(), null(), 0, null(), 0, &mut rig);
    assert_eq!(st, SinewStatus::Ok, "{p}: {}", last_error());
    rig
}

fn rust_character(path: &std::path::Path) -> sinew::Character {
    sinew_formats::load_spine(path, None, &Default::default())
        .expect("the rig loads")
        .character()
}

fn find(c: *mut SinewCharacter, name: &str) -> u32 {
    let (n, l) = s(name);
    let mut i = u32::MAX;
    assert_eq!(
        sinew_character_find_slider(c, n, l, &mut i),
        SinewStatus::Ok,
        "{name}: {}",
        last_error()
    );
    i
}

fn pose(c: *mut SinewCharacter, index: u32) -> SinewSliderPose {
    let mut p = SinewSliderPose::default();
    assert_eq!(sinew_character_slider(c, index, &mut p), SinewStatus::Ok);
    p
}

/// The slider poses of both characters are the same bits.
fn same_sliders(c: *mut SinewCharacter, rust: &sinew::Character, what: &str) {
    for (i, d) in rust.rig().sliders.iter().enumerate() {
        let want = rust.slider(d.name.as_str()).expect("a slider");
        let got = pose(c, i as u32);
        assert_eq!(
            (got.time.to_bits(), got.mix.to_bits()),
            (want.time.to_bits(), want.mix.to_bits()),
            "{what}: slider {}",
            d.name
        );
    }
}

#[test]
fn sliders_are_found_read_and_set_as_the_rust_facade_does() {
    let path = rig_path("testdata/spine43/slider-lab.json");
    let rig = load(&path);
    let c = character(rig);
    let mut rust = rust_character(&path);

    // Count, names and indices: the rig's sliders in file order.
    let mut n = 0;
    assert_eq!(sinew_character_slider_count(c, &mut n), SinewStatus::Ok);
    let names: Vec<&str> = rust.rig().sliders.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "wave-slider",
            "nod-slider",
            "bend-slider",
            "off-slider",
            "tint-slider"
        ]
    );
    assert_eq!(n as usize, names.len());
    for (i, name) in names.iter().enumerate() {
        assert_eq!(find(c, name), i as u32);
        let mut v = SinewStringView {
            ptr: null(),
            len: 0,
        };
        assert_eq!(
            sinew_character_slider_name(c, i as u32, &mut v),
            SinewStatus::Ok
        );
        // SAFETY: the view points into the rig, alive while the character is.
        let got = unsafe { std::slice::from_raw_parts(v.ptr.cast::<u8>(), v.len) };
        assert_eq!(got, name.as_bytes());
    }
    // The setup values: off-slider has time 0.3 and mix 0, nod-slider mix 0.8.
    let (off, nod, wave) = (
        find(c, "off-slider"),
        find(c, "nod-slider"),
        find(c, "wave-slider"),
    );
    assert_eq!(
        pose(c, off),
        SinewSliderPose {
            time: 0.3,
            mix: 0.0
        }
    );
    assert_eq!(pose(c, nod).mix, 0.8);
    same_sliders(c, &rust, "setup");

    // The same calls on both sides, through frames of `move` (which keys wave-slider's time
    // and mix, moves the bones driving nod-, bend- and tint-slider): the same poses.
    let (mv, mvl) = s("move");
    assert_eq!(
        sinew_character_set_animation(c, 0, mv, mvl, true),
        SinewStatus::Ok
    );
    rust.set_animation(0, "move", true).expect("move");
    let set = |c: *mut SinewCharacter, rust: &mut sinew::Character, i: u32, time, mix| {
        let v = SinewSliderPose { time, mix };
        assert_eq!(sinew_character_set_slider(c, i, &v), SinewStatus::Ok);
        let name = rust.rig().sliders[i as usize].name.clone();
        rust.set_slider(name.as_str(), SliderPose { time, mix })
            .expect("finite");
    };
    let before = worlds(c);
    set(c, &mut rust, off, 0.45, 1.0);
    assert_eq!(
        pose(c, off),
        SinewSliderPose {
            time: 0.45,
            mix: 1.0
        }
    );
    for frame in 0..90 {
        if frame == 30 {
            // A keyed slider set between frames: the animation keys it again next update.
            set(c, &mut rust, wave, 0.7, 0.25);
        }
        if frame == 60 {
            set(c, &mut rust, off, 0.1, 0.5);
        }
        assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
        rust.update(1.0 / 60.0);
        assert_eq!(worlds(c), rust_worlds(&rust), "frame {frame}: bones differ");
        same_sliders(c, &rust, &format!("frame {frame}"));
    }
    assert_ne!(worlds(c), before, "the sliders and `move` moved bones");
    // The off-slider posed `nod` at its time: without it the head differs.
    let mut plain = rust_character(&path);
    plain.set_animation(0, "move", true).expect("move");
    for _ in 0..90 {
        plain.update(1.0 / 60.0);
    }
    assert_ne!(
        rust_worlds(&plain),
        worlds(c),
        "setting off-slider changed the pose"
    );

    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}

#[test]
fn slider_misuse_is_refused_with_a_status() {
    let path = rig_path("testdata/spine43/slider-lab.json");
    let rig = load(&path);
    let c = character(rig);
    let wave = find(c, "wave-slider");
    let setup = pose(c, wave);
    let mut p = SinewSliderPose::default();
    let mut n = 0u32;
    let mut v = SinewStringView {
        ptr: null(),
        len: 0,
    };
    // Unknown names are NotFound, listing the sliders; a non-UTF-8 name is refused.
    let (bad, badl) = s("no-such-slider");
    assert_eq!(
        sinew_character_find_slider(c, bad, badl, &mut n),
        SinewStatus::NotFound
    );
    assert!(
        last_error().contains("wave-slider") && last_error().contains("no-such-slider"),
        "{}",
        last_error()
    );
    let invalid = [0xffu8, 0xfe];
    assert_eq!(
        sinew_character_find_slider(c, invalid.as_ptr().cast(), 2, &mut n),
        SinewStatus::InvalidUtf8
    );
    let (w, wl) = s("wave-slider");
    assert_eq!(
        sinew_character_find_slider(c, w, wl, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_find_slider(c, null(), 3, &mut n),
        SinewStatus::NullArgument
    );
    // Indices out of range, including ones that wrap onto slider 0 as a u16.
    for index in [5, 6, 65_536, u32::MAX] {
        assert_eq!(
            sinew_character_slider(c, index, &mut p),
            SinewStatus::InvalidArgument,
            "{index}"
        );
        assert!(last_error().contains("5 sliders"), "{}", last_error());
        assert_eq!(
            sinew_character_set_slider(c, index, &setup),
            SinewStatus::InvalidArgument
        );
        assert_eq!(
            sinew_character_slider_name(c, index, &mut v),
            SinewStatus::InvalidArgument
        );
    }
    // Null outputs and values.
    assert_eq!(
        sinew_character_slider(c, wave, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_set_slider(c, wave, null()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_slider_count(c, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_slider_name(c, wave, null_mut()),
        SinewStatus::NullArgument
    );
    // Non-finite and huge values change nothing.
    for (time, mix) in [
        (f64::NAN, 1.0),
        (0.5, f64::INFINITY),
        (1e30, 1.0),
        (0.5, -1e31),
    ] {
        assert_eq!(
            sinew_character_set_slider(c, wave, &SinewSliderPose { time, mix }),
            SinewStatus::InvalidArgument,
            "{time} {mix}"
        );
        assert_eq!(pose(c, wave), setup);
    }
    // Handles: null, a rig where a character is expected, made up, destroyed.
    assert_eq!(
        sinew_character_slider_count(null(), &mut n),
        SinewStatus::InvalidHandle
    );
    assert_eq!(
        sinew_character_slider(rig.cast(), wave, &mut p),
        SinewStatus::WrongHandleType
    );
    assert_eq!(
        sinew_character_set_slider(std::ptr::without_provenance_mut(0x1239), wave, &setup),
        SinewStatus::InvalidHandle
    );
    sinew_character_destroy(c);
    assert_eq!(
        sinew_character_find_slider(c, w, wl, &mut n),
        SinewStatus::InvalidHandle
    );
    assert_eq!(
        sinew_character_slider_name(c, wave, &mut v),
        SinewStatus::InvalidHandle
    );
    assert_eq!(
        sinew_character_set_slider(c, wave, &setup),
        SinewStatus::InvalidHandle
    );

    // A 4.2 rig has no slider.
    let stick = load(&rig_path("examples/stickbot/stickbot.json"));
    let c42 = character(stick);
    assert_eq!(sinew_character_slider_count(c42, &mut n), SinewStatus::Ok);
    assert_eq!(n, 0);
    assert_eq!(
        sinew_character_find_slider(c42, w, wl, &mut n),
        SinewStatus::NotFound
    );
    assert_eq!(
        sinew_character_slider(c42, 0, &mut p),
        SinewStatus::InvalidArgument
    );
    sinew_character_destroy(c42);
    sinew_rig_destroy(stick);
    sinew_rig_destroy(rig);
}

#[test]
fn physics_directions_pose_as_the_rust_facade_does() {
    let path = rig_path("testdata/spine43/physics-lab.json");
    let rig = load(&path);
    let (c, plain) = (character(rig), character(rig));
    let mut rust = rust_character(&path);
    let mut d = SinewPhysicsDirections::default();
    assert_eq!(
        sinew_character_physics_directions(c, &mut d),
        SinewStatus::Ok
    );
    assert_eq!(
        d,
        SinewPhysicsDirections {
            wind_x: 1.0,
            wind_y: 0.0,
            gravity_x: 0.0,
            gravity_y: 1.0
        },
        "Spine 4.2's fixed directions by default"
    );
    // An updraft and a sideways pull.
    let up = SinewPhysicsDirections {
        wind_x: 0.0,
        wind_y: -1.0,
        gravity_x: 0.6,
        gravity_y: 0.8,
    };
    assert_eq!(
        sinew_character_set_physics_directions(c, &up),
        SinewStatus::Ok
    );
    rust.set_physics_directions([0.0, -1.0], [0.6, 0.8])
        .expect("finite");
    assert_eq!(
        sinew_character_physics_directions(c, &mut d),
        SinewStatus::Ok
    );
    assert_eq!(d, up);
    let (mv, mvl) = s("move");
    for x in [c, plain] {
        assert_eq!(
            sinew_character_set_animation(x, 0, mv, mvl, true),
            SinewStatus::Ok
        );
    }
    rust.set_animation(0, "move", true).expect("move");
    for frame in 0..60 {
        for x in [c, plain] {
            assert_eq!(sinew_character_update(x, 1.0 / 60.0), SinewStatus::Ok);
        }
        rust.update(1.0 / 60.0);
        assert_eq!(worlds(c), rust_worlds(&rust), "frame {frame}");
    }
    assert_ne!(
        worlds(c),
        worlds(plain),
        "the directions moved the physics bones"
    );
    // Refused: non-finite or huge components, null; nothing changes.
    for bad in [f64::NAN, f64::INFINITY, -1e30] {
        let v = SinewPhysicsDirections {
            gravity_y: bad,
            ..up
        };
        assert_eq!(
            sinew_character_set_physics_directions(c, &v),
            SinewStatus::InvalidArgument
        );
    }
    assert_eq!(
        sinew_character_set_physics_directions(c, null()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_physics_directions(c, null_mut()),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_physics_directions(c, &mut d),
        SinewStatus::Ok
    );
    assert_eq!(d, up);
    assert_eq!(
        sinew_character_physics_directions(rig.cast(), &mut d),
        SinewStatus::WrongHandleType
    );
    sinew_character_destroy(c);
    assert_eq!(
        sinew_character_set_physics_directions(c, &up),
        SinewStatus::InvalidHandle
    );
    sinew_character_destroy(plain);
    sinew_rig_destroy(rig);
}
