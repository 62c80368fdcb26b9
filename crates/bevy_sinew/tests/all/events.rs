//! sinew's events arrive as `SinewEvent` messages, each once: the footstep keys of stickbot's
//! walk, counted by a reader over many frames, equal the key events a character updated
//! alone fires over the same frame times.

use crate::common::{headless_app, repo_root, until_ready};
use bevy::prelude::*;
use bevy_sinew::sinew::anim::state::StateEventKind;
use bevy_sinew::{SinewCharacter, SinewEvent, SinewRig, SinewSystems};

#[derive(Resource, Default)]
struct Heard {
    footsteps: Vec<f64>,
    starts: usize,
    dts: Vec<f64>,
}

fn listen(time: Res<Time>, mut events: MessageReader<SinewEvent>, mut heard: ResMut<Heard>) {
    heard.dts.push(time.delta_secs_f64());
    for e in events.read() {
        match e.event.kind {
            StateEventKind::Event(f) if e.is_key("footstep") => heard.footsteps.push(f.time),
            StateEventKind::Start => heard.starts += 1,
            _ => {}
        }
    }
}

#[test]
fn events_are_delivered_once() {
    let dir = repo_root().join("examples/stickbot");
    let mut app = headless_app(&dir);
    // Read in Update (the next frame) and after the update (this frame): each reader sees
    // every event once.
    app.init_resource::<Heard>()
        .add_systems(PostUpdate, listen.after(SinewSystems::Update));
    let rig: Handle<SinewRig> = app.world().resource::<AssetServer>().load("stickbot.json");
    let entity = app
        .world_mut()
        .spawn(SinewCharacter::new(rig).with(|c| {
            c.set_animation(0, "walk", true).expect("walk");
        }))
        .id();
    until_ready(&mut app, entity, 2000);
    let built_at = app.world().resource::<Heard>().dts.len();
    for _ in 0..240 {
        app.update();
    }
    let heard = app.world().resource::<Heard>();
    // The character alone over the frames since it was built.
    let asset = sinew_formats::load(&dir.join("stickbot.json"), &Default::default()).unwrap();
    let mut alone = asset.character();
    alone.update(0.0); // as the plugin poses a character it builds
    alone.set_animation(0, "walk", true).unwrap();
    let mut expected = Vec::new();
    for dt in &heard.dts[built_at - 1..] {
        alone.update(*dt);
        expected.extend(alone.key_events().map(|f| f.time));
    }
    assert!(
        expected.len() >= 4,
        "4 s of walking has footsteps: {expected:?}"
    );
    assert_eq!(heard.footsteps, expected, "each footstep once, in order");
    assert_eq!(heard.starts, 1, "one start event");
}
