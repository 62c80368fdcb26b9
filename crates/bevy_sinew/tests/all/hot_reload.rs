//! Hot reload: a rig file rewritten on disk and reloaded through the asset server rebuilds
//! the characters playing it on the new rig, still playing the same animation from the same
//! time; the entity and its other components stay.

use crate::common::{headless_app, repo_root, until_ready};
use bevy::prelude::*;
use bevy_sinew::{SinewCharacter, SinewRig};

#[test]
fn a_reloaded_rig_keeps_its_characters_playing() {
    let src = repo_root().join("examples/stickbot");
    let dir = std::env::temp_dir().join(format!("bevy-sinew-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in [
        "stickbot.json",
        "stickbot.atlas",
        "stickbot.png",
        "stickbot_2.png",
    ] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let mut app = headless_app(&dir);
    let rig: Handle<SinewRig> = app.world().resource::<AssetServer>().load("stickbot.json");
    let entity = app
        .world_mut()
        .spawn(SinewCharacter::new(rig).with(|c| {
            c.set_animation(0, "walk", true).expect("walk");
        }))
        .id();
    until_ready(&mut app, entity, 2000);
    for _ in 0..20 {
        app.update();
    }
    let read = |app: &App| {
        app.world()
            .get::<SinewCharacter>(entity)
            .unwrap()
            .read(|c| {
                let s = c.state();
                let e = s.entry(s.current(0).unwrap()).unwrap();
                (
                    c.rig().uid(),
                    c.rig().clips[e.clip.index()].name.clone(),
                    e.track_time,
                    c.rig().bones[1].length,
                )
            })
            .unwrap()
    };
    let (uid, clip, time, _) = read(&app);

    // The hip bone made longer: a different rig, same names.
    let text = std::fs::read_to_string(dir.join("stickbot.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["bones"][1]["length"] = serde_json::json!(123.0);
    std::fs::write(
        dir.join("stickbot.json"),
        serde_json::to_vec(&json).unwrap(),
    )
    .unwrap();
    app.world()
        .resource::<AssetServer>()
        .reload("stickbot.json");
    let mut reloaded = None;
    for _ in 0..2000 {
        app.update();
        let now = read(&app);
        if now.0 != uid {
            reloaded = Some(now);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let (_, clip2, time2, length) = reloaded.expect("the character was rebuilt on the new rig");
    assert_eq!(length, 123.0, "the new rig");
    assert_eq!(clip2, clip, "the same animation");
    assert!(time2 > time, "playing on from {time} (now {time2})");
    let _ = std::fs::remove_dir_all(&dir);
}
