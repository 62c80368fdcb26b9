//! Puts an atlas's real regions into a built rig (spine-ts `AtlasAttachmentLoader`).
//!
//! Every region and mesh attachment (one region per sequence frame) looks its region up by
//! name, then region corner offsets/UVs and mesh UVs are recomputed for trimmed and rotated
//! regions ([`sinew::build::region`]). Verified by `tests/atlas.rs` (spineboy binds; a
//! rotated region's quad UVs and a mesh's UVs checked against the official formulas).

use super::Atlas;
use crate::error::LoadError;
use sinew::build::BuildProblem;
use sinew::rig::Rig;

/// Re-binds a built rig to `atlas` (a texture swap to an atlas with the same region
/// names): every region/mesh attachment's texture regions are replaced and their geometry
/// and UVs recomputed ([`sinew::build::region::bind_regions`]). Loading binds the first
/// atlas in the builder ([`sinew::build::BuildInputs::regions`]). Fails on the first region
/// the atlas lacks, naming it.
pub fn bind_atlas(rig: &mut Rig, atlas: &Atlas) -> Result<(), LoadError> {
    sinew::build::region::bind_regions(rig, &atlas.by_name()).map_err(|p| missing(&p))
}

/// The [`LoadError::MissingRegion`] for a [`sinew::build::region::bind_regions`] problem
/// (its item is "attachment `NAME`", its name the region).
pub(crate) fn missing(p: &BuildProblem) -> LoadError {
    let attachment = p
        .item
        .strip_prefix("attachment `")
        .and_then(|s| s.strip_suffix('`'))
        .unwrap_or(&p.item);
    LoadError::MissingRegion {
        region: p.name.clone().unwrap_or_default(),
        attachment: attachment.to_owned(),
    }
}

/// Whether a build problem is an atlas region the atlas lacks (from `bind_regions`).
pub(crate) fn is_missing_region(p: &BuildProblem) -> bool {
    p.message.starts_with("unknown atlas region")
}
