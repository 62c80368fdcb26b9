//! The node tree of a puppet into bones, slots, mesh attachments, z-sorts, drawing details
//! and physics drivers (see the module docs of [`super`] for the mapping).

use super::{DrawInfo, MaskMode, Puppet};
use crate::json::lenient::{f64_or_default, f64s_or_default};
use crate::json::{Problem, R};
use serde_json::Value;
use sinew::params::driver::{DriverMap, PendulumModel};
use sinew::params::raw::RawDriver;
use sinew::raw::{
    RawAttachment, RawAttachmentKind, RawBone, RawSkin, RawSkinEntry, RawSlot, Vertices,
};
use sinew::types::Color;
use std::collections::HashMap;

/// Deepest node nesting accepted.
const MAX_DEPTH: usize = 256;
/// Most nodes accepted.
const MAX_NODES: usize = 60_000;
/// Most vertices in one mesh (triangle indices are u16).
const MAX_MESH_VERTS: usize = 65_536;

/// What the parameter reader needs to know about a node.
#[derive(Debug, Clone)]
pub(crate) struct NodeInfo {
    pub bone: String,
    pub slot: Option<String>,
    pub kind: String,
    pub name: String,
}

/// Nodes by uuid.
pub(crate) type Tree = HashMap<u64, NodeInfo>;

struct Ctx<'p> {
    p: &'p mut Puppet,
    tree: Tree,
    bone_names: HashMap<String, u32>,
    slot_names: HashMap<String, u32>,
    skin: RawSkin,
    root_bone: Option<String>,
    pending_masks: Vec<(usize, Vec<(u64, MaskMode)>)>,
    physics: Option<(f64, f64)>,
}

fn floats(v: Option<&Value>, path: &str, name: &str) -> R<Vec<f32>> {
    let Some(a) = v.and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    a.iter()
        .map(|x| {
            x.as_f64()
                .filter(|x| x.is_finite())
                .map(|x| x as f32)
                .ok_or_else(|| Problem::at(path, Some(name), "expected an array of finite numbers"))
        })
        .collect()
}

/// A `blend_mode` name (the 19 of Inochi2D 0.8). An unknown or missing name draws Normal, so
/// a mode added by a newer Creator still loads.
fn blend(s: Option<&str>) -> sinew::BlendMode {
    use sinew::BlendMode::*;
    match s.unwrap_or("Normal") {
        "Multiply" => Multiply,
        "Screen" => Screen,
        "Overlay" => Overlay,
        "Darken" => Darken,
        "Lighten" => Lighten,
        "ColorDodge" => ColorDodge,
        "LinearDodge" => LinearDodge,
        "AddGlow" => AddGlow,
        "ColorBurn" => ColorBurn,
        "HardLight" => HardLight,
        "SoftLight" => SoftLight,
        "Difference" => Difference,
        "Exclusion" => Exclusion,
        "Subtract" => Subtract,
        "Inverse" => Inverse,
        "DestinationIn" => DestinationIn,
        "ClipToLower" => ClipToLower,
        "SliceFromLower" => SliceFromLower,
        _ => Normal,
    }
}

fn unique(names: &mut HashMap<String, u32>, name: &str, uuid: u64) -> String {
    let n = if names.contains_key(name) {
        format!("{name} #{uuid}")
    } else {
        name.to_owned()
    };
    names.insert(n.clone(), 0);
    n
}

/// Reads the node tree into the puppet; returns the nodes by uuid.
pub(crate) fn read_nodes(root: &Value, p: &mut Puppet) -> R<Tree> {
    let physics = None;
    let mut cx = Ctx {
        p,
        tree: Tree::new(),
        bone_names: HashMap::new(),
        slot_names: HashMap::new(),
        skin: RawSkin {
            name: "default".into(),
            ..Default::default()
        },
        root_bone: None,
        pending_masks: Vec::new(),
        physics,
    };
    walk(&mut cx, root, None, None, true, "$.nodes".to_owned(), 0)?;
    // Masks name their sources by uuid; resolve once every part is known.
    for (di, masks) in std::mem::take(&mut cx.pending_masks) {
        for (uuid, mode) in masks {
            let src = cx.tree.get(&uuid).and_then(|n| n.slot.clone());
            match src {
                Some(s) => cx.p.draw[di].masks.push((s, mode)),
                None => {
                    let name = cx.p.draw[di].name.clone();
                    return Err(Problem::at(
                        "$.nodes",
                        Some(&name),
                        format!("mask source {uuid} is not a drawable"),
                    ));
                }
            }
        }
    }
    let skin = std::mem::take(&mut cx.skin);
    cx.p.raw.skins.push(skin);
    Ok(cx.tree)
}

