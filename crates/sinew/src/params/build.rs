//! Resolves [`RawParams`] against a built rig into a [`ParamSet`]: names to ids, grid sizes
//! checked against the keyform data, deform strides against the slot's mesh, limits on
//! every declared size. Returns every problem at once, each naming the parameter or target.
//! Verified by the unit tests in `params/tests.rs`.

use super::raw::{RawParams, RawTarget};
use super::{Binding, ParamData, ParamSet, Target};
use crate::ids::{BoneId, ParamId, SlotId};
use crate::rig::params::driver::DriverData;
use crate::rig::params::resolve_axes;
pub use crate::rig::params::{MAX_KEYFORMS, MAX_KEYS, MAX_PARAMS};
use crate::rig::problem::{BuildError, BuildPart, BuildProblem, ProblemKind};
use crate::rig::{AttachmentKind, Rig};

/// The part of the build these problems come from.
const PART: BuildPart = BuildPart::Params;

/// An unknown-name problem about `item` naming `name`, with its own `message`.
fn unknown_or(item: String, name: &str, message: impl Into<String>) -> BuildProblem {
    let mut q = BuildProblem::unknown(item, "", name);
    q.message = message.into();
    q.in_part(PART)
}

/// The name a raw binding target refers to.
fn target_name(t: &RawTarget) -> &str {
    match t {
        RawTarget::BoneX(n)
        | RawTarget::BoneY(n)
        | RawTarget::BoneRotation(n)
        | RawTarget::BoneScaleX(n)
        | RawTarget::BoneScaleY(n)
        | RawTarget::BoneZSort(n)
        | RawTarget::SlotDeform(n)
        | RawTarget::SlotOpacity(n)
        | RawTarget::SlotTint(n, _)
        | RawTarget::SlotScreenTint(n, _)
        | RawTarget::SlotVisible(n)
        | RawTarget::GroupOpacity(n)
        | RawTarget::GroupTint(n, _)
        | RawTarget::GroupScreenTint(n, _)
        | RawTarget::DriverLength(n)
        | RawTarget::DriverGravity(n) => n,
    }
}

