//! The per-frame update allocates nothing after warm-up, and the same input gives the same
//! bits.
//!
//! A counting global allocator counts allocations made on the test's own thread while a
//! frame runs (animation state update + apply, clock, world transforms with constraints and
//! physics, world vertices of every visible attachment). Rigs: sinew's own example (always)
//! and, when the shared fixtures are present, rigs that exercise every constraint kind,
//! physics, deform, sequences, draw order and events.

use sinew::anim::AnimationState;
use sinew::{Instance, Physics, Rig, SlotId};
use std::path::Path;

use sinew_testutil::alloc::{CountingAlloc, count_allocations};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

fn load(path: &Path) -> Rig {
    let raw = sinew_formats::spine::load_spine_json(path).expect("fixture loads");
    sinew::build::build_rig(&raw).expect("fixture builds")
}

/// One character: an instance, its animation state and a world-vertex buffer.
struct Player {
    inst: Instance,
    state: AnimationState,
    vertices: Vec<f32>,
}

impl Player {
    fn new(rig: &Rig, anims: &[&str], skins: &[&str]) -> Player {
        let mut inst = Instance::new(rig);
        if !skins.is_empty() {
            let ids: Vec<_> = skins
                .iter()
                .map(|s| rig.skin(s).expect("skin exists"))
                .collect();
            inst.set_skins(rig, &ids);
            inst.set_slots_to_setup_pose(rig);
        }
        let mut state = AnimationState::new(rig);
        let first = rig.clip(anims[0]).expect("animation exists");
        state.set_animation(rig, 0, first, true);
        // Queue the rest so crossfades and entry recycling happen during the counted frames.
        for name in &anims[1..] {
            let clip = rig.clip(name).expect("animation exists");
            let id = state.add_animation(rig, 0, clip, true, 0.4);
            if let Some(e) = state.entry_mut(id) {
                e.mix_duration = 0.2;
            }
        }
        let max = rig
            .attachments
            .iter()
            .enumerate()
            .map(|(i, _)| sinew::deform::world_vertex_count(rig, sinew::AttachmentId(i as u32)))
            .max()
            .unwrap_or(0);
        Player {
            inst,
            state,
            vertices: vec![0.0; max * 2],
        }
    }

    /// One frame, as a game would run it. Returns a checksum of the world vertices.
    fn frame(&mut self, rig: &Rig, dt: f64) -> u64 {
        self.state.update(dt);
        self.state.apply(rig, &mut self.inst);
        self.state.drain_events().for_each(drop);
        self.inst.advance_time(dt);
        sinew::skeleton::update_world_transform(rig, &mut self.inst, Physics::Update);
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for i in 0..self.inst.draw_order.len() {
            let slot: SlotId = self.inst.draw_order[i];
            if !self.inst.bone_active[rig.slots[slot.index()].bone.index()] {
                continue;
            }
            let Some(att) = self.inst.slots.attachment[slot.index()] else {
                continue;
            };
            let n = sinew::deform::world_vertex_count(rig, att) * 2;
            sinew::deform::compute_world_vertices(rig, &self.inst, slot, &mut self.vertices[..n]);
            for v in &self.vertices[..n] {
                hash = (hash ^ u64::from(v.to_bits())).wrapping_mul(0x0100_0000_01b3);
            }
        }
        for w in &self.inst.world {
            for x in [w.a, w.b, w.c, w.d, w.x, w.y] {
                hash = (hash ^ x.to_bits()).wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash
    }
}

/// Runs warm-up frames, then counts allocations over many frames (with uneven dt, a hitch
/// and queued crossfades) and checks a second player gives the same bits.
fn check_rig(rig: &Rig, anims: &[&str], skins: &[&str], label: &str) {
    let mut a = Player::new(rig, anims, skins);
    let mut b = Player::new(rig, anims, skins);
    let dts = [1.0 / 60.0, 1.0 / 30.0, 1.0 / 144.0, 0.25, 1.0 / 60.0];
    for i in 0..120 {
        a.frame(rig, dts[i % dts.len()]);
        b.frame(rig, dts[i % dts.len()]);
    }
    let mut hashes = Vec::with_capacity(600);
    let allocations = count_allocations(|| {
        for i in 0..600 {
            hashes.push(a.frame(rig, dts[i % dts.len()]));
        }
    });
    assert_eq!(
        allocations, 0,
        "{label}: {allocations} allocations in 600 frames after warm-up"
    );
    for (i, want) in hashes.iter().enumerate() {
        let got = b.frame(rig, dts[i % dts.len()]);
        assert_eq!(
            got, *want,
            "{label}: frame {i} differs between two identical players"
        );
    }
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
