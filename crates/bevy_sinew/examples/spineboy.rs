//! Spineboy walking, running on Space (a crossfade), aiming at the mouse (the `aim` animation
//! on track 1 and the `crosshair` bone placed at an entity that follows the cursor).
//!
//! Needs spineboy from the shared fixtures (`$SINEW_FIXTURES` or `../shared/fixtures`);
//! without them it plays stickbot, aiming its front arm.
//!
//!     cargo run --release --example spineboy

mod common;

use bevy::camera::CompositingSpace;
use bevy::prelude::*;
use bevy_sinew::{SinewBoneTargets, SinewCharacter, SinewRig};

#[derive(Component)]
struct Cursor;

#[derive(Resource)]
struct Hero {
    entity: Entity,
    running: bool,
    spineboy: bool,
}

fn main() {
    common::app("sinew: spineboy (Space: walk/run, mouse: aim)")
        .add_systems(Startup, setup)
        .add_systems(Update, (follow_cursor, walk_or_run))
        .run();
}

fn setup(mut commands: Commands, assets: Res<AssetServer>) {
    commands.spawn((Camera2d, CompositingSpace::Srgb));
    let cursor = commands
        .spawn((Cursor, Transform::from_xyz(200.0, 100.0, 0.0)))
        .id();
    let spineboy = common::has_fixture("spine/spineboy/spineboy-pro.json");
    let (rig, bone): (Handle<SinewRig>, &str) = if spineboy {
        (
            assets.load("fixtures://spine/spineboy/spineboy-pro.json"),
            "crosshair",
        )
    } else {
        eprintln!(
            "spineboy not found under {}: playing stickbot",
            common::fixtures_dir().display()
        );
        (assets.load("stickbot/stickbot.json"), "hand-target-front")
    };
    let entity = commands
        .spawn((
            SinewCharacter::new(rig).with(move |c| {
                let _ = c.set_animation(0, "walk", true);
                if spineboy {
                    c.set_default_mix(0.2);
                    let _ = c.set_animation(1, "aim", true);
                }
            }),
            Transform::from_xyz(0.0, -250.0, 0.0).with_scale(Vec3::splat(if spineboy {
                0.6
            } else {
                1.0
            })),
            SinewBoneTargets::new(bone, cursor),
        ))
        .id();
    commands.insert_resource(Hero {
        entity,
        running: false,
        spineboy,
    });
}

fn follow_cursor(
    windows: Query<&Window>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    mut cursor: Query<&mut Transform, With<Cursor>>,
) {
    let (Ok(window), Ok((camera, at))) = (windows.single(), cameras.single()) else {
        return;
    };
    let Some(p) = window
        .cursor_position()
        .and_then(|p| camera.viewport_to_world_2d(at, p).ok())
    else {
        return;
    };
    for mut t in &mut cursor {
        t.translation = p.extend(0.0);
    }
}

fn walk_or_run(
    keys: Res<ButtonInput<KeyCode>>,
    mut hero: ResMut<Hero>,
    mut q: Query<&mut SinewCharacter>,
) {
    if !keys.just_pressed(KeyCode::Space) || !hero.spineboy {
        return;
    }
    hero.running = !hero.running;
    let name = if hero.running { "run" } else { "walk" };
    if let Ok(mut c) = q.get_mut(hero.entity)
        && let Some(c) = c.character()
    {
        let _ = c.set_animation(0, name, true);
    }
}
