//! A headless Bevy app with the plugin, and helpers to drive it frame by frame.

use bevy::app::PluginsState;
use bevy::log::LogPlugin;
use bevy::prelude::*;
use bevy::render::pipelined_rendering::PipelinedRenderingPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy::window::ExitCondition;
use bevy::winit::WinitPlugin;
use bevy_sinew::{SinewCharacter, SinewPlugin};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The frame time every test app advances by.
pub const DT: f64 = 1.0 / 60.0;

/// The repository root (bevy_sinew is crates/bevy_sinew).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A folder of the shared fixtures, with the project's policy (skip with a notice, or fail
/// under CI=true).
pub fn fixture_dir(test: &str, sub: &str) -> Option<PathBuf> {
    sinew_testutil::require_fixtures(test).map(|d| d.join(sub))
}

/// An app with Bevy's default plugins but no window, no logger (unless `SINEW_TEST_LOG` is
/// set) and no pipelined rendering,
/// assets read from `root`, the time advancing by [`DT`] per update; the plugins finished.
pub fn headless_app(root: &Path) -> App {
    let mut app = App::new();
    let mut plugins = DefaultPlugins.build();
    if std::env::var_os("SINEW_TEST_LOG").is_none() {
        plugins = plugins.disable::<LogPlugin>();
    }
    app.add_plugins(
        plugins
            .set(AssetPlugin {
                file_path: root.to_string_lossy().into_owned(),
                ..default()
            })
            .set(WindowPlugin {
                primary_window: None,
                exit_condition: ExitCondition::DontExit,
                close_when_requested: false,
                ..default()
            })
            .disable::<WinitPlugin>()
            .disable::<PipelinedRenderingPlugin>(),
    )
    .add_plugins(SinewPlugin)
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        DT,
    )));
    while app.plugins_state() == PluginsState::Adding {
        bevy::tasks::tick_global_task_pools_on_main_thread();
    }
    app.finish();
    app.cleanup();
    app
}

/// Updates until `entity`'s character exists (its rig loaded), at most `frames` updates.
pub fn until_ready(app: &mut App, entity: Entity, frames: usize) {
    for _ in 0..frames {
        app.update();
        let ready = app
            .world()
            .get::<SinewCharacter>(entity)
            .is_some_and(SinewCharacter::is_ready);
        if ready {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the character's rig did not load in {frames} frames");
}
