//! Clips: the compiled animation data a rig holds (Spine `Animation` and its timelines).
//!
//! Data only (layer: data; imports `ids`, `types`, `raw` and the rest of `rig`, never a
//! stage): the builder writes clips, the animation stage (`anim`, step 2 of
//! `Character::update`) samples them. Keys are stored as f32 (as the official runtime's
//! `Float32Array`s) with pre-sampled curves ([`super::curve`]).

use super::curve::{self, Curves};
use super::playback::ClipPlayback;
use crate::ids::*;
use crate::raw::{PhysicsProperty, SequenceMode};
use crate::types::Inherit;

/// A compiled animation clip.
///
/// Owner: the builder writes it; the animation stage (`anim`; step 2 of
/// `Character::update`) reads it.
#[derive(Debug, Clone, Default)]
pub struct Clip {
    /// Name.
    pub name: String,
    /// Duration in seconds (largest key time).
    pub duration: f32,
    /// Timelines in the official application order (slots, bones, IK, transform, path,
    /// physics, deform/sequence, draw order, events).
    pub timelines: Vec<Timeline>,
    /// Dense property ids of every timeline, sorted and deduplicated (Spine `timelineIds`);
    /// ids are shared by all clips of a rig.
    pub property_ids: Vec<u32>,
    /// String payloads of event keys that override their event's default string.
    pub strings: Vec<String>,
    /// How a format other than Spine plays this clip (DragonBones: play count, fade-in,
    /// held end; see [`ClipPlayback`]); `None` for Spine clips, which the animation state
    /// plays with Spine's semantics.
    pub playback: Option<ClipPlayback>,
}

impl Clip {
    /// Whether any timeline of this clip drives one of `ids` (Spine `hasTimeline`).
    pub fn has_property(&self, ids: &[u32]) -> bool {
        ids.iter()
            .any(|id| self.property_ids.binary_search(id).is_ok())
    }
}

/// One timeline: a target, keys (time then values, [`TimelineKind::entries`] f32 per key)
/// and their curves.
///
/// Owner: the builder writes it; the animation stage (`anim`; step 2 of
/// `Character::update`) reads it.
#[derive(Debug, Clone)]
pub struct Timeline {
    /// What the timeline drives, with any non-numeric key payload.
    pub kind: TimelineKind,
    /// Keys: time followed by the interpolated values, `kind.entries()` floats per key.
    pub frames: Vec<f32>,
    /// Curve per key (unused by discrete timelines).
    pub curves: Curves,
    /// Dense property ids this timeline drives (Spine `propertyIds`): the first
    /// `property_count` entries are valid.
    pub properties: [u32; 3],
    /// Number of valid entries in `properties`.
    pub property_count: u8,
    /// Whether the key times never decrease ([`curve::keys_sorted`], set by the builder):
    /// long timelines are then searched by bisection past their first keys
    /// ([`Timeline::search`]). False searches key by key, as the official runtime does;
    /// setting it on unsorted keys finds other keys than the official runtime would.
    pub sorted: bool,
}

impl Timeline {
    /// The key (frame offset, stride `entries`) in effect at `time`: Spine's
    /// `Timeline.search`, bisecting past the first keys of long timelines with sorted keys
    /// ([`curve::search_sorted`]).
    /// `entries` must be the kind's ([`TimelineKind::entries`]); callers pass it as a
    /// constant so the scan of short timelines keeps its fixed stride.
    #[inline(always)]
    pub fn search(&self, time: f64, entries: usize) -> usize {
        debug_assert_eq!(entries, self.kind.entries());
        curve::search_sorted(&self.frames, time, entries, self.sorted)
    }

    /// The property ids this timeline drives.
    pub fn properties(&self) -> &[u32] {
        &self.properties[..self.property_count as usize]
    }

    /// Number of keys.
    pub fn key_count(&self) -> usize {
        self.frames.len() / self.kind.entries()
    }

    /// Time of the last key, seconds (Spine `getDuration`).
    pub fn duration(&self) -> f32 {
        let e = self.kind.entries();
        self.frames
            .get(self.frames.len().wrapping_sub(e))
            .copied()
            .unwrap_or(0.0)
    }
}

