//! Draw-list tests on a small hand-built rig: a region, a clipping attachment ending at a
//! mesh slot, and a tinted region with a dark colour after the clip ended.

use super::*;
use crate::ids::{BoneId, NameId};
use crate::math::WorldTransform;
use crate::raw::Vertices;
use crate::rig::{
    Attachment, BoneData, LocalPose, MeshAttachment, RegionAttachment, SlotData, TextureRegion,
};
use crate::types::Inherit;

fn slot(name: &str, bone: u16, color: Color, dark: Option<Color>, blend: BlendMode) -> SlotData {
    SlotData {
        name: name.to_owned(),
        bone: BoneId(bone),
        color,
        dark,
        attachment: None,
        blend,
        visible: true,
    }
}

fn att(slot: u16, id: u32, kind: AttachmentKind) -> Attachment {
    Attachment {
        name: format!("a{id}"),
        key: NameId(id),
        slot: SlotId(slot),
        timeline_attachment: AttachmentId(id),
        timeline_slots: Vec::new(),
        kind,
    }
}

fn region(color: Color, page: u32) -> AttachmentKind {
    let mut r = TextureRegion::full("r");
    r.page = page;
    AttachmentKind::Region(RegionAttachment {
        path: "r".to_owned(),
        x: 0.0,
        y: 0.0,
        scale_x: 1.0,
        scale_y: 1.0,
        rotation: 0.0,
        width: 2.0,
        height: 4.0,
        color,
        sequence: None,
        regions: vec![r],
        // BL, UL, UR, BR of a 2x4 quad centred on the bone.
        offsets: vec![-1.0, -2.0, -1.0, 2.0, 1.0, 2.0, 1.0, -2.0],
        uvs: vec![0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0],
    })
}

fn mesh() -> AttachmentKind {
    AttachmentKind::Mesh(MeshAttachment {
        path: "m".to_owned(),
        color: Color::WHITE,
        vertices: Vertices {
            count: 3,
            bones: Vec::new(),
            values: vec![0.0, 0.0, 10.0, 0.0, 0.0, 10.0],
        },
        region_uvs: vec![0.0, 1.0, 1.0, 1.0, 0.0, 0.0],
        triangles: vec![0, 1, 2],
        hull: 3,
        edges: Vec::new(),
        width: 10.0,
        height: 10.0,
        sequence: None,
        regions: vec![TextureRegion::full("m")],
        uvs: vec![0.0, 1.0, 0.5, 1.0, 0.0, 0.5],
        parent_mesh: None,
    })
}

fn rig() -> Rig {
    let bone = |name: &str, parent: Option<u16>| BoneData {
        name: name.to_owned(),
        parent: parent.map(BoneId),
        length: 0.0,
        setup: LocalPose::IDENTITY,
        inherit: Inherit::Normal,
        skin_required: false,
    };
    let half = Color::new(0.5, 1.0, 1.0, 0.5);
    Rig {
        bones: vec![bone("root", None), bone("b", Some(0))],
        slots: vec![
            slot("s0", 0, Color::WHITE, None, BlendMode::Normal),
            slot("clip", 0, Color::WHITE, None, BlendMode::Normal),
            slot("m", 1, Color::WHITE, None, BlendMode::Normal),
            slot(
                "s3",
                0,
                half,
                Some(Color::new(0.2, 0.1, 0.0, 1.0)),
                BlendMode::Additive,
            ),
        ],
        attachments: vec![
            att(0, 0, region(Color::WHITE, 0)),
            att(
                1,
                1,
                AttachmentKind::Clipping {
                    end: Some(SlotId(2)),
                    vertices: Vertices {
                        count: 3,
                        bones: Vec::new(),
                        values: vec![0.0, 0.0, 4.0, 0.0, 0.0, 4.0],
                    },
                    convex: false,
                    inverse: false,
                },
            ),
            att(2, 2, mesh()),
            att(3, 3, region(Color::new(1.0, 0.5, 1.0, 1.0), 1)),
        ],
        slot_deform_capacity: vec![0, 0, 0, 0],
        ..Rig::empty()
    }
}

