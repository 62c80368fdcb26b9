//! What game code asks of a [`Character`]: bones, slots, clips, skins, IK constraints and
//! parameters by name; world <-> local for points and rotations; bone locals and IK
//! targets set from code; skins combined by name; attachments by slot and name; tracks;
//! parameters with their ranges. Every id is checked against the rig (no panics).
//!
//! Owned by the facade (`character`). Verified by `character/tests.rs`.

use super::error::{CharacterError, named};
use super::finite;
use super::key::{
    AttachmentKey, Bone, Clip, Ik, Key, Param, ParamValue, PathConstraint, PhysicsConstraint, Skin,
    Slider, Slot, TransformConstraint,
};
use super::{Character, ParamAnim};
use crate::anim::EntryId;
use crate::ids::{
    AttachmentId, BoneId, ClipId, IkId, ParamId, PathId, PhysicsId, SkinId, SliderId, SlotId,
    TransformId,
};
use crate::math::{RAD_DEG, Vec2, WorldTransform};
use crate::params::ParamData;
use crate::params::inochi_clip::ParamAnimation;
use crate::params::player::ParamPlayer;
use crate::rig::LocalPose;
use std::sync::Arc;

/// World point -> the bone space of `w` (Spine `Bone.worldToLocal`); through the
/// pseudo-inverse when `w` is singular ([`WorldTransform::inverse_linear`]: finite, the
/// least-squares point).
pub(crate) fn world_to_local(w: &WorldTransform, p: Vec2) -> Vec2 {
    let det = w.a * w.d - w.b * w.c;
    let (x, y) = (p.x - w.x, p.y - w.y);
    if det != 0.0 {
        let inv = 1.0 / det;
        let r = Vec2::new((x * w.d - y * w.b) * inv, (y * w.a - x * w.c) * inv);
        if r.x.is_finite() && r.y.is_finite() {
            return r;
        }
    }
    let m = w.inverse_linear();
    Vec2::new(m.a * x + m.b * y, m.c * x + m.d * y)
}

impl Character {
    /// A bone by name (Spine `findBone`), as a handle that only this rig's characters
    /// take ([`Handle`](super::Handle)).
    pub fn find_bone(&self, name: &str) -> Option<Bone> {
        self.rig.bone(name).map(|id| self.handle(id))
    }

    /// A slot by name (Spine `findSlot`).
    pub fn find_slot(&self, name: &str) -> Option<Slot> {
        self.rig.slot(name).map(|id| self.handle(id))
    }

    /// An animation clip by name (Spine `findAnimation`).
    pub fn find_clip(&self, name: &str) -> Option<Clip> {
        self.rig.clip(name).map(|id| self.handle(id))
    }

    /// A skin by name (Spine `findSkin`).
    pub fn find_skin(&self, name: &str) -> Option<Skin> {
        self.rig.skin(name).map(|id| self.handle(id))
    }

    /// An IK constraint by name (Spine `findIkConstraint`).
    pub fn find_ik(&self, name: &str) -> Option<Ik> {
        Key::<IkId>::resolve(name, self)
            .ok()
            .map(|id| self.handle(id))
    }

    /// A transform constraint by name (Spine `findTransformConstraint`).
    pub fn find_transform(&self, name: &str) -> Option<TransformConstraint> {
        Key::<TransformId>::resolve(name, self)
            .ok()
            .map(|id| self.handle(id))
    }

    /// A path constraint by name (Spine `findPathConstraint`).
    pub fn find_path(&self, name: &str) -> Option<PathConstraint> {
        Key::<PathId>::resolve(name, self)
            .ok()
            .map(|id| self.handle(id))
    }

    /// A Spine 4.3 slider by name (Spine `findConstraint(name, SliderData)`).
    pub fn find_slider(&self, name: &str) -> Option<Slider> {
        Key::<SliderId>::resolve(name, self)
            .ok()
            .map(|id| self.handle(id))
    }

    /// A physics constraint by name (Spine `findPhysicsConstraint`).
    pub fn find_physics(&self, name: &str) -> Option<PhysicsConstraint> {
        Key::<PhysicsId>::resolve(name, self)
            .ok()
            .map(|id| self.handle(id))
    }

    /// A parameter by name (puppets).
    pub fn find_param(&self, name: &str) -> Option<Param> {
        self.rig.params.find(name).map(|id| self.handle(id))
    }

    fn bone_index(&self, bone: impl Key<BoneId>) -> Result<usize, CharacterError> {
        bone.resolve(self).map(BoneId::index)
    }

