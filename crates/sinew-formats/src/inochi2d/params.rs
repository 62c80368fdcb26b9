//! Parameters and bindings of a puppet into [`RawParams`] (inochi2d.md §3 "Parameters"):
//! Creator parameter groups flattened, axis points kept normalised, each binding a grid over
//! its parameter's one or two axes, targets mapped to bones and slots, rotations converted
//! to degrees.

use super::Puppet;
use super::nodes::{Tree, physics_scale};
use crate::json::{Problem, R};
use serde_json::Value;
use sinew::params::Interp;
use sinew::params::raw::{RawAxis, RawBinding, RawParam, RawTarget};
use std::collections::HashMap;

/// Most bindings accepted.
const MAX_BINDINGS: usize = 100_000;

/// Reads `param` (and resolves the physics drivers' output parameters).
pub(crate) fn read_params(root: &Value, tree: &Tree, p: &mut Puppet) -> R<()> {
    let list = root
        .get("param")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let mut flat: Vec<(String, &Value)> = Vec::new();
    for (i, e) in list.iter().enumerate() {
        // COMPAT(inochi2d): a Creator `.inx` wraps parameters in groups
        // `{groupUUID, name, color, children}`; Inox2D fails on them, sinew flattens them.
        if e.get("groupUUID").is_some() || (e.get("children").is_some() && e.get("uuid").is_none())
        {
            let gname = e
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let mut members = Vec::new();
            for (j, c) in e
                .get("children")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or(&[])
                .iter()
                .enumerate()
            {
                members.push(
                    c.get("name")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned(),
                );
                flat.push((format!("$.param[{i}].children[{j}]"), c));
            }
            p.param_groups.push((gname, members));
        } else {
            flat.push((format!("$.param[{i}]"), e));
        }
    }
    let mut by_uuid: HashMap<u64, String> = HashMap::new();
    let mut names: HashMap<String, ()> = HashMap::new();
    let mut nbind = 0usize;
    for (path, e) in flat {
        let raw_name = e
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let uuid = e.get("uuid").and_then(Value::as_u64).ok_or_else(|| {
            Problem::at(&path, Some(&raw_name), "parameter has no numeric `uuid`")
        })?;
        let name = if names.contains_key(&raw_name) {
            format!("{raw_name} #{uuid}")
        } else {
            raw_name.clone()
        };
        names.insert(name.clone(), ());
        by_uuid.insert(uuid, name.clone());
        let pair = |k: &str, d: f64| -> R<[f64; 2]> {
            match e.get(k) {
                None | Some(Value::Null) => Ok([d, d]),
                Some(v) => {
                    let a = v.as_array().filter(|a| a.len() == 2);
                    let x = a.and_then(|a| Some([a[0].as_f64()?, a[1].as_f64()?]));
                    x.filter(|x| x.iter().all(|v| v.is_finite()))
                        .ok_or_else(|| {
                            Problem::at(
                                &path,
                                Some(&name),
                                format!("`{k}` must be two finite numbers"),
                            )
                        })
                }
            }
        };
        let is_2d = e.get("is_vec2").and_then(Value::as_bool).unwrap_or(false);
        let (min, max, default) = (pair("min", 0.0)?, pair("max", 1.0)?, pair("defaults", 0.0)?);
        let mut axis_points = [vec![0.0, 1.0], vec![0.0]];
        if let Some(ap) = e.get("axis_points").and_then(Value::as_array) {
            for (c, a) in ap.iter().take(2).enumerate() {
                let pts: Option<Vec<f64>> = a
                    .as_array()
                    .and_then(|a| a.iter().map(Value::as_f64).collect());
                match pts {
                    Some(v) if !v.is_empty() && v.len() <= sinew::params::MAX_KEYS => {
                        axis_points[c] = v
                    }
                    _ => {
                        return Err(Problem::at(
                            &path,
                            Some(&name),
                            format!("axis_points[{c}] must be 1..=256 numbers"),
                        ));
                    }
                }
            }
        }
        if !is_2d {
            axis_points[1] = vec![0.0];
        }
        let dims = [axis_points[0].len(), axis_points[1].len()];
        let bindings = e
            .get("bindings")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        nbind += bindings.len();
        if nbind > MAX_BINDINGS {
            return Err(Problem::at(
                &path,
                Some(&name),
                format!("more than {MAX_BINDINGS} bindings"),
            ));
        }
        for (bi, b) in bindings.iter().enumerate() {
            let bpath = format!("{path}.bindings[{bi}]");
            if let Some(rb) = read_binding(b, &bpath, &name, is_2d, dims, tree)? {
                p.params.bindings.push(rb);
            }
        }
        p.params.params.push(RawParam {
            name,
            is_2d,
            min,
            max,
            default,
            axis_points,
        });
    }
    let g = physics_scale(root);
    for d in &mut p.params.drivers {
        d.gravity *= g;
        let uuid = d
            .param
            .trim_start_matches('#')
            .parse::<u64>()
            .unwrap_or(u64::MAX);
        match by_uuid.get(&uuid) {
            Some(n) => d.param = n.clone(),
            None => {
                return Err(Problem::at(
                    "$.nodes",
                    Some(&d.name),
                    format!("physics node drives unknown parameter {uuid}"),
                ));
            }
        }
    }
    Ok(())
}

