//! A small hand-made rig and timeline builders for the timeline and state unit tests.

use crate::anim::{Curves, MixBlend, MixDirection, Timeline, TimelineKind, apply_timeline};
use crate::ids::*;
use crate::instance::Instance;
use crate::raw::Vertices;
use crate::rig::*;
use crate::types::{BlendMode, Color, Inherit};

/// Bones: 0 root (identity); 1 "b" with setup x 3, y 4, rotation 10, scale 2, 2, shear 1, 2.
/// Slots: 0 "s0" on bone 1, colour (1, .5, .25, 1), dark (.1, .2, .3), setup key 0 ("pt");
/// 1 "s1" on bone 0, white, no setup attachment.
/// Attachments (default skin): 0 point "pt" (slot 0, key 0); 1 unweighted 3-vertex box
/// "box" (slot 0, key 1, vertices 1..6); 2 weighted box "wbox" (slot 0, key 2, 2 vertices,
/// one influence each); 3 point "pt" for slot 1 (key 0).
/// One IK, transform, path and two physics constraints (the second with global flags off).
pub fn rig() -> Rig {
    let mut rig = Rig::empty();
    let b = |name: &str, parent: Option<BoneId>, setup: LocalPose| BoneData {
        name: name.into(),
        parent,
        length: 10.0,
        setup,
        inherit: Inherit::Normal,
        skin_required: false,
    };
    rig.bones.push(b("root", None, LocalPose::IDENTITY));
    rig.bones.push(b(
        "b",
        Some(BoneId(0)),
        LocalPose {
            x: 3.0,
            y: 4.0,
            rotation: 10.0,
            scale_x: 2.0,
            scale_y: 2.0,
            shear_x: 1.0,
            shear_y: 2.0,
        },
    ));
    let slot =
        |name: &str, bone: u16, color: Color, dark: Option<Color>, att: Option<u32>| SlotData {
            name: name.into(),
            bone: BoneId(bone),
            color,
            dark,
            attachment: att.map(NameId),
            blend: BlendMode::Normal,
            visible: true,
        };
    rig.slots.push(slot(
        "s0",
        1,
        Color::new(1.0, 0.5, 0.25, 1.0),
        Some(Color::new(0.1, 0.2, 0.3, 1.0)),
        Some(0),
    ));
    rig.slots.push(slot("s1", 0, Color::WHITE, None, None));
    rig.attachment_keys = vec!["pt".into(), "box".into(), "wbox".into()];
    let att = |name: &str, key: u32, slot: u16, id: u32, kind: AttachmentKind| Attachment {
        name: name.into(),
        key: NameId(key),
        slot: SlotId(slot),
        timeline_attachment: AttachmentId(id),
        timeline_slots: Vec::new(),
        kind,
    };
    let point = || AttachmentKind::Point {
        x: 0.0,
        y: 0.0,
        rotation: 0.0,
    };
    rig.attachments.push(att("pt", 0, 0, 0, point()));
    let unweighted = Vertices {
        count: 3,
        bones: vec![],
        values: vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    };
    rig.attachments.push(att(
        "box",
        1,
        0,
        1,
        AttachmentKind::BoundingBox {
            vertices: unweighted,
            color: Color::WHITE,
        },
    ));
    let weighted = Vertices {
        count: 2,
        bones: vec![1, 1, 1, 1],
        values: vec![1.0, 2.0, 1.0, 3.0, 4.0, 1.0],
    };
    rig.attachments.push(att(
        "wbox",
        2,
        0,
        2,
        AttachmentKind::BoundingBox {
            vertices: weighted,
            color: Color::WHITE,
        },
    ));
    rig.attachments.push(att("pt", 0, 1, 3, point()));
    let entries = vec![
        (SlotId(0), NameId(0), AttachmentId(0)),
        (SlotId(0), NameId(1), AttachmentId(1)),
        (SlotId(0), NameId(2), AttachmentId(2)),
        (SlotId(1), NameId(0), AttachmentId(3)),
    ];
    rig.skins.push(SkinData {
        name: "default".into(),
        entries,
        ..Default::default()
    });
    rig.default_skin = Some(SkinId(0));
    rig.slot_deform_capacity = vec![6, 0];
    rig.ik.push(IkData {
        name: "ik".into(),
        skin_required: false,
        bones: vec![BoneId(1)],
        target: BoneId(0),
        mix: 0.5,
        softness: 2.0,
        bend_direction: 1,
        compress: false,
        stretch: false,
        uniform: false,
        volume: false,
        solver: Default::default(),
    });
    rig.transforms.push(TransformData {
        name: "tc".into(),
        skin_required: false,
        bones: vec![BoneId(1)],
        target: BoneId(0),
        local: false,
        relative: false,
        offset_rotation: 0.0,
        offset_x: 0.0,
        offset_y: 0.0,
        offset_scale_x: 0.0,
        offset_scale_y: 0.0,
        offset_shear_y: 0.0,
        mix: TransformMix {
            rotate: 1.0,
            x: 0.5,
            y: 0.5,
            scale_x: 0.25,
            scale_y: 0.25,
            shear_y: 0.0,
        },
        properties: Vec::new(),
        local_target: false,
        clamp: false,
    });
    let physics = |name: &str, global: bool| PhysicsData {
        name: name.into(),
        skin_required: false,
        bone: BoneId(1),
        x: 1.0,
        y: 0.0,
        rotate: 0.0,
        scale_x: 0.0,
        shear_x: 0.0,
        scale_y: Default::default(),
        interpolate: false,
        limit: 5000.0,
        step: 1.0 / 60.0,
        setup: PhysicsParams {
            inertia: 1.0,
            strength: 100.0,
            damping: 1.0,
            mass_inverse: 0.5,
            wind: 0.0,
            gravity: 0.0,
            mix: 1.0,
        },
        inertia_global: global,
        strength_global: global,
        damping_global: global,
        mass_global: global,
        wind_global: global,
        gravity_global: global,
        mix_global: global,
    };
    rig.physics.push(physics("p0", true));
    rig.physics.push(physics("p1", false));
    rig.events.push(EventData {
        name: "e".into(),
        string: "default".into(),
        ..Default::default()
    });
    rig
}

