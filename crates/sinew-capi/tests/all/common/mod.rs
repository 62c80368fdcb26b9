//! Helpers the ABI test files share: string arguments, the last error, bone worlds and the
//! render output as slices.

#![allow(dead_code)] // each test file uses its own subset

use sinew_capi::*;
use std::ffi::c_char;
use std::ptr::null_mut;

/// A `&str` as the ABI's pointer + length.
pub fn s(x: &str) -> (*const c_char, usize) {
    (x.as_ptr().cast(), x.len())
}

/// The calling thread's last error message.
pub fn last_error() -> String {
    let mut buf = vec![0 as c_char; 4096];
    let mut len = 0;
    sinew_last_error(buf.as_mut_ptr(), buf.len(), &mut len);
    let bytes: Vec<u8> = buf[..len.min(buf.len())].iter().map(|&b| b as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Every bone's world transform as bits (a, b, c, d, x, y per bone).
pub fn worlds(c: *mut SinewCharacter) -> Vec<u64> {
    let mut len = 0;
    assert_eq!(
        sinew_character_bone_worlds(c, null_mut(), 0, &mut len),
        SinewStatus::BufferTooSmall
    );
    let mut v = vec![SinewWorldTransform::default(); len];
    assert_eq!(
        sinew_character_bone_worlds(c, v.as_mut_ptr(), v.len(), &mut len),
        SinewStatus::Ok
    );
    v.iter()
        .flat_map(|w| [w.a, w.b, w.c, w.d, w.x, w.y].map(f64::to_bits))
        .collect()
}

/// A Rust character's bone worlds as bits, in the order of [`worlds`].
pub fn rust_worlds(c: &sinew::Character) -> Vec<u64> {
    c.instance()
        .world
        .iter()
        .flat_map(|w| [w.a, w.b, w.c, w.d, w.x, w.y].map(f64::to_bits))
        .collect()
}

/// A character's render output, copied out of the library's buffers.
pub struct Render {
    pub batches: Vec<SinewBatch>,
    pub command_count: usize,
    pub positions: Vec<f32>,
    pub uvs: Vec<f32>,
    pub indices: Vec<u16>,
    pub groups: Vec<SinewGroup>,
}

/// Renders `c` and copies the output.
pub fn render(c: *mut SinewCharacter) -> Render {
    let mut d = std::mem::MaybeUninit::<SinewRenderData>::uninit();
    assert_eq!(
        sinew_character_render(c, d.as_mut_ptr()),
        SinewStatus::Ok,
        "{}",
        last_error()
    );
    // SAFETY: the call succeeded and filled `d`.
    let d = unsafe { d.assume_init() };
    /// A library array as a Vec (empty arrays may have dangling pointers).
    fn copy<T: Copy>(p: *const T, n: usize) -> Vec<T> {
        if n == 0 {
            return Vec::new();
        }
        // SAFETY: the library's buffers hold `n` items until the next call on the character.
        unsafe { std::slice::from_raw_parts(p, n) }.to_vec()
    }
    Render {
        batches: copy(d.batches, d.batch_count),
        command_count: d.command_count,
        positions: copy(d.positions, d.vertex_count * 2),
        uvs: copy(d.uvs, d.vertex_count * 2),
        indices: copy(d.indices, d.index_count),
        groups: copy(d.groups, d.group_count),
    }
}

/// Checks what every render output must hold: the batches tile the vertices, indices and
/// commands in order, no batch passes 65,535 vertices, and every index is inside its batch.
pub fn check_batches(r: &Render) {
    let (mut v, mut i, mut cmd) = (0u32, 0u32, 0u32);
    for (k, b) in r.batches.iter().enumerate() {
        assert_eq!(
            (b.vertex_start, b.index_start, b.first_command),
            (v, i, cmd),
            "batch {k} does not follow the previous one"
        );
        assert!(b.vertex_count <= SINEW_MAX_BATCH_VERTICES, "batch {k}");
        for &x in &r.indices[b.index_start as usize..(b.index_start + b.index_count) as usize] {
            assert!(
                u32::from(x) < b.vertex_count,
                "batch {k}: index {x} out of range"
            );
        }
        v += b.vertex_count;
        i += b.index_count;
        cmd += b.command_count;
    }
    assert_eq!(v as usize, r.positions.len() / 2);
    assert_eq!(i as usize, r.indices.len());
    assert_eq!(cmd as usize, r.command_count);
}

/// Creates a character of `rig`.
pub fn character(rig: *const SinewRig) -> *mut SinewCharacter {
    let mut c = null_mut();
    assert_eq!(
        sinew_character_create(rig, &mut c),
        SinewStatus::Ok,
        "{}",
        last_error()
    );
    c
}
