//! A puppet frame allocates nothing after warm-up, and the same input gives the same bits.
//!
//! A counting global allocator counts allocations made on the test's own thread while a
//! frame of the shared `synthetic_medium.inp` runs through the facade: every parameter set
//! (moving with time), `Character::update` (the parameter stage with parameter physics on
//! uneven steps and a hitch, world transforms), the draw list, and the world vertices of
//! every visible part. A second puppet fed the same
//! inputs must hash to the same bits frame for frame.

use sinew::character::update_params;
use sinew::{Character, Instance, ParamId, Rig};
use sinew_formats::inochi2d::{build_puppet, load_inochi2d};
use std::sync::Arc;

use sinew_testutil::alloc::count_allocations;

/// One puppet: a character and a world-vertex buffer sized for its largest part.
struct Player {
    character: Character,
    vertices: Vec<f32>,
    time: f64,
}

impl Player {
    fn new(rig: &Arc<Rig>) -> Player {
        let character = Character::new(rig.clone());
        Player {
            vertices: vec![0.0; character.max_world_floats()],
            character,
            time: 0.0,
        }
    }

    /// One frame, as an application runs it: parameters set, `Character::update`, the
    /// draw list and the world vertices of every visible part. Returns a checksum of the
    /// parameters, world transforms, draw list and world vertices.
    fn frame(&mut self, dt: f64) -> u64 {
        self.time += dt;
        for i in 0..self.character.params().len() {
            // Every parameter moves, each at its own phase (physics overwrites its own).
            let t = self.time * 1.3 + i as f64 * 0.37;
            let v = [t.sin(), (t * 0.7).cos()];
            self.character
                .set_param(ParamId(i as u16), v)
                .expect("the rig's parameter");
        }
        self.character.update(dt);
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        let mut mix = |bits: u64| hash = (hash ^ bits).wrapping_mul(0x0100_0000_01b3);
        for p in &self.character.draw_list().positions {
            mix(u64::from(p.to_bits()));
        }
        let n = self.character.compute_world_vertices(&mut self.vertices);
        mix(n as u64);
        for v in &self.vertices {
            mix(u64::from(v.to_bits()));
        }
        let inst = self.character.instance();
        for w in &inst.world {
            for x in [w.a, w.b, w.c, w.d, w.x, w.y] {
                mix(x.to_bits());
            }
        }
        for v in &inst.params.values {
            mix(v[0].to_bits());
            mix(v[1].to_bits());
        }
        hash
    }
}

#[test]
fn puppet_frames_allocate_nothing_and_repeat_bit_for_bit() {
    let Some(dir) = sinew_testutil::require_fixtures("puppet_frames_allocate_nothing") else {
        return;
    };
    let path = dir.join("inochi2d/synthetic_medium.inp");
    let puppet = load_inochi2d(&path).expect("fixture loads");
    let rig = Arc::new(build_puppet(&puppet).expect("fixture builds"));
    assert!(!rig.params.drivers.is_empty(), "the fixture has physics");
    let mut a = Player::new(&rig);
    let mut b = Player::new(&rig);
    let hashes = sinew_testutil::alloc::assert_frames_allocate_nothing_and_repeat(
        "synthetic_medium puppet",
        |dt| a.frame(dt),
        |dt| b.frame(dt),
    );
    // The frames are not trivially constant.
    assert_ne!(hashes[0], hashes[1]);
}

#[test]
fn the_counter_sees_allocations() {
    let n = count_allocations(|| {
        let v: Vec<u64> = Vec::with_capacity(std::hint::black_box(32));
        drop(v);
    });
    assert!(n >= 1, "a Vec allocation was not counted");
}

/// Lanes of every interpolation kind on the first parameters of `rig`.
fn test_animations(rig: &Rig) -> Vec<sinew::params::inochi_clip::ParamAnimation> {
    use sinew::params::inochi_clip::{AnimLane, Keyframe, LaneInterp, LaneMerge, ParamAnimation};
    let kinds = [
        LaneInterp::Nearest,
        LaneInterp::Stepped,
        LaneInterp::Linear,
        LaneInterp::Cubic,
        LaneInterp::Bezier,
    ];
    (0..2)
        .map(|a| ParamAnimation {
            name: format!("anim{a}"),
            timestep: 1.0 / 30.0,
            length: 40,
            lead_in: Some(5),
            lead_out: Some(35),
            additive: a == 1,
            weight: 0.5,
            lanes: (0..rig.params.params.len().min(10))
                .map(|i| AnimLane {
                    param: ParamId(i as u16),
                    component: (i % 2) as u8,
                    interp: kinds[i % kinds.len()],
                    merge: LaneMerge::Passthrough,
                    keys: (0..6)
                        .map(|k| Keyframe {
                            frame: k as f32 * 8.0,
                            value: ((k + i + a) % 3) as f32 * 0.5 - 0.5,
                            tension: 0.25,
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect()
}

#[test]
fn animation_frames_allocate_nothing() {
    use sinew::params::player::ParamPlayer;
    let Some(dir) = sinew_testutil::require_fixtures("animation_frames_allocate_nothing") else {
        return;
    };
    let puppet = load_inochi2d(&dir.join("inochi2d/synthetic_medium.inp")).expect("loads");
    let rig = build_puppet(&puppet).expect("builds");
    let anims = test_animations(&rig);
    let mut inst = Instance::new(&rig);
    let base = inst.params.values.clone();
    let mut player = ParamPlayer::new(rig.params.params.len(), 2);
    player.set_animation(1, 1, true, 0.0);
    let frame = |i: usize, player: &mut ParamPlayer, inst: &mut Instance| {
        if i.is_multiple_of(50) {
            // A crossfade between the two clips every 50 frames.
            player.set_animation(0, (i / 50) % 2, true, 0.3);
        }
        player.update(&anims, 1.0 / 60.0);
        inst.params.values.copy_from_slice(&base);
        player.apply_to(&rig, &anims, inst);
        update_params(&rig, inst, 1.0 / 60.0, true);
        inst.params.values[0][0]
    };
    for i in 0..120 {
        frame(i, &mut player, &mut inst);
    }
    let mut sum = 0.0;
    let allocations = count_allocations(|| {
        for i in 0..600 {
            sum += frame(i, &mut player, &mut inst);
        }
    });
    assert_eq!(
        allocations, 0,
        "{allocations} allocations in 600 animated frames"
    );
    assert!(
        sum.is_finite() && sum != 0.0,
        "the animation moves parameter 0: {sum}"
    );
}
