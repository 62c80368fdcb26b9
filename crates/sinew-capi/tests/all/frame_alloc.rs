//! After warm-up, a frame through the ABI allocates nothing on the calling thread:
//! `sinew_update_many` (one thread: all the work on the caller), `sinew_character_update`,
//! event polling and `sinew_character_render` (counting global allocator, per thread); and
//! `sinew_update_many` on two threads allocates nothing on any thread of the process
//! (counted globally, the pool's worker included). The test runs in a process of its own
//! (`run_alone`): the global count would see a parallel test's allocations, and it shuts the
//! pool down.

use sinew_capi::*;
use sinew_testutil::alloc::{count_all_threads, count_allocations};
use std::ptr::{null, null_mut};

#[test]
fn frames_through_the_abi_allocate_nothing_after_warm_up() {
    let name = "frames_through_the_abi_allocate_nothing_after_warm_up";
    if !sinew_testutil::run_alone(module_path!(), name) {
        return;
    }
    let d = sinew_testutil::workspace_root().join("examples/stickbot");
    let (sk, at) = (d.join("stickbot.json"), d.join("stickbot.atlas"));
    let (sk, at) = (sk.to_str().expect("utf-8"), at.to_str().expect("utf-8"));
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
    let chars: Vec<*mut SinewCharacter> = (0..20)
        .map(|_| {
            let mut c = null_mut();
            assert_eq!(sinew_character_create(rig, &mut c), SinewStatus::Ok);
            let a = "walk";
            assert_eq!(
                sinew_character_set_animation(c, 0, a.as_ptr().cast(), a.len(), true),
                SinewStatus::Ok
            );
            c
        })
        .collect();
    let frame = || {
        assert_eq!(
            sinew_update_many(chars.as_ptr(), chars.len(), 1.0 / 60.0, 1),
            SinewStatus::Ok
        );
        for &c in &chars {
            assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
            let mut n = 0;
            assert_eq!(sinew_character_event_count(c, &mut n), SinewStatus::Ok);
            for i in 0..n {
                let mut e = std::mem::MaybeUninit::<SinewEvent>::uninit();
                assert_eq!(sinew_character_event(c, i, e.as_mut_ptr()), SinewStatus::Ok);
            }
            let mut rd = std::mem::MaybeUninit::<SinewRenderData>::uninit();
            assert_eq!(sinew_character_render(c, rd.as_mut_ptr()), SinewStatus::Ok);
        }
    };
    for _ in 0..120 {
        frame();
    }
    let n = count_allocations(|| {
        for _ in 0..300 {
            frame();
        }
    });
    assert_eq!(n, 0, "{n} allocations in 300 frames after warm-up");

    // Two threads: the caller and one pool worker share the 20 characters (chunks of 8).
    let two = || {
        assert_eq!(
            sinew_update_many(chars.as_ptr(), chars.len(), 1.0 / 60.0, 2),
            SinewStatus::Ok
        );
    };
    for _ in 0..120 {
        two();
    }
    // The counter itself is live: a check that it sees allocations on other threads.
    let seen = count_all_threads(|| {
        std::thread::spawn(|| drop(std::hint::black_box(vec![1u8; 64])))
            .join()
            .expect("join");
    });
    assert!(
        seen >= 1,
        "the global count missed another thread's allocation"
    );
    let n = count_all_threads(|| {
        for _ in 0..300 {
            two();
        }
    });
    assert_eq!(
        n, 0,
        "{n} allocations (all threads) in 300 two-thread update_many calls after warm-up"
    );
    for c in chars {
        sinew_character_destroy(c);
    }
    sinew_rig_destroy(rig);
    assert_eq!(sinew_pool_shutdown(), SinewStatus::Ok);
}
