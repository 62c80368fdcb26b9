//! Unit and property tests: inherit modes against hand-computed closed forms, the applied
//! transform as the inverse of the world transform, IK reaching targets, and the update
//! plan order for hand-made rigs (expected orders worked out from spine.md §5).

use super::testrig::*;
use super::*;
use crate::bone::update_applied_transform;
use crate::ids::*;
use crate::instance::plan::PlanOp;
use crate::instance::{ActiveSkin, Instance};
use crate::math::{Vec2, WorldTransform};
use crate::raw::Vertices;
use crate::rig::{
    Attachment, AttachmentKind, ConstraintRef, PathAttachment, PathData, PathMix, SkinData,
    SlotData,
};
use crate::types::{BlendMode, Color, Inherit, Physics};
use proptest::prelude::*;

const ID: [f64; 7] = [0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0];

/// World matrix of rotation `deg` times `diag(sx, sy)`.
fn rot_scale(deg: f64, sx: f64, sy: f64) -> [f64; 4] {
    let (s, c) = deg.to_radians().sin_cos();
    [c * sx, -s * sy, s * sx, c * sy]
}

fn assert_close(got: &WorldTransform, want: [f64; 4], tol: f64, what: &str) {
    let g = [got.a, got.b, got.c, got.d];
    for k in 0..4 {
        assert!(
            (g[k] - want[k]).abs() < tol,
            "{what}: entry {k}: {g:?} vs {want:?}"
        );
    }
}

