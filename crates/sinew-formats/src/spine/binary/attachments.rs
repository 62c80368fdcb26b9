//! Skins of a Spine 4.2 binary export: the default skin (attachments only), the named skins
//! (colour, skin-scoped bones and constraints, attachments) and every attachment kind:
//! region, bounding box, mesh, linked mesh, path, point and clipping, with sequences.
//!
//! Each attachment starts with a flags byte: bits 0..2 the kind, bit 3 a name of its own
//! (else the skin key), then kind-specific bits (path, colour, sequence, rotation or
//! weighted vertices). Linked meshes name their parent by skin index and key; they are
//! checked, and their skin named, once every skin is read. Verified by `tests/all/skel.rs`
//! (every export loads with the same attachments as its JSON twin) and the golden suite.

use super::Reader;
use super::reader::R;
use super::rgba8888;
use crate::spine::limits::*;
use sinew::raw::*;
use sinew::types::Color;
use std::collections::HashMap;

/// What animations need to know about an attachment (deform and sequence timelines).
#[derive(Clone, Copy)]
pub(super) enum Shape {
    /// A vertex attachment whose deform keys hold `floats` values.
    Vertex { floats: usize, mesh: bool },
    /// A region.
    Region,
    /// A point.
    Point,
    /// A linked mesh not yet resolved (index into the pending list).
    Linked(usize),
}

/// Attachment shapes by skin index, slot index and key.
#[derive(Default)]
pub(super) struct Shapes {
    map: HashMap<(usize, usize), HashMap<String, Shape>>,
}

impl Shapes {
    /// The shape of the attachment `key` of `slot` in `skin`.
    pub fn get(&self, skin: usize, slot: usize, key: &str) -> Option<Shape> {
        self.map
            .get(&(skin, slot))
            .and_then(|m| m.get(key))
            .copied()
    }

    fn insert(&mut self, skin: usize, slot: usize, key: String, shape: Shape) {
        self.map.entry((skin, slot)).or_default().insert(key, shape);
    }
}

/// A linked mesh waiting for its parent.
struct Linked {
    /// Where it is: skin index and entry index in that skin.
    skin: usize,
    entry: usize,
    slot: usize,
    /// Skin index of the parent, and the parent's key in `parent_slot` (its own slot unless
    /// Spine 4.3 names another).
    parent_skin: usize,
    parent: String,
    parent_slot: usize,
    /// Byte offset of the attachment, for errors.
    offset: usize,
}

/// Reads the default skin and the named skins into `rig.skins`.
pub(super) fn read_skins(r: &mut Reader, rig: &mut RawRig, nonessential: bool) -> R<Shapes> {
    let mut shapes = Shapes::default();
    let mut linked = Vec::new();
    r.context(format_args!("default skin"));
    let slot_count = r.count("slots", 2, MAX_SLOTS)?;
    if slot_count > 0 {
        let mut skin = RawSkin {
            name: "default".into(),
            ..Default::default()
        };
        read_skin_slots(
            r,
            rig,
            &mut skin,
            slot_count,
            nonessential,
            &mut shapes,
            &mut linked,
        )?;
        rig.skins.push(skin);
    }
    r.context(format_args!("skins"));
    // The fewest bytes a skin takes: its name and counts of bones, constraints and slots
    // in 4.3 (one constraint list), of bones, four constraint kinds and slots in 4.2.
    let n = r.count("skins", if r.v43 { 4 } else { 7 }, MAX_SKINS)?;
    for i in 0..n {
        r.context(format_args!("skin {i}"));
        let name = r.name("skin name")?;
        r.context(format_args!("skin `{name}`"));
        if nonessential {
            r.i32()?; // editor colour
        }
        let mut skin = RawSkin {
            name,
            ..Default::default()
        };
        skin.bones = names(r, rig.bones.len(), "bone", |i| &rig.bones[i].name)?;
        if r.v43 {
            // One list of indices into the 4.3 constraint list.
            use super::constraints43::{Kind, name_of, unified};
            let list = unified(rig);
            let n = r.count("constraints", 1, list.len())?;
            for _ in 0..n {
                let c = list[r.index("constraint", list.len())?];
                let name = name_of(rig, c).to_owned();
                match c.0 {
                    Kind::Ik => skin.ik.push(name),
                    Kind::Transform => skin.transforms.push(name),
                    Kind::Path => skin.paths.push(name),
                    Kind::Physics => skin.physics.push(name),
                    Kind::Slider => skin.sliders.push(name),
                }
            }
        } else {
            skin.ik = names(r, rig.ik.len(), "IK constraint", |i| &rig.ik[i].name)?;
            skin.transforms = names(r, rig.transforms.len(), "transform constraint", |i| {
                &rig.transforms[i].name
            })?;
            skin.paths = names(r, rig.paths.len(), "path constraint", |i| {
                &rig.paths[i].name
            })?;
            skin.physics = names(r, rig.physics.len(), "physics constraint", |i| {
                &rig.physics[i].name
            })?;
        }
        let slot_count = r.count("slots", 2, MAX_SLOTS)?;
        read_skin_slots(
            r,
            rig,
            &mut skin,
            slot_count,
            nonessential,
            &mut shapes,
            &mut linked,
        )?;
        rig.skins.push(skin);
    }
    resolve_linked(r, rig, &mut shapes, &linked)?;
    Ok(shapes)
}

