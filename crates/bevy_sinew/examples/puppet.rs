//! sinew's Live2D-style face puppet, driven by the keyboard: the arrows turn the head
//! (`ParamAngle`), B held closes the eyes (`ParamEyeLOpen`/`ParamEyeROpen`), Space plays the
//! idle animation (which then drives every parameter) or stops it.
//!
//!     cargo run --release --example puppet

mod common;

use bevy::camera::CompositingSpace;
use bevy::prelude::*;
use bevy_sinew::{SinewCharacter, SinewRig};

#[derive(Resource, Default)]
struct Face {
    angle: Vec2,
    idle: bool,
}

fn main() {
    common::app("sinew: face puppet (arrows: turn, hold B: close the eyes, Space: idle)")
        .init_resource::<Face>()
        .add_systems(Startup, setup)
        .add_systems(Update, drive)
        .run();
}

fn setup(mut commands: Commands, assets: Res<AssetServer>) {
    commands.spawn((Camera2d, CompositingSpace::Srgb));
    let rig: Handle<SinewRig> = assets.load("face/face.inp");
    commands.spawn((
        SinewCharacter::new(rig),
        Transform::from_scale(Vec3::splat(1.5)),
    ));
}

fn drive(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    mut face: ResMut<Face>,
    mut q: Query<&mut SinewCharacter>,
) {
    let step = time.delta_secs() * 1.5;
    let mut d = Vec2::ZERO;
    for (k, v) in [
        (KeyCode::ArrowLeft, Vec2::NEG_X),
        (KeyCode::ArrowRight, Vec2::X),
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::ArrowDown, Vec2::NEG_Y),
    ] {
        if keys.pressed(k) {
            d += v;
        }
    }
    face.angle = (face.angle + d * step).clamp(Vec2::splat(-1.0), Vec2::splat(1.0));
    let toggle = keys.just_pressed(KeyCode::Space);
    if toggle {
        face.idle = !face.idle;
    }
    for mut c in &mut q {
        let Some(c) = c.character() else {
            continue;
        };
        if toggle {
            if face.idle {
                let _ = c.play_param_animation("idle", true);
            } else {
                // Back to the parameters set here: the same asset's character, not playing.
                let anims: std::sync::Arc<[_]> = c.param_animations().into();
                c.set_param_animations(anims);
            }
        }
        if !face.idle {
            // The angle parameter spans -30..30 on both axes.
            let a = face.angle.as_dvec2() * 30.0;
            let _ = c.set_param("ParamAngle", [a.x, a.y]);
            let open = if keys.pressed(KeyCode::KeyB) {
                0.0
            } else {
                1.0
            };
            let _ = c.set_param("ParamEyeLOpen", open);
            let _ = c.set_param("ParamEyeROpen", open);
        }
    }
}
