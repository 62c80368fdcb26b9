//! Declared cages ([`CageRig`]) against cages bound by code: the same world vertices bit
//! for bit for each drive (bones, mesh vertices, host), point keys against their closed
//! form (linear, stepped, weighted by track alpha), and build problems naming the cage and
//! the offending name.

use super::*;
use crate::Color;
use crate::cage::Cage;
use crate::raw::{BoneProperty, RawAttachment, RawAttachmentKind, RawBone, RawClip, RawCurve};
use crate::raw::{RawKey, RawKeyData, RawRig, RawSkin, RawSkinEntry, RawSlot, RawTarget};
use crate::raw::{RawTimeline, Vertices};
use crate::rig::problem::{BuildPart, Element, ProblemKind};

/// root at (10, 0) -> arm (at (2, 0), turned by clip `wave` to 90 degrees over 1 s); a
/// 3x3-vertex mesh `m` (0..2 x 0..2) on slot `s` of the root; clips `wave` and `still`.
fn rig() -> Arc<Rig> {
    let mut raw = RawRig::default();
    let mut root = RawBone::new("root", None);
    root.x = 10.0;
    raw.bones.push(root);
    let mut arm = RawBone::new("arm", Some("root"));
    arm.x = 2.0;
    arm.length = 5.0;
    raw.bones.push(arm);
    let mut slot = RawSlot::new("s", "root");
    slot.attachment = Some("m".into());
    raw.slots.push(slot);
    let mut grid = Vec::new();
    for y in 0..3 {
        for x in 0..3 {
            grid.extend([x as f32, y as f32]);
        }
    }
    let mesh = RawAttachmentKind::Mesh {
        path: "m".into(),
        color: Color::WHITE,
        vertices: Vertices {
            count: 9,
            bones: Vec::new(),
            values: grid.clone(),
        },
        uvs: grid.iter().map(|v| v / 2.0).collect(),
        triangles: vec![
            0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 3, 4, 7, 3, 7, 6, 4, 5, 8, 4, 8, 7,
        ],
        hull: 8,
        edges: Vec::new(),
        width: 2.0,
        height: 2.0,
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
    for (name, end) in [("wave", 90.0), ("still", 0.0)] {
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

/// A square around the mesh in the setup pose's world frame.
fn around() -> Vec<Vec<[f64; 2]>> {
    vec![vec![[9.0, -1.0], [13.0, -1.0], [13.0, 3.0], [9.0, 3.0]]]
}

fn vertices(c: &Character) -> Vec<f32> {
    let mut v = Vec::new();
    assert!(c.world_vertices("s", &mut v));
    v
}

fn declared(rig: &Arc<Rig>, d: CageDesc) -> Character {
    let cr = CageRig::build(rig, &[d]).unwrap_or_else(|e| panic!("{e}"));
    let mut c = Character::new(rig.clone());
    c.set_cage_rig(Some(Arc::new(cr))).expect("this rig's");
    c
}

/// Plays `wave` on both characters and compares the mesh over 30 frames, bit for bit.
fn same_over_wave(a: &mut Character, b: &mut Character, ka: usize, kb: usize) {
    a.set_animation(0, "wave", false).expect("clip");
    b.set_animation(0, "wave", false).expect("clip");
    for f in 0..30 {
        a.update(1.0 / 30.0);
        b.update(1.0 / 30.0);
        assert_eq!(vertices(a), vertices(b), "frame {f}");
        assert_eq!(a.cage_world(ka), b.cage_world(kb), "frame {f}");
    }
}

#[test]
fn bone_driven_cage_matches_the_code_bound_one() {
    let rig = rig();
    let mut d = CageDesc::new("c", "s", around());
    // Two points on the root, two shared half and half with the arm.
    d.drive = CageDrive::Bones {
        bones: vec!["root".into(), "arm".into()],
        weights: vec![
            vec![1.0, 0.0],
            vec![0.5, 0.5],
            vec![0.0, 1.0],
            vec![1.0, 0.0],
        ],
    };
    let mut a = declared(&rig, d);
    assert_eq!(a.find_cage("c"), Some(0));
    assert_eq!(a.cage_name(0), Some("c"));
    // By code: the same influences in each bone's setup space.
    let mut b = Character::new(rig.clone());
    b.update(0.0);
    let root = b.inst.world[0].try_inverse().expect("invertible");
    let arm = b.inst.world[1].try_inverse().expect("invertible");
    let p = |m: &crate::math::WorldTransform, x: f64, y: f64, w: f64| {
        let l = m.apply(Vec2::new(x, y));
        [l.x, l.y, w]
    };
    let (r, a_) = (crate::ids::BoneId(0), crate::ids::BoneId(1));
    let source = CageSource::Bones {
        offsets: vec![0, 1, 3, 4, 5],
        bones: vec![r, r, a_, a_, r],
        values: vec![
            p(&root, 9.0, -1.0, 1.0),
            p(&root, 13.0, -1.0, 0.5),
            p(&arm, 13.0, -1.0, 0.5),
            p(&arm, 13.0, 3.0, 1.0),
            p(&root, 9.0, 3.0, 1.0),
        ],
    };
    let cage = Cage::from_loops(&around()).expect("cage");
    let kb = b
        .bind_cage("s", "m", &cage, source, CageMode::Replace)
        .expect("binds");
    same_over_wave(&mut a, &mut b, 0, kb);
    // The arm turned: the mesh moved.
    a.update(0.0);
    assert_ne!(vertices(&a)[4], 12.0);
}

#[test]
fn mesh_and_host_cages_match_the_code_bound_ones() {
    let rig = rig();
    let mut d = CageDesc::new("m", "s", Vec::new());
    d.drive = CageDrive::Mesh {
        vertices: vec![vec![0, 2, 8, 6]],
    };
    d.mode = CageMode::Offset;
    let mut a = declared(&rig, d);
    let mut b = Character::new(rig.clone());
    b.update(0.0);
    let corners = [[10.0, 0.0], [12.0, 0.0], [12.0, 2.0], [10.0, 2.0]];
    let cage = Cage::from_loops(&[corners]).expect("cage");
    let source = CageSource::MeshVertices(vec![0, 2, 8, 6]);
    let kb = b
        .bind_cage("s", "m", &cage, source, CageMode::Offset)
        .expect("binds");
    same_over_wave(&mut a, &mut b, 0, kb);

    // Host: the same points written to both.
    let mut a = declared(&rig, CageDesc::new("h", "s", around()));
    let mut b = Character::new(rig.clone());
    b.update(0.0);
    let cage = Cage::from_loops(&around()).expect("cage");
    let kb = b
        .bind_cage("s", "m", &cage, CageSource::External, CageMode::Replace)
        .expect("binds");
    for c in [&mut a, &mut b] {
        let k = c.cage_count() - 1;
        let pts = c.cage_points_mut(k).expect("cage");
        pts[4] += 3.0;
        pts[5] += 1.0;
    }
    same_over_wave(&mut a, &mut b, 0, kb);
    // The moved corner pulled the far corner of the mesh (MVC: the corner vertex follows
    // its cage point by its weight).
    assert!(vertices(&a)[16] > 12.0);
}

#[test]
fn point_keys_follow_their_closed_form() {
    let rig = rig();
    let mut d = CageDesc::new("k", "s", around());
    let zero = vec![[0.0, 0.0]; 4];
    let mut moved = zero.clone();
    moved[2] = [4.0, 2.0];
    d.animations = vec![
        CageKeysDesc {
            animation: "wave".into(),
            keys: vec![
                CagePointKey {
                    time: 0.0,
                    curve: CueCurve::Linear,
                    offsets: zero.clone(),
                },
                CagePointKey {
                    time: 1.0,
                    curve: CueCurve::Linear,
                    offsets: moved.clone(),
                },
            ],
        },
        CageKeysDesc {
            animation: "still".into(),
            keys: vec![
                CagePointKey {
                    time: 0.0,
                    curve: CueCurve::Stepped,
                    offsets: moved.clone(),
                },
                CagePointKey {
                    time: 0.5,
                    curve: CueCurve::Linear,
                    offsets: zero.clone(),
                },
            ],
        },
    ];
    let mut a = declared(&rig, d);
    a.update(0.0);
    let (_, rest, _) = a.cage_world(0).expect("posed");
    assert_eq!(rest, [9.0, -1.0, 13.0, -1.0, 13.0, 3.0, 9.0, 3.0]);
    a.set_animation(0, "wave", false).expect("clip");
    // 1/4 s at 120 fps: 30 frames; the third point moved by t * (4, 2).
    for _ in 0..30 {
        a.update(1.0 / 120.0);
    }
    let (_, cage, _) = a.cage_world(0).expect("posed");
    let t = 30.0 / 120.0;
    assert!(
        (f64::from(cage[4]) - (13.0 + 4.0 * t)).abs() < 1e-5,
        "{cage:?}"
    );
    assert!(
        (f64::from(cage[5]) - (3.0 + 2.0 * t)).abs() < 1e-5,
        "{cage:?}"
    );
    assert_eq!(&cage[..4], &[9.0, -1.0, 13.0, -1.0]);
    // `still` is stepped: the whole offset until 0.5 s, then 0; at half alpha, half of it.
    let e = a.set_animation(0, "still", false).expect("clip");
    a.state_mut().entry_mut(e).expect("entry").alpha = 0.5;
    a.update(0.1);
    let (_, cage, _) = a.cage_world(0).expect("posed");
    assert_eq!(&cage[4..6], &[15.0, 4.0], "half of (4, 2) on (13, 3)");
    a.update(0.5);
    let (_, cage, _) = a.cage_world(0).expect("posed");
    assert_eq!(&cage[4..6], &[13.0, 3.0]);
}

#[test]
fn build_problems_name_the_cage_and_the_name() {
    let rig = rig();
    let mut bad_bone = CageDesc::new("b", "s", around());
    bad_bone.drive = CageDrive::Bones {
        bones: vec!["jaw".into()],
        weights: Vec::new(),
    };
    let mut bad_rows = CageDesc::new("r", "s", around());
    bad_rows.drive = CageDrive::Bones {
        bones: vec!["root".into(), "arm".into()],
        weights: vec![vec![1.0, 0.5]; 4],
    };
    let mut bad_vertex = CageDesc::new("v", "s", Vec::new());
    bad_vertex.drive = CageDrive::Mesh {
        vertices: vec![vec![0, 2, 80]],
    };
    let mut bad_anim = CageDesc::new("a", "s", around());
    bad_anim.animations = vec![CageKeysDesc {
        animation: "dance".into(),
        keys: Vec::new(),
    }];
    let mut bad_keys = CageDesc::new("k", "s", around());
    bad_keys.animations = vec![CageKeysDesc {
        animation: "wave".into(),
        keys: vec![CagePointKey {
            time: 0.0,
            curve: CueCurve::Linear,
            offsets: vec![[0.0, 0.0]; 3],
        }],
    }];
    // One animation keyed twice would add its offsets twice: refused, as for deformers.
    let mut twice = CageDesc::new("w", "s", around());
    let wave = CageKeysDesc {
        animation: "wave".into(),
        keys: vec![CagePointKey {
            time: 0.0,
            curve: CueCurve::Linear,
            offsets: vec![[1.0, 0.0]; 4],
        }],
    };
    twice.animations = vec![wave.clone(), wave];
    let mut bad_att = CageDesc::new("t", "s", around());
    bad_att.attachment = Some("nope".into());
    let descs = [
        CageDesc::new("x", "nope", around()),
        bad_bone,
        bad_rows,
        bad_vertex,
        bad_anim,
        bad_keys,
        twice,
        bad_att,
        CageDesc::new("few", "s", vec![vec![[0.0, 0.0], [1.0, 0.0]]]),
        CageDesc::new("x", "s", around()),
    ];
    let e = CageRig::build(&rig, &descs).expect_err("all bad");
    let lines: Vec<String> = e.problems.iter().map(ToString::to_string).collect();
    let want = [
        "cage `x`: unknown slot `nope`",
        "cage `b`: unknown bone `jaw`",
        "cage `r`: weight row 0 sums to 1.5",
        "cage `v`: mesh vertex 80 out of range (the mesh has 9)",
        "cage `a`: unknown animation `dance`",
        "cage `k`: animation `wave`: key 0: 3 offsets for 4 cage points",
        "cage `w`: animation `wave`: keyed twice",
        "cage `t`: slot `s` has no attachment `nope`",
        "cage `few`: 2 cage points",
        "cage `x`: duplicate cage name `x`",
    ];
    assert_eq!(lines.len(), want.len(), "{lines:#?}");
    for (i, (l, w)) in lines.iter().zip(want).enumerate() {
        assert!(l.starts_with(w), "{l} / {w}");
        let p = &e.problems[i];
        assert_eq!(p.part, BuildPart::Cages);
        assert_eq!(p.element, Some(Element::Cage(i)));
    }
    assert_eq!(e.problems[1].kind, ProblemKind::UnknownName);
    assert_eq!(e.problems[1].name.as_deref(), Some("jaw"));
    // Another rig's character refuses the cages.
    let cr = CageRig::build(&rig, &[CageDesc::new("ok", "s", around())]).expect("builds");
    let mut other = Character::new(self::rig());
    assert!(other.set_cage_rig(Some(Arc::new(cr))).is_err());
}
