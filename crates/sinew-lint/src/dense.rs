//! `rigid-dense-mesh` (info): a mesh of many vertices ([`crate::Tolerances::dense_vertices`],
//! 32) that follows a single bone and is never deformed (no deform timeline, no keyform
//! or deformer on its slot).
//!
//! The seed's reason: vertices cost in every frame (skinning, clipping, upload) and only
//! pay for themselves when the mesh bends; a rigid part should stay low-poly (a hull of a
//! few vertices to cut overdraw) or be a region.

use crate::weights::{attachment_path, skin_of};
use crate::{Finding, Options, Severity, Where};
use sinew::anim::TimelineKind;
use sinew::rig::AttachmentKind;
use sinew_formats::Asset;
use std::collections::HashSet;

/// Checks every mesh attachment.
pub fn check(asset: &Asset, options: &Options) -> Vec<Finding> {
    let rig = &*asset.rig;
    let mut deformed: HashSet<usize> = HashSet::new();
    for clip in &rig.clips {
        for tl in &clip.timelines {
            if let TimelineKind::Deform { attachment, .. } = &tl.kind {
                deformed.insert(attachment.index());
            }
        }
    }
    let mut param_slots: HashSet<usize> =
        rig.params.deform_slots.iter().map(|s| s.index()).collect();
    for d in &rig.params.deformers.deformers {
        param_slots.extend(d.slots.iter().map(|s| s.index()));
    }
    let skins = skin_of(rig);
    let mut out = Vec::new();
    for (ai, a) in rig.attachments.iter().enumerate() {
        let AttachmentKind::Mesh(m) = &a.kind else {
            continue;
        };
        if m.parent_mesh.is_some() || (m.vertices.count as usize) < options.tol.dense_vertices {
            continue;
        }
        if deformed.contains(&a.timeline_attachment.index())
            || param_slots.contains(&a.slot.index())
        {
            continue;
        }
        let v = &m.vertices;
        let one_bone = if v.is_weighted() {
            let mut bones = HashSet::new();
            let mut i = 0;
            while let Some(&n) = v.bones.get(i) {
                bones.extend(v.bones.iter().skip(i + 1).take(n as usize).copied());
                i += 1 + n as usize;
            }
            bones.len() <= 1
        } else {
            true
        };
        if !one_bone {
            continue;
        }
        let slot = rig.slots[a.slot.index()].name.clone();
        let key = rig
            .attachment_keys
            .get(a.key.0 as usize)
            .cloned()
            .unwrap_or_else(|| a.name.clone());
        out.push(Finding {
            code: "rigid-dense-mesh",
            severity: Severity::Info,
            message: format!(
                "mesh `{key}` has {} vertices but follows one bone and nothing deforms it: \
                 every vertex is skinned and drawn each frame for a part that never bends",
                v.count
            ),
            at: Where {
                skin: skins[ai].map(|s| rig.skins[s].name.clone()),
                slot: Some(slot),
                attachment: Some(key),
                path: attachment_path(rig, skins[ai], ai),
                ..Default::default()
            },
            fix: "keep rigid parts low-poly (a hull of a few vertices around the opaque pixels) \
                  or use a region attachment"
                .to_owned(),
            edit: None,
        });
    }
    out
}
