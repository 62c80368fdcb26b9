//! Cages on a character's meshes: a [`CageDeformer`] bound to one mesh attachment of one
//! slot runs at the end of [`Character::update`], after skinning (offsets, then skinning,
//! then the cages, in the order they were added: a cage driven by mesh vertices reads them
//! after earlier cages of that mesh moved them). The caged world vertices are kept per cage
//! (sized when the cage is added, so a frame allocates nothing) and are what the draw list,
//! [`Character::world_vertices`] and [`Character::compute_world_vertices`] give for that
//! slot. A cage applies only while its slot shows its attachment.

use super::key::AttachmentKey;
use super::shape_rig::{SlotShapes, shaped};
use super::{Character, CharacterError, error};
use crate::cage::Cage;
use crate::deform::cage_stage::{CageDeformer, CageMode, CageSource, apply_cage};
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
    /// Its index in the character's [`super::cage_rig::CageRig`] (`None`: added by code).
    pub from_rig: Option<usize>,
}

impl Character {
    /// Binds `deformer` to `attachment` (a mesh of `slot`) after skinning; returns its index
    /// for [`Character::cage_mut`]. Refused when the slot or attachment is not the rig's,
    /// the attachment is not a mesh of that slot, or the deformer reads or moves vertices
    /// the mesh does not have.
    pub fn add_cage(
        &mut self,
        slot: impl super::Key<SlotId>,
        attachment: AttachmentId,
        deformer: CageDeformer,
    ) -> Result<usize, CharacterError> {
        let slot = slot.resolve(self)?;
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
            from_rig: None,
        });
        Ok(self.cages.len() - 1)
    }

    /// Binds `cage` to the mesh `attachment` (a name, an id) of `slot`, with mean value
    /// coordinates over every vertex of the mesh: [`Character::add_cage`] without building
    /// the [`CageDeformer`] by hand. Returns the cage's index.
    ///
    /// **Bind space is world space as the character was last posed**: the mesh is bound
    /// where [`Character::world_vertices`] puts it now, so give `cage` in those world
    /// coordinates (the same frame as [`Character::cage_world`]), and bind after an
    /// [`Character::update`] in the pose the cage was drawn for (usually the setup pose:
    /// [`Character::set_to_setup_pose`], then `update(0.0)`). The slot must show the mesh
    /// then ([`CharacterError::MeshNotShown`]); a cage that does not bind (too few points,
    /// a vertex the weights cannot reach) is [`CharacterError::Cage`].
    pub fn bind_cage(
        &mut self,
        slot: impl super::Key<SlotId>,
        attachment: impl AttachmentKey,
        cage: &Cage,
        source: CageSource,
        mode: CageMode,
    ) -> Result<usize, CharacterError> {
        let slot = slot.resolve(self)?;
        let slot_name = || {
            self.rig
                .slots
                .get(slot.index())
                .map(|s| s.name.clone())
                .unwrap_or_default()
        };
        let Some(att) = attachment.resolve_for(self, slot)? else {
            return Err(CharacterError::MeshNotShown { slot: slot_name() });
        };
        if self.attachment(slot) != Some(att) {
            return Err(CharacterError::MeshNotShown { slot: slot_name() });
        }
        let mut posed = Vec::new();
        self.world_vertices(slot, &mut posed);
        let points: Vec<[f64; 2]> = posed
            .chunks_exact(2)
            .map(|p| [f64::from(p[0]), f64::from(p[1])])
            .collect();
        let targets = (0..points.len() as u32).collect();
        let deformer = CageDeformer::new(cage, &points, targets, source, mode)
            .map_err(CharacterError::Cage)?;
        self.add_cage(slot, att, deformer)
    }

    /// The points of cage `index` to write each frame for a [`CageSource::External`] cage
    /// (x, y pairs in the bind space; they start at the bind pose).
    pub fn cage_points_mut(&mut self, index: usize) -> Option<&mut [f32]> {
        self.cages.get_mut(index).map(|c| c.deformer.cage_mut())
    }

    /// A bound cage, to write an external cage's vertices ([`CageDeformer::cage_mut`]).
    pub fn cage_mut(&mut self, index: usize) -> Option<&mut CageDeformer> {
        self.cages.get_mut(index).map(|c| &mut c.deformer)
    }

    /// How many cages are bound ([`Character::add_cage`] indices run `0..cage_count()`).
    pub fn cage_count(&self) -> usize {
        self.cages.len()
    }

    /// Cage `index` as the last update left it: its slot, its vertices (world x, y pairs,
    /// the frame of [`Character::world_vertices`], not the draw list's y-up flip) and one
    /// past the last vertex of each loop. `None` for an unknown index, while the slot
    /// does not show the cage's mesh (the cage did not run), or when a cage point is not
    /// finite (an external cage written with NaN, a pose past f32; no NaN leaves sinew,
    /// `finite`). What a viewer draws.
    ///
    /// ```
    /// use sinew::cage::Cage;
    /// use sinew::character::Character;
    /// use sinew::deform::cage_stage::{CageDeformer, CageMode, CageSource};
    /// use sinew::raw::{RawAttachment, RawAttachmentKind, RawBone, RawRig, RawSkin};
    /// use sinew::raw::{RawSkinEntry, RawSlot, Vertices};
    /// use sinew::Color;
    /// use std::sync::Arc;
    ///
    /// // A unit-square mesh on a bone moved by (10, 0).
    /// let mut raw = RawRig::default();
    /// let mut root = RawBone::new("root", None);
    /// root.x = 10.0;
    /// raw.bones.push(root);
    /// let mut slot = RawSlot::new("s", "root");
    /// slot.attachment = Some("m".into());
    /// raw.slots.push(slot);
    /// let square = vec![0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
    /// let mesh = RawAttachmentKind::Mesh {
    ///     path: "m".into(),
    ///     color: Color::WHITE,
    ///     vertices: Vertices { count: 4, bones: Vec::new(), values: square.clone() },
    ///     uvs: square,
    ///     triangles: vec![0, 1, 2, 2, 3, 0],
    ///     hull: 4,
    ///     edges: Vec::new(),
    ///     width: 1.0,
    ///     height: 1.0,
    ///     sequence: None,
    /// };
    /// raw.skins.push(RawSkin {
    ///     name: "default".into(),
    ///     attachments: vec![RawSkinEntry {
    ///         slot: "s".into(),
    ///         key: "m".into(),
    ///         attachment: RawAttachment { name: "m".into(), kind: mesh },
    ///     }],
    ///     ..Default::default()
    /// });
    /// let rig = Arc::new(sinew::build::build_rig(&raw).expect("a valid rig"));
    /// let mut c = Character::new(rig);
    /// let slot = c.find_slot("s").expect("slot");
    /// let mesh = c.find_attachment("s", "m").expect("mesh");
    ///
    /// // A cage driven by the mesh's four corners, moving nothing.
    /// let corners = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    /// let cage = Cage::from_loops(&[corners]).expect("a cage");
    /// let def = CageDeformer::new(&cage, &[], Vec::new(),
    ///     CageSource::MeshVertices(vec![0, 1, 2, 3]), CageMode::Replace).expect("binds");
    /// let k = c.add_cage(slot, mesh, def).expect("a mesh of the slot");
    /// assert_eq!(c.cage_count(), 1);
    /// c.update(0.0);
    /// let (s, points, loops) = c.cage_world(k).expect("posed this frame");
    /// assert_eq!(s, slot.id());
    /// assert_eq!(&points[..4], &[10.0, 0.0, 11.0, 0.0]);
    /// assert_eq!(loops, &[4]);
    /// assert!(c.cage_world(k + 1).is_none());
    /// ```
    pub fn cage_world(&self, index: usize) -> Option<(SlotId, &[f32], &[u32])> {
        let c = self.cages.get(index).filter(|c| c.valid)?;
        let cage = c.deformer.cage();
        cage.iter()
            .all(|v| v.is_finite())
            .then_some((c.slot, cage, c.deformer.loop_ends()))
    }

    /// Removes every cage (those of the cage rig too: [`Character::set_cage_rig`] brings
    /// them back).
    pub fn clear_cages(&mut self) {
        self.cages.clear();
        self.cage_rig = None;
    }
}

