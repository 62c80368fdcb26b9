//! Characters as components: [`SinewCharacter`] holds a `sinew::Character` of a
//! [`SinewRig`]; one system ([`update_characters`], in [`crate::SinewSystems::Update`])
//! updates every character of the world per frame on sinew's thread pool (`Pool`: four
//! characters of one rig share SIMD lanes, the results bit-identical to updating them one by
//! one), with Bevy's `Time` (virtual time: pausing and `relative_speed` apply) and each
//! character's own time scale and pause (`Character::set_time_scale`, `set_paused`). It
//! then writes sinew's events as [`SinewEvent`] messages (each read once per reader).
//!
//! A character is built when its rig has loaded, posed at its setup pose (`update(0.0)`),
//! then the commands given before that with [`SinewCharacter::with`] run, in order; it is
//! rebuilt on the new rig when the rig
//! reloads (hot reload): the animations playing on each track, their times and loop flags,
//! the skins, time scale and pause, and a puppet's parameter values carry over by name.

use crate::asset::SinewRig;
use bevy::prelude::*;
use sinew::Character;
use sinew::anim::state::{StateEvent, StateEventKind};
use sinew::character::Pool;
use std::sync::{Arc, Mutex, PoisonError};

/// A command run on a character once it exists.
type Command = Box<dyn FnOnce(&mut Character) + Send + Sync>;

/// A character playing a [`SinewRig`]. Spawn it with a `Transform` (added if missing):
/// rig units are world units, y up, the skeleton's origin at the entity.
///
/// Control it from systems with [`SinewCharacter::character`] (every `sinew::Character`
/// method: `set_animation`, `fade_in`, `add_animation`, `set_skins`, `set_attachment`,
/// `set_param`, `set_ik_target`, `set_ik`, `jiggle_mut`, ...), or queue commands for when the
/// rig has loaded with [`SinewCharacter::with`].
///
/// Owner: the app spawns it; [`update_characters`] builds and updates the character.
#[derive(Component)]
#[require(Transform, Visibility)]
pub struct SinewCharacter {
    rig: Handle<SinewRig>,
    character: Option<Arc<Mutex<Character>>>,
    commands: Vec<Command>,
    /// Set when the rig was modified: rebuild on the new rig at the next update.
    stale: bool,
}

impl std::fmt::Debug for SinewCharacter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SinewCharacter")
            .field("rig", &self.rig)
            .field("built", &self.character.is_some())
            .field("commands", &self.commands.len())
            .finish()
    }
}

impl SinewCharacter {
    /// A character of `rig` (built when the rig has loaded).
    pub fn new(rig: Handle<SinewRig>) -> Self {
        SinewCharacter {
            rig,
            character: None,
            commands: Vec::new(),
            stale: false,
        }
    }

    /// Queues `f` to run on the character: now if it exists, else as soon as the rig has
    /// loaded (in the order given). Errors a command meets are the command's to handle.
    pub fn with(mut self, f: impl FnOnce(&mut Character) + Send + Sync + 'static) -> Self {
        self.run(f);
        self
    }

    /// Runs `f` on the character now if it exists, else when the rig has loaded.
    pub fn run(&mut self, f: impl FnOnce(&mut Character) + Send + Sync + 'static) {
        match self.character() {
            Some(c) => f(c),
            None => self.commands.push(Box::new(f)),
        }
    }

    /// The rig it plays.
    pub fn rig(&self) -> &Handle<SinewRig> {
        &self.rig
    }

    /// The character, once the rig has loaded (`None` before).
    pub fn character(&mut self) -> Option<&mut Character> {
        let shared = self.character.as_mut()?;
        // The pool holds clones only during `update_characters`: here the Arc is unique.
        let mutex = Arc::get_mut(shared)?;
        Some(mutex.get_mut().unwrap_or_else(PoisonError::into_inner))
    }

