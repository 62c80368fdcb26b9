//! The adapter between the CLI and the sinew runtime: the ONLY module that calls into
//! `sinew` and `sinew_formats`, so API changes in the runtime are absorbed here.
//!
//! It loads and builds rigs (naming the file in every error), resolves skin and animation
//! names (listing what exists when one is unknown), and drives an [`Instance`] with the
//! oracle's per-step sequence:
//! - state mode: `state.update(dt); state.apply(inst); inst.advance_time(dt);
//!   update_world_transform(physics)`;
//! - apply mode: setup pose, `apply_clip(last, t, loop, events, 1, setup, in)`, then the same
//!   two updates.
//!
//! It then exposes read-only views of the pose (bones, slots in draw order, world vertices,
//! events) for `dump` and `bench`. Verified through the golden suite and the CLI tests.

use crate::args::{Mode, PhysicsArg};
use anyhow::{Result, anyhow, bail};
use sinew::anim::state::StateEventKind;
use sinew::anim::{AnimationState, FiredEvent, MixBlend, MixDirection, apply_clip};
use sinew::deform;
use sinew::physics::jiggle::{JiggleRig, JiggleState};
use sinew::rig::{AttachmentKind, LocalPose};
use sinew::{ClipId, Color, Instance, Physics, RawRig, Rig, SkinId, SlotId, WorldTransform};
use std::path::Path;

/// Reads and parses a skeleton file into its raw form (errors name the file).
pub fn load_raw(path: &Path) -> Result<RawRig> {
    sinew_formats::spine::load_spine_json(path).map_err(|e| anyhow!("{e}"))
}

/// Parses skeleton JSON text; `path` names the source in errors.
pub fn parse_raw(text: &str, path: &Path) -> Result<RawRig> {
    let source = path.display().to_string();
    sinew_formats::spine::parse_spine_json(text, &source).map_err(|e| anyhow!("{e}"))
}

/// Builds a rig from its raw form (errors name the file).
pub fn build(raw: &RawRig, path: &Path) -> Result<Rig> {
    sinew::build::build_rig(raw).map_err(|e| anyhow!("{}: invalid rig: {e}", path.display()))
}

/// Loads and builds a rig.
pub fn load_rig(path: &Path) -> Result<Rig> {
    build(&load_raw(path)?, path)
}

/// Resolves `--skin` (one name or a comma list combined in order). `None` gives the default
/// skin (or none when the rig has no default skin).
pub fn resolve_skins(rig: &Rig, spec: Option<&str>) -> Result<Vec<SkinId>> {
    let Some(spec) = spec else {
        return Ok(rig.default_skin.into_iter().collect());
    };
    let mut out = Vec::new();
    for name in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match rig.skin(name) {
            Some(id) => out.push(id),
            None => {
                let have: Vec<&str> = rig.skins.iter().map(|s| s.name.as_str()).collect();
                bail!("skin not found: {name} (have: {})", have.join(", "));
            }
        }
    }
    if out.is_empty() {
        bail!("--skin names no skin");
    }
    Ok(out)
}

/// Finds an animation by name, listing every animation when it is unknown.
pub fn find_clip(rig: &Rig, name: &str) -> Result<ClipId> {
    rig.clip(name).ok_or_else(|| {
        let have: Vec<&str> = rig.clips.iter().map(|c| c.name.as_str()).collect();
        anyhow!("animation not found: {name} (have: {})", have.join(", "))
    })
}

/// The animation's duration in seconds.
pub fn clip_duration(rig: &Rig, clip: ClipId) -> f64 {
    rig.clips
        .get(clip.index())
        .map_or(0.0, |c| f64::from(c.duration))
}

