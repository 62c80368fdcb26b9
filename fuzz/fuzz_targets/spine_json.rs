//! Fuzz target: arbitrary bytes through the Spine JSON loader, the rig builder and, when both
//! succeed, a few frames of every animation through the `Character` facade (update, draw
//! list, world vertices), crossfading between them. None may panic or hang; errors are fine.
//! Crashes go to `fuzz/regressions/spine_json/`, which
//! `crates/sinew-formats/tests/all/fuzz_regressions.rs` replays (loads and frames) on every
//! `cargo test`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(raw) = sinew_formats::spine::parse_spine_json(&text, "fuzz.json") else {
        return;
    };
    let Ok(rig) = sinew::build::build_rig(&raw) else {
        return;
    };
    let rig = Arc::new(rig);
    let mut c = sinew::Character::new(rig.clone());
    let mut vertices = vec![0.0; c.max_world_floats()];
    for clip in rig.clips.iter().take(4) {
        let _ = c.set_animation(0, &clip.name, true);
        for _ in 0..3 {
            c.update(1.0 / 30.0);
            c.draw_list();
            c.compute_world_vertices(&mut vertices);
        }
    }
    c.update(1.0 / 30.0);
    c.draw_list();
});
