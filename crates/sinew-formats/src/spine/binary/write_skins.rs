//! Skins and attachments of the Spine 4.2 binary writer, mirroring `attachments.rs`: the
//! default skin (attachments only, grouped by slot), the named skins (skin-scoped bones and
//! constraints, then attachments) and every attachment kind with its flag bits.
//!
//! The skin named `default` goes in the default-skin section when it holds attachments and
//! nothing skin-scoped; otherwise it is written as the first named skin (which the reader
//! reads back as `default` too). Meshes whose triangle list is shorter than the format's
//! `2 × vertices − hull − 2` triangles are padded with degenerate triangles (which draw
//! nothing); longer ones are refused.

use super::write::{Names, Out, W, lookup, rgba8888};
use sinew::raw::*;
use sinew::types::Color;
use std::collections::HashMap;

/// The skins in the order written, for the animations' skin indices and deform checks.
pub(crate) struct Skins<'a> {
    /// Written index of each skin by name.
    pub index: HashMap<&'a str, usize>,
    /// Attachments by (skin, slot, key).
    pub attachments: HashMap<(&'a str, &'a str, &'a str), &'a RawAttachment>,
    /// Spine 4.3: per source mesh (skin, slot, key), the other slots whose linked meshes
    /// take its timelines (`timelineSlots`).
    pub timeline_slots: HashMap<(&'a str, &'a str, &'a str), Vec<&'a str>>,
}

impl<'a> Skins<'a> {
    /// The attachment a linked mesh ends at (following parents), or the attachment itself.
    pub fn resolve(&self, skin: &'a str, slot: &'a str, key: &'a str) -> Option<&'a RawAttachment> {
        let mut cur = *self.attachments.get(&(skin, slot, key))?;
        let mut slot = slot;
        for _ in 0..=self.attachments.len() {
            match &cur.kind {
                RawAttachmentKind::LinkedMesh {
                    parent,
                    skin: parent_skin,
                    parent_slot,
                    ..
                } => {
                    let ps = parent_skin.as_deref().unwrap_or("default");
                    slot = parent_slot.as_deref().unwrap_or(slot);
                    cur = self.attachments.get(&(ps, slot, parent.as_str()))?;
                }
                _ => return Some(cur),
            }
        }
        None
    }
}

/// Entries of a skin grouped by slot, slots in order of first appearance.
fn by_slot(skin: &RawSkin) -> Vec<(&str, Vec<&RawSkinEntry>)> {
    let mut groups: Vec<(&str, Vec<&RawSkinEntry>)> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for e in &skin.attachments {
        let i = *at.entry(e.slot.as_str()).or_insert_with(|| {
            groups.push((e.slot.as_str(), Vec::new()));
            groups.len() - 1
        });
        groups[i].1.push(e);
    }
    groups
}

fn scoped(s: &RawSkin) -> bool {
    !(s.bones.is_empty()
        && s.ik.is_empty()
        && s.transforms.is_empty()
        && s.paths.is_empty()
        && s.physics.is_empty()
        && s.sliders.is_empty())
}

/// Writes the default and the named skins.
pub(crate) fn write_skins<'a>(
    o: &mut Out,
    rig: &'a RawRig,
    names: &Names,
    nonessential: bool,
) -> W<Skins<'a>> {
    let default = rig.skins.iter().position(|s| s.name == "default");
    let in_section = default.filter(|&i| {
        let s = &rig.skins[i];
        !s.attachments.is_empty() && !scoped(s)
    });
    // Written order: the default skin first (in its section or as the first named skin).
    let mut order: Vec<usize> = default.into_iter().collect();
    order.extend((0..rig.skins.len()).filter(|&i| Some(i) != default));
    let mut skins = Skins {
        index: HashMap::new(),
        attachments: HashMap::new(),
        timeline_slots: HashMap::new(),
    };
    for (w, &i) in order.iter().enumerate() {
        let s = &rig.skins[i];
        skins.index.entry(s.name.as_str()).or_insert(w);
        for e in &s.attachments {
            skins
                .attachments
                .insert((&s.name, &e.slot, &e.key), &e.attachment);
            if let RawAttachmentKind::LinkedMesh {
                parent,
                skin,
                parent_slot: Some(ps),
                inherit_timelines: true,
                ..
            } = &e.attachment.kind
                && *ps != e.slot
            {
                let key = (
                    skin.as_deref().unwrap_or("default"),
                    ps.as_str(),
                    parent.as_str(),
                );
                let list = skins.timeline_slots.entry(key).or_default();
                if !list.contains(&e.slot.as_str()) {
                    list.push(&e.slot);
                }
            }
        }
    }
    o.context(format_args!("default skin"));
    match in_section {
        Some(i) => write_skin_slots(o, rig, names, &skins, &rig.skins[i], nonessential)?,
        None => o.varint(0),
    }
    let named: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| Some(i) != in_section)
        .collect();
    o.context(format_args!("skins"));
    o.count(named.len())?;
    for i in named {
        let s = &rig.skins[i];
        o.context(format_args!("skin `{}`", s.name));
        o.string(Some(&s.name));
        if nonessential {
            o.i32(-1); // editor colour
        }
        use super::constraints43::Kind;
        let mut lists = vec![
            (&s.ik, &names.ik, "IK constraint", Kind::Ik),
            (
                &s.transforms,
                &names.transforms,
                "transform constraint",
                Kind::Transform,
            ),
            (&s.paths, &names.paths, "path constraint", Kind::Path),
            (
                &s.physics,
                &names.physics,
                "physics constraint",
                Kind::Physics,
            ),
        ];
        if o.v43 {
            lists.push((&s.sliders, &names.sliders, "slider", Kind::Slider));
        } else if let Some(n) = s.sliders.first() {
            return o.err(format!("slider `{n}`: sliders exist only in Spine 4.3"));
        }
        o.count(s.bones.len())?;
        for n in &s.bones {
            let k = lookup(o, &names.bones, "bone", n)?;
            o.count(k)?;
        }
        if o.v43 {
            // One list of indices into the 4.3 constraint list.
            o.count(lists.iter().map(|l| l.0.len()).sum())?;
        }
        for &(list, map, what, kind) in &lists {
            if !o.v43 {
                o.count(list.len())?;
            }
            for n in list {
                let k = lookup(o, map, what, n)?;
                let k = names.constraint(o, kind, k);
                o.count(k)?;
            }
        }
        write_skin_slots(o, rig, names, &skins, s, nonessential)?;
    }
    Ok(skins)
}

