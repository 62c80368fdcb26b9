//! DragonBones rigs through the ABI: a small armature written here (from memory and from
//! files: same poses; its pose, page and UVs checked against what the file says), and the
//! shared `dragon_boy` fixture posed bit for bit like `sinew_formats::load_dragonbones` and
//! the facade, by path and from memory.

use crate::common;

use common::*;
use sinew_capi::*;
use std::path::{Path, PathBuf};
use std::ptr::{null, null_mut};

/// One 40-unit bone `arm` at (5, -10) (y down) under `root`, a 16 x 8 image `box` centred
/// 20 units along it, and `spin`: the arm turns from 0 to 90 degrees over 30 frames at 30
/// fps (linear), looping.
pub(crate) const SKE: &str = r#"{
  "name": "tiny", "version": "5.5", "frameRate": 30,
  "armature": [{
    "type": "Armature", "name": "tiny", "frameRate": 30,
    "bone": [
      { "name": "root" },
      { "name": "arm", "parent": "root", "length": 40, "transform": { "x": 5, "y": -10 } }
    ],
    "slot": [{ "name": "box", "parent": "arm" }],
    "skin": [{ "slot": [{ "name": "box",
      "display": [{ "name": "box", "type": "image", "transform": { "x": 20 } }] }] }],
    "animation": [{ "name": "spin", "duration": 30, "playTimes": 0,
      "bone": [{ "name": "arm", "frame": [
        { "duration": 30, "tweenEasing": 0, "transform": {} },
        { "duration": 0, "transform": { "skX": 90, "skY": 90 } } ] }] }]
  }]
}"#;

/// The page: 64 x 32 pixels, the box packed at the top-left corner.
pub(crate) const TEX: &str = r#"{ "imagePath": "tiny_tex.png", "width": 64, "height": 32,
  "SubTexture": [{ "name": "box", "x": 0, "y": 0, "width": 16, "height": 8 }] }"#;

pub(crate) fn load_memory(ske: &str, tex: &str, armature: &str) -> (SinewStatus, *mut SinewRig) {
    let mut rig = null_mut();
    let st = sinew_rig_load_dragonbones_memory(
        ske.as_ptr().cast(),
        ske.len(),
        tex.as_ptr().cast(),
        tex.len(),
        armature.as_ptr().cast(),
        armature.len(),
        &mut rig,
    );
    (st, rig)
}

fn load_path(ske: &Path, tex: &Path, armature: &str) -> (SinewStatus, *mut SinewRig) {
    let (ske, tex) = (ske.to_str().expect("utf-8"), tex.to_str().expect("utf-8"));
    let mut rig = null_mut();
    let st = sinew_rig_load_dragonbones(
        ske.as_ptr().cast(),
        ske.len(),
        tex.as_ptr().cast(),
        tex.len(),
        armature.as_ptr().cast(),
        armature.len(),
        &mut rig,
    );
    (st, rig)
}

fn play(c: *mut SinewCharacter, anim: &str) {
    let (a, l) = s(anim);
    assert_eq!(
        sinew_character_set_animation(c, 0, a, l, true),
        SinewStatus::Ok,
        "{}",
        last_error()
    );
}

