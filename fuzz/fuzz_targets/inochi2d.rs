//! Fuzz target: arbitrary bytes through the Inochi2D container and payload loader, the
//! puppet builder and one frame with physics. None may panic; errors are fine. The
//! property test `crates/sinew-formats/tests/inochi2d_mutations.rs` runs a structured
//! version of this on every `cargo test`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(p) = sinew_formats::inochi2d::parse_inochi2d(data, "fuzz.inp") else {
        return;
    };
    let Ok(rig) = sinew_formats::inochi2d::build_puppet(&p) else {
        return;
    };
    let mut inst = sinew::Instance::new(&rig);
    sinew::params::update_params(&rig, &mut inst, 1.0 / 60.0, true);
});
