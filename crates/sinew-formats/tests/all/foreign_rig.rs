//! The stage API with parts of two rigs crossed: an `Instance`, an `AnimationState`, jiggle
//! bones or follows made for one rig and passed with another are refused (nothing happens,
//! never a panic), and tracks past `MAX_TRACKS` are refused instead of allocating.

use sinew::anim::state::{AnimationState, MAX_TRACKS};
use sinew::draw::{DrawList, DrawSetup, build_draw_list, finish_draw_list};
use sinew::physics::follow::FollowState;
use sinew::physics::jiggle::JiggleState;
use sinew::{Character, CharacterError, ClipId, Color, Instance, Physics, SlotId};
use std::path::Path;

fn load(path: &str, atlas: Option<&str>) -> sinew_formats::Asset {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let extras = path
        .ends_with("stickbot.json")
        .then_some("stickbot.extras.json");
    let options = sinew_formats::LoadOptions {
        extras: sinew_formats::Companion::named_or_without(extras),
        ..Default::default()
    };
    let atlas = atlas.map(|a| root.join(a));
    match atlas {
        Some(a) => sinew_formats::load_spine(&root.join(path), Some(&a), &options),
        None => sinew_formats::load_inochi2d(&root.join(path), &options),
    }
    .expect("example loads")
}

#[test]
fn stages_refuse_an_instance_of_another_rig() {
    let bot = load("stickbot/stickbot.json", Some("stickbot/stickbot.atlas"));
    let face = load("face/face.inp", None);
    // A stickbot instance, posed a little, then handed to every stage with the face's rig.
    let mut inst = Instance::new(&bot.rig);
    sinew::skeleton::update_world_transform(&bot.rig, &mut inst, Physics::Update);
    assert!(inst.is_for(&bot.rig) && !inst.is_for(&face.rig));
    let before = format!("{inst:?}");
    let other = &face.rig;
    sinew::skeleton::update_world_transform(other, &mut inst, Physics::Update);
    sinew::character::update_params(other, &mut inst, 1.0 / 60.0, true);
    sinew::params::apply_params(other, &mut inst);
    sinew::params::finalize_params(other, &mut inst);
    sinew::deformer::apply_deformers(other, &mut inst);
    inst.set_to_setup_pose(other);
    inst.set_skins(other, &[]);
    inst.set_attachment(other, SlotId(0), None);
    let mut state = AnimationState::new(other);
    assert!(
        !state.apply(other, &mut inst),
        "another rig's instance is not posed"
    );
    let mut bot_state = AnimationState::new(&bot.rig);
    assert!(
        !bot_state.apply(other, &mut inst),
        "nor with a state of another rig"
    );
    sinew::anim::apply_clip(
        other,
        &mut inst,
        ClipId(0),
        0.0,
        0.5,
        true,
        None,
        1.0,
        sinew::anim::MixBlend::Replace,
        sinew::anim::MixDirection::In,
    );
    assert_eq!(format!("{inst:?}"), before, "nothing was written");

    // Reading stages give nothing rather than indexing the wrong tables.
    let mut out = vec![0.0f32; 64];
    sinew::deform::compute_world_vertices(other, &inst, SlotId(0), &mut out);
    assert!(out.iter().all(|&v| v == 0.0));
    assert_eq!(sinew::deform::point_world(other, &inst, SlotId(0)), None);
    assert_eq!(
        sinew::deform::sequence_region_index(other, &inst, SlotId(0)),
        None
    );
    let mut list = DrawList::for_rig(other);
    build_draw_list(other, &inst, Color::WHITE, &mut list);
    finish_draw_list(other, &inst, &DrawSetup::default(), &mut list);
    assert!(list.commands.is_empty());
    // The instance still poses with its own rig.
    let mut own = DrawList::for_rig(&bot.rig);
    build_draw_list(&bot.rig, &inst, Color::WHITE, &mut own);
    assert!(!own.commands.is_empty());
}

