//! The integration tests of sinew-formats (the loaders, the conformance suites): one test
//! binary, each file here a module of it (one binary links the crate graph once; a binary per
//! file linked it once per file, most of a cold `cargo test --workspace`). Run one file's tests
//! with a name filter: `cargo test -p sinew-formats --test all <module>::`.
//!
//! The tests run in parallel threads of one process: a test that measures or changes
//! something process-wide runs in a process of its own (`sinew_testutil::run_alone`).

// The per-thread counting allocator of the zero-allocation tests (one per binary).
#[global_allocator]
static GLOBAL: sinew_testutil::alloc::CountingAlloc = sinew_testutil::alloc::CountingAlloc;

// Helpers shared by several modules.
mod dragonbones_common;

mod anim_local;
mod asset;
mod atlas;
mod batch_lanes;
mod constraint_mixes;
mod convert_dragonbones;
mod dragonbones_budget;
mod dragonbones_fade;
mod dragonbones_golden;
mod dragonbones_host;
mod dragonbones_images;
mod dragonbones_mutations;
mod dragonbones_nested;
mod dragonbones_playback;
mod dragonbones_random;
mod dragonbones_synthetic;
mod errors;
mod extras_cages;
mod extras_deformers;
mod extras_deformers_db;
mod fast_paths;
mod fixtures;
mod follow_frame;
mod foreign_rig;
mod frame_alloc;
mod fuzz43;
mod fuzz_regressions;
mod inochi2d_alloc;
mod inochi2d_anim;
mod inochi2d_cache;
mod inochi2d_fixtures;
mod inochi2d_meshgroup;
mod inochi2d_mutations;
mod jiggle_frame;
mod load_bytes;
mod memory;
mod mutate;
mod mutations;
mod setup_pose;
mod skel;
mod spine43;
mod spine43_clipping;
mod spine43_features;
mod spine43_upgrade;
mod spine_write;
mod vertices_setup;
