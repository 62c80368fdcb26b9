//! Deformers declared in a rig-extras file on a DragonBones armature (the shared fixture
//! `you_xin_body`, DragonBones 5.5, playing `idle`): a rotation on the body mesh turns and
//! scales its world vertices about its pivot as the closed form `pivot + s R(a) (q - pivot)`
//! says, a warp on the left arm whose four lattice points the host moves by one vector
//! shifts the arm by that vector, and every other slot is bit for bit the armature without
//! extras. Needs the shared fixtures (skips with a notice; fails under `CI=true`).

use sinew::Character;
use sinew_formats::{Companion, LoadOptions};

const EXTRAS: &str = r#"{
  "sinewExtras": 1,
  "deformers": [
    { "name": "turn", "type": "rotation", "pivot": [20, -350], "angle": 30, "scale": 1.5,
      "slots": ["a_body"] },
    { "name": "shift", "type": "warp", "origin": [-600, -1200], "size": [1200, 1400],
      "cols": 1, "rows": 1, "slots": ["a_arm_L"] }
  ]
}"#;

fn body(extras: bool) -> Option<Character> {
    let dir = sinew_testutil::require_fixtures("extras deformers on DragonBones")?
        .join("dragonbones/you_xin_body");
    let main = std::fs::read(dir.join("body_ske.json")).expect("body_ske.json");
    let options = LoadOptions {
        extras: Companion::named_or_without(extras.then(|| "body.extras.json".to_owned())),
        ..Default::default()
    };
    let fetch = |name: &str| match name {
        "body.extras.json" => Ok(EXTRAS.as_bytes().to_vec()),
        _ => std::fs::read(dir.join(name)),
    };
    let asset = sinew_formats::load_bytes("body_ske.json", &main, &fetch, &options)
        .expect("the armature loads with its extras");
    let mut c = asset.character();
    c.set_animation(0, "idle", true).expect("idle");
    Some(c)
}

#[test]
fn declared_deformers_move_a_dragonbones_armature_as_their_closed_forms() {
    let (Some(mut plain), Some(mut deformed)) = (body(false), body(true)) else {
        return;
    };
    assert!(
        deformed.find_deformer("turn").is_some(),
        "the rotation is attached"
    );
    let shift = deformed.find_deformer("shift").expect("shift");
    let (dx, dy) = (7.0, -11.0);
    assert!(deformed.set_deformer_lattice(shift, &[[dx, dy]; 4]));
    let (pivot, angle, scale) = ([20.0f64, -350.0], 30f64.to_radians(), 1.5);
    let (sin, cos) = angle.sin_cos();
    let slots: Vec<String> = plain.rig().slots.iter().map(|s| s.name.clone()).collect();
    let (mut p, mut d) = (Vec::new(), Vec::new());
    let mut worst = [0.0f64; 2];
    for frame in 0..40 {
        plain.update(1.0 / 30.0);
        deformed.update(1.0 / 30.0);
        for slot in &slots {
            plain.world_vertices(slot.as_str(), &mut p);
            deformed.world_vertices(slot.as_str(), &mut d);
            assert_eq!(p.len(), d.len(), "{slot}");
            match slot.as_str() {
                "a_body" => {
                    assert!(p.len() >= 2 * 70, "the body mesh: {}", p.len());
                    for (q, r) in p.chunks_exact(2).zip(d.chunks_exact(2)) {
                        let (x, y) = (f64::from(q[0]) - pivot[0], f64::from(q[1]) - pivot[1]);
                        let want = [
                            pivot[0] + scale * (cos * x - sin * y),
                            pivot[1] + scale * (sin * x + cos * y),
                        ];
                        let err = (f64::from(r[0]) - want[0])
                            .abs()
                            .max((f64::from(r[1]) - want[1]).abs());
                        worst[0] = worst[0].max(err);
                    }
                }
                "a_arm_L" => {
                    assert!(p.len() >= 2 * 40, "the arm mesh: {}", p.len());
                    for (q, r) in p.chunks_exact(2).zip(d.chunks_exact(2)) {
                        let err = (f64::from(r[0] - q[0]) - dx)
                            .abs()
                            .max((f64::from(r[1] - q[1]) - dy).abs());
                        worst[1] = worst[1].max(err);
                    }
                }
                _ => assert_eq!(p, d, "frame {frame}: slot {slot} untouched"),
            }
        }
    }
    eprintln!(
        "rotation worst {:.2e}, warp worst {:.2e}",
        worst[0], worst[1]
    );
    // f32 world vertices a few hundred units from the pivot.
    assert!(worst[0] < 1e-3, "rotation vs its closed form: {}", worst[0]);
    assert!(worst[1] < 1e-3, "warp vs its shift: {}", worst[1]);
}
