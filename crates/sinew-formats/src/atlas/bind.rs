//! Puts an atlas's real regions into a built rig (spine-ts `AtlasAttachmentLoader`).
//!
//! Every region and mesh attachment (one region per sequence frame) looks its region up by
//! name, then region corner offsets/UVs and mesh UVs are recomputed for trimmed and rotated
//! regions ([`sinew::build::region`]). Verified by `tests/atlas.rs` (spineboy binds; a
//! rotated region's quad UVs and a mesh's UVs checked against the official formulas).

use super::Atlas;
use crate::error::LoadError;
use sinew::build::region::{update_mesh_attachment, update_region_attachment};
use sinew::rig::{AttachmentKind, Rig, TextureRegion};

/// Replaces every region/mesh attachment's texture regions by `atlas`'s and recomputes
/// their geometry and UVs. Fails on the first region the atlas lacks, naming it.
pub fn bind_atlas(rig: &mut Rig, atlas: &Atlas) -> Result<(), LoadError> {
    let index = atlas.region_index();
    let lookup = |regions: &mut [TextureRegion], attachment: &str| -> Result<(), LoadError> {
        for r in regions.iter_mut() {
            match index.get(r.name.as_str()) {
                Some(&i) => *r = atlas.regions[i].texture_region(),
                None => {
                    return Err(LoadError::MissingRegion {
                        region: r.name.clone(),
                        attachment: attachment.to_owned(),
                    });
                }
            }
        }
        Ok(())
    };
    let page_size = |page: u32| {
        atlas
            .pages
            .get(page as usize)
            .map(|p| (f64::from(p.width), f64::from(p.height)))
    };
    for att in &mut rig.attachments {
        match &mut att.kind {
            AttachmentKind::Region(r) => {
                lookup(&mut r.regions, &att.name)?;
                update_region_attachment(r);
            }
            AttachmentKind::Mesh(m) => {
                lookup(&mut m.regions, &att.name)?;
                update_mesh_attachment(m, page_size);
            }
            _ => {}
        }
    }
    Ok(())
}
