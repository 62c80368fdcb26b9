use super::*;
use crate::host::{Host, Loaded};
use std::path::{Path, PathBuf};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// Loads `dir/name` through the host's fetch loop, handing over files from `dir`.
fn load(dir: &Path, name: &str) -> (Host, Loaded) {
    let mut host = Host::default();
    host.add_file(name, std::fs::read(dir.join(name)).ok());
    for _ in 0..8 {
        match host.load(name, None, None) {
            Loaded::Needs(names) => {
                for n in names {
                    host.add_file(&n, std::fs::read(dir.join(&n)).ok());
                }
            }
            done => return (host, done),
        }
    }
    panic!("the fetch loop did not end");
}

fn player(dir: &Path, name: &str) -> (Host, u32) {
    match load(dir, name) {
        (h, Loaded::Player(id)) => (h, id),
        (_, other) => panic!("{name}: {other:?}"),
    }
}

/// Every op is well formed and every command's triangles are drawn exactly once.
fn check_ops(f: &Frame, list_indices: usize) {
    let mut drawn = 0;
    let mut clip = false;
    let mut group = false;
    for k in 0..f.op_count() {
        let op = f.op(k);
        match op[0] {
            OP_DRAW | OP_MASK_SOURCE | OP_CLIP => {
                let (first, count) = (op[1] as usize, op[2] as usize);
                assert!(first + count <= f.indices.len(), "op {k} out of range");
                assert_eq!(count % 3, 0, "op {k}: whole triangles");
                if op[0] == OP_DRAW {
                    drawn += count;
                    // The mask holds the clip bit (the reference too, unless inverse).
                    assert_eq!(op[6] & STENCIL_CLIP != 0, clip, "op {k}: clip bit");
                }
                if op[0] == OP_CLIP {
                    assert!(!clip, "op {k}: a clip inside a clip");
                    clip = true;
                }
            }
            OP_UNCLIP => {
                assert!(clip);
                clip = false;
            }
            OP_GROUP_BEGIN => {
                assert!(!group);
                group = true;
            }
            OP_GROUP_END => {
                assert!(group);
                group = false;
            }
            OP_MASK_CLEAR | OP_COMPOSITE => {}
            other => panic!("op {k}: unknown kind {other}"),
        }
    }
    assert!(!clip && !group, "every clip and group ends");
    assert_eq!(drawn, list_indices, "every triangle drawn once");
    let vertices = (f.vertices.len() / FLOATS_PER_VERTEX) as u32;
    assert!(f.indices.iter().all(|&i| i < vertices));
}

#[test]
fn stickbot_walk_draws_every_triangle_with_its_clip() {
    let dir = examples().join("stickbot");
    let (mut host, id) = player(&dir, "stickbot.json");
    let p = host.player(id).expect("player");
    p.play(Some("walk"), true).expect("walk");
    p.seek(0.4);
    let n = p.character_mut().draw_list().indices.len();
    let clipped = p
        .character_mut()
        .draw_list()
        .commands
        .iter()
        .any(|c| c.clip.is_some());
    let f = p.build_frame();
    check_ops(f, n);
    assert!(clipped, "stickbot has a clipping mask");
    assert!((0..f.op_count()).any(|k| f.op(k)[0] == OP_CLIP));
    // Consecutive normal commands on one page merge: fewer draws than commands.
    let draws = (0..f.op_count()).filter(|&k| f.op(k)[0] == OP_DRAW).count();
    let commands = p.character_mut().draw_list().commands.len();
    assert!(draws < commands, "{draws} draws for {commands} commands");
}

#[test]
fn face_masks_become_stencil_sources() {
    let dir = examples().join("face");
    let (mut host, id) = player(&dir, "face.inp");
    let p = host.player(id).expect("player");
    p.play(Some("idle"), true).expect("idle");
    p.seek(1.0);
    let n = p.character_mut().draw_list().indices.len();
    let f = p.build_frame();
    check_ops(f, n);
    let sources = (0..f.op_count())
        .filter(|&k| f.op(k)[0] == OP_MASK_SOURCE)
        .count();
    assert!(sources > 0, "the irises are masked by the eye whites");
    let masked = (0..f.op_count())
        .filter(|&k| f.op(k)[0] == OP_DRAW && f.op(k)[5] & STENCIL_MASK != 0)
        .count();
    assert!(masked > 0);
}

