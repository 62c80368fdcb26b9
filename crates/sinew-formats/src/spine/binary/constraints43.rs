//! The Spine 4.3 `.skel` constraint list, read and written: one list in update order, each
//! item a name, a type byte (IK 0, path 1, transform 2, physics 3, slider 4) and that
//! type's fields with 4.3's flag layouts (layout learnt from spine-core 4.3.13's
//! `SkeletonBinary`; written here from scratch). Skins and timelines refer to a constraint
//! by its index in this list ([`unified`]). A slider's animation index follows the animations ([`read_slider_animations`]).

use super::bone_list as read_bone_list;
use super::reader::{R, Reader};
use super::write::{Names, Out, W, bone_list, lookup, write_physics_body};
use crate::spine::limits::*;
use sinew::raw::*;
use sinew::types::*;

/// A constraint kind, in 4.2's tie-break order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Ik = 0,
    Transform,
    Path,
    Physics,
    Slider,
}

/// Every constraint as (kind, index in its list), in update order (`order`, ties in kind
/// order then list order): the 4.3 list, and what its indices mean.
pub(crate) fn unified(rig: &RawRig) -> Vec<(Kind, usize)> {
    let mut all: Vec<(u32, Kind, usize)> = Vec::new();
    all.extend(
        rig.ik
            .iter()
            .enumerate()
            .map(|(i, c)| (c.order, Kind::Ik, i)),
    );
    all.extend((rig.transforms.iter().enumerate()).map(|(i, c)| (c.order, Kind::Transform, i)));
    all.extend(
        rig.paths
            .iter()
            .enumerate()
            .map(|(i, c)| (c.order, Kind::Path, i)),
    );
    all.extend((rig.physics.iter().enumerate()).map(|(i, c)| (c.order, Kind::Physics, i)));
    all.extend((rig.sliders.iter().enumerate()).map(|(i, c)| (c.order, Kind::Slider, i)));
    all.sort_by_key(|&(order, kind, i)| (order, kind as u8, i));
    all.into_iter().map(|(_, k, i)| (k, i)).collect()
}

/// The name of constraint `(kind, i)`.
pub(crate) fn name_of(rig: &RawRig, (kind, i): (Kind, usize)) -> &str {
    match kind {
        Kind::Ik => &rig.ik[i].name,
        Kind::Transform => &rig.transforms[i].name,
        Kind::Path => &rig.paths[i].name,
        Kind::Physics => &rig.physics[i].name,
        Kind::Slider => &rig.sliders[i].name,
    }
}

/// A 4.3 property code (rotate 0, x 1, y 2, scaleX 3, scaleY 4, shearY 5).
fn property(r: &mut Reader) -> R<TransformProperty> {
    use TransformProperty as P;
    let at = r.pos();
    Ok(match r.u8()? {
        0 => P::Rotate,
        1 => P::X,
        2 => P::Y,
        3 => P::ScaleX,
        4 => P::ScaleY,
        5 => P::ShearY,
        v => return r.err_at(at, format!("unknown transform property {v}")),
    })
}

fn property_code(p: TransformProperty) -> u8 {
    use TransformProperty as P;
    match p {
        P::Rotate => 0,
        P::X => 1,
        P::Y => 2,
        P::ScaleX => 3,
        P::ScaleY => 4,
        P::ShearY => 5,
    }
}

/// Reads the 4.3 constraint list; each constraint's `order` is its index.
pub(super) fn read_constraints(r: &mut Reader, rig: &mut RawRig, nonessential: bool) -> R<()> {
    r.context(format_args!("constraints"));
    let n = r.count("constraints", 4, MAX_CONSTRAINTS)?;
    for i in 0..n {
        r.context(format_args!("constraint {i}"));
        let name = r.name("constraint name")?;
        r.context(format_args!("constraint {i} `{name}`"));
        // Fits: the count is capped at MAX_CONSTRAINTS.
        let order = i as u32;
        let at = r.pos();
        match r.u8()? {
            0 => read_ik(r, rig, name, order)?,
            1 => read_path(r, rig, name, order)?,
            2 => read_transform(r, rig, name, order)?,
            3 => super::read_physics(r, rig, name, order)?,
            4 => read_slider(r, rig, name, order, nonessential)?,
            t => return r.err_at(at, format!("unknown constraint type {t}")),
        }
    }
    Ok(())
}