fn inherit_strategy() -> impl Strategy<Value = Inherit> {
    prop_oneof![
        Just(Inherit::Normal),
        Just(Inherit::OnlyTranslation),
        Just(Inherit::NoRotationOrReflection),
        Just(Inherit::NoScale),
        Just(Inherit::NoScaleOrReflection),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn identity_locals_give_identity_worlds(
        parents in proptest::collection::vec(any::<prop::sample::Index>(), 1..12),
        modes in proptest::collection::vec(inherit_strategy(), 12),
    ) {
        let names: Vec<&'static str> =
            (0..=parents.len()).map(|i| &*Box::leak(format!("b{i}").into_boxed_str())).collect();
        let mut rows: Vec<BoneRow> = vec![(names[0], None, 0.0, ID, Inherit::Normal)];
        for (i, p) in parents.iter().enumerate() {
            rows.push((names[i + 1], Some(p.index(i + 1)), 10.0, ID, modes[i]));
        }
        let rig = rig_with_bones(&rows);
        let mut inst = Instance::new(&rig);
        update_world_transform(&rig, &mut inst, Physics::None);
        for w in &inst.world {
            // Spine's float-rounded pi leaves cos(90 deg) at about -2.3e-8 per level.
            assert_close(w, [1.0, 0.0, 0.0, 1.0], 1e-6, "identity");
            prop_assert!(w.x.abs() < 1e-9 && w.y.abs() < 1e-9);
        }
    }

    #[test]
    fn inherit_modes_match_hand_computation(
        pr in -180.0f64..180.0, ps in 0.2f64..3.0, reflect in any::<bool>(),
        cr in -180.0f64..180.0, kx in 0.2f64..3.0, ky in 0.2f64..3.0,
        cx in -50.0f64..50.0, cy in -50.0f64..50.0,
    ) {
        let psx = if reflect { -ps } else { ps };
        let rows: Vec<BoneRow> = vec![
            ("root", None, 0.0, ID, Inherit::Normal),
            ("p", Some(0), 0.0, [3.0, -7.0, pr, psx, ps, 0.0, 0.0], Inherit::Normal),
            ("normal", Some(1), 0.0, [cx, cy, cr, kx, ky, 0.0, 0.0], Inherit::Normal),
            ("only", Some(1), 0.0, [cx, cy, cr, kx, ky, 0.0, 0.0], Inherit::OnlyTranslation),
            ("norot", Some(1), 0.0, [cx, cy, cr, kx, ky, 0.0, 0.0], Inherit::NoRotationOrReflection),
            ("noscale", Some(1), 0.0, [cx, cy, cr, kx, ky, 0.0, 0.0], Inherit::NoScale),
            ("noscaler", Some(1), 0.0, [cx, cy, cr, kx, ky, 0.0, 0.0], Inherit::NoScaleOrReflection),
        ];
        let rig = rig_with_bones(&rows);
        let mut inst = Instance::new(&rig);
        update_world_transform(&rig, &mut inst, Physics::None);
        let tol = 1e-6 * (1.0 + ps * kx.max(ky));
        let p = rot_scale(pr, psx, ps);
        // Every mode places the origin with the full parent transform.
        let (ox, oy) = (p[0] * cx + p[1] * cy + 3.0, p[2] * cx + p[3] * cy - 7.0);
        for w in &inst.world[2..] {
            prop_assert!((w.x - ox).abs() < 1e-4 && (w.y - oy).abs() < 1e-4);
        }
        // normal: P * L, with P's reflection flipping the x axis before the rotation.
        let l = rot_scale(cr, kx, ky);
        let pl = [p[0] * l[0] + p[1] * l[2], p[0] * l[1] + p[1] * l[3],
                  p[2] * l[0] + p[3] * l[2], p[2] * l[1] + p[3] * l[3]];
        assert_close(&inst.world[2], pl, tol, "normal");
        assert_close(&inst.world[3], rot_scale(cr, kx, ky), tol, "onlyTranslation");
        if reflect {
            // The child's direction is P*(cos cr, sin cr): angle pr + 180 - cr.
            let alpha = pr + 180.0 - cr;
            // noScale keeps the reflection (y axis flipped); the other drops it.
            assert_close(&inst.world[5], rot_scale(alpha, kx, -ky), tol, "noScale reflected");
            assert_close(&inst.world[6], rot_scale(alpha, kx, ky), tol, "noScaleOrReflection reflected");
        } else {
            // noRotationOrReflection keeps the uniform parent scale only.
            assert_close(&inst.world[4], rot_scale(cr, ps * kx, ps * ky), tol, "noRotationOrReflection");
            assert_close(&inst.world[5], rot_scale(pr + cr, kx, ky), tol, "noScale");
            assert_close(&inst.world[6], rot_scale(pr + cr, kx, ky), tol, "noScaleOrReflection");
        }
    }

    #[test]
    fn applied_transform_inverts_world_for_normal_bones(
        parent in (-180.0f64..180.0, 0.3f64..3.0, -3.0f64..3.0, -30.0f64..30.0, -30.0f64..30.0),
        x in -100.0f64..100.0, y in -100.0f64..100.0, r in -179.0f64..179.0,
        sx in 0.2f64..3.0, sy in 0.2f64..3.0,
        skel in (prop_oneof![-2.0f64..-0.5, 0.5f64..2.0], prop_oneof![-2.0f64..-0.5, 0.5f64..2.0]),
    ) {
        let (pr, psx, psy, shx, shy) = parent;
        prop_assume!(psy.abs() > 0.2);
        let rows: Vec<BoneRow> = vec![
            ("root", None, 0.0, [5.0, 6.0, 10.0, 1.0, 1.0, 0.0, 0.0], Inherit::Normal),
            ("p", Some(0), 0.0, [1.0, 2.0, pr, psx, psy, shx, shy], Inherit::Normal),
            ("c", Some(1), 0.0, [x, y, r, sx, sy, 0.0, 0.0], Inherit::Normal),
        ];
        let rig = rig_with_bones(&rows);
        let mut inst = Instance::new(&rig);
        (inst.scale_x, inst.scale_y) = skel;
        update_world_transform(&rig, &mut inst, Physics::None);
        let before = inst.applied[2];
        update_applied_transform(&rig, &mut inst, BoneId(2));
        let a = inst.applied[2];
        let tol = 1e-7;
        prop_assert!((a.x - before.x).abs() < tol * 100.0 && (a.y - before.y).abs() < tol * 100.0);
        prop_assert!(crate::math::wrap_degrees(a.rotation - before.rotation).abs() < 1e-6);
        prop_assert!((a.scale_x - sx).abs() < tol && (a.scale_y - sy).abs() < tol);
        // Spine's float-rounded pi leaves about 1.3e-6 degrees of shear.
        prop_assert!(a.shear_x == 0.0 && a.shear_y.abs() < 1e-5);
        // And the recovered pose reproduces the world transform.
        let w = inst.world[2];
        update_bone_world(&rig, &mut inst, BoneId(2));
        assert_close(&inst.world[2], [w.a, w.b, w.c, w.d], 1e-6, "round trip");
    }

    #[test]
    fn two_bone_ik_reaches_reachable_targets(
        l1 in 20.0f64..100.0, l2 in 20.0f64..100.0,
        frac in 0.05f64..0.95, angle in -180.0f64..180.0,
        r1 in -90.0f64..90.0, r2 in -90.0f64..90.0, bend in any::<bool>(),
    ) {
        let reach = (l1 - l2).abs() + frac * (l1 + l2 - (l1 - l2).abs());
        let (s, c) = angle.to_radians().sin_cos();
        let (tx, ty) = (10.0 + reach * c, 20.0 + reach * s);
        let rows: Vec<BoneRow> = vec![
            ("root", None, 0.0, ID, Inherit::Normal),
            ("a", Some(0), l1, [10.0, 20.0, r1, 1.0, 1.0, 0.0, 0.0], Inherit::Normal),
            ("b", Some(1), l2, [l1, 0.0, r2, 1.0, 1.0, 0.0, 0.0], Inherit::Normal),
            ("t", Some(0), 0.0, [tx, ty, 0.0, 1.0, 1.0, 0.0, 0.0], Inherit::Normal),
        ];
        let mut rig = rig_with_bones(&rows);
        add_ik(&mut rig, "ik", &["a", "b"], "t", 1.0, 0.0, if bend { 1 } else { -1 }, (false, false, false));
        let mut inst = Instance::new(&rig);
        update_world_transform(&rig, &mut inst, Physics::None);
        let Vec2 { x, y } = inst.world[2].apply(Vec2::new(l2, 0.0));
        prop_assert!((x - tx).abs() < 1e-4 && (y - ty).abs() < 1e-4, "tip ({x}, {y}) vs ({tx}, {ty})");
        // The bend direction picks the side of the elbow (positive: clockwise of the
        // line to the target, so the cross product is positive).
        let w = inst.world[2];
        let cross = (w.x - 10.0) * (ty - 20.0) - (w.y - 20.0) * (tx - 10.0);
        prop_assert!((cross > 0.0) == bend || cross.abs() < 1e-6, "cross {cross}");
    }
}

#[test]
fn applied_transform_of_a_y_reflected_bone_gets_a_180_degree_shear() {
    // COMPAT(spine): shearY = -atan2(col1 . col2, det) lands on +-180 when det < 0, so a
    // y-reflected local pose does not round-trip. Oracle (spine-core 4.2.119, a bone with
    // scale (0.2, -0.2) under a parent with scale (0.3, -2.5), then updateAppliedTransform):
    // ashearY = -179.9999960113366, ascaleY = -0.19999999999999998.
    let rows: Vec<BoneRow> = vec![
        ("root", None, 0.0, ID, Inherit::Normal),
        (
            "p",
            Some(0),
            0.0,
            [0.0, 0.0, 0.0, 0.3, -2.5, 0.0, 0.0],
            Inherit::Normal,
        ),
        (
            "c",
            Some(1),
            0.0,
            [0.0, 0.0, 0.0, 0.2, -0.2, 0.0, 0.0],
            Inherit::Normal,
        ),
    ];
    let rig = rig_with_bones(&rows);
    let mut inst = Instance::new(&rig);
    update_world_transform(&rig, &mut inst, Physics::None);
    update_applied_transform(&rig, &mut inst, BoneId(2));
    let a = inst.applied[2];
    assert!((a.shear_y + 179.9999960113366).abs() < 1e-9, "{a:?}");
    assert!((a.scale_y + 0.2).abs() < 1e-12 && (a.scale_x - 0.2).abs() < 1e-12);
}

#[test]
fn one_bone_ik_aims_and_stretches() {
    let rows: Vec<BoneRow> = vec![
        ("root", None, 0.0, ID, Inherit::Normal),
        (
            "p",
            Some(0),
            0.0,
            [0.0, 0.0, 30.0, 2.0, 2.0, 0.0, 0.0],
            Inherit::Normal,
        ),
        (
            "b",
            Some(1),
            10.0,
            [5.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0],
            Inherit::Normal,
        ),
        (
            "t",
            Some(0),
            0.0,
            [-20.0, 40.0, 0.0, 1.0, 1.0, 0.0, 0.0],
            Inherit::Normal,
        ),
    ];
    let mut rig = rig_with_bones(&rows);
    add_ik(
        &mut rig,
        "ik",
        &["b"],
        "t",
        1.0,
        0.0,
        1,
        (false, true, false),
    );
    let mut inst = Instance::new(&rig);
    update_world_transform(&rig, &mut inst, Physics::None);
    let w = inst.world[2];
    // The bone's origin is P * (5, 0); its x axis points at the target and its tip lands on it.
    let (ox, oy) = (
        10.0 * 30f64.to_radians().cos(),
        10.0 * 30f64.to_radians().sin(),
    );
    assert!((w.x - ox).abs() < 1e-5 && (w.y - oy).abs() < 1e-5);
    let Vec2 { x: tip_x, y: tip_y } = w.apply(Vec2::new(10.0, 0.0));
    assert!(
        (tip_x + 20.0).abs() < 1e-4 && (tip_y - 40.0).abs() < 1e-4,
        "tip {tip_x} {tip_y}"
    );
    // Stretch is non-uniform: the y axis keeps the parent's scale 2.
    assert!(((w.b * w.b + w.d * w.d).sqrt() - 2.0).abs() < 1e-6);
}

#[test]
fn two_bone_ik_skips_bones_that_do_not_inherit_normally() {
    let rows: Vec<BoneRow> = vec![
        ("root", None, 0.0, ID, Inherit::Normal),
        (
            "a",
            Some(0),
            30.0,
            [0.0, 0.0, 10.0, 1.0, 1.0, 0.0, 0.0],
            Inherit::Normal,
        ),
        (
            "b",
            Some(1),
            30.0,
            [30.0, 0.0, 10.0, 1.0, 1.0, 0.0, 0.0],
            Inherit::NoScale,
        ),
        (
            "t",
            Some(0),
            0.0,
            [0.0, 40.0, 0.0, 1.0, 1.0, 0.0, 0.0],
            Inherit::Normal,
        ),
    ];
    let mut rig = rig_with_bones(&rows);
    add_ik(
        &mut rig,
        "ik",
        &["a", "b"],
        "t",
        1.0,
        0.0,
        1,
        (false, false, false),
    );
    let mut inst = Instance::new(&rig);
    update_world_transform(&rig, &mut inst, Physics::None);
    assert_eq!(inst.applied[1].rotation, 10.0);
    assert_eq!(inst.applied[2].rotation, 10.0);
}

#[test]
fn local_absolute_transform_divides_by_scale() {
    // COMPAT(spine) quirk: scale = (s + (target - s) * mix) / s, so s = 2, target 4, mix 1
    // gives 2, not 4.
    let rows: Vec<BoneRow> = vec![
        ("root", None, 0.0, ID, Inherit::Normal),
        (
            "b",
            Some(0),
            0.0,
            [0.0, 0.0, 0.0, 2.0, 2.0, 0.0, 0.0],
            Inherit::Normal,
        ),
        (
            "t",
            Some(0),
            0.0,
            [0.0, 0.0, 0.0, 4.0, 4.0, 0.0, 0.0],
            Inherit::Normal,
        ),
    ];
    let mut rig = rig_with_bones(&rows);
    add_transform(
        &mut rig,
        "tc",
        &["b"],
        "t",
        true,
        false,
        [0.0; 6],
        [0.0, 0.0, 0.0, 1.0, 1.0, 0.0],
    );
    let mut inst = Instance::new(&rig);
    update_world_transform(&rig, &mut inst, Physics::None);
    assert_eq!(inst.applied[1].scale_x, 2.0);
    assert_eq!(inst.applied[1].scale_y, 2.0);
}

/// root(0) -> a(1) -> b(2) -> c(3); t(4) under root.
fn chain() -> Vec<BoneRow> {
    vec![
        ("root", None, 0.0, ID, Inherit::Normal),
        ("a", Some(0), 10.0, ID, Inherit::Normal),
        ("b", Some(1), 10.0, ID, Inherit::Normal),
        ("c", Some(2), 10.0, ID, Inherit::Normal),
        ("t", Some(0), 0.0, ID, Inherit::Normal),
    ]
}

fn bones(ids: &[u16]) -> impl Iterator<Item = PlanOp> + '_ {
    ids.iter().map(|&i| PlanOp::Bone(BoneId(i)))
}