    /// Reads the character (for systems holding `&SinewCharacter`); `None` before the rig
    /// has loaded.
    pub fn read<R>(&self, f: impl FnOnce(&Character) -> R) -> Option<R> {
        let c = self.character.as_ref()?;
        let guard = c.lock().unwrap_or_else(PoisonError::into_inner);
        Some(f(&guard))
    }

    /// Whether the character exists (its rig has loaded).
    pub fn is_ready(&self) -> bool {
        self.character.is_some()
    }
}

/// One of sinew's events (a track entry's start, interrupt, end, dispose, complete, or a key
/// event with its payload), from the update of this frame.
///
/// Owner: [`update_characters`] writes one per event; each reader reads it once.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct SinewEvent {
    /// The character's entity.
    pub entity: Entity,
    /// What happened (sinew's event with its entry, track and clip).
    pub event: StateEvent,
    /// The animation's name.
    pub animation: String,
    /// A key event's name (`None` for lifecycle events).
    pub name: Option<String>,
}

impl SinewEvent {
    /// Whether this is the key event `name`.
    pub fn is_key(&self, name: &str) -> bool {
        self.name.as_deref() == Some(name)
    }
}

/// How the plugin updates characters.
///
/// Owner: the app (insert it to change the defaults); read by [`update_characters`].
#[derive(Resource, Debug, Clone, Copy)]
pub struct SinewSettings {
    /// Threads of sinew's pool, the calling thread included (default: the machine's
    /// available parallelism, at most 8).
    pub threads: usize,
    /// Update characters whose entity is hidden (default: true, so they keep their place
    /// in their animation; they are never drawn).
    pub update_hidden: bool,
    /// The first render layer the off-screen passes of layered characters (composites,
    /// blend modes that read the destination) are drawn on; the plugin takes the layers
    /// from here up, so keep the app's own below it (default: 32).
    pub first_render_layer: usize,
    /// Draw composites and destination-reading blend modes in off-screen passes (default:
    /// true); off, a composite's tint and opacity multiply its parts and those blend modes
    /// draw with their nearest fixed-function state.
    pub layers: bool,
    /// Merge the batches of characters that share a rig, a z and render layers into shared
    /// meshes (`crowd.rs`; default: true): a crowd in rows draws in a few draws per row.
    pub merge: bool,
}

impl Default for SinewSettings {
    fn default() -> Self {
        SinewSettings {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(8)),
            update_hidden: true,
            first_render_layer: 32,
            layers: true,
            merge: true,
        }
    }
}

/// What the plugin's systems did in the last frame (for a HUD, and the overhead figures of
/// docs/PERFORMANCE.md).
///
/// Owner: [`update_characters`] and [`crate::draw::draw_characters`] write it each frame.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct SinewStats {
    /// Characters updated.
    pub characters: usize,
    /// Wall time of [`update_characters`] (every character updated on the pool, draw lists
    /// built, events written).
    pub update: std::time::Duration,
    /// Batches (draw calls) written into meshes.
    pub batches: usize,
    /// Wall time of [`crate::draw::draw_characters`] (batches built and written into meshes).
    pub draw: std::time::Duration,
}

/// sinew's thread pool, with the characters lent to it during an update.
///
/// Owner: the plugin; only [`update_characters`] uses it.
#[derive(Resource, Default)]
pub struct SinewPool {
    pool: Pool<Arc<Mutex<Character>>>,
}

