//! The per-character cost of `sinew_update_many`: 64 spineboys playing `run`, 64 raptors
//! playing `walk`, or both (128, the two rigs interleaved: spineboy, raptor, spineboy, ...),
//! staggered in time, warmed up for 30 frames, then `FRAMES` more frames through
//! `sinew_update_many` on `THREADS` threads. Prints the wall time per character-frame of the
//! measured frames. For an instruction count that does not depend on the machine's load,
//! run it under callgrind with collection on inside `sinew_update_many` only, once with 0
//! measured frames and once with 20, and divide the difference by 20 x the characters:
//!
//!     cargo build --release -p sinew-capi --example update_many_cost
//!     valgrind --tool=callgrind --collect-atstart=no --toggle-collect=sinew_update_many \
//!         target/release/examples/update_many_cost spineboy 20 1
//!
//! Needs the shared Spine fixtures (`sinew_testutil::fixtures_dir`).
//!
//!     update_many_cost [spineboy|raptor|mixed] [FRAMES] [THREADS]

use sinew_capi::*;
use std::ptr::{null, null_mut};
use std::time::Instant;

/// Characters of each rig.
const N: usize = 64;
/// Frames before the measured ones (buffers grown, the pool's workers started).
const WARM_UP: usize = 30;

fn check(st: SinewStatus, what: &str) {
    assert_eq!(st, SinewStatus::Ok, "{what}");
}

/// `N` characters of one fixture, playing `anim` at staggered times.
fn characters(dir: &str, name: &str, anim: &str) -> Vec<*mut SinewCharacter> {
    let d = sinew_testutil::fixtures_dir()
        .expect("the shared fixtures")
        .join("spine")
        .join(dir);
    let (sk, at) = (
        d.join(format!("{name}-pro.json")),
        d.join(format!("{dir}.atlas")),
    );
    let (sk, at) = (sk.to_str().expect("utf-8"), at.to_str().expect("utf-8"));
    let mut rig = null_mut();
    let load = sinew_rig_load_spine(
        sk.as_ptr().cast(),
        sk.len(),
        at.as_ptr().cast(),
        at.len(),
        null(),
        0,
        &mut rig,
    );
    check(load, "load");
    let chars = (0..N)
        .map(|i| {
            let mut ch = null_mut();
            check(sinew_character_create(rig, &mut ch), "create");
            check(
                sinew_character_set_animation(ch, 0, anim.as_ptr().cast(), anim.len(), true),
                "animation",
            );
            check(sinew_character_update(ch, i as f64 * 0.013), "update");
            ch
        })
        .collect();
    // The characters keep the rig's data alive.
    check(sinew_rig_destroy(rig), "rig destroy");
    chars
}

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "spineboy".into());
    let frames: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let threads: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let chars = match which.as_str() {
        "spineboy" => characters("spineboy", "spineboy", "run"),
        "raptor" => characters("raptor", "raptor", "walk"),
        "mixed" => {
            let (s, r) = (
                characters("spineboy", "spineboy", "run"),
                characters("raptor", "raptor", "walk"),
            );
            s.into_iter().zip(r).flat_map(|(a, b)| [a, b]).collect()
        }
        other => panic!("unknown set {other}: spineboy, raptor or mixed"),
    };
    let frame = || {
        check(
            sinew_update_many(chars.as_ptr(), chars.len(), 1.0 / 60.0, threads),
            "update_many",
        )
    };
    for _ in 0..WARM_UP {
        frame();
    }
    let t = Instant::now();
    for _ in 0..frames {
        frame();
    }
    let wall = t.elapsed().as_secs_f64();
    println!(
        "{which}: {} characters, {frames} frames on {threads} thread(s): {:.3} us per character-frame (wall)",
        chars.len(),
        wall * 1e6 / (frames.max(1) * chars.len()) as f64
    );
    for ch in chars {
        check(sinew_character_destroy(ch), "destroy");
    }
    check(sinew_pool_shutdown(), "shutdown");
}
