//! A small DragonBones 5.5 armature made in the tests (30 fps): a two-bone arm mesh whose
//! vertex 1 weights sum to `weight_sum`, and two boxes, `back` (still) and `front` (on bone
//! `mover`, still until frame 9, then sliding 200 units to frame 12), whose draw order
//! switches at frame `key_frame` (`front` goes behind `back`).

use serde_json::{Value, json};

/// A box mesh of side 40 centred at (`x`, 0), unweighted.
fn boxed(name: &str, x: f64) -> Value {
    json!({"type": "mesh", "name": name,
           "vertices": [x - 20.0, -20, x + 20.0, -20, x + 20.0, 20, x - 20.0, 20],
           "uvs": [0, 0, 1, 0, 1, 1, 0, 1], "triangles": [0, 1, 2, 0, 2, 3]})
}

/// The armature file.
pub fn armature(weight_sum: f64, key_frame: u32) -> Value {
    let w = weight_sum / 2.0;
    let arm = json!({
        "type": "mesh", "name": "arm",
        "vertices": [0, -10, 50, -10, 50, 10, 0, 10],
        "uvs": [0, 0, 1, 0, 1, 1, 0, 1], "triangles": [0, 1, 2, 0, 2, 3],
        // Per vertex: count, then (bone index, weight) pairs; bones 1 (a) and 2 (b).
        "weights": [1, 1, 1, 2, 1, w, 2, w, 2, 1, 0.5, 2, 0.5, 1, 1, 1],
        "slotPose": [1, 0, 0, 1, 0, 0],
        "bonePose": [1, 1, 0, 0, 1, 0, 0, 2, 1, 0, 0, 1, 50, 0]
    });
    json!({
        "frameRate": 30, "name": "lintdb", "version": "5.5", "compatibleVersion": "5.5",
        "armature": [{
            "type": "Armature", "frameRate": 30, "name": "lintdb",
            "bone": [
                {"name": "root"},
                {"name": "a", "parent": "root", "length": 50},
                {"name": "b", "parent": "a", "length": 50, "transform": {"x": 50}},
                {"name": "mover", "parent": "root"}
            ],
            "slot": [
                {"name": "arm", "parent": "root"},
                {"name": "back", "parent": "root"},
                {"name": "front", "parent": "mover"}
            ],
            "skin": [{"name": "", "slot": [
                {"name": "arm", "display": [arm]},
                {"name": "back", "display": [boxed("back", 0.0)]},
                {"name": "front", "display": [boxed("front", 10.0)]}
            ]}],
            "animation": [{
                "name": "swap", "duration": 30, "playTimes": 0,
                "bone": [{"name": "mover", "translateFrame": [
                    {"duration": 9, "tweenEasing": 0, "x": 0},
                    {"duration": 3, "tweenEasing": 0, "x": 0},
                    {"duration": 18, "x": 200}
                ]}],
                "zOrder": {"frame": [
                    {"duration": key_frame},
                    {"duration": 30 - key_frame, "zOrder": [2, -1]}
                ]}
            }]
        }]
    })
}
