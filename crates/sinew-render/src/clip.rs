//! Polygon clipping for Spine clipping attachments: a clip polygon (convex or concave) is
//! triangulated by ear clipping, and each drawn triangle is clipped against every piece with
//! Sutherland–Hodgman. The pieces tile the clip polygon, so together with the exact-area
//! coverage of [`crate::raster`] the clipped result shows no seams along the diagonals.
//!
//! Like the official `SkeletonClipping`, the clip is geometric (triangles are cut, not
//! masked). Triangulations are kept between frames by [`ClipCache`] (re-checked in linear
//! time, redone only when the polygon folds). Spine 4.3 `convex` clips use the polygon's
//! convex hull instead (no triangulation; the draw list holds the hull, computed once for
//! every renderer by `sinew::draw::hull`), and `inverse` clips keep what lies outside the
//! hull ([`clip_outside`]). Verified by the unit tests below (areas of concave L shapes, of
//! clipped triangles and of the outside of a square by closed forms; both windings;
//! degenerate input; the cache reused under motion and a mirror, redone after a fold) and
//! against spine-core 4.3.13 by `tests/all/clip43.rs`.

/// A point in pixel space.
///
/// Owner: the CPU renderer (`sinew-render`): clipping.
pub type Point = [f32; 2];

/// Twice the signed area of a polygon (positive for counter-clockwise in a y-up frame).
pub fn signed_area2(poly: &[Point]) -> f32 {
    let n = poly.len();
    let mut s = 0.0;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        s += a[0] * b[1] - b[0] * a[1];
    }
    s
}

#[inline]
fn cross(o: Point, a: Point, b: Point) -> f32 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// Triangulates a simple polygon by ear clipping. Appends triangles (as points, positive
/// orientation) to `out`; `order` is scratch. Self-intersecting input still terminates (it
/// then cuts the remaining vertices as a fan).
pub fn triangulate(poly: &[Point], out: &mut Vec<[Point; 3]>, order: &mut Vec<usize>) {
    let mut tris = Vec::new();
    triangulate_indices(poly, &mut tris, order);
    out.extend(tris.iter().map(|t| t.map(|i| poly[i as usize])));
}

/// [`triangulate`] as vertex indices into `poly` (appended to `out`), so the same topology
/// can be reused when the polygon moves.
pub fn triangulate_indices(poly: &[Point], out: &mut Vec<[u32; 3]>, order: &mut Vec<usize>) {
    let n = poly.len();
    if n < 3 {
        return;
    }
    order.clear();
    if signed_area2(poly) >= 0.0 {
        order.extend(0..n);
    } else {
        order.extend((0..n).rev());
    }
    let tri = |a: usize, b: usize, c: usize| [a as u32, b as u32, c as u32];
    let mut guard = 0;
    while order.len() > 3 && guard < n * n + 8 {
        guard += 1;
        let m = order.len();
        let mut cut = None;
        for i in 0..m {
            let (ip, iv, inx) = (order[(i + m - 1) % m], order[i], order[(i + 1) % m]);
            let (p, v, nx) = (poly[ip], poly[iv], poly[inx]);
            if cross(p, v, nx) <= 0.0 {
                continue; // reflex or flat
            }
            let blocked = order.iter().any(|&j| {
                j != ip && j != iv && j != inx && {
                    let q = poly[j];
                    cross(p, v, q) >= 0.0 && cross(v, nx, q) >= 0.0 && cross(nx, p, q) >= 0.0
                }
            });
            if !blocked {
                cut = Some(i);
                break;
            }
        }
        // No ear (collinear or self-intersecting input): cut the first vertex anyway.
        let i = cut.unwrap_or(0);
        let m = order.len();
        let (ip, iv, inx) = (order[(i + m - 1) % m], order[i], order[(i + 1) % m]);
        if cross(poly[ip], poly[iv], poly[inx]) > 0.0 {
            out.push(tri(ip, iv, inx));
        }
        order.remove(i);
    }
    if order.len() == 3 {
        let (a, b, c) = (order[0], order[1], order[2]);
        if cross(poly[a], poly[b], poly[c]) > 0.0 {
            out.push(tri(a, b, c));
        }
    }
}

