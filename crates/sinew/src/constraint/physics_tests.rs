//! Tests for the Spine 4.2 physics constraint: closed forms and per-step oracle values.

use super::*;
use crate::deform::testing::{bone, world_of};
use crate::ids::BoneId;
use crate::rig::{BoneData, LocalPose, PhysicsData, PhysicsParams, Rig};

fn pose(x: f64, y: f64, rotation: f64, scale_x: f64) -> LocalPose {
    LocalPose {
        x,
        y,
        rotation,
        scale_x,
        ..LocalPose::IDENTITY
    }
}

/// A physics constraint with Spine's JSON defaults, then customised by the caller.
fn physics(bone: u16) -> PhysicsData {
    PhysicsData {
        name: format!("p{bone}"),
        skin_required: false,
        bone: BoneId(bone),
        x: 0.0,
        y: 0.0,
        rotate: 0.0,
        scale_x: 0.0,
        shear_x: 0.0,
        scale_y: Default::default(),
        interpolate: false,
        limit: 5000.0,
        step: 1.0 / 60.0,
        setup: PhysicsParams {
            inertia: 1.0,
            strength: 100.0,
            damping: 1.0,
            mass_inverse: 1.0,
            wind: 0.0,
            gravity: 0.0,
            mix: 1.0,
        },
        inertia_global: false,
        strength_global: false,
        damping_global: false,
        mass_global: false,
        wind_global: false,
        gravity_global: false,
        mix_global: false,
    }
}

fn rig(bones: Vec<BoneData>, physics: Vec<PhysicsData>) -> Rig {
    Rig {
        reference_scale: 100.0,
        bones,
        physics,
        ..Rig::empty()
    }
}

/// Poses every bone from its setup pose, with `moved` added to bone 1's translation.
fn pose_bones(rig: &Rig, inst: &mut Instance, moved: (f64, f64)) {
    for (i, b) in rig.bones.iter().enumerate() {
        let mut p = b.setup;
        if i == 1 {
            p.x += moved.0;
            p.y += moved.1;
        }
        let parent = b.parent.map(|q| inst.world[q.index()]);
        inst.world[i] = world_of(parent.as_ref(), &p, inst.scale_x, inst.scale_y);
    }
}

/// The rig of `phys-lab.json` (see [`ORACLE_UNIT_SCALE`]).
fn phys_lab() -> Rig {
    let bones = vec![
        bone("root", None, 0.0, LocalPose::IDENTITY),
        bone("mover", Some(0), 0.0, LocalPose::IDENTITY),
        bone("tail", Some(1), 50.0, pose(10.0, 0.0, 30.0, 1.0)),
        bone("swing", Some(1), 40.0, pose(-20.0, 5.0, -60.0, 1.2)),
        bone("stretch", Some(1), 30.0, pose(0.0, 30.0, 90.0, 1.0)),
        bone("slow", Some(1), 25.0, pose(5.0, -10.0, 170.0, 1.0)),
    ];
    let mut all = physics(2);
    (
        all.x,
        all.y,
        all.rotate,
        all.scale_x,
        all.shear_x,
        all.limit,
    ) = (1.0, 0.8, 1.0, 0.7, 0.5, 800.0);
    all.setup = PhysicsParams {
        inertia: 0.8,
        strength: 120.0,
        damping: 0.9,
        mass_inverse: 1.0 / 2.0,
        wind: 3.0,
        gravity: 5.0,
        mix: 0.9,
    };
    let mut rot = physics(3);
    rot.rotate = 1.0;
    (rot.setup.inertia, rot.setup.strength, rot.setup.damping) = (0.5, 80.0, 0.85);
    (rot.setup.gravity, rot.setup.wind) = (-20.0, 10.0);
    let mut scale = physics(4);
    scale.scale_x = 1.0;
    (scale.setup.strength, scale.setup.damping, scale.setup.wind) = (60.0, 0.95, 4.0);
    let mut slow = physics(5);
    (slow.x, slow.y, slow.rotate, slow.limit, slow.step) = (1.0, 1.0, 0.6, 30.0, 1.0 / 30.0);
    (slow.setup.strength, slow.setup.damping, slow.setup.gravity) = (50.0, 0.8, 2.0);
    rig(bones, vec![all, rot, scale, slow])
}

