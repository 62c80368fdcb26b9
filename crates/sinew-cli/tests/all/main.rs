//! The integration tests of sinew-cli (the `sinew` tool, in process and as a binary): one test
//! binary, each file here a module of it (one binary links the crate graph once; a binary per
//! file linked it once per file, most of a cold `cargo test --workspace`). Run one file's tests
//! with a name filter: `cargo test -p sinew-cli --test all <module>::`.
//!
//! The tests run in parallel threads of one process: a test that measures or changes
//! something process-wide runs in a process of its own (`sinew_testutil::run_alone`).
//!
//! In-process runs of the tool (`sinew_cli::run`, `run_guarded`) apply their `--max-*` flags
//! to that one command (passed down explicitly; there is no process-wide budget:
//! `first_hour::budget_flags_apply_to_their_own_command_only`).

// The per-thread counting allocator of the zero-allocation tests (one per binary).
#[global_allocator]
static GLOBAL: sinew_testutil::alloc::CountingAlloc = sinew_testutil::alloc::CountingAlloc;

// Helpers shared by several modules.
mod common {
    pub mod compare;
    pub mod harness;
    pub mod images;
}

mod cage_cli;
mod cli;
mod convert_cli;
mod docs_commands;
mod dragonbones_cli;
mod dragonbones_render;
mod extras;
mod face_example;
mod first_hour;
mod golden;
mod hostile;
mod hostile_formats;
mod hostile_verbs;
mod inochi2d_anim_cli;
mod inochi2d_cli;
mod inochi2d_composite;
mod inochi2d_render;
mod lint_cli;
mod render;
mod render_stream;
mod render_wgpu;
mod skel_cli;
mod spine43_cli;
mod view;
mod view_editor;
mod view_lattices;
mod view_options;

/// A flagless in-process run sets exactly the default budgets, so tests running beside it
/// see no change.
#[test]
fn in_process_runs_keep_the_default_budgets() {
    use clap::Parser;
    let cli = sinew_cli::args::Cli::parse_from(["sinew", "info", "rig.json"]);
    assert_eq!(
        cli.budgets.budgets(),
        sinew_formats::budget::Budgets::DEFAULT
    );
}
