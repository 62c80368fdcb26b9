//! Jiggle under the animator's control: per animation, key tracks of a chain's strength and
//! of scales of its stiffness and damping, and events that fade a chain's strength to a
//! target over a time (a death clip fades the cape out; a run start fades it in).
//!
//! What a file or code declares by name ([`AnimCuesDesc`], in [`super::JiggleDesc`]) is
//! resolved against the rig's animations and the chains by [`super::JiggleRig::build`] into
//! [`JiggleCues`]. Each frame the facade (`Character`, step 7) tells the jiggle state which
//! animations play, at what time and weight ([`CueWindow`]); [`super::JiggleState`] then
//! - multiplies each chain's strength by `lerp(1, strength track, weight)` of every playing
//!   animation (1 where none keys it), and its stiffness and damping by the scale tracks the
//!   same way (step coefficients recomputed only when a scale changes);
//! - starts the fade events whose time this frame's animation window passed, as if started
//!   at the event's own time (the part of the frame after it already counts), so a fade
//!   reads `strength(t) = from + (target - from) (t - t_event) / fade` at every frame rate.
//!
//! Tracks hold keys in seconds of animation time; a key's curve says how its value moves to
//! the next key's: linear, stepped, or a cubic Bezier over the segment normalised to 0..1
//! (CSS `cubic-bezier(x1, y1, x2, y2)`). Verified by `tests_cues.rs` (closed forms at 30,
//! 60 and 144 fps through the facade).

use crate::ids::ClipId;
use crate::rig::Rig;
use crate::rig::problem::{BuildPart, BuildProblem};

/// The chain setting a cue track keys.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CueProperty {
    /// The chain's strength, 0..1 (a factor on the strength set from code).
    Strength,
    /// A factor on the chain's stiffness (spring k; Verlet's pull), > 0.
    Stiffness,
    /// A factor on the chain's damping (spring c; Verlet's drag, capped at 1), >= 0.
    Damping,
}

impl CueProperty {
    /// Every property with its name in files.
    pub const ALL: [(&'static str, CueProperty); 3] = [
        ("strength", CueProperty::Strength),
        ("stiffness", CueProperty::Stiffness),
        ("damping", CueProperty::Damping),
    ];

    /// The property's name in files.
    pub fn name(self) -> &'static str {
        match self {
            CueProperty::Strength => "strength",
            CueProperty::Stiffness => "stiffness",
            CueProperty::Damping => "damping",
        }
    }

    /// The values a key of this property may take, inclusive.
    pub fn range(self) -> (f64, f64) {
        match self {
            CueProperty::Strength => (0.0, 1.0),
            CueProperty::Stiffness => (1e-3, 1000.0),
            CueProperty::Damping => (0.0, 1000.0),
        }
    }
}

/// How a key's value moves to the next key's.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum CueCurve {
    /// Straight line.
    #[default]
    Linear,
    /// Holds the value until the next key.
    Stepped,
    /// `cubic-bezier(x1, y1, x2, y2)` over the segment normalised to 0..1 (x1, x2 in 0..1).
    Bezier([f64; 4]),
}

/// One key of a cue track.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CueKey {
    /// Animation time, seconds.
    pub time: f64,
    /// Value at that time.
    pub value: f64,
    /// How the value moves to the next key's.
    pub curve: CueCurve,
}

impl CueKey {
    /// A linear key.
    pub fn new(time: f64, value: f64) -> Self {
        CueKey {
            time,
            value,
            curve: CueCurve::Linear,
        }
    }
}

/// A key track of one chain's setting (or every chain's), by name.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct CueTrackDesc {
    /// The chain; `None`: every chain.
    pub chain: Option<String>,
    /// What it keys.
    pub property: CueProperty,
    /// Keys in time order (at least one).
    pub keys: Vec<CueKey>,
}

/// An event that fades chains' strength to a target, by name.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct FadeEventDesc {
    /// Animation time, seconds.
    pub time: f64,
    /// The chain; `None`: every chain.
    pub chain: Option<String>,
    /// Target strength, 0..1.
    pub strength: f64,
    /// Seconds (of the character's time) to reach it; 0: at once.
    pub fade: f64,
}

/// The cues of one animation, by name.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnimCuesDesc {
    /// The rig's animation.
    pub animation: String,
    /// Key tracks.
    pub tracks: Vec<CueTrackDesc>,
    /// Fade events.
    pub events: Vec<FadeEventDesc>,
}