/// What a timeline drives.
///
/// Owner: the builder writes it; the animation stage (`anim`; step 2 of
/// `Character::update`) reads it.
#[derive(Debug, Clone)]
pub enum TimelineKind {
    /// Bone rotation, degrees relative to setup (1 value).
    Rotate(BoneId),
    /// Bone translation relative to setup (x, y).
    Translate(BoneId),
    /// Bone x relative to setup.
    TranslateX(BoneId),
    /// Bone y relative to setup.
    TranslateY(BoneId),
    /// Bone scale as a factor of setup (x, y).
    Scale(BoneId),
    /// Bone scale x factor.
    ScaleX(BoneId),
    /// Bone scale y factor.
    ScaleY(BoneId),
    /// Bone shear, degrees relative to setup (x, y).
    Shear(BoneId),
    /// Bone shear x.
    ShearX(BoneId),
    /// Bone shear y.
    ShearY(BoneId),
    /// Bone inherit mode, stepped: one mode per key.
    Inherit {
        /// Bone.
        bone: BoneId,
        /// Mode per key.
        modes: Vec<Inherit>,
    },
    /// Slot attachment, stepped: one attachment key (or none) per key.
    Attachment {
        /// Slot.
        slot: SlotId,
        /// Attachment key per key; `None` hides the attachment.
        names: Vec<Option<NameId>>,
    },
    /// Slot colour r, g, b, a.
    Rgba(SlotId),
    /// Slot colour r, g, b.
    Rgb(SlotId),
    /// Slot alpha.
    Alpha(SlotId),
    /// Slot colour r, g, b, a and dark r, g, b.
    Rgba2(SlotId),
    /// Slot colour r, g, b and dark r, g, b.
    Rgb2(SlotId),
    /// Vertex deform of an attachment; the curve gives a 0..1 fraction between keys.
    Deform {
        /// Slot.
        slot: SlotId,
        /// The attachment whose deform this is (compared with the slot attachment's
        /// `timeline_attachment`).
        attachment: AttachmentId,
        /// Floats per key: x,y per vertex (unweighted) or per bone influence (weighted).
        vertex_count: u32,
        /// Key vertices, `vertex_count` per key: setup + delta for unweighted attachments,
        /// the deltas for weighted ones (COMPAT(spine): the loader's convention).
        vertices: Vec<f32>,
        /// Whether the attachment is weighted.
        weighted: bool,
    },
    /// Texture sequence frame of an attachment.
    Sequence {
        /// Slot.
        slot: SlotId,
        /// Attachment.
        attachment: AttachmentId,
        /// Regions in the attachment's sequence.
        count: i32,
        /// Mode, start index and delay per key.
        keys: Vec<SequenceKey>,
    },
    /// Draw order, stepped: per key a permutation (draw position -> setup slot index) or
    /// `None` for the setup order.
    DrawOrder {
        /// Orders per key.
        orders: Vec<Option<Vec<SlotId>>>,
    },
    /// Spine 4.3 draw order folder, stepped: the draw positions holding any of `slots` get
    /// them in each key's order (`None`: the order of `slots`); other slots stay put.
    /// (Boxed: a second list-holding variant inline made every timeline dispatch of 4.2
    /// rigs cost more, measured with callgrind.)
    DrawOrderFolder(Box<DrawOrderFolder>),
    /// Events fired as time passes their keys.
    Event {
        /// Event keys (their times are also the timeline frames).
        keys: Vec<EventKey>,
    },
    /// IK mix and softness (values) plus stepped flags.
    Ik {
        /// Constraint.
        constraint: IkId,
        /// Bend direction, compress and stretch per key.
        flags: Vec<IkFlags>,
    },
    /// Transform constraint mixes: rotate, x, y, scale x, scale y, shear y.
    Transform(TransformId),
    /// Path constraint position (absolute).
    PathPosition(PathId),
    /// Path constraint spacing (absolute).
    PathSpacing(PathId),
    /// Path constraint mixes: rotate, x, y.
    PathMix(PathId),
    /// A physics parameter (absolute; mass keys hold the mass, the state its inverse).
    Physics {
        /// Constraint, or `None` for every constraint whose matching global flag is set.
        constraint: Option<PhysicsId>,
        /// Parameter (never `Reset`).
        property: PhysicsProperty,
    },
    /// Physics reset when a key is crossed; `None` resets every active constraint.
    PhysicsReset(Option<PhysicsId>),
    /// Spine 4.3 slider time (absolute).
    SliderTime(SliderId),
    /// Spine 4.3 slider mix (absolute).
    SliderMix(SliderId),
}

