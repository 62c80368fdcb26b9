//! [`Pool`]: the persistent threads that update many characters, four of one rig at a time
//! in SIMD lanes. [`super::Crowd`] (characters it owns) and the C ABI's `sinew_update_many`
//! (characters behind the host's handles) both run on it: the one thread pool of sinew.
//!
//! The pool updates a list of [`Member`]s: anything that locks to give a [`Character`]
//! (`Mutex<Character>`, an `Arc` of one, a handle object of the C ABI). Each frame first
//! reads every member's rig and orders the members by rig (the host's order does not
//! matter, so characters of one rig listed apart still share lanes), refusing a character
//! listed twice before anything is updated; it cuts the runs of one rig into units of
//! [`LANES`] characters (the world stage shared, `batch.rs`) and single characters (a run's
//! rest, puppets: the parameter stage poses those alone). Then the calling thread and the
//! workers take units from an atomic counter. Each character is updated with its own state,
//! and the lanes give the same bits as [`Character::update`] alone (`batch_lanes`), so the
//! results are bit-identical to updating the members one by one on one thread, whatever
//! the thread count, the members' order or which thread takes which unit.
//!
//! Workers are started when a frame first asks for more threads than exist (or by
//! [`Pool::start`]) and wait on a condition variable between frames: no thread is spawned
//! per frame, and after the first frames (the lists grown to the largest member count)
//! a frame allocates nothing.
//!
//! ```
//! use sinew::character::{Character, Pool};
//! use sinew::raw::{RawBone, RawRig};
//! use std::sync::{Arc, Mutex};
//!
//! let mut raw = RawRig::default();
//! raw.bones.push(RawBone::new("root", None));
//! let rig = Arc::new(sinew::build::build_rig(&raw)?);
//! // Characters the host keeps (behind its own handles), lent to the pool for a frame.
//! let host: Vec<Arc<Mutex<Character>>> = (0..10)
//!     .map(|_| Arc::new(Mutex::new(Character::new(rig.clone()))))
//!     .collect();
//! let mut pool = Pool::new();
//! pool.members_mut().extend(host.iter().cloned());
//! pool.update(1.0 / 60.0, 2)?; // the caller and one worker
//! pool.members_mut().clear(); // the list's capacity stays for the next frame
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Owner: the facade (`Character::update` of many characters, in lanes, on threads).

use super::batch::{can_share, update_lanes_apart};
use super::{Character, LANES};
use std::ops::{Deref, DerefMut};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{
    Arc, Condvar, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard,
};
use std::thread::JoinHandle;

/// Most threads a pool uses (the caller included).
pub const MAX_THREADS: usize = 64;

/// Characters per thread below which a frame wakes no more workers (waking one costs more
/// than a few characters' update).
const PER_THREAD: usize = 8;

/// A character behind a lock, as a [`Pool`] holds it. The pool locks a member only while
/// it reads or updates it, and at most [`LANES`] at a time per thread, all distinct.
pub trait Member: Send + Sync + 'static {
    /// The lock's guard.
    type Guard<'a>: DerefMut<Target = Character>
    where
        Self: 'a;

    /// Locks the character (waiting for another user of it; a poisoned lock is taken as is).
    fn lock(&self) -> Self::Guard<'_>;
}

impl Member for Mutex<Character> {
    type Guard<'a> = MutexGuard<'a, Character>;

    fn lock(&self) -> MutexGuard<'_, Character> {
        Mutex::lock(self).unwrap_or_else(PoisonError::into_inner)
    }
}

impl<M: Member> Member for Arc<M> {
    type Guard<'a> = M::Guard<'a>;

    fn lock(&self) -> M::Guard<'_> {
        M::lock(self)
    }
}

/// Why [`Pool::update`] did not update every member.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PoolError {
    /// Members `first` and `second` (indices, `first < second`) hold the same character;
    /// nothing was updated.
    Duplicate {
        /// The first index.
        first: usize,
        /// The second index.
        second: usize,
    },
    /// A character's update panicked (a bug); the other members were still updated.
    Panicked,
}

