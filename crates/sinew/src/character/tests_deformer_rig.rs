//! Declared rotation and warp deformers on a hand-built rig: closed forms (a rotation turns
//! every world vertex about its pivot, a warp whose lattice moves by an affine map moves
//! every vertex, inside the lattice or not, by that map), nesting, a deformer riding a
//! bone, the same bits as the puppet stage's deformers built by code, host setters and
//! build errors.

use super::*;
use crate::build::Element;
use crate::deformer::tests::{AFF, aff, dbind, grid_mesh, mesh_slot, param_a};
use crate::deformer::{DeformerTarget, RawDeformer, RawDeformerKind, RawDeformers};
use crate::math::WorldTransform;
use crate::params::raw::RawParams;
use crate::raw::{RawBone, RawRig, RawSkin};

/// Bones `root` and `b` (moved and turned); slots `a` (a 5x4 mesh on `root`) and `c` (a
/// 3x3 mesh on `b`).
fn raw() -> RawRig {
    let mut b = RawBone::new("b", Some("root"));
    (b.x, b.y, b.rotation) = (10.0, 5.0, 30.0);
    let mut raw = RawRig {
        bones: vec![RawBone::new("root", None), b],
        skins: vec![RawSkin {
            name: "default".into(),
            ..Default::default()
        }],
        ..Default::default()
    };
    let (v, t) = grid_mesh(-30.0, -20.0, 13.0, 5, 4);
    mesh_slot(&mut raw, "a", "root", v, t);
    let (v, t) = grid_mesh(-8.0, -6.0, 7.0, 3, 3);
    mesh_slot(&mut raw, "c", "b", v, t);
    raw
}

fn rig() -> Arc<Rig> {
    Arc::new(crate::build::build_rig(&raw()).expect("rig"))
}

/// A 3x2-cell warp over `-24..24 x -16..16`: the meshes reach outside it.
const WARP: DeformerDescKind = DeformerDescKind::Warp {
    origin: [-24.0, -16.0],
    size: [48.0, 32.0],
    cols: 3,
    rows: 2,
};

/// The warp's rest lattice points.
fn rest_lattice() -> Vec<[f64; 2]> {
    (0..12)
        .map(|k| {
            [
                -24.0 + 16.0 * f64::from(k % 4),
                -16.0 + 16.0 * f64::from(k / 4),
            ]
        })
        .collect()
}

/// Lattice offsets that move the rest lattice by `f`.
fn offsets_of(f: impl Fn([f64; 2]) -> [f64; 2]) -> Vec<[f64; 2]> {
    rest_lattice()
        .iter()
        .map(|p| {
            let q = f(*p);
            [q[0] - p[0], q[1] - p[1]]
        })
        .collect()
}

/// Within `n` units in the last place of f32 of `want`.
fn near(got: f32, want: f64, n: f64, what: &str) {
    let tol = n * f64::from(f32::EPSILON) * want.abs().max(1.0);
    assert!(
        (f64::from(got) - want).abs() <= tol,
        "{what}: got {got}, want {want}"
    );
}

/// A character of `rig` with `descs`, posed once.
fn posed(rig: &Arc<Rig>, descs: &[DeformerDesc], host: impl Fn(&mut Character)) -> Character {
    let dr = DeformerRig::build(rig, descs).expect("binds");
    let mut c = Character::new(rig.clone());
    c.set_deformer_rig(Some(Arc::new(dr))).expect("same rig");
    host(&mut c);
    c.update(0.0);
    c
}

fn verts(c: &Character, slot: &str) -> Vec<f32> {
    let mut v = Vec::new();
    assert!(c.world_vertices(slot, &mut v));
    v
}

/// `got` is `want` rounded to f32, give or take one unit in the last place.
fn close(got: f32, want: f64, what: &str) {
    let ulp = f64::from(f32::EPSILON) * want.abs().max(1.0);
    assert!(
        (f64::from(got) - want).abs() <= ulp,
        "{what}: got {got}, want {want}"
    );
}

