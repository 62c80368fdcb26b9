//! The angular spring and lerp models against their closed forms, the angular model's
//! indifference to translation, both at 30, 60 and 144 fps through the rig stage, and the
//! speed curve of stiffness and damping (its smoothstep, the driver's speed measured, the
//! chain retuned).

use super::chain::{AnimPoints, ChainSettings, Env, JiggleSim, Link};
use super::tests_rig::test_rig;
use super::*;
use crate::instance::Instance;
use crate::math::Vec2;
use crate::sim::spring::{SpringParams, closed_form};
use crate::sim::vec::SimVec;
use crate::skeleton::update_world_transform;
use crate::types::Physics;

const H: f64 = 1.0 / 60.0;

fn one_bone(params: JiggleParams) -> JiggleSim<Vec2> {
    JiggleSim::new(
        vec![Link {
            parent: None,
            chain: 0,
        }],
        vec![ChainSettings::new(params, H, 1, (0, 0))],
        Vec::new(),
    )
}

/// A 10-unit bone at `origin` pointing `degrees` from the x axis.
fn bone_at(origin: Vec2, degrees: f64) -> AnimPoints<Vec2> {
    let (s, c) = degrees.to_radians().sin_cos();
    AnimPoints {
        origin,
        tip: origin + Vec2::new(c, s) * 10.0,
    }
}

fn env() -> Env<Vec2> {
    Env::new(Vec2::new(0.0, -980.0), Vec2::new(300.0, 0.0))
}

