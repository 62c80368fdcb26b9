//! A character's cages through the ABI (declared in a rig-extras file on stickbot) against
//! the Rust facade: count, names, the host writing a cage's points, the points and the
//! render output after each update bit for bit; hostile arguments refused with a message.

use crate::common;

use common::{character, last_error, render, s};
use sinew_capi::*;
use std::ptr::{null, null_mut};

const EXTRAS: &str = r#"{
  "cages": [
    { "name": "belly", "slot": "torso", "drive": "bones", "bones": ["torso"],
      "loops": [ [[-60, 40], [60, 40], [60, 200], [-60, 200]] ] },
    { "name": "pad", "slot": "torso", "drive": "host", "mode": "offset",
      "loops": [ [[-80, 20], [90, 20], [0, 260]] ] }
  ]
}"#;

fn cage_points(c: *mut SinewCharacter, k: u32) -> Vec<f32> {
    let mut len = 0;
    assert_eq!(
        sinew_character_cage_points(c, k, null_mut(), 0, &mut len),
        SinewStatus::BufferTooSmall
    );
    let mut v = vec![0.0; len];
    assert_eq!(
        sinew_character_cage_points(c, k, v.as_mut_ptr(), v.len(), &mut len),
        SinewStatus::Ok,
        "{}",
        last_error()
    );
    v
}

#[test]
fn cages_through_the_abi_match_the_facade() {
    let dir = std::env::temp_dir().join(format!("sinew-capi-cages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ex = dir.join("cages.extras.json");
    std::fs::write(&ex, EXTRAS).expect("write extras");
    let skel = sinew_testutil::workspace_root().join("examples/stickbot/stickbot.json");
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
    let mut rust = sinew_formats::load(&skel, &options)
        .expect("Rust load")
        .character();
    let c = character(rig);

    let mut n = 0;
    assert_eq!(sinew_character_cage_count(c, &mut n), SinewStatus::Ok);
    assert_eq!(n, 2);
    let (name, len) = s("pad");
    let mut k = 9;
    assert_eq!(
        sinew_character_find_cage(c, name, len, &mut k),
        SinewStatus::Ok
    );
    assert_eq!(k, 1);
    let mut view = SinewStringView {
        ptr: null(),
        len: 0,
    };
    assert_eq!(sinew_character_cage_name(c, 0, &mut view), SinewStatus::Ok);
    // SAFETY: the library's view of a name that lives as long as the character.
    let bytes = unsafe { std::slice::from_raw_parts(view.ptr.cast::<u8>(), view.len) };
    assert_eq!(bytes, b"belly");
    // Before any update the cages have not run.
    let mut len = 0;
    assert_eq!(
        sinew_character_cage_points(c, 0, null_mut(), 0, &mut len),
        SinewStatus::NotFound
    );

    let (walk, wl) = s("walk");
    assert_eq!(
        sinew_character_set_animation(c, 0, walk, wl, true),
        SinewStatus::Ok
    );
    rust.set_animation(0, "walk", true).expect("walk");
    for f in 0..60 {
        let mut pad = [-80.0f32, 20.0, 90.0, 20.0, 0.0, 260.0];
        pad[4] = (f as f32 * 0.2).sin() * 15.0;
        assert_eq!(
            sinew_character_set_cage_points(c, 1, pad.as_ptr(), pad.len()),
            SinewStatus::Ok,
            "{}",
            last_error()
        );
        rust.cage_points_mut(1).expect("pad").copy_from_slice(&pad);
        assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
        rust.update(1.0 / 60.0);
        for k in 0..2 {
            let want = rust.cage_world(k as usize).expect("ran").1.to_vec();
            assert_eq!(cage_points(c, k), want, "cage {k}, frame {f}");
        }
        assert_eq!(render(c).positions, rust.draw_list().positions, "frame {f}");
    }

    // Hostile arguments.
    let three = [0.0f32; 3];
    assert_eq!(
        sinew_character_set_cage_points(c, 1, three.as_ptr(), 3),
        SinewStatus::InvalidArgument
    );
    assert!(
        last_error().contains("3 floats for a cage of 6"),
        "{}",
        last_error()
    );
    let nan = [f32::NAN; 6];
    assert_eq!(
        sinew_character_set_cage_points(c, 1, nan.as_ptr(), 6),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_set_cage_points(c, 7, nan.as_ptr(), 6),
        SinewStatus::InvalidArgument
    );
    assert!(last_error().contains("cage index 7 out of range (2 cages)"));
    assert_eq!(
        sinew_character_set_cage_points(c, 1, null(), 6),
        SinewStatus::NullArgument
    );
    let (bad, bl) = s("nope");
    assert_eq!(
        sinew_character_find_cage(c, bad, bl, &mut k),
        SinewStatus::NotFound
    );
    assert!(last_error().contains("no cage `nope`"));
    assert_eq!(
        sinew_character_cage_name(c, 2, &mut view),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_cage_count(null_mut(), &mut n),
        SinewStatus::InvalidHandle
    );
    assert_eq!(sinew_character_destroy(c), SinewStatus::Ok);
    assert_eq!(sinew_rig_destroy(rig), SinewStatus::Ok);
}

#[test]
fn shape_weights_through_the_abi() {
    let dir = std::env::temp_dir().join(format!("sinew-capi-shapes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ex = dir.join("shapes.extras.json");
    let mut offsets = vec![[0.0, 0.0]; 15];
    offsets[3] = [5.0, 1.0];
    let text = format!(
        r#"{{"shapes": [{{"name": "breath", "slot": "torso",
            "examples": [{{"name": "in", "offsets": {}}}]}}]}}"#,
        serde_json::to_string(&offsets).expect("json")
    );
    std::fs::write(&ex, text).expect("write extras");
    let skel = sinew_testutil::workspace_root().join("examples/stickbot/stickbot.json");
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
    let c = character(rig);
    assert_eq!(sinew_character_update(c, 0.0), SinewStatus::Ok);
    let before = render(c).positions;
    let ((sn, sl), (en, el)) = (s("breath"), s("in"));
    assert_eq!(
        sinew_character_set_shape_weight(c, sn, sl, en, el, 0.5),
        SinewStatus::Ok,
        "{}",
        last_error()
    );
    assert_eq!(sinew_character_update(c, 0.0), SinewStatus::Ok);
    let after = render(c).positions;
    let moved: Vec<usize> = (0..before.len())
        .filter(|&i| before[i] != after[i])
        .collect();
    assert_eq!(moved.len(), 2, "one vertex moved: {moved:?}");
    let (bn, bl) = s("nope");
    assert_eq!(
        sinew_character_set_shape_weight(c, bn, bl, en, el, 0.5),
        SinewStatus::NotFound
    );
    assert!(last_error().contains("no shape set `nope`"));
    assert_eq!(
        sinew_character_set_shape_weight(c, sn, sl, bn, bl, 0.5),
        SinewStatus::NotFound
    );
    assert_eq!(
        sinew_character_set_shape_weight(c, sn, sl, en, el, f64::NAN),
        SinewStatus::InvalidArgument
    );
    assert_eq!(sinew_character_destroy(c), SinewStatus::Ok);
    assert_eq!(sinew_rig_destroy(rig), SinewStatus::Ok);
}
