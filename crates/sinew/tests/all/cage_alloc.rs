//! Deforming with cage weights allocates nothing: dense, tolerance-sparse and
//! grid-interpolated bindings of one mesh, and a cage deformer with grid weights, each run
//! over many frames of a moving cage, counted by `sinew_testutil::alloc`.

use sinew::cage::{Cage, GridBinding, GridOptions, SparseBinding, SparseOptions, bind_mvc};
use sinew::deform::cage_stage::{CageDeformer, CageMode, CageSource, CageWeights, apply_cage};
use sinew_testutil::alloc::count_allocations;

#[test]
fn cage_deforms_allocate_nothing() {
    let ring: Vec<[f64; 2]> = (0..24)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / 24.0;
            [10.0 * a.cos(), 10.0 * a.sin()]
        })
        .collect();
    let cage = Cage::from_loops(&[ring]).expect("valid");
    let pts: Vec<[f64; 2]> = (0..2000)
        .map(|k| {
            let r = 7.0 * ((k as f64 + 0.5) / 2000.0).sqrt();
            let a = k as f64 * 2.4;
            [r * a.cos(), r * a.sin()]
        })
        .collect();
    let dense = bind_mvc(&cage, &pts).expect("bind");
    let (sparse, _) =
        SparseBinding::from_dense_tolerance(&cage, &pts, &dense, &SparseOptions::new(0.05))
            .expect("sparse");
    let (grid, rep) = GridBinding::bind(&cage, &pts, &GridOptions::new(0.05)).expect("grid");
    assert!(
        rep.grid_nodes > 0 && grid.node_count() < pts.len(),
        "{rep:?}"
    );
    let mut def = CageDeformer::with_weights(
        CageWeights::Grid(grid.clone()),
        &cage,
        (0..pts.len() as u32).collect(),
        CageSource::External,
        CageMode::Offset,
    )
    .expect("deformer");
    let rest: Vec<f32> = cage
        .points()
        .iter()
        .flat_map(|p| [p[0] as f32, p[1] as f32])
        .collect();
    let mut moved = rest.clone();
    let mut out = vec![0.0f32; 2 * pts.len()];
    let mut nodes = vec![0.0f32; grid.scratch_len()];
    let mut vertices: Vec<f32> = pts
        .iter()
        .flat_map(|p| [p[0] as f32, p[1] as f32])
        .collect();
    let frame = |f: usize, moved: &mut Vec<f32>| {
        for (k, v) in moved.iter_mut().enumerate() {
            *v = rest[k] + 0.3 * ((f as f32) * 0.1 + k as f32).sin();
        }
    };
    let mut run = |f: usize| {
        frame(f, &mut moved);
        dense.deform(&moved, &mut out).expect("sizes");
        sparse.deform(&moved, &mut out).expect("sizes");
        grid.deform(&moved, &mut nodes, &mut out).expect("sizes");
        def.cage_mut().copy_from_slice(&moved);
        apply_cage(&mut def, &[], &mut vertices).expect("sizes");
    };
    run(0);
    let allocs = count_allocations(|| (1..200).for_each(&mut run));
    assert_eq!(
        allocs, 0,
        "cage deforms allocated {allocs} times in 199 frames"
    );
    assert!(vertices.iter().all(|v| v.is_finite()));
}
