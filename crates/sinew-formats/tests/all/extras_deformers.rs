//! Rotation and warp deformers from a rig-extras file on the example character (a Spine
//! rig) against the same deformers built by code (`DeformerRig::build` from descriptions
//! made in Rust): the walk's world vertices and draw list bit for bit (a warp riding the
//! torso over the torso mesh, a rotation nested in it moving the cape, keyed by the walk);
//! the key track against its closed form; frames allocate nothing; a deformer the rig
//! cannot bind is an error naming the file, the JSON path and the offending name.

use sinew::Character;
use sinew::character::deformer_rig::{
    DeformerDesc, DeformerDescKind, DeformerKey, DeformerKeysDesc, DeformerRig, DeformerTargetDesc,
};
use sinew::physics::jiggle::CueCurve;
use sinew_formats::{Asset, Companion, LoadError, LoadOptions};
use sinew_testutil::alloc::count_allocations;
use std::path::PathBuf;
use std::sync::Arc;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/stickbot")
        .join(name)
}

/// The body warp's offsets: its top row pushed right and up.
const BODY: &str = "[[0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [12, 4], [12, 6], [12, 4]]";

fn extras(flap_keys: &str) -> String {
    format!(
        r#"{{
  "sinewExtras": 1,
  "deformers": [
    {{ "name": "flap", "type": "rotation", "pivot": [0, 180], "angle": 5, "scale": 1,
      "parent": "body", "slots": [{{ "slot": "cape", "attachment": "cape" }}] {flap_keys} }},
    {{ "name": "body", "type": "warp", "origin": [-80, 40], "size": [160, 200], "cols": 2,
      "rows": 2, "bone": "torso", "slots": ["torso"],
      "animations": {{ "walk": [ {{ "time": 0, "offsets": {zero} }},
                                {{ "time": 0.5, "offsets": {BODY} }} ] }} }}
  ]
}}"#,
        zero = "[[0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]]",
    )
}

const WALK_KEYS: &str = r#", "animations": { "walk": [ { "time": 0, "angle": 0 },
    { "time": 0.5, "angle": 30, "x": 4 }, { "time": 1, "angle": 0, "curve": "stepped" } ] }"#;

fn load(extras: Option<String>) -> Result<Asset, LoadError> {
    let main = std::fs::read(example("stickbot.json")).expect("stickbot");
    let options = LoadOptions {
        extras: Companion::named_or_without(extras.as_ref().map(|_| "d.extras.json".to_owned())),
        ..Default::default()
    };
    let fetch = |name: &str| match (&extras, name) {
        (Some(t), "d.extras.json") => Ok(t.clone().into_bytes()),
        _ => Err(std::io::Error::new(std::io::ErrorKind::NotFound, name)),
    };
    sinew_formats::load_bytes("stickbot.json", &main, &fetch, &options)
}

/// The file's two deformers, described in Rust.
fn descs() -> Vec<DeformerDesc> {
    let rot = DeformerDescKind::Rotation {
        pivot: [0.0, 180.0],
        angle: 5.0,
        scale: 1.0,
    };
    let mut flap = DeformerDesc::new("flap", rot, &[]);
    flap.parent = Some("body".into());
    flap.targets.push(DeformerTargetDesc {
        slot: "cape".into(),
        attachment: Some("cape".into()),
    });
    let key = |time: f64, angle: f64, x: f64, curve: CueCurve| DeformerKey {
        time,
        curve,
        values: vec![angle, 0.0, x, 0.0],
    };
    flap.animations.push(DeformerKeysDesc {
        animation: "walk".into(),
        keys: vec![
            key(0.0, 0.0, 0.0, CueCurve::Linear),
            key(0.5, 30.0, 4.0, CueCurve::Linear),
            key(1.0, 0.0, 0.0, CueCurve::Stepped),
        ],
    });
    let warp = DeformerDescKind::Warp {
        origin: [-80.0, 40.0],
        size: [160.0, 200.0],
        cols: 2,
        rows: 2,
    };
    let mut body = DeformerDesc::new("body", warp, &["torso"]);
    body.bone = Some("torso".into());
    let mut top = vec![0.0; 18];
    top[12..].copy_from_slice(&[12.0, 4.0, 12.0, 6.0, 12.0, 4.0]);
    body.animations.push(DeformerKeysDesc {
        animation: "walk".into(),
        keys: vec![
            DeformerKey {
                time: 0.0,
                curve: CueCurve::Linear,
                values: vec![0.0; 18],
            },
            DeformerKey {
                time: 0.5,
                curve: CueCurve::Linear,
                values: top,
            },
        ],
    });
    vec![flap, body]
}

fn by_code() -> Character {
    let asset = load(None).expect("loads");
    let dr = DeformerRig::build(&asset.rig, &descs()).expect("binds");
    let mut c = asset.character();
    c.set_deformer_rig(Some(Arc::new(dr))).expect("same rig");
    c
}

