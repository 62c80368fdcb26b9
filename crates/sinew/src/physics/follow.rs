//! Delayed follow: a bone takes another bone's rotation, translation and/or scale as it was
//! `delay` seconds ago, blended over its own by `mix` (hair and capes that lag behind the
//! body, a tail that echoes the hips, an antenna that trails the head).
//!
//! Per enabled component the follower's value is `lerp(own, source(t - delay) + offset,
//! mix)`, in the bones' local space (applied local pose, after constraints) or in world space
//! (rotation, position and axis scales read from the world matrix). `source(t - delay)` is
//! read from a history of the source's value kept per character ([`FollowState`]): one
//! sample per frame, at most [`FollowRig::sample_hz`] a second, in a ring allocated once and
//! sized by the largest delay; between samples the history is interpolated by the cubic
//! through the four nearest samples (exact on motion of constant speed, error O(h⁴) on smooth
//! motion, so 30, 60 and 144 fps agree within 1e-3 on smooth motion); before enough history
//! exists, the oldest sample is used. Rotations are stored unwrapped, so a source spinning
//! past ±180° interpolates through the short way, and the blend toward the target takes the
//! shortest turn.
//!
//! How it plugs into a frame: step 6 of `Character::update`, after the world stage
//! (constraints and physics done) and before jiggle. [`FollowState::update`] first samples
//! every source (all from the pose the world stage left, so a source below a follower reads
//! its pose before any follow), then writes the followers parent-first and re-poses the bones
//! below them in plan order, as the jiggle stage does. Describe follows by bone name
//! ([`FollowDesc`], what a rig-extras file's `follow` list holds) and resolve them with
//! [`FollowRig::build`]. Deterministic; a frame allocates nothing.
//!
//! Verified by `follow_tests.rs` (a source at constant angular speed: the follower lags by
//! exactly `delay`; 30/60/144 fps agreement on a sine; mix 0 leaves the own pose; world and
//! local space; offsets; the oldest value before history exists; reset; errors) and
//! `sinew-formats/tests/all/follow_frame.rs` (no allocation per frame through `Character::update`).

use crate::ids::BoneId;
use crate::instance::Instance;
use crate::instance::plan::PlanOp;
use crate::math::{RAD_DEG, wrap_degrees};
use crate::rig::Rig;
use crate::rig::problem::{BuildError, BuildPart, BuildProblem};

/// The space a follow reads and writes values in.
///
/// Owner: the follow stage (`physics::follow`; step 6 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FollowSpace {
    /// The bones' applied local poses (rotation, x, y, scale x/y relative to each parent).
    #[default]
    Local,
    /// World values: rotation of the x axis, origin, lengths of the two axes.
    World,
}

/// What is added to the source's delayed value before blending.
///
/// Owner: the follow stage (`physics::follow`; step 6 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FollowOffset {
    /// Degrees.
    pub rotate: f64,
    /// Units (parent space for `Local`, world for `World`).
    pub x: f64,
    /// Units.
    pub y: f64,
    /// Added to scale x.
    pub scale_x: f64,
    /// Added to scale y.
    pub scale_y: f64,
}

/// One delayed follow, by bone name (what a rig-extras file's `follow` list holds).
///
/// Owner: the follow stage (`physics::follow`; step 6 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct FollowDesc {
    /// Name, for errors and tools.
    pub name: String,
    /// The follower bone.
    pub bone: String,
    /// The bone whose past value it follows.
    pub source: String,
    /// Seconds of delay, 0..=[`MAX_DELAY`].
    pub delay: f64,
    /// 0: the follower's own pose, 1: the delayed source (plus offset).
    pub mix: f64,
    /// Local or world values.
    pub space: FollowSpace,
    /// Whether rotation follows.
    pub rotate: bool,
    /// Whether translation follows.
    pub translate: bool,
    /// Whether scale follows.
    pub scale: bool,
    /// Added to the source's value.
    pub offset: FollowOffset,
}

