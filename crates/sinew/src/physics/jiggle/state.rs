//! Per-instance jiggle state and the frame stage that runs it on a posed 2D instance.
//!
//! [`JiggleState::update`] runs after `skeleton::update_world_transform` (world matrices
//! final): it reads the jiggle bones' animated world transforms (their targets) and the
//! colliders' bones, advances the fixed-step [`FixedClock`] (inputs interpolated across
//! substeps), steps the solver, and writes the displayed result into the jiggle bones'
//! world transforms. The display is the simulation at the frame's own time, never a step
//! behind: a frame on the step grid shows the step just taken (at 60 fps with a 60 Hz step,
//! every frame shows the step of its own time, with this frame's pose as its input); a frame
//! between steps shows the last step advanced by the remaining part of a step toward this
//! frame's pose ([`JiggleSim::preview`](super::chain::JiggleSim::preview), not kept, so the
//! stepped trajectory stays the same at every frame rate). On the frame an animated parent
//! jumps, the jiggle bones therefore show where the physics has them (not yet moved, or
//! moved part or all of one step), never a copy of the jump. It then re-poses the non-jiggle
//! descendants in plan order and recomputes the jiggle bones' applied locals, so children
//! follow and the pose stays consistent. Everything is sized in [`JiggleState::new`]; a frame
//! allocates nothing.

mod control;

use super::attach::JiggleRig;
use super::chain::{AnimPoints, ChainRun, Env, JiggleSim, Pose};
use super::collider::Shape;
use super::desc::ColliderShape;
use crate::instance::Instance;
use crate::instance::plan::PlanOp;
use crate::math::{Vec2, WorldTransform};
use crate::rig::Rig;
use crate::sim::clock::FixedClock;
use crate::sim::vec::SimVec;

/// Level of detail of one instance's jiggle simulation.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lod {
    /// Every fixed step.
    #[default]
    Full,
    /// Every chain solved only every `coarse_step`-th fixed step (or its own coarser
    /// level, [`JiggleState::set_chain_every`]), with steps that long; frames show the
    /// last two solves interpolated, with no solve in between.
    Coarse,
    /// No simulation: the last offsets are held.
    Frozen,
}

/// Below this fraction of a step past the last step, a frame counts as on the step grid
/// (the clock's own rounding slack is 1e-9 of a step).
pub(super) const ON_GRID: f64 = 1e-9;

/// The coarse step multiple the rig's chain settings were built with.
pub(super) fn coarse_multiple(jr: &JiggleRig) -> u32 {
    jr.lod.coarse_step.clamp(1, 16)
}

/// Gravity and wind (with its gust) at simulated time `t`.
pub(super) fn environment(jr: &JiggleRig, t: f64) -> Env<Vec2> {
    let gust = 1.0 + jr.gust.amplitude * (std::f64::consts::TAU * jr.gust.frequency * t).sin();
    Env::new(jr.gravity, jr.wind * gust)
}

/// One instance's jiggle state.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone)]
pub struct JiggleState {
    sim: JiggleSim<Vec2>,
    clock: FixedClock,
    anim_prev: Vec<AnimPoints<Vec2>>,
    anim_cur: Vec<AnimPoints<Vec2>>,
    anim_step: Vec<AnimPoints<Vec2>>,
    world_anim: Vec<WorldTransform>,
    shapes_prev: Vec<Shape<Vec2>>,
    shapes_cur: Vec<Shape<Vec2>>,
    shapes_step: Vec<Shape<Vec2>>,
    poses: Vec<Pose<Vec2>>,
    strength: Vec<f64>,
    /// Per chain: (target strength, change per second).
    fade: Vec<(f64, f64)>,
    lod: Lod,
    needs_reset: bool,
    steps_total: u64,
    /// Per chain: solved every this many fixed steps (1: every step).
    pub(super) every: Vec<u32>,
    /// Per chain: switched on.
    pub(super) enabled: Vec<bool>,
    /// Per chain: this frame's cue factors on strength, stiffness and damping.
    pub(super) cue: Vec<[f64; 3]>,
    /// Per chain: the stiffness and damping scales and coarse multiple its step
    /// coefficients were computed for.
    tuned: Vec<(f64, f64, u32)>,
    /// Per chain: the strength the solver uses (set or faded, times the cue factor).
    effective: Vec<f64>,
    /// Per chain: solved this frame (on, strength > 0).
    active: Vec<bool>,
    /// Per chain: not solved last frame (restarts from rest when it comes back).
    dormant: Vec<bool>,
    /// Per chain: the clock step of its last solve.
    last_solve: Vec<u64>,
    /// Per chain: a fade started this long before the end of the coming frame (negative:
    /// none).
    pub(super) fade_since: Vec<f64>,
    /// Per chain: whether this frame recomputes its bones' applied locals (every frame but
    /// those of a coarse chain between its solves).
    refresh: Vec<bool>,
    /// Per chain: its root bone (index into the jiggle bones).
    chain_root: Vec<usize>,
    /// Per chain: its driver's speed over the last frame with time, world units/s.
    speed: Vec<f64>,
    /// What each chain does in a step or display (scratch).
    plan: Vec<ChainRun>,
    /// The host's view rectangle `[min x, min y, max x, max y]`, world units, y up.
    view: Option<[f64; 4]>,
    culled: bool,
}

