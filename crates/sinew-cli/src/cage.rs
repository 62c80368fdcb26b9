//! `sinew cage`: cage coordinates from the command line.
//!
//! - `sinew cage weights INPUT.json`: INPUT holds `{"loops": [[[x, y], ...], ...],
//!   "points": [[x, y], ...]}` (outer loop counter-clockwise, holes clockwise); prints
//!   `{"weights": [[...], ...]}`, one row per point, columns in the concatenated loop
//!   order, in f64: the format of the oracle's `oracle/mvc/fixtures/*.json`.
//! - `sinew cage bind MESH.json --out W.bin`: MESH holds `{"vertices": [[x, y], ...]}` and
//!   one of `"loops"` (explicit cage), `"control"` (loops of vertex indices) or
//!   `"triangles"` (`[[a, b, c], ...]`, the cage is the mesh boundary); binds every vertex
//!   (MVC, or `--harmonic` or `--biharmonic`; `--sparse-tol T` keeps per vertex the fewest
//!   weights whose L1 change is at most T, so the deformation stays within T x the cage's
//!   non-affine motion of dense; `--sparse K` keeps K, with no bound; `--grid-tol T`
//!   interpolates each vertex from four grid nodes with the same bound), writes the binary
//!   weights and prints a JSON summary (with the cage, and the truncation report if sparse).
//!   Large binds show a progress bar (indicatif) on a terminal's stderr.
//! - `sinew cage deform W.bin CAGE.json`: CAGE holds `{"cage": [[x, y], ...]}` (deformed cage
//!   vertices); prints `{"vertices": [[x, y], ...]}`.
//!
//! Verified by the unit tests below and `tests/all/cage_cli.rs` (the oracle's fixtures through
//! the binary, bind/deform round trips, bad input failing with one clear line).

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use serde_json::Value;
use sinew::cage::format::{MAX_WEIGHT, decode, encode_dense, encode_grid, encode_sparse};
use sinew::cage::{
    Cage, CageBinding, GridBinding, GridOptions, SparseBinding, SparseOptions,
    bind_mvc_with_progress, mvc_coordinates,
};
use sinew_formats::budget::Budgets;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// `sinew cage` options.
#[derive(Debug, Clone, Args)]
pub struct CageArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: CageCommand,
}

/// `sinew cage` subcommands.
#[derive(Debug, Clone, Subcommand)]
pub enum CageCommand {
    /// Print mean value coordinates of points in a cage (oracle fixture format).
    Weights {
        /// JSON with "loops" and "points".
        input: PathBuf,
    },
    /// Bind a mesh's vertices to a cage and write the binary weights.
    Bind {
        /// JSON with "vertices" and "loops", "control" or "triangles".
        mesh: PathBuf,
        /// Output weights file.
        #[arg(long)]
        out: PathBuf,
        /// Keep K weights per vertex (affine-exact projection; no error bound).
        #[arg(long, conflicts_with = "sparse_tol")]
        sparse: Option<usize>,
        /// Keep per vertex the fewest weights whose L1 change is at most T (affine-exact
        /// projection): the deformation stays within T x (largest distance of a deformed
        /// cage vertex from an affine motion of the cage) of the dense one.
        #[arg(
            long,
            value_name = "T",
            conflicts_with = "grid_tol",
            allow_hyphen_values = true
        )]
        sparse_tol: Option<f64>,
        /// Interpolate each vertex from the four corners of a grid cell whose nodes carry
        /// MVC weights (`sinew::cage::GridBinding`), at the coarsest level whose L1 change
        /// is at most T (vertices no level serves keep their own weights): the same bound
        /// as --sparse-tol, and a much faster deform on large meshes.
        #[arg(long, value_name = "T", allow_hyphen_values = true,
              conflicts_with_all = ["sparse", "harmonic", "biharmonic"])]
        grid_tol: Option<f64>,
        /// Harmonic coordinates instead of MVC (the `harmonic` feature, on by default).
        #[arg(long, conflicts_with = "biharmonic")]
        harmonic: bool,
        /// Bounded biharmonic weights, made affine-exact, instead of MVC (the `harmonic`
        /// feature, on by default).
        #[arg(long)]
        biharmonic: bool,
    },
    /// Deform bound vertices with a deformed cage.
    Deform {
        /// Weights file written by `sinew cage bind`.
        weights: PathBuf,
        /// JSON with "cage": the deformed cage vertices.
        cage: PathBuf,
    },
}

