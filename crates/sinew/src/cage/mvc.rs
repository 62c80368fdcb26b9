//! Mean value coordinates of one point with respect to a [`Cage`] (Floater 2003; Hormann &
//! Floater 2006), in f64.
//!
//! With `s_i = v_i - x`, `r_i = |s_i|`, `c_i = cross(s_i, s_{i+1})`, `d_i = dot(s_i, s_{i+1})`:
//! `tan(alpha_i / 2) = c_i / (r_i r_{i+1} + d_i)` when `d_i >= 0`, else
//! `(r_i r_{i+1} - d_i) / c_i` (the same value; the branch avoids cancellation near
//! alpha = 0 and alpha = pi), `w_i = (tan(alpha_{i-1}/2) + tan(alpha_i/2)) / r_i`, and
//! `lambda = w / sum(w)`. Several loops sum over all edges, each vertex using its neighbours
//! in its own loop. A point within the cage tolerance of a vertex gets the Kronecker delta,
//! of an edge's inside the 1D linear weights of that edge (the continuous limit), tested
//! loop by loop, vertex before edges, exactly as the oracle `mvc_oracle.py` does.
//! Verified by the unit tests below (closed forms from `design/notes/math.md` A.2) and
//! `tests/all/cage_oracle.rs`.

use super::CageError;
use super::polygon::Cage;

/// `tan(alpha/2)` of the signed angle from `s0` to `s1` (lengths `r0`, `r1`), choosing the
/// form that does not cancel.
#[inline]
fn tan_half(s0: [f64; 2], s1: [f64; 2], r0: f64, r1: f64) -> f64 {
    let c = s0[0] * s1[1] - s0[1] * s1[0];
    let d = s0[0] * s1[0] + s0[1] * s1[1];
    let rr = r0 * r1;
    // Select the operands, then divide once: the same values as two branches with a
    // division each, but the selects compile to conditional moves, and the sign of d is
    // unpredictable over a cage (a mispredicted branch per edge doubled the bind cost).
    // A point collinear with an edge but outside it has d > 0, c = 0: tan = 0, no 0/0.
    let pos = d >= 0.0;
    let num = if pos { c } else { rr - d };
    let den = if pos { rr + d } else { c };
    num / den
}

/// Writes the boundary coordinates of `p` into `out` (zeroing it first) and returns `true`
/// when `p` lies within `eps` of a cage vertex (Kronecker delta) or of the inside of an edge
/// (linear weights of its two ends); returns `false`, leaving `out` untouched, otherwise.
pub fn boundary_coordinates(cage: &Cage, p: [f64; 2], eps: f64, out: &mut [f64]) -> bool {
    let pts = cage.points();
    let lens = cage.edge_lengths();
    // Squared distances and the cage's cached edge lengths: no square root per vertex on
    // the common (interior) path.
    let eps2 = eps * eps;
    for l in 0..cage.loop_count() {
        let range = cage.loop_range(l);
        // Nearest vertex of this loop (first on ties).
        let (mut best, mut best_r2) = (range.start, f64::INFINITY);
        for (k, v) in pts[range.clone()].iter().enumerate() {
            let (dx, dy) = (v[0] - p[0], v[1] - p[1]);
            let r2 = dx * dx + dy * dy;
            if r2 < best_r2 {
                (best, best_r2) = (range.start + k, r2);
            }
        }
        if best_r2 <= eps2 {
            out.fill(0.0);
            out[best] = 1.0;
            return true;
        }
        for i in range.clone() {
            let k = if i + 1 == range.end {
                range.start
            } else {
                i + 1
            };
            let (a, b) = (pts[i], pts[k]);
            let si = [a[0] - p[0], a[1] - p[1]];
            let sk = [b[0] - p[0], b[1] - p[1]];
            let c = si[0] * sk[1] - si[1] * sk[0];
            let d = si[0] * sk[0] + si[1] * sk[1];
            // |c| / |edge| is the distance to the edge's line; d < 0: between the ends.
            if c.abs() <= eps * lens[i] && d < 0.0 {
                let ri = (si[0] * si[0] + si[1] * si[1]).sqrt();
                let rk = (sk[0] * sk[0] + sk[1] * sk[1]).sqrt();
                out.fill(0.0);
                out[i] = rk / (ri + rk);
                out[k] = ri / (ri + rk);
                return true;
            }
        }
    }
    false
}