#[test]
fn a_rotation_turns_every_vertex_about_its_pivot() {
    let rig = rig();
    let rot = DeformerDescKind::Rotation {
        pivot: [4.0, -6.0],
        angle: 20.0,
        scale: 1.0,
    };
    let mut d = DeformerDesc::new("r", rot, &["a", "c"]);
    d.targets[1].attachment = Some("c".into());
    let mut rest = Character::new(rig.clone());
    rest.update(0.0);
    for (angle, scale) in [(0.0, 0.0), (25.0, 0.0), (-140.0, 0.5)] {
        let c = posed(&rig, &[d.clone()], |c| {
            assert!(c.set_deformer_rotation(0, angle, scale, [0.0, 0.0]));
        });
        let (s, co) = (20.0f64 + angle).to_radians().sin_cos();
        let k = 1.0 + scale;
        for slot in ["a", "c"] {
            let (before, after) = (verts(&rest, slot), verts(&c, slot));
            assert_eq!(before.len(), after.len());
            for (k2, (v, g)) in before
                .chunks_exact(2)
                .zip(after.chunks_exact(2))
                .enumerate()
            {
                let (x, y) = (f64::from(v[0]) - 4.0, f64::from(v[1]) + 6.0);
                let want = [4.0 + k * (co * x - s * y), -6.0 + k * (s * x + co * y)];
                close(g[0], want[0], &format!("{slot} vertex {k2} x at {angle}"));
                close(g[1], want[1], &format!("{slot} vertex {k2} y at {angle}"));
            }
        }
    }
}

#[test]
fn a_warp_moved_by_an_affine_map_moves_every_vertex_by_it() {
    let rig = rig();
    let offsets = offsets_of(aff);
    let mut rest = Character::new(rig.clone());
    rest.update(0.0);
    let c = posed(&rig, &[DeformerDesc::new("w", WARP, &["a", "c"])], |c| {
        assert!(!c.set_deformer_lattice(0, &offsets[1..]), "a point short");
        assert!(
            !c.set_deformer_rotation(0, 1.0, 0.0, [0.0, 0.0]),
            "not a rotation"
        );
        assert!(c.set_deformer_lattice(0, &offsets));
    });
    let mut outside = 0;
    for slot in ["a", "c"] {
        let (before, after) = (verts(&rest, slot), verts(&c, slot));
        for (k, (v, g)) in before
            .chunks_exact(2)
            .zip(after.chunks_exact(2))
            .enumerate()
        {
            let p = [f64::from(v[0]), f64::from(v[1])];
            if !(-24.0..=24.0).contains(&p[0]) || !(-16.0..=16.0).contains(&p[1]) {
                outside += 1;
            }
            let want = aff(p);
            // The bilinear blend rounds a few times: within 4 units in the last place.
            near(g[0], want[0], 4.0, &format!("{slot} vertex {k} x"));
            near(g[1], want[1], 4.0, &format!("{slot} vertex {k} y"));
        }
    }
    assert!(
        outside >= 8,
        "the meshes reach outside the lattice ({outside} vertices)"
    );
    // The lattice as a viewer reads it: the rest points moved by the map.
    let lat = c.deformer_lattice(0).expect("a warp");
    for (p, q) in rest_lattice().iter().zip(lat.chunks_exact(2)) {
        assert_eq!([q[0], q[1]], aff(*p));
    }
    assert!(c.deformer_lattice(1).is_none());
}

