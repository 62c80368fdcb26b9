//! Cage deformation benchmarks: MVC bind cost per (point, cage vertex), dense and sparse
//! deform cost per vertex, batched instances, and the memory-bandwidth bound beside them.
//! Group `cage_sparse` (issue 16 item 5) times dense against tolerance-chosen sparse weights
//! on a 10k-vertex mesh in a 64-vertex cage, in the same run; the summary prints each
//! tolerance's kept counts, its error bound and the measured error against dense.
//!
//! `cargo bench -p sinew --features bench --bench cage` runs the criterion groups, then prints
//! a summary table (best of several timed runs with `Instant`) that compares each deform with the
//! time its bytes take to stream at the read bandwidth measured here for the same working
//! set (and for a 256 MiB buffer, i.e. DRAM). `-- --summary` prints only the summary.

use criterion::{BenchmarkId, Criterion, Throughput, black_box};
use sinew::cage::{
    Cage, CageBinding, DeformJob, GridBinding, GridOptions, SparseBinding, SparseOptions, bind_mvc,
    deform_batch, deform_instances,
};
use std::time::Instant;

/// A smooth star-shaped cage of `n` vertices (radius 1 +- 0.25).
fn blob(n: usize) -> Cage {
    let pts: Vec<[f64; 2]> = (0..n)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            let r = 1.0 + 0.25 * (3.0 * a).sin();
            [r * a.cos(), r * a.sin()]
        })
        .collect();
    Cage::from_loops(&[pts]).expect("valid cage")
}

/// `m` points spread over the cage's interior (a sunflower spiral of radius 0.7).
fn mesh(m: usize) -> Vec<[f64; 2]> {
    (0..m)
        .map(|k| {
            let r = 0.7 * ((k as f64 + 0.5) / m as f64).sqrt();
            let a = k as f64 * 2.399_963_229_728_653;
            [r * a.cos(), r * a.sin()]
        })
        .collect()
}

