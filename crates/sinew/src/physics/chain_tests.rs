//! Unit tests of the pendulum chains against closed forms: rest, exact radii, the small-angle
//! frequency `sqrt(g/L) / 2π`, damping, agreement across frame rates, hitches, signs,
//! non-finite input, the normalization map, output blending and builder errors.

use super::*;
use crate::character::update_params;
use crate::ids::ParamId;
use crate::params::build::build_params;
use crate::params::raw::{
    RawChain, RawChainInput, RawChainOutput, RawChainParticle, RawParam, RawParams,
};
use crate::raw::{RawBone, RawRig};
use crate::{Instance, Rig};
use std::f64::consts::PI;

/// Gravity and rod length of the test pendulum: f = sqrt(40 / 10) / 2π = 1/π Hz.
const G: f64 = 40.0;
const L: f64 = 10.0;

fn param(name: &str, lo: f64, hi: f64) -> RawParam {
    RawParam {
        name: name.into(),
        is_2d: false,
        min: [lo, lo],
        max: [hi, hi],
        default: [0.0, 0.0],
        axis_points: [vec![0.0, 1.0], vec![0.0]],
    }
}

/// A particle with `delay = 1/30`, so its time runs at real time.
fn particle(mobility: f64, radius: f64) -> RawChainParticle {
    RawChainParticle {
        position: [0.0, 0.0],
        mobility,
        delay: 1.0 / DELAY_RATE,
        acceleration: G,
        radius,
    }
}

fn norm(lo: f64, mid: f64, hi: f64) -> RawNormalization {
    RawNormalization {
        minimum: lo,
        default: mid,
        maximum: hi,
    }
}

fn input(kind: ChainSource, reflect: bool) -> RawChainInput {
    RawChainInput {
        param: "In".into(),
        component: 0,
        weight: 100.0,
        kind,
        reflect,
    }
}

fn output(vertex: u32, kind: ChainSource, reflect: bool) -> RawChainOutput {
    RawChainOutput {
        param: "Out".into(),
        component: 0,
        vertex,
        kind,
        scale: 1.0,
        weight: 100.0,
        reflect,
    }
}

/// A chain of a root and `radii.len()` particles, X input from `In` (identity
/// normalization), angle output of the last particle into `Out`.
fn chain(mobility: f64, radii: &[f64], in_reflect: bool, out_reflect: bool) -> RawChain {
    let mut particles = vec![particle(1.0, 0.0)];
    particles.extend(radii.iter().map(|&r| particle(mobility, r)));
    RawChain {
        name: "hair".into(),
        inputs: vec![input(ChainSource::X, in_reflect)],
        outputs: vec![output(radii.len() as u32, ChainSource::Angle, out_reflect)],
        particles,
        position: norm(-10.0, 0.0, 10.0),
        angle: norm(-10.0, 0.0, 10.0),
    }
}

fn raw(chains: Vec<RawChain>) -> RawParams {
    let mut p = RawParams {
        params: vec![param("In", -10.0, 10.0), param("Out", -1000.0, 1000.0)],
        ..Default::default()
    };
    p.chains.chains = chains;
    p
}

fn make(params: &RawParams) -> Result<Rig, crate::build::BuildError> {
    let raw = RawRig {
        bones: vec![RawBone::new("root", None)],
        reference_scale: 100.0,
        ..Default::default()
    };
    let mut rig = crate::build::build_rig(&raw).expect("rig");
    rig.params = build_params(&rig, params)?;
    Ok(rig)
}

/// Runs `seconds` at `fps` with `In = input(t)` (t at the frame's end) after one rest frame
/// at `In = input(0)`; returns `Out` after each frame.
fn run(rig: &Rig, fps: f64, seconds: f64, input: impl Fn(f64) -> f64) -> Vec<f64> {
    let mut inst = Instance::new(rig);
    let (pin, pout) = (
        rig.params.find("In").unwrap(),
        rig.params.find("Out").unwrap(),
    );
    inst.params.set(rig, pin, [input(0.0), 0.0]);
    update_params(rig, &mut inst, 0.0, true);
    let frames = (seconds * fps).round() as usize;
    (1..=frames)
        .map(|k| {
            inst.params.set(rig, pin, [input(k as f64 / fps), 0.0]);
            update_params(rig, &mut inst, 1.0 / fps, true);
            inst.params.values[pout.index()][0]
        })
        .collect()
}

