//! [`sinew_update_many`]: many characters' frames on sinew's thread pool
//! ([`sinew::character::Pool`], the one `Crowd` runs on), four characters of one rig at a
//! time in SIMD lanes.
//!
//! The library keeps one pool for the process (behind a lock, which also serialises calls).
//! Its workers are created once, when a call first asks for more threads than exist, and
//! then wait on a condition variable between calls: no thread is spawned per frame. Each
//! call checks every handle and lends the characters to the pool (a reused list: no
//! allocation once it has grown to the largest batch); the pool orders them by rig, updates
//! four of one rig at a time in lanes and the rest one by one, on the caller and
//! `threads - 1` workers, then the list lets go of them. The lanes give the same bits as one
//! character alone, so the results are bit-identical to updating the characters one by one
//! on one thread, whatever the thread count, the order of the list or the characters a
//! thread happens to take.

use crate::character::{CharacterObj, SinewCharacter, character_obj};
use crate::{Fail, SinewStatus, guard, slice_arg};
use sinew::Character;
use sinew::character::{Member, Pool, PoolError};
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

/// Most threads a call may use (the caller included).
pub const SINEW_MAX_THREADS: u32 = 64;

// The ABI's limit is the pool's.
const _: () = assert!(SINEW_MAX_THREADS as usize == sinew::character::MAX_THREADS);

/// A character handle's state, locked, as the pool sees it: its character.
pub(crate) struct Locked<'a>(MutexGuard<'a, crate::character::CharState>);

impl Deref for Locked<'_> {
    type Target = Character;
    fn deref(&self) -> &Character {
        &self.0.character
    }
}

impl DerefMut for Locked<'_> {
    fn deref_mut(&mut self) -> &mut Character {
        &mut self.0.character
    }
}

impl Member for CharacterObj {
    type Guard<'a> = Locked<'a>;

    fn lock(&self) -> Locked<'_> {
        Locked(CharacterObj::lock(self))
    }
}

/// The process's pool.
fn pool() -> MutexGuard<'static, Pool<Arc<CharacterObj>>> {
    static POOL: OnceLock<Mutex<Pool<Arc<CharacterObj>>>> = OnceLock::new();
    POOL.get_or_init(|| Mutex::new(Pool::new()))
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// Runs one frame of `dt` seconds for each of the `count` characters in `characters` (as
/// `sinew_character_update` on each), on `threads` threads: the calling thread plus
/// `threads - 1` workers of a pool the library keeps (created on first use, never per call;
/// fewer if the system refuses to start one, with the same results). `threads` 0 means the
/// machine's available parallelism; at most `SINEW_MAX_THREADS`. Characters of one rig are
/// posed four at a time in SIMD lanes, in any order of the list. Every handle is checked
/// first: one bad handle (or a character listed twice) fails the call before any character
/// is updated. Deterministic (the same bits as updating them one by one on one thread) and
/// allocation-free after the first calls. Calls from several host threads at once are
/// serialised. The characters must not be used by other host threads during the call.
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
        };
        let mut pool = pool();
        {
            let mut members = pool.members_mut();
            members.clear();
            for (i, &h) in handles.iter().enumerate() {
                match character_obj(h) {
                    Ok(c) => members.push(c),
                    Err(mut f) => {
                        members.clear();
                        f.message = format!("characters[{i}]: {}", f.message);
                        return Err(f);
                    }
                }
            }
        }
        let dt = if dt.is_finite() { dt } else { 0.0 };
        let done = pool.update(dt, threads);
        // Keep the list's capacity, let go of the characters.
        pool.members_mut().clear();
        match done {
            Ok(()) => Ok(()),
            Err(PoolError::Duplicate { first, second }) => Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!("characters[{first}] and characters[{second}] are the same character"),
            )),
            Err(e) => Err(Fail::new(
                SinewStatus::Panic,
                format!("internal error while updating the characters: {e}"),
            )),
        }
    })
}

/// Stops and joins the worker threads of `sinew_update_many`'s pool (a host calls it
/// before unloading the library, e.g. on a Unity domain reload, or at exit so leak checkers
/// see no live threads). Waits for a running `sinew_update_many` to finish first. A later
/// `sinew_update_many` starts workers again.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_pool_shutdown() -> SinewStatus {
    guard(|| {
        if pool().shutdown() {
            Ok(())
        } else {
            Err(Fail::new(SinewStatus::Panic, "a pool worker had panicked"))
        }
    })
}
