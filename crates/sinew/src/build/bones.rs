//! Bones, slots and event definitions: names to ids, parent-first order, duplicates.
//!
//! Bones must already be parent-first (the world pass is one forward loop); a bone listed
//! before its parent is reported, never reordered. Verified by the unit tests below.

use super::intern_key;
use crate::ids::*;
use crate::raw::RawRig;
use crate::rig::problem::{BuildProblem, ProblemKind};
use crate::rig::{BoneData, EventData, LocalPose, Rig, SlotData};
use std::collections::HashMap;

/// Fills `rig.bones` and `rig.names.bones`.
pub(super) fn build_bones(raw: &RawRig, rig: &mut Rig, problems: &mut Vec<BuildProblem>) {
    // All names first, so a parent listed later is told apart from an unknown one.
    let mut all: HashMap<&str, usize> = HashMap::with_capacity(raw.bones.len());
    for (i, b) in raw.bones.iter().enumerate() {
        if all.contains_key(b.name.as_str()) {
            problems.push(BuildProblem::duplicate(
                format!("bone `{}`", b.name),
                &b.name,
                "duplicate bone name",
            ));
        } else {
            all.insert(&b.name, i);
            rig.names.bones.insert(b.name.clone(), BoneId(i as u16));
        }
    }
    rig.bones.reserve(raw.bones.len());
    for (i, b) in raw.bones.iter().enumerate() {
        let parent = match &b.parent {
            None => None,
            Some(p) => match all.get(p.as_str()) {
                Some(&pi) if pi < i => Some(BoneId(pi as u16)),
                Some(&pi) if pi == i => {
                    problems.push(BuildProblem::new(
                        ProblemKind::Hierarchy,
                        format!("bone `{}`", b.name),
                        "is its own parent",
                    ));
                    None
                }
                Some(_) => {
                    problems.push(BuildProblem::new(
                        ProblemKind::Hierarchy,
                        format!("bone `{}`", b.name),
                        format!("parent `{p}` is listed after it (bones must be parent-first)"),
                    ));
                    None
                }
                None => {
                    problems.push(BuildProblem::unknown(
                        format!("bone `{}`", b.name),
                        "parent bone",
                        p,
                    ));
                    None
                }
            },
        };
        let values = [
            b.length, b.x, b.y, b.rotation, b.scale_x, b.scale_y, b.shear_x, b.shear_y,
        ];
        if values.iter().any(|v| !v.is_finite()) {
            problems.push(BuildProblem::new(
                ProblemKind::Value,
                format!("bone `{}`", b.name),
                "setup pose has a non-finite value",
            ));
        }
        rig.bones.push(BoneData {
            name: b.name.clone(),
            parent,
            length: b.length,
            setup: LocalPose {
                x: b.x,
                y: b.y,
                rotation: b.rotation,
                scale_x: b.scale_x,
                scale_y: b.scale_y,
                shear_x: b.shear_x,
                shear_y: b.shear_y,
            },
            inherit: b.inherit,
            skin_required: b.skin_required,
        });
    }
}

/// Looks up a bone, recording a problem (and returning bone 0) when it is unknown.
pub(super) fn bone_ref(
    rig: &Rig,
    name: &str,
    owner: &str,
    problems: &mut Vec<BuildProblem>,
) -> BoneId {
    match rig.names.bones.get(name) {
        Some(&id) => id,
        None => {
            problems.push(BuildProblem::unknown(owner.to_string(), "bone", name));
            BoneId(0)
        }
    }
}

