//! `Character::bind_cage`: a mesh bound in world space as last posed follows an external
//! cage's translation exactly (mean value coordinates reproduce affine maps), and the
//! refusals name what is wrong.

use super::*;
use crate::cage::Cage;
use crate::deform::cage_stage::{CageMode, CageSource};
use crate::raw::{RawAttachment, RawAttachmentKind, RawBone, RawRig, RawSkin, RawSkinEntry};
use crate::raw::{RawSlot, Vertices};

/// A unit-square mesh `m` on slot `s` of a root bone at (10, 0).
fn square_rig() -> Arc<Rig> {
    let mut raw = RawRig::default();
    let mut root = RawBone::new("root", None);
    root.x = 10.0;
    raw.bones.push(root);
    let mut slot = RawSlot::new("s", "root");
    slot.attachment = Some("m".into());
    raw.slots.push(slot);
    let square = vec![0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
    let mesh = RawAttachmentKind::Mesh {
        path: "m".into(),
        color: Color::WHITE,
        vertices: Vertices {
            count: 4,
            bones: Vec::new(),
            values: square.clone(),
        },
        uvs: square,
        triangles: vec![0, 1, 2, 2, 3, 0],
        hull: 4,
        edges: Vec::new(),
        width: 1.0,
        height: 1.0,
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
    Arc::new(crate::build::build_rig(&raw).expect("rig builds"))
}

fn around() -> Cage {
    Cage::from_loops(&[[[9.0, -1.0], [12.0, -1.0], [12.0, 2.0], [9.0, 2.0]]]).expect("cage")
}

#[test]
fn a_bound_mesh_follows_its_external_cage() {
    let mut c = Character::new(square_rig());
    c.update(0.0);
    let mut before = Vec::new();
    assert!(c.world_vertices("s", &mut before));
    assert_eq!(before, [10.0, 0.0, 11.0, 0.0, 11.0, 1.0, 10.0, 1.0]);
    let k = c
        .bind_cage("s", "m", &around(), CageSource::External, CageMode::Offset)
        .expect("binds");
    for p in c.cage_points_mut(k).expect("cage").chunks_exact_mut(2) {
        p[0] += 5.0;
        p[1] += 2.0;
    }
    c.update(0.0);
    let mut after = Vec::new();
    assert!(c.world_vertices("s", &mut after));
    for (i, (a, b)) in after.iter().zip(&before).enumerate() {
        let want = b + if i % 2 == 0 { 5.0 } else { 2.0 };
        assert!((a - want).abs() < 1e-4, "vertex {i}: {a} vs {want}");
    }
    assert!(c.cage_points_mut(k + 1).is_none());
}

#[test]
fn bind_cage_refusals_name_the_problem() {
    let mut c = Character::new(square_rig());
    c.update(0.0);
    let cage = around();
    let bind = |c: &mut Character, att: Option<&str>| {
        c.bind_cage("s", att, &cage, CageSource::External, CageMode::Offset)
    };
    let err = bind(&mut c, None).expect_err("no mesh named");
    assert_eq!(
        err.to_string(),
        "slot `s` does not show the mesh to bind: show it and update first"
    );
    assert!(matches!(
        bind(&mut c, Some("nope")),
        Err(CharacterError::UnknownAttachment { .. })
    ));
    assert!(matches!(
        c.bind_cage("t", "m", &cage, CageSource::External, CageMode::Offset),
        Err(CharacterError::UnknownName { kind: "slot", .. })
    ));
    c.set_attachment("s", None::<&str>).expect("hide");
    c.update(0.0);
    assert!(matches!(
        bind(&mut c, Some("m")),
        Err(CharacterError::MeshNotShown { .. })
    ));
    assert_eq!(c.cage_count(), 0, "nothing bound");
}