/// Unnormalised (homogeneous) MVC weights of a point off the boundary, written to `out`
/// (one per cage vertex); returns their sum. Positive inside a correctly oriented cage,
/// negative outside.
pub fn homogeneous_weights(cage: &Cage, p: [f64; 2], out: &mut [f64]) -> f64 {
    let pts = cage.points();
    let mut sum = 0.0;
    for l in 0..cage.loop_count() {
        let range = cage.loop_range(l);
        let (start, end) = (range.start, range.end);
        let s_of = |i: usize| [pts[i][0] - p[0], pts[i][1] - p[1]];
        // sqrt(x^2 + y^2) rather than hypot: within an ulp, several times faster (cage
        // coordinates are far from overflow).
        let len = |s: [f64; 2]| (s[0] * s[0] + s[1] * s[1]).sqrt();
        // The edge into the first vertex (last -> first) gives tan(alpha_{-1}/2).
        let s_last = s_of(end - 1);
        let r_last = len(s_last);
        let s_first = s_of(start);
        let r_first = len(s_first);
        let mut t_prev = tan_half(s_last, s_first, r_last, r_first);
        let (mut s, mut r) = (s_first, r_first);
        for (i, slot) in out.iter_mut().enumerate().take(end).skip(start) {
            let (s_next, r_next) = if i + 1 < end {
                let sn = s_of(i + 1);
                (sn, len(sn))
            } else {
                (s_first, r_first)
            };
            let t = tan_half(s, s_next, r, r_next);
            let w = (t_prev + t) / r;
            *slot = w;
            sum += w;
            (t_prev, s, r) = (t, s_next, r_next);
        }
    }
    sum
}

