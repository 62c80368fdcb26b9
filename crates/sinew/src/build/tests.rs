//! Whole raw rigs built by hand: linked meshes, regions with sequences, deform capacity, and
//! every attachment problem reported in one build.
#![allow(clippy::unwrap_used)]

use super::build_rig;
use crate::ids::*;
use crate::raw::*;
use crate::rig::{AttachmentKind, Rig};
use crate::types::{BlendMode, Color};

fn slot(name: &str) -> RawSlot {
    RawSlot {
        name: name.into(),
        bone: "root".into(),
        color: Color::WHITE,
        dark: None,
        attachment: None,
        blend: BlendMode::Normal,
        visible: true,
    }
}

fn entry(slot: &str, key: &str, kind: RawAttachmentKind) -> RawSkinEntry {
    RawSkinEntry {
        slot: slot.into(),
        key: key.into(),
        attachment: RawAttachment {
            name: key.into(),
            kind,
        },
    }
}

fn mesh(vertices: Vertices, uvs: Vec<f32>, triangles: Vec<u16>) -> RawAttachmentKind {
    RawAttachmentKind::Mesh {
        path: "m".into(),
        color: Color::WHITE,
        vertices,
        uvs,
        triangles,
        hull: 3,
        edges: vec![],
        width: 8.0,
        height: 9.0,
        sequence: None,
    }
}

fn linked(parent: &str, skin: Option<&str>, inherit: bool) -> RawAttachmentKind {
    RawAttachmentKind::LinkedMesh {
        path: "other".into(),
        color: Color::WHITE,
        parent: parent.into(),
        skin: skin.map(str::to_owned),
        parent_slot: None,
        inherit_timelines: inherit,
        width: 1.0,
        height: 2.0,
        sequence: None,
    }
}

fn triangle() -> Vertices {
    Vertices {
        count: 3,
        bones: vec![],
        values: vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
    }
}

fn base() -> RawRig {
    RawRig {
        bones: vec![RawBone::new("root", None), RawBone::new("b", Some("root"))],
        slots: vec![slot("s"), slot("t")],
        ..Default::default()
    }
}

fn find(rig: &Rig, skin: &str, slot: &str, key: &str) -> AttachmentId {
    let s = &rig.skins[rig.skin(skin).unwrap().index()];
    s.get(rig.slot(slot).unwrap(), rig.names.attachment_keys[key])
        .unwrap()
}

#[test]
fn linked_meshes_share_their_parents_geometry() {
    let mut raw = base();
    raw.skins = vec![
        RawSkin {
            name: "extra".into(),
            attachments: vec![
                entry("s", "l", linked("m", None, true)),
                // A chain: a linked mesh of a linked mesh.
                entry("s", "l2", linked("l", Some("extra"), false)),
            ],
            ..Default::default()
        },
        RawSkin {
            name: "default".into(),
            attachments: vec![entry(
                "s",
                "m",
                mesh(
                    triangle(),
                    vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
                    vec![0, 1, 2],
                ),
            )],
            ..Default::default()
        },
    ];
    let rig = build_rig(&raw).unwrap();
    let (m, l, l2) = (
        find(&rig, "default", "s", "m"),
        find(&rig, "extra", "s", "l"),
        find(&rig, "extra", "s", "l2"),
    );
    let att = |id: AttachmentId| &rig.attachments[id.index()];
    assert_eq!(att(l).timeline_attachment, m);
    assert_eq!(att(l2).timeline_attachment, l2);
    assert_eq!(att(l).type_name(), "linkedmesh");
    let AttachmentKind::Mesh(lm) = &att(l2).kind else {
        panic!()
    };
    assert_eq!(lm.parent_mesh, Some(l));
    assert_eq!(lm.vertices, triangle());
    assert_eq!((lm.triangles.clone(), lm.hull), (vec![0, 1, 2], 3));
    // Spine keeps a linked mesh's own size; UVs are recomputed for its own region.
    assert_eq!((lm.width, lm.height), (1.0, 2.0));
    assert_eq!(lm.uvs, lm.region_uvs);
    assert_eq!(lm.regions[0].name, "other");
    assert_eq!(rig.slot_deform_capacity, vec![6, 0]);
}

