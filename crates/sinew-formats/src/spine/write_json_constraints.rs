//! Constraints of the Spine JSON writer: 4.2's four lists (`ik`, `transform`, `path`,
//! `physics`, each item with its `order`) or 4.3's one `constraints` list in update order,
//! each item with its `type` (4.3 renamed keys: a transform's `target` is its `source`, a
//! path's `target` its `slot`, IK `uniform` became `scaleY`, and the physics defaults of
//! `inertia` and `damping` changed). What a 4.3 file reads back is the same rig.

use super::write_json::{Obj, W, fail, inverse_exact};
use serde_json::{Map, Value};
use sinew::raw::*;
use sinew::types::*;

/// Name, order (4.2 only), skin flag and bones, shared by the constraint kinds.
fn head(m: &mut Obj, name: &str, order: Option<u32>, skin: bool, bones: &[String]) {
    m.set("name", name);
    if let Some(order) = order {
        m.set("order", order);
    }
    m.flag("skin", skin, false);
    if !bones.is_empty() {
        m.set("bones", bones.to_vec());
    }
}

type Lists = (Vec<Value>, Vec<Value>, Vec<Value>, Vec<Value>);

/// The four 4.2 lists.
pub(crate) fn constraints42(rig: &RawRig) -> W<Lists> {
    let mut lists: Lists = Default::default();
    for c in &rig.ik {
        lists.0.push(ik(c, false)?);
    }
    for c in &rig.transforms {
        lists.1.push(transform42(c)?);
    }
    for c in &rig.paths {
        lists.2.push(path(c, false)?);
    }
    for c in &rig.physics {
        lists.3.push(physics(c, false)?);
    }
    if let Some(s) = rig.sliders.first() {
        return fail(
            &format!("slider `{}`", s.name),
            "slider constraints exist only in Spine 4.3",
        );
    }
    Ok(lists)
}

/// The 4.3 list: every constraint in update order (`order`, ties in the 4.2 kind order),
/// each with its `type`.
pub(crate) fn constraints43(rig: &RawRig) -> W<Vec<Value>> {
    use super::binary::constraints43::{Kind, unified};
    unified(rig)
        .into_iter()
        .map(|(kind, i)| {
            Ok(match kind {
                Kind::Ik => typed("ik", ik(&rig.ik[i], true)?),
                Kind::Transform => typed("transform", transform43(&rig.transforms[i])?),
                Kind::Path => typed("path", path(&rig.paths[i], true)?),
                Kind::Physics => typed("physics", physics(&rig.physics[i], true)?),
                Kind::Slider => typed("slider", slider(&rig.sliders[i])?),
            })
        })
        .collect()
}

/// `v` with `type` first, as the editor writes it.
fn typed(kind: &str, v: Value) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), kind.into());
    if let Value::Object(m) = v {
        out.extend(m);
    }
    Value::Object(out)
}

fn ik(c: &RawIk, v43: bool) -> W<Value> {
    let what = format!("IK constraint `{}`", c.name);
    let mut m = Obj::new(&what);
    head(
        &mut m,
        &c.name,
        (!v43).then_some(c.order),
        c.skin_required,
        &c.bones,
    );
    m.set("target", c.target.as_str());
    m.num("mix", c.mix, 1.0)?;
    m.num("softness", c.softness, 0.0)?;
    m.flag("bendPositive", c.bend_positive, true);
    m.flag("compress", c.compress, false);
    m.flag("stretch", c.stretch, false);
    if v43 {
        if c.volume {
            m.set("scaleY", "volume");
        } else if c.uniform {
            m.set("scaleY", "uniform");
        }
    } else if c.volume {
        return fail(&what, "`scaleY: volume` (Spine 4.3) has no Spine 4.2 form");
    } else {
        m.flag("uniform", c.uniform, false);
    }
    Ok(m.build())
}

/// The offsets both versions write under the same keys.
fn transform_offsets(m: &mut Obj, c: &RawTransform) -> W<()> {
    m.num("rotation", c.offset_rotation, 0.0)?;
    m.num("x", c.offset_x, 0.0)?;
    m.num("y", c.offset_y, 0.0)?;
    m.num("scaleX", c.offset_scale_x, 0.0)?;
    m.num("scaleY", c.offset_scale_y, 0.0)?;
    m.num("shearY", c.offset_shear_y, 0.0)
}

