//! Cages the viewer binds itself (`--cage SLOT`, the panel's "Cages" list): the mesh a slot
//! shows gets the cage its own boundary makes ([`Cage::from_mesh`]), driven by those
//! boundary vertices ([`CageSource::MeshVertices`]) and moving every vertex of the mesh
//! ([`CageMode::Replace`]), bound to where the vertices are now. The interior then follows
//! the boundary by mean value coordinates instead of its own skinning, which is what a
//! boundary cage does; the overlay shows the cage.

use anyhow::{Result, anyhow};
use sinew::Character;
use sinew::cage::Cage;
use sinew::deform::cage_stage::{CageDeformer, CageMode, CageSource};
use sinew::rig::AttachmentKind;

/// Binds the boundary cage of the mesh `slot` shows now; an error when the slot is unknown,
/// shows no mesh, or the mesh's boundary makes no cage.
pub(crate) fn bind_boundary_cage(c: &mut Character, slot: &str) -> Result<()> {
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
    let targets = (0..points.len() as u32).collect();
    let def = CageDeformer::new(
        &cage,
        &points,
        targets,
        CageSource::MeshVertices(boundary),
        CageMode::Replace,
    )
    .map_err(|e| anyhow!("--cage {slot}: {e}"))?;
    c.add_cage(id, att, def)
        .map_err(|e| anyhow!("--cage {slot}: {e}"))?;
    c.update(0.0);
    Ok(())
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
