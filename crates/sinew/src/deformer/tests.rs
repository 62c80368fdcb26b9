//! Deformer tests on a small hand-built rig whose deformer bone and part bone differ (so every
//! space conversion is exercised): the rotation deformer against its closed form, affine
//! reproduction by a warp lattice and by a control mesh (inside and outside the rest
//! lattice), a rotation nested in a warp against the hand composition, and build errors.

use super::{DeformerTarget, RawDeformer, RawDeformerBinding, RawDeformerKind, RawDeformers};
use crate::character::update_params;
use crate::math::{Vec2, WorldTransform};
use crate::params::Interp;
use crate::params::raw::{RawAxis, RawBinding, RawParam, RawParams, RawTarget};
use crate::raw::{
    RawAttachment, RawAttachmentKind, RawBone, RawRig, RawSkin, RawSkinEntry, RawSlot, Vertices,
};
use crate::types::{BlendMode, Color};
use crate::{Instance, Rig, SlotId};

/// An affine map `x' = m x + t` with dyadic coefficients (exact in f32 keyforms).
pub(crate) const AFF: ([f64; 4], [f64; 2]) = ([1.25, 0.5, -0.25, 0.75], [3.0, -2.0]);

pub(crate) fn aff(p: [f64; 2]) -> [f64; 2] {
    let (m, t) = AFF;
    [
        m[0] * p[0] + m[1] * p[1] + t[0],
        m[2] * p[0] + m[3] * p[1] + t[1],
    ]
}

pub(crate) fn mesh_slot(raw: &mut RawRig, name: &str, bone: &str, verts: Vec<f32>, tris: Vec<u16>) {
    raw.slots.push(RawSlot {
        name: name.into(),
        bone: bone.into(),
        color: Color::WHITE,
        dark: None,
        attachment: Some(name.into()),
        blend: BlendMode::Normal,
        visible: true,
    });
    let n = verts.len() / 2;
    raw.skins[0].attachments.push(RawSkinEntry {
        slot: name.into(),
        key: name.into(),
        attachment: RawAttachment {
            name: name.into(),
            kind: RawAttachmentKind::Mesh {
                path: String::new(),
                color: Color::WHITE,
                vertices: Vertices {
                    count: n as u32,
                    bones: Vec::new(),
                    values: verts,
                },
                uvs: vec![0.0; 2 * n],
                triangles: tris,
                hull: 0,
                edges: Vec::new(),
                width: 0.0,
                height: 0.0,
                sequence: None,
            },
        },
    });
}

/// A grid mesh of `nx x ny` vertices from `x0, y0` with spacing `d`, two triangles per cell.
pub(crate) fn grid_mesh(x0: f32, y0: f32, d: f32, nx: u16, ny: u16) -> (Vec<f32>, Vec<u16>) {
    let mut v = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            v.extend([x0 + d * f32::from(i), y0 + d * f32::from(j)]);
        }
    }
    let mut t = Vec::new();
    for j in 0..ny - 1 {
        for i in 0..nx - 1 {
            let k = j * nx + i;
            t.extend([k, k + 1, k + nx, k + 1, k + nx + 1, k + nx]);
        }
    }
    (v, t)
}

/// Bones `root`, `def` (moved and rotated) and `part` (moved and scaled); slots `ctl` (a 3x3
/// control mesh on `def`) and `a` (a 5x4 mesh on `part`, partly outside the control mesh).
fn base() -> RawRig {
    let mut def = RawBone::new("def", Some("root"));
    (def.x, def.y, def.rotation) = (10.0, 5.0, 30.0);
    let mut part = RawBone::new("part", Some("root"));
    (part.x, part.y, part.scale_x, part.scale_y) = (-3.0, 4.0, 1.5, 1.5);
    let mut raw = RawRig {
        bones: vec![RawBone::new("root", None), def, part],
        skins: vec![RawSkin {
            name: "default".into(),
            ..Default::default()
        }],
        reference_scale: 100.0,
        ..Default::default()
    };
    let (v, t) = grid_mesh(-48.0, -40.0, 40.0, 3, 3);
    mesh_slot(&mut raw, "ctl", "def", v, t);
    let (v, t) = grid_mesh(-30.0, -20.0, 13.0, 5, 4);
    mesh_slot(&mut raw, "a", "part", v, t);
    raw
}

