//! Fuzz target: arbitrary text through the physics3 loader, then the chains built against
//! a rig whose parameters carry the ids the file names, and a few frames stepped. None may
//! panic; errors are fine.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sinew::params::raw::{RawParam, RawParams};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(chains) = sinew_formats::physics3::parse_physics3(text, "fuzz.physics3.json") else {
        return;
    };
    // Every parameter the chains name, 1D over -30..30.
    let mut names: Vec<String> = Vec::new();
    for c in &chains.chains {
        names.extend(c.inputs.iter().map(|i| i.param.clone()));
        names.extend(c.outputs.iter().map(|o| o.param.clone()));
    }
    names.sort();
    names.dedup();
    let params = names
        .into_iter()
        .map(|name| RawParam {
            name,
            is_2d: false,
            min: [-30.0, -30.0],
            max: [30.0, 30.0],
            default: [0.0, 0.0],
            axis_points: [vec![0.0, 1.0], vec![0.0]],
        })
        .collect();
    let raw = sinew::raw::RawRig {
        bones: vec![sinew::raw::RawBone::new("root", None)],
        ..Default::default()
    };
    let params = RawParams {
        params,
        chains,
        ..Default::default()
    };
    let inputs = sinew::build::BuildInputs {
        params: Some(&params),
        ..Default::default()
    };
    let Ok(rig) = sinew::build::build_rig_with(&raw, &inputs) else {
        return;
    };
    let mut inst = sinew::Instance::new(&rig);
    for k in 0..4 {
        if let Some(v) = inst.params.values.first_mut() {
            *v = [k as f64 * 10.0, 0.0];
        }
        sinew::character::update_params(&rig, &mut inst, 1.0 / 30.0, true);
    }
});
