//! Rig: the immutable, shareable form of a character (tables indexed by dense ids).
//!
//! Built from a [`crate::raw::RawRig`] by [`crate::build::build_rig`], which has already
//! checked every index, so per-frame code indexes these tables without further checks.
//!
//! Layer: data. Owns the shared tables: bones, slots, constraints, attachments, clips
//! ([`clip`], [`curve`], [`playback`]) and the parameter set ([`params`]); imports only data
//! (`ids`, `types`, `math`, `sim`, `raw`), never a stage (`layering_tests.rs` checks it).

mod attachment;
pub mod clip;
pub mod curve;
pub mod params;
pub mod playback;
pub mod problem;
#[cfg(feature = "rig-deformers")]
pub mod world_deformers;
pub use attachment::*;

use crate::ids::*;
use crate::raw::Sequence;
use crate::types::{BlendMode, Color, IkSolver, Inherit, PositionMode, RotateMode, SpacingMode};
use std::collections::HashMap;

/// An immutable character definition, shared (`Arc`) by any number of instances.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
///
/// Not `Default`, and [`Rig::uid`] is read-only: the builder is the only producer of a rig
/// (one made by hand would skip the checks every stage relies on).
///
/// Its `Debug` is a summary (source, version, table sizes), not the tables: a rig's curves
/// and vertices run to megabytes.
///
/// ```
/// # let mut raw = sinew::raw::RawRig::default();
/// # raw.bones.push(sinew::raw::RawBone::new("root", None));
/// let rig = sinew::build::build_rig(&raw).expect("rig");
/// let text = format!("{rig:?}");
/// assert!(text.contains("bones: 1") && text.len() < 400, "{text}");
/// ```
#[derive(Clone)]
pub struct Rig {
    /// Where the rig came from.
    pub source: String,
    /// Editor version string.
    pub version: String,
    /// Whose semantics pose the rig where Spine 4.2 and 4.3 differ (from
    /// [`RawRig::runtime`](crate::raw::RawRig::runtime)).
    pub runtime: crate::types::SpineRuntime,
    /// Editor hash.
    pub hash: String,
    /// Setup bounds `[x, y, width, height]`.
    pub bounds: [f64; 4],
    /// Physics reference scale.
    pub reference_scale: f64,
    /// This built rig's identity in the process: distinct for every
    /// [`build_rig`](crate::build::build_rig) call (0 for a rig assembled by hand). Tables
    /// built for a rig (jiggle bones, follows) remember it, so a character refuses another
    /// rig's. Read it with [`Rig::uid`].
    pub(crate) uid: u64,
    /// Bones, parent-first.
    pub bones: Vec<BoneData>,
    /// Slots in setup draw order.
    pub slots: Vec<SlotData>,
    /// IK constraints.
    pub ik: Vec<IkData>,
    /// Transform constraints.
    pub transforms: Vec<TransformData>,
    /// Path constraints.
    pub paths: Vec<PathData>,
    /// Physics constraints.
    pub physics: Vec<PhysicsData>,
    /// Slider constraints (Spine 4.3).
    pub sliders: Vec<SliderData>,
    /// Every constraint in update order (`order` 0..N-1).
    pub constraint_order: Vec<ConstraintRef>,
    /// Every attachment of every skin (linked meshes resolved to full meshes).
    pub attachments: Vec<Attachment>,
    /// Interned attachment keys; [`NameId`] indexes this.
    pub attachment_keys: Vec<String>,
    /// Skins.
    pub skins: Vec<SkinData>,
    /// The skin named `default`, if any.
    pub default_skin: Option<SkinId>,
    /// Event definitions.
    pub events: Vec<EventData>,
    /// Animation clips.
    pub clips: Vec<clip::Clip>,
    /// For each slot, the largest deform buffer (floats) any attachment it can show needs.
    pub slot_deform_capacity: Vec<u32>,
    /// For each slot, whether one of the clips has a deform timeline for it (the builder
    /// fills it). An [`Instance`](crate::Instance) gives a deform buffer only to the slots
    /// something deforms: these, and the slots of the parameter stage's deform bindings and
    /// deformers. Empty (a rig made by hand) means every slot gets its buffer.
    pub slot_deform_timelines: Vec<bool>,
    /// Name lookups (edges only; never used per frame).
    pub names: NameMaps,
    /// Parameters, keyform bindings and parameter physics (empty unless the format has them).
    pub params: params::ParamSet,
    /// Bone rotations use exact trigonometry (f64's own pi, the y axis exactly 90 degrees
    /// from the x axis), so an unrotated bone's matrix is exactly the identity. Formats
    /// other than Spine set it; Spine rigs keep Spine's float-rounded pi
    /// (COMPAT(spine): spine-ts's `MathUtils.degRad` uses `PI = 3.1415927`).
    pub exact_angles: bool,
    /// How unweighted vertex attachments are placed in the world (see [`VertexMath`]).
    pub vertex_math: VertexMath,
}