pub(crate) fn param_a() -> RawParam {
    RawParam {
        name: "A".into(),
        is_2d: false,
        min: [-1.0, -1.0],
        max: [1.0, 1.0],
        default: [0.0, 0.0],
        axis_points: [vec![0.0, 0.5, 1.0], vec![0.0]],
    }
}

fn axis_a() -> Vec<RawAxis> {
    vec![RawAxis {
        param: "A".into(),
        component: 0,
        keys: None,
    }]
}

pub(crate) fn dbind(
    deformer: &str,
    target: DeformerTarget,
    stride: u32,
    values: Vec<f32>,
) -> RawDeformerBinding {
    RawDeformerBinding {
        deformer: deformer.into(),
        target,
        interp: Interp::Linear,
        axes: axis_a(),
        stride,
        values,
    }
}

fn build(raw: &RawRig, params: RawParams) -> Rig {
    let mut rig = crate::build::build_rig(raw).expect("rig");
    rig.params = crate::params::build::build_params(&rig, &params).expect("params");
    rig
}

/// Frame at `A = a`; returns the rig's instance.
fn frame(rig: &Rig, a: f64) -> Instance {
    let mut inst = Instance::new(rig);
    let p = rig.params.find("A").expect("A");
    inst.params.set(rig, p, [a, 0.0]);
    update_params(rig, &mut inst, 0.0, false);
    inst
}

/// `w` applied to `(x, y)`, as a pair.
fn ap(w: &WorldTransform, x: f64, y: f64) -> (f64, f64) {
    let p = w.apply(Vec2::new(x, y));
    (p.x, p.y)
}

fn inv_apply(w: &WorldTransform, p: [f64; 2]) -> [f64; 2] {
    let det = w.a * w.d - w.b * w.c;
    let (x, y) = (p[0] - w.x, p[1] - w.y);
    [(w.d * x - w.b * y) / det, (w.a * y - w.c * x) / det]
}

fn setup_vertices(rig: &Rig, slot: &str) -> Vec<f64> {
    let s = rig.slot(slot).expect("slot");
    let att = rig.skins[0]
        .get(s, rig.slots[s.index()].attachment.expect("key"))
        .expect("attachment");
    match &rig.attachments[att.index()].kind {
        crate::rig::AttachmentKind::Mesh(m) => {
            m.vertices.values.iter().map(|&v| f64::from(v)).collect()
        }
        _ => panic!("not a mesh"),
    }
}

/// Checks every vertex of slot `a`: its world position must be `def_world(f(q))` where `q` is
/// the rest vertex in `def` space and `f` is `want`; `None` from `want` means unchanged.
fn check(rig: &Rig, inst: &Instance, want: impl Fn([f64; 2]) -> Option<[f64; 2]>) -> usize {
    let (def, part) = (inst.world[1], inst.world[2]);
    let s = SlotId(1);
    let got = inst.slots.deform(s);
    let rest = setup_vertices(rig, "a");
    assert_eq!(got.len(), rest.len());
    let mut moved = 0;
    for (k, (g, r)) in got.chunks_exact(2).zip(rest.chunks_exact(2)).enumerate() {
        let world_rest = ap(&part, r[0], r[1]);
        let q = inv_apply(&def, [world_rest.0, world_rest.1]);
        let w = match want(q) {
            Some(f) => {
                moved += 1;
                ap(&def, f[0], f[1])
            }
            None => world_rest,
        };
        let g = ap(&part, g[0], g[1]);
        assert!(
            (g.0 - w.0).abs() < 1e-9 && (g.1 - w.1).abs() < 1e-9,
            "vertex {k}: got {g:?}, want {w:?}"
        );
    }
    moved
}

