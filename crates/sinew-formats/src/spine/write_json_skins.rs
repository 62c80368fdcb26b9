//! Skins and attachments of the Spine 4.2 JSON writer: per skin its skin-scoped bones and
//! constraints, then `attachments` by slot and key, every attachment kind with the loader's
//! field names and defaults (vertices flattened as the format lays them out: x, y per
//! vertex, or per vertex an influence count then bone, x, y, weight per influence).

use super::write_json::{Obj, W, fail, hex8, num, num32};
use serde_json::{Map, Value};
use sinew::raw::*;
use sinew::types::{Color, SpineRuntime};

/// The `skins` list.
pub(crate) fn skins(rig: &RawRig) -> W<Vec<Value>> {
    let v43 = rig.runtime == SpineRuntime::V43;
    let mut out = Vec::with_capacity(rig.skins.len());
    for s in &rig.skins {
        let what = format!("skin `{}`", s.name);
        let mut m = Obj::new(&what);
        m.set("name", s.name.as_str());
        for (key, list) in [
            ("bones", &s.bones),
            ("ik", &s.ik),
            ("transform", &s.transforms),
            ("path", &s.paths),
            ("physics", &s.physics),
            ("slider", &s.sliders),
        ] {
            if !list.is_empty() {
                m.set(key, list.clone());
            }
        }
        let mut slots: Map<String, Value> = Map::new();
        for e in &s.attachments {
            let what = format!(
                "skin `{}`, slot `{}`, attachment `{}`",
                s.name, e.slot, e.key
            );
            let a = attachment(&what, e, v43)?;
            let slot = slots
                .entry(e.slot.clone())
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(keys) = slot
                && keys.insert(e.key.clone(), a).is_some()
            {
                return fail(&what, "two attachments of this key in one slot");
            }
        }
        if !slots.is_empty() {
            m.set("attachments", Value::Object(slots));
        }
        out.push(m.build());
    }
    Ok(out)
}

fn floats(what: &str, v: &[f32]) -> W<Value> {
    let mut out = Vec::with_capacity(v.len());
    for &x in v {
        out.push(num32(what, x)?);
    }
    Ok(Value::Array(out))
}

/// Vertices in the format's flat layout.
fn vertices(what: &str, v: &Vertices) -> W<Value> {
    if !v.is_weighted() {
        if v.values.len() != v.count as usize * 2 {
            return fail(
                what,
                format!("{} values for {} vertices", v.values.len(), v.count),
            );
        }
        return floats(what, &v.values);
    }
    let mut out = Vec::with_capacity(v.bones.len() + v.values.len());
    let (mut b, mut k) = (0usize, 0usize);
    for _ in 0..v.count {
        let Some(&n) = v.bones.get(b) else {
            return fail(what, "weighted vertices: the bone list ends early");
        };
        b += 1;
        out.push(Value::from(n));
        for _ in 0..n {
            let (Some(&bone), Some(vals)) = (v.bones.get(b), v.values.get(k..k + 3)) else {
                return fail(what, "weighted vertices: the bone or value list ends early");
            };
            out.push(Value::from(bone));
            for &x in vals {
                out.push(num32(what, x)?);
            }
            b += 1;
            k += 3;
        }
    }
    if b != v.bones.len() || k != v.values.len() {
        return fail(what, "weighted vertices: lists longer than the count");
    }
    Ok(Value::Array(out))
}

fn sequence(m: &mut Obj, s: &Option<Sequence>) {
    if let Some(s) = s {
        let mut q = Map::new();
        q.insert("count".into(), s.count.into());
        q.insert("start".into(), s.start.into());
        q.insert("digits".into(), s.digits.into());
        q.insert("setup".into(), s.setup_index.into());
        m.set("sequence", Value::Object(q));
    }
}

fn color(m: &mut Obj, c: Color) {
    if c != Color::WHITE {
        m.set("color", hex8([c.r, c.g, c.b, c.a].map(f64::from)));
    }
}

fn path(m: &mut Obj, path: &str, name: &str) {
    if path != name {
        m.set("path", path);
    }
}

