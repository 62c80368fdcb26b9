//! Per-instance state of the parameter stages: current values, accumulated offsets, the
//! drivers' pendulums, the chains' strands, the deformers' frames and the stage's cache.
//!
//! Data only (layer: data; imports `ids`, `types`, `sim`, `rig`, never a stage): allocated
//! once by [`ParamState::new`] (from [`crate::Instance::new`]); the parameter stage, the
//! parameter physics and the deformer stage write it.

use super::param_cache;
use crate::ids::ParamId;
use crate::math::{Vec2, WorldTransform};
use crate::rig::params::chain::{ChainSet, DOWN as CHAIN_DOWN};
use crate::rig::params::deformer::DeformerSet;
use crate::rig::params::driver::{DOWN, DriverData};
use crate::sim::clock::FixedClock;
use crate::sim::pendulum::Pendulum;

/// Additive bone offsets accumulated by the parameter stage.
///
/// Owner: per-instance state; the parameter stage (step 5 of `Character::update`) writes it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BoneOffset {
    /// Added x.
    pub x: f64,
    /// Added y.
    pub y: f64,
    /// Added rotation, degrees.
    pub rotation: f64,
    /// Scale x factor.
    pub scale_x: f64,
    /// Scale y factor.
    pub scale_y: f64,
    /// Added z-sort.
    pub zsort: f64,
}

impl BoneOffset {
    /// No offset.
    pub const NONE: BoneOffset = BoneOffset {
        x: 0.0,
        y: 0.0,
        rotation: 0.0,
        scale_x: 1.0,
        scale_y: 1.0,
        zsort: 0.0,
    };
}

/// Per-slot factors accumulated by the parameter stage.
///
/// Owner: per-instance state; the parameter stage (step 5 of `Character::update`) writes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlotOffset {
    /// Opacity factor.
    pub opacity: f64,
    /// Tint factors r, g, b.
    pub tint: [f64; 3],
    /// Added screen tint r, g, b.
    pub screen: [f64; 3],
    /// Visibility factor (shown at 0.5 or more).
    pub visible: f64,
}

impl SlotOffset {
    /// No change.
    pub const NONE: SlotOffset = SlotOffset {
        opacity: 1.0,
        tint: [1.0; 3],
        screen: [0.0; 3],
        visible: 1.0,
    };

    /// `c` with these factors: rgb times the tint, alpha times the opacity (a slot's colour
    /// from its setup colour, a composite layer's from its own).
    #[inline]
    pub fn tinted(&self, c: crate::Color) -> crate::Color {
        crate::Color::new(
            (f64::from(c.r) * self.tint[0]) as f32,
            (f64::from(c.g) * self.tint[1]) as f32,
            (f64::from(c.b) * self.tint[2]) as f32,
            (f64::from(c.a) * self.opacity) as f32,
        )
    }

    /// A screen tint `base` with these offsets added.
    #[inline]
    pub fn screened(&self, base: [f32; 3]) -> [f32; 3] {
        [0, 1, 2].map(|k| (f64::from(base[k]) + self.screen[k]) as f32)
    }
}

/// Per-instance parameter state, allocated once by [`ParamState::new`].
///
/// Owner: per-instance state; the parameter stage (step 5 of `Character::update`) writes it.
#[derive(Debug, Clone)]
pub struct ParamState {
    /// Current value per parameter (x, y), clamped on use.
    pub values: Vec<[f64; 2]>,
    /// Parameters left out of the stage (an editor's mute; the reference cases that apply
    /// only some parameters). All `false` after [`ParamState::new`].
    pub muted: Vec<bool>,
    /// Combined bone offsets (per bone; kept between frames, see `params::scalars`).
    pub(crate) bone: Vec<BoneOffset>,
    /// Combined slot factors (per slot; kept between frames).
    pub(crate) slot: Vec<SlotOffset>,
    /// Combined factors of the off-screen group on each bone (per bone; only opacity, tint
    /// and screen are used).
    pub(crate) group: Vec<SlotOffset>,
    /// Absolute z-sort per bone (parent's plus its own), after the stage.
    pub zsort: Vec<f64>,
    /// Whether each slot is shown, after the stage.
    pub visible: Vec<bool>,
    /// Per-driver physics state.
    pub(crate) drivers: Vec<DriverState>,
    /// Driver parameter overrides (length add, gravity factor) per driver.
    pub(crate) driver_offsets: Vec<[f64; 2]>,
    /// The physics clock.
    pub(crate) clock: FixedClock,
    /// Whether the drivers have been placed at rest (the first physics frame places them).
    pub(crate) drivers_placed: bool,
    /// Deformer state (offsets, rotation frames, current lattices).
    pub(crate) deformers: DeformerState,
    /// Pendulum chain state.
    pub(crate) chains: ChainState,
    /// What the stage remembers between frames to skip unchanged work.
    pub(crate) cache: param_cache::ParamCache,
    /// The rig these buffers were sized for ([`ParamState::fits`]).
    rig_uid: u64,
}