/// Runs phys-lab's `move` animation (bone `mover` translated (0,0) -> (100,40) over 1 s,
/// linear) the way `dump.mjs --mode apply` steps it, checking the constrained bones.
fn check_phys_lab(sx: f64, sy: f64, oracle: &[(usize, [[f64; 6]; 4])]) {
    let rig = phys_lab();
    let mut inst = Instance::new(&rig);
    (inst.scale_x, inst.scale_y) = (sx, sy);
    let dt = 1.0 / 60.0;
    let mut anim_time = 0.0;
    let last = oracle.last().map_or(0, |o| o.0);
    let mut expected = oracle.iter().peekable();
    for step in 0..=last {
        let delta = if step == 0 { 0.0 } else { dt };
        anim_time += delta;
        // Spine's linear translate timeline between keys at t=0 and t=1.
        let f = (anim_time - 0.0) / (1.0 - 0.0);
        pose_bones(&rig, &mut inst, (f * (100.0 - 0.0), f * (40.0 - 0.0)));
        inst.advance_time(delta);
        for id in 0..rig.physics.len() {
            apply_physics_constraint(&rig, &mut inst, PhysicsId(id as u16), Physics::Update);
        }
        if let Some((_, bones)) = expected.next_if(|o| o.0 == step) {
            for (k, want) in bones.iter().enumerate() {
                let w = inst.world[k + 2];
                let got = [w.a, w.b, w.c, w.d, w.x, w.y];
                for j in 0..6 {
                    assert!(
                        (got[j] - want[j]).abs() < 1e-9,
                        "step {step} bone {} field {j}: got {} want {}",
                        rig.bones[k + 2].name,
                        got[j],
                        want[j]
                    );
                }
            }
        }
    }
    assert!(expected.next().is_none());
}

#[test]
fn matches_oracle_per_step() {
    check_phys_lab(1.0, 1.0, ORACLE_UNIT_SCALE);
}

#[test]
fn matches_oracle_with_skeleton_scale() {
    check_phys_lab(-1.5, 0.8, ORACLE_SCALED);
}

/// One bone driven on every property, at the origin, with no forces.
fn lone_rig(configure: impl FnOnce(&mut PhysicsData)) -> Rig {
    let bones = vec![
        bone("root", None, 0.0, LocalPose::IDENTITY),
        bone("b", Some(0), 40.0, pose(0.0, 0.0, 20.0, 1.0)),
    ];
    let mut p = physics(1);
    (p.x, p.y, p.rotate, p.scale_x, p.shear_x) = (1.0, 1.0, 1.0, 1.0, 1.0);
    configure(&mut p);
    rig(bones, vec![p])
}

/// Steps a lone-bone rig: each entry of `moves` is (dt, world position of bone 1, whose
/// axes stay those of its setup rotation).
fn run(rig: &Rig, inst: &mut Instance, moves: &[(f64, (f64, f64))], mode: Physics) {
    for &(dt, moved) in moves {
        let mut w = world_of(None, &rig.bones[1].setup, 1.0, 1.0);
        (w.x, w.y) = moved;
        inst.world[1] = w;
        inst.advance_time(dt);
        apply_physics_constraint(rig, inst, PhysicsId(0), mode);
    }
}

/// A step and frame time that sum exactly in binary, for the closed-form tests.
const T: f64 = 1.0 / 64.0;

#[test]
fn bone_without_input_stays_put() {
    let rig = lone_rig(|_| {});
    let mut inst = Instance::new(&rig);
    run(&rig, &mut inst, &[(0.0, (0.0, 0.0))], Physics::Update);
    let setup = inst.world[1];
    let steps = vec![(1.0 / 60.0, (0.0, 0.0)); 120];
    run(&rig, &mut inst, &steps, Physics::Update);
    let s = &inst.physics[0];
    assert_eq!((s.x_offset, s.y_offset), (0.0, 0.0));
    // Only rounding drives rotation: atan2 of the stored tip vector vs the bone's angle.
    assert!(s.rotate_offset.abs() < 1e-8 && s.scale_offset.abs() < 1e-8);
    let w = inst.world[1];
    for (g, e) in [
        (w.a, setup.a),
        (w.b, setup.b),
        (w.c, setup.c),
        (w.d, setup.d),
        (w.x, setup.x),
    ] {
        assert!((g - e).abs() < 1e-8);
    }
}

