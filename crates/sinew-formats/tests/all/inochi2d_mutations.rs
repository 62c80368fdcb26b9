//! Property test: mutated Inochi2D puppets never panic the loader, the builder or a frame.
//!
//! The corpus is the bundled example face (`examples/face/face.inp`: parts, textures,
//! parameters, physics, an animation) plus, when the shared fixtures are present, the tiny
//! puppet with an animation added and the MeshGroup puppet. A mutation replaces one JSON
//! value of the payload (numbers by huge, negative, fractional or non-finite-looking values,
//! any value by another type, arrays emptied or nested, keys removed), or damages the
//! container bytes (flips, truncation, a rewritten length). Whatever loads and builds is then
//! played: every parameter set to a random value, its animations run, three frames with
//! physics, world vertices of every slot.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use serde_json::{Value, json};
use sinew::character::update_params;
use sinew::params::player::ParamPlayer;
use sinew::{AttachmentId, Instance, ParamId};
use sinew_formats::inochi2d::container::write_container;
use sinew_formats::inochi2d::{Texture, build_puppet, parse_inochi2d, read_container};
use std::path::PathBuf;
use std::sync::OnceLock;

/// A puppet split into its JSON payload and its other sections.
struct Sample {
    payload: Value,
    textures: Vec<Texture>,
    ext: Vec<(String, Vec<u8>)>,
}

fn split(bytes: &[u8]) -> Sample {
    let c = read_container(bytes, "corpus.inp").unwrap();
    Sample {
        payload: serde_json::from_slice(c.json).unwrap(),
        textures: c.textures,
        ext: c.ext,
    }
}

impl Sample {
    fn join(&self, payload: &Value) -> Vec<u8> {
        write_container(
            &serde_json::to_vec(payload).unwrap(),
            &self.textures,
            &self.ext,
        )
    }
}

fn corpus() -> &'static Vec<Sample> {
    static CORPUS: OnceLock<Vec<Sample>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let face = std::fs::read(root.join("examples/face/face.inp")).unwrap();
        let mut out = vec![split(&face)];
        if let Some(dir) = sinew_testutil::require_fixtures("inochi2d_mutations") {
            let tiny = std::fs::read(dir.join("inochi2d/synthetic_tiny.inp")).unwrap();
            let mut s = split(&tiny);
            let uuid = s.payload["param"][0]["uuid"].clone();
            s.payload["animations"] = json!({"a": {"timestep": 0.1, "length": 10, "leadIn": 2,
                "leadOut": 8, "lanes": [{"uuid": uuid, "target": 0, "interpolation": "Cubic",
                "keyframes": [{"frame": 0, "value": -1.0}, {"frame": 5, "value": 1.0, "tension": 0.3},
                              {"frame": 10, "value": 0.0}]}]}});
            out.push(s);
            let mg = std::fs::read(dir.join("inochi2d/synthetic_meshgroup.inp")).unwrap();
            out.push(split(&mg));
        }
        out
    })
}

/// Every value in the tree, as JSON pointers.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(x, p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(x, p, out);
            }
        }
        _ => {}
    }
}

/// A replacement value, chosen by `kind`.
fn replacement(kind: u8, old: &Value) -> Option<Value> {
    Some(match kind % 14 {
        0 => json!(1e308),
        1 => json!(-1),
        2 => json!(4294967295u64),
        3 => json!(0),
        4 => json!(0.5),
        5 => json!(-1e9),
        6 => json!("NaN"),
        7 => Value::Null,
        8 => json!([]),
        9 => json!({}),
        10 => json!([[[[1]]]]),
        11 => json!(true),
        12 => match old {
            Value::Array(a) if !a.is_empty() => {
                // Duplicate the array many times over (a declared-size bomb in miniature).
                Value::Array(a.iter().cycle().take(a.len() * 9).cloned().collect())
            }
            _ => json!(7),
        },
        _ => return None, // remove the key / element
    })
}

fn mutate(s: &Sample, pick: usize, kind: u8) -> Vec<u8> {
    let mut ptrs = Vec::new();
    pointers(&s.payload, String::new(), &mut ptrs);
    let mut payload = s.payload.clone();
    if let Some(p) = ptrs.get(pick % ptrs.len().max(1)) {
        let old = payload.pointer(p).cloned().unwrap_or(Value::Null);
        match replacement(kind, &old) {
            Some(v) => {
                if let Some(slot) = payload.pointer_mut(p) {
                    *slot = v;
                }
            }
            None => {
                let (parent, last) = p.rsplit_once('/').unwrap();
                match payload.pointer_mut(parent) {
                    Some(Value::Object(m)) => {
                        m.remove(&last.replace("~1", "/").replace("~0", "~"));
                    }
                    Some(Value::Array(a)) => {
                        if let Ok(i) = last.parse::<usize>()
                            && i < a.len()
                        {
                            a.remove(i);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    s.join(&payload)
}

/// Loads, builds and plays `bytes`; only panics matter.
fn exercise(bytes: &[u8], seed: u64) {
    let Ok(p) = parse_inochi2d(bytes, "mutated.inp") else {
        return;
    };
    let Ok(rig) = build_puppet(&p) else {
        return;
    };
    let mut inst = Instance::new(&rig);
    let mut player = ParamPlayer::new(rig.params.params.len(), 1);
    if !p.animations.is_empty() {
        player.set_animation(0, 0, true, 0.0);
    }
    let mut r = seed | 1;
    let mut rnd = || {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        (r % 2001) as f64 / 100.0 - 10.0
    };
    let max = (0..rig.attachments.len())
        .map(|i| sinew::deform::world_vertex_count(&rig, AttachmentId(i as u32)))
        .max()
        .unwrap_or(0);
    let mut buf = vec![0.0f32; max * 2];
    for frame in 0..3 {
        for i in 0..rig.params.params.len() {
            inst.params.set(&rig, ParamId(i as u16), [rnd(), rnd()]);
        }
        player.update(&p.animations, 0.1);
        player.apply_to(&rig, &p.animations, &mut inst);
        let dt = [1.0 / 60.0, 0.5, 0.0][frame];
        update_params(&rig, &mut inst, dt, true);
        for s in 0..rig.slots.len() {
            let slot = sinew::SlotId(s as u16);
            if let Some(att) = inst.slots.attachment[s] {
                let n = sinew::deform::world_vertex_count(&rig, att) * 2;
                sinew::deform::compute_world_vertices(&rig, &inst, slot, &mut buf[..n]);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn mutated_payloads_never_panic(which in 0usize..8, pick in any::<usize>(), kind in any::<u8>(),
                                    seed in any::<u64>()) {
        let c = corpus();
        let s = &c[which % c.len()];
        exercise(&mutate(s, pick, kind), seed);
    }

    #[test]
    fn damaged_containers_never_panic(which in 0usize..8, at in any::<usize>(), byte in any::<u8>(),
                                      cut in any::<bool>(), seed in any::<u64>()) {
        let c = corpus();
        let s = &c[which % c.len()];
        let mut bytes = s.join(&s.payload);
        // Bias two thirds of the damage toward the headers (the container's and the texture
        // section's, right after the JSON), where lengths and counts live.
        let tex = 12 + read_container(&bytes, "t.inp").unwrap().json.len();
        let i = match at % 3 {
            0 => at % 16,
            1 => (tex + at % 24).min(bytes.len() - 1),
            _ => at % bytes.len(),
        };
        if cut {
            bytes.truncate(i);
        } else {
            bytes[i] ^= byte | 1;
        }
        exercise(&bytes, seed);
    }
}
