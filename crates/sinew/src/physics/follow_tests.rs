//! Delayed follow: closed forms (constant angular speed lags by exactly `delay`), frame-rate
//! agreement on smooth motion, mix 0, world space and offsets, children re-posed, the oldest
//! value before enough history, reset, and errors naming the follow and the culprit.

use super::follow::*;
use crate::character::Character;
use crate::raw::{RawBone, RawRig};
use crate::rig::LocalPose;
use std::sync::Arc;

/// root -> src (x 10); root -> fol (x 30) -> tip (x 20).
fn rig() -> Arc<crate::Rig> {
    let mut raw = RawRig::default();
    let mut bone = |name: &str, parent: Option<&str>, x: f64| {
        let mut b = RawBone::new(name, parent);
        b.x = x;
        b.length = 10.0;
        raw.bones.push(b);
    };
    bone("root", None, 0.0);
    bone("src", Some("root"), 10.0);
    bone("fol", Some("root"), 30.0);
    bone("tip", Some("fol"), 20.0);
    let mut rig = crate::build::build_rig(&raw).unwrap_or_else(|e| panic!("rig: {e}"));
    // Exact degree conversions, so closed forms hold to rounding (Spine's float pi is off
    // by 1e-7 relative).
    rig.exact_angles = true;
    Arc::new(rig)
}

fn character(descs: &[FollowDesc]) -> Character {
    let rig = rig();
    let fr = FollowRig::build(&rig, descs).unwrap_or_else(|e| panic!("follows: {e}"));
    let mut c = Character::new(rig);
    c.set_follows(Some(Arc::new(fr)))
        .expect("built for this rig");
    c
}

fn local(x: f64, y: f64, rotation: f64) -> LocalPose {
    LocalPose {
        x,
        y,
        rotation,
        ..LocalPose::IDENTITY
    }
}

/// Runs `frames` frames at `fps` with the source's local rotation `f(t)` and its x `g(t)`,
/// returning (t, follower world rotation, follower world x, tip world x, y) per frame.
fn run(
    c: &mut Character,
    fps: f64,
    frames: usize,
    f: impl Fn(f64) -> f64,
    g: impl Fn(f64) -> f64,
) -> Vec<(f64, f64, f64, f64, f64)> {
    let src = c.find_bone("src").expect("src");
    let fol = c.find_bone("fol").expect("fol");
    let tip = c.find_bone("tip").expect("tip");
    let mut out = Vec::new();
    for k in 1..=frames {
        let t = k as f64 / fps;
        c.set_bone_local(src, local(g(t), 0.0, f(t))).expect("src");
        c.update(1.0 / fps);
        let w = c.bone_world(fol).expect("fol");
        let tw = c.bone_world(tip).expect("tip");
        out.push((t, w.c.atan2(w.a).to_degrees(), w.x, tw.x, tw.y));
    }
    out
}

fn wrap(d: f64) -> f64 {
    crate::math::wrap_degrees(d)
}

#[test]
fn constant_angular_speed_lags_by_exactly_the_delay() {
    let speed = 250.0; // degrees per second: wraps past 180 more than once in 3 s
    let delay = 0.3;
    for fps in [24.0, 30.0, 60.0, 144.0] {
        let mut d = FollowDesc::new("lag", "fol", "src");
        d.delay = delay;
        let mut c = character(&[d]);
        let frames = (3.0 * fps) as usize;
        let mut worst = 0.0f64;
        for (t, rot, _, tip_x, tip_y) in run(&mut c, fps, frames, |t| speed * t, |_| 10.0) {
            let first = 1.0 / fps;
            let want = speed * (t - delay).max(first);
            let err = wrap(rot - want).abs();
            worst = worst.max(err);
            // The child follows its re-posed parent.
            let r = rot.to_radians();
            assert!(
                (tip_x - (30.0 + 20.0 * r.cos())).abs() < 1e-9,
                "tip x at {t}"
            );
            assert!((tip_y - 20.0 * r.sin()).abs() < 1e-9, "tip y at {t}");
        }
        assert!(worst < 1e-9, "{fps} fps: lag error {worst} degrees");
        eprintln!("{fps} fps: lag error {worst:.1e} degrees");
    }
}

