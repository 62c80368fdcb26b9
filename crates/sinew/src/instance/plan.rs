//! The update plan: bones and constraints in Spine's update order for the current skin.
//!
//! [`update_cache`] follows spine.md §5 (Spine 4.2 `Skeleton.updateCache`): bone activity
//! from the skin, constraint activity, constraints in their global `order` with each one's
//! sorting rule, the "reset" that re-appends constrained descendants, and finally every
//! remaining bone. Verified by the unit tests in `skeleton/tests.rs`, which compare plans for
//! hand-made rigs with the order the official algorithm produces, and by the oracle checks
//! that run the plan.

use crate::ids::*;
use crate::instance::Instance;
use crate::rig::{Attachment, AttachmentKind, ConstraintRef, Rig};

/// One operation of the update plan.
///
/// Owner: the world stage (`skeleton`; step 5 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanOp {
    /// Compute a bone's world transform from its applied local pose.
    Bone(BoneId),
    /// Run an IK constraint.
    Ik(IkId),
    /// Run a transform constraint.
    Transform(TransformId),
    /// Run a path constraint.
    Path(PathId),
    /// Run a physics constraint.
    Physics(PhysicsId),
    /// Run a slider (Spine 4.3): apply its clip onto the applied pose.
    Slider(SliderId),
}

/// Recomputes which bones and constraints are active and the update plan (Spine
/// `Skeleton.updateCache`). Allocation-free when the plan's capacity suffices.
pub fn update_cache(rig: &Rig, inst: &mut Instance) {
    inst.plan.clear();
    let nb = rig.bones.len();
    inst.plan_sorted.resize(nb, false);
    inst.bone_active.resize(nb, true);
    // Skin-required bones start inactive and "sorted", so sorting never appends them.
    for (i, b) in rig.bones.iter().enumerate() {
        inst.plan_sorted[i] = b.skin_required;
        inst.bone_active[i] = !b.skin_required;
    }
    if let Some(skin) = &inst.skin {
        // A skin bone activates itself and its ancestors.
        for &b in &skin.bones {
            let mut cur = Some(b);
            while let Some(bone) = cur {
                inst.plan_sorted[bone.index()] = false;
                inst.bone_active[bone.index()] = true;
                cur = rig.bones[bone.index()].parent;
            }
        }
    }
    for &c in &rig.constraint_order {
        match c {
            ConstraintRef::Ik(id) => sort_ik(rig, inst, id),
            ConstraintRef::Transform(id) => sort_transform(rig, inst, id),
            ConstraintRef::Path(id) => sort_path(rig, inst, id),
            ConstraintRef::Physics(id) => sort_physics(rig, inst, id),
            ConstraintRef::Slider(id) => sort_slider(rig, inst, id),
        }
    }
    for i in 0..nb {
        sort_bone(rig, inst, BoneId(i as u16));
    }
}

/// Whether a constraint is allowed by the skin (Spine: not skin-required, or listed).
fn skin_allows(inst: &Instance, required: bool, c: ConstraintRef) -> bool {
    !required
        || inst
            .skin
            .as_ref()
            .is_some_and(|s| s.constraints.contains(&c))
}

fn sort_ik(rig: &Rig, inst: &mut Instance, id: IkId) {
    let data = &rig.ik[id.index()];
    let active = inst.bone_active[data.target.index()]
        && skin_allows(inst, data.skin_required, ConstraintRef::Ik(id));
    inst.ik_active[id.index()] = active;
    let (Some(&parent), Some(&child)) = (data.bones.first(), data.bones.last()) else {
        return;
    };
    if !active {
        return;
    }
    sort_bone(rig, inst, data.target);
    sort_bone(rig, inst, parent);
    if data.bones.len() == 1 {
        inst.plan.push(PlanOp::Ik(id));
        sort_reset(rig, inst, parent);
    } else {
        sort_bone(rig, inst, child);
        inst.plan.push(PlanOp::Ik(id));
        sort_reset(rig, inst, parent);
        inst.plan_sorted[child.index()] = true;
    }
}

fn sort_transform(rig: &Rig, inst: &mut Instance, id: TransformId) {
    let data = &rig.transforms[id.index()];
    let active = inst.bone_active[data.target.index()]
        && skin_allows(inst, data.skin_required, ConstraintRef::Transform(id));
    inst.transform_active[id.index()] = active;
    if !active {
        return;
    }
    sort_bone(rig, inst, data.target);
    for &b in &data.bones {
        if data.local {
            // Local variants read the parent's world transform, so it must be current.
            if let Some(p) = rig.bones[b.index()].parent {
                sort_bone(rig, inst, p);
            }
        }
        sort_bone(rig, inst, b);
    }
    inst.plan.push(PlanOp::Transform(id));
    finish_constrained(rig, inst, &data.bones);
}