/// The arithmetic of unweighted world vertices, each format's runtime's own.
///
/// ```
/// use sinew::rig::VertexMath;
/// // Spine's (and DragonBones') f64 order is the default; Inochi2D puppets take f32.
/// assert_eq!(VertexMath::default(), VertexMath::SpineF64);
/// ```
///
/// Owner: the builder (`build::BuildInputs::vertex_math`); the world-vertex stage (step 9 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VertexMath {
    /// `(x·a + y·b) + tx` in f64 in Spine's order, rounded once to f32: spine-ts's
    /// `computeWorldVertices` bit for bit.
    #[default]
    SpineF64,
    /// `fma(x, a, fma(y, b, tx))`, `fma(y, d, fma(x, c, ty))` in f32 (source and matrix rounded to f32 first), as
    /// Inochi2D's f32 runtimes place vertices; within a few f32 ulps of `SpineF64` and
    /// about 2.5x cheaper (eight floats a vector instead of four).
    F32Fused,
}

/// Name-to-id maps for the edges of the API.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone, Default)]
pub struct NameMaps {
    /// Bones by name.
    pub bones: HashMap<String, BoneId>,
    /// Slots by name.
    pub slots: HashMap<String, SlotId>,
    /// Skins by name.
    pub skins: HashMap<String, SkinId>,
    /// Clips by name.
    pub clips: HashMap<String, ClipId>,
    /// Events by name.
    pub events: HashMap<String, EventId>,
    /// IK constraints by name.
    pub ik: HashMap<String, IkId>,
    /// Transform constraints by name.
    pub transforms: HashMap<String, TransformId>,
    /// Path constraints by name.
    pub paths: HashMap<String, PathId>,
    /// Physics constraints by name.
    pub physics: HashMap<String, PhysicsId>,
    /// Slider constraints by name.
    pub sliders: HashMap<String, SliderId>,
    /// Attachment keys by name.
    pub attachment_keys: HashMap<String, NameId>,
}

impl Rig {
    /// An empty rig: the builder's starting point (and the crate's tests').
    pub(crate) fn empty() -> Rig {
        Rig {
            source: Default::default(),
            version: Default::default(),
            runtime: Default::default(),
            hash: Default::default(),
            bounds: Default::default(),
            reference_scale: Default::default(),
            uid: Default::default(),
            bones: Default::default(),
            slots: Default::default(),
            ik: Default::default(),
            transforms: Default::default(),
            paths: Default::default(),
            physics: Default::default(),
            sliders: Default::default(),
            constraint_order: Default::default(),
            attachments: Default::default(),
            attachment_keys: Default::default(),
            skins: Default::default(),
            default_skin: Default::default(),
            events: Default::default(),
            clips: Default::default(),
            slot_deform_capacity: Default::default(),
            slot_deform_timelines: Default::default(),
            names: Default::default(),
            params: Default::default(),
            exact_angles: Default::default(),
            vertex_math: Default::default(),
        }
    }

    /// This built rig's identity in the process (see the field's docs): tables built for a
    /// rig remember it.
    pub fn uid(&self) -> u64 {
        self.uid
    }

    /// Finds a bone by name.
    pub fn bone(&self, name: &str) -> Option<BoneId> {
        self.names.bones.get(name).copied()
    }
    /// Finds a slot by name.
    pub fn slot(&self, name: &str) -> Option<SlotId> {
        self.names.slots.get(name).copied()
    }
    /// Finds a skin by name.
    pub fn skin(&self, name: &str) -> Option<SkinId> {
        self.names.skins.get(name).copied()
    }
    /// Finds a clip by name.
    pub fn clip(&self, name: &str) -> Option<ClipId> {
        self.names.clips.get(name).copied()
    }
}

impl std::fmt::Debug for Rig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rig")
            .field("source", &self.source)
            .field("version", &self.version)
            .field("bones", &self.bones.len())
            .field("slots", &self.slots.len())
            .field("ik", &self.ik.len())
            .field("transforms", &self.transforms.len())
            .field("paths", &self.paths.len())
            .field("physics", &self.physics.len())
            .field("attachments", &self.attachments.len())
            .field("skins", &self.skins.len())
            .field("events", &self.events.len())
            .field("clips", &self.clips.len())
            .field("params", &self.params.params.len())
            .finish_non_exhaustive()
    }
}

/// A bone's setup data.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub struct BoneData {
    /// Name.
    pub name: String,
    /// Parent (always a smaller id).
    pub parent: Option<BoneId>,
    /// Length.
    pub length: f64,
    /// Setup local pose.
    pub setup: LocalPose,
    /// Setup inherit mode.
    pub inherit: Inherit,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
}

