//! Kind 4 of the cage weights file: grid-interpolated weights ([`GridBinding`]).
//!
//! ```text
//! header     as every kind (format.rs); weights per point = 4
//! payload    nodes N (u32, at most the points, at least 1 when there are points),
//!            then N x cage vertices f32 node rows (row-major),
//!            then points x 4 u32 node indices, then points x 4 f32 weights
//! ```
//!
//! Checked as the other kinds before anything is allocated (the payload length against
//! the counts and the bytes present, the checksum), then every node row as a dense row
//! (finite, at most [`MAX_WEIGHT`](super::format::MAX_WEIGHT), sums to 1) and every point (indices below N, weights
//! within [0, 1] and summing to 1). Verified by the round-trip and corruption tests in
//! `format.rs`.

use super::format::{
    FormatError, HEADER_LEN, LoadedBinding, ROW_SUM_TOLERANCE, check_weights, checked_payload,
    f32s, header, off_one,
};
use super::grid::GridBinding;
use super::weights::CageBinding;

/// The kind byte.
pub(super) const KIND_GRID: u8 = 4;

/// Serialises grid-interpolated weights (kind 4).
pub fn encode_grid(g: &GridBinding) -> Vec<u8> {
    let nodes = g.nodes();
    let mut payload = Vec::with_capacity(
        4 + nodes.point_count() * nodes.cage_vertex_count() * 4 + g.point_count() * 32,
    );
    payload.extend_from_slice(&(nodes.point_count() as u32).to_le_bytes());
    payload.extend(nodes.to_rows().iter().flat_map(|w| w.to_le_bytes()));
    payload.extend(g.corners().iter().flatten().flat_map(|c| c.to_le_bytes()));
    payload.extend(g.betas().iter().flatten().flat_map(|b| b.to_le_bytes()));
    header(
        KIND_GRID,
        g.point_count(),
        g.cage_vertex_count(),
        4,
        &payload,
    )
}

/// Decodes a kind 4 file whose header fields (`points`, `cage`, `per`, the declared
/// payload length and the stored checksum) were read and range-checked by `decode`.
pub(super) fn decode_grid(
    bytes: &[u8],
    (points, cage, per): (u32, u32, u32),
    declared: u64,
    stored: u32,
) -> Result<LoadedBinding, FormatError> {
    use FormatError::*;
    if per != 4 {
        return Err(CountTooLarge {
            what: "grid weights per point (must be 4)",
            value: u64::from(per),
            limit: 4,
        });
    }
    let have = (bytes.len() - HEADER_LEN) as u64;
    if have < 4 || declared < 4 {
        return Err(Truncated {
            expected: 4,
            got: have.min(declared),
        });
    }
    let payload = &bytes[HEADER_LEN..];
    let nodes = u32::from_le_bytes([payload[0], payload[1], payload[2], payload[3]]);
    if nodes > points || (points > 0 && nodes == 0) {
        return Err(CountTooLarge {
            what: "grid nodes (1..=points)",
            value: u64::from(nodes),
            limit: u64::from(points),
        });
    }
    let node_floats = u64::from(nodes) * u64::from(cage);
    let expected = 4 + node_floats * 4 + u64::from(points) * 32;
    if declared != expected {
        return Err(LengthMismatch { declared, expected });
    }
    let payload = checked_payload(bytes, expected, stored)?;
    // From here every size is backed by bytes that exist.
    let (nodes, cage, points) = (nodes as usize, cage as usize, points as usize);
    let rows_end = 4 + nodes * cage * 4;
    let rows = f32s(&payload[4..rows_end]);
    check_weights(&rows)?;
    if cage > 0
        && let Some(p) = rows.chunks_exact(cage).position(off_one)
    {
        return Err(RowSum(p));
    }
    let node_rows = CageBinding::from_rows(nodes, cage, &rows).map_err(|_| Truncated {
        expected,
        got: have,
    })?;
    let idx_end = rows_end + points * 16;
    let corners: Vec<[u32; 4]> = payload[rows_end..idx_end]
        .chunks_exact(16)
        .map(|c| {
            std::array::from_fn(|k| {
                u32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])
            })
        })
        .collect();
    if let Some(i) = corners.iter().flatten().position(|&c| c as usize >= nodes) {
        return Err(BadIndex(i));
    }
    let flat = f32s(&payload[idx_end..]);
    let betas: Vec<[f32; 4]> = flat
        .chunks_exact(4)
        .map(|b| [b[0], b[1], b[2], b[3]])
        .collect();
    if let Some(i) = flat.iter().position(|w| !w.is_finite()) {
        return Err(NonFiniteWeight(nodes * cage + i));
    }
    if let Some(i) = flat.iter().position(|w| !(-1e-3..=1.001).contains(w)) {
        // Bilinear weights lie in [0, 1].
        return Err(WeightOutOfRange(nodes * cage + i));
    }
    if let Some(p) = betas.iter().position(|b| off_one(b)) {
        return Err(RowSum(p));
    }
    GridBinding::from_parts(node_rows, corners, betas, ROW_SUM_TOLERANCE)
        .map(LoadedBinding::Grid)
        .map_err(|_| BadIndex(0))
}