/// A count and that many indices into a table of `len` items, as names.
fn names<'r>(
    r: &mut Reader,
    len: usize,
    what: &str,
    name: impl Fn(usize) -> &'r String,
) -> R<Vec<String>> {
    let n = r.count(what, 1, MAX_CONSTRAINTS.max(MAX_BONES))?;
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(name(r.index(what, len)?).clone());
    }
    Ok(out)
}

/// The attachments of `slot_count` slots of the skin being read (its index is the next one).
#[allow(clippy::too_many_arguments)]
fn read_skin_slots(
    r: &mut Reader,
    rig: &RawRig,
    skin: &mut RawSkin,
    slot_count: usize,
    nonessential: bool,
    shapes: &mut Shapes,
    linked: &mut Vec<Linked>,
) -> R<()> {
    let skin_index = rig.skins.len();
    for _ in 0..slot_count {
        r.context(format_args!("skin `{}`", skin.name));
        let slot = r.index("slot", rig.slots.len())?;
        let slot_name = &rig.slots[slot].name;
        r.context(format_args!("skin `{}`, slot `{slot_name}`", skin.name));
        let n = r.count("attachments", 2, usize::MAX)?;
        for _ in 0..n {
            let key = r.name_ref("attachment key")?;
            r.context(format_args!(
                "skin `{}`, slot `{slot_name}`, attachment `{key}`",
                skin.name
            ));
            let offset = r.pos();
            let (attachment, shape, link) = read_attachment(r, rig, slot, &key, nonessential)?;
            let shape = match link {
                Some((parent_skin, parent, parent_slot)) => {
                    linked.push(Linked {
                        skin: skin_index,
                        entry: skin.attachments.len(),
                        slot,
                        parent_skin,
                        parent,
                        parent_slot,
                        offset,
                    });
                    Shape::Linked(linked.len() - 1)
                }
                None => shape,
            };
            shapes.insert(skin_index, slot, key.clone(), shape);
            skin.attachments.push(RawSkinEntry {
                slot: slot_name.clone(),
                key,
                attachment,
            });
        }
    }
    Ok(())
}