impl JiggleState {
    /// State for one instance of a rig with these jiggle bones, at rest until the first
    /// [`update`](Self::update) anchors it on the pose.
    pub fn new(jr: &JiggleRig) -> Self {
        let n = jr.bones.len();
        let rest = AnimPoints {
            origin: Vec2::ZERO,
            tip: Vec2::ZERO,
        };
        let shape = Shape::Sphere {
            center: Vec2::ZERO,
            radius: 0.0,
        };
        let pose = Pose {
            rot: Vec2::ROT_IDENTITY,
            origin: Vec2::ZERO,
            dir: Vec2::any_unit(),
            stretch: 1.0,
        };
        let nc = jr.colliders.len();
        let chains = jr.chains.len();
        JiggleState {
            sim: JiggleSim::new(
                jr.links.clone(),
                jr.chains.clone(),
                jr.collider_index.clone(),
            ),
            clock: FixedClock::new(jr.clock),
            anim_prev: vec![rest; n],
            anim_cur: vec![rest; n],
            anim_step: vec![rest; n],
            world_anim: vec![WorldTransform::IDENTITY; n],
            shapes_prev: vec![shape; nc],
            shapes_cur: vec![shape; nc],
            shapes_step: vec![shape; nc],
            poses: vec![pose; n],
            strength: jr.chains.iter().map(|c| c.params.strength).collect(),
            fade: jr.chains.iter().map(|c| (c.params.strength, 0.0)).collect(),
            lod: Lod::Full,
            needs_reset: true,
            steps_total: 0,
            every: vec![1; chains],
            enabled: vec![true; chains],
            cue: vec![[1.0; 3]; chains],
            tuned: vec![(1.0, 1.0, coarse_multiple(jr)); chains],
            effective: vec![1.0; chains],
            active: vec![true; chains],
            dormant: vec![false; chains],
            last_solve: vec![0; chains],
            fade_since: vec![-1.0; chains],
            plan: vec![ChainRun::Solve { coarse: false }; chains],
            refresh: vec![true; chains],
            chain_root: (0..chains)
                .map(|ci| {
                    jr.links
                        .iter()
                        .position(|l| l.chain as usize == ci)
                        .unwrap_or(0)
                })
                .collect(),
            speed: vec![0.0; chains],
            view: None,
            culled: false,
        }
    }

    /// Whether `jr` was built for `rig`, `inst` is the rig's and this state was made for
    /// `jr`'s bones, chains and colliders: [`JiggleState::update`] does nothing otherwise.
    pub fn fits(&self, rig: &Rig, jr: &JiggleRig, inst: &Instance) -> bool {
        let n = jr.bones.len();
        jr.rig_uid == rig.uid
            && jr.is_jiggle.len() == rig.bones.len()
            && jr.bones.iter().all(|b| b.index() < rig.bones.len())
            && inst.is_for(rig)
            && [&self.anim_prev, &self.anim_cur, &self.anim_step]
                .iter()
                .all(|v| v.len() == n)
            && self.world_anim.len() == n
            && self.poses.len() == n
            && [
                self.strength.len(),
                self.fade.len(),
                self.every.len(),
                self.enabled.len(),
                self.cue.len(),
                self.tuned.len(),
                self.effective.len(),
                self.active.len(),
                self.dormant.len(),
                self.last_solve.len(),
                self.fade_since.len(),
                self.plan.len(),
                self.refresh.len(),
                self.chain_root.len(),
                self.speed.len(),
            ]
            .iter()
            .all(|&l| l == jr.chains.len())
            && self.shapes_cur.len() == jr.colliders.len()
            && self.shapes_prev.len() == jr.colliders.len()
            && self.shapes_step.len() == jr.colliders.len()
    }