/// Physics constants of the puppet (`physics.gravity`, `physics.pixelsPerMeter`).
pub(crate) fn physics_scale(root: &Value) -> f64 {
    let ph = root.get("physics");
    f64_or_default(ph.and_then(|p| p.get("gravity")), 9.8)
        * f64_or_default(ph.and_then(|p| p.get("pixelsPerMeter")), 1000.0)
}

fn walk(
    cx: &mut Ctx,
    node: &Value,
    parent: Option<&str>,
    group: Option<&str>,
    visible: bool,
    path: String,
    depth: usize,
) -> R<()> {
    if depth > MAX_DEPTH {
        return Err(Problem::at(
            path,
            None,
            format!("nodes nested deeper than {MAX_DEPTH}"),
        ));
    }
    if cx.tree.len() >= MAX_NODES {
        return Err(Problem::at(
            path,
            None,
            format!("more than {MAX_NODES} nodes"),
        ));
    }
    let Some(obj) = node.as_object() else {
        return Err(Problem::at(path, None, "a node must be an object"));
    };
    let name = obj
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let kind = obj
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("Node")
        .to_owned();
    // Creator-only editor nodes (and their subtrees) are not part of the puppet.
    if kind == "Camera" {
        return Ok(());
    }
    let uuid = obj
        .get("uuid")
        .and_then(Value::as_u64)
        .ok_or_else(|| Problem::at(&path, Some(&name), "node has no numeric `uuid`"))?;
    if cx.tree.contains_key(&uuid) {
        return Err(Problem::at(
            &path,
            Some(&name),
            format!("duplicate uuid {uuid}"),
        ));
    }
    let bone_name = unique(&mut cx.bone_names, &name, uuid);
    let tr = obj.get("transform");
    let trans = f64s_or_default(tr.and_then(|t| t.get("trans")), [0.0; 3]);
    let rot = f64s_or_default(tr.and_then(|t| t.get("rot")), [0.0; 3]);
    let scale = f64s_or_default(tr.and_then(|t| t.get("scale")), [1.0; 2]);
    let lock = obj
        .get("lockToRoot")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let parent_bone = if lock && parent.is_some() {
        cx.root_bone.as_deref().or(parent)
    } else {
        parent
    };
    let mut bone = RawBone::new(&bone_name, parent_bone);
    bone.x = trans[0];
    bone.y = trans[1];
    // COMPAT(inochi2d): radians about z, converted with the constants the world stage uses.
    bone.rotation = rot[2].to_degrees();
    bone.scale_x = scale[0];
    bone.scale_y = scale[1];
    cx.p.raw.bones.push(bone);
    if cx.root_bone.is_none() {
        cx.root_bone = Some(bone_name.clone());
    }
    let zsort = f64_or_default(obj.get("zsort"), 0.0);
    cx.p.params.zsort.push((bone_name.clone(), zsort));
    let visible = visible && obj.get("enabled").and_then(Value::as_bool).unwrap_or(true);
    let mut info = NodeInfo {
        bone: bone_name.clone(),
        slot: None,
        kind: kind.clone(),
        name: name.clone(),
    };

    let drawable = kind == "Part" || kind == "AnimatedPart" || kind == "MeshGroup";
    if drawable {
        let slot_name = unique(&mut cx.slot_names, &name, uuid);
        read_mesh(cx, obj, &slot_name, &bone_name, &path, &name)?;
        // MeshGroups are never drawn: their mesh only deforms their children.
        if !visible || kind == "MeshGroup" {
            cx.p.params.hidden_slots.push(slot_name.clone());
        }
        if let Some(g) = group {
            cx.p.params
                .slot_groups
                .push((slot_name.clone(), g.to_owned()));
        }
        info.slot = Some(slot_name);
    }
    if kind == "Part" || kind == "AnimatedPart" || kind == "Composite" {
        read_draw_info(cx, obj, &info, kind == "Composite");
    }
    if kind == "SimplePhysics" {
        read_driver(cx, obj, &bone_name, &path, &name)?;
    }
    cx.tree.insert(uuid, info);
    let group = if kind == "Composite" && group.is_none() {
        Some(bone_name.as_str())
    } else {
        group
    };
    if let Some(children) = obj.get("children").and_then(Value::as_array) {
        for (i, c) in children.iter().enumerate() {
            walk(
                cx,
                c,
                Some(&bone_name),
                group,
                visible,
                format!("{path}.children[{i}]"),
                depth + 1,
            )?;
        }
    }
    Ok(())
}

