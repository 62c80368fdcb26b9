//! Characters: one per on-screen character, a [`sinew::Character`] behind a checked handle.

use crate::handle::{Registry, TAG_CHARACTER, handle, raw};
use crate::render::RenderOut;
use crate::rig::{RigObj, SinewRig, rig_obj};
use crate::{Fail, Res, SinewStatus, SinewStr, SinewStringView, guard, put, slice_arg, str_arg};
use sinew::anim::state::StateEventKind;
use sinew::rig::LocalPose;
use sinew::{Character, CharacterError, Color, Physics};
use std::ffi::c_char;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// One character of a rig: its pose, animation state, parameters, physics and render
/// output. Opaque. Use one character from one thread at a time (calls on it are serialised
/// by a lock); different characters may be used on different threads.
pub struct SinewCharacter {
    _opaque: [u8; 0],
}

/// A bone's local pose (Spine `x, y, rotation, scaleX, scaleY, shearX, shearY`; degrees).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewBonePose {
    /// X in the parent's space.
    pub x: f64,
    /// Y in the parent's space.
    pub y: f64,
    /// Rotation, degrees.
    pub rotation: f64,
    /// Scale x.
    pub scale_x: f64,
    /// Scale y.
    pub scale_y: f64,
    /// Shear x, degrees.
    pub shear_x: f64,
    /// Shear y, degrees.
    pub shear_y: f64,
}

/// A bone's world transform: `world = [a b; c d] * local + (x, y)`, in the rig's own y
/// convention (Spine y up; Inochi2D y down; render output is y up for both).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewWorldTransform {
    /// Row 0, column 0.
    pub a: f64,
    /// Row 0, column 1.
    pub b: f64,
    /// Row 1, column 0.
    pub c: f64,
    /// Row 1, column 1.
    pub d: f64,
    /// World x.
    pub x: f64,
    /// World y.
    pub y: f64,
}

/// The kind of a [`SinewEvent`].
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinewEventKind {
    /// A track entry became current.
    Start = 0,
    /// Another entry replaced it.
    Interrupt = 1,
    /// It is no longer applied.
    End = 2,
    /// It is discarded.
    Dispose = 3,
    /// It reached the end of its animation (each loop).
    Complete = 4,
    /// A key event fired (`name`, `int_value`, `float_value`, `string_value` are set).
    Event = 5,
}

/// One event of the last update (polled with [`sinew_character_event`]).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SinewEvent {
    /// A [`SinewEventKind`] value.
    pub kind: u32,
    /// The track of the entry.
    pub track: u32,
    /// The entry's animation name.
    pub animation: SinewStringView,
    /// The key event's name (empty for lifecycle events).
    pub name: SinewStringView,
    /// Integer payload.
    pub int_value: i32,
    /// Float payload.
    pub float_value: f32,
    /// String payload (the key's, else the event's default).
    pub string_value: SinewStringView,
    /// Key time within the animation, seconds.
    pub time: f64,
    /// Audio volume.
    pub volume: f32,
    /// Audio balance.
    pub balance: f32,
}

/// What a character handle holds.
pub(crate) struct CharacterObj {
    pub state: Mutex<CharState>,
}

pub(crate) struct CharState {
    pub character: Character,
    pub rig: Arc<RigObj>,
    pub render: RenderOut,
}

pub(crate) static CHARACTERS: Registry<CharacterObj> = Registry::new(TAG_CHARACTER, "character");

pub(crate) fn character_obj(c: *const SinewCharacter) -> Res<Arc<CharacterObj>> {
    CHARACTERS.get(raw(c))
}

