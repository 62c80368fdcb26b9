//! The binary form of bound cage weights: small, versioned, little-endian, checksummed.
//!
//! ```text
//! offset size  field
//!  0      8    magic "SINEWCG\0"
//!  8      2    version (u16) = 1
//! 10      1    kind: 1 dense, 2 sparse (K per point), 3 sparse rows (1..=K per point),
//!              4 grid-interpolated (`format_grid.rs`)
//! 11      1    reserved, 0
//! 12      4    points (u32)            at most MAX_POINTS
//! 16      4    cage vertices (u32)     at most 65535
//! 20      4    weights per point (u32) dense: = cage vertices; sparse: K (1..=cage vertices);
//!              sparse rows: the most at any point (1..=cage vertices); grid: 4
//! 24      8    payload length in bytes (u64), must equal what the counts imply
//! 32      4    CRC-32 (IEEE) of bytes 0..32 followed by the payload
//! 36      4    reserved, 0
//! 40      ...  payload: dense: points x cage vertices f32, row-major;
//!              sparse: points x K f32 weights, then points x K u16 cage vertex indices;
//!              sparse rows: points u16 counts (1..=K), then the W = sum of counts f32
//!              weights, then W u16 cage vertex indices (row after row);
//!              grid: see `format_grid.rs`
//! ```
//!
//! A sparse binding with the same count at every point is written as kind 2, any other as
//! kind 3.
//!
//! Decoding never panics and never allocates more than the input's own size: every count
//! is checked against its limit and the payload length against the bytes actually present
//! before anything is allocated. Floats are stored by their bits, so a round trip is
//! bit-exact. Verified by the unit tests below (round trips, every corruption, truncation
//! at every length, a single flipped bit anywhere).

pub use super::format_grid::encode_grid;
use super::format_grid::{KIND_GRID, decode_grid};
use super::sparse::SparseBinding;
use super::weights::CageBinding;
use std::fmt;

/// File magic.
pub const MAGIC: [u8; 8] = *b"SINEWCG\0";
/// Current format version.
pub const VERSION: u16 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 40;
/// Most points a file may declare.
pub const MAX_POINTS: u32 = 1 << 24;

const KIND_DENSE: u8 = 1;
const KIND_SPARSE: u8 = 2;
const KIND_SPARSE_ROWS: u8 = 3;

/// What is wrong with a serialised binding.
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatError {
    /// Fewer bytes than a header.
    TooShort {
        /// Bytes present.
        got: usize,
    },
    /// The magic bytes are wrong (not a sinew cage weights file).
    BadMagic,
    /// A version this build cannot read.
    UnsupportedVersion(u16),
    /// An unknown kind byte.
    BadKind(u8),
    /// A reserved field is not zero.
    Reserved,
    /// A declared count is beyond its limit.
    CountTooLarge {
        /// Which count.
        what: &'static str,
        /// Its value.
        value: u64,
        /// The limit.
        limit: u64,
    },
    /// The declared payload length disagrees with the counts.
    LengthMismatch {
        /// Declared.
        declared: u64,
        /// Implied by the counts.
        expected: u64,
    },
    /// The payload is cut short.
    Truncated {
        /// Bytes needed.
        expected: u64,
        /// Bytes present.
        got: u64,
    },
    /// Bytes after the payload.
    TrailingBytes(usize),
    /// The checksum does not match (the file is corrupt).
    Checksum {
        /// Stored.
        stored: u32,
        /// Computed.
        computed: u32,
    },
    /// A weight is NaN or infinite.
    NonFiniteWeight(usize),
    /// A sparse index names a cage vertex that does not exist.
    BadIndex(usize),
    /// A weight is beyond [`MAX_WEIGHT`] in magnitude (no cage gives such weights).
    WeightOutOfRange(usize),
    /// A point's weights do not sum to 1 (within [`ROW_SUM_TOLERANCE`]): cage coordinates
    /// reproduce the cage's affine motions, so every row sums to 1.
    RowSum(usize),
    /// A point of a sparse-rows binding declares no weights or more than the header's
    /// weights per point.
    RowCount(usize),
}

/// The largest weight magnitude a weights file may hold.
pub const MAX_WEIGHT: f32 = 1e4;

