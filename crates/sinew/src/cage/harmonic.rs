//! Harmonic coordinates (Joshi, Meyer, DeRose, Green, Sanocki 2007) as a bind-time choice:
//! each weight function solves Laplace's equation in the cage's interior with
//! piecewise-linear "hat" values on the cage (1 at its vertex, linear along its two edges,
//! 0 elsewhere). They are non-negative (maximum principle), local to the interior (no
//! influence through gaps, unlike MVC), reproduce affine maps, and cost nothing extra at
//! run time: the result is an ordinary [`CageBinding`].
//!
//! Discretisation: P1 finite elements (cotangent Laplacian) on a constrained Delaunay
//! triangulation of the domain (holes excluded) refined to a minimum angle and maximum
//! area (spade), with every interior mesh point inserted as a vertex so its weights are
//! nodal values, not interpolated. On a Delaunay mesh the cotangent weights of interior
//! edges are non-negative, so the discrete maximum principle holds. The interior system is
//! factorised once (sparse LDLᵀ, sprs-ldl) and solved for each cage vertex. Points within
//! `snap_rel * diameter` of the cage take the boundary values directly (they are the same
//! for MVC and harmonic coordinates); points outside the domain are an error (harmonic
//! coordinates are defined only inside). Verified by the unit tests below (partition of
//! unity, linear precision, non-negativity, and the U cage's locality against MVC, as in
//! `oracle/mvc/gbc_extras.py`).

use super::CageError;
use super::mvc::boundary_coordinates;
use super::polygon::Cage;
use super::weights::CageBinding;
use spade::{
    AngleLimit, ConstrainedDelaunayTriangulation, Point2, RefinementParameters, Triangulation,
};

/// Settings of the interior triangulation.
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HarmonicOptions {
    /// Largest triangle area as a fraction of the domain's area.
    pub max_area_fraction: f64,
    /// Smallest angle the refinement aims for, degrees (at most ~30 terminates reliably).
    pub min_angle_deg: f64,
    /// Most Steiner points the refinement may add.
    pub max_extra_vertices: usize,
    /// Points this close to the cage (fraction of its diameter) take boundary values.
    pub snap_rel: f64,
}

impl Default for HarmonicOptions {
    fn default() -> Self {
        HarmonicOptions {
            max_area_fraction: 1.0 / 2000.0,
            min_angle_deg: 25.0,
            max_extra_vertices: 200_000,
            snap_rel: 1e-7,
        }
    }
}

type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

pub(super) fn solver(what: impl std::fmt::Display) -> CageError {
    CageError::Solver(what.to_string())
}

/// A refined constrained Delaunay triangulation of a cage's domain with the interior
/// points inserted as vertices: what harmonic and biharmonic binding solve on.
pub(super) struct InteriorMesh {
    /// Vertex positions, by vertex index.
    pub pos: Vec<[f64; 2]>,
    /// Triangles of the domain (holes and the outside excluded).
    pub tris: Vec<[usize; 3]>,
    /// Per vertex: on a cage edge.
    pub on_boundary: Vec<bool>,
    /// Mesh edges along the cage (both ends on it).
    pub boundary_edges: Vec<[usize; 2]>,
    /// Per cage vertex: its mesh vertex.
    pub cage_vertex: Vec<usize>,
    /// Per point: its mesh vertex, or `None` for a point on the cage (its row holds the
    /// cage's boundary values already).
    pub point_vertex: Vec<Option<usize>>,
    /// Hat values of boundary vertices, row-major (vertices x cage vertices; only
    /// boundary rows are filled).
    pub hat: Vec<f64>,
}