#[test]
fn a_small_armature_loads_from_memory_and_files_and_poses_as_written() {
    let (st, rig) = load_memory(SKE, TEX, "");
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let mut info = SinewRigInfo::default();
    assert_eq!(sinew_rig_info(rig, &mut info), SinewStatus::Ok);
    assert_eq!(
        (
            info.bones,
            info.slots,
            info.animations,
            info.pages,
            info.is_puppet
        ),
        (2, 1, 1, 1, 0)
    );
    let mut page = std::mem::MaybeUninit::<SinewPageInfo>::uninit();
    assert_eq!(sinew_rig_page(rig, 0, page.as_mut_ptr()), SinewStatus::Ok);
    // SAFETY: filled by the successful call.
    let page = unsafe { page.assume_init() };
    // SAFETY: the view points into the live rig.
    let name = unsafe { std::slice::from_raw_parts(page.name.ptr.cast::<u8>(), page.name.len) };
    assert_eq!(
        (name, page.width, page.height),
        (&b"tiny_tex.png"[..], 64, 32)
    );

    // Setup pose: the box is centred at (25, -10) y down, so (25, 10) in the y-up output,
    // 16 x 8 units; its UVs cover the packed quarter-by-quarter rectangle.
    let c = character(rig);
    assert_eq!(sinew_character_update(c, 0.0), SinewStatus::Ok);
    let r = render(c);
    check_batches(&r);
    assert_eq!((r.command_count, r.batches.len()), (1, 1));
    assert_eq!(r.batches[0].page, 0);
    let xs: Vec<f32> = r.positions.iter().step_by(2).copied().collect();
    let ys: Vec<f32> = r.positions.iter().skip(1).step_by(2).copied().collect();
    let span = |v: &[f32]| {
        let lo = v.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        (lo, hi)
    };
    let near = |got: (f32, f32), want: (f32, f32)| {
        (got.0 - want.0).abs() < 1e-4 && (got.1 - want.1).abs() < 1e-4
    };
    assert!(near(span(&xs), (17.0, 33.0)), "x span {:?}", span(&xs));
    assert!(near(span(&ys), (6.0, 14.0)), "y span {:?}", span(&ys));
    let us: Vec<f32> = r.uvs.iter().step_by(2).copied().collect();
    let vs: Vec<f32> = r.uvs.iter().skip(1).step_by(2).copied().collect();
    assert!(near(span(&us), (0.0, 0.25)), "u span {:?}", span(&us));
    assert!(near(span(&vs), (0.0, 0.25)), "v span {:?}", span(&vs));

    // Half way through `spin` the arm has turned 45 degrees.
    play(c, "spin");
    for _ in 0..30 {
        assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
    }
    let mut w = SinewWorldTransform::default();
    let (b, bl) = s("arm");
    assert_eq!(
        sinew_character_bone_world(c, b, bl, &mut w),
        SinewStatus::Ok
    );
    let h = std::f64::consts::FRAC_1_SQRT_2;
    assert!(
        (w.a - h).abs() < 1e-6 && (w.c - h).abs() < 1e-6 && w.x == 5.0 && w.y == -10.0,
        "arm world {w:?}"
    );

    // The same files on disk load to the same rig: same poses frame by frame.
    let dir = std::env::temp_dir().join(format!("sinew-capi-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (ske, tex) = (dir.join("tiny_ske.json"), dir.join("tiny_tex.json"));
    std::fs::write(&ske, SKE).expect("write");
    std::fs::write(&tex, TEX).expect("write");
    let (st, by_path) = load_path(&ske, &tex, "tiny");
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let (a, m) = (character(by_path), character(rig));
    for x in [a, m] {
        play(x, "spin");
    }
    for _ in 0..45 {
        for x in [a, m] {
            assert_eq!(sinew_character_update(x, 1.0 / 60.0), SinewStatus::Ok);
        }
        assert!(worlds(a) == worlds(m), "path and memory loads differ");
    }
    for x in [a, m, c] {
        sinew_character_destroy(x);
    }
    sinew_rig_destroy(by_path);
    sinew_rig_destroy(rig);

    // Misuse: an unknown armature, a display the atlas lacks, a tex without a size, bad
    // files, bad UTF-8, a null out-pointer.
    let (st, _) = load_memory(SKE, TEX, "nope");
    assert_eq!(st, SinewStatus::LoadFailed);
    assert!(
        last_error().contains("no armature named `nope`"),
        "{}",
        last_error()
    );
    let (st, _) = load_memory(SKE, &TEX.replace("\"box\"", "\"crate\""), "");
    assert_eq!(st, SinewStatus::LoadFailed);
    assert!(last_error().contains("box"), "{}", last_error());
    let (st, _) = load_memory(SKE, &TEX.replace("\"width\": 64, \"height\": 32,", ""), "");
    assert_eq!(st, SinewStatus::LoadFailed, "{}", last_error());
    assert!(last_error().contains("<tex>"), "{}", last_error());
    let (st, _) = load_memory(&SKE.replace("\"5.5\"", "\"3.0\""), TEX, "");
    assert_eq!(st, SinewStatus::LoadFailed);
    let (st, _) = load_path(&dir.join("missing_ske.json"), &tex, "");
    assert_eq!(st, SinewStatus::Io);
    assert!(
        last_error().contains("missing_ske.json"),
        "{}",
        last_error()
    );
    let bad = [0xffu8, 0xfe];
    let mut out = null_mut();
    assert_eq!(
        sinew_rig_load_dragonbones_memory(bad.as_ptr().cast(), 2, null(), 0, null(), 0, &mut out),
        SinewStatus::InvalidUtf8
    );
    assert_eq!(
        sinew_rig_load_dragonbones_memory(
            SKE.as_ptr().cast(),
            SKE.len(),
            null(),
            0,
            null(),
            0,
            null_mut()
        ),
        SinewStatus::NullArgument
    );
    // Untextured: no page, the batch draws white.
    let (st, untextured) = load_memory(SKE, "", "");
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let u = character(untextured);
    assert_eq!(sinew_character_update(u, 0.0), SinewStatus::Ok);
    assert_eq!(render(u).batches[0].page, SINEW_NONE);
    sinew_character_destroy(u);
    sinew_rig_destroy(untextured);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shared fixture dragon_boy: its `_ske.json` and `_tex.json` paths and the facade's
/// load of them, for a test with the fixture policy of `require_fixtures`.
fn dragon_boy(
    test: &str,
) -> Option<(
    PathBuf,
    PathBuf,
    sinew_formats::Asset,
    sinew_formats::dragonbones::DragonBonesRig,
)> {
    let dir = sinew_testutil::require_fixtures(test)?.join("dragonbones/dragon_boy");
    let (ske, tex) = (
        dir.join("dragon_boy_ske.json"),
        dir.join("dragon_boy_tex.json"),
    );
    let (asset, db) = sinew_formats::load_dragonbones(&ske, Some(&tex), None).expect("load");
    Some((ske, tex, asset, db))
}

#[test]
fn dragon_boy_poses_like_the_facade_bit_for_bit() {
    let Some((ske, tex, asset, db)) = dragon_boy("dragon_boy_poses_like_the_facade") else {
        return;
    };
    let (st, by_path) = load_path(&ske, &tex, "");
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let (ske_text, tex_text) = (
        std::fs::read_to_string(&ske).expect("read"),
        std::fs::read_to_string(&tex).expect("read"),
    );
    let (st, by_memory) = load_memory(&ske_text, &tex_text, &db.armature);
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let mut info = SinewRigInfo::default();
    assert_eq!(sinew_rig_info(by_path, &mut info), SinewStatus::Ok);
    assert_eq!(info.animations as usize, db.clips.len());
    assert_eq!(info.bones as usize, db.file_bone_order.len());
    let mut frames = 0;
    for clip in &db.clips {
        let mut rust = asset.character();
        rust.set_animation(0, &clip.name, true).expect("anim");
        let (a, m) = (character(by_path), character(by_memory));
        for x in [a, m] {
            play(x, &clip.name);
        }
        for f in 0..60 {
            rust.update(1.0 / 60.0);
            for x in [a, m] {
                assert_eq!(sinew_character_update(x, 1.0 / 60.0), SinewStatus::Ok);
            }
            let want = rust_worlds(&rust);
            assert!(
                worlds(a) == want,
                "{}: path load differs at frame {f}",
                clip.name
            );
            assert!(
                worlds(m) == want,
                "{}: memory load differs at frame {f}",
                clip.name
            );
            if f % 15 == 0 {
                let r = render(a);
                check_batches(&r);
                let list = rust.draw_list();
                let want: Vec<u32> = list
                    .commands
                    .iter()
                    .flat_map(|c| list.command_positions(c).iter().map(|p| p.to_bits()))
                    .collect();
                let got: Vec<u32> = r.positions.iter().map(|p| p.to_bits()).collect();
                assert!(
                    got == want,
                    "{}: render vertices differ at frame {f}",
                    clip.name
                );
                assert!(render(m).positions == r.positions);
            }
            frames += 1;
        }
        sinew_character_destroy(a);
        sinew_character_destroy(m);
    }
    println!(
        "dragon_boy: {} animations, {frames} frames equal the facade's",
        db.clips.len()
    );
    sinew_rig_destroy(by_path);
    sinew_rig_destroy(by_memory);
}

/// The arm's world rotation (degrees) of a C character.
fn arm_degrees(c: *mut SinewCharacter) -> f64 {
    let mut w = SinewWorldTransform::default();
    let (b, bl) = s("arm");
    assert_eq!(
        sinew_character_bone_world(c, b, bl, &mut w),
        SinewStatus::Ok
    );
    w.c.atan2(w.a).to_degrees()
}

/// How many plays a rotation sequence shows: one, plus one per wrap back to the start.
fn plays(degrees: &[f64]) -> usize {
    1 + degrees.windows(2).filter(|w| w[1] < w[0] - 1.0).count()
}

#[test]
fn dragonbones_play_times_play_the_same_from_c_as_from_rust() {
    // `spin` (1 s) with playTimes 2: two plays, then the end (90 degrees) holds.
    let ske = SKE.replace("\"playTimes\": 0", "\"playTimes\": 2");
    let (st, rig) = load_memory(&ske, "", "");
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let none = |_: &str| -> std::io::Result<Vec<u8>> {
        Err(std::io::Error::from(std::io::ErrorKind::NotFound))
    };
    let options = sinew_formats::LoadOptions {
        atlas: sinew_formats::Companion::Without,
        ..Default::default()
    };
    let asset =
        sinew_formats::load_bytes("<ske>", ske.as_bytes(), &none, &options).expect("Rust load");
    let (spin, sl) = s("spin");
    // (C play_times, Rust call, plays expected over 4 s): the file's count, a count given,
    // and (0) set_animation looping, which ignores the file's count: four plays in 4 s.
    type Start = fn(&mut sinew::Character);
    let cases: [(i32, Start, usize); 3] = [
        (-1, |r| assert!(r.play(0, "spin").is_ok()), 2),
        (
            3,
            |r| assert!(r.fade_in(0, "spin", None, Some(3)).is_ok()),
            3,
        ),
        (0, |r| assert!(r.play(0, "spin").is_ok()), 0),
    ];
    for (play_times, start, want) in cases {
        let c = character(rig);
        let mut rust = asset.character();
        if play_times == 0 {
            // set_animation looping plays forever whatever the file says.
            assert_eq!(
                sinew_character_set_animation(c, 0, spin, sl, true),
                SinewStatus::Ok
            );
            rust.set_animation(0, "spin", true).expect("set_animation");
        } else {
            assert_eq!(
                sinew_character_play(c, 0, spin, sl, -1.0, play_times),
                SinewStatus::Ok,
                "{}",
                last_error()
            );
            start(&mut rust);
        }
        let mut seen = Vec::new();
        for f in 0..240 {
            assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
            rust.update(1.0 / 60.0);
            assert!(
                worlds(c) == rust_worlds(&rust),
                "play_times {play_times}: frame {f}"
            );
            seen.push(arm_degrees(c));
        }
        let mut info = std::mem::MaybeUninit::<SinewTrackInfo>::uninit();
        assert_eq!(
            sinew_character_track(c, 0, info.as_mut_ptr()),
            SinewStatus::Ok
        );
        // SAFETY: filled by the successful call.
        let info = unsafe { info.assume_init() };
        if play_times == 0 {
            assert_eq!((plays(&seen), info.play_times, info.looping), (4, 0, 1));
        } else {
            assert_eq!(plays(&seen), want, "play_times {play_times}");
            assert_eq!(info.play_times as usize, want);
            assert_eq!((info.looping, info.complete), (0, 1));
            let end = *seen.last().expect("frames");
            assert!((end - 90.0).abs() < 1e-6, "the end holds: {end}");
        }
        sinew_character_destroy(c);
    }

    // A fade time and a play count given; hostile arguments.
    let c = character(rig);
    assert_eq!(
        sinew_character_play(c, 0, spin, sl, 0.25, 1),
        SinewStatus::Ok
    );
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(
            sinew_character_play(c, 0, spin, sl, bad, 1),
            SinewStatus::InvalidArgument
        );
    }
    assert_eq!(
        sinew_character_play(c, 256, spin, sl, -1.0, -1),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_character_play(c, 0, null(), 3, -1.0, -1),
        SinewStatus::NullArgument
    );
    assert_eq!(
        sinew_character_play(c, 0, [0xffu8].as_ptr().cast(), 1, -1.0, -1),
        SinewStatus::InvalidUtf8
    );
    let (bad, bl) = s("spinn");
    assert_eq!(
        sinew_character_play(c, 0, bad, bl, -1.0, i32::MIN),
        SinewStatus::NotFound
    );
    assert_eq!(
        last_error(),
        "animation not found: `spinn`; this rig's animations: `spin`"
    );
    sinew_character_destroy(c);
    assert_eq!(
        sinew_character_play(c, 0, spin, sl, -1.0, -1),
        SinewStatus::InvalidHandle
    );
    sinew_rig_destroy(rig);
}

#[test]
fn dragon_boy_plays_its_play_times_from_c_as_the_facade() {
    let Some((ske, tex, asset, db)) = dragon_boy("dragon_boy_plays_its_play_times") else {
        return;
    };
    let (st, rig) = load_path(&ske, &tex, "");
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let c = character(rig);
    let mut rust = asset.character();
    // Every clip in turn, each with its own playTimes and fadeInTime, 1.5 s each.
    for clip in &db.clips {
        let (n, l) = s(&clip.name);
        assert_eq!(
            sinew_character_play(c, 0, n, l, -1.0, -1),
            SinewStatus::Ok,
            "{}",
            last_error()
        );
        rust.play(0, &clip.name).expect("play");
        for f in 0..90 {
            assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
            rust.update(1.0 / 60.0);
            assert!(worlds(c) == rust_worlds(&rust), "{}: frame {f}", clip.name);
        }
    }
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}

/// `sinew_character_set_track_time_scale` with -1 plays a clip backwards: `spin` (0 to 90
/// degrees over 1 s, looping) 0.25 s back from its start is where it is 0.75 s forward, and
/// the arm's world transform says so (its closed form: a 67.5 degree turn).
#[test]
fn a_negative_track_time_scale_plays_backwards() {
    let (st, rig) = load_memory(SKE, TEX, "");
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let (back, fwd) = (character(rig), character(rig));
    assert_eq!(
        sinew_character_set_track_time_scale(back, 0, -1.0),
        SinewStatus::InvalidArgument,
        "nothing plays yet"
    );
    play(back, "spin");
    play(fwd, "spin");
    assert_eq!(
        sinew_character_set_track_time_scale(back, 0, -1.0),
        SinewStatus::Ok
    );
    assert_eq!(
        sinew_character_set_track_time_scale(back, 0, f64::NAN),
        SinewStatus::InvalidArgument
    );
    for _ in 0..15 {
        assert_eq!(sinew_character_update(back, 1.0 / 60.0), SinewStatus::Ok);
    }
    for _ in 0..45 {
        assert_eq!(sinew_character_update(fwd, 1.0 / 60.0), SinewStatus::Ok);
    }
    let (arm, l) = s("arm");
    let (mut wb, mut wf) = (
        SinewWorldTransform::default(),
        SinewWorldTransform::default(),
    );
    assert_eq!(
        sinew_character_bone_world(back, arm, l, &mut wb),
        SinewStatus::Ok
    );
    assert_eq!(
        sinew_character_bone_world(fwd, arm, l, &mut wf),
        SinewStatus::Ok
    );
    let turn = 67.5f64.to_radians();
    for (got, want) in [
        (wb.a, wf.a),
        (wb.b, wf.b),
        (wb.c, wf.c),
        (wb.d, wf.d),
        (wb.a, turn.cos()),
        (wb.c, turn.sin()),
    ] {
        assert!((got - want).abs() < 1e-4, "{got} vs {want}: {wb:?}");
    }
    sinew_character_destroy(back);
    sinew_character_destroy(fwd);
    sinew_rig_destroy(rig);
}

/// DragonBones layers from C: `tilt` (arm held at 40 degrees) fades in over 0.5 s on track 1
/// while `spin` (0 to 90 degrees over 1 s) plays on track 0. After 0.25 s `tilt` weighs 0.5
/// and `spin` is at 22.5 degrees: on a higher layer (track 1's own) `tilt` takes its half
/// first and `spin` gets the other half (31.25 degrees); with both tracks on layer 0 their
/// weights add (42.5 degrees).
#[test]
fn track_layers_share_a_bones_weight_from_c() {
    let tilt = r#"{ "name": "tilt", "duration": 30, "playTimes": 0,
      "bone": [{ "name": "arm", "frame": [
        { "duration": 30, "transform": { "skX": 40, "skY": 40 } },
        { "duration": 0, "transform": { "skX": 40, "skY": 40 } } ] }] }]"#;
    let end = r#""skY": 90 } } ] }] }]"#;
    let ske = SKE.replace(end, &format!("{} }}, {tilt}", &end[..end.len() - 3]));
    let (st, rig) = load_memory(&ske, TEX, "");
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let angle = |layer: Option<i32>| {
        let c = character(rig);
        if let Some(l) = layer {
            assert_eq!(sinew_character_set_track_layer(c, 1, l), SinewStatus::Ok);
        }
        let (spin, sl) = s("spin");
        let (tilt, tl) = s("tilt");
        assert_eq!(
            sinew_character_play(c, 0, spin, sl, 0.0, 0),
            SinewStatus::Ok
        );
        assert_eq!(
            sinew_character_play(c, 1, tilt, tl, 0.5, 0),
            SinewStatus::Ok
        );
        for _ in 0..15 {
            assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
        }
        let (arm, l) = s("arm");
        let mut w = SinewWorldTransform::default();
        assert_eq!(
            sinew_character_bone_world(c, arm, l, &mut w),
            SinewStatus::Ok
        );
        sinew_character_destroy(c);
        w.c.atan2(w.a).to_degrees().abs()
    };
    let layered = angle(None);
    assert!((layered - 31.25).abs() < 1e-9, "{layered}");
    let same = angle(Some(0));
    assert!((same - 42.5).abs() < 1e-9, "{same}");
    let c = character(rig);
    assert_eq!(
        sinew_character_set_track_layer(c, 256, 1),
        SinewStatus::InvalidArgument
    );
    // A track fading out (fadeOutMode All / SameLayer on the others): `tilt` alone on a
    // higher layer, faded out over 0.5 s from 1, leaves half its weight at 0.25 s (20
    // degrees) with its playhead still, and nothing once the fade has run.
    let (tilt, tl) = s("tilt");
    assert_eq!(
        sinew_character_fade_out_track(c, 1, 0.5),
        SinewStatus::InvalidArgument,
        "nothing plays on track 1"
    );
    assert_eq!(
        sinew_character_play(c, 1, tilt, tl, 0.0, 0),
        SinewStatus::Ok
    );
    assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
    assert_eq!(
        sinew_character_fade_out_track(c, 1, f64::NAN),
        SinewStatus::InvalidArgument
    );
    assert_eq!(sinew_character_fade_out_track(c, 1, 0.5), SinewStatus::Ok);
    let (arm, l) = s("arm");
    let mut w = SinewWorldTransform::default();
    for _ in 0..15 {
        assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
    }
    assert_eq!(
        sinew_character_bone_world(c, arm, l, &mut w),
        SinewStatus::Ok
    );
    let half = w.c.atan2(w.a).to_degrees().abs();
    assert!((half - 20.0).abs() < 1e-9, "{half}");
    for _ in 0..30 {
        assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
    }
    assert_eq!(
        sinew_character_bone_world(c, arm, l, &mut w),
        SinewStatus::Ok
    );
    assert!(w.c.atan2(w.a).abs() < 1e-12, "faded out: {w:?}");
    assert_eq!(
        sinew_character_set_track_layer(null_mut(), 0, 1),
        SinewStatus::InvalidHandle
    );
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}
