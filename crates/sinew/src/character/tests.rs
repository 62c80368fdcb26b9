//! Facade tests: ids from elsewhere refused, overrides, mix table sharing, hit tests, time
//! scale and pause, and the update matching the stages called by hand.

use super::*;
use crate::anim::state::MixTable;
use crate::ids::{BoneId, ClipId, IkId, ParamId, SkinId, SlotId};
use crate::raw::{RawBone, RawRig};

/// root -> arm (x 10) -> hand (x 5).
fn rig() -> Arc<Rig> {
    let mut raw = RawRig::default();
    raw.bones.push(RawBone::new("root", None));
    let mut arm = RawBone::new("arm", Some("root"));
    arm.x = 10.0;
    arm.rotation = 90.0;
    raw.bones.push(arm);
    let mut hand = RawBone::new("hand", Some("arm"));
    hand.x = 5.0;
    raw.bones.push(hand);
    Arc::new(crate::build::build_rig(&raw).expect("rig builds"))
}

#[test]
fn foreign_and_unknown_ids_are_refused() {
    let mut c = Character::new(rig());
    assert!(c.set_skins(&[SkinId(3)]).is_err());
    assert!(c.set_animation(0, ClipId(999), true).is_err());
    assert!(c.add_animation(0, ClipId(999), true, 0.0).is_err());
    assert!(c.set_clip_mode(ClipId(0), true).is_err());
    assert!(c.set_bone_local(BoneId(99), LocalPose::IDENTITY).is_err());
    assert!(c.set_ik_target(IkId(0), 1.0, 2.0).is_err());
    assert!(c.set_param(ParamId(0), [0.0, 0.0]).is_err());
    assert!(c.set_animation(0, "nope", true).is_err());
    assert!(c.set_attachment("nope", None::<&str>).is_err());
    assert!(c.set_mix("a", "b", 0.1).is_err());
    assert_eq!(c.bone_world(BoneId(99)), None);
    assert_eq!(c.world_to_local(BoneId(99), (0.0, 0.0)), None);
    let mut out = Vec::new();
    assert!(!c.world_vertices(SlotId(5), &mut out));
    c.update(1.0 / 60.0);
    assert!(c.events().is_empty());
}

#[test]
fn handles_of_another_rig_are_refused() {
    // Two characters of two rigs with the same tables: every index is in range for both,
    // so only the handle's rig tells them apart.
    let (mut a, mut b) = (Character::new(rig()), Character::new(rig()));
    let hand = a.find_bone("hand").expect("hand");
    assert_eq!(hand.id(), BoneId(2));
    let refused = Err(CharacterError::ForeignId {
        kind: "bone",
        index: 2,
    });
    assert_eq!(b.set_bone_local(hand, LocalPose::IDENTITY), refused);
    assert_eq!(b.clear_bone_local(hand), refused);
    assert_eq!(b.bone_world(hand), None);
    assert_eq!(b.bone_local(hand), None);
    assert_eq!(b.world_rotation(hand), None);
    assert_eq!(b.local_to_world(hand, (1.0, 0.0)), None);
    assert_eq!(b.world_to_local(hand, (1.0, 0.0)), None);
    assert_eq!(b.world_to_local_rotation(hand, 1.0), None);
    assert_eq!(b.local_to_world_rotation(hand, 1.0), None);
    // The rig's own character takes it; names and bare ids work on both.
    assert!(a.set_bone_local(hand, LocalPose::IDENTITY).is_ok());
    assert!(b.set_bone_local("hand", LocalPose::IDENTITY).is_ok());
    assert!(b.set_bone_local(BoneId(2), LocalPose::IDENTITY).is_ok());
    assert_eq!(
        b.set_bone_local("foot", LocalPose::IDENTITY),
        Err(CharacterError::UnknownName {
            kind: "bone",
            name: "foot".into(),
            known: vec!["root".into(), "arm".into(), "hand".into()],
        })
    );
    assert_eq!(
        b.set_bone_local("foot", LocalPose::IDENTITY)
            .map_err(|e| e.to_string()),
        Err("bone not found: `foot`; this rig's bones: `root`, `arm`, `hand`".to_owned())
    );
    a.update(0.0);
    b.update(0.0);
    assert_eq!(a.bone_world(hand), b.bone_world("hand"));
}

