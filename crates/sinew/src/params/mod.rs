//! Parameters (Live2D / Inochi2D style): named values with ranges that drive keyform grids.
//!
//! A parameter has one or two components (Inochi2D's 1D and 2D parameters), each with a
//! range and a default; values are clamped to the range. A [`Binding`] is a keyform grid
//! over one or more parameter components (an Inochi2D binding spans one parameter's axes;
//! a Cubism keyform grid spans several parameters at once), interpolated per axis with
//! [`Interp`] (see [`grid`]), whose result drives one [`Target`]: a bone (node) transform
//! component, a slot's mesh vertex offsets, its opacity, tint, z-sort or visibility. Several
//! bindings of one target combine as Inochi2D does: offsets add, scale-like factors multiply.
//!
//! The stage ([`apply`]) runs before world transforms: it combines the bindings of every
//! target, then writes bone locals (setup ⊕ offsets), slot deform buffers (absolute
//! bind-space vertices = setup + offsets), slot colours and the draw order, recomputing only
//! what changed parameters feed (`cache`, `scalars`).
//! Parameter physics ([`driver`]) reads bone world positions and writes parameters;
//! parameter animation is [`inochi_clip`] lanes mixed on tracks by [`player`]. Pendulum chains
//! ([`chain`], Cubism physics3 style) read weighted parameters into a chain root, step a
//! string of particles on a fixed clock and write parameters, first in
//! [`apply::update_params`]. Rigs are built from
//! a name-based [`raw::RawParams`] by [`build::build_params`].
//!
//! Verified by the unit tests beside each file, the property tests in `proptests.rs`, and
//! `sinew-formats/tests/inochi2d_*.rs`, which match the Inochi2D fixtures' expected deforms.

pub mod apply;
pub mod build;
pub(crate) mod cache;
pub mod chain;
pub(crate) mod corners;
pub(crate) mod deforms;
pub mod driver;
pub mod grid;
pub mod inochi_clip;
pub(crate) mod kernel;
#[cfg(target_arch = "x86_64")]
mod kernel_avx;
pub(crate) mod plan;
pub mod player;
pub mod raw;
pub(crate) mod scalar_plan;
pub(crate) mod scalars;
mod world;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use apply::{apply_params, finalize_params, update_params};
pub use grid::{Interp, MAX_AXES};

use crate::ids::{BoneId, ParamId, SlotId};
use std::collections::HashMap;

/// A parameter's definition.
///
/// Owner: the parameter stage (`params::update_params`; step 5 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct ParamData {
    /// Unique name.
    pub name: String,
    /// Two components (x, y) or one (x; y unused).
    pub is_2d: bool,
    /// Range minimum per component.
    pub min: [f64; 2],
    /// Range maximum per component.
    pub max: [f64; 2],
    /// Default value per component.
    pub default: [f64; 2],
    /// Whether a physics driver writes this parameter (it is applied after physics).
    pub driven: bool,
}

impl ParamData {
    /// `v` clamped to the range of component `c` and normalised to 0..1 (0 for an empty
    /// range or a non-finite value).
    #[inline]
    pub fn normalize(&self, c: usize, v: f64) -> f64 {
        let (lo, hi) = (self.min[c], self.max[c]);
        let span = hi - lo;
        if span.is_nan() || span <= 0.0 || !v.is_finite() {
            return 0.0;
        }
        ((v.clamp(lo, hi) - lo) / span).clamp(0.0, 1.0)
    }

    /// `v` clamped to the range of component `c`.
    #[inline]
    pub fn clamp(&self, c: usize, v: f64) -> f64 {
        if !v.is_finite() {
            return self.default[c];
        }
        if self.min[c] <= self.max[c] {
            v.clamp(self.min[c], self.max[c])
        } else {
            v
        }
    }
}

/// What a binding drives. Bone rotations are in degrees; positions in rig units.
///
/// Owner: the parameter stage (`params::update_params`; step 5 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// Bone local x (added).
    BoneX(BoneId),
    /// Bone local y (added).
    BoneY(BoneId),
    /// Bone local rotation, degrees (added).
    BoneRotation(BoneId),
    /// Bone local scale x (multiplied).
    BoneScaleX(BoneId),
    /// Bone local scale y (multiplied).
    BoneScaleY(BoneId),
    /// Bone z-sort, relative to its parent (added; higher draws further back).
    BoneZSort(BoneId),
    /// Vertex offsets of the slot's mesh, x,y per vertex in bind space (added).
    SlotDeform(SlotId),
    /// Slot opacity (multiplied).
    SlotOpacity(SlotId),
    /// Slot tint channel 0..2 (r, g, b; multiplied).
    SlotTint(SlotId, u8),
    /// Slot screen tint channel 0..2 (added; for renderers).
    SlotScreenTint(SlotId, u8),
    /// Slot visibility: shown while the combined factor is at least 0.5 (multiplied).
    SlotVisible(SlotId),
    /// Opacity of the off-screen group (an Inochi2D Composite) on this bone (multiplied).
    GroupOpacity(BoneId),
    /// Tint channel 0..2 of the group on this bone (multiplied).
    GroupTint(BoneId, u8),
    /// Screen tint channel 0..2 of the group on this bone (added).
    GroupScreenTint(BoneId, u8),
    /// A physics driver's length (added).
    DriverLength(u16),
    /// A physics driver's gravity factor (multiplied).
    DriverGravity(u16),
}

