//! The standalone cage solver across threads (bound on one thread, deformed on another,
//! the same bits as on one thread) and the bind methods: mean value always; harmonic and
//! biharmonic with the `harmonic` feature (`cargo test -p sinew-capi --features harmonic
//! --test all cage::`), `SINEW_STATUS_UNSUPPORTED` without it.

use crate::common;

use common::last_error;
use sinew_capi::*;
use std::ptr::null_mut;

/// An L-shaped cage (concave, counter-clockwise).
const L: [f32; 12] = [0., 0., 10., 0., 10., 4., 4., 4., 4., 10., 0., 10.];
/// Points inside it, some in the concave corner's reach.
const POINTS: [f32; 10] = [1., 1., 8., 2., 2., 8., 3., 3., 5., 1.5];

fn new_cage() -> *mut SinewCage {
    let mut c = null_mut();
    assert_eq!(sinew_cage_create(&mut c), SinewStatus::Ok);
    c
}

fn bind(c: *mut SinewCage, sparse_k: u32) -> SinewStatus {
    let sizes = [6u32];
    sinew_cage_bind_polygons(
        c,
        L.as_ptr(),
        sizes.as_ptr(),
        1,
        POINTS.as_ptr(),
        5,
        sparse_k,
    )
}

fn deform(c: *const SinewCage, cage_xy: &[f32]) -> Vec<f32> {
    let mut out = vec![0f32; POINTS.len()];
    let mut len = 0;
    assert_eq!(
        sinew_cage_deform(
            c,
            cage_xy.as_ptr(),
            cage_xy.len(),
            out.as_mut_ptr(),
            out.len(),
            &mut len
        ),
        SinewStatus::Ok,
        "{}",
        last_error()
    );
    assert_eq!(len, POINTS.len());
    out
}

/// The cage turned by `deg` degrees, scaled by 1.5 and moved (an affine map).
fn affine(deg: f32) -> (Vec<f32>, impl Fn(f32, f32) -> (f32, f32)) {
    let (s, c) = deg.to_radians().sin_cos();
    let f = move |x: f32, y: f32| (1.5 * (c * x - s * y) + 3.0, 1.5 * (s * x + c * y) - 2.0);
    let moved = L
        .chunks(2)
        .flat_map(|p| <[f32; 2]>::from(f(p[0], p[1])))
        .collect();
    (moved, f)
}

/// A bend: the top of the L's arm moves right, the rest stays (not affine).
fn bent() -> Vec<f32> {
    let mut m = L.to_vec();
    m[8] += 3.0;
    m[10] += 3.0;
    m
}

