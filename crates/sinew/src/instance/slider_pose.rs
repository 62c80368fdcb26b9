//! The unconstrained ("pose") and constrained ("applied") values of what a Spine 4.3
//! slider's clip keys besides bones: slot colours, attachments, sequences, deforms, the
//! draw order and constraint values. 4.3 keeps the two apart (`Posed.pose` and
//! `appliedPose`); sinew keeps one state and this record: the first slider of a frame saves
//! the pose, each slider saves the applied state after it, and the next frame's animation
//! stage restores the pose ([`restore`]) wherever the state still holds the applied value
//! (so a host's write between frames stands). Bones need none of this: their applied pose is
//! its own array (`Instance::applied`).
//!
//! Allocated only for rigs with a slider whose clip keys more than bones; `clone_from` into
//! same-length vectors allocates nothing after the first frame.

use super::{IkState, Instance};
use crate::ids::{AttachmentId, SlotId};
use crate::rig::{PathMix, PhysicsParams, Rig, SliderPose, TransformMix};
use crate::types::Color;

/// One copy of everything a slider's clip can key besides bones.
#[derive(Debug, Clone, Default)]
struct Snapshot {
    color: Vec<Color>,
    dark: Vec<Color>,
    attachment: Vec<Option<AttachmentId>>,
    sequence_index: Vec<i32>,
    deform_len: Vec<u32>,
    deform: Vec<f64>,
    draw_order: Vec<SlotId>,
    ik: Vec<IkState>,
    transforms: Vec<TransformMix>,
    paths: Vec<PathMix>,
    physics: Vec<PhysicsParams>,
    sliders: Vec<SliderPose>,
}

impl Snapshot {
    fn capture(&mut self, inst: &Instance) {
        let s = &inst.slots;
        self.color.clone_from(&s.color);
        self.dark.clone_from(&s.dark);
        self.attachment.clone_from(&s.attachment);
        self.sequence_index.clone_from(&s.sequence_index);
        self.deform_len.clone_from(&s.deform_len);
        self.deform.clone_from(&s.deform);
        self.draw_order.clone_from(&inst.draw_order);
        self.ik.clone_from(&inst.ik);
        self.transforms.clone_from(&inst.transforms);
        self.paths.clone_from(&inst.paths);
        self.physics.clear();
        self.physics.extend(inst.physics.iter().map(|p| p.params));
        self.sliders.clone_from(&inst.sliders);
    }
}

/// The saved pose and applied state of one instance.
#[derive(Debug, Clone, Default)]
pub(crate) struct SliderPoses {
    /// The rig has a slider whose clip keys more than bones.
    enabled: bool,
    /// A slider ran since the last restore.
    pending: bool,
    pose: Snapshot,
    applied: Snapshot,
}

impl SliderPoses {
    pub(crate) fn new(rig: &Rig) -> Self {
        use crate::rig::clip::TimelineKind as K;
        let enabled = rig.sliders.iter().any(|s| {
            rig.clips.get(s.clip.index()).is_some_and(|c| {
                (c.timelines.iter())
                    .any(|t| t.kind.bone().is_none() && !matches!(t.kind, K::Event { .. }))
            })
        });
        SliderPoses {
            enabled,
            ..Default::default()
        }
    }
}

/// Before a slider applies its clip: the first slider of a frame saves the pose.
pub(crate) fn before_slider(inst: &mut Instance) {
    if !inst.slider_poses.enabled || inst.slider_poses.pending {
        return;
    }
    let mut p = std::mem::take(&mut inst.slider_poses);
    p.pose.capture(inst);
    p.pending = true;
    inst.slider_poses = p;
}

/// After a slider applied its clip: saves the applied state.
pub(crate) fn after_slider(inst: &mut Instance) {
    if !inst.slider_poses.pending {
        return;
    }
    let mut p = std::mem::take(&mut inst.slider_poses);
    p.applied.capture(inst);
    inst.slider_poses = p;
}

/// Puts the pose back where the state still holds what the sliders left (4.3 animates the
/// pose, never the applied state). Called before the animation stage; inline so a frame
/// without sliders pays one test.
#[inline(always)]
pub(crate) fn restore(inst: &mut Instance) {
    if inst.slider_poses.pending {
        restore_pending(inst);
    }
}

#[cold]
#[inline(never)]
fn restore_pending(inst: &mut Instance) {
    let mut p = std::mem::take(&mut inst.slider_poses);
    p.pending = false;
    let (pose, applied) = (&p.pose, &p.applied);
    back(&mut inst.slots.color, &applied.color, &pose.color);
    back(&mut inst.slots.dark, &applied.dark, &pose.dark);
    back(
        &mut inst.slots.attachment,
        &applied.attachment,
        &pose.attachment,
    );
    back(
        &mut inst.slots.sequence_index,
        &applied.sequence_index,
        &pose.sequence_index,
    );
    let s = &mut inst.slots;
    let n = s
        .deform_len
        .len()
        .min(applied.deform_len.len())
        .min(pose.deform_len.len());
    for i in 0..n {
        let start = s.deform_start[i] as usize;
        let cap = s.deform_capacity(i);
        let range = start..start + cap;
        let same = s.deform_len[i] == applied.deform_len[i]
            && s.deform.get(range.clone()) == applied.deform.get(range.clone());
        if same && let Some(src) = pose.deform.get(range.clone()) {
            s.deform[range].copy_from_slice(src);
            s.deform_len[i] = pose.deform_len[i];
        }
    }
    if inst.draw_order == applied.draw_order && inst.draw_order.len() == pose.draw_order.len() {
        inst.draw_order.copy_from_slice(&pose.draw_order);
    }
    back(&mut inst.ik, &applied.ik, &pose.ik);
    back(&mut inst.transforms, &applied.transforms, &pose.transforms);
    back(&mut inst.paths, &applied.paths, &pose.paths);
    back(&mut inst.sliders, &applied.sliders, &pose.sliders);
    for (i, st) in inst.physics.iter_mut().enumerate() {
        if let (Some(a), Some(o)) = (applied.physics.get(i), pose.physics.get(i))
            && st.params == *a
        {
            st.params = *o;
        }
    }
    inst.slider_poses = p;
}

/// Element by element: where `cur` still equals `applied`, it becomes `pose`.
fn back<T: PartialEq + Copy>(cur: &mut [T], applied: &[T], pose: &[T]) {
    for ((c, a), o) in cur.iter_mut().zip(applied).zip(pose) {
        if *c == *a {
            *c = *o;
        }
    }
}
