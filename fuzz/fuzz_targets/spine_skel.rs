//! Fuzz target: arbitrary bytes through the Spine 4.2 binary (`.skel`) reader, the rig
//! builder and, when both succeed, a few frames of the first animation (update, draw list,
//! world vertices). None may panic or hang; errors are fine. Crashes go to
//! `fuzz/regressions/spine_skel/`, which `crates/sinew-formats/tests/all/fuzz_regressions.rs`
//! replays on every `cargo test`; `crates/sinew-formats/tests/all/skel.rs` runs truncations and
//! byte flips of real exports the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = sinew_formats::spine::binary::parse_spine_binary(data, "fuzz.skel") else {
        return;
    };
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
