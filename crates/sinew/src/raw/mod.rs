//! RawRig: the authoring form every loader produces.
//!
//! References between items are by name (bones, slots, skins, constraints) exactly as the
//! source file spells them; [`crate::build::build_rig`] resolves them into a [`crate::Rig`]
//! and reports every problem at once. Units follow the Spine convention that the runtime
//! keeps for exactness: lengths in rig units (y up), angles in degrees, times in seconds.
//!
//! Layer: data. Owns the authoring form, parameters and deformers included ([`params`],
//! [`deformers`]); imports `types` and `math` only.

mod anim;
pub mod deformers;
pub mod params;
pub use anim::*;

use crate::types::{
    BlendMode, Color, IkSolver, Inherit, PositionMode, RotateMode, ScaleYMode, SpacingMode,
    SpineRuntime, TransformFrom,
};

/// A whole rig in authoring form.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, Default)]
pub struct RawRig {
    /// Where the rig came from (a file name), used in messages.
    pub source: String,
    /// Editor version string as written in the file (e.g. `4.2.22`).
    pub version: String,
    /// Whose semantics pose the rig where Spine 4.2 and 4.3 differ (the loader sets it from
    /// the version; every other format keeps the default).
    pub runtime: SpineRuntime,
    /// Content hash written by the editor, if any.
    pub hash: String,
    /// Setup-pose bounds `[x, y, width, height]` as written by the editor.
    pub bounds: [f64; 4],
    /// Physics reference scale (Spine `referenceScale`, default 100).
    pub reference_scale: f64,
    /// Bones, parent before child.
    pub bones: Vec<RawBone>,
    /// Slots in setup draw order.
    pub slots: Vec<RawSlot>,
    /// IK constraints.
    pub ik: Vec<RawIk>,
    /// Transform constraints.
    pub transforms: Vec<RawTransform>,
    /// Path constraints.
    pub paths: Vec<RawPath>,
    /// Physics constraints.
    pub physics: Vec<RawPhysics>,
    /// Slider constraints (Spine 4.3).
    pub sliders: Vec<RawSlider>,
    /// Skins; the one named `default` is the default skin.
    pub skins: Vec<RawSkin>,
    /// Event definitions.
    pub events: Vec<RawEvent>,
    /// Animation clips.
    pub clips: Vec<RawClip>,
}

/// A bone's setup pose and options.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone)]
pub struct RawBone {
    /// Unique bone name (may contain `/`).
    pub name: String,
    /// Parent bone name; `None` only for the root.
    pub parent: Option<String>,
    /// Bone length in rig units.
    pub length: f64,
    /// Local x.
    pub x: f64,
    /// Local y.
    pub y: f64,
    /// Local rotation, degrees.
    pub rotation: f64,
    /// Local scale x.
    pub scale_x: f64,
    /// Local scale y.
    pub scale_y: f64,
    /// Local shear x, degrees.
    pub shear_x: f64,
    /// Local shear y, degrees.
    pub shear_y: f64,
    /// How the bone inherits its parent's transform.
    pub inherit: Inherit,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
}

impl RawBone {
    /// A bone with the identity local pose.
    pub fn new(name: &str, parent: Option<&str>) -> Self {
        RawBone {
            name: name.to_owned(),
            parent: parent.map(str::to_owned),
            length: 0.0,
            x: 0.0,
            y: 0.0,
            rotation: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            shear_x: 0.0,
            shear_y: 0.0,
            inherit: Inherit::Normal,
            skin_required: false,
        }
    }
}

/// A slot: a draw-order entry attached to a bone.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone)]
pub struct RawSlot {
    /// Unique slot name.
    pub name: String,
    /// Bone the slot follows.
    pub bone: String,
    /// Setup tint colour.
    pub color: Color,
    /// Setup dark colour (two-colour tint); `None` when the slot has no tint black.
    pub dark: Option<Color>,
    /// Setup attachment key.
    pub attachment: Option<String>,
    /// Blend mode.
    pub blend: BlendMode,
    /// Editor visibility flag (nonessential).
    pub visible: bool,
}

