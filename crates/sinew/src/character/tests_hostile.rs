//! Hostile values through the public API (issue 12): NaN, infinities, 1e38, -0 and zero
//! scales given to every setter, and overflowing rigs, leave every output finite: world
//! transforms, world vertices, the draw list, bounds, the view fit and the query helpers.

use super::*;
use crate::ids::{BoneId, IkId, SlotId};
use crate::raw::{
    RawAttachment, RawAttachmentKind, RawBone, RawIk, RawRig, RawSkin, RawSkinEntry, RawSlot,
    Vertices,
};
use crate::types::BlendMode;

const HOSTILE: [f64; 7] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    1e38,
    -1e38,
    -0.0,
    0.0,
];

fn slot(name: &str, bone: &str, attachment: &str) -> RawSlot {
    RawSlot {
        name: name.into(),
        bone: bone.into(),
        color: Color::WHITE,
        dark: None,
        attachment: Some(attachment.into()),
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

/// root -> arm (scale `arm_scale`) -> hand, an IK on arm/hand, a region on the hand and a
/// triangle mesh on the arm.
fn rig(arm_scale: f64) -> Arc<Rig> {
    let mut raw = RawRig::default();
    raw.bones.push(RawBone::new("root", None));
    let mut arm = RawBone::new("arm", Some("root"));
    arm.x = 10.0;
    arm.scale_x = arm_scale;
    arm.scale_y = arm_scale;
    raw.bones.push(arm);
    let mut hand = RawBone::new("hand", Some("arm"));
    hand.x = 5.0;
    raw.bones.push(hand);
    raw.bones.push(RawBone::new("target", Some("root")));
    raw.ik.push(RawIk {
        name: "reach".into(),
        order: 0,
        skin_required: false,
        bones: vec!["arm".into(), "hand".into()],
        target: "target".into(),
        mix: 1.0,
        softness: 0.0,
        bend_positive: true,
        compress: false,
        stretch: false,
        uniform: false,
        volume: false,
        solver: Default::default(),
    });
    raw.slots = vec![slot("r", "hand", "box"), slot("m", "arm", "tri")];
    raw.skins = vec![RawSkin {
        name: "default".into(),
        attachments: vec![
            entry(
                "r",
                "box",
                RawAttachmentKind::Region {
                    path: "box".into(),
                    x: 1.0,
                    y: 2.0,
                    scale_x: 1.0,
                    scale_y: 1.0,
                    rotation: 0.0,
                    width: 4.0,
                    height: 4.0,
                    color: Color::WHITE,
                    sequence: None,
                },
            ),
            entry(
                "m",
                "tri",
                RawAttachmentKind::Mesh {
                    path: "tri".into(),
                    color: Color::WHITE,
                    vertices: Vertices {
                        count: 3,
                        bones: vec![],
                        values: vec![0.0, 0.0, 1e30, 0.0, 0.0, 1e30],
                    },
                    uvs: vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
                    triangles: vec![0, 1, 2],
                    hull: 3,
                    edges: vec![],
                    width: 1.0,
                    height: 1.0,
                    sequence: None,
                },
            ),
        ],
        ..Default::default()
    }];
    Arc::new(crate::build::build_rig(&raw).expect("rig builds"))
}

/// Every output of `c` is finite.
fn assert_finite(c: &mut Character, what: &str) {
    for w in &c.instance().world {
        for v in [w.a, w.b, w.c, w.d, w.x, w.y] {
            assert!(v.is_finite(), "{what}: world {w:?}");
        }
    }
    for i in 0..c.rig().bones.len() {
        let b = BoneId(i as u16);
        let w = c.bone_world(b).expect("bone");
        assert!(
            [w.a, w.b, w.c, w.d, w.x, w.y].iter().all(|v| v.is_finite()),
            "{what}"
        );
        for x in HOSTILE {
            for p in [c.local_to_world(b, (x, 1.0)), c.world_to_local(b, (x, 1.0))]
                .into_iter()
                .flatten()
            {
                assert!(p.x.is_finite() && p.y.is_finite(), "{what}: {x} -> {p:?}");
            }
            for r in [
                c.world_to_local_rotation(b, x),
                c.local_to_world_rotation(b, x),
            ]
            .into_iter()
            .flatten()
            {
                assert!(r.is_finite(), "{what}: rotation {x} -> {r}");
            }
            if let Some(r) = c.world_rotation(b) {
                assert!(r.is_finite(), "{what}");
            }
        }
    }
    let mut buf = vec![0.0f32; c.max_world_floats()];
    c.compute_world_vertices(&mut buf);
    assert!(buf.iter().all(|v| v.is_finite()), "{what}: {buf:?}");
    let mut out = Vec::new();
    for s in 0..c.rig().slots.len() {
        c.world_vertices(SlotId(s as u16), &mut out);
        assert!(out.iter().all(|v| v.is_finite()), "{what}: {out:?}");
    }
    let list = c.draw_list();
    assert!(list.positions.iter().all(|v| v.is_finite()), "{what}");
    assert!(
        list.commands
            .iter()
            .all(|k| [k.color.r, k.color.g, k.color.b, k.color.a]
                .iter()
                .all(|v| v.is_finite())),
        "{what}"
    );
    if let Some(b) = c.bounds() {
        assert!(b.iter().all(|v| v.is_finite()), "{what}: {b:?}");
    }
    for padding in [0.05, f64::NAN, 1e300] {
        if let Some(v) = c.fit_view(64, 64, padding) {
            assert!(v.iter().all(|x| x.is_finite()), "{what}: {v:?}");
        }
    }
}

#[test]
fn hostile_setter_values_are_refused_or_ignored() {
    let mut c = Character::new(rig(1.0));
    c.update(0.0);
    let before = c.instance().world.clone();
    let (arm, ik) = (c.find_bone("arm").expect("arm"), IkId(0));
    for x in HOSTILE {
        let bad = !x.is_finite() || x.abs() >= 1e30;
        let pose = LocalPose {
            x,
            ..LocalPose::IDENTITY
        };
        assert_eq!(c.set_bone_local(arm, pose).is_err(), bad, "{x}");
        let pose = LocalPose {
            scale_y: x,
            ..LocalPose::IDENTITY
        };
        assert_eq!(c.set_bone_local(arm, pose).is_err(), bad, "{x}");
        assert_eq!(c.set_ik_target(ik, x, 1.0).is_err(), bad, "{x}");
        c.set_position(x, 0.0);
        c.set_scale(x, x);
        c.set_color(Color::new(x as f32, 1.0, 1.0, 1.0));
        c.set_default_mix(x);
        c.set_empty_animation(0, x).expect("track 0 takes any mix");
        for dt in HOSTILE {
            c.update(dt);
            assert_finite(&mut c, &format!("value {x}, dt {dt}"));
        }
        c.update(-1.0);
        assert_finite(&mut c, &format!("value {x}, dt -1"));
        c.clear_bone_local(arm).expect("arm");
        c.clear_ik_target(ik).expect("ik");
    }
    let e = c
        .set_bone_local(
            arm,
            LocalPose {
                rotation: f64::NAN,
                ..LocalPose::IDENTITY
            },
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "bone local rotation must be finite and under 1e30 in magnitude"
    );
    // The refused and ignored values left the pose as it was (position and scale at 0 are
    // accepted: -0 and 0 are finite).
    // (The last accepted bone local stays in the pose, as any override does: back to setup.)
    c.set_position(0.0, 0.0);
    c.set_scale(1.0, 1.0);
    c.set_to_setup_pose();
    c.update(0.0);
    assert_eq!(c.instance().world, before);
    // A time scale that overflows dt is taken as no time.
    assert!(c.set_time_scale(1e308));
    let t = c.instance().time;
    c.update(1e10);
    assert_eq!(c.instance().time, t);
}

#[test]
fn rigs_that_overflow_give_finite_outputs() {
    // An arm scaled 1e30 under a skeleton scaled 1e30: its mesh's vertices at 1e30 pass f32
    // and f64; zero and negative-zero scales collapse the arm (a singular parent of the hand
    // and of the IK).
    for s in [1e29, 0.0, -0.0] {
        let mut c = Character::new(rig(s));
        c.set_scale(1e29, 1e29);
        c.set_ik_target(IkId(0), 3.0, 4.0).expect("ik");
        c.update(1.0 / 60.0);
        assert_finite(&mut c, &format!("arm scale {s}"));
        if s != 0.0 {
            assert!(c.overflowed(), "scale {s}: the overflow is reported");
        }
    }
}

#[test]
fn singular_parents_give_finite_applied_poses() {
    // root -> p (scale `sx`, `sy`) -> c, a transform constraint moving c toward root (world
    // mode: its applied pose is recomputed from its world transform through p's inverse).
    for (sx, sy) in [(0.0, 1.0), (1.0, 0.0), (0.0, 0.0), (-0.0, 2.0)] {
        let mut raw = RawRig::default();
        raw.bones.push(RawBone::new("root", None));
        let mut p = RawBone::new("p", Some("root"));
        (p.x, p.scale_x, p.scale_y) = (3.0, sx, sy);
        raw.bones.push(p);
        let mut child = RawBone::new("c", Some("p"));
        child.x = 5.0;
        raw.bones.push(child);
        raw.transforms.push(crate::raw::RawTransform {
            name: "t".into(),
            order: 0,
            skin_required: false,
            bones: vec!["c".into()],
            target: "root".into(),
            local: false,
            relative: false,
            offset_rotation: 0.0,
            offset_x: 7.0,
            offset_y: 1.0,
            offset_scale_x: 0.0,
            offset_scale_y: 0.0,
            offset_shear_y: 0.0,
            mix_rotate: 1.0,
            mix_x: 1.0,
            mix_y: 1.0,
            mix_scale_x: 1.0,
            mix_scale_y: 1.0,
            mix_shear_y: 1.0,
            properties: Vec::new(),
            local_target: false,
            clamp: false,
        });
        let mut c = Character::new(Arc::new(crate::build::build_rig(&raw).expect("rig")));
        c.update(0.0);
        let a = c.instance().applied[2];
        let v = [
            a.x, a.y, a.rotation, a.scale_x, a.scale_y, a.shear_x, a.shear_y,
        ];
        assert!(v.iter().all(|x| x.is_finite()), "scale {sx},{sy}: {a:?}");
        // The pseudo-inverse's least-squares position: the world offset from p (4, 1) seen
        // through p's surviving axis (0 on a collapsed one).
        let expect = [
            4.0 * if sx == 0.0 { 0.0 } else { 1.0 / sx },
            if sy == 0.0 { 0.0 } else { 1.0 / sy },
        ];
        assert!(
            (a.x - expect[0]).abs() < 1e-5 && (a.y - expect[1]).abs() < 1e-5,
            "scale {sx},{sy}: {a:?}"
        );
        assert_finite(&mut c, &format!("singular parent {sx},{sy}"));
    }
}

#[test]
fn cages_on_overflowing_or_nan_meshes_give_finite_outputs() {
    use crate::cage::Cage;
    use crate::deform::cage_stage::{CageDeformer, CageMode, CageSource};
    let tri = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
    for (scale, source) in [
        // The mesh's own corners as the cage, on an arm whose vertices pass f32.
        (1e29, CageSource::MeshVertices(vec![0, 1, 2])),
        // A cage the host writes, here with NaN.
        (1.0, CageSource::External),
    ] {
        let external = matches!(source, CageSource::External);
        let mut c = Character::new(rig(scale));
        c.set_scale(1e29, 1e29);
        let slot = c.find_slot("m").expect("slot");
        let mesh = c.find_attachment("m", "tri").expect("mesh");
        let cage = Cage::from_loops(&[tri.to_vec()]).expect("a cage");
        let def =
            CageDeformer::new(&cage, &[], Vec::new(), source, CageMode::Replace).expect("binds");
        let k = c.add_cage(slot, mesh, def).expect("a mesh of the slot");
        if external {
            c.cage_mut(k).expect("cage").cage_mut().fill(f32::NAN);
        }
        c.update(1.0 / 60.0);
        assert_finite(&mut c, &format!("cage, scale {scale}"));
        if let Some((_, points, _)) = c.cage_world(k) {
            assert!(points.iter().all(|v| v.is_finite()), "{points:?}");
        }
        if external {
            assert!(c.cage_world(k).is_none(), "a NaN cage is not handed out");
        }
    }
}
