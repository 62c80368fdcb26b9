//! The adapter between the CLI and the sinew runtime: loads rigs in one call
//! (`crate::guard::load`, over [`sinew_formats::load_bytes`], naming the file in every error), resolves skin and
//! animation names (listing what exists when one is unknown), and drives a
//! [`sinew::Character`], the library's one frame pipeline:
//! - state mode: the character's animation state on track 0;
//! - apply mode: the character's clip mode (setup pose plus `Animation.apply` at the time).
//!
//! It then exposes read-only views of the pose (bones, slots in draw order, world vertices,
//! events) for `dump` and `bench`. Verified through the golden suite and the CLI tests.

use crate::args::{Mode, PhysicsArg};
use anyhow::{Result, anyhow, bail};
use sinew::anim::FiredEvent;
use sinew::anim::state::{EntryOptions, MixInterpolation};
use sinew::deform;
use sinew::rig::{AttachmentKind, LocalPose};
use sinew::{Character, ClipId, Color, Physics, RawRig, Rig, SkinId, SlotId, WorldTransform};
use sinew_formats::Asset;
use sinew_formats::budget::Budgets;
use std::path::Path;

/// Reads and parses a skeleton file (Spine JSON, `.skel` or DragonBones `*_ske.json`, by
/// content) into its raw form (errors name the file), within the command's budgets.
pub fn load_raw(budgets: &Budgets, path: &Path) -> Result<RawRig> {
    let file = path.display().to_string();
    if crate::guard::Format::of(budgets, path)? == crate::guard::Format::DragonBones {
        let args = crate::guard::LoadArgs {
            atlas: Some(None),
            ..Default::default()
        };
        let asset = crate::guard::load(budgets, path, args)?;
        return asset
            .dragonbones
            .map(|db| db.raw)
            .ok_or_else(|| anyhow!("{file}: not a DragonBones skeleton"));
    }
    let bytes = sinew_formats::budget::read_input(path, &file, budgets)
        .map_err(crate::guard::load_error)?;
    let found = sinew_formats::detect(&bytes);
    if !matches!(
        found,
        sinew_formats::Format::SpineJson | sinew_formats::Format::SpineSkel
    ) {
        return Err(crate::guard::load_error(
            sinew_formats::LoadError::NotARig { file, found },
        ));
    }
    sinew_formats::spine::parse_spine_with(&bytes, &file, budgets).map_err(crate::guard::load_error)
}

/// Loads a skeleton in one call: a Spine skeleton with `atlas` (`None`: untextured) and rig
/// extras, or a DragonBones one with `atlas` as its `*_tex.json` (`None`: the one beside it;
/// rig extras do not apply). The page images are fetched with an atlas given by path.
pub fn load(
    budgets: &Budgets,
    path: &Path,
    atlas: Option<&Path>,
    extras: Option<&Path>,
) -> Result<Asset> {
    let db = crate::guard::Format::of(budgets, path)? == crate::guard::Format::DragonBones;
    let textures = atlas.is_some();
    let atlas = match (atlas, db) {
        (Some(p), _) => Some(Some(p)),
        (None, true) => None,
        (None, false) => Some(None),
    };
    crate::guard::load(
        budgets,
        path,
        crate::guard::LoadArgs {
            atlas,
            extras,
            textures,
            ..Default::default()
        },
    )
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
    /// More tracks and the Spine 4.3 entry options (`sinew dump --layers ...`).
    pub layers: LayerSpec,
}

