//! Animation: clips, curves, timelines, and the animation state (tracks and mixing).
//!
//! A [`Clip`] is a compiled Spine animation: a list of [`Timeline`]s, each driving one
//! property of a bone, slot, attachment or constraint through keys stored as f32 (as the
//! official runtime's `Float32Array`s) with pre-sampled curves ([`curve`]). [`apply_clip`]
//! is Spine's `Animation.apply`; [`state::AnimationState`] is Spine's `AnimationState`
//! (tracks, queued entries, crossfades and per-timeline hold modes).
//!
//! Everything here follows spine-ts 4.2 operation for operation, so poses match the oracle
//! to float rounding. Verified by the unit tests in each module (closed forms and hand
//! computations per timeline kind and blend) and by `crates/sinew-formats/tests/all/anim_local.rs`,
//! which compares local bone values, slot colours, attachments and draw order against
//! dumps of the official runtime.
//!
//! Layer: stage (step 2 of `Character::update`). Owns the animation state and the timeline
//! appliers; the clips it samples are rig data ([`crate::rig::clip`], re-exported here). Imports
//! data only (`ids`, `types`, `raw`, `rig`, `instance`).

pub mod state;
pub(crate) mod timeline;

pub use crate::rig::clip::{Clip, EventKey, IkFlags, SequenceKey, Timeline, TimelineKind};
pub use crate::rig::curve::{self, Curves};
pub use crate::rig::playback::{ClipPlayback, PlaybackStyle, f32_at_or_before};
pub use state::{AnimationState, EntryId, StateEvent, StateEventKind, TrackEntry};
pub use timeline::apply_timeline;

use crate::ids::*;
use crate::instance::Instance;
use crate::rig::Rig;

/// How a timeline's value is combined with the current pose (Spine `MixBlend`).
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MixBlend {
    /// From the setup value to the key value; before the first key, the setup value.
    Setup,
    /// From the current value to the key value; before the first key, toward the setup
    /// value. Meant for the first animation applied.
    First,
    /// From the current value to the key value; before the first key, nothing changes.
    #[default]
    Replace,
    /// Adds the key value (relative to setup) to the current value.
    Add,
}

/// Whether a clip is mixing in or out (Spine `MixDirection`); discrete timelines
/// (attachments, draw order, inherit, IK flags) only act when mixing in.
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MixDirection {
    /// Mixing in (or applied alone).
    #[default]
    In,
    /// Mixing out.
    Out,
}

/// The clip id [`state::AnimationState`] uses for Spine's empty animation (no timelines,
/// duration 0); it never indexes `rig.clips`.
pub const EMPTY_CLIP: ClipId = ClipId(u32::MAX);

static EMPTY: Clip = Clip {
    name: String::new(),
    duration: 0.0,
    timelines: Vec::new(),
    property_ids: Vec::new(),
    strings: Vec::new(),
    playback: None,
};

/// The clip for an id: `rig.clips[id]`, or the empty clip for [`EMPTY_CLIP`] (and for an id
/// the rig does not have).
pub fn clip_data(rig: &Rig, clip: ClipId) -> &Clip {
    rig.clips.get(clip.index()).unwrap_or(&EMPTY)
}

/// An event fired by a clip (Spine `Event`).
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FiredEvent {
    /// Event definition.
    pub event: EventId,
    /// Key time within the clip, seconds.
    pub time: f64,
    /// Integer payload.
    pub int: i32,
    /// Float payload.
    pub float: f32,
    /// Index into the clip's [`Clip::strings`], or `None` for the event's default string.
    pub string: Option<u32>,
    /// Audio volume.
    pub volume: f32,
    /// Audio balance.
    pub balance: f32,
    /// The clip that fired it.
    pub clip: ClipId,
}

impl FiredEvent {
    /// Builds the fired form of a key of `clip`.
    pub fn from_key(key: &EventKey, clip: ClipId) -> Self {
        FiredEvent {
            event: key.event,
            time: f64::from(key.time),
            int: key.int,
            float: key.float,
            string: key.string,
            volume: key.volume,
            balance: key.balance,
            clip,
        }
    }

    /// The string payload: the key's override, else the event's default.
    pub fn string<'a>(&self, rig: &'a Rig) -> &'a str {
        if let Some(s) = self
            .string
            .and_then(|i| clip_data(rig, self.clip).strings.get(i as usize))
        {
            return s;
        }
        rig.events
            .get(self.event.index())
            .map(|e| e.string.as_str())
            .unwrap_or("")
    }

    /// The event's name.
    pub fn name<'a>(&self, rig: &'a Rig) -> &'a str {
        rig.events
            .get(self.event.index())
            .map(|e| e.name.as_str())
            .unwrap_or("")
    }
}

/// Applies every timeline of a clip to an instance (Spine `Animation.apply`).
///
/// With `looping` and a non-zero duration, `time` (and `last_time` when positive) wrap
/// modulo the duration. Events with keys in (`last_time`, `time`] are pushed to `events`
/// when given. `alpha` weights the clip against the current pose, `blend` and `direction`
/// as [`MixBlend`] and [`MixDirection`]. Does nothing for an instance of another rig.
#[allow(clippy::too_many_arguments)]
pub fn apply_clip(
    rig: &Rig,
    inst: &mut Instance,
    clip: ClipId,
    last_time: f64,
    time: f64,
    looping: bool,
    events: Option<&mut Vec<FiredEvent>>,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    apply_clip_with::<false>(
        rig, inst, clip, last_time, time, looping, events, alpha, blend, direction,
    );
}

/// [`apply_clip`] with Spine 4.3's `add` (`Animation.apply`'s `add` argument) when `ADD`:
/// the timelines that support it add their key values to the value `blend` mixes from (see
/// `timeline::apply_timeline_add`); `add` is never combined with [`MixBlend::Add`]. A 4.3
/// slider applies its clip this way. One copy per `ADD`, so the plain path tests no flag;
/// inline, so a caller passing `time` as `last_time` wraps it once.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn apply_clip_with<const ADD: bool>(
    rig: &Rig,
    inst: &mut Instance,
    clip: ClipId,
    last_time: f64,
    mut time: f64,
    looping: bool,
    mut events: Option<&mut Vec<FiredEvent>>,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    // A NaN or infinite time has no key to sample, and another rig's instance has other
    // tables: leave the pose as it is.
    if !time.is_finite() || !inst.is_for(rig) {
        return;
    }
    let mut last_time = if last_time.is_finite() {
        last_time
    } else {
        -1.0
    };
    let data = clip_data(rig, clip);
    let duration = f64::from(data.duration);
    if looping && duration != 0.0 {
        time %= duration;
        if last_time > 0.0 {
            last_time %= duration;
        }
    }
    for tl in &data.timelines {
        timeline::apply_timeline_add(
            rig,
            inst,
            clip,
            tl,
            last_time,
            time,
            events.as_deref_mut(),
            alpha,
            blend,
            direction,
            ADD,
        );
    }
}
