//! Puts an atlas's real regions into a built rig (spine-ts `AtlasAttachmentLoader`).
//!
//! Every region and mesh attachment (one region per sequence frame) looks its region up by
//! name, then region corner offsets/UVs and mesh UVs are recomputed for trimmed and rotated
//! regions ([`sinew::build::region`]). Verified by `tests/all/atlas.rs` (spineboy binds; a
//! rotated region's quad UVs and a mesh's UVs checked against the official formulas).

use super::Atlas;
use crate::error::LoadError;
use sinew::rig::Rig;

/// Re-binds a built rig to `atlas` (a texture swap to an atlas with the same region
/// names): every region/mesh attachment's texture regions are replaced and their geometry
/// and UVs recomputed ([`sinew::build::region::bind_regions`]). Loading binds the first
/// atlas after the build ([`crate::load`]). Fails on the first region the atlas lacks:
/// a [`LoadError::MissingRegion`] (the skeleton named by the rig's source) carrying the builder's problem, which names the attachment and the region.
pub fn bind_atlas(rig: &mut Rig, atlas: &Atlas) -> Result<(), LoadError> {
    sinew::build::region::bind_regions(rig, &atlas.by_name()).map_err(|problem| {
        LoadError::MissingRegion {
            atlas: None,
            skeleton: rig.source.clone(),
            problem: Box::new(problem),
        }
    })
}