/// Mean value coordinates of `p` into `out` (length: the cage's vertex count), exact on
/// vertices and edges within [`Cage::tolerance`]. Fails with [`CageError::Singular`]
/// (naming `point_index`) when the homogeneous weights sum to zero or the result is not
/// finite (a hole oriented like the outer loop, a self-intersecting cage).
pub fn mvc_coordinates(
    cage: &Cage,
    p: [f64; 2],
    point_index: usize,
    out: &mut [f64],
) -> Result<(), CageError> {
    let n = cage.vertex_count();
    if out.len() != n {
        return Err(CageError::SizeMismatch {
            what: "weights row",
            expected: n,
            got: out.len(),
        });
    }
    if !(p[0].is_finite() && p[1].is_finite()) {
        return Err(CageError::NonFinite {
            what: "point",
            index: point_index,
        });
    }
    if boundary_coordinates(cage, p, cage.tolerance(), out) {
        return Ok(());
    }
    let sum = homogeneous_weights(cage, p, out);
    if sum == 0.0 || !sum.is_finite() {
        return Err(CageError::Singular { point: point_index });
    }
    let mut ok = true;
    for w in out.iter_mut() {
        // Divide (not multiply by 1/sum) so the rounding is the oracle's `w / w.sum()`.
        *w /= sum;
        ok &= w.is_finite();
    }
    if ok {
        Ok(())
    } else {
        Err(CageError::Singular { point: point_index })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cage(loops: &[&[[f64; 2]]]) -> Cage {
        Cage::from_loops(loops).expect("valid cage")
    }

    fn coords(c: &Cage, p: [f64; 2]) -> Vec<f64> {
        let mut out = vec![0.0; c.vertex_count()];
        mvc_coordinates(c, p, 0, &mut out).expect("defined");
        out
    }

    fn assert_all_close(got: &[f64], want: &[f64], tol: f64) {
        assert_eq!(got.len(), want.len());
        for (k, (g, w)) in got.iter().zip(want).enumerate() {
            assert!((g - w).abs() <= tol, "weight {k}: got {g}, want {w}");
        }
    }

    const SQUARE: &[[f64; 2]] = &[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    const USHAPE: &[[f64; 2]] = &[
        [0.0, 0.0],
        [3.0, 0.0],
        [3.0, 3.0],
        [2.0, 3.0],
        [2.0, 1.0],
        [1.0, 1.0],
        [1.0, 3.0],
        [0.0, 3.0],
    ];

    #[test]
    fn square_closed_forms() {
        let c = cage(&[SQUARE]);
        assert_all_close(&coords(&c, [0.5, 0.5]), &[0.25; 4], 1e-15);
        // math.md A.2 item 5.
        assert_all_close(
            &coords(&c, [0.25, 0.5]),
            &[0.375, 0.125, 0.125, 0.375],
            1e-15,
        );
        // Exterior (math.md A.1): (-2, -3) -> (3.49, 0.51, -2.51, -0.49), 2 decimals.
        assert_all_close(
            &coords(&c, [-2.0, -3.0]),
            &[3.49, 0.51, -2.51, -0.49],
            0.006,
        );
    }

    #[test]
    fn vertices_and_edges_are_exact() {
        let c = cage(&[USHAPE]);
        for (j, v) in USHAPE.iter().enumerate() {
            let mut want = [0.0; 8];
            want[j] = 1.0;
            assert_eq!(coords(&c, *v), want);
        }
        // 30% along edge 4 -> 5.
        let p = [2.0 - 0.3, 1.0];
        let mut want = [0.0; 8];
        (want[4], want[5]) = (0.7, 0.3);
        assert_all_close(&coords(&c, p), &want, 1e-15);
    }

    #[test]
    fn collinear_outside_an_edge_is_not_nan() {
        // (2, 0) is on the line of the square's bottom edge, outside it: c = 0, d > 0.
        let c = cage(&[SQUARE]);
        let w = coords(&c, [2.0, 0.0]);
        assert!(w.iter().all(|x| x.is_finite()));
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-14);
        let x: f64 = w.iter().zip(SQUARE).map(|(w, v)| w * v[0]).sum();
        assert!((x - 2.0).abs() < 1e-14);
    }

    #[test]
    fn u_cage_negative_weights() {
        // math.md A.2 item 6, 5 decimals.
        let want = [
            0.01804, 0.04152, 0.47682, 0.46252, 0.03322, -0.02255, -0.02392, 0.01436,
        ];
        assert_all_close(&coords(&cage(&[USHAPE]), [2.5, 2.8]), &want, 6e-6);
    }

    #[test]
    fn wrongly_oriented_hole_is_singular_somewhere_on_a_line() {
        // With a CCW hole, sum(w) changes sign along y = 2 (math.md A.1), so it crosses
        // zero; with the CW hole it stays positive.
        let outer: &[[f64; 2]] = &[[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];
        let hole_cw: &[[f64; 2]] = &[[1.5, 1.5], [1.5, 2.5], [2.5, 2.5], [2.5, 1.5]];
        let hole_ccw: Vec<[f64; 2]> = hole_cw.iter().rev().copied().collect();
        let good = cage(&[outer, hole_cw]);
        let bad = cage(&[outer, &hole_ccw]);
        let mut w = vec![0.0; 8];
        let (mut min_good, mut signs_bad) = (f64::INFINITY, (false, false));
        for k in 0..60 {
            let p = [0.2 + 1.2 * f64::from(k) / 59.0, 2.0];
            min_good = min_good.min(homogeneous_weights(&good, p, &mut w));
            let s = homogeneous_weights(&bad, p, &mut w);
            signs_bad = (signs_bad.0 || s < 0.0, signs_bad.1 || s > 0.0);
        }
        assert!(min_good > 0.0);
        assert_eq!(signs_bad, (true, true));
    }

    #[test]
    fn bad_sizes_and_points_are_errors() {
        let c = cage(&[SQUARE]);
        let mut short = [0.0; 3];
        assert!(matches!(
            mvc_coordinates(&c, [0.5, 0.5], 0, &mut short),
            Err(CageError::SizeMismatch { .. })
        ));
        let mut out = [0.0; 4];
        assert_eq!(
            mvc_coordinates(&c, [f64::NAN, 0.5], 7, &mut out),
            Err(CageError::NonFinite {
                what: "point",
                index: 7
            })
        );
    }
}
