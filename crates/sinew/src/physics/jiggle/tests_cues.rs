//! The animator's cues through the facade (`Character`): a death clip whose strength track
//! fades the hair to 0, and a fade event, each against its closed form at 30, 60 and 144
//! fps; stiffness and damping scale tracks against chains built with the scaled values;
//! looping events; crossfades; curves; build errors.

use super::cues::sample;
use super::*;
use crate::character::Character;
use crate::raw::{BoneProperty, RawBone, RawClip, RawCurve, RawKey, RawKeyData, RawRig};
use crate::raw::{RawTarget, RawTimeline};
use crate::rig::Rig;
use std::sync::Arc;

/// root -> body (up) -> hair1 -> hair2; clips `death` (1 s), `walk` (1 s) and `idle`
/// (1 s), each a still body rotation.
fn rig() -> Arc<Rig> {
    let mut raw = RawRig::default();
    let mut bone = |name: &str, parent: Option<&str>, len: f64, x: f64, rot: f64| {
        let mut b = RawBone::new(name, parent);
        b.length = len;
        b.x = x;
        b.rotation = rot;
        raw.bones.push(b);
    };
    bone("root", None, 0.0, 0.0, 0.0);
    bone("body", Some("root"), 50.0, 0.0, 90.0);
    bone("hair1", Some("body"), 20.0, 50.0, 180.0);
    bone("hair2", Some("hair1"), 20.0, 20.0, 0.0);
    for name in ["death", "walk", "idle"] {
        let key = |time: f64| RawKey {
            time,
            values: vec![0.0],
            curve: RawCurve::Linear,
            data: RawKeyData::None,
        };
        raw.clips.push(RawClip {
            name: name.to_owned(),
            timelines: vec![RawTimeline {
                target: RawTarget::Bone {
                    bone: "body".to_owned(),
                    property: BoneProperty::Rotate,
                },
                keys: vec![key(0.0), key(1.0)],
            }],
            playback: None,
        });
    }
    Arc::new(crate::build::build_rig(&raw).unwrap_or_else(|e| panic!("test rig: {e}")))
}

fn desc(params: JiggleParams, animations: Vec<AnimCuesDesc>) -> JiggleDesc {
    let mut d = JiggleDesc::new();
    d.gravity = [0.0, -980.0];
    d.chains
        .push(ChainDesc::new("hair", &["hair1", "hair2"], params));
    d.animations = animations;
    d
}

fn character(rig: &Arc<Rig>, d: &JiggleDesc) -> Character {
    let jr = JiggleRig::build(rig, d).unwrap_or_else(|e| panic!("{e}"));
    let mut c = Character::new(rig.clone());
    c.set_jiggle(Some(Arc::new(jr))).expect("this rig's");
    c
}

/// The body sways so the hair has something to do.
fn sway(c: &mut Character, t: f64) {
    c.set_position(30.0 * (4.0 * t).sin(), 5.0 * (7.0 * t).sin());
}

fn strength_of(c: &mut Character) -> f64 {
    let (_, js) = c.jiggle_mut().expect("jiggle");
    js.effective_strength(0)
}

/// The world rotation of `bone`, degrees.
fn angle(c: &Character, bone: usize) -> f64 {
    let w = c.instance().world[bone];
    w.c.atan2(w.a).to_degrees()
}

fn wrap(d: f64) -> f64 {
    (d + 540.0).rem_euclid(360.0) - 180.0
}

fn track(chain: Option<&str>, property: CueProperty, keys: Vec<CueKey>) -> CueTrackDesc {
    CueTrackDesc {
        chain: chain.map(str::to_owned),
        property,
        keys,
    }
}

const FPS: [f64; 3] = [30.0, 60.0, 144.0];