/// Poses every cage: the mesh's world vertices (or an earlier cage's output for the same
/// mesh), then the cage. Allocation-free.
pub(super) fn pose_cages(
    cages: &mut [SlotCage],
    shapes: &[SlotShapes],
    rig: &Rig,
    inst: &Instance,
) {
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
            // The mesh's example shapes (`shape_rig.rs`) come before its cages.
            None => match shaped(shapes, c.slot, c.attachment) {
                Some(v) if v.len() == c.posed.len() => c.posed.copy_from_slice(v),
                _ => crate::deform::compute_world_vertices(rig, inst, c.slot, &mut c.posed),
            },
        }
        // No NaN or infinity out (`finite`): the posed vertices the cage reads (its world
        // control points come from them), and what it writes.
        super::finite::floats(&mut c.posed);
        // Sizes were checked when the cage was added: this cannot fail.
        let _ = apply_cage(&mut c.deformer, &inst.world, &mut c.posed);
        super::finite::floats(&mut c.posed);
    }
}

/// The world vertices of `slot` showing `attachment` after this frame's example shapes and
/// cages, if any are on it.
pub(super) fn posed<'a>(
    cages: &'a [SlotCage],
    shapes: &'a [SlotShapes],
    slot: SlotId,
    attachment: AttachmentId,
) -> Option<&'a [f32]> {
    caged(cages, slot, attachment).or_else(|| shaped(shapes, slot, attachment))
}

/// The caged world vertices of `slot` showing `attachment` this frame, if a cage is on it.
fn caged(cages: &[SlotCage], slot: SlotId, attachment: AttachmentId) -> Option<&[f32]> {
    cages
        .iter()
        .rev()
        .find(|c| c.valid && c.slot == slot && c.attachment == attachment)
        .map(|c| c.posed.as_slice())
}
