//! Cages on a character's meshes: a [`CageDeformer`] bound to one mesh attachment of one
//! slot runs at the end of [`Character::update`], after skinning (offsets, then skinning,
//! then the cages, in the order they were added: a cage driven by mesh vertices reads them
//! after earlier cages of that mesh moved them). The caged world vertices are kept per cage
//! (sized when the cage is added, so a frame allocates nothing) and are what the draw list,
//! [`Character::world_vertices`] and [`Character::compute_world_vertices`] give for that
//! slot. A cage applies only while its slot shows its attachment.

use super::{Character, CharacterError, error};
use crate::deform::cage_stage::{CageDeformer, apply_cage};
use crate::ids::{AttachmentId, SlotId};
use crate::instance::Instance;
use crate::rig::{AttachmentKind, Rig};

/// A cage bound to one mesh attachment of one slot.
#[derive(Debug, Clone)]
pub(super) struct SlotCage {
    pub slot: SlotId,
    pub attachment: AttachmentId,
    pub deformer: CageDeformer,
    /// The mesh's world vertices after this cage (x, y pairs), from the last update.
    pub posed: Vec<f32>,
    /// Whether `posed` is this frame's (the slot showed the attachment).
    pub valid: bool,
}

impl Character {
    /// Binds `deformer` to `attachment` (a mesh of `slot`) after skinning; returns its index
    /// for [`Character::cage_mut`]. Refused when the slot or attachment is not the rig's,
    /// the attachment is not a mesh of that slot, or the deformer reads or moves vertices
    /// the mesh does not have.
    pub fn add_cage(
        &mut self,
        slot: SlotId,
        attachment: AttachmentId,
        deformer: CageDeformer,
    ) -> Result<usize, CharacterError> {
        error::check("slot", slot.index(), self.rig.slots.len(), ())?;
        let att = error::check(
            "attachment",
            attachment.index(),
            self.rig.attachments.len(),
            &self.rig.attachments.get(attachment.index()),
        )?
        .ok_or(CharacterError::ForeignId {
            kind: "attachment",
            index: attachment.index(),
        })?;
        let vertices = match &att.kind {
            AttachmentKind::Mesh(m) if att.slot == slot => m.vertices.count as usize,
            _ => {
                return Err(CharacterError::ForeignId {
                    kind: "mesh attachment of the slot",
                    index: attachment.index(),
                });
            }
        };
        if deformer.vertices_needed() > vertices {
            return Err(CharacterError::ForeignId {
                kind: "mesh vertex",
                index: deformer.vertices_needed() - 1,
            });
        }
        self.cages.push(SlotCage {
            slot,
            attachment,
            deformer,
            posed: vec![0.0; vertices * 2],
            valid: false,
        });
        Ok(self.cages.len() - 1)
    }

    /// A bound cage, to write an external cage's vertices ([`CageDeformer::cage_mut`]).
    pub fn cage_mut(&mut self, index: usize) -> Option<&mut CageDeformer> {
        self.cages.get_mut(index).map(|c| &mut c.deformer)
    }

    /// Removes every cage.
    pub fn clear_cages(&mut self) {
        self.cages.clear();
    }
}

/// Poses every cage: the mesh's world vertices (or an earlier cage's output for the same
/// mesh), then the cage. Allocation-free.
pub(super) fn pose_cages(cages: &mut [SlotCage], rig: &Rig, inst: &Instance) {
    for i in 0..cages.len() {
        let (done, rest) = cages.split_at_mut(i);
        let c = &mut rest[0];
        c.valid =
            inst.slots.attachment.get(c.slot.index()).copied().flatten() == Some(c.attachment);
        if !c.valid {
            continue;
        }
        match done
            .iter()
            .rev()
            .find(|d| d.valid && d.slot == c.slot && d.attachment == c.attachment)
        {
            Some(earlier) => c.posed.copy_from_slice(&earlier.posed),
            None => crate::deform::compute_world_vertices(rig, inst, c.slot, &mut c.posed),
        }
        // Sizes were checked when the cage was added: this cannot fail.
        let _ = apply_cage(&mut c.deformer, &inst.world, &mut c.posed);
    }
}

/// The caged world vertices of `slot` showing `attachment` this frame, if a cage is on it.
pub(super) fn caged(cages: &[SlotCage], slot: SlotId, attachment: AttachmentId) -> Option<&[f32]> {
    cages
        .iter()
        .rev()
        .find(|c| c.valid && c.slot == slot && c.attachment == attachment)
        .map(|c| c.posed.as_slice())
}