fn rotation(name: &str, bone: &str, parent: Option<&str>, slots: &[&str]) -> RawDeformer {
    RawDeformer {
        name: name.into(),
        bone: bone.into(),
        parent: parent.map(Into::into),
        kind: RawDeformerKind::Rotation {
            pivot: [4.0, -6.0],
            angle: 0.0,
            scale: 1.0,
        },
        slots: slots.iter().map(|s| (*s).into()).collect(),
    }
}

fn warp(slots: &[&str]) -> RawDeformer {
    RawDeformer {
        name: "warp".into(),
        bone: "def".into(),
        parent: None,
        kind: RawDeformerKind::Warp {
            origin: [-48.0, -40.0],
            size: [96.0, 80.0],
            cols: 3,
            rows: 2,
        },
        slots: slots.iter().map(|s| (*s).into()).collect(),
    }
}

/// Lattice keyforms over `A`: `f(p) - p` at A = -1, zero at 0, `aff(p) - p` at A = 1.
fn lattice_keys(f: impl Fn([f64; 2]) -> [f64; 2]) -> Vec<f32> {
    let rest: Vec<[f64; 2]> = (0..12)
        .map(|k| {
            [
                -48.0 + 32.0 * f64::from(k % 4),
                -40.0 + 40.0 * f64::from(k / 4),
            ]
        })
        .collect();
    let mut v = Vec::new();
    for key in 0..3 {
        for p in &rest {
            let q = match key {
                0 => f(*p),
                1 => *p,
                _ => aff(*p),
            };
            v.extend([(q[0] - p[0]) as f32, (q[1] - p[1]) as f32]);
        }
    }
    v
}

#[test]
fn rotation_matches_the_closed_form() {
    let params = RawParams {
        params: vec![param_a()],
        deformers: RawDeformers {
            deformers: vec![rotation("rot", "def", None, &["a"])],
            bindings: vec![
                dbind("rot", DeformerTarget::Angle, 1, vec![-90.0, 0.0, 90.0]),
                dbind("rot", DeformerTarget::Scale, 1, vec![0.5, 1.0, 2.0]),
                dbind("rot", DeformerTarget::PivotX, 1, vec![-10.0, 0.0, 10.0]),
            ],
        },
        ..Default::default()
    };
    let rig = build(&base(), params);
    // A = 0: the identity.
    assert_eq!(check(&rig, &frame(&rig, 0.0), Some), 20);
    // A = 0.5: 45 degrees, scale 1.5, pivot (9, -6).
    let inst = frame(&rig, 0.5);
    let (s, c) = 45f64.to_radians().sin_cos();
    let closed = |q: [f64; 2]| {
        let (x, y) = (q[0] - 9.0, q[1] + 6.0);
        Some([9.0 + 1.5 * (c * x - s * y), -6.0 + 1.5 * (s * x + c * y)])
    };
    assert_eq!(check(&rig, &inst, closed), 20);
}

#[test]
fn warp_reproduces_an_affine_map_inside_and_outside() {
    let params = RawParams {
        params: vec![param_a()],
        deformers: RawDeformers {
            deformers: vec![warp(&["a"])],
            bindings: vec![dbind(
                "warp",
                DeformerTarget::Lattice,
                24,
                lattice_keys(|p| p),
            )],
        },
        ..Default::default()
    };
    let rig = build(&base(), params);
    assert_eq!(check(&rig, &frame(&rig, 0.0), Some), 20);
    let inst = frame(&rig, 1.0);
    let moved = check(&rig, &inst, |q| Some(aff(q)));
    assert_eq!(moved, 20);
    // Some vertices lie outside the rest lattice: extrapolation is exact for affine motion.
    let def = inst.world[1];
    let outside = setup_vertices(&rig, "a").chunks_exact(2).any(|r| {
        let w = ap(&inst.world[2], r[0], r[1]);
        let q = inv_apply(&def, [w.0, w.1]);
        !(-48.0..=48.0).contains(&q[0]) || !(-40.0..=40.0).contains(&q[1])
    });
    assert!(outside, "the test mesh should reach outside the lattice");
}

