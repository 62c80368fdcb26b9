//! 1,000 spineboys playing `run` (staggered): one frame of all of them through the Rust
//! facade on one thread (`rust-facade-1t`), through `sinew_update_many` on one thread
//! (`capi-update-many-1t`) and on two (`capi-update-many-2t`), one after another in one run.
//! Divide a time by 1,000 for one skeleton-frame. Falls back to the bundled stickbot `walk`
//! when the shared fixtures are missing. For the three interleaved round by round (the same
//! load for each, the figures in docs/PERFORMANCE.md), run the `update_many_rounds` example.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use sinew_capi::*;
use std::path::PathBuf;
use std::ptr::{null, null_mut};

const N: usize = 1000;

fn rig_files() -> (PathBuf, PathBuf, &'static str) {
    let spine = sinew_testutil::fixtures_dir().map(|d| d.join("spine/spineboy"));
    match spine.filter(|d| d.join("spineboy-pro.json").is_file()) {
        Some(d) => (d.join("spineboy-pro.json"), d.join("spineboy.atlas"), "run"),
        None => {
            let d = sinew_testutil::workspace_root().join("examples/stickbot");
            (d.join("stickbot.json"), d.join("stickbot.atlas"), "walk")
        }
    }
}

fn bench(c: &mut Criterion) {
    let (skel, atlas, anim) = rig_files();
    let asset = sinew_formats::load_spine(&skel, Some(&atlas), &Default::default()).expect("load");
    let mut rust: Vec<sinew::Character> = (0..N)
        .map(|i| {
            let mut ch = asset.character();
            ch.set_animation(0, anim, true).expect("anim");
            ch.update(i as f64 * 0.0007);
            ch
        })
        .collect();
    let (sk, at) = (
        skel.to_str().expect("utf-8"),
        atlas.to_str().expect("utf-8"),
    );
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
    assert_eq!(st, SinewStatus::Ok);
    let chars: Vec<*mut SinewCharacter> = (0..N)
        .map(|i| {
            let mut ch = null_mut();
            assert_eq!(sinew_character_create(rig, &mut ch), SinewStatus::Ok);
            assert_eq!(
                sinew_character_set_animation(ch, 0, anim.as_ptr().cast(), anim.len(), true),
                SinewStatus::Ok
            );
            assert_eq!(
                sinew_character_update(ch, i as f64 * 0.0007),
                SinewStatus::Ok
            );
            ch
        })
        .collect();
    let mut g = c.benchmark_group(format!("update_many/{anim}-x{N}"));
    g.bench_function("rust-facade-1t", |b| {
        b.iter(|| {
            for ch in &mut rust {
                ch.update(1.0 / 60.0);
            }
        })
    });
    for threads in [1u32, 2] {
        g.bench_function(format!("capi-update-many-{threads}t"), |b| {
            b.iter(|| {
                assert_eq!(
                    sinew_update_many(chars.as_ptr(), chars.len(), 1.0 / 60.0, threads),
                    SinewStatus::Ok
                )
            })
        });
    }
    g.finish();
    for ch in chars {
        sinew_character_destroy(ch);
    }
    sinew_rig_destroy(rig);
    sinew_pool_shutdown();
}

criterion_group!(benches, bench);
criterion_main!(benches);