fn read_mesh(
    cx: &mut Ctx,
    obj: &serde_json::Map<String, Value>,
    slot: &str,
    bone: &str,
    path: &str,
    name: &str,
) -> R<()> {
    let mesh = obj
        .get("mesh")
        .ok_or_else(|| Problem::at(path, Some(name), "drawable has no `mesh`"))?;
    let verts = floats(mesh.get("verts"), path, name)?;
    let uvs = floats(mesh.get("uvs"), path, name)?;
    let origin = f64s_or_default(mesh.get("origin"), [0.0; 2]);
    let n = verts.len() / 2;
    if verts.len() % 2 != 0 || n > MAX_MESH_VERTS {
        return Err(Problem::at(
            path,
            Some(name),
            format!(
                "mesh has {} coordinates (pairs, at most {MAX_MESH_VERTS})",
                verts.len()
            ),
        ));
    }
    if uvs.len() != verts.len() {
        return Err(Problem::at(
            path,
            Some(name),
            format!(
                "mesh has {} uv floats for {} vertex floats",
                uvs.len(),
                verts.len()
            ),
        ));
    }
    let idx = mesh
        .get("indices")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    if idx.len() % 3 != 0 || idx.len() > 3 * 4 * MAX_MESH_VERTS {
        return Err(Problem::at(
            path,
            Some(name),
            "mesh index count must be a multiple of 3",
        ));
    }
    let mut triangles = Vec::with_capacity(idx.len());
    for v in idx {
        match v.as_u64() {
            Some(i) if (i as usize) < n => triangles.push(i as u16),
            _ => {
                return Err(Problem::at(
                    path,
                    Some(name),
                    format!("mesh index {v} out of range (0..{n})"),
                ));
            }
        }
    }
    // COMPAT(inochi2d): the shader draws `vert - origin` under the node matrix.
    let values: Vec<f32> = verts
        .chunks_exact(2)
        .flat_map(|v| [v[0] - origin[0] as f32, v[1] - origin[1] as f32])
        .collect();
    let tint = f64s_or_default(obj.get("tint"), [1.0; 3]);
    let opacity = f64_or_default(obj.get("opacity"), 1.0);
    let color = Color::new(
        tint[0] as f32,
        tint[1] as f32,
        tint[2] as f32,
        opacity as f32,
    );
    let texture = obj
        .get("textures")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(Value::as_u64);
    let tex_path = texture
        .filter(|&t| t < u64::from(u32::MAX))
        .map_or_else(String::new, |t| format!("texture{t}"));
    let slot_blend = blend(obj.get("blend_mode").and_then(Value::as_str));
    cx.p.raw.slots.push(RawSlot {
        name: slot.to_owned(),
        bone: bone.to_owned(),
        color,
        dark: None,
        attachment: Some(slot.to_owned()),
        blend: slot_blend,
        visible: true,
    });
    cx.skin.attachments.push(RawSkinEntry {
        slot: slot.to_owned(),
        key: slot.to_owned(),
        attachment: RawAttachment {
            name: slot.to_owned(),
            kind: RawAttachmentKind::Mesh {
                path: tex_path,
                color: Color::WHITE,
                vertices: Vertices {
                    count: n as u32,
                    bones: Vec::new(),
                    values,
                },
                uvs,
                triangles,
                hull: 0,
                edges: Vec::new(),
                width: 0.0,
                height: 0.0,
                sequence: None,
            },
        },
    });
    Ok(())
}

