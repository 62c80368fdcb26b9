//! [`Character`]: the one way a host drives sinew. It owns a shared rig (`Arc<Rig>`, so it
//! can never be posed with another rig), its [`Instance`], its [`AnimationState`], optional
//! jiggle bones, a puppet's parameter animation, the skeleton clock and a reusable
//! [`DrawList`], and runs the whole frame for every format in one call.
//!
//! # The frame
//!
//! [`Character::update`] is the only place in the library where the stages are sequenced.
//! With `dt` scaled by [`Character::set_time_scale`] (0 while paused):
//!
//! 1. **parameter animation** (puppets): the playing parameter animation writes parameter
//!    values over the base values set with [`Character::set_param`];
//! 2. **animation**: `AnimationState::update(dt)` then `apply` (or, in clip mode, the setup
//!    pose plus one clip at the character's time, Spine `Animation.apply`); key and lifecycle
//!    events of this frame (and of calls made since the last one) are kept for
//!    [`Character::events`] until the next update;
//! 3. **overrides from code**: bone locals set with [`Character::set_bone_local`] and IK
//!    targets set with [`Character::set_ik_target`];
//! 4. **clock**: `Instance::advance_time(dt)` (Spine physics reads it);
//! 5. **world**: for rigs with parameters, the parameter stage with its world transforms,
//!    parameter physics and deformers (`character::update_params`); otherwise
//!    `skeleton::update_world_transform` with bones, constraints and physics;
//! 6. **follow**: delayed follows ([`Character::set_follows`]): `FollowState::update`
//!    blends each follower toward its source's value `delay` seconds ago and re-poses the
//!    bones below it;
//! 7. **jiggle**: `JiggleState::update` on the posed instance;
//! 8. **cages**: meshes with a cage ([`Character::add_cage`]) are skinned and caged, and
//!    keep the result for the outputs below;
//!
//! and on demand, from the posed instance:
//!
//! 9. **world vertices** ([`Character::compute_world_vertices`], [`Character::world_vertices`]);
//! 10. **draw list** ([`Character::draw_list`]): `draw::build_draw_list` then
//!     `draw::finish_draw_list` (texture pages, hidden parts, composite groups, y up).
//!
//! After the first frames an update allocates nothing (proved by
//! `sinew-formats/tests/frame_alloc.rs`), and the results are bit-identical to the stages
//! called by hand in that order (the golden suites run through this type).
//!
//! # Ids
//!
//! Every call taking an id checks it against the rig and returns
//! [`CharacterError::ForeignId`] (or `None`) for one out of range; calls taking names return
//! [`CharacterError::UnknownName`]. Nothing panics on a bad id or name.
//!
//! Layer: facade. Owns a character's state and the whole frame order (this file, and
//! `puppet.rs` for the puppet's parameter frame); imports every layer below, and nothing below
//! imports it (`layering_tests.rs`).

mod batch;
mod bounds;
pub mod cage_rig;
mod cages;
mod constraints;
mod crowd;
mod cues;
#[cfg(feature = "rig-deformers")]
mod deformer_host;
#[cfg(feature = "rig-deformers")]
pub mod deformer_rig;
mod entry_options;
mod error;
pub mod finite;
mod key;
mod nested;
mod pool;
mod puppet;
mod query;
pub mod shape_rig;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_bind_cage;
#[cfg(test)]
mod tests_constraints;
#[cfg(test)]
mod tests_hostile;

pub use batch::{Batch, LANES};
pub use bounds::{SkeletonBounds, fit_view};
pub use crowd::Crowd;
pub use error::CharacterError;
pub use key::{
    AttachmentKey, Bone, Clip, Handle, Ik, Key, Param, ParamValue, PathConstraint,
    PhysicsConstraint, Skin, Slider, Slot, TransformConstraint,
};
pub use nested::Nested;
pub use pool::{MAX_THREADS, Member, Pool, PoolError};
pub use puppet::update_params;

use crate::anim::state::{MixTable, StateEvent, StateEventKind};
use crate::anim::{AnimationState, EntryId, FiredEvent, MixBlend, MixDirection, apply_clip};
use crate::draw::{DrawList, DrawSetup, build_draw_list, finish_draw_list};
use crate::ids::{ClipId, SlotId};
use crate::instance::Instance;
use crate::params::inochi_clip::ParamAnimation;
use crate::params::player::ParamPlayer;
use crate::physics::follow::{FollowRig, FollowState};
use crate::physics::jiggle::{JiggleRig, JiggleState};
use crate::rig::{AttachmentKind, LocalPose, Rig};
use crate::types::{Color, Physics};
use std::sync::Arc;

