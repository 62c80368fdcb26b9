//! Attachments: every skin's attachments flattened into `rig.attachments`, checked, with
//! linked meshes resolved and region geometry computed; then `slot_deform_capacity`.
//!
//! A linked mesh copies its parent mesh's geometry (vertices, UVs, triangles, hull, and the
//! nonessential edges; Spine `MeshAttachment.setParentMesh`, which keeps the linked mesh's
//! own width and height), looked up by key in the same slot of the named skin or the default
//! skin. Chains of linked meshes take the geometry of the mesh at the end of the chain. Its `timeline_attachment` is the parent when it
//! inherits timelines (Spine `linkedMesh.inheritTimeline ? parent : mesh`), else itself.
//! Without an atlas every region is [`TextureRegion::full`] of its path (one per sequence
//! frame); `sinew_formats::atlas::bind_atlas` swaps in real regions later.
//! Verified by the unit tests in `build/tests.rs` and the fixture tests in sinew-formats.

use super::intern_key;
use super::region::{region_names, update_mesh_attachment, update_region_attachment};
use crate::ids::*;
use crate::raw::{RawAttachmentKind, RawRig, Sequence, Vertices};
use crate::rig::problem::{BuildProblem, ProblemKind};
use crate::rig::*;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Names an attachment in problem messages.
struct Owner<'a>(&'a str, &'a str, &'a str);

impl fmt::Display for Owner<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "skin `{}`, slot `{}`, attachment `{}`",
            self.0, self.1, self.2
        )
    }
}

/// A linked mesh waiting for its parent.
struct Pending<'r> {
    id: AttachmentId,
    slot: SlotId,
    /// The parent's slot (the linked mesh's own unless Spine 4.3 names another).
    parent_slot: SlotId,
    parent: &'r str,
    parent_skin: Option<&'r str>,
    inherit_timelines: bool,
    owner: Owner<'r>,
}

