//! The convex hull of a clip polygon, for Spine 4.3 `convex` and `inverse` clips (spine-core
//! 4.3.13 `SkeletonClipping.makeConvex`). [`build_draw_list`](super::build_draw_list) stores
//! such a clip's hull in place of its polygon, so the hull is computed once per frame for
//! every renderer (the CPU rasteriser, wgpu and the web's stencil fans, bevy_sinew's
//! geometric clip) instead of once in each.
//!
//! Gift wrapping over the points in place: O(n·h) for n points and h hull vertices, which is
//! cheap for clip polygons (a few dozen vertices at most, bounded at load), needs no sort
//! and no scratch (the draw list stays allocation-free) and is a few hundred bytes of code
//! in the web module. Verified by the unit tests below (an L in both windings, collinear,
//! repeated and non-finite points, a hull of many points on a circle).

#[inline]
fn at(p: &[f32], i: usize) -> [f32; 2] {
    [p[2 * i], p[2 * i + 1]]
}

#[inline]
fn swap(p: &mut [f32], i: usize, j: usize) {
    p.swap(2 * i, 2 * j);
    p.swap(2 * i + 1, 2 * j + 1);
}

/// Twice the signed area of `o a b` (positive when `b` lies left of `o -> a`, y up).
#[inline]
fn cross(o: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

#[inline]
fn dist2(a: [f32; 2], b: [f32; 2]) -> f32 {
    (b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1])
}

/// Reorders the points `xy` (x, y pairs) so that the first `h` are their convex hull,
/// counter-clockwise in a y-up frame, without collinear or repeated vertices, and returns
/// `h`: 0 when the points span no area (fewer than three finite points off one line).
/// Non-finite points are ignored; a trailing odd float is ignored.
pub fn convex_hull_in_place(xy: &mut [f32]) -> usize {
    let len = xy.len() / 2;
    // Finite points first; the rest take no part.
    let mut n = 0;
    for i in 0..len {
        let p = at(xy, i);
        if p[0].is_finite() && p[1].is_finite() {
            swap(xy, n, i);
            n += 1;
        }
    }
    if n < 3 {
        return 0;
    }
    // The leftmost (then lowest) point is on the hull: it starts the wrap.
    let mut lo = 0;
    for i in 1..n {
        let (p, q) = (at(xy, i), at(xy, lo));
        if p[0] < q[0] || (p[0] == q[0] && p[1] < q[1]) {
            lo = i;
        }
    }
    swap(xy, 0, lo);
    // Each step takes the point that leaves no other to its right (the farthest one among
    // collinear candidates, so collinear vertices drop out) and moves it behind the hull so
    // far; the wrap ends when no point beats the start. Each step takes a point, so it ends
    // within n steps whatever rounding does.
    let mut h = 1;
    while h < n {
        let cur = at(xy, h - 1);
        let (mut best, mut best_i) = (at(xy, 0), 0);
        for i in h..n {
            let p = at(xy, i);
            let c = cross(cur, best, p);
            if c < 0.0 || (c == 0.0 && dist2(cur, p) > dist2(cur, best)) {
                (best, best_i) = (p, i);
            }
        }
        if best_i == 0 {
            break;
        }
        swap(xy, h, best_i);
        h += 1;
    }
    if h < 3 { 0 } else { h }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area2(p: &[f32]) -> f32 {
        let n = p.len() / 2;
        (0..n)
            .map(|i| {
                let (a, b) = (at(p, i), at(p, (i + 1) % n));
                a[0] * b[1] - b[0] * a[1]
            })
            .sum()
    }

    fn hull(points: &[f32]) -> Vec<f32> {
        let mut p = points.to_vec();
        let h = convex_hull_in_place(&mut p);
        p.truncate(2 * h);
        p
    }

    #[test]
    fn the_hull_of_an_l_drops_its_notch_in_either_winding() {
        let l = [0., 0., 4., 0., 4., 2., 2., 2., 2., 4., 0., 4.];
        let mut rev: Vec<f32> = l.chunks(2).rev().flatten().copied().collect();
        for p in [l.to_vec(), std::mem::take(&mut rev)] {
            let h = hull(&p);
            // The square minus the triangle (4,2) (4,4) (2,4): 16 - 2, counter-clockwise.
            assert_eq!(h.len(), 10, "{h:?}");
            assert_eq!(area2(&h), 28.0);
            assert!(!h.chunks(2).any(|q| q == [2.0, 2.0]), "the notch is gone");
        }
    }

    #[test]
    fn collinear_repeated_and_non_finite_points_drop_out() {
        // A square with midpoints on two edges, a repeated corner, an inner point and NaNs.
        let p = [
            0.,
            0.,
            1.,
            0.,
            2.,
            0.,
            2.,
            2.,
            2.,
            2.,
            1.,
            1.,
            f32::NAN,
            3.,
            0.,
            2.,
            0.,
            1.,
            f32::INFINITY,
            0.,
        ];
        let h = hull(&p);
        assert_eq!(h.len(), 8, "{h:?}");
        assert_eq!(area2(&h), 8.0);
        assert!(
            hull(&[0., 0., 1., 1., 2., 2., 3., 3.]).is_empty(),
            "on one line"
        );
        assert!(hull(&[0., 0., 1., 1., 0., 0.]).is_empty(), "two points");
        assert!(hull(&[0., 0., 1., 0., f32::NAN, 1.]).is_empty());
    }

    #[test]
    fn points_on_a_circle_are_all_kept_in_order() {
        let n = 40;
        let mut p = Vec::new();
        // Shuffled (a stride coprime to n) so the wrap has to find each next point.
        for k in 0..n {
            let a = ((k * 17) % n) as f32 * std::f32::consts::TAU / n as f32;
            p.extend([3.0 * a.cos() + 1.0, 3.0 * a.sin() - 2.0]);
        }
        p.extend([1.0, -2.0, 2.0, -1.0]);
        let h = hull(&p);
        assert_eq!(h.len(), 2 * n);
        let m = h.len() / 2;
        for i in 0..m {
            let (a, b, c) = (at(&h, i), at(&h, (i + 1) % m), at(&h, (i + 2) % m));
            assert!(cross(a, b, c) > 0.0, "a left turn at every vertex");
        }
    }
}
