//! The jiggle solver core, written once for any [`SimVec`] space (2D rigs, 3D engines).
//!
//! Bones are listed parent-first; each may have a jiggle ancestor (its nearest one). Each
//! fixed step solves them root to tip:
//! 1. **Targets.** A bone's animated origin and tip (the pose animation and constraints
//!    gave it) are carried along by its jiggle ancestor's simulated motion: rotated by the
//!    ancestor's rotation relative to its own animated pose, stretched with it, and moved
//!    with its origin. A bone without a jiggle ancestor targets its animated points.
//! 2. **Integrate.** Spring model: the tip (and, for soft tissue, the origin) is a damped
//!    spring toward its target plus gravity and wind, advanced with the exact step
//!    ([`ExactStep`](crate::physics::ExactStep)), then optional quadratic drag. Verlet model
//!    (VRM SpringBone): `next = tip + (tip - prev)(1 - drag) + dir * stiffness h + g h`.
//! 3. **Constrain.** Length (exact, or within `max_stretch`), maximum angle from the target
//!    direction, colliders (push out, restore the length; repeated, then a final push so no
//!    tip ends inside a collider). Velocity loses the part that ran into a constraint
//!    (inelastic: constraints never add energy).
//! 4. **Output.** The bone's rotation from its target direction to its simulated one, its
//!    origin offset and stretch, blended by the chain's strength (0..1); children build their
//!    targets from this blended result.
//!
//! Display shows the state at the frame's own time: on the step grid the last step's
//! outputs composed onto the frame's animated points (the step's own pose), between steps a
//! [`JiggleSim::preview`] of the part of a step from the last step to the frame (computed,
//! shown, not kept). Verified by the tests in `tests.rs` (closed forms,
//! three-vrm trajectories, frame-rate independence, energy, colliders).

use super::collider::Shape;
use super::params::{JiggleModel, JiggleParams, StepCoeffs};
use crate::sim::vec::SimVec;

/// Where a jiggle bone sits in the solve.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// Nearest jiggle ancestor (index into the bone list; always smaller), if any.
    pub parent: Option<u32>,
    /// Chain index (parameters, colliders).
    pub chain: u32,
}

/// One chain's settings and its precomputed step coefficients.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct ChainSettings {
    /// Parameters.
    pub params: JiggleParams,
    /// Coefficients for the base step.
    pub coeffs: StepCoeffs,
    /// Coefficients for the coarse (level-of-detail) step.
    pub coarse: StepCoeffs,
    /// Range `[start, end)` of this chain's colliders in [`JiggleSim::collider_index`].
    pub colliders: (u32, u32),
}

impl ChainSettings {
    /// Settings for a step of `h` seconds and a coarse step of `coarse_multiple` of them.
    pub fn new(params: JiggleParams, h: f64, coarse_multiple: u32, colliders: (u32, u32)) -> Self {
        let m = coarse_multiple.max(1);
        ChainSettings {
            params,
            coeffs: StepCoeffs::new(&params, h, 1),
            coarse: StepCoeffs::new(&params, h * f64::from(m), m),
            colliders,
        }
    }
}

/// A bone's animated (target) origin and tip at one instant, world space.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnimPoints<V> {
    /// Origin.
    pub origin: V,
    /// Tip (origin plus the bone's length along its x axis).
    pub tip: V,
}

impl<V: SimVec> AnimPoints<V> {
    /// Linear interpolation.
    #[inline]
    pub fn lerp(&self, o: &Self, t: f64) -> Self {
        AnimPoints {
            origin: self.origin.lerp(o.origin, t),
            tip: self.tip.lerp(o.tip, t),
        }
    }
}

/// A bone's pose relative to its animated pose, in world space.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose<V: SimVec> {
    /// World rotation relative to the animated pose (ancestors' included).
    pub rot: V::Rot,
    /// World origin.
    pub origin: V,
    /// Unit direction from origin to tip.
    pub dir: V,
    /// Length factor along `dir`.
    pub stretch: f64,
}

/// A bone's own output after a step: rotation from its target direction, origin offset,
/// stretch (strength already applied).
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Local<V: SimVec> {
    /// Rotation from the target direction to the simulated one.
    pub rot: V::Rot,
    /// Origin offset from its target, world space.
    pub offset: V,
    /// Length factor.
    pub stretch: f64,
}