impl FollowDesc {
    /// A follow of `bone` after `source`: no delay, mix 1, local space, rotation only, no
    /// offset.
    pub fn new(name: &str, bone: &str, source: &str) -> Self {
        FollowDesc {
            name: name.to_owned(),
            bone: bone.to_owned(),
            source: source.to_owned(),
            delay: 0.0,
            mix: 1.0,
            space: FollowSpace::Local,
            rotate: true,
            translate: false,
            scale: false,
            offset: FollowOffset::default(),
        }
    }
}

/// Longest delay a follow may have, seconds.
pub const MAX_DELAY: f64 = 10.0;

/// History samples per second, at most, by default.
pub const DEFAULT_SAMPLE_HZ: f64 = 240.0;

/// One follow resolved to bones.
///
/// Owner: the follow stage (`physics::follow`; step 6 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Follow {
    /// The follower.
    pub bone: BoneId,
    /// The source.
    pub source: BoneId,
    /// Seconds.
    pub delay: f64,
    /// 0..1.
    pub mix: f64,
    /// Space of the values.
    pub space: FollowSpace,
    /// Rotation follows.
    pub rotate: bool,
    /// Translation follows.
    pub translate: bool,
    /// Scale follows.
    pub scale: bool,
    /// Added to the source's value.
    pub offset: FollowOffset,
}

/// Follows resolved against one rig: immutable, shared by its characters.
///
/// Owner: the follow stage (`physics::follow`; step 6 of `Character::update`).
#[derive(Debug, Clone)]
pub struct FollowRig {
    /// [`Rig::uid`] of the rig these follows were built for.
    pub rig_uid: u64,
    /// Follows, followers parent-first.
    pub follows: Vec<Follow>,
    /// Names, by index in `follows`.
    pub names: Vec<String>,
    /// Per rig bone: the follow it is the follower of.
    pub follow_of: Vec<Option<u32>>,
    /// Per rig bone: below a follower (re-posed after the followers are written).
    pub repose: Vec<bool>,
    /// History samples per second, at most.
    pub sample_hz: f64,
    /// History samples kept per follow.
    pub capacity: usize,
}

impl FollowRig {
    /// Resolves `descs` against `rig` with [`DEFAULT_SAMPLE_HZ`].
    pub fn build(rig: &Rig, descs: &[FollowDesc]) -> Result<FollowRig, BuildError> {
        Self::build_with(rig, descs, DEFAULT_SAMPLE_HZ)
    }

