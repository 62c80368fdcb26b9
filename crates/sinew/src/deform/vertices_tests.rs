//! Tests for world vertices: hand computations on small hand-built rigs.

use super::*;
use crate::ids::NameId;
use crate::raw::Sequence;
use crate::rig::{
    Attachment, BoneData, LocalPose, MeshAttachment, PathAttachment, RegionAttachment, SlotData,
    TextureRegion,
};
use crate::types::{BlendMode, Color, Inherit};

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

fn attachment(kind: AttachmentKind) -> Attachment {
    Attachment {
        name: "a".to_owned(),
        key: NameId(0),
        slot: SlotId(0),
        timeline_attachment: AttachmentId(0),
        timeline_slots: Vec::new(),
        kind,
    }
}

fn weighted(bones: Vec<u32>, values: Vec<f32>, count: u32) -> Vertices {
    Vertices {
        count,
        bones,
        values,
    }
}

fn unweighted(values: Vec<f32>) -> Vertices {
    Vertices {
        count: values.len() as u32 / 2,
        bones: Vec::new(),
        values,
    }
}

/// Three bones (slot on bone 1), one slot showing attachment 0, `deform` floats of room.
fn rig_with(kind: AttachmentKind, deform: u32) -> Rig {
    Rig {
        bones: vec![
            bone("root", None),
            bone("slot-bone", Some(0)),
            bone("other", Some(0)),
        ],
        slots: vec![SlotData {
            name: "s".to_owned(),
            bone: BoneId(1),
            color: Color::WHITE,
            dark: None,
            attachment: None,
            blend: BlendMode::Normal,
            visible: true,
        }],
        attachments: vec![attachment(kind)],
        slot_deform_capacity: vec![deform],
        ..Rig::empty()
    }
}

/// An instance showing attachment 0 with hand-set bone world transforms.
fn instance(rig: &Rig) -> Instance {
    let mut inst = Instance::new(rig);
    inst.slots.attachment[0] = Some(AttachmentId(0));
    inst.world[1] = WorldTransform {
        a: 0.0,
        b: -2.0,
        c: 1.0,
        d: 0.0,
        x: 10.0,
        y: 20.0,
    };
    inst.world[2] = WorldTransform {
        a: 2.0,
        b: 0.0,
        c: 0.0,
        d: 3.0,
        x: -5.0,
        y: 1.0,
    };
    inst
}

fn set_deform(inst: &mut Instance, values: &[f64]) {
    inst.slots.deform[..values.len()].copy_from_slice(values);
    inst.slots.deform_len[0] = values.len() as u32;
}

fn region(sequence: Option<Sequence>, frames: usize) -> AttachmentKind {
    // Frame k's corners are offset by 100*k so the chosen frame is visible in the output.
    let mut offsets = Vec::new();
    for k in 0..frames {
        let s = 100.0 * k as f32;
        offsets.extend_from_slice(&[-1.0 + s, -2.0, -1.0 + s, 2.0, 1.0 + s, 2.0, 1.0 + s, -2.0]);
    }
    AttachmentKind::Region(RegionAttachment {
        path: "r".to_owned(),
        x: 0.0,
        y: 0.0,
        scale_x: 1.0,
        scale_y: 1.0,
        rotation: 0.0,
        width: 2.0,
        height: 4.0,
        color: Color::WHITE,
        sequence,
        regions: vec![TextureRegion::full("r"); frames],
        offsets,
        uvs: vec![0.0; 8 * frames],
    })
}

#[test]
fn region_corners_in_spine_ts_order() {
    let rig = rig_with(region(None, 1), 0);
    let inst = instance(&rig);
    let mut out = [0.0f32; 8];
    compute_world_vertices(&rig, &inst, SlotId(0), &mut out);
    // M = [0 -2; 1 0] + (10, 20): (x, y) -> (10 - 2y, 20 + x). BL, UL, UR, BR.
    assert_eq!(out, [14.0, 19.0, 6.0, 19.0, 6.0, 21.0, 14.0, 21.0]);
    assert_eq!(world_vertex_count(&rig, AttachmentId(0)), 4);
    assert_eq!(sequence_region_index(&rig, &inst, SlotId(0)), Some(0));
}