fn instance(rig: &Rig) -> Instance {
    let mut inst = Instance::new(rig);
    for i in 0..4 {
        inst.slots.attachment[i] = Some(AttachmentId(i as u32));
    }
    inst.world[0] = WorldTransform {
        a: 1.0,
        b: 0.0,
        c: 0.0,
        d: 1.0,
        x: 100.0,
        y: 50.0,
    };
    inst.world[1] = WorldTransform {
        a: 2.0,
        b: 0.0,
        c: 0.0,
        d: 2.0,
        x: 0.0,
        y: 0.0,
    };
    inst
}

#[test]
fn builds_commands_in_draw_order() {
    let rig = rig();
    let inst = instance(&rig);
    let mut list = DrawList::for_rig(&rig);
    build_draw_list(&rig, &inst, Color::WHITE, &mut list);
    assert_eq!(list.commands.len(), 3);
    let c0 = list.commands[0];
    assert_eq!(
        (c0.slot, c0.vertex_count, c0.index_count, c0.clip),
        (SlotId(0), 4, 6, None)
    );
    assert_eq!(list.command_indices(&c0), &QUAD_TRIANGLES);
    // The bone translates the quad by (100, 50).
    assert_eq!(
        list.command_positions(&c0),
        &[99.0, 48.0, 99.0, 52.0, 101.0, 52.0, 101.0, 48.0]
    );
    assert_eq!(
        list.command_uvs(&c0),
        &[0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0]
    );
    // The mesh is clipped by the polygon of slot 1, placed by bone 0.
    let c1 = list.commands[1];
    assert_eq!(
        (c1.slot, c1.vertex_start, c1.vertex_count, c1.clip),
        (SlotId(2), 4, 3, Some(0))
    );
    assert_eq!(
        list.command_positions(&c1),
        &[0.0, 0.0, 20.0, 0.0, 0.0, 20.0]
    );
    assert_eq!(list.command_uvs(&c1), &[0.0, 1.0, 0.5, 1.0, 0.0, 0.5]);
    assert_eq!(list.command_indices(&c1), &[0, 1, 2]);
    assert_eq!(
        list.clip_polygon(0),
        &[100.0, 50.0, 104.0, 50.0, 100.0, 54.0]
    );
    // The clip ended with slot 2; slot 3 is tinted slot x attachment, with its dark colour.
    let c2 = list.commands[2];
    assert_eq!((c2.clip, c2.page, c2.blend), (None, 1, BlendMode::Additive));
    assert_eq!(c2.color, Color::new(0.5, 0.5, 1.0, 0.5));
    assert_eq!(c2.dark, Some(Color::new(0.2, 0.1, 0.0, 1.0)));
    assert_eq!(c0.dark, None);
    assert_eq!(list.bounds(), Some([0.0, 0.0, 101.0, 52.0]));
}

#[test]
fn skeleton_color_multiplies() {
    let rig = rig();
    let inst = instance(&rig);
    let mut list = DrawList::for_rig(&rig);
    build_draw_list(&rig, &inst, Color::new(0.5, 0.5, 0.5, 0.5), &mut list);
    assert_eq!(list.commands[0].color, Color::new(0.5, 0.5, 0.5, 0.5));
    assert_eq!(list.commands[2].color, Color::new(0.25, 0.25, 0.5, 0.25));
}

#[test]
fn inactive_bone_and_draw_order() {
    let rig = rig();
    let mut inst = instance(&rig);
    inst.bone_active[1] = false;
    inst.draw_order.swap(0, 3);
    let mut list = DrawList::for_rig(&rig);
    build_draw_list(&rig, &inst, Color::WHITE, &mut list);
    let slots: Vec<SlotId> = list.commands.iter().map(|c| c.slot).collect();
    // Slot 2's bone is inactive: skipped, and it still ends the clip (slot 0 is unclipped).
    assert_eq!(slots, vec![SlotId(3), SlotId(0)]);
    assert_eq!(list.commands[1].clip, None);
    assert_eq!(list.clips.len(), 1);
}

