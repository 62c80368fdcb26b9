//! What the examples share: the asset folders (the repository's `examples/` as the default
//! source, the shared fixtures as `fixtures://`) and the window.
#![allow(dead_code)]

use bevy::asset::io::AssetSourceBuilder;
use bevy::prelude::*;
use std::path::PathBuf;

/// The repository's `examples/` folder.
pub fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// The shared fixtures (official Spine and DragonBones exports): `$SINEW_FIXTURES`, else
/// `../shared/fixtures` beside the repository.
pub fn fixtures_dir() -> PathBuf {
    match std::env::var_os("SINEW_FIXTURES") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures"),
    }
}

/// Whether a fixture file exists (`rel` under [`fixtures_dir`]).
pub fn has_fixture(rel: &str) -> bool {
    fixtures_dir().join(rel).is_file()
}

/// An app with a window titled `title`, the repository's examples as assets and the
/// fixtures as the `fixtures://` source.
pub fn app(title: &str) -> App {
    let mut app = App::new();
    let fixtures = fixtures_dir().to_string_lossy().into_owned();
    app.register_asset_source(
        "fixtures",
        AssetSourceBuilder::platform_default(&fixtures, None),
    )
    .add_plugins(
        DefaultPlugins
            .set(AssetPlugin {
                file_path: examples_dir().to_string_lossy().into_owned(),
                ..default()
            })
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: title.into(),
                    resolution: (960, 720).into(),
                    ..default()
                }),
                ..default()
            }),
    )
    .add_plugins(bevy_sinew::SinewPlugin)
    .insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.2)));
    app
}