/// A resolved key track.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct CueTrack {
    /// Chain index; `None`: every chain.
    pub chain: Option<u32>,
    /// What it keys.
    pub property: CueProperty,
    /// Keys in time order.
    pub keys: Vec<CueKey>,
}

/// A resolved fade event.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FadeEvent {
    /// Animation time, seconds.
    pub time: f64,
    /// Chain index; `None`: every chain.
    pub chain: Option<u32>,
    /// Target strength.
    pub strength: f64,
    /// Seconds to reach it.
    pub fade: f64,
}

/// The resolved cues of one animation.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct ClipCues {
    /// The animation.
    pub clip: ClipId,
    /// Key tracks.
    pub tracks: Vec<CueTrack>,
    /// Fade events, by time.
    pub events: Vec<FadeEvent>,
}

/// Every animation's cues, found by clip in constant time.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JiggleCues {
    /// Per rig clip: index into `clips`, or `u32::MAX`.
    by_clip: Vec<u32>,
    /// Animations with cues.
    pub clips: Vec<ClipCues>,
}

impl JiggleCues {
    /// The cues of `clip`, if it has any.
    #[inline]
    pub fn of(&self, clip: ClipId) -> Option<&ClipCues> {
        let k = *self.by_clip.get(clip.index())?;
        self.clips.get(k as usize)
    }

    /// Whether no animation has cues.
    pub fn is_empty(&self) -> bool {
        self.clips.is_empty()
    }

    /// Resolves `descs` against the rig's animations and `chains` (the chain names);
    /// problems are pushed, each naming the animation, the chain or the key.
    pub(super) fn build(
        rig: &Rig,
        chains: &[String],
        descs: &[AnimCuesDesc],
        problems: &mut Vec<BuildProblem>,
    ) -> JiggleCues {
        const PART: BuildPart = BuildPart::Jiggle;
        let mut cues = JiggleCues {
            by_clip: vec![u32::MAX; rig.clips.len()],
            clips: Vec::with_capacity(descs.len()),
        };
        for d in descs {
            let item = format!("jiggle animation `{}`", d.animation);
            let Some(clip) = rig.clip(&d.animation) else {
                problems
                    .push(BuildProblem::unknown(&*item, "animation", &d.animation).in_part(PART));
                continue;
            };
            if cues.by_clip[clip.index()] != u32::MAX {
                problems.push(
                    BuildProblem::duplicate(&*item, &d.animation, "has cues twice").in_part(PART),
                );
                continue;
            }
            let chain = |name: &Option<String>, problems: &mut Vec<BuildProblem>| match name {
                None => Some(None),
                Some(n) => match chains.iter().position(|c| c == n) {
                    Some(i) => Some(Some(i as u32)),
                    None => {
                        problems
                            .push(BuildProblem::unknown(&*item, "jiggle chain", n).in_part(PART));
                        None
                    }
                },
            };
            let mut tracks = Vec::with_capacity(d.tracks.len());
            for t in &d.tracks {
                let what = format!(
                    "{} of {}",
                    t.property.name(),
                    t.chain
                        .as_deref()
                        .map_or("every chain".to_owned(), |c| format!("chain `{c}`"))
                );
                if let Err(e) = check_keys(&t.keys, t.property) {
                    problems.push(BuildProblem::value(PART, &*item, format!("{what}: {e}")));
                }
                if let Some(c) = chain(&t.chain, problems) {
                    tracks.push(CueTrack {
                        chain: c,
                        property: t.property,
                        keys: t.keys.clone(),
                    });
                }
            }
            let mut events = Vec::with_capacity(d.events.len());
            for (k, e) in d.events.iter().enumerate() {
                let ok = e.time.is_finite()
                    && e.time >= 0.0
                    && (0.0..=1.0).contains(&e.strength)
                    && e.fade.is_finite()
                    && e.fade >= 0.0;
                if !ok {
                    problems.push(BuildProblem::value(
                        PART,
                        &*item,
                        format!(
                            "event {k}: time must be >= 0, strength in 0..1 and fade >= 0 \
                             (got {}, {}, {})",
                            e.time, e.strength, e.fade
                        ),
                    ));
                }
                if let Some(c) = chain(&e.chain, problems) {
                    events.push(FadeEvent {
                        time: e.time,
                        chain: c,
                        strength: e.strength,
                        fade: e.fade,
                    });
                }
            }
            // Stable: events at one time keep their file order.
            events.sort_by(|a, b| a.time.total_cmp(&b.time));
            cues.by_clip[clip.index()] = cues.clips.len() as u32;
            cues.clips.push(ClipCues {
                clip,
                tracks,
                events,
            });
        }
        cues
    }
}

