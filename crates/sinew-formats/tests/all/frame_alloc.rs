//! The per-frame update allocates nothing after warm-up, and the same input gives the same
//! bits.
//!
//! A counting global allocator counts allocations made on the test's own thread while a
//! frame runs through the facade users run: `Character::update` (animation state update +
//! apply, clock, world transforms with constraints and physics), its events drained, its
//! draw list, and the world vertices of every visible attachment. Rigs: sinew's own example (always)
//! and, when the shared fixtures are present, rigs that exercise every constraint kind,
//! physics, deform, sequences, draw order and events.

use sinew::{Character, Rig};
use std::path::Path;
use std::sync::Arc;

use sinew_testutil::alloc::count_allocations;

fn load(path: &Path) -> Arc<Rig> {
    sinew_formats::load_spine(path, None, &Default::default())
        .expect("fixture loads")
        .rig
}

/// One character and a world-vertex buffer.
struct Player {
    character: Character,
    vertices: Vec<f32>,
}

impl Player {
    fn new(rig: &Arc<Rig>, anims: &[&str], skins: &[&str]) -> Player {
        let mut character = Character::new(rig.clone());
        if !skins.is_empty() {
            character.set_skins(skins).expect("skins exist");
            character.set_slots_to_setup_pose();
        }
        character
            .set_animation(0, anims[0], true)
            .expect("animation exists");
        // Queue the rest so crossfades and entry recycling happen during the counted frames.
        for name in &anims[1..] {
            let id = character
                .add_animation(0, name, true, 0.4)
                .expect("animation exists");
            if let Some(e) = character.state_mut().entry_mut(id) {
                e.mix_duration = 0.2;
            }
        }
        let max = character.max_world_floats();
        Player {
            character,
            vertices: vec![0.0; max],
        }
    }

    /// One frame, as a game runs it: the facade's update, its draw list and the world
    /// vertices of every visible attachment. Returns a checksum.
    fn frame(&mut self, dt: f64) -> u64 {
        self.character.update(dt);
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for e in self.character.drain_events() {
            hash = (hash ^ u64::from(e.clip.0)).wrapping_mul(0x0100_0000_01b3);
        }
        let list = self.character.draw_list();
        for v in &list.positions {
            hash = (hash ^ u64::from(v.to_bits())).wrapping_mul(0x0100_0000_01b3);
        }
        let n = self.character.compute_world_vertices(&mut self.vertices);
        hash = (hash ^ n as u64).wrapping_mul(0x0100_0000_01b3);
        for v in &self.vertices {
            hash = (hash ^ u64::from(v.to_bits())).wrapping_mul(0x0100_0000_01b3);
        }
        for w in &self.character.instance().world {
            for x in [w.a, w.b, w.c, w.d, w.x, w.y] {
                hash = (hash ^ x.to_bits()).wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash
    }
}

/// The zero-allocation check (`sinew_testutil::alloc`) on two players of one rig.
fn check_rig(rig: &Arc<Rig>, anims: &[&str], skins: &[&str], label: &str) {
    let mut a = Player::new(rig, anims, skins);
    let mut b = Player::new(rig, anims, skins);
    sinew_testutil::alloc::assert_frames_allocate_nothing_and_repeat(
        label,
        |dt| a.frame(dt),
        |dt| b.frame(dt),
    );
}

#[test]
fn own_example_frames_allocate_nothing_and_repeat_bit_for_bit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let rig = load(&root.join("stickbot/stickbot.json"));
    check_rig(&rig, &["walk", "turn", "walk"], &[], "stickbot");
}

#[test]
fn fixture_frames_allocate_nothing_and_repeat_bit_for_bit() {
    let Some(dir) = sinew_testutil::require_spine_fixtures("fixture_frames_allocate_nothing")
    else {
        return;
    };
    let cases: &[(&str, &[&str], &[&str])] = &[
        (
            "spineboy/spineboy-pro.json",
            &["run", "shoot", "walk", "jump"],
            &[],
        ),
        (
            "celestial-circus/celestial-circus-pro.json",
            &["swing", "wind-idle"],
            &[],
        ),
        ("tank/tank-pro.json", &["drive", "shoot"], &[]),
        ("stretchyman/stretchyman-pro.json", &["sneak"], &[]),
        (
            "mix-and-match/mix-and-match-pro.json",
            &["walk", "dance"],
            &["full-skins/girl"],
        ),
        ("synthetic/constraints-lab.json", &["move"], &[]),
        ("synthetic/timelines-lab.json", &["all-timelines"], &[]),
        ("owl/owl-pro.json", &["idle"], &[]),
    ];
    for (file, anims, skins) in cases {
        let rig = load(&dir.join(file));
        check_rig(&rig, anims, skins, file);
    }
}

#[test]
fn the_counter_sees_allocations() {
    let n = count_allocations(|| {
        let v: Vec<u64> = Vec::with_capacity(black_box_len());
        drop(v);
    });
    assert!(n >= 1, "a Vec allocation was not counted");
}

fn black_box_len() -> usize {
    std::hint::black_box(32)
}
