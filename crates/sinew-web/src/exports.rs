//! The wasm module's exports: plain `extern "C"` functions over one [`Host`] (a wasm
//! instance is single-threaded), no wasm-bindgen. The page writes inputs into the staging
//! buffer (`sinew_web_stage` returns where), calls an export, and reads results from the
//! output buffer (`sinew_web_out`, text), the numbers (`sinew_web_numbers`, f64s) or a
//! frame's buffers (`sinew_web_frame_ptr`). `web/sinew.js` is the only caller; every
//! export checks its ids and names (an unknown id does nothing and returns -1 or 0).
//!
//! `#[unsafe(no_mangle)]` is the only unsafe here (an exported symbol name must be unique:
//! every name starts with `sinew_web_`, apart from sinew-capi's `sinew_`); no pointer from
//! the page is ever dereferenced: the page writes into memory this module owns (the
//! staging `Vec`) and reads from it.

#![allow(unsafe_code)]

use crate::frame::Placement;
use crate::host::{Host, Loaded, Request};
use std::cell::RefCell;

thread_local! {
    static HOST: RefCell<Host> = RefCell::new(Host::default());
}

fn with<R>(f: impl FnOnce(&mut Host) -> R) -> R {
    HOST.with(|h| f(&mut h.borrow_mut()))
}

/// Makes the staging buffer `len` bytes long and returns its address for the page to fill.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_stage(len: u32) -> *mut u8 {
    with(|h| {
        h.stage.clear();
        h.stage.resize(len as usize, 0);
        h.stage.as_mut_ptr()
    })
}

/// The address of the output text (its length is what the last call returned).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_out() -> *const u8 {
    with(|h| h.out.as_ptr())
}

/// The address of the 8 output numbers (f64).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_numbers() -> *const f64 {
    with(|h| h.numbers.as_ptr())
}

/// Hands over a file: the stage holds its name (`name_len` bytes) then its bytes;
/// `found` 0: the page could not fetch it (the bytes are ignored).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_file(name_len: u32, found: u32) {
    with(|h| {
        let n = (name_len as usize).min(h.stage.len());
        let name = String::from_utf8_lossy(&h.stage[..n]).into_owned();
        let bytes = (found != 0).then(|| h.stage[n..].to_vec());
        h.add_file(&name, bytes);
    });
}

/// Forgets the files handed over.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_clear_files() {
    with(Host::clear_files);
}

/// Loads: the stage holds `main name \n atlas \n armature \n extras \n physics3` (empty
/// or missing: default). Returns the player id (>= 0); -1: failed, the output holds the
/// message; -2: the output holds the names of the companions to fetch first, one a line.
/// The output's length is in `numbers[0]`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_load() -> i32 {
    with(|h| {
        let lines = h.staged_lines();
        let get = |i: usize| lines.get(i).map(String::as_str).filter(|s| !s.is_empty());
        let request = Request {
            atlas: get(1),
            armature: get(2),
            extras: get(3),
            physics3: get(4),
        };
        let (code, text) = match h.load_with(get(0).unwrap_or(""), &request) {
            Loaded::Player(id) => (id as i32, String::new()),
            Loaded::Needs(names) => (-2, names.join("\n")),
            Loaded::Failed(e) => (-1, e),
        };
        h.numbers[0] = f64::from(h.say(&text));
        code
    })
}

/// Frees player `id`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_free(id: u32) {
    with(|h| h.free(id));
}

/// Writes player `id`'s description (JSON) to the output; returns its length (0: no
/// such player).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_info(id: u32) -> u32 {
    with(|h| match h.player(id).map(|p| p.info_json()) {
        Some(json) => h.say(&json),
        None => 0,
    })
}

/// Copies texture page `page` of player `id` (encoded image) to the output; returns its
/// length, or -1 when there is no such page.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_page(id: u32, page: u32) -> i32 {
    with(|h| {
        let Some(bytes) = h
            .player(id)
            .and_then(|p| p.page_bytes(page as usize).map(<[u8]>::to_vec))
        else {
            return -1;
        };
        h.out = bytes;
        h.out.len() as i32
    })
}

