//! The shared Inochi2D fixtures: every synthetic puppet loads and builds; the parameter
//! stage reproduces `synthetic_tiny.expected_deforms.json` (computed by the fixtures'
//! independent `ref_eval_deform.py`) and further cases computed with that evaluator; the
//! physics frame stays finite; the node transform mapping gives hand-computed positions.

use serde_json::Value;
use sinew::character::update_params;
use sinew::params::apply_params;
use sinew::{Instance, Rig, SlotId};
use sinew_formats::inochi2d::{Puppet, build_puppet, load_inochi2d};
use std::path::PathBuf;

fn dir(test: &str) -> Option<PathBuf> {
    sinew_testutil::require_fixtures(test).map(|d| d.join("inochi2d"))
}

fn load(dir: &std::path::Path, name: &str) -> (Puppet, Rig) {
    let p = load_inochi2d(&dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let rig = build_puppet(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
    (p, rig)
}

/// Deform offsets (buffer minus setup vertices) of a slot.
fn offsets(rig: &Rig, inst: &Instance, slot: SlotId) -> Vec<f64> {
    let att = inst.slots.attachment[slot.index()].expect("attachment");
    let sinew::rig::AttachmentKind::Mesh(m) = &rig.attachments[att.index()].kind else {
        panic!("mesh")
    };
    let d = inst.slots.deform(slot);
    if d.is_empty() {
        return vec![0.0; m.vertices.values.len()];
    }
    d.iter()
        .zip(&m.vertices.values)
        .map(|(a, &b)| a - f64::from(b))
        .collect()
}

/// Sets the listed parameters; with `only`, every other parameter is muted (the fixture's
/// expected deforms apply only the parameters a case sets).
fn set_all(rig: &Rig, inst: &mut Instance, set: &[(&str, [f64; 2])], only: bool) {
    inst.params.reset_values(rig);
    for (i, p) in rig.params.params.iter().enumerate() {
        inst.params.muted[i] = only && !set.iter().any(|(n, _)| *n == p.name);
    }
    for (name, v) in set {
        let id = rig
            .params
            .find(name)
            .unwrap_or_else(|| panic!("param {name}"));
        inst.params.set(rig, id, *v);
    }
    apply_params(rig, inst);
}

#[test]
fn all_synthetic_puppets_load_and_build() {
    let Some(dir) = dir("all_synthetic_puppets_load_and_build") else {
        return;
    };
    for name in [
        "synthetic_tiny.inp",
        "synthetic_medium.inp",
        "synthetic_meshgroup.inp",
        "synthetic_inx_groups.inx",
    ] {
        let (p, rig) = load(&dir, name);
        assert!(!rig.params.params.is_empty(), "{name}");
        assert!(!rig.slots.is_empty(), "{name}");
        assert!(!p.textures.is_empty(), "{name}");
        let mut inst = Instance::new(&rig);
        for _ in 0..30 {
            update_params(&rig, &mut inst, 1.0 / 60.0, true);
        }
        assert!(
            inst.world
                .iter()
                .all(|w| w.a.is_finite() && w.x.is_finite()),
            "{name}"
        );
        assert!(
            inst.params.values.iter().flatten().all(|v| v.is_finite()),
            "{name}"
        );
    }
    let (p, rig) = load(&dir, "synthetic_inx_groups.inx");
    assert_eq!(p.param_groups.len(), 1);
    assert!(rig.params.find("Param1D_00").is_some() && rig.bone("Camera").is_none());
    let (p, _) = load(&dir, "synthetic_tiny.inp");
    let masked = p
        .draw
        .iter()
        .find(|d| d.name == "Part001")
        .expect("Part001");
    assert_eq!(masked.masks.len(), 1);
    assert_eq!(masked.masks[0].0, "Part000");
}

fn check_case(
    rig: &Rig,
    inst: &mut Instance,
    set: &[(&str, [f64; 2])],
    expected: &serde_json::Map<String, Value>,
) {
    set_all(rig, inst, set, true);
    for (part, want) in expected {
        let slot = rig.slot(part).unwrap_or_else(|| panic!("slot {part}"));
        let got = offsets(rig, inst, slot);
        let want: Vec<f64> = want
            .as_array()
            .expect("array")
            .iter()
            .flat_map(|p| {
                p.as_array()
                    .expect("pair")
                    .iter()
                    .map(|v| v.as_f64().expect("num"))
            })
            .collect();
        assert_eq!(got.len(), want.len(), "{part}");
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            // Keyforms are stored as f32 (conventions): 1e-4 absolute on values up to ~20.
            assert!(
                (g - w).abs() < 1e-4,
                "{set:?} {part}[{k}]: got {g}, want {w}"
            );
        }
    }
}

#[test]
fn tiny_matches_expected_deforms() {
    let Some(dir) = dir("tiny_matches_expected_deforms") else {
        return;
    };
    let (_, rig) = load(&dir, "synthetic_tiny.inp");
    let text =
        std::fs::read_to_string(dir.join("synthetic_tiny.expected_deforms.json")).expect("read");
    let doc: Value = serde_json::from_str(&text).expect("json");
    let mut inst = Instance::new(&rig);
    let cases = doc["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 5);
    for case in cases {
        let set: Vec<(String, [f64; 2])> = case["set"]
            .as_object()
            .expect("set")
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    [v[0].as_f64().expect("x"), v[1].as_f64().expect("y")],
                )
            })
            .collect();
        let set: Vec<(&str, [f64; 2])> = set.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        check_case(
            &rig,
            &mut inst,
            &set,
            case["deform_offsets_by_part"].as_object().expect("parts"),
        );
    }
}
/// `python3 ref_eval_deform.py synthetic_tiny.inp Param1D_00=0.25,0 Param2D_00=-0.6,0.8 Phys_00=0.3,-0.2 Phys_01=0,0` (Part000, Part001, Part002 offsets, x,y per vertex).
const OWN_CASE_A: [f64; 96] = [
    -5.072955,
    -0.6624799999999997,
    -3.5657250000000005,
    -3.2854799999999997,
    -1.5758800000000002,
    -5.735519999999999,
    0.6272650000000006,
    -7.8834599999999995,
    2.7454950000000005,
    -9.61618,
    4.492140000000001,
    -10.842479999999998,
    5.630795000000001,
    -11.497699999999998,
    6.007335,
    -11.54736,
    5.57082,
    -10.98888,
    4.38036,
    -9.85166,
    2.5970050000000002,
    -8.1955,
    0.46214999999999984,
    -6.10782,
    -1.7352750000000008,
    -3.6984,
    -3.6978050000000007,
    -1.0941800000000006,
    -5.159865000000001,
    1.5676199999999998,
    -5.923560000000001,
    4.1468799999999995,
    -5.946599999999999,
    1.06472,
    -5.83296,
    -0.7709600000000001,
    -4.9298399999999996,
    -2.5660000000000003,
    -3.35946,
    -4.225840000000001,
    -1.3344,
    -5.6632,
    0.8712599999999999,
    -6.802240000000001,
    2.9589600000000003,
    -7.5830400000000004,
    4.64622,
    -7.964480000000002,
    5.704619999999999,
    -7.9264,
    5.990939999999999,
    -7.47096,
    5.466419999999999,
    -6.62192,
    4.20204,
    -5.424240000000001,
    2.3689199999999997,
    -3.9408000000000003,
    0.21515999999999993,
    -2.2498400000000003,
    -1.9677,
    -0.4404,
    -3.88422,
    1.3922400000000001,
    -0.84325,
    -9.414,
    0.064875,
    -9.935,
    0.964225,
    -9.9329,
    1.73305,
    -9.4075,
    2.267325,
    -8.3868,
    2.49475,
    -6.9243,
    2.3845,
    -5.0971,
    1.951525,
    -3.0015,
    1.254425,
    -0.7478,
    0.387525,
    1.5453,
    -0.5318,
    3.757,
    -1.37915,
    5.7708,
    -2.03985,
    7.4807,
    -2.424475,
    8.7966,
    -2.48095,
    9.6492,
    -2.201625,
    9.9936,
];

