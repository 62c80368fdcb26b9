//! Cages from a rig-extras file on the example character against the same cages bound by
//! code (`Character::bind_cage` in the setup pose): the walk's world vertices and draw list
//! bit for bit (a bone-driven cage, a mesh-driven one, a host-driven one nested after the
//! first); point keys against their closed form; frames allocate nothing; a cage the rig
//! cannot bind is an error naming the file, the JSON path and the offending name.

use sinew::Character;
use sinew::cage::Cage;
use sinew::deform::cage_stage::{CageMode, CageSource};
use sinew::math::Vec2;
use sinew_formats::{Asset, Companion, LoadError, LoadOptions};
use sinew_testutil::alloc::count_allocations;
use std::path::PathBuf;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/stickbot")
        .join(name)
}

const BELLY: [[f64; 2]; 4] = [[-60.0, 40.0], [60.0, 40.0], [60.0, 200.0], [-60.0, 200.0]];
const PAD: [[f64; 2]; 3] = [[-80.0, 20.0], [90.0, 20.0], [0.0, 260.0]];

fn extras(keys: &str) -> String {
    format!(
        r#"{{
  "sinewExtras": 1,
  "cages": [
    {{ "name": "belly", "slot": "torso", "drive": "bones", "bones": ["hip", "torso"],
      "weights": [[1, 0], [1, 0], [0, 1], [0.25, 0.75]],
      "loops": [ {belly} ] {keys} }},
    {{ "name": "flap", "slot": "cape", "drive": "mesh", "mode": "offset",
      "vertices": [[0, 1, 3, 5, 7, 9, 8, 6, 4, 2]] }},
    {{ "name": "pad", "slot": "torso", "drive": "host", "mode": "offset", "loops": [ {pad} ] }}
  ]
}}"#,
        belly = serde_json::to_string(&BELLY).expect("json"),
        pad = serde_json::to_string(&PAD).expect("json"),
    )
}

fn load(extras: Option<String>) -> Result<Asset, LoadError> {
    let main = std::fs::read(example("stickbot.json")).expect("stickbot");
    let options = LoadOptions {
        extras: Companion::named_or_without(extras.as_ref().map(|_| "c.extras.json".to_owned())),
        ..Default::default()
    };
    let fetch = |name: &str| match (&extras, name) {
        (Some(t), "c.extras.json") => Ok(t.clone().into_bytes()),
        _ => Err(std::io::Error::new(std::io::ErrorKind::NotFound, name)),
    };
    sinew_formats::load_bytes("stickbot.json", &main, &fetch, &options)
}

/// The three cages bound by code, as the file declares them.
fn by_code() -> Character {
    let mut c = load(None).expect("loads").character();
    c.set_to_setup_pose();
    c.update(0.0);
    let (hip, torso) = (
        c.find_bone("hip").expect("hip").id(),
        c.find_bone("torso").expect("torso").id(),
    );
    let local = |c: &Character, b, p: [f64; 2], w: f64| {
        let m = c
            .bone_world(b)
            .expect("bone")
            .try_inverse()
            .expect("invertible");
        let l = m.apply(Vec2::new(p[0], p[1]));
        [l.x, l.y, w]
    };
    let source = CageSource::Bones {
        offsets: vec![0, 1, 2, 3, 5],
        bones: vec![hip, hip, torso, hip, torso],
        values: vec![
            local(&c, hip, BELLY[0], 1.0),
            local(&c, hip, BELLY[1], 1.0),
            local(&c, torso, BELLY[2], 1.0),
            local(&c, hip, BELLY[3], 0.25),
            local(&c, torso, BELLY[3], 0.75),
        ],
    };
    let cage = Cage::from_loops(&[BELLY]).expect("cage");
    c.bind_cage("torso", "torso", &cage, source, CageMode::Replace)
        .expect("belly binds");
    let mut cape = Vec::new();
    c.world_vertices("cape", &mut cape);
    // The cape's outline (its vertices are a ladder of pairs, bottom to top).
    let order = [0u32, 1, 3, 5, 7, 9, 8, 6, 4, 2];
    let ring: Vec<[f64; 2]> = order
        .iter()
        .map(|&v| {
            let k = 2 * v as usize;
            [f64::from(cape[k]), f64::from(cape[k + 1])]
        })
        .collect();
    let cage = Cage::from_loops(&[ring]).expect("cage");
    let source = CageSource::MeshVertices(order.to_vec());
    c.bind_cage("cape", "cape", &cage, source, CageMode::Offset)
        .expect("flap binds");
    let cage = Cage::from_loops(&[PAD]).expect("cage");
    c.bind_cage(
        "torso",
        "torso",
        &cage,
        CageSource::External,
        CageMode::Offset,
    )
    .expect("pad binds");
    c
}