#[test]
fn region_sequence_picks_frame() {
    let seq = Sequence {
        count: 3,
        start: 1,
        digits: 2,
        setup_index: 1,
    };
    let rig = rig_with(region(Some(seq), 3), 0);
    let mut inst = instance(&rig);
    let mut out = [0.0f32; 8];
    // -1: the setup index.
    assert_eq!(sequence_region_index(&rig, &inst, SlotId(0)), Some(1));
    compute_world_vertices(&rig, &inst, SlotId(0), &mut out);
    assert_eq!(out[1], 20.0 + 99.0);
    inst.slots.sequence_index[0] = 2;
    assert_eq!(sequence_region_index(&rig, &inst, SlotId(0)), Some(2));
    // Past the end: clamped to the last region.
    inst.slots.sequence_index[0] = 7;
    assert_eq!(sequence_region_index(&rig, &inst, SlotId(0)), Some(2));
    compute_world_vertices(&rig, &inst, SlotId(0), &mut out);
    assert_eq!(out[1], 20.0 + 199.0);
}

fn mesh(vertices: Vertices) -> AttachmentKind {
    AttachmentKind::Mesh(MeshAttachment {
        path: "m".to_owned(),
        color: Color::WHITE,
        region_uvs: vec![0.0; vertices.count as usize * 2],
        vertices,
        triangles: vec![0, 1, 2],
        hull: 3,
        edges: Vec::new(),
        width: 0.0,
        height: 0.0,
        sequence: None,
        regions: vec![TextureRegion::full("m")],
        uvs: Vec::new(),
        parent_mesh: None,
    })
}

#[test]
fn unweighted_mesh_uses_setup_then_absolute_deform() {
    let rig = rig_with(mesh(unweighted(vec![1.0, 0.0, 0.0, 1.0, 0.5, -0.5])), 6);
    let mut inst = instance(&rig);
    let mut out = [0.0f32; 6];
    compute_world_vertices(&rig, &inst, SlotId(0), &mut out);
    assert_eq!(out, [10.0, 21.0, 8.0, 20.0, 11.0, 20.5]);
    // The deform buffer holds absolute positions: it replaces the setup vertices.
    set_deform(&mut inst, &[2.0, 0.0, 0.0, 2.0, 0.0, 0.0]);
    compute_world_vertices(&rig, &inst, SlotId(0), &mut out);
    assert_eq!(out, [10.0, 22.0, 6.0, 20.0, 10.0, 20.0]);
    assert_eq!(world_vertex_count(&rig, AttachmentId(0)), 3);
}

/// Two vertices: v0 = 1.0 on bone 1 at (1, 0); v1 = 0.25 on bone 1 at (0, 2) and 0.75 on
/// bone 2 at (4, -1).
fn two_vertex_weights() -> Vertices {
    weighted(
        vec![1, 1, 2, 1, 2],
        vec![1.0, 0.0, 1.0, 0.0, 2.0, 0.25, 4.0, -1.0, 0.75],
        2,
    )
}

#[test]
fn weighted_mesh_blends_bones_and_offsets_each_influence() {
    let rig = rig_with(mesh(two_vertex_weights()), 6);
    let mut inst = instance(&rig);
    let mut out = [0.0f32; 4];
    compute_world_vertices(&rig, &inst, SlotId(0), &mut out);
    // v0: bone 1 maps (1, 0) to (10, 21).
    // v1: 0.25 * bone1(0, 2) = 0.25 * (6, 20); 0.75 * bone2(4, -1) = 0.75 * (3, -2).
    assert_eq!(
        out,
        [
            10.0,
            21.0,
            0.25 * 6.0 + 0.75 * 3.0,
            0.25 * 20.0 + 0.75 * -2.0
        ]
    );
    // Deform: one (dx, dy) per influence.
    set_deform(&mut inst, &[0.0, 1.0, 1.0, 0.0, 0.0, 1.0]);
    compute_world_vertices(&rig, &inst, SlotId(0), &mut out);
    // v0: bone1(1, 1) = (8, 21). v1: 0.25 * bone1(1, 2) + 0.75 * bone2(4, 0).
    assert_eq!(
        out,
        [8.0, 21.0, 0.25 * 6.0 + 0.75 * 3.0, 0.25 * 21.0 + 0.75 * 1.0]
    );
}

#[test]
fn f64_range_skips_earlier_influences_and_honours_stride() {
    let rig = rig_with(
        AttachmentKind::Path(PathAttachment {
            closed: false,
            constant_speed: true,
            vertices: two_vertex_weights(),
            lengths: vec![1.0],
        }),
        6,
    );
    let inst = instance(&rig);
    let mut out = [f64::NAN; 5];
    // Second vertex only, written at index 3.
    compute_world_vertices_f64(&rig, &inst, SlotId(0), 2, 2, &mut out, 3, 2);
    assert_eq!(out[3..], [3.75, 3.5]);
    assert!(out[..3].iter().all(|v| v.is_nan()));
    // Too short an output: nothing written.
    let mut short = [f64::NAN; 1];
    compute_world_vertices_f64(&rig, &inst, SlotId(0), 0, 2, &mut short, 0, 2);
    assert!(short[0].is_nan());
}

