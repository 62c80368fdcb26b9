//! Constraint mixes set from code: an IK constraint's mix, softness, bend direction,
//! compress and stretch; a transform or path constraint's mixes; a physics constraint's
//! parameters. Spine lets game code write these fields between frames (`ik.mix = 1`); here
//! each kind has a getter and a setter that checks its values.
//!
//! A value set here holds until an animation keys the same constraint (its timelines write
//! the mixes each frame, as Spine's do) or the setup pose is restored.
//!
//! Owned by the facade (`character`). Verified by `character/tests_constraints.rs`.

use super::Character;
use super::error::CharacterError;
use super::finite;
use super::key::Key;
use crate::ids::{IkId, PathId, PhysicsId, SliderId, TransformId};
use crate::instance::IkState;
use crate::rig::{PathMix, PhysicsParams, SliderPose, TransformMix};

impl Character {
    /// The next update's physics forces act as if every physics-constrained bone had moved
    /// an additional (x, y) in world space (Spine `Skeleton.physicsTranslate`). To teleport a
    /// character without a swing, pass the opposite of its move. Non-finite offsets are
    /// ignored.
    pub fn physics_translate(&mut self, x: f64, y: f64) {
        if finite::ok(x) && finite::ok(y) {
            crate::constraint::physics::physics_translate(&mut self.inst, x, y);
        }
    }

    /// The next update's physics forces act as if every physics-constrained bone had also
    /// turned by `degrees` about the world point (x, y) (Spine `Skeleton.physicsRotate`).
    /// Non-finite values are ignored.
    pub fn physics_rotate(&mut self, x: f64, y: f64, degrees: f64) {
        if finite::ok(x) && finite::ok(y) && finite::ok(degrees) {
            crate::constraint::physics::physics_rotate(&mut self.inst, x, y, degrees);
        }
    }

    /// The directions physics constraints' wind blows and gravity pulls (Spine 4.3
    /// `Skeleton.windX/windY`, `gravityX/gravityY`; x right, y down): `(wind, gravity)`.
    pub fn physics_directions(&self) -> ([f64; 2], [f64; 2]) {
        (self.inst.wind_direction, self.inst.gravity_direction)
    }

    /// Sets the directions physics constraints' wind blows and gravity pulls (Spine 4.3
    /// `Skeleton.windX/windY`, `gravityX/gravityY`, for rigs of either version; x right,
    /// y down as in Spine's vectors): each constraint's `wind` and `gravity` scale them.
    /// The defaults, `[1, 0]` (wind to the right) and `[0, 1]` (gravity down), are Spine
    /// 4.2's fixed directions; an updraft is `[0, -1]`. Each component must be finite and
    /// under 1e30 in magnitude.
    ///
    /// ```
    /// # let mut raw = sinew::raw::RawRig::default();
    /// # raw.bones.push(sinew::raw::RawBone::new("root", None));
    /// # let rig = std::sync::Arc::new(sinew::build::build_rig(&raw).expect("rig"));
    /// let mut c = sinew::Character::new(rig);
    /// c.set_physics_directions([0.0, -1.0], [0.0, 1.0]).expect("finite"); // an updraft
    /// assert_eq!(c.physics_directions(), ([0.0, -1.0], [0.0, 1.0]));
    /// assert!(c.set_physics_directions([f64::NAN, 0.0], [0.0, 1.0]).is_err());
    /// ```
    pub fn set_physics_directions(
        &mut self,
        wind: [f64; 2],
        gravity: [f64; 2],
    ) -> Result<(), CharacterError> {
        for v in wind {
            finite::input("wind direction", v)?;
        }
        for v in gravity {
            finite::input("gravity direction", v)?;
        }
        self.inst.wind_direction = wind;
        self.inst.gravity_direction = gravity;
        Ok(())
    }

    /// An IK constraint's current mix, softness, bend direction, compress and stretch.
    pub fn ik(&self, ik: impl Key<IkId>) -> Option<IkState> {
        let i = ik.resolve(self).ok()?.index();
        self.inst.ik.get(i).copied()
    }