#[test]
fn update_matches_the_stages_by_hand() {
    let r = rig();
    let mut c = Character::new(r.clone());
    let mut inst = Instance::new(&r);
    for _ in 0..3 {
        c.update(0.25);
        inst.advance_time(0.25);
        crate::skeleton::update_world_transform(&r, &mut inst, Physics::Update);
    }
    assert_eq!(c.instance().world, inst.world);
    assert_eq!(c.instance().time, inst.time);
}

#[test]
fn world_and_local_round_trip() {
    let mut c = Character::new(rig());
    c.update(0.0);
    let hand = c.find_bone("hand").expect("hand");
    let world = c.local_to_world(hand, (2.0, 1.0)).expect("known bone");
    // arm at (10, 0) turned 90 degrees, hand 5 along it: (2, 1) in the hand is (9, 7) (to
    // Spine's float pi and fast trig: ~3e-7).
    assert!(
        (world.x - 9.0).abs() < 1e-5 && (world.y - 7.0).abs() < 1e-5,
        "{world:?}"
    );
    let local = c.world_to_local(hand, world).expect("known bone");
    let (lx, ly) = (local.x, local.y);
    assert!((lx - 2.0).abs() < 1e-9 && (ly - 1.0).abs() < 1e-9);
    let w = c.world_rotation(hand).expect("known bone");
    assert!((w - 90.0).abs() < 1e-3, "{w}");
    let local = c.world_to_local_rotation(hand, 120.0).expect("known bone");
    let back = c.local_to_world_rotation(hand, local).expect("known bone");
    assert!((back - 120.0).abs() < 1e-6, "{back}");
}

#[test]
fn bone_locals_from_code_hold_until_cleared() {
    let mut c = Character::new(rig());
    let arm = c.find_bone("arm").expect("arm");
    let pose = LocalPose {
        x: 3.0,
        ..LocalPose::IDENTITY
    };
    c.set_bone_local(arm, pose).expect("known bone");
    c.update(0.1);
    let w = c.bone_world(arm).expect("known bone");
    assert_eq!((w.x, w.y), (3.0, 0.0));
    c.set_to_setup_pose();
    c.update(0.1);
    assert_eq!(
        c.bone_world(arm).map(|w| w.x),
        Some(3.0),
        "held every frame"
    );
    c.clear_bone_local(arm).expect("known bone");
    c.set_to_setup_pose();
    c.update(0.1);
    assert_eq!(c.bone_world(arm).map(|w| w.x), Some(10.0));
}

#[test]
fn pause_and_time_scale_scale_the_clock() {
    let mut c = Character::new(rig());
    assert!(c.set_time_scale(0.5));
    assert!(!c.set_time_scale(f64::NAN));
    c.update(1.0);
    assert_eq!(c.instance().time, 0.5);
    c.set_paused(true);
    c.update(1.0);
    assert_eq!(c.instance().time, 0.5);
    c.set_paused(false);
    c.update(f64::INFINITY);
    assert_eq!(c.instance().time, 0.5);
}

#[test]
fn a_shared_mix_table_serves_every_character() {
    let r = rig();
    let mut table = MixTable::new(0.3);
    table.set(ClipId(0), ClipId(1), 0.7);
    let table = Arc::new(table);
    let mut a = Character::new(r.clone());
    let mut b = Character::new(r);
    a.set_mix_table(table.clone());
    b.set_mix_table(table.clone());
    assert_eq!(a.state().mix(ClipId(0), ClipId(1)), 0.7);
    assert_eq!(b.state().mix(ClipId(1), ClipId(0)), 0.3);
    assert!(Arc::ptr_eq(a.state().mix_table(), &table));
    // Changing one character's mixes copies the table for it alone.
    a.state_mut().set_mix(ClipId(1), ClipId(0), 0.1);
    assert_eq!(a.state().mix(ClipId(1), ClipId(0)), 0.1);
    assert_eq!(b.state().mix(ClipId(1), ClipId(0)), 0.3);
}