#[test]
fn jiggle_and_follows_refuse_another_rig() {
    let bot = load("stickbot/stickbot.json", Some("stickbot/stickbot.atlas"));
    let face = load("face/face.inp", None);
    let jr = bot.jiggle.clone().expect("stickbot has jiggle bones");
    let fr = bot.follow.clone().expect("stickbot has a delayed follow");
    let mut inst = Instance::new(&face.rig);
    let before = format!("{inst:?}");
    let mut js = JiggleState::new(&jr);
    js.update(&face.rig, &jr, &mut inst, 1.0 / 60.0);
    let mut fs = FollowState::new(&fr);
    fs.update(&face.rig, &fr, &mut inst, 1.0 / 60.0);
    assert_eq!(format!("{inst:?}"), before);
    // With a stickbot instance but the face's rig, nothing either.
    let mut bot_inst = Instance::new(&bot.rig);
    let bot_before = format!("{bot_inst:?}");
    assert!(!js.fits(&face.rig, &jr, &bot_inst) && js.fits(&bot.rig, &jr, &bot_inst));
    js.update(&face.rig, &jr, &mut bot_inst, 1.0 / 60.0);
    fs.update(&face.rig, &fr, &mut bot_inst, 1.0 / 60.0);
    assert_eq!(format!("{bot_inst:?}"), bot_before);
}

#[test]
fn tracks_past_the_limit_are_refused_not_allocated() {
    let bot = load("stickbot/stickbot.json", Some("stickbot/stickbot.atlas"));
    let mut c: Character = bot.character();
    for track in [MAX_TRACKS, u32::MAX as usize, usize::MAX] {
        let refused = CharacterError::TrackOutOfRange { track };
        assert_eq!(c.set_animation(track, "walk", true), Err(refused.clone()));
        assert_eq!(
            c.add_animation(track, "walk", true, 0.0),
            Err(refused.clone())
        );
        assert_eq!(c.set_empty_animation(track, 0.2), Err(refused));
    }
    let last = MAX_TRACKS - 1;
    assert!(c.set_animation(last, "walk", true).is_ok());
    c.update(1.0 / 60.0);
    // The state itself refuses another rig's clips and tracks out of range.
    let face = load("face/face.inp", None);
    let mut state = AnimationState::new(&bot.rig);
    assert_eq!(state.set_animation(&face.rig, 0, ClipId(0), true), None);
    assert_eq!(state.set_animation(&bot.rig, 0, ClipId(999), true), None);
    assert_eq!(
        state.add_animation(&bot.rig, MAX_TRACKS, ClipId(0), true, 0.0),
        None
    );
    assert!(state.set_animation(&bot.rig, 0, ClipId(0), true).is_some());
}

#[test]
fn handles_found_on_one_load_are_refused_by_another() {
    // The same file loaded twice: two rigs with the same tables, so every index is in
    // range for both; the handles remember which rig they came from.
    let one = load("stickbot/stickbot.json", Some("stickbot/stickbot.atlas"));
    let two = load("stickbot/stickbot.json", Some("stickbot/stickbot.atlas"));
    let (a, mut b) = (one.character(), two.character());
    let ik = a.find_ik(&one.rig.ik[0].name).expect("an IK constraint");
    let slot = a.find_slot(&one.rig.slots[0].name).expect("a slot");
    let clip = a.find_clip("walk").expect("walk");
    assert!(matches!(
        b.set_ik_target(ik, 1.0, 2.0),
        Err(CharacterError::ForeignId { .. })
    ));
    assert!(matches!(
        b.set_animation(0, clip, true),
        Err(CharacterError::ForeignId { .. })
    ));
    assert_eq!(b.attachment(slot), None);
    assert!(!b.world_vertices(slot, &mut Vec::new()));
    if let Some(skin) = one.rig.skins.first().and_then(|s| a.find_skin(&s.name)) {
        assert!(b.set_skins(&[skin]).is_err());
    }
    // Its own ids and the names work.
    let own = b.find_ik(&two.rig.ik[0].name).expect("an IK constraint");
    assert!(b.set_ik_target(own, 1.0, 2.0).is_ok());
    assert!(b.set_animation(0, "walk", true).is_ok());
    assert_eq!(b.attachment(slot.id()), a.attachment(slot));
}
