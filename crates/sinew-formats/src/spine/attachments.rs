//! `skins` of a Spine 4.2 JSON file: skin-scoped bones/constraints and attachments of all
//! seven kinds (region, mesh, linked mesh, bounding box, path, point, clipping).
//!
//! Follows spine-ts `SkeletonJson.readAttachment`/`readVertices`: a vertex list whose length
//! equals the expected float count is unweighted, otherwise it is weighted
//! (`[n, (bone, x, y, weight) x n]` per vertex). Every count is checked against the data
//! actually present, so nothing is allocated for a count the file merely declares.
//! Verified by the fixture tests and `tests/all/errors.rs`.

use super::limits::*;
use super::skeleton::{Names, find, name_list};
use crate::json::*;
use serde_json::Value;
use sinew::raw::*;
use sinew::types::Color;
use std::collections::{HashMap, HashSet};

/// What later sections need to know about an attachment (deform and sequence timelines).
#[derive(Clone, Copy)]
pub(crate) enum Shape<'j> {
    /// A vertex attachment whose deform keys hold `floats` values.
    Vertex { floats: usize, mesh: bool },
    /// A linked mesh: its geometry is its parent's.
    Linked {
        skin: Option<&'j str>,
        parent: &'j str,
        /// The parent's slot when another (Spine 4.3 `slot`).
        slot: Option<&'j str>,
    },
    /// A region.
    Region,
    /// A point.
    Point,
}

/// Attachments by (skin index, slot index, key).
pub(crate) type Shapes<'j> = HashMap<(usize, usize, &'j str), Shape<'j>>;

/// Reads `skins`.
pub(crate) fn read_skins<'j>(
    root: &'j Obj,
    rig: &mut RawRig,
    names: &mut Names<'j>,
    shapes: &mut Shapes<'j>,
    at: &Loc,
) -> R<()> {
    let Some(list) = array_opt(root, "skins", at)? else {
        return Ok(());
    };
    let at = at.key("skins");
    check_len(list.len(), MAX_SKINS, "skins", &at)?;
    let mut linked = Vec::new();
    for (si, v) in list.iter().enumerate() {
        let at = at.index(si);
        let m = as_obj(v, &at)?;
        let name = str_req(m, "name", &at)?;
        let at = at.named(name);
        if names.skins.insert(name, si).is_some() {
            return at.err(format!("duplicate skin name `{name}`"));
        }
        let mut skin = RawSkin {
            name: name.to_owned(),
            bones: name_list(m, "bones", &names.bones, "bone", &at)?,
            ik: name_list(m, "ik", &names.ik, "IK constraint", &at)?,
            transforms: name_list(
                m,
                "transform",
                &names.transforms,
                "transform constraint",
                &at,
            )?,
            paths: name_list(m, "path", &names.paths, "path constraint", &at)?,
            physics: name_list(m, "physics", &names.physics, "physics constraint", &at)?,
            sliders: name_list(m, "slider", &names.sliders, "slider", &at)?,
            attachments: Vec::new(),
        };
        if let Some(slots) = obj_opt(m, "attachments", &at)? {
            let at = at.key("attachments");
            for (slot_name, sv) in slots {
                let at = at.key(slot_name);
                let slot = find(&names.slots, slot_name, "slot", &at)?;
                for (key, av) in as_obj(sv, &at)? {
                    let at = at.key(key).named(key);
                    let am = as_obj(av, &at)?;
                    let (attachment, shape) =
                        read_attachment(am, key, slot_name, rig.bones.len(), names.v43, &at)?;
                    if let Shape::Linked { .. } = shape {
                        linked.push(((si, slot, key.as_str()), slot_name.as_str()));
                    }
                    shapes.insert((si, slot, key.as_str()), shape);
                    skin.attachments.push(RawSkinEntry {
                        slot: slot_name.clone(),
                        key: key.clone(),
                        attachment,
                    });
                }
            }
        }
        rig.skins.push(skin);
    }
    resolve_linked_meshes(rig, names, shapes, &linked)
}

/// A key of [`Shapes`].
type Key<'j> = (usize, usize, &'j str);

/// Checks that every linked mesh (`linked`: key and slot name, in file order) names an
/// existing mesh of the same slot in its skin (or the default skin), following chains of
/// linked meshes, and replaces each linked mesh's shape by its source mesh's. Each chain is
/// walked once, so this is linear in the number of attachments.
fn resolve_linked_meshes<'j>(
    rig: &RawRig,
    names: &Names,
    shapes: &mut Shapes<'j>,
    linked: &[(Key<'j>, &'j str)],
) -> R<()> {
    for &(key, slot_name) in linked {
        if let Err(msg) = resolve_chain(names, shapes, key) {
            let skin_name = rig.skins.get(key.0).map_or("", |s| s.name.as_str());
            let root = Loc::root();
            let skins = root.key("skins");
            let s = skins.index(key.0).named(skin_name);
            let a = s.key("attachments");
            let sl = a.key(slot_name);
            let k = sl.key(key.2).named(key.2);
            return k.key(source_key(names.v43)).err(msg);
        }
    }
    Ok(())
}

