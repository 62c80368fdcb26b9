//! Keyform grids: locating a value between keys on each axis, and interpolating a grid of
//! keyforms over one or several axes (nearest, multilinear or Catmull-Rom cubic).
//!
//! An axis is a sorted list of key positions, normalised to 0..1 over the parameter's range
//! (inochi2d.md §3, "Evaluating one parameter"). A value selects a cell: the first `i` with
//! `keys[i + 1] > t`, or the last cell; its offset is `(t - keys[i]) / (keys[i + 1] - keys[i])`.
//! Each axis then contributes up to four (key index, weight) pairs, and the grid value is the
//! tensor product of the axes' weights over the keyforms. A one-key axis is degenerate and
//! contributes its key with weight 1 (Inox2D divides 0/0 there and returns NaN; sinew follows
//! the Inochi2D reference). Verified by the unit tests below and the property tests in
//! `params/proptests.rs` (keys reproduced exactly, linear along each axis, convex hull).

/// Most axes one keyform grid may span (a Cubism grid over up to four parameters).
pub const MAX_AXES: usize = 4;

/// How keyforms are interpolated between keys.
///
/// Owner: the parameter stage (`params`; step 5 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Interp {
    /// The nearest key; an offset of exactly 0.5 takes the upper key.
    Nearest,
    /// Linear along each axis (multilinear over the grid).
    #[default]
    Linear,
    /// Uniform Catmull-Rom on four keys per axis, indices clamped at the ends.
    Cubic,
}

/// The keys one axis contributes at a value: up to four (index, weight) pairs.
///
/// Owner: the parameter stage (`params`; step 5 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AxisWeights {
    /// Key indices.
    pub index: [u32; 4],
    /// Weights (they sum to 1).
    pub weight: [f64; 4],
    /// Number of pairs used.
    pub len: u8,
}

impl AxisWeights {
    /// A single key with weight 1.
    pub const fn single(index: u32) -> Self {
        AxisWeights {
            index: [index, 0, 0, 0],
            weight: [1.0, 0.0, 0.0, 0.0],
            len: 1,
        }
    }
}