#[test]
fn first_update_only_records_position() {
    let rig = lone_rig(|p| p.setup.gravity = 50.0);
    let mut inst = Instance::new(&rig);
    run(&rig, &mut inst, &[(0.5, (30.0, -7.0))], Physics::Update);
    let s = &inst.physics[0];
    assert!(!s.needs_reset);
    assert_eq!((s.ux, s.uy), (30.0, -7.0));
    assert_eq!((s.x_offset, s.y_offset, s.rotate_offset), (0.0, 0.0, 0.0));
    // The half second is carried, not simulated.
    assert_eq!(s.remaining, 0.5);
}

#[test]
fn one_translation_step_closed_form() {
    // x only, inertia i, strength e, mass 1/m_inv: after the bone jumps by j, the offset
    // starts at -j*i, then one explicit step: v = -o*e*m_inv*t; o += v*t; v *= d.
    let (i, e, m_inv, damping) = (0.75, 90.0, 0.5, 0.8);
    let rig = lone_rig(|p| {
        (p.y, p.rotate, p.scale_x, p.shear_x, p.step) = (0.0, 0.0, 0.0, 0.0, T);
        p.setup = PhysicsParams {
            inertia: i,
            strength: e,
            damping,
            mass_inverse: m_inv,
            ..p.setup
        };
    });
    let mut inst = Instance::new(&rig);
    let t = T;
    run(
        &rig,
        &mut inst,
        &[(0.0, (0.0, 0.0)), (t, (10.0, 0.0))],
        Physics::Update,
    );
    let o0 = -10.0 * i;
    let v = -o0 * e * m_inv * t;
    let o1 = o0 + v * t;
    let s = &inst.physics[0];
    assert!((s.x_offset - o1).abs() < 1e-12);
    assert!((s.x_velocity - v * damping.powf(60.0 * t)).abs() < 1e-12);
    assert!((inst.world[1].x - (10.0 + o1)).abs() < 1e-12);
}

#[test]
fn damping_decays_velocity_geometrically() {
    // No spring, no forces: each step multiplies the velocity by damping^(60 * step).
    let rig = lone_rig(|p| {
        (p.y, p.rotate, p.scale_x, p.shear_x, p.step) = (0.0, 0.0, 0.0, 0.0, T);
        p.setup.strength = 0.0;
        p.setup.damping = 0.5;
    });
    let mut inst = Instance::new(&rig);
    let t = T;
    let d = 0.5f64.powf(60.0 * t);
    run(
        &rig,
        &mut inst,
        &[(0.0, (0.0, 0.0)), (t, (0.0, 0.0))],
        Physics::Update,
    );
    inst.physics[0].x_velocity = 12.0;
    let mut prev_offset = inst.physics[0].x_offset;
    for k in 1..=10 {
        run(&rig, &mut inst, &[(t, (0.0, 0.0))], Physics::Update);
        let s = &inst.physics[0];
        assert!((s.x_velocity - 12.0 * d.powi(k)).abs() < 1e-12);
        // The offset moved by the undamped velocity of this step.
        assert!((s.x_offset - prev_offset - 12.0 * d.powi(k - 1) * t).abs() < 1e-12);
        prev_offset = s.x_offset;
    }
}

#[test]
fn limit_clamps_the_inertia_kick() {
    let rig = lone_rig(|p| {
        (p.rotate, p.scale_x, p.shear_x) = (0.0, 0.0, 0.0);
        p.limit = 60.0;
        p.setup.strength = 0.0;
    });
    let mut inst = Instance::new(&rig);
    inst.scale_y = -2.0;
    let t = 1.0 / 60.0;
    // Under the limit (60 units/s * 1/60 s = 1 unit per update in x, 2 in y).
    run(&rig, &mut inst, &[(0.0, (0.0, 0.0))], Physics::None);
    assert!(
        inst.physics[0].needs_reset,
        "none mode must not touch the state"
    );
    run(
        &rig,
        &mut inst,
        &[(0.0, (0.0, 0.0)), (t, (500.0, -500.0))],
        Physics::Update,
    );
    let s = &inst.physics[0];
    // Kick clamped to -q (x) and +2q (y); one step of pure drift follows.
    assert!((s.x_offset - (-1.0 + 0.0)).abs() < 1e-12);
    assert!((s.y_offset - 2.0).abs() < 1e-12);
}

