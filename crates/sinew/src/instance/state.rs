//! Per-instance state of the constraint stage: the path constraints' scratch buffers and
//! each Spine physics constraint's springs. Data only: the constraint stage
//! (`constraint`) writes it; [`crate::Instance::new`] allocates it.

use crate::math::SPINE_DEG_RAD;
use crate::rig::{AttachmentKind, PhysicsData, PhysicsParams, Rig};

/// Scratch buffers for path constraints, sized once from the rig so updates never allocate.
///
/// Owner: the world stage (constraints run in the skeleton plan; step 5 of `Character::update`).
#[derive(Debug, Clone, Default)]
pub struct PathScratch {
    /// Spaces between bones (one per bone, plus one unless tangent mode).
    pub spaces: Vec<f64>,
    /// Positions: x, y and tangent angle (radians) per point, plus 2.
    pub positions: Vec<f64>,
    /// World vertices of the path (all of them, or one curve's 8 floats).
    pub world: Vec<f64>,
    /// Cumulative curve lengths of the path.
    pub curves: Vec<f64>,
    /// Bone lengths (chainScale).
    pub lengths: Vec<f64>,
    /// Cumulative lengths of the 10 segments of the current curve.
    pub segments: Vec<f64>,
}

impl PathScratch {
    /// Allocates buffers large enough for every path constraint and path attachment of the
    /// rig: the most constrained bones of any constraint and the most path vertices.
    pub fn new(rig: &Rig) -> Self {
        let bones = rig.paths.iter().map(|p| p.bones.len()).max().unwrap_or(0);
        let floats = rig
            .attachments
            .iter()
            .filter_map(|a| match &a.kind {
                AttachmentKind::Path(p) => Some(p.vertices.count as usize * 2),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        if bones == 0 {
            return PathScratch::default();
        }
        PathScratch {
            spaces: vec![0.0; bones + 1],
            positions: vec![0.0; (bones + 1) * 3 + 2],
            world: vec![0.0; (floats + 2).max(8)],
            curves: vec![0.0; floats / 6 + 1],
            lengths: vec![0.0; bones],
            segments: vec![0.0; 10],
        }
    }
}

/// Per-instance state of one physics constraint (Spine `PhysicsConstraint` fields).
///
/// Owner: the world stage (Spine physics constraints in the skeleton plan; step 5).
#[derive(Debug, Clone)]
pub struct PhysicsState {
    /// Animatable parameters.
    pub params: PhysicsParams,
    /// The next update only records the bone position (set by [`PhysicsState::reset`]).
    pub needs_reset: bool,
    /// Last unconstrained bone world x (Spine `ux`), world units.
    pub ux: f64,
    /// Last unconstrained bone world y (Spine `uy`).
    pub uy: f64,
    /// Last constrained bone world x (Spine `cx`).
    pub cx: f64,
    /// Last constrained bone world y (Spine `cy`).
    pub cy: f64,
    /// Bone tip vector x, `length * a` after the last update (Spine `tx`).
    pub tx: f64,
    /// Bone tip vector y, `length * c` (Spine `ty`).
    pub ty: f64,
    /// Translation spring offset x, world units.
    pub x_offset: f64,
    /// Translation spring velocity x, world units per second.
    pub x_velocity: f64,
    /// Translation spring offset y.
    pub y_offset: f64,
    /// Translation spring velocity y.
    pub y_velocity: f64,
    /// Rotation spring offset, radians.
    pub rotate_offset: f64,
    /// Rotation spring velocity, radians per second.
    pub rotate_velocity: f64,
    /// Scale spring offset (fraction of the bone's x scale).
    pub scale_offset: f64,
    /// Scale spring velocity.
    pub scale_velocity: f64,
    /// Spine 4.3 pose interpolation: what the last update's steps added to each offset
    /// (`xLag`, `yLag`, `rotateLag`, `scaleLag`); always 0 for a 4.2 constraint, whose
    /// displayed offsets are then the offsets themselves.
    pub lag: [f64; 4],
    /// Time not yet simulated, seconds (less than one step after an update).
    pub remaining: f64,
    /// Skeleton clock at the last update or reset, seconds.
    pub last_time: f64,
}

impl PhysicsState {
    /// State for a constraint in its setup pose: at rest, waiting for its first update.
    pub fn new(data: &PhysicsData) -> Self {
        PhysicsState {
            params: data.setup,
            needs_reset: true,
            ux: 0.0,
            uy: 0.0,
            cx: 0.0,
            cy: 0.0,
            tx: 0.0,
            ty: 0.0,
            x_offset: 0.0,
            x_velocity: 0.0,
            y_offset: 0.0,
            y_velocity: 0.0,
            rotate_offset: 0.0,
            rotate_velocity: 0.0,
            scale_offset: 0.0,
            scale_velocity: 0.0,
            lag: [0.0; 4],
            remaining: 0.0,
            last_time: 0.0,
        }
    }

    /// Spine `PhysicsConstraint.reset` when the skeleton clock has not moved since the last
    /// physics update (the usual frame: animations, including reset keys, are applied before
    /// [`crate::Instance::advance_time`]). Keeps `last_time`; use [`PhysicsState::reset_at`] to
    /// reset at any other clock value.
    pub fn reset(&mut self) {
        let t = self.last_time;
        self.reset_at(t);
    }

    /// Spine `PhysicsConstraint.reset`: zeroes the springs and the carried time, records the
    /// skeleton clock `time` (seconds), and makes the next update only record the bone
    /// position.
    pub fn reset_at(&mut self, time: f64) {
        self.remaining = 0.0;
        self.last_time = time;
        self.needs_reset = true;
        self.x_offset = 0.0;
        self.x_velocity = 0.0;
        self.y_offset = 0.0;
        self.y_velocity = 0.0;
        self.rotate_offset = 0.0;
        self.rotate_velocity = 0.0;
        self.scale_offset = 0.0;
        self.scale_velocity = 0.0;
        self.lag = [0.0; 4];
    }

    /// Spine `PhysicsConstraint.translate`: the next update reacts as if the bone had moved
    /// by an extra (x, y) world units.
    pub fn translate(&mut self, x: f64, y: f64) {
        self.ux -= x;
        self.uy -= y;
        self.cx -= x;
        self.cy -= y;
    }

    /// Spine `PhysicsConstraint.rotate`: the next update reacts as if the bone had rotated
    /// by `degrees` around the world point (x, y).
    pub fn rotate(&mut self, x: f64, y: f64, degrees: f64) {
        let r = degrees * SPINE_DEG_RAD;
        let (sin, cos) = r.sin_cos();
        let dx = self.cx - x;
        let dy = self.cy - y;
        self.translate(dx * cos - dy * sin - dx, dx * sin + dy * cos - dy);
    }
}