#[test]
fn vertices_carry_the_premultiplied_tint() {
    let dir = examples().join("stickbot");
    let (mut host, id) = player(&dir, "stickbot.json");
    let p = host.player(id).expect("player");
    let c = p.character_mut();
    c.set_color(sinew::Color::new(1.0, 0.5, 0.25, 0.5));
    c.update(0.0);
    let f = p.build_frame();
    let v = &f.vertices[..FLOATS_PER_VERTEX];
    // Light = skeleton * slot * attachment colour, premultiplied; no tint black: dark 0.
    assert!(v[7] <= 0.5 + 1e-6 && v[7] > 0.0, "alpha {}", v[7]);
    assert!(v[4] <= v[7] + 1e-6 && v[5] <= v[7] * 0.5 + 1e-6);
    assert_eq!(&v[8..12], &[0.0; 4]);
}

#[test]
fn loads_report_what_is_wrong() {
    let dir = examples().join("stickbot");
    // A PNG given as the skeleton.
    let (_, got) = load(&dir, "stickbot.png");
    match got {
        Loaded::Failed(e) => assert!(e.contains("stickbot.png") && e.contains("PNG"), "{e}"),
        other => panic!("{other:?}"),
    }
    // A file the page could not fetch.
    let mut host = Host::default();
    host.add_file("gone.json", None);
    assert!(
        matches!(host.load("gone.json", None, None), Loaded::Failed(e) if e.contains("gone.json"))
    );
    // An atlas that is not there.
    let mut host = Host::default();
    host.add_file(
        "stickbot.json",
        std::fs::read(dir.join("stickbot.json")).ok(),
    );
    host.add_file("nope.atlas", None);
    assert!(
        matches!(host.load("stickbot.json", Some("nope.atlas"), None), Loaded::Failed(e) if e.contains("nope.atlas"))
    );
    // Unknown names from the page are errors, not panics.
    let (mut host, id) = player(&dir, "stickbot.json");
    let p = host.player(id).expect("player");
    assert!(p.play(Some("moonwalk"), true).unwrap_err().contains("walk"));
    assert!(p.set_skins(&["nope"]).is_err());
    assert!(
        p.set_param("nope", 0.0, 0.0)
            .unwrap_err()
            .contains("no parameters")
    );
    assert!(p.bone_world("nope").is_none());
    assert!(host.player(id + 7).is_none());
}

#[test]
fn seek_is_the_same_frame_as_playing_in_steps() {
    let dir = examples().join("stickbot");
    let (mut host, id) = player(&dir, "stickbot.json");
    let p = host.player(id).expect("player");
    p.play(Some("walk"), true).expect("walk");
    for _ in 0..30 {
        p.update(crate::player::SEEK_STEP);
    }
    let a = p.build_frame().vertices.clone();
    // The same sum of steps as the loop above, so seek takes 30 whole steps too.
    let t = (0..30).fold(0.0, |t, _| t + crate::player::SEEK_STEP);
    p.seek(t);
    assert_eq!(p.build_frame().vertices, a);
    let info = p.info_json();
    assert!(
        info.contains("\"walk\"") && info.contains("\"pma\""),
        "{info}"
    );
}

#[test]
fn crossfade_mixes_and_queue_follows() {
    let dir = examples().join("stickbot");
    let (mut host, id) = player(&dir, "stickbot.json");
    let p = host.player(id).expect("player");
    p.play(Some("walk"), true).expect("walk");
    p.update(0.3);
    let walk = p.build_frame().vertices.clone();
    p.crossfade("turn", 0.5, true).expect("turn");
    p.update(0.1);
    let mixed = p.build_frame().vertices.clone();
    assert_eq!(p.playing().0, Some("turn"));
    // Alone, turn at 0.1 s shows something else than the mix does.
    p.seek(0.1);
    let turn = p.build_frame().vertices.clone();
    assert_ne!(mixed, turn, "the crossfade shows both clips");
    assert_ne!(mixed, walk);
    p.queue("walk", 0.0, true).expect("queue");
    assert!(p.queue("moonwalk", 0.0, true).is_err());
    assert!(p.crossfade("moonwalk", 0.2, true).is_err());
}