/// An IK constraint.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone)]
pub struct RawIk {
    /// Constraint name.
    pub name: String,
    /// Position in the global constraint order (0..N-1 over all kinds).
    pub order: u32,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
    /// One or two bones (parent, child).
    pub bones: Vec<String>,
    /// Target bone.
    pub target: String,
    /// Mix 0..1.
    pub mix: f64,
    /// Softness in rig units.
    pub softness: f64,
    /// Bend direction: `true` = +1.
    pub bend_positive: bool,
    /// Scale the bone down when the target is closer than its length (one bone only).
    pub compress: bool,
    /// Scale the bone up when the target is beyond reach.
    pub stretch: bool,
    /// Scale y along with x when compressing/stretching.
    pub uniform: bool,
    /// Spine 4.3 `scaleY: volume`: scale y by the volume curve instead (over `uniform`).
    pub volume: bool,
    /// Which runtime's solver (Spine unless a DragonBones loader says so).
    pub solver: IkSolver,
}

impl RawSlot {
    /// A visible slot on `bone`, white, normal blending, showing nothing.
    pub fn new(name: &str, bone: &str) -> Self {
        RawSlot {
            name: name.to_owned(),
            bone: bone.to_owned(),
            color: Color::WHITE,
            dark: None,
            attachment: None,
            blend: BlendMode::Normal,
            visible: true,
        }
    }
}

impl RawIk {
    /// An IK constraint of `bones` (one, or a parent and its child) toward `target`, with
    /// Spine's defaults: mix 1, no softness, bend positive, no compress or stretch, first in
    /// the constraint order.
    pub fn new(name: &str, bones: &[&str], target: &str) -> Self {
        RawIk {
            name: name.to_owned(),
            order: 0,
            skin_required: false,
            bones: bones.iter().map(|b| (*b).to_owned()).collect(),
            target: target.to_owned(),
            mix: 1.0,
            softness: 0.0,
            bend_positive: true,
            compress: false,
            stretch: false,
            uniform: false,
            volume: false,
            solver: IkSolver::default(),
        }
    }
}

/// A transform constraint.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone)]
pub struct RawTransform {
    /// Constraint name.
    pub name: String,
    /// Position in the global constraint order.
    pub order: u32,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
    /// Constrained bones.
    pub bones: Vec<String>,
    /// Target bone.
    pub target: String,
    /// Work on local (applied) values instead of world matrices.
    pub local: bool,
    /// Add to the bones' values instead of replacing them.
    pub relative: bool,
    /// Offsets: rotation (deg), x, y, scale x, scale y, shear y (deg).
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
    /// Mixes 0..1.
    pub mix_rotate: f64,
    /// Mix x.
    pub mix_x: f64,
    /// Mix y.
    pub mix_y: f64,
    /// Mix scale x.
    pub mix_scale_x: f64,
    /// Mix scale y.
    pub mix_scale_y: f64,
    /// Mix shear y.
    pub mix_shear_y: f64,
    /// Spine 4.3: the property mapping (empty: 4.2's fixed mapping, posed the 4.2 way).
    /// With it, `local` is 4.3's `localSource` and `relative` its `additive`.
    pub properties: Vec<TransformFrom>,
    /// Spine 4.3 `localTarget` (read only with `properties`).
    pub local_target: bool,
    /// Spine 4.3 `clamp` (read only with `properties`).
    pub clamp: bool,
}

/// A path constraint.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone)]
pub struct RawPath {
    /// Constraint name.
    pub name: String,
    /// Position in the global constraint order.
    pub order: u32,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
    /// Constrained bones.
    pub bones: Vec<String>,
    /// Target slot whose current attachment must be a path.
    pub target: String,
    /// How `position` is measured.
    pub position_mode: PositionMode,
    /// How `spacing` is measured.
    pub spacing_mode: SpacingMode,
    /// How bones are rotated.
    pub rotate_mode: RotateMode,
    /// Rotation offset, degrees.
    pub offset_rotation: f64,
    /// Position along the path.
    pub position: f64,
    /// Spacing between bones.
    pub spacing: f64,
    /// Mixes.
    pub mix_rotate: f64,
    /// Mix x.
    pub mix_x: f64,
    /// Mix y.
    pub mix_y: f64,
}

/// A Spine 4.3 slider constraint: applies an animation onto the applied pose at a time
/// that is its own (keyed by slider timelines) or read from a bone property.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawSlider {
    /// Constraint name.
    pub name: String,
    /// Position in the global constraint order.
    pub order: u32,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
    /// The animation applied (a clip of the rig).
    pub animation: String,
    /// Adds the animation to the current pose instead of mixing toward it.
    pub additive: bool,
    /// Repeats the animation past its duration.
    pub looping: bool,
    /// Setup time, seconds (used when no bone drives the time).
    pub time: f64,
    /// Setup mix.
    pub mix: f64,
    /// The bone whose property drives the time, if any.
    pub bone: Option<RawSliderBone>,
}

