//! The integration tests of sinew-wgpu: one test binary, each file here a module of it (one
//! binary links the crate graph once; a binary per file linked it once per file, most of a cold
//! `cargo test --workspace`). Run one file's tests with a name filter: `cargo test -p
//! sinew-wgpu --test all <module>::`.
//!
//! The tests run in parallel threads of one process: a test that measures or changes
//! something process-wide runs in a process of its own (`sinew_testutil::run_alone`).

// Helpers shared by several modules.
mod noop;

mod clip43;
mod noop_spineboy;
mod synthetic;