/// Runs `sinew cage ...`; returns what to print.
pub fn cage(args: &CageArgs, budgets: &Budgets) -> Result<String> {
    match &args.command {
        CageCommand::Weights { input } => weights(input, budgets),
        CageCommand::Bind {
            mesh,
            out,
            sparse,
            sparse_tol,
            grid_tol,
            harmonic,
            biharmonic,
        } => {
            let method = if *biharmonic {
                Method::Biharmonic
            } else if *harmonic {
                Method::Harmonic
            } else {
                Method::Mvc
            };
            let sparse = match (sparse, sparse_tol, grid_tol) {
                (Some(k), _, _) => Sparse::K(*k),
                (None, Some(t), _) => Sparse::Tolerance(*t),
                (None, None, Some(t)) => Sparse::Grid(*t),
                (None, None, None) => Sparse::Dense,
            };
            bind(mesh, out, sparse, method, budgets)
        }
        CageCommand::Deform { weights, cage } => deform(weights, cage, budgets),
    }
}

fn read_json(path: &Path, budgets: &Budgets) -> Result<Value> {
    use sinew_formats::budget;
    let file = path.display().to_string();
    // A regular file within the budgets, a BOM dropped, no number too large to deform.
    let err = crate::guard::load_error;
    let text = budget::read_input_text(path, &file, budgets).map_err(err)?;
    budget::check_json(text.as_bytes(), &file, budgets).map_err(err)?;
    let doc = serde_json::from_str(&text).with_context(|| format!("{file}: invalid JSON"))?;
    budget::check_magnitudes(&doc, &file).map_err(err)?;
    Ok(doc)
}

fn point(v: &Value, what: &str) -> Result<[f64; 2]> {
    match v.as_array().map(Vec::as_slice) {
        Some([x, y]) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => Ok([x, y]),
            _ => bail!("{what}: coordinates must be numbers"),
        },
        _ => bail!("{what}: expected [x, y]"),
    }
}

fn points(v: &Value, what: &str) -> Result<Vec<[f64; 2]>> {
    let arr = v
        .as_array()
        .with_context(|| format!("{what}: expected an array of [x, y]"))?;
    arr.iter()
        .enumerate()
        .map(|(i, p)| point(p, &format!("{what}[{i}]")))
        .collect()
}

fn loops(v: &Value) -> Result<Vec<Vec<[f64; 2]>>> {
    let arr = v
        .as_array()
        .context("\"loops\": expected an array of loops")?;
    arr.iter()
        .enumerate()
        .map(|(l, lp)| points(lp, &format!("loops[{l}]")))
        .collect()
}

fn field<'a>(doc: &'a Value, key: &str, file: &Path) -> Result<&'a Value> {
    doc.get(key)
        .with_context(|| format!("{}: missing \"{key}\"", file.display()))
}

fn weights(input: &Path, budgets: &Budgets) -> Result<String> {
    let doc = read_json(input, budgets)?;
    let ctx = || input.display().to_string();
    let cage = Cage::from_loops(&loops(field(&doc, "loops", input)?).with_context(ctx)?)
        .with_context(ctx)?;
    let pts = points(field(&doc, "points", input)?, "points").with_context(ctx)?;
    let n = cage.vertex_count();
    let mut rows: Vec<Vec<f64>> = Vec::with_capacity(pts.len());
    for (i, p) in pts.iter().enumerate() {
        let mut row = vec![0.0; n];
        mvc_coordinates(&cage, *p, i, &mut row).with_context(ctx)?;
        rows.push(row);
    }
    Ok(format!(
        "{{\"weights\":{}}}\n",
        serde_json::to_string(&rows)?
    ))
}

