//! The same jiggle solver on 3D transforms (glam `Vec3`/`Quat`, spheres and capsules), for
//! engines that are 3D. The engine passes each joint's animated world transform every
//! frame; [`Jiggle3d::update`] returns the simulated world transforms (rotation changed,
//! and translation for soft tissue). Internally f64 ([`glam::DVec3`], [`glam::DQuat`]),
//! on the shared fixed-step [`FixedClock`] with inputs interpolated across steps and the
//! display at the frame's own time, exactly like the 2D rig stage. Stretch is not applied in 3D (keep `max_stretch` at 0).
//!
//! Verified by `tests.rs`: the three-vrm reference trajectories (step, gravity, sphere
//! collider) at 60 Hz, and frame-rate independence at 30/60/144 fps.

use super::chain::{AnimPoints, ChainSettings, Env, JiggleSim, Link, Pose};
use super::collider::Shape;
use super::params::JiggleParams;
use crate::sim::clock::{ClockSettings, FixedClock};
use glam::{DQuat, DVec3, Quat, Vec3};

/// A joint's world transform.
///
/// Owner: the 3D jiggle solver, run by a 3D engine once per frame (`Jiggle3d::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform3 {
    /// World position.
    pub translation: Vec3,
    /// World rotation.
    pub rotation: Quat,
}

/// A collider in world space.
///
/// Owner: the 3D jiggle solver, run by a 3D engine once per frame (`Jiggle3d::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Collider3 {
    /// Sphere.
    Sphere {
        /// Centre.
        center: Vec3,
        /// Radius.
        radius: f32,
    },
    /// Capsule between two points.
    Capsule {
        /// Start.
        a: Vec3,
        /// End.
        b: Vec3,
        /// Radius.
        radius: f32,
    },
}

/// One simulated joint.
///
/// Owner: the 3D jiggle solver, run by a 3D engine once per frame (`Jiggle3d::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Joint3 {
    /// Nearest simulated ancestor (index into the joint list; smaller), if any.
    pub parent: Option<u32>,
    /// Chain (parameters, colliders).
    pub chain: u32,
    /// The joint's tail in its own space (e.g. its child's local position).
    pub tail: Vec3,
}

/// A chain's parameters and the colliders (indices into the frame's collider list) it hits.
///
/// Owner: the 3D jiggle solver, run by a 3D engine once per frame (`Jiggle3d::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct Chain3 {
    /// Parameters.
    pub params: JiggleParams,
    /// Collider indices.
    pub colliders: Vec<u32>,
}

/// Jiggle joints for a 3D engine.
///
/// Owner: the 3D jiggle solver, run by a 3D engine once per frame (`Jiggle3d::update`).
#[derive(Debug, Clone)]
pub struct Jiggle3d {
    sim: JiggleSim<DVec3>,
    clock: FixedClock,
    tails: Vec<DVec3>,
    anim_prev: Vec<AnimPoints<DVec3>>,
    anim_cur: Vec<AnimPoints<DVec3>>,
    anim_step: Vec<AnimPoints<DVec3>>,
    rot_anim: Vec<DQuat>,
    shapes_prev: Vec<Shape<DVec3>>,
    shapes_cur: Vec<Shape<DVec3>>,
    shapes_step: Vec<Shape<DVec3>>,
    poses: Vec<Pose<DVec3>>,
    /// Per-chain strength, 0..1.
    pub strength: Vec<f64>,
    needs_reset: bool,
}

impl Jiggle3d {
    /// Joints (parent-first), chains and a collider count; the clock's step drives the
    /// simulation. Parameters are validated by the caller ([`JiggleParams::validate`]).
    pub fn new(
        joints: &[Joint3],
        chains: &[Chain3],
        colliders: usize,
        clock: ClockSettings,
    ) -> Self {
        let clock = FixedClock::new(clock);
        let h = clock.step();
        let mut index = Vec::new();
        let mut settings = Vec::new();
        for c in chains {
            let start = index.len() as u32;
            index.extend(c.colliders.iter().copied());
            settings.push(ChainSettings::new(
                c.params,
                h,
                1,
                (start, index.len() as u32),
            ));
        }
        let links: Vec<Link> = joints
            .iter()
            .map(|j| Link {
                parent: j.parent,
                chain: j.chain,
            })
            .collect();
        let n = joints.len();
        let rest = AnimPoints {
            origin: DVec3::ZERO,
            tip: DVec3::ZERO,
        };
        let shape = Shape::Sphere {
            center: DVec3::ZERO,
            radius: 0.0,
        };
        let pose = Pose {
            rot: DQuat::IDENTITY,
            origin: DVec3::ZERO,
            dir: DVec3::X,
            stretch: 1.0,
        };
        Jiggle3d {
            sim: JiggleSim::new(links, settings, index),
            clock,
            tails: joints.iter().map(|j| j.tail.as_dvec3()).collect(),
            anim_prev: vec![rest; n],
            anim_cur: vec![rest; n],
            anim_step: vec![rest; n],
            rot_anim: vec![DQuat::IDENTITY; n],
            shapes_prev: vec![shape; colliders],
            shapes_cur: vec![shape; colliders],
            shapes_step: vec![shape; colliders],
            poses: vec![pose; n],
            strength: chains.iter().map(|c| c.params.strength).collect(),
            needs_reset: true,
        }
    }