    /// Sets an IK constraint's state (Spine `IkConstraint.mix`, `softness`,
    /// `bendDirection`, `compress`, `stretch`). `mix` and `softness` must be finite and under
    /// 1e30 in magnitude; `bend_direction` must be 1 or -1.
    ///
    /// ```
    /// # use sinew::raw::{RawBone, RawIk, RawRig};
    /// # let mut raw = RawRig::default();
    /// # raw.bones.push(RawBone::new("root", None));
    /// # raw.bones.push(RawBone::new("arm", Some("root")));
    /// # raw.bones.push(RawBone::new("target", Some("root")));
    /// # raw.ik.push(RawIk::new("aim", &["arm"], "target"));
    /// # let rig = std::sync::Arc::new(sinew::build::build_rig(&raw).expect("rig"));
    /// let mut c = sinew::Character::new(rig);
    /// let aim = c.find_ik("aim").expect("aim");
    /// let mut state = c.ik(aim).expect("state");
    /// state.mix = 0.5;
    /// c.set_ik(aim, state)?;
    /// assert_eq!(c.ik(aim).map(|s| s.mix), Some(0.5));
    /// state.mix = f64::NAN;
    /// assert!(c.set_ik(aim, state).is_err());
    /// # Ok::<(), sinew::CharacterError>(())
    /// ```
    pub fn set_ik(&mut self, ik: impl Key<IkId>, state: IkState) -> Result<(), CharacterError> {
        let i = ik.resolve(self)?.index();
        finite::input("IK mix", state.mix)?;
        finite::input("IK softness", state.softness)?;
        if !matches!(state.bend_direction, 1 | -1) {
            return Err(CharacterError::OutOfRange {
                what: "IK bend direction",
                allowed: "1 or -1",
            });
        }
        if let Some(s) = self.inst.ik.get_mut(i) {
            *s = state;
        }
        Ok(())
    }

    /// A transform constraint's current mixes.
    pub fn transform_mix(&self, constraint: impl Key<TransformId>) -> Option<TransformMix> {
        let i = constraint.resolve(self).ok()?.index();
        self.inst.transforms.get(i).copied()
    }

    /// Sets a transform constraint's mixes (Spine `TransformConstraint.mixRotate`, `mixX`,
    /// ...); each must be finite and under 1e30 in magnitude.
    pub fn set_transform_mix(
        &mut self,
        constraint: impl Key<TransformId>,
        mix: TransformMix,
    ) -> Result<(), CharacterError> {
        let i = constraint.resolve(self)?.index();
        for v in [
            mix.rotate,
            mix.x,
            mix.y,
            mix.scale_x,
            mix.scale_y,
            mix.shear_y,
        ] {
            finite::input("transform constraint mix", v)?;
        }
        if let Some(m) = self.inst.transforms.get_mut(i) {
            *m = mix;
        }
        Ok(())
    }

    /// A Spine 4.3 slider's current time (seconds in its animation) and mix.
    pub fn slider(&self, slider: impl Key<SliderId>) -> Option<SliderPose> {
        let i = slider.resolve(self).ok()?.index();
        self.inst.sliders.get(i).copied()
    }

