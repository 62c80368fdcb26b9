//! [`Crowd`]: many characters updated on several cores, on a persistent pool of threads.
//!
//! The pool's threads are created once, in [`Crowd::new`], and wait on a condition variable
//! between frames: no thread is spawned per frame, and a frame allocates nothing. In
//! [`Crowd::update`] the calling thread and the workers take chunks of characters from an
//! atomic counter; each character is updated with its own state (four of one rig at a time
//! in SIMD lanes, [`super::Batch`]'s path, which gives the same bits), so the results are
//! bit-identical to updating the characters one by one on one thread, whatever the thread
//! count or which thread happens to take which chunk. Between updates the host reads
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
use super::LANES;
use super::batch::{can_share, update_lanes_apart};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, RwLock};
use std::thread::JoinHandle;

/// Characters a thread takes at a time.
const CHUNK: usize = 8;

/// Most threads a crowd uses (the caller included).
pub const MAX_THREADS: usize = 64;

/// The frame in progress, as the workers see it.
#[derive(Debug, Default)]
struct Frame {
    /// Frames started so far; a worker runs a frame when this moves past the one it saw.
    epoch: u64,
    /// Workers still working on the current frame.
    busy: usize,
    /// Set when the crowd is dropped.
    quit: bool,
}

#[derive(Debug, Default)]
struct Shared {
    characters: RwLock<Vec<Mutex<Character>>>,
    /// The frame's `dt`, as bits.
    dt: AtomicU64,
    next: AtomicUsize,
    panicked: AtomicBool,
    /// Whether each character's draw list is built right after its update.
    draw: AtomicBool,
    frame: Mutex<Frame>,
    start: Condvar,
    done: Condvar,
}

impl Shared {
    /// Updates chunks of characters until none is left.
    fn work(&self) {
        let dt = f64::from_bits(self.dt.load(Ordering::Acquire));
        let draw = self.draw.load(Ordering::Acquire);
        let chars = self
            .characters
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        loop {
            let i = self.next.fetch_add(CHUNK, Ordering::Relaxed);
            if i >= chars.len() {
                break;
            }
            let chunk = &chars[i..(i + CHUNK).min(chars.len())];
            let mut j = 0;
            while j < chunk.len() {
                let lock = |k: usize| chunk[k].lock().unwrap_or_else(PoisonError::into_inner);
                // Four of one rig in SIMD lanes (`batch.rs`: the same results, bit for bit);
                // the chunk is this thread's alone, so taking four locks cannot deadlock.
                if let Some(quad) = chunk.get(j..j + LANES) {
                    let mut g = [lock(j), lock(j + 1), lock(j + 2), lock(j + 3)];
                    if can_share([&*g[0], &*g[1], &*g[2], &*g[3]]) {
                        let frame = AssertUnwindSafe(|| {
                            let [a, b, c, d] = &mut g;
                            update_lanes_apart([&mut **a, &mut **b, &mut **c, &mut **d], dt);
                            if draw {
                                g.iter_mut().for_each(|c| {
                                    c.draw_list();
                                });
                            }
                        });
                        if catch_unwind(frame).is_err() {
                            self.panicked.store(true, Ordering::Relaxed);
                        }
                        j += quad.len();
                        continue;
                    }
                }
                let mut c = lock(j);
                // `Character::update` does not panic; if it ever did, the frame still ends
                // (the other characters are updated) and the crowd reports it.
                let frame = AssertUnwindSafe(|| {
                    c.update(dt);
                    if draw {
                        c.draw_list();
                    }
                });
                if catch_unwind(frame).is_err() {
                    self.panicked.store(true, Ordering::Relaxed);
                }
                j += 1;
            }
        }
    }
}

fn worker(shared: Arc<Shared>) {
    let mut seen = 0u64;
    loop {
        {
            let mut f = shared.frame.lock().unwrap_or_else(PoisonError::into_inner);
            while f.epoch == seen && !f.quit {
                f = shared.start.wait(f).unwrap_or_else(PoisonError::into_inner);
            }
            if f.quit {
                return;
            }
            seen = f.epoch;
        }
        shared.work();
        let mut f = shared.frame.lock().unwrap_or_else(PoisonError::into_inner);
        f.busy -= 1;
        if f.busy == 0 {
            shared.done.notify_all();
        }
    }
}