/// A slider's flags (skin 1, loop 2, additive 4, a float 8: its time, or with a bone and
/// nonessential data its `max`; mix 16, a mix float 32, bone 64, local 128), then with a
/// bone: the bone, `from`, the property code, `to` and `scale`. The animation is bound
/// after the animations are read.
fn read_slider(
    r: &mut Reader,
    rig: &mut RawRig,
    name: String,
    order: u32,
    nonessential: bool,
) -> R<()> {
    let f = r.u8()?;
    let value = if f & 8 != 0 { r.f64()? } else { 0.0 };
    // Without the mix flag the pose keeps 4.3's default mix, 0 (JSON's default is 1).
    let mix = match (f & 16 != 0, f & 32 != 0) {
        (true, true) => r.f64()?,
        (true, false) => 1.0,
        (false, _) => 0.0,
    };
    let bone = if f & 64 != 0 {
        let bone = r.index("bone", rig.bones.len())?;
        let from = r.f64()?;
        let property = property(r)?;
        Some(RawSliderBone {
            bone: rig.bones[bone].name.clone(),
            property,
            from,
            to: r.f64()?,
            scale: r.f64()?,
            max: if nonessential { value } else { 0.0 },
            local: f & 128 != 0,
        })
    } else {
        None
    };
    rig.sliders.push(RawSlider {
        name,
        order,
        skin_required: f & 1 != 0,
        animation: String::new(),
        additive: f & 4 != 0,
        looping: f & 2 != 0,
        time: if bone.is_some() && nonessential {
            0.0
        } else {
            value
        },
        mix,
        bone,
    });
    Ok(())
}

/// After the animations: each slider's animation index, in constraint-list order.
pub(super) fn read_slider_animations(r: &mut Reader, rig: &mut RawRig) -> R<()> {
    r.context(format_args!("slider animations"));
    for (kind, i) in unified(rig) {
        if kind == Kind::Slider {
            let clip = r.index("animation", rig.clips.len())?;
            rig.sliders[i].animation = rig.clips[clip].name.clone();
        }
    }
    Ok(())
}

/// Writes each slider's animation index after the animations.
pub(super) fn write_slider_animations(o: &mut Out, rig: &RawRig) -> W<()> {
    o.context(format_args!("slider animations"));
    for (kind, i) in unified(rig) {
        if kind == Kind::Slider {
            let s = &rig.sliders[i];
            match rig.clips.iter().position(|c| c.name == s.animation) {
                Some(clip) => o.varint(clip as u32),
                None => {
                    return o.err(format!(
                        "slider `{}`: unknown animation `{}`",
                        s.name, s.animation
                    ));
                }
            }
        }
    }
    Ok(())
}

fn write_slider(o: &mut Out, names: &Names, c: &RawSlider, nonessential: bool) -> W<()> {
    o.string(Some(&c.name));
    o.u8(4);
    let max = c.bone.as_ref().map_or(0.0, |b| b.max);
    // With a bone the float is `max` (nonessential only); without, the setup time.
    let value = match &c.bone {
        Some(_) if nonessential && max != 0.0 => Some(max),
        Some(_) => None,
        None if c.time != 0.0 => Some(c.time),
        None => None,
    };
    let bone = c.bone.as_ref();
    o.u8(flags([
        (1, c.skin_required),
        (2, c.looping),
        (4, c.additive),
        (8, value.is_some()),
        (16, c.mix != 0.0),
        (32, c.mix != 0.0 && c.mix != 1.0),
        (64, bone.is_some()),
        (128, bone.is_some_and(|b| b.local)),
    ]));
    if let Some(v) = value {
        o.f64(v)?;
    }
    if c.mix != 0.0 && c.mix != 1.0 {
        o.f64(c.mix)?;
    }
    if let Some(b) = bone {
        o.varint(lookup(o, &names.bones, "bone", &b.bone)? as u32);
        o.f64(b.from)?;
        o.u8(property_code(b.property));
        o.f64(b.to)?;
        o.f64(b.scale)?;
    }
    Ok(())
}

fn read_ik(r: &mut Reader, rig: &mut RawRig, name: String, order: u32) -> R<()> {
    let at = r.pos();
    let bones = read_bone_list(r, rig)?;
    if bones.is_empty() || bones.len() > 2 {
        return r.err_at(at, format!("IK needs 1 or 2 bones, found {}", bones.len()));
    }
    let target = r.index("bone", rig.bones.len())?;
    let f = r.u8()?;
    let mode = if f & 2 != 0 {
        scale_y_mode(r)?
    } else {
        ScaleYMode::None
    };
    let mix = match (f & 32 != 0, f & 64 != 0) {
        (true, true) => r.f64()?,
        (true, false) => 1.0,
        (false, _) => 0.0,
    };
    let softness = if f & 128 != 0 { r.f64()? } else { 0.0 };
    rig.ik.push(RawIk {
        name,
        order,
        skin_required: f & 1 != 0,
        bones,
        target: rig.bones[target].name.clone(),
        mix,
        softness,
        bend_positive: f & 4 == 0,
        compress: f & 8 != 0,
        stretch: f & 16 != 0,
        uniform: mode == ScaleYMode::Uniform,
        volume: mode == ScaleYMode::Volume,
        solver: sinew::IkSolver::Spine43,
    });
    Ok(())
}

