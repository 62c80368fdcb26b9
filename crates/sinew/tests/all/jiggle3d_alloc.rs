//! The 3D jiggle solver's frame allocates nothing after warm-up, and repeats bit for bit:
//! two 4-joint chains (spring and Verlet) with a sphere collider, on uneven frame times
//! (on the step grid, between steps, a hitch, and non-finite and negative times), counted
//! by `sinew_testutil::alloc`.
#![cfg(feature = "glam")]

use glam::{Quat, Vec3};
use sinew::physics::ClockSettings;
use sinew::physics::jiggle::solver3d::{Chain3, Collider3, Jiggle3d, Joint3, Transform3};
use sinew::physics::jiggle::{JiggleParams, Preset};
use sinew_testutil::alloc::count_allocations;

const JOINTS: usize = 8;

fn solver() -> Jiggle3d {
    let tail = Vec3::new(0.0, -10.0, 0.0);
    let joints: Vec<Joint3> = (0..JOINTS as u32)
        .map(|i| Joint3 {
            parent: (i % 4 != 0).then(|| i - 1),
            chain: i / 4,
            tail,
        })
        .collect();
    let vrm = JiggleParams {
        unit_scale: 100.0,
        ..JiggleParams::vrm(1.0, 0.4, 1.0, 2.0)
    };
    let chains = [
        Chain3 {
            params: Preset::HairTip.params(),
            colliders: vec![0],
        },
        Chain3 {
            params: vrm,
            colliders: vec![0],
        },
    ];
    Jiggle3d::new(&joints, &chains, 1, ClockSettings::default())
}

/// The animated pose at time `t`: each chain hangs from a root that sways and turns.
fn pose(t: f64, out: &mut [Transform3]) {
    let root = Vec3::new(
        (30.0 * (3.0 * t).sin()) as f32,
        0.0,
        (10.0 * t.cos()) as f32,
    );
    let rot = Quat::from_rotation_z((0.4 * (2.0 * t).sin()) as f32);
    for (i, p) in out.iter_mut().enumerate() {
        let along = (i % 4) as f32;
        let side = if i < 4 { -20.0 } else { 20.0 };
        p.translation = root + Vec3::new(side, 0.0, 0.0) + rot * Vec3::new(0.0, -10.0 * along, 0.0);
        p.rotation = rot;
    }
}

/// Runs `frames` frames of the schedule; returns a checksum of every returned transform.
fn run(j: &mut Jiggle3d, frames: usize, anim: &mut [Transform3], out: &mut [Transform3]) -> u64 {
    const DTS: [f64; 8] = [
        1.0 / 60.0,
        1.0 / 144.0,
        1.0 / 30.0,
        0.25,
        f64::NAN,
        -1.0,
        f64::INFINITY,
        1.0 / 60.0,
    ];
    let gravity = Vec3::new(0.0, -980.0, 0.0);
    let wind = Vec3::new(50.0, 0.0, 0.0);
    let mut t = 0.0;
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for f in 0..frames {
        let dt = DTS[f % DTS.len()];
        if dt.is_finite() && dt > 0.0 {
            t += dt;
        }
        pose(t, anim);
        let ball = Collider3::Sphere {
            center: Vec3::new(0.0, -25.0, 0.0),
            radius: 8.0,
        };
        j.update(dt, anim, &[ball], gravity, wind, out);
        for o in out.iter() {
            for v in o
                .translation
                .to_array()
                .into_iter()
                .chain(o.rotation.to_array())
            {
                assert!(v.is_finite(), "frame {f}: {o:?}");
                hash = (hash ^ u64::from(v.to_bits())).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    hash
}

#[test]
fn a_3d_frame_allocates_nothing_and_repeats_bit_for_bit() {
    let (mut a, mut b) = (solver(), solver());
    let mut anim = [Transform3 {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    }; JOINTS];
    let mut out = anim;
    // Warm-up, then counted frames.
    let warm = run(&mut a, 64, &mut anim, &mut out);
    let mut hash = 0;
    let allocations = count_allocations(|| hash = run(&mut a, 600, &mut anim, &mut out));
    assert!(count_allocations(|| drop(std::hint::black_box(vec![1u8; 8]))) > 0);
    assert_eq!(allocations, 0, "the 3D jiggle frame allocated");
    assert_eq!(warm, run(&mut b, 64, &mut anim, &mut out));
    assert_eq!(
        hash,
        run(&mut b, 600, &mut anim, &mut out),
        "not deterministic"
    );
}
