//! Boundary of a triangle mesh as ordered closed loops: the cage a mesh gives itself.
//!
//! A boundary edge is an (undirected) edge used by exactly one triangle. The boundary edges
//! are traced into closed loops, each oriented by its nesting depth (outer loops
//! counter-clockwise, holes clockwise, y up), so the result does not depend on the
//! triangles' winding. Input that would give a wrong cage is an error instead: an edge used
//! by three or more triangles, a vertex where two loops touch (by index or by position), a
//! T-junction (a vertex lying inside a boundary edge), degenerate triangles and bad indices.
//! Verified by the unit tests below (grids with and without holes, both windings, and each
//! non-manifold case).

use super::CageError;
use super::polygon::winding_of;

/// Boundary loops of a triangle mesh as lists of vertex indices: outer loops
/// counter-clockwise, holes clockwise; each loop starts at its smallest vertex index, and
/// loops are ordered outer-first, then by that index.
pub fn boundary_loops(
    positions: &[[f64; 2]],
    triangles: &[[u32; 3]],
) -> Result<Vec<Vec<u32>>, CageError> {
    let n = positions.len();
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(triangles.len() * 3);
    for (t, tri) in triangles.iter().enumerate() {
        for &i in tri {
            if i as usize >= n {
                return Err(CageError::IndexOutOfRange { index: i, len: n });
            }
        }
        if tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] {
            return Err(CageError::DegenerateTriangle { triangle: t });
        }
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            edges.push((a.min(b), a.max(b)));
        }
    }
    edges.sort_unstable();
    let mut boundary_edges = Vec::new();
    let mut k = 0;
    while k < edges.len() {
        let e = edges[k];
        let mut j = k + 1;
        while j < edges.len() && edges[j] == e {
            j += 1;
        }
        let uses = j - k;
        if uses > 2 {
            return Err(CageError::NonManifoldEdge {
                a: e.0,
                b: e.1,
                uses,
            });
        }
        if uses == 1 {
            boundary_edges.push(e);
        }
        k = j;
    }
    if boundary_edges.is_empty() {
        return Err(CageError::NoBoundary);
    }
    // Geometry first: a T-junction also makes a vertex of boundary degree 4, and naming
    // the T-junction is the more useful message.
    check_geometry(positions, &boundary_edges)?;
    // Boundary adjacency: exactly two boundary neighbours per boundary vertex.
    let mut nbr: Vec<[u32; 2]> = vec![[u32::MAX; 2]; n];
    let mut degree = vec![0u8; n];
    for &e in &boundary_edges {
        for (v, w) in [(e.0, e.1), (e.1, e.0)] {
            let d = &mut degree[v as usize];
            if *d >= 2 {
                return Err(CageError::LoopsTouch { vertex: v });
            }
            nbr[v as usize][*d as usize] = w;
            *d += 1;
        }
    }

    // Trace the loops.
    let mut visited = vec![false; n];
    let mut loops: Vec<Vec<u32>> = Vec::new();
    for start in 0..n {
        if degree[start] == 0 || visited[start] {
            continue;
        }
        let mut lp = vec![start as u32];
        visited[start] = true;
        let (mut prev, mut cur) = (start as u32, nbr[start][0]);
        while cur as usize != start {
            let c = cur as usize;
            if visited[c] {
                // Cannot happen when every boundary vertex has degree 2; guard anyway.
                return Err(CageError::LoopsTouch { vertex: cur });
            }
            visited[c] = true;
            lp.push(cur);
            let next = if nbr[c][0] == prev {
                nbr[c][1]
            } else {
                nbr[c][0]
            };
            (prev, cur) = (cur, next);
        }
        loops.push(lp);
    }

    // Orient by nesting depth; keep each loop's smallest index first.
    let polys: Vec<Vec<[f64; 2]>> = loops
        .iter()
        .map(|l| l.iter().map(|&i| positions[i as usize]).collect())
        .collect();
    let mut keyed: Vec<(usize, u32, Vec<u32>)> = Vec::with_capacity(loops.len());
    for (li, mut lp) in loops.into_iter().enumerate() {
        let probe = polys[li][0];
        let depth = (0..polys.len())
            .filter(|&o| o != li && winding_of(&polys[o], probe) != 0)
            .count();
        let ccw = signed_area(&polys[li]) > 0.0;
        if ccw != (depth % 2 == 0) {
            lp[1..].reverse();
        }
        keyed.push((depth, lp[0], lp));
    }
    keyed.sort_by_key(|(d, first, _)| (*d, *first));
    Ok(keyed.into_iter().map(|(_, _, l)| l).collect())
}

