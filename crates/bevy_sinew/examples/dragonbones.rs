//! A DragonBones armature (dragon_boy from the shared fixtures): 1-4 pick stand, walk, jump,
//! fall, played the DragonBones way (`Character::play`).
//!
//!     cargo run --release --example dragonbones

mod common;

use bevy::camera::CompositingSpace;
use bevy::prelude::*;
use bevy_sinew::{SinewCharacter, SinewRig};

const CLIPS: [(KeyCode, &str); 4] = [
    (KeyCode::Digit1, "stand"),
    (KeyCode::Digit2, "walk"),
    (KeyCode::Digit3, "jump"),
    (KeyCode::Digit4, "fall"),
];

fn main() {
    if !common::has_fixture("dragonbones/dragon_boy/dragon_boy_ske.json") {
        eprintln!(
            "dragon_boy not found under {} (set SINEW_FIXTURES)",
            common::fixtures_dir().display()
        );
        std::process::exit(1);
    }
    common::app("sinew: DragonBones (1-4: stand, walk, jump, fall)")
        .add_systems(Startup, setup)
        .add_systems(Update, pick)
        .run();
}

fn setup(mut commands: Commands, assets: Res<AssetServer>) {
    commands.spawn((Camera2d, CompositingSpace::Srgb));
    let rig: Handle<SinewRig> =
        assets.load("fixtures://dragonbones/dragon_boy/dragon_boy_ske.json");
    commands.spawn((
        SinewCharacter::new(rig).with(|c| {
            let _ = c.play(0, "walk");
        }),
        Transform::from_xyz(0.0, -200.0, 0.0),
    ));
}

fn pick(keys: Res<ButtonInput<KeyCode>>, mut q: Query<&mut SinewCharacter>) {
    for (key, name) in CLIPS {
        if keys.just_pressed(key) {
            for mut c in &mut q {
                if let Some(c) = c.character() {
                    let _ = c.play(0, name);
                }
            }
        }
    }
}