/// Fills `rig.attachments` and `rig.slot_deform_capacity`.
pub(super) fn build_attachments(raw: &RawRig, rig: &mut Rig, problems: &mut Vec<BuildProblem>) {
    let mut index: HashMap<(usize, SlotId, NameId), AttachmentId> = HashMap::new();
    let mut pending = Vec::new();
    let mut regions_left = super::MAX_TOTAL_REGIONS;
    let bone_count = rig.bones.len();
    for (si, skin) in raw.skins.iter().enumerate() {
        for e in &skin.attachments {
            let owner = Owner(&skin.name, &e.slot, &e.key);
            let slot = match rig.names.slots.get(&e.slot) {
                Some(&s) => s,
                None => {
                    problems.push(BuildProblem::unknown(owner.to_string(), "slot", &e.slot));
                    SlotId(0)
                }
            };
            let key = intern_key(rig, &e.key);
            let id = AttachmentId(rig.attachments.len() as u32);
            if index.insert((si, slot, key), id).is_some() {
                problems.push(BuildProblem::duplicate(
                    owner.to_string(),
                    &e.key,
                    "duplicate attachment key in this skin and slot",
                ));
            }
            let mut regions =
                |path: &str, seq: Option<&Sequence>, problems: &mut Vec<BuildProblem>| {
                    make_regions(path, seq, &owner, &mut regions_left, problems)
                };
            let kind = match &e.attachment.kind {
                RawAttachmentKind::Region {
                    path,
                    x,
                    y,
                    scale_x,
                    scale_y,
                    rotation,
                    width,
                    height,
                    color,
                    sequence,
                } => {
                    let mut r = RegionAttachment {
                        path: path.clone(),
                        x: *x,
                        y: *y,
                        scale_x: *scale_x,
                        scale_y: *scale_y,
                        rotation: *rotation,
                        width: *width,
                        height: *height,
                        color: *color,
                        sequence: *sequence,
                        regions: regions(path, sequence.as_ref(), problems),
                        offsets: Vec::new(),
                        uvs: Vec::new(),
                    };
                    update_region_attachment(&mut r);
                    AttachmentKind::Region(r)
                }
                RawAttachmentKind::Mesh {
                    path,
                    color,
                    vertices,
                    uvs,
                    triangles,
                    hull,
                    edges,
                    width,
                    height,
                    sequence,
                } => {
                    check_mesh(
                        vertices, uvs, triangles, *hull, edges, bone_count, &owner, problems,
                    );
                    let mut m = MeshAttachment {
                        path: path.clone(),
                        color: *color,
                        vertices: vertices.clone(),
                        region_uvs: uvs.clone(),
                        triangles: triangles.clone(),
                        hull: *hull,
                        edges: edges.clone(),
                        width: *width,
                        height: *height,
                        sequence: *sequence,
                        regions: regions(path, sequence.as_ref(), problems),
                        uvs: Vec::new(),
                        parent_mesh: None,
                    };
                    update_mesh_attachment(&mut m, |_| None);
                    AttachmentKind::Mesh(m)
                }
                RawAttachmentKind::LinkedMesh {
                    path,
                    color,
                    parent,
                    skin: parent_skin,
                    parent_slot,
                    inherit_timelines,
                    width,
                    height,
                    sequence,
                } => {
                    let parent_slot = match parent_slot {
                        None => slot,
                        Some(n) => match rig.names.slots.get(n) {
                            Some(&s) => s,
                            None => {
                                problems.push(BuildProblem::unknown(
                                    Owner(&skin.name, &e.slot, &e.key).to_string(),
                                    "slot",
                                    n,
                                ));
                                slot
                            }
                        },
                    };
                    pending.push(Pending {
                        id,
                        slot,
                        parent_slot,
                        parent,
                        parent_skin: parent_skin.as_deref(),
                        inherit_timelines: *inherit_timelines,
                        owner: Owner(&skin.name, &e.slot, &e.key),
                    });
                    // Geometry is filled in once every parent exists.
                    AttachmentKind::Mesh(MeshAttachment {
                        path: path.clone(),
                        color: *color,
                        vertices: Vertices::default(),
                        region_uvs: Vec::new(),
                        triangles: Vec::new(),
                        hull: 0,
                        edges: Vec::new(),
                        width: *width,
                        height: *height,
                        sequence: *sequence,
                        regions: regions(path, sequence.as_ref(), problems),
                        uvs: Vec::new(),
                        parent_mesh: None,
                    })
                }
                RawAttachmentKind::BoundingBox { vertices, color } => {
                    check_vertices(vertices, bone_count, &owner, problems);
                    AttachmentKind::BoundingBox {
                        vertices: vertices.clone(),
                        color: *color,
                    }
                }
                RawAttachmentKind::Path {
                    closed,
                    constant_speed,
                    vertices,
                    lengths,
                } => {
                    check_vertices(vertices, bone_count, &owner, problems);
                    if !vertices.count.is_multiple_of(3)
                        || lengths.len() != vertices.count as usize / 3
                    {
                        problems.push(BuildProblem::new(
                            ProblemKind::Geometry,
                            owner.to_string(),
                            format!(
                                "a path needs 3 vertices per curve point and one length per \
                                 point ({} vertices, {} lengths)",
                                vertices.count,
                                lengths.len()
                            ),
                        ));
                    }
                    AttachmentKind::Path(PathAttachment {
                        closed: *closed,
                        constant_speed: *constant_speed,
                        vertices: vertices.clone(),
                        lengths: lengths.clone(),
                    })
                }
                RawAttachmentKind::Point { x, y, rotation } => AttachmentKind::Point {
                    x: *x,
                    y: *y,
                    rotation: *rotation,
                },
                RawAttachmentKind::Clipping {
                    end,
                    vertices,
                    convex,
                    inverse,
                } => {
                    check_vertices(vertices, bone_count, &owner, problems);
                    let end = end.as_ref().map(|s| match rig.names.slots.get(s) {
                        Some(&id) => id,
                        None => {
                            problems.push(BuildProblem::unknown(owner.to_string(), "end slot", s));
                            SlotId(0)
                        }
                    });
                    AttachmentKind::Clipping {
                        end,
                        vertices: vertices.clone(),
                        convex: *convex || *inverse,
                        inverse: *inverse,
                    }
                }
            };
            rig.attachments.push(Attachment {
                name: e.attachment.name.clone(),
                key,
                slot,
                timeline_attachment: id,
                timeline_slots: Vec::new(),
                kind,
            });
        }
    }
    resolve_linked(raw, rig, &index, &pending, problems);
    rig.slot_deform_capacity = vec![0; rig.slots.len()];
    for a in &rig.attachments {
        if let (Some(v), Some(cap)) = (
            a.vertices(),
            rig.slot_deform_capacity.get_mut(a.slot.index()),
        ) {
            *cap = (*cap).max(deform_len(v) as u32);
        }
    }
}

/// Floats in a deform buffer for these vertices: x,y per vertex, or per influence.
pub(super) fn deform_len(v: &Vertices) -> usize {
    if v.is_weighted() {
        v.values.len() / 3 * 2
    } else {
        v.values.len()
    }
}