impl<V: SimVec> Local<V> {
    /// No change from the target.
    pub const IDENTITY: Self = Local {
        rot: V::ROT_IDENTITY,
        offset: V::ZERO,
        stretch: 1.0,
    };
}

/// One bone's simulation state.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneState<V: SimVec> {
    /// Origin position.
    pub origin: V,
    /// Origin velocity.
    pub origin_vel: V,
    /// Tip position.
    pub tip: V,
    /// Tip position one step ago (Verlet).
    pub tip_prev: V,
    /// Tip velocity (spring model).
    pub tip_vel: V,
    /// Output of the last step.
    pub last: Local<V>,
    /// Output of the step before (display interpolates from it).
    pub prev: Local<V>,
    /// COMPAT(vrm): the child's position from the previous rotations (stale length).
    fk_child: V,
}

/// External accelerations for one step.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Env<V> {
    /// Gravity, units/s².
    pub gravity: V,
    /// Wind, units/s².
    pub wind: V,
    /// Unit gravity direction (zero without gravity), for the Verlet model.
    pub gravity_dir: V,
    /// Wind relative to the gravity magnitude, for the Verlet model.
    pub wind_rel: V,
}

impl<V: SimVec> Env<V> {
    /// An environment with this gravity and wind.
    pub fn new(gravity: V, wind: V) -> Self {
        let g = gravity.length();
        let ok = g > 1e-12 && g.is_finite();
        Env {
            gravity,
            wind,
            gravity_dir: if ok { gravity * (1.0 / g) } else { V::ZERO },
            wind_rel: if ok { wind * (1.0 / g) } else { wind },
        }
    }
}

/// The solver: links, chain settings and per-bone state. Sized once at construction.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone)]
pub struct JiggleSim<V: SimVec> {
    /// Per bone, parent-first.
    pub links: Vec<Link>,
    /// Per chain.
    pub chains: Vec<ChainSettings>,
    /// Collider indices (into the shapes passed to [`JiggleSim::step`]), by chain range.
    pub collider_index: Vec<u32>,
    /// Per-bone state.
    pub bones: Vec<BoneState<V>>,
    /// Composite poses of the last step (scratch for children's targets).
    poses: Vec<Pose<V>>,
    /// Scratch for the COMPAT(vrm) stale-length pass.
    fk_poses: Vec<Pose<V>>,
    any_stale: bool,
    /// Scratch of [`JiggleSim::preview`]: a copy of `bones` advanced part of a step (never
    /// kept), its stale-length poses and each chain's partial-step coefficients.
    preview_bones: Vec<BoneState<V>>,
    preview_fk: Vec<Pose<V>>,
    preview_coeffs: Vec<StepCoeffs>,
}

/// Which coefficients a solve uses.
#[derive(Clone, Copy)]
enum Coeffs<'a> {
    /// The base step.
    Base,
    /// The coarse (level-of-detail) step.
    Coarse,
    /// Per chain, given.
    Given(&'a [StepCoeffs]),
}

/// What a solve does with one chain (one entry per chain; level of detail, chains off).
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ChainRun {
    /// Solved: with the coarse (level-of-detail) coefficients when `coarse`, else with the
    /// step's own.
    Solve {
        /// Use the chain's coarse coefficients.
        coarse: bool,
    },
    /// Not solved: the last two solved outputs interpolated by the factor (0: the one
    /// before, 1: the last), composed onto the animated points. The state is untouched.
    Show(f64),
    /// Not solved: the animated pose (the chain is off). The state is untouched.
    Off,
}

/// A bone's output interpolated between its last two solved ones (`alpha` 1: the last).
#[inline]
fn shown<V: SimVec>(b: &BoneState<V>, alpha: f64) -> Local<V> {
    Local {
        rot: V::rot_nlerp(b.prev.rot, b.last.rot, alpha),
        offset: b.prev.offset.lerp(b.last.offset, alpha),
        stretch: b.prev.stretch + (b.last.stretch - b.prev.stretch) * alpha,
    }
}

/// What a solve reads: the bone graph and settings, shared by committed steps and previews.
struct Solve<'a> {
    links: &'a [Link],
    chains: &'a [ChainSettings],
    collider_index: &'a [u32],
    any_stale: bool,
}