/// The cage a mesh file describes: explicit loops, control-point loops, or the boundary.
fn mesh_cage(doc: &Value, verts: &[[f64; 2]], file: &Path) -> Result<Cage> {
    if let Some(l) = doc.get("loops") {
        return Ok(Cage::from_loops(&loops(l)?)?);
    }
    let indices = |v: &Value, what: &str| -> Result<Vec<u32>> {
        v.as_array()
            .with_context(|| format!("{what}: expected an array of indices"))?
            .iter()
            .map(|i| {
                i.as_u64()
                    .and_then(|i| u32::try_from(i).ok())
                    .with_context(|| format!("{what}: indices must be non-negative integers"))
            })
            .collect()
    };
    if let Some(c) = doc.get("control") {
        let arr = c
            .as_array()
            .context("\"control\": expected loops of indices")?;
        let ls = arr
            .iter()
            .enumerate()
            .map(|(l, v)| indices(v, &format!("control[{l}]")))
            .collect::<Result<Vec<_>>>()?;
        return Ok(Cage::from_control_points(verts, &ls)?);
    }
    if let Some(t) = doc.get("triangles") {
        let arr = t
            .as_array()
            .context("\"triangles\": expected [[a, b, c], ...]")?;
        let mut tris = Vec::with_capacity(arr.len());
        for (k, tri) in arr.iter().enumerate() {
            match indices(tri, &format!("triangles[{k}]"))?.as_slice() {
                [a, b, c] => tris.push([*a, *b, *c]),
                _ => bail!("triangles[{k}]: expected 3 indices"),
            }
        }
        return Ok(Cage::from_mesh(verts, &tris)?.0);
    }
    bail!(
        "{}: needs \"loops\", \"control\" or \"triangles\" to define the cage",
        file.display()
    )
}

/// A progress bar on stderr (indicatif), drawn only on a terminal and for binds worth
/// watching; hidden otherwise.
fn progress_bar(work: usize) -> indicatif::ProgressBar {
    if work >= 4_000_000 && std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{msg} [{bar:30}] {pos}/{len} vertices ({eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message("binding");
        bar
    } else {
        indicatif::ProgressBar::hidden()
    }
}

/// The coordinates `sinew cage bind` computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    Mvc,
    Harmonic,
    Biharmonic,
}

/// Which weights `sinew cage bind` writes.
enum Sparse {
    Dense,
    K(usize),
    Tolerance(f64),
    /// Grid-interpolated with an L1 tolerance.
    Grid(f64),
}

fn bind(
    mesh: &Path,
    out: &Path,
    sparse: Sparse,
    method: Method,
    budgets: &Budgets,
) -> Result<String> {
    let doc = read_json(mesh, budgets)?;
    let ctx = || mesh.display().to_string();
    let verts = points(field(&doc, "vertices", mesh)?, "vertices").with_context(ctx)?;
    let cage = mesh_cage(&doc, &verts, mesh).with_context(ctx)?;
    if method == Method::Mvc {
        within_reach(&cage, &verts).with_context(ctx)?;
    }
    let cage_json: Vec<[f64; 2]> = cage.points().to_vec();
    let mut summary = serde_json::json!({
        "points": verts.len(),
        "cage_vertices": cage.vertex_count(),
        "loops": cage.loop_count(),
        "method": match method {
            Method::Mvc => "mvc",
            Method::Harmonic => "harmonic",
            Method::Biharmonic => "biharmonic",
        },
        "cage": cage_json,
    });
    // Every kind but the grid starts from a dense bind (the grid computes its own rows).
    let dense = || dense_weights(&cage, &verts, method).with_context(ctx);
    let truncated = match sparse {
        Sparse::Dense => None,
        Sparse::Grid(t) => {
            if !(t.is_finite() && t >= 0.0) {
                bail!("bad --grid-tol {t}: must be a number at least 0");
            }
            let (grid, rep) =
                GridBinding::bind(&cage, &verts, &GridOptions::new(t)).with_context(ctx)?;
            summary["tolerance"] = t.into();
            summary["grid"] = serde_json::json!({
                "max_l1": rep.max_l1, "mean_l1": rep.mean_l1, "grid_nodes": rep.grid_nodes,
                "exact_points": rep.exact_points, "per_level": rep.per_level,
                "nodes": grid.node_count(),
            });
            return write_weights(out, &encode_grid(&grid), summary);
        }
        Sparse::K(k) => {
            Some(SparseBinding::from_dense(&cage, &verts, &dense()?, k).with_context(ctx)?)
        }
        Sparse::Tolerance(t) => {
            let opts = SparseOptions::new(t);
            summary["tolerance"] = t.into();
            Some(
                SparseBinding::from_dense_tolerance(&cage, &verts, &dense()?, &opts)
                    .with_context(ctx)?,
            )
        }
    };
    let Some((sb, rep)) = truncated else {
        return write_weights(out, &encode_dense(&dense()?), summary);
    };
    summary["k"] = sb.k().into();
    summary["truncation"] = serde_json::json!({
        "max_l1": rep.max_l1, "mean_l1": rep.mean_l1, "max_abs": rep.max_abs,
        "rest_error": rep.rest_error, "max_weight": rep.max_weight,
        "kept_min": rep.min_kept, "kept_max": rep.max_kept, "kept_mean": rep.mean_kept,
    });
    write_weights(out, &encode_sparse(&sb), summary)
}