    /// Resolves `descs` against `rig`, keeping at most `sample_hz` history samples a second.
    /// Unknown bones, a bone followed twice, repeated names and bad values are all reported.
    pub fn build_with(
        rig: &Rig,
        descs: &[FollowDesc],
        sample_hz: f64,
    ) -> Result<FollowRig, BuildError> {
        const PART: BuildPart = BuildPart::Follow;
        let mut problems = Vec::new();
        if !(sample_hz.is_finite() && (1.0..=10_000.0).contains(&sample_hz)) {
            problems.push(BuildProblem::value(
                PART,
                "",
                format!("sample rate must be in 1..10000 Hz (got {sample_hz})"),
            ));
        }
        let nb = rig.bones.len();
        let mut follow_of: Vec<Option<u32>> = vec![None; nb];
        let mut resolved: Vec<(Follow, String)> = Vec::with_capacity(descs.len());
        let mut names: Vec<&str> = Vec::with_capacity(descs.len());
        for d in descs {
            let name = &d.name;
            let item = format!("follow `{name}`");
            if names.contains(&name.as_str()) {
                problems.push(BuildProblem::duplicate(&*item, name, "defined twice").in_part(PART));
            }
            names.push(name);
            if !(d.delay.is_finite() && (0.0..=MAX_DELAY).contains(&d.delay)) {
                problems.push(BuildProblem::value(
                    PART,
                    &*item,
                    format!(
                        "`delay` must be in 0..{MAX_DELAY} seconds (got {})",
                        d.delay
                    ),
                ));
            }
            if !(d.mix.is_finite() && (0.0..=1.0).contains(&d.mix)) {
                problems.push(BuildProblem::value(
                    PART,
                    &*item,
                    format!("`mix` must be in 0..1 (got {})", d.mix),
                ));
            }
            let o = d.offset;
            if ![o.rotate, o.x, o.y, o.scale_x, o.scale_y]
                .iter()
                .all(|v| v.is_finite())
            {
                problems.push(BuildProblem::value(
                    PART,
                    &*item,
                    "`offset` values must be finite",
                ));
            }
            let bone = rig.bone(&d.bone);
            if bone.is_none() {
                problems.push(BuildProblem::unknown(&*item, "bone", &d.bone).in_part(PART));
            }
            let source = rig.bone(&d.source);
            if source.is_none() {
                problems
                    .push(BuildProblem::unknown(&*item, "source bone", &d.source).in_part(PART));
            }
            let (Some(bone), Some(source)) = (bone, source) else {
                continue;
            };
            if let Some(k) = follow_of[bone.index()] {
                problems.push(
                    BuildProblem::duplicate(
                        &*item,
                        &d.bone,
                        format!(
                            "bone `{}` already follows in `{}`",
                            d.bone, resolved[k as usize].1
                        ),
                    )
                    .in_part(PART),
                );
                continue;
            }
            follow_of[bone.index()] = Some(resolved.len() as u32);
            resolved.push((
                Follow {
                    bone,
                    source,
                    delay: d.delay,
                    mix: d.mix,
                    space: d.space,
                    rotate: d.rotate,
                    translate: d.translate,
                    scale: d.scale,
                    offset: d.offset,
                },
                name.clone(),
            ));
        }
        if !problems.is_empty() {
            return Err(BuildError::from_problems(problems));
        }
        // Followers parent-first (bones are stored parent-first).
        resolved.sort_by_key(|(f, _)| f.bone.index());
        let mut follow_of = vec![None; nb];
        for (k, (f, _)) in resolved.iter().enumerate() {
            follow_of[f.bone.index()] = Some(k as u32);
        }
        let mut repose = vec![false; nb];
        for i in 0..nb {
            if let Some(p) = rig.bones[i].parent {
                let p = p.index();
                repose[i] = repose[p] || follow_of[p].is_some();
            }
        }
        let max_delay = resolved.iter().map(|(f, _)| f.delay).fold(0.0, f64::max);
        let capacity = (max_delay * sample_hz).ceil() as usize + 5;
        let (follows, names) = resolved.into_iter().unzip();
        Ok(FollowRig {
            rig_uid: rig.uid,
            follows,
            names,
            follow_of,
            repose,
            sample_hz,
            capacity,
        })
    }

    /// The index of the follow named `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }
}

/// Rotation (degrees, unwrapped in the history), x, y, scale x, scale y.
type Value = [f64; 5];

/// One character's follow history.
///
/// Owner: the follow stage (`physics::follow`; step 6 of `Character::update`).
#[derive(Debug, Clone)]
pub struct FollowState {
    time: f64,
    cap: usize,
    min_gap: f64,
    /// Per follow: `cap` sample times, then values.
    times: Vec<f64>,
    values: Vec<Value>,
    /// Per follow: index of the oldest sample and the count.
    head: Vec<usize>,
    len: Vec<usize>,
    /// Per follow: this frame's delayed target.
    targets: Vec<Value>,
}

impl FollowState {
    /// Whether `fr` was built for `rig`, `inst` is the rig's and this history was made for
    /// `fr`: [`FollowState::update`] does nothing otherwise.
    pub fn fits(&self, rig: &Rig, fr: &FollowRig, inst: &Instance) -> bool {
        let (n, nb) = (fr.follows.len(), rig.bones.len());
        fr.rig_uid == rig.uid
            && fr.follow_of.len() == nb
            && fr.repose.len() == nb
            && fr
                .follows
                .iter()
                .all(|f| f.bone.index() < nb && f.source.index() < nb)
            && inst.is_for(rig)
            && self.head.len() == n
            && self.len.len() == n
            && self.targets.len() == n
            && self.times.len() == n * self.cap
            && self.values.len() == n * self.cap
    }

