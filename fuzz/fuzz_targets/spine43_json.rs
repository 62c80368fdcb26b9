//! Fuzz target: arbitrary bytes through the Spine JSON loader, kept to what loads as Spine
//! 4.3 (the `constraints` list, sliders, the new transform constraint, ...: `spine_json`
//! covers 4.2), then the rig builder and a few frames of up to four animations (update,
//! draw list, world vertices). What loaded is written back as 4.3 `.skel` and JSON by
//! sinew's writers, which must read again. Seed it from `regressions/spine43_json/` and the
//! 4.3 rigs (`../../testdata/spine43`, `../../shared/fixtures/spine43`). Crashes go to
//! `fuzz/regressions/spine43_json/`, which `crates/sinew-formats/tests/all/fuzz_regressions.rs`
//! replays on every `cargo test`; `crates/sinew-formats/tests/all/fuzz43.rs` runs seeded
//! mutations of the same corpus offline.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sinew::types::SpineRuntime;
use sinew_formats::spine::binary::parse_spine_binary;
use sinew_formats::spine::{parse_spine_json, write_spine_binary, write_spine_json};
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(raw) = parse_spine_json(&text, "fuzz.json") else {
        return;
    };
    if raw.runtime != SpineRuntime::V43 {
        return;
    }
    if let Ok(bytes) = write_spine_binary(&raw)
        && let Err(e) = parse_spine_binary(&bytes, "again.skel")
    {
        panic!("a loaded 4.3 JSON rig written as .skel does not read again: {e}");
    }
    if let Ok(json) = write_spine_json(&raw, false)
        && let Err(e) = parse_spine_json(&json, "again.json")
    {
        panic!("a loaded 4.3 JSON rig written as JSON does not read again: {e}");
    }
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
});