/// Follows one chain of linked meshes from `start` to its mesh and records that mesh's
/// shape for every linked mesh on the way.
fn resolve_chain<'j>(names: &Names, shapes: &mut Shapes<'j>, start: Key<'j>) -> Result<(), String> {
    let mut path: Vec<Key<'j>> = Vec::new();
    let mut seen: HashSet<Key<'j>> = HashSet::new();
    let mut cur = start;
    let source = loop {
        match shapes.get(&cur).copied() {
            Some(Shape::Linked { skin, parent, slot }) => {
                if !seen.insert(cur) {
                    return Err(format!("linked meshes form a cycle through `{}`", cur.2));
                }
                path.push(cur);
                let skin_index = match skin {
                    Some(s) => *names
                        .skins
                        .get(s)
                        .ok_or_else(|| format!("unknown skin `{s}`"))?,
                    None => *names
                        .skins
                        .get("default")
                        .ok_or_else(|| format!("parent mesh `{parent}`: no default skin"))?,
                };
                let slot_index = match slot {
                    None => cur.1,
                    Some(s) => *names
                        .slots
                        .get(s)
                        .ok_or_else(|| format!("unknown parent slot `{s}`"))?,
                };
                let next = (skin_index, slot_index, parent);
                match shapes.get(&next) {
                    None if slot.is_some() => {
                        return Err(format!(
                            "unknown parent mesh `{parent}` in slot `{}`",
                            slot.unwrap_or_default()
                        ));
                    }
                    None => return Err(format!("unknown parent mesh `{parent}` in the same slot")),
                    Some(Shape::Vertex { mesh: false, .. } | Shape::Region | Shape::Point) => {
                        return Err(format!("parent `{parent}` is not a mesh"));
                    }
                    Some(_) => cur = next,
                }
            }
            Some(shape) => break shape,
            None => return Err(format!("unknown attachment `{}`", cur.2)),
        }
    };
    for k in path {
        shapes.insert(k, source);
    }
    Ok(())
}

/// The key naming a linked mesh's source mesh: 4.2 `parent`, 4.3 `source`.
fn source_key(v43: bool) -> &'static str {
    if v43 { "source" } else { "parent" }
}

