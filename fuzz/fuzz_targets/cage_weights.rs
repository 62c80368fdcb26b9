//! Fuzz target: arbitrary bytes through the cage weights decoder (every kind: dense,
//! sparse, sparse rows, grid), then a deform of what decoded with a cage made from the
//! input's own bytes (the checksum recomputed first, so that mutations reach the checks
//! behind it). None may panic; a deform of decoded weights with a finite cage must give
//! finite vertices (the decoder caps every weight).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sinew::cage::format::{HEADER_LEN, crc32, decode};

fuzz_target!(|input: &[u8]| {
    // The checksum fixed up, so that mutations reach the checks behind it (the checksum
    // itself is tested bit by bit in format.rs).
    let mut data = input.to_vec();
    if data.len() >= HEADER_LEN {
        let crc = crc32(&[&data[..32], &data[HEADER_LEN..]]);
        data[32..36].copy_from_slice(&crc.to_le_bytes());
    }
    let data = &data[..];
    let Ok(loaded) = decode(data) else {
        return;
    };
    let (cage_vertices, _) = loaded.counts();
    // A bounded cage from the input bytes.
    let cage: Vec<f32> = (0..2 * cage_vertices)
        .map(|i| f32::from(data[i % data.len()]) - 128.0)
        .collect();
    let out = loaded
        .deformed(&cage)
        .expect("sizes come from the binding itself");
    assert!(out.iter().all(|v| v.is_finite()), "finite weights, finite cage");
});