impl std::fmt::Display for PoolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PoolError::Duplicate { first, second } => write!(
                f,
                "members {first} and {second} are the same character (nothing was updated)"
            ),
            PoolError::Panicked => write!(f, "a character's update panicked"),
        }
    }
}

impl std::error::Error for PoolError {}

/// One member in a frame's order: sorted by `puppet`, `rig`, then `at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    /// The character has a parameter stage (it never shares lanes).
    puppet: bool,
    /// The address of its rig (characters of one rig share lanes).
    rig: usize,
    /// The address of the character (two equal ones: a member listed twice).
    at: usize,
    /// The member's index.
    index: usize,
}

/// The members and the current frame's plan of them.
#[derive(Debug)]
struct Jobs<M> {
    members: Vec<M>,
    order: Vec<Entry>,
    /// `(start, len)` in `order`: [`LANES`] characters of one rig, or one character.
    units: Vec<(usize, usize)>,
}

/// The frame in progress, as the workers see it.
#[derive(Debug, Default)]
struct Frame {
    /// Frames started so far; a worker runs a frame when this moves past the one it saw.
    epoch: u64,
    /// Workers (by index, from 0) that take part in the current frame.
    takers: usize,
    /// Takers still working on the current frame.
    busy: usize,
    /// Set while the pool stops its workers.
    quit: bool,
}

#[derive(Debug)]
struct Shared<M> {
    jobs: RwLock<Jobs<M>>,
    /// The frame's `dt`, as bits.
    dt: AtomicU64,
    /// The next unit to take.
    next: AtomicUsize,
    panicked: AtomicBool,
    /// Whether each character's draw list is built right after its update.
    draw: AtomicBool,
    frame: Mutex<Frame>,
    start: Condvar,
    done: Condvar,
}

