//! Why a [`super::Character`] call was refused: a name the rig lacks, or an id that is not
//! one of the rig's (out of range: from another rig, or made up), or a value that is not
//! finite.

/// A refused [`super::Character`] call. Nothing in the character changed.
///
/// Owner: the facade (`Character`), which runs every stage. New kinds of refusal may be
/// added, so a `match` needs a catch-all arm.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CharacterError {
    /// No item of this kind has this name (`kind` is "bone", "slot", "skin", ...). The
    /// message lists the names the rig has, so a typo shows its fix.
    UnknownName {
        /// What was looked up.
        kind: &'static str,
        /// The name given.
        name: String,
        /// The names of this kind the rig has, in id order.
        known: Vec<String>,
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
    /// A value outside what the setting allows.
    OutOfRange {
        /// Which setting.
        what: &'static str,
        /// What it allows.
        allowed: &'static str,
    },
    /// A cage could not be bound ([`Character::bind_cage`](super::Character::bind_cage)).
    Cage(crate::cage::CageError),
    /// The slot does not show the mesh to bind (the pose has none of its vertices).
    MeshNotShown {
        /// The slot's name.
        slot: String,
    },
    /// A single value given for a two-axis parameter.
    ParamAxes {
        /// The parameter's name.
        name: String,
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
            CharacterError::UnknownName { kind, name, known } => {
                write!(f, "{kind} not found: `{name}`")?;
                write_known(f, kind, known)
            }
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
            CharacterError::OutOfRange { what, allowed } => {
                write!(f, "{what} must be {allowed}")
            }
            CharacterError::Cage(e) => write!(f, "the cage could not be bound: {e}"),
            CharacterError::MeshNotShown { slot } => write!(
                f,
                "slot `{slot}` does not show the mesh to bind: show it and update first"
            ),
            CharacterError::ParamAxes { name } => write!(
                f,
                "parameter `{name}` has two axes: give [x, y], not a single value"
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

/// How many known names a message lists before "and N more".
const LISTED_NAMES: usize = 24;

/// "; this rig's bones: a, b, c" (at most [`LISTED_NAMES`]), or "; this rig has no bones".
fn write_known(f: &mut std::fmt::Formatter<'_>, kind: &str, known: &[String]) -> std::fmt::Result {
    if known.is_empty() {
        return write!(f, "; this rig has no {kind}s");
    }
    write!(f, "; this rig's {kind}s: ")?;
    for (i, n) in known.iter().take(LISTED_NAMES).enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        write!(f, "{sep}`{n}`")?;
    }
    if known.len() > LISTED_NAMES {
        write!(f, " and {} more", known.len() - LISTED_NAMES)?;
    }
    Ok(())
}

/// `Some(id)` for a known name, else [`CharacterError::UnknownName`] listing `known`
/// (called only on the error path, so the names are gathered only then).
pub(crate) fn named<'a, T, I: IntoIterator<Item = &'a str>>(
    kind: &'static str,
    name: &str,
    id: Option<T>,
    known: impl FnOnce() -> I,
) -> Result<T, CharacterError> {
    id.ok_or_else(|| CharacterError::UnknownName {
        kind,
        name: name.to_owned(),
        known: known().into_iter().map(str::to_owned).collect(),
    })
}