#[test]
fn before_enough_history_the_oldest_value() {
    let mut d = FollowDesc::new("lag", "fol", "src");
    d.delay = 0.5;
    let mut c = character(&[d]);
    let rows = run(&mut c, 60.0, 40, |t| 100.0 * t + 5.0, |_| 10.0);
    let oldest = 100.0 / 60.0 + 5.0;
    for (t, rot, ..) in &rows[..29] {
        assert!((rot - oldest).abs() < 1e-9, "at {t}: {rot}");
    }
    // From t = delay + first frame on, the real lag.
    let (t, rot, ..) = rows[35];
    assert!((rot - (100.0 * (t - 0.5) + 5.0)).abs() < 1e-9);
}

/// Runs a smooth motion (rotation and translation sines) at `fps`, with the follow in
/// `space`, and samples the follower at every 1/6 s.
fn smooth(fps: f64, space: FollowSpace) -> Vec<(f64, f64, f64)> {
    let mut d = FollowDesc::new("lag", "fol", "src");
    d.delay = 0.1375; // not a multiple of any frame time below
    d.mix = 0.7;
    d.space = space;
    d.translate = true;
    d.offset.rotate = 10.0;
    d.offset.x = 15.0;
    let mut c = character(&[d]);
    let frames = (4.0 * fps).round() as usize;
    let rows = run(
        &mut c,
        fps,
        frames,
        |t| 40.0 * (std::f64::consts::TAU * 0.8 * t).sin(),
        |t| 10.0 + 25.0 * (std::f64::consts::TAU * 0.5 * t).cos(),
    );
    let step = (fps / 6.0).round() as usize;
    rows.iter()
        .skip(step - 1)
        .step_by(step)
        .map(|r| (r.0, r.1, r.2))
        .collect()
}

#[test]
fn thirty_sixty_and_144_fps_agree_on_smooth_motion() {
    for space in [FollowSpace::Local, FollowSpace::World] {
        let a = smooth(30.0, space);
        let b = smooth(60.0, space);
        let c = smooth(144.0, space);
        assert_eq!(a.len(), b.len());
        assert_eq!(a.len(), c.len());
        let (mut rot, mut pos) = (0.0f64, 0.0f64);
        for ((x, y), z) in a.iter().zip(&b).zip(&c) {
            assert!((x.0 - z.0).abs() < 1e-9 && (x.0 - y.0).abs() < 1e-9);
            // Skip the first frames (the oldest value differs by frame rate).
            if x.0 < 0.5 {
                continue;
            }
            for (p, q) in [(x, y), (x, z), (y, z)] {
                rot = rot.max(wrap(p.1 - q.1).abs());
                pos = pos.max((p.2 - q.2).abs());
            }
        }
        assert!(rot < 1e-3, "{space:?}: rotation spread {rot} degrees");
        assert!(pos < 1e-3, "{space:?}: translation spread {pos} units");
        eprintln!("{space:?}: fps spread rotation {rot:.2e} deg, translation {pos:.2e}");
    }
}

#[test]
fn mix_zero_is_the_own_pose_and_mix_blends() {
    let mut d = FollowDesc::new("lag", "fol", "src");
    d.delay = 0.2;
    d.mix = 0.0;
    d.translate = true;
    d.scale = true;
    let mut c = character(&[d.clone()]);
    let mut plain = Character::new(rig());
    let a = run(&mut c, 60.0, 60, |t| 90.0 * t, |t| 5.0 * t);
    let b = run(&mut plain, 60.0, 60, |t| 90.0 * t, |t| 5.0 * t);
    assert_eq!(a, b, "mix 0 changes nothing, bit for bit");

    // Mix 0.25 on rotation: a quarter of the way to the delayed source.
    d.mix = 0.25;
    d.translate = false;
    d.scale = false;
    let mut c = character(&[d]);
    for (t, rot, x, ..) in run(&mut c, 60.0, 120, |t| 90.0 * t, |_| 10.0) {
        if t > 0.25 {
            assert!(
                (rot - 0.25 * 90.0 * (t - 0.2)).abs() < 1e-9,
                "at {t}: {rot}"
            );
            assert!((x - 30.0).abs() < 1e-12, "translation is off");
        }
    }
}