#[test]
fn plan_one_bone_ik_resets_children() {
    let mut rig = rig_with_bones(&chain());
    add_ik(
        &mut rig,
        "ik",
        &["b"],
        "t",
        1.0,
        0.0,
        1,
        (false, false, false),
    );
    let inst = Instance::new(&rig);
    let want: Vec<PlanOp> = bones(&[0, 4, 1, 2])
        .chain([PlanOp::Ik(IkId(0))])
        .chain(bones(&[3]))
        .collect();
    assert_eq!(inst.plan, want);
}

#[test]
fn plan_two_bone_ik_marks_child_sorted() {
    let mut rig = rig_with_bones(&chain());
    add_ik(
        &mut rig,
        "ik",
        &["a", "b"],
        "t",
        1.0,
        0.0,
        1,
        (false, false, false),
    );
    let inst = Instance::new(&rig);
    let want: Vec<PlanOp> = bones(&[0, 4, 1, 2])
        .chain([PlanOp::Ik(IkId(0))])
        .chain(bones(&[3]))
        .collect();
    assert_eq!(inst.plan, want);
}

#[test]
fn plan_later_constraint_reappends_sorted_descendants() {
    let mut rig = rig_with_bones(&chain());
    add_ik(
        &mut rig,
        "ik",
        &["c"],
        "t",
        1.0,
        0.0,
        1,
        (false, false, false),
    );
    add_transform(
        &mut rig,
        "tc",
        &["a"],
        "t",
        false,
        false,
        [0.0; 6],
        [1.0; 6],
    );
    let inst = Instance::new(&rig);
    let want: Vec<PlanOp> = bones(&[0, 4, 1, 2, 3])
        .chain([PlanOp::Ik(IkId(0)), PlanOp::Transform(TransformId(0))])
        .chain(bones(&[2, 3]))
        .collect();
    assert_eq!(inst.plan, want);
}