/// The bone property driving a [`RawSlider`]'s time:
/// `time = to + (value(property) - from) * scale`.
///
/// Owner: as [`RawSlider`].
#[derive(Debug, Clone, PartialEq)]
pub struct RawSliderBone {
    /// Bone name.
    pub bone: String,
    /// The property read.
    pub property: crate::types::TransformProperty,
    /// The property value that maps to `to`.
    pub from: f64,
    /// The time at `from`.
    pub to: f64,
    /// Seconds per property unit.
    pub scale: f64,
    /// Editor-only range end (kept for writing).
    pub max: f64,
    /// Reads the bone's local pose instead of its world transform.
    pub local: bool,
}

/// A Spine 4.2 physics constraint.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone)]
pub struct RawPhysics {
    /// Constraint name.
    pub name: String,
    /// Position in the global constraint order.
    pub order: u32,
    /// Active only when the current skin lists it.
    pub skin_required: bool,
    /// Constrained bone.
    pub bone: String,
    /// How strongly each property is driven (0 = not at all).
    pub x: f64,
    /// Y drive.
    pub y: f64,
    /// Rotation drive.
    pub rotate: f64,
    /// Scale x drive.
    pub scale_x: f64,
    /// Shear x drive.
    pub shear_x: f64,
    /// How the scale x drive scales y (Spine 4.3 `scaleY`; 4.2 files: none).
    pub scale_y: ScaleYMode,
    /// Maximum speed, units per second.
    pub limit: f64,
    /// Fixed step in seconds (1 / fps).
    pub step: f64,
    /// Inertia 0..1.
    pub inertia: f64,
    /// Spring strength.
    pub strength: f64,
    /// Damping 0..1 (per 1/60 s).
    pub damping: f64,
    /// Inverse of the mass.
    pub mass_inverse: f64,
    /// Wind force.
    pub wind: f64,
    /// Gravity force.
    pub gravity: f64,
    /// Mix 0..1.
    pub mix: f64,
    /// Whether global (unnamed) timelines drive inertia.
    pub inertia_global: bool,
    /// ... strength.
    pub strength_global: bool,
    /// ... damping.
    pub damping_global: bool,
    /// ... mass.
    pub mass_global: bool,
    /// ... wind.
    pub wind_global: bool,
    /// ... gravity.
    pub gravity_global: bool,
    /// ... mix.
    pub mix_global: bool,
}

/// A skin: attachments per (slot, key) plus skin-scoped bones and constraints.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, Default)]
pub struct RawSkin {
    /// Skin name (`default` for the default skin).
    pub name: String,
    /// Skin-required bones this skin activates.
    pub bones: Vec<String>,
    /// Skin-required IK constraints this skin activates.
    pub ik: Vec<String>,
    /// Skin-required transform constraints this skin activates.
    pub transforms: Vec<String>,
    /// Skin-required path constraints this skin activates.
    pub paths: Vec<String>,
    /// Skin-required physics constraints this skin activates.
    pub physics: Vec<String>,
    /// Skin-required slider constraints activated.
    pub sliders: Vec<String>,
    /// Attachments, in file order.
    pub attachments: Vec<RawSkinEntry>,
}

/// One attachment of a skin.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone)]
pub struct RawSkinEntry {
    /// Slot name.
    pub slot: String,
    /// Attachment key within the slot (what timelines and the slot's setup name).
    pub key: String,
    /// The attachment.
    pub attachment: RawAttachment,
}

/// An attachment with its real name (the file's `name`, else the key).
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone)]
pub struct RawAttachment {
    /// Attachment name.
    pub name: String,
    /// What it is.
    pub kind: RawAttachmentKind,
}

/// Vertices of a vertex attachment, in Spine's layout.
///
/// Unweighted: `bones` is empty and `values` holds x,y per vertex (slot-bone space).
/// Weighted: `bones` holds, per vertex, an influence count n followed by n bone indices
/// (into the rig's bone list); `values` holds x, y (bone space), weight per influence.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Vertices {
    /// Number of vertices (world x,y pairs produced).
    pub count: u32,
    /// Influence counts and bone indices; empty when unweighted.
    pub bones: Vec<u32>,
    /// Coordinates (and weights when weighted).
    pub values: Vec<f32>,
}