/// The host's pad points at frame `f`.
fn push_pad(c: &mut Character, f: usize) {
    let k = c.cage_count() - 1;
    let pts = c.cage_points_mut(k).expect("pad");
    pts[4] = 0.0 + (f as f32 * 0.1).sin() * 12.0;
    pts[5] = 260.0 + (f as f32 * 0.07).cos() * 8.0;
}

#[test]
fn declared_cages_pose_as_the_ones_bound_by_code() {
    let asset = load(Some(extras(""))).expect("loads with cages");
    let mut a = asset.character();
    let mut b = by_code();
    assert_eq!((a.cage_count(), b.cage_count()), (3, 3));
    assert_eq!(a.find_cage("pad"), Some(2));
    assert_eq!(a.cage_name(1), Some("flap"));
    let mut bare = load(None).expect("loads").character();
    for c in [&mut a, &mut b, &mut bare] {
        c.set_animation(0, "walk", true).expect("walk");
    }
    let (mut va, mut vb, mut plain) = (Vec::new(), Vec::new(), Vec::new());
    let mut moved = false;
    for f in 0..90 {
        push_pad(&mut a, f);
        push_pad(&mut b, f);
        for c in [&mut a, &mut b, &mut bare] {
            c.update(1.0 / 60.0);
        }
        for slot in ["torso", "cape"] {
            a.world_vertices(slot, &mut va);
            b.world_vertices(slot, &mut vb);
            assert_eq!(va, vb, "{slot}, frame {f}");
        }
        for k in 0..3 {
            assert_eq!(a.cage_world(k), b.cage_world(k), "cage {k}, frame {f}");
        }
        let da = a.draw_list().positions.clone();
        assert_eq!(da, b.draw_list().positions, "frame {f}");
        bare.world_vertices("torso", &mut plain);
        a.world_vertices("torso", &mut va);
        moved |= va != plain;
    }
    assert!(moved, "the cages move the torso");
}

#[test]
fn point_keys_and_frames_allocate_nothing() {
    let keys = r#", "animations": { "walk": [
        { "time": 0, "offsets": [[0, 0], [0, 0], [0, 0], [0, 0]] },
        { "time": 0.4, "offsets": [[0, 0], [0, 0], [8, 4], [0, 0]], "curve": "stepped" },
        { "time": 0.6, "offsets": [[0, 0], [0, 0], [0, 0], [0, 0]] } ] }"#;
    let asset = load(Some(extras(keys))).expect("loads with keys");
    let mut keyed = asset.character();
    let mut plain = load(Some(extras(""))).expect("loads").character();
    for c in [&mut keyed, &mut plain] {
        c.set_animation(0, "walk", true).expect("walk");
    }
    // 0.2 s: half way to (8, 4) on the third point; 0.5 s: stepped, the whole of it.
    for (frames, want) in [(12, [4.0, 2.0]), (18, [8.0, 4.0])] {
        for f in 0..frames {
            push_pad(&mut keyed, f);
            push_pad(&mut plain, f);
            keyed.update(1.0 / 60.0);
            plain.update(1.0 / 60.0);
        }
        let (_, k, _) = keyed.cage_world(0).expect("posed");
        let (_, p, _) = plain.cage_world(0).expect("posed");
        for (i, w) in want.iter().enumerate() {
            let d = f64::from(k[4 + i] - p[4 + i]);
            assert!((d - w).abs() < 1e-3, "point 2 axis {i}: {d} vs {w}");
        }
        assert_eq!(&k[..4], &p[..4], "unkeyed points");
    }
    let mut buf = vec![0.0f32; keyed.max_world_floats()];
    keyed.update(1.0 / 60.0);
    keyed.compute_world_vertices(&mut buf);
    let _ = keyed.draw_list();
    let allocs = count_allocations(|| {
        for f in 0..240 {
            push_pad(&mut keyed, f);
            keyed.update(1.0 / 60.0);
            keyed.compute_world_vertices(&mut buf);
            let _ = keyed.draw_list();
        }
    });
    assert_eq!(allocs, 0, "240 caged frames allocated {allocs} times");
}