#[test]
fn step_schedule_only_matters_through_remaining() {
    // A stationary bone under gravity: 6 updates of T and 12 of T/2 take the same fixed
    // steps, so the states agree after each full T (translation exactly).
    let rig = lone_rig(|p| {
        p.step = T;
        p.setup.gravity = 30.0;
        p.setup.wind = -4.0;
        p.setup.damping = 0.9;
    });
    let mut a = Instance::new(&rig);
    let mut b = Instance::new(&rig);
    run(&rig, &mut a, &[(0.0, (0.0, 0.0))], Physics::Update);
    run(&rig, &mut b, &[(0.0, (0.0, 0.0))], Physics::Update);
    for _ in 0..6 {
        run(&rig, &mut a, &[(T, (0.0, 0.0))], Physics::Update);
        run(&rig, &mut b, &[(T / 2.0, (0.0, 0.0)); 2], Physics::Update);
        let (sa, sb) = (&a.physics[0], &b.physics[0]);
        assert_eq!(sa.remaining, sb.remaining);
        assert_eq!((sa.x_offset, sa.y_offset), (sb.x_offset, sb.y_offset));
        // The extra half-step updates re-read the rotation through atan2: rounding only.
        assert!((sa.rotate_offset - sb.rotate_offset).abs() < 1e-12);
        assert!((sa.scale_offset - sb.scale_offset).abs() < 1e-12);
        let (wa, wb) = (a.world[1], b.world[1]);
        assert!((wa.a - wb.a).abs() < 1e-12 && (wa.c - wb.c).abs() < 1e-12);
        assert_eq!((wa.x, wa.y), (wb.x, wb.y));
    }
    assert!(a.physics[0].y_offset < 0.0, "gravity pulls down");
}

#[test]
fn pose_mode_reuses_offsets_and_reset_clears_them() {
    let rig = lone_rig(|p| {
        p.step = T;
        p.setup.gravity = 30.0;
    });
    let mut inst = Instance::new(&rig);
    let t = T;
    run(
        &rig,
        &mut inst,
        &[(0.0, (0.0, 0.0)), (t, (0.0, 0.0)), (t, (0.0, 0.0))],
        Physics::Update,
    );
    let before = inst.physics[0].clone();
    // Pose: the stored offsets are applied, nothing is simulated.
    run(&rig, &mut inst, &[(t, (0.0, 0.0))], Physics::Pose);
    let s = &inst.physics[0];
    assert_eq!(
        (s.y_offset, s.y_velocity, s.remaining),
        (before.y_offset, before.y_velocity, before.remaining)
    );
    assert!((inst.world[1].y - before.y_offset).abs() < 1e-12);
    assert_eq!((s.tx, s.ty), (before.tx, before.ty));
    // Reset: zeroed, clock recorded, the bone left where animation put it.
    run(&rig, &mut inst, &[(t, (3.0, 4.0))], Physics::Reset);
    let s = &inst.physics[0];
    assert_eq!(
        (s.x_offset, s.y_offset, s.rotate_offset, s.scale_offset),
        (0.0, 0.0, 0.0, 0.0)
    );
    assert_eq!(
        (s.last_time, s.remaining, s.ux, s.uy),
        (inst.time, 0.0, 3.0, 4.0)
    );
    assert_eq!((inst.world[1].x, inst.world[1].y), (3.0, 4.0));
}

#[test]
fn mix_zero_does_nothing() {
    let rig = lone_rig(|p| p.setup.mix = 0.0);
    let mut inst = Instance::new(&rig);
    run(&rig, &mut inst, &[(0.0, (5.0, 0.0))], Physics::Update);
    assert!(inst.physics[0].needs_reset);
}