#[test]
fn a_cage_bound_on_one_thread_deforms_on_another() {
    // Handles are plain addresses to the host; send them as such.
    let cage = std::thread::spawn(|| {
        let c = new_cage();
        assert_eq!(bind(c, 0), SinewStatus::Ok);
        c as usize
    })
    .join()
    .expect("bind thread") as *mut SinewCage;
    let moved = bent();
    let here = deform(cage, &moved);
    let there = {
        let (addr, m) = (cage as usize, moved.clone());
        std::thread::spawn(move || deform(addr as *const SinewCage, &m))
            .join()
            .expect("deform thread")
    };
    assert!(
        here.iter()
            .zip(&there)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "{here:?} != {there:?}"
    );
    // Four threads deform the one cage at once (calls are serialised): same bits each time.
    let addr = cage as usize;
    let all: Vec<Vec<f32>> = (0..4)
        .map(|_| {
            let m = moved.clone();
            std::thread::spawn(move || {
                let mut last = Vec::new();
                for _ in 0..50 {
                    last = deform(addr as *const SinewCage, &m);
                }
                last
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().expect("deform thread"))
        .collect();
    for a in &all {
        assert!(a.iter().zip(&here).all(|(x, y)| x.to_bits() == y.to_bits()));
    }
    // Destroyed on a third thread; dead everywhere afterwards.
    std::thread::spawn(move || {
        assert_eq!(sinew_cage_destroy(addr as *mut SinewCage), SinewStatus::Ok)
    })
    .join()
    .expect("destroy thread");
    let mut out = [0f32; 10];
    let mut len = 0;
    assert_eq!(
        sinew_cage_deform(
            cage,
            moved.as_ptr(),
            moved.len(),
            out.as_mut_ptr(),
            10,
            &mut len
        ),
        SinewStatus::InvalidHandle
    );
}

#[test]
fn method_values_are_checked() {
    let c = new_cage();
    assert_eq!(sinew_cage_set_method(c, 3), SinewStatus::InvalidArgument);
    assert!(
        last_error().contains("not a SinewCageMethod"),
        "{}",
        last_error()
    );
    assert_eq!(
        sinew_cage_set_method(null_mut(), SinewCageMethod::MeanValue as u32),
        SinewStatus::InvalidHandle
    );
    assert_eq!(
        sinew_cage_set_method(c, SinewCageMethod::MeanValue as u32),
        SinewStatus::Ok
    );
    assert_eq!(bind(c, 0), SinewStatus::Ok);
    let (moved, f) = affine(30.0);
    for (got, p) in deform(c, &moved).chunks(2).zip(POINTS.chunks(2)) {
        let want = f(p[0], p[1]);
        assert!((got[0] - want.0).abs() < 1e-3 && (got[1] - want.1).abs() < 1e-3);
    }
    assert_eq!(sinew_cage_destroy(c), SinewStatus::Ok);
}

#[cfg(not(feature = "harmonic"))]
#[test]
fn harmonic_methods_are_unsupported_without_the_feature() {
    let c = new_cage();
    for m in [SinewCageMethod::Harmonic, SinewCageMethod::Biharmonic] {
        assert_eq!(sinew_cage_set_method(c, m as u32), SinewStatus::Unsupported);
        assert!(
            last_error().contains("`harmonic` cargo feature"),
            "{}",
            last_error()
        );
    }
    // The handle kept mean value coordinates: a grid bind (mean value only) still works.
    assert_eq!(sinew_cage_set_sparse_error(c, 0.01, 1.0), SinewStatus::Ok);
    assert_eq!(
        bind(c, SINEW_GRID_BY_ERROR),
        SinewStatus::Ok,
        "{}",
        last_error()
    );
    assert_eq!(sinew_cage_destroy(c), SinewStatus::Ok);
}

#[cfg(feature = "harmonic")]
#[test]
fn harmonic_and_biharmonic_binds_through_the_abi() {
    let mvc = new_cage();
    assert_eq!(bind(mvc, 0), SinewStatus::Ok);
    let bend = bent();
    let mvc_bent = deform(mvc, &bend);
    // (method, affine tolerance): harmonic coordinates reproduce affine maps up to the
    // discretisation; the biharmonic weights are made affine-exact.
    for (m, tol) in [
        (SinewCageMethod::Harmonic, 2e-2),
        (SinewCageMethod::Biharmonic, 1e-3),
    ] {
        let c = new_cage();
        assert_eq!(sinew_cage_set_method(c, m as u32), SinewStatus::Ok);
        assert_eq!(bind(c, 0), SinewStatus::Ok, "{m:?}: {}", last_error());
        let mut rest = [0f32; 12];
        let mut len = 0;
        assert_eq!(
            sinew_cage_rest(c, rest.as_mut_ptr(), 12, &mut len),
            SinewStatus::Ok
        );
        for (got, want) in deform(c, &rest).iter().zip(&POINTS) {
            assert!((got - want).abs() < tol, "{m:?} rest: {got} vs {want}");
        }
        let (moved, f) = affine(-20.0);
        for (got, p) in deform(c, &moved).chunks(2).zip(POINTS.chunks(2)) {
            let want = f(p[0], p[1]);
            assert!(
                (got[0] - want.0).abs() < tol * 1.5 && (got[1] - want.1).abs() < tol * 1.5,
                "{m:?} affine: {got:?} vs {want:?}"
            );
        }
        // Not mean value coordinates: a bend moves the points differently.
        let d = deform(c, &bend);
        let diff = d
            .iter()
            .zip(&mvc_bent)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(diff > 1e-3, "{m:?} deforms like mean value coordinates");
        // Sparse weights apply to them; grid weights are mean value only.
        assert_eq!(bind(c, 4), SinewStatus::Ok, "{m:?}: {}", last_error());
        let mut info = SinewCageInfo::default();
        assert_eq!(sinew_cage_info(c, &mut info), SinewStatus::Ok);
        assert_eq!((info.sparse_k, info.points, info.cage_vertices), (4, 5, 6));
        assert_eq!(sinew_cage_set_sparse_error(c, 0.01, 1.0), SinewStatus::Ok);
        assert_eq!(bind(c, SINEW_GRID_BY_ERROR), SinewStatus::InvalidArgument);
        assert!(last_error().contains("mean value"), "{}", last_error());
        assert_eq!(sinew_cage_destroy(c), SinewStatus::Ok);
    }
    assert_eq!(sinew_cage_destroy(mvc), SinewStatus::Ok);
}