#[test]
fn blend_numbers_are_the_table_order() {
    for (i, m) in BLEND_MODES.iter().enumerate() {
        assert_eq!(blend_number(*m), i as u32, "{m:?}");
    }
    // The modes the shader blends against the backdrop: the separable ones but AddGlow.
    let shader: Vec<u32> = (0..20).filter(|&n| reads_backdrop(n)).collect();
    assert_eq!(shader, [4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15]);
}

#[test]
fn a_crowd_shares_one_frame() {
    let dir = examples().join("stickbot");
    let (mut host, id) = player(&dir, "stickbot.json");
    let twin = host.spawn(id).expect("spawn");
    assert!(host.spawn(id + 9).is_none());
    for (k, i) in [id, twin].into_iter().enumerate() {
        let p = host.player(i).expect("player");
        p.play(Some("walk"), true).expect("walk");
        p.seek(0.1 * k as f64);
    }
    let one = host.player(id).expect("player").build_frame().clone();
    let n = host
        .player(id)
        .expect("player")
        .character_mut()
        .draw_list()
        .indices
        .len();
    let m = host
        .player(twin)
        .expect("twin")
        .character_mut()
        .draw_list()
        .indices
        .len();
    let at = Placement {
        scale: 0.5,
        dx: 100.0,
        dy: -20.0,
    };
    let both = host
        .group_frame(&[(id, Placement::IDENTITY), (twin, at), (77, at)])
        .clone();
    check_ops(&both, n + m);
    // The first character's vertices are its own frame's; the second's are placed.
    assert_eq!(&both.vertices[..one.vertices.len()], &one.vertices[..]);
    let twin_frame = host.player(twin).expect("twin").build_frame().clone();
    let placed = &both.vertices[one.vertices.len()..];
    for (a, b) in placed
        .chunks_exact(FLOATS_PER_VERTEX)
        .zip(twin_frame.vertices.chunks_exact(FLOATS_PER_VERTEX))
    {
        assert_eq!(a[0], b[0] * 0.5 + 100.0);
        assert_eq!(a[1], b[1] * 0.5 - 20.0);
        assert_eq!(&a[2..], &b[2..]);
    }
}

#[test]
fn extras_load_by_name() {
    let dir = examples().join("stickbot");
    let mut host = Host::default();
    for n in [
        "stickbot.json",
        "stickbot.atlas",
        "stickbot.png",
        "stickbot_2.png",
    ] {
        host.add_file(n, std::fs::read(dir.join(n)).ok());
    }
    let request = crate::host::Request {
        extras: Some("stickbot.extras.json"),
        ..Default::default()
    };
    // Named but not handed over yet: the page is asked for it.
    match host.load_with("stickbot.json", &request) {
        Loaded::Needs(names) => assert_eq!(names, ["stickbot.extras.json"]),
        other => panic!("{other:?}"),
    }
    host.add_file(
        "stickbot.extras.json",
        std::fs::read(dir.join("stickbot.extras.json")).ok(),
    );
    let Loaded::Player(id) = host.load_with("stickbot.json", &request) else {
        panic!("stickbot with extras");
    };
    assert!(host.player(id).expect("player").asset().jiggle.is_some());
    // Without the request, no extras.
    let Loaded::Player(id) = host.load("stickbot.json", None, None) else {
        panic!("stickbot");
    };
    assert!(host.player(id).expect("player").asset().jiggle.is_none());
}

#[test]
fn clip_lab_fans_hulls_and_inverts_the_inverse_clip() {
    // A plain clip (5 vertices), a concave one with `convex` (an L: its hull has 5 of the
    // 6) and an `inverse` one (a diamond), each over one image.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/spine43");
    let (mut host, id) = player(&dir, "clip-lab.json");
    let p = host.player(id).expect("player");
    p.seek(0.0);
    let n = p.character_mut().draw_list().indices.len();
    let f = p.build_frame();
    check_ops(f, n);
    let (mut fans, mut refs) = (Vec::new(), Vec::new());
    for k in 0..f.op_count() {
        let op = f.op(k);
        match op[0] {
            OP_CLIP => fans.push(op[2]),
            OP_DRAW if op[6] & STENCIL_CLIP != 0 => refs.push(op[5] & STENCIL_CLIP),
            _ => {}
        }
    }
    assert_eq!(fans, [9, 9, 6], "triangle fans of 5, 5 and 4 vertices");
    assert_eq!(
        refs,
        [1, 1, 0],
        "the inverse clip draws where bit 1 is clear"
    );
}