/// The cage rotated by 0.3 rad and stretched: a deformed cage (x, y pairs, f32).
fn moved(c: &Cage, phase: f64) -> Vec<f32> {
    let (s, co) = (0.3f64 + phase).sin_cos();
    c.points()
        .iter()
        .enumerate()
        .flat_map(|(k, p)| {
            let wob = 0.05 * (k as f64 * 1.7 + phase).sin();
            [
                (1.2 * (co * p[0] - s * p[1]) + wob) as f32,
                (s * p[0] + co * p[1]) as f32,
            ]
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("cage_bind");
    g.sample_size(10);
    for (n, m) in [(32, 10_000), (64, 10_000)] {
        let cage = blob(n);
        let pts = mesh(m);
        g.throughput(Throughput::Elements((n * m) as u64));
        g.bench_function(BenchmarkId::from_parameter(format!("{n}x{m}")), |b| {
            b.iter(|| bind_mvc(black_box(&cage), black_box(&pts)).expect("bind"))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("cage_deform");
    for (n, m) in [(32, 10_000), (64, 10_000), (32, 200_000)] {
        let cage = blob(n);
        let binding = bind_mvc(&cage, &mesh(m)).expect("bind");
        let mc = moved(&cage, 0.0);
        let mut out = vec![0.0f32; 2 * m];
        g.throughput(Throughput::Elements(m as u64));
        g.bench_function(BenchmarkId::new("dense", format!("{n}x{m}")), |b| {
            b.iter(|| binding.deform(black_box(&mc), &mut out).expect("sizes"))
        });
        if m == 10_000 {
            for k in [4, 8] {
                let (sb, _) = SparseBinding::from_dense(&cage, &mesh(m), &binding, k).expect("k");
                g.bench_function(
                    BenchmarkId::new(format!("sparse_k{k}"), format!("{n}x{m}")),
                    |b| b.iter(|| sb.deform(black_box(&mc), &mut out).expect("sizes")),
                );
            }
        }
    }
    g.finish();

    let mut g = c.benchmark_group("cage_sparse");
    let (n, m) = (64, 10_000);
    let cage = blob(n);
    let pts = mesh(m);
    let binding = bind_mvc(&cage, &pts).expect("bind");
    let mc = moved(&cage, 0.0);
    let mut out = vec![0.0f32; 2 * m];
    g.throughput(Throughput::Elements(m as u64));
    g.bench_function(BenchmarkId::new("dense", format!("{n}x{m}")), |b| {
        b.iter(|| binding.deform(black_box(&mc), &mut out).expect("sizes"))
    });
    for tol in sparse_tolerances(&cage, true) {
        let opts = SparseOptions::new(tol);
        let (sb, _) =
            SparseBinding::from_dense_tolerance(&cage, &pts, &binding, &opts).expect("tol");
        g.bench_function(
            BenchmarkId::new(format!("sparse_tol{tol:.3}"), format!("{n}x{m}")),
            |b| b.iter(|| sb.deform(black_box(&mc), &mut out).expect("sizes")),
        );
    }
    for tol in sparse_tolerances(&cage, true) {
        let (gb, _) = GridBinding::bind(&cage, &pts, &GridOptions::new(tol)).expect("grid");
        let mut nodes = vec![0.0f32; gb.scratch_len()];
        g.bench_function(
            BenchmarkId::new(format!("grid_tol{tol:.3}"), format!("{n}x{m}")),
            |b| {
                b.iter(|| {
                    gb.deform(black_box(&mc), &mut nodes, &mut out)
                        .expect("sizes")
                })
            },
        );
    }
    g.finish();

    let mut g = c.benchmark_group("cage_batch");
    let cage = blob(32);
    let binding = bind_mvc(&cage, &mesh(10_000)).expect("bind");
    for r in [16usize, 64] {
        let cages: Vec<f32> = (0..r).flat_map(|i| moved(&cage, i as f64 * 0.01)).collect();
        let mut outs = vec![0.0f32; r * 20_000];
        g.throughput(Throughput::Elements((r * 10_000) as u64));
        g.bench_function(
            BenchmarkId::new("instances", format!("32x10000x{r}")),
            |b| b.iter(|| deform_instances(&binding, black_box(&cages), &mut outs).expect("sizes")),
        );
        g.bench_function(BenchmarkId::new("jobs", format!("32x10000x{r}")), |b| {
            b.iter(|| {
                let mut jobs: Vec<DeformJob<'_>> = cages
                    .chunks_exact(64)
                    .zip(outs.chunks_exact_mut(20_000))
                    .map(|(cage, out)| DeformJob {
                        binding: &binding,
                        cage,
                        out,
                    })
                    .collect();
                deform_batch(&mut jobs).expect("sizes")
            })
        });
    }
    g.finish();
}

/// L1 tolerances (error bound per unit of non-affine motion) of the `cage_sparse` group
/// (`timed`) or its summary: first the one the tests use, 1e-2 units of error at a
/// non-affine motion of 10 % of the cage diameter, then looser ones.
fn sparse_tolerances(cage: &Cage, timed: bool) -> Vec<f64> {
    let rule = SparseOptions::for_error(1e-2, 0.1 * cage.diameter()).tolerance;
    let looser: &[f64] = if timed {
        &[0.4, 1.6]
    } else {
        &[0.1, 0.2, 0.4, 0.8, 1.6]
    };
    std::iter::once(rule)
        .chain(looser.iter().copied())
        .collect()
}

/// The summaries' case: 10k points in the 64-vertex blob, its dense binding, the bench's
/// motion and the dense deformation under it (bound once for both summaries).
struct Case {
    n: usize,
    m: usize,
    cage: Cage,
    pts: Vec<[f64; 2]>,
    binding: CageBinding,
    mc: Vec<f32>,
    dense_out: Vec<f32>,
}

impl Case {
    fn new() -> Case {
        let (n, m) = (64, 10_000);
        let cage = blob(n);
        let pts = mesh(m);
        let binding = bind_mvc(&cage, &pts).expect("bind");
        let mc = moved(&cage, 0.0);
        let mut dense_out = vec![0.0f32; 2 * m];
        binding.deform(&mc, &mut dense_out).expect("sizes");
        Case {
            n,
            m,
            cage,
            pts,
            binding,
            mc,
            dense_out,
        }
    }
}

/// Largest distance between corresponding points of two x, y buffers.
fn max_distance(a: &[f32], b: &[f32]) -> f32 {
    a.chunks_exact(2)
        .zip(b.chunks_exact(2))
        .map(|(p, q)| (p[0] - q[0]).hypot(p[1] - q[1]))
        .fold(0.0f32, f32::max)
}

/// The sparse summary: per tolerance, kept counts, bound and the error against dense for
/// the bench's motion (rotation, stretch and a 0.05-unit per-vertex wobble, so the bound
/// is 0.05 x max L1).
fn sparse_summary(case: &Case) {
    let Case {
        n,
        m,
        cage,
        pts,
        binding,
        mc,
        dense_out,
    } = case;
    let (n, m) = (*n, *m);
    println!(
        "cage_sparse n={n} m={m} (cage diameter {:.2}); dense and sparse timed alternately, \
         best of 201 each:",
        cage.diameter()
    );
    let mut out = vec![0.0f32; 2 * m];
    for tol in sparse_tolerances(cage, false) {
        let opts = SparseOptions::new(tol);
        let (sb, rep) =
            SparseBinding::from_dense_tolerance(cage, pts, binding, &opts).expect("tol");
        let mut scratch = vec![0.0f32; 2 * m];
        let (td, t) = best_pair(
            201,
            || binding.deform(black_box(mc), &mut scratch).expect("sizes"),
            || sb.deform(black_box(mc), &mut out).expect("sizes"),
        );
        let err = max_distance(&out, dense_out);
        println!(
            "  sparse tol {tol:.3}: kept mean {:5.1} min {:2} max {:2} of {n} (kernel slots {:.2}x); max L1 {:.3}; \
             dense {:5.2}, sparse {:5.2} ns/vertex: {:.2}x; error vs dense {:.2e} (wobble 0.05)",
            rep.mean_kept,
            rep.min_kept,
            rep.max_kept,
            sb.kernel_slots() as f64 / sb.weight_count() as f64,
            rep.max_l1,
            td * 1e9 / m as f64,
            t * 1e9 / m as f64,
            td / t,
            err
        );
    }
}

/// The grid summary: per tolerance, the nodes kept, the points kept exact, the bound and
/// the error against dense for the bench's motion, timed alternately with dense.
fn grid_summary(case: &Case) {
    let Case {
        n,
        m,
        cage,
        pts,
        binding,
        mc,
        dense_out,
    } = case;
    let (n, m) = (*n, *m);
    println!("cage_grid n={n} m={m}; dense and grid timed alternately, best of 201 each:");
    let mut out = vec![0.0f32; 2 * m];
    for tol in sparse_tolerances(cage, false) {
        let t0 = Instant::now();
        let (gb, rep) = GridBinding::bind(cage, pts, &GridOptions::new(tol)).expect("grid");
        let bind_ms = t0.elapsed().as_secs_f64() * 1e3;
        let mut nodes = vec![0.0f32; gb.scratch_len()];
        let mut scratch = vec![0.0f32; 2 * m];
        let (td, t) = best_pair(
            201,
            || binding.deform(black_box(mc), &mut scratch).expect("sizes"),
            || {
                gb.deform(black_box(mc), &mut nodes, &mut out)
                    .expect("sizes")
            },
        );
        let err = max_distance(&out, dense_out);
        println!(
            "  grid tol {tol:.3}: bind {bind_ms:.0} ms (one core); {} grid nodes + {} exact points (levels {:?}); max L1 {:.3}; \
             weights {:.0} KB vs dense {:.0} KB; dense {:5.2}, grid {:5.2} ns/vertex: {:.2}x; \
             error vs dense {:.2e} (wobble 0.05)",
            rep.grid_nodes,
            rep.exact_points,
            rep.per_level,
            rep.max_l1,
            gb.weight_bytes() as f64 / 1024.0,
            binding.weight_bytes() as f64 / 1024.0,
            td * 1e9 / m as f64,
            t * 1e9 / m as f64,
            td / t,
            err
        );
    }
}

/// Best times of `runs` calls each of `f` and `g`, called alternately (so both see the
/// same machine load), seconds.
fn best_pair(runs: usize, mut f: impl FnMut(), mut g: impl FnMut()) -> (f64, f64) {
    f();
    g();
    let time = |h: &mut dyn FnMut()| {
        let t = Instant::now();
        h();
        t.elapsed().as_secs_f64()
    };
    (0..runs).fold((f64::INFINITY, f64::INFINITY), |(bf, bg), _| {
        (bf.min(time(&mut f)), bg.min(time(&mut g)))
    })
}

/// Best time of `runs` calls of `f`, seconds.
fn best(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Read bandwidth (bytes/s) over a buffer of `bytes`: a 16-lane f32 sum the compiler
/// vectorises, the same access pattern as the deform kernel's weight stream. Best of many
/// short passes (about 1 ms or one pass), so a contended machine still shows its peak.
fn read_bandwidth(bytes: usize, runs: usize) -> f64 {
    let data: Vec<f32> = (0..bytes / 4).map(|k| (k % 7) as f32).collect();
    let reps = ((8 << 20) / bytes.max(1)).max(1);
    let t = best(runs, || {
        for _ in 0..reps {
            let mut acc = [0.0f32; 16];
            for c in black_box(&data).chunks_exact(16) {
                for l in 0..16 {
                    acc[l] += c[l];
                }
            }
            black_box(acc);
        }
    });
    (bytes * reps) as f64 / t
}

fn summary() {
    println!("\n## summary (best of many runs; ns per unit; bound = bytes / read bandwidth)");
    let case = Case::new();
    sparse_summary(&case);
    grid_summary(&case);
    let dram = read_bandwidth(256 << 20, 9);
    println!(
        "read bandwidth, 256 MiB buffer (DRAM): {:.1} GB/s",
        dram / 1e9
    );
    for (n, m) in [
        (32usize, 10_000usize),
        (64, 10_000),
        (32, 200_000),
        (32, 1_000_000),
    ] {
        let cage = blob(n);
        let pts = mesh(m);
        let mut binding = CageBinding::zeroed(0, 0);
        let bind_s = best(if m > 200_000 { 1 } else { 5 }, || {
            binding = bind_mvc(&cage, &pts).expect("bind");
        });
        let mc = moved(&cage, 0.0);
        let mut out = vec![0.0f32; 2 * m];
        let runs = if m > 200_000 { 15 } else { 201 };
        let t = best(runs, || {
            binding.deform(black_box(&mc), &mut out).expect("sizes")
        });
        let bytes = binding.weight_bytes() + 8 * m + 8 * n;
        let bw = read_bandwidth(binding.weight_bytes(), runs);
        let bound = bytes as f64 / bw;
        let bound_dram = bytes as f64 / dram;
        println!(
            "dense n={n:>3} m={m:>8}: bind {:6.2} ns/(point x vertex) (all cores); deform {:6.2} ns/vertex; \
             {:.0} B/vertex; bound at {:.1} GB/s (same working set) {:5.2} ns/vertex -> ratio {:.2}; \
             DRAM bound {:5.2} ns/vertex -> ratio {:.2}",
            bind_s * 1e9 / (n * m) as f64,
            t * 1e9 / m as f64,
            bytes as f64 / m as f64,
            bw / 1e9,
            bound * 1e9 / m as f64,
            t / bound,
            bound_dram * 1e9 / m as f64,
            t / bound_dram,
        );
        if m == 10_000 && n == 32 {
            for k in [4usize, 8, 16] {
                let (sb, rep) = SparseBinding::from_dense(&cage, &pts, &binding, k).expect("k");
                let mut scratch = vec![0.0f32; 2 * m];
                let (td, t) = best_pair(
                    201,
                    || binding.deform(black_box(&mc), &mut scratch).expect("sizes"),
                    || sb.deform(black_box(&mc), &mut out).expect("sizes"),
                );
                println!(
                    "sparse K={k:>2} n={n} m={m}: deform {:5.2} ns/vertex (dense alternately {:5.2}; \
                     {} B/vertex); truncation max_abs {:.3} mean_l1 {:.3} rest_error {:.1e}",
                    t * 1e9 / m as f64,
                    td * 1e9 / m as f64,
                    sb.weight_bytes() / m + 8,
                    rep.max_abs,
                    rep.mean_l1,
                    rep.rest_error
                );
            }
            let r = 64;
            let cages: Vec<f32> = (0..r).flat_map(|i| moved(&cage, i as f64 * 0.01)).collect();
            let mut outs = vec![0.0f32; r * 2 * m];
            let t = best(31, || {
                deform_instances(&binding, &cages, &mut outs).expect("sizes")
            });
            println!(
                "instances x{r} n={n} m={m}: {:5.2} ns/vertex (weights read once per block for all instances)",
                t * 1e9 / (r * m) as f64
            );
        }
    }
}

fn main() {
    let only_summary = std::env::args().any(|a| a == "--summary");
    if !only_summary {
        let mut c = Criterion::default().configure_from_args();
        benches(&mut c);
        c.final_summary();
    }
    summary();
}