impl ParamState {
    /// Allocates the state of a rig's parameters at their defaults.
    pub fn new(rig: &crate::Rig) -> Self {
        let p = &rig.params;
        ParamState {
            values: p.params.iter().map(|d| d.default).collect(),
            muted: vec![false; p.params.len()],
            bone: vec![BoneOffset::NONE; rig.bones.len()],
            slot: vec![SlotOffset::NONE; rig.slots.len()],
            group: vec![SlotOffset::NONE; rig.bones.len()],
            zsort: vec![0.0; rig.bones.len()],
            visible: (0..rig.slots.len())
                .map(|i| p.slot_visible.get(i).copied().unwrap_or(true))
                .collect(),
            drivers: p.drivers.iter().map(DriverState::new).collect(),
            driver_offsets: vec![[0.0, 1.0]; p.drivers.len()],
            clock: FixedClock::new(crate::rig::params::driver::clock_settings()),
            drivers_placed: false,
            deformers: DeformerState::new(&p.deformers),
            chains: ChainState::new(&p.chains),
            cache: param_cache::ParamCache::new(p).with_bones(rig.bones.len()),
            rig_uid: rig.uid,
        }
    }

    /// Whether this state was made for `rig` (same [`crate::Rig::uid`]) and its public
    /// arrays still have that rig's lengths ([`crate::Instance::is_for`] asks).
    pub fn fits(&self, rig: &crate::Rig) -> bool {
        let (np, nb, ns) = (rig.params.params.len(), rig.bones.len(), rig.slots.len());
        self.rig_uid == rig.uid
            && self.values.len() == np
            && self.muted.len() == np
            && self.zsort.len() == nb
            && self.visible.len() == ns
    }

    /// Forgets what the stage remembers between frames, so the next frame recomputes every
    /// binding from scratch: the reference the cache is tested against
    /// (`tests/all/inochi2d_cache.rs`). Results are the same either way.
    pub fn invalidate_cache(&mut self) {
        self.cache.invalidate();
    }

    /// Sets a parameter's value (clamped to its range; a 1D parameter ignores `y`).
    pub fn set(&mut self, rig: &crate::Rig, param: ParamId, value: [f64; 2]) {
        if let (Some(d), Some(v)) = (
            rig.params.params.get(param.index()),
            self.values.get_mut(param.index()),
        ) {
            *v = [
                d.clamp(0, value[0]),
                if d.is_2d {
                    d.clamp(1, value[1])
                } else {
                    d.default[1]
                },
            ];
        }
    }

    /// Resets every parameter to its default.
    pub fn reset_values(&mut self, rig: &crate::Rig) {
        for (v, d) in self.values.iter_mut().zip(&rig.params.params) {
            *v = d.default;
        }
    }
}
/// A driver's simulation state.
///
/// Owner: per-instance state; the parameter stage (step 5 of `Character::update`) writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct DriverState {
    /// The pendulum.
    pub pendulum: Pendulum,
    /// The anchor at the start of the current frame (inputs are interpolated across steps).
    pub last_anchor: Vec2,
}

