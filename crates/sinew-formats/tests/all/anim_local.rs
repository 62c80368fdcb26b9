//! Animation matches the official runtime: local bone values, inherit modes, draw order,
//! slot attachments, colours, sequence indices and fired events, after `apply_clip` (apply
//! mode) or `AnimationState` (state mode, including crossfades), on the synthetic
//! timelines/constraints labs and real rigs.
//!
//! The expected values are in `testdata/anim/*.json`, made by `testdata/anim/gen.py` from
//!   node dump.mjs <fixture> <args> --local --no-vertices
//! (each file records its exact command). The stepping is the oracle's: one 0 s step, then
//! 1/60 s steps, with one shorter step landing on an off-grid sample time. Each step, state
//! mode does `state.update(dt); state.apply(inst)`; apply mode resets to the setup pose and
//! calls `apply_clip(last, t, loop, events, 1, Setup, In)`. World transforms are not needed:
//! nothing animation writes depends on them.
//!
//! `state_scenarios_match_oracle` replays scripted AnimationState scenarios (interrupted
//! crossfades, queued entries with delays, additive and alpha layers, empty animations,
//! holdPrevious, reverse, shortestRotation, hold-mix chains, attachment/draw-order/event
//! thresholds, animation start/end, track end, time scale, clearing tracks) from
//! `testdata/anim/state/*.json`, made by `testdata/anim/scenarios.mjs` on the official
//! runtime; it also compares lifecycle events and the animatable constraint values.
//! `steady_state_playback_does_not_allocate` counts this thread's allocations while
//! AnimationState switches clips with crossfades every 0.5 s after warm-up (must be zero).
//!
//! The rigs come from `$SINEW_FIXTURES` (default `<workspace>/../shared/fixtures`); when they
//! are missing the test skips with a notice, or fails under `CI=true`.
#![allow(clippy::unwrap_used)]

#[path = "anim_local/compare.rs"]
mod compare;
#[path = "anim_local/scenarios.rs"]
mod scenarios;

use compare::{Expected, compare_pose};
use serde_json::Value;
use sinew::Instance;
use sinew::anim::{
    AnimationState, FiredEvent, MixBlend, MixDirection, apply_clip, state::StateEventKind,
};
use sinew::build::build_rig;
use sinew::rig::Rig;
use sinew_formats::spine::load_spine_json;
use std::path::PathBuf;

use sinew_testutil::alloc::count_allocations;

/// Tolerance on local values, relative to max(1, |value|). The data keeps 10 significant
/// digits; the runtimes agree to ~5e-10 (raw keys carry the JSON's f64 numbers and the
/// builder samples Beziers from them, as the official loader does; see `sinew::build::clips`).
pub(crate) const TOL: f64 = 1e-8;
/// Tolerance on colours (stored as f32 here, f64 in spine-ts).
pub(crate) const TOL_COLOR: f64 = 1e-6;

fn cases() -> Vec<PathBuf> {
    let dir = sinew_testutil::workspace_root()
        .join("testdata")
        .join("anim");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    out.sort();
    out
}

fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

/// The driver: apply mode or an AnimationState, as the oracle sets them up.
enum Driver {
    Apply {
        clip: sinew::ClipId,
        looping: bool,
        last: f64,
        time: f64,
    },
    State(Box<AnimationState>),
}

/// One fired event as (name, time, int, float, string).
type Ev = (String, f64, i64, f64, String);

fn event_of(rig: &Rig, e: &FiredEvent) -> Ev {
    (
        e.name(rig).to_owned(),
        e.time,
        i64::from(e.int),
        f64::from(e.float),
        e.string(rig).to_owned(),
    )
}

fn step(
    rig: &Rig,
    inst: &mut Instance,
    driver: &mut Driver,
    dt: f64,
    events: &mut Vec<Ev>,
    scratch: &mut Vec<FiredEvent>,
) {
    match driver {
        Driver::Apply {
            clip,
            looping,
            last,
            time,
        } => {
            *time += dt;
            inst.set_to_setup_pose(rig);
            scratch.clear();
            apply_clip(
                rig,
                inst,
                *clip,
                *last,
                *time,
                *looping,
                Some(scratch),
                1.0,
                MixBlend::Setup,
                MixDirection::In,
            );
            events.extend(scratch.iter().map(|e| event_of(rig, e)));
            *last = *time;
        }
        Driver::State(state) => {
            state.update(dt);
            state.apply(rig, inst);
            for ev in state.drain_events() {
                if let StateEventKind::Event(e) = ev.kind {
                    events.push(event_of(rig, &e));
                }
            }
        }
    }
    inst.advance_time(dt);
}

