//! The ABI against the Rust facade: poses through `sinew_*` equal `sinew::Character`'s bit
//! for bit on every case of the shared Spine goldens (bone world transforms and render
//! vertices, frame by frame), `update_many` on 1-4 threads equals one-by-one updates, the
//! render batches cover every command's triangles, and misuse gives statuses.

use crate::common;

use common::{last_error, rust_worlds, s, worlds};
use sinew_capi::*;
use std::ffi::c_char;
use std::path::Path;
use std::ptr::{null, null_mut};

fn load(skel: &Path, atlas: Option<&Path>) -> *mut SinewRig {
    let sk = skel.to_str().expect("utf-8 path");
    let at = atlas.map_or("", |a| a.to_str().expect("utf-8 path"));
    let mut rig = null_mut();
    let st = sinew_rig_load_spine(
        sk.as_ptr().cast(),
        sk.len(),
        at.as_ptr().cast(),
        at.len(),
        null(),
        0,
        &mut rig,
    );
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    rig
}

fn render_positions(c: *mut SinewCharacter) -> (Vec<u32>, usize, usize) {
    let mut d = std::mem::MaybeUninit::<SinewRenderData>::uninit();
    assert_eq!(sinew_character_render(c, d.as_mut_ptr()), SinewStatus::Ok);
    // SAFETY: the call succeeded and filled `d`.
    let d = unsafe { d.assume_init() };
    // SAFETY: the library's buffers hold `vertex_count` vertices until the next call.
    let pos = unsafe { std::slice::from_raw_parts(d.positions, d.vertex_count * 2) };
    (
        pos.iter().map(|p| p.to_bits()).collect(),
        d.batch_count,
        d.command_count,
    )
}

fn rust_positions(c: &mut sinew::Character) -> Vec<u32> {
    let list = c.draw_list();
    list.commands
        .iter()
        .flat_map(|cmd| list.command_positions(cmd).iter().map(|p| p.to_bits()))
        .collect()
}

struct Case {
    skeleton: String,
    anim: String,
    times: Vec<f64>,
    skins: Vec<String>,
    from: Option<(String, f64, f64)>,
}

