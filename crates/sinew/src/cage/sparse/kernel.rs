//! The deformation kernels of a [`SparseBinding`](super::SparseBinding).
//!
//! For cages of up to [`STACK_CAGE`] vertices the rows are also kept in a blocked layout:
//! points in blocks of [`LANES`], each block padded to its longest row, slot by slot
//! (`slot * LANES + lane`), the padding being weight 0 on cage vertex 0. The deformed cage
//! is first moved to its first vertex in a stack buffer of `STACK_CAGE` pairs, which vertex
//! 0 maps to exactly (0, 0), so padding adds exact zeros; indices below 256 read that
//! buffer as `u8` without a bounds check. Every block's inner loop has the same trip count
//! (`LANES`), so the branch predictor is not defeated by rows of varying length (measured:
//! variable-length rows cost about 8 ns per point in mispredictions on the CSR loop). Larger
//! cages take the compressed rows, subtracting the origin per weight. Both are tested
//! against [`SparseBinding::deform_reference`](super::SparseBinding::deform_reference).

use super::SparseBinding;

/// Cages of up to this many vertices take the blocked stack-buffer kernel.
pub const STACK_CAGE: usize = 256;

/// Points per block of the blocked layout: the dense weights' block size.
pub const LANES: usize = crate::cage::weights::LANES;

/// The blocked layout (empty for cages above [`STACK_CAGE`] vertices).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Blocks {
    /// Start of block `b`'s slots in `indices` / `weights` (`blocks + 1` entries).
    starts: Vec<u32>,
    indices: Vec<u8>,
    weights: Vec<f32>,
}

impl Blocks {
    /// Builds the blocked layout of compressed rows over `cage_vertices` vertices.
    pub(crate) fn build(
        cage_vertices: usize,
        offsets: &[u32],
        indices: &[u16],
        weights: &[f32],
    ) -> Blocks {
        let mut b = Blocks::default();
        if cage_vertices > STACK_CAGE || offsets.len() < 2 {
            return b;
        }
        b.starts.push(0);
        let rows: Vec<(usize, usize)> = offsets
            .windows(2)
            .map(|w| (w[0] as usize, w[1] as usize))
            .collect();
        for block in rows.chunks(LANES) {
            let slots = block.iter().map(|&(s, e)| e - s).max().unwrap_or(0);
            for slot in 0..slots {
                for lane in 0..LANES {
                    let (j, w) = match block.get(lane) {
                        Some(&(s, e)) if s + slot < e => {
                            (indices[s + slot] as u8, weights[s + slot])
                        }
                        _ => (0, 0.0),
                    };
                    b.indices.push(j);
                    b.weights.push(w);
                }
            }
            b.starts.push(b.weights.len() as u32);
        }
        b
    }

    /// Bytes the blocked kernel streams per call.
    pub(crate) fn bytes(&self) -> usize {
        self.weights.len() * 5 + self.starts.len() * 4
    }

    /// Stored slots (weights plus padding).
    pub(crate) fn slots(&self) -> usize {
        self.weights.len()
    }
}

impl SparseBinding {
    /// The kernels; sizes were checked by the caller.
    pub(crate) fn deform_unchecked(&self, cage: &[f32], out: &mut [f32]) {
        if self.cage_vertices == 0 {
            return; // no cage vertex: no row can exist
        }
        let o = [cage[0], cage[1]];
        if self.cage_vertices <= STACK_CAGE {
            let mut rel = [[0.0f32; 2]; STACK_CAGE];
            for (r, c) in rel.iter_mut().zip(cage.chunks_exact(2)) {
                *r = [c[0] - o[0], c[1] - o[1]];
            }
            self.blocks_relative(&rel, o, out);
        } else {
            self.rows_subtracting(cage, o, out);
        }
    }

    /// The blocked kernel over the cage moved to `o`.
    fn blocks_relative(&self, rel: &[[f32; 2]; STACK_CAGE], o: [f32; 2], out: &mut [f32]) {
        let b = &self.blocks;
        for (w, dst) in b.starts.windows(2).zip(out.chunks_mut(2 * LANES)) {
            let (s, e) = (w[0] as usize, w[1] as usize);
            let mut ax = [0.0f32; LANES];
            let mut ay = [0.0f32; LANES];
            for (i, w) in b.indices[s..e]
                .chunks_exact(LANES)
                .zip(b.weights[s..e].chunks_exact(LANES))
            {
                for l in 0..LANES {
                    let c = rel[usize::from(i[l])];
                    ax[l] += w[l] * c[0];
                    ay[l] += w[l] * c[1];
                }
            }
            for (l, pair) in dst.chunks_exact_mut(2).enumerate() {
                pair[0] = o[0] + ax[l];
                pair[1] = o[1] + ay[l];
            }
        }
    }

    /// The compressed-rows kernel for large cages: the origin `o` subtracted per weight.
    fn rows_subtracting(&self, cage: &[f32], o: [f32; 2], out: &mut [f32]) {
        let mut start = 0usize;
        for (&end, pair) in self.offsets[1..].iter().zip(out.chunks_exact_mut(2)) {
            let end = end as usize;
            let (mut ax, mut ay) = (0.0f32, 0.0f32);
            for (&j, &wj) in self.indices[start..end]
                .iter()
                .zip(&self.weights[start..end])
            {
                let c = 2 * usize::from(j);
                ax += wj * (cage[c] - o[0]);
                ay += wj * (cage[c + 1] - o[1]);
            }
            start = end;
            pair[0] = o[0] + ax;
            pair[1] = o[1] + ay;
        }
    }
}