fn sort_path(rig: &Rig, inst: &mut Instance, id: PathId) {
    let data = &rig.paths[id.index()];
    let slot = data.target;
    let slot_bone = rig.slots[slot.index()].bone;
    let active = inst.bone_active[slot_bone.index()]
        && skin_allows(inst, data.skin_required, ConstraintRef::Path(id));
    inst.path_active[id.index()] = active;
    if !active {
        return;
    }
    // Bones shaping every path attachment the slot can show: current skin, default skin
    // (when it is not the current one), every skin, then the slot's current attachment.
    let mut current_is_default = false;
    if let Some(skin) = inst.skin.take() {
        current_is_default = rig
            .default_skin
            .is_some_and(|d| skin.skins.as_slice() == [d]);
        sort_skin_paths(rig, inst, &skin.entries, slot, slot_bone);
        inst.skin = Some(skin);
    }
    if let Some(d) = rig.default_skin.filter(|_| !current_is_default) {
        sort_skin_paths(rig, inst, &rig.skins[d.index()].entries, slot, slot_bone);
    }
    for skin in &rig.skins {
        sort_skin_paths(rig, inst, &skin.entries, slot, slot_bone);
    }
    if let Some(att) = inst.slots.attachment[slot.index()] {
        sort_path_attachment(rig, inst, &rig.attachments[att.index()], slot_bone);
    }
    for &b in &data.bones {
        sort_bone(rig, inst, b);
    }
    inst.plan.push(PlanOp::Path(id));
    finish_constrained(rig, inst, &data.bones);
}

fn sort_physics(rig: &Rig, inst: &mut Instance, id: PhysicsId) {
    let data = &rig.physics[id.index()];
    let bone = data.bone;
    let active = inst.bone_active[bone.index()]
        && skin_allows(inst, data.skin_required, ConstraintRef::Physics(id));
    inst.physics_active[id.index()] = active;
    if !active {
        return;
    }
    sort_bone(rig, inst, bone);
    inst.plan.push(PlanOp::Physics(id));
    sort_reset(rig, inst, bone);
    inst.plan_sorted[bone.index()] = true;
}

/// A slider (Spine `Slider.sort`): its driving bone first (for a world property), then the
/// slider, then every bone its clip keys is posed again after it, with its children.
fn sort_slider(rig: &Rig, inst: &mut Instance, id: SliderId) {
    let data = &rig.sliders[id.index()];
    // A slider has no source to deactivate it (4.3's `isSourceActive` is true); an inactive
    // driving bone only skips the update.
    let active = skin_allows(inst, data.skin_required, ConstraintRef::Slider(id));
    inst.slider_active[id.index()] = active;
    if !active {
        return;
    }
    if let Some(d) = data.driver.filter(|d| !d.local) {
        sort_bone(rig, inst, d.bone);
    }
    inst.plan.push(PlanOp::Slider(id));
    for &b in &data.clip_bones {
        // An inactive bone stays "sorted" so it is never appended.
        if inst.bone_active[b.index()] {
            inst.plan_sorted[b.index()] = false;
        }
        sort_reset(rig, inst, b);
    }
}

/// After a constraint: resets the constrained bones' children, then marks the bones sorted.
fn finish_constrained(rig: &Rig, inst: &mut Instance, bones: &[BoneId]) {
    for &b in bones {
        sort_reset(rig, inst, b);
    }
    for &b in bones {
        inst.plan_sorted[b.index()] = true;
    }
}

/// Sorts the bones of the path attachments a skin has for `slot` (entries sorted by slot).
fn sort_skin_paths(
    rig: &Rig,
    inst: &mut Instance,
    entries: &[(SlotId, NameId, AttachmentId)],
    slot: SlotId,
    slot_bone: BoneId,
) {
    let start = entries.partition_point(|e| e.0 < slot);
    for e in entries[start..].iter().take_while(|e| e.0 == slot) {
        sort_path_attachment(rig, inst, &rig.attachments[e.2.index()], slot_bone);
    }
}

/// Sorts the bones a path attachment's vertices depend on (Spine
/// `sortPathConstraintAttachmentWith`): the slot's bone when unweighted, else every
/// weight bone.
fn sort_path_attachment(rig: &Rig, inst: &mut Instance, att: &Attachment, slot_bone: BoneId) {
    let AttachmentKind::Path(path) = &att.kind else {
        return;
    };
    let bones = &path.vertices.bones;
    if bones.is_empty() {
        sort_bone(rig, inst, slot_bone);
        return;
    }
    let mut i = 0;
    while i < bones.len() {
        let n = bones[i] as usize;
        let end = (i + 1 + n).min(bones.len());
        for &b in &bones[i + 1..end] {
            if (b as usize) < rig.bones.len() {
                sort_bone(rig, inst, BoneId(b as u16));
            }
        }
        i = end;
    }
}

/// Appends a bone after its unsorted ancestors, unless already sorted (Spine `sortBone`).
fn sort_bone(rig: &Rig, inst: &mut Instance, bone: BoneId) {
    if inst.plan_sorted[bone.index()] {
        return;
    }
    if let Some(p) = rig.bones[bone.index()].parent {
        sort_bone(rig, inst, p);
    }
    inst.plan_sorted[bone.index()] = true;
    inst.plan.push(PlanOp::Bone(bone));
}

/// Clears the sorted flag of `parent`'s active children, recursing through sorted ones, so
/// they are appended again after the constraint (Spine `sortReset(parent.children)`).
fn sort_reset(rig: &Rig, inst: &mut Instance, parent: BoneId) {
    // Bones are parent-first, so children have larger ids; they are visited in id order
    // like Spine's children lists.
    for i in parent.index() + 1..rig.bones.len() {
        if rig.bones[i].parent != Some(parent) || !inst.bone_active[i] {
            continue;
        }
        if inst.plan_sorted[i] {
            sort_reset(rig, inst, BoneId(i as u16));
        }
        inst.plan_sorted[i] = false;
    }
}