/// Player `id` plays the clip named in the stage (empty: none) from its start. 0, or -1
/// with the message in the output (its length in `numbers[0]`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_play(id: u32, looping: u32) -> i32 {
    with(|h| {
        let name = String::from_utf8_lossy(&h.stage).into_owned();
        let r = match h.player(id) {
            Some(p) => p.play((!name.is_empty()).then_some(name.as_str()), looping != 0),
            None => Err("no such character".to_owned()),
        };
        result(h, r)
    })
}

/// Player `id` crossfades to the clip named in the stage over `seconds`. 0, or -1 with the
/// message.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_crossfade(id: u32, seconds: f64, looping: u32) -> i32 {
    with(|h| {
        let name = String::from_utf8_lossy(&h.stage).into_owned();
        let r = match h.player(id) {
            Some(p) => p.crossfade(&name, seconds, looping != 0),
            None => Err("no such character".to_owned()),
        };
        result(h, r)
    })
}

/// Player `id` queues the clip named in the stage after `delay` seconds (<= 0: when the
/// current one completes). 0, or -1 with the message.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_queue(id: u32, delay: f64, looping: u32) -> i32 {
    with(|h| {
        let name = String::from_utf8_lossy(&h.stage).into_owned();
        let r = match h.player(id) {
            Some(p) => p.queue(&name, delay, looping != 0),
            None => Err("no such character".to_owned()),
        };
        result(h, r)
    })
}

/// Advances player `id` by `dt` seconds; returns how many key events fired (their
/// names in the output, one a line, its length in `numbers[0]`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_update(id: u32, dt: f64) -> u32 {
    with(|h| {
        let Some(p) = h.player(id) else { return 0 };
        p.update(dt);
        let names = p.events().join("\n");
        let n = p.events().len() as u32;
        if n > 0 {
            h.numbers[0] = f64::from(h.say(&names));
        }
        n
    })
}

/// Shows player `id`'s clip at `time` seconds (stepped from its start).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_seek(id: u32, time: f64) {
    with(|h| {
        if let Some(p) = h.player(id) {
            p.seek(time);
        }
    });
}

/// Player `id`'s clip time, in seconds since it started.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_time(id: u32) -> f64 {
    with(|h| h.player(id).map_or(0.0, |p| p.playing().1))
}

/// Sets player `id`'s speed (1: real time).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_speed(id: u32, speed: f64) {
    with(|h| {
        if let Some(p) = h.player(id) {
            p.set_speed(speed);
        }
    });
}

/// Pauses (1) or resumes (0) player `id`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_pause(id: u32, paused: u32) {
    with(|h| {
        if let Some(p) = h.player(id) {
            p.set_paused(paused != 0);
        }
    });
}

/// Shows the skins named in the stage, one a line (none: the default). 0, or -1 with the
/// message.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_skins(id: u32) -> i32 {
    with(|h| {
        let lines = h.staged_lines();
        let names: Vec<&str> = lines
            .iter()
            .map(String::as_str)
            .filter(|s| !s.is_empty())
            .collect();
        let r = match h.player(id) {
            Some(p) => p.set_skins(&names),
            None => Err("no such character".to_owned()),
        };
        result(h, r)
    })
}

/// Holds the parameter named in the stage at `(x, y)`. 0, or -1 with the message.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_param(id: u32, x: f64, y: f64) -> i32 {
    with(|h| {
        let name = String::from_utf8_lossy(&h.stage).into_owned();
        let r = match h.player(id) {
            Some(p) => p.set_param(&name, x, y),
            None => Err("no such character".to_owned()),
        };
        result(h, r)
    })
}

/// Gives the parameter named in the stage back to the animation.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_release_param(id: u32) {
    with(|h| {
        let name = String::from_utf8_lossy(&h.stage).into_owned();
        if let Some(p) = h.player(id) {
            p.release_param(&name);
        }
    });
}

/// Aims the IK constraint named in the stage at world `(x, y)`. 0, or -1 with the message.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_ik(id: u32, x: f64, y: f64) -> i32 {
    with(|h| {
        let name = String::from_utf8_lossy(&h.stage).into_owned();
        let r = match h.player(id) {
            Some(p) => p.set_ik_target(&name, x, y),
            None => Err("no such character".to_owned()),
        };
        result(h, r)
    })
}

