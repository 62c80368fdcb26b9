//! Spine 4.3 track entry options on the facade: additive tracks, `keepHold` and
//! `mixInterpolation` ([`EntryOptions`], posed by the animation stage as spine-core 4.3.13).

use super::{Character, CharacterError};
use crate::anim::EntryId;
use crate::anim::state::EntryOptions;
use crate::types::SpineRuntime;

impl Character {
    /// Sets a track entry's Spine 4.3 options (`TrackEntry.additive`, `keepHold`,
    /// `mixInterpolation`; see [`EntryOptions`]), e.g. on the entry
    /// [`Character::set_animation`] returned. Set `additive` before the next update, as
    /// Spine 4.3 asks.
    ///
    /// A Spine 4.2 rig takes `keep_hold` and `mix_interpolation` (the same rules; 4.2
    /// itself mixes linearly) but not `additive`: 4.2's additive blend is another
    /// arithmetic (the entry's [`crate::anim::TrackEntry::mix_blend`] `Add`). Errors: an
    /// entry that has ended ([`CharacterError::ForeignId`]), `additive` on a rig that is not
    /// Spine 4.3, or a DragonBones entry ([`CharacterError::OutOfRange`]).
    ///
    /// ```
    /// use sinew::Character;
    /// use sinew::anim::state::{EntryOptions, MixInterpolation};
    /// use sinew::raw::{RawBone, RawClip, RawRig};
    /// use sinew::types::SpineRuntime;
    /// use std::sync::Arc;
    ///
    /// let mut raw = RawRig::default();
    /// raw.bones.push(RawBone::new("root", None));
    /// for name in ["walk", "wave"] {
    ///     raw.clips.push(RawClip { name: name.into(), ..Default::default() });
    /// }
    /// raw.runtime = SpineRuntime::V43;
    /// let mut c = Character::new(Arc::new(sinew::build::build_rig(&raw)?));
    /// c.set_animation(0, "walk", true)?;
    /// let wave = c.set_animation(1, "wave", true)?;
    /// let additive = EntryOptions { additive: true, ..Default::default() };
    /// c.set_entry_options(wave, additive)?; // wave adds to walk
    /// assert!(c.entry_options(wave).is_some_and(|o| o.additive));
    /// c.update(1.0 / 60.0);
    ///
    /// // A 4.2 rig takes the mix curve, not 4.3's additive.
    /// raw.runtime = SpineRuntime::V42;
    /// let mut c = Character::new(Arc::new(sinew::build::build_rig(&raw)?));
    /// let walk = c.set_animation(0, "walk", true)?;
    /// let smooth = EntryOptions { mix_interpolation: MixInterpolation::Smooth, ..Default::default() };
    /// c.set_entry_options(walk, smooth)?;
    /// assert!(c.set_entry_options(walk, additive).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_entry_options(
        &mut self,
        entry: EntryId,
        options: EntryOptions,
    ) -> Result<(), CharacterError> {
        let Some(e) = self.state.entry(entry) else {
            return Err(CharacterError::ForeignId {
                kind: "track entry",
                index: entry.index as usize,
            });
        };
        if e.dragonbones_plays().is_some() {
            return Err(CharacterError::OutOfRange {
                what: "Spine 4.3 track options",
                allowed: "set on Spine entries only (this one plays a DragonBones clip)",
            });
        }
        if options.additive && self.rig.runtime != SpineRuntime::V43 {
            return Err(CharacterError::OutOfRange {
                what: "additive (a Spine 4.3 track option)",
                allowed: "false for a rig that is not Spine 4.3 (Spine 4.2's additive is the \
                          entry's mix_blend Add)",
            });
        }
        self.state.set_entry_options(entry, options);
        Ok(())
    }

    /// A track entry's Spine 4.3 options; `None` for an entry that has ended.
    pub fn entry_options(&self, entry: EntryId) -> Option<EntryOptions> {
        self.state.entry(entry).map(|e| e.options())
    }
}
