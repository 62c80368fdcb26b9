//! The integration tests of sinew-render: one test binary, each file here a module of it (one
//! binary links the crate graph once; a binary per file linked it once per file, most of a cold
//! `cargo test --workspace`). Run one file's tests with a name filter: `cargo test -p
//! sinew-render --test all <module>::`.
//!
//! The tests run in parallel threads of one process: a test that measures or changes
//! something process-wide runs in a process of its own (`sinew_testutil::run_alone`).

// The per-thread counting allocator of the zero-allocation tests (one per binary).
#[global_allocator]
static GLOBAL: sinew_testutil::alloc::CountingAlloc = sinew_testutil::alloc::CountingAlloc;

mod alloc;
mod clip43;
mod clip_cache;
mod examples;