#[test]
fn clip_without_end_lasts_to_the_last_slot() {
    let mut rig = rig();
    if let AttachmentKind::Clipping { end, .. } = &mut rig.attachments[1].kind {
        *end = None;
    }
    let inst = instance(&rig);
    let mut list = DrawList::for_rig(&rig);
    build_draw_list(&rig, &inst, Color::WHITE, &mut list);
    let clips: Vec<Option<u32>> = list.commands.iter().map(|c| c.clip).collect();
    assert_eq!(clips, vec![None, Some(0), Some(0)]);
}

#[test]
fn rebuilding_never_grows() {
    let rig = rig();
    let inst = instance(&rig);
    let mut list = DrawList::for_rig(&rig);
    let caps = |l: &DrawList| {
        (
            l.commands.capacity(),
            l.positions.capacity(),
            l.uvs.capacity(),
            l.indices.capacity(),
            l.clip_vertices.capacity(),
        )
    };
    let before = caps(&list);
    for _ in 0..3 {
        build_draw_list(&rig, &inst, Color::WHITE, &mut list);
    }
    assert_eq!(caps(&list), before);
    assert_eq!(list.positions.len(), 2 * (4 + 3 + 4));
    assert_eq!(list.uvs.len(), list.positions.len());
}

#[test]
fn group_runs_make_one_group_per_consecutive_run() {
    let rig = rig();
    let inst = instance(&rig);
    let mut list = DrawList::for_rig(&rig);
    build_draw_list(&rig, &inst, Color::WHITE, &mut list);
    // Commands show slots 0, 2, 3 (slot 1 is the clipping attachment); slots 2 and 3 belong to
    // the group of bone 1, slot 0 to none.
    let group = DrawGroup {
        bone: BoneId(1),
        first: 99,
        count: 99,
        blend: BlendMode::Multiply,
        color: Color::new(1.0, 1.0, 1.0, 0.5),
        screen: Color::BLACK,
    };
    let cap = list.groups.capacity();
    list.group_runs(|s| (s.0 >= 2).then_some(group));
    assert_eq!(list.groups.len(), 1);
    let g = list.groups[0];
    assert_eq!(
        (g.bone, g.first, g.count, g.blend),
        (BoneId(1), 1, 2, BlendMode::Multiply)
    );
    // A different bone per slot splits the run; no slot in a group leaves none.
    list.group_runs(|s| {
        (s.0 >= 2).then_some(DrawGroup {
            bone: BoneId(s.0),
            ..group
        })
    });
    let runs: Vec<(u32, u32)> = list.groups.iter().map(|g| (g.first, g.count)).collect();
    assert_eq!(runs, vec![(1, 1), (2, 1)]);
    list.group_runs(|_| None);
    assert!(list.groups.is_empty());
    assert_eq!(list.groups.capacity(), cap, "no growth");
    list.clear();
    assert!(list.groups.is_empty());
}

#[test]
fn a_convex_or_inverse_clip_holds_its_hull() {
    for (convex, inverse) in [(false, false), (true, false), (true, true)] {
        let mut rig = rig();
        // An L (the notch at 2,2), clockwise.
        if let AttachmentKind::Clipping {
            vertices,
            convex: c,
            inverse: i,
            ..
        } = &mut rig.attachments[1].kind
        {
            vertices.count = 6;
            vertices.values = vec![0., 0., 0., 4., 2., 4., 2., 2., 4., 2., 4., 0.];
            (*c, *i) = (convex, inverse);
        }
        let inst = instance(&rig);
        let mut list = DrawList::for_rig(&rig);
        let cap = list.clip_vertices.capacity();
        build_draw_list(&rig, &inst, Color::WHITE, &mut list);
        assert_eq!(list.clip_vertices.capacity(), cap);
        assert_eq!(
            (list.clips[0].convex, list.clips[0].inverse),
            (convex, inverse)
        );
        // Bone 0 moves by (100, 50).
        let poly = list.clip_polygon(0);
        if convex {
            // Counter-clockwise from the leftmost-lowest corner, the notch dropped.
            assert_eq!(
                poly,
                &[100., 50., 104., 50., 104., 52., 102., 54., 100., 54.]
            );
        } else {
            assert_eq!(poly.len(), 12, "a plain clip keeps its polygon");
        }
    }
}