#[test]
fn nested_deformers_compose_with_their_parent() {
    let rig = rig();
    let mut rest = Character::new(rig.clone());
    rest.update(0.0);
    // A rotation under the affine warp: A(p + R(v - p)) for the rotation's mesh.
    let rot = DeformerDescKind::Rotation {
        pivot: [4.0, -6.0],
        angle: 35.0,
        scale: 0.75,
    };
    let mut r = DeformerDesc::new("r", rot, &["c"]);
    r.parent = Some("w".into());
    // Declared before its parent: parents run first whatever the file's order.
    let c = posed(&rig, &[r, DeformerDesc::new("w", WARP, &["a"])], |c| {
        let w = c.find_deformer("w").expect("w");
        assert_eq!((w, c.find_deformer("r")), (0, Some(1)));
        assert!(c.set_deformer_lattice(w, &offsets_of(aff)));
    });
    let (s, co) = 35f64.to_radians().sin_cos();
    let (m, _) = AFF;
    for (k, (v, g)) in verts(&rest, "c")
        .chunks_exact(2)
        .zip(verts(&c, "c").chunks_exact(2))
        .enumerate()
    {
        let (x, y) = (f64::from(v[0]) - 4.0, f64::from(v[1]) + 6.0);
        let turned = [0.75 * (co * x - s * y), 0.75 * (s * x + co * y)];
        let p = aff([4.0, -6.0]);
        let want = [
            p[0] + m[0] * turned[0] + m[1] * turned[1],
            p[1] + m[2] * turned[0] + m[3] * turned[1],
        ];
        near(g[0], want[0], 8.0, &format!("vertex {k} x"));
        near(g[1], want[1], 8.0, &format!("vertex {k} y"));
    }
    // A warp under a warp: the child's lattice is moved by the parent's map, so its mesh
    // moves by the parent's map after the child's own.
    let half = |p: [f64; 2]| [0.5 * p[0] + 2.0, p[1] - 0.25 * p[0]];
    let mut inner = DeformerDesc::new("inner", WARP, &["c"]);
    inner.parent = Some("w".into());
    let c = posed(&rig, &[DeformerDesc::new("w", WARP, &["a"]), inner], |c| {
        assert!(c.set_deformer_lattice(0, &offsets_of(aff)));
        assert!(c.set_deformer_lattice(1, &offsets_of(half)));
    });
    for (k, (v, g)) in verts(&rest, "c")
        .chunks_exact(2)
        .zip(verts(&c, "c").chunks_exact(2))
        .enumerate()
    {
        let want = aff(half([f64::from(v[0]), f64::from(v[1])]));
        near(g[0], want[0], 8.0, &format!("vertex {k} x"));
        near(g[1], want[1], 8.0, &format!("vertex {k} y"));
    }
    let lat = c.deformer_lattice(1).expect("inner");
    for (p, q) in rest_lattice().iter().zip(lat.chunks_exact(2)) {
        assert_eq!([q[0], q[1]], aff(half(*p)));
    }
}

#[test]
fn a_deformer_riding_a_bone_follows_its_motion() {
    let rig = rig();
    let rot = DeformerDescKind::Rotation {
        pivot: [10.0, 5.0],
        angle: 40.0,
        scale: 1.0,
    };
    let mut d = DeformerDesc::new("r", rot, &["a"]);
    d.bone = Some("b".into());
    let dr = Arc::new(DeformerRig::build(&rig, &[d]).expect("binds"));
    let mut c = Character::new(rig.clone());
    c.set_deformer_rig(Some(dr)).expect("same rig");
    c.update(0.0);
    let setup_b = c.bone_world("b").expect("b");
    // Move and turn the bone: the deformer's pivot and frame go with it.
    let mut pose = c.bone_local("b").expect("b");
    (pose.x, pose.y, pose.rotation) = (-20.0, 12.0, 95.0);
    c.set_bone_local("b", pose).expect("finite");
    c.update(0.0);
    let now_b = c.bone_world("b").expect("b");
    let m = now_b * setup_b.try_inverse().expect("invertible");
    let mi = m.try_inverse().expect("invertible");
    let (s, co) = 40f64.to_radians().sin_cos();
    let mut rest = Character::new(rig.clone());
    rest.update(0.0);
    for (k, (v, g)) in verts(&rest, "a")
        .chunks_exact(2)
        .zip(verts(&c, "a").chunks_exact(2))
        .enumerate()
    {
        // M(p + R(M^-1 v - p)): the slot's bone (root) did not move.
        let q = mi.apply(Vec2::new(f64::from(v[0]), f64::from(v[1])));
        let (x, y) = (q.x - 10.0, q.y - 5.0);
        let want = m.apply(Vec2::new(10.0 + co * x - s * y, 5.0 + s * x + co * y));
        near(g[0], want.x, 8.0, &format!("vertex {k} x"));
        near(g[1], want.y, 8.0, &format!("vertex {k} y"));
    }
}

