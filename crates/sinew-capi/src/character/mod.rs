//! Characters: one per on-screen character, a [`sinew::Character`] behind a checked handle.
//!
//! This module holds the handle, the C types of a character's calls, the lock and error
//! helpers every call shares, and the lifecycle (create, destroy, update); the calls
//! themselves are split by what they touch:
//! - `animation`: tracks, mixing and time scale;
//! - `settings`: skins, setup pose, placement, tint and physics mode;
//! - `events`: the events of the last update;
//! - `bones`: bone poses, world transforms and IK targets;
//! - `params`: parameters and parameter animations (Inochi2D);
//! - `constraints`: constraint mixes by name (IK, transform, path, physics);
//! - `tracks`: DragonBones-style play with play counts, durations, track times;
//! - `slots`: a slot's attachment shown or hidden from code;
//! - `jiggle`: jiggle chains' strength, fades, level of detail, on/off, chains from code;
//! - `sliders`: Spine 4.3 sliders (found by name, time and mix) and the wind and gravity
//!   directions of physics;
//! - `entry_options`: Spine 4.3 track entry options (additive, keep hold, mix curve) of a
//!   track's current or last queued entry.
//!
//! Every name a call takes resolves through the facade's `Key` (`&str: Key<BoneId>` ...),
//! so an unknown name's error lists the rig's names of that kind.

use crate::handle::{Registry, TAG_CHARACTER, handle, raw};
use crate::render::RenderOut;
use crate::rig::{RigObj, SinewRig, rig_obj};
use crate::{Fail, Res, SinewStatus, SinewStringView, guard, put};
use sinew::character::Key;
use sinew::physics::jiggle::JiggleRig;
use sinew::{Character, CharacterError};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

// In the order of the calls in include/sinew.h: cbindgen writes functions in the order it
// reads them (this file, then each module as declared), so these stay in separate groups
// (rustfmt sorts a group) and keep the header's order.
mod animation;

mod settings;

mod events;

mod bones;

mod params;

mod constraints;

mod tracks;

mod slots;

mod jiggle;

mod jiggle_lod;

mod cages;

mod sliders;

mod entry_options;

pub use animation::*;
pub use bones::*;
pub use cages::*;
pub use constraints::*;
pub use entry_options::*;
pub use events::*;
pub use jiggle::*;
pub use jiggle_lod::*;
pub use params::*;
pub use settings::*;
pub use sliders::*;
pub use slots::*;
pub use tracks::*;

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

/// The kind of a `SinewEvent`.
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

/// One event of the last update (polled with `sinew_character_event`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SinewEvent {
    /// A `SinewEventKind` value.
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
    /// The jiggle chains `sinew_character_set_jiggle_enabled` switches back on: the rig's
    /// extras', or the last set from code.
    pub jiggle: Option<Arc<JiggleRig>>,
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
        // Ids of another rig, values out of range, and kinds added later: the caller's
        // argument is wrong; the message says which.
        _ => SinewStatus::InvalidArgument,
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

/// The id of the item of kind `K` named `name`, resolved by the facade (`&str: Key<K>`): an
/// unknown name is `SINEW_STATUS_NOT_FOUND` with the facade's message, which lists the
/// rig's names of that kind.
fn key<K>(s: &CharState, name: &str) -> Res<K>
where
    for<'a> &'a str: Key<K>,
{
    Key::<K>::resolve(name, &s.character).map_err(char_fail)
}

/// A lookup the facade answered `None` for after `key` accepted the name (it cannot, for
/// an id of the character's own rig); an error, never a panic.
fn not_found(kind: &str, name: &str) -> Fail {
    Fail::new(SinewStatus::NotFound, format!("{kind} not found: `{name}`"))
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
        let jiggle = r.jiggle();
        let h = CHARACTERS.insert(CharacterObj {
            state: Mutex::new(CharState {
                character,
                rig: r,
                render,
                jiggle,
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
