//! [`Crowd`]: many characters updated on several cores, on a persistent pool of threads.
//!
//! A crowd owns its characters and runs them on a [`Pool`] (the pool of sinew, which the C
//! ABI's `sinew_update_many` runs on too): its threads are created once, in [`Crowd::new`],
//! and wait on a condition variable between frames, so no thread is spawned per frame and
//! a frame allocates nothing. In [`Crowd::update`] the calling thread and the workers take
//! four characters of one rig at a time (SIMD lanes, [`super::Batch`]'s path, which gives
//! the same bits) or single characters from an atomic counter, so the results are
//! bit-identical to updating the characters one by one on one thread, whatever the thread
//! count or which thread happens to take which characters. Between updates the host reads
//! and changes characters with [`Crowd::with`] (the borrow checker keeps that apart from an
//! update in progress).
//!
//! ```
//! use sinew::character::{Character, Crowd};
//! use sinew::raw::{RawBone, RawRig};
//! use std::sync::Arc;
//!
//! let mut raw = RawRig::default();
//! raw.bones.push(RawBone::new("root", None));
//! let rig = Arc::new(sinew::build::build_rig(&raw)?);
//! let mut crowd = Crowd::new(2); // the caller and one worker thread
//! for i in 0..100 {
//!     let mut c = Character::new(rig.clone());
//!     c.set_position(f64::from(i), 0.0);
//!     crowd.push(c);
//! }
//! crowd.update(1.0 / 60.0);
//! let x = crowd.with(42, |c| c.instance().world[0].x);
//! assert_eq!(x, Some(42.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Owner: the facade (`Character::update` for each character, on the pool).

use super::Character;
use super::pool::{Member, Pool};
use std::sync::Mutex;

/// Many characters and the threads that update them. See the module docs.
///
/// Owner: the facade (`Character`): runs `Character::update` of many characters on a pool.
#[derive(Debug)]
pub struct Crowd {
    pool: Pool<Mutex<Character>>,
    /// Threads the pool started (the caller included).
    threads: usize,
}

impl Crowd {
    /// An empty crowd updated by `threads` threads: the caller of [`Crowd::update`] and
    /// `threads - 1` workers started now (0 and 1 both mean the caller alone; at most
    /// [`super::MAX_THREADS`]). A worker the system refuses to start is left out (fewer
    /// threads, the same results).
    pub fn new(threads: usize) -> Self {
        let mut pool = Pool::new();
        let threads = pool.start(threads);
        Crowd { pool, threads }
    }

    /// Threads that update the crowd (the caller included).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Adds a character; returns its index.
    pub fn push(&mut self, character: Character) -> usize {
        let mut members = self.pool.members_mut();
        members.push(Mutex::new(character));
        members.len() - 1
    }

    /// Number of characters.
    pub fn len(&self) -> usize {
        self.pool.members().len()
    }

    /// Whether the crowd has no character.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Builds each character's draw list ([`Character::draw_list`], world vertices of every
    /// attachment shown included) on the pool right after its update, so the host reads
    /// ready lists (off by default).
    pub fn set_build_draw_lists(&mut self, on: bool) {
        self.pool.set_build_draw_lists(on);
    }

    /// Runs `f` on character `index` (to read its pose, play an animation, set a
    /// parameter); `None` for an index out of range.
    pub fn with<R>(&self, index: usize, f: impl FnOnce(&mut Character) -> R) -> Option<R> {
        let members = self.pool.members();
        let mut c = Member::lock(members.get(index)?);
        Some(f(&mut c))
    }

    /// Runs one frame of `dt` seconds for every character, on every thread of the crowd;
    /// returns when all are done. The same as calling [`Character::update`] on each in
    /// turn, bit for bit. Allocation-free. `false` if a character's update panicked (the
    /// others were still updated).
    pub fn update(&mut self, dt: f64) -> bool {
        // A crowd's characters are its own, never listed twice: the one error is a panic.
        self.pool.update(dt, self.threads).is_ok()
    }

    /// Takes the characters back (the threads stop).
    pub fn into_characters(self) -> Vec<Character> {
        self.pool
            .into_members()
            .into_iter()
            .map(|m| {
                m.into_inner()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raw::{RawBone, RawRig};
    use crate::rig::Rig;
    use std::sync::Arc;

    /// A chain of bones whose clip rotates them, so characters at different times differ.
    fn rig() -> Arc<Rig> {
        use crate::raw::{
            BoneProperty, RawClip, RawCurve, RawKey, RawKeyData, RawTarget, RawTimeline,
        };
        let mut raw = RawRig::default();
        raw.bones.push(RawBone::new("root", None));
        let mut b = RawBone::new("arm", Some("root"));
        b.x = 10.0;
        b.length = 10.0;
        raw.bones.push(b);
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
                    bone: "arm".into(),
                    property: BoneProperty::Rotate,
                },
                keys: vec![key(0.0, 0.0), key(1.0, 360.0)],
            }],
            playback: None,
        });
        Arc::new(crate::build::build_rig(&raw).unwrap_or_else(|e| panic!("{e}")))
    }

    fn characters(rig: &Arc<Rig>, n: usize) -> Vec<Character> {
        (0..n)
            .map(|i| {
                let mut c = Character::new(rig.clone());
                c.set_animation(0, "spin", true).expect("spin");
                c.update(i as f64 * 0.013);
                c
            })
            .collect()
    }

    #[test]
    fn any_thread_count_gives_the_same_bits_as_one_by_one() {
        let rig = rig();
        let mut alone = characters(&rig, 37);
        for _ in 0..20 {
            for c in &mut alone {
                c.update(1.0 / 60.0);
            }
        }
        for threads in [0, 1, 2, 3, 4] {
            let mut crowd = Crowd::new(threads);
            for c in characters(&rig, 37) {
                crowd.push(c);
            }
            for _ in 0..20 {
                assert!(crowd.update(1.0 / 60.0));
            }
            assert_eq!(crowd.len(), 37);
            let back = crowd.into_characters();
            for (a, b) in alone.iter().zip(&back) {
                assert_eq!(a.instance().world, b.instance().world, "{threads} threads");
            }
        }
    }

    #[test]
    fn with_reads_and_changes_one_character() {
        let rig = rig();
        let mut crowd = Crowd::new(2);
        assert!(crowd.is_empty());
        for c in characters(&rig, 3) {
            crowd.push(c);
        }
        assert_eq!(crowd.threads(), 2);
        assert!(crowd.with(7, |_| ()).is_none());
        crowd.with(1, |c| c.set_position(100.0, 0.0));
        crowd.update(0.0);
        let x = crowd.with(1, |c| c.instance().world[0].x);
        assert_eq!(x, Some(100.0));
        // Draw lists built on the pool equal those built by hand.
        crowd.set_build_draw_lists(true);
        crowd.update(0.1);
        let mut by_hand = crowd.into_characters();
        let on_pool: Vec<_> = by_hand
            .iter()
            .map(|c| c.last_draw_list().positions.clone())
            .collect();
        for (c, p) in by_hand.iter_mut().zip(on_pool) {
            assert_eq!(c.draw_list().positions, p);
        }
        // An empty update and a dropped crowd end cleanly.
        let mut empty = Crowd::new(3);
        assert!(empty.update(1.0));
    }
}
