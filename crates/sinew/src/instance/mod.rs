//! Instance: every per-character buffer, allocated once by [`Instance::new`].
//!
//! The rig is shared and immutable; an instance holds the pose being animated (bone locals,
//! slot state, constraint mixes, physics state, draw order) and the results of a frame
//! (world transforms). After [`Instance::new`] and the first frames, updating allocates
//! nothing.
//!
//! Layer: data. Owns every stage's per-instance state: the plan (`plan`), path scratch and
//! Spine physics state ([`PathScratch`], [`PhysicsState`]), parameter state ([`params`]) and
//! the parameter cache. Imports only data (`ids`, `types`, `math`, `sim`, `rig`), never a
//! stage (`layering_tests.rs` checks it).

pub(crate) mod param_cache;
pub mod params;
pub(crate) mod plan;
pub(crate) mod slider_pose;
mod state;
#[cfg(feature = "rig-deformers")]
pub mod world_deformers;

pub use state::{PathScratch, PhysicsState};

use crate::ids::*;
use crate::math::WorldTransform;
use crate::rig::{
    AttachmentKind, ConstraintRef, LocalPose, PathMix, Rig, SliderPose, TransformMix,
};
use crate::types::{Color, Inherit};
use plan::PlanOp;

/// Animatable IK constraint state.
///
/// Owner: written by the animation stage (IK timelines) and read by the world stage's IK
/// constraints.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IkState {
    /// Mix.
    pub mix: f64,
    /// Softness.
    pub softness: f64,
    /// Bend direction, +1 or -1.
    pub bend_direction: i8,
    /// Compress.
    pub compress: bool,
    /// Stretch.
    pub stretch: bool,
}

/// The skin an instance shows: one skin, or several combined (later ones win).
///
/// Owner: set by `Instance::set_skins` (`Character::set_skins`); read by the animation stage
/// (attachment keys) and the world stage's plan (skin bones and constraints).
#[derive(Debug, Clone, Default)]
pub struct ActiveSkin {
    /// The skins combined, in order.
    pub skins: Vec<SkinId>,
    /// (slot, key, attachment) sorted by (slot, key), duplicates resolved.
    pub entries: Vec<(SlotId, NameId, AttachmentId)>,
    /// Skin-required bones the skin activates.
    pub bones: Vec<BoneId>,
    /// Skin-required constraints the skin activates.
    pub constraints: Vec<ConstraintRef>,
}

impl ActiveSkin {
    /// The attachment for a slot and key, if this skin has one.
    pub fn get(&self, slot: SlotId, key: NameId) -> Option<AttachmentId> {
        self.entries
            .binary_search_by(|e| (e.0, e.1).cmp(&(slot, key)))
            .ok()
            .map(|i| self.entries[i].2)
    }
}

/// Per-slot state.
///
/// Owner: written by the animation stage (slot timelines: colours, attachments, sequences,
/// deform keys) and the parameter stage (bound colours, deform buffers); read by the
/// world-vertex and draw stages.
#[derive(Debug, Clone, Default)]
pub struct SlotState {
    /// Tint colour.
    pub color: Vec<Color>,
    /// Dark colour (tint black); meaningful only for slots whose data has one.
    pub dark: Vec<Color>,
    /// Current attachment.
    pub attachment: Vec<Option<AttachmentId>>,
    /// Current sequence index (-1: the sequence's setup index).
    pub sequence_index: Vec<i32>,
    /// Start of each slot's deform buffer in `deform`.
    pub deform_start: Vec<u32>,
    /// Current deform length per slot (0: no deform).
    pub deform_len: Vec<u32>,
    /// Deform values of all slots (Spine `slot.deform`), each slot at `deform_start`.
    pub deform: Vec<f64>,
}