impl<M: Member> Shared<M> {
    fn frame(&self) -> MutexGuard<'_, Frame> {
        self.frame.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Updates units until none is left.
    fn work(&self) {
        let dt = f64::from_bits(self.dt.load(Ordering::Acquire));
        let draw = self.draw.load(Ordering::Acquire);
        let jobs = self.jobs.read().unwrap_or_else(PoisonError::into_inner);
        let Jobs {
            members,
            order,
            units,
        } = &*jobs;
        loop {
            let u = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(start, len)) = units.get(u) else {
                break;
            };
            let Some(unit) = order.get(start..start + len) else {
                break;
            };
            // `Character::update` does not panic; if it (or a member's lock) ever did, the
            // frame still ends (the other units are updated) and the pool reports it.
            let ok = catch_unwind(AssertUnwindSafe(|| update_unit(members, unit, dt, draw)));
            if ok.is_err() {
                self.panicked.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// One unit of a frame: four characters of one rig in lanes, or one character.
fn update_unit<M: Member>(members: &[M], unit: &[Entry], dt: f64, draw: bool) {
    if let [a, b, c, d] = unit {
        // Four distinct characters (`plan` refused duplicates), this thread's alone: taking
        // their four locks cannot deadlock.
        let mut g = [a, b, c, d].map(|e| members[e.index].lock());
        let [a, b, c, d] = &mut g;
        let four = [&mut **a, &mut **b, &mut **c, &mut **d];
        // `plan` read the rigs; checked again under the locks.
        if can_share([&*four[0], &*four[1], &*four[2], &*four[3]]) {
            update_lanes_apart(four, dt);
        } else {
            four.into_iter().for_each(|c| c.update(dt));
        }
        if draw {
            g.iter_mut().for_each(|c| {
                c.draw_list();
            });
        }
    } else {
        for e in unit {
            let mut c = members[e.index].lock();
            c.update(dt);
            if draw {
                c.draw_list();
            }
        }
    }
}

fn worker<M: Member>(shared: Arc<Shared<M>>, index: usize, mut seen: u64) {
    loop {
        {
            let mut f = shared.frame();
            while f.epoch == seen && !f.quit {
                f = shared.start.wait(f).unwrap_or_else(PoisonError::into_inner);
            }
            if f.quit {
                return;
            }
            seen = f.epoch;
            if index >= f.takers {
                continue;
            }
        }
        shared.work();
        let mut f = shared.frame();
        f.busy -= 1;
        if f.busy == 0 {
            shared.done.notify_all();
        }
    }
}

/// Persistent threads and the members they update. See the module docs.
///
/// Owner: the facade: [`Character::update`] of many characters, in lanes, on threads.
#[derive(Debug)]
pub struct Pool<M: Member> {
    shared: Arc<Shared<M>>,
    workers: Vec<JoinHandle<()>>,
}

impl<M: Member> Default for Pool<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Member> Pool<M> {
    /// A pool without members and without workers yet (the caller alone until a frame or
    /// [`Pool::start`] asks for more threads).
    pub fn new() -> Self {
        Pool {
            shared: Arc::new(Shared {
                jobs: RwLock::new(Jobs {
                    members: Vec::new(),
                    order: Vec::new(),
                    units: Vec::new(),
                }),
                dt: AtomicU64::new(0),
                next: AtomicUsize::new(0),
                panicked: AtomicBool::new(false),
                draw: AtomicBool::new(false),
                frame: Mutex::new(Frame::default()),
                start: Condvar::new(),
                done: Condvar::new(),
            }),
            workers: Vec::new(),
        }
    }

    /// Starts workers until the pool has `threads` threads, the caller of
    /// [`Pool::update`] included (at most [`MAX_THREADS`]; 0 and 1 both mean the caller
    /// alone); returns the threads it has. A worker the system refuses to start is left
    /// out (fewer threads, the same results).
    pub fn start(&mut self, threads: usize) -> usize {
        // wasm32 has no threads to start (a web page's module runs on its one thread): the
        // caller alone, the same results.
        let want = if cfg!(target_family = "wasm") {
            0
        } else {
            threads.clamp(1, MAX_THREADS) - 1
        };
        while self.workers.len() < want {
            let (shared, index) = (self.shared.clone(), self.workers.len());
            let seen = self.shared.frame().epoch;
            let spawned = std::thread::Builder::new()
                .name(format!("sinew-pool-{index}"))
                .spawn(move || worker(shared, index, seen));
            match spawned {
                Ok(h) => self.workers.push(h),
                Err(_) => break,
            }
        }
        self.threads()
    }

    /// Threads the pool has now: the caller and the workers started so far.
    pub fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// The members (read only), e.g. to find one by index.
    pub fn members(&self) -> impl Deref<Target = Vec<M>> + '_ {
        Members(
            self.shared
                .jobs
                .read()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    /// The members, to add, remove or reorder (no frame runs meanwhile). Clearing keeps
    /// the list's capacity, so a host that lends its characters for each frame allocates
    /// nothing once the list has grown.
    pub fn members_mut(&mut self) -> impl DerefMut<Target = Vec<M>> + '_ {
        MembersMut(
            self.shared
                .jobs
                .write()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    /// Builds each character's draw list ([`Character::draw_list`], world vertices of every
    /// attachment shown included) right after its update, on the thread that updated it
    /// (off by default).
    pub fn set_build_draw_lists(&mut self, on: bool) {
        self.shared.draw.store(on, Ordering::Release);
    }

    /// Runs one frame of `dt` seconds for every member on up to `threads` threads (as
    /// [`Pool::start`] counts them; workers are started on first need, one per
    /// eight members at most); returns when all are done. The same as calling [`Character::update`] on each member in turn, bit
    /// for bit. A character listed twice fails the frame before anything is updated; a
    /// panicking update is reported after the others are done.
    pub fn update(&mut self, dt: f64, threads: usize) -> Result<(), PoolError> {
        let count = self.plan()?;
        // No more threads than the members keep busy (none started for a small frame).
        let want = threads
            .clamp(1, MAX_THREADS)
            .min(count.div_ceil(PER_THREAD))
            .max(1);
        let helpers = self.start(want).min(want) - 1;
        let s = &*self.shared;
        s.dt.store(dt.to_bits(), Ordering::Release);
        s.next.store(0, Ordering::Release);
        s.panicked.store(false, Ordering::Relaxed);
        if helpers > 0 {
            let mut f = s.frame();
            f.epoch += 1;
            f.takers = helpers;
            f.busy = helpers;
            s.start.notify_all();
        }
        s.work();
        if helpers > 0 {
            let mut f = s.frame();
            while f.busy > 0 {
                f = s.done.wait(f).unwrap_or_else(PoisonError::into_inner);
            }
        }
        if s.panicked.load(Ordering::Relaxed) {
            return Err(PoolError::Panicked);
        }
        Ok(())
    }

    /// The frame's order and units (see the module docs); returns the member count.
    fn plan(&mut self) -> Result<usize, PoolError> {
        let mut jobs = self
            .shared
            .jobs
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let Jobs {
            members,
            order,
            units,
        } = &mut *jobs;
        order.clear();
        units.clear();
        for (index, m) in members.iter().enumerate() {
            let c = m.lock();
            order.push(Entry {
                puppet: c.param_stage,
                rig: Arc::as_ptr(&c.rig).addr(),
                at: std::ptr::from_ref::<Character>(&c).addr(),
                index,
            });
        }
        // `Entry`s are all different (`index`): the order does not depend on the sort.
        order.sort_unstable();
        if let Some(w) = order.windows(2).find(|w| w[0].at == w[1].at) {
            return Err(PoolError::Duplicate {
                first: w[0].index,
                second: w[1].index,
            });
        }
        let mut start = 0;
        while let Some(first) = order.get(start) {
            let run = order[start..]
                .iter()
                .take(LANES)
                .take_while(|e| !e.puppet && !first.puppet && e.rig == first.rig)
                .count();
            let len = if run == LANES { LANES } else { 1 };
            units.push((start, len));
            start += len;
        }
        Ok(members.len())
    }

    /// Stops and joins the workers (a later frame starts them again); `false` if one had
    /// panicked.
    pub fn shutdown(&mut self) -> bool {
        if self.workers.is_empty() {
            return true;
        }
        {
            let mut f = self.shared.frame();
            f.quit = true;
            self.shared.start.notify_all();
        }
        let mut clean = true;
        for w in self.workers.drain(..) {
            clean &= w.join().is_ok();
        }
        self.shared.frame().quit = false;
        clean
    }

    /// Takes the members out (the workers stop).
    pub fn into_members(mut self) -> Vec<M> {
        self.shutdown();
        std::mem::take(&mut *self.members_mut())
    }
}

impl<M: Member> Drop for Pool<M> {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// [`Pool::members`]' guard.
struct Members<'a, M>(RwLockReadGuard<'a, Jobs<M>>);

impl<M> Deref for Members<'_, M> {
    type Target = Vec<M>;
    fn deref(&self) -> &Vec<M> {
        &self.0.members
    }
}

/// [`Pool::members_mut`]' guard.
struct MembersMut<'a, M>(RwLockWriteGuard<'a, Jobs<M>>);

impl<M> Deref for MembersMut<'_, M> {
    type Target = Vec<M>;
    fn deref(&self) -> &Vec<M> {
        &self.0.members
    }
}

impl<M> DerefMut for MembersMut<'_, M> {
    fn deref_mut(&mut self) -> &mut Vec<M> {
        &mut self.0.members
    }
}

#[cfg(test)]
#[path = "pool_tests.rs"]
mod tests;
