//! DragonBones playback through the `Character` facade against the official runtime:
//! crossfades (`Character::fade_in`, DragonBones `animation.fadeIn(name, fadeInTime,
//! playTimes)`, and `Character::play` with the clip's own defaults), an interrupted fade,
//! chains of four overlapping fades, `playTimes` 2 run past its end, clips played
//! backwards (a negative entry time scale: looping, once, twice), and animation layers and
//! groups (a jump layer over a walk, two groups on one layer, three layers with a
//! replacement inside one: `Character::set_track_layer`, a track per layer and group). Goldens: `testdata/dragonbones/playback/fade.json`,
//! made by `fade.mjs` beside it (see its README) from the shared fixtures. Bone a..d within
//! 1e-3, positions within 1e-2, every bone at every sample, and the world vertices of a
//! deformed mesh (its deform fades in by the runtime's progress²) within 1e-2 and slot
//! colour multipliers (faded in by progress⁴) within 1e-3.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::Value;
use sinew::character::Character;
use sinew_testutil::alloc::count_allocations;

const FPS: f64 = 60.0;
const EPS: f64 = 1e-9;

/// `-1` (the runtime's "the clip's own") as `None`.
fn opt_f64(v: &Value) -> Option<f64> {
    v.as_f64().filter(|f| *f >= 0.0)
}

fn opt_u32(v: &Value) -> Option<u32> {
    v.as_i64().and_then(|n| u32::try_from(n).ok())
}

/// Starts `anim` the way the golden's scenario says (`fadeIn`/`playTimes` -1: defaults;
/// `timeScale` on the entry, negative plays backwards).
/// DragonBones layers and groups: one sinew track per layer and group (`track`), on the
/// action's `layer`.
fn start(c: &mut Character, a: &Value) {
    let anim = a["anim"].as_str().unwrap();
    let track = a["track"].as_u64().map_or(0, |t| t as usize);
    if let Some(layer) = a["layer"].as_i64() {
        c.set_track_layer(track, layer as i32).unwrap();
    }
    let (fade, plays) = (opt_f64(&a["fadeIn"]), opt_u32(&a["playTimes"]));
    // fadeOutMode All / SameLayer: the other tracks fade out over the new fade-in time.
    for t in a["fadeOutTracks"].as_array().map_or(&[][..], Vec::as_slice) {
        let t = t.as_u64().expect("a track") as usize;
        c.fade_out_track(t, fade.unwrap_or(0.0)).unwrap();
    }
    if fade.is_none() && plays.is_none() {
        c.play(track, anim).unwrap();
    } else {
        c.fade_in(track, anim, fade, plays).unwrap();
    }
    if let Some(scale) = a["timeScale"].as_f64() {
        c.set_track_time_scale(track, scale).unwrap();
    }
}

/// The oracle's clock: 1/FPS steps, a shorter one landing on `t`.
fn step_to(c: &mut Character, now: &mut f64, t: f64) {
    let dt = 1.0 / FPS;
    while *now + dt <= t + EPS {
        c.update(dt);
        *now += dt;
    }
    if t - *now > EPS {
        c.update(t - *now);
        *now = t;
    }
}

/// Largest (matrix, position, colour) differences of one sample.
fn compare(c: &Character, frame: &Value, what: &str) -> (f64, f64, f64) {
    let rig = c.rig();
    let (mut m, mut p) = (0.0f64, 0.0f64);
    for b in frame["bones"].as_array().unwrap() {
        let name = b["name"].as_str().unwrap();
        let id = rig
            .bone(name)
            .unwrap_or_else(|| panic!("{what}: no bone {name}"));
        let w = c.bone_world(id).unwrap();
        let g = |k: &str| b[k].as_f64().unwrap();
        for (ours, k) in [(w.a, "a"), (w.b, "b"), (w.c, "c"), (w.d, "d")] {
            m = m.max((ours - g(k)).abs());
        }
        p = p.max((w.x - g("worldX")).abs().max((w.y - g("worldY")).abs()));
        assert!(
            (w.a - g("a")).abs() < 1e-3
                && (w.b - g("b")).abs() < 1e-3
                && (w.c - g("c")).abs() < 1e-3
                && (w.d - g("d")).abs() < 1e-3,
            "{what}: bone {name} matrix {:?} vs golden {b}",
            [w.a, w.b, w.c, w.d]
        );
        assert!(
            (w.x - g("worldX")).abs() < 1e-2 && (w.y - g("worldY")).abs() < 1e-2,
            "{what}: bone {name} at ({}, {}) vs golden {b}",
            w.x,
            w.y
        );
    }
    let (v, col) = compare_vertices(c, frame, what);
    (m, p.max(v), col)
}

