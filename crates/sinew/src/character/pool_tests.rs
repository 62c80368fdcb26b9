//! The pool on lent members: two rigs in odd orders, any thread count, the same bits as one
//! by one; a character listed twice; workers stopped and started again.

use super::*;
use crate::raw::{
    BoneProperty, RawBone, RawClip, RawCurve, RawKey, RawKeyData, RawRig, RawTarget, RawTimeline,
};
use crate::rig::Rig;

/// A chain of `bones` bones whose clip rotates the last one, so characters at different
/// times differ.
fn rig(bones: usize) -> Arc<Rig> {
    let mut raw = RawRig::default();
    raw.bones.push(RawBone::new("root", None));
    for i in 1..bones {
        let parent = if i == 1 {
            "root".into()
        } else {
            format!("b{}", i - 1)
        };
        let mut b = RawBone::new(&format!("b{i}"), Some(&parent));
        b.x = 10.0;
        b.length = 10.0;
        raw.bones.push(b);
    }
    let key = |t: f64, v: f64| RawKey {
        time: t,
        values: vec![v],
        curve: RawCurve::Linear,
        data: RawKeyData::None,
    };
    raw.clips.push(RawClip {
        name: "spin".into(),
        timelines: vec![RawTimeline {
            target: RawTarget::Bone {
                bone: format!("b{}", bones - 1),
                property: BoneProperty::Rotate,
            },
            keys: vec![key(0.0, 0.0), key(1.0, 360.0)],
        }],
        playback: None,
    });
    Arc::new(crate::build::build_rig(&raw).unwrap_or_else(|e| panic!("{e}")))
}

fn character(rig: &Arc<Rig>, t: f64) -> Character {
    let mut c = Character::new(rig.clone());
    c.set_animation(0, "spin", true).expect("spin");
    c.update(t);
    c
}

/// 11 characters of one rig and 6 of another, interleaved unevenly.
fn mixed() -> Vec<Character> {
    let (a, b) = (rig(3), rig(5));
    (0..17)
        .map(|i| {
            let r = if i % 3 == 1 { &b } else { &a };
            character(r, f64::from(i) * 0.017)
        })
        .collect()
}

#[test]
fn mixed_rigs_in_any_order_on_any_thread_count_match_one_by_one() {
    let mut alone = mixed();
    let host: Vec<Arc<Mutex<Character>>> = mixed()
        .into_iter()
        .map(|c| Arc::new(Mutex::new(c)))
        .collect();
    let mut pool = Pool::new();
    for frame in 0..24usize {
        let dt = if frame % 7 == 3 { 0.1 } else { 1.0 / 60.0 };
        alone.iter_mut().for_each(|c| c.update(dt));
        // Each frame lends the characters in another order, on another thread count.
        let mut members = pool.members_mut();
        members.clear();
        let n = host.len();
        members.extend((0..n).map(|k| host[(k * 5 + frame) % n].clone()));
        drop(members);
        assert_eq!(pool.update(dt, frame % 4), Ok(()));
    }
    assert_eq!(pool.threads(), 3);
    for (k, (a, b)) in alone.iter().zip(&host).enumerate() {
        // `Member::lock`: the guard, poisoned or not.
        let b = b.lock();
        assert_eq!(a.instance().world, b.instance().world, "character {k}");
    }
    // The plan put the lanes to use: 11 of rig `a` and 6 of `b` make 2 + 1 units of four.
    let lanes = pool
        .shared
        .jobs
        .read()
        .map(|j| j.units.iter().filter(|u| u.1 == LANES).count());
    assert_eq!(lanes.ok(), Some(3));
}

#[test]
fn a_character_listed_twice_fails_before_any_update() {
    let rig = rig(3);
    let host: Vec<Arc<Mutex<Character>>> = (0..6)
        .map(|i| Arc::new(Mutex::new(character(&rig, f64::from(i) * 0.1))))
        .collect();
    let worlds = || -> Vec<_> {
        host.iter()
            .map(|c| c.lock().instance().world.clone())
            .collect()
    };
    let before = worlds();
    let mut pool = Pool::new();
    pool.members_mut()
        .extend([0, 1, 2, 3, 4, 5, 2].map(|k| host[k].clone()));
    assert_eq!(
        pool.update(0.5, 2),
        Err(PoolError::Duplicate {
            first: 2,
            second: 6
        })
    );
    assert_eq!(worlds(), before, "nothing was updated");
    // Without the duplicate the frame runs.
    pool.members_mut().pop();
    assert_eq!(pool.update(0.5, 2), Ok(()));
    let after = worlds();
    assert!(
        before.iter().zip(&after).all(|(b, a)| b != a),
        "every character moved"
    );
}

#[test]
fn workers_stop_and_start_again() {
    let rig = rig(4);
    let mut alone: Vec<Character> = (0..40)
        .map(|i| character(&rig, f64::from(i) * 0.01))
        .collect();
    let mut pool: Pool<Mutex<Character>> = Pool::new();
    assert_eq!(pool.threads(), 1);
    pool.members_mut()
        .extend(alone.iter().cloned().map(Mutex::new));
    for threads in [3, 0, 2, 64, 1000] {
        alone.iter_mut().for_each(|c| c.update(0.02));
        assert_eq!(pool.update(0.02, threads), Ok(()));
        // One thread per eight members at most: 40 keep five busy.
        assert_eq!(pool.threads(), threads.clamp(1, 5), "{threads} threads");
        assert!(pool.shutdown());
        assert_eq!(pool.threads(), 1);
    }
    // More threads than characters need: the caller alone does a small frame.
    assert_eq!(pool.start(5), 5);
    assert_eq!(
        pool.start(2),
        5,
        "workers are kept, not stopped, by a smaller count"
    );
    let back = pool.into_members();
    for (a, b) in alone.iter().zip(back) {
        let b = b.into_inner().expect("lock");
        assert_eq!(a.instance().world, b.instance().world);
    }
}

#[test]
fn an_empty_pool_updates_and_drops_cleanly() {
    let mut pool: Pool<Arc<Mutex<Character>>> = Pool::default();
    assert_eq!(pool.update(1.0, 4), Ok(()));
    assert!(pool.members().is_empty());
    assert_eq!(
        PoolError::Duplicate {
            first: 1,
            second: 2
        }
        .to_string(),
        "members 1 and 2 are the same character (nothing was updated)"
    );
}
