//! The parameter data of a rig (Live2D / Inochi2D style): parameters, keyform bindings,
//! parameter physics, pendulum chains, deformers, and the flat plan the parameter stage walks.
//!
//! Data only (layer: data; imports `ids`, `math`, `raw`, `sim` and the rest of `rig`, never a
//! stage): the builder (`params::build`) writes it; the parameter stage (`params`), the
//! parameter physics and the deformer stage read it.

pub mod chain;
pub(crate) mod corners;
pub mod deformer;
pub mod driver;
pub(crate) mod plan;
pub(crate) mod scalar_plan;

use crate::ids::{BoneId, ParamId, SlotId};
use crate::math::grid::{Interp, MAX_AXES};
use crate::raw::params::{RawAxis, RawParams};
use crate::rig::problem::{BuildPart, BuildProblem, ProblemKind};
use std::collections::HashMap;

/// A parameter's definition.
///
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
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
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
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
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
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
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
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
/// Owner: the builder writes it; the parameter stage (step 5 of `Character::update`) reads it.
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
    pub deformers: deformer::DeformerSet,
    /// Parameters by name (edges only).
    pub names: HashMap<String, ParamId>,
    /// Flat index lists for the stage (built with the set).
    pub(crate) plan: plan::ParamPlan,
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

/// Most parameters a rig may have.
pub const MAX_PARAMS: usize = 4096;
/// Most keys on one axis.
pub const MAX_KEYS: usize = 256;
/// Most keyforms in one grid.
pub const MAX_KEYFORMS: usize = 4096;

/// Resolves a binding's axes against the built parameters: names to ids, and each axis's
/// keys (the binding's own, or else the parameter's axis points) checked to be 1..=
/// [`MAX_KEYS`] sorted finite values, with at most [`MAX_KEYFORMS`] keyforms in all.
/// Returns the axes, the keyform count and whether any axis reads a physics-driven
/// parameter; otherwise pushes errors that begin with `what()` and returns `None`.
/// Parameter and deformer bindings both use it.
pub(crate) fn resolve_axes(
    set: &ParamSet,
    raw: &RawParams,
    raw_axes: &[RawAxis],
    what: &dyn Fn() -> String,
    part: BuildPart,
    errs: &mut Vec<BuildProblem>,
) -> Option<(Vec<GridAxis>, usize, bool)> {
    if raw_axes.is_empty() || raw_axes.len() > MAX_AXES {
        errs.push(BuildProblem::value(
            part,
            what(),
            format!("1..={MAX_AXES} axes required"),
        ));
        return None;
    }
    let mut axes = Vec::with_capacity(raw_axes.len());
    let mut count = 1usize;
    let mut driven = false;
    for a in raw_axes {
        // Built parameters keep the raw order, so an id indexes `raw.params` too.
        let Some((p, rp)) = set
            .find(&a.param)
            .and_then(|p| raw.params.get(p.index()).map(|rp| (p, rp)))
        else {
            errs.push(BuildProblem::unknown(what(), "parameter", &a.param).in_part(part));
            continue;
        };
        let c = usize::from(a.component.min(1));
        let keys = a.keys.clone().unwrap_or_else(|| rp.axis_points[c].clone());
        if keys.is_empty()
            || keys.len() > MAX_KEYS
            || keys.iter().any(|k| !k.is_finite())
            || keys.windows(2).any(|w| w[1] < w[0])
        {
            errs.push(BuildProblem::value(
                part,
                what(),
                format!("parameter `{}` axis {c}: bad keys", a.param),
            ));
            continue;
        }
        driven |= set.params[p.index()].driven;
        count = count.saturating_mul(keys.len());
        axes.push(GridAxis {
            param: p,
            component: c as u8,
            keys,
        });
    }
    if axes.len() != raw_axes.len() {
        return None;
    }
    if count > MAX_KEYFORMS {
        errs.push(
            BuildProblem::new(
                ProblemKind::TooMany,
                what(),
                format!("{count} keyforms (at most {MAX_KEYFORMS})"),
            )
            .in_part(part),
        );
        return None;
    }
    Some((axes, count, driven))
}
