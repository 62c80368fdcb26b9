//! The mix table (Spine `AnimationStateData`): crossfade durations per pair of clips and a
//! default, shared by every [`super::AnimationState`] of a rig through an `Arc`.
//!
//! Owned by the animation stage (`anim::state`). Verified by the unit tests below and by
//! `character` tests that share one table between two characters.

use crate::ids::ClipId;

/// Crossfade durations in seconds: one per (from, to) clip pair, else `default_mix`.
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MixTable {
    /// Mix duration used for pairs the table does not list, seconds.
    pub default_mix: f64,
    /// `(from, to, seconds)`, sorted by `(from, to)`.
    pairs: Vec<(ClipId, ClipId, f64)>,
}

impl MixTable {
    /// An empty table with a default mix duration (seconds).
    ///
    /// ```
    /// use sinew::anim::state::MixTable;
    /// use sinew::ClipId;
    /// let mut t = MixTable::new(0.2);
    /// t.set(ClipId(0), ClipId(1), 0.5);
    /// assert_eq!(t.get(ClipId(0), ClipId(1)), 0.5);
    /// assert_eq!(t.get(ClipId(1), ClipId(0)), 0.2);
    /// ```
    pub fn new(default_mix: f64) -> Self {
        MixTable {
            default_mix,
            pairs: Vec::new(),
        }
    }

    /// Sets the crossfade duration from one clip to another (Spine `setMix`).
    pub fn set(&mut self, from: ClipId, to: ClipId, seconds: f64) {
        match self.pairs.binary_search_by(|m| (m.0, m.1).cmp(&(from, to))) {
            Ok(i) => self.pairs[i].2 = seconds,
            Err(i) => self.pairs.insert(i, (from, to, seconds)),
        }
    }

    /// The listed duration of a pair, if any.
    pub fn pair(&self, from: ClipId, to: ClipId) -> Option<f64> {
        self.pairs
            .binary_search_by(|m| (m.0, m.1).cmp(&(from, to)))
            .ok()
            .map(|i| self.pairs[i].2)
    }

    /// The crossfade duration from one clip to another (Spine `getMix`).
    pub fn get(&self, from: ClipId, to: ClipId) -> f64 {
        self.pair(from, to).unwrap_or(self.default_mix)
    }

    /// Every listed pair, sorted by `(from, to)`.
    pub fn pairs(&self) -> &[(ClipId, ClipId, f64)] {
        &self.pairs
    }
}