/// How the animation stage poses the skeleton.
#[derive(Debug, Clone, Copy, PartialEq)]
enum AnimMode {
    /// The animation state's tracks (the default).
    State,
    /// The setup pose plus one clip at the character's own time, looping or not.
    Clip {
        clip: ClipId,
        looping: bool,
        last: f64,
        time: f64,
        /// `last` before this frame's apply (the jiggle cues' window starts there).
        prev: f64,
    },
}

/// A puppet's parameter animation: a player over the asset's animations, and the base
/// values it plays on.
#[derive(Debug, Clone)]
struct ParamAnim {
    anims: Arc<[ParamAnimation]>,
    player: ParamPlayer,
    base: Vec<[f64; 2]>,
    playing: bool,
}

/// One character of a shared rig, with everything a frame needs. See the module docs for
/// the frame order.
///
/// ```
/// use sinew::character::Character;
/// use sinew::math::Vec2;
/// use sinew::raw::{RawBone, RawRig};
/// use std::sync::Arc;
///
/// let mut raw = RawRig::default();
/// raw.bones.push(RawBone::new("root", None));
/// let mut arm = RawBone::new("arm", Some("root"));
/// arm.x = 10.0;
/// raw.bones.push(arm);
/// let rig = Arc::new(sinew::build::build_rig(&raw).expect("a valid rig"));
///
/// let mut character = Character::new(rig);
/// character.update(1.0 / 60.0);
/// let arm = character.find_bone("arm").expect("arm exists");
/// assert_eq!(character.local_to_world(arm, (1.0, 0.0)), Some(Vec2::new(11.0, 0.0)));
/// assert!(character.find_bone("leg").is_none());
/// ```
///
/// Owner: the facade (`Character`), which runs every stage.
#[derive(Debug, Clone)]
pub struct Character {
    rig: Arc<Rig>,
    inst: Instance,
    state: AnimationState,
    mode: AnimMode,
    /// Whether the animation stage runs (the rig has clips).
    animates: bool,
    /// Whether the world stage is the parameter stage (the rig has parameters or deformers).
    param_stage: bool,
    physics: Physics,
    param_physics: bool,
    reset_physics: bool,
    time_scale: f64,
    paused: bool,
    jiggle: Option<(Arc<JiggleRig>, JiggleState)>,
    follow: Option<(Arc<FollowRig>, FollowState)>,
    param_anim: Option<ParamAnim>,
    /// Per bone: a local pose set from code, held over the animation each frame.
    bone_overrides: Vec<Option<LocalPose>>,
    /// Per IK constraint: a world target position set from code.
    ik_targets: Vec<Option<(f64, f64)>>,
    overrides: bool,
    /// Per bone: moved by code since the last update ([`Character::mark_bone_moved`]);
    /// DragonBones IK then solves its chain afresh, as the runtime after `invalidUpdate`.
    moved: Vec<bool>,
    any_moved: bool,
    /// Characters drawn inside slots ([`Character::nest`]).
    nested: Vec<nested::NestedState>,
    /// Events the host has had since the last update (dropped at the next one).
    events_seen: usize,
    fired: Vec<FiredEvent>,
    setup: Arc<DrawSetup>,
    skeleton_color: Color,
    draw: DrawList,
    /// Whether `draw` has been sized for the rig (on the first [`Character::draw_list`]: a
    /// character that is only updated never holds a draw list).
    draw_sized: bool,
    bounds: SkeletonBounds,
    /// Cages on meshes, in the order they run.
    cages: Vec<cages::SlotCage>,
    /// The declared cages the first of `cages` come from ([`Character::set_cage_rig`]).
    cage_rig: Option<Arc<cage_rig::CageRig>>,
    /// The keyed cages' point offsets being summed (2 floats per point of the largest).
    cage_keys: Vec<f64>,
    /// Example shapes on meshes ([`Character::set_shape_rig`]), run before the cages.
    shape_rig: Option<Arc<shape_rig::ShapeRig>>,
    /// Per shape set: host weights, this frame's blend and shaped vertices.
    shapes: Vec<shape_rig::SlotShapes>,
    /// Deformers declared by name ([`Character::set_deformer_rig`]), run after the cages.
    #[cfg(feature = "rig-deformers")]
    deformers: Option<Box<deformer_host::RigDeformers>>,
    /// Whether an output of the last update overflowed and was zeroed ([`finite`]).
    overflowed: bool,
}

