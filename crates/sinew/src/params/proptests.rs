//! Property tests of keyform grids (bounded): keyforms are reproduced exactly at grid
//! points, linear mode is linear along each axis inside a cell, and linear results lie in
//! the convex hull (per-coordinate bounds) of the cell's neighbouring keyforms.

use super::grid::{AxisWeights, Interp, accumulate_grid, axis_weights, locate};
use proptest::prelude::*;

/// Sorted keys from 0 to 1 with `n` entries and strictly increasing interior points.
fn keys(n: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(0.05f64..1.0, n.saturating_sub(1)).prop_map(move |steps| {
        let total: f64 = steps.iter().sum();
        let mut k = vec![0.0];
        let mut acc = 0.0;
        for s in &steps {
            acc += s / total;
            k.push(acc);
        }
        if let Some(last) = k.last_mut() {
            *last = 1.0;
        }
        k
    })
}

/// A grid: 1..=3 axes with 2..=4 keys each, keyforms of `stride` floats.
fn grid(stride: usize) -> impl Strategy<Value = (Vec<Vec<f64>>, Vec<f32>)> {
    prop::collection::vec(2usize..=4, 1..=3).prop_flat_map(move |dims| {
        let n: usize = dims.iter().product();
        (
            dims.into_iter().map(keys).collect::<Vec<_>>(),
            prop::collection::vec(-100.0f32..100.0, n * stride),
        )
    })
}

fn eval(axes: &[AxisWeights], dims: &[u32], values: &[f32], stride: usize) -> Vec<f64> {
    let mut out = vec![0.0; stride];
    accumulate_grid(axes, dims, values, 1.0, &mut out);
    out
}

fn dims_of(k: &[Vec<f64>]) -> Vec<u32> {
    k.iter().map(|k| k.len() as u32).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn keyforms_reproduced_at_grid_points((k, values) in grid(2), pick in prop::collection::vec(0usize..4, 3), mode in 0u8..3) {
        let interp = [Interp::Nearest, Interp::Linear, Interp::Cubic][mode as usize];
        let idx: Vec<usize> = k.iter().zip(&pick).map(|(k, &p)| p % k.len()).collect();
        let axes: Vec<AxisWeights> = k.iter().zip(&idx).map(|(k, &i)| axis_weights(k, k[i], interp)).collect();
        let dims = dims_of(&k);
        let got = eval(&axes, &dims, &values, 2);
        let mut flat = 0;
        for (d, &i) in dims.iter().zip(&idx) {
            flat = flat * *d as usize + i;
        }
        for c in 0..2 {
            prop_assert_eq!(got[c], f64::from(values[flat * 2 + c]));
        }
    }

    #[test]
    fn linear_along_each_axis((k, values) in grid(1), t in prop::collection::vec(0.0f64..=1.0, 3), axis in 0usize..3, s in 0.0f64..=1.0) {
        let axis = axis % k.len();
        let dims = dims_of(&k);
        let at = |ta: f64| {
            let axes: Vec<AxisWeights> = k.iter().enumerate()
                .map(|(a, keys)| axis_weights(keys, if a == axis { ta } else { t[a] }, Interp::Linear))
                .collect();
            eval(&axes, &dims, &values, 1)[0]
        };
        // Inside the cell holding t[axis], the value is affine in the axis coordinate.
        let keys = &k[axis];
        let (i, _) = locate(keys, t[axis]);
        let (a, b) = (keys[i], keys[i + 1]);
        let m = a + (b - a) * s;
        let expect = at(a) + (at(b) - at(a)) * s;
        prop_assert!((at(m) - expect).abs() < 1e-9 * (1.0 + expect.abs()), "{} vs {}", at(m), expect);
    }

    #[test]
    fn linear_inside_convex_hull((k, values) in grid(2), t in prop::collection::vec(0.0f64..=1.0, 3)) {
        let dims = dims_of(&k);
        let axes: Vec<AxisWeights> = k.iter().zip(&t).map(|(keys, &t)| axis_weights(keys, t, Interp::Linear)).collect();
        let got = eval(&axes, &dims, &values, 2);
        // The neighbouring keyforms: every corner of the cell.
        let na = k.len();
        for c in 0..2 {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for corner in 0..(1usize << na) {
                let mut flat = 0;
                for a in 0..na {
                    flat = flat * dims[a] as usize + axes[a].index[(corner >> (na - 1 - a)) & 1] as usize;
                }
                let v = f64::from(values[flat * 2 + c]);
                lo = lo.min(v);
                hi = hi.max(v);
            }
            prop_assert!(got[c] >= lo - 1e-9 && got[c] <= hi + 1e-9, "{} not in [{}, {}]", got[c], lo, hi);
        }
    }

    #[test]
    fn weights_sum_to_one(k in keys(5), t in -0.5f64..1.5, mode in 0u8..3) {
        let interp = [Interp::Nearest, Interp::Linear, Interp::Cubic][mode as usize];
        let w = axis_weights(&k, t.clamp(0.0, 1.0), interp);
        let s: f64 = w.weight[..w.len as usize].iter().sum();
        prop_assert!((s - 1.0).abs() < 1e-12);
    }
}