    /// Re-anchors on the next update (after a teleport, a cut, a respawn).
    pub fn reset(&mut self) {
        self.needs_reset = true;
    }

    /// The clock (time scale, step count).
    pub fn clock(&self) -> &FixedClock {
        &self.clock
    }

    /// The clock, to change its time scale or substep cap.
    pub fn clock_mut(&mut self) -> &mut FixedClock {
        &mut self.clock
    }

    /// The solver state (positions and velocities of every jiggle bone).
    pub fn sim(&self) -> &JiggleSim<Vec2> {
        &self.sim
    }

    /// Fixed steps taken since creation (all levels of detail).
    pub fn steps_total(&self) -> u64 {
        self.steps_total
    }

    /// A chain's current strength.
    pub fn strength(&self, chain: usize) -> f64 {
        self.strength.get(chain).copied().unwrap_or(0.0)
    }

    /// Sets a chain's strength now (0: the animated pose, 1: full simulation).
    pub fn set_strength(&mut self, chain: usize, s: f64) {
        if let (Some(v), Some(f)) = (self.strength.get_mut(chain), self.fade.get_mut(chain)) {
            let s = if s.is_finite() { s.clamp(0.0, 1.0) } else { *v };
            *v = s;
            *f = (s, 0.0);
            self.fade_since[chain] = -1.0;
        }
    }

    /// Fades a chain's strength to `target` over `seconds` of real time.
    pub fn fade_strength(&mut self, chain: usize, target: f64, seconds: f64) {
        let Some(&cur) = self.strength.get(chain) else {
            return;
        };
        let target = if target.is_finite() {
            target.clamp(0.0, 1.0)
        } else {
            cur
        };
        if !(seconds.is_finite() && seconds > 0.0) {
            self.set_strength(chain, target);
            return;
        }
        self.fade[chain] = (target, (target - cur).abs() / seconds);
    }

    /// The level of detail.
    pub fn lod(&self) -> Lod {
        self.lod
    }

    /// Sets the level of detail of every chain. Leaving `Frozen` re-anchors on the pose.
    pub fn set_lod(&mut self, _jr: &JiggleRig, lod: Lod) {
        if lod == self.lod {
            return;
        }
        if self.lod == Lod::Frozen {
            self.needs_reset = true;
        }
        self.lod = lod;
    }

    /// Picks the level of detail from a view distance and the rig's thresholds.
    pub fn set_view_distance(&mut self, jr: &JiggleRig, distance: f64) {
        let lod = if distance > jr.lod.freeze_beyond {
            Lod::Frozen
        } else if distance > jr.lod.coarse_beyond {
            Lod::Coarse
        } else {
            Lod::Full
        };
        self.set_lod(jr, lod);
    }