#[test]
fn plan_local_transform_sorts_parent_first() {
    let mut rig = rig_with_bones(&chain());
    add_transform(&mut rig, "tc", &["c"], "t", true, false, [0.0; 6], [1.0; 6]);
    let inst = Instance::new(&rig);
    let want: Vec<PlanOp> = bones(&[0, 4, 1, 2, 3])
        .chain([PlanOp::Transform(TransformId(0))])
        .collect();
    assert_eq!(inst.plan, want);
}

#[test]
fn plan_skin_bones_and_constraints() {
    let mut rows = chain();
    rows.push(("s", Some(2), 10.0, ID, Inherit::Normal)); // 5, skin-required
    rows.push(("s2", Some(5), 10.0, ID, Inherit::Normal)); // 6, skin-required
    let mut rig = rig_with_bones(&rows);
    rig.bones[5].skin_required = true;
    rig.bones[6].skin_required = true;
    add_ik(
        &mut rig,
        "on-skin-bone",
        &["a"],
        "s2",
        1.0,
        0.0,
        1,
        (false, false, false),
    );
    add_ik(
        &mut rig,
        "skin-only",
        &["c"],
        "t",
        1.0,
        0.0,
        1,
        (false, false, false),
    );
    rig.ik[1].skin_required = true;
    let mut inst = Instance::new(&rig);
    assert_eq!(
        inst.bone_active,
        [true, true, true, true, true, false, false]
    );
    assert_eq!(inst.ik_active, [false, false]);
    assert_eq!(inst.plan, bones(&[0, 1, 2, 3, 4]).collect::<Vec<_>>());

    // A skin listing s2 activates it and its ancestors (s), and the skin's constraint.
    inst.skin = Some(ActiveSkin {
        bones: vec![BoneId(6)],
        constraints: vec![ConstraintRef::Ik(IkId(1))],
        ..Default::default()
    });
    crate::instance::plan::update_cache(&rig, &mut inst);
    assert!(inst.bone_active.iter().all(|&a| a));
    assert_eq!(inst.ik_active, [true, true]);
    let want: Vec<PlanOp> = bones(&[0, 1, 2, 5, 6])
        .chain([PlanOp::Ik(IkId(0))])
        .chain(bones(&[4, 2, 3]))
        .chain([PlanOp::Ik(IkId(1))])
        .chain(bones(&[5, 6]))
        .collect();
    assert_eq!(inst.plan, want);
}