fn read_binding(
    b: &Value,
    path: &str,
    param: &str,
    is_2d: bool,
    dims: [usize; 2],
    tree: &Tree,
) -> R<Option<RawBinding>> {
    let node_uuid = b
        .get("node")
        .and_then(Value::as_u64)
        .ok_or_else(|| Problem::at(path, Some(param), "binding has no `node`"))?;
    let prop = b.get("param_name").and_then(Value::as_str).unwrap_or("");
    let Some(node) = tree.get(&node_uuid) else {
        return Err(Problem::at(
            path,
            Some(param),
            format!("binding `{prop}` names unknown node {node_uuid}"),
        ));
    };
    let bone = || node.bone.clone();
    let slot = || node.slot.clone();
    let mut scale = 1.0f64;
    let target = match prop {
        "transform.t.x" => RawTarget::BoneX(bone()),
        "transform.t.y" => RawTarget::BoneY(bone()),
        "transform.r.z" => {
            scale = 1f64.to_degrees();
            RawTarget::BoneRotation(bone())
        }
        "transform.s.x" => RawTarget::BoneScaleX(bone()),
        "transform.s.y" => RawTarget::BoneScaleY(bone()),
        "zSort" => RawTarget::BoneZSort(bone()),
        "deform" => match slot() {
            Some(s) => RawTarget::SlotDeform(s),
            None => {
                return Err(Problem::at(
                    path,
                    Some(param),
                    format!("deform binding on `{}`, which has no mesh", node.name),
                ));
            }
        },
        "opacity" if node.slot.is_some() => {
            RawTarget::SlotOpacity(node.slot.clone().unwrap_or_default())
        }
        "tint.r" | "tint.g" | "tint.b" if node.slot.is_some() => {
            RawTarget::SlotTint(node.slot.clone().unwrap_or_default(), channel(prop))
        }
        "screenTint.r" | "screenTint.g" | "screenTint.b" if node.slot.is_some() => {
            RawTarget::SlotScreenTint(node.slot.clone().unwrap_or_default(), channel(prop))
        }
        "opacity" if node.kind == "Composite" => RawTarget::GroupOpacity(bone()),
        "tint.r" | "tint.g" | "tint.b" if node.kind == "Composite" => {
            RawTarget::GroupTint(bone(), channel(prop))
        }
        "screenTint.r" | "screenTint.g" | "screenTint.b" if node.kind == "Composite" => {
            RawTarget::GroupScreenTint(bone(), channel(prop))
        }
        "length" if node.kind == "SimplePhysics" => RawTarget::DriverLength(bone()),
        "gravity" if node.kind == "SimplePhysics" => RawTarget::DriverGravity(bone()),
        // 3D tilts, depth and other physics properties are not represented (see the module
        // docs); such bindings are skipped.
        _ => return Ok(None),
    };
    let interp = match b.get("interpolate_mode").and_then(Value::as_str) {
        Some("Nearest") | Some("Stepped") => Interp::Nearest,
        Some("Cubic") => Interp::Cubic,
        _ => Interp::Linear,
    };
    let deform = matches!(target, RawTarget::SlotDeform(_));
    let grid = b
        .get("values")
        .and_then(Value::as_array)
        .ok_or_else(|| Problem::at(path, Some(param), "binding has no `values` grid"))?;
    if grid.len() != dims[0] {
        return Err(Problem::at(
            path,
            Some(param),
            format!(
                "`values` has {} columns, the parameter {} x keys",
                grid.len(),
                dims[0]
            ),
        ));
    }
    let mut values = Vec::new();
    let mut stride = if deform { None } else { Some(1usize) };
    for (x, col) in grid.iter().enumerate() {
        let col = col
            .as_array()
            .filter(|c| c.len() == dims[1])
            .ok_or_else(|| {
                Problem::at(
                    path,
                    Some(param),
                    format!("`values[{x}]` must hold {} keyforms", dims[1]),
                )
            })?;
        for (y, v) in col.iter().enumerate() {
            let before = values.len();
            if deform {
                let Some(pts) = v.as_array() else {
                    return Err(Problem::at(
                        path,
                        Some(param),
                        format!("`values[{x}][{y}]` must be a list of offsets"),
                    ));
                };
                for pt in pts {
                    let xy = pt
                        .as_array()
                        .filter(|a| a.len() == 2)
                        .and_then(|a| Some([a[0].as_f64()?, a[1].as_f64()?]));
                    let Some([dx, dy]) = xy else {
                        return Err(Problem::at(
                            path,
                            Some(param),
                            format!("`values[{x}][{y}]` holds a bad offset"),
                        ));
                    };
                    values.extend([dx as f32, dy as f32]);
                }
            } else {
                let Some(s) = v.as_f64() else {
                    return Err(Problem::at(
                        path,
                        Some(param),
                        format!("`values[{x}][{y}]` must be a number"),
                    ));
                };
                values.push((s * scale) as f32);
            }
            let n = values.len() - before;
            match stride {
                None => stride = Some(n),
                Some(s) if s != n => {
                    return Err(Problem::at(
                        path,
                        Some(param),
                        format!("`values[{x}][{y}]` has {n} floats, others {s}"),
                    ));
                }
                _ => {}
            }
            if values.len() > 64 << 20 {
                return Err(Problem::at(path, Some(param), "binding values too large"));
            }
        }
    }
    let mut axes = vec![RawAxis {
        param: param.to_owned(),
        component: 0,
        keys: None,
    }];
    if is_2d {
        axes.push(RawAxis {
            param: param.to_owned(),
            component: 1,
            keys: None,
        });
    }
    // A 1D parameter's grid is |x| x 1: one axis over the same values.
    Ok(Some(RawBinding {
        target,
        interp,
        axes,
        stride: stride.unwrap_or(0) as u32,
        values,
    }))
}

fn channel(prop: &str) -> u8 {
    match prop.as_bytes().last() {
        Some(b'g') => 1,
        Some(b'b') => 2,
        _ => 0,
    }
}