impl SlotState {
    /// The current deform values of a slot (empty when none).
    #[inline]
    pub fn deform(&self, slot: SlotId) -> &[f64] {
        let i = slot.index();
        match (self.deform_start.get(i), self.deform_len.get(i)) {
            (Some(&s), Some(&n)) => self
                .deform
                .get(s as usize..s as usize + n as usize)
                .unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The floats slot `slot`'s deform buffer holds: the rig's capacity for it when
    /// something deforms it, else 0 (writers check it; see [`Instance::new`]).
    pub fn deform_capacity(&self, slot: usize) -> usize {
        let start = self.deform_start.get(slot).copied().unwrap_or(0) as usize;
        let end = self
            .deform_start
            .get(slot + 1)
            .map_or(self.deform.len(), |&e| e as usize);
        end.saturating_sub(start)
    }
}

/// Which slots get a deform buffer: those a clip's deform timeline, a parameter deform
/// binding or a deformer writes; every slot for a rig whose timeline list is unknown (made
/// by hand, [`Rig::slot_deform_timelines`] empty). spine-c likewise allocates a slot's deform
/// array only when something writes it.
fn deformed_slots(rig: &Rig) -> Vec<bool> {
    let ns = rig.slots.len();
    if rig.slot_deform_timelines.len() != ns {
        return vec![true; ns];
    }
    let mut deformed = rig.slot_deform_timelines.clone();
    let set = &rig.params;
    let params = set.plan.deform.iter().map(|d| d.slot_index as usize);
    let deformers = set
        .deformers
        .deformers
        .iter()
        .flat_map(|d| &d.slots)
        .chain(&set.deformers.reset_slots)
        .map(|s| s.index());
    for s in params.chain(deformers) {
        if let Some(d) = deformed.get_mut(s) {
            *d = true;
        }
    }
    deformed
}

/// Per-character state.
///
/// Owner: one character's state for every stage of `Character::update`: the animation and
/// parameter stages write `pose`, `slots`, `draw_order` and the constraint mixes; the world
/// stage writes `applied`, `world`, `bone_active` and `physics`; jiggle rewrites the world
/// transforms of its bones; the world-vertex and draw stages only read.
#[derive(Debug, Clone)]
pub struct Instance {
    /// Bone local poses (what animation writes).
    pub pose: Vec<LocalPose>,
    /// Current inherit mode per bone (animatable).
    pub inherit: Vec<Inherit>,
    /// Applied local poses (what constraints leave; Spine `ax`, `arotation`, ...).
    pub applied: Vec<LocalPose>,
    /// World transforms.
    pub world: Vec<WorldTransform>,
    /// Whether each bone is active under the current skin.
    pub bone_active: Vec<bool>,
    /// Skeleton world position x.
    pub x: f64,
    /// Skeleton world position y.
    pub y: f64,
    /// Skeleton scale x.
    pub scale_x: f64,
    /// Skeleton scale y.
    pub scale_y: f64,
    /// The direction physics constraints' wind blows (Spine 4.3 `Skeleton.windX/windY`;
    /// default (1, 0), 4.2's fixed direction).
    pub wind_direction: [f64; 2],
    /// The direction their gravity pulls (Spine 4.3 `Skeleton.gravityX/gravityY`; x right,
    /// y down as Spine's vectors are; default (0, 1), 4.2's fixed direction: down).
    pub gravity_direction: [f64; 2],
    /// Skeleton clock in seconds (advanced by [`Instance::advance_time`]; physics reads it).
    pub time: f64,
    /// Slot state.
    pub slots: SlotState,
    /// Current draw order.
    pub draw_order: Vec<SlotId>,
    /// IK state per constraint.
    pub ik: Vec<IkState>,
    /// Transform constraint mixes.
    pub transforms: Vec<TransformMix>,
    /// Path constraint state.
    pub paths: Vec<PathMix>,
    /// Physics constraint state.
    pub physics: Vec<PhysicsState>,
    /// Whether each constraint is active (indexed like `rig.constraint_order`'s kinds).
    pub ik_active: Vec<bool>,
    /// Transform constraints active.
    pub transform_active: Vec<bool>,
    /// Path constraints active.
    pub path_active: Vec<bool>,
    /// Physics constraints active.
    pub physics_active: Vec<bool>,
    /// Slider time and mix per slider (Spine 4.3).
    pub sliders: Vec<SliderPose>,
    /// Slider constraints active.
    pub slider_active: Vec<bool>,
    /// The skin shown.
    pub skin: Option<ActiveSkin>,
    /// Update plan for the current skin (bones and constraints in Spine's order).
    pub(crate) plan: Vec<PlanOp>,
    /// Scratch "sorted" flag per bone, used only while the plan is rebuilt.
    pub(crate) plan_sorted: Vec<bool>,
    /// Scratch buffers for path constraints.
    pub(crate) path_scratch: PathScratch,
    /// Pose and applied values of what sliders key besides bones (Spine 4.3).
    pub(crate) slider_poses: slider_pose::SliderPoses,
    /// Parameter values and the parameter stage's buffers.
    pub params: params::ParamState,
    /// Per bone: the last local rotation angles and their cosines and sines (a memo of a
    /// pure function: most bones keep their rotation from frame to frame).
    pub(crate) trig: Vec<crate::math::trig::TrigMemo>,
    /// DragonBones IK's frame-to-frame memory (empty unless the rig has DragonBones IK).
    pub(crate) db_hold: DbHold,
    /// Per bone: the world rotation (radians) the DragonBones runtime holds where it sets one
    /// directly (roots, bones that do not inherit scale, IK results), NaN where it
    /// decomposes the world matrix (`bone::dragonbones::held_rotation`). Written by the world
    /// stage and DragonBones IK, read for children that inherit scale but not rotation;
    /// empty unless the rig has such a child.
    pub(crate) db_rotation: Vec<f64>,
    /// The [`Rig::uid`] this instance was made for ([`Instance::is_for`]).
    rig_uid: u64,
}

/// What DragonBones IK remembers from one frame to the next (see
/// `constraint/ik_dragonbones.rs`): the runtime recomputes a bone's world transform only
/// when the bone or an ancestor moved, so an IK chain that holds still is solved again from
/// its previous result. Both vectors are empty for rigs without DragonBones IK.
///
/// Owner: the animation stage writes `still` (DragonBones clips); the world stage's
/// DragonBones IK reads it and writes `prev`.
#[derive(Debug, Clone, Default)]
pub(crate) struct DbHold {
    /// Per bone: no timeline moved it this frame (the runtime's dirty flags stay clear).
    pub still: Vec<bool>,
    /// Per IK constraint: the chain root's world transform after the constraint last ran,
    /// and the rotation the runtime held for it (NaN where it decomposes; see `db_rotation`).
    pub prev: Vec<Option<(WorldTransform, f64)>>,
}

impl DbHold {
    fn new(rig: &Rig) -> DbHold {
        if !rig
            .ik
            .iter()
            .any(|k| k.solver == crate::types::IkSolver::DragonBones)
        {
            return DbHold::default();
        }
        DbHold {
            still: vec![false; rig.bones.len()],
            prev: vec![None; rig.ik.len()],
        }
    }

    fn fits(&self, rig: &Rig) -> bool {
        (self.still.is_empty() || self.still.len() == rig.bones.len())
            && (self.prev.is_empty() || self.prev.len() == rig.ik.len())
    }
}

impl Instance {
    /// The DragonBones world rotation held for bone index `i` ([`Instance::db_rotation`]),
    /// NaN where the runtime decomposes the matrix or the rig keeps none.
    #[inline]
    pub(crate) fn db_held(&self, i: usize) -> f64 {
        self.db_rotation.get(i).copied().unwrap_or(f64::NAN)
    }

    /// Records `r` as bone index `i`'s held DragonBones world rotation (NaN: decomposed);
    /// nothing for a rig that keeps none.
    #[inline]
    pub(crate) fn set_db_held(&mut self, i: usize, r: f64) {
        if let Some(h) = self.db_rotation.get_mut(i) {
            *h = r;
        }
    }

    /// Creates an instance in the setup pose with the default skin.
    pub fn new(rig: &Rig) -> Self {
        let nb = rig.bones.len();
        let ns = rig.slots.len();
        let deformed = deformed_slots(rig);
        let mut deform_start = Vec::with_capacity(ns);
        let mut total = 0u32;
        for s in 0..ns {
            deform_start.push(total);
            if deformed.get(s).copied().unwrap_or(true) {
                total += rig.slot_deform_capacity.get(s).copied().unwrap_or(0);
            }
        }
        let mut inst = Instance {
            pose: rig.bones.iter().map(|b| b.setup).collect(),
            inherit: rig.bones.iter().map(|b| b.inherit).collect(),
            applied: rig.bones.iter().map(|b| b.setup).collect(),
            // Zero until posed, as the official runtime: inactive bones keep it.
            world: vec![
                WorldTransform {
                    a: 0.0,
                    b: 0.0,
                    c: 0.0,
                    d: 0.0,
                    x: 0.0,
                    y: 0.0
                };
                nb
            ],
            bone_active: vec![true; nb],
            trig: vec![crate::math::trig::TrigMemo::EMPTY; nb],
            x: 0.0,
            y: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            wind_direction: [1.0, 0.0],
            gravity_direction: [0.0, 1.0],
            time: 0.0,
            slots: SlotState {
                color: rig.slots.iter().map(|s| s.color).collect(),
                dark: rig
                    .slots
                    .iter()
                    .map(|s| s.dark.unwrap_or(Color::BLACK))
                    .collect(),
                attachment: vec![None; ns],
                sequence_index: vec![-1; ns],
                deform_start,
                deform_len: vec![0; ns],
                deform: vec![0.0; total as usize],
            },
            draw_order: (0..ns).map(|i| SlotId(i as u16)).collect(),
            ik: rig
                .ik
                .iter()
                .map(|c| IkState {
                    mix: c.mix,
                    softness: c.softness,
                    bend_direction: c.bend_direction,
                    compress: c.compress,
                    stretch: c.stretch,
                })
                .collect(),
            transforms: rig.transforms.iter().map(|c| c.mix).collect(),
            paths: rig.paths.iter().map(|c| c.setup).collect(),
            physics: rig.physics.iter().map(PhysicsState::new).collect(),
            ik_active: vec![true; rig.ik.len()],
            transform_active: vec![true; rig.transforms.len()],
            path_active: vec![true; rig.paths.len()],
            physics_active: vec![true; rig.physics.len()],
            sliders: rig.sliders.iter().map(|c| c.setup).collect(),
            slider_active: vec![true; rig.sliders.len()],
            skin: None,
            plan: Vec::with_capacity(nb * 2 + rig.constraint_order.len()),
            plan_sorted: vec![false; nb],
            path_scratch: PathScratch::new(rig),
            slider_poses: slider_pose::SliderPoses::new(rig),
            params: params::ParamState::new(rig),
            db_hold: DbHold::new(rig),
            db_rotation: if rig
                .bones
                .iter()
                .any(|b| matches!(b.inherit, Inherit::DragonBones(f) if f.scale && !f.rotation))
            {
                vec![f64::NAN; nb]
            } else {
                Vec::new()
            },
            rig_uid: rig.uid,
        };
        let default: Vec<SkinId> = rig.default_skin.into_iter().collect();
        inst.set_skins(rig, &default);
        inst.set_to_setup_pose(rig);
        inst
    }

    /// Whether this instance can be posed with `rig`: it was made by [`Instance::new`] for a
    /// rig with the same [`Rig::uid`] and its per-bone, per-slot and per-constraint arrays
    /// still have that rig's lengths. Every stage function that takes a rig and an instance
    /// checks this first and leaves the instance as it is when it fails (never a panic);
    /// [`crate::Character`] holds its rig, so it never meets a mismatch.
    ///
    /// ```
    /// use sinew::{Instance, RawRig, build::build_rig, raw::RawBone};
    /// let mut one = RawRig::default();
    /// one.bones.push(RawBone::new("root", None));
    /// let (a, b) = (build_rig(&one).unwrap(), build_rig(&one).unwrap());
    /// let mut inst = Instance::new(&a);
    /// assert!(inst.is_for(&a) && !inst.is_for(&b));
    /// sinew::skeleton::update_world_transform(&b, &mut inst, sinew::Physics::None); // no-op
    /// ```
    pub fn is_for(&self, rig: &Rig) -> bool {
        let (nb, ns) = (rig.bones.len(), rig.slots.len());
        let slots = &self.slots;
        self.rig_uid == rig.uid
            && [
                self.pose.len(),
                self.inherit.len(),
                self.applied.len(),
                self.world.len(),
                self.bone_active.len(),
                self.trig.len(),
                self.plan_sorted.len(),
            ]
            .iter()
            .all(|&n| n == nb)
            && [
                slots.color.len(),
                slots.dark.len(),
                slots.attachment.len(),
                slots.sequence_index.len(),
                slots.deform_start.len(),
                slots.deform_len.len(),
                self.draw_order.len(),
            ]
            .iter()
            .all(|&n| n == ns)
            && self.ik.len() == rig.ik.len()
            && self.ik_active.len() == rig.ik.len()
            && self.transforms.len() == rig.transforms.len()
            && self.transform_active.len() == rig.transforms.len()
            && self.paths.len() == rig.paths.len()
            && self.path_active.len() == rig.paths.len()
            && self.physics.len() == rig.physics.len()
            && self.physics_active.len() == rig.physics.len()
            && self.sliders.len() == rig.sliders.len()
            && self.slider_active.len() == rig.sliders.len()
            && self.params.fits(rig)
            && self.db_hold.fits(rig)
            && (self.db_rotation.is_empty() || self.db_rotation.len() == rig.bones.len())
    }

    /// Shows the given skins combined in order (Spine `Skin.addSkin` into a new skin, then
    /// `setSkin`), or no skin for an empty list; ids that are not this rig's skins are
    /// skipped. Recomputes the update plan (allocates). Does nothing for another rig.
    pub fn set_skins(&mut self, rig: &Rig, skins: &[SkinId]) {
        if !self.is_for(rig) {
            return;
        }
        let new_skin = if skins.is_empty() {
            None
        } else {
            let mut s = ActiveSkin {
                skins: skins
                    .iter()
                    .copied()
                    .filter(|s| s.index() < rig.skins.len())
                    .collect(),
                ..Default::default()
            };
            for &id in skins {
                // A skin id that is not this rig's is skipped (`Character::set_skins` refuses it).
                let Some(data) = rig.skins.get(id.index()) else {
                    continue;
                };
                for b in &data.bones {
                    if !s.bones.contains(b) {
                        s.bones.push(*b);
                    }
                }
                for c in &data.constraints {
                    if !s.constraints.contains(c) {
                        s.constraints.push(*c);
                    }
                }
                s.entries.extend_from_slice(&data.entries);
            }
            // Stable sort keeps file/skin order among equal keys; the last one wins.
            s.entries.sort_by_key(|a| (a.0, a.1));
            let mut dedup: Vec<(SlotId, NameId, AttachmentId)> =
                Vec::with_capacity(s.entries.len());
            for e in s.entries.drain(..) {
                match dedup.last_mut() {
                    Some(last) if (last.0, last.1) == (e.0, e.1) => *last = e,
                    _ => dedup.push(e),
                }
            }
            s.entries = dedup;
            Some(s)
        };
        if let Some(new) = &new_skin {
            match self.skin.take() {
                Some(old) => {
                    // Spine `Skin.attachAll`: where a slot shows the old skin's attachment,
                    // switch to the new skin's attachment of the same key.
                    for &(slot, key, old_att) in &old.entries {
                        if self.slots.attachment[slot.index()] == Some(old_att)
                            && let Some(att) = new.get(slot, key)
                        {
                            self.attach(rig, slot, Some(att));
                        }
                    }
                }
                None => {
                    for (i, sd) in rig.slots.iter().enumerate() {
                        if let Some(key) = sd.attachment
                            && let Some(att) = new.get(SlotId(i as u16), key)
                        {
                            self.attach(rig, SlotId(i as u16), Some(att));
                        }
                    }
                }
            }
        }
        self.skin = new_skin;
        crate::instance::plan::update_cache(rig, self);
    }

    /// The attachment a slot would show for a key: the current skin's, else the default
    /// skin's (Spine `Skeleton.getAttachment`). `None` for another rig.
    pub fn find_attachment(&self, rig: &Rig, slot: SlotId, key: NameId) -> Option<AttachmentId> {
        if !self.is_for(rig) {
            return None;
        }
        self.lookup_attachment(rig, slot, key)
    }

    /// [`Instance::find_attachment`] for a rig known to be this instance's (the stages).
    #[inline]
    pub(crate) fn lookup_attachment(
        &self,
        rig: &Rig,
        slot: SlotId,
        key: NameId,
    ) -> Option<AttachmentId> {
        if let Some(skin) = &self.skin
            && let Some(a) = skin.get(slot, key)
        {
            return Some(a);
        }
        rig.default_skin
            .and_then(|d| rig.skins.get(d.index())?.get(slot, key))
    }

    /// Sets a slot's attachment, clearing its deform when the new attachment does not share
    /// the old one's deform timelines, and resetting the sequence index (Spine
    /// `Slot.setAttachment`). Does nothing for a slot or attachment that is not the rig's,
    /// or another rig.
    pub fn set_attachment(&mut self, rig: &Rig, slot: SlotId, attachment: Option<AttachmentId>) {
        if self.is_for(rig)
            && slot.index() < rig.slots.len()
            && attachment.is_none_or(|a| a.index() < rig.attachments.len())
        {
            self.attach(rig, slot, attachment);
        }
    }

    /// [`Instance::set_attachment`] for a slot, attachment and rig known to be this
    /// instance's (the animation stage, setup pose, skins).
    #[inline]
    pub(crate) fn attach(&mut self, rig: &Rig, slot: SlotId, attachment: Option<AttachmentId>) {
        let i = slot.index();
        let old = self.slots.attachment[i];
        if old == attachment {
            return;
        }
        let is_vertex = |a: Option<AttachmentId>| {
            a.map(|id| {
                let att = &rig.attachments[id.index()];
                !matches!(
                    att.kind,
                    AttachmentKind::Region(_) | AttachmentKind::Point { .. }
                )
            })
            .unwrap_or(false)
        };
        let same_timelines = match (old, attachment) {
            (Some(o), Some(n)) => {
                rig.attachments[o.index()].timeline_attachment
                    == rig.attachments[n.index()].timeline_attachment
            }
            _ => false,
        };
        if !is_vertex(attachment) || !is_vertex(old) || !same_timelines {
            self.slots.deform_len[i] = 0;
        }
        self.slots.attachment[i] = attachment;
        self.slots.sequence_index[i] = -1;
    }

    /// Resets bones, constraints, slots and draw order to the setup pose (nothing for
    /// another rig).
    pub fn set_to_setup_pose(&mut self, rig: &Rig) {
        self.set_bones_to_setup_pose(rig);
        self.set_slots_to_setup_pose(rig);
    }

    /// Resets bone locals, inherit modes and constraint state to the setup pose.
    pub fn set_bones_to_setup_pose(&mut self, rig: &Rig) {
        if !self.is_for(rig) {
            return;
        }
        // DragonBones IK starts over from the animated pose.
        self.db_hold.prev.iter_mut().for_each(|p| *p = None);
        for (i, b) in rig.bones.iter().enumerate() {
            self.pose[i] = b.setup;
            self.inherit[i] = b.inherit;
        }
        // The parameter stage rewrites its bones' locals only when their inputs change.
        self.params.cache.invalidate();
        for (i, c) in rig.ik.iter().enumerate() {
            self.ik[i] = IkState {
                mix: c.mix,
                softness: c.softness,
                bend_direction: c.bend_direction,
                compress: c.compress,
                stretch: c.stretch,
            };
        }
        for (i, c) in rig.transforms.iter().enumerate() {
            self.transforms[i] = c.mix;
        }
        for (i, c) in rig.paths.iter().enumerate() {
            self.paths[i] = c.setup;
        }
        for (i, c) in rig.physics.iter().enumerate() {
            self.physics[i].params = c.setup;
        }
        for (i, c) in rig.sliders.iter().enumerate() {
            self.sliders[i] = c.setup;
        }
    }

    /// Resets slot colours, attachments and the draw order to the setup pose.
    pub fn set_slots_to_setup_pose(&mut self, rig: &Rig) {
        if !self.is_for(rig) {
            return;
        }
        // The parameter stage rewrites its slots' colours only when their inputs change.
        self.params.cache.invalidate();
        for (i, sd) in rig.slots.iter().enumerate() {
            let slot = SlotId(i as u16);
            self.draw_order[i] = slot;
            self.slots.color[i] = sd.color;
            self.slots.dark[i] = sd.dark.unwrap_or(Color::BLACK);
            match sd.attachment {
                None => self.attach(rig, slot, None),
                Some(key) => {
                    // Spine clears the attachment first so the deform is always reset.
                    self.slots.attachment[i] = None;
                    let att = self.lookup_attachment(rig, slot, key);
                    self.attach(rig, slot, att);
                    self.slots.deform_len[i] = 0;
                    self.slots.sequence_index[i] = -1;
                }
            }
        }
    }

    /// Advances the skeleton clock (Spine `Skeleton.update`); physics reads it. A NaN or
    /// infinite `dt` (a broken clock) is ignored, so one bad frame cannot stop physics for
    /// good.
    pub fn advance_time(&mut self, dt: f64) {
        if dt.is_finite() {
            self.time += dt;
        }
    }
}
