//! Example shapes through the facade against their closed forms: host weights, a weight
//! track of a playing animation (linear, at half track alpha), offsets turning with the
//! slot's bone, cages reading the shaped mesh, and build problems naming the set.

use super::*;
use crate::Color;
use crate::raw::{BoneProperty, RawAttachment, RawAttachmentKind, RawBone, RawClip, RawCurve};
use crate::raw::{RawKey, RawKeyData, RawRig, RawSkin, RawSkinEntry, RawSlot, RawTarget};
use crate::raw::{RawTimeline, Vertices};

/// root -> arm at (10, 0); a triangle mesh `m` on slot `s` of the arm; clip `turn` turns
/// the arm 0 -> 90 degrees over 1 s, clip `hold` keeps it at 0.
fn rig() -> Arc<Rig> {
    let mut raw = RawRig::default();
    raw.bones.push(RawBone::new("root", None));
    let mut arm = RawBone::new("arm", Some("root"));
    arm.x = 10.0;
    raw.bones.push(arm);
    let mut slot = RawSlot::new("s", "arm");
    slot.attachment = Some("m".into());
    raw.slots.push(slot);
    let tri = vec![0.0, 0.0, 4.0, 0.0, 0.0, 4.0];
    let mesh = RawAttachmentKind::Mesh {
        path: "m".into(),
        color: Color::WHITE,
        vertices: Vertices {
            count: 3,
            bones: Vec::new(),
            values: tri.clone(),
        },
        uvs: tri.iter().map(|v| v / 4.0).collect(),
        triangles: vec![0, 1, 2],
        hull: 3,
        edges: Vec::new(),
        width: 4.0,
        height: 4.0,
        sequence: None,
    };
    raw.skins.push(RawSkin {
        name: "default".into(),
        attachments: vec![RawSkinEntry {
            slot: "s".into(),
            key: "m".into(),
            attachment: RawAttachment {
                name: "m".into(),
                kind: mesh,
            },
        }],
        ..Default::default()
    });
    for (name, end) in [("turn", 90.0), ("hold", 0.0)] {
        let key = |time: f64, v: f64| RawKey {
            time,
            values: vec![v],
            curve: RawCurve::Linear,
            data: RawKeyData::None,
        };
        raw.clips.push(RawClip {
            name: name.to_owned(),
            timelines: vec![RawTimeline {
                target: RawTarget::Bone {
                    bone: "arm".to_owned(),
                    property: BoneProperty::Rotate,
                },
                keys: vec![key(0.0, 0.0), key(1.0, end)],
            }],
            playback: None,
        });
    }
    Arc::new(crate::build::build_rig(&raw).unwrap_or_else(|e| panic!("test rig: {e}")))
}

/// `open` moves the third vertex by (0, 2); `wide` the second by (3, 0).
fn desc() -> ShapeSetDesc {
    ShapeSetDesc {
        name: "mouth".into(),
        slot: "s".into(),
        attachment: None,
        examples: vec![
            ExampleDesc {
                name: "open".into(),
                offsets: vec![[0.0, 0.0], [0.0, 0.0], [0.0, 2.0]],
            },
            ExampleDesc {
                name: "wide".into(),
                offsets: vec![[0.0, 0.0], [3.0, 0.0], [0.0, 0.0]],
            },
        ],
        tracks: vec![ShapeTrackDesc {
            animation: "hold".into(),
            example: "open".into(),
            keys: vec![CueKey::new(0.0, 0.0), CueKey::new(1.0, 1.0)],
        }],
    }
}

fn world(c: &Character) -> Vec<f64> {
    let mut v = Vec::new();
    assert!(c.world_vertices("s", &mut v));
    v.iter().map(|&x| f64::from(x)).collect()
}

fn close(a: &[f64], b: &[f64]) {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!((x - y).abs() < 1e-5, "{i}: {a:?} vs {b:?}");
    }
}

