//! The integration tests of sinew: one test binary, each file here a module of it (one binary
//! links the crate graph once; a binary per file linked it once per file, most of a cold `cargo
//! test --workspace`). Run one file's tests with a name filter: `cargo test -p sinew --test all
//! <module>::`.
//!
//! The tests run in parallel threads of one process: a test that measures or changes
//! something process-wide runs in a process of its own (`sinew_testutil::run_alone`).

// The per-thread counting allocator of the zero-allocation tests (one per binary).
#[global_allocator]
static GLOBAL: sinew_testutil::alloc::CountingAlloc = sinew_testutil::alloc::CountingAlloc;

// Helpers shared by several modules.
mod cage_motion;

mod cage_alloc;
mod cage_oracle;
mod cage_sparse;
mod chain_alloc;
mod examples;
mod jiggle3d_alloc;
