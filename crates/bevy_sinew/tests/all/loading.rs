//! Loading through the asset server: every format sinew reads, from bytes, with its
//! companions; a broken file reaches the app as a `SinewLoadFailed` message naming what is
//! wrong.

use crate::common::{fixture_dir, headless_app, repo_root, until_ready};
use bevy::prelude::*;
use bevy_sinew::{SinewCharacter, SinewLoadFailed, SinewRig};
use std::path::Path;

/// Loads `file` from `dir` through the asset server; the bones and pages it got.
fn load(dir: &Path, file: &str) -> (usize, usize) {
    let mut app = headless_app(dir);
    let rig: Handle<SinewRig> = app.world().resource::<AssetServer>().load(file.to_owned());
    let entity = app.world_mut().spawn(SinewCharacter::new(rig.clone())).id();
    until_ready(&mut app, entity, 2000);
    let rigs = app.world().resource::<Assets<SinewRig>>();
    let r = rigs.get(&rig).unwrap();
    (r.asset.rig.bones.len(), r.pages.len())
}

#[test]
fn every_format_loads_through_the_asset_server() {
    let root = repo_root().join("examples");
    // Spine JSON with two atlas pages (+ the white page); a puppet with embedded textures.
    let (bones, pages) = load(&root.join("stickbot"), "stickbot.json");
    assert_eq!((bones, pages), (20, 3));
    let (bones, pages) = load(&root.join("face"), "face.inp");
    assert!(bones > 0 && pages > 1, "{bones} bones, {pages} pages");
    let Some(spine) = fixture_dir("every_format_loads_through_the_asset_server", "spine") else {
        return;
    };
    let json = load(&spine.join("spineboy"), "spineboy-pro.json");
    let skel = load(&spine.join("spineboy"), "spineboy-pro.skel");
    assert_eq!(json, skel, "JSON and .skel give the same rig");
    let db = fixture_dir("every_format_loads_through_the_asset_server", "dragonbones").unwrap();
    let (bones, pages) = load(&db.join("dragon_boy"), "dragon_boy_ske.json");
    assert!(bones > 0 && pages == 2, "{bones} bones, {pages} pages");
}

#[derive(Resource, Default)]
struct Failures(Vec<String>);

fn collect(mut failed: MessageReader<SinewLoadFailed>, mut out: ResMut<Failures>) {
    out.0.extend(failed.read().map(|f| f.message.clone()));
}

#[test]
fn a_broken_rig_reports_sinews_message() {
    let dir = std::env::temp_dir().join(format!("bevy-sinew-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A slot naming a bone the skeleton lacks.
    std::fs::write(
        dir.join("broken.json"),
        r#"{"skeleton":{"spine":"4.2.00"},"bones":[{"name":"root"}],"slots":[{"name":"s","bone":"nobody"}]}"#,
    )
    .unwrap();
    let mut app = headless_app(&dir);
    app.init_resource::<Failures>().add_systems(Update, collect);
    let _rig: Handle<SinewRig> = app.world().resource::<AssetServer>().load("broken.json");
    for _ in 0..2000 {
        app.update();
        if !app.world().resource::<Failures>().0.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let failures = &app.world().resource::<Failures>().0;
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].contains("nobody"),
        "names the bone: {}",
        failures[0]
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = repo_root();
}
