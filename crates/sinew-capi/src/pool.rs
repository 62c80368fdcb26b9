//! [`sinew_update_many`]: many characters' frames on a persistent pool of std threads.
//!
//! Workers are created once, when a call first asks for more threads than exist, and then
//! wait on a condition variable between calls: no thread is spawned per frame. Each call
//! resolves the handles into a reused list (no allocation once it has grown to the largest
//! batch), publishes it with an epoch number, and the caller and `threads - 1` workers take
//! chunks of characters from an atomic counter. Each character is updated on its own, with
//! its own state, so the results are bit-identical to updating them one by one on one
//! thread, whatever the thread count or the chunk a thread happens to take.

use crate::character::{CharacterObj, SinewCharacter, character_obj};
use crate::{Fail, SinewStatus, guard, slice_arg};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError, RwLock};

/// Most threads a call may use (the caller included).
pub const SINEW_MAX_THREADS: u32 = 64;

/// Characters a thread takes at a time.
const CHUNK: usize = 8;

struct Shared {
    /// The current job: its characters and step.
    jobs: RwLock<Vec<Arc<CharacterObj>>>,
    dt: Mutex<f64>,
    next: AtomicUsize,
    panicked: AtomicBool,
    /// Epoch and how many workers take part in it; `usize::MAX` takers: quit.
    epoch: Mutex<(u64, usize)>,
    start: Condvar,
    /// Workers still busy with the current epoch.
    busy: Mutex<usize>,
    done: Condvar,
}

struct Pool {
    shared: Arc<Shared>,
    /// Workers created so far (until `sinew_pool_shutdown`); also serialises calls.
    workers: Mutex<Vec<std::thread::JoinHandle<()>>>,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool {
        shared: Arc::new(Shared {
            jobs: RwLock::new(Vec::new()),
            dt: Mutex::new(0.0),
            next: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            epoch: Mutex::new((0, 0)),
            start: Condvar::new(),
            busy: Mutex::new(0),
            done: Condvar::new(),
        }),
        workers: Mutex::new(Vec::new()),
    })
}

/// Takes chunks of the current job until none is left.
fn work(shared: &Shared, dt: f64) {
    let jobs = shared.jobs.read().unwrap_or_else(PoisonError::into_inner);
    loop {
        let i = shared.next.fetch_add(CHUNK, Ordering::Relaxed);
        if i >= jobs.len() {
            break;
        }
        for c in &jobs[i..(i + CHUNK).min(jobs.len())] {
            let r = catch_unwind(AssertUnwindSafe(|| c.lock().character.update(dt)));
            if r.is_err() {
                shared.panicked.store(true, Ordering::Relaxed);
            }
        }
    }
}

fn worker(shared: Arc<Shared>, index: usize, mut seen: u64) {
    loop {
        let (epoch, takers) = {
            let mut g = shared.epoch.lock().unwrap_or_else(PoisonError::into_inner);
            while g.0 == seen {
                g = shared.start.wait(g).unwrap_or_else(PoisonError::into_inner);
            }
            *g
        };
        seen = epoch;
        if takers == usize::MAX {
            return;
        }
        if index < takers {
            let dt = *shared.dt.lock().unwrap_or_else(PoisonError::into_inner);
            work(&shared, dt);
            let mut busy = shared.busy.lock().unwrap_or_else(PoisonError::into_inner);
            *busy -= 1;
            if *busy == 0 {
                shared.done.notify_all();
            }
        }
    }
}

