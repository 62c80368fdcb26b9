//! The authoring form of a rig's parameters: everything refers to parameters, bones and
//! slots by name, as loaders produce it; `params::build::build_params` resolves it.

use crate::math::grid::Interp;

/// A parameter in authoring form.
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawParam {
    /// Unique name.
    pub name: String,
    /// Two components or one.
    pub is_2d: bool,
    /// Range minimum per component.
    pub min: [f64; 2],
    /// Range maximum per component.
    pub max: [f64; 2],
    /// Default per component.
    pub default: [f64; 2],
    /// Key positions per component, normalised to 0..1 (`[0.0]` for an unused axis).
    pub axis_points: [Vec<f64>; 2],
}

/// What a raw binding drives (names are bone or slot names of the raw rig).
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum RawTarget {
    /// Bone local x.
    BoneX(String),
    /// Bone local y.
    BoneY(String),
    /// Bone local rotation, degrees.
    BoneRotation(String),
    /// Bone scale x.
    BoneScaleX(String),
    /// Bone scale y.
    BoneScaleY(String),
    /// Bone z-sort.
    BoneZSort(String),
    /// Slot mesh vertex offsets.
    SlotDeform(String),
    /// Slot opacity.
    SlotOpacity(String),
    /// Slot tint channel.
    SlotTint(String, u8),
    /// Slot screen tint channel.
    SlotScreenTint(String, u8),
    /// Slot visibility.
    SlotVisible(String),
    /// Opacity of the off-screen group (an Inochi2D Composite) on this bone.
    GroupOpacity(String),
    /// Tint channel of the off-screen group on this bone.
    GroupTint(String, u8),
    /// Screen tint channel of the off-screen group on this bone.
    GroupScreenTint(String, u8),
    /// Length of the driver with this name.
    DriverLength(String),
    /// Gravity factor of the driver with this name.
    DriverGravity(String),
}

/// One axis of a raw grid: a parameter component, and its keys (`None`: the parameter's own
/// axis points for that component, as Inochi2D bindings use).
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawAxis {
    /// Parameter name.
    pub param: String,
    /// Component (0 = x, 1 = y).
    pub component: u8,
    /// Normalised key positions, or the parameter's axis points.
    pub keys: Option<Vec<f64>>,
}

/// A keyform grid in authoring form.
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawBinding {
    /// Target.
    pub target: RawTarget,
    /// Interpolation.
    pub interp: Interp,
    /// Axes, slowest first.
    pub axes: Vec<RawAxis>,
    /// Floats per keyform.
    pub stride: u32,
    /// Keyforms.
    pub values: Vec<f32>,
}

/// A parameter-physics pendulum in authoring form.
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawDriver {
    /// Name (the node's).
    pub name: String,
    /// Anchor bone.
    pub bone: String,
    /// Output parameter.
    pub param: String,
    /// Rigid or spring pendulum.
    pub model: PendulumModel,
    /// Output mapping.
    pub map: DriverMap,
    /// Gravity, rig units/s² (already scaled by the puppet's gravity and pixels per metre).
    pub gravity: f64,
    /// Rod length, rig units.
    pub length: f64,
    /// Spring frequency, Hz.
    pub frequency: f64,
    /// Angle damping ratio.
    pub angle_damping: f64,
    /// Length damping ratio.
    pub length_damping: f64,
    /// Output scale per component.
    pub output_scale: [f64; 2],
    /// Anchor at the bone's local translation rather than its world origin.
    pub local_only: bool,
}

/// A rig's parameters in authoring form.
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawParams {
    /// Parameters.
    pub params: Vec<RawParam>,
    /// Bindings.
    pub bindings: Vec<RawBinding>,
    /// Z-sort per bone name, relative to the parent (empty: no z-sorting).
    pub zsort: Vec<(String, f64)>,
    /// Composite group per slot name: the bone of the outermost composite holding it.
    pub slot_groups: Vec<(String, String)>,
    /// Slots hidden initially.
    pub hidden_slots: Vec<String>,
    /// Screen tint per slot name (Inochi2D Parts: `screen(texel, screen) × tint`).
    pub slot_screens: Vec<(String, [f32; 3])>,
    /// Pendulums.
    pub drivers: Vec<RawDriver>,
    /// Deformers and their bindings.
    pub deformers: super::deformers::RawDeformers,
    /// Pendulum chains (Cubism physics3 settings).
    pub chains: RawChains,
}

