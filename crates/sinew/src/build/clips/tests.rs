//! Clip compilation tests on hand-built raw clips over the hand-made test rig.

use super::build_clips;
use crate::anim::curve::{BEZIER, STEPPED};
use crate::anim::{TimelineKind, timeline::testrig};
use crate::ids::*;
use crate::raw::*;
use crate::rig::Rig;

/// The test rig with its name maps filled (the builder's earlier stages would do this).
fn rig() -> Rig {
    let mut rig = testrig::rig();
    for (i, b) in rig.bones.iter().enumerate() {
        rig.names.bones.insert(b.name.clone(), BoneId(i as u16));
    }
    for (i, s) in rig.slots.iter().enumerate() {
        rig.names.slots.insert(s.name.clone(), SlotId(i as u16));
    }
    for (i, k) in rig.attachment_keys.iter().enumerate() {
        rig.names
            .attachment_keys
            .insert(k.clone(), NameId(i as u32));
    }
    rig.names.skins.insert("default".into(), SkinId(0));
    rig.names.events.insert("e".into(), EventId(0));
    rig.names.ik.insert("ik".into(), IkId(0));
    rig.names.physics.insert("p0".into(), PhysicsId(0));
    rig
}

fn key(time: f64, values: &[f64], curve: RawCurve, data: RawKeyData) -> RawKey {
    RawKey {
        time,
        values: values.to_vec(),
        curve,
        data,
    }
}

fn lin(time: f64, values: &[f64]) -> RawKey {
    key(time, values, RawCurve::Linear, RawKeyData::None)
}

fn build(timelines: Vec<RawTimeline>) -> (Rig, Vec<String>) {
    let raw = RawRig {
        clips: vec![RawClip {
            name: "c".into(),
            timelines,
            playback: None,
        }],
        ..Default::default()
    };
    let mut rig = rig();
    let mut problems = Vec::new();
    build_clips(&raw, &mut rig, &mut problems);
    (rig, problems.iter().map(ToString::to_string).collect())
}

fn bone(property: BoneProperty, keys: Vec<RawKey>) -> RawTimeline {
    RawTimeline {
        target: RawTarget::Bone {
            bone: "b".into(),
            property,
        },
        keys,
    }
}

#[test]
fn value_keys_and_curves() {
    let bez = RawCurve::Bezier(vec![0.25, 0.0, 0.75, 10.0, 0.25, 5.0, 0.75, 5.0]);
    let keys = vec![
        key(0.0, &[0.0, 5.0], bez, RawKeyData::None),
        key(1.0, &[10.0, 5.0], RawCurve::Stepped, RawKeyData::None),
        lin(2.0, &[0.0, 0.0]),
    ];
    let (rig, problems) = build(vec![bone(BoneProperty::Translate, keys)]);
    assert!(problems.is_empty(), "{problems:?}");
    let clip = &rig.clips[0];
    assert_eq!(rig.names.clips.get("c"), Some(&ClipId(0)));
    assert_eq!(clip.duration, 2.0);
    let tl = &clip.timelines[0];
    assert!(matches!(tl.kind, TimelineKind::Translate(BoneId(1))));
    assert_eq!(tl.frames, [0.0, 0.0, 5.0, 1.0, 10.0, 5.0, 2.0, 0.0, 0.0]);
    // One sampled Bezier per value for key 0; key 1 stepped; the last key stepped.
    assert_eq!(tl.curves.types, [BEZIER, STEPPED, STEPPED]);
    assert_eq!(tl.curves.samples.len(), 36);
    // Translate drives two properties (x, y).
    assert_eq!(tl.property_count, 2);
    assert_eq!(clip.property_ids.len(), 2);
}

#[test]
fn timelines_take_the_official_order_and_share_property_ids() {
    let slot = RawTimeline {
        target: RawTarget::Slot {
            slot: "s0".into(),
            property: SlotProperty::Alpha,
        },
        keys: vec![lin(0.0, &[1.0])],
    };
    let (rig, problems) = build(vec![
        bone(BoneProperty::Rotate, vec![lin(0.0, &[1.0])]),
        slot,
        bone(BoneProperty::TranslateX, vec![lin(0.0, &[1.0])]),
        bone(BoneProperty::Translate, vec![lin(0.0, &[1.0, 2.0])]),
    ]);
    assert!(problems.is_empty(), "{problems:?}");
    let tls = &rig.clips[0].timelines;
    assert!(matches!(tls[0].kind, TimelineKind::Alpha(_)));
    assert!(matches!(tls[1].kind, TimelineKind::Rotate(_)));
    // translatex and translate both drive bone 1's x: same dense id.
    assert_eq!(tls[2].properties()[0], tls[3].properties()[0]);
    assert_ne!(tls[3].properties()[0], tls[3].properties()[1]);
}