/// Runs one frame of `dt` seconds for each of the `count` characters in `characters` (as
/// `sinew_character_update` on each), on `threads` threads: the calling thread
/// plus `threads - 1` workers of a pool the library keeps (created on first use, never per
/// call). `threads` 0 means the machine's available parallelism; at most
/// `SINEW_MAX_THREADS`. Every handle is checked first: one bad handle (or a character
/// listed twice) fails the call before any character is updated. Deterministic (the same
/// bits as updating them one by one on one thread) and allocation-free after the first calls.
/// Calls from several host threads at once are serialised. The characters must not be used
/// by other host threads during the call.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_update_many(
    characters: *const *mut SinewCharacter,
    count: usize,
    dt: f64,
    threads: u32,
) -> SinewStatus {
    guard(|| {
        let handles = slice_arg(characters, count, "characters")?;
        if threads > SINEW_MAX_THREADS {
            return Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!("threads {threads} is more than {SINEW_MAX_THREADS}"),
            ));
        }
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t as usize,
        }
        .clamp(1, SINEW_MAX_THREADS as usize);
        let p = pool();
        let mut workers = p.workers.lock().unwrap_or_else(PoisonError::into_inner);
        let shared = &p.shared;
        {
            let mut jobs = shared.jobs.write().unwrap_or_else(PoisonError::into_inner);
            jobs.clear();
            for (i, &h) in handles.iter().enumerate() {
                match character_obj(h) {
                    Ok(c) => jobs.push(c),
                    Err(mut f) => {
                        jobs.clear();
                        f.message = format!("characters[{i}]: {}", f.message);
                        return Err(f);
                    }
                }
            }
            if has_duplicates(&jobs) {
                jobs.clear();
                return Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    "characters lists a character twice",
                ));
            }
        }
        let dt = if dt.is_finite() { dt } else { 0.0 };
        let helpers = threads.min(count.div_ceil(CHUNK)).saturating_sub(1);
        while workers.len() < helpers {
            let s = shared.clone();
            let index = workers.len();
            let seen = shared
                .epoch
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .0;
            let h = std::thread::Builder::new()
                .name(format!("sinew-update-{index}"))
                .spawn(move || worker(s, index, seen))
                .map_err(|e| Fail::new(SinewStatus::Io, format!("cannot start a thread: {e}")))?;
            workers.push(h);
        }
        shared.panicked.store(false, Ordering::Relaxed);
        shared.next.store(0, Ordering::Relaxed);
        *shared.dt.lock().unwrap_or_else(PoisonError::into_inner) = dt;
        if helpers > 0 {
            *shared.busy.lock().unwrap_or_else(PoisonError::into_inner) = helpers;
            let mut e = shared.epoch.lock().unwrap_or_else(PoisonError::into_inner);
            e.0 += 1;
            e.1 = helpers;
            shared.start.notify_all();
        }
        work(shared, dt);
        if helpers > 0 {
            let mut busy = shared.busy.lock().unwrap_or_else(PoisonError::into_inner);
            while *busy > 0 {
                busy = shared
                    .done
                    .wait(busy)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
        // Keep the list's capacity, drop the references.
        shared
            .jobs
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        drop(workers);
        if shared.panicked.load(Ordering::Relaxed) {
            return Err(Fail::new(
                SinewStatus::Panic,
                "internal error (panic caught) while updating a character",
            ));
        }
        Ok(())
    })
}

/// Whether a character appears twice (addresses sorted in a reused per-thread buffer).
fn has_duplicates(jobs: &[Arc<CharacterObj>]) -> bool {
    thread_local! {
        static SEEN: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    SEEN.with(|seen| {
        let Ok(mut seen) = seen.try_borrow_mut() else {
            return false;
        };
        seen.clear();
        seen.extend(jobs.iter().map(|c| Arc::as_ptr(c).addr()));
        seen.sort_unstable();
        seen.windows(2).any(|w| w[0] == w[1])
    })
}

/// Stops and joins the worker threads of `sinew_update_many`'s pool (a host calls it
/// before unloading the library, e.g. on a Unity domain reload, or at exit so leak checkers
/// see no live threads). Waits for a running `sinew_update_many` to finish first. A later
/// `sinew_update_many` starts workers again.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_pool_shutdown() -> SinewStatus {
    guard(|| {
        let p = pool();
        let mut workers = p.workers.lock().unwrap_or_else(PoisonError::into_inner);
        if workers.is_empty() {
            return Ok(());
        }
        {
            let mut e = p
                .shared
                .epoch
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            e.0 += 1;
            e.1 = usize::MAX;
            p.shared.start.notify_all();
        }
        let mut failed = false;
        for h in workers.drain(..) {
            failed |= h.join().is_err();
        }
        if failed {
            return Err(Fail::new(SinewStatus::Panic, "a pool worker had panicked"));
        }
        Ok(())
    })
}
