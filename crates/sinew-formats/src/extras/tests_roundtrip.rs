//! The extras writer against the reader: load, save, load gives the same extras (the
//! animator's cues included), and the cues' bad values name their JSON path.

use super::*;
use sinew::physics::jiggle::{AnimCuesDesc, CueCurve, CueKey, CueProperty, FadeEventDesc};

const FULL: &str = r#"{
  "sinewExtras": 1,
  "jiggle": {
    "stepHz": 120, "maxSubsteps": 4, "gravity": [0, -980], "wind": [40, 0],
    "gust": { "amplitude": 0.5, "frequency": 0.4 }, "teleportDistance": 400,
    "lod": { "coarseStep": 3, "coarseBeyond": 1500, "cullMargin": 80 },
    "colliders": [
      { "name": "head", "bone": "head", "shape": "circle", "x": 24, "y": 0, "radius": 22 },
      { "name": "back", "bone": "torso", "shape": "capsule", "x": 0, "y": 10,
        "tailX": 60, "tailY": 10, "radius": 8 }
    ],
    "chains": [
      { "name": "hair", "bones": ["hair"], "preset": "hairTip", "colliders": ["head"] },
      { "name": "cape", "bones": ["cape-1", "cape-2"], "preset": "ribbon",
        "frequency": 1.2, "dampingRatio": 0.2, "maxAngle": 100, "colliders": ["back"] },
      { "name": "vrm", "bones": ["tail"], "model": "verlet", "stiffness": 2, "drag": 0.3,
        "vrmStaleLength": true, "length": 12, "driver": "hip", "maxOffset": 3 },
      { "name": "ear", "bones": ["ear"], "model": "angular", "frequency": 3,
        "speedCurve": { "from": 50, "to": 400, "stiffness": 0.5, "damping": 2 } },
      { "name": "tuft", "bones": ["tuft"], "model": "lerp", "stiffness": 12 }
    ],
    "animations": {
      "death": {
        "strength": { "cape": [ { "time": 0, "value": 1 }, { "time": 0.5, "value": 0 } ],
                      "*": [ { "time": 0.1, "value": 0.5, "curve": "stepped" },
                             { "time": 0.3, "value": 1, "curve": [0.42, 0, 0.58, 1] },
                             { "time": 0.9, "value": 0.25 } ] },
        "damping": { "hair": [ { "value": 3 } ] },
        "events": [ { "time": 0.2, "chain": "hair", "strength": 0, "fade": 0.3 },
                    { "time": 0.4, "strength": 1 } ]
      },
      "run": { "stiffness": { "*": [ { "time": 0, "value": 1.5 } ] }, "_note": "x" }
    }
  },
  "follow": [
    { "name": "hair-lag", "bone": "hair", "source": "head", "delay": 0.12, "mix": 0.5,
      "space": "world", "rotate": true, "translate": true, "scale": false,
      "offset": { "rotate": 150, "x": 1 } }
  ]
}"#;

#[test]
fn load_save_load_keeps_everything() {
    let x = parse_extras(FULL, "full.json").expect("parses");
    let death = &x.jiggle.animations[0];
    assert_eq!(death.animation, "death");
    assert_eq!(death.tracks.len(), 3);
    assert_eq!(death.tracks[1].chain, None, "`*` is every chain");
    assert_eq!(death.tracks[1].keys[0].curve, CueCurve::Stepped);
    assert_eq!(
        death.tracks[1].keys[1].curve,
        CueCurve::Bezier([0.42, 0.0, 0.58, 1.0])
    );
    assert_eq!(death.tracks[2].property, CueProperty::Damping);
    assert_eq!(death.tracks[2].keys[0].time, 0.0, "time defaults to 0");
    assert_eq!(death.events[1].chain, None);
    assert_eq!(death.events[1].fade, 0.0);
    assert_eq!(
        x.jiggle.animations[1].tracks[0].property,
        CueProperty::Stiffness
    );
    assert_eq!(x.jiggle.cull_margin, Some(80.0));
    let ear = &x.jiggle.chains[3].params;
    assert_eq!(ear.model, sinew::physics::jiggle::JiggleModel::Angular);
    assert_eq!(
        ear.speed,
        sinew::physics::jiggle::SpeedCurve {
            from: 50.0,
            to: 400.0,
            stiffness: 0.5,
            damping: 2.0
        }
    );
    assert_eq!(
        x.jiggle.chains[4].params.model,
        sinew::physics::jiggle::JiggleModel::Lerp
    );
    let text = write_extras(&x);
    let again = parse_extras(&text, "again.json").expect("the writer's output parses");
    assert_eq!(again, x, "{text}");
    assert_eq!(write_extras(&again), text, "writing is stable");
}