fn scale_y_mode(r: &mut Reader) -> R<ScaleYMode> {
    let at = r.pos();
    Ok(match r.u8()? {
        0 => ScaleYMode::None,
        1 => ScaleYMode::Uniform,
        2 => ScaleYMode::Volume,
        v => return r.err_at(at, format!("unknown scaleY mode {v}")),
    })
}

fn read_transform(r: &mut Reader, rig: &mut RawRig, name: String, order: u32) -> R<()> {
    let bones = read_bone_list(r, rig)?;
    let source = r.index("bone", rig.bones.len())?;
    let f = r.u8()?;
    let mut properties = Vec::new();
    for _ in 0..(f >> 5) {
        let property = property(r)?;
        let offset = r.f64()?;
        let tn = r.u8()?;
        let mut to = Vec::new();
        for _ in 0..tn {
            to.push(TransformTo {
                property: self::property(r)?,
                offset: r.f64()?,
                max: r.f64()?,
                scale: r.f64()?,
            });
        }
        // 4.3 keeps a source only when it drives something.
        if !to.is_empty() {
            properties.push(TransformFrom {
                property,
                offset,
                to,
            });
        }
    }
    let g = r.u8()?;
    let opt = |r: &mut Reader, bit: u8| -> R<f64> { if g & bit != 0 { r.f64() } else { Ok(0.0) } };
    let offsets = [
        opt(r, 1)?,
        opt(r, 2)?,
        opt(r, 4)?,
        opt(r, 8)?,
        opt(r, 16)?,
        opt(r, 32)?,
    ];
    let h = r.u8()?;
    let mix = |r: &mut Reader, bit: u8| -> R<f64> { if h & bit != 0 { r.f64() } else { Ok(0.0) } };
    let mixes = [
        mix(r, 1)?,
        mix(r, 2)?,
        mix(r, 4)?,
        mix(r, 8)?,
        mix(r, 16)?,
        mix(r, 32)?,
    ];
    rig.transforms.push(RawTransform {
        name,
        order,
        skin_required: f & 1 != 0,
        bones,
        target: rig.bones[source].name.clone(),
        local: f & 2 != 0,
        relative: f & 8 != 0,
        offset_rotation: offsets[0],
        offset_x: offsets[1],
        offset_y: offsets[2],
        offset_scale_x: offsets[3],
        offset_scale_y: offsets[4],
        offset_shear_y: offsets[5],
        mix_rotate: mixes[0],
        mix_x: mixes[1],
        mix_y: mixes[2],
        mix_scale_x: mixes[3],
        mix_scale_y: mixes[4],
        mix_shear_y: mixes[5],
        properties,
        local_target: f & 4 != 0,
        clamp: f & 16 != 0,
    });
    Ok(())
}

fn read_path(r: &mut Reader, rig: &mut RawRig, name: String, order: u32) -> R<()> {
    let bones = read_bone_list(r, rig)?;
    let slot = r.index("slot", rig.slots.len())?;
    let at = r.pos();
    let f = r.u8()?;
    let position_mode = if (f >> 1) & 1 != 0 {
        PositionMode::Percent
    } else {
        PositionMode::Fixed
    };
    let spacing_mode = match (f >> 2) & 3 {
        0 => SpacingMode::Length,
        1 => SpacingMode::Fixed,
        2 => SpacingMode::Percent,
        _ => SpacingMode::Proportional,
    };
    let rotate_mode = match (f >> 4) & 3 {
        0 => RotateMode::Tangent,
        1 => RotateMode::Chain,
        2 => RotateMode::ChainScale,
        v => return r.err_at(at, format!("unknown rotate mode {v}")),
    };
    let offset_rotation = if f & 128 != 0 { r.f64()? } else { 0.0 };
    rig.paths.push(RawPath {
        name,
        order,
        skin_required: f & 1 != 0,
        bones,
        target: rig.slots[slot].name.clone(),
        position_mode,
        spacing_mode,
        rotate_mode,
        offset_rotation,
        position: r.f64()?,
        spacing: r.f64()?,
        mix_rotate: r.f64()?,
        mix_x: r.f64()?,
        mix_y: r.f64()?,
    });
    Ok(())
}

/// Writes the 4.3 constraint list (in [`unified`] order).
pub(super) fn write_constraints(
    o: &mut Out,
    rig: &RawRig,
    names: &Names,
    nonessential: bool,
) -> W<()> {
    o.context(format_args!("constraints"));
    let list = unified(rig);
    o.count(list.len())?;
    for (i, (kind, k)) in list.into_iter().enumerate() {
        o.context(format_args!("constraint {i} `{}`", name_of(rig, (kind, k))));
        match kind {
            Kind::Ik => write_ik(o, names, &rig.ik[k])?,
            Kind::Transform => write_transform(o, names, &rig.transforms[k])?,
            Kind::Path => write_path(o, names, &rig.paths[k])?,
            Kind::Physics => {
                let c = &rig.physics[k];
                o.string(Some(&c.name));
                o.u8(3);
                write_physics_body(o, names, c)?;
            }
            Kind::Slider => write_slider(o, names, &rig.sliders[k], nonessential)?,
        }
    }
    Ok(())
}