#[test]
fn point_world_position_and_rotation() {
    let rig = rig_with(
        AttachmentKind::Point {
            x: 3.0,
            y: 1.0,
            rotation: 15.0,
        },
        0,
    );
    let mut inst = instance(&rig);
    assert_eq!(world_vertex_count(&rig, AttachmentId(0)), 0);
    // Bone rotated 30 degrees and scaled 2: the point turns 30 + 15 = 45 degrees.
    let (s, c) = (30f64.to_radians().sin(), 30f64.to_radians().cos());
    inst.world[1] = WorldTransform {
        a: 2.0 * c,
        b: -2.0 * s,
        c: 2.0 * s,
        d: 2.0 * c,
        x: 1.0,
        y: 1.0,
    };
    let (x, y, r) = point_world(&rig, &inst, SlotId(0)).expect("point");
    assert!((x - (1.0 + 2.0 * (3.0 * c - s))).abs() < 1e-12);
    assert!((y - (1.0 + 2.0 * (3.0 * s + c))).abs() < 1e-12);
    assert!((r - 45.0).abs() < 1e-5, "{r}");
    // Nothing to place for other kinds or an empty slot.
    inst.slots.attachment[0] = None;
    assert_eq!(point_world(&rig, &inst, SlotId(0)), None);
    let mut out = [7.0f32; 2];
    compute_world_vertices(&rig, &inst, SlotId(0), &mut out);
    assert_eq!(out, [7.0, 7.0]);
}

/// A deterministic stream of awkward f64 values: ordinary coordinates, tiny and huge
/// magnitudes, negative zero, and values whose products round (the lanes must round exactly
/// as the scalar loop does).
fn awkward(seed: &mut u64) -> f64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let r = (*seed >> 11) as f64 / (1u64 << 53) as f64;
    match *seed >> 60 {
        0 => -0.0,
        1 => r * 1e30,
        2 => r * 1e-30,
        3 => f64::from(f32::MAX) * (r + 0.5),
        _ => (r - 0.5) * 2000.0 + 1.0 / 3.0,
    }
}

/// The bit patterns of `v`, for comparisons where -0 and NaN payloads count.
fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|f| f.to_bits()).collect()
}

/// The unweighted kernels' cases: for source lengths 0..41, twenty awkward maps and sources
/// (f64 and the same rounded to f32) each; `f(m, src64, src32, out_len)`. `out_len` is one
/// float longer or shorter than the source at times: the kernels write whole pairs that both
/// hold.
fn affine_cases(mut seed: u64, mut f: impl FnMut([f64; 6], &[f64], &[f32], usize)) {
    for len in 0..41 {
        for _ in 0..20 {
            let m = [(); 6].map(|_| awkward(&mut seed));
            let src64: Vec<f64> = (0..len).map(|_| awkward(&mut seed)).collect();
            let src32: Vec<f32> = src64.iter().map(|&v| v as f32).collect();
            let out_len = len + (seed as usize % 3) - 1.min(len);
            f(m, &src64, &src32, out_len);
        }
    }
}

/// A fast kernel's output and finiteness flag against the plain loop's, for a source of
/// `len` floats: the same bits, and both flags saying whether the written pairs are finite
/// (what is not written stays NaN). Returns that finiteness.
fn same_and_flagged(
    (fast, fast_finite): (&[f32], bool),
    (plain, plain_finite): (&[f32], bool),
    len: usize,
    m: impl std::fmt::Debug,
) -> bool {
    let out_len = plain.len();
    assert_eq!(bits(fast), bits(plain), "len {len}, out {out_len}, m {m:?}");
    let pairs = (len.min(out_len) / 2) * 2;
    let finite = plain[..pairs].iter().all(|v| v.is_finite());
    assert_eq!((fast_finite, plain_finite), (finite, finite), "len {len}");
    finite
}

#[test]
fn affine_kernels_agree_bit_for_bit() {
    let mut non_finite_seen = false;
    affine_cases(7, |m, src64, src32, out_len| {
        let len = src64.len();
        for src in [Source::F64(src64), Source::F32(src32)] {
            let mut fast = vec![f32::NAN; out_len];
            let mut plain = vec![f32::NAN; out_len];
            let fast_finite = affine(m, src, &mut fast);
            let plain_finite = match src {
                Source::F64(v) => affine_plain(m, v, &mut plain),
                Source::F32(v) => affine_plain(m, v, &mut plain),
            };
            non_finite_seen |=
                !same_and_flagged((&fast, fast_finite), (&plain, plain_finite), len, m);
        }
    });
    assert!(non_finite_seen, "some cases overflow f32");
}

