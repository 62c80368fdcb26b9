//! Characters of one rig at one z merged into shared meshes (crowd.rs): fewer draws, the
//! same picture as sinew's CPU render of each character in its place.

use crate::common::{headless_app, repo_root};
use crate::render::{SIZE, capture, compare};
use bevy::prelude::*;
use bevy_sinew::{SinewBatches, SinewCharacter, SinewRig, SinewSettings, SinewStats};
use sinew_render::{Canvas, CharacterRenderer, View};

/// Three stickbots side by side at one z (they do not overlap, so the CPU's order of
/// drawing them is no matter), drawn merged or not.
fn three_stickbots(merge: bool) -> (Vec<u8>, Vec<u8>, usize, usize) {
    let mut app = headless_app(&repo_root().join("examples/stickbot"));
    app.insert_resource(SinewSettings {
        merge,
        ..SinewSettings::default()
    });
    // Time stands still from the start: each pose is its own `update(t)` alone, whichever
    // frame its rig is ready in (the merged and unmerged apps are compared pixel for pixel).
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    let rig: Handle<SinewRig> = app.world().resource::<AssetServer>().load("stickbot.json");
    let offsets = [-450.0f32, 0.0, 450.0];
    let entities: Vec<Entity> = offsets
        .iter()
        .enumerate()
        .map(|(i, &dx)| {
            let t = 0.2 + 0.15 * i as f64;
            app.world_mut()
                .spawn((
                    SinewCharacter::new(rig.clone()).with(move |c| {
                        c.set_animation(0, "walk", true).expect("walk");
                        c.update(t);
                    }),
                    Transform::from_xyz(dx, 0.0, 0.0),
                ))
                .id()
        })
        .collect();
    for e in &entities {
        crate::common::until_ready(&mut app, *e, 2000);
    }
    app.update();
    let [x0, y0, x1, y1] = app
        .world_mut()
        .get_mut::<SinewCharacter>(entities[1])
        .and_then(|mut c| c.character().and_then(|c| c.fit_view(SIZE, SIZE, 0.05)))
        .expect("shows something");
    let (h, cx) = ((y1 - y0).max(x1 - x0) * 1.6, (x0 + x1) / 2.0);
    let (cy, w) = ((y0 + y1) / 2.0, 1100.0f64.max((y1 - y0) * 1.6));
    let view = [cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0];
    let gpu = capture(&mut app, view);
    let draws = app.world().resource::<SinewStats>().batches;
    let per_character: usize = entities
        .iter()
        .filter_map(|e| app.world().get::<SinewBatches>(*e).map(SinewBatches::drawn))
        .sum();
    let textures = {
        let rigs = app.world().resource::<Assets<SinewRig>>();
        sinew_render::asset_textures(&rigs.get(&rig).expect("loaded").asset).expect("textures")
    };
    let mut canvas = Canvas::new(
        SIZE,
        SIZE,
        bevy_sinew::sinew::Color::new(0.0, 0.0, 0.0, 0.0),
    );
    for (e, dx) in entities.iter().zip(offsets) {
        // A character moved by dx is the character in a view moved by -dx.
        let dx = f64::from(dx);
        let v = View {
            x0: view[0] - dx,
            y0: view[1],
            x1: view[2] - dx,
            y1: view[3],
        };
        let mut c = app.world_mut().get_mut::<SinewCharacter>(*e).unwrap();
        CharacterRenderer::new().draw(c.character().unwrap(), &textures, &v, &mut canvas);
    }
    let cpu = canvas
        .pixels
        .iter()
        .flat_map(|p| p.map(|v| (v * 255.0).round().clamp(0.0, 255.0) as u8))
        .collect();
    (gpu, cpu, draws, per_character)
}

#[test]
fn characters_of_one_rig_at_one_z_draw_merged() {
    let (gpu, cpu, draws, batches) = three_stickbots(true);
    let (iou, psnr) = compare(&gpu, &cpu);
    let (flat, _, flat_draws, _) = three_stickbots(false);
    let (same_iou, same_psnr) = compare(&gpu, &flat);
    println!(
        "three stickbots: {draws} draws merged ({flat_draws} not, {batches} batches); \
         vs CPU IoU {iou:.4} PSNR {psnr:.2} dB; merged vs not IoU {same_iou:.4} PSNR {same_psnr:.2} dB"
    );
    assert_eq!(flat_draws, batches, "unmerged: one draw per batch");
    assert!(
        draws * 2 <= batches,
        "merged: {draws} draws for {batches} batches"
    );
    assert!(
        iou >= 0.98 && psnr >= 30.0,
        "IoU {iou:.4}, PSNR {psnr:.2} dB"
    );
    assert!(same_psnr >= 40.0, "merged vs not: {same_psnr:.2} dB");
}