/// Clip polygon triangulations kept between frames, one per clipping slot.
///
/// Ear clipping is quadratic in the polygon's vertices; a clip polygon moves with its bones
/// every frame but its triangulation stays valid while every triangle keeps one orientation
/// (an affine map with a non-zero determinant keeps it; a mirror flips all of them together,
/// which is still a triangulation). So [`ClipCache::pieces`] re-checks the cached triangles'
/// orientations (linear) and triangulates again only when the vertex count changed, a
/// triangle turned over or degenerated (a deform folded the polygon), or the last
/// triangulation was not complete (`n - 2` triangles: degenerate input, redone each frame).
/// Vertex counts are bounded at load by the `clip_vertices` budget.
///
/// Owner: the CPU renderer (`sinew-render`): clipping, kept between frames.
#[derive(Debug, Clone, Default)]
pub struct ClipCache {
    entries: Vec<CachedClip>,
    triangulations: usize,
    order: Vec<usize>,
}

#[derive(Debug, Clone)]
struct CachedClip {
    key: u32,
    vertices: usize,
    tris: Vec<[u32; 3]>,
}

impl ClipCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many times a polygon was triangulated (ear clipping) since the cache was made.
    pub fn triangulations(&self) -> usize {
        self.triangulations
    }

    /// Replaces `out` with the triangulated pieces of `poly` (positive orientation), the
    /// polygon of the clip keyed `key` (its clipping slot), reusing the cached topology when it
    /// still holds.
    pub fn pieces(&mut self, key: u32, poly: &[Point], out: &mut Vec<[Point; 3]>) {
        out.clear();
        let n = poly.len();
        if n < 3 {
            return;
        }
        let k = match self.entries.iter().position(|e| e.key == key) {
            Some(k) => k,
            None => {
                self.entries.push(CachedClip {
                    key,
                    vertices: 0,
                    tris: Vec::new(),
                });
                self.entries.len() - 1
            }
        };
        let entry = &mut self.entries[k];
        if entry.vertices == n && entry.tris.len() == n - 2 {
            // One orientation for all: the first triangle's sign, shared by every other.
            let sign = |t: &[u32; 3]| {
                let [a, b, c] = t.map(|i| poly.get(i as usize).copied().unwrap_or([0.0; 2]));
                cross(a, b, c)
            };
            let first = sign(&entry.tris[0]);
            let positive = first > 0.0;
            let valid = first != 0.0
                && entry.tris.iter().all(|t| {
                    let s = sign(t);
                    if positive { s > 0.0 } else { s < 0.0 }
                });
            if valid {
                out.extend(entry.tris.iter().map(|t| {
                    let [a, b, c] = t.map(|i| poly[i as usize]);
                    if positive { [a, b, c] } else { [a, c, b] }
                }));
                return;
            }
        }
        entry.tris.clear();
        entry.vertices = n;
        triangulate_indices(poly, &mut entry.tris, &mut self.order);
        self.triangulations += 1;
        out.extend(entry.tris.iter().map(|t| t.map(|i| poly[i as usize])));
    }
}

/// Clips `subject` against the convex polygon `clip` (positive orientation, see
/// [`signed_area2`]); the result replaces `out`. `tmp` is scratch.
pub fn clip_convex(subject: &[Point], clip: &[Point], out: &mut Vec<Point>, tmp: &mut Vec<Point>) {
    out.clear();
    out.extend_from_slice(subject);
    let n = clip.len();
    for e in 0..n {
        if out.len() < 3 {
            out.clear();
            return;
        }
        let (a, b) = (clip[e], clip[(e + 1) % n]);
        std::mem::swap(out, tmp);
        out.clear();
        let m = tmp.len();
        for i in 0..m {
            let (p, q) = (tmp[i], tmp[(i + 1) % m]);
            let (dp, dq) = (cross(a, b, p), cross(a, b, q));
            if dp >= 0.0 {
                out.push(p);
            }
            if (dp >= 0.0) != (dq >= 0.0) {
                let t = dp / (dp - dq);
                out.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]);
            }
        }
    }
    if out.len() < 3 {
        out.clear();
    }
}

