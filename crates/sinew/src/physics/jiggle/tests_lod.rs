//! Cheap at a distance: chains solved every N-th step (no solve in between, the display
//! interpolated between the last two solves, as its closed form), frame-rate independence
//! of coarse chains at 30, 60 and 144 fps, chains off or at strength 0 not solved, culling
//! by the host's view rectangle, mixed levels.

use super::chain::Local;
use super::tests_rig::test_rig;
use super::*;
use crate::instance::Instance;
use crate::math::{Vec2, WorldTransform};
use crate::rig::Rig;
use crate::sim::vec::SimVec;
use crate::skeleton::update_world_transform;
use crate::types::Physics;

fn desc(arm: bool) -> JiggleDesc {
    let mut d = JiggleDesc::new();
    d.gravity = [0.0, -980.0];
    d.chains.push(ChainDesc::new(
        "hair",
        &["hair1", "hair2"],
        Preset::HairTip.params(),
    ));
    if arm {
        d.chains
            .push(ChainDesc::new("arm", &["arm"], Preset::Tail.params()));
    }
    d
}

/// The body at time `t`: a steady walk with a sway (or the walk alone, `linear`).
fn pose(rig: &Rig, inst: &mut Instance, t: f64, linear: bool) {
    inst.x = 80.0 * t + if linear { 0.0 } else { 25.0 * (5.0 * t).sin() };
    update_world_transform(rig, inst, Physics::None);
}

fn setup(arm: bool) -> (Rig, JiggleRig, Instance, JiggleState) {
    let rig = test_rig();
    let jr = JiggleRig::build(&rig, &desc(arm)).expect("builds");
    let mut inst = Instance::new(&rig);
    update_world_transform(&rig, &mut inst, Physics::None);
    let mut js = JiggleState::new(&jr);
    // Anchored at rest on the pose at time 0.
    pose(&rig, &mut inst, 0.0, false);
    js.update(&rig, &jr, &mut inst, 0.0);
    (rig, jr, inst, js)
}

/// The angle of a 2D rotation, radians.
fn angle(r: crate::sim::vec::Rot2) -> f64 {
    r.s.atan2(r.c)
}

fn rotation(w: &WorldTransform) -> f64 {
    w.c.atan2(w.a)
}

