//! `sinew_update_many` over every Spine fixture (`.skel`) at once (and an Inochi2D puppet, whose
//! parameter stage keeps it out of the lanes): 3 to 6 characters of each rig at staggered
//! times and animations, lent each frame in another shuffled order on 1, 2, 3 threads or
//! the machine's count, give the same bits (bone worlds and render vertices) as
//! `sinew_character_update` on each twin one by one.

use crate::common;

use common::{character, last_error, render, s, worlds};
use sinew_capi::*;
use std::path::Path;
use std::ptr::{null, null_mut};

/// A Spine rig with the atlas beside it (untextured when there is none).
fn load_spine(skel: &Path) -> *mut SinewRig {
    let atlas = std::fs::read_dir(skel.parent().expect("folder"))
        .expect("fixture folder")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "atlas"));
    let sk = skel.to_str().expect("utf-8");
    let at = atlas.as_deref().map_or("", |a| a.to_str().expect("utf-8"));
    let mut rig = null_mut();
    let (a, al) = s(at);
    assert_eq!(
        sinew_rig_load_spine(sk.as_ptr().cast(), sk.len(), a, al, null(), 0, &mut rig),
        SinewStatus::Ok,
        "{}: {}",
        skel.display(),
        last_error()
    );
    rig
}

fn info(rig: *const SinewRig) -> SinewRigInfo {
    let mut i = std::mem::MaybeUninit::<SinewRigInfo>::uninit();
    assert_eq!(sinew_rig_info(rig, i.as_mut_ptr()), SinewStatus::Ok);
    // SAFETY: the call succeeded and filled `i`.
    unsafe { i.assume_init() }
}

/// Character `j` of a Spine rig: animation `j` (cycling), `j * 0.11` s in.
fn spine_character(rig: *const SinewRig, j: u32) -> *mut SinewCharacter {
    let c = character(rig);
    let count = info(rig).animations;
    if count > 0 {
        let mut name = std::mem::MaybeUninit::<SinewStringView>::uninit();
        assert_eq!(
            sinew_rig_name(
                rig,
                SinewNameKind::Animation as u32,
                j % count,
                name.as_mut_ptr()
            ),
            SinewStatus::Ok
        );
        // SAFETY: the call succeeded and filled `name`.
        let name = unsafe { name.assume_init() };
        assert_eq!(
            sinew_character_set_animation(c, 0, name.ptr, name.len, true),
            SinewStatus::Ok,
            "{}",
            last_error()
        );
    }
    assert_eq!(
        sinew_character_update(c, f64::from(j) * 0.11),
        SinewStatus::Ok
    );
    c
}

/// Character `j` of a puppet: its first parameter set part of the way along its range.
fn puppet_character(rig: *const SinewRig, j: u32) -> *mut SinewCharacter {
    let c = character(rig);
    if info(rig).params > 0 {
        let mut p = std::mem::MaybeUninit::<SinewParamInfo>::uninit();
        assert_eq!(sinew_rig_param(rig, 0, p.as_mut_ptr()), SinewStatus::Ok);
        // SAFETY: the call succeeded and filled `p`.
        let p = unsafe { p.assume_init() };
        let f = f64::from(j + 1) / 7.0;
        let at = |k: usize| p.min[k] + (p.max[k] - p.min[k]) * f;
        assert_eq!(
            sinew_character_set_param(c, p.name.ptr.cast(), p.name.len, at(0), at(1)),
            SinewStatus::Ok,
            "{}",
            last_error()
        );
    }
    assert_eq!(
        sinew_character_update(c, f64::from(j) * 0.07),
        SinewStatus::Ok
    );
    c
}

/// A permutation of `0..n` from a small linear congruential generator.
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut x = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    for i in (1..n).rev() {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        order.swap(i, (x >> 33) as usize % (i + 1));
    }
    order
}

#[test]
fn update_many_of_mixed_rigs_in_odd_orders_equals_one_by_one() {
    let Some(files) = sinew_testutil::spine_fixture_files("update_many_mixed", &["skel"]) else {
        return;
    };
    // (alone, many): twins made the same way.
    let mut twins: Vec<(*mut SinewCharacter, *mut SinewCharacter)> = Vec::new();
    let mut rigs = Vec::new();
    for (r, skel) in files.iter().enumerate() {
        let rig = load_spine(skel);
        for j in 0..3 + (r as u32 % 4) {
            twins.push((spine_character(rig, j), spine_character(rig, j)));
        }
        rigs.push(rig);
    }
    let inp = sinew_testutil::fixtures_dir()
        .map(|d| d.join("inochi2d/synthetic_medium.inp"))
        .filter(|p| p.is_file());
    if let Some(inp) = inp {
        let p = inp.to_str().expect("utf-8");
        let mut rig = null_mut();
        assert_eq!(
            sinew_rig_load_inochi2d(p.as_ptr().cast(), p.len(), null(), 0, null(), 0, &mut rig),
            SinewStatus::Ok,
            "{}",
            last_error()
        );
        assert_eq!(info(rig).is_puppet, 1);
        for j in 0..5 {
            twins.push((puppet_character(rig, j), puppet_character(rig, j)));
        }
        rigs.push(rig);
    }
    assert!(rigs.len() >= 10, "{} rigs", rigs.len());
    let many: Vec<*mut SinewCharacter> = twins.iter().map(|t| t.1).collect();
    for frame in 0..10u64 {
        let dt = if frame % 4 == 2 { 0.1 } else { 1.0 / 60.0 };
        for &(alone, _) in &twins {
            assert_eq!(sinew_character_update(alone, dt), SinewStatus::Ok);
        }
        let order: Vec<*mut SinewCharacter> = shuffled(many.len(), frame)
            .into_iter()
            .map(|k| many[k])
            .collect();
        let threads = [1, 2, 3, 0][frame as usize % 4];
        assert_eq!(
            sinew_update_many(order.as_ptr(), order.len(), dt, threads),
            SinewStatus::Ok,
            "{}",
            last_error()
        );
    }
    for (k, &(alone, lent)) in twins.iter().enumerate() {
        assert!(
            worlds(alone) == worlds(lent),
            "character {k}: bone worlds differ"
        );
        let (a, b) = (render(alone), render(lent));
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert!(
            bits(&a.positions) == bits(&b.positions),
            "character {k}: render vertices differ"
        );
    }
    println!(
        "{} characters of {} rigs bit-identical",
        twins.len(),
        rigs.len()
    );
    for (a, b) in twins {
        sinew_character_destroy(a);
        sinew_character_destroy(b);
    }
    for rig in rigs {
        sinew_rig_destroy(rig);
    }
    assert_eq!(sinew_pool_shutdown(), SinewStatus::Ok);
}