/// `python3 ref_eval_deform.py synthetic_tiny.inp Param1D_00=-1,0 Param2D_00=0.1,-0.9 Phys_00=-0.7,0.65 Phys_01=0.45,0.05` (Part000, Part001, Part002 offsets, x,y per vertex).
const OWN_CASE_B: [f64; 96] = [
    15.937019999999999,
    9.71806,
    12.4109,
    8.509459999999999,
    7.20497,
    6.852639999999999,
    1.0238399999999999,
    4.8349199999999986,
    -5.295780000000001,
    2.5625349999999987,
    -10.89866,
    0.15515999999999863,
    -15.026480000000001,
    -2.260325000000001,
    -17.120489999999997,
    -4.556705000000001,
    -16.89733,
    -6.613165000000001,
    -14.387339999999998,
    -8.321405,
    -9.92997,
    -9.591199999999999,
    -4.1286000000000005,
    -10.356034999999999,
    2.2316000000000003,
    -10.575325,
    8.28967,
    -10.237714999999998,
    13.225810000000001,
    -9.360915,
    16.37189,
    -7.991034999999999,
    2.280440000000001,
    -0.46161999999999936,
    4.570225000000001,
    1.5514750000000006,
    6.24144,
    3.4828150000000004,
    7.067899999999999,
    5.230660000000001,
    6.937749999999999,
    6.70312,
    5.868589999999999,
    7.822480000000001,
    4.005174999999999,
    8.52987,
    1.5996499999999991,
    8.788035,
    -1.0223650000000009,
    8.5833,
    -3.5059800000000005,
    7.926615,
    -5.51511,
    6.852325,
    -6.7778149999999995,
    5.41727,
    -7.12313,
    3.69681,
    -6.504384999999999,
    1.7816899999999993,
    -5.005314999999999,
    -0.2272550000000007,
    -2.8287899999999992,
    -2.224240000000001,
    3.373,
    -9.414,
    -0.2595,
    -9.935,
    -3.8569,
    -9.9329,
    -6.9322,
    -9.4075,
    -9.0693,
    -8.3868,
    -9.979,
    -6.9243,
    -9.538,
    -5.0971,
    -7.8061,
    -3.0015,
    -5.0177,
    -0.7478,
    -1.5501,
    1.5453,
    2.1272,
    3.757,
    5.5166,
    5.7708,
    8.1594,
    7.4807,
    9.6979,
    8.7966,
    9.9238,
    9.6492,
    8.8065,
    9.9936,
];