/// Fills `rig.slots` and `rig.names.slots` (interning setup attachment keys).
pub(super) fn build_slots(raw: &RawRig, rig: &mut Rig, problems: &mut Vec<BuildProblem>) {
    rig.slots.reserve(raw.slots.len());
    for (i, s) in raw.slots.iter().enumerate() {
        let owner = format!("slot `{}`", s.name);
        if rig
            .names
            .slots
            .insert(s.name.clone(), SlotId(i as u16))
            .is_some()
        {
            problems.push(BuildProblem::duplicate(
                owner.to_string(),
                &s.name,
                "duplicate slot name",
            ));
        }
        let bone = bone_ref(rig, &s.bone, &owner, problems);
        let attachment = s.attachment.as_deref().map(|k| intern_key(rig, k));
        rig.slots.push(SlotData {
            name: s.name.clone(),
            bone,
            color: s.color,
            dark: s.dark,
            attachment,
            blend: s.blend,
            visible: s.visible,
        });
    }
    // Duplicates keep the first slot's id, as Spine's findSlot does.
    for (i, s) in raw.slots.iter().enumerate().rev() {
        rig.names.slots.insert(s.name.clone(), SlotId(i as u16));
    }
}

/// Fills `rig.events` and `rig.names.events`.
pub(super) fn build_events(raw: &RawRig, rig: &mut Rig, problems: &mut Vec<BuildProblem>) {
    for (i, e) in raw.events.iter().enumerate() {
        if rig
            .names
            .events
            .insert(e.name.clone(), EventId(i as u16))
            .is_some()
        {
            problems.push(BuildProblem::duplicate(
                format!("event `{}`", e.name),
                &e.name,
                "duplicate event name",
            ));
        }
        rig.events.push(EventData {
            name: e.name.clone(),
            int: e.int,
            float: e.float,
            string: e.string.clone(),
            audio: e.audio.clone(),
            volume: e.volume,
            balance: e.balance,
        });
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::raw::{RawBone, RawSlot};
    use crate::types::{BlendMode, Color};

    fn slot(name: &str, bone: &str) -> RawSlot {
        RawSlot {
            name: name.into(),
            bone: bone.into(),
            color: Color::WHITE,
            dark: None,
            attachment: Some("a".into()),
            blend: BlendMode::Normal,
            visible: true,
        }
    }

    #[test]
    fn parents_resolve_and_order_is_checked() {
        let raw = RawRig {
            bones: vec![
                RawBone::new("root", None),
                RawBone::new("b", Some("c")),
                RawBone::new("c", Some("root")),
                RawBone::new("d", Some("nope")),
                RawBone::new("root", None),
            ],
            ..Default::default()
        };
        let mut rig = Rig::empty();
        let mut p = Vec::new();
        build_bones(&raw, &mut rig, &mut p);
        let p: Vec<String> = p.iter().map(ToString::to_string).collect();
        assert_eq!(rig.bones[2].parent, Some(BoneId(0)));
        assert!(
            p.iter()
                .any(|m| m.contains("`b`") && m.contains("listed after")),
            "{p:?}"
        );
        assert!(
            p.iter()
                .any(|m| m.contains("`d`") && m.contains("unknown parent bone `nope`"))
        );
        assert!(
            p.iter()
                .any(|m| m.contains("`root`") && m.contains("duplicate"))
        );
        assert_eq!(p.len(), 3);
    }

    #[test]
    fn slots_resolve_bones_and_intern_keys() {
        let raw = RawRig {
            bones: vec![RawBone::new("root", None)],
            slots: vec![slot("s1", "root"), slot("s2", "jaw"), slot("s1", "root")],
            ..Default::default()
        };
        let mut rig = Rig::empty();
        let mut p = Vec::new();
        build_bones(&raw, &mut rig, &mut p);
        build_slots(&raw, &mut rig, &mut p);
        let p: Vec<String> = p.iter().map(ToString::to_string).collect();
        assert_eq!(
            p,
            vec![
                "slot `s2`: unknown bone `jaw`",
                "slot `s1`: duplicate slot name"
            ]
        );
        assert_eq!(rig.slots[0].attachment, Some(NameId(0)));
        assert_eq!(rig.slots[1].attachment, Some(NameId(0)));
        assert_eq!(rig.attachment_keys, vec!["a".to_string()]);
        assert_eq!(rig.slot("s1"), Some(SlotId(0)));
    }
}