/// Animations on tracks 1, 2, ... and the Spine 4.3 entry options of a [`Session`]: the
/// setup of `scripts/spine43/mix_options43.mjs`, which poses the same with spine-core 4.3.13.
#[derive(Debug, Clone, Default)]
pub struct LayerSpec {
    /// (clip, alpha) per track from 1 on.
    pub clips: Vec<(ClipId, f64)>,
    /// With `mix > 0`: the layers start empty and are queued after this delay.
    pub at: f64,
    /// Mix duration of the layers from the empty animation (0: set at once).
    pub mix: f64,
    /// The layers' entries are additive.
    pub additive: bool,
    /// The `from` entry keeps its hold state.
    pub keep_hold: bool,
    /// The mix curve of the `anim` and layer entries.
    pub interpolation: MixInterpolation,
    /// (clip, delay, mix duration) queued on track 0 after `anim`, in order.
    pub then: Vec<(ClipId, f64, f64)>,
    /// The alpha of every track 0 entry, when set.
    pub chain_alpha: Option<f64>,
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

/// One posed character plus the events it fired.
pub struct Session {
    character: Character,
    /// Whether fired events are kept for [`Session::take_events`] (off in benchmarks, whose
    /// frames must not allocate).
    collect_events: bool,
    events: Vec<EventOut>,
}

impl Session {
    /// A character of `asset` (with its jiggle bones) with the skins set, in the setup pose,
    /// ready to step.
    pub fn new(asset: &Asset, spec: &SessionSpec) -> Result<Self> {
        let mut c = asset.character();
        // dump.mjs applySkin: setSkin + setSlotsToSetupPose, then setToSetupPose.
        c.set_skins(&spec.skins).map_err(|e| anyhow!("{e}"))?;
        c.set_slots_to_setup_pose();
        c.set_to_setup_pose();
        let err = |e: sinew::CharacterError| anyhow!("{e}");
        match (spec.mode, spec.anim, spec.from) {
            (Mode::Apply, Some(clip), _) => c.set_clip_mode(clip, spec.looping).map_err(err)?,
            (Mode::Apply, None, _) | (Mode::State, None, None) => {}
            (Mode::State, anim, from) => {
                // dump.mjs: with --from, play it looping and queue --anim after `at` with an
                // explicit mix duration; otherwise just set --anim.
                let l = &spec.layers;
                let curve = EntryOptions {
                    mix_interpolation: l.interpolation,
                    ..Default::default()
                };
                if let Some(from) = from {
                    let first = c.set_animation(0, from, true).map_err(err)?;
                    if l.keep_hold {
                        let keep = EntryOptions {
                            keep_hold: true,
                            ..Default::default()
                        };
                        c.set_entry_options(first, keep).map_err(err)?;
                    }
                    if let (Some(a), Some(e)) = (l.chain_alpha, c.state_mut().entry_mut(first)) {
                        e.alpha = a;
                    }
                    if let Some(anim) = anim {
                        let id = c
                            .add_animation(0, anim, spec.looping, spec.at)
                            .map_err(err)?;
                        if let Some(e) = c.state_mut().entry_mut(id) {
                            e.mix_duration = spec.mix;
                            e.alpha = l.chain_alpha.unwrap_or(e.alpha);
                        }
                        if curve != EntryOptions::default() {
                            c.set_entry_options(id, curve).map_err(err)?;
                        }
                    }
                } else if let Some(anim) = anim {
                    let id = c.set_animation(0, anim, spec.looping).map_err(err)?;
                    if let Some(e) = c.state_mut().entry_mut(id) {
                        e.alpha = l.chain_alpha.unwrap_or(e.alpha);
                    }
                    if curve != EntryOptions::default() {
                        c.set_entry_options(id, curve).map_err(err)?;
                    }
                }
                // mix_options43.mjs --then: queued after --anim with their own delay and mix.
                for &(clip, delay, mix) in &l.then {
                    let id = c.add_animation(0, clip, spec.looping, delay).map_err(err)?;
                    if let Some(e) = c.state_mut().entry_mut(id) {
                        e.mix_duration = mix;
                        e.alpha = l.chain_alpha.unwrap_or(e.alpha);
                    }
                }
                for (k, &(clip, alpha)) in l.clips.iter().enumerate() {
                    let track = k + 1;
                    let id = if l.mix > 0.0 {
                        c.set_empty_animation(track, 0.0).map_err(err)?;
                        let id = c.add_animation(track, clip, true, l.at).map_err(err)?;
                        if let Some(e) = c.state_mut().entry_mut(id) {
                            e.mix_duration = l.mix;
                        }
                        id
                    } else {
                        c.set_animation(track, clip, true).map_err(err)?
                    };
                    if let Some(e) = c.state_mut().entry_mut(id) {
                        e.alpha = alpha;
                    }
                    let options = EntryOptions {
                        additive: l.additive,
                        ..curve
                    };
                    c.set_entry_options(id, options).map_err(err)?;
                }
            }
        }
        c.set_physics(match spec.physics {
            PhysicsArg::Update => Physics::Update,
            PhysicsArg::Pose => Physics::Pose,
            PhysicsArg::None => Physics::None,
            PhysicsArg::Reset => Physics::Reset,
        });
        Ok(Session {
            character: c,
            collect_events: true,
            events: Vec::new(),
        })
    }