/// A bone's local transform: translation, rotation, scale and shear (angles in degrees,
/// as Spine keeps them; COMPAT(spine): degrees keep the official wrap arithmetic exact).
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalPose {
    /// X in parent space.
    pub x: f64,
    /// Y in parent space.
    pub y: f64,
    /// Rotation, degrees.
    pub rotation: f64,
    /// Scale x.
    pub scale_x: f64,
    /// Scale y.
    pub scale_y: f64,
    /// Shear x, degrees.
    pub shear_x: f64,
    /// Shear y, degrees.
    pub shear_y: f64,
}

impl LocalPose {
    /// The identity pose.
    pub const IDENTITY: LocalPose = LocalPose {
        x: 0.0,
        y: 0.0,
        rotation: 0.0,
        scale_x: 1.0,
        scale_y: 1.0,
        shear_x: 0.0,
        shear_y: 0.0,
    };
}

impl Default for LocalPose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// A slot's setup data.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub struct SlotData {
    /// Name.
    pub name: String,
    /// Bone.
    pub bone: BoneId,
    /// Setup colour.
    pub color: Color,
    /// Setup dark colour (tint black), if the slot has one (alpha unused).
    pub dark: Option<Color>,
    /// Setup attachment key.
    pub attachment: Option<NameId>,
    /// Blend mode.
    pub blend: BlendMode,
    /// Editor visibility.
    pub visible: bool,
}

/// A reference to one constraint of any kind.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstraintRef {
    /// IK.
    Ik(IkId),
    /// Transform.
    Transform(TransformId),
    /// Path.
    Path(PathId),
    /// Physics.
    Physics(PhysicsId),
    /// Slider (Spine 4.3).
    Slider(SliderId),
}

/// An IK constraint.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub struct IkData {
    /// Name.
    pub name: String,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
    /// One or two bones.
    pub bones: Vec<BoneId>,
    /// Target bone.
    pub target: BoneId,
    /// Setup mix.
    pub mix: f64,
    /// Setup softness.
    pub softness: f64,
    /// Setup bend direction (+1 or -1).
    pub bend_direction: i8,
    /// Setup compress.
    pub compress: bool,
    /// Setup stretch.
    pub stretch: bool,
    /// Uniform scaling.
    pub uniform: bool,
    /// Spine 4.3 `scaleY: volume` (over `uniform`).
    pub volume: bool,
    /// Which runtime's solver.
    pub solver: IkSolver,
}

/// Transform constraint mixes (animatable).
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TransformMix {
    /// Rotation mix.
    pub rotate: f64,
    /// X mix.
    pub x: f64,
    /// Y mix.
    pub y: f64,
    /// Scale x mix.
    pub scale_x: f64,
    /// Scale y mix.
    pub scale_y: f64,
    /// Shear y mix.
    pub shear_y: f64,
}

/// A transform constraint.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub struct TransformData {
    /// Name.
    pub name: String,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
    /// Constrained bones.
    pub bones: Vec<BoneId>,
    /// Target bone.
    pub target: BoneId,
    /// Local space.
    pub local: bool,
    /// Relative.
    pub relative: bool,
    /// Offset rotation, degrees.
    pub offset_rotation: f64,
    /// Offset x.
    pub offset_x: f64,
    /// Offset y.
    pub offset_y: f64,
    /// Offset scale x.
    pub offset_scale_x: f64,
    /// Offset scale y.
    pub offset_scale_y: f64,
    /// Offset shear y, degrees.
    pub offset_shear_y: f64,
    /// Setup mixes.
    pub mix: TransformMix,
    /// Spine 4.3's property mapping; empty: 4.2's fixed mapping (`constraint::transform`),
    /// else posed by `constraint::transform43` with `local` as `localSource` and
    /// `relative` as `additive`.
    pub properties: Vec<crate::types::TransformFrom>,
    /// Spine 4.3 `localTarget`.
    pub local_target: bool,
    /// Spine 4.3 `clamp`.
    pub clamp: bool,
}

/// Path constraint animatable state.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PathMix {
    /// Position along the path.
    pub position: f64,
    /// Spacing.
    pub spacing: f64,
    /// Rotation mix.
    pub mix_rotate: f64,
    /// X mix.
    pub mix_x: f64,
    /// Y mix.
    pub mix_y: f64,
}

/// A Spine 4.3 slider constraint (`Slider`, `SliderData`): in the update order it applies
/// `clip` onto the applied pose at its time with its mix (mixing from the current pose, or
/// adding with `additive`); the clip's bones are posed again after it.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub struct SliderData {
    /// Name.
    pub name: String,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
    /// The clip applied.
    pub clip: ClipId,
    /// The bones the clip's bone timelines key, first appearance first (Spine
    /// `Animation.bones`): posed again after the slider.
    pub clip_bones: Vec<BoneId>,
    /// Adds the clip to the current pose.
    pub additive: bool,
    /// Repeats the clip past its duration.
    pub looping: bool,
    /// Setup time and mix.
    pub setup: SliderPose,
    /// The bone property driving the time, if any.
    pub driver: Option<SliderDriver>,
}