#[test]
fn deform_keys_store_setup_plus_delta() {
    let deform = |data: RawKeyData, t: f64| key(t, &[], RawCurve::Linear, data);
    let target = |att: &str| RawTarget::Deform {
        skin: "default".into(),
        slot: "s0".into(),
        attachment: att.into(),
    };
    let (rig, problems) = build(vec![
        RawTimeline {
            target: target("box"),
            keys: vec![
                deform(
                    RawKeyData::Deform {
                        offset: 2,
                        vertices: vec![10.0, 20.0],
                    },
                    0.0,
                ),
                deform(
                    RawKeyData::Deform {
                        offset: 0,
                        vertices: vec![],
                    },
                    1.0,
                ),
            ],
        },
        RawTimeline {
            target: target("wbox"),
            keys: vec![deform(
                RawKeyData::Deform {
                    offset: 1,
                    vertices: vec![7.0, 8.0, 9.0, 10.0],
                },
                0.0,
            )],
        },
    ]);
    assert!(problems.is_empty(), "{problems:?}");
    let TimelineKind::Deform {
        vertex_count,
        vertices,
        weighted,
        attachment,
        ..
    } = &rig.clips[0].timelines[0].kind
    else {
        panic!("not a deform timeline");
    };
    // Setup 1..6: key 0 adds (10, 20) at offset 2; key 1 (no vertices) is the setup.
    assert_eq!(
        (*vertex_count, *weighted, *attachment),
        (6, false, AttachmentId(1))
    );
    assert_eq!(
        vertices,
        &[1.0, 2.0, 13.0, 24.0, 5.0, 6.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    );
    // Weighted: x, y per influence (2 influences -> 4 floats); deltas past the end dropped.
    let TimelineKind::Deform {
        vertex_count,
        vertices,
        weighted,
        ..
    } = &rig.clips[0].timelines[1].kind
    else {
        panic!("not a deform timeline");
    };
    assert_eq!((*vertex_count, *weighted), (4, true));
    assert_eq!(vertices, &[0.0, 7.0, 8.0, 9.0]);
}

#[test]
fn draw_order_offsets_become_permutations() {
    let d = |o: Option<Vec<(String, i32)>>, t: f64| {
        key(t, &[], RawCurve::Stepped, RawKeyData::DrawOrder(o))
    };
    let (rig, problems) = build(vec![RawTimeline {
        target: RawTarget::DrawOrder,
        keys: vec![d(Some(vec![("s0".into(), 1)]), 0.0), d(None, 1.0)],
    }]);
    assert!(problems.is_empty(), "{problems:?}");
    let TimelineKind::DrawOrder { orders } = &rig.clips[0].timelines[0].kind else {
        panic!("not a draw order timeline");
    };
    assert_eq!(orders, &[Some(vec![SlotId(1), SlotId(0)]), None]);
    // An offset leaving the order is a problem.
    let (_, problems) = build(vec![RawTimeline {
        target: RawTarget::DrawOrder,
        keys: vec![d(Some(vec![("s1".into(), 1)]), 0.0)],
    }]);
    assert_eq!(problems.len(), 1);
}

#[test]
fn events_take_their_defaults() {
    let ev = |t: f64, int: Option<i32>, string: Option<&str>| {
        let data = RawKeyData::Event {
            name: "e".into(),
            int,
            float: None,
            string: string.map(str::to_owned),
            volume: Some(0.5),
            balance: None,
        };
        key(t, &[], RawCurve::Linear, data)
    };
    let (rig, problems) = build(vec![RawTimeline {
        target: RawTarget::Event,
        keys: vec![ev(0.25, Some(3), Some("x")), ev(0.5, None, None)],
    }]);
    assert!(problems.is_empty(), "{problems:?}");
    let clip = &rig.clips[0];
    let TimelineKind::Event { keys } = &clip.timelines[0].kind else {
        panic!("not an event timeline");
    };
    assert_eq!(
        (keys[0].int, keys[0].string, keys[1].int, keys[1].string),
        (3, Some(0), 0, None)
    );
    assert_eq!(clip.strings, ["x"]);
    // No audio: volume and balance stay 0 whatever the key says.
    assert_eq!((keys[0].volume, keys[0].balance), (0.0, 0.0));
    let fired = crate::anim::FiredEvent::from_key(&keys[1], ClipId(0));
    assert_eq!(fired.string(&rig), "default");
}

#[test]
fn unknown_targets_are_problems() {
    let (rig, problems) = build(vec![
        RawTimeline {
            target: RawTarget::Bone {
                bone: "nope".into(),
                property: BoneProperty::Rotate,
            },
            keys: vec![lin(0.0, &[1.0])],
        },
        RawTimeline {
            target: RawTarget::Ik("ik".into()),
            keys: vec![lin(0.0, &[1.0])],
        },
    ]);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("nope"));
    assert!(problems[1].contains("values"));
    assert!(rig.clips[0].timelines.is_empty());
}