#[test]
fn a_death_clip_fades_the_hair_to_zero_as_its_closed_form() {
    let rig = rig();
    let fade = 0.5;
    let death = AnimCuesDesc {
        animation: "death".to_owned(),
        tracks: vec![track(
            Some("hair"),
            CueProperty::Strength,
            vec![CueKey::new(0.0, 1.0), CueKey::new(fade, 0.0)],
        )],
        events: Vec::new(),
    };
    let hair1 = rig.bone("hair1").expect("hair1").index();
    for fps in FPS {
        let dt = 1.0 / fps;
        let mut cued = character(&rig, &desc(Preset::HairTip.params(), vec![death.clone()]));
        let mut full = character(&rig, &desc(Preset::HairTip.params(), Vec::new()));
        let mut plain = Character::new(rig.clone());
        for c in [&mut cued, &mut full, &mut plain] {
            c.set_animation(0, "death", false).expect("death");
        }
        let frames = (fade * fps).round() as usize;
        let mut swung = 0.0f64;
        for f in 1..=frames + 10 {
            let t = f as f64 * dt;
            for c in [&mut cued, &mut full, &mut plain] {
                sway(c, t);
                c.update(dt);
            }
            // Closed form of the keyed strength: 1 - t / fade, then 0.
            let want = (1.0 - t / fade).max(0.0);
            let got = strength_of(&mut cued);
            assert!(
                (got - want).abs() < 1e-9,
                "{fps} fps frame {f}: {got} vs {want}"
            );
            // The chain's root shows that share of the full simulation's swing.
            let anim = angle(&plain, hair1);
            let off_full = wrap(angle(&full, hair1) - anim);
            let off = wrap(angle(&cued, hair1) - anim);
            swung = swung.max(off_full.abs());
            assert!(
                (off - want * off_full).abs() < 1e-7,
                "{fps} fps frame {f}: {off} vs {want} x {off_full}"
            );
            if f > frames {
                // Faded out: exactly the animated pose.
                assert_eq!(cued.instance().world, plain.instance().world, "frame {f}");
            }
        }
        assert!(
            swung > 1.0,
            "{fps} fps: the hair swung only {swung} degrees"
        );
    }
}