/// One full-page region per sequence frame (or one), within the rig-wide region budget.
fn make_regions(
    path: &str,
    seq: Option<&Sequence>,
    owner: &Owner,
    left: &mut usize,
    problems: &mut Vec<BuildProblem>,
) -> Vec<TextureRegion> {
    let too_big = |s: &Sequence| s.count == 0 || s.count as usize > *left || s.digits > 10;
    if let Some(s) = seq.filter(|s| too_big(s)) {
        problems.push(BuildProblem::new(
            ProblemKind::Geometry,
            owner.to_string(),
            format!(
                "sequence of {} frames with {} digits is empty or too large",
                s.count, s.digits
            ),
        ));
        return vec![TextureRegion::full(path)];
    }
    let names = region_names(path, seq);
    *left = left.saturating_sub(names.len());
    names.iter().map(|n| TextureRegion::full(n)).collect()
}

/// Checks a vertex list's layout: coordinates per vertex, or influence counts, bone indices
/// below `bone_count` and (x, y, weight) per influence.
fn check_vertices(
    v: &Vertices,
    bone_count: usize,
    owner: &Owner,
    problems: &mut Vec<BuildProblem>,
) {
    if !v.is_weighted() {
        if v.values.len() != v.count as usize * 2 {
            problems.push(BuildProblem::new(
                ProblemKind::Geometry,
                owner.to_string(),
                format!(
                    "{} vertices need {} floats, found {}",
                    v.count,
                    v.count * 2,
                    v.values.len()
                ),
            ));
        }
        return;
    }
    let (mut i, mut vertices, mut influences) = (0usize, 0usize, 0usize);
    while i < v.bones.len() {
        let n = v.bones[i] as usize;
        let end = i.saturating_add(1).saturating_add(n);
        if end > v.bones.len() {
            problems.push(BuildProblem::new(
                ProblemKind::Geometry,
                owner.to_string(),
                format!("weighted vertex {vertices} runs off the end of the bone list"),
            ));
            return;
        }
        if let Some(&b) = v.bones[i + 1..end]
            .iter()
            .find(|&&b| b as usize >= bone_count)
        {
            problems.push(BuildProblem::new(
                ProblemKind::Geometry,
                owner.to_string(),
                format!("weighted vertex {vertices} names bone index {b} ({bone_count} bones)"),
            ));
            return;
        }
        influences += n;
        vertices += 1;
        i = end;
    }
    if vertices != v.count as usize || v.values.len() != influences * 3 {
        problems.push(BuildProblem::new(ProblemKind::Geometry, owner.to_string(), format!("weighted data has {vertices} vertices and {} values for {} vertices and {influences} influences",
            v.values.len(),
            v.count
        )));
    }
}

/// Checks a mesh's vertices, UVs, triangles, hull and edges against each other.
#[allow(clippy::too_many_arguments)]
fn check_mesh(
    v: &Vertices,
    uvs: &[f32],
    triangles: &[u16],
    hull: u32,
    edges: &[u16],
    bone_count: usize,
    owner: &Owner,
    problems: &mut Vec<BuildProblem>,
) {
    check_vertices(v, bone_count, owner, problems);
    let n = v.count as usize;
    if n > u16::MAX as usize + 1 {
        problems.push(BuildProblem::new(
            ProblemKind::Geometry,
            owner.to_string(),
            format!("{n} vertices (a mesh holds at most 65536)"),
        ));
    }
    if uvs.len() != n * 2 {
        problems.push(BuildProblem::new(
            ProblemKind::Geometry,
            owner.to_string(),
            format!("{n} vertices but {} uv floats", uvs.len()),
        ));
    }
    if !triangles.len().is_multiple_of(3) {
        problems.push(BuildProblem::new(
            ProblemKind::Geometry,
            owner.to_string(),
            format!(
                "{} triangle indices is not a multiple of 3",
                triangles.len()
            ),
        ));
    }
    if let Some(t) = triangles.iter().find(|&&t| t as usize >= n) {
        problems.push(BuildProblem::new(
            ProblemKind::Geometry,
            owner.to_string(),
            format!("triangle index {t} out of range ({n} vertices)"),
        ));
    }
    if hull as usize > n {
        problems.push(BuildProblem::new(
            ProblemKind::Geometry,
            owner.to_string(),
            format!("hull of {hull} vertices exceeds the {n} vertices"),
        ));
    }
    if let Some(e) = edges.iter().find(|&&e| e as usize >= n * 2) {
        problems.push(BuildProblem::new(
            ProblemKind::Geometry,
            owner.to_string(),
            format!("edge index {e} out of range ({n} vertices)"),
        ));
    }
}