#[test]
fn a_coarse_chain_solves_every_nth_step_and_shows_its_last_two_solves_interpolated() {
    let (rig, jr, mut inst, mut js) = setup(false);
    let n = 4;
    assert!(js.set_chain_every(0, n));
    assert!(!js.set_chain_every(0, 0) && !js.set_chain_every(0, 17) && !js.set_chain_every(9, 2));
    assert_eq!(js.chain_every(0), Some(n));
    let hair1 = rig.bone("hair1").expect("hair1").index();
    let mut last_state = js.sim().bones.clone();
    let mut swing = 0.0f64;
    for f in 1..=60u32 {
        pose(&rig, &mut inst, f64::from(f) / 60.0, false);
        let anim = inst.world[hair1];
        js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
        let solved = f % n == 0;
        assert_eq!(
            js.sim().bones != last_state,
            solved,
            "frame {f}: solved only on every {n}th step"
        );
        last_state = js.sim().bones.clone();
        // Display: the nlerp of the last two solved rotations by how far past the last
        // solve the frame is (a fraction of the coarse step), in closed form.
        let b = &js.sim().bones[0];
        let alpha = f64::from(f % n) / f64::from(n);
        let (p, l) = (b.prev.rot, b.last.rot);
        let (c, s) = (p.c + (l.c - p.c) * alpha, p.s + (l.s - p.s) * alpha);
        let want = s.atan2(c);
        let got = rotation(&inst.world[hair1]) - rotation(&anim);
        let got =
            (got + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI;
        assert!((got - want).abs() < 1e-9, "frame {f}: {got} vs {want}");
        swing = swing.max(angle(l).abs());
    }
    assert_eq!(js.steps_total(), 15, "60 steps, every 4th solved");
    assert!(swing > 0.05, "the hair swung only {swing} rad");
}

#[test]
fn coarse_chains_are_frame_rate_independent() {
    // Shared times every 1/6 s: frame 5k at 30 fps, 10k at 60, 24k at 144. Linear motion
    // so the inputs interpolated across a frame are the poses themselves.
    let run = |fps: f64| {
        let (rig, jr, mut inst, mut js) = setup(true);
        js.set_chain_every(0, 3);
        js.set_lod(&jr, Lod::Coarse);
        let per = (fps / 6.0).round() as u32;
        let mut out = Vec::new();
        for f in 1..=(2.0 * fps) as u32 {
            pose(&rig, &mut inst, f64::from(f) / fps, true);
            js.update(&rig, &jr, &mut inst, 1.0 / fps);
            if f % per == 0 {
                out.push((js.sim().bones.clone(), inst.world.clone()));
            }
        }
        (out, js.steps_total())
    };
    let (base, steps) = run(60.0);
    assert_eq!(base.len(), 12);
    // Both chains: hair every 3rd step, arm at the rig's coarse step (2).
    assert!(steps > 40 && steps < 120, "{steps}");
    for fps in [30.0, 144.0] {
        let (other, s) = run(fps);
        assert_eq!(s, steps, "{fps} fps: the same solves");
        for (k, ((b0, w0), (b1, w1))) in base.iter().zip(&other).enumerate() {
            for (x, y) in b0.iter().zip(b1) {
                assert!(
                    (x.tip - y.tip).length() < 1e-9,
                    "{fps} fps sample {k}: {x:?} vs {y:?}"
                );
            }
            for (x, y) in w0.iter().zip(w1) {
                let d = [
                    x.a - y.a,
                    x.b - y.b,
                    x.c - y.c,
                    x.d - y.d,
                    x.x - y.x,
                    x.y - y.y,
                ];
                assert!(
                    d.iter().all(|v| v.abs() < 1e-9),
                    "{fps} fps sample {k}: {x:?} vs {y:?}"
                );
            }
        }
    }
}

#[test]
fn chains_off_or_at_strength_zero_are_not_solved_and_restart_from_rest() {
    let (rig, jr, mut inst, mut js) = setup(false);
    for f in 1..=20 {
        pose(&rig, &mut inst, f64::from(f) / 60.0, false);
        js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
    }
    assert_eq!(js.steps_total(), 20);
    for off in [true, false] {
        if off {
            assert!(js.set_chain_enabled(0, false));
            assert!(!js.set_chain_enabled(3, false));
        } else {
            js.set_chain_enabled(0, true);
            js.set_strength(0, 0.0);
        }
        let steps = js.steps_total();
        for f in 21..=40 {
            pose(&rig, &mut inst, f64::from(f) / 60.0, false);
            let anim = inst.world.clone();
            js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
            assert_eq!(inst.world, anim, "frame {f}: the animated pose, untouched");
        }
        assert_eq!(js.steps_total(), steps, "nothing solved");
        // Back on: from rest on the pose, then simulated.
        js.set_chain_enabled(0, true);
        js.set_strength(0, 1.0);
        pose(&rig, &mut inst, 41.0 / 60.0, false);
        js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
        assert_eq!(js.steps_total(), steps + 1);
        assert_eq!(
            js.sim().bones[0].prev,
            Local::IDENTITY,
            "restarted from rest"
        );
        assert_eq!(js.chain_enabled(0), Some(true));
    }
}

#[test]
fn a_character_outside_the_view_is_culled() {
    let (rig, jr, mut inst, mut js) = setup(false);
    // The default margin is the longest chain: hair1 + hair2 = 40.
    assert_eq!(jr.cull_margin, 40.0);
    assert!(!js.set_view(Some([f64::NAN, 0.0, 1.0, 1.0])));
    assert!(!js.set_view(Some([2.0, 0.0, 1.0, 1.0])));
    assert_eq!(js.view(), None);
    for f in 1..=10 {
        pose(&rig, &mut inst, f64::from(f) / 60.0, false);
        js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
    }
    let steps = js.steps_total();
    // The bones span x in [inst.x - 20, inst.x + 40] or so; a view 1,000 units to the
    // right misses them, one 30 units past the rightmost bone is within the margin.
    let right = inst.world.iter().map(|w| w.x).fold(f64::MIN, f64::max);
    assert!(js.set_view(Some([right + 1000.0, -1e4, right + 2000.0, 1e4])));
    for f in 11..=20 {
        pose(&rig, &mut inst, f64::from(f) / 60.0, false);
        let anim = inst.world.clone();
        js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
        assert!(js.culled());
        assert_eq!(inst.world, anim, "culled: the animated pose");
    }
    assert_eq!(js.steps_total(), steps, "nothing solved while culled");
    let right = inst.world.iter().map(|w| w.x).fold(f64::MIN, f64::max);
    assert!(js.set_view(Some([right + 30.0, -1e4, right + 2000.0, 1e4])));
    pose(&rig, &mut inst, 21.0 / 60.0, false);
    js.update(&rig, &jr, &mut inst, 1.0 / 60.0);
    assert!(!js.culled(), "within the margin");
    assert_eq!(js.sim().bones[0].prev, Local::IDENTITY, "back from rest");
    assert!(js.set_view(None));
    assert!(!js.culled());
}

#[test]
fn mixed_levels_at_144_fps_stay_finite_and_solve_what_is_due() {
    let (rig, jr, mut inst, mut js) = setup(true);
    js.set_chain_every(1, 5);
    let mut tips = Vec2::ZERO;
    for f in 1..=288u32 {
        pose(&rig, &mut inst, f64::from(f) / 144.0, false);
        js.update(&rig, &jr, &mut inst, 1.0 / 144.0);
        for w in &inst.world {
            assert!([w.a, w.b, w.c, w.d, w.x, w.y].iter().all(|v| v.is_finite()));
        }
        tips = js.sim().bones[2].tip;
    }
    // 2 s at 60 Hz: the hair solves every step, so every step counts.
    assert_eq!(js.steps_total(), 120);
    assert!(tips.is_finite());
}
