//! Small Spine 4.2 rigs made in the tests, each with one fault and the same rig fixed.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::path::PathBuf;

/// A fresh directory for one test's files.
pub fn temp_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sinew-lint-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Writes a JSON rig and returns its path.
pub fn write(dir: &std::path::Path, name: &str, v: &Value) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_vec_pretty(v).expect("json")).expect("write");
    p
}

/// A quad mesh of 4 vertices: uvs, triangles, hull.
fn quad(vertices: Value) -> Value {
    json!({
        "type": "mesh", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [0, 1, 2, 2, 3, 0],
        "vertices": vertices, "hull": 4, "width": 50, "height": 20
    })
}

fn skeleton(bones: Value, slots: Value, attachments: Value, extra: Value) -> Value {
    let mut v = json!({
        "skeleton": {"spine": "4.2.0", "width": 100, "height": 100},
        "bones": bones,
        "slots": slots,
        "skins": [{"name": "default", "attachments": attachments}],
    });
    if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
        for (k, x) in e {
            o.insert(k.clone(), x.clone());
        }
    }
    v
}

/// Bones `root`, `a` (0..50 on x) and `b` (50..100), and an animation bending `b` by 60
/// degrees.
fn arm_bones() -> Value {
    json!([
        {"name": "root"},
        {"name": "a", "parent": "root", "length": 50},
        {"name": "b", "parent": "a", "x": 50, "length": 50}
    ])
}

fn bend() -> Value {
    json!({"animations": {"bend": {"bones": {"b": {"rotate": [{"value": 0}, {"time": 1, "value": 60}]}}}}})
}

/// `weights-not-normalized`: a mesh on bones a and b whose vertex 1 weights sum to `sum`.
pub fn weights(sum: f64) -> Value {
    let w = sum / 2.0;
    let verts = json!([
        1, 1, 0, -10, 1, 2, 1, 50, -10, w, 2, 0, -10, w, 2, 1, 50, 10, 0.5, 2, 0, 10, 0.5, 1, 1, 0,
        10, 1
    ]);
    skeleton(
        arm_bones(),
        json!([{"name": "arm", "bone": "root", "attachment": "arm"}]),
        json!({"arm": {"arm": quad(verts)}}),
        bend(),
    )
}

/// `seam-opens`: mesh `upper` on bone a and mesh `lower` whose left edge sits on `upper`'s
/// right edge; with `fault` that edge follows bone b (so it turns away when b bends),
/// otherwise bone a, like `upper`'s.
pub fn seam(fault: bool) -> Value {
    let upper = json!([
        1, 1, 0, -10, 1, 1, 1, 50, -10, 1, 1, 1, 50, 10, 1, 1, 1, 0, 10, 1
    ]);
    // Bone b's origin is at (50, 0): its local (0, y) is world (50, y).
    let edge = if fault {
        json!([1, 2, 0, -10, 1])
    } else {
        json!([1, 1, 50, -10, 1])
    };
    let edge_top = if fault {
        json!([1, 2, 0, 10, 1])
    } else {
        json!([1, 1, 50, 10, 1])
    };
    let mut lower = vec![];
    lower.extend(edge.as_array().expect("edge").iter().cloned());
    lower.extend([1, 2, 50, -10, 1, 1, 2, 50, 10, 1].map(Value::from));
    lower.extend(edge_top.as_array().expect("edge").iter().cloned());
    skeleton(
        arm_bones(),
        json!([
            {"name": "upper", "bone": "root", "attachment": "upper"},
            {"name": "lower", "bone": "root", "attachment": "lower"}
        ]),
        json!({"upper": {"upper": quad(upper)}, "lower": {"lower": quad(Value::from(lower))}}),
        bend(),
    )
}

/// `draw-order-still-frame`: slot `front` (on a bone that is still until 0.3 s, slides 200
/// units by 0.4 s, then holds) goes behind `back` at `key_time`.
pub fn draw_order(key_time: f64) -> Value {
    draw_order_at(key_time, 10.0, 200.0)
}

/// [`draw_order`] with `front` starting `offset` units right of `back` and sliding
/// `slide` units between 0.3 and 0.4 s.
pub fn draw_order_at(key_time: f64, offset: f64, slide: f64) -> Value {
    let region = |x: f64| json!({"x": x, "width": 40, "height": 40});
    skeleton(
        json!([{"name": "root"}, {"name": "mover", "parent": "root"}]),
        json!([
            {"name": "back", "bone": "root", "attachment": "box"},
            {"name": "front", "bone": "mover", "attachment": "box"}
        ]),
        json!({"back": {"box": region(0.0)}, "front": {"box": region(offset)}}),
        json!({"animations": {"swap": {
            "bones": {"mover": {"translate": [
                {"x": 0}, {"time": 0.3, "x": 0}, {"time": 0.4, "x": slide}, {"time": 1, "x": slide}
            ]}},
            "drawOrder": [{"time": key_time, "offsets": [{"slot": "front", "offset": -1}]}]
        }}}),
    )
}

