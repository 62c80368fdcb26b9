//! The cage stage on a hand-built rig: a weighted mesh on two bones with a deform offset,
//! run through `compute_world_vertices` (offsets, then skinning) and then the cages.
//!
//! Mesh (bind pose, bones at identity): corners 0..3 of the unit square, 4 = (0.5, 0.5)
//! (half on each bone), 5 = (0.25, 0.5) and 6 = (0.5, 0.2) on bone 1. Pose: bone 1 =
//! scale 2 then move (10, 0); bone 2 = move (0, 5); vertex 1 has a deform offset (0.5, 0).
//! Posed and skinned: v0 (10, 0), v1 = M1 (1.5, 0) = (13, 0), v2 = (1, 6), v3 = (0, 6),
//! v4 = (5.75, 3.25), v5 = (10.5, 1), v6 = (11, 0.4).

use super::*;
use crate::cage::Cage;
use crate::deform::compute_world_vertices;
use crate::ids::{AttachmentId, NameId, SlotId};
use crate::instance::Instance;
use crate::raw::Vertices;
use crate::rig::{
    Attachment, AttachmentKind, BoneData, LocalPose, MeshAttachment, Rig, SlotData, TextureRegion,
};
use crate::types::{BlendMode, Color, Inherit};

const BIND: [[f64; 2]; 7] = [
    [0.0, 0.0],
    [1.0, 0.0],
    [1.0, 1.0],
    [0.0, 1.0],
    [0.5, 0.5],
    [0.25, 0.5],
    [0.5, 0.2],
];

fn bone(name: &str, parent: Option<u16>) -> BoneData {
    BoneData {
        name: name.to_owned(),
        parent: parent.map(BoneId),
        length: 0.0,
        setup: LocalPose::IDENTITY,
        inherit: Inherit::Normal,
        skin_required: false,
    }
}

fn rig() -> Rig {
    // Influences: [count, bone...] and [x, y, weight] per influence.
    let on = |b: u32, p: [f64; 2]| (vec![1, b], vec![p[0] as f32, p[1] as f32, 1.0]);
    let parts = [
        on(1, BIND[0]),
        on(1, BIND[1]),
        on(2, BIND[2]),
        on(2, BIND[3]),
        (vec![2, 1, 2], vec![0.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
        on(1, BIND[5]),
        on(1, BIND[6]),
    ];
    let vertices = Vertices {
        count: 7,
        bones: parts.iter().flat_map(|p| p.0.clone()).collect(),
        values: parts.iter().flat_map(|p| p.1.clone()).collect(),
    };
    let mesh = MeshAttachment {
        path: "m".to_owned(),
        color: Color::WHITE,
        region_uvs: vec![0.0; 14],
        vertices,
        triangles: vec![0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4],
        hull: 4,
        edges: Vec::new(),
        width: 0.0,
        height: 0.0,
        sequence: None,
        regions: vec![TextureRegion::full("m")],
        uvs: Vec::new(),
        parent_mesh: None,
    };
    Rig {
        bones: vec![bone("root", None), bone("b1", Some(0)), bone("b2", Some(0))],
        slots: vec![SlotData {
            name: "s".to_owned(),
            bone: BoneId(1),
            color: Color::WHITE,
            dark: None,
            attachment: None,
            blend: BlendMode::Normal,
            visible: true,
        }],
        attachments: vec![Attachment {
            name: "m".to_owned(),
            key: NameId(0),
            slot: SlotId(0),
            timeline_attachment: AttachmentId(0),
            timeline_slots: Vec::new(),
            kind: AttachmentKind::Mesh(mesh),
        }],
        // One (x, y) offset per influence: 8 influences.
        slot_deform_capacity: vec![16],
        ..Rig::empty()
    }
}

/// Posed, offset and skinned world vertices (the input of the cage stage).
fn skinned(rig: &Rig) -> (Instance, Vec<f32>) {
    let mut inst = Instance::new(rig);
    inst.slots.attachment[0] = Some(AttachmentId(0));
    inst.world[1] = WorldTransform {
        a: 2.0,
        b: 0.0,
        c: 0.0,
        d: 2.0,
        x: 10.0,
        y: 0.0,
    };
    inst.world[2] = WorldTransform {
        x: 0.0,
        y: 5.0,
        ..WorldTransform::IDENTITY
    };
    let mut offsets = [0.0; 16];
    offsets[2] = 0.5; // vertex 1's only influence
    inst.slots.deform[..16].copy_from_slice(&offsets);
    inst.slots.deform_len[0] = 16;
    let mut out = vec![0.0f32; 14];
    compute_world_vertices(rig, &inst, SlotId(0), &mut out);
    (inst, out)
}

fn square() -> Cage {
    Cage::from_loops(&[&BIND[..4]]).expect("valid")
}

fn close(got: &[f32], want: &[f32]) {
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-5, "got {got:?}, want {want:?}");
    }
}