/// How far a point's weights may sum from 1.
pub const ROW_SUM_TOLERANCE: f64 = 1e-2;

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FormatError::*;
        match self {
            TooShort { got } => write!(
                f,
                "{got} bytes is shorter than the {HEADER_LEN}-byte header"
            ),
            BadMagic => write!(f, "not a sinew cage weights file (bad magic)"),
            UnsupportedVersion(v) => {
                write!(f, "unsupported version {v} (this build reads {VERSION})")
            }
            BadKind(k) => write!(
                f,
                "unknown kind {k} (1 dense, 2 sparse, 3 sparse rows, 4 grid)"
            ),
            Reserved => write!(f, "reserved header field is not zero"),
            CountTooLarge { what, value, limit } => {
                write!(f, "{what} {value} exceeds the limit {limit}")
            }
            LengthMismatch { declared, expected } => write!(
                f,
                "payload length {declared} disagrees with the counts ({expected} expected)"
            ),
            Truncated { expected, got } => {
                write!(
                    f,
                    "truncated: payload needs {expected} bytes, {got} present"
                )
            }
            TrailingBytes(n) => write!(f, "{n} unexpected bytes after the payload"),
            Checksum { stored, computed } => write!(
                f,
                "checksum mismatch (stored {stored:08x}, computed {computed:08x}): file is corrupt"
            ),
            NonFiniteWeight(i) => write!(f, "weight {i} is not finite"),
            BadIndex(i) => write!(f, "sparse index {i} names a cage vertex out of range"),
            WeightOutOfRange(i) => write!(
                f,
                "weight {i} is out of range (at most {MAX_WEIGHT:e} in magnitude)"
            ),
            RowSum(p) => write!(
                f,
                "the weights of point {p} do not sum to 1 (within {ROW_SUM_TOLERANCE})"
            ),
            RowCount(p) => write!(
                f,
                "point {p} declares no weights or more than the header's weights per point"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// A decoded binding.
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub enum LoadedBinding {
    /// Dense weights.
    Dense(CageBinding),
    /// A few weights per point (kind 2 or 3).
    Sparse(SparseBinding),
    /// Grid-interpolated weights (kind 4).
    Grid(super::grid::GridBinding),
}

impl LoadedBinding {
    /// (cage vertices, points) the binding deforms.
    pub fn counts(&self) -> (usize, usize) {
        match self {
            LoadedBinding::Dense(b) => (b.cage_vertex_count(), b.point_count()),
            LoadedBinding::Sparse(b) => (b.cage_vertex_count(), b.point_count()),
            LoadedBinding::Grid(g) => (g.cage_vertex_count(), g.point_count()),
        }
    }

    /// The points deformed by `cage` (x, y pairs), whatever the kind, in a new buffer: for
    /// tools that deform a loaded file once (`sinew cage deform`). A frame loop keeps the
    /// binding itself and its own buffers. Fails on a cage of the wrong size.
    ///
    /// ```
    /// use sinew::cage::format::{decode, encode_dense};
    /// use sinew::cage::CageBinding;
    ///
    /// let b = CageBinding::from_rows(1, 3, &[0.5, 0.25, 0.25])?;
    /// let loaded = decode(&encode_dense(&b)).expect("valid");
    /// assert_eq!(loaded.counts(), (3, 1));
    /// assert_eq!(loaded.deformed(&[4.0, 0.0, 0.0, 4.0, 0.0, 0.0])?, vec![2.0, 1.0]);
    /// # Ok::<(), sinew::cage::CageError>(())
    /// ```
    pub fn deformed(&self, cage: &[f32]) -> Result<Vec<f32>, super::CageError> {
        let mut out = vec![0.0f32; 2 * self.counts().1];
        match self {
            LoadedBinding::Dense(b) => b.deform(cage, &mut out)?,
            LoadedBinding::Sparse(b) => b.deform(cage, &mut out)?,
            LoadedBinding::Grid(g) => g.deform(cage, &mut vec![0.0; g.scratch_len()], &mut out)?,
        }
        Ok(out)
    }
}

const CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

fn crc_update(mut crc: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        crc = CRC_TABLE[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8);
    }
    crc
}

/// CRC-32 (IEEE 802.3, as zlib) of the concatenation of `parts`.
pub fn crc32(parts: &[&[u8]]) -> u32 {
    !parts.iter().fold(!0u32, |c, p| crc_update(c, p))
}

pub(super) fn header(kind: u8, points: usize, cage: usize, per: usize, payload: &[u8]) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER_LEN + payload.len());
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.push(kind);
    h.push(0);
    h.extend_from_slice(&(points as u32).to_le_bytes());
    h.extend_from_slice(&(cage as u32).to_le_bytes());
    h.extend_from_slice(&(per as u32).to_le_bytes());
    h.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    let crc = crc32(&[&h[..32], payload]);
    h.extend_from_slice(&crc.to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    h.extend_from_slice(payload);
    h
}

