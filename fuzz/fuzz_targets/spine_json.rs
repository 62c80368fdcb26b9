//! Fuzz target: arbitrary bytes through the Spine JSON loader and the rig builder.
//! Neither may panic; errors are fine. Crashes go to `fuzz/regressions/spine_json/`, which
//! `crates/sinew-formats/tests/fuzz_regressions.rs` replays on every `cargo test`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(raw) = sinew_formats::spine::parse_spine_json(&text, "fuzz.json") {
        let _ = sinew::build::build_rig(&raw);
    }
});