#[test]
fn offsets_then_skinning_then_cage() {
    let rig = rig();
    let (inst, mut v) = skinned(&rig);
    close(
        &v,
        &[
            10.0, 0.0, 13.0, 0.0, 1.0, 6.0, 0.0, 6.0, 5.75, 3.25, 10.5, 1.0, 11.0, 0.4,
        ],
    );
    let mut d = CageDeformer::new(
        &square(),
        &BIND[4..6],
        vec![4, 5],
        CageSource::MeshVertices(vec![0, 1, 2, 3]),
        CageMode::Replace,
    )
    .expect("bound");
    apply_cage(&mut d, &inst.world, &mut v).expect("sizes");
    // v4: the mean of the posed corners (the offset on v1 included) = (6, 3).
    // v5: (0.375, 0.125, 0.125, 0.375) . corners = (5.5, 3).
    close(&v[8..12], &[6.0, 3.0, 5.5, 3.0]);
    // Control vertices and the unbound vertex 6 are untouched.
    close(&v[..8], &[10.0, 0.0, 13.0, 0.0, 1.0, 6.0, 0.0, 6.0]);
    close(&v[12..], &[11.0, 0.4]);
}

#[test]
fn bone_driven_cage_follows_the_bone_rigidly() {
    let rig = rig();
    let (inst, mut v) = skinned(&rig);
    let src = CageSource::Bones {
        offsets: vec![0, 1, 2, 3, 4],
        bones: vec![BoneId(1); 4],
        values: BIND[..4].iter().map(|p| [p[0], p[1], 1.0]).collect(),
    };
    let mut d = CageDeformer::new(&square(), &BIND[4..6], vec![4, 5], src, CageMode::Replace)
        .expect("bound");
    apply_cage(&mut d, &inst.world, &mut v).expect("sizes");
    // Affine reproduction: M1 (0.5, 0.5) = (11, 1), M1 (0.25, 0.5) = (10.5, 1).
    close(&v[8..12], &[11.0, 1.0, 10.5, 1.0]);
}

#[test]
fn external_cage_in_offset_mode_adds_its_motion() {
    let rig = rig();
    let (inst, mut v) = skinned(&rig);
    let mut d = CageDeformer::new(
        &square(),
        &BIND[4..6],
        vec![4, 5],
        CageSource::External,
        CageMode::Offset,
    )
    .expect("bound");
    // At the bind pose the stage is the identity.
    apply_cage(&mut d, &inst.world, &mut v).expect("sizes");
    close(&v[8..12], &[5.75, 3.25, 10.5, 1.0]);
    // Move cage vertex 2 by (4, 0): v4 += 0.25 * 4, v5 += 0.125 * 4 in x.
    d.cage_mut()[4] += 4.0;
    apply_cage(&mut d, &inst.world, &mut v).expect("sizes");
    close(&v[8..12], &[6.75, 3.25, 11.0, 1.0]);
}

#[test]
fn nested_cages_run_parent_first() {
    let rig = rig();
    let (inst, mut v) = skinned(&rig);
    let parent = CageDeformer::new(
        &square(),
        &BIND[4..5],
        vec![4],
        CageSource::MeshVertices(vec![0, 1, 2, 3]),
        CageMode::Replace,
    )
    .expect("bound");
    // Child: triangle v0, v1, v4 around v6; MVC in a triangle are barycentric:
    // (0.5, 0.2) = 0.3 v0 + 0.3 v1 + 0.4 v4.
    let tri = Cage::from_loops(&[[BIND[0], BIND[1], BIND[4]]]).expect("valid");
    let child = CageDeformer::new(
        &tri,
        &BIND[6..7],
        vec![6],
        CageSource::MeshVertices(vec![0, 1, 4]),
        CageMode::Replace,
    )
    .expect("bound");
    let mut defs = [parent, child];
    apply_cages(&mut defs, &inst.world, &mut v).expect("sizes");
    // Parent first: v4 = (6, 3), so v6 = 0.3 (10, 0) + 0.3 (13, 0) + 0.4 (6, 3) = (9.3, 1.2)
    // (child first would have used the skinned v4 and given (9.2, 1.3)).
    close(&v[8..10], &[6.0, 3.0]);
    close(&v[12..14], &[9.3, 1.2]);
}

