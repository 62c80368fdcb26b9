//! Delayed follows on the example character through a rig-extras file: frames allocate
//! nothing after warm-up (the history rings fill and wrap during the counted frames, at
//! several frame rates and with hitches), two characters repeat bit for bit, and the
//! follows move the followers (and what hangs below them) and nothing else.

use sinew_testutil::alloc::count_allocations;
use std::path::PathBuf;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/stickbot")
        .join(name)
}

const FOLLOWS: &str = r#"{
  "follow": [
    { "name": "arm", "bone": "arm-upper-back", "source": "arm-upper-front", "delay": 0.4,
      "mix": 0.7, "space": "local", "rotate": true, "translate": true, "scale": true },
    { "name": "cape", "bone": "cape-1", "source": "torso", "delay": 1.5, "mix": 0.5,
      "space": "world", "rotate": true, "translate": false, "offset": { "rotate": 175 } }
  ]
}"#;

fn character(extras: Option<PathBuf>) -> sinew::Character {
    let options = sinew_formats::LoadOptions {
        // An absolute path is a name relative to any folder.
        extras: sinew_formats::Companion::named_or_without(extras.map(|p| p.display().to_string())),
        ..Default::default()
    };
    let asset = sinew_formats::load_spine(&example("stickbot.json"), None, &options)
        .expect("stickbot loads");
    let mut c = asset.character();
    c.set_animation(0, "walk", true).expect("walk");
    c
}

fn extras_file() -> PathBuf {
    // One file per call: the tests of this binary run in parallel in one process, and one
    // rewriting the file another is reading gave an empty read now and then.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("sinew-follow-frame-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(format!("follow-{n}.json"));
    std::fs::write(&p, FOLLOWS).expect("write extras");
    p
}

#[test]
fn follow_frames_allocate_nothing_and_repeat_bit_for_bit() {
    let path = extras_file();
    let mut a = character(Some(path.clone()));
    let mut b = character(Some(path));
    assert_eq!(a.follows().map(|(fr, _)| fr.follows.len()), Some(2));
    let dts = [1.0 / 60.0, 1.0 / 30.0, 1.0 / 144.0, 0.25, 1.0 / 60.0, 0.0];
    for i in 0..30 {
        a.update(dts[i % dts.len()]);
        b.update(dts[i % dts.len()]);
    }
    let mut worlds = Vec::with_capacity(1200);
    let allocations = count_allocations(|| {
        for i in 0..1200 {
            a.update(dts[i % dts.len()]);
            worlds.push(a.instance().world[5]);
        }
    });
    assert_eq!(allocations, 0, "follow frames allocated");
    for (i, w) in worlds.iter().enumerate() {
        b.update(dts[i % dts.len()]);
        assert_eq!(*w, b.instance().world[5], "frame {i} differs");
    }
    assert_eq!(a.instance().world, b.instance().world);
}

#[test]
fn only_the_followers_and_their_children_move() {
    let mut plain = character(None);
    let mut fol = character(Some(extras_file()));
    let rig = plain.rig().clone();
    let moved_ok = ["arm-upper-back", "arm-lower-back", "cape-1", "cape-2"];
    let mut moved = 0.0f64;
    for _ in 0..120 {
        plain.update(1.0 / 60.0);
        fol.update(1.0 / 60.0);
        for (i, b) in rig.bones.iter().enumerate() {
            let (p, f) = (plain.instance().world[i], fol.instance().world[i]);
            let d = (p.x - f.x).hypot(p.y - f.y) + (p.a - f.a).abs() + (p.c - f.c).abs();
            assert!(d.is_finite());
            if moved_ok.contains(&b.name.as_str()) {
                moved = moved.max(d);
            } else {
                assert!(d < 1e-9, "{} moved by {d}", b.name);
            }
        }
    }
    assert!(moved > 1.0, "followers did not move: {moved}");
}