fn transform42(c: &RawTransform) -> W<Value> {
    let what = format!("transform constraint `{}`", c.name);
    if !c.properties.is_empty() {
        return fail(
            &what,
            "a Spine 4.3 property mapping has no Spine 4.2 form (write the rig as 4.3)",
        );
    }
    let mut m = Obj::new(&what);
    head(&mut m, &c.name, Some(c.order), c.skin_required, &c.bones);
    m.set("target", c.target.as_str());
    m.flag("local", c.local, false);
    m.flag("relative", c.relative, false);
    transform_offsets(&mut m, c)?;
    m.num("mixRotate", c.mix_rotate, 1.0)?;
    m.num("mixX", c.mix_x, 1.0)?;
    m.num("mixY", c.mix_y, c.mix_x)?;
    m.num("mixScaleX", c.mix_scale_x, 1.0)?;
    m.num("mixScaleY", c.mix_scale_y, c.mix_scale_x)?;
    m.num("mixShearY", c.mix_shear_y, 1.0)?;
    Ok(m.build())
}

/// A property's JSON name.
fn property_name(p: TransformProperty) -> &'static str {
    use TransformProperty as P;
    match p {
        P::Rotate => "rotate",
        P::X => "x",
        P::Y => "y",
        P::ScaleX => "scaleX",
        P::ScaleY => "scaleY",
        P::ShearY => "shearY",
    }
}

fn transform43(c: &RawTransform) -> W<Value> {
    let what = format!("transform constraint `{}`", c.name);
    let mut m = Obj::new(&what);
    head(&mut m, &c.name, None, c.skin_required, &c.bones);
    m.set("source", c.target.as_str());
    m.flag("localSource", c.local, false);
    m.flag("localTarget", c.local_target, false);
    m.flag("additive", c.relative, false);
    m.flag("clamp", c.clamp, false);
    // JSON keys each source property once, and each driven property once per source.
    let mut properties = Map::new();
    for from in &c.properties {
        let from_name = property_name(from.property);
        let mut entry = Obj::new(&what);
        entry.num("offset", from.offset, 0.0)?;
        let mut to = Map::new();
        for t in &from.to {
            let mut te = Obj::new(&what);
            te.num("offset", t.offset, 0.0)?;
            te.num("max", t.max, 1.0)?;
            te.num("scale", t.scale, 1.0)?;
            if to
                .insert(property_name(t.property).into(), te.build())
                .is_some()
            {
                return fail(
                    &what,
                    format!(
                        "`{from_name}` drives `{}` twice (Spine JSON keys it once)",
                        property_name(t.property)
                    ),
                );
            }
        }
        if to.is_empty() {
            continue; // 4.3 drops a source that drives nothing.
        }
        entry.set("to", Value::Object(to));
        if properties.insert(from_name.into(), entry.build()).is_some() {
            return fail(
                &what,
                format!("source property `{from_name}` listed twice (Spine JSON keys it once)"),
            );
        }
    }
    m.set("properties", Value::Object(properties));
    transform_offsets(&mut m, c)?;
    // 4.3 reads a mix only for a driven property (others stay 0); mixY and mixScaleY
    // default to the mix read before them.
    let driven = |p: TransformProperty| {
        c.properties
            .iter()
            .any(|f| f.to.iter().any(|t| t.property == p))
    };
    use TransformProperty as P;
    for (p, key, v, default) in [
        (P::Rotate, "mixRotate", c.mix_rotate, 1.0),
        (P::X, "mixX", c.mix_x, 1.0),
        (P::Y, "mixY", c.mix_y, c.mix_x),
        (P::ScaleX, "mixScaleX", c.mix_scale_x, 1.0),
        (P::ScaleY, "mixScaleY", c.mix_scale_y, c.mix_scale_x),
        (P::ShearY, "mixShearY", c.mix_shear_y, 1.0),
    ] {
        if driven(p) {
            m.num(key, v, default)?;
        }
    }
    Ok(m.build())
}