    /// Empty history for one character of a rig with these follows.
    pub fn new(fr: &FollowRig) -> Self {
        let n = fr.follows.len();
        let cap = fr.capacity.max(4);
        FollowState {
            time: 0.0,
            cap,
            min_gap: 1.0 / fr.sample_hz,
            times: vec![0.0; n * cap],
            values: vec![[0.0; 5]; n * cap],
            head: vec![0; n],
            len: vec![0; n],
            targets: vec![[0.0; 5]; n],
        }
    }

    /// Forgets the history (after a teleport or a cut): the next frame starts it again.
    pub fn reset(&mut self) {
        self.len.fill(0);
        self.head.fill(0);
    }

    /// Seconds of history time since creation.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// The delayed source value (plus offset) follow `k` blended toward in the last update:
    /// rotation (degrees), x, y, scale x, scale y.
    pub fn target(&self, k: usize) -> Option<[f64; 5]> {
        self.targets.get(k).copied()
    }

    /// Runs the follow stage for a frame of `dt` seconds on a posed instance (after the
    /// world stage). Allocation-free.
    pub fn update(&mut self, rig: &Rig, fr: &FollowRig, inst: &mut Instance, dt: f64) {
        if self.fits(rig, fr, inst) {
            self.follow_frame(rig, fr, inst, dt);
        }
    }

    /// [`FollowState::update`] for parts known to fit (the facade checked them once, when
    /// they were attached).
    pub(crate) fn follow_frame(&mut self, rig: &Rig, fr: &FollowRig, inst: &mut Instance, dt: f64) {
        if dt.is_finite() && dt > 0.0 {
            self.time += dt;
        }
        let t = self.time;
        for (k, f) in fr.follows.iter().enumerate() {
            let v = read_value(inst, f.source, f.space);
            self.push(k, t, v);
            let mut target = self.sample(k, t - f.delay);
            let o = f.offset;
            target[0] += o.rotate;
            target[1] += o.x;
            target[2] += o.y;
            target[3] += o.scale_x;
            target[4] += o.scale_y;
            self.targets[k] = target;
        }
        for i in 0..inst.plan.len() {
            let PlanOp::Bone(b) = inst.plan[i] else {
                continue;
            };
            let bi = b.index();
            if fr.repose[bi] {
                crate::bone::update_bone_world(rig, inst, b);
            }
            if let Some(k) = fr.follow_of[bi] {
                let k = k as usize;
                apply(rig, inst, &fr.follows[k], &self.targets[k]);
            }
        }
    }

    /// Adds this frame's value of follow `k` at time `t`.
    fn push(&mut self, k: usize, t: f64, mut v: Value) {
        let (cap, base) = (self.cap, k * self.cap);
        let len = self.len[k];
        if len > 0 {
            let last = base + (self.head[k] + len - 1) % cap;
            // Unwrap the rotation against the previous sample.
            let prev = self.values[last][0];
            v[0] = prev + wrap_degrees(v[0] - prev);
            let gap_before = if len >= 2 {
                let before = base + (self.head[k] + len - 2) % cap;
                self.times[last] - self.times[before]
            } else {
                f64::INFINITY
            };
            // The same time (paused), or the newest sample is closer to the one before
            // than the sample rate allows: replace it.
            if t <= self.times[last] || gap_before < self.min_gap {
                self.times[last] = t.max(self.times[last]);
                self.values[last] = v;
                return;
            }
        }
        let slot = if len == cap {
            let s = self.head[k];
            self.head[k] = (s + 1) % cap;
            s
        } else {
            self.len[k] = len + 1;
            (self.head[k] + len) % cap
        };
        self.times[base + slot] = t;
        self.values[base + slot] = v;
    }