impl CharacterObj {
    pub(crate) fn lock(&self) -> MutexGuard<'_, CharState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Runs `f` on a character.
fn with<T>(c: *const SinewCharacter, f: impl FnOnce(&mut CharState) -> Res<T>) -> Res<T> {
    let obj = character_obj(c)?;
    let mut s = obj.lock();
    f(&mut s)
}

fn char_fail(e: CharacterError) -> Fail {
    let status = match e {
        CharacterError::UnknownName { .. } | CharacterError::UnknownAttachment { .. } => {
            SinewStatus::NotFound
        }
        CharacterError::ForeignId { .. }
        | CharacterError::ForeignRig { .. }
        | CharacterError::NotFinite { .. } => SinewStatus::InvalidArgument,
    };
    Fail::new(status, e.to_string())
}

fn finite(v: f64, what: &str) -> Res<f64> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Fail::new(
            SinewStatus::InvalidArgument,
            format!("{what} is not finite"),
        ))
    }
}

fn not_found(kind: &str, name: &str) -> Fail {
    Fail::new(SinewStatus::NotFound, format!("{kind} not found: {name}"))
}

/// A new character of `rig` in the setup pose (its jiggle bones, drawing details and
/// parameter animations attached), written to `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_create(
    rig: *const SinewRig,
    out: *mut *mut SinewCharacter,
) -> SinewStatus {
    guard(|| {
        if out.is_null() {
            return Err(crate::null_arg("out"));
        }
        let r = rig_obj(rig)?;
        let character = r.character();
        let render = RenderOut::for_character(&character);
        let h = CHARACTERS.insert(CharacterObj {
            state: Mutex::new(CharState {
                character,
                rig: r,
                render,
            }),
        })?;
        put(out, handle(h), "out")
    })
}

/// Destroys a character (library-owned buffers of it become invalid). Null or already
/// destroyed: no-op.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_destroy(character: *mut SinewCharacter) -> SinewStatus {
    guard(|| CHARACTERS.remove(raw(character)).map(drop))
}

/// Runs one frame of `dt` seconds: parameter animation, animation, overrides, clock,
/// world transforms with constraints and physics, jiggle, cages (`sinew::Character::update`).
/// A non-finite `dt` counts as 0. Allocation-free after the first frames.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_update(character: *mut SinewCharacter, dt: f64) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            s.character.update(dt);
            Ok(())
        })
    })
}

/// Plays animation `name` on `track` now, mixing from what played (Spine `setAnimation`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_animation(
    character: *mut SinewCharacter,
    track: u32,
    name: *const c_char,
    name_len: usize,
    looping: bool,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            s.character
                .set_animation(track as usize, name, looping)
                .map(drop)
                .map_err(char_fail)
        })
    })
}

/// Queues animation `name` after the track's last entry (Spine `addAnimation`): `delay` <= 0
/// starts it when the previous entry completes, minus the mix, plus `delay`. A
/// `mix_duration` >= 0 overrides the mix table's duration for this entry (and, with
/// `delay` <= 0, is what the start is moved back by); < 0 keeps the table's.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_add_animation(
    character: *mut SinewCharacter,
    track: u32,
    name: *const c_char,
    name_len: usize,
    looping: bool,
    delay: f64,
    mix_duration: f64,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        let delay = finite(delay, "delay")?;
        let mix = finite(mix_duration, "mix_duration")?;
        with(character, |s| {
            let id = s
                .character
                .add_animation(track as usize, name, looping, delay)
                .map_err(char_fail)?;
            if mix >= 0.0 {
                if delay <= 0.0 {
                    s.character
                        .state_mut()
                        .set_mix_duration_with_delay(id, mix, delay);
                } else if let Some(e) = s.character.state_mut().entry_mut(id) {
                    e.mix_duration = mix;
                }
            }
            Ok(())
        })
    })
}

/// Mixes `track` out to the setup pose over `mix_duration` seconds (Spine
/// `setEmptyAnimation`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_empty_animation(
    character: *mut SinewCharacter,
    track: u32,
    mix_duration: f64,
) -> SinewStatus {
    guard(|| {
        let mix = finite(mix_duration, "mix_duration")?;
        with(character, |s| {
            s.character.set_empty_animation(track as usize, mix);
            Ok(())
        })
    })
}