fn path(c: &RawPath, v43: bool) -> W<Value> {
    let what = format!("path constraint `{}`", c.name);
    let mut m = Obj::new(&what);
    head(
        &mut m,
        &c.name,
        (!v43).then_some(c.order),
        c.skin_required,
        &c.bones,
    );
    m.set(if v43 { "slot" } else { "target" }, c.target.as_str());
    if c.position_mode == PositionMode::Fixed {
        m.set("positionMode", "fixed");
    }
    let spacing = match c.spacing_mode {
        SpacingMode::Length => None,
        SpacingMode::Fixed => Some("fixed"),
        SpacingMode::Percent => Some("percent"),
        SpacingMode::Proportional => Some("proportional"),
    };
    if let Some(s) = spacing {
        m.set("spacingMode", s);
    }
    let rotate = match c.rotate_mode {
        RotateMode::Tangent => None,
        RotateMode::Chain => Some("chain"),
        RotateMode::ChainScale => Some("chainScale"),
    };
    if let Some(r) = rotate {
        m.set("rotateMode", r);
    }
    m.num("rotation", c.offset_rotation, 0.0)?;
    m.num("position", c.position, 0.0)?;
    m.num("spacing", c.spacing, 0.0)?;
    m.num("mixRotate", c.mix_rotate, 1.0)?;
    m.num("mixX", c.mix_x, 1.0)?;
    m.num("mixY", c.mix_y, c.mix_x)?;
    Ok(m.build())
}

fn physics(c: &RawPhysics, v43: bool) -> W<Value> {
    let what = format!("physics constraint `{}`", c.name);
    let mut m = Obj::new(&what);
    head(
        &mut m,
        &c.name,
        (!v43).then_some(c.order),
        c.skin_required,
        &[],
    );
    m.set("bone", c.bone.as_str());
    m.num("x", c.x, 0.0)?;
    m.num("y", c.y, 0.0)?;
    m.num("rotate", c.rotate, 0.0)?;
    m.num("scaleX", c.scale_x, 0.0)?;
    match (c.scale_y, v43) {
        (ScaleYMode::None, _) => {}
        (ScaleYMode::Uniform, true) => m.set("scaleY", "uniform"),
        (ScaleYMode::Volume, true) => m.set("scaleY", "volume"),
        (mode, false) => {
            return fail(
                &what,
                format!("`scaleY: {mode:?}` (Spine 4.3) has no Spine 4.2 form"),
            );
        }
    }
    m.num("shearX", c.shear_x, 0.0)?;
    m.num("limit", c.limit, 5000.0)?;
    if !(c.step > 0.0 && c.step.is_finite()) {
        return fail(&what, format!("step {} s is not 1/fps", c.step));
    }
    m.num("fps", inverse_exact(c.step), 60.0)?;
    // 4.3 changed the loader's defaults of inertia (1 -> 0.5) and damping (1 -> 0.85).
    let (inertia, damping) = if v43 { (0.5, 0.85) } else { (1.0, 1.0) };
    m.num("inertia", c.inertia, inertia)?;
    m.num("strength", c.strength, 100.0)?;
    m.num("damping", c.damping, damping)?;
    if c.mass_inverse == 0.0 || !c.mass_inverse.is_finite() {
        return fail(
            &what,
            format!("mass inverse {} has no mass", c.mass_inverse),
        );
    }
    m.num("mass", inverse_exact(c.mass_inverse), 1.0)?;
    m.num("wind", c.wind, 0.0)?;
    m.num("gravity", c.gravity, 0.0)?;
    m.num("mix", c.mix, 1.0)?;
    m.flag("inertiaGlobal", c.inertia_global, false);
    m.flag("strengthGlobal", c.strength_global, false);
    m.flag("dampingGlobal", c.damping_global, false);
    m.flag("massGlobal", c.mass_global, false);
    m.flag("windGlobal", c.wind_global, false);
    m.flag("gravityGlobal", c.gravity_global, false);
    m.flag("mixGlobal", c.mix_global, false);
    Ok(m.build())
}

/// A 4.3 slider: `time` without a bone, else the bone, its property and mapping.
fn slider(c: &RawSlider) -> W<Value> {
    let what = format!("slider `{}`", c.name);
    let mut m = Obj::new(&what);
    head(&mut m, &c.name, None, c.skin_required, &[]);
    m.set("animation", c.animation.as_str());
    m.flag("additive", c.additive, false);
    m.flag("loop", c.looping, false);
    m.num("mix", c.mix, 1.0)?;
    match &c.bone {
        None => m.num("time", c.time, 0.0)?,
        Some(b) => {
            m.set("bone", b.bone.as_str());
            m.set("property", property_name(b.property));
            m.num("from", b.from, 0.0)?;
            m.num("to", b.to, 0.0)?;
            m.num("scale", b.scale, 1.0)?;
            m.num("max", b.max, 0.0)?;
            m.flag("local", b.local, false);
        }
    }
    Ok(m.build())
}