    /// A bone's world transform after the last update (rig space: the rig's own y
    /// convention). `None` for a bone that is not this rig's.
    pub fn bone_world(&self, bone: impl Key<BoneId>) -> Option<WorldTransform> {
        let i = self.bone_index(bone).ok()?;
        self.inst.world.get(i).copied()
    }

    /// A bone's world rotation of its x axis, degrees (Spine `getWorldRotationX`).
    pub fn world_rotation(&self, bone: impl Key<BoneId>) -> Option<f64> {
        self.bone_world(bone).map(|w| w.c.atan2(w.a) * RAD_DEG)
    }

    /// A point in a bone's space to world space (Spine `localToWorld`).
    /// `None` also for a result that is not finite (a non-finite or huge point).
    pub fn local_to_world(&self, bone: impl Key<BoneId>, p: impl Into<Vec2>) -> Option<Vec2> {
        let p = p.into();
        self.bone_world(bone)
            .and_then(|w| finite::point(w.apply(p)))
    }

    /// A world point to a bone's space (Spine `worldToLocal`).
    /// A singular bone (scaled to 0) maps through its pseudo-inverse
    /// ([`WorldTransform::inverse_linear`]); `None` also for a result that is not finite.
    pub fn world_to_local(&self, bone: impl Key<BoneId>, p: impl Into<Vec2>) -> Option<Vec2> {
        let p = p.into();
        self.bone_world(bone)
            .and_then(|w| finite::point(world_to_local(&w, p)))
    }

    /// A world rotation (degrees) to a bone's local rotation (Spine
    /// `worldToLocalRotation`); `None` for a non-finite result.
    pub fn world_to_local_rotation(&self, bone: impl Key<BoneId>, degrees: f64) -> Option<f64> {
        let i = self.bone_index(bone).ok()?;
        let (w, applied) = (self.inst.world.get(i)?, self.inst.applied.get(i)?);
        let (s, c) = degrees.to_radians().sin_cos();
        finite::scalar(
            (w.a * s - w.c * c).atan2(w.d * c - w.b * s) * RAD_DEG + applied.rotation
                - applied.shear_x,
        )
    }

    /// A bone's local rotation (degrees) to a world rotation (Spine
    /// `localToWorldRotation`); `None` for a non-finite result.
    pub fn local_to_world_rotation(&self, bone: impl Key<BoneId>, degrees: f64) -> Option<f64> {
        let i = self.bone_index(bone).ok()?;
        let (w, applied) = (self.inst.world.get(i)?, self.inst.applied.get(i)?);
        let (s, c) = (degrees - applied.rotation - applied.shear_x)
            .to_radians()
            .sin_cos();
        finite::scalar((c * w.c + s * w.d).atan2(c * w.a + s * w.b) * RAD_DEG)
    }

    /// A bone's local pose as the animation (or code) left it.
    pub fn bone_local(&self, bone: impl Key<BoneId>) -> Option<LocalPose> {
        let i = self.bone_index(bone).ok()?;
        self.inst.pose.get(i).copied()
    }

    /// Holds a bone's local pose from code: from the next update on it replaces what the
    /// animation writes, every frame, until [`Character::clear_bone_local`]. (Puppets: the
    /// parameter stage still owns the locals of parameter-bound bones.)
    ///
    /// Every field must be finite and under 1e30 in magnitude
    /// ([`CharacterError::NotFinite`] otherwise).
    pub fn set_bone_local(
        &mut self,
        bone: impl Key<BoneId>,
        pose: LocalPose,
    ) -> Result<(), CharacterError> {
        let i = self.bone_index(bone)?;
        finite::input("bone local x", pose.x)?;
        finite::input("bone local y", pose.y)?;
        finite::input("bone local rotation", pose.rotation)?;
        finite::input("bone local scale x", pose.scale_x)?;
        finite::input("bone local scale y", pose.scale_y)?;
        finite::input("bone local shear x", pose.shear_x)?;
        finite::input("bone local shear y", pose.shear_y)?;
        if self.bone_overrides[i] != Some(pose) {
            self.mark_moved(i);
        }
        self.bone_overrides[i] = Some(pose);
        self.overrides = true;
        Ok(())
    }

    /// Lets the animation pose the bone again.
    pub fn clear_bone_local(&mut self, bone: impl Key<BoneId>) -> Result<(), CharacterError> {
        let i = self.bone_index(bone)?;
        if self.bone_overrides[i].is_some() {
            self.mark_moved(i);
        }
        self.bone_overrides[i] = None;
        self.recount_overrides();
        Ok(())
    }