/// Dense weights by `method` (MVC with a progress bar on a terminal).
fn dense_weights(cage: &Cage, verts: &[[f64; 2]], method: Method) -> Result<CageBinding> {
    match method {
        Method::Harmonic => bind_harmonic(cage, verts),
        Method::Biharmonic => bind_biharmonic(cage, verts),
        Method::Mvc => {
            let bar = progress_bar(verts.len() * cage.vertex_count());
            let b = bind_mvc_with_progress(cage, verts, &mut |done, total| {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            });
            bar.finish_and_clear();
            Ok(b?)
        }
    }
}

/// Refuses a vertex whose mean value weights `sinew cage deform` would refuse: outside the
/// cage's domain (winding number 0: outside, or in a hole) and so far out that a weight's
/// magnitude passes [`MAX_WEIGHT`], the bound every weights file keeps
/// (`sinew::cage::format`). Inside the domain the weights are bounded; harmonic coordinates
/// refuse every outside point themselves.
fn within_reach(cage: &Cage, verts: &[[f64; 2]]) -> Result<()> {
    let mut row = vec![0.0; cage.vertex_count()];
    for (i, &v) in verts.iter().enumerate() {
        if cage.winding_number(v) != 0 || mvc_coordinates(cage, v, i, &mut row).is_err() {
            // Inside; or singular there, which the binder reports naming the point.
            continue;
        }
        let worst = row.iter().fold(0.0f64, |m, w| m.max(w.abs()));
        if worst > f64::from(MAX_WEIGHT) || row.iter().any(|w| !w.is_finite()) {
            bail!(
                "vertex {i} at ({}, {}) lies far outside its cage: its weights reach {worst:.3e}, \
                 beyond the {MAX_WEIGHT:e} a weights file holds (what `sinew cage deform` \
                 reads); move it inside the cage or nearer to it, or leave it out of the mesh",
                v[0],
                v[1]
            );
        }
    }
    Ok(())
}

/// Writes the encoded weights to `out` and returns the summary with their size. The bytes
/// are first read back as `sinew cage deform` reads them, so that bind never writes a file
/// deform refuses.
fn write_weights(out: &Path, bytes: &[u8], mut summary: Value) -> Result<String> {
    decode(bytes).map_err(|e| {
        anyhow::anyhow!(
            "the weights bound for {} would not be readable by `sinew cage deform` ({e}); \
             nothing written",
            out.display()
        )
    })?;
    std::fs::write(out, bytes).with_context(|| format!("{}", out.display()))?;
    summary["bytes"] = bytes.len().into();
    Ok(format!("{summary}\n"))
}

#[cfg(feature = "harmonic")]
fn bind_harmonic(cage: &Cage, verts: &[[f64; 2]]) -> Result<CageBinding> {
    Ok(sinew::cage::bind_harmonic(
        cage,
        verts,
        &sinew::cage::HarmonicOptions::default(),
    )?)
}

#[cfg(feature = "harmonic")]
fn bind_biharmonic(cage: &Cage, verts: &[[f64; 2]]) -> Result<CageBinding> {
    Ok(sinew::cage::bind_biharmonic(
        cage,
        verts,
        &sinew::cage::BiharmonicOptions::default(),
    )?)
}

#[cfg(not(feature = "harmonic"))]
fn bind_biharmonic(_cage: &Cage, _verts: &[[f64; 2]]) -> Result<CageBinding> {
    bail!(
        "--biharmonic needs sinew-cli's `harmonic` feature, which this build left out \
         (--no-default-features): build it with `cargo build --release -p sinew-cli \
         --features harmonic` (or without --no-default-features)"
    )
}