impl TimelineKind {
    /// Floats per key in [`Timeline::frames`] (the time plus the interpolated values).
    pub fn entries(&self) -> usize {
        use TimelineKind::*;
        match self {
            Rotate(_) | TranslateX(_) | TranslateY(_) | ScaleX(_) | ScaleY(_) | ShearX(_)
            | ShearY(_) => 2,
            Alpha(_) | PathPosition(_) | PathSpacing(_) | Physics { .. } => 2,
            SliderTime(_) | SliderMix(_) => 2,
            Translate(_) | Scale(_) | Shear(_) | Ik { .. } => 3,
            Rgb(_) | PathMix(_) => 4,
            Rgba(_) => 5,
            Rgb2(_) | Transform(_) => 7,
            Rgba2(_) => 8,
            Inherit { .. } | Attachment { .. } | Deform { .. } | Sequence { .. } => 1,
            DrawOrder { .. } | DrawOrderFolder(_) | Event { .. } | PhysicsReset(_) => 1,
        }
    }

    /// The bone a bone timeline keys (Spine `BoneTimeline.boneIndex`: transforms and
    /// inherit), `None` for every other kind.
    pub fn bone(&self) -> Option<BoneId> {
        use TimelineKind::*;
        match self {
            Rotate(b) | Translate(b) | TranslateX(b) | TranslateY(b) | Scale(b) | ScaleX(b)
            | ScaleY(b) | Shear(b) | ShearX(b) | ShearY(b) => Some(*b),
            Inherit { bone, .. } => Some(*bone),
            _ => None,
        }
    }

    /// Whether an additive track entry adds this timeline's values (Spine 4.3
    /// `Timeline.additive`: bone transforms, deform, transform-constraint mixes, path
    /// position, physics wind and gravity, slider mix).
    pub fn is_additive(&self) -> bool {
        use TimelineKind::*;
        match self {
            Rotate(_) | Translate(_) | TranslateX(_) | TranslateY(_) | Scale(_) | ScaleX(_)
            | ScaleY(_) | Shear(_) | ShearX(_) | ShearY(_) => true,
            Deform { .. } | Transform(_) | PathPosition(_) | SliderMix(_) => true,
            Physics { property, .. } => {
                matches!(property, PhysicsProperty::Wind | PhysicsProperty::Gravity)
            }
            _ => false,
        }
    }

    /// A draw order or draw order folder timeline (mixed as Spine mixes draw order).
    pub fn is_draw_order(&self) -> bool {
        matches!(
            self,
            TimelineKind::DrawOrder { .. } | TimelineKind::DrawOrderFolder(_)
        )
    }
}

/// A Spine 4.3 draw order folder's data ([`TimelineKind::DrawOrderFolder`]).
#[derive(Debug, Clone)]
pub struct DrawOrderFolder {
    /// The folder's slots.
    pub slots: Vec<SlotId>,
    /// Per key, the folder's slots in draw order, or `None`.
    pub orders: Vec<Option<Vec<SlotId>>>,
}

/// IK flags of one key.
///
/// Owner: the builder writes it; the animation stage (`anim`; step 2 of
/// `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IkFlags {
    /// Bend direction, +1 or -1.
    pub bend_direction: i8,
    /// Compress.
    pub compress: bool,
    /// Stretch.
    pub stretch: bool,
}

/// One sequence key.
///
/// Owner: the builder writes it; the animation stage (`anim`; step 2 of
/// `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SequenceKey {
    /// Playback mode.
    pub mode: SequenceMode,
    /// Region index at the key.
    pub index: i32,
    /// Seconds per region.
    pub delay: f32,
}

/// One event key, with its payload resolved against the event's defaults.
///
/// Owner: the builder writes it; the animation stage (`anim`; step 2 of
/// `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EventKey {
    /// Time, seconds (f32, as the official loader rounds it).
    pub time: f32,
    /// Event definition.
    pub event: EventId,
    /// Integer payload.
    pub int: i32,
    /// Float payload.
    pub float: f32,
    /// Index into [`Clip::strings`] when the key overrides the event's string.
    pub string: Option<u32>,
    /// Audio volume (1 unless overridden; 0 when the event has no audio).
    pub volume: f32,
    /// Audio balance (0 unless overridden).
    pub balance: f32,
}