/// Checks every linked mesh's parent (following chains of linked meshes), gives each its
/// source mesh's shape and names its parent's skin (`None` for the default skin).
fn resolve_linked(r: &Reader, rig: &mut RawRig, shapes: &mut Shapes, linked: &[Linked]) -> R<()> {
    let has_default = rig.skins.first().is_some_and(|s| s.name == "default");
    // The linked meshes a chain walked through: they get the chain's mesh shape too, so no
    // chain is walked twice (linear in the number of linked meshes).
    let mut walked: Vec<usize> = Vec::new();
    for l in linked {
        let mut cur = l;
        let mut steps = 0;
        walked.clear();
        let shape = loop {
            if cur.parent_skin >= rig.skins.len() {
                return r.err_at(
                    l.offset,
                    format!(
                        "linked mesh: skin index {} out of range ({} skins)",
                        cur.parent_skin,
                        rig.skins.len()
                    ),
                );
            }
            match shapes.get(cur.parent_skin, cur.parent_slot, &cur.parent) {
                None => {
                    return r.err_at(
                        l.offset,
                        format!(
                            "linked mesh: unknown parent mesh `{}` in skin `{}` and slot `{}`",
                            cur.parent,
                            rig.skins[cur.parent_skin].name,
                            rig.slots[cur.parent_slot].name
                        ),
                    );
                }
                Some(Shape::Linked(next)) if steps <= linked.len() => {
                    steps += 1;
                    walked.push(next);
                    cur = &linked[next];
                }
                Some(s @ Shape::Vertex { mesh: true, .. }) => break s,
                Some(_) => {
                    return r.err_at(
                        l.offset,
                        format!(
                            "linked mesh: parent `{}` is not a mesh (or the links form a cycle)",
                            cur.parent
                        ),
                    );
                }
            }
        };
        let name = if has_default && l.parent_skin == 0 {
            None
        } else {
            Some(rig.skins[l.parent_skin].name.clone())
        };
        let skin = &mut rig.skins[l.skin];
        let key = skin.attachments[l.entry].key.clone();
        if let RawAttachmentKind::LinkedMesh { skin, .. } =
            &mut skin.attachments[l.entry].attachment.kind
        {
            *skin = name;
        }
        shapes.insert(l.skin, l.slot, key, shape);
        for &w in &walked {
            let m = &linked[w];
            let key = rig.skins[m.skin].attachments[m.entry].key.clone();
            shapes.insert(m.skin, m.slot, key, shape);
        }
    }
    Ok(())
}

/// A linked mesh's parent: skin index and key.
type Link = Option<(usize, String, usize)>;

