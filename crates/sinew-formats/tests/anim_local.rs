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
//! The rigs come from `$SINEW_FIXTURES` (default `<workspace>/../shared/fixtures`); when they
//! are missing the test skips with a notice, or fails under `CI=true`.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use sinew::anim::{
    AnimationState, FiredEvent, MixBlend, MixDirection, apply_clip, state::StateEventKind,
};
use sinew::build::build_rig;
use sinew::rig::Rig;
use sinew::{Inherit, Instance};
use sinew_formats::spine::load_spine_json;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;

/// Counts this thread's allocations, for the steady-state allocation test.
struct CountingAlloc;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; only bumps a thread-local counter.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

fn allocations() -> usize {
    ALLOCS.with(Cell::get)
}

/// Tolerance on local values, relative to max(1, |value|). The data keeps 10 significant
/// digits; the runtimes agree to ~5e-10 (the builder recovers the JSON's f64 numbers for
/// Bezier sampling, see `sinew::build::clips`).
const TOL: f64 = 1e-8;
/// Tolerance on colours (stored as f32 here, f64 in spine-ts).
const TOL_COLOR: f64 = 1e-6;

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

fn inherit_index(i: Inherit) -> f64 {
    match i {
        Inherit::Normal => 0.0,
        Inherit::OnlyTranslation => 1.0,
        Inherit::NoRotationOrReflection => 2.0,
        Inherit::NoScale => 3.0,
        Inherit::NoScaleOrReflection => 4.0,
    }
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
                    let id = state.add_animation(&rig, 0, a, looping, at);
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

/// The expected rows of the current frame: data files write a bone or slot row that equals
/// the previous frame's as `0`.
#[derive(Default)]
struct Expected {
    local: Vec<Value>,
    slots: Vec<Value>,
}

impl Expected {
    fn unpack(rows: &mut Vec<Value>, packed: &Value) {
        let packed = packed.as_array().unwrap();
        rows.resize(packed.len(), Value::Null);
        for (row, p) in rows.iter_mut().zip(packed) {
            if p.as_u64() != Some(0) {
                *row = p.clone();
            }
        }
    }

    fn next(&mut self, frame: &Value) {
        Self::unpack(&mut self.local, &frame["local"]);
        Self::unpack(&mut self.slots, &frame["slots"]);
    }
}

/// Compares local bone values, inherit modes and the slots (draw order, attachment, colours,
/// sequence index) with an expected frame; returns the largest relative local error.
fn compare_pose(
    rig: &Rig,
    inst: &Instance,
    bones: &Value,
    exp: &Expected,
    report: &mut dyn FnMut(String),
) -> f64 {
    let mut max_err: f64 = 0.0;
    // Bones.
    for (i, (name, want)) in bones.as_array().unwrap().iter().zip(&exp.local).enumerate() {
        let p = &inst.pose[i];
        let got = [
            p.x,
            p.y,
            p.rotation,
            p.scale_x,
            p.scale_y,
            p.shear_x,
            p.shear_y,
            inherit_index(inst.inherit[i]),
        ];
        for (k, w) in want.as_array().unwrap().iter().enumerate() {
            let w = w.as_f64().unwrap();
            let err = (got[k] - w).abs() / w.abs().max(1.0);
            max_err = max_err.max(err);
            if err > TOL {
                report(format!("bone {name} value {k}: {} vs oracle {w}", got[k]));
            }
        }
    }
    // Slots in draw order.
    for (pos, row) in exp.slots.iter().enumerate() {
        let row = row.as_array().unwrap();
        let slot = inst.draw_order[pos];
        let sd = &rig.slots[slot.index()];
        if sd.name != row[0].as_str().unwrap() {
            report(format!(
                "draw order {pos}: {} vs oracle {}",
                sd.name, row[0]
            ));
            continue;
        }
        let att =
            inst.slots.attachment[slot.index()].map(|a| rig.attachments[a.index()].name.as_str());
        if att != row[1].as_str() {
            report(format!(
                "slot {} attachment {att:?} vs oracle {}",
                sd.name, row[1]
            ));
        }
        let c = inst.slots.color[slot.index()];
        let got = [c.r, c.g, c.b, c.a];
        for (k, w) in row[2].as_array().unwrap().iter().enumerate() {
            if (f64::from(got[k]) - w.as_f64().unwrap()).abs() > TOL_COLOR {
                report(format!(
                    "slot {} colour {k}: {} vs oracle {w}",
                    sd.name, got[k]
                ));
            }
        }
        if let Some(dark) = row[3].as_array() {
            let d = inst.slots.dark[slot.index()];
            let got = [d.r, d.g, d.b];
            for (k, w) in dark.iter().enumerate() {
                if (f64::from(got[k]) - w.as_f64().unwrap()).abs() > TOL_COLOR {
                    report(format!(
                        "slot {} dark {k}: {} vs oracle {w}",
                        sd.name, got[k]
                    ));
                }
            }
        }
        if let Some(si) = row[4].as_i64() {
            let got = inst.slots.sequence_index[slot.index()];
            if i64::from(got) != si {
                report(format!(
                    "slot {} sequence index {got} vs oracle {si}",
                    sd.name
                ));
            }
        }
    }
    max_err
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

/// Compares the animatable constraint values (IK, transform, path, physics) with a
/// scenario frame's; returns the largest relative error.
fn compare_constraints(inst: &Instance, want: &Value, report: &mut dyn FnMut(String)) -> f64 {
    let b = |v: bool| if v { 1.0 } else { 0.0 };
    let got: [(&str, Vec<Vec<f64>>); 4] = [
        (
            "ik",
            inst.ik
                .iter()
                .map(|c| {
                    vec![
                        c.mix,
                        c.softness,
                        f64::from(c.bend_direction),
                        b(c.compress),
                        b(c.stretch),
                    ]
                })
                .collect(),
        ),
        (
            "transform",
            inst.transforms
                .iter()
                .map(|m| vec![m.rotate, m.x, m.y, m.scale_x, m.scale_y, m.shear_y])
                .collect(),
        ),
        (
            "path",
            inst.paths
                .iter()
                .map(|p| vec![p.position, p.spacing, p.mix_rotate, p.mix_x, p.mix_y])
                .collect(),
        ),
        (
            "physics",
            inst.physics
                .iter()
                .map(|p| {
                    let q = &p.params;
                    vec![
                        q.inertia,
                        q.strength,
                        q.damping,
                        q.mass_inverse,
                        q.wind,
                        q.gravity,
                        q.mix,
                    ]
                })
                .collect(),
        ),
    ];
    let mut max_err: f64 = 0.0;
    for (kind, rows) in got {
        let Some(want_rows) = want[kind].as_array() else {
            continue;
        };
        if want_rows.len() != rows.len() {
            report(format!(
                "{} {kind} constraints vs oracle {}",
                rows.len(),
                want_rows.len()
            ));
            continue;
        }
        for (i, (w, g)) in want_rows.iter().zip(&rows).enumerate() {
            for (k, (w, g)) in w.as_array().unwrap().iter().zip(g).enumerate() {
                let w = w.as_f64().unwrap();
                let err = (g - w).abs() / w.abs().max(1.0);
                max_err = max_err.max(err);
                if err > TOL {
                    report(format!(
                        "{kind} constraint {i} value {k}: {g} vs oracle {w}"
                    ));
                }
            }
        }
    }
    max_err
}

/// Runs one scripted command of a state scenario (see `testdata/anim/scenarios.mjs`).
fn run_command(rig: &Rig, state: &mut AnimationState, c: &Value) {
    let track = c["track"].as_u64().unwrap_or(0) as usize;
    let looping = c["loop"].as_bool().unwrap_or(false);
    let f = |k: &str| c[k].as_f64().unwrap_or(0.0);
    let clip = || rig.clip(c["anim"].as_str().unwrap()).unwrap();
    let entry = match c["op"].as_str().unwrap() {
        "set" => Some(state.set_animation(rig, track, clip(), looping)),
        "add" => Some(state.add_animation(rig, track, clip(), looping, f("delay"))),
        "setEmpty" => Some(state.set_empty_animation(rig, track, f("mix"))),
        "addEmpty" => Some(state.add_empty_animation(rig, track, f("mix"), f("delay"))),
        "setEmpties" => {
            state.set_empty_animations(rig, f("mix"));
            None
        }
        "clearTrack" => {
            state.clear_track(track);
            None
        }
        "clearTracks" => {
            state.clear_tracks();
            None
        }
        "timeScale" => {
            state.time_scale = f("value");
            None
        }
        op => panic!("unknown op {op}"),
    };
    let Some(fields) = c["entry"].as_object() else {
        return;
    };
    let e = state.entry_mut(entry.unwrap()).unwrap();
    for (k, v) in fields {
        let x = v.as_f64().unwrap_or(0.0);
        let b = v.as_bool().unwrap_or(false);
        match k.as_str() {
            "holdPrevious" => e.hold_previous = b,
            "reverse" => e.reverse = b,
            "shortestRotation" => e.shortest_rotation = b,
            "alpha" => e.alpha = x,
            "timeScale" => e.time_scale = x,
            "eventThreshold" => e.event_threshold = x,
            "mixAttachmentThreshold" => e.mix_attachment_threshold = x,
            "alphaAttachmentThreshold" => e.alpha_attachment_threshold = x,
            "mixDrawOrderThreshold" => e.mix_draw_order_threshold = x,
            "trackEnd" => e.track_end = x,
            "mixDuration" => e.mix_duration = x,
            "animationStart" => e.animation_start = x,
            "animationEnd" => e.animation_end = x,
            "delay" => e.delay = x,
            "mixBlend" => {
                e.mix_blend = match v.as_str().unwrap() {
                    "setup" => MixBlend::Setup,
                    "first" => MixBlend::First,
                    "replace" => MixBlend::Replace,
                    _ => MixBlend::Add,
                }
            }
            other => panic!("unknown entry field {other}"),
        }
    }
}

/// Lifecycle or key event as the scenario files write them: (type, track, clip, event, time).
type StateEv = (String, u64, String, Option<String>, Option<f64>);

fn run_scenario(spine_dir: &std::path::Path, case: &Value) -> (Vec<String>, f64) {
    let sc = &case["scenario"];
    let raw = load_spine_json(&spine_dir.join(sc["skeleton"].as_str().unwrap())).unwrap();
    let rig = build_rig(&raw).unwrap();
    let mut inst = Instance::new(&rig);
    let mut state = AnimationState::new(&rig);
    state.default_mix = sc["defaultMix"].as_f64().unwrap_or(0.0);
    for m in sc["mixes"].as_array().unwrap() {
        assert!(state.set_mix_by_name(
            &rig,
            m[0].as_str().unwrap(),
            m[1].as_str().unwrap(),
            m[2].as_f64().unwrap()
        ));
    }
    let dt = 1.0 / sc["fps"].as_f64().unwrap_or(60.0);
    let steps = sc["steps"].as_u64().unwrap();
    let commands = sc["commands"].as_array().unwrap();
    let mut frames = case["frames"].as_array().unwrap().iter().peekable();
    let clip_name = |id: sinew::ClipId| {
        rig.clips
            .get(id.index())
            .map_or("<empty>".to_owned(), |c| c.name.clone())
    };
    let mut events: Vec<StateEv> = Vec::new();
    let mut expected = Expected::default();
    let (mut problems, mut max_err) = (Vec::new(), 0.0f64);
    for step in 0..=steps {
        for c in commands
            .iter()
            .filter(|c| c["step"].as_u64().unwrap_or(0) == step)
        {
            run_command(&rig, &mut state, c);
        }
        let delta = if step == 0 { 0.0 } else { dt };
        state.update(delta);
        state.apply(&rig, &mut inst);
        inst.advance_time(delta);
        for ev in state.drain_events() {
            let (kind, e) = match ev.kind {
                StateEventKind::Start => ("start", None),
                StateEventKind::Interrupt => ("interrupt", None),
                StateEventKind::End => ("end", None),
                StateEventKind::Dispose => ("dispose", None),
                StateEventKind::Complete => ("complete", None),
                StateEventKind::Event(e) => ("event", Some((e.name(&rig).to_owned(), e.time))),
            };
            let (name, time) = e.map_or((None, None), |(n, t)| (Some(n), Some(t)));
            events.push((
                kind.to_owned(),
                ev.track as u64,
                clip_name(ev.clip),
                name,
                time,
            ));
        }
        let Some(frame) = frames.next_if(|f| f["step"].as_u64() == Some(step)) else {
            continue;
        };
        expected.next(frame);
        let mut report = |msg: String| {
            if problems.len() < 30 {
                problems.push(format!("step {step}: {msg}"));
            }
        };
        max_err = max_err.max(compare_pose(
            &rig,
            &inst,
            &case["bones"],
            &expected,
            &mut report,
        ));
        max_err = max_err.max(compare_constraints(
            &inst,
            &frame["constraints"],
            &mut report,
        ));
        let want: Vec<StateEv> = frame["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e[0].as_str().unwrap().to_owned(),
                    e[1].as_u64().unwrap(),
                    e[2].as_str().unwrap().to_owned(),
                    e[3].as_str().map(str::to_owned),
                    e[4].as_f64(),
                )
            })
            .collect();
        let same = want.len() == events.len()
            && want.iter().zip(&events).all(|(w, g)| {
                w.0 == g.0
                    && w.1 == g.1
                    && w.2 == g.2
                    && w.3 == g.3
                    && match (w.4, g.4) {
                        (Some(a), Some(b)) => (a - b).abs() < 1e-8,
                        (a, b) => a.is_none() && b.is_none(),
                    }
            });
        if !same {
            report(format!("events {events:?} vs oracle {want:?}"));
        }
        events.clear();
    }
    if let Some(f) = frames.next() {
        problems.push(format!("frame at step {} was never reached", f["step"]));
    }
    (problems, max_err)
}