#[test]
fn mesh_deformer_reproduces_an_affine_map_and_leaves_outside_vertices() {
    let ctl: Vec<f64> = grid_mesh(-48.0, -40.0, 40.0, 3, 3)
        .0
        .iter()
        .map(|&v| f64::from(v))
        .collect();
    let mut keys = Vec::new();
    for key in 0..3 {
        for p in ctl.chunks_exact(2) {
            let q = if key == 2 {
                aff([p[0], p[1]])
            } else {
                [p[0], p[1]]
            };
            keys.extend([(q[0] - p[0]) as f32, (q[1] - p[1]) as f32]);
        }
    }
    let params = RawParams {
        params: vec![param_a()],
        bindings: vec![RawBinding {
            target: RawTarget::SlotDeform("ctl".into()),
            interp: Interp::Linear,
            axes: axis_a(),
            stride: 18,
            values: keys,
        }],
        deformers: RawDeformers {
            deformers: vec![RawDeformer {
                name: "group".into(),
                bone: String::new(),
                parent: None,
                kind: RawDeformerKind::Mesh {
                    control: "ctl".into(),
                },
                slots: vec!["a".into()],
            }],
            bindings: Vec::new(),
        },
        ..Default::default()
    };
    let rig = build(&base(), params);
    let inside = |q: [f64; 2]| (-48.0..=32.0).contains(&q[0]) && (-40.0..=40.0).contains(&q[1]);
    assert_eq!(check(&rig, &frame(&rig, 0.0), |_| None), 0);
    let inst = frame(&rig, 1.0);
    let moved = check(&rig, &inst, |q| inside(q).then(|| aff(q)));
    assert!(moved > 0 && moved < 20, "{moved} of 20 inside");
    // Repeated frames do not accumulate.
    let mut inst = inst;
    update_params(&rig, &mut inst, 0.0, false);
    check(&rig, &inst, |q| inside(q).then(|| aff(q)));
}

#[test]
fn rotation_nested_in_a_warp_composes() {
    let params = RawParams {
        params: vec![param_a()],
        deformers: RawDeformers {
            deformers: vec![
                // Listed child first: the builder orders parents first.
                rotation("rot", "part", Some("warp"), &["a"]),
                warp(&[]),
            ],
            bindings: vec![
                dbind("rot", DeformerTarget::Angle, 1, vec![-90.0, 0.0, 90.0]),
                dbind("rot", DeformerTarget::Scale, 1, vec![0.5, 1.0, 2.0]),
                // A non-affine lattice at A = -1 (for the pivot check), affine at A = 1.
                dbind(
                    "warp",
                    DeformerTarget::Lattice,
                    24,
                    lattice_keys(|p| [p[0] + 0.01 * p[1] * p[1], p[1] + 0.02 * p[0] * p[1]]),
                ),
            ],
        },
        ..Default::default()
    };
    let rig = build(&base(), params);
    assert_eq!(rig.params.deformers.deformers[0].name, "warp");
    let inst = frame(&rig, 1.0);
    // By hand: rotate 90 degrees, scale 2 about (4, -6) in `part` space, then the warp (here
    // the affine map) in `def` space.
    let (def, part) = (inst.world[1], inst.world[2]);
    let rest = setup_vertices(&rig, "a");
    for (g, r) in inst
        .slots
        .deform(SlotId(1))
        .chunks_exact(2)
        .zip(rest.chunks_exact(2))
    {
        let (x, y) = (r[0] - 4.0, r[1] + 6.0);
        let rot = [4.0 - 2.0 * y, -6.0 + 2.0 * x];
        let w = ap(&part, rot[0], rot[1]);
        let q = inv_apply(&def, [w.0, w.1]);
        let want = {
            let f = aff(q);
            ap(&def, f[0], f[1])
        };
        let got = ap(&part, g[0], g[1]);
        assert!(
            (got.0 - want.0).abs() < 1e-9 && (got.1 - want.1).abs() < 1e-9,
            "got {got:?}, want {want:?}"
        );
    }
    // Non-affine lattice: the pivot still lands exactly where the warp puts it.
    let inst = frame(&rig, -1.0);
    let f = inst.params.deformers.frames[1];
    let w = ap(&part, 4.0, -6.0);
    let q = inv_apply(&inst.world[1], [w.0, w.1]);
    let st = &inst.params.deformers;
    let grid = super::geom::Grid {
        origin: Vec2::new(-48.0, -40.0),
        cell: Vec2::new(32.0, 40.0),
        cols: 3,
        rows: 2,
    };
    let m = grid.map(&st.lattice, Vec2::from(q)).0;
    let m = ap(&inst.world[1], m.x, m.y);
    let got = ap(&inst.world[2], f.pivot_out.x, f.pivot_out.y);
    assert!((got.0 - m.0).abs() < 1e-9 && (got.1 - m.1).abs() < 1e-9);
}