fn attachment(what: &str, e: &RawSkinEntry, v43: bool) -> W<Value> {
    let mut m = Obj::new(what);
    let name = e.attachment.name.as_str();
    if name != e.key {
        m.set("name", name);
    }
    match &e.attachment.kind {
        RawAttachmentKind::Region {
            path: p,
            x,
            y,
            scale_x,
            scale_y,
            rotation,
            width,
            height,
            color: c,
            sequence: s,
        } => {
            path(&mut m, p, name);
            color(&mut m, *c);
            m.num("x", *x, 0.0)?;
            m.num("y", *y, 0.0)?;
            m.num("scaleX", *scale_x, 1.0)?;
            m.num("scaleY", *scale_y, 1.0)?;
            m.num("rotation", *rotation, 0.0)?;
            m.num("width", *width, 0.0)?;
            m.num("height", *height, 0.0)?;
            sequence(&mut m, s);
        }
        RawAttachmentKind::Mesh {
            path: p,
            color: c,
            vertices: v,
            uvs,
            triangles,
            hull,
            edges,
            width,
            height,
            sequence: s,
        } => {
            m.set("type", "mesh");
            path(&mut m, p, name);
            color(&mut m, *c);
            if uvs.len() != v.count as usize * 2 {
                return fail(what, format!("{} UVs for {} vertices", uvs.len(), v.count));
            }
            m.set("uvs", floats(what, uvs)?);
            m.set("triangles", triangles.clone());
            m.set("vertices", vertices(what, v)?);
            m.set("hull", *hull);
            if !edges.is_empty() {
                m.set("edges", edges.clone());
            }
            m.num("width", *width, 0.0)?;
            m.num("height", *height, 0.0)?;
            sequence(&mut m, s);
        }
        RawAttachmentKind::LinkedMesh {
            path: p,
            color: c,
            parent,
            skin,
            parent_slot,
            inherit_timelines,
            width,
            height,
            sequence: s,
        } => {
            m.set("type", "linkedmesh");
            if let Some(ps) = parent_slot {
                if !v43 {
                    return fail(
                        what,
                        "a linked mesh whose source is in another slot is Spine 4.3",
                    );
                }
                m.set("slot", ps.as_str());
            }
            path(&mut m, p, name);
            color(&mut m, *c);
            // 4.3 renamed `parent` to `source`.
            m.set(if v43 { "source" } else { "parent" }, parent.as_str());
            if let Some(skin) = skin {
                m.set("skin", skin.as_str());
            }
            m.flag("timelines", *inherit_timelines, true);
            m.num("width", *width, 0.0)?;
            m.num("height", *height, 0.0)?;
            sequence(&mut m, s);
        }
        RawAttachmentKind::BoundingBox {
            vertices: v,
            color: c,
        } => {
            m.set("type", "boundingbox");
            m.set("vertexCount", v.count);
            m.set("vertices", vertices(what, v)?);
            color(&mut m, *c);
        }
        RawAttachmentKind::Path {
            closed,
            constant_speed,
            vertices: v,
            lengths,
        } => {
            m.set("type", "path");
            m.flag("closed", *closed, false);
            m.flag("constantSpeed", *constant_speed, true);
            m.set("vertexCount", v.count);
            m.set("vertices", vertices(what, v)?);
            let mut l = Vec::with_capacity(lengths.len());
            for &x in lengths {
                l.push(num(what, x)?);
            }
            m.set("lengths", l);
        }
        RawAttachmentKind::Point { x, y, rotation } => {
            m.set("type", "point");
            m.num("x", *x, 0.0)?;
            m.num("y", *y, 0.0)?;
            m.num("rotation", *rotation, 0.0)?;
        }
        RawAttachmentKind::Clipping {
            end,
            vertices: v,
            convex,
            inverse,
        } => {
            if (*convex || *inverse) && !v43 {
                return fail(
                    what,
                    "a clipping attachment's `convex` / `inverse` is Spine 4.3",
                );
            }
            m.set("type", "clipping");
            if let Some(end) = end {
                m.set("end", end.as_str());
            }
            m.flag("convex", *convex, false);
            m.flag("inverse", *inverse, false);
            m.set("vertexCount", v.count);
            m.set("vertices", vertices(what, v)?);
        }
    }
    Ok(m.build())
}