/// Times (s) where `v` crosses zero upward, linearly interpolated.
fn up_crossings(v: &[f64], fps: f64) -> Vec<f64> {
    v.windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] < 0.0 && w[1] >= 0.0)
        .map(|(i, w)| (i as f64 + 1.0 + w[0] / (w[0] - w[1])) / fps)
        .collect()
}

#[test]
fn chain_without_input_stays_at_rest() {
    let rig = make(&raw(vec![chain(1.0, &[L], false, false)])).unwrap();
    let out = run(&rig, 60.0, 10.0, |_| 0.0);
    assert!(out.iter().all(|&v| v == 0.0), "{:?}", &out[..4]);
    // A root-only chain (no outputs) is accepted and does nothing.
    let mut only_root = chain(1.0, &[], false, false);
    only_root.outputs.clear();
    let rig = make(&raw(vec![only_root])).unwrap();
    assert!(run(&rig, 60.0, 1.0, |t| t).iter().all(|&v| v == 0.0));
}

#[test]
fn two_particle_chain_keeps_its_radii_every_step() {
    let rig = make(&raw(vec![chain(0.95, &[6.0, 4.0], false, false)])).unwrap();
    let mut inst = Instance::new(&rig);
    let pin = rig.params.find("In").unwrap();
    for k in 0..600 {
        let t = k as f64 / 60.0;
        inst.params.set(&rig, pin, [8.0 * (3.0 * t).sin(), 0.0]);
        update_params(&rig, &mut inst, 1.0 / 60.0, true);
        let s = &inst.params.chains.strands[0];
        for (i, r) in [(1, 6.0), (2, 4.0)] {
            let d = (s.pos[i] - s.pos[i - 1]).length();
            assert!((d - r).abs() < 1e-12, "frame {k} particle {i}: {d}");
        }
    }
}

#[test]
fn small_swing_has_pendulum_frequency() {
    let rig = make(&raw(vec![chain(1.0, &[L], false, false)])).unwrap();
    // A 0.5-unit step of the root: a ~0.05 rad swing.
    let out = run(&rig, 60.0, 20.0, |t| if t > 0.0 { 0.5 } else { 0.0 });
    let ups = up_crossings(&out, 60.0);
    assert!(ups.len() >= 5, "{ups:?}");
    let period = (ups[ups.len() - 1] - ups[0]) / (ups.len() - 1) as f64;
    let expected = (G / L).sqrt() / (2.0 * PI);
    let f = 1.0 / period;
    assert!(
        (f / expected - 1.0).abs() < 0.02,
        "f {f} expected {expected}"
    );
    // The first swing is the step's 0.05 rad. With mobility 1 only the scheme's own loss
    // remains: each step's move is projected back onto the rod after gravity pushed the
    // particle out by g d², so its velocity keeps about L / (L + g d²) per step.
    let amp = |a: &[f64]| a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let early = amp(&out[..120]);
    assert!((early - 0.05).abs() < 0.002, "{early}");
    let keep = L / (L + G / 3600.0);
    let predicted = early * keep.powf(0.5 * 1080.0);
    let late = amp(&out[1080..1200]);
    assert!(
        (late / predicted - 1.0).abs() < 0.15,
        "{early} {late} {predicted}"
    );
}

#[test]
fn mobility_damps_the_output() {
    let rig = make(&raw(vec![chain(0.98, &[L], false, false)])).unwrap();
    let out = run(&rig, 60.0, 10.0, |t| if t > 0.0 { 3.0 } else { 0.0 });
    let amp = |a: &[f64]| a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let (first, last) = (amp(&out[..120]), amp(&out[480..]));
    assert!(first > 0.1, "{first}");
    assert!(last < 0.05 * first, "{first} {last}");
    // Peaks of successive seconds shrink.
    let peaks: Vec<f64> = out.chunks(60).map(amp).collect();
    assert!(peaks.windows(2).skip(1).all(|w| w[1] < w[0]), "{peaks:?}");
}