#[test]
fn warp_nested_in_a_warp_follows_the_parent() {
    let mut inner = warp(&["a"]);
    inner.name = "inner".into();
    inner.parent = Some("warp".into());
    // The inner lattice is smaller and lives on `part`: its points map through the parent.
    inner.bone = "part".into();
    inner.kind = RawDeformerKind::Warp {
        origin: [-40.0, -30.0],
        size: [80.0, 60.0],
        cols: 2,
        rows: 2,
    };
    let params = RawParams {
        params: vec![param_a()],
        deformers: RawDeformers {
            deformers: vec![warp(&[]), inner],
            bindings: vec![dbind(
                "warp",
                DeformerTarget::Lattice,
                24,
                lattice_keys(|p| p),
            )],
        },
        ..Default::default()
    };
    let rig = build(&base(), params);
    assert_eq!(check(&rig, &frame(&rig, 1.0), |q| Some(aff(q))), 20);
}

#[test]
fn mesh_deformer_nested_in_a_rotation_moves_with_its_control_mesh() {
    let mut rot = rotation("rot", "def", None, &[]);
    rot.kind = RawDeformerKind::Rotation {
        pivot: [4.0, -6.0],
        angle: 0.0,
        scale: 1.0,
    };
    let params = RawParams {
        params: vec![param_a()],
        deformers: RawDeformers {
            deformers: vec![
                RawDeformer {
                    name: "group".into(),
                    bone: String::new(),
                    parent: Some("rot".into()),
                    kind: RawDeformerKind::Mesh {
                        control: "ctl".into(),
                    },
                    slots: vec!["a".into()],
                },
                rot,
            ],
            bindings: vec![dbind(
                "rot",
                DeformerTarget::Angle,
                1,
                vec![-90.0, 0.0, 90.0],
            )],
        },
        ..Default::default()
    };
    let rig = build(&base(), params);
    // The control slot became a child of the rotation.
    assert!(rig.params.deformers.deformers[0].slots.contains(&SlotId(0)));
    let inside = |q: [f64; 2]| (-48.0..=32.0).contains(&q[0]) && (-40.0..=40.0).contains(&q[1]);
    // 90 degrees about (4, -6) in `def` space: the control mesh turns, and its bound
    // children take its (affine) displacement; vertices outside stay.
    let turn = |q: [f64; 2]| [4.0 - (q[1] + 6.0), -6.0 + (q[0] - 4.0)];
    let mut inst = frame(&rig, 1.0);
    let moved = check(&rig, &inst, |q| inside(q).then(|| turn(q)));
    assert!(moved > 0 && moved < 20, "{moved}");
    // Back to 0: everything returns (the control slot is reset every frame).
    let p = rig.params.find("A").expect("A");
    inst.params.set(&rig, p, [0.0, 0.0]);
    update_params(&rig, &mut inst, 0.0, false);
    check(&rig, &inst, Some);
}

