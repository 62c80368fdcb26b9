//! The README's "Use it in Bevy" program: stickbot walking, a turn on a click, footsteps
//! logged. (Here the assets are the repository's `examples/` folder; in a game, `assets/`.)
//!
//!     cargo run --release --example quickstart

use bevy::camera::CompositingSpace;
use bevy::prelude::*;
use bevy_sinew::{SinewCharacter, SinewEvent, SinewPlugin, SinewRig};

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(AssetPlugin {
                file_path: concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples").into(),
                ..default()
            }),
            SinewPlugin,
        ))
        .add_systems(Startup, setup)
        .add_systems(Update, (run_on_click, footsteps))
        .run();
}

fn setup(mut commands: Commands, assets: Res<AssetServer>) {
    // Srgb compositing blends like Spine's and Inochi2D's runtimes (and sinew's renderers).
    commands.spawn((Camera2d, CompositingSpace::Srgb));
    let rig: Handle<SinewRig> = assets.load("stickbot/stickbot.json");
    commands.spawn((
        // Commands given before the rig has loaded run when it has.
        SinewCharacter::new(rig).with(|c| {
            let _ = c.set_animation(0, "walk", true);
        }),
        Transform::from_xyz(0.0, -150.0, 0.0),
    ));
}

// Any `sinew::Character` method from a system: animations, crossfades, skins, attachments,
// parameters, IK targets and mixes, jiggle.
fn run_on_click(mouse: Res<ButtonInput<MouseButton>>, mut q: Query<&mut SinewCharacter>) {
    if mouse.just_pressed(MouseButton::Left) {
        for mut c in &mut q {
            if let Some(c) = c.character() {
                let _ = c.set_animation(0, "turn", false);
                let _ = c.add_animation(0, "walk", true, 0.0);
            }
        }
    }
}

// sinew's events (starts, completes, key events) as Bevy messages, each read once.
fn footsteps(mut events: MessageReader<SinewEvent>) {
    for e in events.read() {
        if e.is_key("footstep") {
            info!("footstep of {:?}", e.entity);
        }
    }
}
