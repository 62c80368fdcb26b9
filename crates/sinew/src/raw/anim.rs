//! Raw animation clips: keys per timeline, by name, with their curves as authored.

use crate::types::Inherit;

/// An animation clip in authoring form.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, Default)]
pub struct RawClip {
    /// Clip name.
    pub name: String,
    /// Timelines.
    pub timelines: Vec<RawTimeline>,
    /// How a format other than Spine plays the clip (DragonBones: play count, fade-in, key
    /// grid, held twin); `None` for Spine clips. The builder turns it into
    /// [`crate::anim::ClipPlayback`].
    pub playback: Option<RawPlayback>,
}

/// A DragonBones clip's playback facts as the loader reads them (see
/// [`crate::anim::ClipPlayback`]).
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawPlayback {
    /// `playTimes`: plays before the end is held; 0 forever.
    pub play_times: u32,
    /// `fadeInTime`, seconds.
    pub fade_in: f64,
    /// One play, seconds.
    pub length: f64,
    /// The armature's frame rate: keys sit on its grid.
    pub frame_rate: f64,
    /// The clip that holds the last keys (the held twin), by name; `None`: this clip.
    pub held: Option<String>,
}

/// One timeline: a target property and its keys in time order.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone)]
pub struct RawTimeline {
    /// What the timeline drives.
    pub target: RawTarget,
    /// Keys in ascending time.
    pub keys: Vec<RawKey>,
}

/// Bone properties a timeline can drive.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoneProperty {
    /// Rotation (1 value, degrees, relative to setup).
    Rotate,
    /// Translation (x, y, relative to setup).
    Translate,
    /// Translation x only.
    TranslateX,
    /// Translation y only.
    TranslateY,
    /// Scale (x, y, multiplies setup).
    Scale,
    /// Scale x only.
    ScaleX,
    /// Scale y only.
    ScaleY,
    /// Shear (x, y, degrees, relative).
    Shear,
    /// Shear x only.
    ShearX,
    /// Shear y only.
    ShearY,
    /// Inherit mode (stepped, [`RawKeyData::Inherit`]).
    Inherit,
}

/// Slot properties a timeline can drive.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotProperty {
    /// Attachment switch (stepped, [`RawKeyData::Attachment`]).
    Attachment,
    /// r, g, b, a.
    Rgba,
    /// r, g, b.
    Rgb,
    /// a.
    Alpha,
    /// r, g, b, a, dark r, dark g, dark b.
    Rgba2,
    /// r, g, b, dark r, dark g, dark b.
    Rgb2,
}

/// Physics constraint properties a timeline can drive.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhysicsProperty {
    /// Inertia.
    Inertia,
    /// Strength.
    Strength,
    /// Damping.
    Damping,
    /// Mass (the key value is the mass; the runtime stores its inverse).
    Mass,
    /// Wind.
    Wind,
    /// Gravity.
    Gravity,
    /// Mix.
    Mix,
    /// Reset (no values; fires when crossed).
    Reset,
}

/// What a timeline drives.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum RawTarget {
    /// A bone property.
    Bone {
        /// Bone name.
        bone: String,
        /// Property.
        property: BoneProperty,
    },
    /// A slot property.
    Slot {
        /// Slot name.
        slot: String,
        /// Property.
        property: SlotProperty,
    },
    /// IK mix and softness (values) plus flags ([`RawKeyData::IkFlags`]).
    Ik(String),
    /// Transform constraint mixes: rotate, x, y, scale x, scale y, shear y.
    Transform(String),
    /// Path constraint position (1 value).
    PathPosition(String),
    /// Path constraint spacing (1 value).
    PathSpacing(String),
    /// Path constraint mixes: rotate, x, y.
    PathMix(String),
    /// Spine 4.3 slider time (1 value).
    SliderTime(String),
    /// Spine 4.3 slider mix (1 value).
    SliderMix(String),
    /// A physics property; `constraint: None` addresses every constraint whose matching
    /// `*_global` flag is set (for `Reset`: all constraints).
    Physics {
        /// Constraint name, or `None` for global.
        constraint: Option<String>,
        /// Property.
        property: PhysicsProperty,
    },
    /// Mesh/vertex deform keys ([`RawKeyData::Deform`]); one value (0..1 mix) for curves.
    Deform {
        /// Skin name.
        skin: String,
        /// Slot name.
        slot: String,
        /// Attachment key in that skin and slot.
        attachment: String,
    },
    /// Texture sequence keys ([`RawKeyData::Sequence`]).
    Sequence {
        /// Skin name.
        skin: String,
        /// Slot name.
        slot: String,
        /// Attachment key.
        attachment: String,
    },
    /// Draw-order keys ([`RawKeyData::DrawOrder`]).
    DrawOrder,
    /// Spine 4.3 draw order folder: keys ([`RawKeyData::DrawOrder`], offsets counted among
    /// the folder's slots) that reorder only `slots` among the draw positions they hold.
    DrawOrderFolder {
        /// The folder's slots, in the order of its setup (a key without offsets).
        slots: Vec<String>,
    },
    /// Event keys ([`RawKeyData::Event`]).
    Event,
}