    /// Re-anchors on the next update.
    pub fn reset(&mut self) {
        self.needs_reset = true;
    }

    /// The clock.
    pub fn clock(&self) -> &FixedClock {
        &self.clock
    }

    /// The solver state.
    pub fn sim(&self) -> &JiggleSim<DVec3> {
        &self.sim
    }

    /// Advances by a frame of `dt` seconds. `pose` holds each joint's animated world
    /// transform, `colliders` the colliders' world shapes; `out` receives the simulated
    /// world transforms (one per joint). Allocation-free.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        dt: f64,
        pose: &[Transform3],
        colliders: &[Collider3],
        gravity: Vec3,
        wind: Vec3,
        out: &mut [Transform3],
    ) {
        for (k, t) in pose.iter().enumerate().take(self.anim_cur.len()) {
            let (p, r) = (t.translation.as_dvec3(), t.rotation.as_dquat());
            self.rot_anim[k] = r;
            self.anim_cur[k] = AnimPoints {
                origin: p,
                tip: p + r * self.tails[k],
            };
        }
        for (k, c) in colliders.iter().enumerate().take(self.shapes_cur.len()) {
            self.shapes_cur[k] = match *c {
                Collider3::Sphere { center, radius } => Shape::Sphere {
                    center: center.as_dvec3(),
                    radius: f64::from(radius),
                },
                Collider3::Capsule { a, b, radius } => Shape::Capsule {
                    a: a.as_dvec3(),
                    b: b.as_dvec3(),
                    radius: f64::from(radius),
                },
            };
        }
        if self.needs_reset {
            self.sim.reset(&self.anim_cur);
            self.anim_prev.copy_from_slice(&self.anim_cur);
            self.shapes_prev.copy_from_slice(&self.shapes_cur);
            self.clock.reset();
            self.needs_reset = false;
        }
        let env = Env::new(gravity.as_dvec3(), wind.as_dvec3());
        let n = self.clock.advance(dt);
        for j in 0..n {
            let s = self.clock.step_fraction(j);
            for (k, o) in self.anim_step.iter_mut().enumerate() {
                *o = self.anim_prev[k].lerp(&self.anim_cur[k], s);
            }
            for (k, o) in self.shapes_step.iter_mut().enumerate() {
                *o = self.shapes_prev[k].lerp(&self.shapes_cur[k], s);
            }
            self.sim.step(
                &self.anim_step,
                &self.shapes_step,
                &env,
                &self.strength,
                false,
            );
        }
        self.anim_prev.copy_from_slice(&self.anim_cur);
        self.shapes_prev.copy_from_slice(&self.shapes_cur);
        // The state at the frame's own time, as in the 2D stage: the last step on the step
        // grid, otherwise the last step advanced by the rest of a step (not kept).
        let since = self.clock.alpha();
        if since <= super::state::ON_GRID {
            self.sim.display(&self.anim_cur, 1.0, &mut self.poses);
        } else {
            self.sim.preview(
                &self.anim_cur,
                &self.shapes_cur,
                &env,
                &self.strength,
                false,
                since,
                &mut self.poses,
            );
        }
        for (k, o) in out.iter_mut().enumerate().take(self.poses.len()) {
            let p = &self.poses[k];
            if p.origin.is_finite() {
                *o = Transform3 {
                    translation: p.origin.as_vec3(),
                    rotation: (p.rot * self.rot_anim[k]).normalize().as_quat(),
                };
            }
        }
    }

    /// World tip positions after the last step (not interpolated), for tests and debugging.
    pub fn tips(&self) -> impl Iterator<Item = DVec3> + '_ {
        self.sim.bones.iter().map(|b| b.tip)
    }
}