/// A fresh instance of [`rig`] in the setup pose.
pub fn instance(rig: &Rig) -> Instance {
    Instance::new(rig)
}

/// A timeline with keys given as rows `[time, values...]`, all linear.
pub fn tln(kind: TimelineKind, rows: &[&[f32]]) -> Timeline {
    let e = kind.entries();
    let mut frames = Vec::new();
    for r in rows {
        assert_eq!(r.len(), e, "row width");
        frames.extend_from_slice(r);
    }
    let sorted = crate::anim::curve::keys_sorted(&frames, e);
    Timeline {
        kind,
        frames,
        curves: Curves::new(rows.len()),
        properties: [0; 3],
        property_count: 0,
        sorted,
    }
}

/// A one-value timeline from (time, value) keys.
pub fn tl1(kind: TimelineKind, keys: &[(f32, f32)]) -> Timeline {
    let rows: Vec<[f32; 2]> = keys.iter().map(|&(t, v)| [t, v]).collect();
    let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
    tln(kind, &refs)
}

/// A two-value timeline from (time, x, y) keys.
pub fn tl2(kind: TimelineKind, keys: &[(f32, f32, f32)]) -> Timeline {
    let rows: Vec<[f32; 3]> = keys.iter().map(|&(t, x, y)| [t, x, y]).collect();
    let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
    tln(kind, &refs)
}

/// A timeline with one entry per key (times only) and the given kind.
pub fn times(kind: TimelineKind, times: &[f32]) -> Timeline {
    let refs: Vec<[f32; 1]> = times.iter().map(|&t| [t]).collect();
    let rows: Vec<&[f32]> = refs.iter().map(|r| r.as_slice()).collect();
    tln(kind, &rows)
}

/// An inherit timeline.
pub fn inherit_tl(bone: BoneId, keys: &[(f32, Inherit)]) -> Timeline {
    let t: Vec<f32> = keys.iter().map(|k| k.0).collect();
    times(
        TimelineKind::Inherit {
            bone,
            modes: keys.iter().map(|k| k.1).collect(),
        },
        &t,
    )
}

/// Applies a timeline at `time` (last time -1, no events).
pub fn run(
    rig: &Rig,
    inst: &mut Instance,
    tl: &Timeline,
    time: f64,
    alpha: f64,
    blend: MixBlend,
    dir: MixDirection,
) {
    apply_timeline(
        rig,
        inst,
        ClipId(0),
        tl,
        -1.0,
        time,
        None,
        alpha,
        blend,
        dir,
    );
}
