//! Fuzz target: arbitrary bytes through the Inochi2D container and payload loader, the
//! puppet builder and, when both succeed, frames through the `Character` facade with every
//! parameter moved and physics on (update, draw list, world vertices). None may panic;
//! errors are fine. The property test `crates/sinew-formats/tests/all/inochi2d_mutations.rs`
//! runs a structured version of this on every `cargo test`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Ok(p) = sinew_formats::inochi2d::parse_inochi2d(data, "fuzz.inp") else {
        return;
    };
    let Ok(rig) = sinew_formats::inochi2d::build_puppet(&p) else {
        return;
    };
    let rig = Arc::new(rig);
    let setup = Arc::new(sinew_formats::puppet_draw_setup(&p, &rig));
    let mut c = sinew::Character::new(rig.clone());
    c.set_draw_setup(setup);
    let mut vertices = vec![0.0; c.max_world_floats()];
    for frame in 0..3 {
        let t = f64::from(frame) - 1.0;
        for i in 0..rig.params.params.len().min(64) {
            let _ = c.set_param_id(sinew::ParamId(i as u16), [t, -t]);
        }
        c.update(1.0 / 60.0);
        c.draw_list();
        c.compute_world_vertices(&mut vertices);
    }
});