#[test]
fn declared_deformers_pose_as_the_ones_built_by_code() {
    let asset = load(Some(extras(WALK_KEYS))).expect("loads with deformers");
    let mut a = asset.character();
    let mut b = by_code();
    assert_eq!(a.find_deformer("body"), Some(0), "parents run first");
    assert_eq!(a.find_deformer("flap"), Some(1));
    let mut bare = load(None).expect("loads").character();
    for c in [&mut a, &mut b, &mut bare] {
        c.set_animation(0, "walk", true).expect("walk");
    }
    let (mut va, mut vb, mut plain) = (Vec::new(), Vec::new(), Vec::new());
    let mut moved = [false; 2];
    for f in 0..90 {
        for c in [&mut a, &mut b, &mut bare] {
            c.update(1.0 / 60.0);
        }
        for (k, slot) in ["torso", "cape"].into_iter().enumerate() {
            a.world_vertices(slot, &mut va);
            b.world_vertices(slot, &mut vb);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&va), bits(&vb), "{slot}, frame {f}");
            bare.world_vertices(slot, &mut plain);
            moved[k] |= va != plain;
        }
        assert_eq!(a.deformer_lattice(0), b.deformer_lattice(0), "frame {f}");
        let da = a.draw_list().positions.clone();
        assert_eq!(da, b.draw_list().positions, "frame {f}");
    }
    assert_eq!(
        moved,
        [true, true],
        "the deformers move the torso and the cape"
    );
}

/// The flap's walk keys: angle 0 -> 30 and x 0 -> 4 over the first 0.5 s (linear). At
/// 0.25 s the keyed character shows what a character without keys shows with the host's
/// angle 15 and x 2 (to float rounding: the key's linear blend against the closed form).
#[test]
fn a_key_track_follows_its_closed_form_and_frames_allocate_nothing() {
    let keyed_asset = load(Some(extras(WALK_KEYS))).expect("loads with keys");
    let mut keyed = keyed_asset.character();
    let mut host = load(Some(extras(""))).expect("loads").character();
    for c in [&mut keyed, &mut host] {
        c.set_animation(0, "walk", true).expect("walk");
    }
    let flap = host.find_deformer("flap").expect("flap");
    assert!(host.set_deformer_rotation(flap, 15.0, 0.0, [2.0, 0.0]));
    for _ in 0..15 {
        keyed.update(1.0 / 60.0);
        host.update(1.0 / 60.0);
    }
    let (mut k, mut h) = (Vec::new(), Vec::new());
    keyed.world_vertices("cape", &mut k);
    host.world_vertices("cape", &mut h);
    assert_eq!(k.len(), h.len());
    let worst = k
        .iter()
        .zip(&h)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(worst < 1e-3, "keyed vs closed form: {worst}");
    let mut rest = load(None).expect("loads").character();
    rest.set_animation(0, "walk", true).expect("walk");
    for _ in 0..15 {
        rest.update(1.0 / 60.0);
    }
    let mut r = Vec::new();
    rest.world_vertices("cape", &mut r);
    assert!(
        k.iter().zip(&r).any(|(a, b)| (a - b).abs() > 1.0),
        "the key track turns the cape"
    );
    // After warm-up, frames (keys, host offsets, vertices, draw list) allocate nothing.
    let mut buf = vec![0.0f32; keyed.max_world_floats()];
    keyed.compute_world_vertices(&mut buf);
    let _ = keyed.draw_list();
    let allocs = count_allocations(|| {
        for f in 0..240 {
            if let Some(o) = keyed.deformer_offsets_mut(0) {
                o[13] = f64::from(f % 7);
            }
            keyed.update(1.0 / 60.0);
            keyed.compute_world_vertices(&mut buf);
            let _ = keyed.draw_list();
        }
    });
    assert_eq!(allocs, 0, "240 deformed frames allocated {allocs} times");
}

#[test]
fn a_deformer_the_rig_cannot_bind_names_file_path_and_name() {
    let text = extras("").replace(r#""bone": "torso""#, r#""bone": "jaw""#);
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
                ("d.extras.json", "$.deformers[1]")
            );
            assert_eq!(name.as_deref(), Some("body"));
            assert_eq!(p.name.as_deref(), Some("jaw"));
        }
        other => panic!("{other}"),
    }
    assert_eq!(
        e.to_string(),
        "d.extras.json: $.deformers[1] (`body`): deformer `body`: unknown bone `jaw`"
    );
    let text = extras("").replace(r#""slots": ["torso"]"#, r#""slots": ["torso", "cape"]"#);
    // The body runs first (the flap's parent) and takes the cape: the flap is refused.
    let e = load(Some(text)).expect_err("cape taken").to_string();
    assert_eq!(
        e,
        "d.extras.json: $.deformers[0] (`flap`): deformer `flap`: slot `cape`'s mesh is \
         moved by deformer `body` already"
    );
}