/// The largest world-vertex buffer (floats) any region or mesh attachment needs.
pub fn max_world_floats(rig: &Rig) -> usize {
    rig.attachments
        .iter()
        .map(|a| match &a.kind {
            AttachmentKind::Region(_) => 8,
            AttachmentKind::Mesh(m) => m.vertices.count as usize * 2,
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// What a [`Session`] plays.
#[derive(Debug, Clone)]
pub struct SessionSpec {
    /// Skins combined in order (empty: none).
    pub skins: Vec<SkinId>,
    /// State or apply mode.
    pub mode: Mode,
    /// The animation (none: setup pose only).
    pub anim: Option<ClipId>,
    /// Crossfade source (state mode): played looping from t = 0, `anim` queued after it.
    pub from: Option<ClipId>,
    /// Delay of the queued animation, seconds.
    pub at: f64,
    /// Mix duration of the queued animation, seconds.
    pub mix: f64,
    /// Loop the animation.
    pub looping: bool,
    /// Physics mode.
    pub physics: PhysicsArg,
}

/// An event fired during the steps since the last [`Session::take_events`].
#[derive(Debug, Clone, PartialEq)]
pub struct EventOut {
    /// Event name.
    pub name: String,
    /// Key time, seconds.
    pub time: f64,
    /// Integer payload.
    pub int: i32,
    /// Float payload.
    pub float: f64,
    /// String payload.
    pub string: String,
    /// Name of the animation that fired it.
    pub animation: String,
}

/// A bone's pose for dumping.
#[derive(Debug, Clone)]
pub struct BonePose<'a> {
    /// Bone name.
    pub name: &'a str,
    /// World transform.
    pub world: WorldTransform,
    /// Active under the current skin.
    pub active: bool,
    /// Local pose (what animation wrote).
    pub local: LocalPose,
    /// Applied pose (what constraints left).
    pub applied: LocalPose,
    /// Current inherit mode as Spine's enum number (0 normal ... 4 noScaleOrReflection).
    pub inherit: u8,
}

/// The kind-specific part of a slot's current attachment.
#[derive(Debug, Clone)]
pub enum AttachmentPose<'a> {
    /// No attachment.
    None,
    /// Region: colour and, with a sequence, (slot sequence index, current region name).
    Region {
        /// Attachment colour.
        color: Color,
        /// Sequence state.
        sequence: Option<(i32, &'a str)>,
    },
    /// Mesh or linked mesh.
    Mesh {
        /// Attachment colour.
        color: Color,
        /// Triangle count.
        triangles: usize,
        /// The slot has a non-empty deform buffer.
        deformed: bool,
        /// Sequence state.
        sequence: Option<(i32, &'a str)>,
    },
    /// Bounding box, path or clipping.
    Vertices {
        /// Clipping end slot name.
        clip_end: Option<&'a str>,
        /// The slot has a non-empty deform buffer.
        deformed: bool,
    },
    /// Point: world position and rotation in degrees.
    Point {
        /// World x.
        x: f64,
        /// World y.
        y: f64,
        /// World rotation, degrees.
        rotation: f64,
        /// What spine-ts 4.2 returns for the rotation (see [`spine_ts_point_rotation`]).
        rotation_ts: f64,
    },
}

/// A slot's state for dumping.
#[derive(Debug, Clone)]
pub struct SlotPose<'a> {
    /// Slot id (for [`Session::world_vertices`]).
    pub id: SlotId,
    /// Slot name.
    pub name: &'a str,
    /// Bone name.
    pub bone: &'a str,
    /// Attachment name and Spine type name.
    pub attachment: Option<(&'a str, &'static str)>,
    /// Slot colour.
    pub color: Color,
    /// Dark colour, for slots with tint black.
    pub dark: Option<Color>,
    /// Blend mode name.
    pub blend: &'static str,
    /// Whether the slot's bone is active.
    pub bone_active: bool,
    /// Attachment details.
    pub kind: AttachmentPose<'a>,
}

/// How the animation is driven.
enum Player {
    /// Setup pose only.
    Idle,
    /// Animation.apply on the setup pose each step.
    Apply {
        clip: ClipId,
        last: f64,
        time: f64,
        looping: bool,
    },
    /// AnimationState on track 0 (boxed: it is much larger than the other variants).
    State(Box<AnimationState>),
}

/// One posed instance plus its animation driver.
pub struct Session<'r> {
    rig: &'r Rig,
    inst: Instance,
    player: Player,
    physics: Physics,
    /// Scratch for the runtime's fired events (reused every step).
    fired: Vec<FiredEvent>,
    /// Whether fired events are kept for [`Session::take_events`] (off in benchmarks, whose
    /// frames must not allocate).
    collect_events: bool,
    events: Vec<EventOut>,
    /// Jiggle bones from a rig-extras file, run after each world-transform update.
    jiggle: Option<(&'r JiggleRig, JiggleState)>,
}

/// Loads a rig-extras file (when given) and attaches its jiggle bones to `rig`; unknown
/// bone names and bad values are errors naming the file.
pub fn load_jiggle(path: Option<&Path>, rig: &Rig) -> Result<Option<JiggleRig>> {
    let Some(path) = path else { return Ok(None) };
    let extras = sinew_formats::extras::load_extras(path).map_err(|e| anyhow!("{e}"))?;
    let jr =
        JiggleRig::build(rig, &extras.jiggle).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    Ok(Some(jr))
}

impl<'r> Session<'r> {
    /// Creates an instance with the skins set, in the setup pose, ready to step.
    pub fn new(rig: &'r Rig, spec: &SessionSpec) -> Result<Self> {
        let mut inst = Instance::new(rig);
        // dump.mjs applySkin: setSkin + setSlotsToSetupPose, then setToSetupPose.
        inst.set_skins(rig, &spec.skins);
        inst.set_slots_to_setup_pose(rig);
        inst.set_to_setup_pose(rig);
        let player = match (spec.mode, spec.anim, spec.from) {
            (Mode::Apply, Some(clip), _) => Player::Apply {
                clip,
                last: -1.0,
                time: 0.0,
                looping: spec.looping,
            },
            (Mode::Apply, None, _) | (Mode::State, None, None) => Player::Idle,
            (Mode::State, anim, from) => {
                let mut state = AnimationState::new(rig);
                // dump.mjs: with --from, play it looping and queue --anim after `at` with an
                // explicit mix duration; otherwise just set --anim.
                if let Some(from) = from {
                    state.set_animation(rig, 0, from, true);
                    if let Some(anim) = anim {
                        let id = state.add_animation(rig, 0, anim, spec.looping, spec.at);
                        if let Some(e) = state.entry_mut(id) {
                            e.mix_duration = spec.mix;
                        }
                    }
                } else if let Some(anim) = anim {
                    state.set_animation(rig, 0, anim, spec.looping);
                }
                Player::State(Box::new(state))
            }
        };
        let physics = match spec.physics {
            PhysicsArg::Update => Physics::Update,
            PhysicsArg::Pose => Physics::Pose,
            PhysicsArg::None => Physics::None,
            PhysicsArg::Reset => Physics::Reset,
        };
        Ok(Session {
            rig,
            inst,
            player,
            physics,
            fired: Vec::with_capacity(16),
            collect_events: true,
            events: Vec::new(),
            jiggle: None,
        })
    }

    /// Runs these jiggle bones after every world-transform update from now on.
    pub fn attach_jiggle(&mut self, jr: &'r JiggleRig) {
        self.jiggle = Some((jr, JiggleState::new(jr)));
    }

    /// Keeps (the default) or drops fired events.
    pub fn set_collect_events(&mut self, collect: bool) {
        self.collect_events = collect;
    }

    /// One simulation step of `dt` seconds (the oracle's `step`).
    pub fn step(&mut self, dt: f64) {
        self.animate(dt);
        self.update_world(dt);
    }

    /// The animation half of a step: advance and apply the animation (state mode), or
    /// reset to the setup pose and apply the clip at the new time (apply mode).
    pub fn animate(&mut self, dt: f64) {
        let rig = self.rig;
        match &mut self.player {
            Player::Idle => {}
            Player::Apply {
                clip,
                last,
                time,
                looping,
            } => {
                *time += dt;
                self.inst.set_to_setup_pose(rig);
                self.fired.clear();
                apply_clip(
                    rig,
                    &mut self.inst,
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
                if self.collect_events {
                    for e in &self.fired {
                        self.events.push(event_out(rig, e));
                    }
                }
            }
            Player::State(state) => {
                state.update(dt);
                state.apply(rig, &mut self.inst);
                for e in state.drain_events() {
                    if let (true, StateEventKind::Event(fired)) = (self.collect_events, e.kind) {
                        self.events.push(event_out(rig, &fired));
                    }
                }
            }
        }
    }

    /// The pose half of a step: advance the skeleton clock, then world transforms,
    /// constraints and physics.
    pub fn update_world(&mut self, dt: f64) {
        self.inst.advance_time(dt);
        sinew::skeleton::update_world_transform(self.rig, &mut self.inst, self.physics);
        if let Some((jr, js)) = &mut self.jiggle {
            js.update(self.rig, jr, &mut self.inst, dt);
        }
    }

    /// Starts the animation `t` seconds in (bench staggering, as bench.mjs: set the track
    /// time, apply, and pose with a physics reset).
    pub fn start_at(&mut self, t: f64) {
        if let Player::State(state) = &mut self.player {
            if let Some(e) = state.current(0).and_then(|id| state.entry_mut(id)) {
                e.track_time = t;
            }
            state.update(0.0);
            state.apply(self.rig, &mut self.inst);
            state.events.clear();
        }
        sinew::skeleton::update_world_transform(self.rig, &mut self.inst, Physics::Reset);
        if let Some((jr, js)) = &mut self.jiggle {
            js.reset();
            js.update(self.rig, jr, &mut self.inst, 0.0);
        }
    }

    /// World vertices of every region and mesh in draw order (active bones only) into
    /// `buf`, as a renderer would before batching; returns the vertex count. `buf` must hold
    /// [`max_world_floats`] floats.
    pub fn render_vertices(&self, buf: &mut [f32]) -> usize {
        let (rig, inst) = (self.rig, &self.inst);
        let mut n = 0;
        for &slot in &inst.draw_order {
            if !inst.bone_active[rig.slots[slot.index()].bone.index()] {
                continue;
            }
            let Some(att) = inst.slots.attachment[slot.index()] else {
                continue;
            };
            let count = match &rig.attachments[att.index()].kind {
                AttachmentKind::Region(_) => 4,
                AttachmentKind::Mesh(m) => m.vertices.count as usize,
                _ => continue,
            };
            let end = (count * 2).min(buf.len());
            deform::compute_world_vertices(rig, inst, slot, &mut buf[..end]);
            n += count;
        }
        n
    }

    /// The posed instance, read-only (for `render`, which builds a draw list from it).
    pub fn instance(&self) -> &Instance {
        &self.inst
    }

    /// Events fired since the last call, in firing order.
    pub fn take_events(&mut self) -> Vec<EventOut> {
        std::mem::take(&mut self.events)
    }

    /// Whether the rig has a default skin.
    pub fn has_default_skin(&self) -> bool {
        self.rig.default_skin.is_some()
    }

    /// Number of bones.
    pub fn bone_count(&self) -> usize {
        self.rig.bones.len()
    }

    /// Number of slots.
    pub fn slot_count(&self) -> usize {
        self.rig.slots.len()
    }

    /// The pose of bone `i` (skeleton order).
    pub fn bone(&self, i: usize) -> BonePose<'r> {
        let data = &self.rig.bones[i];
        BonePose {
            name: &data.name,
            world: self.inst.world[i],
            active: self.inst.bone_active[i],
            local: self.inst.pose[i],
            applied: self.inst.applied[i],
            inherit: self.inst.inherit[i] as u8,
        }
    }

    /// The `k`-th slot in the current draw order.
    pub fn slot_in_draw_order(&self, k: usize) -> SlotPose<'r> {
        let rig = self.rig;
        let id = self.inst.draw_order[k];
        let i = id.index();
        let data = &rig.slots[i];
        let att = self.inst.slots.attachment[i].map(|a| &rig.attachments[a.index()]);
        let deformed = self.inst.slots.deform_len[i] > 0;
        let seq_index = self.inst.slots.sequence_index[i];
        let kind = match att.map(|a| &a.kind) {
            None => AttachmentPose::None,
            Some(AttachmentKind::Region(r)) => AttachmentPose::Region {
                color: r.color,
                sequence: r
                    .sequence
                    .as_ref()
                    .map(|_| (seq_index, self.region_name(id, &r.regions))),
            },
            Some(AttachmentKind::Mesh(m)) => AttachmentPose::Mesh {
                color: m.color,
                triangles: m.triangles.len() / 3,
                deformed,
                sequence: m
                    .sequence
                    .as_ref()
                    .map(|_| (seq_index, self.region_name(id, &m.regions))),
            },
            Some(AttachmentKind::Clipping { end, .. }) => AttachmentPose::Vertices {
                clip_end: end.map(|e| rig.slots[e.index()].name.as_str()),
                deformed,
            },
            Some(AttachmentKind::BoundingBox { .. } | AttachmentKind::Path(_)) => {
                AttachmentPose::Vertices {
                    clip_end: None,
                    deformed,
                }
            }
            Some(AttachmentKind::Point { .. }) => {
                let (x, y, rotation) = deform::point_world(rig, &self.inst, id).unwrap_or((
                    f64::NAN,
                    f64::NAN,
                    f64::NAN,
                ));
                AttachmentPose::Point {
                    x,
                    y,
                    rotation,
                    rotation_ts: spine_ts_point_rotation(rotation),
                }
            }
        };
        SlotPose {
            id,
            name: &data.name,
            bone: &rig.bones[data.bone.index()].name,
            attachment: att.map(|a| (a.name.as_str(), a.type_name())),
            color: self.inst.slots.color[i],
            dark: data.dark.map(|_| self.inst.slots.dark[i]),
            blend: blend_name(data.blend),
            bone_active: self.inst.bone_active[data.bone.index()],
            kind,
        }
    }

    fn region_name(&self, slot: SlotId, regions: &'r [sinew::rig::TextureRegion]) -> &'r str {
        deform::sequence_region_index(self.rig, &self.inst, slot)
            .and_then(|i| regions.get(i))
            .map_or("", |r| r.name.as_str())
    }

    /// World vertices (x, y pairs) of the slot's current attachment into `out` (resized).
    pub fn world_vertices(&self, slot: SlotId, out: &mut Vec<f32>) {
        out.clear();
        if let Some(att) = self.inst.slots.attachment[slot.index()] {
            out.resize(deform::world_vertex_count(self.rig, att) * 2, 0.0);
            deform::compute_world_vertices(self.rig, &self.inst, slot, out);
        }
    }
}

/// The value spine-ts 4.2 `PointAttachment.computeWorldRotation` returns for a rotation of
/// `degrees`. COMPAT(spine): its `MathUtils.atan2Deg` multiplies the radian angle by `degRad`
/// instead of `radDeg`; the oracle reports that raw value as `rotationTs`.
pub fn spine_ts_point_rotation(degrees: f64) -> f64 {
    degrees.to_radians() * sinew::math::SPINE_DEG_RAD
}

fn event_out(rig: &Rig, e: &FiredEvent) -> EventOut {
    EventOut {
        name: e.name(rig).to_owned(),
        time: e.time,
        int: e.int,
        float: f64::from(e.float),
        string: e.string(rig).to_owned(),
        animation: rig
            .clips
            .get(e.clip.index())
            .map_or_else(String::new, |c| c.name.clone()),
    }
}

fn blend_name(b: sinew::BlendMode) -> &'static str {
    match b {
        sinew::BlendMode::Normal => "normal",
        sinew::BlendMode::Additive => "additive",
        sinew::BlendMode::Multiply => "multiply",
        sinew::BlendMode::Screen => "screen",
        sinew::BlendMode::Overlay => "overlay",
        sinew::BlendMode::Darken => "darken",
        sinew::BlendMode::Lighten => "lighten",
        sinew::BlendMode::ColorDodge => "colorDodge",
        sinew::BlendMode::LinearDodge => "linearDodge",
        sinew::BlendMode::AddGlow => "addGlow",
        sinew::BlendMode::ColorBurn => "colorBurn",
        sinew::BlendMode::HardLight => "hardLight",
        sinew::BlendMode::SoftLight => "softLight",
        sinew::BlendMode::Difference => "difference",
        sinew::BlendMode::Exclusion => "exclusion",
        sinew::BlendMode::Subtract => "subtract",
        sinew::BlendMode::Inverse => "inverse",
        sinew::BlendMode::DestinationIn => "destinationIn",
        sinew::BlendMode::ClipToLower => "clipToLower",
        sinew::BlendMode::SliceFromLower => "sliceFromLower",
    }
}