#[test]
fn shapes_blend_by_host_weights_and_tracks() {
    let rig = rig();
    let sr = ShapeRig::build(&rig, &[desc()]).unwrap_or_else(|e| panic!("{e}"));
    let (set, wide) = (
        sr.find("mouth").expect("set"),
        sr.example(0, "wide").expect("wide"),
    );
    let mut c = Character::new(rig.clone());
    c.set_shape_rig(Some(Arc::new(sr))).expect("this rig's");
    c.update(0.0);
    close(&world(&c), &[10.0, 0.0, 14.0, 0.0, 10.0, 4.0]);
    assert!(c.set_shape_weight(set, wide, 0.5));
    assert!(!c.set_shape_weight(set, 9, 0.5));
    assert!(!c.set_shape_weight(set, wide, f64::NAN));
    c.update(0.0);
    close(&world(&c), &[10.0, 0.0, 15.5, 0.0, 10.0, 4.0]);
    // `hold` keys `open` 0 -> 1 over 1 s; at half alpha, after 0.5 s: 0.25 of (0, 2).
    let e = c.set_animation(0, "hold", false).expect("clip");
    c.state_mut().entry_mut(e).expect("entry").alpha = 0.5;
    for _ in 0..30 {
        c.update(1.0 / 60.0);
    }
    close(&world(&c), &[10.0, 0.0, 15.5, 0.0, 10.0, 4.5]);
    // The arm turned 90 degrees: the offsets turn with it ((3, 0) * 0.5 becomes (0, 1.5)).
    c.set_animation(0, "turn", false).expect("clip");
    c.update(1.0);
    c.update(0.0);
    close(&world(&c), &[10.0, 0.0, 10.0, 5.5, 10.0 - 4.0, 0.0]);
    assert!(c.shape_rig().is_some());
}

#[test]
fn a_cage_reads_the_shaped_mesh() {
    let rig = rig();
    let sr = ShapeRig::build(&rig, &[desc()]).expect("builds");
    let mut c = Character::new(rig.clone());
    c.set_shape_rig(Some(Arc::new(sr))).expect("this rig's");
    // A cage driven by the mesh's own three vertices, adding nothing: the shaped mesh.
    let mut d = crate::character::cage_rig::CageDesc::new("c", "s", Vec::new());
    d.drive = crate::character::cage_rig::CageDrive::Mesh {
        vertices: vec![vec![0, 1, 2]],
    };
    let cr = crate::character::cage_rig::CageRig::build(&rig, &[d]).expect("binds");
    c.set_cage_rig(Some(Arc::new(cr))).expect("this rig's");
    assert!(c.set_shape_weight(0, 1, 1.0));
    c.update(0.0);
    let (_, cage, _) = c.cage_world(0).expect("ran");
    assert_eq!(cage, &[10.0, 0.0, 17.0, 0.0, 10.0, 4.0]);
    close(&world(&c), &[10.0, 0.0, 17.0, 0.0, 10.0, 4.0]);
}

#[test]
fn shape_problems_name_the_set() {
    let rig = rig();
    let mut short = desc();
    short.name = "short".into();
    short.examples[0].offsets.pop();
    let mut bad_anim = desc();
    bad_anim.name = "anim".into();
    bad_anim.tracks[0].animation = "dance".into();
    let mut bad_example = desc();
    bad_example.name = "ex".into();
    bad_example.tracks[0].example = "smile".into();
    let mut bad_slot = desc();
    bad_slot.name = "slot".into();
    bad_slot.slot = "nope".into();
    let descs = [short, bad_anim, bad_example, bad_slot, desc(), desc()];
    let e = ShapeRig::build(&rig, &descs).expect_err("bad");
    let lines: Vec<String> = e.problems.iter().map(ToString::to_string).collect();
    let want = [
        "shape set `short`: example `open`: 2 offsets for a mesh of 3 vertices",
        "shape set `anim`: unknown animation `dance`",
        "shape set `ex`: unknown example `smile`",
        "shape set `slot`: unknown slot `nope`",
        "shape set `mouth`: duplicate shape set name `mouth`",
    ];
    assert_eq!(lines, want, "{lines:#?}");
    assert_eq!(e.problems[1].element, Some(Element::ShapeSet(1)));
    assert_eq!(e.problems[1].part, BuildPart::Shapes);
}
