//! Example-based deformation: a mesh's example shapes blended by weights. Each example is
//! stored as its offsets from the mesh's setup pose (x, y per vertex, flat), and a frame's
//! shape is `rest + sum_k w_k d_k`. The stage function works on flat arrays the caller
//! owns and allocates nothing; the facade (`Character`, step 8) turns the summed offsets
//! with the slot's bone and adds them to the skinned world vertices. Verified by the unit
//! tests below (closed forms) and `character/tests_shape_rig.rs`.

/// Adds `sum_k weights[k] * examples[k]` to `out`: `examples` holds `weights.len()` rows of
/// `out.len()` floats each (an example's offsets). Summed in f64, in example order; a zero
/// weight skips its row. Rows missing from a short `examples` count as zero.
pub fn blend_example_shapes(examples: &[f32], weights: &[f64], out: &mut [f64]) {
    let n = out.len();
    if n == 0 {
        return;
    }
    for (row, &w) in examples.chunks_exact(n).zip(weights) {
        if w == 0.0 {
            continue;
        }
        for (o, &d) in out.iter_mut().zip(row) {
            *o += w * f64::from(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blends_are_weighted_sums() {
        // Two examples of a two-vertex mesh.
        let examples = [1.0, 0.0, 0.0, 2.0, 0.0, 4.0, -2.0, 0.0];
        let mut out = [10.0, 20.0, 30.0, 40.0];
        blend_example_shapes(&examples, &[0.5, 0.25], &mut out);
        assert_eq!(out, [10.5, 21.0, 29.5, 41.0]);
        // Weight 1 on one example reproduces it; 0 on all leaves the rest pose.
        let mut out = [0.0; 4];
        blend_example_shapes(&examples, &[0.0, 1.0], &mut out);
        assert_eq!(out, [0.0, 4.0, -2.0, 0.0]);
        let mut out = [3.0; 4];
        blend_example_shapes(&examples, &[0.0, 0.0], &mut out);
        assert_eq!(out, [3.0; 4]);
        // A short example list: the missing rows count as zero.
        let mut out = [0.0; 4];
        blend_example_shapes(&examples[..4], &[1.0, 1.0], &mut out);
        assert_eq!(out, [1.0, 0.0, 0.0, 2.0]);
    }
}