impl Vertices {
    /// Whether the vertices are weighted to several bones.
    pub fn is_weighted(&self) -> bool {
        !self.bones.is_empty()
    }
}

/// A texture-sequence description (Spine `sequence`).
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sequence {
    /// Number of regions.
    pub count: u32,
    /// Number appended to the path for the first region.
    pub start: u32,
    /// Zero-padding width of the number.
    pub digits: u32,
    /// Region index shown in the setup pose.
    pub setup_index: u32,
}

/// The kinds of attachment.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone)]
pub enum RawAttachmentKind {
    /// A textured quad.
    Region {
        /// Atlas path (defaults to the name).
        path: String,
        /// Offset x in bone space.
        x: f64,
        /// Offset y.
        y: f64,
        /// Scale x.
        scale_x: f64,
        /// Scale y.
        scale_y: f64,
        /// Rotation, degrees.
        rotation: f64,
        /// Width in rig units.
        width: f64,
        /// Height.
        height: f64,
        /// Attachment colour.
        color: Color,
        /// Texture sequence.
        sequence: Option<Sequence>,
    },
    /// A textured triangle mesh.
    Mesh {
        /// Atlas path.
        path: String,
        /// Attachment colour.
        color: Color,
        /// Vertices.
        vertices: Vertices,
        /// UVs normalised to the region, 2 per vertex.
        uvs: Vec<f32>,
        /// Triangle vertex indices.
        triangles: Vec<u16>,
        /// Number of hull vertices.
        hull: u32,
        /// Edge pairs (nonessential).
        edges: Vec<u16>,
        /// Width (nonessential).
        width: f64,
        /// Height (nonessential).
        height: f64,
        /// Texture sequence.
        sequence: Option<Sequence>,
    },
    /// A mesh that shares the geometry of another mesh.
    LinkedMesh {
        /// Atlas path.
        path: String,
        /// Attachment colour.
        color: Color,
        /// Key of the parent mesh, in the same slot or in `parent_slot`.
        parent: String,
        /// Skin of the parent (`None`: the default skin).
        skin: Option<String>,
        /// The parent's slot when it is another slot (Spine 4.3 `slot`); `None`: the same
        /// slot. With `inherit_timelines`, the parent's deform and sequence timelines then
        /// apply in this slot too.
        parent_slot: Option<String>,
        /// Use the parent's deform and sequence timelines.
        inherit_timelines: bool,
        /// Width.
        width: f64,
        /// Height.
        height: f64,
        /// Texture sequence.
        sequence: Option<Sequence>,
    },
    /// A polygon for hit testing.
    BoundingBox {
        /// Vertices.
        vertices: Vertices,
        /// Editor colour.
        color: Color,
    },
    /// A cubic Bezier spline for path constraints.
    Path {
        /// Whether the path closes on itself.
        closed: bool,
        /// Whether positions are arc-length corrected.
        constant_speed: bool,
        /// Vertices: 3 per control point (in-handle, point, out-handle).
        vertices: Vertices,
        /// Cumulative curve lengths, one per curve.
        lengths: Vec<f64>,
    },
    /// A point with a rotation.
    Point {
        /// X in bone space.
        x: f64,
        /// Y.
        y: f64,
        /// Rotation, degrees.
        rotation: f64,
    },
    /// A clipping polygon.
    Clipping {
        /// Slot where clipping ends (inclusive).
        end: Option<String>,
        /// Vertices.
        vertices: Vertices,
        /// Spine 4.3 `convex`: the polygon is clipped as convex (its convex hull when it
        /// deforms concave), never decomposed.
        convex: bool,
        /// Spine 4.3 `inverse`: what lies outside the (convex) polygon stays visible.
        inverse: bool,
    },
}

/// An event definition.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, Default)]
pub struct RawEvent {
    /// Event name.
    pub name: String,
    /// Default integer payload.
    pub int: i32,
    /// Default float payload.
    pub float: f32,
    /// Default string payload.
    pub string: String,
    /// Audio file path, if any.
    pub audio: Option<String>,
    /// Default volume.
    pub volume: f32,
    /// Default balance.
    pub balance: f32,
}