/// The same deformers as the puppet stage builds them from code (`RawDeformers`): a warp
/// whose lattice a parameter moves, a rotation nested in it; every slot on the root bone.
fn puppet_rig() -> (Rig, RawRig) {
    let mut raw = raw();
    raw.slots[1].bone = "root".into();
    let keys: Vec<f32> = [[0.0f64; 2]; 12]
        .iter()
        .copied()
        .chain(offsets_of(aff))
        .flat_map(|p| [p[0] as f32, p[1] as f32])
        .collect();
    let params = RawParams {
        params: vec![param_a()],
        deformers: RawDeformers {
            deformers: vec![
                RawDeformer {
                    name: "w".into(),
                    bone: "root".into(),
                    parent: None,
                    kind: RawDeformerKind::Warp {
                        origin: [-24.0, -16.0],
                        size: [48.0, 32.0],
                        cols: 3,
                        rows: 2,
                    },
                    slots: vec!["a".into()],
                },
                RawDeformer {
                    name: "r".into(),
                    bone: "root".into(),
                    parent: Some("w".into()),
                    kind: RawDeformerKind::Rotation {
                        pivot: [4.0, -6.0],
                        angle: 35.0,
                        scale: 1.25,
                    },
                    slots: vec!["c".into()],
                },
            ],
            bindings: vec![{
                let mut b = dbind("w", DeformerTarget::Lattice, 24, keys);
                b.axes[0].keys = Some(vec![0.0, 1.0]);
                b
            }],
        },
        ..Default::default()
    };
    let mut rig = crate::build::build_rig_with(&raw, &exact()).expect("rig");
    rig.params = crate::params::build::build_params(&rig, &params).expect("params");
    (rig, raw)
}

/// Exact angles: the root's world transform is the identity to the bit (Spine's float pi
/// puts a 2e-8 shear in it otherwise, which the two stages apply at different points).
fn exact() -> crate::build::BuildInputs<'static> {
    crate::build::BuildInputs {
        exact_angles: true,
        ..Default::default()
    }
}

#[test]
fn the_puppet_stage_gives_the_same_bits_for_the_same_deformers() {
    let (prig, raw) = puppet_rig();
    let mut inst = crate::Instance::new(&prig);
    let p = prig.params.find("A").expect("A");
    inst.params.set(&prig, p, [1.0, 0.0]);
    crate::character::update_params(&prig, &mut inst, 0.0, false);
    let rig = Arc::new(crate::build::build_rig_with(&raw, &exact()).expect("rig"));
    assert_eq!(inst.world[0], WorldTransform::IDENTITY);
    let rot = DeformerDescKind::Rotation {
        pivot: [4.0, -6.0],
        angle: 25.0,
        scale: 1.0,
    };
    let mut r = DeformerDesc::new("r", rot, &["c"]);
    r.parent = Some("w".into());
    // The lattice offsets as the keyforms hold them (f32), the angle and scale by the host.
    let offsets: Vec<[f64; 2]> = offsets_of(aff)
        .iter()
        .map(|o| [f64::from(o[0] as f32), f64::from(o[1] as f32)])
        .collect();
    let c = posed(&rig, &[DeformerDesc::new("w", WARP, &["a"]), r], |c| {
        assert!(c.set_deformer_lattice(0, &offsets));
        assert!(c.set_deformer_rotation(1, 10.0, 0.25, [0.0, 0.0]));
    });
    let mut moved = 0;
    for slot in ["a", "c"] {
        let s = prig.slot(slot).expect("slot");
        let mut want = vec![0.0f32; 40];
        want.truncate(
            crate::deform::world_vertex_count(
                &prig,
                inst.slots.attachment[s.index()].expect("shown"),
            ) * 2,
        );
        crate::deform::compute_world_vertices(&prig, &inst, s, &mut want);
        let got = verts(&c, slot);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&got), bits(&want), "slot {slot}");
        let mut rest = Vec::new();
        Character::new(rig.clone()).world_vertices(slot, &mut rest);
        moved += got.iter().zip(&rest).filter(|(a, b)| a != b).count();
    }
    assert!(
        moved > 40,
        "the deformers moved the meshes ({moved} coordinates)"
    );
}