#[test]
fn frame_rates_agree() {
    let rig = make(&raw(vec![chain(0.97, &[6.0, 4.0], false, false)])).unwrap();
    let input = |t: f64| 3.0 * (2.0 * PI * 0.7 * t).sin();
    let runs: Vec<(f64, Vec<f64>)> = [30.0, 60.0, 144.0]
        .iter()
        .map(|&fps| (fps, run(&rig, fps, 3.0, input)))
        .collect();
    let scale = runs[1].1.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(scale > 0.05, "{scale}");
    let mut worst = 0.0f64;
    // Common frame times: every 1/6 s.
    for k in 1..=18 {
        let at = |fps: f64, v: &[f64]| v[(k as f64 * fps / 6.0).round() as usize - 1];
        let base = at(60.0, &runs[1].1);
        for (fps, v) in &runs {
            worst = worst.max((at(*fps, v) - base).abs());
        }
    }
    assert!(worst < 0.01 * scale, "worst {worst} of {scale}");
}

#[test]
fn hitch_stays_bounded() {
    let rig = make(&raw(vec![chain(0.97, &[6.0, 4.0], false, false)])).unwrap();
    let mut inst = Instance::new(&rig);
    let pin = rig.params.find("In").unwrap();
    let pout = rig.params.find("Out").unwrap();
    let mut t = 0.0f64;
    for k in 0..240 {
        let dt = if k == 60 { 0.5 } else { 1.0 / 60.0 };
        t += dt;
        inst.params.set(&rig, pin, [10.0 * (5.0 * t).sin(), 0.0]);
        let before = inst.params.chains.clock.steps();
        update_params(&rig, &mut inst, dt, true);
        let taken = inst.params.chains.clock.steps() - before;
        assert!(taken <= 15, "frame {k}: {taken} steps");
        let s = &inst.params.chains.strands[0];
        assert!(
            s.pos
                .iter()
                .chain(&s.vel)
                .all(|v| v.x.is_finite() && v.y.is_finite())
        );
        assert!(s.vel.iter().all(|v| v.length() < 100.0), "frame {k}");
        let out = inst.params.values[pout.index()][0];
        assert!(out.abs() <= PI, "frame {k}: {out}");
    }
}

#[test]
fn output_sign_follows_input_and_reflect() {
    // +In (no reflect) moves the root to -x: the particle lags on +x, which reads as a
    // negative angle from straight down (x right, y down).
    let first = |in_reflect: bool, out_reflect: bool, value: f64| {
        let rig = make(&raw(vec![chain(1.0, &[L], in_reflect, out_reflect)])).unwrap();
        run(&rig, 60.0, 0.2, |t| if t > 0.0 { value } else { 0.0 })[5]
    };
    let base = first(false, false, 5.0);
    assert!(base < -0.01, "{base}");
    assert_eq!(first(false, false, -5.0), -base);
    assert_eq!(first(true, false, 5.0), -base);
    assert_eq!(first(false, true, 5.0), -base);
    assert_eq!(first(true, true, 5.0), base);
}

#[test]
fn angle_input_turns_gravity() {
    // +In through an angle input (reflected: +10 degrees) tilts gravity toward +x; the
    // particle settles at the tilt: an output angle of -10 degrees (x right, y down).
    let mut c = chain(0.9, &[L], true, false);
    c.inputs = vec![input(ChainSource::Angle, true)];
    let rig = make(&raw(vec![c])).unwrap();
    let out = run(&rig, 60.0, 20.0, |t| if t > 0.0 { 10.0 } else { 0.0 });
    let last = out[out.len() - 1];
    assert!((last + 10f64.to_radians()).abs() < 1e-6, "{last}");
}

#[test]
fn non_finite_input_never_poisons_state() {
    let rig = make(&raw(vec![chain(0.97, &[6.0, 4.0], false, false)])).unwrap();
    let mut inst = Instance::new(&rig);
    let (pin, pout) = (
        rig.params.find("In").unwrap(),
        rig.params.find("Out").unwrap(),
    );
    for k in 0..120 {
        let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY][k % 3];
        inst.params.values[pin.index()][0] = if k % 2 == 0 { bad } else { 4.0 };
        let dt = if k % 5 == 0 { bad } else { 1.0 / 60.0 };
        update_params(&rig, &mut inst, dt, true);
        let s = &inst.params.chains.strands[0];
        assert!(
            s.pos
                .iter()
                .chain(&s.vel)
                .all(|v| v.x.is_finite() && v.y.is_finite())
        );
        assert!(inst.params.values[pout.index()][0].is_finite());
    }
}

