//! The loaders' error type: every message names the file, where in it, and the culprit.
//!
//! Verified by the bad-input tests in `tests/errors.rs`, which assert that the JSON path and
//! the offending name appear in each message.

/// Why a file could not be loaded.
///
/// Owner: the loaders (`sinew-formats`), at load time.
#[derive(Debug, thiserror::Error)]
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
    #[error("{file}: unsupported Spine version {version} (sinew reads 4.2)")]
    Version {
        /// File name.
        file: String,
        /// The `skeleton.spine` string.
        version: String,
    },
    /// Valid JSON whose content is wrong (a bad type, an unknown name, a count that
    /// disagrees with the data, a limit exceeded).
    #[error("{file}: {path}{}: {message}", name_suffix(.name))]
    Invalid {
        /// File name.
        file: String,
        /// JSON path of the offending value, e.g. `$.slots[3]`.
        path: String,
        /// Name of the item the path is in, when it has one.
        name: Option<String>,
        /// What is wrong.
        message: String,
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
    /// A skeleton whose rig does not build, or extras that do not fit the rig.
    #[error("{file}: {message}")]
    Rig {
        /// File name.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The atlas given with a skeleton lacks a region an attachment needs.
    #[error("{atlas}: atlas has no region `{region}` (attachment `{attachment}` of {skeleton})")]
    AtlasMissing {
        /// Atlas file name.
        atlas: String,
        /// Skeleton file name.
        skeleton: String,
        /// Region name looked up.
        region: String,
        /// Attachment that needs it.
        attachment: String,
    },
    /// An attachment names an atlas region the atlas lacks.
    #[error("atlas has no region `{region}` (attachment `{attachment}`)")]
    MissingRegion {
        /// Region name looked up.
        region: String,
        /// Attachment that needs it.
        attachment: String,
    },
}

fn name_suffix(name: &Option<String>) -> String {
    match name {
        Some(n) => format!(" (`{n}`)"),
        None => String::new(),
    }
}

/// Reads a text file, naming it (as `file`) in the error: only a regular file within the
/// `file_bytes` budget ([`crate::budget`]); a UTF-8 byte order mark is dropped.
pub(crate) fn read_text(path: &std::path::Path, file: &str) -> Result<String, LoadError> {
    crate::budget::read_input_text(path, file)
}

/// Parses JSON text, naming `source` and the line and column in the error.
/// The text is first checked against the `json_values` budget (a leading byte order mark is
/// skipped), and the parsed document may hold no number of magnitude
/// [`crate::budget::MAX_MAGNITUDE`] or more.
pub(crate) fn parse_json(text: &str, source: &str) -> Result<serde_json::Value, LoadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    crate::budget::check_json(text.as_bytes(), source)?;
    let v = serde_json::from_str(text).map_err(|e| LoadError::Syntax {
        file: source.to_owned(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    crate::budget::check_magnitudes(&v, source)?;
    Ok(v)
}