/// The world transform of the bone named in the stage in `numbers[0..6]` (a, b, c, d, x,
/// y; y up); 0, or -1 when there is no such bone.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_bone(id: u32) -> i32 {
    with(|h| {
        let name = String::from_utf8_lossy(&h.stage).into_owned();
        match h.player(id).and_then(|p| p.bone_world(&name)) {
            Some(w) => {
                h.numbers[..6].copy_from_slice(&w);
                0
            }
            None => -1,
        }
    })
}

/// The slot whose bounding box holds world `(x, y)`: its name in the output and its
/// length returned (0: none).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_hit(id: u32, x: f64, y: f64) -> u32 {
    with(
        |h| match h.player(id).and_then(|p| p.hit(x as f32, y as f32)) {
            Some(name) => h.say(&name),
            None => 0,
        },
    )
}

/// The world box of the playing clip over one play in `numbers[0..4]` (x0, y0, x1, y1);
/// 0, or -1 when nothing is drawn.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_bounds(id: u32) -> i32 {
    with(|h| match h.player(id).and_then(|p| p.clip_bounds()) {
        Some(b) => {
            h.numbers[..4].copy_from_slice(&b);
            0
        }
        None => -1,
    })
}

/// Player `id` draws every part in blend mode `mode` (the renderer's numbering,
/// `frame::BLEND_MODES`); any other number: each part's own mode again.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_blend_override(id: u32, mode: u32) {
    with(|h| {
        if let Some(p) = h.player(id) {
            let m = crate::frame::BLEND_MODES.get(mode as usize).copied();
            p.set_blend_override(m);
        }
    });
}

/// Builds player `id`'s frame; returns its op count. Its buffers: `sinew_web_frame_ptr`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_frame(id: u32) -> u32 {
    with(|h| {
        h.player(id)
            .map_or(0, |p| p.build_frame().op_count() as u32)
    })
}

/// A new character sharing player `id`'s rig and pages; its id, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_spawn(id: u32) -> i32 {
    with(|h| h.spawn(id).map_or(-1, |n| n as i32))
}

/// Builds one frame of several players: the stage holds 16 bytes per player (id `u32`,
/// scale, dx, dy `f32`, little-endian). Returns its op count; its buffers:
/// `sinew_web_frame_ptr(u32::MAX, which)`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_group() -> u32 {
    with(|h| {
        let word = |c: &[u8], k: usize| u32::from_le_bytes([c[k], c[k + 1], c[k + 2], c[k + 3]]);
        let items: Vec<(u32, Placement)> = h
            .stage
            .chunks_exact(16)
            .map(|c| {
                let at = Placement {
                    scale: f32::from_bits(word(c, 4)),
                    dx: f32::from_bits(word(c, 8)),
                    dy: f32::from_bits(word(c, 12)),
                };
                (word(c, 0), at)
            })
            .collect();
        h.group_frame(&items).op_count() as u32
    })
}

/// The address of player `id`'s last frame's buffer `which` (0 vertices, 1 indices, 2
/// ops; `id` `u32::MAX`: the group frame's); its length in elements (f32 or u32) in
/// `numbers[0]`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_web_frame_ptr(id: u32, which: u32) -> *const u8 {
    with(|h| {
        let (ptr, len) = match h.frame_of(id) {
            Some(f) => match which {
                0 => (f.vertices.as_ptr().cast::<u8>(), f.vertices.len()),
                1 => (f.indices.as_ptr().cast::<u8>(), f.indices.len()),
                _ => (f.ops.as_ptr().cast::<u8>(), f.ops.len()),
            },
            None => (std::ptr::null(), 0),
        };
        h.numbers[0] = len as f64;
        ptr
    })
}

/// 0, or -1 with the message in the output (its length in `numbers[0]`).
fn result(h: &mut Host, r: Result<(), String>) -> i32 {
    match r {
        Ok(()) => 0,
        Err(e) => {
            h.numbers[0] = f64::from(h.say(&e));
            -1
        }
    }
}