/// Removes every entry of `track` at once (Spine `clearTrack`; the pose stays as it is).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_clear_track(
    character: *mut SinewCharacter,
    track: u32,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            s.character.state_mut().clear_track(track as usize);
            Ok(())
        })
    })
}

/// Removes every track's entries (Spine `clearTracks`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_clear_tracks(character: *mut SinewCharacter) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            s.character.state_mut().clear_tracks();
            Ok(())
        })
    })
}

/// Speed multiplier of the whole character (animation, physics, jiggle); 1 by default.
/// Negative or non-finite: [`SinewStatus::InvalidArgument`].
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_time_scale(
    character: *mut SinewCharacter,
    scale: f64,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            if s.character.set_time_scale(scale) {
                Ok(())
            } else {
                Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("time scale {scale} is negative or not finite"),
                ))
            }
        })
    })
}

/// Sets this character's crossfade from animation `from` to `to` (Spine
/// `AnimationStateData.setMix`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_mix(
    character: *mut SinewCharacter,
    from: *const c_char,
    from_len: usize,
    to: *const c_char,
    to_len: usize,
    seconds: f64,
) -> SinewStatus {
    guard(|| {
        let from = str_arg(from, from_len, "from")?;
        let to = str_arg(to, to_len, "to")?;
        let seconds = finite(seconds, "seconds")?;
        with(character, |s| {
            s.character.set_mix(from, to, seconds).map_err(char_fail)
        })
    })
}

/// The mix duration for pairs the mix table does not list.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_default_mix(
    character: *mut SinewCharacter,
    seconds: f64,
) -> SinewStatus {
    guard(|| {
        let seconds = finite(seconds, "seconds")?;
        with(character, |s| {
            s.character.set_default_mix(seconds);
            Ok(())
        })
    })
}

/// Shows these skins combined in order (later ones win; Spine `Skin.addSkin`); `count` 0
/// shows no skin. Slots showing the old skin's attachments switch to the new one's.
/// Allocates (recomputes the update plan): call it outside the frame loop.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_skins(
    character: *mut SinewCharacter,
    names: *const SinewStr,
    count: usize,
) -> SinewStatus {
    guard(|| {
        let names = slice_arg(names, count, "names")?;
        let mut v = Vec::with_capacity(names.len());
        for (i, n) in names.iter().enumerate() {
            v.push(str_arg(n.ptr, n.len, &format!("names[{i}]"))?);
        }
        with(character, |s| {
            s.character.set_skins_by_name(&v).map_err(char_fail)
        })
    })
}

/// Resets bones, constraints, slots and draw order to the setup pose (`slots_only`: only
/// slots: colours, attachments, draw order).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_to_setup_pose(
    character: *mut SinewCharacter,
    slots_only: bool,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            if slots_only {
                s.character.set_slots_to_setup_pose();
            } else {
                s.character.set_to_setup_pose();
            }
            Ok(())
        })
    })
}

/// Places and scales the skeleton in world space (Spine `skeleton.x/y/scaleX/scaleY`;
/// negative scales flip).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_transform(
    character: *mut SinewCharacter,
    x: f64,
    y: f64,
    scale_x: f64,
    scale_y: f64,
) -> SinewStatus {
    guard(|| {
        for (v, w) in [
            (x, "x"),
            (y, "y"),
            (scale_x, "scale_x"),
            (scale_y, "scale_y"),
        ] {
            finite(v, w)?;
        }
        with(character, |s| {
            s.character.set_position(x, y);
            s.character.set_scale(scale_x, scale_y);
            Ok(())
        })
    })
}

/// The skeleton's tint, multiplied into every vertex colour (Spine `skeleton.color`).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_color(
    character: *mut SinewCharacter,
    r: f32,
    g: f32,
    b: f32,
    a: f32,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            s.character.set_color(Color::new(r, g, b, a));
            Ok(())
        })
    })
}