#[test]
fn tiny_matches_own_reference_cases() {
    let Some(dir) = dir("tiny_matches_own_reference_cases") else {
        return;
    };
    let (_, rig) = load(&dir, "synthetic_tiny.inp");
    let mut inst = Instance::new(&rig);
    let cases: [(ParamSettings, &[f64]); 2] = [
        (
            &[
                ("Param1D_00", [0.25, 0.0]),
                ("Param2D_00", [-0.6, 0.8]),
                ("Phys_00", [0.3, -0.2]),
                ("Phys_01", [0.0, 0.0]),
            ],
            &OWN_CASE_A,
        ),
        (
            &[
                ("Param1D_00", [-1.0, 0.0]),
                ("Param2D_00", [0.1, -0.9]),
                ("Phys_00", [-0.7, 0.65]),
                ("Phys_01", [0.45, 0.05]),
            ],
            &OWN_CASE_B,
        ),
    ];
    for (set, want) in cases {
        // Every parameter is set, so nothing is muted: the full Inochi2D semantics.
        set_all(&rig, &mut inst, set, false);
        let got: Vec<f64> = ["Part000", "Part001", "Part002"]
            .iter()
            .flat_map(|n| offsets(&rig, &inst, rig.slot(n).expect("slot")))
            .collect();
        assert_eq!(got.len(), want.len());
        for (k, (g, w)) in got.iter().zip(want).enumerate() {
            assert!((g - w).abs() < 1e-4, "{set:?} [{k}]: got {g}, want {w}");
        }
    }
}

#[test]
fn node_transforms_follow_the_hierarchy() {
    let Some(dir) = dir("node_transforms_follow_the_hierarchy") else {
        return;
    };
    let (_, rig) = load(&dir, "synthetic_tiny.inp");
    let mut inst = Instance::new(&rig);
    // Param2D_00 at (1, 1): Body rotates by 0.075 rad, Part000 moves by 7.5 in y.
    set_all(&rig, &mut inst, &[("Param2D_00", [1.0, 1.0])], true);
    sinew::skeleton::update_world_transform(&rig, &mut inst, sinew::Physics::None);
    let w = inst.world[rig.bone("Part000").expect("bone").index()];
    let (c, s) = (0.075f64.cos(), 0.075f64.sin());
    // world = R(0.075) * (x, y + 7.5) with Part000 at (-292.5086, 555.894).
    let (x, y) = (-292.5086, 555.894 + 7.5);
    assert!((w.x - (c * x - s * y)).abs() < 1e-3, "{}", w.x);
    assert!((w.y - (s * x + c * y)).abs() < 1e-3, "{}", w.y);
    assert!((w.a - c).abs() < 1e-6 && (w.c - s).abs() < 1e-6);
}

#[test]
fn node_frames_are_exact_rotations() {
    let Some(dir) = dir("node_frames_are_exact_rotations") else {
        return;
    };
    let (_, rig) = load(&dir, "synthetic_tiny.inp");
    assert!(rig.exact_angles);
    let mut inst = Instance::new(&rig);
    sinew::skeleton::update_world_transform(&rig, &mut inst, sinew::Physics::None);
    // Unrotated, unscaled nodes: exactly the identity (no rounded-pi shear).
    for (i, b) in rig.bones.iter().enumerate() {
        let w = inst.world[i];
        if b.setup.rotation == 0.0 && b.setup.scale_x == 1.0 && b.setup.scale_y == 1.0 {
            let parent_id = b.parent.map(|p| inst.world[p.index()]);
            if parent_id.is_none_or(|p| (p.a, p.b, p.c, p.d) == (1.0, 0.0, 0.0, 1.0)) {
                assert_eq!((w.a, w.b, w.c, w.d), (1.0, 0.0, 0.0, 1.0), "{}", b.name);
            }
        }
    }
    // A rotated frame is orthonormal to the last bit of f64 trigonometry: b = -c, d = a.
    set_all(&rig, &mut inst, &[("Param2D_00", [1.0, 1.0])], true);
    sinew::skeleton::update_world_transform(&rig, &mut inst, sinew::Physics::None);
    let w = inst.world[rig.bone("Body").expect("bone").index()];
    assert!(w.c != 0.0);
    assert_eq!((w.b, w.d), (-w.c, w.a));
}

/// Parameter values to set, by name.
type ParamSettings<'a> = &'a [(&'a str, [f64; 2])];