#[cfg(not(feature = "harmonic"))]
fn bind_harmonic(_cage: &Cage, _verts: &[[f64; 2]]) -> Result<CageBinding> {
    bail!(
        "--harmonic needs sinew-cli's `harmonic` feature, which this build left out \
         (--no-default-features): build it with `cargo build --release -p sinew-cli \
         --features harmonic` (or without --no-default-features)"
    )
}

fn deform(weights: &Path, cage: &Path, budgets: &Budgets) -> Result<String> {
    let bytes = sinew_formats::budget::read_input(weights, &weights.display().to_string(), budgets)
        .map_err(crate::guard::load_error)?;
    let loaded = decode(&bytes).with_context(|| format!("{}", weights.display()))?;
    let doc = read_json(cage, budgets)?;
    let ctx = || cage.display().to_string();
    let pts = points(field(&doc, "cage", cage)?, "cage").with_context(ctx)?;
    let flat: Vec<f32> = pts
        .iter()
        .flat_map(|p| [p[0] as f32, p[1] as f32])
        .collect();
    let out = loaded.deformed(&flat).with_context(ctx)?;
    if let Some(i) = out.iter().position(|v| !v.is_finite()) {
        bail!(
            "{}: deformed vertex {} is not finite: the cage's coordinates overflow with these weights ({})",
            cage.display(),
            i / 2,
            weights.display()
        );
    }
    let pairs: Vec<[f32; 2]> = out.chunks_exact(2).map(|p| [p[0], p[1]]).collect();
    Ok(format!(
        "{{\"vertices\":{}}}\n",
        serde_json::to_string(&pairs)?
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str, text: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sinew-cage-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write");
        p
    }

    #[test]
    fn weights_of_the_square_centre() {
        let p = scratch(
            "sq.json",
            br#"{"loops": [[[0,0],[1,0],[1,1],[0,1]]], "points": [[0.5,0.5],[0.25,0.5]]}"#,
        );
        let out = weights(&p, &Budgets::DEFAULT).expect("ok");
        // The oracle's bits (mvc_square.json, point [0.25, 0.5]): exact 0.375 etc. in reals.
        assert_eq!(
            out,
            "{\"weights\":[[0.25,0.25,0.25,0.25],[0.37499999999999994,0.12500000000000003,\
             0.12500000000000003,0.37499999999999994]]}\n"
        );
    }

    #[test]
    fn bind_then_deform_by_a_translation() {
        let mesh = scratch(
            "mesh.json",
            br#"{"vertices": [[0,0],[2,0],[2,2],[0,2],[1,1],[0.5,1.5]],
                 "triangles": [[0,1,4],[1,2,4],[2,3,4],[3,0,4]]}"#,
        );
        let out = scratch("w.bin", b"");
        let summary: Value = serde_json::from_str(
            &bind(&mesh, &out, Sparse::Dense, Method::Mvc, &Budgets::DEFAULT).expect("ok"),
        )
        .expect("json");
        assert_eq!(summary["cage_vertices"], 4);
        assert_eq!(summary["points"], 6);
        let cage = scratch("cage.json", br#"{"cage": [[10,1],[12,1],[12,3],[10,3]]}"#);
        let moved = deform(&out, &cage, &Budgets::DEFAULT).expect("ok");
        assert_eq!(
            moved,
            "{\"vertices\":[[10.0,1.0],[12.0,1.0],[12.0,3.0],[10.0,3.0],[11.0,2.0],[10.5,2.5]]}\n"
        );
    }

    #[test]
    fn bad_inputs_name_the_problem() {
        let p = scratch("bad.json", br#"{"loops": [[[0,0],[1,0]]], "points": []}"#);
        let e = format!(
            "{:#}",
            weights(&p, &Budgets::DEFAULT).expect_err("short loop")
        );
        assert!(e.contains("loop 0 has 2 vertices"), "{e}");
        let p = scratch("nocage.json", br#"{"vertices": [[0,0]]}"#);
        let e = format!(
            "{:#}",
            bind(&p, &p, Sparse::Dense, Method::Mvc, &Budgets::DEFAULT).expect_err("no cage")
        );
        assert!(e.contains("needs \"loops\""), "{e}");
        let w = scratch("junk.bin", b"not a weights file at all, just some bytes!");
        let c = scratch("c.json", br#"{"cage": []}"#);
        let e = format!("{:#}", deform(&w, &c, &Budgets::DEFAULT).expect_err("junk"));
        assert!(e.contains("bad magic"), "{e}");
    }
}