impl Solve<'_> {
    /// Advances `bones` one step (of the length `coeffs` gives) toward `anim`, writing each
    /// bone's composite pose into `poses`; `fk` is the stale-length pass's scratch. `plan`
    /// says per chain whether it is solved, shown from its last solves, or off (a chain past
    /// its end is solved).
    #[allow(clippy::too_many_arguments)]
    fn run<V: SimVec>(
        &self,
        bones: &mut [BoneState<V>],
        poses: &mut [Pose<V>],
        fk: &mut [Pose<V>],
        anim: &[AnimPoints<V>],
        shapes: &[Shape<V>],
        env: &Env<V>,
        strength: &[f64],
        coeffs: Coeffs<'_>,
        plan: &[ChainRun],
    ) {
        if self.any_stale {
            self.stale_pass(bones, fk, anim);
        }
        for i in 0..self.links.len() {
            let (p, q) = targets(self.links, poses, anim, i);
            let link = self.links[i];
            let ci = link.chain as usize;
            let chain = &self.chains[ci];
            let parent_rot = |poses: &[Pose<V>]| {
                link.parent
                    .map_or(V::ROT_IDENTITY, |j| poses[j as usize].rot)
            };
            let coarse = match plan.get(ci) {
                None | Some(ChainRun::Solve { coarse: false }) => false,
                Some(ChainRun::Solve { coarse: true }) => true,
                Some(ChainRun::Show(alpha)) => {
                    let local = shown(&bones[i], *alpha);
                    poses[i] = compose(&local, p, q, parent_rot(poses));
                    continue;
                }
                Some(ChainRun::Off) => {
                    poses[i] = compose(&Local::IDENTITY, p, q, parent_rot(poses));
                    continue;
                }
            };
            let c = match coeffs {
                Coeffs::Base if coarse => &chain.coarse,
                Coeffs::Base => &chain.coeffs,
                Coeffs::Coarse => &chain.coarse,
                Coeffs::Given(all) => all.get(ci).unwrap_or(&chain.coeffs),
            };
            let s = strength.get(ci).copied().unwrap_or(1.0);
            let (cs, ce) = chain.colliders;
            let cols = &self.collider_index[cs as usize..ce as usize];
            let local = step_bone(&mut bones[i], &chain.params, c, p, q, env, shapes, cols, s);
            poses[i] = compose(&local, p, q, parent_rot(poses));
        }
    }

    /// COMPAT(vrm): three-vrm 3.5.5 measures a segment as the distance from the bone's new
    /// origin to where its child was placed with the previous step's rotations on the current
    /// animated pose; this pass computes those child positions.
    fn stale_pass<V: SimVec>(
        &self,
        bones: &mut [BoneState<V>],
        fk: &mut [Pose<V>],
        anim: &[AnimPoints<V>],
    ) {
        for i in 0..self.links.len() {
            let (p, q) = targets(self.links, fk, anim, i);
            let last = bones[i].last;
            bones[i].fk_child = p + last.offset + V::rot_apply(last.rot, q - p);
            let parent_rot = self.links[i]
                .parent
                .map_or(V::ROT_IDENTITY, |j| fk[j as usize].rot);
            fk[i] = compose(&last, p, q, parent_rot);
        }
    }
}

/// The animated point `x` carried along by a parent's pose (`parent_anim` is the parent's
/// animated origin).
#[inline]
fn carry<V: SimVec>(pp: &Pose<V>, parent_anim: V, x: V) -> V {
    let mut off = V::rot_apply(pp.rot, x - parent_anim);
    if pp.stretch != 1.0 {
        off = off + pp.dir * ((pp.stretch - 1.0) * pp.dir.dot(off));
    }
    pp.origin + off
}

/// Target origin and tip of bone `i` from its parent's pose in `poses`.
#[inline]
fn targets<V: SimVec>(
    links: &[Link],
    poses: &[Pose<V>],
    anim: &[AnimPoints<V>],
    i: usize,
) -> (V, V) {
    match links[i].parent {
        None => (anim[i].origin, anim[i].tip),
        Some(j) => {
            let (pp, pa) = (&poses[j as usize], anim[j as usize].origin);
            (carry(pp, pa, anim[i].origin), carry(pp, pa, anim[i].tip))
        }
    }
}

/// The pose of a bone with output `local` and targets `p`, `q`.
#[inline]
fn compose<V: SimVec>(local: &Local<V>, p: V, q: V, parent_rot: V::Rot) -> Pose<V> {
    let a = (q - p).normalize_or(V::any_unit());
    Pose {
        rot: V::rot_mul(local.rot, parent_rot),
        origin: p + local.offset,
        dir: V::rot_apply(local.rot, a),
        stretch: local.stretch,
    }
}