impl Character {
    /// A character in the setup pose with the rig's default skin, no animation playing,
    /// physics on.
    pub fn new(rig: Arc<Rig>) -> Self {
        let inst = Instance::new(&rig);
        let state = AnimationState::new(&rig);
        Character {
            animates: !rig.clips.is_empty(),
            param_stage: !rig.params.is_empty() || !rig.params.deformers.is_empty(),
            mode: AnimMode::State,
            physics: Physics::Update,
            param_physics: true,
            reset_physics: false,
            time_scale: 1.0,
            paused: false,
            jiggle: None,
            follow: None,
            param_anim: None,
            bone_overrides: vec![None; rig.bones.len()],
            ik_targets: vec![None; rig.ik.len()],
            overrides: false,
            moved: vec![false; rig.bones.len()],
            any_moved: false,
            nested: Vec::new(),
            events_seen: 0,
            fired: Vec::with_capacity(16),
            setup: Arc::new(DrawSetup::default()),
            skeleton_color: Color::WHITE,
            draw: DrawList::default(),
            draw_sized: false,
            bounds: SkeletonBounds::for_rig(&rig),
            cages: Vec::new(),
            cage_rig: None,
            cage_keys: Vec::new(),
            shape_rig: None,
            shapes: Vec::new(),
            #[cfg(feature = "rig-deformers")]
            deformers: None,
            overflowed: false,
            inst,
            state,
            rig,
        }
    }

    /// The drawing details (texture pages, masks, composites, y convention) the loader gave
    /// this rig; [`Character::draw_list`] applies them.
    pub fn set_draw_setup(&mut self, setup: Arc<DrawSetup>) {
        self.setup = setup;
    }

    /// [`Character::draw_list`] together with the drawing details its masks and groups refer
    /// to, for a renderer that needs both at once.
    pub fn draw_list_and_setup(&mut self) -> (&DrawList, &DrawSetup) {
        self.draw_list();
        (&self.draw, &self.setup)
    }

    /// The drawing details: a renderer reads the masks here
    /// ([`DrawSetup::slot_masks`], [`DrawSetup::group_masks`]).
    pub fn draw_setup(&self) -> &DrawSetup {
        &self.setup
    }

    /// Runs these jiggle bones (built for this rig with `JiggleRig::build`) after the world
    /// stage from now on, from rest.
    /// Refused (nothing changes) when they were built for another rig.
    pub fn set_jiggle(&mut self, jiggle: Option<Arc<JiggleRig>>) -> Result<(), CharacterError> {
        let jiggle = jiggle.map(|jr| {
            let js = JiggleState::new(&jr);
            (jr, js)
        });
        if let Some((jr, js)) = &jiggle
            && !js.fits(&self.rig, jr, &self.inst)
        {
            return Err(CharacterError::ForeignRig {
                what: "jiggle bones",
            });
        }
        self.jiggle = jiggle;
        Ok(())
    }

    /// Runs these delayed follows (built for this rig with `FollowRig::build`) after the
    /// world stage and before jiggle from now on, with an empty history.
    /// Refused (nothing changes) when they were built for another rig.
    pub fn set_follows(&mut self, follows: Option<Arc<FollowRig>>) -> Result<(), CharacterError> {
        let follow = follows.map(|fr| {
            let fs = FollowState::new(&fr);
            (fr, fs)
        });
        if let Some((fr, fs)) = &follow
            && !fs.fits(&self.rig, fr, &self.inst)
        {
            return Err(CharacterError::ForeignRig { what: "follows" });
        }
        self.follow = follow;
        Ok(())
    }

    /// The follows and their history, when attached.
    pub fn follows(&self) -> Option<(&FollowRig, &FollowState)> {
        self.follow.as_ref().map(|(fr, fs)| (&**fr, fs))
    }

    /// The jiggle bones and their state, when attached.
    pub fn jiggle_mut(&mut self) -> Option<(&JiggleRig, &mut JiggleState)> {
        self.jiggle.as_mut().map(|(jr, js)| (&**jr, js))
    }

    /// The shared rig.
    pub fn rig(&self) -> &Arc<Rig> {
        &self.rig
    }

    /// The posed instance, read-only (world transforms, slots, draw order, parameters).
    pub fn instance(&self) -> &Instance {
        &self.inst
    }

    /// The animation state, read-only (tracks, entries, mix durations).
    pub fn state(&self) -> &AnimationState {
        &self.state
    }

    /// The animation state, for entry tunables ([`AnimationState::entry_mut`]) and queries.
    /// Clip ids passed to it directly are not checked: prefer [`Character::set_animation`].
    pub fn state_mut(&mut self) -> &mut AnimationState {
        &mut self.state
    }

    /// Uses a mix table shared with other characters (Spine `AnimationStateData`).
    pub fn set_mix_table(&mut self, table: Arc<MixTable>) {
        self.state.set_mix_table(table);
    }