#[test]
fn translate_acts_like_bone_motion() {
    // Moving the bone by (5, 0) and translating the state by (5, 0) kick the same offset.
    let rig = lone_rig(|p| (p.rotate, p.scale_x, p.shear_x) = (0.0, 0.0, 0.0));
    let t = 1.0 / 60.0;
    let mut moved = Instance::new(&rig);
    run(
        &rig,
        &mut moved,
        &[(0.0, (0.0, 0.0)), (t, (5.0, 0.0))],
        Physics::Update,
    );
    let mut translated = Instance::new(&rig);
    run(&rig, &mut translated, &[(0.0, (0.0, 0.0))], Physics::Update);
    physics_translate(&mut translated, 5.0, 0.0);
    run(&rig, &mut translated, &[(t, (0.0, 0.0))], Physics::Update);
    assert_eq!(moved.physics[0].x_offset, translated.physics[0].x_offset);
    // Rotating by 0 degrees is a no-op; by 90 about the bone it is a pure translation.
    let mut r = translated.physics[0].clone();
    r.rotate(0.0, 0.0, 0.0);
    assert_eq!(
        (r.ux, r.cx),
        (translated.physics[0].ux, translated.physics[0].cx)
    );
    let mut q = r.clone();
    (q.cx, q.cy) = (10.0, 0.0);
    let (ux, uy) = (q.ux, q.uy);
    // The bone at (10, 0) turning 90 degrees about the origin moves by (-10, 10), so the
    // remembered positions move the opposite way.
    q.rotate(0.0, 0.0, 90.0);
    assert!((q.cx - 20.0).abs() < 1e-6 && (q.cy + 10.0).abs() < 1e-6);
    assert!((q.ux - (ux + 10.0)).abs() < 1e-6 && (q.uy - (uy - 10.0)).abs() < 1e-6);
}