#[test]
fn plan_path_sorts_weighted_path_bones_from_every_skin() {
    // root(0) -> a(1) -> b(2) -> c(3); t(4); holder(5) bears the slot; w1(6), w2(7) weight
    // the path from another skin.
    let mut rows = chain();
    rows.push(("holder", Some(0), 0.0, ID, Inherit::Normal));
    rows.push(("w1", Some(4), 0.0, ID, Inherit::Normal));
    rows.push(("w2", Some(0), 0.0, ID, Inherit::Normal));
    let mut rig = rig_with_bones(&rows);
    rig.slots.push(SlotData {
        name: "path".into(),
        bone: BoneId(5),
        color: Color::WHITE,
        dark: None,
        attachment: None,
        blend: BlendMode::Normal,
        visible: true,
    });
    let vertices = Vertices {
        count: 2,
        bones: vec![1, 6, 2, 7, 6],
        values: vec![0.0; 9],
    };
    rig.attachments.push(Attachment {
        name: "p".into(),
        key: NameId(0),
        slot: SlotId(0),
        timeline_attachment: AttachmentId(0),
        timeline_slots: Vec::new(),
        kind: AttachmentKind::Path(PathAttachment {
            closed: false,
            constant_speed: true,
            vertices,
            lengths: vec![1.0],
        }),
    });
    rig.skins.push(SkinData {
        name: "default".into(),
        ..Default::default()
    });
    rig.skins.push(SkinData {
        name: "other".into(),
        entries: vec![(SlotId(0), NameId(0), AttachmentId(0))],
        ..Default::default()
    });
    rig.default_skin = Some(SkinId(0));
    rig.paths.push(PathData {
        name: "path".into(),
        skin_required: false,
        bones: vec![BoneId(2), BoneId(3)],
        target: SlotId(0),
        position_mode: Default::default(),
        spacing_mode: Default::default(),
        rotate_mode: Default::default(),
        offset_rotation: 0.0,
        setup: PathMix::default(),
    });
    rig.constraint_order.push(ConstraintRef::Path(PathId(0)));
    let inst = Instance::new(&rig);
    let want: Vec<PlanOp> = bones(&[0, 4, 6, 7, 1, 2, 3])
        .chain([PlanOp::Path(PathId(0))])
        .chain(bones(&[5]))
        .collect();
    assert_eq!(inst.plan, want);
}
