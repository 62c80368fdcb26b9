//! What the app controls reaches the characters: Bevy's virtual time (pause, relative
//! speed) drives the updates; a hidden character draws nothing (and is updated only while
//! `SinewSettings::update_hidden` says so); the character's `RenderLayers` reach its
//! meshes, also when changed; its meshes stay within `[z, z + 1)` of its own z, so a sprite
//! between two characters' z sorts between them.

use crate::common::{DT, headless_app, repo_root, until_ready};
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy_sinew::draw::SinewBatch;
use bevy_sinew::{SinewCharacter, SinewRig, SinewSettings};

/// Track 0's time of `entity`'s character.
fn track_time(app: &App, entity: Entity) -> f64 {
    let c = app
        .world()
        .get::<SinewCharacter>(entity)
        .expect("a character");
    c.read(|ch| {
        let s = ch.state();
        s.current(0)
            .and_then(|id| s.entry(id))
            .map(|e| e.track_time)
    })
    .flatten()
    .expect("walk plays on track 0")
}

fn walking_stickbot(app: &mut App, at: Transform) -> Entity {
    let rig: Handle<SinewRig> = app.world().resource::<AssetServer>().load("stickbot.json");
    let entity = app
        .world_mut()
        .spawn((
            SinewCharacter::new(rig).with(|c| {
                c.set_animation(0, "walk", true).expect("walk");
            }),
            at,
        ))
        .id();
    until_ready(app, entity, 2000);
    entity
}

fn run(app: &mut App, frames: usize) {
    for _ in 0..frames {
        app.update();
    }
}

#[test]
fn virtual_time_pauses_and_speeds_the_characters() {
    let mut app = headless_app(&repo_root().join("examples/stickbot"));
    let entity = walking_stickbot(&mut app, Transform::default());
    // Bevy's frame times are whole nanoseconds, sinew's track times f32-exact at most.
    let close = |a: f64, b: f64| (a - b).abs() < 1e-6;

    let t0 = track_time(&app, entity);
    run(&mut app, 10);
    let t1 = track_time(&app, entity);
    assert!(close(t1 - t0, 10.0 * DT), "10 frames: {}", t1 - t0);

    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    run(&mut app, 10);
    let t2 = track_time(&app, entity);
    assert_eq!(t2, t1, "paused: the animation holds");

    let mut time = app.world_mut().resource_mut::<Time<Virtual>>();
    time.unpause();
    time.set_relative_speed_f64(2.0);
    run(&mut app, 10);
    let t3 = track_time(&app, entity);
    assert!(close(t3 - t2, 20.0 * DT), "double speed: {}", t3 - t2);
}

/// `entity`'s batch children: (visibility as inherited, render layers, global z).
fn batches(app: &mut App, entity: Entity) -> Vec<(bool, RenderLayers, f32)> {
    let kids: Vec<Entity> = app
        .world()
        .get::<Children>(entity)
        .map(|c| c.iter().collect())
        .unwrap_or_default();
    let mut q = app.world_mut().query_filtered::<(
        &InheritedVisibility,
        &Visibility,
        &RenderLayers,
        &GlobalTransform,
    ), With<SinewBatch>>();
    kids.iter()
        .filter_map(|k| q.get(app.world(), *k).ok())
        .filter(|(_, own, ..)| **own != Visibility::Hidden) // unused batches are hidden
        .map(|(v, _, l, g)| (v.get(), l.clone(), g.translation().z))
        .collect()
}

#[test]
fn visibility_render_layers_and_z_reach_the_meshes() {
    let mut app = headless_app(&repo_root().join("examples/stickbot"));
    let front = walking_stickbot(&mut app, Transform::from_xyz(0.0, 0.0, 2.0));
    let back = walking_stickbot(&mut app, Transform::from_xyz(50.0, 0.0, 1.0));
    app.world_mut()
        .entity_mut(back)
        .insert(RenderLayers::layer(3));
    run(&mut app, 3);

    for (entity, z, layer) in [(front, 2.0, 0), (back, 1.0, 3)] {
        let b = batches(&mut app, entity);
        assert!(
            b.len() >= 3,
            "stickbot draws in several batches: {}",
            b.len()
        );
        for (visible, layers, gz) in &b {
            assert!(*visible, "a shown character's batches are visible");
            assert_eq!(
                *layers,
                RenderLayers::layer(layer),
                "the character's layers"
            );
            assert!(
                (z..z + 1.0).contains(gz),
                "batch z {gz} within [{z}, {}) (a sprite at {} sorts between)",
                z + 1.0,
                z - 0.5
            );
        }
        // Draw order: the batches' z rise with their order.
        let zs: Vec<f32> = b.iter().map(|x| x.2).collect();
        assert!(
            zs.windows(2).all(|w| w[0] <= w[1]) && zs[0] < zs[zs.len() - 1],
            "{zs:?}"
        );
    }

    // New layers on a drawn character reach its meshes the next frame.
    app.world_mut()
        .entity_mut(back)
        .insert(RenderLayers::layer(5));
    run(&mut app, 1);
    assert!(
        batches(&mut app, back)
            .iter()
            .all(|(_, l, _)| *l == RenderLayers::layer(5))
    );

    // Hidden: nothing of it is visible; it keeps its place in the walk (update_hidden).
    app.world_mut().entity_mut(front).insert(Visibility::Hidden);
    let t0 = track_time(&app, front);
    run(&mut app, 5);
    let hidden = batches(&mut app, front);
    assert!(
        !hidden.is_empty() && hidden.iter().all(|(visible, ..)| !visible),
        "a hidden character's meshes are not drawn: {} batches",
        hidden.len()
    );
    let t1 = track_time(&app, front);
    assert!((t1 - t0 - 5.0 * DT).abs() < 1e-6, "updated while hidden");
    // Without update_hidden it holds.
    app.world_mut()
        .resource_mut::<SinewSettings>()
        .update_hidden = false;
    run(&mut app, 5);
    assert_eq!(track_time(&app, front), t1, "not updated while hidden");
    // Shown again: drawn and moving.
    app.world_mut()
        .entity_mut(front)
        .insert(Visibility::Inherited);
    run(&mut app, 2);
    let shown = batches(&mut app, front);
    assert!(!shown.is_empty() && shown.iter().all(|(visible, ..)| *visible));
    assert!(track_time(&app, front) > t1);
}
