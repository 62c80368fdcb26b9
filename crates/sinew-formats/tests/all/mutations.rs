//! Property test: mutated rig JSON (byte flips, truncations, numbers replaced by huge,
//! negative or non-numeric values, strings swapped for other names) never panics the loader
//! or the builder; it loads and builds, or returns an error. The mutations are the shared
//! ones of `mutate.rs`, which the seeded Spine 4.3 fuzzer (`fuzz43.rs`) uses too.
#![allow(clippy::unwrap_used)]

use super::mutate::{REPLACEMENTS, number_spans, string_spans};
use proptest::prelude::*;
use sinew::build::build_rig;
use sinew_formats::spine::parse_spine_json;
use std::sync::OnceLock;

/// A small rig of our own that touches every section, so the test runs without fixtures.
const OWN_RIG: &str = r#"{
  "skeleton": {"spine": "4.2.22", "referenceScale": 100},
  "bones": [{"name": "root"}, {"name": "a", "parent": "root", "length": 10, "inherit": "noScale"},
            {"name": "b", "parent": "a", "x": 10}, {"name": "t", "parent": "root", "skin": true}],
  "slots": [{"name": "s0", "bone": "a", "attachment": "m", "dark": "102030"},
            {"name": "s1", "bone": "b", "attachment": "r", "blend": "additive"},
            {"name": "s2", "bone": "root", "attachment": "p"}, {"name": "s3", "bone": "root", "attachment": "c"}],
  "ik": [{"name": "ik", "order": 0, "bones": ["a", "b"], "target": "t", "softness": 2}],
  "transform": [{"name": "tc", "order": 1, "bones": ["b"], "target": "t", "mixY": 0.5, "local": true}],
  "path": [{"name": "pc", "order": 2, "bones": ["b"], "target": "s2", "spacingMode": "percent"}],
  "physics": [{"name": "ph", "order": 3, "bone": "b", "rotate": 1, "mass": 2, "fps": 30, "windGlobal": true}],
  "skins": [
    {"name": "default", "attachments": {
      "s0": {"m": {"type": "mesh", "uvs": [0, 0, 1, 0, 1, 1, 0, 1], "triangles": [0, 1, 2, 0, 2, 3], "hull": 4,
                   "vertices": [1, 1, 0, 0, 1, 2, 1, 5, 0, 0.5, 2, 5, 0, 0.5, 1, 1, 5, 5, 1, 1, 2, 0, 5, 1],
                   "edges": [0, 2, 2, 4]},
             "lm": {"type": "linkedmesh", "parent": "m", "timelines": false}},
      "s1": {"r": {"width": 10, "height": 20, "rotation": 30, "sequence": {"count": 3, "digits": 2}}},
      "s2": {"p": {"type": "path", "closed": true, "vertexCount": 6,
                   "vertices": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5], "lengths": [10, 20]}},
      "s3": {"c": {"type": "clipping", "end": "s1", "vertexCount": 3, "vertices": [0, 0, 10, 0, 0, 10]},
             "pt": {"type": "point", "x": 1, "rotation": 90},
             "bb": {"type": "boundingbox", "vertexCount": 2, "vertices": [0, 0, 5, 5]}}}},
    {"name": "extra", "bones": ["t"], "ik": ["ik"], "attachments": {"s0": {"m": {"type": "linkedmesh", "parent": "m", "skin": "default"}}}}
  ],
  "events": {"e": {"int": 3, "audio": "a.ogg"}},
  "animations": {"go": {
    "slots": {"s0": {"rgba2": [{"light": "ffffffff", "dark": "000000", "curve": [0.1, 0, 0.2, 1, 0.1, 0, 0.2, 1, 0.1, 0, 0.2, 1, 0.1, 0, 0.2, 1, 0.1, 0, 0.2, 1, 0.1, 0, 0.2, 1, 0.1, 0, 0.2, 1]}, {"time": 1, "light": "ff0000ff", "dark": "00ff00"}]},
              "s1": {"attachment": [{"time": 0.5, "name": null}], "alpha": [{"value": 1}, {"time": 1}]}},
    "bones": {"a": {"rotate": [{"value": 5, "curve": "stepped"}, {"time": 1, "value": 9}], "scale": [{"x": 2}], "inherit": [{"inherit": "normal"}]}},
    "ik": {"ik": [{"mix": 0.5, "bendPositive": false}]},
    "transform": {"tc": [{"mixRotate": 0.5}, {"time": 2}]},
    "path": {"pc": {"position": [{"value": 0.5}], "mix": [{"mixX": 0.5}]}},
    "physics": {"": {"wind": [{"value": 3}], "reset": [{"time": 0.5}]}, "ph": {"mass": [{"value": 2}]}},
    "attachments": {"default": {"s0": {"m": {"deform": [{"offset": 2, "vertices": [1, 1]}, {"time": 1}]}},
                                "s1": {"r": {"sequence": [{"mode": "loop", "delay": 0.1}]}}}},
    "drawOrder": [{"offsets": [{"slot": "s0", "offset": 2}, {"slot": "s3", "offset": -3}]}, {"time": 1}],
    "events": [{"time": 0.3, "name": "e", "volume": 0.5}]}}
}"#;

