//! The shared `synthetic_meshgroup.inp`: a MeshGroup (3x3 vertices, 8 triangles) with a child
//! Part (5x5 vertices) and a 2D parameter `Warp` with a deform binding on the group (Inox2D
//! panics on it). The loader maps the group to a Mesh deformer; setting `Warp` must move the
//! child piecewise-affinely: a few child vertices are checked against positions computed by
//! hand from the group's deformed triangle (barycentric weights worked out on paper, keyforms
//! read from the fixture's payload JSON). At `Warp = (0, 0)` the child is unchanged, and a
//! frame allocates nothing after warm-up.

use serde_json::Value;
use sinew::character::update_params;
use sinew::{Instance, Rig};
use sinew_formats::inochi2d::container::write_container;
use sinew_formats::inochi2d::{build_puppet, load_inochi2d, parse_inochi2d, read_container};
use sinew_testutil::alloc::count_allocations;

/// The fixture's bytes with the MeshGroup's children replaced by `children` (built from the
/// original Child node), and its payload.
fn variant(test: &str, children: impl Fn(&Value, &Value) -> Value) -> Option<(Rig, Value)> {
    let dir = sinew_testutil::require_fixtures(test)?.join("inochi2d");
    let bytes = std::fs::read(dir.join("synthetic_meshgroup.inp")).expect("fixture");
    let c = read_container(&bytes, "synthetic_meshgroup.inp").expect("container");
    let mut payload: Value = serde_json::from_slice(c.json).expect("payload");
    let group = payload["nodes"]["children"][0].clone();
    let child = group["children"][0].clone();
    payload["nodes"]["children"][0]["children"] = children(&group, &child);
    let json = serde_json::to_vec(&payload).expect("json");
    let out = write_container(&json, &c.textures, &c.ext);
    let p = parse_inochi2d(&out, "variant.inp").expect("variant loads");
    Some((build_puppet(&p).expect("variant builds"), payload))
}

fn load(test: &str) -> Option<(Rig, Value)> {
    let dir = sinew_testutil::require_fixtures(test)?.join("inochi2d");
    let p = load_inochi2d(&dir.join("synthetic_meshgroup.inp")).expect("fixture loads");
    let rig = build_puppet(&p).expect("fixture builds");
    let text = std::fs::read_to_string(dir.join("synthetic_meshgroup.payload.json"))
        .expect("payload JSON");
    Some((rig, serde_json::from_str(&text).expect("payload parses")))
}

/// The Part-space vertices (the deform buffer the world-vertex stage reads) of a slot after
/// a frame at `warp`. Every node of the fixture has an identity transform, so Part space is
/// group space up to Spine's float-rounded pi in the bone matrices: each level adds a shear
/// of about 2.3e-8 (COMPAT(spine) in the world stage), which moves the binding of a vertex
/// 50 units out by about 1e-6 and its result by about 1e-8; hence the 1e-6 tolerance.
fn frame(rig: &Rig, warp: [f64; 2], slot: &str) -> (Instance, Vec<f64>) {
    let mut inst = Instance::new(rig);
    let id = rig.params.find("Warp").expect("Warp");
    inst.params.set(rig, id, warp);
    update_params(rig, &mut inst, 1.0 / 60.0, true);
    let s = rig.slot(slot).expect("slot");
    let local = inst.slots.deform(s).to_vec();
    assert_eq!(local.len(), 50, "the child's buffer is written every frame");
    (inst, local)
}

/// The group's keyform offsets at grid key `(x, y)` (the payload stores `values[x][y]`).
fn key(payload: &Value, x: usize, y: usize) -> Vec<f64> {
    let b = &payload["param"][0]["bindings"][0];
    assert_eq!(b["param_name"], "deform");
    b["values"][x][y]
        .as_array()
        .expect("keyform")
        .iter()
        .flat_map(|p| [p[0].as_f64().expect("x"), p[1].as_f64().expect("y")])
        .collect()
}

/// The group's deformed vertices: rest plus the bilinear blend of the given keys.
fn deformed_group(payload: &Value, keys: &[((usize, usize), f64)]) -> Vec<[f64; 2]> {
    let rest = payload["nodes"]["children"][0]["mesh"]["verts"]
        .as_array()
        .expect("verts")
        .iter()
        .map(|v| v.as_f64().expect("vert"))
        .collect::<Vec<_>>();
    let mut out: Vec<[f64; 2]> = rest.chunks_exact(2).map(|p| [p[0], p[1]]).collect();
    for &((x, y), w) in keys {
        // Keyforms are stored as f32, as every sinew keyform is.
        for (o, k) in out.iter_mut().zip(key(payload, x, y).chunks_exact(2)) {
            o[0] += w * f64::from(k[0] as f32);
            o[1] += w * f64::from(k[1] as f32);
        }
    }
    out
}

/// Child vertices (index into the 5x5 grid from -50 step 25), their group triangle (vertex
/// indices of the group's 3x3 grid from -70 step 70) and barycentric weights, by hand.
const CASES: [(usize, [usize; 3], [f64; 3]); 4] = [
    // (-25, -25): cell (0, 0), upper-right triangle (1, 4, 3): x = -70 c, y = -70 a.
    (6, [1, 4, 3], [25.0 / 70.0, 20.0 / 70.0, 25.0 / 70.0]),
    // (0, 0): group vertex 4 itself.
    (12, [4, 4, 4], [1.0, 0.0, 0.0]),
    // (50, 50): cell (1, 1), triangle (5, 8, 7): x = 70 (a + b), y = 70 (b + c).
    (24, [5, 8, 7], [20.0 / 70.0, 30.0 / 70.0, 20.0 / 70.0]),
    // (-50, 25): cell (0, 1), triangle (3, 4, 6): y = 70 c, x = -70 (a + c).
    (15, [3, 4, 6], [25.0 / 70.0, 20.0 / 70.0, 25.0 / 70.0]),
];