    /// How Spine physics constraints run in the world stage (default [`Physics::Update`]).
    pub fn set_physics(&mut self, physics: Physics) {
        self.physics = physics;
    }

    /// Whether parameter physics (pendulums, chains) runs for puppets (default on).
    pub fn set_param_physics(&mut self, on: bool) {
        self.param_physics = on;
    }

    /// Resets physics, follow histories and jiggle on the next update (after a teleport or
    /// a seek).
    pub fn reset_physics(&mut self) {
        self.reset_physics = true;
    }

    /// Speed multiplier for the whole character (animation, physics, jiggle); 1 by default.
    /// A non-finite or negative scale is refused (false).
    pub fn set_time_scale(&mut self, scale: f64) -> bool {
        if scale.is_finite() && scale >= 0.0 {
            self.time_scale = scale;
            true
        } else {
            false
        }
    }

    /// The speed multiplier.
    pub fn time_scale(&self) -> f64 {
        self.time_scale
    }

    /// Pauses (updates then run with `dt = 0`: the pose is recomputed, nothing advances) or
    /// resumes.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// Whether the character is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The skeleton's colour, multiplied into every draw command (Spine `skeleton.color`).
    /// A colour with a non-finite channel is ignored ([`finite`]).
    pub fn set_color(&mut self, color: Color) {
        if [color.r, color.g, color.b, color.a]
            .iter()
            .all(|c| c.is_finite())
        {
            self.skeleton_color = color;
        }
    }

    /// Places the skeleton in world space (Spine `skeleton.x/y`). A non-finite coordinate,
    /// or one of magnitude 1e30 or more, is ignored (the previous position kept; [`finite`]).
    pub fn set_position(&mut self, x: f64, y: f64) {
        if finite::ok(x) && finite::ok(y) {
            self.inst.x = x;
            self.inst.y = y;
        }
    }

    /// Scales the skeleton (Spine `skeleton.scaleX/Y`; negative flips, 0 collapses). A
    /// non-finite scale, or one of magnitude 1e30 or more, is ignored ([`finite`]).
    pub fn set_scale(&mut self, scale_x: f64, scale_y: f64) {
        if finite::ok(scale_x) && finite::ok(scale_y) {
            self.inst.scale_x = scale_x;
            self.inst.scale_y = scale_y;
        }
    }

    /// Whether an output of the last update (a world transform, then the draw list or world
    /// vertices built from it) overflowed and had its non-finite values replaced by 0
    /// ([`finite`]): the rig's or the code's values multiply past what f64 / f32 hold.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Plays a clip on a track now with its format's defaults: a DragonBones clip plays its
    /// own `playTimes` (0: forever) and then holds the end, crossfading from what played
    /// over its `fadeInTime` the DragonBones way (DragonBones `animation.fadeIn(name)`; see
    /// [`crate::anim::ClipPlayback`]); a Spine clip loops, mixing as the mix table says.
    pub fn play(&mut self, track: usize, name: &str) -> Result<EntryId, CharacterError> {
        self.fade_in(track, name, None, None)
    }