#[test]
fn mismatched_sources_and_buffers_are_errors() {
    let rig = rig();
    let (inst, mut v) = skinned(&rig);
    let bad = CageDeformer::new(
        &square(),
        &BIND[4..6],
        vec![4, 5],
        CageSource::MeshVertices(vec![0, 1, 2]),
        CageMode::Replace,
    );
    assert!(matches!(bad, Err(CageError::SizeMismatch { .. })));
    let mut d = CageDeformer::new(
        &square(),
        &BIND[4..6],
        vec![4, 50],
        CageSource::MeshVertices(vec![0, 1, 2, 3]),
        CageMode::Replace,
    )
    .expect("bound");
    assert!(apply_cage(&mut d, &inst.world, &mut v).is_err());
}

/// The cage stage in the frame: a cage added to a character's mesh moves the mesh in the
/// draw list and in the world vertices after skinning, only while the slot shows it.
#[test]
fn a_character_runs_its_cages_after_skinning() {
    use crate::character::Character;
    use std::sync::Arc;
    let rig = Arc::new(rig());
    let mut c = Character::new(rig.clone());
    c.set_attachment(SlotId(0), Some(AttachmentId(0)))
        .expect("the slot's mesh");
    c.update(0.0);
    let mut plain = Vec::new();
    assert!(c.world_vertices(SlotId(0), &mut plain));
    // Vertices 4..6 follow an external cage; the corners stay skinned.
    let def = CageDeformer::new(
        &square(),
        &BIND[4..],
        vec![4, 5, 6],
        CageSource::External,
        CageMode::Offset,
    )
    .expect("binds");
    let k = c
        .add_cage(SlotId(0), AttachmentId(0), def)
        .expect("a mesh of the slot");
    // Moving the whole cage by (3, -2) moves the bound vertices by exactly that (MVC
    // reproduces translations), after skinning.
    for p in c.cage_mut(k).expect("cage").cage_mut().chunks_exact_mut(2) {
        p[0] += 3.0;
        p[1] -= 2.0;
    }
    c.update(0.0);
    let mut caged = Vec::new();
    assert!(c.world_vertices(SlotId(0), &mut caged));
    for v in 0..7 {
        let (dx, dy) = if v >= 4 { (3.0, -2.0) } else { (0.0, 0.0) };
        close(
            &caged[2 * v..2 * v + 2],
            &[plain[2 * v] + dx, plain[2 * v + 1] + dy],
        );
    }
    let list = c.draw_list();
    let cmd = list.commands[0];
    let start = cmd.vertex_start as usize * 2;
    close(&list.positions[start..start + 14], &caged);
    let mut all = vec![0.0; 14];
    assert_eq!(c.compute_world_vertices(&mut all), 7);
    close(&all, &caged);
    // Another mesh or a vertex the mesh lacks is refused.
    let bad = CageDeformer::new(
        &square(),
        &[[0.5, 0.5]],
        vec![9],
        CageSource::External,
        CageMode::Offset,
    )
    .expect("binds");
    assert!(c.add_cage(SlotId(0), AttachmentId(0), bad.clone()).is_err());
    assert!(c.add_cage(SlotId(3), AttachmentId(0), bad.clone()).is_err());
    assert!(c.add_cage(SlotId(0), AttachmentId(7), bad).is_err());
    // Hidden: the cage no longer applies.
    c.set_attachment(SlotId(0), None::<AttachmentId>)
        .expect("slot");
    c.update(0.0);
    let mut none = Vec::new();
    assert!(c.world_vertices(SlotId(0), &mut none));
    assert!(none.is_empty());
}

#[test]
fn grid_weights_run_in_the_stage_like_dense_ones() {
    use crate::cage::{GridBinding, GridOptions};
    let rig = rig();
    let (inst, base) = skinned(&rig);
    let src = || CageSource::MeshVertices(vec![0, 1, 2, 3]);
    for mode in [CageMode::Replace, CageMode::Offset] {
        let (grid, _) =
            GridBinding::bind(&square(), &BIND[4..7], &GridOptions::new(0.01)).expect("grid");
        let mut g = CageDeformer::with_weights(
            CageWeights::Grid(grid),
            &square(),
            vec![4, 5, 6],
            src(),
            mode,
        )
        .expect("bound");
        let mut d =
            CageDeformer::new(&square(), &BIND[4..7], vec![4, 5, 6], src(), mode).expect("bound");
        let (mut a, mut b) = (base.clone(), base.clone());
        apply_cage(&mut g, &inst.world, &mut a).expect("sizes");
        apply_cage(&mut d, &inst.world, &mut b).expect("sizes");
        close(&a, &b);
        assert!(matches!(g.weights(), CageWeights::Grid(_)));
    }
    // A grid bound for other points is refused.
    let (grid, _) =
        GridBinding::bind(&square(), &BIND[4..6], &GridOptions::new(0.01)).expect("grid");
    let three = CageDeformer::with_weights(
        CageWeights::Grid(grid),
        &square(),
        vec![4, 5, 6],
        src(),
        CageMode::Replace,
    );
    assert!(three.is_err());
}
