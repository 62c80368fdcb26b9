//! Cages the viewer binds itself (`--cage SLOT`, the panel's "Cages" list): the mesh a slot
//! shows gets the cage its own boundary makes ([`Cage::from_mesh`]), driven by those
//! boundary vertices ([`CageSource::MeshVertices`]) and moving every vertex of the mesh
//! ([`CageMode::Replace`]), bound to where the vertices are now. The interior then follows
//! the boundary by mean value coordinates instead of its own skinning, which is what a
//! boundary cage does; the overlay shows the cage. Each boundary cage gets a second cage
//! over the same points, its handles ([`CageSource::External`], [`CageMode::Offset`]):
//! dragging handle J by `d` moves the mesh by the mean-value-weighted sum of the handles'
//! offsets (boundary vertex J by exactly `d`), on top of whatever poses the mesh.

use anyhow::{Result, anyhow};
use sinew::Character;
use sinew::cage::Cage;
use sinew::character::cage_rig::{CageDesc, CageDrive, CageKeysDesc, CagePointKey};
use sinew::deform::cage_stage::{CageDeformer, CageMode, CageSource};
use sinew::physics::jiggle::CueCurve;
use sinew::rig::AttachmentKind;

/// A boundary cage and its handles on one slot's mesh.
#[derive(Debug, Clone)]
pub(crate) struct CageEdit {
    /// The slot whose mesh is caged.
    pub(crate) slot: String,
    /// The character's index of the boundary cage (driven by the mesh's boundary).
    pub(crate) boundary: usize,
    /// The character's index of the handles' cage (external, offsetting the mesh).
    pub(crate) handles: usize,
    /// The handles' bind pose (x, y pairs, the cage frame: the rig's world).
    pub(crate) bind: Vec<f32>,
    /// How far each handle was dragged from its bind pose (x, y pairs).
    pub(crate) offsets: Vec<f32>,
    /// The mesh's boundary loops (vertex indices; the cage's points in order).
    pub(crate) loops: Vec<Vec<u32>>,
    /// Whether the slot shows its setup attachment (else the mesh's name).
    pub(crate) attachment: Option<String>,
}

impl CageEdit {
    /// Writes the handles (bind pose plus offsets) into the character's handle cage.
    pub(crate) fn apply(&self, c: &mut Character) {
        if let Some(points) = c.cage_points_mut(self.handles) {
            for (k, p) in points.iter_mut().enumerate() {
                *p = self.bind.get(k).copied().unwrap_or(*p) + self.offsets[k];
            }
        }
    }

    /// Moves handle `j` by `d` (the cage frame) and writes the handles; `false` for an
    /// unknown handle.
    pub(crate) fn drag(&mut self, c: &mut Character, j: usize, d: [f32; 2]) -> bool {
        let Some(o) = self.offsets.get_mut(2 * j..2 * j + 2) else {
            return false;
        };
        o[0] += d[0];
        o[1] += d[1];
        self.apply(c);
        true
    }

    /// Where the handles are shown (the cage frame): the boundary cage as last posed plus
    /// the offsets; `None` while the slot does not show the mesh.
    pub(crate) fn positions(&self, c: &Character) -> Option<Vec<f32>> {
        let (_, points, _) = c.cage_world(self.boundary)?;
        Some(
            points
                .iter()
                .zip(&self.offsets)
                .map(|(p, o)| p + o)
                .collect(),
        )
    }

    /// Whether any handle was dragged.
    pub(crate) fn dragged(&self) -> bool {
        self.offsets.iter().any(|o| *o != 0.0)
    }

    /// The cage as a rig-extras file declares it (`<slot>-boundary`): driven by the mesh's
    /// boundary vertices, replacing the mesh, its handles' offsets one key at time 0 of
    /// `animation` (a file keys offsets per animation; `None`: none saved).
    pub(crate) fn desc(&self, animation: Option<&str>) -> CageDesc {
        let offsets: Vec<[f64; 2]> = self
            .offsets
            .chunks_exact(2)
            .map(|o| [f64::from(o[0]), f64::from(o[1])])
            .collect();
        let animations = match animation {
            Some(a) if self.dragged() => vec![CageKeysDesc {
                animation: a.to_owned(),
                keys: vec![CagePointKey {
                    time: 0.0,
                    curve: CueCurve::Linear,
                    offsets,
                }],
            }],
            _ => Vec::new(),
        };
        CageDesc {
            name: format!("{}-boundary", self.slot),
            slot: self.slot.clone(),
            attachment: self.attachment.clone(),
            loops: Vec::new(),
            drive: CageDrive::Mesh {
                vertices: self.loops.clone(),
            },
            mode: CageMode::Replace,
            animations,
        }
    }
}

