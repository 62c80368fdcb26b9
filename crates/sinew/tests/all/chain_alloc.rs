//! A parameter frame with pendulum chains allocates nothing after warm-up: three chains
//! (one per input kind, several particles and outputs) stepped through uneven frames, a
//! hitch and non-finite frame times, counted by `sinew_testutil::alloc`.

use sinew::character::update_params;
use sinew::params::build_params;
use sinew::params::chain::ChainSource;
use sinew::params::raw::{
    RawChain, RawChainInput, RawChainOutput, RawChainParticle, RawNormalization, RawParam,
    RawParams,
};
use sinew::raw::{RawBone, RawRig};
use sinew::{Instance, ParamId};
use sinew_testutil::alloc::count_allocations;

fn param(name: &str) -> RawParam {
    RawParam {
        name: name.into(),
        is_2d: false,
        min: [-30.0, -30.0],
        max: [30.0, 30.0],
        default: [0.0, 0.0],
        axis_points: [vec![0.0, 1.0], vec![0.0]],
    }
}

fn chain(name: &str, kind: ChainSource) -> RawChain {
    let norm = RawNormalization {
        minimum: -10.0,
        default: 0.0,
        maximum: 10.0,
    };
    let particle = |radius: f64| RawChainParticle {
        position: [0.0, 0.0],
        mobility: 0.95,
        delay: 0.9,
        acceleration: 1.5,
        radius,
    };
    let output = |vertex: u32, kind: ChainSource| RawChainOutput {
        param: "Out".into(),
        component: 0,
        vertex,
        kind,
        scale: 10.0,
        weight: 50.0,
        reflect: false,
    };
    RawChain {
        name: name.into(),
        inputs: vec![RawChainInput {
            param: "In".into(),
            component: 0,
            weight: 60.0,
            kind,
            reflect: false,
        }],
        outputs: vec![
            output(1, ChainSource::X),
            output(2, ChainSource::Y),
            output(3, ChainSource::Angle),
        ],
        particles: vec![particle(0.0), particle(8.0), particle(6.0), particle(4.0)],
        position: norm,
        angle: norm,
    }
}

#[test]
fn chain_frames_do_not_allocate() {
    let raw = RawRig {
        bones: vec![RawBone::new("root", None)],
        reference_scale: 100.0,
        ..Default::default()
    };
    let mut rig = sinew::build::build_rig(&raw).expect("rig");
    let mut params = RawParams {
        params: vec![param("In"), param("Out")],
        ..Default::default()
    };
    params.chains.chains = vec![
        chain("x", ChainSource::X),
        chain("y", ChainSource::Y),
        chain("angle", ChainSource::Angle),
    ];
    rig.params = build_params(&rig, &params).expect("params");
    let mut inst = Instance::new(&rig);
    let mut time = 0.0f64;
    let mut frame = |inst: &mut Instance, k: usize| {
        let dt = match k % 7 {
            3 => 1.0 / 144.0,
            5 => 1.0 / 30.0,
            _ => 1.0 / 60.0,
        };
        let dt = match k {
            50 => 0.5,
            70 => f64::NAN,
            _ => dt,
        };
        time += if dt.is_finite() { dt } else { 0.0 };
        inst.params
            .set(&rig, ParamId(0), [25.0 * (time * 2.0).sin(), 0.0]);
        update_params(&rig, inst, dt, true);
    };
    frame(&mut inst, 0); // warm-up
    let n = count_allocations(|| {
        for k in 1..200 {
            frame(&mut inst, k);
        }
    });
    assert_eq!(n, 0, "{n} allocations in 199 frames");
    let out = inst.params.values[1][0];
    assert!(out.is_finite() && out != 0.0, "{out}");
}