fn read_draw_info(
    cx: &mut Ctx,
    obj: &serde_json::Map<String, Value>,
    info: &NodeInfo,
    composite: bool,
) {
    let tex = |i: usize| {
        obj.get("textures")
            .and_then(Value::as_array)
            .and_then(|a| a.get(i))
            .and_then(Value::as_u64)
            .filter(|&t| t < u64::from(u32::MAX))
            .map(|t| t as u32)
    };
    let tint = f64s_or_default(obj.get("tint"), [1.0; 3]);
    let screen = f64s_or_default(obj.get("screenTint"), [0.0; 3]);
    let mut masks = Vec::new();
    if let Some(a) = obj.get("masks").and_then(Value::as_array) {
        for m in a {
            let mode = match m.get("mode").and_then(Value::as_str) {
                Some("DodgeMask") => MaskMode::DodgeMask,
                _ => MaskMode::Mask,
            };
            if let Some(src) = m.get("source").and_then(Value::as_u64) {
                masks.push((src, mode));
            }
        }
    } else if let Some(a) = obj.get("masked_by").and_then(Value::as_array) {
        // Legacy form: `masked_by` uuids with one `mask_mode`.
        let mode = match obj.get("mask_mode").and_then(Value::as_str) {
            Some("DodgeMask") => MaskMode::DodgeMask,
            _ => MaskMode::Mask,
        };
        masks.extend(a.iter().filter_map(Value::as_u64).map(|u| (u, mode)));
    }
    // A Part's screen tint is shaded per texel (`sinew::draw::DrawCommand::screen`); a
    // Composite's stays with its draw info (its layer's screen tint).
    if !composite
        && screen != [0.0; 3]
        && let Some(slot) = &info.slot
    {
        cx.p.params
            .slot_screens
            .push((slot.clone(), screen.map(|x| x as f32)));
    }
    let di = cx.p.draw.len();
    cx.p.draw.push(DrawInfo {
        name: if composite {
            info.bone.clone()
        } else {
            info.slot.clone().unwrap_or_default()
        },
        composite,
        blend: blend(obj.get("blend_mode").and_then(Value::as_str)),
        tint: tint.map(|x| x as f32),
        screen_tint: screen.map(|x| x as f32),
        opacity: f64_or_default(obj.get("opacity"), 1.0) as f32,
        mask_threshold: f64_or_default(obj.get("mask_threshold"), 0.5) as f32,
        masks: Vec::new(),
        textures: [tex(0), tex(1), tex(2)],
    });
    if !masks.is_empty() {
        cx.pending_masks.push((di, masks));
    }
}

fn read_driver(
    cx: &mut Ctx,
    obj: &serde_json::Map<String, Value>,
    bone: &str,
    path: &str,
    name: &str,
) -> R<()> {
    let param = obj
        .get("param")
        .and_then(Value::as_u64)
        .ok_or_else(|| Problem::at(path, Some(name), "physics node has no `param`"))?;
    let model = match obj.get("model_type").and_then(Value::as_str) {
        Some("SpringPendulum") => PendulumModel::Spring,
        _ => PendulumModel::Rigid,
    };
    let map = match obj.get("map_mode").and_then(Value::as_str) {
        Some("LengthAngle") => DriverMap::LengthAngle,
        Some("XY") => DriverMap::Xy,
        Some("YX") => DriverMap::Yx,
        _ => DriverMap::AngleLength,
    };
    let _ = cx.physics;
    cx.p.params.drivers.push(RawDriver {
        name: bone.to_owned(),
        bone: bone.to_owned(),
        // Resolved to the parameter's name once parameters are read.
        param: format!("#{param}"),
        model,
        map,
        gravity: f64_or_default(obj.get("gravity"), 1.0),
        length: f64_or_default(obj.get("length"), 100.0),
        frequency: f64_or_default(obj.get("frequency"), 1.0),
        angle_damping: f64_or_default(obj.get("angle_damping"), 0.5),
        length_damping: f64_or_default(obj.get("length_damping"), 0.5),
        output_scale: f64s_or_default(obj.get("output_scale"), [1.0; 2]),
        local_only: obj
            .get("local_only")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    });
    Ok(())
}