/// A slider's animatable values (Spine `SliderPose`).
///
/// Owner: as [`SliderData`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SliderPose {
    /// Time in the clip, seconds.
    pub time: f64,
    /// Mix (0 leaves the pose alone).
    pub mix: f64,
}

/// The bone property driving a slider's time: `time = to + (value - from) * scale`.
///
/// Owner: as [`SliderData`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SliderDriver {
    /// Bone read.
    pub bone: BoneId,
    /// Property read.
    pub property: crate::types::TransformProperty,
    /// The property value that maps to `to`.
    pub from: f64,
    /// The time at `from`.
    pub to: f64,
    /// Seconds per property unit.
    pub scale: f64,
    /// Editor-only range end (kept for writing).
    pub max: f64,
    /// Reads the bone's applied local pose instead of its world transform.
    pub local: bool,
}

/// A path constraint.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub struct PathData {
    /// Name.
    pub name: String,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
    /// Constrained bones.
    pub bones: Vec<BoneId>,
    /// Target slot.
    pub target: SlotId,
    /// Position mode.
    pub position_mode: PositionMode,
    /// Spacing mode.
    pub spacing_mode: SpacingMode,
    /// Rotate mode.
    pub rotate_mode: RotateMode,
    /// Rotation offset, degrees.
    pub offset_rotation: f64,
    /// Setup values.
    pub setup: PathMix,
}

/// Physics constraint animatable parameters.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PhysicsParams {
    /// Inertia.
    pub inertia: f64,
    /// Strength.
    pub strength: f64,
    /// Damping.
    pub damping: f64,
    /// Inverse mass.
    pub mass_inverse: f64,
    /// Wind.
    pub wind: f64,
    /// Gravity.
    pub gravity: f64,
    /// Mix.
    pub mix: f64,
}

/// A Spine 4.2 physics constraint.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub struct PhysicsData {
    /// Name.
    pub name: String,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
    /// Bone.
    pub bone: BoneId,
    /// Drive x.
    pub x: f64,
    /// Drive y.
    pub y: f64,
    /// Drive rotation.
    pub rotate: f64,
    /// Drive scale x.
    pub scale_x: f64,
    /// Drive shear x.
    pub shear_x: f64,
    /// How the scale x drive scales y.
    pub scale_y: crate::types::ScaleYMode,
    /// Spine 4.3: the displayed pose is interpolated between the last two physics steps
    /// (`offset - lag * z`); 4.2 shows the last step.
    pub interpolate: bool,
    /// Speed limit.
    pub limit: f64,
    /// Fixed step, seconds.
    pub step: f64,
    /// Setup parameters.
    pub setup: PhysicsParams,
    /// Global flags: inertia, strength, damping, mass, wind, gravity, mix.
    pub inertia_global: bool,
    /// Strength global.
    pub strength_global: bool,
    /// Damping global.
    pub damping_global: bool,
    /// Mass global.
    pub mass_global: bool,
    /// Wind global.
    pub wind_global: bool,
    /// Gravity global.
    pub gravity_global: bool,
    /// Mix global.
    pub mix_global: bool,
}

/// A skin: attachment table plus skin-scoped bones and constraints.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone, Default)]
pub struct SkinData {
    /// Name.
    pub name: String,
    /// (slot, key, attachment), sorted by (slot, key) for binary search.
    pub entries: Vec<(SlotId, NameId, AttachmentId)>,
    /// Skin-required bones activated.
    pub bones: Vec<BoneId>,
    /// Skin-required constraints activated.
    pub constraints: Vec<ConstraintRef>,
}

impl SkinData {
    /// The attachment this skin has for a slot and key.
    pub fn get(&self, slot: SlotId, key: NameId) -> Option<AttachmentId> {
        self.entries
            .binary_search_by(|e| (e.0, e.1).cmp(&(slot, key)))
            .ok()
            .map(|i| self.entries[i].2)
    }
}

/// An event definition.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone, Default)]
pub struct EventData {
    /// Name.
    pub name: String,
    /// Default int.
    pub int: i32,
    /// Default float.
    pub float: f32,
    /// Default string.
    pub string: String,
    /// Audio path.
    pub audio: Option<String>,
    /// Default volume.
    pub volume: f32,
    /// Default balance.
    pub balance: f32,
}

/// Region/sequence helper re-exported for attachments.
///
/// Owner: the builder (`build`); the animation stage (sequence timelines) and the world-vertex stage read it.
pub type SequenceData = Sequence;
