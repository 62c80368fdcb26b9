//! Fuzz target: arbitrary bytes through the Spine binary (`.skel`) reader, kept to what
//! loads as Spine 4.3 (`spine_skel` covers 4.2), then the rig builder and a few frames of
//! its first animation (update, draw list, world vertices). What loaded is written back by
//! sinew's `.skel` writer, which must read again. Seed it from `regressions/spine43_skel/`
//! (4.3 files written by sinew: `sinew convert RIG.json RIG.skel` of the 4.3 rigs). Crashes go
//! to `fuzz/regressions/spine43_skel/`, which
//! `crates/sinew-formats/tests/all/fuzz_regressions.rs` replays on every `cargo test`;
//! `crates/sinew-formats/tests/all/fuzz43.rs` runs seeded mutations offline.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sinew::types::SpineRuntime;
use sinew_formats::spine::binary::parse_spine_binary;
use sinew_formats::spine::write_spine_binary;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = parse_spine_binary(data, "fuzz.skel") else {
        return;
    };
    if raw.runtime != SpineRuntime::V43 {
        return;
    }
    if let Ok(bytes) = write_spine_binary(&raw)
        && let Err(e) = parse_spine_binary(&bytes, "again.skel")
    {
        panic!("a loaded 4.3 .skel written again does not read again: {e}");
    }
    let Ok(rig) = sinew::build::build_rig(&raw) else {
        return;
    };
    let rig = Arc::new(rig);
    let mut c = sinew::Character::new(rig.clone());
    if let Some(clip) = rig.clips.first() {
        let _ = c.set_animation(0, &clip.name, true);
    }
    let mut vertices = vec![0.0; c.max_world_floats()];
    for _ in 0..3 {
        c.update(1.0 / 30.0);
        c.draw_list();
        c.compute_world_vertices(&mut vertices);
    }
});