/// Checks a track's keys: at least one, times finite, >= 0 and in order, values in the
/// property's range, Bezier handles finite with x in 0..1.
fn check_keys(keys: &[CueKey], property: CueProperty) -> Result<(), String> {
    if keys.is_empty() {
        return Err("has no keys".to_owned());
    }
    let (lo, hi) = property.range();
    let mut last = 0.0;
    for (i, k) in keys.iter().enumerate() {
        if !(k.time.is_finite() && k.time >= last) {
            return Err(format!(
                "key {i}: time {} must be finite, >= 0 and not before the key above",
                k.time
            ));
        }
        last = k.time;
        if !(k.value >= lo && k.value <= hi) {
            return Err(format!("key {i}: value {} is not in {lo}..{hi}", k.value));
        }
        if let CueCurve::Bezier(c) = k.curve
            && !(c.iter().all(|v| v.is_finite())
                && (0.0..=1.0).contains(&c[0])
                && (0.0..=1.0).contains(&c[2]))
        {
            return Err(format!(
                "key {i}: curve x1 and x2 must be in 0..1, all finite"
            ));
        }
    }
    Ok(())
}

/// A track's value at animation time `t`: the first key's value before it, the last key's
/// after it, otherwise the key's curve between it and the next.
pub fn sample(keys: &[CueKey], t: f64) -> f64 {
    let Some(first) = keys.first() else {
        return 1.0;
    };
    // NaN times read the first value too.
    if t.partial_cmp(&first.time) != Some(std::cmp::Ordering::Greater) {
        return first.value;
    }
    // The last key at or before `t` (keys are sorted).
    let i = keys.partition_point(|k| k.time <= t) - 1;
    let (a, Some(b)) = (&keys[i], keys.get(i + 1)) else {
        return keys[i].value;
    };
    let span = b.time - a.time;
    if span <= 0.0 || span.is_nan() {
        return b.value;
    }
    let u = ((t - a.time) / span).clamp(0.0, 1.0);
    let f = match a.curve {
        CueCurve::Linear => u,
        CueCurve::Stepped => 0.0,
        CueCurve::Bezier([x1, y1, x2, y2]) => bezier(x1, y1, x2, y2, u),
    };
    a.value + (b.value - a.value) * f
}

/// `cubic-bezier(x1, y1, x2, y2)` at `x` in 0..1: the curve parameter found by 40
/// bisections (x is monotone for x1, x2 in 0..1; error below 1e-12), then y.
fn bezier(x1: f64, y1: f64, x2: f64, y2: f64, x: f64) -> f64 {
    let cubic = |p1: f64, p2: f64, s: f64| {
        let r = 1.0 - s;
        3.0 * r * r * s * p1 + 3.0 * r * s * s * p2 + s * s * s
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if cubic(x1, x2, mid) < x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    cubic(y1, y2, 0.5 * (lo + hi))
}

/// One playing animation as the jiggle stage sees it this frame.
///
/// Owner: the facade (`Character`), which fills it from the animation state each frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CueWindow {
    /// The animation.
    pub clip: ClipId,
    /// Its time at the previous frame (negative before its first frame: events at its start
    /// then fire), seconds.
    pub last: f64,
    /// Its time now (wrapped into `start..end` when looping), seconds.
    pub time: f64,
    /// Where it starts, seconds.
    pub start: f64,
    /// Where it ends, seconds.
    pub end: f64,
    /// Whether it loops (a window whose time is before its last one then wrapped).
    pub looping: bool,
    /// Its weight, 0..1 (1: its tracks count fully; crossfades and track alpha lower it).
    pub weight: f64,
    /// Animation seconds per second of the character's time (> 0; else events count as
    /// fired right now).
    pub speed: f64,
    /// Whether its fade events fire (false for an animation being mixed out).
    pub events: bool,
}

impl CueWindow {
    /// How long before `time` the animation passed `at`, in animation seconds, when this
    /// frame's window `(last, time]` holds it (wrapping once when looping).
    pub fn passed(&self, at: f64) -> Option<f64> {
        if self.last <= self.time {
            (at > self.last && at <= self.time).then_some(self.time - at)
        } else if self.looping {
            if at > self.last && at <= self.end {
                Some((self.end - at) + (self.time - self.start))
            } else if at >= self.start && at <= self.time {
                Some(self.time - at)
            } else {
                None
            }
        } else {
            None
        }
    }
}