// Oracle values: `node dump.mjs phys-lab.json --anim move --mode apply
// --times 0:0.5:0.016666666666666666 --no-vertices` (and `--sx -1.5 --sy 0.8` for
// ORACLE_SCALED), spine-core 4.2.119. phys-lab.json is the rig built by `phys_lab()`
// (root; mover; tail/swing/stretch/slow under mover with physics constraints p-all,
// p-rot, p-scale, p-limit; mover translated (0,0) -> (100,40) over 1 s). Per sampled
// step: [a, b, c, d, worldX, worldY] of tail, swing, stretch and slow.
const ORACLE_UNIT_SCALE: &[(usize, [[f64; 6]; 4])] = &[
    (
        0,
        [
            [
                0.8660253767118178,
                -0.5000000669873623,
                0.5000000066987361,
                0.866025388314369,
                10.0,
                0.0,
            ],
            [
                0.6000000321539347,
                0.8660253767118178,
                -1.0392304938233672,
                0.5000000066987361,
                -20.000000232051033,
                4.999999999999998,
            ],
            [
                -6.961530999942724e-08,
                -0.9999999999999968,
                0.9999999999999993,
                -4.64102066662848e-08,
                -1.3923061999885448e-06,
                29.999999999999986,
            ],
            [
                -0.9848077686825759,
                -0.1736480659432749,
                0.17364813450097236,
                -0.9848077646530523,
                5.000000464102067,
                -9.999999999999996,
            ],
        ],
    ),
    (
        1,
        [
            [
                0.8607936724415516,
                -0.5003673016410156,
                0.4977098708058235,
                0.8658132614143245,
                10.524166662149407,
                0.23906666666666654,
            ],
            [
                0.5831523713216277,
                0.8739808673221614,
                -1.04877708293948,
                0.4859602899027704,
                -18.333333580854436,
                5.666666666666664,
            ],
            [
                -6.809408681806534e-08,
                -0.9999999999999968,
                0.9781481518738557,
                -4.64102066662848e-08,
                1.666665258890398,
                30.666666666666654,
            ],
            [
                -0.985817360173138,
                -0.16782170673647287,
                0.16782177526914455,
                -0.9858173557382924,
                6.166667115298665,
                -9.83333333333333,
            ],
        ],
    ),
    (
        2,
        [
            [
                0.8549142625372692,
                -0.5012323923615337,
                0.4960220401659659,
                0.8653127348190098,
                11.119124990615855,
                0.44601999999999986,
            ],
            [
                0.5686888138526293,
                0.8805747023010119,
                -1.056689685232127,
                0.4739073258297095,
                -16.666666929657836,
                6.333333333333331,
            ],
            [
                -6.662271162275491e-08,
                -0.9999999999999968,
                0.9570123529336148,
                -4.64102066662848e-08,
                3.333331910086996,
                31.333333333333318,
            ],
            [
                -0.9861287000940885,
                -0.16598246888241577,
                0.1659825374066954,
                -0.9861286955314096,
                7.388889322050819,
                -9.83333333333333,
            ],
        ],
    ),
    (
        3,
        [
            [
                0.8483657874228743,
                -0.5025677060846213,
                0.49485212559774766,
                0.8645378771304715,
                11.795657624146479,
                0.6317332222222218,
            ],
            [
                0.5565945579745016,
                0.8859248404676966,
                -1.0631098512901909,
                0.4638287796696844,
                -15.00000027846124,
                6.999999999999998,
            ],
            [
                -6.522321493411514e-08,
                -0.9999999999999968,
                0.9369090640356514,
                -4.64102066662848e-08,
                4.9999985612835935,
                31.999999999999986,
            ],
            [
                -0.9870792345752945,
                -0.16023288861115673,
                0.16023295710768334,
                -0.987079229613361,
                8.555555973247417,
                -9.666666666666664,
            ],
        ],
    ),
    (
        5,
        [
            [
                0.8364966459832561,
                -0.5042380826180997,
                0.4911853346375514,
                0.8635647029783252,
                13.028776028197674,
                1.0890129018518508,
            ],
            [
                0.5267578764991085,
                0.8985041983353337,
                -1.0782050813380692,
                0.43896487943953033,
                -11.666666976068045,
                8.33333333333333,
            ],
            [
                -6.23683211519855e-08,
                -0.9999999999999968,
                0.8958994961381138,
                -4.64102066662848e-08,
                8.333331863676788,
                33.333333333333314,
            ],
            [
                -0.9880420921818507,
                -0.15418436638553445,
                0.15418443485038624,
                -0.988042086800493,
                11.032469522554191,
                -9.541851851851849,
            ],
        ],
    ),
    (
        10,
        [
            [
                0.7866991031240252,
                -0.5212682812231564,
                0.4939937973495785,
                0.8533928867661582,
                19.46753854322651,
                2.1494993200806976,
            ],
            [
                0.5320712920427376,
                0.8963274238462009,
                -1.0755929518461218,
                0.44339272554792214,
                -3.333333720085058,
                11.666666666666663,
            ],
            [
                -5.908792563983431e-08,
                -0.9999999999999968,
                0.8487777421420721,
                -4.64102066662848e-08,
                16.666665119659775,
                36.66666666666665,
            ],
            [
                -0.9908565470995373,
                -0.13491960754637952,
                0.13491967589348935,
                -0.9908565403863027,
                17.513116204539312,
                -8.910108727937814,
            ],
        ],
    ),
    (
        20,
        [
            [
                0.7115505193575996,
                -0.5438978730370991,
                0.4876479072579694,
                0.8391514427671205,
                37.4612302409243,
                7.053622215792532,
            ],
            [
                0.57541043706333,
                0.877537114463881,
                -1.0530445796810646,
                0.47950867828016147,
                13.333332791880917,
                18.33333333333333,
            ],
            [
                -6.236323310709575e-08,
                -0.9999999999999968,
                0.895826408122133,
                -4.64102066662848e-08,
                33.33333163162575,
                43.333333333333314,
            ],
            [
                -0.9961657959110299,
                -0.08748549046025664,
                0.08748555840917925,
                -0.9961657859441418,
                32.53357564630674,
                -5.601911459676094,
            ],
        ],
    ),
    (
        30,
        [
            [
                0.7200044230588564,
                -0.5261012418903467,
                0.4607029891612748,
                0.8504219678923255,
                55.72474027542648,
                14.054064647529572,
            ],
            [
                0.580195518568528,
                0.8753464113549271,
                -1.0504157358446604,
                0.4834962460408899,
                29.999999303846895,
                24.999999999999993,
            ],
            [
                -6.787263994432419e-08,
                -0.9999999999999968,
                0.9749671436481798,
                -4.64102066662848e-08,
                49.999998143591725,
                49.99999999999998,
            ],
            [
                -0.9975726682030097,
                -0.06963316803737052,
                0.06963323579692145,
                -0.9975726570209615,
                48.89311911858378,
                0.05058271547588333,
            ],
        ],
    ),
];