#[test]
fn problems_name_the_deformer_and_the_offending_name() {
    let rig = rig();
    let rot = DeformerDescKind::Rotation {
        pivot: [0.0, 0.0],
        angle: 0.0,
        scale: 1.0,
    };
    let with = |f: &dyn Fn(&mut DeformerDesc)| {
        let mut d = DeformerDesc::new("r", rot, &["a"]);
        f(&mut d);
        d
    };
    let cases: Vec<(Vec<DeformerDesc>, &str, Option<&str>)> = vec![
        (
            vec![with(&|d| d.targets[0].slot = "zz".into())],
            "unknown slot",
            Some("zz"),
        ),
        (
            vec![with(&|d| d.bone = Some("zz".into()))],
            "unknown bone",
            Some("zz"),
        ),
        (
            vec![with(&|d| d.parent = Some("zz".into()))],
            "unknown parent",
            Some("zz"),
        ),
        (
            vec![with(&|d| d.parent = Some("r".into()))],
            "parent cycle",
            None,
        ),
        (vec![with(&|_| {}), with(&|_| {})], "duplicate", Some("r")),
        (
            vec![with(&|_| {}), with(&|d| d.name = "s".into())],
            "is moved by deformer `r` already",
            Some("a"),
        ),
        (
            vec![with(&|d| d.targets[0].attachment = Some("zz".into()))],
            "has no attachment `zz`",
            Some("zz"),
        ),
        (
            vec![with(&|d| {
                d.animations.push(DeformerKeysDesc {
                    animation: "zz".into(),
                    keys: Vec::new(),
                })
            })],
            "unknown animation",
            Some("zz"),
        ),
        (
            vec![with(&|d| {
                d.kind = DeformerDescKind::Warp {
                    origin: [0.0, 0.0],
                    size: [0.0, 1.0],
                    cols: 1,
                    rows: 1,
                }
            })],
            "positive size",
            None,
        ),
        (
            vec![with(&|d| {
                d.kind = DeformerDescKind::Rotation {
                    pivot: [f64::NAN, 0.0],
                    angle: 0.0,
                    scale: 1.0,
                }
            })],
            "finite pivot",
            None,
        ),
    ];
    for (descs, want, name) in cases {
        let e = DeformerRig::build(&rig, &descs).expect_err(want);
        let p = e.problems.last().expect("a problem");
        assert!(p.to_string().contains(want), "{want}: {p}");
        assert_eq!(p.name.as_deref(), name, "{want}");
        assert_eq!(p.part, BuildPart::Deformers);
        assert!(matches!(p.element, Some(Element::Deformer(_))), "{want}");
    }
    // Another rig's deformers are refused.
    let other = Arc::new(crate::build::build_rig(&raw()).expect("rig"));
    let dr = DeformerRig::build(&other, &[with(&|_| {})]).expect("binds");
    let mut c = Character::new(rig);
    assert!(c.set_deformer_rig(Some(Arc::new(dr))).is_err());
    assert!(c.deformer_rig().is_none());
}
