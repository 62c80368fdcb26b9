//! Tests for the path constraint: oracle values for a hand-written rig covering every mode.

// The generated tables are tuples mirroring the JSON rig.
#![allow(clippy::type_complexity)]

use super::*;
use crate::deform::testing::{assert_close, bone, world_of};
use crate::ids::{AttachmentId, NameId, SlotId};
use crate::raw::Vertices;
use crate::rig::{Attachment, LocalPose, PathAttachment, PathData, PathMix, SlotData};
use crate::types::{BlendMode, Color, PositionMode};

/// Builds path-lab.json from the tables below.
fn lab_rig() -> Rig {
    let bones = LAB_BONES
        .iter()
        .map(
            |&(name, parent, length, x, y, rotation, scale_x, scale_y)| {
                let setup = LocalPose {
                    x,
                    y,
                    rotation,
                    scale_x,
                    scale_y,
                    ..LocalPose::IDENTITY
                };
                bone(name, parent, length, setup)
            },
        )
        .collect();
    let mut slots = Vec::new();
    let mut attachments = Vec::new();
    for (i, &(name, slot_bone, closed, constant_speed, weights, values, lengths)) in
        LAB_PATHS.iter().enumerate()
    {
        slots.push(SlotData {
            name: name.to_owned(),
            bone: BoneId(slot_bone),
            color: Color::WHITE,
            dark: None,
            attachment: None,
            blend: BlendMode::Normal,
            visible: true,
        });
        let count = if weights.is_empty() {
            values.len() / 2
        } else {
            // One influence count per vertex, each followed by that many bone ids.
            let (mut n, mut k) = (0, 0);
            while k < weights.len() {
                k += weights[k] as usize + 1;
                n += 1;
            }
            n
        };
        let vertices = Vertices {
            count: count as u32,
            bones: weights.to_vec(),
            values: values.to_vec(),
        };
        attachments.push(Attachment {
            name: name.to_owned(),
            key: NameId(i as u32),
            slot: SlotId(i as u16),
            timeline_attachment: AttachmentId(i as u32),
            timeline_slots: Vec::new(),
            kind: AttachmentKind::Path(PathAttachment {
                closed,
                constant_speed,
                vertices,
                // Works whether the rig stores lengths as f32 or f64 (see `tolerance`).
                #[allow(clippy::useless_conversion)]
                lengths: lengths.iter().map(|&l| l.into()).collect(),
            }),
        });
    }
    let paths = LAB_CONSTRAINTS
        .iter()
        .enumerate()
        .map(
            |(i, &(bones, target, position_mode, spacing_mode, rotate_mode, offset, v))| PathData {
                name: format!("path{i}"),
                skin_required: false,
                bones: bones.iter().map(|&b| BoneId(b)).collect(),
                target: SlotId(target),
                position_mode,
                spacing_mode,
                rotate_mode,
                offset_rotation: offset,
                setup: PathMix {
                    position: v[0],
                    spacing: v[1],
                    mix_rotate: v[2],
                    mix_x: v[3],
                    mix_y: v[4],
                },
            },
        )
        .collect();
    Rig {
        bones,
        slot_deform_capacity: vec![0; slots.len()],
        slots,
        attachments,
        paths,
        reference_scale: 100.0,
        ..Rig::empty()
    }
}

/// The lab in its setup pose with every slot showing its path and bones posed.
fn lab_instance(rig: &Rig) -> Instance {
    let mut inst = Instance::new(rig);
    for i in 0..rig.slots.len() {
        inst.slots.attachment[i] = Some(AttachmentId(i as u32));
    }
    for (i, b) in rig.bones.iter().enumerate() {
        let parent = b.parent.map(|p| inst.world[p.index()]);
        inst.world[i] = world_of(parent.as_ref(), &b.setup, 1.0, 1.0);
    }
    inst
}