    /// Sets a Spine 4.3 slider's time and mix (Spine `Slider.pose.time`, `mix`); each must be
    /// finite and under 1e30 in magnitude. A slider driven by a bone recomputes its time
    /// each update; a mix of 0 leaves the pose alone.
    ///
    /// ```
    /// # use sinew::raw::{RawBone, RawClip, RawKey, RawRig, RawSlider, RawTarget, RawTimeline, BoneProperty};
    /// # let mut raw = RawRig::default();
    /// # raw.runtime = sinew::types::SpineRuntime::V43;
    /// # raw.bones.push(RawBone::new("root", None));
    /// # raw.bones.push(RawBone::new("arm", Some("root")));
    /// # let key = |time: f64, v: f64| RawKey { time, values: vec![v], curve: sinew::raw::RawCurve::Linear, data: sinew::raw::RawKeyData::None };
    /// # raw.clips.push(RawClip { name: "raise".into(), playback: None, timelines: vec![RawTimeline {
    /// #     target: RawTarget::Bone { bone: "arm".into(), property: BoneProperty::Rotate },
    /// #     keys: vec![key(0.0, 0.0), key(1.0, 90.0)] }] });
    /// # raw.sliders.push(RawSlider { name: "dial".into(), order: 0, skin_required: false,
    /// #     animation: "raise".into(), additive: false, looping: false, time: 0.0, mix: 1.0, bone: None });
    /// # let rig = std::sync::Arc::new(sinew::build::build_rig(&raw).expect("rig"));
    /// let mut c = sinew::Character::new(rig);
    /// let dial = c.find_slider("dial").expect("dial");
    /// let mut pose = c.slider(dial).expect("pose");
    /// pose.time = 0.5; // halfway through `raise`: the arm at 45 degrees
    /// c.set_slider(dial, pose).expect("finite");
    /// c.update(0.0);
    /// let arm = c.find_bone("arm").expect("arm");
    /// assert!((c.world_rotation(arm).expect("arm") - 45.0).abs() < 1e-5);
    /// ```
    pub fn set_slider(
        &mut self,
        slider: impl Key<SliderId>,
        pose: SliderPose,
    ) -> Result<(), CharacterError> {
        let i = slider.resolve(self)?.index();
        finite::input("slider time", pose.time)?;
        finite::input("slider mix", pose.mix)?;
        if let Some(p) = self.inst.sliders.get_mut(i) {
            *p = pose;
        }
        Ok(())
    }

    /// A path constraint's current position, spacing and mixes.
    pub fn path_mix(&self, constraint: impl Key<PathId>) -> Option<PathMix> {
        let i = constraint.resolve(self).ok()?.index();
        self.inst.paths.get(i).copied()
    }

    /// Sets a path constraint's position, spacing and mixes (Spine `PathConstraint.position`,
    /// `spacing`, `mixRotate`, `mixX`, `mixY`); each must be finite and under 1e30 in
    /// magnitude.
    pub fn set_path_mix(
        &mut self,
        constraint: impl Key<PathId>,
        mix: PathMix,
    ) -> Result<(), CharacterError> {
        let i = constraint.resolve(self)?.index();
        for v in [
            mix.position,
            mix.spacing,
            mix.mix_rotate,
            mix.mix_x,
            mix.mix_y,
        ] {
            finite::input("path constraint value", v)?;
        }
        if let Some(m) = self.inst.paths.get_mut(i) {
            *m = mix;
        }
        Ok(())
    }

    /// A physics constraint's current parameters (inertia, strength, damping, inverse mass,
    /// wind, gravity, mix).
    pub fn physics_params(&self, constraint: impl Key<PhysicsId>) -> Option<PhysicsParams> {
        let i = constraint.resolve(self).ok()?.index();
        self.inst.physics.get(i).map(|s| s.params)
    }

    /// Sets a physics constraint's parameters (Spine `PhysicsConstraint.inertia`, ...,
    /// `mix`); each must be finite and under 1e30 in magnitude, and the inverse mass must
    /// not be negative.
    pub fn set_physics_params(
        &mut self,
        constraint: impl Key<PhysicsId>,
        params: PhysicsParams,
    ) -> Result<(), CharacterError> {
        let i = constraint.resolve(self)?.index();
        let p = params;
        for v in [
            p.inertia,
            p.strength,
            p.damping,
            p.mass_inverse,
            p.wind,
            p.gravity,
            p.mix,
        ] {
            finite::input("physics constraint parameter", v)?;
        }
        if p.mass_inverse < 0.0 {
            return Err(CharacterError::OutOfRange {
                what: "physics inverse mass",
                allowed: "0 or more",
            });
        }
        if let Some(s) = self.inst.physics.get_mut(i) {
            s.params = p;
        }
        Ok(())
    }
}