/// Many characters and the threads that update them. See the module docs.
///
/// Owner: the facade (`Character`): runs `Character::update` of many characters on a pool.
#[derive(Debug)]
pub struct Crowd {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl Crowd {
    /// An empty crowd updated by `threads` threads: the caller of [`Crowd::update`] and
    /// `threads - 1` workers started now (0 and 1 both mean the caller alone; at most
    /// [`MAX_THREADS`]). A worker the system refuses to start is left out (fewer threads,
    /// the same results).
    pub fn new(threads: usize) -> Self {
        let shared = Arc::new(Shared::default());
        let workers = (1..threads.clamp(1, MAX_THREADS))
            .filter_map(|i| {
                let s = shared.clone();
                std::thread::Builder::new()
                    .name(format!("sinew-crowd-{i}"))
                    .spawn(move || worker(s))
                    .ok()
            })
            .collect();
        Crowd { shared, workers }
    }

    /// Threads that update the crowd (the caller included).
    pub fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Adds a character; returns its index.
    pub fn push(&mut self, character: Character) -> usize {
        let mut chars = self
            .shared
            .characters
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        chars.push(Mutex::new(character));
        chars.len() - 1
    }

    /// Number of characters.
    pub fn len(&self) -> usize {
        self.shared
            .characters
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Whether the crowd has no character.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Builds each character's draw list ([`Character::draw_list`], world vertices of every
    /// attachment shown included) on the pool right after its update, so the host reads
    /// ready lists (off by default).
    pub fn set_build_draw_lists(&mut self, on: bool) {
        self.shared.draw.store(on, Ordering::Release);
    }

    /// Runs `f` on character `index` (to read its pose, play an animation, set a
    /// parameter); `None` for an index out of range.
    pub fn with<R>(&self, index: usize, f: impl FnOnce(&mut Character) -> R) -> Option<R> {
        let chars = self
            .shared
            .characters
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        let mut c = chars
            .get(index)?
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        Some(f(&mut c))
    }

    /// Runs one frame of `dt` seconds for every character, on every thread of the crowd;
    /// returns when all are done. The same as calling [`Character::update`] on each in
    /// turn, bit for bit. Allocation-free. `false` if a character's update panicked (the
    /// others were still updated).
    pub fn update(&mut self, dt: f64) -> bool {
        let s = &*self.shared;
        s.dt.store(dt.to_bits(), Ordering::Release);
        s.next.store(0, Ordering::Release);
        s.panicked.store(false, Ordering::Relaxed);
        if !self.workers.is_empty() {
            let mut f = s.frame.lock().unwrap_or_else(PoisonError::into_inner);
            f.epoch += 1;
            f.busy = self.workers.len();
            s.start.notify_all();
        }
        s.work();
        if !self.workers.is_empty() {
            let mut f = s.frame.lock().unwrap_or_else(PoisonError::into_inner);
            while f.busy > 0 {
                f = s.done.wait(f).unwrap_or_else(PoisonError::into_inner);
            }
        }
        !s.panicked.load(Ordering::Relaxed)
    }

    /// Takes the characters back (the threads stop).
    pub fn into_characters(mut self) -> Vec<Character> {
        self.stop();
        let chars = std::mem::take(
            &mut *self
                .shared
                .characters
                .write()
                .unwrap_or_else(PoisonError::into_inner),
        );
        chars
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(PoisonError::into_inner))
            .collect()
    }

    fn stop(&mut self) {
        {
            let mut f = self
                .shared
                .frame
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            f.quit = true;
            self.shared.start.notify_all();
        }
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

impl Drop for Crowd {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raw::{RawBone, RawRig};
    use crate::rig::Rig;

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
        let on_pool: Vec<_> = by_hand.iter().map(|c| c.draw.positions.clone()).collect();
        for (c, p) in by_hand.iter_mut().zip(on_pool) {
            assert_eq!(c.draw_list().positions, p);
        }
        // An empty update and a dropped crowd end cleanly.
        let mut empty = Crowd::new(3);
        assert!(empty.update(1.0));
    }
}