impl InteriorMesh {
    /// Triangulates `cage`'s domain with `points` inside it as vertices. Points within
    /// `snap_rel * diameter` of the cage get their boundary values in `binding`; points
    /// outside the domain are an error.
    pub fn build(
        cage: &Cage,
        points: &[[f64; 2]],
        opts: &HarmonicOptions,
        binding: &mut CageBinding,
    ) -> Result<InteriorMesh, CageError> {
        if !(opts.max_area_fraction > 0.0 && opts.min_angle_deg >= 0.0 && opts.snap_rel >= 0.0) {
            return Err(CageError::InvalidParameter(
                "harmonic options: area fraction > 0, angle >= 0, snap >= 0",
            ));
        }
        let n = cage.vertex_count();
        let diam = cage.diameter();
        let mut row = vec![0.0f64; n];
        let mut cdt = Cdt::new();
        let mut cage_handles = Vec::with_capacity(n);
        for p in cage.points() {
            cage_handles.push(cdt.insert(Point2::new(p[0], p[1])).map_err(solver)?);
        }
        for l in 0..cage.loop_count() {
            let r = cage.loop_range(l);
            for i in r.clone() {
                let j = if i + 1 == r.end { r.start } else { i + 1 };
                if cdt.can_add_constraint(cage_handles[i], cage_handles[j]) {
                    cdt.add_constraint(cage_handles[i], cage_handles[j]);
                } else {
                    return Err(solver(format!(
                        "cage edge {i}-{j} crosses another edge (self-intersecting cage)"
                    )));
                }
            }
        }
        let mut point_vertex: Vec<Option<usize>> = vec![None; points.len()];
        for (i, p) in points.iter().enumerate() {
            if !(p[0].is_finite() && p[1].is_finite()) {
                return Err(CageError::NonFinite {
                    what: "point",
                    index: i,
                });
            }
            if boundary_coordinates(cage, *p, opts.snap_rel * diam, &mut row) {
                binding.set_row(i, &row);
                continue;
            }
            if cage.winding_number(*p) == 0 {
                return Err(CageError::PointOutside { point: i });
            }
            let h = cdt.insert(Point2::new(p[0], p[1])).map_err(solver)?;
            point_vertex[i] = Some(h.index());
        }
        let area: f64 = (0..cage.loop_count()).map(|l| cage.signed_area(l)).sum();
        if area.is_nan() || area <= 0.0 {
            return Err(solver(
                "cage domain has no positive area (outer loop clockwise?)",
            ));
        }
        let params = RefinementParameters::<f64>::new()
            .exclude_outer_faces(true)
            .with_angle_limit(AngleLimit::from_deg(opts.min_angle_deg))
            .with_max_allowed_area(opts.max_area_fraction * area)
            .with_min_required_area(opts.max_area_fraction * area * 1e-6)
            .with_max_additional_vertices(opts.max_extra_vertices);
        let result = cdt.refine(params);
        let mut excluded = vec![false; cdt.num_all_faces()];
        for f in &result.excluded_faces {
            excluded[f.index()] = true;
        }
        let nv = cdt.num_vertices();
        let mut on_boundary = vec![false; nv];
        let mut boundary_edges = Vec::new();
        for e in cdt.undirected_edges() {
            if e.data().is_constraint_edge() {
                let [a, b] = e.vertices().map(|v| v.fix().index());
                on_boundary[a] = true;
                on_boundary[b] = true;
                boundary_edges.push([a, b]);
            }
        }
        let mut pos = vec![[0.0; 2]; nv];
        let mut hat = vec![0.0f64; nv * n];
        for v in cdt.vertices() {
            let k = v.fix().index();
            let p = v.position();
            pos[k] = [p.x, p.y];
            if on_boundary[k] {
                hat_values(cage, pos[k], &mut hat[k * n..(k + 1) * n]);
            }
        }
        let tris = cdt
            .inner_faces()
            .filter(|f| !excluded[f.fix().index()])
            .map(|f| f.vertices().map(|v| v.fix().index()))
            .collect();
        Ok(InteriorMesh {
            pos,
            tris,
            on_boundary,
            boundary_edges,
            cage_vertex: cage_handles.iter().map(|h| h.index()).collect(),
            point_vertex,
            hat,
        })
    }

    /// Calls `f(i, j, w)` for each half of every cotangent weight `w` of edge `(i, j)`
    /// (`w = cot(angle opposite) / 2`, once per triangle and direction).
    pub fn for_each_cot(&self, mut f: impl FnMut(usize, usize, f64)) {
        for ids in &self.tris {
            let ps = ids.map(|k| self.pos[k]);
            for c in 0..3 {
                let (a, b) = ((c + 1) % 3, (c + 2) % 3);
                let u = [ps[a][0] - ps[c][0], ps[a][1] - ps[c][1]];
                let w = [ps[b][0] - ps[c][0], ps[b][1] - ps[c][1]];
                let cross = (u[0] * w[1] - u[1] * w[0]).abs();
                if cross == 0.0 {
                    continue;
                }
                let cot = 0.5 * (u[0] * w[0] + u[1] * w[1]) / cross;
                f(ids[a], ids[b], cot);
                f(ids[b], ids[a], cot);
            }
        }
    }
}

