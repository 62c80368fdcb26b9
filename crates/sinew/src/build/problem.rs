//! Typed build diagnostics: what kind of problem, which item it is about and the offending
//! name, so tools (validate, lint, editors) can sort, filter and point at them; `Display`
//! gives the one-line message ("slot `head`: unknown bone `jaw`").

/// What kind of problem a [`BuildProblem`] is.
///
/// Owner: the builder (`build`), at load time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// A reference to a bone, slot, skin, constraint, event or attachment that does not exist.
    UnknownName,
    /// Two items of one kind share a name (or a skin and slot share an attachment key).
    DuplicateName,
    /// More items than the rig's ids can hold.
    TooMany,
    /// Bones out of parent-first order, a bone its own parent, linked meshes in a cycle, IK
    /// bones that are not parent and child.
    Hierarchy,
    /// Vertex, weight, triangle, uv, hull, edge or sequence data that does not fit together.
    Geometry,
    /// Constraints whose global order Spine would never run.
    Order,
    /// A value out of its range (non-finite setup pose, a non-positive physics step, key
    /// data of the wrong length).
    Value,
}

/// One problem found while building a rig.
///
/// Owner: the builder (`build`), at load time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildProblem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// The item it is about, as the source names it ("bone `arm`", "skin `default` slot
    /// `head` attachment `eyes`", "animation `run`"); empty for whole-rig problems.
    pub item: String,
    /// The offending name, for [`ProblemKind::UnknownName`] and
    /// [`ProblemKind::DuplicateName`] (the name that was not found or is repeated).
    pub name: Option<String>,
    /// What is wrong, in words.
    pub message: String,
}

impl BuildProblem {
    /// A problem of `kind` about `item`.
    pub fn new(kind: ProblemKind, item: impl Into<String>, message: impl Into<String>) -> Self {
        BuildProblem {
            kind,
            item: item.into(),
            name: None,
            message: message.into(),
        }
    }

    /// `item` refers to a `what` called `name` that does not exist.
    pub fn unknown(item: impl Into<String>, what: &str, name: &str) -> Self {
        BuildProblem {
            kind: ProblemKind::UnknownName,
            item: item.into(),
            name: Some(name.to_owned()),
            message: format!("unknown {what} `{name}`"),
        }
    }

    /// `item` (called `name`) repeats a name already used by another `what`.
    pub fn duplicate(item: impl Into<String>, name: &str, message: impl Into<String>) -> Self {
        BuildProblem {
            kind: ProblemKind::DuplicateName,
            item: item.into(),
            name: Some(name.to_owned()),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for BuildProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.item.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.item, self.message)
        }
    }
}