/// The texts to mutate: our rig plus a few small fixtures when present.
fn corpus() -> &'static Vec<String> {
    static CORPUS: OnceLock<Vec<String>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut out = vec![OWN_RIG.to_owned()];
        if let Some(dir) = sinew_testutil::require_spine_fixtures("mutated_json_never_panics") {
            for f in [
                "synthetic/timelines-lab.json",
                "synthetic/constraints-lab.json",
                "coin/coin-pro.json",
                "vine/vine-pro.json",
                "goblins/goblins-pro.json",
                "cloud-pot/cloud-pot.json",
            ] {
                out.push(std::fs::read_to_string(dir.join(f)).unwrap());
            }
        }
        out
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip { at: usize, byte: u8 },
    Truncate { at: usize },
    Number { which: usize, with: usize },
    Swap { from: usize, to: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Flip { at, byte }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        (any::<usize>(), 0..REPLACEMENTS.len())
            .prop_map(|(which, with)| Mutation::Number { which, with }),
        (any::<usize>(), any::<usize>()).prop_map(|(from, to)| Mutation::Swap { from, to }),
    ]
}

fn apply(text: &str, muts: &[Mutation]) -> String {
    let mut t = text.as_bytes().to_vec();
    for m in muts {
        if t.is_empty() {
            break;
        }
        match *m {
            Mutation::Flip { at, byte } => {
                let i = at % t.len();
                t[i] = byte;
            }
            Mutation::Truncate { at } => t.truncate(at % t.len()),
            Mutation::Number { which, with } => {
                let spans = number_spans(&t);
                if let Some(&(a, b)) = spans.get(which % spans.len().max(1)) {
                    t.splice(a..b, REPLACEMENTS[with].bytes());
                }
            }
            Mutation::Swap { from, to } => {
                let spans = string_spans(&t);
                if !spans.is_empty() {
                    let (fa, fb) = spans[from % spans.len()];
                    let (ta, tb) = spans[to % spans.len()];
                    let src = t[fa..fb].to_vec();
                    t.splice(ta..tb, src);
                }
            }
        }
    }
    String::from_utf8_lossy(&t).into_owned()
}

#[test]
fn own_rig_loads_and_builds() {
    let raw = parse_spine_json(OWN_RIG, "own.json").unwrap();
    build_rig(&raw).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_json_never_panics(file in any::<usize>(), muts in proptest::collection::vec(mutation(), 1..4)) {
        let texts = corpus();
        let text = apply(&texts[file % texts.len()], &muts);
        // What loads and builds also plays: two frames of its first animation.
        if let Ok(Ok(rig)) = parse_spine_json(&text, "mutated.json").map(|raw| build_rig(&raw)) {
            let rig = std::sync::Arc::new(rig);
            let mut c = sinew::Character::new(rig.clone());
            if let Some(clip) = rig.clips.first() {
                let _ = c.set_animation(0, &clip.name, true);
            }
            let mut vertices = vec![0.0; c.max_world_floats()];
            for _ in 0..2 {
                c.update(1.0 / 30.0);
                c.draw_list();
                c.compute_world_vertices(&mut vertices);
            }
        }
    }
}