    /// The history of follow `k` at time `tq`.
    fn sample(&self, k: usize, tq: f64) -> Value {
        let (cap, base, head, len) = (self.cap, k * self.cap, self.head[k], self.len[k]);
        let at = |j: usize| base + (head + j) % cap;
        if len == 0 {
            return [0.0, 0.0, 0.0, 1.0, 1.0];
        }
        if tq <= self.times[at(0)] {
            return self.values[at(0)];
        }
        if tq >= self.times[at(len - 1)] {
            return self.values[at(len - 1)];
        }
        // The last sample at or before tq: times[at(lo)] <= tq < times[at(lo + 1)].
        let (mut lo, mut hi) = (0, len - 1);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if self.times[at(mid)] <= tq {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        // Up to four samples around the interval, as many as exist.
        let first = lo.saturating_sub(1);
        let last = (lo + 2).min(len - 1);
        let mut ts = [0.0; 4];
        let mut vs = [[0.0; 5]; 4];
        let m = last - first + 1;
        for j in 0..m {
            ts[j] = self.times[at(first + j)];
            vs[j] = self.values[at(first + j)];
        }
        lagrange(&ts[..m], &vs[..m], tq)
    }
}

/// The polynomial through `(ts[j], vs[j])` (2 to 4 points) at `t`.
fn lagrange(ts: &[f64], vs: &[Value], t: f64) -> Value {
    let mut out = [0.0; 5];
    for (j, &tj) in ts.iter().enumerate() {
        let mut w = 1.0;
        for (i, &ti) in ts.iter().enumerate() {
            if i != j {
                w *= (t - ti) / (tj - ti);
            }
        }
        for (o, v) in out.iter_mut().zip(&vs[j]) {
            *o += w * v;
        }
    }
    out
}

/// A bone's value in a space.
fn read_value(inst: &Instance, bone: BoneId, space: FollowSpace) -> Value {
    match space {
        FollowSpace::Local => {
            let p = &inst.applied[bone.index()];
            [p.rotation, p.x, p.y, p.scale_x, p.scale_y]
        }
        FollowSpace::World => {
            let w = &inst.world[bone.index()];
            [
                w.c.atan2(w.a) * RAD_DEG,
                w.x,
                w.y,
                w.a.hypot(w.c),
                w.b.hypot(w.d),
            ]
        }
    }
}

/// Blends a follower toward its target and recomputes its world transform (local space) or
/// its applied pose (world space).
fn apply(rig: &Rig, inst: &mut Instance, f: &Follow, target: &Value) {
    let b = f.bone;
    let bi = b.index();
    if !inst.bone_active[bi] || f.mix == 0.0 || !target.iter().all(|v| v.is_finite()) {
        return;
    }
    let mix = f.mix;
    match f.space {
        FollowSpace::Local => {
            let mut p = inst.applied[bi];
            if f.rotate {
                p.rotation += wrap_degrees(target[0] - p.rotation) * mix;
            }
            if f.translate {
                p.x += (target[1] - p.x) * mix;
                p.y += (target[2] - p.y) * mix;
            }
            if f.scale {
                p.scale_x += (target[3] - p.scale_x) * mix;
                p.scale_y += (target[4] - p.scale_y) * mix;
            }
            crate::bone::update_bone_world_with(rig, inst, b, p);
        }
        FollowSpace::World => {
            let w = inst.world[bi];
            let mut out = w;
            if f.rotate {
                let own = w.c.atan2(w.a) * RAD_DEG;
                let r = (wrap_degrees(target[0] - own) * mix).to_radians();
                let (s, c) = r.sin_cos();
                out.a = c * w.a - s * w.c;
                out.b = c * w.b - s * w.d;
                out.c = s * w.a + c * w.c;
                out.d = s * w.b + c * w.d;
            }
            if f.translate {
                out.x += (target[1] - w.x) * mix;
                out.y += (target[2] - w.y) * mix;
            }
            if f.scale {
                scale_axis(&mut out.a, &mut out.c, target[3], mix);
                scale_axis(&mut out.b, &mut out.d, target[4], mix);
            }
            inst.world[bi] = out;
            crate::bone::update_applied_transform(rig, inst, b);
        }
    }
}

/// Scales the axis `(x, y)` so its length moves toward `target` by `mix`.
fn scale_axis(x: &mut f64, y: &mut f64, target: f64, mix: f64) {
    let len = x.hypot(*y);
    if len > 1e-12 {
        let s = (len + (target - len) * mix) / len;
        *x *= s;
        *y *= s;
    }
}
