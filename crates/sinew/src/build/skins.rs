//! Skins: sorted (slot, key, attachment) tables, skin-scoped bones and constraints, and the
//! default skin. Runs after [`super::attachments`], which numbered the attachments skin by
//! skin in file order. Verified by the unit test below and the fixture tests.

use crate::ids::*;
use crate::raw::RawRig;
use crate::rig::problem::BuildProblem;
use crate::rig::{ConstraintRef, Rig, SkinData};

/// Fills `rig.skins`, `rig.names.skins` and `rig.default_skin`.
pub(super) fn build_skins(raw: &RawRig, rig: &mut Rig, problems: &mut Vec<BuildProblem>) {
    let mut next = 0usize;
    for (i, s) in raw.skins.iter().enumerate() {
        let owner = format!("skin `{}`", s.name);
        if rig.names.skins.contains_key(&s.name) {
            problems.push(BuildProblem::duplicate(
                owner.to_string(),
                &s.name,
                "duplicate skin name",
            ));
        } else {
            rig.names.skins.insert(s.name.clone(), SkinId(i as u16));
        }
        // Attachments were appended in this same order.
        let mut entries: Vec<(SlotId, NameId, AttachmentId)> = (next..next + s.attachments.len())
            .filter_map(|a| {
                rig.attachments
                    .get(a)
                    .map(|att| (att.slot, att.key, AttachmentId(a as u32)))
            })
            .collect();
        next += s.attachments.len();
        entries.sort_by_key(|e| (e.0, e.1));
        let mut bones = Vec::with_capacity(s.bones.len());
        for b in &s.bones {
            match rig.names.bones.get(b) {
                Some(&id) => bones.push(id),
                None => problems.push(BuildProblem::unknown(owner.to_string(), "bone", b)),
            }
        }
        let mut constraints = Vec::new();
        let mut add = |found: Option<ConstraintRef>, what: &str, name: &str| match found {
            Some(c) => constraints.push(c),
            None => problems.push(BuildProblem::unknown(owner.to_string(), what, name)),
        };
        for n in &s.ik {
            add(
                rig.names.ik.get(n).map(|&id| ConstraintRef::Ik(id)),
                "IK constraint",
                n,
            );
        }
        for n in &s.transforms {
            add(
                rig.names
                    .transforms
                    .get(n)
                    .map(|&id| ConstraintRef::Transform(id)),
                "transform constraint",
                n,
            );
        }
        for n in &s.paths {
            add(
                rig.names.paths.get(n).map(|&id| ConstraintRef::Path(id)),
                "path constraint",
                n,
            );
        }
        for n in &s.physics {
            add(
                rig.names
                    .physics
                    .get(n)
                    .map(|&id| ConstraintRef::Physics(id)),
                "physics constraint",
                n,
            );
        }
        for n in &s.sliders {
            add(
                rig.names
                    .sliders
                    .get(n)
                    .map(|&id| ConstraintRef::Slider(id)),
                "slider",
                n,
            );
        }
        rig.skins.push(SkinData {
            name: s.name.clone(),
            entries,
            bones,
            constraints,
        });
    }
    rig.default_skin = rig.names.skins.get("default").copied();
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::build::build_rig;
    use crate::raw::*;
    use crate::types::{BlendMode, Color};

    fn point(slot: &str, key: &str) -> RawSkinEntry {
        RawSkinEntry {
            slot: slot.into(),
            key: key.into(),
            attachment: RawAttachment {
                name: key.into(),
                kind: RawAttachmentKind::Point {
                    x: 0.0,
                    y: 0.0,
                    rotation: 0.0,
                },
            },
        }
    }

    #[test]
    fn entries_sorted_and_default_found() {
        let slot = |n: &str| RawSlot {
            name: n.into(),
            bone: "root".into(),
            color: Color::WHITE,
            dark: None,
            attachment: None,
            blend: BlendMode::Normal,
            visible: true,
        };
        let raw = RawRig {
            bones: vec![
                RawBone::new("root", None),
                RawBone::new("extra", Some("root")),
            ],
            slots: vec![slot("s0"), slot("s1")],
            skins: vec![
                RawSkin {
                    name: "other".into(),
                    attachments: vec![point("s1", "b")],
                    ..Default::default()
                },
                RawSkin {
                    name: "default".into(),
                    bones: vec!["extra".into()],
                    attachments: vec![point("s1", "z"), point("s0", "y"), point("s1", "a")],
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        let rig = build_rig(&raw).unwrap();
        assert_eq!(rig.default_skin, Some(crate::SkinId(1)));
        let d = &rig.skins[1];
        let keys: Vec<&str> = d
            .entries
            .iter()
            .map(|e| rig.attachment_keys[e.1.index()].as_str())
            .collect();
        // Sorted by slot, then by key id (interning order: b, z, y, a).
        assert_eq!(keys, vec!["y", "z", "a"]);
        assert_eq!(d.bones, vec![crate::BoneId(1)]);
        let a = rig.names.attachment_keys["a"];
        assert_eq!(d.get(crate::SlotId(1), a), Some(crate::AttachmentId(3)));
    }
}