#[test]
fn build_reports_every_problem() {
    let mut bad = rotation("rot", "nobone", Some("ghost"), &["a"]);
    bad.parent = None;
    let params = RawParams {
        params: vec![param_a()],
        deformers: RawDeformers {
            deformers: vec![
                bad,
                RawDeformer {
                    name: "m".into(),
                    bone: String::new(),
                    parent: None,
                    kind: RawDeformerKind::Mesh {
                        control: "nosuch".into(),
                    },
                    slots: vec!["zzz".into()],
                },
            ],
            bindings: Vec::new(),
        },
        ..Default::default()
    };
    let rig = crate::build::build_rig(&base()).expect("rig");
    let e = crate::params::build::build_params(&rig, &params).expect_err("bad");
    let all = e.to_string();
    let unknown: Vec<_> = e
        .problems
        .iter()
        .filter_map(|p| p.name.as_deref())
        .collect();
    assert!(
        unknown.contains(&"nobone") && unknown.contains(&"nosuch"),
        "{e:?}"
    );
    assert!(
        all.contains("`nobone`") && all.contains("`nosuch`"),
        "{all}"
    );
    // A cycle is reported too.
    let params = RawParams {
        params: vec![param_a()],
        deformers: RawDeformers {
            deformers: vec![
                rotation("x", "def", Some("y"), &[]),
                rotation("y", "def", Some("x"), &[]),
            ],
            bindings: vec![dbind("x", DeformerTarget::Lattice, 1, vec![0.0; 3])],
        },
        ..Default::default()
    };
    let e = crate::params::build::build_params(&rig, &params).expect_err("cycle");
    assert!(e.to_string().contains("cycle"), "{e:?}");
    assert!(
        e.problems
            .iter()
            .any(|p| p.kind == crate::build::ProblemKind::Hierarchy
                && p.part == crate::build::BuildPart::Deformers),
        "{e:?}"
    );
}

#[test]
fn a_deformed_child_with_its_own_binding_never_builds_up_across_frames() {
    // Slot `a` has a parameter deform binding (so the parameter stage owns its buffer and
    // may skip rewriting it) and sits under a rotation deformer that adds to it every frame.
    let n = setup_vertices(&build(&base(), RawParams::default()), "a").len();
    let mut keys = vec![0.0f32; 3 * n];
    for (i, v) in keys.iter_mut().enumerate() {
        *v = (i / n) as f32 * 2.0 - 2.0 + (i % 7) as f32 * 0.25;
    }
    let params = RawParams {
        params: vec![param_a()],
        bindings: vec![crate::params::raw::RawBinding {
            target: RawTarget::SlotDeform("a".into()),
            interp: Interp::Linear,
            axes: axis_a(),
            stride: n as u32,
            values: keys,
        }],
        deformers: RawDeformers {
            deformers: vec![rotation("rot", "def", None, &["a"])],
            bindings: vec![dbind(
                "rot",
                DeformerTarget::Angle,
                1,
                vec![-90.0, 0.0, 90.0],
            )],
        },
        ..Default::default()
    };
    let rig = build(&base(), params);
    let p = rig.params.find("A").expect("A");
    let mut inst = Instance::new(&rig);
    // Moving, then held still for several frames, then moving again.
    for (k, a) in [0.1, 0.3, 0.3, 0.3, 0.3, -0.2, -0.2, 0.0, 0.0]
        .into_iter()
        .enumerate()
    {
        inst.params.set(&rig, p, [a, 0.0]);
        update_params(&rig, &mut inst, 1.0 / 60.0, false);
        let fresh = frame(&rig, a);
        assert_eq!(
            inst.slots.deform(SlotId(1)),
            fresh.slots.deform(SlotId(1)),
            "frame {k} at A = {a}"
        );
    }
}