/// How Spine physics constraints run: 0 none, 1 reset, 2 update (default), 3 pose.
/// `reset_now` also resets physics and jiggle on the next update (after a teleport).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_physics(
    character: *mut SinewCharacter,
    mode: u32,
    reset_now: bool,
) -> SinewStatus {
    guard(|| {
        let physics = match mode {
            0 => Physics::None,
            1 => Physics::Reset,
            2 => Physics::Update,
            3 => Physics::Pose,
            _ => {
                return Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("physics mode {mode} is not 0..3"),
                ));
            }
        };
        with(character, |s| {
            s.character.set_physics(physics);
            if reset_now {
                s.character.reset_physics();
            }
            Ok(())
        })
    })
}

/// How many events the last update produced (lifecycle and key events, oldest first).
/// They stay until the next update; read them with [`sinew_character_event`].
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_event_count(
    character: *const SinewCharacter,
    out: *mut u32,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            put(out, s.character.events().len() as u32, "out")
        })
    })
}

/// Event `index` of the last update, copied into `*out` (its strings point into the rig).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_event(
    character: *const SinewCharacter,
    index: u32,
    out: *mut SinewEvent,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let events = s.character.events();
            let e = events.get(index as usize).ok_or_else(|| {
                Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("event index {index} out of range ({} events)", events.len()),
                )
            })?;
            let rig = s.character.rig();
            let anim = rig
                .clips
                .get(e.clip.index())
                .map_or(SinewStringView::EMPTY, |c| SinewStringView::of(&c.name));
            let mut ev = SinewEvent {
                kind: 0,
                track: e.track as u32,
                animation: anim,
                name: SinewStringView::EMPTY,
                int_value: 0,
                float_value: 0.0,
                string_value: SinewStringView::EMPTY,
                time: 0.0,
                volume: 0.0,
                balance: 0.0,
            };
            ev.kind = match &e.kind {
                StateEventKind::Start => SinewEventKind::Start,
                StateEventKind::Interrupt => SinewEventKind::Interrupt,
                StateEventKind::End => SinewEventKind::End,
                StateEventKind::Dispose => SinewEventKind::Dispose,
                StateEventKind::Complete => SinewEventKind::Complete,
                StateEventKind::Event(f) => {
                    if let Some(data) = rig.events.get(f.event.index()) {
                        ev.name = SinewStringView::of(&data.name);
                        let string = f
                            .string
                            .and_then(|k| rig.clips.get(f.clip.index())?.strings.get(k as usize))
                            .unwrap_or(&data.string);
                        ev.string_value = SinewStringView::of(string);
                    }
                    ev.int_value = f.int;
                    ev.float_value = f.float;
                    ev.time = f.time;
                    ev.volume = f.volume;
                    ev.balance = f.balance;
                    SinewEventKind::Event
                }
            } as u32;
            put(out, ev, "out")
        })
    })
}

fn bone_of(s: &CharState, name: &str) -> Res<sinew::BoneId> {
    s.character
        .find_bone(name)
        .ok_or_else(|| not_found("bone", name))
}

/// A bone's local pose as the animation (or code) left it.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_bone_local(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    out: *mut SinewBonePose,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let b = bone_of(s, name)?;
            let p = s
                .character
                .bone_local(b)
                .ok_or_else(|| not_found("bone", name))?;
            put(
                out,
                SinewBonePose {
                    x: p.x,
                    y: p.y,
                    rotation: p.rotation,
                    scale_x: p.scale_x,
                    scale_y: p.scale_y,
                    shear_x: p.shear_x,
                    shear_y: p.shear_y,
                },
                "out",
            )
        })
    })
}

/// Holds a bone's local pose from code: from the next update on it replaces what the
/// animation writes, every frame, until [`sinew_character_clear_bone_local`].
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_bone_local(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    pose: *const SinewBonePose,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        let p = *slice_arg(pose, 1, "pose")?
            .first()
            .ok_or_else(|| crate::null_arg("pose"))?;
        for (v, w) in [
            (p.x, "pose.x"),
            (p.y, "pose.y"),
            (p.rotation, "pose.rotation"),
            (p.scale_x, "pose.scale_x"),
            (p.scale_y, "pose.scale_y"),
            (p.shear_x, "pose.shear_x"),
            (p.shear_y, "pose.shear_y"),
        ] {
            finite(v, w)?;
        }
        with(character, |s| {
            let b = bone_of(s, name)?;
            let local = LocalPose {
                x: p.x,
                y: p.y,
                rotation: p.rotation,
                scale_x: p.scale_x,
                scale_y: p.scale_y,
                shear_x: p.shear_x,
                shear_y: p.shear_y,
            };
            s.character.set_bone_local(b, local).map_err(char_fail)
        })
    })
}

