//! What is wrong with a value in a JSON file: the typed part of [`crate::LoadError::Invalid`].

use sinew::build::BuildProblem;

/// What is wrong with the value at a JSON path ([`crate::LoadError::Invalid`]).
///
/// Owner: the loaders (`sinew-formats`), at load time. Each kind is its own variant, so a
/// caller tells them apart without reading the message; `Display` gives the message.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum JsonIssue {
    /// A value of another JSON type than the format has there.
    WrongType {
        /// What the format has there (`a number`, `an array`, ...).
        expected: &'static str,
        /// What the file has (`a string`, `null`, ...).
        found: &'static str,
    },
    /// A required member is absent (the path is the object's).
    Missing {
        /// The member's key.
        key: String,
    },
    /// A member the format does not have (formats that refuse unknown keys: rig extras).
    UnknownKey {
        /// The key found.
        key: String,
        /// The keys the object may have.
        allowed: &'static [&'static str],
    },
    /// A value of the right type outside what the format allows.
    OutOfRange {
        /// What would do (`a whole number in 0..=255`).
        expected: String,
        /// The value found.
        found: f64,
    },
    /// A value that does not fit the rig it is loaded with: the builder's problem
    /// (physics3 chains resolved against a puppet's parameters).
    Rig(Box<BuildProblem>),
    /// Anything else (an unknown name, counts that disagree, a limit exceeded), in words.
    Other(String),
}

impl std::fmt::Display for JsonIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JsonIssue::WrongType { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            JsonIssue::Missing { key } => write!(f, "missing `{key}`"),
            JsonIssue::UnknownKey { key, allowed } => {
                write!(f, "unknown key `{key}` (allowed: {})", allowed.join(", "))
            }
            JsonIssue::OutOfRange { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            JsonIssue::Rig(p) => write!(f, "{p}"),
            JsonIssue::Other(s) => f.write_str(s),
        }
    }
}

impl From<String> for JsonIssue {
    fn from(s: String) -> Self {
        JsonIssue::Other(s)
    }
}

impl From<&str> for JsonIssue {
    fn from(s: &str) -> Self {
        JsonIssue::Other(s.to_owned())
    }
}

impl JsonIssue {
    /// A [`JsonIssue::OutOfRange`]: `expected` says what would do, `found` is the value.
    pub(crate) fn range(expected: impl Into<String>, found: f64) -> Self {
        JsonIssue::OutOfRange {
            expected: expected.into(),
            found,
        }
    }

    /// A [`JsonIssue::WrongType`] for the value `found`.
    pub(crate) fn wrong_type(expected: &'static str, found: &serde_json::Value) -> Self {
        JsonIssue::WrongType {
            expected,
            found: type_name(found),
        }
    }
}

/// A JSON value's type, for messages (`a number`, `null`, ...).
pub(crate) fn type_name(v: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