/// Interpolation from a key to the next.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum RawCurve {
    /// Straight line.
    Linear,
    /// Hold this key's value until the next key.
    Stepped,
    /// Cubic Bezier per value: `[cx1, cy1, cx2, cy2]` per interpolated value, with cx in
    /// absolute seconds and cy in the value's own units (already scaled like the values),
    /// as written in the file; the builder samples the curve from these f64 numbers and
    /// rounds the samples to f32, as the official runtime does.
    Bezier(Vec<f64>),
    /// Every value eased by one [`Easing`](crate::Easing) of strength `hundredths / 100`
    /// (DragonBones `tweenEasing`; the runtime keeps the strength in hundredths).
    Eased {
        /// The easing family.
        easing: crate::types::Easing,
        /// The strength in hundredths.
        hundredths: i16,
    },
}

/// Sequence playback modes.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SequenceMode {
    /// Hold the key's index.
    Hold,
    /// Play once.
    Once,
    /// Loop.
    Loop,
    /// Ping-pong.
    Pingpong,
    /// Play once backwards.
    OnceReverse,
    /// Loop backwards.
    LoopReverse,
    /// Ping-pong starting backwards.
    PingpongReverse,
}

/// Non-numeric payload of a key.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum RawKeyData {
    /// Nothing beyond `values`.
    None,
    /// Attachment key to show, or none.
    Attachment(Option<String>),
    /// Inherit mode.
    Inherit(Inherit),
    /// IK flags.
    IkFlags {
        /// Bend direction +1.
        bend_positive: bool,
        /// Compress.
        compress: bool,
        /// Stretch.
        stretch: bool,
    },
    /// Deform deltas as written: `vertices` start at float index `offset` of the
    /// attachment's value list (x,y per vertex or per bone influence); empty = no deltas.
    Deform {
        /// Start index.
        offset: u32,
        /// Deltas.
        vertices: Vec<f32>,
    },
    /// Sequence key.
    Sequence {
        /// Mode.
        mode: SequenceMode,
        /// Start index.
        index: i32,
        /// Seconds per frame.
        delay: f32,
    },
    /// Draw-order key: `None` restores setup order; otherwise (slot, offset) pairs.
    DrawOrder(Option<Vec<(String, i32)>>),
    /// An event firing.
    Event {
        /// Event name.
        name: String,
        /// Integer override.
        int: Option<i32>,
        /// Float override.
        float: Option<f32>,
        /// String override.
        string: Option<String>,
        /// Volume override.
        volume: Option<f32>,
        /// Balance override.
        balance: Option<f32>,
    },
}

/// One key of a timeline.
///
/// Owner: the loaders produce it; the builder (`build`) reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawKey {
    /// Time in seconds, as written in the file; the builder rounds what the official runtime
    /// stores as f32 (key frames) and samples Beziers from the f64.
    pub time: f64,
    /// Interpolated values (count depends on the target; see [`RawTarget`]), as written in
    /// the file (colour channels: byte / 255); the builder rounds what the official runtime
    /// stores as f32.
    pub values: Vec<f64>,
    /// Curve to the next key.
    pub curve: RawCurve,
    /// Non-numeric payload.
    pub data: RawKeyData,
}