/// Gives every linked mesh its parent's geometry, parent id and timeline attachment.
fn resolve_linked(
    raw: &RawRig,
    rig: &mut Rig,
    index: &HashMap<(usize, SlotId, NameId), AttachmentId>,
    pending: &[Pending],
    problems: &mut Vec<BuildProblem>,
) {
    let mut skin_index: HashMap<&str, usize> = HashMap::new();
    for (i, s) in raw.skins.iter().enumerate().rev() {
        skin_index.insert(&s.name, i);
    }
    // Direct parents first.
    let mut parent_of: HashMap<AttachmentId, AttachmentId> = HashMap::new();
    for p in pending {
        let skin = match p.parent_skin {
            Some(name) => skin_index
                .get(name)
                .copied()
                .ok_or_else(|| format!("unknown skin `{name}`")),
            None => skin_index
                .get("default")
                .copied()
                .ok_or_else(|| "there is no default skin".to_owned()),
        };
        let parent = skin.and_then(|s| {
            rig.names
                .attachment_keys
                .get(p.parent)
                .and_then(|&k| index.get(&(s, p.parent_slot, k)))
                .copied()
                .ok_or_else(|| {
                    if p.parent_slot == p.slot {
                        format!("no parent mesh `{}` in the same slot", p.parent)
                    } else {
                        format!(
                            "no parent mesh `{}` in slot `{}`",
                            p.parent,
                            rig.slots[p.parent_slot.index()].name
                        )
                    }
                })
        });
        match parent {
            Ok(id) if matches!(rig.attachments[id.index()].kind, AttachmentKind::Mesh(_)) => {
                parent_of.insert(p.id, id);
                // 4.3: the parent's timelines apply in this slot too.
                let slots = &mut rig.attachments[id.index()].timeline_slots;
                if p.inherit_timelines && p.parent_slot != p.slot && !slots.contains(&p.slot) {
                    slots.push(p.slot);
                }
            }
            Ok(_) => problems.push(BuildProblem::new(
                ProblemKind::Hierarchy,
                p.owner.to_string(),
                format!("parent `{}` is not a mesh", p.parent),
            )),
            Err(msg) => problems.push(BuildProblem::new(
                ProblemKind::Value,
                p.owner.to_string(),
                msg,
            )),
        }
    }
    // Follow linked parents to the mesh that owns the geometry, remembering every answer so
    // each chain is walked once (None: a cycle, or a chain with an unresolved link).
    let pending_ids: HashSet<AttachmentId> = pending.iter().map(|p| p.id).collect();
    let mut source_of: HashMap<AttachmentId, Option<AttachmentId>> = HashMap::new();
    for p in pending {
        let Some(&parent) = parent_of.get(&p.id) else {
            continue;
        };
        let mut path = vec![p.id];
        let mut seen: HashSet<AttachmentId> = path.iter().copied().collect();
        let mut cur = parent;
        let found = loop {
            if let Some(&memo) = source_of.get(&cur) {
                break memo;
            }
            match parent_of.get(&cur) {
                Some(&next) if seen.insert(cur) => {
                    path.push(cur);
                    cur = next;
                }
                Some(_) => break None,
                None if pending_ids.contains(&cur) => break None,
                None => break Some(cur),
            }
        };
        for id in path {
            source_of.insert(id, found);
        }
        let Some(source) = found else {
            problems.push(BuildProblem::new(
                ProblemKind::Hierarchy,
                p.owner.to_string(),
                "linked meshes form a cycle or an unresolved chain",
            ));
            continue;
        };
        let AttachmentKind::Mesh(src) = &rig.attachments[source.index()].kind else {
            continue;
        };
        let (vertices, region_uvs, triangles, hull, edges) = (
            src.vertices.clone(),
            src.region_uvs.clone(),
            src.triangles.clone(),
            src.hull,
            src.edges.clone(),
        );
        let att = &mut rig.attachments[p.id.index()];
        att.timeline_attachment = if p.inherit_timelines { parent } else { p.id };
        if let AttachmentKind::Mesh(m) = &mut att.kind {
            m.vertices = vertices;
            m.region_uvs = region_uvs;
            m.triangles = triangles;
            m.hull = hull;
            m.edges = edges;
            m.parent_mesh = Some(parent);
            update_mesh_attachment(m, |_| None);
        }
    }
}
