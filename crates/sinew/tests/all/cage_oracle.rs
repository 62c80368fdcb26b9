//! MVC against the numpy oracle (`oracle/mvc/mvc_oracle.py`): its four fixtures (read in
//! place from `../shared/oracle/mvc/fixtures/`; skipped with a notice when absent, an error
//! under `CI=true`) and the random cages of `testdata/cage/gen_random.py`
//! (stars, combs, holes, tiny and huge scales; points inside, outside, on vertices, on
//! edges, collinear with edges and 1e-9 of the size off them). Each file states its f64
//! and f32 tolerances; f64 coordinates and the stored f32 binding are both checked, and
//! tolerance-chosen sparse weights deform within 1e-2 units of the dense ones
//! (`cage_motion`: non-affine motion up to 10 % of each cage's diameter).

use crate::cage_motion;

use sinew::cage::{Cage, bind_mvc, mvc_coordinates};
use std::path::{Path, PathBuf};

struct Case {
    name: String,
    loops: Vec<Vec<[f64; 2]>>,
    points: Vec<[f64; 2]>,
    weights: Vec<Vec<f64>>,
    tol64: f64,
    tol32: f64,
}

fn pairs(v: &serde_json::Value) -> Vec<[f64; 2]> {
    v.as_array()
        .expect("array of points")
        .iter()
        .map(|p| {
            let a = p.as_array().expect("[x, y]");
            [a[0].as_f64().expect("x"), a[1].as_f64().expect("y")]
        })
        .collect()
}

fn load(path: &Path) -> Case {
    let text = std::fs::read_to_string(path).expect("readable fixture");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    Case {
        name: path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned(),
        loops: doc["loops"]
            .as_array()
            .expect("loops")
            .iter()
            .map(pairs)
            .collect(),
        points: pairs(&doc["points"]),
        weights: doc["weights"]
            .as_array()
            .expect("weights")
            .iter()
            .map(|r| {
                r.as_array()
                    .expect("row")
                    .iter()
                    .map(|w| w.as_f64().expect("w"))
                    .collect()
            })
            .collect(),
        tol64: doc["tolerance_f64"].as_f64().expect("tolerance_f64"),
        tol32: doc["tolerance_f32"].as_f64().expect("tolerance_f32"),
    }
}

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/cage");
    let mut files = Vec::new();
    let shared = sinew_testutil::require_oracle("cage_oracle", "mvc/fixtures");
    let expected = if shared.is_some() { 15 } else { 11 };
    for sub in shared.into_iter().chain([dir]) {
        for e in std::fs::read_dir(&sub).expect("fixture folder readable") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(
        files.len() >= expected,
        "expected the 4 oracle and 11 random fixtures, found {}",
        files.len()
    );
    files
}

#[test]
fn f64_coordinates_match_the_oracle() {
    for path in fixtures() {
        let c = load(&path);
        let cage = Cage::from_loops(&c.loops).expect("valid cage");
        let mut row = vec![0.0; cage.vertex_count()];
        let mut worst = 0.0f64;
        for (i, (p, want)) in c.points.iter().zip(&c.weights).enumerate() {
            mvc_coordinates(&cage, *p, i, &mut row).expect("defined");
            for (j, (g, w)) in row.iter().zip(want).enumerate() {
                let d = (g - w).abs();
                worst = worst.max(d);
                assert!(
                    d <= c.tol64,
                    "{} point {i} weight {j}: got {g}, oracle {w}",
                    c.name
                );
            }
        }
        println!(
            "{}: {} points, max |diff| {worst:.2e}",
            c.name,
            c.points.len()
        );
    }
}

#[test]
fn f32_binding_matches_the_oracle() {
    for path in fixtures() {
        let c = load(&path);
        let cage = Cage::from_loops(&c.loops).expect("valid cage");
        let b = bind_mvc(&cage, &c.points).expect("bindable");
        for (i, want) in c.weights.iter().enumerate() {
            for (j, w) in want.iter().enumerate() {
                let g = f64::from(b.weight(i, j));
                // f32 storage: relative to the weight's size for the large exterior weights.
                let tol = c.tol32 * w.abs().max(1.0);
                assert!(
                    (g - w).abs() <= tol,
                    "{} point {i} weight {j}: f32 {g}, oracle {w}",
                    c.name
                );
            }
        }
    }
}

#[test]
fn sparse_weights_deform_within_1e2_of_dense_on_the_fixtures() {
    let mut rng = cage_motion::Rng(0x5EED_0016_0006);
    for path in fixtures() {
        let c = load(&path);
        let cage = Cage::from_loops(&c.loops).expect("valid cage");
        let dense = bind_mvc(&cage, &c.points).expect("bindable");
        let out = cage_motion::compare(&c.name, &cage, &c.points, &dense, &mut rng);
        println!(
            "{}: {} points, {} cage vertices (diameter {:.3}): worst |sparse - dense| {:.3e} \
             units (f32 allowance {:.1e}); kept mean {:.1} min {} max {}; max L1 {:.4}",
            c.name,
            out.points,
            cage.vertex_count(),
            cage.diameter(),
            out.worst,
            out.slack,
            out.report.mean_kept,
            out.report.min_kept,
            out.report.max_kept,
            out.report.max_l1
        );
        assert!(out.worst <= cage_motion::MAX_ERROR.max(out.slack));
    }
}

#[test]
fn grid_weights_deform_within_1e2_of_dense_on_the_fixtures() {
    let mut rng = cage_motion::Rng(0x5EED_0016_0007);
    for path in fixtures() {
        let c = load(&path);
        let cage = Cage::from_loops(&c.loops).expect("valid cage");
        let dense = bind_mvc(&cage, &c.points).expect("bindable");
        let out = cage_motion::compare_grid(&c.name, &cage, &c.points, &dense, &mut rng);
        println!(
            "{}: {} points, {} cage vertices (diameter {:.3}): worst |grid - dense| {:.3e} \
             units (f32 allowance {:.1e}); {} nodes ({} grid, {} exact points); max L1 {:.4}",
            c.name,
            c.points.len(),
            cage.vertex_count(),
            cage.diameter(),
            out.worst,
            out.slack,
            out.nodes,
            out.report.grid_nodes,
            out.report.exact_points,
            out.report.max_l1
        );
        assert!(out.worst <= cage_motion::MAX_ERROR.max(out.slack));
        // The fixture's few points mostly keep their rows; 1,500 points inside its cage
        // put the interpolation itself to the test on the same cage.
        let pts = interior_points(&cage, 1500, &mut rng);
        let dense = bind_mvc(&cage, &pts).expect("bindable");
        let out = cage_motion::compare_grid(&c.name, &cage, &pts, &dense, &mut rng);
        println!(
            "  {} with 1,500 points inside: worst |grid - dense| {:.3e} units; {} nodes ({} \
             exact points)",
            c.name, out.worst, out.nodes, out.report.exact_points
        );
        assert!(out.worst <= cage_motion::MAX_ERROR.max(out.slack));
    }
}

/// `m` points inside `cage` (winding number 1: not in a hole), uniform over its bounding box.
fn interior_points(cage: &Cage, m: usize, rng: &mut cage_motion::Rng) -> Vec<[f64; 2]> {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in cage.points() {
        for a in 0..2 {
            lo[a] = lo[a].min(p[a]);
            hi[a] = hi[a].max(p[a]);
        }
    }
    let mut pts = Vec::with_capacity(m);
    while pts.len() < m {
        let p = [rng.uniform(lo[0], hi[0]), rng.uniform(lo[1], hi[1])];
        if cage.winding_number(p) == 1 {
            pts.push(p);
        }
    }
    pts
}