fn write_skin_slots(
    o: &mut Out,
    rig: &RawRig,
    names: &Names,
    skins: &Skins,
    skin: &RawSkin,
    nonessential: bool,
) -> W<()> {
    let groups = by_slot(skin);
    o.count(groups.len())?;
    for (slot, entries) in groups {
        o.context(format_args!("skin `{}`, slot `{slot}`", skin.name));
        let si = lookup(o, &names.slots, "slot", slot)?;
        o.count(si)?;
        o.count(entries.len())?;
        for e in entries {
            o.context(format_args!(
                "skin `{}`, slot `{slot}`, attachment `{}`",
                skin.name, e.key
            ));
            o.string_ref(Some(&e.key))?;
            write_attachment(o, rig, names, skins, &skin.name, e, nonessential)?;
        }
    }
    Ok(())
}

/// Flag bit 3 and the name when it differs from the key.
fn name_flag(e: &RawSkinEntry) -> u8 {
    if e.attachment.name != e.key { 8 } else { 0 }
}

fn path_flag(path: &str, name: &str) -> u8 {
    if path != name { 16 } else { 0 }
}

fn color_flag(c: Color) -> u8 {
    if c != Color::WHITE { 32 } else { 0 }
}

fn write_attachment(
    o: &mut Out,
    rig: &RawRig,
    names: &Names,
    skins: &Skins,
    skin_name: &str,
    e: &RawSkinEntry,
    nonessential: bool,
) -> W<()> {
    let name = e.attachment.name.as_str();
    let head = |o: &mut Out, f: u8| -> W<()> {
        o.u8(f);
        if f & 8 != 0 {
            o.string_ref(Some(name))?;
        }
        Ok(())
    };
    // Path, colour and sequence, shared by regions, meshes and linked meshes.
    let common = |o: &mut Out, f: u8, path: &str, color: Color, seq: &Option<Sequence>| -> W<()> {
        if f & 16 != 0 {
            o.string_ref(Some(path))?;
        }
        if f & 32 != 0 {
            o.i32(rgba8888(color));
        }
        if let Some(s) = seq {
            for v in [s.count, s.start, s.digits, s.setup_index] {
                o.varint(v);
            }
        }
        Ok(())
    };
    let seq_flag = |s: &Option<Sequence>| if s.is_some() { 64u8 } else { 0 };
    let bone_count = rig.bones.len();
    match &e.attachment.kind {
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
            let f = name_flag(e)
                | path_flag(path, name)
                | color_flag(*color)
                | seq_flag(sequence)
                | if *rotation != 0.0 { 128 } else { 0 };
            head(o, f)?;
            common(o, f, path, *color, sequence)?;
            if f & 128 != 0 {
                o.f64(*rotation)?;
            }
            for v in [*x, *y, *scale_x, *scale_y, *width, *height] {
                o.f64(v)?;
            }
        }
        RawAttachmentKind::BoundingBox { vertices, color } => {
            let f = 1 | name_flag(e) | weighted_flag(vertices, 16);
            head(o, f)?;
            write_vertices(o, vertices, bone_count)?;
            if nonessential {
                o.i32(rgba8888(*color));
            }
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
            let f = 2
                | name_flag(e)
                | path_flag(path, name)
                | color_flag(*color)
                | seq_flag(sequence)
                | weighted_flag(vertices, 128);
            head(o, f)?;
            common(o, f, path, *color, sequence)?;
            let count = vertices.count as usize;
            if *hull as usize > count {
                return o.err(format!("hull {hull} exceeds the {count} vertices"));
            }
            o.varint(*hull);
            write_vertices(o, vertices, bone_count)?;
            if uvs.len() != count * 2 {
                return o.err(format!(
                    "{} UVs for {count} vertices (2 per vertex)",
                    uvs.len()
                ));
            }
            o.floats(uvs)?;
            let Some(tris) = (count * 2).checked_sub(*hull as usize + 2) else {
                return o.err(format!(
                    "{count} vertices with hull {hull} make no triangles"
                ));
            };
            if triangles.len() > tris * 3 || triangles.len() % 3 != 0 {
                return o.err(format!(
                    "{} triangle indices: the format holds exactly {} (2 × vertices − hull − 2 \
                     triangles)",
                    triangles.len(),
                    tris * 3
                ));
            }
            for &t in triangles {
                if usize::from(t) >= count {
                    return o.err(format!(
                        "triangle index {t} out of range ({count} vertices)"
                    ));
                }
                o.varint(u32::from(t));
            }
            for _ in triangles.len()..tris * 3 {
                o.varint(0); // degenerate padding
            }
            if o.v43 {
                // The other slots its timelines apply in (linked meshes there).
                let list = skins
                    .timeline_slots
                    .get(&(skin_name, e.slot.as_str(), e.key.as_str()));
                let list = list.map_or(&[][..], |l| &l[..]);
                o.count(list.len())?;
                for slot in list {
                    o.count(lookup(o, &names.slots, "slot", slot)?)?;
                }
            }
            if nonessential {
                o.count(edges.len())?;
                for &ed in edges {
                    if usize::from(ed) >= count * 2 {
                        return o.err(format!("edge index {ed} out of range"));
                    }
                    o.varint(u32::from(ed));
                }
                o.f64(*width)?;
                o.f64(*height)?;
            }
        }
        RawAttachmentKind::LinkedMesh {
            path,
            color,
            parent,
            skin,
            parent_slot,
            inherit_timelines,
            width,
            height,
            sequence,
        } => {
            if parent_slot.is_some() && !o.v43 {
                return o.err("a linked mesh whose source is in another slot is Spine 4.3");
            }
            let f = 3
                | name_flag(e)
                | path_flag(path, name)
                | color_flag(*color)
                | seq_flag(sequence)
                | if *inherit_timelines { 128 } else { 0 };
            head(o, f)?;
            common(o, f, path, *color, sequence)?;
            if o.v43 {
                // The source's slot.
                let slot = parent_slot.as_deref().unwrap_or(&e.slot);
                let si = lookup(o, &names.slots, "slot", slot)?;
                o.count(si)?;
            }
            let skin_name = skin.as_deref().unwrap_or("default");
            let Some(&si) = skins.index.get(skin_name) else {
                return o.err(format!("linked mesh: unknown parent skin `{skin_name}`"));
            };
            o.count(si)?;
            o.string_ref(Some(parent))?;
            if nonessential {
                o.f64(*width)?;
                o.f64(*height)?;
            }
        }
        RawAttachmentKind::Path {
            closed,
            constant_speed,
            vertices,
            lengths,
        } => {
            let f = 4
                | name_flag(e)
                | if *closed { 16 } else { 0 }
                | if *constant_speed { 32 } else { 0 }
                | weighted_flag(vertices, 64);
            head(o, f)?;
            if !vertices.count.is_multiple_of(3) || lengths.len() != vertices.count as usize / 3 {
                return o.err(format!(
                    "path of {} vertices with {} lengths (3 vertices per length)",
                    vertices.count,
                    lengths.len()
                ));
            }
            write_vertices(o, vertices, bone_count)?;
            for &l in lengths {
                o.f64(l)?;
            }
            if nonessential {
                o.i32(-1);
            }
        }
        RawAttachmentKind::Point { x, y, rotation } => {
            let f = 5 | name_flag(e);
            head(o, f)?;
            o.f64(*rotation)?;
            o.f64(*x)?;
            o.f64(*y)?;
            if nonessential {
                o.i32(-1);
            }
        }
        RawAttachmentKind::Clipping {
            end,
            vertices,
            convex,
            inverse,
        } => {
            if (*convex || *inverse) && !o.v43 {
                return o.err("a clipping attachment's `convex` / `inverse` is Spine 4.3");
            }
            let f = 6
                | name_flag(e)
                | weighted_flag(vertices, 16)
                | if *convex { 32 } else { 0 }
                | if *inverse { 64 } else { 0 };
            head(o, f)?;
            // An index past the slots means no end slot.
            let end = match end {
                Some(s) => lookup(o, &names.slots, "end slot", s)?,
                None => rig.slots.len(),
            };
            o.count(end)?;
            write_vertices(o, vertices, bone_count)?;
            if nonessential {
                o.i32(-1);
            }
        }
    }
    Ok(())
}