fn check_bone(rig: &Rig, inst: &Instance, i: usize, want: &[f64; 6], tol: f64) {
    let w = inst.world[i];
    let got = [w.a, w.b, w.c, w.d, w.x, w.y];
    for (k, field) in ["a", "b", "c", "d", "x", "y"].iter().enumerate() {
        assert_close(
            got[k],
            want[k],
            tol,
            &format!("bone {} {field}", rig.bones[i].name),
        );
    }
}

/// Oracle tolerance for a constraint's bones. spine-ts keeps a path's stored curve lengths
/// in f64, while the rig stores them as f32, so paths without constant speed (the only ones
/// that read those lengths) agree to about 1e-8 relative; everything else to rounding.
fn tolerance(rig: &Rig, id: usize) -> f64 {
    let slot = rig.paths[id].target.index();
    match &rig.attachments[slot].kind {
        AttachmentKind::Path(p) if !p.constant_speed => 5e-5,
        _ => 1e-9,
    }
}

#[test]
fn every_mode_matches_oracle() {
    let rig = lab_rig();
    let mut inst = lab_instance(&rig);
    for id in 0..rig.paths.len() {
        apply_path_constraint(&rig, &mut inst, PathId(id as u16));
    }
    assert_eq!(LAB_ORACLE.len(), rig.bones.len());
    for (i, want) in LAB_ORACLE.iter().enumerate() {
        let constraint = rig
            .paths
            .iter()
            .position(|p| p.bones.contains(&BoneId(i as u16)));
        let tol = constraint.map_or(1e-9, |id| tolerance(&rig, id));
        check_bone(&rig, &inst, i, want, tol);
    }
}

#[test]
fn each_constraint_alone_matches_oracle() {
    // The constraints share no bones, so each one alone gives the same result: this
    // pinpoints a failing mode and shows stale scratch state does not leak between them.
    let rig = lab_rig();
    for id in (0..rig.paths.len()).rev() {
        let mut inst = lab_instance(&rig);
        apply_path_constraint(&rig, &mut inst, PathId(id as u16));
        for &b in &rig.paths[id].bones {
            check_bone(
                &rig,
                &inst,
                b.index(),
                &LAB_ORACLE[b.index()],
                tolerance(&rig, id),
            );
        }
    }
}

#[test]
fn weighted_path_world_vertices_match_oracle() {
    let rig = lab_rig();
    let inst = lab_instance(&rig);
    let slot = SlotId(
        rig.slots
            .iter()
            .position(|s| s.name == "path-weighted")
            .unwrap_or(0) as u16,
    );
    let mut out = vec![0.0f32; LAB_WEIGHTED_PATH_VERTICES.len()];
    crate::deform::compute_world_vertices(&rig, &inst, slot, &mut out);
    for (k, (&g, &w)) in out.iter().zip(LAB_WEIGHTED_PATH_VERTICES).enumerate() {
        assert_close(f64::from(g), w, 1e-4, &format!("vertex float {k}"));
    }
}

#[test]
fn zero_mixes_or_no_path_leave_bones_alone() {
    let rig = lab_rig();
    let mut inst = lab_instance(&rig);
    let before = inst.world.clone();
    inst.paths[0] = PathMix {
        mix_rotate: 0.0,
        mix_x: 0.0,
        mix_y: 0.0,
        ..inst.paths[0]
    };
    apply_path_constraint(&rig, &mut inst, PathId(0));
    // Constraint 1 targets the same slot; with no attachment it does nothing either.
    inst.slots.attachment[rig.paths[1].target.index()] = None;
    apply_path_constraint(&rig, &mut inst, PathId(1));
    assert_eq!(inst.world, before);
}

#[test]
fn degenerate_paths_leave_bones_alone() {
    // One control point: no curve. Constraint 0 targets a constant-speed path, constraint 3
    // a path without constant speed (whose lengths are also missing here).
    let mut rig = lab_rig();
    for id in [0, 3] {
        let slot = rig.paths[id].target.index();
        if let AttachmentKind::Path(p) = &mut rig.attachments[slot].kind {
            p.vertices = Vertices {
                count: 3,
                bones: Vec::new(),
                values: vec![0.0, 0.0, 1.0, 1.0, 2.0, 2.0],
            };
            p.lengths.clear();
        }
    }
    let mut inst = lab_instance(&rig);
    let before = inst.world.clone();
    apply_path_constraint(&rig, &mut inst, PathId(0));
    apply_path_constraint(&rig, &mut inst, PathId(3));
    assert_eq!(inst.world, before);
}