#[test]
fn state_scenarios_match_oracle() {
    let Some(spine_dir) = sinew_testutil::require_spine_fixtures("state_scenarios_match_oracle")
    else {
        return;
    };
    let dir = sinew_testutil::workspace_root()
        .join("testdata")
        .join("anim")
        .join("state");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.retain(|p| p.extension().is_some_and(|e| e == "json"));
    paths.sort();
    assert!(
        paths.len() >= 5,
        "expected the testdata/anim/state scenarios, found {}",
        paths.len()
    );
    let mut failures = Vec::new();
    for path in paths {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let (problems, max_err) = run_scenario(&spine_dir, &case);
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        println!("{name}: max relative local error {max_err:.2e}");
        failures.extend(problems.into_iter().map(|p| format!("{name}: {p}")));
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
    let mut inst = Instance::new(&rig);
    let mut state = AnimationState::new(&rig);
    let (walk, run, aim) = (
        rig.clip("walk").unwrap(),
        rig.clip("run").unwrap(),
        rig.clip("aim").unwrap(),
    );
    state.default_mix = 0.2;
    let mut events = Vec::with_capacity(64);
    // Switching clips every 0.5 s with crossfades, plus an additive layer.
    let mut frame = |state: &mut AnimationState, inst: &mut Instance, k: usize| {
        if k.is_multiple_of(30) {
            state.set_animation(&rig, 0, if k.is_multiple_of(60) { walk } else { run }, true);
        }
        state.update(1.0 / 60.0);
        state.apply(&rig, inst);
        events.extend(state.drain_events().map(|e| e.kind));
        events.clear();
        inst.advance_time(1.0 / 60.0);
    };
    // The counter works: a visible allocation is counted.
    let a = allocations();
    std::hint::black_box(vec![1u8; 16]);
    assert!(allocations() > a);
    let id = state.set_animation(&rig, 1, aim, true);
    state.entry_mut(id).unwrap().mix_blend = MixBlend::Add;
    for k in 0..300 {
        frame(&mut state, &mut inst, k);
    }
    let before = allocations();
    for k in 300..900 {
        frame(&mut state, &mut inst, k);
    }
    assert_eq!(
        allocations() - before,
        0,
        "AnimationState allocated in steady state"
    );
    // apply_clip alone, events included.
    let mut fired = Vec::with_capacity(16);
    let before = allocations();
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
    assert_eq!(allocations() - before, 0, "apply_clip allocated");
}