/// Binds `points` to `cage` with harmonic coordinates.
pub fn bind_harmonic(
    cage: &Cage,
    points: &[[f64; 2]],
    opts: &HarmonicOptions,
) -> Result<CageBinding, CageError> {
    let n = cage.vertex_count();
    let mut binding = CageBinding::zeroed(points.len(), n);
    let mut row = vec![0.0f64; n];
    let mesh = InteriorMesh::build(cage, points, opts, &mut binding)?;
    let nv = mesh.pos.len();
    // Vertices of the domain off the cage are the unknowns.
    let mut unknown = vec![usize::MAX; nv];
    let mut n_unknown = 0;
    for t in &mesh.tris {
        for &k in t {
            if !mesh.on_boundary[k] && unknown[k] == usize::MAX {
                unknown[k] = n_unknown;
                n_unknown += 1;
            }
        }
    }
    let hat = &mesh.hat;

    // Cotangent Laplacian over the domain's faces: interior block and boundary coupling.
    let mut tri = sprs::TriMat::new((n_unknown, n_unknown));
    let mut rhs = vec![0.0f64; n_unknown * n]; // column-major: rhs[col * n_unknown + row]
    mesh.for_each_cot(|i, j, cot| {
        let ui = unknown[i];
        if ui == usize::MAX {
            return;
        }
        tri.add_triplet(ui, ui, cot);
        let uj = unknown[j];
        if uj != usize::MAX {
            tri.add_triplet(ui, uj, -cot);
        } else {
            for col in 0..n {
                rhs[col * n_unknown + ui] += cot * hat[j * n + col];
            }
        }
    });
    let mut interior = vec![0.0f64; n_unknown * n];
    if n_unknown > 0 {
        let mat: sprs::CsMat<f64> = tri.to_csc();
        let ldl = sprs_ldl::Ldl::new()
            .numeric(mat.view())
            .map_err(|e| solver(format!("factorisation failed: {e:?}")))?;
        for col in 0..n {
            let b = &rhs[col * n_unknown..(col + 1) * n_unknown];
            let x: Vec<f64> = ldl.solve(b);
            interior[col * n_unknown..(col + 1) * n_unknown].copy_from_slice(&x);
        }
    }
    for (i, pv) in mesh.point_vertex.iter().enumerate() {
        let Some(k) = *pv else { continue };
        let u = unknown.get(k).copied().unwrap_or(usize::MAX);
        if u == usize::MAX {
            // An inserted point that ended on the boundary or outside every kept face.
            if mesh.on_boundary.get(k).copied().unwrap_or(false) {
                binding.set_row(i, &hat[k * n..(k + 1) * n]);
                continue;
            }
            return Err(CageError::PointOutside { point: i });
        }
        for (col, r) in row.iter_mut().enumerate() {
            *r = interior[col * n_unknown + u];
        }
        binding.set_row(i, &row);
    }
    Ok(binding)
}