/// Builds the parameter set of `rig` from its raw form.
pub fn build_params(rig: &Rig, raw: &RawParams) -> Result<ParamSet, BuildError> {
    let mut errs = Vec::new();
    let mut set = ParamSet::default();
    if raw.params.len() > MAX_PARAMS {
        errs.push(
            BuildProblem::new(
                ProblemKind::TooMany,
                "",
                format!("{} parameters (at most {MAX_PARAMS})", raw.params.len()),
            )
            .in_part(PART),
        );
        return Err(BuildError::from_problems(errs));
    }
    for p in &raw.params {
        let ok = |v: &[f64]| v.iter().all(|x| x.is_finite());
        if !ok(&p.min) || !ok(&p.max) || !ok(&p.default) {
            errs.push(BuildProblem::value(
                PART,
                format!("parameter `{}`", p.name),
                "non-finite range or default",
            ));
        }
        for (c, axis) in p.axis_points.iter().enumerate() {
            if axis.is_empty()
                || axis.len() > MAX_KEYS
                || !ok(axis)
                || axis.windows(2).any(|w| w[1] < w[0])
            {
                errs.push(BuildProblem::value(
                    PART,
                    format!("parameter `{}`", p.name),
                    format!("axis {c} must hold 1..={MAX_KEYS} sorted finite points"),
                ));
            }
        }
        if set
            .names
            .insert(p.name.clone(), ParamId(set.params.len() as u16))
            .is_some()
        {
            errs.push(
                BuildProblem::duplicate(
                    format!("parameter `{}`", p.name),
                    &p.name,
                    "duplicate name",
                )
                .in_part(PART),
            );
        }
        set.params.push(ParamData {
            name: p.name.clone(),
            is_2d: p.is_2d,
            min: p.min,
            max: p.max,
            default: p.default,
            driven: false,
        });
    }
    let bone = |n: &str| rig.bone(n);
    let slot = |n: &str| rig.slot(n);
    let driver_index = |n: &str| {
        raw.drivers
            .iter()
            .position(|d| d.name == n)
            .map(|i| i as u16)
    };

    for d in &raw.drivers {
        let (Some(b), Some(p)) = (bone(&d.bone), set.find(&d.param)) else {
            let missing = if bone(&d.bone).is_none() {
                &d.bone
            } else {
                &d.param
            };
            let mut q = BuildProblem::unknown(format!("physics `{}`", d.name), "", missing);
            q.message = format!("unknown bone `{}` or parameter `{}`", d.bone, d.param);
            errs.push(q.in_part(PART));
            continue;
        };
        set.params[p.index()].driven = true;
        set.drivers.push(DriverData {
            name: d.name.clone(),
            bone: b,
            param: p,
            model: d.model,
            map: d.map,
            gravity: d.gravity,
            length: d.length,
            frequency: d.frequency,
            angle_damping: d.angle_damping,
            length_damping: d.length_damping,
            output_scale: d.output_scale,
            local_only: d.local_only,
        });
    }

    for (bi, b) in raw.bindings.iter().enumerate() {
        let what = || format!("binding {bi} ({:?})", b.target);
        let target = match resolve_target(&b.target, &bone, &slot, &driver_index) {
            Some(t) => t,
            None => {
                let mut q = BuildProblem::new(ProblemKind::UnknownName, what(), "unknown target");
                q.name = Some(target_name(&b.target).to_owned());
                errs.push(q.in_part(PART));
                continue;
            }
        };
        let Some((axes, count, driven)) = resolve_axes(&set, raw, &b.axes, &what, PART, &mut errs)
        else {
            continue;
        };
        let want_stride = match target {
            Target::SlotDeform(s) => match deform_floats(rig, s) {
                Some(n) => n,
                None => {
                    errs.push(
                        BuildProblem::new(
                            ProblemKind::Geometry,
                            what(),
                            format!(
                                "slot `{}` has no unweighted mesh",
                                rig.slots[s.index()].name
                            ),
                        )
                        .in_part(PART),
                    );
                    continue;
                }
            },
            _ => 1,
        };
        if b.stride as usize != want_stride || b.values.len() != count * want_stride {
            errs.push(BuildProblem::value(
                PART,
                what(),
                format!(
                    "{} values with stride {}, expected {} keyforms x {want_stride}",
                    b.values.len(),
                    b.stride,
                    count
                ),
            ));
            continue;
        }
        if b.values.iter().any(|v| !v.is_finite()) {
            errs.push(BuildProblem::value(
                PART,
                what(),
                "non-finite keyform value",
            ));
            continue;
        }
        let dims = axes.iter().map(|a| a.keys.len() as u32).collect();
        match target {
            Target::BoneX(x)
            | Target::BoneY(x)
            | Target::BoneRotation(x)
            | Target::BoneScaleX(x)
            | Target::BoneScaleY(x)
                if !set.bound_bones.contains(&x) =>
            {
                set.bound_bones.push(x)
            }
            Target::SlotDeform(s) if !set.deform_slots.contains(&s) => set.deform_slots.push(s),
            Target::SlotOpacity(s) | Target::SlotTint(s, _) if !set.color_slots.contains(&s) => {
                set.color_slots.push(s)
            }
            _ => {}
        }
        set.bindings.push(Binding {
            target,
            interp: b.interp,
            axes,
            dims,
            stride: b.stride,
            values: b.values.clone(),
            driven,
        });
    }

    if !raw.zsort.is_empty() {
        set.bone_zsort = vec![0.0; rig.bones.len()];
        for (name, z) in &raw.zsort {
            match bone(name) {
                Some(b) if z.is_finite() => set.bone_zsort[b.index()] = *z,
                Some(_) => errs.push(BuildProblem::value(
                    PART,
                    format!("z-sort of `{name}`"),
                    "unknown bone or non-finite value",
                )),
                None => errs.push(unknown_or(
                    format!("z-sort of `{name}`"),
                    name,
                    "unknown bone or non-finite value",
                )),
            }
        }
    }
    set.slot_group = vec![None; rig.slots.len()];
    for (s, g) in &raw.slot_groups {
        match (slot(s), bone(g)) {
            (Some(s), Some(g)) => set.slot_group[s.index()] = Some(g),
            (found, _) => errs.push(unknown_or(
                format!("group of slot `{s}`"),
                if found.is_none() { s } else { g },
                format!("unknown slot or bone `{g}`"),
            )),
        }
    }
    for (name, screen) in &raw.slot_screens {
        match slot(name) {
            Some(s) if screen.iter().all(|c| c.is_finite()) => {
                if set.slot_screen.is_empty() {
                    set.slot_screen = vec![[0.0; 3]; rig.slots.len()];
                }
                set.slot_screen[s.index()] = *screen;
            }
            Some(_) => errs.push(BuildProblem::value(
                PART,
                format!("screen tint of `{name}`"),
                "unknown slot or non-finite value",
            )),
            None => errs.push(unknown_or(
                format!("screen tint of `{name}`"),
                name,
                "unknown slot or non-finite value",
            )),
        }
    }
    set.slot_visible = vec![true; rig.slots.len()];
    for s in &raw.hidden_slots {
        match slot(s) {
            Some(s) => set.slot_visible[s.index()] = false,
            None => errs
                .push(BuildProblem::unknown(format!("hidden slot `{s}`"), "slot", s).in_part(PART)),
        }
    }
    set.chains = crate::physics::chain::build_chains(&raw.chains, &set, &mut errs);
    if errs.is_empty() {
        match crate::deformer::build_deformers(rig, &set, raw, &raw.deformers) {
            Ok(d) => set.deformers = d,
            Err(e) => errs.extend(e.problems),
        }
    }
    if !errs.is_empty() {
        return Err(BuildError::from_problems(errs));
    }
    let keys = raw.params.iter().map(|p| p.axis_points.clone()).collect();
    set.plan = super::plan::ParamPlan::new(rig, &set, keys);
    Ok(set)
}

