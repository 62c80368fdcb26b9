//! A counting global allocator for the zero-allocation tests.
//!
//! A test binary installs it with
//! `#[global_allocator] static GLOBAL: CountingAlloc = CountingAlloc;` (each crate's one
//! integration-test binary does, in `tests/all/main.rs`) and measures a region with
//! [`count_allocations`]. Counts are per thread: the test harness runs tests in parallel, and
//! one test must never see another's allocations. The process-wide measures
//! ([`count_all_threads`], [`peak_bytes`]) see every thread, so a test using them runs in a
//! process of its own ([`crate::run_alone`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};

/// Whether [`peak_bytes`] is measuring (every thread's allocations count then).
static GLOBAL_ON: AtomicBool = AtomicBool::new(false);
/// Bytes allocated minus freed by every thread since [`peak_bytes`] started.
static GLOBAL_LIVE: AtomicIsize = AtomicIsize::new(0);
/// The most [`GLOBAL_LIVE`] reached.
static GLOBAL_PEAK: AtomicIsize = AtomicIsize::new(0);
/// Whether [`count_all_threads`] is counting (every thread's allocations count then).
static COUNT_ALL_ON: AtomicBool = AtomicBool::new(false);
/// Allocations by every thread since [`count_all_threads`] started.
static COUNT_ALL: AtomicUsize = AtomicUsize::new(0);

/// Forwards every call to the system allocator and counts allocations (alloc, alloc_zeroed,
/// realloc) made on a thread while that thread is inside [`count_allocations`].
pub struct CountingAlloc;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    /// Bytes allocated minus bytes freed on this thread while counting.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The most `LIVE` reached since [`thread_peak_bytes`] last started on this thread.
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn note_allocation() {
    if COUNT_ALL_ON.load(Ordering::Relaxed) {
        COUNT_ALL.fetch_add(1, Ordering::Relaxed);
    }
    // `try_with`: the thread-locals may already be gone while a thread shuts down.
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    }
}

fn note_bytes(delta: isize) {
    if GLOBAL_ON.load(Ordering::Relaxed) {
        let now = GLOBAL_LIVE.fetch_add(delta, Ordering::Relaxed) + delta;
        GLOBAL_PEAK.fetch_max(now, Ordering::Relaxed);
    }
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        let _ = LIVE.try_with(|n| {
            let now = n.get() + delta;
            n.set(now);
            let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
        });
    }
}

#[allow(unsafe_code)]
// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        note_bytes(layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        note_bytes(layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        note_bytes(new_size as isize - layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note_bytes(-(layout.size() as isize));
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Runs `f` and returns how many allocations it made on this thread (0 unless the binary
/// installed [`CountingAlloc`] as its global allocator).
pub fn count_allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    let was = COUNTING.with(|c| c.replace(true));
    f();
    COUNTING.with(|c| c.set(was));
    ALLOCATIONS.with(Cell::get) - before
}

/// Uneven frame times the zero-allocation tests step with: 60, 30 and 144 Hz frames and a
/// quarter-second hitch.
pub const FRAME_DTS: [f64; 5] = [1.0 / 60.0, 1.0 / 30.0, 1.0 / 144.0, 0.25, 1.0 / 60.0];

/// The zero-allocation frame check: steps two identical players (`a`, `b`: one frame of `dt`
/// seconds, returning a hash of what it produced) through 120 warm-up frames of
/// [`FRAME_DTS`], then asserts `a` allocates nothing over 600 more frames and `b` hashes the
/// same as `a`, frame by frame. Returns `a`'s 600 hashes. The binary must install
/// [`CountingAlloc`].
pub fn assert_frames_allocate_nothing_and_repeat(
    label: &str,
    mut a: impl FnMut(f64) -> u64,
    mut b: impl FnMut(f64) -> u64,
) -> Vec<u64> {
    let dt = |i: usize| FRAME_DTS[i % FRAME_DTS.len()];
    for i in 0..120 {
        a(dt(i));
        b(dt(i));
    }
    let mut hashes = Vec::with_capacity(600);
    let allocations = count_allocations(|| {
        for i in 0..600 {
            hashes.push(a(dt(i)));
        }
    });
    assert_eq!(
        allocations, 0,
        "{label}: {allocations} allocations in 600 frames after warm-up"
    );
    for (i, want) in hashes.iter().enumerate() {
        let got = b(dt(i));
        assert_eq!(
            got, *want,
            "{label}: frame {i} differs between two identical players"
        );
    }
    hashes
}

/// Runs `f` and returns its result with the heap bytes it left allocated on this thread
/// (allocated minus freed: the heap size of what `f` built and returned). 0 unless the binary
/// installed [`CountingAlloc`].
pub fn live_bytes<R>(f: impl FnOnce() -> R) -> (R, isize) {
    let before = LIVE.with(Cell::get);
    let was = COUNTING.with(|c| c.replace(true));
    let r = f();
    COUNTING.with(|c| c.set(was));
    (r, LIVE.with(Cell::get) - before)
}

/// Runs `f` and returns its result with the peak of heap bytes live at once on this thread
/// while it ran (relative to when it started): what a loader reserved at its most, e.g. from
/// a count a file declares. Per thread, so tests may run in parallel. 0 unless the binary
/// installed [`CountingAlloc`].
pub fn thread_peak_bytes<R>(f: impl FnOnce() -> R) -> (R, isize) {
    let was = COUNTING.with(|c| c.replace(true));
    let base = LIVE.with(Cell::get);
    let outer = PEAK.with(|p| p.replace(base));
    let r = f();
    let peak = PEAK.with(Cell::get);
    // An enclosing measure keeps the larger peak.
    PEAK.with(|p| p.set(outer.max(peak)));
    COUNTING.with(|c| c.set(was));
    (r, peak - base)
}

/// Runs `f` and returns its result with the peak of heap bytes live at once, over every
/// thread, while it ran (relative to when it started: what `f` and the threads it started
/// held at their most). 0 unless the binary installed [`CountingAlloc`]. Allocations of other
/// threads of the process count too: a test measuring this way runs in a process of its own
/// ([`crate::run_alone`]).
pub fn peak_bytes<R>(f: impl FnOnce() -> R) -> (R, isize) {
    GLOBAL_LIVE.store(0, Ordering::SeqCst);
    GLOBAL_PEAK.store(0, Ordering::SeqCst);
    GLOBAL_ON.store(true, Ordering::SeqCst);
    let r = f();
    GLOBAL_ON.store(false, Ordering::SeqCst);
    (r, GLOBAL_PEAK.load(Ordering::SeqCst))
}

/// Runs `f` and returns how many allocations every thread of the process made while it ran
/// (`f`'s own, its worker threads' and any other thread's: a test measuring this way runs in
/// a process of its own, [`crate::run_alone`]). 0 unless the binary installed
/// [`CountingAlloc`].
pub fn count_all_threads(f: impl FnOnce()) -> usize {
    COUNT_ALL.store(0, Ordering::SeqCst);
    COUNT_ALL_ON.store(true, Ordering::SeqCst);
    f();
    COUNT_ALL_ON.store(false, Ordering::SeqCst);
    COUNT_ALL.load(Ordering::SeqCst)
}