    /// Marks a bone as moved for the next update, as the DragonBones runtime's
    /// `invalidUpdate`: a DragonBones IK chain under it is solved afresh instead of from its
    /// last result (the runtime holds a still chain's world transform; see
    /// `constraint/ik_dragonbones.rs`). [`Character::set_bone_local`] and
    /// [`Character::clear_bone_local`] mark the bone when its pose changes; this is for a host
    /// that wants the chain re-solved without changing a pose. No effect on other rigs.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use sinew::raw::{RawBone, RawRig};
    /// # let mut raw = RawRig::default();
    /// # raw.bones.push(RawBone::new("root", None));
    /// # let rig = Arc::new(sinew::build::build_rig(&raw).expect("a rig"));
    /// let mut c = sinew::Character::new(rig);
    /// c.mark_bone_moved("root").expect("a bone");
    /// assert!(c.mark_bone_moved("nobody").is_err());
    /// c.update(1.0 / 60.0);
    /// ```
    pub fn mark_bone_moved(&mut self, bone: impl Key<BoneId>) -> Result<(), CharacterError> {
        let i = self.bone_index(bone)?;
        self.mark_moved(i);
        Ok(())
    }

    fn mark_moved(&mut self, i: usize) {
        if let Some(m) = self.moved.get_mut(i) {
            *m = true;
            self.any_moved = true;
        }
    }

    /// Moves an IK constraint's target bone to a world position, held every frame (after
    /// the animation, before world transforms) until [`Character::clear_ik_target`]. The
    /// position is mapped through the target's parent as posed by the previous update.
    /// Coordinates must be finite and under 1e30 in magnitude.
    pub fn set_ik_target(
        &mut self,
        ik: impl Key<IkId>,
        x: f64,
        y: f64,
    ) -> Result<(), CharacterError> {
        let k = ik.resolve(self)?.index();
        finite::input("IK target x", x)?;
        finite::input("IK target y", y)?;
        self.ik_targets[k] = Some((x, y));
        self.overrides = true;
        Ok(())
    }

    /// Lets the animation place the IK target again.
    pub fn clear_ik_target(&mut self, ik: impl Key<IkId>) -> Result<(), CharacterError> {
        let k = ik.resolve(self)?.index();
        self.ik_targets[k] = None;
        self.recount_overrides();
        Ok(())
    }

    fn recount_overrides(&mut self) {
        self.overrides = self.bone_overrides.iter().any(Option::is_some)
            || self.ik_targets.iter().any(Option::is_some);
    }

    /// Shows these skins combined in order (later ones win; Spine `Skin.addSkin`), or no
    /// skin for an empty list; slots showing the old skin's attachments switch to the new
    /// one's. Recomputes the update plan (allocates).
    /// Skins are [`Skin`] handles, names or ids (`&[SkinId]`, range-checked).
    ///
    /// ```
    /// # use sinew::character::Character;
    /// # let mut raw = sinew::raw::RawRig::default();
    /// # raw.bones.push(sinew::raw::RawBone::new("root", None));
    /// # let rig = std::sync::Arc::new(sinew::build::build_rig(&raw).expect("rig"));
    /// let mut c = Character::new(rig);
    /// let err = c.set_skins(&["no-such-skin"]).unwrap_err();
    /// assert_eq!(err.to_string(), "skin not found: `no-such-skin`; this rig has no skins");
    /// assert!(c.set_skins::<&str>(&[]).is_ok());
    /// ```
    pub fn set_skins<K: Key<SkinId> + Copy>(&mut self, skins: &[K]) -> Result<(), CharacterError> {
        let ids = skins
            .iter()
            .map(|s| s.resolve(self))
            .collect::<Result<Vec<SkinId>, _>>()?;
        self.inst.set_skins(&self.rig, &ids);
        Ok(())
    }

    /// The skins shown, combined in order.
    pub fn skins(&self) -> &[SkinId] {
        self.inst.skin.as_ref().map_or(&[], |s| s.skins.as_slice())
    }

    /// Resets bones, constraints, slots and the draw order to the setup pose.
    pub fn set_to_setup_pose(&mut self) {
        self.inst.set_to_setup_pose(&self.rig);
    }

    /// Resets slots (colours, attachments, draw order) to the setup pose.
    pub fn set_slots_to_setup_pose(&mut self) {
        self.inst.set_slots_to_setup_pose(&self.rig);
    }