/// `ik-out-of-reach`: a two-bone leg (reach 100) whose target walks out to 150 units.
pub fn ik(softness: f64) -> Value {
    skeleton(
        json!([
            {"name": "root"},
            {"name": "thigh", "parent": "root", "length": 50},
            {"name": "shin", "parent": "thigh", "x": 50, "length": 50},
            {"name": "target", "parent": "root", "x": 80, "y": -20}
        ]),
        json!([]),
        json!({}),
        json!({
            "ik": [{"name": "leg", "bones": ["thigh", "shin"], "target": "target", "softness": softness}],
            "animations": {"reach": {"bones": {"target": {"translate": [
                {"x": 0, "y": 0}, {"time": 1, "x": 70, "y": 20}
            ]}}}}
        }),
    )
}

/// `physics-frame-rate`: a physics tail on a bone that whips back and forth every
/// `period` seconds.
pub fn physics(period: f64) -> Value {
    physics_with(period, 200.0, 0.6)
}

/// [`physics`] with the tail's spring `strength` and `damping` (1: none) given.
pub fn physics_with(period: f64, strength: f64, damping: f64) -> Value {
    let mut keys = Vec::new();
    let mut t = 0.0;
    let mut sign = 1.0;
    while t <= 2.0 + 1e-9 {
        keys.push(json!({"time": t, "value": 40.0 * sign}));
        sign = -sign;
        t += period / 2.0;
    }
    skeleton(
        json!([
            {"name": "root"},
            {"name": "body", "parent": "root", "length": 40},
            {"name": "tail", "parent": "body", "x": 40, "length": 60}
        ]),
        json!([]),
        json!({}),
        json!({
            "physics": [{"name": "tail", "bone": "tail", "rotate": 1, "inertia": 1,
                         "strength": strength, "damping": damping, "mass": 1}],
            "animations": {"whip": {"bones": {"body": {"rotate": keys}}}}
        }),
    )
}

/// A body bone whipping +-40 degrees every `period` seconds and a tail bone on it, without
/// physics (a jiggle chain from [`jiggle_extras`] moves the tail).
pub fn whip(period: f64) -> Value {
    let mut v = physics(period);
    if let Some(o) = v.as_object_mut() {
        o.remove("physics");
    }
    v
}

/// Rig extras with one jiggle chain on `tail`, stepped at 60 Hz with at most `max_substeps`
/// steps per frame (1: at 15 fps three of every four steps are dropped with their time).
pub fn jiggle_extras(max_substeps: u32) -> Value {
    json!({
        "sinewExtras": 1,
        "jiggle": {
            "stepHz": 60, "maxSubsteps": max_substeps,
            "chains": [{"name": "tail", "bones": ["tail"], "preset": "tail"}]
        }
    })
}

/// `rigid-dense-mesh`: a 6 x 6 vertex mesh on one bone, deformed by an animation or not.
pub fn dense(deformed: bool) -> Value {
    let (mut verts, mut uvs, mut tris) = (vec![], vec![], vec![]);
    for y in 0..6 {
        for x in 0..6 {
            verts.extend([f64::from(x) * 10.0, f64::from(y) * 10.0]);
            uvs.extend([f64::from(x) / 5.0, f64::from(y) / 5.0]);
        }
    }
    for y in 0..5 {
        for x in 0..5 {
            let i = y * 6 + x;
            tris.extend([i, i + 1, i + 7, i + 7, i + 6, i]);
        }
    }
    let mesh = json!({"type": "mesh", "uvs": uvs, "triangles": tris, "vertices": verts,
                      "hull": 20, "width": 50, "height": 50});
    let anim = if deformed {
        json!({"animations": {"wobble": {"attachments": {"default": {"plate": {"plate": {"deform": [
            {"time": 0}, {"time": 0.5, "offset": 14, "vertices": [3, 3]}, {"time": 1}
        ]}}}}}}})
    } else {
        json!({"animations": {"idle": {"bones": {"root": {"rotate": [{"value": 0}, {"time": 1, "value": 5}]}}}}})
    };
    skeleton(
        json!([{"name": "root"}]),
        json!([{"name": "plate", "bone": "root", "attachment": "plate"}]),
        json!({"plate": {"plate": mesh}}),
        anim,
    )
}
pub mod db;