/// A flag byte from `(bit, on)` pairs.
fn flags<const N: usize>(bits: [(u8, bool); N]) -> u8 {
    bits.into_iter()
        .fold(0, |f, (bit, on)| if on { f | bit } else { f })
}

fn write_ik(o: &mut Out, names: &Names, c: &RawIk) -> W<()> {
    if c.bones.is_empty() || c.bones.len() > 2 {
        return o.err(format!("IK needs 1 or 2 bones, has {}", c.bones.len()));
    }
    o.string(Some(&c.name));
    o.u8(0);
    bone_list(o, names, &c.bones)?;
    let t = lookup(o, &names.bones, "target bone", &c.target)?;
    o.count(t)?;
    let mode = if c.volume { 2 } else { u8::from(c.uniform) };
    let f = flags([
        (1, c.skin_required),
        (2, mode != 0),
        (4, !c.bend_positive),
        (8, c.compress),
        (16, c.stretch),
        (32, c.mix != 0.0),
        (64, c.mix != 0.0 && c.mix != 1.0),
        (128, c.softness != 0.0),
    ]);
    o.u8(f);
    if mode != 0 {
        o.u8(mode);
    }
    if f & 64 != 0 {
        o.f64(c.mix)?;
    }
    if f & 128 != 0 {
        o.f64(c.softness)?;
    }
    Ok(())
}

fn write_transform(o: &mut Out, names: &Names, c: &RawTransform) -> W<()> {
    o.string(Some(&c.name));
    o.u8(2);
    bone_list(o, names, &c.bones)?;
    let t = lookup(o, &names.bones, "source bone", &c.target)?;
    o.count(t)?;
    let props: Vec<&TransformFrom> = c.properties.iter().filter(|p| !p.to.is_empty()).collect();
    if props.len() > 7 {
        return o.err(format!(
            "{} source properties (the format holds 7)",
            props.len()
        ));
    }
    let f = flags([
        (1, c.skin_required),
        (2, c.local),
        (4, c.local_target),
        (8, c.relative),
        (16, c.clamp),
    ]) | (props.len() as u8) << 5;
    o.u8(f);
    for p in props {
        o.u8(property_code(p.property));
        o.f64(p.offset)?;
        if p.to.len() > 127 {
            return o.err("a source property driving more than 127 properties");
        }
        o.u8(p.to.len() as u8);
        for t in &p.to {
            o.u8(property_code(t.property));
            o.f64(t.offset)?;
            o.f64(t.max)?;
            o.f64(t.scale)?;
        }
    }
    let offsets = [
        c.offset_rotation,
        c.offset_x,
        c.offset_y,
        c.offset_scale_x,
        c.offset_scale_y,
        c.offset_shear_y,
    ];
    let mixes = [
        c.mix_rotate,
        c.mix_x,
        c.mix_y,
        c.mix_scale_x,
        c.mix_scale_y,
        c.mix_shear_y,
    ];
    for values in [offsets, mixes] {
        let g = (0..6).fold(0u8, |g, k| g | (u8::from(values[k] != 0.0) << k));
        o.u8(g);
        for v in values.into_iter().filter(|v| *v != 0.0) {
            o.f64(v)?;
        }
    }
    Ok(())
}

fn write_path(o: &mut Out, names: &Names, c: &RawPath) -> W<()> {
    o.string(Some(&c.name));
    o.u8(1);
    bone_list(o, names, &c.bones)?;
    let s = lookup(o, &names.slots, "slot", &c.target)?;
    o.count(s)?;
    let spacing: u8 = match c.spacing_mode {
        SpacingMode::Length => 0,
        SpacingMode::Fixed => 1,
        SpacingMode::Percent => 2,
        SpacingMode::Proportional => 3,
    };
    let rotate: u8 = match c.rotate_mode {
        RotateMode::Tangent => 0,
        RotateMode::Chain => 1,
        RotateMode::ChainScale => 2,
    };
    let f = flags([
        (1, c.skin_required),
        (2, c.position_mode == PositionMode::Percent),
        (128, c.offset_rotation != 0.0),
    ]) | spacing << 2
        | rotate << 4;
    o.u8(f);
    if f & 128 != 0 {
        o.f64(c.offset_rotation)?;
    }
    for v in [c.position, c.spacing, c.mix_rotate, c.mix_x, c.mix_y] {
        o.f64(v)?;
    }
    Ok(())
}