/// Puts `t` at `len` from `o` (within `len (1 +- max_stretch)` when stretch is allowed).
#[inline]
fn constrain_length<V: SimVec>(o: V, t: V, len: f64, max_stretch: f64, fallback: V) -> V {
    let d = t - o;
    let l = d.length();
    let n = if l > 1e-12 { d * (1.0 / l) } else { fallback };
    let want = if max_stretch > 0.0 {
        l.clamp(
            len * (1.0 - max_stretch).max(0.0),
            len * (1.0 + max_stretch),
        )
    } else {
        len
    };
    o + n * want
}

/// Keeps the direction `o -> t` within the angle limit around unit `a`.
#[inline]
fn limit_angle<V: SimVec>(o: V, t: V, a: V, c: &StepCoeffs) -> V {
    let d = t - o;
    let l = d.length();
    if l <= 1e-12 {
        return t;
    }
    let n = d * (1.0 / l);
    let cos = n.dot(a);
    if cos >= c.cos_max_angle {
        return t;
    }
    let perp = (n - a * cos).normalize_or(a.any_perp());
    o + (a * c.cos_max_angle + perp * c.sin_max_angle) * l
}

/// Removes the velocity component that ran into a positional correction.
#[inline]
fn inelastic<V: SimVec>(v: V, corr: V) -> V {
    let l = corr.length();
    if l <= 1e-12 {
        return v;
    }
    let n = corr * (1.0 / l);
    let vn = v.dot(n);
    if vn < 0.0 { v - n * vn } else { v }
}

/// Rounds of push-out and length restore for the spring model.
const COLLIDE_ROUNDS: u32 = 4;

impl<V: SimVec> JiggleSim<V> {
    /// A solver for these bones (parent-first links), chains and collider lists. Call
    /// [`reset`](Self::reset) before the first step.
    pub fn new(links: Vec<Link>, chains: Vec<ChainSettings>, collider_index: Vec<u32>) -> Self {
        let n = links.len();
        let rest = BoneState {
            origin: V::ZERO,
            origin_vel: V::ZERO,
            tip: V::ZERO,
            tip_prev: V::ZERO,
            tip_vel: V::ZERO,
            last: Local::IDENTITY,
            prev: Local::IDENTITY,
            fk_child: V::ZERO,
        };
        let pose = Pose {
            rot: V::ROT_IDENTITY,
            origin: V::ZERO,
            dir: V::any_unit(),
            stretch: 1.0,
        };
        let any_stale = chains
            .iter()
            .any(|c| c.params.model == JiggleModel::Verlet && c.params.vrm_stale_length);
        let preview_coeffs = chains.iter().map(|c| c.coeffs).collect();
        JiggleSim {
            links,
            chains,
            collider_index,
            bones: vec![rest; n],
            poses: vec![pose; n],
            fk_poses: if any_stale { vec![pose; n] } else { Vec::new() },
            any_stale,
            preview_bones: vec![rest; n],
            preview_fk: if any_stale { vec![pose; n] } else { Vec::new() },
            preview_coeffs,
        }
    }

    /// Puts every bone at rest on its animated pose.
    pub fn reset(&mut self, anim: &[AnimPoints<V>]) {
        for (i, b) in self.bones.iter_mut().enumerate() {
            let a = anim[i];
            b.origin = a.origin;
            b.origin_vel = V::ZERO;
            b.tip = a.tip;
            b.tip_prev = a.tip;
            b.tip_vel = V::ZERO;
            b.last = Local::IDENTITY;
            b.prev = Local::IDENTITY;
            b.fk_child = a.tip;
            self.poses[i] = compose(&Local::IDENTITY, a.origin, a.tip, V::ROT_IDENTITY);
        }
    }

    /// The composite poses after the last step.
    pub fn poses(&self) -> &[Pose<V>] {
        &self.poses
    }

    /// One fixed step with the animated points `anim` at the step's time, collider shapes,
    /// environment and per-chain strength. `coarse` uses the level-of-detail step.
    pub fn step(
        &mut self,
        anim: &[AnimPoints<V>],
        shapes: &[Shape<V>],
        env: &Env<V>,
        strength: &[f64],
        coarse: bool,
    ) {
        let solve = Solve {
            links: &self.links,
            chains: &self.chains,
            collider_index: &self.collider_index,
            any_stale: self.any_stale,
        };
        let coeffs = if coarse { Coeffs::Coarse } else { Coeffs::Base };
        solve.run(
            &mut self.bones,
            &mut self.poses,
            &mut self.fk_poses,
            anim,
            shapes,
            env,
            strength,
            coeffs,
            &[],
        );
    }