/// Hat values at a point on the cage: linear weights of the nearest edge's two ends.
fn hat_values(cage: &Cage, p: [f64; 2], out: &mut [f64]) {
    let pts = cage.points();
    let mut best = (f64::INFINITY, 0, 0, 0.0);
    for l in 0..cage.loop_count() {
        let r = cage.loop_range(l);
        for i in r.clone() {
            let j = if i + 1 == r.end { r.start } else { i + 1 };
            let (a, b) = (pts[i], pts[j]);
            let e = [b[0] - a[0], b[1] - a[1]];
            let len2 = e[0] * e[0] + e[1] * e[1];
            let t = (((p[0] - a[0]) * e[0] + (p[1] - a[1]) * e[1]) / len2).clamp(0.0, 1.0);
            let d = (a[0] + t * e[0] - p[0]).hypot(a[1] + t * e[1] - p[1]);
            if d < best.0 {
                best = (d, i, j, t);
            }
        }
    }
    out.fill(0.0);
    let (_, i, j, t) = best;
    out[i] += 1.0 - t;
    out[j] += t;
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::cage::bind::bind_mvc;

    /// The oracle's U cage (`oracle/mvc/gbc_extras.py`), shared with the biharmonic tests.
    pub(in crate::cage) fn ushape() -> Cage {
        let u = [
            [0.0, 0.0],
            [3.0, 0.0],
            [3.0, 3.0],
            [2.0, 3.0],
            [2.0, 1.0],
            [1.0, 1.0],
            [1.0, 3.0],
            [0.0, 3.0],
        ];
        Cage::from_loops(&[u]).expect("valid")
    }

    /// Grid points strictly inside `cage` (plus a few on its boundary).
    fn interior_points(cage: &Cage, step: f64) -> Vec<[f64; 2]> {
        let mut pts = Vec::new();
        let mut y = step / 2.0;
        while y < 4.0 {
            let mut x = step / 2.0;
            while x < 4.0 {
                if cage.winding_number([x, y]) != 0 {
                    pts.push([x, y]);
                }
                x += step;
            }
            y += step;
        }
        pts.push(cage.points()[2]);
        pts.push([1.5, 1.0]);
        pts
    }

    #[test]
    fn u_cage_properties_and_locality() {
        let cage = ushape();
        let pts = interior_points(&cage, 0.1);
        let b = bind_harmonic(&cage, &pts, &HarmonicOptions::default()).expect("solved");
        let m = bind_mvc(&cage, &pts).expect("bound");
        let (mut min_w, mut max_pu, mut max_lp) = (f64::INFINITY, 0.0f64, 0.0f64);
        for (i, p) in pts.iter().enumerate() {
            let (mut s, mut x, mut y) = (0.0, 0.0, 0.0);
            for (j, v) in cage.points().iter().enumerate() {
                let w = f64::from(b.weight(i, j));
                min_w = min_w.min(w);
                s += w;
                x += w * v[0];
                y += w * v[1];
            }
            max_pu = max_pu.max((s - 1.0).abs());
            max_lp = max_lp.max((x - p[0]).hypot(y - p[1]));
        }
        assert!(max_pu < 1e-6, "partition of unity {max_pu}");
        assert!(max_lp < 1e-5, "linear precision {max_lp}");
        // Maximum principle: no negative weight (beyond f32 rounding).
        assert!(min_w > -1e-7, "min weight {min_w}");
        assert_eq!(b.weight(pts.len() - 2, 2), 1.0);
        assert_eq!(b.weight(pts.len() - 1, 4), 0.5);
        // Locality: the left arm's tip vertices (6, 7) barely move the right arm's tip.
        let (mut h, mut mv) = (0.0f64, 0.0f64);
        for (i, p) in pts.iter().enumerate() {
            if p[0] > 2.2 && p[1] > 2.5 {
                for j in [6, 7] {
                    h = h.max(b.weight(i, j).abs().into());
                    mv = mv.max(m.weight(i, j).abs().into());
                }
            }
        }
        assert!(h < 0.5 * mv, "harmonic {h} vs MVC {mv}");
        assert!(h < 1e-3, "harmonic tip leakage {h}");
    }

    #[test]
    fn with_a_hole_and_errors() {
        let outer = [[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];
        let hole = [[1.5, 1.5], [1.5, 2.5], [2.5, 2.5], [2.5, 1.5]];
        let cage = Cage::from_loops(&[outer, hole]).expect("valid");
        let pts = [[0.5, 0.5], [3.0, 2.0], [2.0, 1.2], [1.5, 2.0]];
        let b = bind_harmonic(&cage, &pts, &HarmonicOptions::default()).expect("solved");
        for i in 0..pts.len() {
            let s: f32 = (0..8).map(|j| b.weight(i, j)).sum();
            assert!((s - 1.0).abs() < 1e-5);
            assert!((0..8).all(|j| b.weight(i, j) > -1e-7));
        }
        // On the hole's edge: the boundary values.
        assert_eq!((b.weight(3, 4), b.weight(3, 5)), (0.5, 0.5));
        assert_eq!(
            bind_harmonic(&cage, &[[2.0, 2.0]], &HarmonicOptions::default()),
            Err(CageError::PointOutside { point: 0 })
        );
        assert_eq!(
            bind_harmonic(&cage, &[[5.0, 2.0]], &HarmonicOptions::default()),
            Err(CageError::PointOutside { point: 0 })
        );
    }
}