/// The part of `subject` on the side of the line `a -> b` given by `left` (left: the
/// inside of a positively oriented edge), replacing `out`; an empty `out` when under 3
/// vertices remain.
pub fn clip_half_plane(subject: &[Point], a: Point, b: Point, left: bool, out: &mut Vec<Point>) {
    out.clear();
    let m = subject.len();
    let side = |p: Point| {
        let d = cross(a, b, p);
        if left { d } else { -d }
    };
    for i in 0..m {
        let (p, q) = (subject[i], subject[(i + 1) % m]);
        let (dp, dq) = (side(p), side(q));
        if dp >= 0.0 {
            out.push(p);
        }
        if (dp >= 0.0) != (dq >= 0.0) {
            let t = dp / (dp - dq);
            out.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]);
        }
    }
    if out.len() < 3 {
        out.clear();
    }
}

/// Splits `subject` into the convex pieces that lie outside the convex polygon `hull`
/// (positive orientation), calling `emit` on each: edge by edge, the part beyond the edge is
/// a piece and the part inside goes on to the next edge (the inverse clip of Spine 4.3's
/// `SkeletonClipping.clipInverse`). The pieces are disjoint and, with the inside part, tile
/// `subject`. `rest`, `piece` and `tmp` are scratch.
pub fn clip_outside(
    subject: &[Point],
    hull: &[Point],
    rest: &mut Vec<Point>,
    piece: &mut Vec<Point>,
    tmp: &mut Vec<Point>,
    mut emit: impl FnMut(&[Point]),
) {
    rest.clear();
    rest.extend_from_slice(subject);
    let n = hull.len();
    if n < 3 {
        // No area to cut away: all of it stays.
        emit(subject);
        return;
    }
    for e in 0..n {
        let (a, b) = (hull[e], hull[(e + 1) % n]);
        clip_half_plane(rest, a, b, false, piece);
        if piece.len() >= 3 {
            emit(piece);
        }
        clip_half_plane(rest, a, b, true, tmp);
        std::mem::swap(rest, tmp);
        if rest.is_empty() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(poly: &[Point]) -> f32 {
        signed_area2(poly).abs() / 2.0
    }

    #[test]
    fn the_outside_of_a_square_tiles_a_triangle_with_its_inside() {
        let sq = [[1.0, 1.0], [3.0, 1.0], [3.0, 3.0], [1.0, 3.0]];
        let tri = [[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]];
        let (mut rest, mut piece, mut tmp) = (Vec::new(), Vec::new(), Vec::new());
        let (mut outside, mut pieces) = (0.0, 0);
        clip_outside(&tri, &sq, &mut rest, &mut piece, &mut tmp, |p| {
            assert!(
                signed_area2(p) > 0.0,
                "pieces keep the subject's orientation"
            );
            outside += area(p);
            pieces += 1;
        });
        // The square lies inside the triangle: 32 - 4, in one piece per square edge.
        assert_eq!(outside, 28.0);
        assert_eq!(pieces, 4);
        // A triangle wholly inside the square leaves nothing; one wholly outside stays whole.
        let mut n = 0;
        let inner = [[1.5, 1.5], [2.5, 1.5], [2.0, 2.5]];
        clip_outside(&inner, &sq, &mut rest, &mut piece, &mut tmp, |_| n += 1);
        assert_eq!(n, 0);
        let far = [[5.0, 5.0], [6.0, 5.0], [5.0, 6.0]];
        let mut got = 0.0;
        clip_outside(&far, &sq, &mut rest, &mut piece, &mut tmp, |p| {
            got += area(p)
        });
        assert_eq!(got, 0.5);
    }

    #[test]
    fn concave_l_shape_triangulates_to_its_area() {
        // An L: 3x3 square minus its top-right 2x2 (area 5), in both windings.
        let l = [
            [0.0, 0.0],
            [3.0, 0.0],
            [3.0, 1.0],
            [1.0, 1.0],
            [1.0, 3.0],
            [0.0, 3.0],
        ];
        for poly in [l.to_vec(), l.iter().rev().copied().collect::<Vec<_>>()] {
            let (mut tris, mut order) = (Vec::new(), Vec::new());
            triangulate(&poly, &mut tris, &mut order);
            assert_eq!(tris.len(), 4);
            let total: f32 = tris.iter().map(|t| area(t)).sum();
            assert!((total - 5.0).abs() < 1e-5, "{total}");
            // Every triangle lies inside the L (its centroid is not in the removed square).
            for t in &tris {
                let c = [
                    (t[0][0] + t[1][0] + t[2][0]) / 3.0,
                    (t[0][1] + t[1][1] + t[2][1]) / 3.0,
                ];
                assert!(!(c[0] > 1.0 && c[1] > 1.0), "{t:?}");
                assert!(signed_area2(t) > 0.0);
            }
        }
    }

    #[test]
    fn clips_a_triangle_by_a_square() {
        let square = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
        let tri = [[1.0, 1.0], [5.0, 1.0], [1.0, 5.0]];
        let (mut out, mut tmp) = (Vec::new(), Vec::new());
        clip_convex(&tri, &square, &mut out, &mut tmp);
        // The part of the triangle inside the square is the unit square [1,2]x[1,2].
        assert!((area(&out) - 1.0).abs() < 1e-6, "{out:?}");
        // Fully outside gives nothing; fully inside is unchanged.
        clip_convex(
            &[[3.0, 3.0], [4.0, 3.0], [3.0, 4.0]],
            &square,
            &mut out,
            &mut tmp,
        );
        assert!(out.is_empty());
        let inner = [[0.5, 0.5], [1.5, 0.5], [0.5, 1.5]];
        clip_convex(&inner, &square, &mut out, &mut tmp);
        assert_eq!(out, inner.to_vec());
    }

    #[test]
    fn degenerate_polygons_do_not_hang() {
        let (mut tris, mut order) = (Vec::new(), Vec::new());
        triangulate(
            &[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]],
            &mut tris,
            &mut order,
        );
        assert!(tris.is_empty());
        // A bow tie (self-intersecting) still terminates.
        triangulate(
            &[[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [0.0, 2.0]],
            &mut tris,
            &mut order,
        );
        assert!(tris.len() <= 2);
    }

    #[test]
    fn the_cache_triangulates_once_while_the_polygon_moves() {
        let l = [
            [0.0, 0.0],
            [3.0, 0.0],
            [3.0, 1.0],
            [1.0, 1.0],
            [1.0, 3.0],
            [0.0, 3.0],
        ];
        let mut cache = ClipCache::new();
        let mut pieces = Vec::new();
        // Rotated, scaled, moved and mirrored: the same topology serves.
        for k in 0..10 {
            let (s, c) = (k as f32 * 0.3).sin_cos();
            let m = if k == 7 { -2.0 } else { 2.0 };
            let moved: Vec<Point> = l
                .iter()
                .map(|p| {
                    [
                        m * (c * p[0] - s * p[1]) + 5.0,
                        2.0 * (s * p[0] + c * p[1]) - 1.0,
                    ]
                })
                .collect();
            cache.pieces(4, &moved, &mut pieces);
            let total: f32 = pieces.iter().map(|t| area(t)).sum();
            assert!((total - 20.0).abs() < 1e-3, "frame {k}: {total}");
            assert!(pieces.iter().all(|t| signed_area2(t) > 0.0));
        }
        assert_eq!(cache.triangulations(), 1);
        // Folding a vertex across the opposite side of its first triangle turns that
        // triangle over: triangulated again; another key is its own entry.
        let (mut tris, mut order) = (Vec::new(), Vec::new());
        triangulate_indices(&l, &mut tris, &mut order);
        let [a, b, c] = tris[0].map(|i| i as usize);
        let (p, q) = (l[a], l[c]);
        let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
        let t = ((l[b][0] - p[0]) * dx + (l[b][1] - p[1]) * dy) / (dx * dx + dy * dy);
        let foot = [p[0] + t * dx, p[1] + t * dy];
        let mut folded = l;
        folded[b] = [2.0 * foot[0] - l[b][0], 2.0 * foot[1] - l[b][1]];
        cache.pieces(4, &folded, &mut pieces);
        assert_eq!(cache.triangulations(), 2);
        cache.pieces(9, &l, &mut pieces);
        assert_eq!(cache.triangulations(), 3);
    }
}
