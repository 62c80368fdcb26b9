//! The integration tests of sinew-capi (the C ABI): one test binary, each file here a module of
//! it (one binary links the crate graph once; a binary per file linked it once per file, most
//! of a cold `cargo test --workspace`). Run one file's tests with a name filter: `cargo test -p
//! sinew-capi --test all <module>::`.
//!
//! The tests run in parallel threads of one process: a test that measures or changes
//! something process-wide runs in a process of its own (`sinew_testutil::run_alone`).

// The per-thread counting allocator of the zero-allocation tests (one per binary).
#[global_allocator]
static GLOBAL: sinew_testutil::alloc::CountingAlloc = sinew_testutil::alloc::CountingAlloc;

// Helpers shared by several modules.
mod common;

mod abi;
mod cage;
mod character_cages;
mod controls;
mod dragonbones;
mod entry_alpha;
mod entry_options;
mod frame_alloc;
mod header;
mod jiggle_chains;
mod jiggle_control;
mod load_memory;
mod render_batches;
mod sliders;
mod spine43;
mod tracks;
mod update_many_mixed;
