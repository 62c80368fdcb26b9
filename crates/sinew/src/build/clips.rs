//! RawClip -> Clip: timeline targets resolved to ids, keys and Bezier curves compiled.
//!
//! Follows the spine-ts 4.2 `SkeletonJson.readAnimation` conventions: keys are stored as f32,
//! Beziers are sampled at build time ([`crate::rig::curve`]) from the raw keys' f64 times,
//! values and handles (as the official loader samples them from the JSON numbers), unweighted deform keys store
//! setup + delta (weighted keys the zero-filled deltas), draw-order offsets become full
//! permutations, event keys take their event's defaults, and timelines are ordered as the
//! official loader creates them (slots, bones, IK, transform, path, physics,
//! deform/sequence, draw order, events), which the application order depends on. Each
//! timeline also gets dense property ids (Spine `propertyIds`) shared by all clips, which
//! [`crate::anim::AnimationState`] uses for its hold modes.
//!
//! Verified by the unit tests in `clips/tests.rs` (hand-built raw clips) and by the oracle
//! comparisons in `crates/sinew-formats/tests/all/anim_local.rs`.

mod special;
#[cfg(test)]
mod tests;
mod values;

use crate::ids::ClipId;
use crate::raw::{RawClip, RawRig, RawTarget, RawTimeline};
use crate::rig::Rig;
use crate::rig::clip::{Clip, Timeline, TimelineKind};
use crate::rig::playback::ClipPlayback;
use crate::rig::problem::{BuildProblem, ProblemKind};
use std::collections::HashMap;

/// Compiles every clip of `raw` into `rig.clips` (and `rig.names.clips`), pushing one
/// message per problem. Runs after bones, slots, constraints, skins and events are built.
pub fn build_clips(raw: &RawRig, rig: &mut Rig, problems: &mut Vec<BuildProblem>) {
    let mut props = PropertyIds::default();
    rig.clips.clear();
    rig.names.clips.clear();
    let mut deform_left = deform_budget(raw);
    for rc in &raw.clips {
        let clip = build_clip(rc, rig, &mut props, problems, &mut deform_left);
        let id = ClipId(rig.clips.len() as u32);
        rig.names.clips.entry(rc.name.clone()).or_insert(id);
        rig.clips.push(clip);
    }
    // Playback facts last: a held twin may be named before it is built.
    for (rc, clip) in raw.clips.iter().zip(rig.clips.iter_mut()) {
        let Some(p) = &rc.playback else {
            continue;
        };
        let held = match &p.held {
            None => None,
            Some(h) => match rig.names.clips.get(h) {
                Some(&id) => Some(id),
                None => {
                    problems.push(BuildProblem::unknown(
                        format!("animation `{}`", rc.name),
                        "held twin animation",
                        h,
                    ));
                    continue;
                }
            },
        };
        clip.playback = Some(ClipPlayback::dragonbones(
            p.play_times,
            p.fade_in,
            p.length,
            p.frame_rate,
            held,
        ));
    }
}

/// Deform floats any rig may hold whatever its size (4 MiB of f32).
const DEFORM_FLOOR: u64 = 1 << 20;
/// Deform floats per value of the raw rig (a key, a key value or delta, a mesh vertex
/// coordinate or UV): deform keys are stored whole (vertex count x keys), so a short key
/// of a large mesh (a few bytes of JSON or `.skel`) costs much more than it takes to write.
const DEFORM_PER_RAW: u64 = 16;

/// The most deform floats the clips of `raw` may hold: proportional to the raw rig's size
/// (itself bounded by the size of the file it was read from), plus [`DEFORM_FLOOR`].
fn deform_budget(raw: &RawRig) -> u64 {
    let mut size = 0u64;
    for skin in &raw.skins {
        for e in &skin.attachments {
            if let crate::raw::RawAttachmentKind::Mesh { vertices, uvs, .. } = &e.attachment.kind {
                size += (vertices.values.len() + uvs.len()) as u64;
            }
        }
    }
    for clip in &raw.clips {
        for t in &clip.timelines {
            for k in &t.keys {
                let deltas = match &k.data {
                    crate::raw::RawKeyData::Deform { vertices, .. } => vertices.len(),
                    _ => 0,
                };
                size += (1 + k.values.len() + deltas) as u64;
            }
        }
    }
    DEFORM_FLOOR.saturating_add(DEFORM_PER_RAW.saturating_mul(size))
}