#[test]
fn scratch_is_sized_from_the_rig() {
    let rig = lab_rig();
    let s = PathScratch::new(&rig);
    // Four bones at most, 12 path vertices at most.
    assert_eq!(
        (s.spaces.len(), s.positions.len(), s.lengths.len()),
        (5, 17, 4)
    );
    assert_eq!(
        (s.world.len(), s.curves.len(), s.segments.len()),
        (26, 5, 10)
    );
    let before = (s.spaces.as_ptr(), s.world.as_ptr(), s.positions.as_ptr());
    let mut inst = lab_instance(&rig);
    inst.path_scratch = s;
    for id in 0..rig.paths.len() {
        apply_path_constraint(&rig, &mut inst, PathId(id as u16));
    }
    let s = &inst.path_scratch;
    // No buffer was reallocated.
    assert_eq!(
        before,
        (s.spaces.as_ptr(), s.world.as_ptr(), s.positions.as_ptr())
    );
    assert_eq!(PositionMode::default(), PositionMode::Percent);
}

// The tables below mirror testdata/oracle-rigs/path-lab.json (both written by
// testdata/oracle-rigs/gen_path_lab.py). Oracle values: `node dump.mjs
// testdata/oracle-rigs/path-lab.json --times 0` (spine-core 4.2.119), full precision.
/// Bones of path-lab.json: (name, parent, length, x, y, rotation, scale_x, scale_y).
const LAB_BONES: &[(&str, Option<u16>, f64, f64, f64, f64, f64, f64)] = &[
    ("root", None, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0),
    ("pathbone", Some(0), 0.0, 5.0, -3.0, 10.0, 1.1, 1.0),
    ("pathflip", Some(0), 0.0, 300.0, 0.0, 0.0, 1.0, -1.0),
    ("wb1", Some(0), 0.0, 0.0, 0.0, 0.0, 1.0, 1.0),
    ("wb2", Some(0), 0.0, 100.0, 50.0, 20.0, 1.0, 1.0),
    ("a1", Some(0), 30.0, 0.0, 0.0, 0.0, 1.0, 1.0),
    ("a2", Some(5), 30.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("a3", Some(6), 25.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("b1", Some(0), 30.0, 10.0, 20.0, 45.0, 1.0, 1.0),
    ("b2", Some(8), 30.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("b3", Some(9), 25.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("c1", Some(0), 20.0, 0.0, 0.0, 0.0, 1.0, 1.0),
    ("c2", Some(11), 0.0, 20.0, 0.0, 0.0, 1.0, 1.0),
    ("c3", Some(12), 25.0, 0.0, 0.0, 0.0, 1.0, 1.0),
    ("c4", Some(13), 15.0, 25.0, 0.0, 0.0, 1.0, 1.0),
    ("d1", Some(0), 30.0, 0.0, 0.0, -30.0, 1.5, 1.0),
    ("d2", Some(15), 30.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("d3", Some(16), 25.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("e1", Some(0), 30.0, 0.0, 0.0, 0.0, 1.0, 1.0),
    ("e2", Some(18), 30.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("e3", Some(19), 25.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("f1", Some(0), 30.0, 0.0, 0.0, 0.0, 1.0, 1.0),
    ("f2", Some(21), 30.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("f3", Some(22), 25.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("g1", Some(0), 30.0, 0.0, 0.0, 0.0, 2.0, 1.0),
    ("g2", Some(24), 30.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("g3", Some(25), 25.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("h1", Some(0), 30.0, 0.0, 0.0, 0.0, 1.0, 1.0),
    ("h2", Some(27), 30.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("h3", Some(28), 25.0, 30.0, 0.0, 0.0, 1.0, 1.0),
    ("i1", Some(0), 30.0, 0.0, 0.0, 0.0, 1.0, 1.0),
    ("i2", Some(30), 30.0, 30.0, 0.0, 0.0, 1.0, 1.0),
];
/// Path attachments: (slot name, slot bone, closed, constant speed, weighted bones, vertices, lengths).
const LAB_PATHS: &[(&str, u16, bool, bool, &[u32], &[f32], &[f32])] = &[
    (
        "path-open",
        1,
        false,
        true,
        &[],
        &[
            -20.0, -10.0, 0.0, 0.0, 30.0, 20.0, 50.0, 40.0, 80.0, 30.0, 110.0, 20.0, 130.0, -20.0,
            150.0, -10.0, 170.0, 0.0, 190.0, 30.0, 200.0, 60.0, 210.0, 90.0,
        ],
        &[89.24, 172.94, 260.78],
    ),
    (
        "path-open-slow",
        1,
        false,
        false,
        &[],
        &[
            -20.0, -10.0, 0.0, 0.0, 30.0, 20.0, 50.0, 40.0, 80.0, 30.0, 110.0, 20.0, 130.0, -20.0,
            150.0, -10.0, 170.0, 0.0, 190.0, 30.0, 200.0, 60.0, 210.0, 90.0,
        ],
        &[89.24, 172.94, 260.78],
    ),
    (
        "path-closed",
        2,
        true,
        true,
        &[],
        &[
            -30.0, 40.0, 0.0, 50.0, 30.0, 60.0, 60.0, 30.0, 60.0, 0.0, 60.0, -30.0, 20.0, -40.0,
            -10.0, -20.0, -40.0, 0.0,
        ],
        &[89.99, 178.8, 267.62],
    ),
    (
        "path-closed-slow",
        1,
        true,
        false,
        &[],
        &[
            -30.0, 40.0, 0.0, 50.0, 30.0, 60.0, 60.0, 30.0, 60.0, 0.0, 60.0, -30.0, 20.0, -40.0,
            -10.0, -20.0, -40.0, 0.0,
        ],
        &[89.99, 178.8, 267.62],
    ),
    (
        "path-weighted",
        0,
        false,
        true,
        &[
            2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 4,
        ],
        &[
            -10.0, 0.0, 0.75, -120.5, -9.5, 0.25, 0.0, 0.0, 0.75, -111.0, -13.0, 0.25, 20.0, 10.0,
            0.75, -89.0, -10.0, 0.25, 40.0, 30.0, 0.75, -63.0, 1.5, 0.25, 70.0, 40.0, 0.25, -31.5,
            1.0, 0.75, 100.0, 50.0, 0.25, 0.0, 0.0, 0.75, 120.0, 60.0, 0.25, 22.0, 2.5, 0.75,
            150.0, 40.0, 0.25, 43.5, -26.5, 0.75, 160.0, 20.0, 0.25, 46.0, -48.5, 0.75,
        ],
        &[80.87, 164.98],
    ),
];
/// Path constraints: (bones, target slot, position mode, spacing mode, rotate mode, offset
/// rotation, [position, spacing, mixRotate, mixX, mixY]).
const LAB_CONSTRAINTS: &[(
    &[u16],
    u16,
    PositionMode,
    SpacingMode,
    RotateMode,
    f64,
    [f64; 5],
)] = &[
    (
        &[5, 6, 7],
        0,
        PositionMode::Percent,
        SpacingMode::Length,
        RotateMode::Tangent,
        0.0,
        [0.1, 5.0, 1.0, 1.0, 1.0],
    ),
    (
        &[8, 9, 10],
        0,
        PositionMode::Fixed,
        SpacingMode::Fixed,
        RotateMode::Chain,
        0.0,
        [40.0, 12.0, 0.7, 0.6, 0.8],
    ),
    (
        &[11, 12, 13, 14],
        2,
        PositionMode::Percent,
        SpacingMode::Percent,
        RotateMode::ChainScale,
        15.0,
        [0.05, 0.3, 1.0, 1.0, 1.0],
    ),
    (
        &[15, 16, 17],
        1,
        PositionMode::Percent,
        SpacingMode::Proportional,
        RotateMode::ChainScale,
        0.0,
        [0.2, 0.25, 1.0, 1.0, 1.0],
    ),
    (
        &[18, 19, 20],
        3,
        PositionMode::Fixed,
        SpacingMode::Length,
        RotateMode::Chain,
        0.0,
        [-30.0, 2.0, 1.0, 1.0, 1.0],
    ),
    (
        &[21, 22, 23],
        4,
        PositionMode::Fixed,
        SpacingMode::Length,
        RotateMode::Tangent,
        -20.0,
        [250.0, 0.0, 1.0, 1.0, 1.0],
    ),
    (
        &[24, 25, 26],
        0,
        PositionMode::Fixed,
        SpacingMode::Length,
        RotateMode::Chain,
        0.0,
        [-20.0, -3.0, 0.5, 1.0, 1.0],
    ),
    (
        &[27, 28, 29],
        1,
        PositionMode::Percent,
        SpacingMode::Percent,
        RotateMode::Tangent,
        0.0,
        [0.3, 0.2, 1.0, 0.5, 0.25],
    ),
    (
        &[30, 31],
        1,
        PositionMode::Fixed,
        SpacingMode::Fixed,
        RotateMode::ChainScale,
        30.0,
        [330.0, 8.0, 1.0, 1.0, 1.0],
    ),
];
/// Every bone's world transform [a, b, c, d, worldX, worldY] after the constraints.
const LAB_ORACLE: &[[f64; 6]] = &[
    [
        1.0,
        -2.3205103333142417e-08,
        0.0,
        0.9999999999999998,
        0.0,
        0.0,
    ], // root
    [
        1.0832885233884553,
        -0.17364822591123555,
        0.19101299822671475,
        0.9848077485349587,
        5.00000006961531,
        -2.999999999999999,
    ], // pathbone
    [
        1.0,
        4.641020666628483e-08,
        0.0,
        -0.9999999999999996,
        300.0,
        0.0,
    ], // pathflip
    [
        1.0,
        -4.641020666628483e-08,
        0.0,
        0.9999999999999996,
        0.0,
        0.0,
    ], // wb1
    [
        0.9396926110856038,
        -0.34202019178270043,
        0.3420201481713719,
        0.9396926110856032,
        99.99999883974483,
        49.999999999999986,
    ], // wb2
    [
        0.7424603221653697,
        -0.6698900776813208,
        0.6698900432235841,
        0.742460291075634,
        25.529742163610706,
        15.6455498816023,
    ], // a1
    [
        0.897217968143772,
        -0.44158801252210894,
        0.44158795006200224,
        0.8972179374024893,
        53.665508645680276,
        36.34249142166352,
    ], // a2
    [
        0.9896572919659251,
        0.14345179714309803,
        -0.14345188900349706,
        0.9896573052811879,
        87.81754318866389,
        41.644341568680126,
    ], // a3
    [
        0.7732927053208813,
        -0.6340492174156123,
        0.6340491847580986,
        0.7732927085520418,
        24.938777481082667,
        23.015404631231974,
    ], // b1
    [
        0.7605465163491293,
        0.6492834103791137,
        -0.6492834306095454,
        0.7605465641310677,
        45.223495630091634,
        39.08236827634986,
    ], // b2
    [
        0.4234731532149172,
        -0.9059086912053347,
        0.9059086407034166,
        0.4234730999765448,
        56.58223065655313,
        26.563003008536803,
    ], // b3
    [
        2.970565028404122,
        -0.5734004751467832,
        2.0790610743132136,
        0.81927522548985,
        313.175700029021,
        -51.942707777360624,
    ], // c1
    [
        -0.8554079283213328,
        -0.5179548382601621,
        0.5179548978096505,
        -0.8554079643789231,
        359.80059736707653,
        3.5984442065205067,
    ], // c2
    [
        -0.9255419241224789,
        0.9379391836754967,
        -2.503178600347145,
        -0.3467997804586237,
        294.2940268105561,
        22.623873598377454,
    ], // c3
    [
        4.649667535584801,
        -0.05018992537135113,
        0.23366041065180468,
        0.9987396915068657,
        288.1406632484911,
        -43.81194479774977,
    ], // c4
    [
        0.7063781752474625,
        -0.32664551085220356,
        0.24412631553292782,
        0.9451469145820106,
        50.156274014324936,
        34.488612430319854,
    ], // d1
    [
        0.8625021091126565,
        0.08790316129525211,
        -0.0761113481934696,
        0.996129014805861,
        71.34761927174881,
        41.8124018963077,
    ], // d2
    [
        0.8682470879551,
        0.39880087314818763,
        -0.3775830125196806,
        0.91703753657091,
        97.2226825451285,
        39.529061450503605,
    ], // d3
    [
        0.707225764272635,
        -0.7069878108985982,
        0.7069877780761047,
        0.7072257314611857,
        -25.15496599989044,
        23.695530298325966,
    ], // e1
    [
        0.9940582839701346,
        -0.10884917608984096,
        0.10884910688816543,
        0.9940582763925696,
        -3.938193071711396,
        44.9051636406091,
    ], // e2
    [
        0.9069166528434681,
        0.4213099973453309,
        -0.42131008152570987,
        0.9069166919496432,
        25.883555447392652,
        48.170636847254066,
    ], // e3
    [
        0.5947090762656697,
        0.8039409619050226,
        -0.8039409895055941,
        0.594709113576737,
        221.13452777805327,
        -7.145084521883376,
    ], // f1
    [
        0.5947090762656697,
        0.8039409481047368,
        -0.8039409895055941,
        0.5947091322322705,
        246.14876015157668,
        -23.706732349420783,
    ], // f2
    [
        0.5947090762656697,
        0.8039409343044511,
        -0.8039409895055941,
        0.5947091508878041,
        271.1629925251001,
        -40.26838017695819,
    ], // f3
    [
        1.868485341395435,
        -0.3566380001823936,
        0.7132759136479967,
        0.9342426541460758,
        -10.044065809320738,
        -16.178622152191483,
    ], // g1
    [
        1.9558097451717835,
        -0.2090504678865605,
        0.41810075423405235,
        0.9779048531817487,
        32.499562224077565,
        21.843378840115054,
    ], // g2
    [
        1.9642814081029558,
        0.18814777699740956,
        -0.3762958274829378,
        0.9821407302474277,
        82.69974233461882,
        44.334149279590015,
    ], // g3
    [
        0.9971853088109279,
        -0.07497644184280873,
        0.07497639556323249,
        0.9971853053312575,
        37.234277697125584,
        10.534015075893745,
    ], // h1
    [
        0.8740964188136824,
        0.4857523973183722,
        -0.4857524581688657,
        0.8740964526294898,
        81.25311169900276,
        5.633242642161468,
    ], // h2
    [
        0.7328106241709861,
        -0.6804327164884847,
        0.6804326484687002,
        0.7328105610129457,
        117.81690544100648,
        5.241621518778109,
    ], // h3
    [
        -0.09060900052285466,
        -0.9405035737524272,
        0.2508009572058306,
        -0.3397837956096697,
        223.42086954523813,
        162.4306701792351,
    ], // i1
    [
        -0.09060900052285283,
        -0.9405035658677117,
        0.2508009572058294,
        -0.33978381743414804,
        224.82879307631075,
        170.3058051831987,
    ], // i2
];
/// World vertices of the weighted path slot.
const LAB_WEIGHTED_PATH_VERTICES: &[f64] = &[
    -9.99594224353369,
    -0.03512691499089016,
    0.03509537560448095,
    -0.04506009778378406,
    19.946889244661726,
    10.040820175472962,
    40.071582469189785,
    29.96556739545798,
    70.04324558497214,
    40.124543457765526,
    99.99999854968104,
    49.99999999999998,
    119.86363865697541,
    59.90525609061313,
    149.95512141405555,
    39.98201668876463,
    159.86037845630665,
    20.1183763836735,
];