/// Largest world-vertex difference of the sample's mesh slots (within 1e-2); colour
/// multipliers of its other slots within 1e-3.
fn compare_vertices(c: &Character, frame: &Value, what: &str) -> (f64, f64) {
    let (mut worst, mut worst_color) = (0.0f64, 0.0f64);
    let mut buf = Vec::new();
    for s in frame["slots"].as_array().map_or(&[][..], Vec::as_slice) {
        let name = s["slot"].as_str().unwrap();
        if let Some(want) = s["color"].as_array() {
            let id = c.rig().slot(name).unwrap();
            let col = c.instance().slots.color[id.index()];
            for (ours, g) in [col.r, col.g, col.b, col.a].iter().zip(want) {
                let d = (f64::from(*ours) - g.as_f64().unwrap()).abs();
                assert!(d < 1e-3, "{what}: slot {name} colour {col:?} vs {want:?}");
                worst_color = worst_color.max(d);
            }
            continue;
        }
        assert!(
            c.world_vertices(name, &mut buf),
            "{what}: slot {name} shows nothing"
        );
        let want = s["vertices"].as_array().unwrap();
        assert_eq!(buf.len(), want.len(), "{what}: slot {name} vertex count");
        for (i, (ours, g)) in buf.iter().zip(want).enumerate() {
            let d = (f64::from(*ours) - g.as_f64().unwrap()).abs();
            assert!(d < 1e-2, "{what}: slot {name} float {i}: {ours} vs {g}");
            worst = worst.max(d);
        }
    }
    (worst, worst_color)
}

#[test]
fn fades_and_play_counts_match_the_runtime() {
    let Some(fx) = sinew_testutil::require_fixtures("dragonbones_fade") else {
        return;
    };
    let dir = fx.join("dragonbones");
    let path = sinew_testutil::workspace_root().join("testdata/dragonbones/playback/fade.json");
    let golden: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(golden["meta"]["fps"].as_f64(), Some(FPS));
    let scenarios = golden["scenarios"].as_array().unwrap();
    assert!(scenarios.len() >= 5, "too few scenarios");
    let mut samples = 0;
    for sc in scenarios {
        let name = sc["name"].as_str().unwrap();
        let ske = dir.join(sc["skeleton"].as_str().unwrap());
        let (asset, _) = sinew_formats::load_dragonbones(&ske, None, None).unwrap();
        let mut c = asset.character();
        start(&mut c, &sc["first"]);
        let mut now = 0.0;
        let actions = sc["actions"].as_array().unwrap();
        let mut next = 0;
        let (mut worst_m, mut worst_p, mut worst_c) = (0.0f64, 0.0f64, 0.0f64);
        for f in sc["frames"].as_array().unwrap() {
            let t = f["time"].as_f64().unwrap();
            // Actions at or before this sample run first, at their own times.
            while let Some(a) = actions.get(next).filter(|a| a["at"].as_f64().unwrap() <= t) {
                step_to(&mut c, &mut now, a["at"].as_f64().unwrap());
                start(&mut c, a);
                next += 1;
            }
            step_to(&mut c, &mut now, t);
            let (m, p, col) = compare(&c, f, &format!("{name} at {t}"));
            worst_c = worst_c.max(col);
            worst_m = worst_m.max(m);
            worst_p = worst_p.max(p);
            samples += 1;
        }
        println!(
            "{name}: max matrix diff {worst_m:.2e}, position {worst_p:.2e}, colour {worst_c:.2e}"
        );
    }
    assert!(samples >= 25, "only {samples} samples");
}

#[test]
fn play_uses_the_clips_own_play_count_and_fade() {
    let Some(fx) = sinew_testutil::require_fixtures("dragonbones_fade") else {
        return;
    };
    let ske = fx.join("dragonbones/you_xin_body/body_ske.json");
    let (asset, db) = sinew_formats::load_dragonbones(&ske, None, None).unwrap();
    let info = db.clips.iter().find(|c| c.name == "angry").unwrap();
    let rig = asset.rig.clone();
    let clip = &rig.clips[rig.clip("angry").unwrap().index()];
    let p = clip
        .playback
        .expect("DragonBones clips carry their playback facts");
    assert_eq!((p.play_times, p.fade_in), (info.play_times, info.fade_in));
    assert!((p.length - f64::from(info.frames) / db.frame_rate).abs() < 1e-12);
    let mut c = asset.character();
    let e = c.play(0, "angry").unwrap();
    assert_eq!(c.state().entry(e).unwrap().dragonbones_plays(), Some(1));
    // `set_animation` keeps Spine's meaning of `looping` (forever) on a DragonBones clip.
    let e = c.set_animation(0, "idle", true).unwrap();
    assert_eq!(c.state().entry(e).unwrap().dragonbones_plays(), Some(0));
}

#[test]
fn crossfading_allocates_nothing_per_frame() {
    let Some(fx) = sinew_testutil::require_fixtures("dragonbones_fade") else {
        return;
    };
    let ske = fx.join("dragonbones/dragon_boy/dragon_boy_ske.json");
    let (asset, _) = sinew_formats::load_dragonbones(&ske, None, None).unwrap();
    let mut c = asset.character();
    c.play(0, "walk").unwrap();
    for _ in 0..10 {
        c.update(1.0 / 60.0);
    }
    // Warm the entry pool and event buffers with one fade, then count another.
    c.fade_in(0, "stand", Some(0.2), None).unwrap();
    for _ in 0..30 {
        c.update(1.0 / 60.0);
    }
    c.fade_in(0, "walk", Some(0.2), Some(2)).unwrap();
    let n = count_allocations(|| {
        for _ in 0..40 {
            c.update(1.0 / 60.0);
        }
    });
    assert_eq!(
        n, 0,
        "a DragonBones crossfade allocated {n} times in 40 frames"
    );
}