    /// The attachment a slot shows.
    pub fn attachment(&self, slot: impl Key<SlotId>) -> Option<AttachmentId> {
        let i = slot.resolve(self).ok()?.index();
        self.inst.slots.attachment.get(i).copied().flatten()
    }

    /// The attachment a slot would show under this name (its key in the skins): the
    /// current skins', else the default skin's (Spine `getAttachment`).
    pub fn find_attachment(
        &self,
        slot: impl Key<SlotId>,
        name: &str,
    ) -> Result<AttachmentId, CharacterError> {
        let s = slot.resolve(self)?;
        let unknown = || CharacterError::UnknownAttachment {
            slot: self
                .rig
                .slots
                .get(s.index())
                .map(|d| d.name.clone())
                .unwrap_or_default(),
            name: name.to_owned(),
        };
        // The builder's name map of attachment keys (one entry per distinct key).
        let key = *self
            .rig
            .names
            .attachment_keys
            .get(name)
            .ok_or_else(unknown)?;
        self.inst
            .find_attachment(&self.rig, s, key)
            .ok_or_else(unknown)
    }

    /// Shows an attachment on `slot` (Spine `setAttachment`): by name (looked up in the
    /// slot's skins, as [`Character::find_attachment`]), by id (refused when it belongs to
    /// another slot or rig), or `None` to hide the slot's attachment. The animation may
    /// change it again on the next update.
    ///
    /// ```
    /// # use sinew::character::Character;
    /// # let mut raw = sinew::raw::RawRig::default();
    /// # raw.bones.push(sinew::raw::RawBone::new("root", None));
    /// # raw.slots.push(sinew::raw::RawSlot::new("hand", "root"));
    /// # let rig = std::sync::Arc::new(sinew::build::build_rig(&raw).expect("rig"));
    /// let mut c = Character::new(rig);
    /// c.set_attachment("hand", None::<&str>)?; // hide
    /// assert!(c.set_attachment("hand", "sword").is_err()); // not in the slot's skins
    /// assert!(c.attachment("hand").is_none());
    /// # Ok::<(), sinew::CharacterError>(())
    /// ```
    pub fn set_attachment(
        &mut self,
        slot: impl Key<SlotId>,
        att: impl AttachmentKey,
    ) -> Result<(), CharacterError> {
        let slot = slot.resolve(self)?;
        let att = att.resolve_for(self, slot)?;
        self.inst.set_attachment(&self.rig, slot, att);
        Ok(())
    }

    fn clip_id(&self, clip: impl Key<ClipId>) -> Result<ClipId, CharacterError> {
        clip.resolve(self)
    }

    /// The queued entry, or the reason the state refused it (the clip was checked).
    fn queued(track: usize, entry: Option<EntryId>) -> Result<EntryId, CharacterError> {
        entry.ok_or(CharacterError::TrackOutOfRange { track })
    }

    /// Plays a clip (a [`Clip`] handle, its name or its id) on a track now, mixing from
    /// what played (Spine `setAnimation`).
    pub fn set_animation(
        &mut self,
        track: usize,
        clip: impl Key<ClipId>,
        looping: bool,
    ) -> Result<EntryId, CharacterError> {
        let clip = self.clip_id(clip)?;
        Self::queued(
            track,
            self.state.set_animation(&self.rig, track, clip, looping),
        )
    }

    /// Queues a clip after a track's last entry (Spine `addAnimation`; a `delay` <= 0
    /// starts it when the previous entry completes, minus the mix, plus `delay`).
    pub fn add_animation(
        &mut self,
        track: usize,
        clip: impl Key<ClipId>,
        looping: bool,
        delay: f64,
    ) -> Result<EntryId, CharacterError> {
        let clip = self.clip_id(clip)?;
        finite::input("queue delay", delay)?;
        let entry = self
            .state
            .add_animation(&self.rig, track, clip, looping, delay);
        Self::queued(track, entry)
    }

    /// Mixes a track out to the setup pose (Spine `setEmptyAnimation`).
    /// A non-finite or negative mix duration counts as 0. Refused for a track from
    /// [`crate::anim::state::MAX_TRACKS`] on.
    pub fn set_empty_animation(
        &mut self,
        track: usize,
        mix_duration: f64,
    ) -> Result<EntryId, CharacterError> {
        let mix = if finite::ok(mix_duration) {
            mix_duration.max(0.0)
        } else {
            0.0
        };
        Self::queued(track, self.state.set_empty_animation(&self.rig, track, mix))
    }

