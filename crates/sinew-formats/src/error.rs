//! The loaders' error type: every message names the file, where in it, and the culprit.
//!
//! Verified by the bad-input tests in `tests/all/errors.rs`, which assert that the JSON path and
//! the offending name appear in each message.

use crate::budget::{BudgetError, Budgets};
use crate::json::JsonIssue;
use crate::load::Format;
use sinew::build::{BuildError, BuildProblem};

/// Why a file could not be loaded.
///
/// Owner: the loaders (`sinew-formats`), at load time. Each kind is its own variant (a
/// caller never needs the message text to tell them apart); the builder's problems stay
/// typed ([`LoadError::Build`], [`LoadError::MissingRegion`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    #[error("{file}: {source}")]
    Io {
        /// File name.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The text is not valid JSON.
    #[error("{file}: invalid JSON at line {line}, column {column}: {message}")]
    Syntax {
        /// File name.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the JSON parser said.
        message: String,
    },
    /// The file was written by a Spine version sinew does not read.
    #[error("{file}: unsupported Spine version {version} (sinew reads 4.2 and 4.3)")]
    Version {
        /// File name.
        file: String,
        /// The `skeleton.spine` string.
        version: String,
    },
    /// Valid JSON whose content is wrong (a bad type, an unknown name, a count that
    /// disagrees with the data, a limit exceeded).
    #[error("{file}: {path}{}: {issue}", name_suffix(.name))]
    Invalid {
        /// File name.
        file: String,
        /// JSON path of the offending value, e.g. `$.slots[3]`.
        path: String,
        /// Name of the item the path is in, when it has one.
        name: Option<String>,
        /// What is wrong, typed (what was expected and found, a missing or unknown key, a
        /// rig problem, ...).
        issue: JsonIssue,
    },
    /// A Spine binary (`.skel`) file whose bytes are wrong: truncated, a count larger than
    /// the bytes left, an index out of range, an unknown kind.
    #[error("{file}: byte {offset}: {what}: {message}")]
    Binary {
        /// File name.
        file: String,
        /// Byte offset of the offending value.
        offset: usize,
        /// What was being read, e.g. ``animation `run`, timeline 3 (bone `hip`)``.
        what: String,
        /// What is wrong.
        message: String,
    },
    /// A malformed `.atlas` line.
    #[error("{file}: line {line}: {message}")]
    Atlas {
        /// File name.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Rig extras or physics settings that do not fit the rig they are loaded with.
    #[error("{file}: {message}")]
    Rig {
        /// File name (the extras or physics3 file).
        file: String,
        /// What is wrong.
        message: String,
    },
    /// A skeleton whose rig does not build: the builder's problems, typed.
    #[error("{file}: {}", build_message(.error))]
    Build {
        /// File name.
        file: String,
        /// Every problem the builder found.
        error: BuildError,
    },
    /// The atlas given with a skeleton lacks a region an attachment needs: the builder's
    /// [`sinew::build::ProblemKind::UnknownName`] problem, whose `item` is the attachment and
    /// `name` the region.
    #[error("{}atlas has no region `{}` ({} of {skeleton})", prefix(.atlas), .problem.name.as_deref().unwrap_or(""), .problem.item)]
    MissingRegion {
        /// Atlas file name (`None`: an atlas bound by [`crate::bind_atlas`], which has none).
        atlas: Option<String>,
        /// Skeleton file name.
        skeleton: String,
        /// The binding problem.
        problem: Box<BuildProblem>,
    },
    /// An atlas page image that the companion source does not have.
    #[error("texture not found: {file} (atlas {atlas} lists pages: {})", .pages.join(", "))]
    MissingPage {
        /// The page image, as the companion source names it.
        file: String,
        /// The atlas file.
        atlas: String,
        /// Every page the atlas lists.
        pages: Vec<String>,
    },
    /// An input over one of the [`Budgets`] of the load.
    #[error("{file}: {error}")]
    Budget {
        /// File name.
        file: String,
        /// The budget, what asked and how much.
        error: BudgetError,
    },
    /// A path that is not a regular file (a folder, a FIFO, a device): only regular files are
    /// read.
    #[error("{file}: not a regular file ({kind}): only regular files are read")]
    NotAFile {
        /// File name.
        file: String,
        /// What it is instead (`a folder`, `a FIFO`, `a device`, ...).
        kind: &'static str,
    },
    /// The main file is not a rig sinew reads; [`crate::detect`] says what it is.
    #[error("{file}: {}, not a Spine or DragonBones skeleton, not an Inochi2D puppet", .found.describe())]
    NotARig {
        /// File name.
        file: String,
        /// What the content is.
        found: Format,
    },
    /// A format-specific entry point ([`crate::load_spine`], ...) given another format.
    #[error("{file}: {}, not {expected}", .found.describe())]
    WrongFormat {
        /// File name.
        file: String,
        /// What the content is.
        found: Format,
        /// What the entry point loads (`a Spine skeleton`, ...).
        expected: &'static str,
    },
    /// A load option that does not apply to the main file's format.
    #[error("{file}: `LoadOptions::{option}` does not apply to {}", .found.describe())]
    NotApplicable {
        /// File name.
        file: String,
        /// The option (`physics3`, `armature`).
        option: &'static str,
        /// The main file's format.
        found: Format,
    },
}

impl LoadError {
    /// The builder's problems, when the rig did not build or an atlas lacked a region.
    pub fn build_problems(&self) -> &[BuildProblem] {
        match self {
            LoadError::Build { error, .. } => &error.problems,
            LoadError::MissingRegion { problem, .. } => std::slice::from_ref(&**problem),
            _ => &[],
        }
    }
}

/// How a [`LoadError::Build`] reads: a puppet's parameter problems as themselves
/// ("parameter `x`: ..."), skeleton problems as an invalid rig.
fn build_message(e: &BuildError) -> String {
    if !e.problems.is_empty() && e.problems.iter().all(|q| q.item == "parameters") {
        let messages: Vec<&str> = e.problems.iter().map(|q| q.message.as_str()).collect();
        messages.join("; ")
    } else {
        format!("invalid rig: {e}")
    }
}

fn prefix(file: &Option<String>) -> String {
    file.as_ref().map(|f| format!("{f}: ")).unwrap_or_default()
}

fn name_suffix(name: &Option<String>) -> String {
    match name {
        Some(n) => format!(" (`{n}`)"),
        None => String::new(),
    }
}

/// Reads a text file, naming it (as `file`) in the error: only a regular file within the
/// default `file_bytes` budget ([`crate::budget`]); a UTF-8 byte order mark is dropped.
pub(crate) fn read_text(path: &std::path::Path, file: &str) -> Result<String, LoadError> {
    crate::budget::read_input_text(path, file, &Budgets::DEFAULT)
}

/// Parses JSON text, naming `source` and the line and column in the error.
/// The text is first checked against the `json_values` budget of `budgets` (a leading byte
/// order mark is skipped), and the parsed document may hold no number of magnitude
/// [`crate::budget::MAX_MAGNITUDE`] or more.
pub(crate) fn parse_json(
    text: &str,
    source: &str,
    budgets: &Budgets,
) -> Result<serde_json::Value, LoadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    crate::budget::check_json(text.as_bytes(), source, budgets)?;
    let v = serde_json::from_str(text).map_err(|e| LoadError::Syntax {
        file: source.to_owned(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    crate::budget::check_magnitudes(&v, source)?;
    Ok(v)
}