    /// One fixed step in which each chain does what `plan` says (one entry per chain):
    /// solved (with its base or coarse coefficients), shown from its last two solves, or
    /// off. Chains that are not solved keep their state; their poses (what children target)
    /// are their shown outputs. With every chain `Solve { coarse: false }` this is
    /// [`step`](Self::step) with `coarse = false`, bit for bit.
    pub fn step_plan(
        &mut self,
        anim: &[AnimPoints<V>],
        shapes: &[Shape<V>],
        env: &Env<V>,
        strength: &[f64],
        plan: &[ChainRun],
    ) {
        let solve = Solve {
            links: &self.links,
            chains: &self.chains,
            collider_index: &self.collider_index,
            any_stale: self.any_stale,
        };
        solve.run(
            &mut self.bones,
            &mut self.poses,
            &mut self.fk_poses,
            anim,
            shapes,
            env,
            strength,
            Coeffs::Base,
            plan,
        );
    }

    /// The poses `fraction` (0..1] of a step after the last one, for display at a frame
    /// that falls between steps: the last step's state advanced by that part of a step
    /// toward `anim` (the frame's animated points), with the same solve as
    /// [`step`](Self::step) (springs exactly over the shorter time, constraints and
    /// colliders applied). Nothing is kept: the next step starts from the last step's state,
    /// so the simulated trajectory does not depend on the frame rate. `fraction = 1` gives
    /// what `step` would. Writes one pose per bone into `out`; allocation-free.
    #[allow(clippy::too_many_arguments)]
    pub fn preview(
        &mut self,
        anim: &[AnimPoints<V>],
        shapes: &[Shape<V>],
        env: &Env<V>,
        strength: &[f64],
        coarse: bool,
        fraction: f64,
        out: &mut [Pose<V>],
    ) {
        self.preview_with(anim, shapes, env, strength, &[], coarse, fraction, out);
    }