#[test]
fn deform_capacity_is_the_largest_attachment_per_slot() {
    let mut raw = base();
    // Weighted: vertex 0 on two bones, vertex 1 on one: 3 influences -> 6 floats.
    let weighted = Vertices {
        count: 2,
        bones: vec![2, 0, 1, 1, 1],
        values: vec![0.0, 0.0, 0.5, 1.0, 1.0, 0.5, 2.0, 2.0, 1.0],
    };
    let bbox = Vertices {
        count: 4,
        bones: vec![],
        values: vec![0.0; 8],
    };
    raw.skins = vec![RawSkin {
        name: "default".into(),
        attachments: vec![
            entry(
                "s",
                "w",
                RawAttachmentKind::BoundingBox {
                    vertices: weighted,
                    color: Color::WHITE,
                },
            ),
            entry(
                "t",
                "w",
                RawAttachmentKind::BoundingBox {
                    vertices: bbox,
                    color: Color::WHITE,
                },
            ),
            entry(
                "t",
                "p",
                RawAttachmentKind::Point {
                    x: 0.0,
                    y: 0.0,
                    rotation: 0.0,
                },
            ),
        ],
        ..Default::default()
    }];
    let rig = build_rig(&raw).unwrap();
    assert_eq!(rig.slot_deform_capacity, vec![6, 8]);
}

#[test]
fn sequences_get_one_region_per_frame() {
    let mut raw = base();
    let seq = Sequence {
        count: 3,
        start: 8,
        digits: 2,
        setup_index: 0,
    };
    raw.skins = vec![RawSkin {
        name: "default".into(),
        attachments: vec![entry(
            "s",
            "r",
            RawAttachmentKind::Region {
                path: "fx/spark".into(),
                x: 0.0,
                y: 0.0,
                scale_x: 1.0,
                scale_y: 1.0,
                rotation: 0.0,
                width: 2.0,
                height: 2.0,
                color: Color::WHITE,
                sequence: Some(seq),
            },
        )],
        ..Default::default()
    }];
    let rig = build_rig(&raw).unwrap();
    let AttachmentKind::Region(r) = &rig.attachments[0].kind else {
        panic!()
    };
    let names: Vec<&str> = r.regions.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, vec!["fx/spark08", "fx/spark09", "fx/spark10"]);
    assert_eq!((r.offsets.len(), r.uvs.len()), (24, 24));
    assert_eq!(
        &r.offsets[..8],
        &[-1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0, -1.0]
    );
}

#[test]
fn every_attachment_problem_is_reported() {
    let mut raw = base();
    let bad_weights = Vertices {
        count: 1,
        bones: vec![1, 9],
        values: vec![0.0, 0.0, 1.0],
    };
    let region = RawAttachmentKind::Point {
        x: 0.0,
        y: 0.0,
        rotation: 0.0,
    };
    raw.skins = vec![RawSkin {
        name: "only".into(),
        attachments: vec![
            entry("s", "cycle-a", linked("cycle-b", Some("only"), true)),
            entry("s", "cycle-b", linked("cycle-a", Some("only"), true)),
            entry("s", "pt", region),
            entry("s", "not-a-mesh", linked("pt", Some("only"), true)),
            entry("s", "no-default", linked("m", None, true)),
            entry(
                "t",
                "bad-bone",
                RawAttachmentKind::BoundingBox {
                    vertices: bad_weights,
                    color: Color::WHITE,
                },
            ),
            entry(
                "t",
                "bad-tri",
                mesh(triangle(), vec![0.0; 6], vec![0, 1, 3]),
            ),
            entry(
                "t",
                "bad-uvs",
                mesh(triangle(), vec![0.0; 4], vec![0, 1, 2]),
            ),
            entry(
                "t",
                "path",
                RawAttachmentKind::Path {
                    closed: false,
                    constant_speed: true,
                    vertices: triangle(),
                    lengths: vec![],
                },
            ),
            entry(
                "t",
                "clip",
                RawAttachmentKind::Clipping {
                    end: Some("nowhere".into()),
                    vertices: triangle(),
                    convex: false,
                    inverse: false,
                },
            ),
            entry(
                "nope",
                "x",
                RawAttachmentKind::Point {
                    x: 0.0,
                    y: 0.0,
                    rotation: 0.0,
                },
            ),
        ],
        ..Default::default()
    }];
    let err = build_rig(&raw).unwrap_err();
    let has = |needle: &str| err.problems.iter().any(|p| p.to_string().contains(needle));
    assert!(
        has("attachment `cycle-a`: linked meshes form a cycle"),
        "{err}"
    );
    assert!(
        has("attachment `not-a-mesh`: parent `pt` is not a mesh"),
        "{err}"
    );
    assert!(
        has("attachment `no-default`: there is no default skin"),
        "{err}"
    );
    assert!(
        has("attachment `bad-bone`: weighted vertex 0 names bone index 9"),
        "{err}"
    );
    assert!(
        has("attachment `bad-tri`: triangle index 3 out of range"),
        "{err}"
    );
    assert!(
        has("attachment `bad-uvs`: 3 vertices but 4 uv floats"),
        "{err}"
    );
    assert!(
        has("attachment `path`: a path needs 3 vertices per curve point"),
        "{err}"
    );
    assert!(
        has("attachment `clip`: unknown end slot `nowhere`"),
        "{err}"
    );
    assert!(
        has("slot `nope`, attachment `x`: unknown slot `nope`"),
        "{err}"
    );
    // The diagnostics are typed: kind, item and the offending name.
    use crate::build::{BuildProblem, ProblemKind};
    let find = |kind: ProblemKind, name: &str| -> Option<&BuildProblem> {
        err.problems
            .iter()
            .find(|p| p.kind == kind && p.name.as_deref() == Some(name))
    };
    let end = find(ProblemKind::UnknownName, "nowhere").expect("unknown end slot is typed");
    assert!(end.item.ends_with("attachment `clip`"), "{end:?}");
    assert_eq!(end.message, "unknown end slot `nowhere`");
    assert!(find(ProblemKind::UnknownName, "nope").is_some(), "{err}");
    let kinds = |kind: ProblemKind| err.problems.iter().filter(|p| p.kind == kind).count();
    assert!(kinds(ProblemKind::Hierarchy) >= 2, "{:?}", err.problems);
    assert!(kinds(ProblemKind::Geometry) >= 3, "{:?}", err.problems);
}

