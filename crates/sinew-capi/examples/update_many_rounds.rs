//! 1,000 spineboys playing `run` (staggered), one frame of all of them at a time, three
//! ways interleaved round by round in one process so that they see the same machine load:
//! the Rust facade on one thread (`Character::update` in a loop), `sinew_update_many` on
//! one thread and on two. Each round times `FRAMES` frames of each path, in an order that
//! rotates from round to round; the summary gives the median and the best round per path,
//! in wall time and in on-CPU time of the whole process (every thread's, from
//! `/proc/self/task/*/schedstat`, Linux): on a busy machine wall time includes waiting for
//! a core, on-CPU time does not (but only wall time shows what a second thread buys).
//!
//!     cargo run --release -p sinew-capi --example update_many_rounds [ROUNDS]
//!
//! Falls back to the bundled stickbot `walk` when the shared fixtures are missing.

use sinew_capi::*;
use std::path::PathBuf;
use std::ptr::{null, null_mut};
use std::time::Instant;

const N: usize = 1000;
const FRAMES: usize = 20;

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

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// Nanoseconds on a CPU so far, summed over the process's threads (0 where unavailable).
fn cpu_ns() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

fn check(st: SinewStatus, what: &str) {
    assert_eq!(st, SinewStatus::Ok, "{what}");
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(15);
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
    let chars: Vec<*mut SinewCharacter> = (0..N)
        .map(|i| {
            let mut ch = null_mut();
            check(sinew_character_create(rig, &mut ch), "create");
            check(
                sinew_character_set_animation(ch, 0, anim.as_ptr().cast(), anim.len(), true),
                "anim",
            );
            check(sinew_character_update(ch, i as f64 * 0.0007), "update");
            ch
        })
        .collect();
    let names = [
        "rust-facade-1t",
        "capi-update-many-1t",
        "capi-update-many-2t",
    ];
    let mut run = |path: usize| {
        let cpu = cpu_ns();
        let t = Instant::now();
        for _ in 0..FRAMES {
            match path {
                0 => rust.iter_mut().for_each(|c| c.update(1.0 / 60.0)),
                p => check(
                    sinew_update_many(chars.as_ptr(), N, 1.0 / 60.0, p as u32),
                    "update_many",
                ),
            }
        }
        let wall = t.elapsed().as_secs_f64() / FRAMES as f64;
        (wall, (cpu_ns() - cpu) as f64 * 1e-9 / FRAMES as f64)
    };
    // Warm-up: caches, the pool's worker, the characters' buffers.
    for p in 0..3 {
        run(p);
    }
    println!(
        "{anim} x{N}, {rounds} rounds of {FRAMES} frames per path; load average before: {}",
        loadavg()
    );
    let (mut wall, mut cpu) = (vec![Vec::new(); 3], vec![Vec::new(); 3]);
    for r in 0..rounds {
        for k in 0..3 {
            let p = (r + k) % 3;
            let (w, c) = run(p);
            wall[p].push(w);
            cpu[p].push(c);
        }
    }
    println!("load average after: {}", loadavg());
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (mut mw, mut mc) = ([0.0; 3], [0.0; 3]);
    for p in 0..3 {
        mw[p] = median(&mut wall[p]);
        mc[p] = median(&mut cpu[p]);
        println!(
            "{:<20} wall: median {:>7.3} ms/frame ({:.2} us per skeleton-frame), best {:.3} ms; \
             on-CPU: median {:.3} ms/frame ({:.2} us per skeleton-frame)",
            names[p],
            mw[p] * 1e3,
            mw[p] * 1e6 / N as f64,
            wall[p][0] * 1e3,
            mc[p] * 1e3,
            mc[p] * 1e6 / N as f64,
        );
    }
    println!(
        "ABI 1 thread / facade: wall {:.3}, on-CPU {:.3}; ABI 2 threads throughput vs 1: \
         wall {:.2}x (best rounds {:.2}x)",
        mw[1] / mw[0],
        mc[1] / mc[0],
        mw[1] / mw[2],
        wall[1][0] / wall[2][0]
    );
    for ch in chars {
        sinew_character_destroy(ch);
    }
    sinew_rig_destroy(rig);
    check(sinew_pool_shutdown(), "shutdown");
}