    /// [`preview`](Self::preview) with each chain doing what `plan` says (one entry per
    /// chain): solved chains advance `fraction` of a step (of their coarse step when the
    /// plan says so), shown chains show their last two solves interpolated, chains off show
    /// the animated pose. Nothing is kept.
    #[allow(clippy::too_many_arguments)]
    pub fn preview_plan(
        &mut self,
        anim: &[AnimPoints<V>],
        shapes: &[Shape<V>],
        env: &Env<V>,
        strength: &[f64],
        plan: &[ChainRun],
        fraction: f64,
        out: &mut [Pose<V>],
    ) {
        self.preview_with(anim, shapes, env, strength, plan, false, fraction, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn preview_with(
        &mut self,
        anim: &[AnimPoints<V>],
        shapes: &[Shape<V>],
        env: &Env<V>,
        strength: &[f64],
        plan: &[ChainRun],
        coarse: bool,
        fraction: f64,
        out: &mut [Pose<V>],
    ) {
        if out.len() < self.links.len() {
            return;
        }
        for (ci, (c, chain)) in self.preview_coeffs.iter_mut().zip(&self.chains).enumerate() {
            let coarse = match plan.get(ci) {
                Some(ChainRun::Solve { coarse }) => *coarse,
                Some(_) => continue,
                None => coarse,
            };
            let base = if coarse { &chain.coarse } else { &chain.coeffs };
            *c = base.partial(&chain.params, fraction);
        }
        self.preview_bones.copy_from_slice(&self.bones);
        let solve = Solve {
            links: &self.links,
            chains: &self.chains,
            collider_index: &self.collider_index,
            any_stale: self.any_stale,
        };
        solve.run(
            &mut self.preview_bones,
            out,
            &mut self.preview_fk,
            anim,
            shapes,
            env,
            strength,
            Coeffs::Given(&self.preview_coeffs),
            plan,
        );
    }

    /// The last two steps' outputs interpolated by `alpha` (1: the last step) and composed
    /// onto the animated points `anim`. With `alpha = 1` and the animated points of the last
    /// step this is that step's pose; the rig stage uses it so (and to hold a frozen
    /// chain's offsets on a moving pose). `out` has one pose per bone.
    pub fn display(&self, anim: &[AnimPoints<V>], alpha: f64, out: &mut [Pose<V>]) {
        for i in 0..self.links.len().min(out.len()) {
            let (p, q) = targets(&self.links, out, anim, i);
            let local = shown(&self.bones[i], alpha);
            let parent_rot = self.links[i]
                .parent
                .map_or(V::ROT_IDENTITY, |j| out[j as usize].rot);
            out[i] = compose(&local, p, q, parent_rot);
        }
    }

    /// [`display`](Self::display) with a factor per chain from `plan`: `Show(alpha)`
    /// interpolates by `alpha`, `Solve` shows the last step (alpha 1), `Off` the animated
    /// pose. With every chain `Show(a)` this is `display(anim, a, out)`, bit for bit.
    pub fn display_plan(&self, anim: &[AnimPoints<V>], plan: &[ChainRun], out: &mut [Pose<V>]) {
        for i in 0..self.links.len().min(out.len()) {
            let (p, q) = targets(&self.links, out, anim, i);
            let local = match plan.get(self.links[i].chain as usize) {
                Some(ChainRun::Off) => Local::IDENTITY,
                Some(ChainRun::Show(alpha)) => shown(&self.bones[i], *alpha),
                Some(ChainRun::Solve { .. }) | None => shown(&self.bones[i], 1.0),
            };
            let parent_rot = self.links[i]
                .parent
                .map_or(V::ROT_IDENTITY, |j| out[j as usize].rot);
            out[i] = compose(&local, p, q, parent_rot);
        }
    }

    /// Puts the bones of chain `chain` at rest on their animated points (a chain switched
    /// back on, or faded in from strength 0, starts from rest).
    pub fn reset_chain(&mut self, chain: usize, anim: &[AnimPoints<V>]) {
        for (i, b) in self.bones.iter_mut().enumerate() {
            if self.links[i].chain as usize != chain {
                continue;
            }
            let Some(&a) = anim.get(i) else { continue };
            b.origin = a.origin;
            b.origin_vel = V::ZERO;
            b.tip = a.tip;
            b.tip_prev = a.tip;
            b.tip_vel = V::ZERO;
            b.last = Local::IDENTITY;
            b.prev = Local::IDENTITY;
            b.fk_child = a.tip;
        }
    }

    /// Replaces chain `chain`'s parameters and step coefficients (colliders kept): a
    /// stiffness or damping scale, or another coarse step multiple.
    pub fn retune_chain(
        &mut self,
        chain: usize,
        params: JiggleParams,
        h: f64,
        coarse_multiple: u32,
    ) {
        if let Some(c) = self.chains.get_mut(chain) {
            *c = ChainSettings::new(params, h, coarse_multiple, c.colliders);
        }
    }
}

/// Advances one bone by one step toward targets `p` (origin) and `q` (tip); returns its
/// output with strength `s` applied.
#[allow(clippy::too_many_arguments)]
#[inline]
fn step_bone<V: SimVec>(
    b: &mut BoneState<V>,
    prm: &JiggleParams,
    c: &StepCoeffs,
    p: V,
    q: V,
    env: &Env<V>,
    shapes: &[Shape<V>],
    cols: &[u32],
    s: f64,
) -> Local<V> {
    b.prev = b.last;
    let rest = q - p;
    let rest_len = rest.length();
    let a = rest.normalize_or(V::any_unit());
    let spring = prm.model == JiggleModel::Spring;
    let verlet = prm.model == JiggleModel::Verlet;
    let angular = prm.model == JiggleModel::Angular;
    let accel = env.gravity * prm.gravity + env.wind * prm.wind;
    let old_origin = b.origin;

    // Origin: a spring toward its target (soft tissue), or pinned to it.
    let origin = if spring && c.origin_free {
        let eq = p + accel * (prm.mass * c.origin.compliance);
        let (y, v) = (b.origin - eq, b.origin_vel);
        let mut o = eq + y * c.origin.m[0][0] + v * c.origin.m[0][1];
        let mut v = y * c.origin.m[1][0] + v * c.origin.m[1][1];
        let off = o - p;
        let d = off.length();
        if d > prm.max_offset {
            let o2 = p + off * (prm.max_offset / d);
            v = inelastic(v, o2 - o);
            o = o2;
        }
        b.origin_vel = v;
        o
    } else {
        b.origin_vel = V::ZERO;
        p
    };
    b.origin = origin;

    // Tip: unconstrained move.
    let (free, mut vel) = if spring {
        let eq = q + accel * (prm.mass * c.tip.compliance);
        let (y, v) = (b.tip - eq, b.tip_vel);
        let t = eq + y * c.tip.m[0][0] + v * c.tip.m[0][1];
        let mut v = y * c.tip.m[1][0] + v * c.tip.m[1][1];
        if prm.velocity_damping > 0.0 {
            // Implicit quadratic drag: stable at any speed.
            v = v * (1.0 / (1.0 + c.h * prm.velocity_damping * v.length() / prm.mass));
        }
        (t, v)
    } else if angular {
        // A spring on the rotation vector from the target direction to the bone's last
        // direction (relative to its own last origin: moving without turning swings nothing).
        let last_dir = (b.tip - old_origin).normalize_or(a);
        let (y, w) = (V::rot_log(V::rot_between(a, last_dir)), b.tip_vel);
        let y2 = y * c.tip.m[0][0] + w * c.tip.m[0][1];
        let w2 = y * c.tip.m[1][0] + w * c.tip.m[1][1];
        (origin + V::rot_apply(V::rot_exp(y2), a) * rest_len, w2)
    } else if !verlet {
        // Lerp: a fixed fraction of the way to the target each step.
        (q + (b.tip - q) * c.lerp_keep, V::ZERO)
    } else {
        let inertia = (b.tip - b.tip_prev) * c.keep;
        let ext = (env.gravity_dir * prm.gravity + env.wind_rel * prm.wind) * c.ext;
        (b.tip + inertia + a * c.pull + ext, V::ZERO)
    };

    // Constraints.
    let len = if verlet && prm.vrm_stale_length {
        (origin - b.fk_child).length()
    } else {
        rest_len
    };
    let stretch = if verlet { 0.0 } else { prm.max_stretch };
    let mut t = constrain_length(origin, free, len, stretch, a);
    if prm.max_angle < 180.0 {
        t = limit_angle(origin, t, a, c);
    }
    if !cols.is_empty() {
        t = collide(
            origin,
            t,
            len,
            stretch,
            a,
            prm.hit_radius,
            shapes,
            cols,
            !verlet,
        );
    }
    if spring {
        vel = inelastic(vel, t - free);
        b.tip_vel = vel;
    } else if angular {
        // The angular velocity loses the part that ran into a limit or collider.
        let moved = V::rot_log(V::rot_between(a, (t - origin).normalize_or(a)))
            - V::rot_log(V::rot_between(a, (free - origin).normalize_or(a)));
        b.tip_vel = inelastic(vel, moved);
    }
    b.tip_prev = b.tip;
    b.tip = t;

    // Output, blended by strength.
    let d = t - origin;
    let dl = d.length();
    let dir = d.normalize_or(a);
    let rot = V::rot_between(a, dir);
    let stretch_out = if !verlet && prm.max_stretch > 0.0 && rest_len > 1e-12 {
        1.0 + (dl / rest_len - 1.0) * s
    } else {
        1.0
    };
    let local = Local {
        rot: V::rot_slerp(V::ROT_IDENTITY, rot, s),
        offset: (origin - p) * s,
        stretch: stretch_out,
    };
    b.last = local;
    local
}

/// Pushes the tip out of the chain's colliders. Verlet (VRM): one pass, each collider
/// followed by a length restore. Spring: rounds of that until nothing moves, then a final
/// push so the tip never ends inside (its length may then differ slightly).
#[allow(clippy::too_many_arguments)]
#[inline]
fn collide<V: SimVec>(
    origin: V,
    mut t: V,
    len: f64,
    stretch: f64,
    fallback: V,
    r: f64,
    shapes: &[Shape<V>],
    cols: &[u32],
    spring: bool,
) -> V {
    let rounds = if spring { COLLIDE_ROUNDS } else { 1 };
    for _ in 0..rounds {
        let mut moved_any = false;
        for &k in cols {
            let Some(shape) = shapes.get(k as usize) else {
                continue;
            };
            let (t2, moved) = shape.push_out(t, r);
            if moved {
                t = constrain_length(origin, t2, len, stretch, fallback);
                moved_any = true;
            }
        }
        if !moved_any {
            return t;
        }
    }
    if spring {
        for &k in cols {
            if let Some(shape) = shapes.get(k as usize) {
                t = shape.push_out(t, r).0;
            }
        }
    }
    t
}