#[test]
fn polygons_hit_points_and_segments() {
    let square = [0.0f32, 0.0, 10.0, 0.0, 10.0, 10.0, 0.0, 10.0];
    assert!(bounds::tests_api::contains(&square, 5.0, 5.0));
    assert!(!bounds::tests_api::contains(&square, 15.0, 5.0));
    assert!(bounds::tests_api::intersects(&square, -5.0, 5.0, 5.0, 5.0));
    assert!(!bounds::tests_api::intersects(
        &square, -5.0, 20.0, 5.0, 20.0
    ));
    let mut c = Character::new(rig());
    c.update(0.0);
    assert!(c.hit_bounds().aabb().is_none());
    assert_eq!(c.hit_test(0.0, 0.0), None);
}

#[test]
fn fit_view_keeps_the_aspect() {
    assert_eq!(
        fit_view([0.0, 0.0, 100.0, 50.0], 200, 200),
        [0.0, -25.0, 100.0, 75.0]
    );
    assert_eq!(
        fit_view([0.0, 0.0, 10.0, 10.0], 20, 10),
        [-5.0, 0.0, 15.0, 10.0]
    );
}

#[test]
fn entry_events_belong_to_their_entry() {
    use crate::anim::state::StateEventKind;
    use crate::raw::RawClip;
    let mut raw = RawRig::default();
    raw.bones.push(RawBone::new("root", None));
    raw.clips.push(RawClip {
        name: "a".into(),
        ..RawClip::default()
    });
    raw.clips.push(RawClip {
        name: "b".into(),
        ..RawClip::default()
    });
    let r = Arc::new(crate::build::build_rig(&raw).expect("rig builds"));
    let mut c = Character::new(r);
    let a = c.set_animation(0, "a", false).expect("a");
    c.update(0.1);
    assert!(
        c.entry_events(a)
            .any(|e| matches!(e.kind, StateEventKind::Start)),
        "a started"
    );
    let b = c.set_animation(0, "b", false).expect("b");
    c.update(0.1);
    assert!(c.entry_events(b).all(|e| e.entry == b));
    assert!(
        c.entry_events(b)
            .any(|e| matches!(e.kind, StateEventKind::Start))
    );
}

#[test]
fn characters_move_between_threads() {
    fn send<T: Send + Sync>() {}
    send::<Character>();
    send::<SkeletonBounds>();
}

#[test]
fn jiggle_bones_and_follows_of_another_rig_are_refused() {
    use crate::physics::follow::{FollowDesc, FollowRig};
    use crate::physics::jiggle::{ChainDesc, JiggleDesc, JiggleRig, Preset};
    // A rig with more bones than `rig()`: its jiggle bones index past the small rig's.
    let mut raw = RawRig::default();
    raw.bones.push(RawBone::new("root", None));
    for i in 0..6 {
        let parent = if i == 0 {
            "root".to_owned()
        } else {
            format!("b{}", i - 1)
        };
        let mut b = RawBone::new(&format!("b{i}"), Some(&parent));
        b.length = 10.0;
        b.x = 10.0;
        raw.bones.push(b);
    }
    let big = Arc::new(crate::build::build_rig(&raw).expect("builds"));
    let mut desc = JiggleDesc::new();
    desc.chains
        .push(ChainDesc::new("tail", &["b4", "b5"], Preset::Tail.params()));
    let jr = Arc::new(JiggleRig::build(&big, &desc).expect("jiggle"));
    let fr = Arc::new(FollowRig::build(&big, &[FollowDesc::new("f", "b5", "b1")]).expect("follow"));
    let mut small = Character::new(rig());
    let err = small
        .set_jiggle(Some(jr.clone()))
        .expect_err("another rig's jiggle");
    assert_eq!(
        err.to_string(),
        "these jiggle bones were built for another rig"
    );
    assert!(small.set_follows(Some(fr.clone())).is_err());
    small.update(1.0 / 60.0); // nothing attached: no index past the small rig
    // The same rig built twice is two rigs: its tables are refused by the other build.
    let again = Arc::new(crate::build::build_rig(&raw).expect("builds"));
    assert_ne!(big.uid, again.uid);
    assert!(Character::new(again).set_jiggle(Some(jr.clone())).is_err());
    // Its own rig's character takes them.
    let mut own = Character::new(big);
    own.set_jiggle(Some(jr)).expect("own rig");
    own.set_follows(Some(fr)).expect("own rig");
    own.update(1.0 / 60.0);
}
