//! Scripted AnimationState scenarios replayed against `testdata/anim/state/*.json` (made by
//! `testdata/anim/scenarios.mjs` on the official runtime).

use super::compare::{Expected, compare_constraints, compare_pose};
use serde_json::Value;
use sinew::Instance;
use sinew::anim::{AnimationState, MixBlend, state::StateEventKind};
use sinew::build::build_rig;
use sinew::rig::Rig;
use sinew_formats::spine::load_spine_json;
use std::path::PathBuf;

/// Runs one scripted command of a state scenario (see `testdata/anim/scenarios.mjs`).
fn run_command(rig: &Rig, state: &mut AnimationState, c: &Value) {
    let track = c["track"].as_u64().unwrap_or(0) as usize;
    let looping = c["loop"].as_bool().unwrap_or(false);
    let f = |k: &str| c[k].as_f64().unwrap_or(0.0);
    let clip = || rig.clip(c["anim"].as_str().unwrap()).unwrap();
    let entry = match c["op"].as_str().unwrap() {
        "set" => state.set_animation(rig, track, clip(), looping),
        "add" => state.add_animation(rig, track, clip(), looping, f("delay")),
        "setEmpty" => state.set_empty_animation(rig, track, f("mix")),
        "addEmpty" => state.add_empty_animation(rig, track, f("mix"), f("delay")),
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