    /// Keeps (the default) or drops fired events.
    pub fn set_collect_events(&mut self, collect: bool) {
        self.collect_events = collect;
    }

    /// One simulation step of `dt` seconds (the oracle's `step`): the character's frame.
    pub fn step(&mut self, dt: f64) {
        self.character.update(dt);
        if self.collect_events {
            let rig = self.character.rig();
            for e in self.character.key_events() {
                self.events.push(event_out(rig, e));
            }
        }
    }

    /// Starts the animation `t` seconds in (bench staggering, as bench.mjs: set the track
    /// time, then pose with a physics reset).
    pub fn start_at(&mut self, t: f64) {
        let c = &mut self.character;
        if let Some(id) = c.state().current(0)
            && let Some(e) = c.state_mut().entry_mut(id)
        {
            e.track_time = t;
        }
        c.reset_physics();
        c.update(0.0);
    }

    /// World vertices of every region and mesh in draw order (active bones only) into
    /// `buf`, as a renderer would before batching; returns the vertex count. `buf` must hold
    /// [`Character::max_world_floats`] floats.
    pub fn render_vertices(&self, buf: &mut [f32]) -> usize {
        self.character.compute_world_vertices(buf)
    }

    /// The character, to hand to a [`sinew::character::Crowd`].
    pub fn into_character(self) -> Character {
        self.character
    }

    /// The character, for drawing.
    pub fn character_mut(&mut self) -> &mut Character {
        &mut self.character
    }

    /// The posed instance, read-only (for `render`, which builds a draw list from it).
    pub fn instance(&self) -> &sinew::Instance {
        self.character.instance()
    }

    /// Events fired since the last call, in firing order.
    pub fn take_events(&mut self) -> Vec<EventOut> {
        std::mem::take(&mut self.events)
    }

    /// Whether the rig has a default skin.
    pub fn has_default_skin(&self) -> bool {
        self.character.rig().default_skin.is_some()
    }

    /// Number of bones.
    pub fn bone_count(&self) -> usize {
        self.character.rig().bones.len()
    }

    /// Number of slots.
    pub fn slot_count(&self) -> usize {
        self.character.rig().slots.len()
    }

    /// The pose of bone `i` (skeleton order).
    pub fn bone(&self, i: usize) -> BonePose<'_> {
        let inst = self.character.instance();
        let data = &self.character.rig().bones[i];
        BonePose {
            name: &data.name,
            world: inst.world[i],
            active: inst.bone_active[i],
            local: inst.pose[i],
            applied: inst.applied[i],
            inherit: inst.inherit[i].code(),
        }
    }

    /// The `k`-th slot in the current draw order.
    pub fn slot_in_draw_order(&self, k: usize) -> SlotPose<'_> {
        let rig = &**self.character.rig();
        let inst = self.character.instance();
        let id = inst.draw_order[k];
        let i = id.index();
        let data = &rig.slots[i];
        let att = inst.slots.attachment[i].map(|a| &rig.attachments[a.index()]);
        let deformed = inst.slots.deform_len[i] > 0;
        let seq_index = inst.slots.sequence_index[i];
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
                let (x, y, rotation) =
                    deform::point_world(rig, inst, id).unwrap_or((f64::NAN, f64::NAN, f64::NAN));
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
            color: inst.slots.color[i],
            dark: data.dark.map(|_| inst.slots.dark[i]),
            blend: blend_name(data.blend),
            bone_active: inst.bone_active[data.bone.index()],
            kind,
        }
    }

    fn region_name<'a>(&self, slot: SlotId, regions: &'a [sinew::rig::TextureRegion]) -> &'a str {
        deform::sequence_region_index(self.character.rig(), self.character.instance(), slot)
            .and_then(|i| regions.get(i))
            .map_or("", |r| r.name.as_str())
    }

    /// World vertices (x, y pairs) of the slot's current attachment into `out` (resized).
    pub fn world_vertices(&self, slot: SlotId, out: &mut Vec<f32>) {
        self.character.world_vertices(slot, out);
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