impl DriverState {
    /// A pendulum at rest at the origin (placed properly on the first physics frame).
    pub fn new(d: &DriverData) -> Self {
        DriverState {
            pendulum: Pendulum::new(
                d.pendulum_kind(),
                d.pendulum_params(0.0, 1.0),
                Vec2::ZERO,
                DOWN,
            ),
            last_anchor: Vec2::ZERO,
        }
    }
}

/// The simulation state of one chain, allocated once.
///
/// Owner: per-instance state; the parameter stage (step 5 of `Character::update`) writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Strand {
    /// Particle positions after the last step.
    pub pos: Vec<Vec2>,
    /// Particle positions before the last step (outputs interpolate toward `pos`).
    pub prev: Vec<Vec2>,
    /// Velocities, physics units per `d`.
    pub vel: Vec<Vec2>,
    /// Gravity direction at each particle's last step.
    pub last_gravity: Vec<Vec2>,
    /// Root translation at the end of the last frame.
    pub last_root: Vec2,
    /// Root angle (degrees) at the end of the last frame.
    pub last_angle: f64,
}

/// The chains' state of one instance.
///
/// Owner: per-instance state; the parameter stage (step 5 of `Character::update`) writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainState {
    /// The chains' fixed-step clock.
    pub clock: FixedClock,
    /// One strand per chain.
    pub strands: Vec<Strand>,
    /// Whether the strands have been put at rest (the first physics frame does it).
    pub placed: bool,
}

impl ChainState {
    /// Allocates the state of `set`'s chains.
    pub fn new(set: &ChainSet) -> Self {
        let strands = set
            .chains
            .iter()
            .map(|c| {
                let n = c.particles.len();
                Strand {
                    pos: vec![Vec2::ZERO; n],
                    prev: vec![Vec2::ZERO; n],
                    vel: vec![Vec2::ZERO; n],
                    last_gravity: vec![CHAIN_DOWN; n],
                    last_root: Vec2::ZERO,
                    last_angle: 0.0,
                }
            })
            .collect();
        ChainState {
            clock: FixedClock::new(crate::rig::params::chain::clock_settings(set.fps)),
            strands,
            placed: false,
        }
    }
}

/// A rotation's current effective map in its bone's space: `q -> pivot_out + jac · scale ·
/// R(angle) · (q - pivot)` (`jac` is the ancestors' linear part at the pivot).
///
/// Owner: per-instance state; the deformer stage (the end of step 5 of `Character::update`) writes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RotationFrame {
    /// Current pivot (setup plus offsets), before the ancestors.
    pub pivot: Vec2,
    /// Where the ancestors put the pivot.
    pub pivot_out: Vec2,
    /// The own linear part `scale · R(angle)` (zero translation).
    pub own: WorldTransform,
    /// The ancestors' linear part at the pivot (zero translation).
    pub jac: WorldTransform,
}

impl RotationFrame {
    /// The identity map.
    pub const IDENTITY: RotationFrame = RotationFrame {
        pivot: Vec2::ZERO,
        pivot_out: Vec2::ZERO,
        own: WorldTransform::IDENTITY,
        jac: WorldTransform::IDENTITY,
    };
}

/// Per-instance deformer state, allocated once by [`DeformerState::new`].
///
/// Owner: per-instance state; the deformer stage (the end of step 5 of `Character::update`) writes it.
#[derive(Debug, Clone, Default)]
pub struct DeformerState {
    /// Per deformer: added angle, scale factor, added pivot x, y (reset every frame).
    pub offsets: Vec<[f64; 4]>,
    /// Per rotation deformer (indexed like deformers): its current map.
    pub frames: Vec<RotationFrame>,
    /// All warp lattices' current points (offsets accumulate here, then ancestors map them).
    pub lattice: Vec<f64>,
}

impl DeformerState {
    /// Allocates the state for a deformer set.
    pub fn new(set: &DeformerSet) -> Self {
        DeformerState {
            offsets: vec![[0.0, 1.0, 0.0, 0.0]; set.deformers.len()],
            frames: vec![RotationFrame::IDENTITY; set.deformers.len()],
            lattice: vec![0.0; set.lattice_floats as usize],
        }
    }
}