#[test]
fn world_space_translation_and_scale_with_offsets() {
    let mut d = FollowDesc::new("trail", "fol", "src");
    d.delay = 0.25;
    d.space = FollowSpace::World;
    d.rotate = false;
    d.translate = true;
    d.scale = true;
    d.offset.y = 4.0;
    d.offset.scale_x = 0.5;
    let mut c = character(&[d]);
    let src = c.find_bone("src").expect("src");
    let fol = c.find_bone("fol").expect("fol");
    c.set_position(100.0, 0.0);
    for k in 1..=90 {
        let t = f64::from(k) / 60.0;
        let mut p = local(10.0 + 40.0 * t, 0.0, 30.0);
        p.scale_x = 1.0 + t;
        c.set_bone_local(src, p).expect("src");
        c.update(1.0 / 60.0);
        if t > 0.3 {
            let w = c.bone_world(fol).expect("fol");
            assert!(
                (w.x - (100.0 + 10.0 + 40.0 * (t - 0.25))).abs() < 1e-9,
                "x at {t}"
            );
            assert!((w.y - 4.0).abs() < 1e-9, "y at {t}");
            let sx = w.a.hypot(w.c);
            assert!(
                (sx - (1.0 + (t - 0.25) + 0.5)).abs() < 1e-9,
                "scale {sx} at {t}"
            );
            assert!((w.c.atan2(w.a)).abs() < 1e-12, "rotation is off");
            // The applied pose reproduces the written world transform.
            let a = c.instance().applied[fol.index()];
            assert!((a.x - (w.x - 100.0)).abs() < 1e-9);
        }
    }
}

#[test]
fn reset_forgets_the_history_and_pause_holds_it() {
    let mut d = FollowDesc::new("lag", "fol", "src");
    d.delay = 0.5;
    let mut c = character(&[d]);
    let src = c.find_bone("src").expect("src");
    let fol = c.find_bone("fol").expect("fol");
    run(&mut c, 60.0, 60, |t| 60.0 * t, |_| 10.0);
    let before = c.world_rotation(fol).expect("fol");
    c.set_paused(true);
    for _ in 0..10 {
        c.update(1.0 / 60.0);
    }
    assert!((c.world_rotation(fol).expect("fol") - before).abs() < 1e-9);
    c.set_paused(false);
    c.reset_physics();
    c.set_bone_local(src, local(10.0, 0.0, -20.0)).expect("src");
    c.update(1.0 / 60.0);
    assert!((c.world_rotation(fol).expect("fol") + 20.0).abs() < 1e-9);
}

#[test]
fn deterministic_and_copies_agree() {
    let mut d = FollowDesc::new("lag", "fol", "src");
    d.delay = 0.13;
    d.mix = 0.6;
    let mut a = character(&[d]);
    let mut b = a.clone();
    let ra = run(&mut a, 50.0, 100, |t| 30.0 * (3.0 * t).sin(), |t| t);
    let rb = run(&mut b, 50.0, 100, |t| 30.0 * (3.0 * t).sin(), |t| t);
    assert_eq!(ra, rb);
}

#[test]
fn errors_name_the_follow_and_the_culprit() {
    let rig = rig();
    let mut bad = FollowDesc::new("hair", "wig", "head");
    bad.delay = -1.0;
    bad.mix = 1.5;
    let mut twice = FollowDesc::new("a", "fol", "src");
    twice.offset.x = f64::NAN;
    let again = FollowDesc::new("a", "fol", "src");
    let e = FollowRig::build(&rig, &[bad, twice, again]).expect_err("invalid");
    let text = e.to_string();
    for want in [
        "follow `hair`: unknown bone `wig`",
        "follow `hair`: unknown source bone `head`",
        "follow `hair`: `delay` must be in 0..10 seconds (got -1)",
        "follow `hair`: `mix` must be in 0..1 (got 1.5)",
        "follow `a`: `offset` values must be finite",
        "follow `a`: defined twice",
        "follow `a`: bone `fol` already follows in `a`",
    ] {
        assert!(text.contains(want), "missing `{want}` in {text}");
    }
    assert!(FollowRig::build_with(&rig, &[], 0.0).is_err());
    let ok = FollowRig::build(&rig, &[FollowDesc::new("x", "tip", "src")]).expect("valid");
    assert_eq!(ok.find("x"), Some(0));
    assert_eq!(ok.capacity, 5);
}