/// Dense numbering of Spine property ids `(kind, index, sub-index)`.
#[derive(Default)]
pub(crate) struct PropertyIds {
    map: HashMap<(u8, u32, u32), u32>,
}

impl PropertyIds {
    fn id(&mut self, key: (u8, u32, u32)) -> u32 {
        let n = self.map.len() as u32;
        *self.map.entry(key).or_insert(n)
    }
}

/// Spine `Property` codes.
mod prop {
    pub const ROTATE: u8 = 0;
    pub const X: u8 = 1;
    pub const Y: u8 = 2;
    pub const SCALE_X: u8 = 3;
    pub const SCALE_Y: u8 = 4;
    pub const SHEAR_X: u8 = 5;
    pub const SHEAR_Y: u8 = 6;
    pub const INHERIT: u8 = 7;
    pub const RGB: u8 = 8;
    pub const ALPHA: u8 = 9;
    pub const RGB2: u8 = 10;
    pub const ATTACHMENT: u8 = 11;
    pub const DEFORM: u8 = 12;
    pub const EVENT: u8 = 13;
    pub const DRAW_ORDER: u8 = 14;
    pub const IK: u8 = 15;
    pub const TRANSFORM: u8 = 16;
    pub const PATH_POSITION: u8 = 17;
    pub const PATH_SPACING: u8 = 18;
    pub const PATH_MIX: u8 = 19;
    pub const PHYSICS: u8 = 20; // + property index 0..=6 (inertia .. mix)
    pub const PHYSICS_RESET: u8 = 27;
    pub const SEQUENCE: u8 = 28;
    pub const DRAW_ORDER_FOLDER: u8 = 29; // + the folder's first slot
    pub const SLIDER_TIME: u8 = 30;
    pub const SLIDER_MIX: u8 = 31;
}

/// The Spine property keys a timeline drives (up to 3).
fn property_keys(kind: &TimelineKind) -> ([(u8, u32, u32); 3], usize) {
    use TimelineKind as K;
    use prop::*;
    let one = |k: u8, a: u32| ([(k, a, 0), (0, 0, 0), (0, 0, 0)], 1);
    let two = |k1: u8, k2: u8, a: u32| ([(k1, a, 0), (k2, a, 0), (0, 0, 0)], 2);
    let b = |id: crate::ids::BoneId| u32::from(id.0);
    let s = |id: crate::ids::SlotId| u32::from(id.0);
    match kind {
        K::Rotate(x) => one(ROTATE, b(*x)),
        K::Translate(x) => two(X, Y, b(*x)),
        K::TranslateX(x) => one(X, b(*x)),
        K::TranslateY(x) => one(Y, b(*x)),
        K::Scale(x) => two(SCALE_X, SCALE_Y, b(*x)),
        K::ScaleX(x) => one(SCALE_X, b(*x)),
        K::ScaleY(x) => one(SCALE_Y, b(*x)),
        K::Shear(x) => two(SHEAR_X, SHEAR_Y, b(*x)),
        K::ShearX(x) => one(SHEAR_X, b(*x)),
        K::ShearY(x) => one(SHEAR_Y, b(*x)),
        K::Inherit { bone, .. } => one(INHERIT, b(*bone)),
        K::Attachment { slot, .. } => one(ATTACHMENT, s(*slot)),
        K::Rgba(x) => two(RGB, ALPHA, s(*x)),
        K::Rgb(x) => one(RGB, s(*x)),
        K::Alpha(x) => one(ALPHA, s(*x)),
        K::Rgba2(x) => ([(RGB, s(*x), 0), (ALPHA, s(*x), 0), (RGB2, s(*x), 0)], 3),
        K::Rgb2(x) => two(RGB, RGB2, s(*x)),
        K::Deform {
            slot, attachment, ..
        } => ([(DEFORM, s(*slot), attachment.0), (0, 0, 0), (0, 0, 0)], 1),
        K::Sequence {
            slot, attachment, ..
        } => (
            [(SEQUENCE, s(*slot), attachment.0), (0, 0, 0), (0, 0, 0)],
            1,
        ),
        K::DrawOrder { .. } => one(DRAW_ORDER, 0),
        K::DrawOrderFolder(f) => one(DRAW_ORDER_FOLDER, f.slots.first().map_or(0, |x| s(*x))),
        K::Event { .. } => one(EVENT, 0),
        K::Ik { constraint, .. } => one(IK, u32::from(constraint.0)),
        K::Transform(c) => one(TRANSFORM, u32::from(c.0)),
        K::PathPosition(c) => one(PATH_POSITION, u32::from(c.0)),
        K::PathSpacing(c) => one(PATH_SPACING, u32::from(c.0)),
        K::PathMix(c) => one(PATH_MIX, u32::from(c.0)),
        K::Physics {
            constraint,
            property,
        } => {
            // COMPAT(spine): global timelines use constraint index -1, their own id.
            let c = constraint.map_or(u32::MAX, |c| u32::from(c.0));
            one(PHYSICS + values::physics_index(*property), c)
        }
        // COMPAT(spine): every reset timeline shares one property id.
        K::PhysicsReset(_) => one(PHYSICS_RESET, 0),
        K::SliderTime(c) => one(SLIDER_TIME, u32::from(c.0)),
        K::SliderMix(c) => one(SLIDER_MIX, u32::from(c.0)),
    }
}

