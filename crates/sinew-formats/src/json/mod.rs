//! The one JSON reader of every JSON format sinew-formats reads: Spine 4.2 JSON, DragonBones
//! `_ske.json`/`_tex.json`, Inochi2D's JSON payload, rig extras and Cubism physics3.
//!
//! - [`Loc`] tracks where a value is (`$.skins[2].attachments.head.vertices[14]`) and the
//!   innermost named item on the way; it costs nothing until a problem renders it.
//! - [`Problem`] is every JSON loader's one problem type: the path, the offending name where
//!   there is one, and a typed [`JsonIssue`] (what was expected and what was found, a missing
//!   or unknown key, a value out of range, a rig problem); [`Problem::into_error`] attaches
//!   the file and gives [`LoadError::Invalid`].
//! - The getters (`get.rs`) read members the way Spine's official loader does: absent or
//!   `null` takes the default, a value of the wrong type is an error. Formats whose official
//!   runtimes read otherwise say so by using the `lenient` set: DragonBones' parser coerces
//!   booleans, numbers and strings into each other, Inochi2D keeps a default where a value is
//!   unreadable.
//!
//! The Spine binary reader (`spine/binary/reader.rs`) is not JSON: it locates problems by
//! byte offset and reports [`LoadError::Binary`]. Verified by the unit tests in `tests.rs`
//! and the bad-input tests in `tests/all/errors.rs`.

mod get;
mod issue;
pub(crate) mod lenient;
mod loc;
#[cfg(test)]
mod tests;

pub(crate) use get::*;
pub use issue::JsonIssue;
pub(crate) use loc::Loc;

use crate::LoadError;
use serde_json::{Map, Value};

/// A JSON object.
pub(crate) type Obj = Map<String, Value>;

/// A problem in a JSON document before the file name is attached: where, which item, what.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Problem {
    /// Rendered JSON path (`$.slots[3]`).
    pub path: String,
    /// Innermost named item on the path (the offending name, where there is one).
    pub name: Option<String>,
    /// What is wrong.
    pub issue: JsonIssue,
}

/// Result of the JSON readers (boxed so results stay one word wide).
pub(crate) type R<T> = Result<T, Box<Problem>>;

impl Problem {
    /// A problem at a path rendered by the caller (readers that build their own paths).
    pub fn at(
        path: impl Into<String>,
        name: Option<&str>,
        issue: impl Into<JsonIssue>,
    ) -> Box<Self> {
        Box::new(Problem {
            path: path.into(),
            name: name.map(str::to_owned),
            issue: issue.into(),
        })
    }

    /// The [`LoadError::Invalid`] of this problem in `file`.
    pub fn into_error(self, file: &str) -> LoadError {
        LoadError::Invalid {
            file: file.to_owned(),
            path: self.path,
            name: self.name,
            issue: self.issue,
        }
    }
}

/// A closure turning a boxed [`Problem`] into the [`LoadError`] of `file` (for `map_err`).
pub(crate) fn in_file(file: &str) -> impl Fn(Box<Problem>) -> LoadError + '_ {
    move |p| p.into_error(file)
}
