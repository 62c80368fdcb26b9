//! `weights-not-normalized` (error): a weighted vertex whose weights do not sum to 1
//! (within [`crate::Tolerances::weight_sum`], 1e-3).
//!
//! The seed's reason: skinning adds each bone's pull times its weight; weights summing to
//! 0.9 shrink the vertex towards the skeleton's origin by a tenth of its distance, and to
//! 1.1 push it out, so the part drifts or tears from its neighbours as soon as anything
//! moves. Editors normalise on paint; hand-edited or converted files lose it. The fix
//! (`--fix`) divides each weight by the vertex's sum.

use crate::{Edit, Finding, Options, Severity, Where, key_segment};
use sinew::rig::Rig;
use sinew_formats::Asset;

/// The skin holding each attachment (the first one listing it).
pub(crate) fn skin_of(rig: &Rig) -> Vec<Option<usize>> {
    let mut out = vec![None; rig.attachments.len()];
    for (si, skin) in rig.skins.iter().enumerate() {
        for &(_, _, a) in &skin.entries {
            if let Some(o) = out.get_mut(a.index())
                && o.is_none()
            {
                *o = Some(si);
            }
        }
    }
    out
}

/// The Spine JSON path of an attachment (`$.skins[i].attachments.slot.key`).
pub(crate) fn attachment_path(rig: &Rig, skin: Option<usize>, attachment: usize) -> Option<String> {
    let a = rig.attachments.get(attachment)?;
    let skin = skin?;
    Some(format!(
        "$.skins[{skin}].attachments{}{}",
        key_segment(&rig.slots[a.slot.index()].name),
        key_segment(rig.attachment_keys.get(a.key.0 as usize)?)
    ))
}

/// Checks every weighted vertex attachment (linked meshes are checked through their parent).
pub fn check(asset: &Asset, _options: &Options) -> Vec<Finding> {
    let rig = &*asset.rig;
    let skins = skin_of(rig);
    let mut out = Vec::new();
    for (ai, a) in rig.attachments.iter().enumerate() {
        if let sinew::rig::AttachmentKind::Mesh(m) = &a.kind
            && m.parent_mesh.is_some()
        {
            continue;
        }
        let Some(v) = a.vertices() else { continue };
        if !v.is_weighted() {
            continue;
        }
        let tol = _options.tol.weight_sum;
        let (mut b, mut w) = (0usize, 0usize);
        let mut bad = 0usize;
        let mut worst: Option<(usize, f64)> = None;
        for vi in 0..v.count as usize {
            let Some(&n) = v.bones.get(b) else { break };
            let n = n as usize;
            b += 1 + n;
            let mut sum = 0.0f64;
            for k in 0..n {
                sum += f64::from(v.values.get(w + 3 * k + 2).copied().unwrap_or(0.0));
            }
            w += 3 * n;
            let err = (sum - 1.0).abs();
            if err > tol {
                bad += 1;
                if worst.is_none_or(|(_, s)| err > (s - 1.0).abs()) {
                    worst = Some((vi, sum));
                }
            }
        }
        let Some((vertex, sum)) = worst else { continue };
        let skin = skins[ai];
        let slot = rig.slots[a.slot.index()].name.clone();
        let key = rig
            .attachment_keys
            .get(a.key.0 as usize)
            .cloned()
            .unwrap_or_else(|| a.name.clone());
        let skin_name = skin.map(|s| rig.skins[s].name.clone());
        out.push(Finding {
            code: "weights-not-normalized",
            severity: Severity::Error,
            message: format!(
                "{bad} of {} weighted vertices of `{}` have weights that do not sum to 1 \
                 (worst: vertex {vertex} sums to {sum:.4}); skinning scales such a vertex \
                 towards the origin or away from it, so the part drifts and tears when the \
                 bones move",
                v.count, a.name
            ),
            at: Where {
                skin: skin_name.clone(),
                slot: Some(slot.clone()),
                attachment: Some(key.clone()),
                vertex: Some(vertex),
                path: attachment_path(rig, skin, ai).map(|p| format!("{p}.vertices")),
                ..Default::default()
            },
            fix: "normalise the weights in the editor (Spine: Weights view, select the vertices, \
                  `Normalize`), or run `sinew lint --fix OUT` to divide each weight by its sum"
                .to_owned(),
            edit: skin_name.map(|skin| Edit::NormalizeWeights { skin, slot, key }),
        });
    }
    out
}