    /// Runs the jiggle stage for a frame of `dt` seconds on a posed instance (after
    /// `skeleton::update_world_transform`). Allocation-free.
    ///
    /// While every chain is on, at strength > 0, solved every step and not culled, this is
    /// the stage the module docs describe. Otherwise each chain does what its level says
    /// (`control.rs`): chains off or at strength 0 are not solved and show the animated
    /// pose (back on, they restart from rest); coarse chains are solved every N-th step and
    /// show their last two solves interpolated; a character outside the view rectangle is
    /// not solved or written at all.
    pub fn update(&mut self, rig: &Rig, jr: &JiggleRig, inst: &mut Instance, dt: f64) {
        if !self.fits(rig, jr, inst) {
            return;
        }
        let real_dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        self.advance_fades(real_dt);
        if self.cull(jr, inst) {
            return;
        }
        self.read_pose(jr, inst);
        if !self.needs_reset && self.teleported(jr) {
            self.needs_reset = true;
        }
        if self.needs_reset {
            self.sim.reset(&self.anim_cur);
            self.anim_prev.copy_from_slice(&self.anim_cur);
            self.shapes_prev.copy_from_slice(&self.shapes_cur);
            self.clock.reset();
            self.last_solve.fill(0);
            self.dormant.fill(false);
            self.needs_reset = false;
        }
        if !self.prepare_chains(jr, real_dt) {
            self.planned_frame(jr, real_dt);
            if self.active.contains(&true) {
                self.write_pose(rig, jr, inst);
            }
            self.end_frame();
            return;
        }
        let coarse = false;
        if self.lod != Lod::Frozen {
            let n = self.clock.advance(real_dt);
            let first = self.clock.steps() - u64::from(n);
            for j in 0..n {
                let s = self.clock.step_fraction(j);
                self.inputs_at(s);
                let t = (first + u64::from(j) + 1) as f64 * self.clock.step();
                let env = environment(jr, t);
                self.sim.step(
                    &self.anim_step,
                    &self.shapes_step,
                    &env,
                    &self.effective,
                    coarse,
                );
            }
            self.steps_total += u64::from(n);
        }
        // Display the state at the frame's own time: on the step grid (and when frozen) the
        // last step's outputs on this frame's pose, which is that step's pose; between steps
        // the last step advanced by the part of a step up to the frame (not kept).
        let since = self.clock.alpha();
        if self.lod == Lod::Frozen || since <= ON_GRID {
            self.sim.display(&self.anim_cur, 1.0, &mut self.poses);
        } else {
            let t = (self.clock.steps() as f64 + since) * self.clock.step();
            let env = environment(jr, t);
            self.sim.preview(
                &self.anim_cur,
                &self.shapes_cur,
                &env,
                &self.effective,
                coarse,
                since,
                &mut self.poses,
            );
        }
        self.refresh.fill(true);
        self.write_pose(rig, jr, inst);
        self.end_frame();
    }

    /// This frame's pose becomes the previous one (a swap: the next frame's `read_pose`
    /// overwrites every current entry).
    fn end_frame(&mut self) {
        std::mem::swap(&mut self.anim_prev, &mut self.anim_cur);
        std::mem::swap(&mut self.shapes_prev, &mut self.shapes_cur);
    }

    /// The frame's inputs at fraction `s` of it: animated points and collider shapes.
    fn inputs_at(&mut self, s: f64) {
        for (k, out) in self.anim_step.iter_mut().enumerate() {
            *out = self.anim_prev[k].lerp(&self.anim_cur[k], s);
        }
        for (k, out) in self.shapes_step.iter_mut().enumerate() {
            *out = self.shapes_prev[k].lerp(&self.shapes_cur[k], s);
        }
    }

    /// A frame in which some chain is off, at strength 0 or coarse, or the whole character
    /// coarse: each fixed step solves only the chains due (`plan_step`), and the display
    /// shows solved chains at the frame's time, coarse ones interpolated, off ones animated.
    fn planned_frame(&mut self, jr: &JiggleRig, real_dt: f64) {
        let start = self.clock.steps();
        if self.lod != Lod::Frozen {
            let n = self.clock.advance(real_dt);
            let first = self.clock.steps() - u64::from(n);
            for j in 0..n {
                let g = first + u64::from(j) + 1;
                if !self.plan_step(jr, g) {
                    continue;
                }
                let s = self.clock.step_fraction(j);
                self.inputs_at(s);
                let env = environment(jr, g as f64 * self.clock.step());
                self.sim.step_plan(
                    &self.anim_step,
                    &self.shapes_step,
                    &env,
                    &self.effective,
                    &self.plan,
                );
                self.steps_total += 1;
            }
        }
        let since = self.clock.alpha();
        let any_solved = self.plan_display(jr, since);
        // A coarse chain's applied locals follow its solves, not every frame in between
        // (the world transforms, what is drawn, move every frame).
        for (ci, r) in self.refresh.iter_mut().enumerate() {
            *r = self.lod == Lod::Frozen
                || !matches!(self.plan[ci], ChainRun::Show(_))
                || self.last_solve[ci] > start;
        }
        if since <= ON_GRID || !any_solved {
            self.sim
                .display_plan(&self.anim_cur, &self.plan, &mut self.poses);
        } else {
            let t = (self.clock.steps() as f64 + since) * self.clock.step();
            let env = environment(jr, t);
            self.sim.preview_plan(
                &self.anim_cur,
                &self.shapes_cur,
                &env,
                &self.effective,
                &self.plan,
                since,
                &mut self.poses,
            );
        }
    }

