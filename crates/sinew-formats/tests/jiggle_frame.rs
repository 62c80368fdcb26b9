//! Jiggle bones (and the delayed follow) on the example character through its rig-extras
//! file: a frame with jiggle and follow allocates nothing after warm-up, two runs give the same bits, hitches and bad frame
//! times never produce non-finite transforms, and an extras file naming an unknown bone
//! is a clear error.
//!
//! A counting global allocator counts allocations made on the test's own thread while the
//! frames run through `Character::update` (animation, world transforms, the jiggle stage);
//! the hitch test feeds raw bad frame times to the stages by hand.

use sinew::anim::AnimationState;
use sinew::physics::follow::{FollowRig, FollowState};
use sinew::physics::jiggle::{JiggleRig, JiggleState};
use sinew::{Instance, Physics, Rig};
use std::path::PathBuf;

use sinew_testutil::alloc::{CountingAlloc, count_allocations};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/stickbot")
        .join(name)
}

fn stickbot() -> (Rig, JiggleRig) {
    let raw =
        sinew_formats::spine::load_spine_json(&example("stickbot.json")).expect("stickbot loads");
    let rig = sinew::build::build_rig(&raw).expect("stickbot builds");
    let extras =
        sinew_formats::extras::load_extras(&example("stickbot.extras.json")).expect("extras parse");
    let jr = JiggleRig::build(&rig, &extras.jiggle).expect("extras attach");
    (rig, jr)
}

/// The delayed follows of the example's extras file (the hair trails the head).
fn stickbot_follows(rig: &Rig) -> FollowRig {
    let extras =
        sinew_formats::extras::load_extras(&example("stickbot.extras.json")).expect("extras parse");
    FollowRig::build(rig, &extras.follow).expect("follows attach")
}

struct Player {
    inst: Instance,
    state: AnimationState,
    jiggle: JiggleState,
    follow: Option<(FollowRig, FollowState)>,
}

impl Player {
    fn new(rig: &Rig, jr: &JiggleRig) -> Player {
        let mut state = AnimationState::new(rig);
        state.set_animation(rig, 0, rig.clip("walk").expect("walk"), true);
        Player {
            inst: Instance::new(rig),
            state,
            jiggle: JiggleState::new(jr),
            follow: None,
        }
    }

    /// One frame; returns a checksum of every world transform. Every stage gets the frame
    /// time raw, bad values included.
    fn frame(&mut self, rig: &Rig, jr: &JiggleRig, dt: f64) -> u64 {
        self.state.update(dt);
        self.state.apply(rig, &mut self.inst);
        self.state.drain_events().for_each(drop);
        self.inst.advance_time(dt);
        sinew::skeleton::update_world_transform(rig, &mut self.inst, Physics::Update);
        if let Some((fr, fs)) = &mut self.follow {
            fs.update(rig, fr, &mut self.inst, dt);
        }
        self.jiggle.update(rig, jr, &mut self.inst, dt);
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for w in &self.inst.world {
            for x in [w.a, w.b, w.c, w.d, w.x, w.y] {
                hash = (hash ^ x.to_bits()).wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash
    }
}

/// Stickbot walking with its extras' jiggle bones, as a host runs it: one call to load,
/// `Character::update` per frame.
fn character() -> sinew::Character {
    let options = sinew_formats::LoadOptions {
        extras: Some(example("stickbot.extras.json")),
        physics3: None,
    };
    let asset = sinew_formats::load_spine(&example("stickbot.json"), None, &options)
        .expect("stickbot loads with its extras");
    let mut c = asset.character();
    c.set_animation(0, "walk", true).expect("walk");
    c
}

/// A checksum of every world transform.
fn world_hash(c: &sinew::Character) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for w in &c.instance().world {
        for x in [w.a, w.b, w.c, w.d, w.x, w.y] {
            hash = (hash ^ x.to_bits()).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

#[test]
fn jiggle_frames_allocate_nothing_and_repeat_bit_for_bit() {
    let (_, jr) = stickbot();
    assert_eq!(jr.bone_count(), 3);
    let mut a = character();
    let mut b = character();
    let dts = [1.0 / 60.0, 1.0 / 30.0, 1.0 / 144.0, 0.25, 1.0 / 60.0];
    for i in 0..60 {
        a.update(dts[i % dts.len()]);
        b.update(dts[i % dts.len()]);
    }
    let mut hashes = Vec::with_capacity(600);
    let allocations = count_allocations(|| {
        for i in 0..600 {
            a.update(dts[i % dts.len()]);
            hashes.push(world_hash(&a));
        }
    });
    assert_eq!(allocations, 0, "jiggle frames allocated");
    for (i, h) in hashes.iter().enumerate() {
        b.update(dts[i % dts.len()]);
        assert_eq!(*h, world_hash(&b), "frame {i} differs");
    }
    // The facade's frame is the stages by hand, bit for bit.
    let (rig, jr) = stickbot();
    let mut by_hand = Player::new(&rig, &jr);
    let fr = stickbot_follows(&rig);
    by_hand.follow = Some((fr.clone(), FollowState::new(&fr)));
    let mut c = character();
    for i in 0..120 {
        by_hand.frame(&rig, &jr, dts[i % dts.len()]);
        c.update(dts[i % dts.len()]);
    }
    assert_eq!(c.instance().world, by_hand.inst.world);
}

#[test]
fn the_cape_and_hair_move_and_stay_finite_through_hitches() {
    let (rig, jr) = stickbot();
    let mut jig = Player::new(&rig, &jr);
    let cape = rig.bone("cape-2").expect("cape-2").index();
    let mut plain = Player::new(&rig, &jr);
    plain
        .jiggle
        .set_strength(jr.chain("cape").expect("cape"), 0.0);
    let mut differs = 0.0f64;
    for (i, dt) in [
        1.0 / 60.0,
        1.0,
        10.0,
        0.0,
        -1.0,
        f64::NAN,
        f64::INFINITY,
        1.0 / 144.0,
    ]
    .iter()
    .cycle()
    .take(300)
    .enumerate()
    {
        let dt = if i < 120 { 1.0 / 60.0 } else { *dt };
        jig.frame(&rig, &jr, dt);
        plain.frame(&rig, &jr, dt);
        for w in &jig.inst.world {
            assert!(
                [w.a, w.b, w.c, w.d, w.x, w.y].iter().all(|v| v.is_finite()),
                "frame {i}"
            );
        }
        differs = differs.max((jig.inst.world[cape].x - plain.inst.world[cape].x).abs());
    }
    // The jiggled cape really departs from the animated one.
    assert!(differs > 1.0, "{differs}");
}

#[test]
fn unknown_bone_names_in_extras_are_errors() {
    let (rig, _) = stickbot();
    let text =
        r#"{"jiggle": {"chains": [{"name": "tail", "bones": ["tail-1"], "preset": "tail"}]}}"#;
    let extras = sinew_formats::extras::parse_extras(text, "bad.json").expect("parses");
    let err = JiggleRig::build(&rig, &extras.jiggle)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert_eq!(err, "chain `tail`: unknown bone `tail-1`");
}