/// Reads one attachment stored under `key`.
fn read_attachment(
    r: &mut Reader,
    rig: &RawRig,
    slot: usize,
    key: &str,
    nonessential: bool,
) -> R<(RawAttachment, Shape, Link)> {
    let at = r.pos();
    let f = r.u8()?;
    let name = if f & 8 != 0 {
        r.name_ref("attachment name")?
    } else {
        key.to_owned()
    };
    let bone_count = rig.bones.len();
    let color = |r: &mut Reader, bit: u8| -> R<Color> {
        Ok(if f & bit != 0 {
            rgba8888(r.i32()?)
        } else {
            Color::WHITE
        })
    };
    let editor_color = |r: &mut Reader| -> R<Color> {
        Ok(if nonessential {
            rgba8888(r.i32()?)
        } else {
            Color::WHITE
        })
    };
    let mut link = None;
    let (kind, shape) = match f & 7 {
        0 => {
            let path = path_or(r, f, &name)?;
            let color = color(r, 32)?;
            let sequence = sequence(r, f & 64 != 0)?;
            let rotation = if f & 128 != 0 { r.f64()? } else { 0.0 };
            let kind = RawAttachmentKind::Region {
                path,
                x: r.f64()?,
                y: r.f64()?,
                scale_x: r.f64()?,
                scale_y: r.f64()?,
                rotation,
                width: r.f64()?,
                height: r.f64()?,
                color,
                sequence,
            };
            (kind, Shape::Region)
        }
        1 => {
            let vertices = read_vertices(r, f & 16 != 0, bone_count)?;
            let floats = deform_floats(&vertices);
            let color = editor_color(r)?;
            (
                RawAttachmentKind::BoundingBox { vertices, color },
                Shape::Vertex {
                    floats,
                    mesh: false,
                },
            )
        }
        2 => {
            let path = path_or(r, f, &name)?;
            let color = color(r, 32)?;
            let sequence = sequence(r, f & 64 != 0)?;
            let hull_at = r.pos();
            let hull = r.varint()?;
            let vertices = read_vertices(r, f & 128 != 0, bone_count)?;
            let count = vertices.count as usize;
            if hull as usize > count {
                return r.err_at(hull_at, format!("hull {hull} exceeds the {count} vertices"));
            }
            let uvs = r.floats(count * 2)?;
            // Triangles of a triangulated polygon with holes: 2 * vertices - hull - 2.
            let Some(tris) = (count * 2).checked_sub(hull as usize + 2) else {
                return r.err_at(
                    hull_at,
                    format!("{count} vertices with hull {hull} make no triangles"),
                );
            };
            let triangles = indices(r, tris * 3, count)?;
            if r.v43 {
                // The slots its timelines also apply in (linked meshes in other slots); the
                // builder derives the same list from the linked meshes, so it is checked
                // and not kept.
                let n = r.count("timeline slots", 1, rig.slots.len())?;
                for _ in 0..n {
                    r.index("slot", rig.slots.len())?;
                }
            }
            let (edges, width, height) = if nonessential {
                let n = r.count("edge indices", 1, MAX_VERTICES * 4)?;
                (indices(r, n, count * 2)?, r.f64()?, r.f64()?)
            } else {
                (Vec::new(), 0.0, 0.0)
            };
            let floats = deform_floats(&vertices);
            let kind = RawAttachmentKind::Mesh {
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
            };
            (kind, Shape::Vertex { floats, mesh: true })
        }
        3 => {
            let path = path_or(r, f, &name)?;
            let color = color(r, 32)?;
            let sequence = sequence(r, f & 64 != 0)?;
            let inherit_timelines = f & 128 != 0;
            // 4.3: the source mesh's slot.
            let source_slot = if r.v43 {
                r.index("slot", rig.slots.len())?
            } else {
                slot
            };
            let parent_skin = r.varint()? as usize;
            let parent = r.name_ref("linked mesh parent")?;
            let (width, height) = if nonessential {
                (r.f64()?, r.f64()?)
            } else {
                (0.0, 0.0)
            };
            link = Some((parent_skin, parent.clone(), source_slot));
            let kind = RawAttachmentKind::LinkedMesh {
                path,
                color,
                parent,
                skin: None, // named once every skin is read
                parent_slot: (source_slot != slot).then(|| rig.slots[source_slot].name.clone()),
                inherit_timelines,
                width,
                height,
                sequence,
            };
            (kind, Shape::Region)
        }
        4 => {
            let closed = f & 16 != 0;
            let constant_speed = f & 32 != 0;
            let count_at = r.pos();
            let vertices = read_vertices(r, f & 64 != 0, bone_count)?;
            if !vertices.count.is_multiple_of(3) {
                return r.err_at(
                    count_at,
                    format!(
                        "path vertex count {} is not a multiple of 3",
                        vertices.count
                    ),
                );
            }
            let lengths = r
                .floats(vertices.count as usize / 3)?
                .into_iter()
                .map(f64::from)
                .collect();
            editor_color(r)?;
            let floats = deform_floats(&vertices);
            let kind = RawAttachmentKind::Path {
                closed,
                constant_speed,
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
        5 => {
            let rotation = r.f64()?;
            let x = r.f64()?;
            let y = r.f64()?;
            editor_color(r)?;
            (RawAttachmentKind::Point { x, y, rotation }, Shape::Point)
        }
        6 => {
            // COMPAT(spine): an end slot index past the slots means no end slot.
            let end = rig.slots.get(r.varint()? as usize).map(|s| s.name.clone());
            // 4.3 flag bits; 4.2 leaves them clear.
            let (convex, inverse) = (r.v43 && f & 32 != 0, r.v43 && f & 64 != 0);
            let vertices = read_vertices(r, f & 16 != 0, bone_count)?;
            editor_color(r)?;
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
        k => return r.err_at(at, format!("unknown attachment type {k}")),
    };
    Ok((RawAttachment { name, kind }, shape, link))
}

/// The path (flag bit 4: a string reference; null or absent: the name).
fn path_or(r: &mut Reader, f: u8, name: &str) -> R<String> {
    let path = if f & 16 != 0 { r.string_ref()? } else { None };
    Ok(path.unwrap_or_else(|| name.to_owned()))
}

/// A sequence (count, start, digits, setup index), when `present`.
fn sequence(r: &mut Reader, present: bool) -> R<Option<Sequence>> {
    if !present {
        return Ok(None);
    }
    let at = r.pos();
    let count = r.varint()?;
    if count == 0 || count as usize > MAX_SEQUENCE_FRAMES {
        return r.err_at(
            at,
            format!("sequence frame count {count} is not in 1..={MAX_SEQUENCE_FRAMES}"),
        );
    }
    let at = r.pos();
    let start = r.varint()?;
    if start > MAX_SEQUENCE_START {
        return r.err_at(
            at,
            format!("sequence start {start} exceeds {MAX_SEQUENCE_START}"),
        );
    }
    let at = r.pos();
    let digits = r.varint()?;
    if digits as usize > MAX_SEQUENCE_DIGITS {
        return r.err_at(
            at,
            format!("sequence digits {digits} exceed {MAX_SEQUENCE_DIGITS}"),
        );
    }
    Ok(Some(Sequence {
        count,
        start,
        digits,
        setup_index: r.varint()?,
    }))
}

/// `n` vertex indices below `bound`.
fn indices(r: &mut Reader, n: usize, bound: usize) -> R<Vec<u16>> {
    if n > r.remaining() {
        return r.err(format!(
            "{n} indices exceed the remaining {} bytes",
            r.remaining()
        ));
    }
    let mut out = Vec::new();
    for _ in 0..n {
        let at = r.pos();
        let i = r.varint()? as usize;
        if i >= bound || i > usize::from(u16::MAX) {
            return r.err_at(
                at,
                format!("index {i} out of range (must be below {bound})"),
            );
        }
        out.push(i as u16);
    }
    Ok(out)
}

/// Vertices: a count, then x, y per vertex, or (weighted) per vertex an influence count and
/// per influence a bone index, x, y and weight.
fn read_vertices(r: &mut Reader, weighted: bool, bone_count: usize) -> R<Vertices> {
    let count = r.count("vertices", if weighted { 1 } else { 8 }, MAX_VERTICES)?;
    if !weighted {
        return Ok(Vertices {
            count: count as u32,
            bones: Vec::new(),
            values: r.floats(count * 2)?,
        });
    }
    // 4.3 writes the length of the bone list (counts and indices) first.
    let declared = if r.v43 {
        Some((
            r.pos(),
            r.count("bone list", 1, count * (MAX_INFLUENCES + 1))?,
        ))
    } else {
        None
    };
    let mut bones = Vec::new();
    let mut values = Vec::new();
    for _ in 0..count {
        let n = r.count("influences", 13, MAX_INFLUENCES)?;
        bones.push(n as u32);
        for _ in 0..n {
            bones.push(r.index("bone", bone_count)? as u32);
            values.push(r.f32()?);
            values.push(r.f32()?);
            values.push(r.f32()?);
        }
    }
    if let Some((at, n)) = declared
        && n != bones.len()
    {
        return r.err_at(
            at,
            format!(
                "bone list length {n} does not match the {} entries read",
                bones.len()
            ),
        );
    }
    Ok(Vertices {
        count: count as u32,
        bones,
        values,
    })
}

/// Floats in a deform key for these vertices: x,y per vertex, or per influence when weighted.
fn deform_floats(v: &Vertices) -> usize {
    if v.is_weighted() {
        v.values.len() / 3 * 2
    } else {
        v.values.len()
    }
}