/// A chain input in authoring form (physics3 `Input[]`).
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawChainInput {
    /// Source parameter name.
    pub param: String,
    /// Parameter component (0 = x, 1 = y).
    pub component: u8,
    /// Weight, 0..100.
    pub weight: f64,
    /// What the parameter moves: root x, root y or root angle.
    pub kind: ChainSource,
    /// Reflect (physics3 `Reflect`).
    pub reflect: bool,
}

/// A chain output in authoring form (physics3 `Output[]`).
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawChainOutput {
    /// Destination parameter name.
    pub param: String,
    /// Parameter component (0 = x, 1 = y).
    pub component: u8,
    /// Particle read (physics3 `VertexIndex`, 1.. as the root cannot move on its own).
    pub vertex: u32,
    /// What is read: x or y offset from the previous particle, or the angle.
    pub kind: ChainSource,
    /// Scale from physics units (radians for angles) to parameter units.
    pub scale: f64,
    /// Weight, 0..100.
    pub weight: f64,
    /// Reflect (physics3 `Reflect`).
    pub reflect: bool,
}

/// A chain particle in authoring form (physics3 `Vertices[]`).
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawChainParticle {
    /// Position in the file (informational: the rest pose hangs by radii).
    pub position: [f64; 2],
    /// Mobility, 0..1 (1 keeps all velocity, less damps).
    pub mobility: f64,
    /// Delay (time scale of this particle's motion).
    pub delay: f64,
    /// Acceleration (gravity along the chain's down direction).
    pub acceleration: f64,
    /// Distance to the previous particle.
    pub radius: f64,
}

/// A physics3 normalization range (`Minimum`, `Default`, `Maximum`).
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawNormalization {
    /// Minimum.
    pub minimum: f64,
    /// Default (the image of the parameter's range middle).
    pub default: f64,
    /// Maximum.
    pub maximum: f64,
}

/// A pendulum chain in authoring form (physics3 `PhysicsSettings[]`).
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawChain {
    /// Name (the setting's `Id`), for messages.
    pub name: String,
    /// Inputs.
    pub inputs: Vec<RawChainInput>,
    /// Outputs.
    pub outputs: Vec<RawChainOutput>,
    /// Particles, root first.
    pub particles: Vec<RawChainParticle>,
    /// Normalization of position inputs.
    pub position: RawNormalization,
    /// Normalization of angle inputs (degrees).
    pub angle: RawNormalization,
}

/// Every pendulum chain of a rig in authoring form (a physics3 file).
///
/// Owner: the loaders produce it; the builder (`params::build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawChains {
    /// Settings.
    pub chains: Vec<RawChain>,
    /// Steps per second (physics3 `Meta.Fps`; 60 when absent).
    pub fps: f64,
    /// Wind (physics3 `Meta.EffectiveForces.Wind`), physics units per unit time squared.
    pub wind: [f64; 2],
}

impl Default for RawChains {
    fn default() -> Self {
        RawChains {
            chains: Vec::new(),
            fps: 60.0,
            wind: [0.0, 0.0],
        }
    }
}

/// Rigid or spring pendulum.
///
/// Owner: the loaders produce it; the builder reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PendulumModel {
    /// Fixed-length rod.
    #[default]
    Rigid,
    /// Spring rod.
    Spring,
}

/// How the bob maps to the parameter's two components.
///
/// Owner: the loaders produce it; the builder reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DriverMap {
    /// (angle / pi, length ratio).
    #[default]
    AngleLength,
    /// (length ratio, angle / pi).
    LengthAngle,
    /// (x, y).
    Xy,
    /// (y, x).
    Yx,
}

/// What an input moves or an output reads.
///
/// Owner: the loaders produce it; the builder reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChainSource {
    /// Horizontal translation.
    #[default]
    X,
    /// Vertical translation.
    Y,
    /// Angle (inputs: degrees through the angle normalization; outputs: radians).
    Angle,
}