/// Reads one attachment; `key` is its skin key, also its default name; `slot` its slot's
/// name; `v43`: the file is Spine 4.3 JSON.
fn read_attachment<'j>(
    m: &'j Obj,
    key: &'j str,
    slot: &str,
    bone_count: usize,
    v43: bool,
    at: &Loc,
) -> R<(RawAttachment, Shape<'j>)> {
    let name = str_opt(m, "name", at)?.unwrap_or(key);
    let ty = str_opt(m, "type", at)?.unwrap_or("region");
    let color = color_opt(m, "color", at)?.unwrap_or(Color::WHITE);
    let path = || -> R<String> { Ok(str_opt(m, "path", at)?.unwrap_or(name).to_owned()) };
    let (kind, shape) = match ty {
        "region" => (
            RawAttachmentKind::Region {
                path: path()?,
                x: f64_or(m, "x", 0.0, at)?,
                y: f64_or(m, "y", 0.0, at)?,
                scale_x: f64_or(m, "scaleX", 1.0, at)?,
                scale_y: f64_or(m, "scaleY", 1.0, at)?,
                rotation: f64_or(m, "rotation", 0.0, at)?,
                width: f64_or(m, "width", 0.0, at)?,
                height: f64_or(m, "height", 0.0, at)?,
                color,
                sequence: read_sequence(m, at)?,
            },
            Shape::Region,
        ),
        "mesh" | "linkedmesh" => {
            let sequence = read_sequence(m, at)?;
            let width = f64_or(m, "width", 0.0, at)?;
            let height = f64_or(m, "height", 0.0, at)?;
            // COMPAT(spine): the presence of `parent` (not the type) makes a linked mesh.
            if let Some(parent) = str_opt(m, source_key(v43), at)? {
                // 4.3 may take the source from another slot (`slot`).
                let source_slot = str_opt(m, "slot", at)?.filter(|s| *s != slot);
                let skin = str_opt(m, "skin", at)?.filter(|s| !s.is_empty());
                let kind = RawAttachmentKind::LinkedMesh {
                    path: path()?,
                    color,
                    parent: parent.to_owned(),
                    skin: skin.map(str::to_owned),
                    parent_slot: source_slot.map(str::to_owned),
                    inherit_timelines: bool_or(m, "timelines", true, at)?,
                    width,
                    height,
                    sequence,
                };
                let shape = Shape::Linked {
                    skin,
                    parent,
                    slot: source_slot,
                };
                (kind, shape)
            } else {
                let Some(uv_list) = array_opt(m, "uvs", at)? else {
                    return at.err("missing `uvs`");
                };
                let uvs = f32_list(uv_list, &at.key("uvs"))?;
                if !uvs.len().is_multiple_of(2) {
                    return at
                        .key("uvs")
                        .err(format!("odd number of uv floats: {}", uvs.len()));
                }
                check_len(uvs.len() / 2, MAX_VERTICES, "vertices", &at.key("uvs"))?;
                let vertices = read_vertices(m, uvs.len(), bone_count, at)?;
                let count = vertices.count as usize;
                let Some(tri_list) = array_opt(m, "triangles", at)? else {
                    return at.err("missing `triangles`");
                };
                let triangles = index_list(tri_list, count, &at.key("triangles"))?;
                if !triangles.len().is_multiple_of(3) {
                    return at.key("triangles").err(format!(
                        "triangle index count {} is not a multiple of 3",
                        triangles.len()
                    ));
                }
                let hull = uint_or(m, "hull", 0, count as u64, at)? as u32;
                let edges = match array_opt(m, "edges", at)? {
                    Some(e) => index_list(e, count * 2, &at.key("edges"))?,
                    None => Vec::new(),
                };
                let floats = deform_floats(&vertices);
                let kind = RawAttachmentKind::Mesh {
                    path: path()?,
                    color,
                    vertices,
                    uvs,
                    triangles,
                    hull,
                    edges,
                    width,
                    height,
                    sequence,
                };
                (kind, Shape::Vertex { floats, mesh: true })
            }
        }
        "boundingbox" => {
            let vertices = read_counted_vertices(m, bone_count, at)?;
            let floats = deform_floats(&vertices);
            (
                RawAttachmentKind::BoundingBox { vertices, color },
                Shape::Vertex {
                    floats,
                    mesh: false,
                },
            )
        }
        "path" => {
            let vertices = read_counted_vertices(m, bone_count, at)?;
            if !vertices.count.is_multiple_of(3) {
                return at.key("vertexCount").err(format!(
                    "path vertex count {} is not a multiple of 3",
                    vertices.count
                ));
            }
            // COMPAT(spine): one length per 3 vertices, zero-filled past the file's list.
            let wanted = vertices.count as usize / 3;
            let mut lengths = match array_opt(m, "lengths", at)? {
                // f64, as the official runtime keeps path lengths in plain numbers.
                Some(l) => f64_list(&l[..l.len().min(wanted)], &at.key("lengths"))?,
                None => Vec::new(),
            };
            lengths.resize(wanted, 0.0);
            let floats = deform_floats(&vertices);
            let kind = RawAttachmentKind::Path {
                closed: bool_or(m, "closed", false, at)?,
                constant_speed: bool_or(m, "constantSpeed", true, at)?,
                vertices,
                lengths,
            };
            (
                kind,
                Shape::Vertex {
                    floats,
                    mesh: false,
                },
            )
        }
        "point" => (
            RawAttachmentKind::Point {
                x: f64_or(m, "x", 0.0, at)?,
                y: f64_or(m, "y", 0.0, at)?,
                rotation: f64_or(m, "rotation", 0.0, at)?,
            },
            Shape::Point,
        ),
        "clipping" => {
            let end = str_opt(m, "end", at)?
                .filter(|s| !s.is_empty())
                .map(str::to_owned);
            // 4.2 has no such keys; a 4.2 file is read as the 4.2 runtime reads it.
            let convex = v43 && bool_or(m, "convex", false, at)?;
            let inverse = v43 && bool_or(m, "inverse", false, at)?;
            let vertices = read_counted_vertices(m, bone_count, at)?;
            let floats = deform_floats(&vertices);
            (
                RawAttachmentKind::Clipping {
                    end,
                    vertices,
                    convex,
                    inverse,
                },
                Shape::Vertex {
                    floats,
                    mesh: false,
                },
            )
        }
        other => {
            return at
                .key("type")
                .err(format!("unknown attachment type `{other}`"));
        }
    };
    Ok((
        RawAttachment {
            name: name.to_owned(),
            kind,
        },
        shape,
    ))
}