#[test]
fn normalization_maps_range_ends_and_middle() {
    let pd = crate::params::ParamData {
        name: "p".into(),
        is_2d: false,
        min: [0.0, 0.0],
        max: [30.0, 30.0],
        default: [0.0, 0.0],
        driven: false,
    };
    let n = Normalization {
        minimum: -10.0,
        default: 2.0,
        maximum: 20.0,
    };
    for (v, want) in [
        (30.0, 20.0),
        (0.0, -10.0),
        (15.0, 2.0),
        (22.5, 11.0),
        (7.5, -4.0),
        (99.0, 20.0),
        (f64::NAN, 2.0),
    ] {
        assert!((n.map(&pd, 0, v) - want).abs() < 1e-12, "{v}");
    }
}

#[test]
fn output_weight_blends_into_the_current_value() {
    let pd = crate::params::ParamData {
        name: "p".into(),
        is_2d: false,
        min: [-10.0, -10.0],
        max: [10.0, 10.0],
        default: [0.0, 0.0],
        driven: false,
    };
    let o = ChainOutput {
        param: ParamId(0),
        component: 0,
        vertex: 1,
        kind: ChainSource::X,
        scale: 4.0,
        weight: 25.0,
        reflect: false,
    };
    let mut values = [[2.0, 0.0]];
    write_output(&o, 1.0, std::slice::from_ref(&pd), &mut values);
    assert!((values[0][0] - (2.0 * 0.75 + 4.0 * 0.25)).abs() < 1e-12);
    // Clamped to the range before blending.
    let mut values = [[0.0, 0.0]];
    let full = ChainOutput { weight: 100.0, ..o };
    write_output(&full, 100.0, std::slice::from_ref(&pd), &mut values);
    assert_eq!(values[0][0], 10.0);
}

#[test]
fn builder_names_unknown_parameters_and_bad_vertices() {
    let mut c = chain(1.0, &[L], false, false);
    c.inputs[0].param = "Nope".into();
    c.outputs.push(output(0, ChainSource::X, false));
    c.outputs.push(RawChainOutput {
        param: "Gone".into(),
        ..output(1, ChainSource::X, false)
    });
    c.particles[1].radius = f64::NAN;
    let errs = make(&raw(vec![c])).unwrap_err();
    let all = errs.to_string();
    let names: Vec<_> = errs
        .problems
        .iter()
        .filter_map(|p| p.name.as_deref())
        .collect();
    assert_eq!(names, ["Nope", "Gone"], "{errs:?}");
    assert!(all.contains("input 0: unknown parameter `Nope`"), "{all}");
    assert!(all.contains("output 2: unknown parameter `Gone`"), "{all}");
    assert!(all.contains("vertex 0 not in 1..2"), "{all}");
    assert!(all.contains("particle 1"), "{all}");
    assert!(all.contains("physics chain `hair`"), "{all}");
}

#[test]
fn without_physics_chains_write_nothing() {
    let rig = make(&raw(vec![chain(1.0, &[L], false, false)])).unwrap();
    let mut inst = Instance::new(&rig);
    let (pin, pout) = (
        rig.params.find("In").unwrap(),
        rig.params.find("Out").unwrap(),
    );
    inst.params.set(&rig, pin, [5.0, 0.0]);
    inst.params.set(&rig, pout, [7.0, 0.0]);
    update_params(&rig, &mut inst, 1.0 / 60.0, false);
    assert_eq!(inst.params.values[pout.index()][0], 7.0);
    assert!(!inst.params.chains.placed);
    // Reset puts the chain back at rest on the next physics frame.
    update_params(&rig, &mut inst, 1.0 / 60.0, true);
    reset_chains(&mut inst);
    assert!(!inst.params.chains.placed && inst.params.chains.clock.steps() == 0);
}