#[test]
fn a_cage_the_rig_cannot_bind_names_file_path_and_name() {
    let text = extras("").replace(r#""bones": ["hip", "torso"]"#, r#""bones": ["hip", "jaw"]"#);
    let e = load(Some(text)).expect_err("unknown bone");
    match &e {
        LoadError::Invalid {
            file,
            path,
            name,
            issue: sinew_formats::JsonIssue::Rig(p),
        } => {
            assert_eq!(
                (file.as_str(), path.as_str()),
                ("c.extras.json", "$.cages[0]")
            );
            assert_eq!(name.as_deref(), Some("belly"));
            assert_eq!(p.name.as_deref(), Some("jaw"));
        }
        other => panic!("{other}"),
    }
    assert_eq!(
        e.to_string(),
        "c.extras.json: $.cages[0] (`belly`): cage `belly`: unknown bone `jaw`"
    );
    let text = extras("").replace("[0, 1, 3, 5, 7, 9, 8, 6, 4, 2]", "[0, 1, 3, 99]");
    let e = load(Some(text))
        .expect_err("vertex out of range")
        .to_string();
    assert!(
        e.starts_with("c.extras.json: $.cages[1] (`flap`): cage `flap`: mesh vertex 99"),
        "{e}"
    );
}

/// Example shapes from the file: the torso's first vertex offset by `w(t) * (6, -4)` turned
/// with the torso (its linear part now times its inverse in the setup pose), `w` keyed
/// 0 -> 1 over the first 0.5 s of the walk plus the host's 0.25; frames allocate nothing;
/// an example of the wrong size names the path and the set.
#[test]
fn example_shapes_follow_their_closed_form() {
    let mut offsets = vec![[0.0, 0.0]; 15];
    offsets[0] = [6.0, -4.0];
    let shapes = format!(
        r#"{{ "shapes": [ {{ "name": "breath", "slot": "torso",
            "examples": [ {{ "name": "in", "offsets": {} }} ],
            "animations": {{ "walk": {{ "in": [ {{ "time": 0, "value": 0 }},
                                               {{ "time": 0.5, "value": 1 }} ] }} }} }} ] }}"#,
        serde_json::to_string(&offsets).expect("json")
    );
    let mut shaped = load(Some(shapes.clone())).expect("loads").character();
    let mut bare = load(None).expect("loads").character();
    let sr = shaped.shape_rig().expect("shapes");
    let (set, ex) = (
        sr.find("breath").expect("set"),
        sr.example(0, "in").expect("in"),
    );
    assert!(shaped.set_shape_weight(set, ex, 0.25));
    bare.update(0.0);
    let setup = bare.bone_world("torso").expect("torso").linear_part();
    let setup_inv = setup.try_inverse().expect("invertible");
    for c in [&mut shaped, &mut bare] {
        c.set_animation(0, "walk", true).expect("walk");
    }
    let (mut vs, mut vb) = (Vec::new(), Vec::new());
    for f in 1..=24 {
        shaped.update(1.0 / 60.0);
        bare.update(1.0 / 60.0);
        let t = f64::from(f) / 60.0;
        let w = 0.25 + (t / 0.5).min(1.0);
        let turn = bare.bone_world("torso").expect("torso").linear_part() * setup_inv;
        let d = turn.apply_linear(Vec2::new(6.0 * w, -4.0 * w));
        shaped.world_vertices("torso", &mut vs);
        bare.world_vertices("torso", &mut vb);
        let got = [f64::from(vs[0] - vb[0]), f64::from(vs[1] - vb[1])];
        assert!(
            (got[0] - d.x).abs() < 1e-4 && (got[1] - d.y).abs() < 1e-4,
            "frame {f}: {got:?} vs {d:?}"
        );
        assert_eq!(&vs[2..], &vb[2..], "other vertices, frame {f}");
    }
    let _ = shaped.draw_list();
    let allocs = count_allocations(|| {
        for _ in 0..120 {
            shaped.update(1.0 / 60.0);
            let _ = shaped.draw_list();
        }
    });
    assert_eq!(allocs, 0, "120 shaped frames allocated {allocs} times");
    let bad = shapes.replacen("[0.0,0.0]]", "]", 1).replacen(",]", "]", 1);
    let e = load(Some(bad)).expect_err("14 offsets").to_string();
    assert!(
        e.starts_with(
            "c.extras.json: $.shapes[0] (`breath`): shape set `breath`: example `in`: 14 offsets \
             for a mesh of 15 vertices"
        ),
        "{e}"
    );
}