    /// Sets this character's crossfade duration between two clips (Spine
    /// `AnimationStateData.setMix`; a shared table is copied first).
    pub fn set_mix(
        &mut self,
        from: impl Key<ClipId>,
        to: impl Key<ClipId>,
        seconds: f64,
    ) -> Result<(), CharacterError> {
        let f = self.clip_id(from)?;
        let t = self.clip_id(to)?;
        finite::input("mix duration", seconds)?;
        self.state.set_mix(f, t, seconds);
        Ok(())
    }

    /// The mix duration used for pairs the table does not list (a non-finite, negative or
    /// huge one is ignored).
    pub fn set_default_mix(&mut self, seconds: f64) {
        if finite::ok(seconds) && seconds >= 0.0 {
            self.state.default_mix = seconds;
        }
    }

    /// A parameter's definition: name, axes, range per axis, default (puppets).
    pub fn param_info(&self, param: impl Key<ParamId>) -> Option<&ParamData> {
        let i = param.resolve(self).ok()?.index();
        self.rig.params.params.get(i)
    }

    /// Every parameter's definition, in id order.
    pub fn params(&self) -> &[ParamData] {
        &self.rig.params.params
    }

    /// A parameter's current value (x, y; y unused for 1-axis parameters).
    pub fn param(&self, param: impl Key<ParamId>) -> Option<[f64; 2]> {
        let i = param.resolve(self).ok()?.index();
        self.inst.params.values.get(i).copied()
    }

    /// Sets a parameter (clamped to its range on use): a number for a one-axis parameter,
    /// `[x, y]` for either (y is ignored by a one-axis parameter). With a parameter
    /// animation playing this is the base value it plays on. Physics-driven parameters take
    /// it as a start. Values must be finite and under 1e30 in magnitude
    /// ([`CharacterError::NotFinite`]); a single number for a two-axis parameter is refused
    /// ([`CharacterError::ParamAxes`]).
    #[inline]
    pub fn set_param(
        &mut self,
        param: impl Key<ParamId>,
        value: impl Into<ParamValue>,
    ) -> Result<(), CharacterError> {
        let param = param.resolve(self)?;
        let i = param.index();
        let value = match (value.into(), self.rig.params.params.get(i)) {
            (ParamValue::One(_), Some(p)) if p.is_2d => {
                return Err(CharacterError::ParamAxes {
                    name: p.name.clone(),
                });
            }
            (ParamValue::One(x), _) => [x, 0.0],
            (ParamValue::Two(v), _) => v,
        };
        finite::input("parameter value", value[0])?;
        finite::input("parameter value", value[1])?;
        self.inst.params.set(&self.rig, param, value);
        if let Some(p) = &mut self.param_anim
            && let (Some(b), Some(v)) = (p.base.get_mut(i), self.inst.params.values.get(i))
        {
            *b = *v;
        }
        Ok(())
    }

    /// Leaves a parameter out of the parameter stage (`true`, an editor's mute) or puts it
    /// back.
    pub fn set_param_muted(
        &mut self,
        param: impl Key<ParamId>,
        muted: bool,
    ) -> Result<(), CharacterError> {
        let i = param.resolve(self)?.index();
        if let Some(m) = self.inst.params.muted.get_mut(i) {
            *m = muted;
        }
        Ok(())
    }

    /// Gives the character its puppet's parameter animations (the loader's), stopped.
    pub fn set_param_animations(&mut self, anims: Arc<[ParamAnimation]>) {
        self.param_anim = Some(ParamAnim {
            player: ParamPlayer::new(self.rig.params.params.len(), 1),
            base: self.inst.params.values.clone(),
            anims,
            playing: false,
        });
    }

    /// The parameter animations given with [`Character::set_param_animations`].
    pub fn param_animations(&self) -> &[ParamAnimation] {
        self.param_anim.as_ref().map_or(&[], |p| &p.anims[..])
    }

    /// Plays the parameter animation `name` from its start on top of the current parameter
    /// values (which become its base).
    pub fn play_param_animation(
        &mut self,
        name: &str,
        looping: bool,
    ) -> Result<(), CharacterError> {
        let values = self.inst.params.values.clone();
        let p = self
            .param_anim
            .as_mut()
            .ok_or_else(|| CharacterError::UnknownName {
                kind: "parameter animation",
                name: name.to_owned(),
                known: Vec::new(),
            })?;
        let index = named(
            "parameter animation",
            name,
            p.anims.iter().position(|a| a.name == name),
            || p.anims.iter().map(|a| a.name.as_str()),
        )?;
        p.player.set_animation(0, index, looping, 0.0);
        p.base = values;
        p.playing = true;
        Ok(())
    }
}