/// Official creation order of timeline categories.
fn category(t: &RawTarget) -> u8 {
    match t {
        RawTarget::Slot { .. } => 0,
        RawTarget::Bone { .. } => 1,
        RawTarget::Ik(_) => 2,
        RawTarget::Transform(_) => 3,
        RawTarget::PathPosition(_) | RawTarget::PathSpacing(_) | RawTarget::PathMix(_) => 4,
        RawTarget::Physics { .. } => 5,
        RawTarget::SliderTime(_) | RawTarget::SliderMix(_) => 6,
        RawTarget::Deform { .. } | RawTarget::Sequence { .. } => 7,
        RawTarget::DrawOrder => 8,
        RawTarget::DrawOrderFolder { .. } => 9,
        RawTarget::Event => 10,
    }
}

fn build_clip(
    rc: &RawClip,
    rig: &mut Rig,
    props: &mut PropertyIds,
    problems: &mut Vec<BuildProblem>,
    deform_left: &mut u64,
) -> Clip {
    let mut clip = Clip {
        name: rc.name.clone(),
        ..Default::default()
    };
    let mut order: Vec<&RawTimeline> = rc.timelines.iter().filter(|t| !t.keys.is_empty()).collect();
    order.sort_by_key(|t| category(&t.target));
    for rt in order {
        let mut cx = Ctx {
            rig: &mut *rig,
            clip_name: &rc.name,
            problems: &mut *problems,
            strings: &mut clip.strings,
            deform_left: &mut *deform_left,
        };
        let built = build_timeline(&mut cx, rt);
        let Some((kind, frames, curves)) = built else {
            continue;
        };
        let (keys, n) = property_keys(&kind);
        let mut properties = [0u32; 3];
        for k in 0..n {
            properties[k] = props.id(keys[k]);
        }
        let sorted = crate::rig::curve::keys_sorted(&frames, kind.entries());
        let tl = Timeline {
            kind,
            frames,
            curves,
            properties,
            property_count: n as u8,
            sorted,
        };
        clip.duration = clip.duration.max(tl.duration());
        clip.property_ids.extend_from_slice(tl.properties());
        clip.timelines.push(tl);
    }
    clip.property_ids.sort_unstable();
    clip.property_ids.dedup();
    clip
}

/// Shared state while compiling one clip.
pub(crate) struct Ctx<'a> {
    pub rig: &'a mut Rig,
    pub clip_name: &'a str,
    pub problems: &'a mut Vec<BuildProblem>,
    pub strings: &'a mut Vec<String>,
    /// Deform floats the rig's clips may still hold (see [`deform_budget`]).
    pub deform_left: &'a mut u64,
}

impl Ctx<'_> {
    /// Records a problem about this clip.
    pub fn problem(&mut self, kind: ProblemKind, msg: String) {
        self.problems.push(BuildProblem::new(
            kind,
            format!("animation `{}`", self.clip_name),
            msg,
        ));
    }
}

type Built = (TimelineKind, Vec<f32>, crate::rig::curve::Curves);

fn build_timeline(cx: &mut Ctx<'_>, rt: &RawTimeline) -> Option<Built> {
    match &rt.target {
        RawTarget::Deform {
            skin,
            slot,
            attachment,
        } => special::deform(cx, rt, skin, slot, attachment),
        RawTarget::Sequence {
            skin,
            slot,
            attachment,
        } => special::sequence(cx, rt, skin, slot, attachment),
        RawTarget::DrawOrder => special::draw_order(cx, rt),
        RawTarget::DrawOrderFolder { slots } => special::draw_order_folder(cx, rt, slots),
        RawTarget::Event => special::events(cx, rt),
        _ => values::build(cx, rt),
    }
}