#[test]
fn a_fade_event_follows_its_closed_form_at_every_frame_rate() {
    let rig = rig();
    let (at, fade) = (0.2, 0.25);
    let death = AnimCuesDesc {
        animation: "death".to_owned(),
        tracks: Vec::new(),
        events: vec![FadeEventDesc {
            time: at,
            chain: None,
            strength: 0.0,
            fade,
        }],
    };
    for fps in FPS {
        let dt = 1.0 / fps;
        let mut c = character(&rig, &desc(Preset::HairTip.params(), vec![death.clone()]));
        c.set_animation(0, "death", false).expect("death");
        for f in 1..=(fps as usize) {
            let t = f as f64 * dt;
            sway(&mut c, t);
            c.update(dt);
            let want = (1.0 - (t - at) / fade).clamp(0.0, 1.0);
            let got = strength_of(&mut c);
            assert!(
                (got - want).abs() < 1e-9,
                "{fps} fps frame {f}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn looping_events_fire_once_per_loop() {
    let rig = rig();
    let walk = AnimCuesDesc {
        animation: "walk".to_owned(),
        tracks: Vec::new(),
        events: vec![
            FadeEventDesc {
                time: 0.25,
                chain: Some("hair".to_owned()),
                strength: 0.0,
                fade: 0.0,
            },
            FadeEventDesc {
                time: 0.75,
                chain: Some("hair".to_owned()),
                strength: 1.0,
                fade: 0.0,
            },
        ],
    };
    let mut c = character(&rig, &desc(Preset::HairTip.params(), vec![walk]));
    c.set_animation(0, "walk", true).expect("walk");
    let dt = 1.0 / 60.0;
    for f in 1..=180 {
        let t = f as f64 * dt;
        sway(&mut c, t);
        c.update(dt);
        let phase = t % 1.0;
        if [0.25, 0.75].iter().any(|e| (phase - e).abs() < 1e-6) {
            // Animation time is a sum of frame times: on the event's time either side holds.
            continue;
        }
        let want = if (0.25..0.75).contains(&phase) {
            0.0
        } else {
            1.0
        };
        assert_eq!(strength_of(&mut c), want, "frame {f} (phase {phase})");
    }
}

#[test]
fn stiffness_and_damping_tracks_equal_chains_built_with_the_scaled_values() {
    let rig = rig();
    let base = Preset::HairTip.params();
    for (property, scale) in [(CueProperty::Stiffness, 4.0), (CueProperty::Damping, 0.25)] {
        let cues = AnimCuesDesc {
            animation: "walk".to_owned(),
            tracks: vec![track(None, property, vec![CueKey::new(0.0, scale)])],
            events: Vec::new(),
        };
        let mut scaled = base;
        match property {
            CueProperty::Stiffness => scaled.stiffness *= scale,
            _ => scaled.damping *= scale,
        }
        let mut cued = character(&rig, &desc(base, vec![cues]));
        let mut twin = character(&rig, &desc(scaled, Vec::new()));
        let mut unscaled = character(&rig, &desc(base, Vec::new()));
        for c in [&mut cued, &mut twin, &mut unscaled] {
            c.set_animation(0, "walk", true).expect("walk");
        }
        let mut differs = false;
        for (f, dt) in [1.0 / 60.0, 1.0 / 144.0, 1.0 / 30.0]
            .iter()
            .cycle()
            .take(120)
            .enumerate()
        {
            let t = f as f64 / 60.0;
            for c in [&mut cued, &mut twin, &mut unscaled] {
                sway(c, t);
                c.update(*dt);
            }
            assert_eq!(
                cued.instance().world,
                twin.instance().world,
                "{property:?} frame {f}"
            );
            differs |= cued.instance().world != unscaled.instance().world;
        }
        assert!(differs, "{property:?}: the scale changed nothing");
    }
}

#[test]
fn a_track_mixed_out_fades_with_the_crossfade() {
    let rig = rig();
    let death = AnimCuesDesc {
        animation: "death".to_owned(),
        tracks: vec![track(
            None,
            CueProperty::Strength,
            vec![CueKey::new(0.0, 0.0)],
        )],
        events: Vec::new(),
    };
    let mut c = character(&rig, &desc(Preset::HairTip.params(), vec![death]));
    c.set_animation(0, "death", true).expect("death");
    c.update(1.0 / 60.0);
    assert_eq!(strength_of(&mut c), 0.0);
    c.state_mut().set_mix_by_name(&rig, "death", "idle", 0.5);
    c.set_animation(0, "idle", true).expect("idle");
    let mut last = 0.0;
    for _ in 0..40 {
        c.update(1.0 / 60.0);
        let s = strength_of(&mut c);
        assert!(s >= last - 1e-12 && s <= 1.0, "{s} after {last}");
        last = s;
    }
    assert_eq!(last, 1.0, "the mix is over: the track no longer counts");
}

#[test]
fn curves_sample_as_documented() {
    let keys = [
        CueKey {
            time: 1.0,
            value: 0.0,
            curve: CueCurve::Stepped,
        },
        CueKey {
            time: 2.0,
            value: 1.0,
            curve: CueCurve::Bezier([0.42, 0.0, 0.58, 1.0]),
        },
        CueKey {
            time: 3.0,
            value: 0.0,
            curve: CueCurve::Bezier([1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0]),
        },
        CueKey::new(4.0, 0.5),
    ];
    assert_eq!(sample(&keys, -1.0), 0.0);
    assert_eq!(sample(&keys, 1.9), 0.0, "stepped holds");
    assert_eq!(sample(&keys, 2.0), 1.0);
    // The symmetric ease is 0.5 half way, below the line before, above after.
    assert!((sample(&keys, 2.5) - 0.5).abs() < 1e-9);
    assert!(sample(&keys, 2.25) > 0.75 && sample(&keys, 2.75) < 0.25);
    // The straight Bezier is the line.
    assert!((sample(&keys, 3.3) - 0.15).abs() < 1e-9);
    assert_eq!(sample(&keys, 9.0), 0.5);
    assert_eq!(sample(&[], 1.0), 1.0);
}

#[test]
fn bad_cues_are_reported_all_at_once() {
    let rig = rig();
    let bad = vec![
        AnimCuesDesc {
            animation: "fly".to_owned(),
            ..Default::default()
        },
        AnimCuesDesc {
            animation: "death".to_owned(),
            tracks: vec![
                track(
                    Some("cape"),
                    CueProperty::Strength,
                    vec![CueKey::new(0.0, 1.0)],
                ),
                track(None, CueProperty::Strength, vec![CueKey::new(0.0, 2.0)]),
                track(
                    None,
                    CueProperty::Stiffness,
                    vec![CueKey::new(1.0, 1.0), CueKey::new(0.5, 1.0)],
                ),
                track(None, CueProperty::Damping, Vec::new()),
            ],
            events: vec![FadeEventDesc {
                time: f64::NAN,
                chain: None,
                strength: 0.0,
                fade: 0.0,
            }],
        },
        AnimCuesDesc {
            animation: "death".to_owned(),
            ..Default::default()
        },
    ];
    let err = JiggleRig::build(&rig, &desc(Preset::HairTip.params(), bad))
        .expect_err("bad cues")
        .to_string();
    for want in [
        "jiggle animation `fly`: unknown animation `fly`",
        "unknown jiggle chain `cape`",
        "strength of every chain: key 0: value 2 is not in 0..1",
        "stiffness of every chain: key 1: time 0.5",
        "damping of every chain: has no keys",
        "event 0: time must be >= 0",
        "jiggle animation `death`: has cues twice",
    ] {
        assert!(err.contains(want), "`{want}` missing from: {err}");
    }
}