fn resolve_target(
    t: &RawTarget,
    bone: &impl Fn(&str) -> Option<BoneId>,
    slot: &impl Fn(&str) -> Option<SlotId>,
    driver: &impl Fn(&str) -> Option<u16>,
) -> Option<Target> {
    Some(match t {
        RawTarget::BoneX(n) => Target::BoneX(bone(n)?),
        RawTarget::BoneY(n) => Target::BoneY(bone(n)?),
        RawTarget::BoneRotation(n) => Target::BoneRotation(bone(n)?),
        RawTarget::BoneScaleX(n) => Target::BoneScaleX(bone(n)?),
        RawTarget::BoneScaleY(n) => Target::BoneScaleY(bone(n)?),
        RawTarget::BoneZSort(n) => Target::BoneZSort(bone(n)?),
        RawTarget::SlotDeform(n) => Target::SlotDeform(slot(n)?),
        RawTarget::SlotOpacity(n) => Target::SlotOpacity(slot(n)?),
        RawTarget::SlotTint(n, c) if *c < 3 => Target::SlotTint(slot(n)?, *c),
        RawTarget::SlotScreenTint(n, c) if *c < 3 => Target::SlotScreenTint(slot(n)?, *c),
        RawTarget::SlotVisible(n) => Target::SlotVisible(slot(n)?),
        RawTarget::GroupOpacity(n) => Target::GroupOpacity(bone(n)?),
        RawTarget::GroupTint(n, c) if *c < 3 => Target::GroupTint(bone(n)?, *c),
        RawTarget::GroupScreenTint(n, c) if *c < 3 => Target::GroupScreenTint(bone(n)?, *c),
        RawTarget::DriverLength(n) => Target::DriverLength(driver(n)?),
        RawTarget::DriverGravity(n) => Target::DriverGravity(driver(n)?),
        _ => return None,
    })
}

/// Floats of the slot's setup mesh (2 per vertex), when it is an unweighted mesh that fits
/// the slot's deform buffer.
fn deform_floats(rig: &Rig, s: SlotId) -> Option<usize> {
    let key = rig.slots.get(s.index())?.attachment?;
    let skin = &rig.skins[rig.default_skin?.index()];
    let att = skin.get(s, key)?;
    let AttachmentKind::Mesh(m) = &rig.attachments[att.index()].kind else {
        return None;
    };
    let n = m.vertices.values.len();
    let cap = rig
        .slot_deform_capacity
        .get(s.index())
        .copied()
        .unwrap_or(0) as usize;
    (!m.vertices.is_weighted() && n <= cap).then_some(n)
}