/// Builds characters whose rig has loaded (running their queued commands) and rebuilds
/// those whose rig reloaded on the new rig. First in [`crate::SinewSystems::Update`], so
/// a character is controlled and placed in the frame it is built.
pub fn build_characters(
    rigs: Res<Assets<SinewRig>>,
    mut reloads: MessageReader<AssetEvent<SinewRig>>,
    mut characters: Query<&mut SinewCharacter>,
) {
    for e in reloads.read() {
        if let AssetEvent::Modified { id } = e {
            for mut c in &mut characters {
                if c.rig.id() == *id && c.character.is_some() {
                    c.stale = true;
                }
            }
        }
    }
    for mut c in &mut characters {
        let c = &mut *c;
        if c.character.is_some() && !c.stale {
            continue;
        }
        let Some(rig) = rigs.get(&c.rig) else {
            continue;
        };
        let mut fresh = rig.character();
        // Posed once at the setup pose (a frame of 0 s, before any command, so no event is
        // lost), so bone targets and reads in the frame it is built see real transforms.
        fresh.update(0.0);
        if let Some(old) = c.character.take() {
            let old = old.lock().unwrap_or_else(PoisonError::into_inner);
            carry_over(&old, &mut fresh);
        }
        for command in c.commands.drain(..) {
            command(&mut fresh);
        }
        c.character = Some(Arc::new(Mutex::new(fresh)));
        c.stale = false;
    }
}

/// Updates every character by this frame's virtual time on sinew's pool (draw lists built
/// there too) and writes their events as [`SinewEvent`]s.
pub fn update_characters(
    time: Res<Time>,
    settings: Res<SinewSettings>,
    mut pool: ResMut<SinewPool>,
    characters: Query<(Entity, &SinewCharacter, &InheritedVisibility)>,
    mut events: MessageWriter<SinewEvent>,
    mut stats: ResMut<SinewStats>,
) {
    let start = std::time::Instant::now();
    let dt = time.delta_secs_f64();
    {
        let mut members = pool.pool.members_mut();
        members.clear();
        for (_, c, visible) in &characters {
            if !visible.get() && !settings.update_hidden {
                continue;
            }
            if let Some(shared) = &c.character {
                members.push(shared.clone());
            }
        }
    }
    pool.pool.set_build_draw_lists(true);
    stats.characters = pool.pool.members().len();
    if let Err(e) = pool.pool.update(dt, settings.threads) {
        error!("sinew: {e}");
    }
    // The clones go: each character's Arc is unique again for `SinewCharacter::character`.
    pool.pool.members_mut().clear();
    for (entity, c, visible) in &characters {
        if !visible.get() && !settings.update_hidden {
            continue; // not updated: its events were sent when it was
        }
        c.read(|ch| {
            let rig = ch.rig();
            for ev in ch.events() {
                let animation = rig
                    .clips
                    .get(ev.clip.index())
                    .map(|k| k.name.clone())
                    .unwrap_or_default();
                let name = match &ev.kind {
                    StateEventKind::Event(f) => {
                        rig.events.get(f.event.index()).map(|d| d.name.clone())
                    }
                    _ => None,
                };
                events.write(SinewEvent {
                    entity,
                    event: *ev,
                    animation,
                    name,
                });
            }
        });
    }
    stats.update = start.elapsed();
}

/// What a rebuilt character keeps of the old one (hot reload), by name.
fn carry_over(old: &Character, new: &mut Character) {
    let (old_rig, state) = (old.rig(), old.state());
    for track in 0..state.track_count() {
        let Some(entry) = state.current(track).and_then(|id| state.entry(id)) else {
            continue;
        };
        let Some(clip) = old_rig.clips.get(entry.clip.index()) else {
            continue;
        };
        if let Ok(id) = new.set_animation(track, clip.name.as_str(), entry.looping)
            && let Some(e) = new.state_mut().entry_mut(id)
        {
            e.track_time = entry.track_time;
            e.time_scale = entry.time_scale;
        }
    }
    let skins: Vec<&str> = old
        .skins()
        .iter()
        .filter_map(|s| old_rig.skins.get(s.index()).map(|k| k.name.as_str()))
        .collect();
    if !skins.is_empty() {
        // A skin the new rig lacks leaves the new rig's default.
        let _ = new.set_skins(&skins);
    }
    new.set_time_scale(old.time_scale());
    new.set_paused(old.paused());
    for (i, p) in old.params().iter().enumerate() {
        if let Some(v) = u16::try_from(i)
            .ok()
            .and_then(|i| old.param(sinew::ParamId(i)))
        {
            let _ = new.set_param(p.name.as_str(), v);
        }
    }
}
