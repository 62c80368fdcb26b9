//! Typed build diagnostics: what kind of problem, which item it is about and the offending
//! name, so tools (validate, lint, editors) can sort, filter and point at them; `Display`
//! gives the one-line message ("slot `head`: unknown bone `jaw`"). The builder
//! (`crate::build`) and the builders of the stages' own data (parameters, deformers, jiggle
//! bones, follows) all report these.
//!
//! Layer: data (the builder and the stages' builders produce it; re-exported as
//! `sinew::build::{BuildError, BuildProblem, ...}`).

/// What kind of problem a [`BuildProblem`] is.
///
/// Owner: the builder (`build`), at load time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
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

/// Which part of the build found a [`BuildProblem`]: the rig itself, its atlas binding, or
/// one of the builders that resolve by-name data against a built rig.
///
/// Owner: the builder (`build`), at load time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum BuildPart {
    /// Bones, slots, constraints, skins, attachments, events, clips ([`crate::build::build_rig`]).
    #[default]
    Skeleton,
    /// Binding the attachments' regions to an atlas ([`crate::build::region::bind_regions`]).
    Atlas,
    /// Parameters, their bindings and physics chains ([`crate::params::build::build_params`]).
    Params,
    /// Deformers and their bindings ([`crate::deformer::build_deformers`]).
    Deformers,
    /// Jiggle bones and colliders ([`crate::physics::jiggle::JiggleRig::build`]).
    Jiggle,
    /// Delayed follows ([`crate::physics::follow::FollowRig::build`]).
    Follow,
    /// Cages declared by name ([`crate::character::cage_rig::CageRig::build`]).
    Cages,
    /// Example shapes declared by name ([`crate::character::shape_rig::ShapeRig::build`]).
    Shapes,
}

/// Which numbered element of its item a [`BuildProblem`] is about, so a loader can point at
/// it in its own file (a physics3 setting's `Input[2]`) without reading the message.
///
/// Owner: the builder (`build`), at load time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Element {
    /// A physics chain's input, by index.
    ChainInput(usize),
    /// A physics chain's output, by index.
    ChainOutput(usize),
    /// A physics chain's particle, by index.
    ChainParticle(usize),
    /// A declared cage, by its index in the list given to the builder.
    Cage(usize),
    /// A declared shape set, by its index in the list given to the builder.
    ShapeSet(usize),
    /// A declared world-space deformer, by its index in the list given to the builder.
    #[cfg(feature = "rig-deformers")]
    Deformer(usize),
}

/// One problem found while building a rig or resolving by-name data against one.
///
/// Owner: the builder (`build`), at load time.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildProblem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// Which part of the build found it.
    pub part: BuildPart,
    /// The item it is about, as the source names it ("bone `arm`", "skin `default` slot
    /// `head` attachment `eyes`", "animation `run`"); empty for whole-rig problems.
    pub item: String,
    /// The offending name, for [`ProblemKind::UnknownName`] and
    /// [`ProblemKind::DuplicateName`] (the name that was not found or is repeated).
    pub name: Option<String>,
    /// The numbered element of the item it is about, when it is about one.
    pub element: Option<Element>,
    /// What is wrong, in words.
    pub message: String,
}

impl BuildProblem {
    /// A problem of `kind` about `item`.
    pub fn new(kind: ProblemKind, item: impl Into<String>, message: impl Into<String>) -> Self {
        BuildProblem {
            part: BuildPart::Skeleton,
            kind,
            item: item.into(),
            name: None,
            element: None,
            message: message.into(),
        }
    }

    /// `item` refers to a `what` called `name` that does not exist.
    pub fn unknown(item: impl Into<String>, what: &str, name: &str) -> Self {
        BuildProblem {
            part: BuildPart::Skeleton,
            kind: ProblemKind::UnknownName,
            item: item.into(),
            name: Some(name.to_owned()),
            element: None,
            message: format!("unknown {what} `{name}`"),
        }
    }

    /// `item` (called `name`) repeats a name already used by another `what`.
    pub fn duplicate(item: impl Into<String>, name: &str, message: impl Into<String>) -> Self {
        BuildProblem {
            part: BuildPart::Skeleton,
            kind: ProblemKind::DuplicateName,
            item: item.into(),
            name: Some(name.to_owned()),
            element: None,
            message: message.into(),
        }
    }
}

impl BuildProblem {
    /// A [`ProblemKind::Value`] problem about `item`, found by `part`.
    pub(crate) fn value(
        part: BuildPart,
        item: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        BuildProblem::new(ProblemKind::Value, item, message).in_part(part)
    }

    /// This problem, found by `part` of the build.
    pub fn in_part(mut self, part: BuildPart) -> Self {
        self.part = part;
        self
    }

    /// This problem, about the numbered `element` of its item.
    pub fn at_element(mut self, element: Element) -> Self {
        self.element = Some(element);
        self
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

/// Every problem found while building a rig.
///
/// Owner: the builder (`build`), at load time.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildError {
    /// Every problem, one per item; each displays as one line ("slot `head`: unknown bone
    /// `jaw`").
    pub problems: Vec<BuildProblem>,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.problems.as_slice() {
            [one] => write!(f, "{one}"),
            many => {
                write!(f, "{} problems: ", many.len())?;
                for (i, p) in many.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for BuildError {}

impl BuildError {
    /// An error holding `problems` (none empty: a build with no problem succeeds).
    pub(crate) fn from_problems(problems: Vec<BuildProblem>) -> Self {
        BuildError { problems }
    }
}