/// Binds the boundary cage of the mesh `slot` shows now, and its handles with `offsets`
/// (`None` or a list of another length: none); an error when the slot is unknown, shows no
/// mesh, or the mesh's boundary makes no cage.
pub(crate) fn bind_boundary_cage(
    c: &mut Character,
    slot: &str,
    offsets: Option<&[f32]>,
) -> Result<CageEdit> {
    let id = c
        .find_slot(slot)
        .ok_or_else(|| anyhow!("--cage {slot}: no such slot"))?;
    let att = c
        .attachment(id)
        .ok_or_else(|| anyhow!("--cage {slot}: the slot shows nothing"))?;
    let rig = c.rig().clone();
    let mesh = match rig.attachments.get(att.index()).map(|a| &a.kind) {
        Some(AttachmentKind::Mesh(m)) => m,
        _ => return Err(anyhow!("--cage {slot}: the slot does not show a mesh")),
    };
    // A linked mesh shares its parent's triangles.
    let triangles = match mesh
        .parent_mesh
        .and_then(|p| rig.attachments.get(p.index()))
    {
        Some(sinew::rig::Attachment {
            kind: AttachmentKind::Mesh(parent),
            ..
        }) if mesh.triangles.is_empty() => &parent.triangles,
        _ => &mesh.triangles,
    };
    let mut world = Vec::new();
    c.world_vertices(id, &mut world);
    let points: Vec<[f64; 2]> = world
        .chunks_exact(2)
        .map(|p| [f64::from(p[0]), f64::from(p[1])])
        .collect();
    let tris: Vec<[u32; 3]> = triangles
        .chunks_exact(3)
        .map(|t| [u32::from(t[0]), u32::from(t[1]), u32::from(t[2])])
        .collect();
    let (cage, boundary) =
        Cage::from_mesh(&points, &tris).map_err(|e| anyhow!("--cage {slot}: {e}"))?;
    let loops =
        sinew::cage::boundary_loops(&points, &tris).map_err(|e| anyhow!("--cage {slot}: {e}"))?;
    let setup = rig.slots.get(id.index()).and_then(|s| s.attachment);
    let shown = rig.attachments.get(att.index());
    let attachment = shown
        .filter(|a| Some(a.key) != setup)
        .map(|a| a.name.clone());
    let targets: Vec<u32> = (0..points.len() as u32).collect();
    let def = CageDeformer::new(
        &cage,
        &points,
        targets.clone(),
        CageSource::MeshVertices(boundary),
        CageMode::Replace,
    )
    .map_err(|e| anyhow!("--cage {slot}: {e}"))?;
    let handles = CageDeformer::new(
        &cage,
        &points,
        targets,
        CageSource::External,
        CageMode::Offset,
    )
    .map_err(|e| anyhow!("--cage {slot}: {e}"))?;
    let bind = handles.cage().to_vec();
    let boundary = c
        .add_cage(id, att, def)
        .map_err(|e| anyhow!("--cage {slot}: {e}"))?;
    let handles = c
        .add_cage(id, att, handles)
        .map_err(|e| anyhow!("--cage {slot}: {e}"))?;
    let offsets = match offsets {
        Some(o) if o.len() == bind.len() => o.to_vec(),
        _ => vec![0.0; bind.len()],
    };
    let edit = CageEdit {
        slot: slot.to_owned(),
        boundary,
        handles,
        bind,
        offsets,
        loops,
        attachment,
    };
    edit.apply(c);
    c.update(0.0);
    Ok(edit)
}

/// The slots that show a mesh now, for the panel's list.
pub(crate) fn mesh_slots(c: &Character) -> Vec<String> {
    let rig = c.rig();
    rig.slots
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            c.find_slot(&rig.slots[*i].name)
                .and_then(|s| c.attachment(s))
                .and_then(|a| rig.attachments.get(a.index()))
                .is_some_and(|a| matches!(a.kind, AttachmentKind::Mesh(_)))
        })
        .map(|(_, s)| s.name.clone())
        .collect()
}