#[test]
fn cues_made_in_code_round_trip_bit_for_bit() {
    let mut x = RigExtras {
        jiggle: JiggleDesc::new(),
        ..Default::default()
    };
    x.jiggle.animations.push(AnimCuesDesc {
        animation: "hit".to_owned(),
        tracks: vec![sinew::physics::jiggle::CueTrackDesc {
            chain: Some("tail".to_owned()),
            property: CueProperty::Strength,
            keys: vec![
                CueKey {
                    time: 0.1 + 0.2,
                    value: 1.0 / 3.0,
                    curve: CueCurve::Bezier([0.1, -0.7, 0.9, 1.7]),
                },
                CueKey::new(std::f64::consts::PI, 0.0),
            ],
        }],
        events: vec![FadeEventDesc {
            time: 1e-7,
            chain: None,
            strength: 0.999,
            fade: 2.5,
        }],
    });
    let again = parse_extras(&write_extras(&x), "x.json").expect("parses");
    assert_eq!(again, x);
}

#[test]
fn bad_cues_name_their_path() {
    let wrap = |anim: &str| format!(r#"{{"jiggle": {{"animations": {{"death": {anim}}}}}}}"#);
    let cases = [
        (
            r#"{"strength": {"cape": [{"time": 0, "value": 1.5}]}}"#,
            "$.jiggle.animations.death.strength.cape[0].value: expected a number in 0..1",
        ),
        (
            r#"{"strength": {"cape": [{"time": 1, "value": 1}, {"time": 0.5, "value": 0}]}}"#,
            "$.jiggle.animations.death.strength.cape[1].time: expected seconds >= 0, not before",
        ),
        (
            r#"{"stiffness": {"cape": []}}"#,
            "$.jiggle.animations.death.stiffness.cape: expected one key or more",
        ),
        (
            r#"{"stiffness": {"cape": [{"value": 0}]}}"#,
            "stiffness.cape[0].value: expected a number in 0.001..1000",
        ),
        (
            r#"{"damping": {"cape": [{"value": 1, "curve": "bouncy"}]}}"#,
            "damping.cape[0].curve: unknown curve `bouncy`",
        ),
        (
            r#"{"damping": {"cape": [{"value": 1, "curve": [2, 0, 0.5, 1]}]}}"#,
            "damping.cape[0].curve: expected x1 and x2 in 0..1",
        ),
        (
            r#"{"damping": {"cape": [{"time": 0}]}}"#,
            "damping.cape[0]: missing `value`",
        ),
        (
            r#"{"events": [{"time": 0.1}]}"#,
            "$.jiggle.animations.death.events[0]: missing `strength`",
        ),
        (
            r#"{"events": [{"strength": 0, "fade": -1}]}"#,
            "events[0].fade: expected seconds >= 0",
        ),
        (
            r#"{"strenght": {}}"#,
            "$.jiggle.animations.death: unknown key `strenght`",
        ),
    ];
    for (anim, want) in cases {
        let e = parse_extras(&wrap(anim), "x.json")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains(want), "{want}: got `{e}`");
    }
}

#[test]
fn bad_models_and_speed_curves_name_their_path() {
    for (chain, want) in [
        (
            r#""model": "pendulum""#,
            "$.jiggle.chains[0].model (`a`): unknown model `pendulum` (spring, verlet, angular, lerp)",
        ),
        (
            r#""speedCurve": {"from": -1}"#,
            "$.jiggle.chains[0].speedCurve (`a`): `speedCurve` speeds must be finite and >= 0",
        ),
        (
            r#""speedCurve": {"to": 10, "stiffness": 0}"#,
            "`speedCurve.stiffness` must be in 0.001..1000",
        ),
        (
            r#""speedCurve": {"to": 10, "dampng": 2}"#,
            "$.jiggle.chains[0].speedCurve (`a`): unknown key `dampng`",
        ),
    ] {
        let text =
            format!(r#"{{"jiggle": {{"chains": [{{"name": "a", "bones": ["b"], {chain}}}]}}}}"#);
        let e = parse_extras(&text, "x.json")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains(want), "{want}: got `{e}`");
    }
}