impl Target {
    /// Whether bindings of this target multiply (scale-like) rather than add.
    pub fn multiplies(self) -> bool {
        matches!(
            self,
            Target::BoneScaleX(_)
                | Target::BoneScaleY(_)
                | Target::SlotOpacity(_)
                | Target::SlotTint(..)
                | Target::SlotVisible(_)
                | Target::GroupOpacity(_)
                | Target::GroupTint(..)
                | Target::DriverGravity(_)
        )
    }
}

/// One axis of a keyform grid: a parameter component and its normalised key positions.
///
/// Owner: the parameter stage (`params::update_params`; step 5 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct GridAxis {
    /// The parameter.
    pub param: ParamId,
    /// Its component (0 = x, 1 = y).
    pub component: u8,
    /// Key positions normalised to 0..1 over the component's range, sorted.
    pub keys: Vec<f64>,
}

/// A keyform grid bound to one target.
///
/// Owner: the parameter stage (`params::update_params`; step 5 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    /// What it drives.
    pub target: Target,
    /// Interpolation between keys.
    pub interp: Interp,
    /// Grid axes (1..=[`MAX_AXES`]); axis 0 is the slowest in `values`.
    pub axes: Vec<GridAxis>,
    /// Key count per axis (`axes[a].keys.len()`).
    pub dims: Vec<u32>,
    /// Floats per keyform: 1 for scalars, 2 x vertex count for deforms.
    pub stride: u32,
    /// Keyforms, `dims` product x `stride` floats.
    pub values: Vec<f32>,
    /// Whether any axis reads a physics-driven parameter (applied after physics).
    pub driven: bool,
}

/// The parameter data of a rig (empty for rigs without parameters).
///
/// Owner: the parameter stage (`params::update_params`; step 5 of `Character::update`).
#[derive(Debug, Clone, Default)]
pub struct ParamSet {
    /// Parameters; [`ParamId`] indexes this.
    pub params: Vec<ParamData>,
    /// Bindings, in file order.
    pub bindings: Vec<Binding>,
    /// Bones some binding drives (their locals are rewritten each frame).
    pub bound_bones: Vec<BoneId>,
    /// Slots some deform binding drives (their buffers are reset to setup each frame).
    pub deform_slots: Vec<SlotId>,
    /// Slots whose colour some binding drives.
    pub color_slots: Vec<SlotId>,
    /// Per bone: z-sort relative to the parent. Empty: the draw order is not z-sorted.
    pub bone_zsort: Vec<f64>,
    /// Per slot: the bone of the outermost composite group holding it (sorted as one
    /// item at its level), or `None`.
    pub slot_group: Vec<Option<BoneId>>,
    /// Per slot: initially visible.
    pub slot_visible: Vec<bool>,
    /// Per slot: its screen tint (Inochi2D Parts; empty when no slot has one).
    pub slot_screen: Vec<[f32; 3]>,
    /// Parameter physics.
    pub drivers: Vec<driver::DriverData>,
    /// Pendulum chains (Cubism physics3 style).
    pub chains: chain::ChainSet,
    /// Deformers (rotation, warp, mesh) and the bindings driving them.
    pub deformers: crate::deformer::DeformerSet,
    /// Parameters by name (edges only).
    pub names: HashMap<String, ParamId>,
    /// Flat index lists for the stage (built with the set).
    pub plan: plan::ParamPlan,
}

impl ParamSet {
    /// Finds a parameter by name.
    pub fn find(&self, name: &str) -> Option<ParamId> {
        self.names.get(name).copied()
    }

    /// Whether the rig has any parameters.
    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }
}

/// Additive bone offsets accumulated by the parameter stage.
///
/// Owner: the parameter stage (`params::update_params`; step 5 of `Character::update`).
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
/// Owner: the parameter stage (`params::update_params`; step 5 of `Character::update`).
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
/// Owner: the parameter stage (`params::update_params`; step 5 of `Character::update`).
#[derive(Debug, Clone)]
pub struct ParamState {
    /// Current value per parameter (x, y), clamped on use.
    pub values: Vec<[f64; 2]>,
    /// Parameters left out of the stage (an editor's mute; the reference cases that apply
    /// only some parameters). All `false` after [`ParamState::new`].
    pub muted: Vec<bool>,
    /// Combined bone offsets (per bone; kept between frames, see [`scalars`]).
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
    pub(crate) drivers: Vec<driver::DriverState>,
    /// Driver parameter overrides (length add, gravity factor) per driver.
    pub(crate) driver_offsets: Vec<[f64; 2]>,
    /// The physics clock.
    pub(crate) clock: crate::sim::clock::FixedClock,
    /// Whether the drivers have been placed at rest (the first physics frame places them).
    pub(crate) drivers_placed: bool,
    /// Deformer state (offsets, rotation frames, current lattices).
    pub(crate) deformers: crate::deformer::DeformerState,
    /// Pendulum chain state.
    pub(crate) chains: chain::ChainState,
    /// What the stage remembers between frames to skip unchanged work.
    pub(crate) cache: cache::ParamCache,
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
            drivers: p.drivers.iter().map(driver::DriverState::new).collect(),
            driver_offsets: vec![[0.0, 1.0]; p.drivers.len()],
            clock: crate::sim::clock::FixedClock::new(driver::clock_settings()),
            drivers_placed: false,
            deformers: crate::deformer::DeformerState::new(&p.deformers),
            chains: chain::ChainState::new(&p.chains),
            cache: cache::ParamCache::new(p).with_bones(rig.bones.len()),
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
    /// (`tests/inochi2d_cache.rs`). Results are the same either way.
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