fn check(payload: &Value, local: &[f64], keys: &[((usize, usize), f64)]) {
    let g = deformed_group(payload, keys);
    for (v, tri, w) in CASES {
        let want = [0, 1].map(|c| (0..3).map(|k| w[k] * g[tri[k]][c]).sum::<f64>());
        let got = [local[2 * v], local[2 * v + 1]];
        // The group's deformed mesh is summed in f32 (keyform precision: 7.6e-6 at 70
        // units), the reference here in f64.
        assert!(
            (got[0] - want[0]).abs() < 2e-5 && (got[1] - want[1]).abs() < 2e-5,
            "child vertex {v}: got {got:?}, want {want:?}"
        );
    }
}

#[test]
fn warp_moves_the_child_piecewise_affinely() {
    let Some((rig, payload)) = load("warp_moves_the_child_piecewise_affinely") else {
        return;
    };
    assert_eq!(rig.params.deformers.deformers.len(), 1);
    assert_eq!(rig.params.deformers.deformers[0].slots.len(), 1);
    // Warp = (0, 0): every child vertex stays at its rest position.
    let (_, local) = frame(&rig, [0.0, 0.0], "Child");
    for (k, p) in local.chunks_exact(2).enumerate() {
        let rest = [-50.0 + 25.0 * (k % 5) as f64, -50.0 + 25.0 * (k / 5) as f64];
        assert_eq!([p[0], p[1]], rest, "vertex {k}");
    }
    // Warp = (0.5, 0.5): normalised 0.75 on both axes, a quarter of each of keys 1..2 x 1..2.
    let (inst, local) = frame(&rig, [0.5, 0.5], "Child");
    let q = 0.25;
    let keys = [((1, 1), q), ((1, 2), q), ((2, 1), q), ((2, 2), q)];
    check(&payload, &local, &keys);
    // The group's own buffer is what the hand computation assumed (up to the f32 sum).
    let group = rig.slot("Group").expect("group slot");
    let g = deformed_group(&payload, &keys);
    for (d, w) in inst.slots.deform(group).chunks_exact(2).zip(&g) {
        assert!((d[0] - w[0]).abs() < 2e-5 && (d[1] - w[1]).abs() < 2e-5);
    }
    // Warp = (1, -0.4): x on key 2; y normalised 0.3, 0.4 of key 0 and 0.6 of key 1.
    let (_, local) = frame(&rig, [1.0, -0.4], "Child");
    check(&payload, &local, &[((2, 0), 0.4), ((2, 1), 0.6)]);
}

#[test]
fn meshgroup_frames_allocate_nothing() {
    let Some((rig, _)) = load("meshgroup_frames_allocate_nothing") else {
        return;
    };
    let mut inst = Instance::new(&rig);
    let id = rig.params.find("Warp").expect("Warp");
    let child = rig.slot("Child").expect("child");
    let mut out = vec![0.0f32; 50];
    let mut run = |inst: &mut Instance, i: usize| {
        let t = i as f64 * 0.1;
        inst.params.set(&rig, id, [t.sin(), t.cos()]);
        update_params(&rig, inst, 1.0 / 60.0, true);
        sinew::deform::compute_world_vertices(&rig, inst, child, &mut out);
    };
    for i in 0..10 {
        run(&mut inst, i);
    }
    let n = count_allocations(|| {
        for i in 10..310 {
            run(&mut inst, i);
        }
    });
    assert_eq!(n, 0, "{n} allocations in 300 MeshGroup frames");
}

#[test]
fn composites_pass_the_group_on_only_when_asked() {
    for propagate in [false, true] {
        let Some((rig, _)) = variant("composites_pass_the_group_on", |_, child| {
            serde_json::json!([{
                "uuid": 2001, "name": "Comp", "type": "Composite",
                "propagate_meshgroup": propagate, "children": [child]
            }])
        }) else {
            return;
        };
        let d = &rig.params.deformers.deformers;
        assert_eq!(d.len(), 1);
        assert_eq!(
            d[0].slots.len(),
            usize::from(propagate),
            "propagate {propagate}"
        );
    }
}

#[test]
fn nested_meshgroups_chain() {
    // An inner MeshGroup with the outer's own mesh holds the Child: the outer moves the
    // inner mesh onto its own deformed vertices, and the inner moves the Child as the outer
    // alone would have.
    let Some((rig, payload)) = variant("nested_meshgroups_chain", |group, child| {
        let mut inner = group.clone();
        inner["uuid"] = 2002.into();
        inner["name"] = "Inner".into();
        inner["children"] = serde_json::json!([child]);
        serde_json::json!([inner])
    }) else {
        return;
    };
    let d = &rig.params.deformers.deformers;
    assert_eq!(d.len(), 2);
    assert_eq!(d[1].parent.map(|p| p.index()), Some(0));
    let (inner, child) = (
        rig.slot("Inner").expect("inner"),
        rig.slot("Child").expect("child"),
    );
    assert_eq!(
        (d[0].slots.as_slice(), d[1].slots.as_slice()),
        (&[inner][..], &[child][..])
    );
    let (_, local) = frame(&rig, [0.5, 0.5], "Child");
    let q = 0.25;
    check(
        &payload,
        &local,
        &[((1, 1), q), ((1, 2), q), ((2, 1), q), ((2, 2), q)],
    );
}