    fn advance_fades(&mut self, dt: f64) {
        for ((s, &(target, rate)), since) in self
            .strength
            .iter_mut()
            .zip(&self.fade)
            .zip(&mut self.fade_since)
        {
            // A fade an event started part way through this frame runs only that part.
            let dt = if *since >= 0.0 { since.min(dt) } else { dt };
            *since = -1.0;
            if rate > 0.0 {
                let step = rate * dt;
                *s = if (target - *s).abs() <= step {
                    target
                } else {
                    *s + step.copysign(target - *s)
                };
            }
        }
    }

    /// Reads the animated pose of the jiggle bones and the colliders' world shapes.
    fn read_pose(&mut self, jr: &JiggleRig, inst: &Instance) {
        for (k, &b) in jr.bones.iter().enumerate() {
            let w = match jr.drivers[k] {
                Some((d, rel)) => inst.world[d.index()] * rel,
                None => inst.world[b.index()],
            };
            self.world_anim[k] = w;
            self.anim_cur[k] = AnimPoints {
                origin: w.translation(),
                tip: w.apply(Vec2::new(jr.tip_lengths[k], 0.0)),
            };
        }
        for (k, col) in jr.colliders.iter().enumerate() {
            let w = &inst.world[col.bone.index()];
            let pt = |p: [f64; 2]| w.apply(Vec2::from(p));
            self.shapes_cur[k] = match col.shape {
                ColliderShape::Circle { offset, radius } => Shape::Sphere {
                    center: pt(offset),
                    radius,
                },
                ColliderShape::Capsule {
                    offset,
                    tail,
                    radius,
                } => Shape::Capsule {
                    a: pt(offset),
                    b: pt(tail),
                    radius,
                },
            };
        }
    }

    /// Whether a bone without a jiggle ancestor jumped farther than the teleport distance.
    fn teleported(&self, jr: &JiggleRig) -> bool {
        if !jr.teleport_distance.is_finite() {
            return false;
        }
        jr.links.iter().enumerate().any(|(k, l)| {
            l.parent.is_none()
                && (self.anim_cur[k].origin - self.anim_prev[k].origin).length()
                    > jr.teleport_distance
        }) || self
            .anim_cur
            .iter()
            .any(|a| !(a.origin.is_finite() && a.tip.is_finite()))
    }

    /// Writes the displayed poses into the instance and re-poses what hangs below them.
    fn write_pose(&self, rig: &Rig, jr: &JiggleRig, inst: &mut Instance) {
        for (k, &b) in jr.bones.iter().enumerate() {
            if !inst.bone_active[b.index()] {
                continue;
            }
            let p = &self.poses[k];
            if !(p.origin.is_finite() && p.dir.is_finite()) {
                continue;
            }
            let w = self.world_anim[k];
            let (c, s) = (p.rot.c, p.rot.s);
            // Rotate the animated linear part, then stretch along the bone's direction.
            let (mut a, mut bb, mut cc, mut d) = (
                c * w.a - s * w.c,
                c * w.b - s * w.d,
                s * w.a + c * w.c,
                s * w.b + c * w.d,
            );
            if p.stretch != 1.0 {
                let (ux, uy, e) = (p.dir.x, p.dir.y, p.stretch - 1.0);
                let (s00, s01, s11) = (1.0 + e * ux * ux, e * ux * uy, 1.0 + e * uy * uy);
                (a, bb, cc, d) = (
                    s00 * a + s01 * cc,
                    s00 * bb + s01 * d,
                    s01 * a + s11 * cc,
                    s01 * bb + s11 * d,
                );
            }
            inst.world[b.index()] = WorldTransform {
                a,
                b: bb,
                c: cc,
                d,
                x: p.origin.x,
                y: p.origin.y,
            };
        }
        for i in 0..inst.plan.len() {
            if let PlanOp::Bone(b) = inst.plan[i]
                && jr.repose[b.index()]
            {
                crate::bone::update_bone_world(rig, inst, b);
            }
        }
        for (&b, link) in jr.bones.iter().zip(&jr.links) {
            if inst.bone_active[b.index()] && self.refresh[link.chain as usize] {
                crate::bone::update_applied_transform(rig, inst, b);
            }
        }
    }
}