fn weighted_flag(v: &Vertices, bit: u8) -> u8 {
    if v.is_weighted() { bit } else { 0 }
}

/// Vertices: the count, then x, y per vertex, or per vertex the influences (bone, x, y,
/// weight).
fn write_vertices(o: &mut Out, v: &Vertices, bone_count: usize) -> W<()> {
    o.varint(v.count);
    if o.v43 && v.is_weighted() {
        // 4.3 writes the length of the bone list (counts and indices) first.
        o.count(v.bones.len())?;
    }
    if !v.is_weighted() {
        if v.values.len() != v.count as usize * 2 {
            return o.err(format!(
                "{} values for {} unweighted vertices",
                v.values.len(),
                v.count
            ));
        }
        return o.floats(&v.values);
    }
    let mut b = 0usize;
    let mut k = 0usize;
    for _ in 0..v.count {
        let Some(&n) = v.bones.get(b) else {
            return o.err("weighted vertices: the bone list ends early");
        };
        b += 1;
        o.varint(n);
        for _ in 0..n {
            let (Some(&bone), Some(vals)) = (v.bones.get(b), v.values.get(k..k + 3)) else {
                return o.err("weighted vertices: the bone or value list ends early");
            };
            if bone as usize >= bone_count {
                return o.err(format!("weighted vertices: bone index {bone} out of range"));
            }
            o.varint(bone);
            o.floats(vals)?;
            b += 1;
            k += 3;
        }
    }
    if b != v.bones.len() || k != v.values.len() {
        return o.err("weighted vertices: the bone and value lists are longer than the count");
    }
    Ok(())
}

/// Floats in a deform key for these vertices (the reader's count).
pub(crate) fn deform_floats(v: &Vertices) -> usize {
    if v.is_weighted() {
        v.values.len() / 3 * 2
    } else {
        v.values.len()
    }
}