    /// [`Character::play`] with the fade time (seconds) and play count (0: forever) given
    /// (DragonBones `animation.fadeIn(name, fadeInTime, playTimes)`); `None` keeps the
    /// clip's own. A Spine clip loops for `None` or `Some(0)` and plays once otherwise.
    /// A non-finite `fade_in` is refused; a negative one counts as 0.
    ///
    /// ```
    /// use sinew::Character;
    /// use sinew::raw::{RawBone, RawClip, RawPlayback, RawRig};
    /// use std::sync::Arc;
    ///
    /// // What the DragonBones loader writes for each animation.
    /// let mut raw = RawRig::default();
    /// raw.bones.push(RawBone::new("root", None));
    /// for name in ["walk", "jump"] {
    ///     raw.clips.push(RawClip {
    ///         name: name.into(),
    ///         playback: Some(RawPlayback {
    ///             play_times: 0,
    ///             fade_in: 0.2,
    ///             length: 1.0,
    ///             frame_rate: 24.0,
    ///             held: None,
    ///         }),
    ///         ..Default::default()
    ///     });
    /// }
    /// let mut c = Character::new(Arc::new(sinew::build::build_rig(&raw)?));
    /// c.play(0, "walk")?; // its own playTimes (0: forever)
    /// c.update(0.5);
    /// c.fade_in(0, "jump", Some(0.1), Some(1))?; // over 0.1 s, one play, then hold the end
    /// c.update(0.05);
    /// assert!(c.fade_in(0, "run", None, None).is_err()); // no such animation
    /// assert!(c.fade_in(0, "jump", Some(f64::NAN), None).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fade_in(
        &mut self,
        track: usize,
        clip: impl Key<ClipId>,
        fade_in: Option<f64>,
        play_times: Option<u32>,
    ) -> Result<EntryId, CharacterError> {
        let clip = clip.resolve(self)?;
        if let Some(f) = fade_in {
            finite::input("fade-in time", f)?;
        }
        self.state
            .play(&self.rig, track, clip, fade_in, play_times)
            .ok_or(CharacterError::TrackOutOfRange { track })
    }

    /// The speed of the clip playing on `track` now (its entry's time scale; 1 when started).
    /// Negative plays a DragonBones clip backwards as the runtime does (`animationState.
    /// timeScale = -1`: the first step back lands near the clip's end; after its play count
    /// it rests at its start). Errors: no clip on the track
    /// ([`CharacterError::TrackOutOfRange`]), a scale not finite or of magnitude 1e30 or more.
    ///
    /// ```
    /// # use sinew::Character;
    /// # use sinew::raw::{RawBone, RawRig};
    /// # let mut raw = RawRig::default();
    /// # raw.bones.push(RawBone::new("root", None));
    /// # let rig = std::sync::Arc::new(sinew::build::build_rig(&raw).expect("a rig"));
    /// let mut c = Character::new(rig);
    /// // Nothing plays on track 0 yet.
    /// assert!(c.set_track_time_scale(0, -1.0).is_err());
    /// ```
    pub fn set_track_time_scale(&mut self, track: usize, scale: f64) -> Result<(), CharacterError> {
        finite::input("track time scale", scale)?;
        let entry = self
            .state
            .current(track)
            .and_then(|id| self.state.entry_mut(id))
            .ok_or(CharacterError::TrackOutOfRange { track })?;
        entry.time_scale = scale;
        Ok(())
    }

    /// Puts `track` on DragonBones animation layer `layer` (DragonBones `animation.fadeIn(
    /// name, fadeInTime, playTimes, layer, group)`; see
    /// [`AnimationState::set_track_layer`](crate::anim::AnimationState::set_track_layer)):
    /// a higher layer takes each bone's weight first, a lower one keeps what is left. A
    /// track's layer is its index until set; play one group of a layer per track. Errors: a
    /// track past [`MAX_TRACKS`](crate::anim::state::MAX_TRACKS).
    ///
    /// ```
    /// # use sinew::Character;
    /// # use sinew::raw::{RawBone, RawRig};
    /// # let mut raw = RawRig::default();
    /// # raw.bones.push(RawBone::new("root", None));
    /// # let rig = std::sync::Arc::new(sinew::build::build_rig(&raw).expect("a rig"));
    /// let mut c = Character::new(rig);
    /// c.set_track_layer(1, 0)?; // tracks 0 and 1 share layer 0: their weights add
    /// assert_eq!(c.state().track_layer(1), 0);
    /// assert!(c.set_track_layer(100_000, 1).is_err());
    /// # Ok::<(), sinew::CharacterError>(())
    /// ```
    pub fn set_track_layer(&mut self, track: usize, layer: i32) -> Result<(), CharacterError> {
        if self.state.set_track_layer(track, layer) {
            Ok(())
        } else {
            Err(CharacterError::TrackOutOfRange { track })
        }
    }

    /// Fades the DragonBones clip on `track` out over `seconds` (DragonBones
    /// `animationState.fadeOut`; see
    /// [`AnimationState::fade_out_track`](crate::anim::AnimationState::fade_out_track)): its
    /// weight falls to 0 with its playhead still, then the track ends. DragonBones'
    /// `fadeOutMode` `All` or `SameLayer` is this on the other tracks (of the layer) before
    /// [`Character::fade_in`]. Errors: nothing plays there, or not a DragonBones clip
    /// ([`CharacterError::TrackOutOfRange`]); a time not finite.
    pub fn fade_out_track(&mut self, track: usize, seconds: f64) -> Result<(), CharacterError> {
        finite::input("fade-out time", seconds)?;
        if self.state.fade_out_track(track, seconds) {
            Ok(())
        } else {
            Err(CharacterError::TrackOutOfRange { track })
        }
    }

    /// Poses the setup pose plus `clip` at the character's own time each frame (Spine
    /// `Animation.apply` with `MixBlend::Setup`, the official dump's "apply" mode) instead
    /// of the animation state.
    pub fn set_clip_mode(
        &mut self,
        clip: impl Key<ClipId>,
        looping: bool,
    ) -> Result<(), CharacterError> {
        let clip = clip.resolve(self)?;
        self.mode = AnimMode::Clip {
            clip,
            looping,
            last: -1.0,
            time: 0.0,
            prev: -1.0,
        };
        Ok(())
    }

    /// Runs one frame of `dt` seconds (see the module docs for the order). A non-finite or
    /// negative `dt` (after the time scale) is treated as 0: time never runs backwards.
    pub fn update(&mut self, dt: f64) {
        let (dt, reset) = self.begin_frame(dt);
        self.world_stage(dt, reset);
        self.finish_frame(dt, reset);
    }

    /// Step 5 of [`Character::update`]: the parameter stage for rigs with parameters, else
    /// the skeleton's world transforms with constraints and physics.
    fn world_stage(&mut self, dt: f64, reset: bool) {
        if self.param_stage {
            let inst = &mut self.inst;
            if reset {
                // Pendulums and chains back at rest, their clocks forgotten.
                crate::physics::driver::reset_drivers(inst);
                crate::physics::chain::reset_chains(inst);
            }
            puppet::params_frame(&self.rig, inst, dt, self.param_physics);
        } else {
            let physics = self.world_physics(reset);
            crate::skeleton::world_transform(&self.rig, &mut self.inst, physics);
        }
    }

    /// The physics mode of this frame's world stage (a pending reset wins).
    fn world_physics(&self, reset: bool) -> Physics {
        if reset { Physics::Reset } else { self.physics }
    }

    /// Steps 1-4 of [`Character::update`] (parameter animation, animation, overrides,
    /// clock); returns the frame's `dt` (time scale and pause applied, never negative) and
    /// whether physics resets this frame. The batch (`batch.rs`) runs the world stage of
    /// several characters between this and [`Character::finish_frame`].
    fn begin_frame(&mut self, dt: f64) -> (f64, bool) {
        let dt = if self.paused || !dt.is_finite() {
            0.0
        } else if self.time_scale == 1.0 {
            dt
        } else {
            dt * self.time_scale
        };
        // `dt * time_scale` may overflow; `!(dt > 0)` also takes NaN and -0.
        let dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        let rig = &*self.rig;
        let inst = &mut self.inst;
        // Spine 4.3: what sliders keyed besides bones goes back to its pose first.
        crate::instance::slider_pose::restore(inst);
        // Events of the previous update go; those queued by calls since (a new animation's
        // start, an interrupt) stay for this update's list.
        let seen = self.events_seen.min(self.state.events.len());
        self.state.events.drain(..seen);
        // 1. Parameter animation (puppets).
        if let Some(p) = self.param_anim.as_mut().filter(|p| p.playing) {
            p.player.update(&p.anims, dt);
            inst.params.values.copy_from_slice(&p.base);
            p.player.apply_to(rig, &p.anims, inst);
        }
        // 2. Animation.
        match &mut self.mode {
            AnimMode::State => {
                if self.animates {
                    self.state.update(dt);
                    self.state.apply_to(rig, inst);
                }
            }
            AnimMode::Clip {
                clip,
                looping,
                last,
                time,
                prev,
            } => {
                *prev = *last;
                *time += dt;
                inst.set_to_setup_pose(rig);
                self.fired.clear();
                apply_clip(
                    rig,
                    inst,
                    *clip,
                    *last,
                    *time,
                    *looping,
                    Some(&mut self.fired),
                    1.0,
                    MixBlend::Setup,
                    MixDirection::In,
                );
                *last = *time;
                for e in &self.fired {
                    self.state.events.push(StateEvent {
                        kind: StateEventKind::Event(*e),
                        entry: EntryId {
                            index: u32::MAX,
                            generation: 0,
                        },
                        track: 0,
                        clip: *clip,
                    });
                }
            }
        }
        // 3. Overrides from code.
        if self.overrides {
            apply_overrides(rig, inst, &self.bone_overrides, &self.ik_targets);
        }
        if std::mem::take(&mut self.any_moved) {
            // Bones moved by code are dirty this frame for DragonBones IK (no-op otherwise).
            for (still, &moved) in inst.db_hold.still.iter_mut().zip(&self.moved) {
                if moved {
                    *still = false;
                }
            }
            self.moved.fill(false);
        }
        // 4. Clock.
        inst.advance_time(dt);
        (dt, std::mem::take(&mut self.reset_physics))
    }

    /// Steps 6-8 of [`Character::update`] (follow, jiggle, cages) and the finiteness guard,
    /// after the world stage.
    fn finish_frame(&mut self, dt: f64, reset: bool) {
        let rig = &*self.rig;
        let inst = &mut self.inst;
        // 6. Delayed follow.
        if let Some((fr, fs)) = &mut self.follow {
            if reset {
                fs.reset();
            }
            fs.follow_frame(rig, fr, inst, dt);
        }
        // 7. Jiggle, with the cues of the animations playing.
        if let Some((jr, js)) = &mut self.jiggle {
            if reset {
                js.reset();
            }
            if !jr.cues.is_empty() {
                cues::feed_cues(rig, jr, js, &self.state, &self.mode, self.animates);
            }
            // Checked each frame: `jiggle_mut` hands out the state.
            js.update(rig, jr, inst, dt);
        }
        // 8. Example shapes, then cages on meshes, after skinning; declared cages' point
        // keys first.
        if let Some(sr) = &self.shape_rig {
            let frame = (rig, &self.state, &self.mode, self.animates);
            shape_rig::pose_shapes(sr, &mut self.shapes, inst, frame);
        }
        if let Some(cr) = &self.cage_rig {
            let frame = (rig, &self.state, &self.mode, self.animates);
            cage_rig::key_cages(cr, &mut self.cages, &mut self.cage_keys, frame);
        }
        if !self.cages.is_empty() {
            cages::pose_cages(&mut self.cages, &self.shapes, rig, inst);
        }
        // Then the declared rotation and warp deformers, on what the cages left.
        #[cfg(feature = "rig-deformers")]
        if let Some(d) = &mut self.deformers {
            let frame = (rig, &self.state, &self.mode, self.animates);
            deformer_host::pose_deformers(d, inst, (&self.cages, &self.shapes), frame);
        }
        // No NaN or infinity out: a world transform that overflowed is zeroed (`finite`).
        self.overflowed = finite::world(&mut inst.world);
        // 9. Nested characters (DragonBones child armatures) on their own clocks.
        self.update_nested(dt);
        self.events_seen = self.state.events.len();
    }

    /// Events of the last update (lifecycle and key events, oldest first), with those that
    /// calls made before it queued (a started or interrupted entry). They stay until the next
    /// update.
    pub fn events(&self) -> &[StateEvent] {
        &self.state.events
    }

    /// Takes the events (the queue Spine's listeners would have received).
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, StateEvent> {
        self.events_seen = 0;
        self.state.events.drain(..)
    }

    /// The last update's events of one track entry (its start, interrupt, end, complete,
    /// dispose and key events), oldest first.
    pub fn entry_events(&self, entry: EntryId) -> impl Iterator<Item = &StateEvent> {
        self.state.events.iter().filter(move |e| e.entry == entry)
    }

    /// The key events of the last update with their payloads, oldest first.
    pub fn key_events(&self) -> impl Iterator<Item = &FiredEvent> {
        self.state.events.iter().filter_map(|e| match &e.kind {
            StateEventKind::Event(f) => Some(f),
            _ => None,
        })
    }

    /// A renderer-ready list of what the character shows now: commands in draw order with
    /// their texture page, blend mode, colours, clipping and composite groups, hidden parts
    /// left out, positions in world units **y up** for every format. Masks are in
    /// [`Character::draw_setup`]. Rebuilt on each call into a reused list (sized on the first call; no allocation after).
    pub fn draw_list(&mut self) -> &DrawList {
        if !self.draw_sized {
            // Sized once for the largest frame the rig can show; reused from then on.
            self.draw = DrawList::for_rig(&self.rig);
            self.draw_sized = true;
        }
        build_draw_list(&self.rig, &self.inst, self.skeleton_color, &mut self.draw);
        if self.reshapes_vertices() {
            let list = &mut self.draw;
            for cmd in &list.commands {
                let found = posed(
                    &self.cages,
                    &self.shapes,
                    #[cfg(feature = "rig-deformers")]
                    self.deformers.as_deref(),
                    cmd.slot,
                    cmd.attachment,
                );
                if let Some(v) = found {
                    let start = cmd.vertex_start as usize * 2;
                    let end = start + cmd.vertex_count as usize * 2;
                    if let Some(dst) = list.positions.get_mut(start..end)
                        && dst.len() == v.len()
                    {
                        dst.copy_from_slice(v);
                    }
                }
            }
        }
        finish_draw_list(&self.rig, &self.inst, &self.setup, &mut self.draw);
        self.draw_nested();
        // Finite world transforms can still give f32 positions past f32::MAX (`finite`).
        if finite::floats(&mut self.draw.positions) | finite::floats(&mut self.draw.clip_vertices) {
            self.overflowed = true;
        }
        &self.draw
    }

    /// The list the last [`Character::draw_list`] call built (by this host, or by a
    /// [`Pool`] or [`Crowd`] with draw lists on, on its threads), without building it again:
    /// for a renderer that draws lists a pool built. Empty before the first build; not
    /// rebuilt by [`Character::update`] alone.
    pub fn last_draw_list(&self) -> &DrawList {
        &self.draw
    }

    /// Computes the world vertices (x, y pairs, the rig's own y convention) of every region
    /// and mesh shown, in draw order (slots of inactive bones and hidden parts skipped), the
    /// way a renderer does slot by slot: each slot's vertices are written to the **start** of
    /// `buf`, over the previous slot's (a per-slot scratch, not a concatenation; use
    /// [`Character::draw_list`] for every slot's vertices at once, or
    /// [`Character::world_vertices`] for one slot). Returns the total vertex count; a slot
    /// longer than `buf` is cut to it ([`Character::max_world_floats`] floats always fit).
    pub fn compute_world_vertices(&self, buf: &mut [f32]) -> usize {
        let mut n = 0;
        for &slot in &self.inst.draw_order {
            n += self.slot_world_vertices(slot, buf).unwrap_or(0);
        }
        n
    }

    /// The largest world-vertex buffer (floats) any region or mesh of the rig needs.
    pub fn max_world_floats(&self) -> usize {
        self.rig
            .attachments
            .iter()
            .map(|a| match &a.kind {
                AttachmentKind::Region(_) => 8,
                AttachmentKind::Mesh(m) => m.vertices.count as usize * 2,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// World vertices (x, y pairs) of a slot's current attachment into `out` (resized;
    /// empty for no attachment). `false` for a foreign slot.
    pub fn world_vertices(&self, slot: impl Key<SlotId>, out: &mut Vec<f32>) -> bool {
        out.clear();
        let Ok(slot) = slot.resolve(self) else {
            return false;
        };
        let Some(att) = self.inst.slots.attachment.get(slot.index()) else {
            return false;
        };
        if let Some(att) = *att {
            out.resize(crate::deform::world_vertex_count(&self.rig, att) * 2, 0.0);
            let found = posed(
                &self.cages,
                &self.shapes,
                #[cfg(feature = "rig-deformers")]
                self.deformers.as_deref(),
                slot,
                att,
            );
            match found {
                Some(v) if v.len() == out.len() => out.copy_from_slice(v),
                _ => crate::deform::compute_world_vertices(&self.rig, &self.inst, slot, out),
            }
            // Values past f32 are zeroed (`finite`).
            finite::floats(out);
        }
        true
    }
}

impl Character {
    /// Whether declared deformers run on this character.
    #[cfg(feature = "rig-deformers")]
    fn has_deformers(&self) -> bool {
        self.deformers.is_some()
    }

    /// Whether declared deformers run on this character (never in this build).
    #[cfg(not(feature = "rig-deformers"))]
    fn has_deformers(&self) -> bool {
        false
    }
}

/// The world vertices of `slot` showing `attachment` after this frame's example shapes,
/// cages and deformers, if any of them moved it (the last stage's).
fn posed<'a>(
    cages: &'a [cages::SlotCage],
    shapes: &'a [shape_rig::SlotShapes],
    #[cfg(feature = "rig-deformers")] deformers: Option<&'a deformer_host::RigDeformers>,
    slot: SlotId,
    attachment: crate::ids::AttachmentId,
) -> Option<&'a [f32]> {
    #[cfg(feature = "rig-deformers")]
    if let Some(v) = deformers.and_then(|d| deformer_host::deformed(d, slot, attachment)) {
        return Some(v);
    }
    cages::posed(cages, shapes, slot, attachment)
}

/// Writes bone locals and IK target positions set from code over the animated pose.
fn apply_overrides(
    rig: &Rig,
    inst: &mut Instance,
    bones: &[Option<LocalPose>],
    ik_targets: &[Option<(f64, f64)>],
) {
    for (i, p) in bones.iter().enumerate() {
        if let (Some(p), Some(pose)) = (p, inst.pose.get_mut(i)) {
            *pose = *p;
        }
    }
    for (k, t) in ik_targets.iter().enumerate() {
        let (Some((x, y)), Some(ik)) = (t, rig.ik.get(k)) else {
            continue;
        };
        let target = ik.target.index();
        let local = match rig.bones.get(target).and_then(|b| b.parent) {
            Some(parent) => {
                query::world_to_local(&inst.world[parent.index()], crate::math::Vec2::new(*x, *y))
            }
            None => crate::math::Vec2::new(
                (x - inst.x) / nonzero(inst.scale_x),
                (y - inst.y) / nonzero(inst.scale_y),
            ),
        };
        if let Some(pose) = inst.pose.get_mut(target) {
            pose.x = local.x;
            pose.y = local.y;
        }
    }
}

fn nonzero(s: f64) -> f64 {
    if s == 0.0 { 1.0 } else { s }
}
