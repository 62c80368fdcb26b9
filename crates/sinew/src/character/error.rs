//! Why a [`super::Character`] call was refused: a name the rig lacks, or an id that is not
//! one of the rig's (out of range: from another rig, or made up), or a value that is not
//! finite.

/// A refused [`super::Character`] call. Nothing in the character changed.
///
/// Owner: the facade (`Character`), which runs every stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CharacterError {
    /// No item of this kind has this name (`kind` is "bone", "slot", "skin", ...).
    UnknownName {
        /// What was looked up.
        kind: &'static str,
        /// The name given.
        name: String,
    },
    /// An id that is not one of this rig's (another rig's, or out of range).
    ForeignId {
        /// What kind of id.
        kind: &'static str,
        /// Its index.
        index: usize,
    },
    /// Data built for another rig (jiggle bones, follows).
    ForeignRig {
        /// What was given.
        what: &'static str,
    },
    /// A value that is not finite, or of magnitude `finite::MAX_INPUT` (1e30) or more.
    NotFinite {
        /// Which argument (`"parameter value"`, `"bone local x"`, ...).
        what: &'static str,
    },
    /// A track index from [`crate::anim::state::MAX_TRACKS`] on.
    TrackOutOfRange {
        /// The track given.
        track: usize,
    },
    /// The slot's skins have no attachment under this name.
    UnknownAttachment {
        /// Slot name.
        slot: String,
        /// Attachment name looked up.
        name: String,
    },
}

impl std::fmt::Display for CharacterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CharacterError::UnknownName { kind, name } => write!(f, "{kind} not found: {name}"),
            CharacterError::ForeignId { kind, index } => {
                write!(f, "{kind} id {index} is not one of this rig's")
            }
            CharacterError::ForeignRig { what } => {
                write!(f, "these {what} were built for another rig")
            }
            CharacterError::NotFinite { what } => {
                write!(f, "{what} must be finite and under 1e30 in magnitude")
            }
            CharacterError::TrackOutOfRange { track } => write!(
                f,
                "track {track} is out of range (tracks 0..{})",
                crate::anim::state::MAX_TRACKS
            ),
            CharacterError::UnknownAttachment { slot, name } => {
                write!(f, "slot `{slot}` has no attachment `{name}` in its skins")
            }
        }
    }
}

impl std::error::Error for CharacterError {}

/// `Ok(id)` when `index < len`, else [`CharacterError::ForeignId`].
pub(crate) fn check<T>(
    kind: &'static str,
    index: usize,
    len: usize,
    id: T,
) -> Result<T, CharacterError> {
    if index < len {
        Ok(id)
    } else {
        Err(CharacterError::ForeignId { kind, index })
    }
}

/// `Some(id)` for a known name, else [`CharacterError::UnknownName`].
pub(crate) fn named<T>(kind: &'static str, name: &str, id: Option<T>) -> Result<T, CharacterError> {
    id.ok_or_else(|| CharacterError::UnknownName {
        kind,
        name: name.to_owned(),
    })
}