/// Serialises dense weights.
pub fn encode_dense(b: &CageBinding) -> Vec<u8> {
    let payload: Vec<u8> = b.to_rows().iter().flat_map(|w| w.to_le_bytes()).collect();
    let n = b.cage_vertex_count();
    header(KIND_DENSE, b.point_count(), n, n, &payload)
}

/// Serialises a sparse binding: kind 2 when every point has the same count, else kind 3.
pub fn encode_sparse(b: &SparseBinding) -> Vec<u8> {
    let uniform = b.is_uniform();
    let mut payload: Vec<u8> = Vec::with_capacity(b.weight_count() * 6 + b.point_count() * 2);
    if !uniform {
        // Counts fit u16: at most one weight per cage vertex (at most 65535).
        payload.extend(
            b.offsets()
                .windows(2)
                .flat_map(|w| ((w[1] - w[0]) as u16).to_le_bytes()),
        );
    }
    payload.extend(b.weights().iter().flat_map(|w| w.to_le_bytes()));
    payload.extend(b.indices().iter().flat_map(|i| i.to_le_bytes()));
    let kind = if uniform {
        KIND_SPARSE
    } else {
        KIND_SPARSE_ROWS
    };
    header(
        kind,
        b.point_count(),
        b.cage_vertex_count(),
        b.k().max(1),
        &payload,
    )
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The payload behind the header, once it is exactly `expected` bytes long and its
/// checksum is the `stored` one.
pub(super) fn checked_payload(
    bytes: &[u8],
    expected: u64,
    stored: u32,
) -> Result<&[u8], FormatError> {
    let payload = &bytes[HEADER_LEN..];
    let have = payload.len() as u64;
    if have < expected {
        return Err(FormatError::Truncated {
            expected,
            got: have,
        });
    }
    if have > expected {
        return Err(FormatError::TrailingBytes((have - expected) as usize));
    }
    let computed = crc32(&[&bytes[..32], payload]);
    if computed != stored {
        return Err(FormatError::Checksum { stored, computed });
    }
    Ok(payload)
}

/// Little-endian f32s, by their bits.
pub(super) fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Every weight finite and at most [`MAX_WEIGHT`] in magnitude (the error names the first
/// that is not, by its index in `weights`).
pub(super) fn check_weights(weights: &[f32]) -> Result<(), FormatError> {
    if let Some(i) = weights.iter().position(|w| !w.is_finite()) {
        return Err(FormatError::NonFiniteWeight(i));
    }
    if let Some(i) = weights.iter().position(|w| w.abs() > MAX_WEIGHT) {
        return Err(FormatError::WeightOutOfRange(i));
    }
    Ok(())
}

/// Whether a point's weights miss a sum of 1 by more than [`ROW_SUM_TOLERANCE`].
pub(super) fn off_one(row: &[f32]) -> bool {
    (row.iter().map(|&w| f64::from(w)).sum::<f64>() - 1.0).abs() > ROW_SUM_TOLERANCE
}

/// Decodes a serialised binding, checking everything before allocating.
pub fn decode(bytes: &[u8]) -> Result<LoadedBinding, FormatError> {
    use FormatError::*;
    if bytes.len() < HEADER_LEN {
        return Err(TooShort { got: bytes.len() });
    }
    if bytes[..8] != MAGIC {
        return Err(BadMagic);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(UnsupportedVersion(version));
    }
    let kind = bytes[10];
    if kind != KIND_DENSE && kind != KIND_SPARSE && kind != KIND_SPARSE_ROWS && kind != KIND_GRID {
        return Err(BadKind(kind));
    }
    if bytes[11] != 0 || u32_at(bytes, 36) != 0 {
        return Err(Reserved);
    }
    let points = u32_at(bytes, 12);
    let cage = u32_at(bytes, 16);
    let per = u32_at(bytes, 20);
    let declared = u64::from_le_bytes(bytes[24..32].try_into().map_err(|_| BadMagic)?);
    let stored = u32_at(bytes, 32);
    let limit = |what, value: u32, limit: u32| {
        if value > limit {
            Err(CountTooLarge {
                what,
                value: u64::from(value),
                limit: u64::from(limit),
            })
        } else {
            Ok(())
        }
    };
    limit("points", points, MAX_POINTS)?;
    limit("cage vertices", cage, u32::from(u16::MAX))?;
    if kind == KIND_GRID {
        return decode_grid(bytes, (points, cage, per), declared, stored);
    }
    if kind == KIND_DENSE && per != cage {
        return Err(CountTooLarge {
            what: "dense weights per point (must equal cage vertices)",
            value: u64::from(per),
            limit: u64::from(cage),
        });
    }
    if kind != KIND_DENSE && (per == 0 || per > cage) {
        return Err(CountTooLarge {
            what: "sparse K (1..=cage vertices)",
            value: u64::from(per),
            limit: u64::from(cage),
        });
    }
    let mut count = u64::from(points) * u64::from(per);
    let mut expected = count * if kind == KIND_DENSE { 4 } else { 6 };
    if kind == KIND_SPARSE_ROWS {
        // The counts come first; the length is checked against them below. Here: at
        // least one and at most `per` weights per point.
        let least = u64::from(points) * 8;
        expected += u64::from(points) * 2;
        if declared < least || declared > expected {
            return Err(LengthMismatch {
                declared,
                expected: declared.clamp(least, expected),
            });
        }
        expected = declared;
    } else if declared != expected {
        return Err(LengthMismatch { declared, expected });
    }
    let have = (bytes.len() - HEADER_LEN) as u64;
    let payload = checked_payload(bytes, expected, stored)?;
    // From here every size is backed by bytes that exist.
    let (points, cage, per) = (points as usize, cage as usize, per as usize);
    let mut offsets: Vec<u32> = Vec::new();
    let mut payload = payload;
    if kind == KIND_SPARSE_ROWS {
        let (counts, rest) = payload.split_at(points * 2);
        offsets.reserve(points + 1);
        offsets.push(0);
        let mut total = 0u64;
        for (p, c) in counts.chunks_exact(2).enumerate() {
            let c = u16::from_le_bytes([c[0], c[1]]);
            if c == 0 || usize::from(c) > per {
                return Err(RowCount(p));
            }
            total += u64::from(c);
            // u32 offsets: a larger total would also need more bytes than a file can hold
            // in memory here; refuse it rather than wrap.
            let Ok(end) = u32::try_from(total) else {
                return Err(CountTooLarge {
                    what: "sparse weights in all",
                    value: total,
                    limit: u64::from(u32::MAX),
                });
            };
            offsets.push(end);
        }
        if total * 6 != rest.len() as u64 {
            return Err(LengthMismatch {
                declared,
                expected: points as u64 * 2 + total * 6,
            });
        }
        count = total;
        payload = rest;
    }
    let count = count as usize;
    let weights = f32s(&payload[..count * 4]);
    check_weights(&weights)?;
    let bad_row = if kind == KIND_SPARSE_ROWS {
        offsets
            .windows(2)
            .position(|o| off_one(&weights[o[0] as usize..o[1] as usize]))
    } else if per > 0 {
        weights.chunks_exact(per).position(off_one)
    } else {
        None
    };
    if let Some(p) = bad_row {
        return Err(RowSum(p));
    }
    if kind == KIND_DENSE {
        let b = CageBinding::from_rows(points, cage, &weights).map_err(|_| Truncated {
            expected,
            got: have,
        })?;
        return Ok(LoadedBinding::Dense(b));
    }
    let indices: Vec<u16> = payload[count * 4..]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    if let Some(i) = indices.iter().position(|&j| usize::from(j) >= cage) {
        return Err(BadIndex(i));
    }
    let b = if kind == KIND_SPARSE_ROWS {
        SparseBinding::from_csr(cage, offsets, indices, weights)
    } else {
        SparseBinding::from_parts(per, cage, indices, weights)
    };
    b.map(LoadedBinding::Sparse).map_err(|_| BadIndex(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dense() -> CageBinding {
        let rows: Vec<f32> = (0..7 * 5)
            .map(|k| (k as f32 * 0.731).sin() * 1e-3 + if k % 5 == 0 { 1.0 } else { 0.0 })
            .collect();
        CageBinding::from_rows(7, 5, &rows).expect("sizes")
    }

    fn sparse() -> SparseBinding {
        let idx = vec![0, 2, 4, 1, 3, 4];
        let w = vec![0.5, 0.25, 0.25, -0.125, 1.0, 0.125];
        SparseBinding::from_parts(3, 5, idx, w).expect("valid")
    }

    /// Rows of 1, 3 and 2 weights over 5 cage vertices.
    fn ragged() -> SparseBinding {
        let w = vec![1.0, 0.5, 0.25, 0.25, 1.5, -0.5];
        SparseBinding::from_csr(5, vec![0, 1, 4, 6], vec![3, 0, 2, 4, 1, 0], w).expect("valid")
    }

    #[test]
    fn sparse_rows_round_trip_and_are_checked() {
        let r = ragged();
        let bytes = encode_sparse(&r);
        assert_eq!(bytes[10], KIND_SPARSE_ROWS);
        assert_eq!(bytes.len(), HEADER_LEN + 3 * 2 + 6 * 6);
        assert_eq!(decode(&bytes), Ok(LoadedBinding::Sparse(r)));
        // Uniform rows stay kind 2.
        assert_eq!(encode_sparse(&sparse())[10], KIND_SPARSE);
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len]).is_err(), "length {len}");
        }
        for bit in 0..bytes.len() * 8 {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            assert!(decode(&b).is_err(), "bit {bit}");
        }
        // A count of 0, or above the header's K, with a valid checksum.
        for (count, err) in [
            (0u16, FormatError::RowCount(0)),
            (4, FormatError::RowCount(0)),
        ] {
            let mut b = bytes.clone();
            b[HEADER_LEN..HEADER_LEN + 2].copy_from_slice(&count.to_le_bytes());
            let crc = crc32(&[&b[..32], &b[HEADER_LEN..]]);
            b[32..36].copy_from_slice(&crc.to_le_bytes());
            assert_eq!(decode(&b), Err(err));
        }
        // Counts that disagree with the payload length (3 + 1 + 2 = 6 -> 1 + 1 + 2 = 4).
        let mut b = bytes.clone();
        b[HEADER_LEN + 2..HEADER_LEN + 4].copy_from_slice(&1u16.to_le_bytes());
        let crc = crc32(&[&b[..32], &b[HEADER_LEN..]]);
        b[32..36].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(
            decode(&b),
            Err(FormatError::LengthMismatch { .. })
        ));
        // An empty sparse binding round-trips too.
        let empty = SparseBinding::from_csr(4, vec![0], vec![], vec![]).expect("valid");
        assert_eq!(
            decode(&encode_sparse(&empty)),
            Ok(LoadedBinding::Sparse(empty))
        );
    }

    #[test]
    fn crc_matches_the_standard_check_value() {
        assert_eq!(crc32(&[b"1234", b"56789"]), 0xCBF4_3926);
    }

    #[test]
    fn round_trips_are_bit_exact() {
        let d = dense();
        let bytes = encode_dense(&d);
        assert_eq!(bytes.len(), HEADER_LEN + 7 * 5 * 4);
        assert_eq!(decode(&bytes), Ok(LoadedBinding::Dense(d.clone())));
        let s = sparse();
        assert_eq!(decode(&encode_sparse(&s)), Ok(LoadedBinding::Sparse(s)));
        // A NaN-free negative zero keeps its bits too.
        let z = CageBinding::from_rows(1, 3, &[-0.0, 1.0, 0.0]).expect("sizes");
        let LoadedBinding::Dense(back) = decode(&encode_dense(&z)).expect("valid") else {
            panic!("kind")
        };
        assert_eq!(back.weight(0, 0).to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = encode_sparse(&sparse());
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len]).is_err(), "length {len}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(decode(&long), Err(FormatError::TrailingBytes(1)));
    }

    #[test]
    fn every_single_bit_flip_is_an_error() {
        let bytes = encode_dense(&dense());
        for bit in 0..bytes.len() * 8 {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            assert!(decode(&b).is_err(), "bit {bit}");
        }
    }

    #[test]
    fn huge_declared_counts_fail_without_allocating() {
        let mut b = encode_dense(&dense());
        b[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(decode(&b), Err(FormatError::CountTooLarge { .. })));
        // Within limits but more than the bytes present.
        let mut b = encode_dense(&dense());
        b[12..16].copy_from_slice(&MAX_POINTS.to_le_bytes());
        b[24..32].copy_from_slice(&(u64::from(MAX_POINTS) * 5 * 4).to_le_bytes());
        assert!(matches!(decode(&b), Err(FormatError::Truncated { .. })));
        let mut b = encode_dense(&dense());
        b[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(
            decode(&b),
            Err(FormatError::LengthMismatch { .. })
        ));
    }

    #[test]
    fn header_errors_are_named() {
        let good = encode_dense(&dense());
        let mut b = good.clone();
        b[0] = b'X';
        assert_eq!(decode(&b), Err(FormatError::BadMagic));
        let mut b = good.clone();
        b[8] = 9;
        assert_eq!(decode(&b), Err(FormatError::UnsupportedVersion(9)));
        let mut b = good.clone();
        b[10] = 7;
        assert_eq!(decode(&b), Err(FormatError::BadKind(7)));
        let mut b = good.clone();
        b[HEADER_LEN] ^= 0x40;
        assert!(matches!(decode(&b), Err(FormatError::Checksum { .. })));
        let msg = decode(&b).map(|_| ()).unwrap_err().to_string();
        assert!(msg.contains("corrupt"), "{msg}");
    }

    /// A grid binding of 200 points in a 12-gon, most of them interpolated.
    fn grid() -> super::super::grid::GridBinding {
        use super::super::{Cage, GridBinding, GridOptions};
        let ring: Vec<[f64; 2]> = (0..12)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / 12.0;
                [10.0 * a.cos(), 10.0 * a.sin()]
            })
            .collect();
        let cage = Cage::from_loops(&[ring]).expect("valid");
        let pts: Vec<[f64; 2]> = (0..200)
            .map(|k| {
                let r = 8.0 * ((k as f64 + 0.5) / 200.0).sqrt();
                let a = k as f64 * 2.4;
                [r * a.cos(), r * a.sin()]
            })
            .collect();
        GridBinding::bind(&cage, &pts, &GridOptions::new(0.05))
            .expect("bind")
            .0
    }

    #[test]
    fn grid_round_trips_and_every_corruption_is_an_error() {
        let g = grid();
        assert!(g.node_count() < g.point_count(), "some nodes are shared");
        let bytes = encode_grid(&g);
        assert_eq!(decode(&bytes), Ok(LoadedBinding::Grid(g.clone())));
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len]).is_err(), "length {len}");
        }
        // Bit flips: every header and count bit, and a spread of payload bits.
        for bit in (0..(HEADER_LEN + 4) * 8).chain((0..bytes.len() * 8).step_by(97)) {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            assert!(decode(&b).is_err(), "bit {bit}");
        }
        // A node count beyond the points, with a matching length and checksum.
        let mut b = bytes.clone();
        b[HEADER_LEN..HEADER_LEN + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let crc = crc32(&[&b[..32], &b[HEADER_LEN..]]);
        b[32..36].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(decode(&b), Err(FormatError::CountTooLarge { .. })));
        // An index past the nodes, re-checksummed.
        let mut b = bytes.clone();
        let at = HEADER_LEN + 4 + g.node_count() * g.cage_vertex_count() * 4;
        b[at..at + 4].copy_from_slice(&(g.node_count() as u32).to_le_bytes());
        let crc = crc32(&[&b[..32], &b[HEADER_LEN..]]);
        b[32..36].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(decode(&b), Err(FormatError::BadIndex(_))));
        // Huge weights of opposite signs that still sum to 1 (they would overflow a deform).
        let mut b = bytes.clone();
        let at = HEADER_LEN + 4 + g.node_count() * g.cage_vertex_count() * 4 + g.point_count() * 16;
        for (k, w) in [3e38f32, -3e38, 1.0, 0.0].iter().enumerate() {
            b[at + 4 * k..at + 4 * k + 4].copy_from_slice(&w.to_le_bytes());
        }
        let crc = crc32(&[&b[..32], &b[HEADER_LEN..]]);
        b[32..36].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(decode(&b), Err(FormatError::WeightOutOfRange(_))));
    }
}
