//! Jiggle bones (and the delayed follow) on the example character through its rig-extras
//! file: a frame with jiggle and follow allocates nothing after warm-up, two runs give the same bits, hitches and bad frame
//! times never produce non-finite transforms, and an extras file naming an unknown bone
//! is a clear error.
//!
//! A counting global allocator counts allocations made on the test's own thread while the
//! frames run through `Character::update` (animation, world transforms, the jiggle stage);
//! the hitch test feeds bad frame times to `Character::update`.

use sinew::Rig;
use sinew::physics::jiggle::JiggleRig;
use std::path::PathBuf;

use sinew_testutil::alloc::count_allocations;

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

/// Stickbot walking with its extras' jiggle bones, as a host runs it: one call to load,
/// `Character::update` per frame.
fn character() -> sinew::Character {
    let options = sinew_formats::LoadOptions {
        extras: sinew_formats::Companion::Named("stickbot.extras.json".into()),
        ..Default::default()
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
}

#[test]
fn the_cape_and_hair_move_and_stay_finite_through_hitches() {
    let (rig, jr) = stickbot();
    let cape = rig.bone("cape-2").expect("cape-2").index();
    let mut jig = character();
    let mut plain = character();
    let (plain_jr, plain_js) = plain.jiggle_mut().expect("stickbot has jiggle bones");
    let chain = plain_jr.chain("cape").expect("cape");
    plain_js.set_strength(chain, 0.0);
    assert_eq!(jr.chain("cape"), Some(chain));
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
        jig.update(dt);
        plain.update(dt);
        for w in &jig.instance().world {
            assert!(
                [w.a, w.b, w.c, w.d, w.x, w.y].iter().all(|v| v.is_finite()),
                "frame {i}"
            );
        }
        differs =
            differs.max((jig.instance().world[cape].x - plain.instance().world[cape].x).abs());
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

/// The cheap-at-a-distance and animator paths (chains every N-th step, off, at strength 0,
/// culled, the whole character coarse; strength, stiffness and damping tracks and fade
/// events of the walk) allocate nothing after warm-up, and two runs give the same bits.
#[test]
fn lod_culling_and_cue_frames_allocate_nothing() {
    let mut extras =
        sinew_formats::extras::load_extras(&example("stickbot.extras.json")).expect("extras");
    let cues = r#"{ "jiggle": { "animations": { "walk": {
        "strength": { "cape": [ { "time": 0, "value": 1 }, { "time": 0.4, "value": 0.3 },
                                { "time": 0.8, "value": 1, "curve": [0.4, 0, 0.6, 1] } ] },
        "stiffness": { "*": [ { "time": 0, "value": 1 }, { "time": 0.5, "value": 2 } ] },
        "damping": { "hair": [ { "time": 0.2, "value": 0.5, "curve": "stepped" },
                               { "time": 0.6, "value": 1.5 } ] },
        "events": [ { "time": 0.3, "chain": "hair", "strength": 0.2, "fade": 0.2 },
                    { "time": 0.7, "strength": 1, "fade": 0.1 } ] } } } }"#;
    extras.jiggle.animations = sinew_formats::extras::parse_extras(cues, "cues.json")
        .expect("cues parse")
        .jiggle
        .animations;
    let make = || {
        let mut c = character();
        let jr = JiggleRig::build(c.rig(), &extras.jiggle).expect("attach");
        c.set_jiggle(Some(std::sync::Arc::new(jr)))
            .expect("this rig's");
        c
    };
    let (mut a, mut b) = (make(), make());
    let dts = [1.0 / 60.0, 1.0 / 30.0, 1.0 / 144.0, 0.25, 1.0 / 60.0];
    // Settings per 50-frame phase, applied to both characters alike.
    let phase = |c: &mut sinew::Character, p: usize| {
        let (jr, js) = c.jiggle_mut().expect("jiggle");
        js.set_chain_every(0, [1, 3, 1, 1, 2, 1][p % 6]);
        js.set_chain_enabled(1, p % 6 != 2);
        js.set_lod(
            jr,
            if p % 6 == 3 {
                sinew::physics::jiggle::Lod::Coarse
            } else {
                sinew::physics::jiggle::Lod::Full
            },
        );
        js.set_view(if p % 6 == 5 {
            Some([1e6, 1e6, 1e6 + 1.0, 1e6 + 1.0])
        } else {
            None
        });
    };
    for i in 0..60 {
        phase(&mut a, i / 10);
        phase(&mut b, i / 10);
        a.update(dts[i % dts.len()]);
        b.update(dts[i % dts.len()]);
    }
    let mut hashes = Vec::with_capacity(600);
    let allocations = count_allocations(|| {
        for i in 0..600 {
            phase(&mut a, i / 50);
            a.update(dts[i % dts.len()]);
            hashes.push(world_hash(&a));
        }
    });
    assert_eq!(allocations, 0, "jiggle frames allocated");
    for (i, h) in hashes.iter().enumerate() {
        phase(&mut b, i / 50);
        b.update(dts[i % dts.len()]);
        assert_eq!(*h, world_hash(&b), "frame {i} differs");
    }
}