#[test]
fn only_deformed_slots_get_a_deform_buffer() {
    use crate::raw::{RawClip, RawCurve, RawKey, RawKeyData, RawTarget, RawTimeline};
    let mut raw = base();
    for s in &mut raw.slots {
        s.attachment = Some("m".into());
    }
    let tri = || {
        mesh(
            triangle(),
            vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
            vec![0, 1, 2],
        )
    };
    raw.skins = vec![RawSkin {
        name: "default".into(),
        attachments: vec![entry("s", "m", tri()), entry("t", "m", tri())],
        ..Default::default()
    }];
    // A deform timeline on slot `s` only.
    raw.clips = vec![RawClip {
        name: "wave".into(),
        timelines: vec![RawTimeline {
            target: RawTarget::Deform {
                skin: "default".into(),
                slot: "s".into(),
                attachment: "m".into(),
            },
            keys: vec![RawKey {
                time: 0.0,
                values: vec![],
                curve: RawCurve::Linear,
                data: RawKeyData::Deform {
                    offset: 0,
                    vertices: vec![1.0, 2.0],
                },
            }],
        }],
        playback: None,
    }];
    let rig = build_rig(&raw).unwrap();
    assert_eq!(rig.slot_deform_capacity, vec![6, 6]);
    assert_eq!(rig.slot_deform_timelines, vec![true, false]);
    let inst = crate::Instance::new(&rig);
    assert_eq!(
        (inst.slots.deform_capacity(0), inst.slots.deform_capacity(1)),
        (6, 0)
    );
    assert_eq!(inst.slots.deform.len(), 6);
    // The timeline still writes its slot.
    let mut c = crate::character::Character::new(std::sync::Arc::new(rig));
    c.set_animation(0, "wave", false).expect("the clip");
    c.update(0.0);
    let s = crate::ids::SlotId(0);
    assert_eq!(c.instance().slots.deform(s)[..2], [1.0, 2.0]);
    assert!(c.instance().slots.deform(crate::ids::SlotId(1)).is_empty());
}

#[test]
fn playback_facts_resolve_the_held_twin_or_name_the_missing_one() {
    let facts = |held: Option<&str>| RawPlayback {
        play_times: 2,
        fade_in: 0.3,
        length: 1.0,
        frame_rate: 24.0,
        held: held.map(str::to_owned),
    };
    let clip = |name: &str, playback| RawClip {
        name: name.into(),
        playback,
        ..Default::default()
    };
    let mut raw = base();
    raw.clips = vec![
        clip("walk", Some(facts(Some("walk (held end)")))),
        clip("walk (held end)", Some(facts(None))),
    ];
    let rig = build_rig(&raw).unwrap();
    let p = rig.clips[0].playback.unwrap();
    assert_eq!(p.held, Some(ClipId(1)));
    assert_eq!((p.play_times, p.fade_in, p.frame_rate), (2, 0.3, 24.0));
    // A held twin the rig does not have is a named problem, not a silent fallback.
    raw.clips = vec![clip("walk", Some(facts(Some("nope"))))];
    let err = build_rig(&raw).unwrap_err().to_string();
    assert!(err.contains("nope") && err.contains("walk"), "{err}");
}
