//! Polygon clipping for Spine clipping attachments: a clip polygon (convex or concave) is
//! triangulated by ear clipping, and each drawn triangle is clipped against every piece with
//! Sutherland–Hodgman. The pieces tile the clip polygon, so together with the exact-area
//! coverage of [`crate::raster`] the clipped result shows no seams along the diagonals.
//!
//! Like the official `SkeletonClipping`, the clip is geometric (triangles are cut, not
//! masked). Verified by the unit tests below (areas of concave L shapes and of clipped
//! triangles by closed forms; both windings; degenerate input).

/// A point in pixel space.
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
            out.push([poly[ip], poly[iv], poly[inx]]);
        }
        order.remove(i);
    }
    if order.len() == 3 {
        let t = [poly[order[0]], poly[order[1]], poly[order[2]]];
        if cross(t[0], t[1], t[2]) > 0.0 {
            out.push(t);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn area(poly: &[Point]) -> f32 {
        signed_area2(poly).abs() / 2.0
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
}