fn cases(golden: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(golden.join("MANIFEST.json")).expect("manifest");
    let m: serde_json::Value = serde_json::from_str(&text).expect("manifest JSON");
    let mut out = Vec::new();
    for c in m["cases"].as_array().expect("cases") {
        let args: Vec<String> = c["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(|a| a.as_str().unwrap_or("").to_owned())
            .collect();
        let arg = |k: &str| {
            args.iter()
                .position(|a| a == k)
                .and_then(|i| args.get(i + 1))
                .cloned()
        };
        out.push(Case {
            skeleton: c["skeleton"].as_str().expect("skeleton").to_owned(),
            anim: arg("--anim").expect("--anim"),
            times: c["times"]
                .as_array()
                .expect("times")
                .iter()
                .filter_map(|t| t.as_f64())
                .collect(),
            skins: arg("--skin")
                .map(|s| s.split(',').map(str::to_owned).collect())
                .unwrap_or_default(),
            from: arg("--from").map(|f| {
                let num = |k| arg(k).and_then(|v| v.parse().ok()).unwrap_or(0.0);
                (f, num("--at"), num("--mix"))
            }),
        });
    }
    out
}

#[test]
fn poses_equal_the_facade_bit_for_bit_on_the_spine_goldens() {
    let Some(spine) = sinew_testutil::require_spine_fixtures(
        "poses_equal_the_facade_bit_for_bit_on_the_spine_goldens",
    ) else {
        return;
    };
    let all = cases(&spine.join("golden"));
    assert!(!all.is_empty());
    let mut frames_checked = 0;
    for case in &all {
        let skel = spine.join(&case.skeleton);
        let asset = sinew_formats::load_spine(&skel, None, &Default::default()).expect("load");
        let mut rust = asset.character();
        let names: Vec<&str> = case.skins.iter().map(String::as_str).collect();
        rust.set_skins(&names).expect("skins");
        rust.set_slots_to_setup_pose();
        rust.set_to_setup_pose();

        let rig = load(&skel, None);
        let mut c = null_mut();
        assert_eq!(sinew_character_create(rig, &mut c), SinewStatus::Ok);
        let skin_args: Vec<SinewStr> = case
            .skins
            .iter()
            .map(|n| SinewStr {
                ptr: n.as_ptr().cast(),
                len: n.len(),
            })
            .collect();
        assert_eq!(
            sinew_character_set_skins(c, skin_args.as_ptr(), skin_args.len()),
            SinewStatus::Ok,
            "{}",
            last_error()
        );
        assert_eq!(sinew_character_set_to_setup_pose(c, true), SinewStatus::Ok);
        assert_eq!(sinew_character_set_to_setup_pose(c, false), SinewStatus::Ok);
        let (a, al) = s(&case.anim);
        match &case.from {
            Some((from, at, mix)) => {
                rust.set_animation(0, from, true).expect("from");
                let id = rust.add_animation(0, &case.anim, true, *at).expect("anim");
                if let Some(e) = rust.state_mut().entry_mut(id) {
                    e.mix_duration = *mix;
                }
                let (f, fl) = s(from);
                assert_eq!(
                    sinew_character_set_animation(c, 0, f, fl, true),
                    SinewStatus::Ok
                );
                assert_eq!(
                    sinew_character_add_animation(c, 0, a, al, true, *at, *mix),
                    SinewStatus::Ok
                );
            }
            None => {
                rust.set_animation(0, &case.anim, true).expect("anim");
                assert_eq!(
                    sinew_character_set_animation(c, 0, a, al, true),
                    SinewStatus::Ok
                );
            }
        }
        let last = case.times.iter().copied().fold(0.0, f64::max);
        let frames = (last * 60.0).round() as usize;
        for f in 0..frames {
            rust.update(1.0 / 60.0);
            assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
            assert!(
                worlds(c) == rust_worlds(&rust),
                "{}: bone worlds differ at frame {f}",
                case.skeleton
            );
            if f % 10 == 0 || f + 1 == frames {
                let (got, _, _) = render_positions(c);
                assert!(
                    got == rust_positions(&mut rust),
                    "{}: render vertices differ at frame {f}",
                    case.skeleton
                );
            }
            let mut n = 0;
            assert_eq!(sinew_character_event_count(c, &mut n), SinewStatus::Ok);
            assert_eq!(n as usize, rust.events().len());
            frames_checked += 1;
        }
        assert_eq!(sinew_character_destroy(c), SinewStatus::Ok);
        assert_eq!(sinew_rig_destroy(rig), SinewStatus::Ok);
    }
    println!(
        "{} cases, {frames_checked} frames: ABI poses equal the facade's bit for bit",
        all.len()
    );
}

fn stickbot() -> *mut SinewRig {
    let root = sinew_testutil::workspace_root().join("examples/stickbot");
    load(
        &root.join("stickbot.json"),
        Some(&root.join("stickbot.atlas")),
    )
}

#[test]
fn update_many_equals_one_by_one_on_any_thread_count() {
    let rig = stickbot();
    let make = |n: usize| -> Vec<*mut SinewCharacter> {
        (0..n)
            .map(|i| {
                let mut c = null_mut();
                assert_eq!(sinew_character_create(rig, &mut c), SinewStatus::Ok);
                let (a, l) = s("walk");
                assert_eq!(
                    sinew_character_set_animation(c, 0, a, l, true),
                    SinewStatus::Ok
                );
                assert_eq!(sinew_character_update(c, i as f64 * 0.037), SinewStatus::Ok);
                c
            })
            .collect()
    };
    let reference = make(37);
    for _ in 0..20 {
        for &c in &reference {
            assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
        }
    }
    for threads in [1, 2, 3, 4, 0] {
        let many = make(37);
        for _ in 0..20 {
            assert_eq!(
                sinew_update_many(many.as_ptr(), many.len(), 1.0 / 60.0, threads),
                SinewStatus::Ok
            );
        }
        for (a, b) in many.iter().zip(&reference) {
            assert!(
                worlds(*a) == worlds(*b),
                "threads {threads}: update_many differs"
            );
        }
        for c in many {
            sinew_character_destroy(c);
        }
    }
    // Misuse: a destroyed handle anywhere fails the call before anything runs.
    let mut bad = make(3);
    let dead = bad[1];
    sinew_character_destroy(dead);
    assert_eq!(
        sinew_update_many(bad.as_ptr(), bad.len(), 0.1, 2),
        SinewStatus::InvalidHandle
    );
    bad[1] = bad[0];
    assert_eq!(
        sinew_update_many(bad.as_ptr(), bad.len(), 0.1, 2),
        SinewStatus::InvalidArgument
    );
    assert_eq!(
        sinew_update_many(null(), 3, 0.1, 2),
        SinewStatus::NullArgument
    );
    assert_eq!(sinew_update_many(null(), 0, 0.1, 2), SinewStatus::Ok);
    assert_eq!(
        sinew_update_many(bad.as_ptr(), bad.len(), 0.1, 1000),
        SinewStatus::InvalidArgument
    );
    for c in reference.into_iter().chain(bad) {
        sinew_character_destroy(c);
    }
    sinew_rig_destroy(rig);
}

#[test]
fn batches_merge_commands_and_cover_every_triangle() {
    let rig = stickbot();
    let mut c = null_mut();
    assert_eq!(sinew_character_create(rig, &mut c), SinewStatus::Ok);
    let (a, l) = s("walk");
    assert_eq!(
        sinew_character_set_animation(c, 0, a, l, true),
        SinewStatus::Ok
    );
    assert_eq!(sinew_character_update(c, 0.3), SinewStatus::Ok);
    let mut d = std::mem::MaybeUninit::<SinewRenderData>::uninit();
    assert_eq!(sinew_character_render(c, d.as_mut_ptr()), SinewStatus::Ok);
    // SAFETY: filled by the successful call.
    let d = unsafe { d.assume_init() };
    assert!(d.batch_count >= 1 && d.batch_count <= d.command_count);
    // SAFETY: library buffers valid until the next call on `c`.
    let batches = unsafe { std::slice::from_raw_parts(d.batches, d.batch_count) };
    let idx = unsafe { std::slice::from_raw_parts(d.indices, d.index_count) };
    let merged: u32 = batches.iter().map(|b| b.command_count).sum();
    assert_eq!(merged as usize, d.command_count);
    for b in batches {
        assert!(b.vertex_count <= SINEW_MAX_BATCH_VERTICES);
        for &i in &idx[b.index_start as usize..(b.index_start + b.index_count) as usize] {
            assert!(u32::from(i) < b.vertex_count);
        }
    }
    println!(
        "stickbot walk: {} commands in {} batches",
        d.command_count, d.batch_count
    );
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}

#[test]
fn misuse_gives_statuses() {
    let rig = stickbot();
    let mut c = null_mut();
    assert_eq!(sinew_character_create(rig, &mut c), SinewStatus::Ok);
    // Wrong type, null, destroyed, foreign.
    assert_eq!(
        sinew_character_update(rig.cast(), 0.1),
        SinewStatus::WrongHandleType
    );
    assert_eq!(
        sinew_character_update(null_mut(), 0.1),
        SinewStatus::InvalidHandle
    );
    assert_eq!(
        sinew_character_update(std::ptr::without_provenance_mut(0xdead_beef), 0.1),
        SinewStatus::InvalidHandle
    );
    // Bad UTF-8 and unknown names.
    let bad = [0xffu8, 0xfe];
    assert_eq!(
        sinew_character_set_animation(c, 0, bad.as_ptr().cast(), 2, true),
        SinewStatus::InvalidUtf8
    );
    let (a, l) = s("no-such-anim");
    assert_eq!(
        sinew_character_set_animation(c, 0, a, l, true),
        SinewStatus::NotFound
    );
    assert!(last_error().contains("no-such-anim"), "{}", last_error());
    // Short buffers report the size needed.
    let mut len = 0;
    let mut tiny = [0 as c_char; 2];
    assert_eq!(
        sinew_last_error(tiny.as_mut_ptr(), tiny.len(), &mut len),
        SinewStatus::BufferTooSmall
    );
    assert!(len > 2);
    // Bad files.
    let (p, pl) = s("/no/such/file.json");
    let mut r2 = null_mut();
    assert_eq!(
        sinew_rig_load_spine(p, pl, null(), 0, null(), 0, &mut r2),
        SinewStatus::Io
    );
    let junk = b"{ not json";
    assert_eq!(
        sinew_rig_load_spine_memory(junk.as_ptr(), junk.len(), null(), 0, null(), 0, &mut r2),
        SinewStatus::LoadFailed
    );
    // Double destroy is harmless; the handle is dead afterwards.
    assert_eq!(sinew_character_destroy(c), SinewStatus::Ok);
    assert_eq!(sinew_character_destroy(c), SinewStatus::Ok);
    assert_eq!(sinew_character_update(c, 0.1), SinewStatus::InvalidHandle);
    // Characters outlive their rig handle.
    assert_eq!(sinew_character_create(rig, &mut c), SinewStatus::Ok);
    assert_eq!(sinew_rig_destroy(rig), SinewStatus::Ok);
    assert_eq!(sinew_character_update(c, 0.1), SinewStatus::Ok);
    assert_eq!(
        sinew_character_create(rig, &mut c),
        SinewStatus::InvalidHandle
    );
    sinew_character_destroy(c);
}

#[test]
fn memory_loads_pose_like_path_loads_with_extras() {
    let d = sinew_testutil::workspace_root().join("examples/stickbot");
    let (sk, at, ex) = (
        d.join("stickbot.json"),
        d.join("stickbot.atlas"),
        d.join("stickbot.extras.json"),
    );
    let (skp, atp, exp) = (
        sk.to_str().expect("p"),
        at.to_str().expect("p"),
        ex.to_str().expect("p"),
    );
    let mut by_path = null_mut();
    let st = sinew_rig_load_spine(
        skp.as_ptr().cast(),
        skp.len(),
        atp.as_ptr().cast(),
        atp.len(),
        exp.as_ptr().cast(),
        exp.len(),
        &mut by_path,
    );
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let (skel, atlas, extras) = (
        std::fs::read(&sk).expect("skel"),
        std::fs::read_to_string(&at).expect("atlas"),
        std::fs::read_to_string(&ex).expect("extras"),
    );
    let mut by_memory = null_mut();
    let st = sinew_rig_load_spine_memory(
        skel.as_ptr(),
        skel.len(),
        atlas.as_ptr().cast(),
        atlas.len(),
        extras.as_ptr().cast(),
        extras.len(),
        &mut by_memory,
    );
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let (mut a, mut b) = (null_mut(), null_mut());
    assert_eq!(sinew_character_create(by_path, &mut a), SinewStatus::Ok);
    assert_eq!(sinew_character_create(by_memory, &mut b), SinewStatus::Ok);
    let (w, l) = s("walk");
    for c in [a, b] {
        assert_eq!(
            sinew_character_set_animation(c, 0, w, l, true),
            SinewStatus::Ok
        );
    }
    for _ in 0..90 {
        for c in [a, b] {
            assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
        }
        assert!(worlds(a) == worlds(b), "memory and path loads pose alike");
    }
    for c in [a, b] {
        sinew_character_destroy(c);
    }
    sinew_rig_destroy(by_path);
    sinew_rig_destroy(by_memory);
}