/// Runs one case and returns a line per mismatch, plus the largest local-value error.
fn check_case(spine_dir: &std::path::Path, case: &Value) -> (Vec<String>, f64) {
    let fixture = spine_dir.join(case["skeleton"].as_str().unwrap());
    let args: Vec<String> = case["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect();
    let raw = match load_spine_json(&fixture) {
        Ok(r) => r,
        Err(e) => return (vec![format!("load: {e}")], 0.0),
    };
    let rig = match build_rig(&raw) {
        Ok(r) => r,
        Err(e) => return (vec![format!("build: {e}")], 0.0),
    };
    let mut inst = Instance::new(&rig);
    if let Some(skins) = arg(&args, "--skin") {
        let ids: Vec<_> = skins.split(',').map(|n| rig.skin(n).unwrap()).collect();
        inst.set_skins(&rig, &ids);
        inst.set_slots_to_setup_pose(&rig);
    }
    inst.set_to_setup_pose(&rig);
    let looping = arg(&args, "--loop") != Some("false");
    let anim = arg(&args, "--anim").map(|n| rig.clip(n).unwrap());
    let mut driver = if arg(&args, "--mode") == Some("apply") {
        Driver::Apply {
            clip: anim.unwrap(),
            looping,
            last: -1.0,
            time: 0.0,
        }
    } else {
        let mut state = AnimationState::new(&rig);
        match arg(&args, "--from") {
            Some(from) => {
                state.set_animation(&rig, 0, rig.clip(from).unwrap(), true);
                if let Some(a) = anim {
                    let at: f64 = arg(&args, "--at").unwrap_or("0").parse().unwrap();
                    let id = state
                        .add_animation(&rig, 0, a, looping, at)
                        .expect("the rig's clip");
                    state.entry_mut(id).unwrap().mix_duration =
                        arg(&args, "--mix").unwrap_or("0").parse().unwrap();
                }
            }
            None => {
                state.set_animation(&rig, 0, anim.unwrap(), looping);
            }
        }
        Driver::State(Box::new(state))
    };
    let dt = 1.0 / 60.0;
    let eps = 1e-9;
    let mut now = 0.0;
    let mut events = Vec::new();
    let mut scratch = Vec::new();
    let mut problems = Vec::new();
    let mut max_err: f64 = 0.0;
    let mut expected = Expected::default();
    step(&rig, &mut inst, &mut driver, 0.0, &mut events, &mut scratch);
    for frame in case["frames"].as_array().unwrap() {
        expected.next(frame);
        let t = frame["time"].as_f64().unwrap();
        while now + dt <= t + eps {
            step(&rig, &mut inst, &mut driver, dt, &mut events, &mut scratch);
            now += dt;
        }
        if t - now > eps {
            step(
                &rig,
                &mut inst,
                &mut driver,
                t - now,
                &mut events,
                &mut scratch,
            );
            now = t;
        }
        let mut report = |msg: String| {
            if problems.len() < 30 {
                problems.push(format!("t={t}: {msg}"));
            }
        };
        max_err = max_err.max(compare_pose(
            &rig,
            &inst,
            &case["bones"],
            &expected,
            &mut report,
        ));
        // Events fired since the previous sample.
        let want: Vec<Ev> = frame["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e[0].as_str().unwrap().to_owned(),
                    e[1].as_f64().unwrap(),
                    e[2].as_i64().unwrap(),
                    e[3].as_f64().unwrap(),
                    e[4].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect();
        let same = want.len() == events.len()
            && want.iter().zip(&events).all(|(w, g)| {
                w.0 == g.0
                    && (w.1 - g.1).abs() < 1e-9
                    && w.2 == g.2
                    && (w.3 - g.3).abs() < 1e-6
                    && w.4 == g.4
            });
        if !same {
            report(format!("events {events:?} vs oracle {want:?}"));
        }
        events.clear();
    }
    (problems, max_err)
}

#[test]
fn animation_matches_oracle() {
    let Some(spine_dir) = sinew_testutil::require_spine_fixtures("animation_matches_oracle") else {
        return;
    };
    let mut failures = Vec::new();
    let all = cases();
    assert!(
        all.len() >= 10,
        "expected the testdata/anim cases, found {}",
        all.len()
    );
    for path in all {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let (problems, max_err) = check_case(&spine_dir, &case);
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        println!("{name}: max relative local error {max_err:.2e}");
        for p in problems {
            failures.push(format!("{name}: {p}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn steady_state_playback_does_not_allocate() {
    let Some(spine_dir) =
        sinew_testutil::require_spine_fixtures("steady_state_playback_does_not_allocate")
    else {
        return;
    };
    let raw = load_spine_json(&spine_dir.join("spineboy/spineboy-pro.json")).unwrap();
    let rig = build_rig(&raw).unwrap();
    // Through the facade, as a host runs it: switching clips every 0.5 s with crossfades,
    // plus an additive layer on track 1.
    let mut c = sinew::Character::new(std::sync::Arc::new(rig.clone()));
    c.set_default_mix(0.2);
    let mut events = Vec::with_capacity(64);
    let mut frame = |c: &mut sinew::Character, k: usize| {
        if k.is_multiple_of(30) {
            let clip = if k.is_multiple_of(60) { "walk" } else { "run" };
            c.set_animation(0, clip, true).expect("spineboy's clip");
        }
        c.update(1.0 / 60.0);
        events.extend(c.events().iter().map(|e| e.kind));
        events.clear();
    };
    // The counter works: a visible allocation is counted.
    assert!(count_allocations(|| drop(std::hint::black_box(vec![1u8; 16]))) > 0);
    let id = c.set_animation(1, "aim", true).expect("the rig's clip");
    c.state_mut().entry_mut(id).unwrap().mix_blend = MixBlend::Add;
    for k in 0..300 {
        frame(&mut c, k);
    }
    let allocations = count_allocations(|| {
        for k in 300..900 {
            frame(&mut c, k);
        }
    });
    assert_eq!(allocations, 0, "AnimationState allocated in steady state");
    // apply_clip alone, events included.
    let (run, mut inst) = (rig.clip("run").unwrap(), Instance::new(&rig));
    let mut fired = Vec::with_capacity(16);
    let allocations = count_allocations(|| {
        for k in 0..200 {
            let t = f64::from(k) / 60.0;
            inst.set_to_setup_pose(&rig);
            fired.clear();
            apply_clip(
                &rig,
                &mut inst,
                run,
                t - 1.0 / 60.0,
                t,
                true,
                Some(&mut fired),
                1.0,
                MixBlend::Setup,
                MixDirection::In,
            );
        }
    });
    assert_eq!(allocations, 0, "apply_clip allocated");
}