/// The cell `i` and offset in 0..1 of normalised value `t` on sorted `keys`
/// (COMPAT(inochi2d): the first `i` with `keys[i + 1] > t`, else the last cell).
/// A degenerate axis (fewer than two keys) gives `(0, 0.0)`.
#[inline]
pub fn locate(keys: &[f64], t: f64) -> (usize, f64) {
    let n = keys.len();
    if n < 2 {
        return (0, 0.0);
    }
    let mut i = 0;
    while i < n - 2 && keys[i + 1] <= t {
        i += 1;
    }
    let span = keys[i + 1] - keys[i];
    // Keys that do not span 0..1 would extrapolate; clamping keeps results in the hull.
    let off = if span > 0.0 {
        ((t - keys[i]) / span).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (i, if off.is_finite() { off } else { 0.0 })
}

/// The weights one axis contributes for normalised value `t`.
pub fn axis_weights(keys: &[f64], t: f64, interp: Interp) -> AxisWeights {
    let n = keys.len();
    if n < 2 {
        return AxisWeights::single(0);
    }
    let (i, off) = locate(keys, t);
    let i32_ = i as u32;
    match interp {
        Interp::Nearest => AxisWeights::single(if off >= 0.5 { i32_ + 1 } else { i32_ }),
        Interp::Linear => AxisWeights {
            index: [i32_, i32_ + 1, 0, 0],
            weight: [1.0 - off, off, 0.0, 0.0],
            len: 2,
        },
        Interp::Cubic => {
            let last = (n - 1) as u32;
            let t = off;
            let (t2, t3) = (t * t, t * t * t);
            // Catmull-Rom: p(t) = p1 + t(-p0 + p2)/2 + t²(2p0 - 5p1 + 4p2 - p3)/2
            //                      + t³(-p0 + 3p1 - 3p2 + p3)/2, written as key weights.
            AxisWeights {
                index: [i32_.saturating_sub(1), i32_, i32_ + 1, (i32_ + 2).min(last)],
                weight: [
                    -0.5 * t3 + t2 - 0.5 * t,
                    1.5 * t3 - 2.5 * t2 + 1.0,
                    -1.5 * t3 + 2.0 * t2 + 0.5 * t,
                    0.5 * t3 - 0.5 * t2,
                ],
                len: 4,
            }
        }
    }
}

/// Calls `f(flat, weight)` for every grid corner with a non-zero weight, in odometer order
/// (the last axis fastest). `flat` is the keyform index `((i0 * n1 + i1) * n2 + ...)`;
/// `weight` is `scale` times the axes' weights, multiplied in axis order. `dims[a]` is the
/// key count of axis `a` and `axes[a]` its weights (`axes.len() == dims.len() <= MAX_AXES`).
#[inline]
pub fn for_each_corner(
    axes: &[AxisWeights],
    dims: &[u32],
    scale: f64,
    mut f: impl FnMut(usize, f64),
) {
    let na = axes.len().min(dims.len()).min(MAX_AXES);
    // Odometer over the per-axis contributions.
    let mut digit = [0u8; MAX_AXES];
    loop {
        let mut w = scale;
        let mut flat = 0usize;
        for a in 0..na {
            let k = digit[a] as usize;
            w *= axes[a].weight[k];
            flat = flat * dims[a] as usize + axes[a].index[k] as usize;
        }
        if w != 0.0 {
            f(flat, w);
        }
        // Next combination.
        let mut a = na;
        loop {
            if a == 0 {
                return;
            }
            a -= 1;
            digit[a] += 1;
            if digit[a] < axes[a].len.max(1) {
                break;
            }
            digit[a] = 0;
        }
    }
}

/// Adds `scale` times the interpolated keyform of a grid into `out`.
///
/// `values` holds the keyforms, axis 0 slowest, each keyform `out.len()` floats: keyform
/// `(i0, i1, ...)` starts at `((i0 * n1 + i1) * n2 + ...) * out.len()`. `dims[a]` is the
/// key count of axis `a` and `axes[a]` its weights (`axes.len() == dims.len() <= MAX_AXES`).
/// Out-of-range keyforms are skipped (the builder has checked sizes). Allocation-free.
pub fn accumulate_grid(
    axes: &[AxisWeights],
    dims: &[u32],
    values: &[f32],
    scale: f64,
    out: &mut [f64],
) {
    let stride = out.len();
    for_each_corner(axes, dims, scale, |flat, w| {
        if let Some(key) = values.get(flat * stride..flat * stride + stride) {
            for (o, &v) in out.iter_mut().zip(key) {
                *o += w * f64::from(v);
            }
        }
    });
}

/// The interpolated scalar of a grid of one-float keyforms.
pub fn eval_scalar(axes: &[AxisWeights], dims: &[u32], values: &[f32]) -> f64 {
    let mut out = [0.0];
    accumulate_grid(axes, dims, values, 1.0, &mut out);
    out[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_finds_cells() {
        let k = [0.0, 0.25, 1.0];
        assert_eq!(locate(&k, 0.0), (0, 0.0));
        assert_eq!(locate(&k, 0.125), (0, 0.5));
        assert_eq!(locate(&k, 0.25), (1, 0.0));
        assert_eq!(locate(&k, 1.0), (1, 1.0));
        assert_eq!(locate(&[0.0], 0.7), (0, 0.0));
        assert_eq!(locate(&[], 0.7), (0, 0.0));
    }

    #[test]
    fn nearest_ties_go_up() {
        let w = axis_weights(&[0.0, 1.0], 0.5, Interp::Nearest);
        assert_eq!((w.index[0], w.len), (1, 1));
        let w = axis_weights(&[0.0, 1.0], 0.49, Interp::Nearest);
        assert_eq!(w.index[0], 0);
    }

    #[test]
    fn cubic_weights_sum_to_one_and_hit_keys() {
        for &t in &[0.0, 0.1, 0.5, 0.9] {
            let w = axis_weights(&[0.0, 0.25, 0.5, 0.75, 1.0], 0.25 + t * 0.25, Interp::Cubic);
            let s: f64 = w.weight.iter().sum();
            assert!((s - 1.0).abs() < 1e-12);
        }
        let w = axis_weights(&[0.0, 0.5, 1.0], 0.5, Interp::Cubic);
        assert_eq!(w.index[w.weight.iter().position(|&x| x == 1.0).unwrap()], 1);
        // Catmull-Rom through 0, 1, 4, 9 (x²) at the middle of [1, 4]: (−0 + 9·1 + 9·4 − 9)/16.
        let keys = [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0];
        let w = axis_weights(&keys, 0.5, Interp::Cubic);
        let v = eval_scalar(&[w], &[4], &[0.0, 1.0, 4.0, 9.0]);
        assert!((v - 2.25).abs() < 1e-12, "{v}");
    }

    #[test]
    fn bilinear_by_hand() {
        // 2x2 grid, values v[x][y]: 0, 10 / 100, 110; at (0.25, 0.5): 0.75·5 + 0.25·105.
        let ax = axis_weights(&[0.0, 1.0], 0.25, Interp::Linear);
        let ay = axis_weights(&[0.0, 1.0], 0.5, Interp::Linear);
        let v = eval_scalar(&[ax, ay], &[2, 2], &[0.0, 10.0, 100.0, 110.0]);
        assert!((v - 30.0).abs() < 1e-12, "{v}");
    }

    #[test]
    fn degenerate_axis_is_not_nan() {
        // A 1D binding stored as 3 x 1 (Inochi2D writes 1D params with one y key).
        let ax = axis_weights(&[0.0, 0.5, 1.0], 0.75, Interp::Linear);
        let ay = axis_weights(&[0.0], 0.9, Interp::Linear);
        let v = eval_scalar(&[ax, ay], &[3, 1], &[-7.5, -2.5, 2.5]);
        assert!((v - 0.0).abs() < 1e-12, "{v}");
    }
}