/// Lets the animation pose the bone again.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_clear_bone_local(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let b = bone_of(s, name)?;
            s.character.clear_bone_local(b).map_err(char_fail)
        })
    })
}

fn world_of(w: sinew::WorldTransform) -> SinewWorldTransform {
    SinewWorldTransform {
        a: w.a,
        b: w.b,
        c: w.c,
        d: w.d,
        x: w.x,
        y: w.y,
    }
}

/// A bone's world transform after the last update.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_bone_world(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    out: *mut SinewWorldTransform,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let b = bone_of(s, name)?;
            let w = s
                .character
                .bone_world(b)
                .ok_or_else(|| not_found("bone", name))?;
            put(out, world_of(w), "out")
        })
    })
}

/// Every bone's world transform, in bone order, into `buf` (capacity `cap` transforms);
/// `*len` is the bone count. Short buffer: [`SinewStatus::BufferTooSmall`], nothing copied.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_bone_worlds(
    character: *const SinewCharacter,
    buf: *mut SinewWorldTransform,
    cap: usize,
    len: *mut usize,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let world = &s.character.instance().world;
            put(len, world.len(), "len")?;
            if world.len() > cap {
                return Err(crate::too_small("buf", world.len(), cap));
            }
            let out = crate::out_slice(buf, cap, "buf")?;
            for (o, w) in out.iter_mut().zip(world) {
                *o = world_of(*w);
            }
            Ok(())
        })
    })
}

fn ik_of(s: &CharState, name: &str) -> Res<sinew::IkId> {
    s.character
        .find_ik(name)
        .ok_or_else(|| not_found("IK constraint", name))
}

/// Moves IK constraint `name`'s target bone to a world position, held every frame until
/// [`sinew_character_clear_ik_target`].
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_ik_target(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    x: f64,
    y: f64,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        let (x, y) = (finite(x, "x")?, finite(y, "y")?);
        with(character, |s| {
            let k = ik_of(s, name)?;
            s.character.set_ik_target(k, x, y).map_err(char_fail)
        })
    })
}

/// Lets the animation place the IK target again.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_clear_ik_target(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let k = ik_of(s, name)?;
            s.character.clear_ik_target(k).map_err(char_fail)
        })
    })
}

/// Sets parameter `name` to (x, y) (y ignored for one-axis parameters; clamped to the range
/// on use). With a parameter animation playing this is the base value it plays on.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_param(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    x: f64,
    y: f64,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        let (x, y) = (finite(x, "x")?, finite(y, "y")?);
        with(character, |s| {
            s.character.set_param(name, [x, y]).map_err(char_fail)
        })
    })
}

/// Parameter `name`'s current value (after the last update).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_get_param(
    character: *const SinewCharacter,
    name: *const c_char,
    name_len: usize,
    x: *mut f64,
    y: *mut f64,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            let id = s
                .character
                .find_param(name)
                .ok_or_else(|| not_found("parameter", name))?;
            let v = s
                .character
                .param(id)
                .ok_or_else(|| not_found("parameter", name))?;
            put(x, v[0], "x")?;
            put(y, v[1], "y")
        })
    })
}

/// Plays the puppet's parameter animation `name` from its start (Inochi2D).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_play_param_animation(
    character: *mut SinewCharacter,
    name: *const c_char,
    name_len: usize,
    looping: bool,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(name, name_len, "name")?;
        with(character, |s| {
            s.character
                .play_param_animation(name, looping)
                .map_err(char_fail)
        })
    })
}