const ORACLE_SCALED: &[(usize, [[f64; 6]; 4])] = &[
    (
        1,
        [
            [
                -1.2907328333789585,
                0.7501865028383234,
                0.3980131054798482,
                0.6926184696728898,
                -15.786249993224109,
                0.19125333333333328,
            ],
            [
                -0.8826538647738704,
                -1.307015000650861,
                -0.8497777675148288,
                0.37311082382547467,
                27.500000371281654,
                4.533333333333331,
            ],
            [
                1.0214113124934159e-07,
                1.499999999999995,
                0.7825185293306459,
                -3.712816533302784e-08,
                -2.4999978883355967,
                24.533333333333324,
            ],
            [
                1.4776512250807103,
                0.2579343973065762,
                0.13416212804290142,
                -0.7886806795685032,
                -9.250000672947996,
                -7.866666666666664,
            ],
        ],
    ),
    (
        2,
        [
            [
                -1.2811296554977916,
                0.7506289193449146,
                0.39639693244530555,
                0.6921389737732557,
                -16.678687485923785,
                0.3568159999999998,
            ],
            [
                -0.8660065397167793,
                -1.3140055774513575,
                -0.8667368529897103,
                0.34769130160074274,
                25.000000394486758,
                5.066666666666665,
            ],
            [
                9.993406946755688e-08,
                1.499999999999995,
                0.765609897925262,
                -3.712816533302784e-08,
                -4.999997865130494,
                25.066666666666656,
            ],
            [
                1.4778070137281287,
                0.2570124751464535,
                0.1324350775265928,
                -0.7889815937381786,
                -11.083333983076228,
                -7.866666666666664,
            ],
        ],
    ),
    (
        7,
        [
            [
                -1.2233429041054251,
                0.7547180894962014,
                0.3904677788140357,
                0.6876777871648998,
                -22.366425259382936,
                1.1677872192028795,
            ],
            [
                -0.7898426608496728,
                -1.3386425060598124,
                -0.9366689224398582,
                0.2356610696572511,
                12.500000510512272,
                7.733333333333331,
            ],
            [
                9.025381074418231e-08,
                1.499999999999995,
                0.6914479836493806,
                -3.712816533302784e-08,
                -17.499997749104978,
                27.73333333333332,
            ],
            [
                1.479120415812525,
                0.24868487586067764,
                0.1168563866894186,
                -0.7916458805278418,
                -20.461613290919022,
                -7.479123621399173,
            ],
        ],
    ),
    (
        15,
        [
            [
                -1.0981048996166358,
                0.7688287347430931,
                0.388558309795283,
                0.6718649493805614,
                -39.70893698610796,
                3.1626769443718823,
            ],
            [
                -0.7502000227200457,
                -1.347285994417737,
                -0.9687104960067168,
                0.17977860837125026,
                -7.499999303846895,
                11.999999999999995,
            ],
            [
                8.615813239750339e-08,
                1.499999999999995,
                0.6600703774171682,
                -3.712816533302784e-08,
                -37.49999756346415,
                31.999999999999986,
            ],
            [
                1.4813133200117603,
                0.2313966654862403,
                0.08463727039112441,
                -0.7968707240452441,
                -37.714026489652596,
                -5.94953247476123,
            ],
        ],
    ),
    (
        30,
        [
            [
                -1.0496197234226765,
                0.7682367649691926,
                0.3698427220374116,
                0.6725417507653181,
                -83.58711041313971,
                11.243251718023657,
            ],
            [
                -0.7871742709802518,
                -1.339307635723475,
                -0.9389125445266163,
                0.23185114982438654,
                -44.99999895577034,
                19.999999999999993,
            ],
            [
                1.0180896305685826e-07,
                1.499999999999995,
                0.7799737389774045,
                -3.712816533302784e-08,
                -74.9999972153876,
                39.999999999999986,
            ],
            [
                1.4828328570383242,
                0.2135612433866539,
                0.05156876642973682,
                -0.801834747913614,
                -73.33967867787567,
                0.040466172380703824,
            ],
        ],
    ),
];