#[test]
fn beziers_are_sampled_from_the_raw_f64_numbers() {
    // COMPAT(spine): setBezier gets the JSON's f64 numbers; frames hold their f32 roundings.
    let bez = RawCurve::Bezier(vec![0.1667, 33.74, 0.2333, -12.3]);
    let keys = vec![
        key(0.1, &[33.74], bez, RawKeyData::None),
        lin(0.3, &[-12.3]),
    ];
    let (rig, problems) = build(vec![bone(BoneProperty::Rotate, keys)]);
    assert!(problems.is_empty(), "{problems:?}");
    let tl = &rig.clips[0].timelines[0];
    assert_eq!(tl.frames, [0.1f32, 33.74, 0.3, -12.3]);
    let mut want = crate::anim::Curves::new(2);
    want.push_bezier(0, 0, 0.1, 33.74, 0.1667, 33.74, 0.2333, -12.3, 0.3, -12.3);
    assert_eq!(tl.curves, want);
    // Sampling from the f32 frames instead gives other samples: the f64s matter.
    let r = |v: f64| f64::from(v as f32);
    let mut rounded = crate::anim::Curves::new(2);
    rounded.push_bezier(
        0,
        0,
        r(0.1),
        r(33.74),
        r(0.1667),
        r(33.74),
        r(0.2333),
        r(-12.3),
        r(0.3),
        r(-12.3),
    );
    assert_ne!(tl.curves.samples, rounded.samples);
}

#[test]
fn deform_and_colour_beziers_use_the_raw_numbers() {
    let deform = RawTimeline {
        target: RawTarget::Deform {
            skin: "default".into(),
            slot: "s0".into(),
            attachment: "box".into(),
        },
        keys: vec![
            key(
                0.1,
                &[],
                RawCurve::Bezier(vec![0.15, 0.3, 0.2, 0.9]),
                RawKeyData::Deform {
                    offset: 0,
                    vertices: vec![],
                },
            ),
            key(
                0.3,
                &[],
                RawCurve::Linear,
                RawKeyData::Deform {
                    offset: 0,
                    vertices: vec![],
                },
            ),
        ],
    };
    // Alpha 128/255 -> 1 (a colour channel is byte / 255 in f64).
    let c = 128.0 / 255.0;
    let alpha = RawTimeline {
        target: RawTarget::Slot {
            slot: "s0".into(),
            property: SlotProperty::Alpha,
        },
        keys: vec![
            key(
                0.1,
                &[c],
                RawCurve::Bezier(vec![0.2, c, 0.25, 1.0]),
                RawKeyData::None,
            ),
            lin(0.3, &[1.0]),
        ],
    };
    let (rig, problems) = build(vec![deform, alpha]);
    assert!(problems.is_empty(), "{problems:?}");
    let tls = &rig.clips[0].timelines;
    let mut want = crate::anim::Curves::new(2);
    want.push_bezier(0, 0, 0.1, c, 0.2, c, 0.25, 1.0, 0.3, 1.0);
    assert_eq!(tls[0].frames, [0.1f32, c as f32, 0.3, 1.0]);
    assert_eq!(tls[0].curves, want);
    let mut want = crate::anim::Curves::new(2);
    want.push_deform_bezier(0, 0.1, 0.15, 0.3, 0.2, 0.9, 0.3);
    assert_eq!(tls[1].frames, [0.1f32, 0.3]);
    assert_eq!(tls[1].curves, want);
}