#[test]
fn fused_kernels_agree_bit_for_bit() {
    let mut non_finite_seen = false;
    affine_cases(11, |m, src64, src32, out_len| {
        let len = src64.len();
        let m32 = m.map(|v| v as f32);
        let mut plain = vec![f32::NAN; out_len];
        let plain_finite = affine_fused_plain(m32, src32.iter().copied(), &mut plain);
        for src in [Source::F64(src64), Source::F32(src32)] {
            let mut fast = vec![f32::NAN; out_len];
            let fast_finite = affine_fused(m, src, &mut fast);
            non_finite_seen |=
                !same_and_flagged((&fast, fast_finite), (&plain, plain_finite), len, m);
        }
        // Each x86 kernel on its own, whichever the dispatcher prefers here.
        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        {
            let mut fast = vec![f32::NAN; out_len];
            if crate::math::simd::detected().avx2_fma() {
                // SAFETY: the CPU has AVX2 and FMA.
                let bad = unsafe { super::super::affine_fma::map_f64(m32, src64, &mut fast) };
                assert_eq!((bits(&fast), !bad), (bits(&plain), plain_finite));
            }
        }
    });
    assert!(non_finite_seen, "some cases overflow f32");
}

#[test]
fn fused_vertices_stay_within_f32_ulps_of_the_f64_order() {
    // Ordinary magnitudes: the fused f32 result is within a few ulps (of the largest term)
    // of the f64 computation rounded once.
    let mut seed = 5u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 2.0
    };
    for _ in 0..200 {
        let m = [
            next(),
            next(),
            next(),
            next(),
            500.0 * next(),
            500.0 * next(),
        ];
        let src: Vec<f64> = (0..64).map(|_| 1000.0 * next()).collect();
        let (mut exact, mut fused) = (vec![0.0f32; 64], vec![0.0f32; 64]);
        affine(m, Source::F64(&src), &mut exact);
        affine_fused(m, Source::F64(&src), &mut fused);
        for (k, (e, f)) in exact.iter().zip(&fused).enumerate() {
            let p = &src[k & !1..(k & !1) + 2];
            let scale = (p[0].abs() + p[1].abs()) * 1.0 + m[4].abs().max(m[5].abs());
            let ulp = scale * f64::from(f32::EPSILON);
            assert!(
                f64::from((e - f).abs()) <= 4.0 * ulp,
                "{e} vs {f} (ulp {ulp})"
            );
        }
    }
}

#[test]
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
fn skin_kernels_agree_bit_for_bit() {
    if !crate::math::simd::detected().avx() {
        return; // nothing to compare: the plain loop is all this machine runs
    }
    let mut seed = 3;
    for case in 0..400 {
        let bones = 1 + case % 7;
        let world: Vec<WorldTransform> = (0..bones)
            .map(|_| {
                let [a, b, c, d, x, y] = [(); 6].map(|_| awkward(&mut seed));
                WorldTransform { a, b, c, d, x, y }
            })
            .collect();
        // Vertices of 1..=5 influences; now and then a bone index out of range, or data
        // cut short, where both loops must stop at the same place.
        let (mut ids, mut vals) = (Vec::new(), Vec::new());
        let vertices = case % 9;
        for v in 0..vertices {
            let n = 1 + (v + case) % 5;
            ids.push(n as u32);
            for k in 0..n {
                let bad = case % 37 == 5 && v == vertices - 1 && k == n - 1;
                ids.push(if bad {
                    bones as u32
                } else {
                    ((v * 3 + k) % bones) as u32
                });
                vals.extend([(); 3].map(|_| awkward(&mut seed) as f32));
            }
        }
        if case % 41 == 7 {
            vals.pop();
        }
        let deform: Vec<f64> = (0..vals.len() / 3 * 2)
            .map(|_| awkward(&mut seed))
            .collect();
        for with_deform in [false, true] {
            let mut plain = vec![f32::NAN; 2 * vertices];
            let mut fast = vec![f32::NAN; 2 * vertices];
            // SAFETY: the CPU has AVX (checked above).
            unsafe {
                if with_deform {
                    skin::<true>(&world, &ids, &vals, &deform, &mut plain);
                    super::super::skin_avx::skin::<true>(&world, &ids, &vals, &deform, &mut fast);
                } else {
                    skin::<false>(&world, &ids, &vals, &[], &mut plain);
                    super::super::skin_avx::skin::<false>(&world, &ids, &vals, &[], &mut fast);
                }
            }
            assert_eq!(
                bits(&fast),
                bits(&plain),
                "case {case}, deform {with_deform}"
            );
        }
    }
}
