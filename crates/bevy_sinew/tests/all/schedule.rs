//! Where the update runs: bones read after `SinewSystems::Update` are this frame's (equal to
//! a character updated alone with the same frame times), an entity attached to a bone has
//! this frame's bone in its `GlobalTransform`, and a bone that follows an entity is where
//! the entity is.

use crate::common::{headless_app, repo_root, until_ready};
use bevy::prelude::*;
use bevy::transform::TransformSystems;
use bevy_sinew::sinew::WorldTransform;
use bevy_sinew::{SinewBoneFollower, SinewBoneTargets, SinewCharacter, SinewRig, SinewSystems};

/// Per frame: the frame time, the head bone read after the update, and the follower's
/// global position after transform propagation.
#[derive(Resource, Default)]
struct Seen {
    frames: Vec<(f64, WorldTransform)>,
    follower: Vec<Vec3>,
}

#[derive(Component)]
struct Follower;

fn read_head(time: Res<Time>, q: Query<&SinewCharacter>, mut seen: ResMut<Seen>) {
    for c in &q {
        if let Some(Some(w)) = c.read(|ch| ch.bone_world("head")) {
            seen.frames.push((time.delta_secs_f64(), w));
        }
    }
}

fn read_follower(q: Query<&GlobalTransform, With<Follower>>, mut seen: ResMut<Seen>) {
    for g in &q {
        seen.follower.push(g.translation());
    }
}

#[test]
fn bones_read_after_the_update_are_this_frames() {
    let dir = repo_root().join("examples/stickbot");
    let mut app = headless_app(&dir);
    app.init_resource::<Seen>().add_systems(
        PostUpdate,
        (
            read_head.after(SinewSystems::Update),
            read_follower.after(TransformSystems::Propagate),
        ),
    );
    let rig: Handle<SinewRig> = app.world().resource::<AssetServer>().load("stickbot.json");
    let target = app
        .world_mut()
        .spawn(Transform::from_xyz(160.0, 90.0, 0.0))
        .id();
    let entity = app
        .world_mut()
        .spawn((
            SinewCharacter::new(rig).with(|c| {
                c.set_animation(0, "walk", true).expect("walk");
            }),
            Transform::from_xyz(100.0, 50.0, 0.0),
            SinewBoneTargets::new("hand-target-front", target),
        ))
        .with_child((SinewBoneFollower::new("head"), Follower))
        .id();
    until_ready(&mut app, entity, 2000);
    for _ in 0..30 {
        app.update();
    }

    // The same character alone, updated with the frame times the app used.
    let asset = sinew_formats::load(&dir.join("stickbot.json"), &Default::default()).unwrap();
    let mut alone = asset.character();
    alone.update(0.0); // as the plugin poses a character it builds
    alone.set_animation(0, "walk", true).unwrap();
    let seen = app.world().resource::<Seen>();
    assert!(seen.frames.len() >= 30, "{} frames seen", seen.frames.len());
    let hand = alone.find_bone("hand-target-front").unwrap();
    let parent_is_root = alone.rig().bones[hand.index()].parent;
    for (k, (dt, w)) in seen.frames.iter().enumerate() {
        // Where the app placed the hand target: (160, 90) in the character's space is
        // (60, 40); its parent is the root at the origin.
        let root = parent_is_root.unwrap();
        let local = alone.world_to_local(root, (60.0, 40.0)).unwrap();
        let pose = alone.bone_local(hand).unwrap();
        alone
            .set_bone_local(
                hand,
                sinew::rig::LocalPose {
                    x: local.x,
                    y: local.y,
                    ..pose
                },
            )
            .unwrap();
        alone.update(*dt);
        assert_eq!(
            alone.bone_world("head").unwrap(),
            *w,
            "frame {k}: the head is this frame's"
        );
        let h = alone.bone_world(hand).unwrap();
        assert!(
            (h.x - 60.0).abs() < 1e-6 && (h.y - 40.0).abs() < 1e-6,
            "frame {k}: hand at {h:?}"
        );
    }
    // The follower's global position is the character's plus this frame's head.
    let last = seen.frames.last().unwrap().1;
    let f = *seen.follower.last().unwrap();
    assert!(
        (f.x - (100.0 + last.x as f32)).abs() < 1e-3,
        "{f} vs head {last:?}"
    );
    assert!(
        (f.y - (50.0 + last.y as f32)).abs() < 1e-3,
        "{f} vs head {last:?}"
    );
}