/// Floats in a deform key for these vertices: x,y per vertex, or per influence when weighted.
pub(crate) fn deform_floats(v: &Vertices) -> usize {
    if v.is_weighted() {
        v.values.len() / 3 * 2
    } else {
        v.values.len()
    }
}

/// Reads `sequence {count, start (1), digits (0), setup (0)}`.
fn read_sequence(m: &Obj, at: &Loc) -> R<Option<Sequence>> {
    let Some(s) = obj_opt(m, "sequence", at)? else {
        return Ok(None);
    };
    let at = at.key("sequence");
    let count = uint_or(s, "count", 0, MAX_SEQUENCE_FRAMES as u64, &at)? as u32;
    if count == 0 {
        return at.err("a sequence needs at least one frame (`count`)");
    }
    Ok(Some(Sequence {
        count,
        start: uint_or(s, "start", 1, u64::from(MAX_SEQUENCE_START), &at)? as u32,
        digits: uint_or(s, "digits", 0, MAX_SEQUENCE_DIGITS as u64, &at)? as u32,
        setup_index: uint_or(s, "setup", 0, u64::from(u32::MAX), &at)? as u32,
    }))
}

/// Numbers as f32.
fn f32_list(list: &[Value], at: &Loc) -> R<Vec<f32>> {
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let at = at.index(i);
        out.push(to_f32(as_f64(v, &at)?, &at)?);
    }
    Ok(out)
}

/// Finite numbers as f64.
fn f64_list(list: &[Value], at: &Loc) -> R<Vec<f64>> {
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let at = at.index(i);
        let x = as_f64(v, &at)?;
        if !x.is_finite() {
            return at.err(format!("{x} is not a finite number"));
        }
        out.push(x);
    }
    Ok(out)
}

/// Whole numbers below `bound` as u16 (triangle and edge indices).
fn index_list(list: &[Value], bound: usize, at: &Loc) -> R<Vec<u16>> {
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let at = at.index(i);
        let x = as_uint(v, u64::from(u16::MAX), &at)? as usize;
        if x >= bound {
            return at.err(format!("index {x} out of range (must be below {bound})"));
        }
        out.push(x as u16);
    }
    Ok(out)
}

/// Reads `vertexCount` and `vertices` (bounding box, path, clipping).
fn read_counted_vertices(m: &Obj, bone_count: usize, at: &Loc) -> R<Vertices> {
    let Some(v) = member(m, "vertexCount") else {
        return at.err("missing `vertexCount`");
    };
    let count = as_uint(v, MAX_VERTICES as u64, &at.key("vertexCount"))? as usize;
    read_vertices(m, count * 2, bone_count, at)
}

/// Reads `vertices` expecting `floats` coordinates (2 per vertex) when unweighted.
fn read_vertices(m: &Obj, floats: usize, bone_count: usize, at: &Loc) -> R<Vertices> {
    let Some(list) = array_opt(m, "vertices", at)? else {
        return at.err("missing `vertices`");
    };
    let at = at.key("vertices");
    let count = floats / 2;
    if list.len() == floats {
        return Ok(Vertices {
            count: count as u32,
            bones: Vec::new(),
            values: f32_list(list, &at)?,
        });
    }
    let mut bones = Vec::new();
    let mut values = Vec::new();
    let mut read = 0usize;
    let mut i = 0usize;
    while i < list.len() {
        if read == count {
            return at.index(i).err(format!(
                "weighted vertex data continues past the {count} vertices expected"
            ));
        }
        let n = as_uint(&list[i], MAX_INFLUENCES as u64, &at.index(i))? as usize;
        bones.push(n as u32);
        i += 1;
        if list.len() - i < n * 4 {
            return at.index(list.len()).err(format!(
                "weighted vertex {read} needs {n} influences but the data ends"
            ));
        }
        for _ in 0..n {
            let bat = at.index(i);
            let b = as_uint(&list[i], u64::from(u32::MAX), &bat)? as usize;
            if b >= bone_count {
                return bat.err(format!("bone index {b} out of range ({bone_count} bones)"));
            }
            bones.push(b as u32);
            for k in 1..4 {
                let vat = at.index(i + k);
                values.push(to_f32(as_f64(&list[i + k], &vat)?, &vat)?);
            }
            i += 4;
        }
        read += 1;
    }
    if read != count {
        return at.err(format!(
            "vertex data has {} floats: neither {floats} unweighted nor {count} weighted vertices \
             (found {read})",
            list.len()
        ));
    }
    Ok(Vertices {
        count: count as u32,
        bones,
        values,
    })
}
