//! Binding: mean value coordinates of every mesh point, computed in f64 and stored as f32
//! in a [`CageBinding`], split over the available cores for large meshes
//! (`std::thread::scope`, chunks of whole weight blocks so threads write disjoint memory).
//! Verified by the unit tests below (the parallel result equals the serial one bit for bit;
//! progress reaches the total) and by `tests/all/cage_oracle.rs`.

use super::CageError;
use super::mvc::mvc_coordinates;
use super::polygon::Cage;
use super::weights::{CageBinding, LANES};

/// Points bound between two progress reports (a multiple of [`LANES`]).
const CHUNK: usize = 256 * LANES;

/// Below this many (point, cage vertex) pairs a bind stays on the calling thread.
const PARALLEL_MIN_WORK: usize = 1 << 16;

/// Binds `points` (bind space, the cage's space) to `cage` with mean value coordinates.
pub fn bind_mvc(cage: &Cage, points: &[[f64; 2]]) -> Result<CageBinding, CageError> {
    bind_mvc_with_progress(cage, points, &mut |_, _| {})
}

/// [`bind_mvc`], calling `progress(done, total)` after each chunk of points (for a
/// progress bar on large binds). Fails on the first point (in order) that is not finite
/// or where the coordinates are singular.
pub fn bind_mvc_with_progress(
    cage: &Cage,
    points: &[[f64; 2]],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<CageBinding, CageError> {
    let n = cage.vertex_count();
    let mut binding = CageBinding::zeroed(points.len(), n);
    let threads = std::thread::available_parallelism()
        .map(|t| t.get())
        .unwrap_or(1);
    let total = points.len();
    let mut done = 0;
    let block_floats = n * LANES;
    let weights = binding.weights_mut();
    for (chunk_index, chunk_weights) in weights.chunks_mut(CHUNK / LANES * block_floats).enumerate()
    {
        let first = chunk_index * CHUNK;
        let count = CHUNK.min(total - first);
        let pts = &points[first..first + count];
        if threads > 1 && count * n >= PARALLEL_MIN_WORK {
            let blocks = count.div_ceil(LANES);
            let per = blocks.div_ceil(threads);
            let results: Vec<Result<(), CageError>> = std::thread::scope(|s| {
                let handles: Vec<_> = chunk_weights
                    .chunks_mut(per * block_floats)
                    .enumerate()
                    .map(|(t, w)| {
                        let p0 = t * per * LANES;
                        let p1 = (p0 + per * LANES).min(count);
                        let sub = &pts[p0..p1];
                        s.spawn(move || fill_blocks(cage, sub, first + p0, w))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join()
                            .unwrap_or(Err(CageError::Solver("bind thread panicked".into())))
                    })
                    .collect()
            });
            for r in results {
                r?;
            }
        } else {
            fill_blocks(cage, pts, first, chunk_weights)?;
        }
        done += count;
        progress(done, total);
    }
    Ok(binding)
}

/// Fills the weight blocks `w` (starting at a block boundary) with the coordinates of
/// `points`, whose first has global index `first_index` (for error messages).
fn fill_blocks(
    cage: &Cage,
    points: &[[f64; 2]],
    first_index: usize,
    w: &mut [f32],
) -> Result<(), CageError> {
    let n = cage.vertex_count();
    let mut row = vec![0.0f64; n];
    for (k, p) in points.iter().enumerate() {
        mvc_coordinates(cage, *p, first_index + k, &mut row)?;
        store_row(w, k, n, &row);
    }
    Ok(())
}

/// Stores an f64 row for local point `k` of blocked weights `w` (`n` cage vertices),
/// rounding to f32 with the largest weight absorbing the others' rounding so the stored
/// row sums to 1 as closely as f32 allows.
pub(crate) fn store_row(w: &mut [f32], k: usize, n: usize, row: &[f64]) {
    let base = (k / LANES) * n * LANES + k % LANES;
    let mut big = 0;
    for (j, x) in row.iter().enumerate() {
        if x.abs() > row[big].abs() {
            big = j;
        }
    }
    let mut rest = 0.0f64;
    let mut total = 0.0f64;
    for (j, &x) in row.iter().enumerate() {
        total += x;
        if j != big {
            let xf = x as f32;
            rest += f64::from(xf);
            if let Some(slot) = w.get_mut(base + j * LANES) {
                *slot = xf;
            }
        }
    }
    if let Some(slot) = w.get_mut(base + big * LANES) {
        *slot = (total - rest) as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob(n: usize) -> Cage {
        let pts: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / n as f64;
                let r = 1.0 + 0.3 * (3.0 * a).sin();
                [r * a.cos(), r * a.sin()]
            })
            .collect();
        Cage::from_loops(&[pts]).expect("valid")
    }

    fn grid_points(m: usize) -> Vec<[f64; 2]> {
        (0..m)
            .map(|k| {
                let t = k as f64 / m as f64;
                [0.6 * (t * 97.0).sin(), 0.6 * (t * 61.0).cos()]
            })
            .collect()
    }

    #[test]
    fn parallel_bind_equals_serial_bit_for_bit() {
        let cage = blob(32);
        let pts = grid_points(5000);
        let mut calls = Vec::new();
        let b =
            bind_mvc_with_progress(&cage, &pts, &mut |d, t| calls.push((d, t))).expect("inside");
        assert_eq!(calls.last(), Some(&(5000, 5000)));
        assert_eq!(calls.len(), 2);
        let mut serial = CageBinding::zeroed(pts.len(), 32);
        fill_blocks(&cage, &pts, 0, serial.weights_mut()).expect("inside");
        assert_eq!(b, serial);
        // Spot-check against the f64 coordinates.
        let mut row = vec![0.0; 32];
        mvc_coordinates(&cage, pts[4321], 0, &mut row).expect("inside");
        for (j, w) in row.iter().enumerate() {
            assert!((f64::from(b.weight(4321, j)) - w).abs() < 1e-7);
        }
    }

    #[test]
    fn the_first_bad_point_is_reported() {
        let cage = blob(8);
        let mut pts = grid_points(100);
        pts[42] = [f64::INFINITY, 0.0];
        pts[77] = [f64::NAN, 0.0];
        assert_eq!(
            bind_mvc(&cage, &pts),
            Err(CageError::NonFinite {
                what: "point",
                index: 42
            })
        );
    }
}