#[test]
fn the_angular_spring_follows_the_closed_form_at_any_angle() {
    let delta: f64 = 120.0;
    for zeta in [0.0, 0.3, 1.0, 2.5] {
        let sp = SpringParams::from_frequency(1.5, zeta, 0.5);
        let params = JiggleParams {
            model: JiggleModel::Angular,
            stiffness: sp.stiffness,
            damping: sp.damping,
            mass: 0.5,
            // Gravity and wind do not act on the angular model.
            gravity: 1.0,
            wind: 1.0,
            ..Default::default()
        };
        let mut sim = one_bone(params);
        let o = Vec2::new(3.0, -2.0);
        sim.reset(&[bone_at(o, 0.0)]);
        // The driver turns by `delta` at once and holds: the bone starts `-delta` from it.
        for n in 1..=180u32 {
            sim.step(&[bone_at(o, delta)], &[], &env(), &[1.0], false);
            let r = sim.bones[0].last.rot;
            let got = r.s.atan2(r.c);
            let (want, _) = closed_form(sp, -delta.to_radians(), 0.0, f64::from(n) * H, 0.0);
            assert!(
                (got - want).abs() < 1e-9,
                "zeta {zeta} step {n}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn the_angular_spring_ignores_translation_where_the_positional_one_swings() {
    let sp = SpringParams::from_frequency(2.0, 0.3, 1.0);
    let angular = JiggleParams {
        model: JiggleModel::Angular,
        stiffness: sp.stiffness,
        damping: sp.damping,
        ..Default::default()
    };
    let positional = JiggleParams {
        stiffness: sp.stiffness,
        damping: sp.damping,
        ..Default::default()
    };
    let mut swing = [0.0f64; 2];
    for (k, params) in [angular, positional].into_iter().enumerate() {
        let mut sim = one_bone(params);
        sim.reset(&[bone_at(Vec2::ZERO, 30.0)]);
        for n in 1..=120u32 {
            // A jerky walk: the bone moves but never turns.
            let t = f64::from(n) * H;
            let o = Vec2::new(200.0 * t + 30.0 * (9.0 * t).sin(), 40.0 * (5.0 * t).cos());
            sim.step(
                &[bone_at(o, 30.0)],
                &[],
                &Env::new(Vec2::ZERO, Vec2::ZERO),
                &[1.0],
                false,
            );
            let r = sim.bones[0].last.rot;
            swing[k] = swing[k].max(r.s.atan2(r.c).abs());
        }
    }
    assert!(swing[0] < 1e-12, "angular swung {} rad", swing[0]);
    assert!(swing[1] > 0.05, "positional swung only {} rad", swing[1]);
}

#[test]
fn the_lerp_model_decays_exponentially_to_its_target() {
    let k = 6.0;
    let params = JiggleParams {
        model: JiggleModel::Lerp,
        stiffness: k,
        // No length limit: the tip is free in the plane.
        max_stretch: 1e9,
        gravity: 1.0,
        ..Default::default()
    };
    let mut sim = one_bone(params);
    sim.reset(&[bone_at(Vec2::ZERO, 0.0)]);
    let start = sim.bones[0].tip;
    let target = bone_at(Vec2::new(4.0, 1.0), 50.0);
    for n in 1..=120u32 {
        sim.step(&[target], &[], &env(), &[1.0], false);
        let want = target.tip + (start - target.tip) * (-k * f64::from(n) * H).exp();
        let got = sim.bones[0].tip;
        assert!(
            (got - want).length() < 1e-9,
            "step {n}: {got:?} vs {want:?}"
        );
        assert_eq!(sim.bones[0].tip_vel, Vec2::ZERO, "no velocity");
    }
}

/// One bone of `params` whose target moves piecewise linearly (kinks at frame times of every
/// rate), driven frame by frame at `fps` on the 60 Hz clock with inputs interpolated across
/// each frame's steps; its state at shared times (every 1/6 s) for 2 s.
fn drive(params: JiggleParams, fps: f64) -> Vec<Vec2> {
    let target = |t: f64| {
        // Turns up for half a second, then down, while walking.
        let lift = if t < 0.5 {
            30.0 * t
        } else {
            15.0 - 20.0 * (t - 0.5)
        };
        let origin = Vec2::new(40.0 * t, 0.0);
        AnimPoints {
            origin,
            tip: origin + Vec2::new(10.0, lift),
        }
    };
    let mut sim = one_bone(params);
    sim.reset(&[target(0.0)]);
    let mut clock = crate::sim::clock::FixedClock::default();
    let per = (fps / 6.0).round() as u32;
    let mut prev = target(0.0);
    let mut out = Vec::new();
    for f in 1..=(2.0 * fps) as u32 {
        let cur = target(f64::from(f) / fps);
        for j in 0..clock.advance(1.0 / fps) {
            let a = prev.lerp(&cur, clock.step_fraction(j));
            sim.step(&[a], &[], &env(), &[1.0], false);
        }
        prev = cur;
        if f % per == 0 {
            out.push(sim.bones[0].tip);
        }
    }
    out
}

#[test]
fn angular_and_lerp_chains_agree_at_30_60_and_144_fps() {
    let sp = SpringParams::from_frequency(2.0, 0.2, 1.0);
    for params in [
        JiggleParams {
            model: JiggleModel::Angular,
            stiffness: sp.stiffness,
            damping: sp.damping,
            ..Default::default()
        },
        JiggleParams {
            model: JiggleModel::Lerp,
            stiffness: 8.0,
            ..Default::default()
        },
    ] {
        let base = drive(params, 60.0);
        assert_eq!(base.len(), 12);
        let moved = base.windows(2).any(|w| (w[1] - w[0]).length() > 1.0);
        assert!(moved, "{:?}: the tip moved", params.model);
        for fps in [30.0, 144.0] {
            for (k, (x, y)) in base.iter().zip(&drive(params, fps)).enumerate() {
                assert!(
                    (*x - *y).length() < 1e-9,
                    "{:?} {fps} fps sample {k}: {x:?} vs {y:?}",
                    params.model
                );
            }
        }
    }
}

#[test]
fn the_speed_curve_is_a_smoothstep_of_the_drivers_speed() {
    let curve = SpeedCurve {
        from: 10.0,
        to: 100.0,
        stiffness: 3.0,
        damping: 0.5,
    };
    assert_eq!(curve.factors(0.0), (1.0, 1.0));
    assert_eq!(curve.factors(10.0), (1.0, 1.0));
    assert_eq!(curve.factors(55.0), (2.0, 0.75), "half way: smoothstep 1/2");
    let (k, _) = curve.factors(32.5);
    assert!(
        (k - (1.0 + 2.0 * 0.15625)).abs() < 1e-12,
        "u = 1/4: 3u^2 - 2u^3"
    );
    assert_eq!(curve.factors(1e6), (3.0, 0.5));
    let step = SpeedCurve { to: 10.0, ..curve };
    assert_eq!(
        (step.factors(9.9), step.factors(10.0)),
        ((1.0, 1.0), (3.0, 0.5))
    );
    assert!(SpeedCurve::OFF.is_off() && SpeedCurve::default().is_off());
    for bad in [
        SpeedCurve {
            from: -1.0,
            ..curve
        },
        SpeedCurve {
            to: f64::NAN,
            ..curve
        },
        SpeedCurve {
            stiffness: 0.0,
            ..curve
        },
        SpeedCurve {
            damping: -1.0,
            ..curve
        },
    ] {
        assert!(bad.validate().is_err(), "{bad:?}");
    }

    // Through the stage: a walk at 55 units/s halves the way from 1 to the factors.
    let rig = test_rig();
    let base = Preset::HairTip.params();
    let mut d = JiggleDesc::new();
    d.chains.push(ChainDesc::new(
        "hair",
        &["hair1", "hair2"],
        JiggleParams {
            speed: curve,
            ..base
        },
    ));
    let jr = JiggleRig::build(&rig, &d).expect("builds");
    let mut inst = Instance::new(&rig);
    let mut js = JiggleState::new(&jr);
    for fps in [30.0, 144.0, 60.0] {
        for f in 0..30 {
            inst.x += 55.0 / fps;
            update_world_transform(&rig, &mut inst, Physics::None);
            js.update(&rig, &jr, &mut inst, 1.0 / fps);
            if f == 0 && fps == 30.0 {
                continue; // the first frame anchors: no speed yet
            }
            assert!(
                (js.chain_speed(0) - 55.0).abs() < 1e-9,
                "{fps} fps: {}",
                js.chain_speed(0)
            );
            let p = js.sim().chains[0].params;
            assert!((p.stiffness / base.stiffness - 2.0).abs() < 1e-9);
            assert!((p.damping / base.damping - 0.75).abs() < 1e-9);
        }
    }
    // Standing still: back to the chain's own springs.
    js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
    assert_eq!(js.chain_speed(0), 0.0);
    assert_eq!(js.sim().chains[0].params.stiffness, base.stiffness);
}