fn signed_area(p: &[[f64; 2]]) -> f64 {
    let mut a = 0.0;
    for (k, v) in p.iter().enumerate() {
        let w = p[(k + 1) % p.len()];
        a += v[0] * w[1] - v[1] * w[0];
    }
    0.5 * a
}

/// T-junctions and loops touching by position: a boundary vertex within a tolerance of
/// another boundary vertex, or of the inside of a boundary edge it does not end.
fn check_geometry(positions: &[[f64; 2]], boundary_edges: &[(u32, u32)]) -> Result<(), CageError> {
    let mut bverts: Vec<u32> = boundary_edges.iter().flat_map(|&(a, b)| [a, b]).collect();
    bverts.sort_unstable();
    bverts.dedup();
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for &v in &bverts {
        let p = positions[v as usize];
        if !(p[0].is_finite() && p[1].is_finite()) {
            return Err(CageError::NonFinite {
                what: "mesh vertex",
                index: v as usize,
            });
        }
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let eps = 1e-9 * (hi[0] - lo[0]).hypot(hi[1] - lo[1]).max(f64::MIN_POSITIVE);
    for (i, &v) in bverts.iter().enumerate() {
        let p = positions[v as usize];
        for &w in &bverts[i + 1..] {
            let q = positions[w as usize];
            if (p[0] - q[0]).hypot(p[1] - q[1]) <= eps {
                return Err(CageError::LoopsTouch { vertex: w });
            }
        }
        for &(a, b) in boundary_edges {
            if a == v || b == v {
                continue;
            }
            let (pa, pb) = (positions[a as usize], positions[b as usize]);
            let e = [pb[0] - pa[0], pb[1] - pa[1]];
            let len2 = e[0] * e[0] + e[1] * e[1];
            let u = ((p[0] - pa[0]) * e[0] + (p[1] - pa[1]) * e[1]) / len2;
            if !(u > 0.0 && u < 1.0) {
                continue;
            }
            let dist = ((p[0] - pa[0]) * e[1] - (p[1] - pa[1]) * e[0]).abs() / len2.sqrt();
            if dist <= eps {
                return Err(CageError::TJunction {
                    vertex: v,
                    edge: (a, b),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A (w+1) x (h+1) grid of unit squares, two CCW triangles each, skipping cells `holes`.
    fn grid(w: u32, h: u32, holes: &[(u32, u32)]) -> (Vec<[f64; 2]>, Vec<[u32; 3]>) {
        let mut pos = Vec::new();
        for y in 0..=h {
            for x in 0..=w {
                pos.push([f64::from(x), f64::from(y)]);
            }
        }
        let id = |x: u32, y: u32| y * (w + 1) + x;
        let mut tris = Vec::new();
        for y in 0..h {
            for x in 0..w {
                if holes.contains(&(x, y)) {
                    continue;
                }
                tris.push([id(x, y), id(x + 1, y), id(x + 1, y + 1)]);
                tris.push([id(x, y), id(x + 1, y + 1), id(x, y + 1)]);
            }
        }
        (pos, tris)
    }

    #[test]
    fn single_quad_is_a_ccw_loop() {
        let (pos, tris) = grid(1, 1, &[]);
        assert_eq!(boundary_loops(&pos, &tris), Ok(vec![vec![0, 1, 3, 2]]));
    }

    #[test]
    fn clockwise_triangles_give_the_same_loop() {
        let (pos, mut tris) = grid(2, 1, &[]);
        for t in &mut tris {
            t.swap(1, 2);
        }
        assert_eq!(
            boundary_loops(&pos, &tris),
            Ok(vec![vec![0, 1, 2, 5, 4, 3]])
        );
    }

    #[test]
    fn grid_with_hole_gives_outer_ccw_and_hole_cw() {
        let (pos, tris) = grid(3, 3, &[(1, 1)]);
        let loops = boundary_loops(&pos, &tris).expect("manifold");
        assert_eq!(loops.len(), 2);
        assert_eq!(loops[0], vec![0, 1, 2, 3, 7, 11, 15, 14, 13, 12, 8, 4]);
        // Hole around the cell (1,1): vertices 5, 6, 10, 9, clockwise from 5.
        assert_eq!(loops[1], vec![5, 9, 10, 6]);
        let area = |l: &Vec<u32>| {
            let p: Vec<_> = l.iter().map(|&i| pos[i as usize]).collect();
            signed_area(&p)
        };
        assert_eq!(area(&loops[0]), 9.0);
        assert_eq!(area(&loops[1]), -1.0);
    }

    #[test]
    fn edge_used_three_times_is_an_error() {
        let pos = [[0.0, 0.0], [1.0, 0.0], [0.5, 1.0], [0.5, -1.0], [0.5, 2.0]];
        let tris = [[0, 1, 2], [1, 0, 3], [0, 1, 4]];
        assert_eq!(
            boundary_loops(&pos, &tris),
            Err(CageError::NonManifoldEdge {
                a: 0,
                b: 1,
                uses: 3
            })
        );
    }

    #[test]
    fn bow_tie_is_an_error() {
        let pos = [
            [0.0, 0.0],
            [1.0, -1.0],
            [1.0, 1.0],
            [-1.0, 1.0],
            [-1.0, -1.0],
        ];
        let tris = [[0, 1, 2], [0, 3, 4]];
        assert_eq!(
            boundary_loops(&pos, &tris),
            Err(CageError::LoopsTouch { vertex: 0 })
        );
    }

    #[test]
    fn loops_touching_by_position_is_an_error() {
        // Two triangles meeting at a point through two distinct, coincident vertices.
        let pos = [
            [0.0, 0.0],
            [1.0, -1.0],
            [1.0, 1.0],
            [0.0, 0.0],
            [-1.0, 1.0],
            [-1.0, -1.0],
        ];
        let tris = [[0, 1, 2], [3, 4, 5]];
        assert_eq!(
            boundary_loops(&pos, &tris),
            Err(CageError::LoopsTouch { vertex: 3 })
        );
    }

    #[test]
    fn t_junction_is_an_error() {
        // Big triangle 0-1-2 on top of edge 0-1; below, two triangles share vertex 3 at
        // the middle of 0-1.
        let pos = [[0.0, 0.0], [2.0, 0.0], [1.0, 1.0], [1.0, 0.0], [1.0, -1.0]];
        let tris = [[0, 1, 2], [0, 4, 3], [3, 4, 1]];
        assert_eq!(
            boundary_loops(&pos, &tris),
            Err(CageError::TJunction {
                vertex: 3,
                edge: (0, 1)
            })
        );
    }

    #[test]
    fn bad_input_errors() {
        let pos = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
        assert_eq!(
            boundary_loops(&pos, &[[0, 1, 7]]),
            Err(CageError::IndexOutOfRange { index: 7, len: 3 })
        );
        assert_eq!(
            boundary_loops(&pos, &[[0, 1, 1]]),
            Err(CageError::DegenerateTriangle { triangle: 0 })
        );
        assert_eq!(boundary_loops(&pos, &[]), Err(CageError::NoBoundary));
    }
}
