//! IK, transform, path and physics constraints: references resolved, the global order
//! checked and `rig.constraint_order` filled.
//!
//! Spine's `updateCache` schedules constraint `i` for i in 0..N by looking for `order == i`
//! among IK, then transform, path and physics constraints. Orders that repeat or leave
//! 0..N would silently drop constraints there, so they are reported here. Verified by the
//! unit tests below.

use super::bones::bone_ref;
use crate::ids::*;
use crate::raw::RawRig;
use crate::rig::problem::{BuildProblem, ProblemKind};
use crate::rig::*;
use std::collections::HashMap;

/// Fills the four constraint tables, their name maps and `rig.constraint_order`.
pub(super) fn build_constraints(raw: &RawRig, rig: &mut Rig, problems: &mut Vec<BuildProblem>) {
    let bones = |rig: &Rig,
                 names: &[String],
                 owner: &str,
                 problems: &mut Vec<BuildProblem>|
     -> Vec<BoneId> {
        names
            .iter()
            .map(|n| bone_ref(rig, n, owner, problems))
            .collect()
    };
    for (i, c) in raw.ik.iter().enumerate() {
        let owner = format!("IK constraint `{}`", c.name);
        dup(&mut rig.names.ik, &c.name, IkId(i as u16), &owner, problems);
        let ids = bones(rig, &c.bones, &owner, problems);
        if ids.is_empty() || ids.len() > 2 {
            problems.push(BuildProblem::new(
                ProblemKind::Geometry,
                owner.to_string(),
                format!("needs 1 or 2 bones, has {}", ids.len()),
            ));
        } else if ids.len() == 2 && parent_of(rig, ids[1]) != Some(ids[0]) {
            problems.push(BuildProblem::new(
                ProblemKind::Hierarchy,
                owner.to_string(),
                format!("`{}` is not a child of `{}`", c.bones[1], c.bones[0]),
            ));
        }
        let target = bone_ref(rig, &c.target, &owner, problems);
        rig.ik.push(IkData {
            name: c.name.clone(),
            skin_required: c.skin_required,
            bones: ids,
            target,
            mix: c.mix,
            softness: c.softness,
            bend_direction: if c.bend_positive { 1 } else { -1 },
            compress: c.compress,
            stretch: c.stretch,
            uniform: c.uniform,
            volume: c.volume,
            solver: c.solver,
        });
    }
    for (i, c) in raw.transforms.iter().enumerate() {
        let owner = format!("transform constraint `{}`", c.name);
        dup(
            &mut rig.names.transforms,
            &c.name,
            TransformId(i as u16),
            &owner,
            problems,
        );
        let ids = bones(rig, &c.bones, &owner, problems);
        let target = bone_ref(rig, &c.target, &owner, problems);
        rig.transforms.push(TransformData {
            name: c.name.clone(),
            skin_required: c.skin_required,
            bones: ids,
            target,
            local: c.local,
            relative: c.relative,
            offset_rotation: c.offset_rotation,
            offset_x: c.offset_x,
            offset_y: c.offset_y,
            offset_scale_x: c.offset_scale_x,
            offset_scale_y: c.offset_scale_y,
            offset_shear_y: c.offset_shear_y,
            mix: TransformMix {
                rotate: c.mix_rotate,
                x: c.mix_x,
                y: c.mix_y,
                scale_x: c.mix_scale_x,
                scale_y: c.mix_scale_y,
                shear_y: c.mix_shear_y,
            },
            properties: c.properties.clone(),
            local_target: c.local_target,
            clamp: c.clamp,
        });
    }
    for (i, c) in raw.paths.iter().enumerate() {
        let owner = format!("path constraint `{}`", c.name);
        dup(
            &mut rig.names.paths,
            &c.name,
            PathId(i as u16),
            &owner,
            problems,
        );
        let ids = bones(rig, &c.bones, &owner, problems);
        let target = match rig.names.slots.get(&c.target) {
            Some(&s) => s,
            None => {
                problems.push(BuildProblem::new(
                    ProblemKind::UnknownName,
                    owner.to_string(),
                    format!("unknown target slot `{}`", c.target),
                ));
                SlotId(0)
            }
        };
        rig.paths.push(PathData {
            name: c.name.clone(),
            skin_required: c.skin_required,
            bones: ids,
            target,
            position_mode: c.position_mode,
            spacing_mode: c.spacing_mode,
            rotate_mode: c.rotate_mode,
            offset_rotation: c.offset_rotation,
            setup: PathMix {
                position: c.position,
                spacing: c.spacing,
                mix_rotate: c.mix_rotate,
                mix_x: c.mix_x,
                mix_y: c.mix_y,
            },
        });
    }
    for (i, c) in raw.physics.iter().enumerate() {
        let owner = format!("physics constraint `{}`", c.name);
        dup(
            &mut rig.names.physics,
            &c.name,
            PhysicsId(i as u16),
            &owner,
            problems,
        );
        let bone = bone_ref(rig, &c.bone, &owner, problems);
        if !(c.step.is_finite() && c.step > 0.0) {
            problems.push(BuildProblem::new(
                ProblemKind::Value,
                owner.to_string(),
                format!("step must be a positive number of seconds, is {}", c.step),
            ));
        }
        if !(c.mass_inverse.is_finite() && c.mass_inverse.abs() <= 1e6) {
            problems.push(BuildProblem::new(
                ProblemKind::Value,
                owner.to_string(),
                format!(
                    "mass {} is too small: its inverse must be finite and at most 1e6",
                    1.0 / c.mass_inverse
                ),
            ));
        }

        rig.physics.push(PhysicsData {
            name: c.name.clone(),
            skin_required: c.skin_required,
            bone,
            x: c.x,
            y: c.y,
            rotate: c.rotate,
            scale_x: c.scale_x,
            shear_x: c.shear_x,
            scale_y: c.scale_y,
            interpolate: raw.runtime == crate::types::SpineRuntime::V43,
            limit: c.limit,
            // Not in spine-ts: at most MAX_FPS steps a second (constraint::physics docs).
            step: c.step.max(1.0 / crate::constraint::physics::MAX_FPS),
            setup: PhysicsParams {
                inertia: c.inertia,
                strength: c.strength,
                damping: c.damping,
                mass_inverse: c.mass_inverse,
                wind: c.wind,
                gravity: c.gravity,
                mix: c.mix,
            },
            inertia_global: c.inertia_global,
            strength_global: c.strength_global,
            damping_global: c.damping_global,
            mass_global: c.mass_global,
            wind_global: c.wind_global,
            gravity_global: c.gravity_global,
            mix_global: c.mix_global,
        });
    }
    for (i, c) in raw.sliders.iter().enumerate() {
        let owner = format!("slider `{}`", c.name);
        dup(
            &mut rig.names.sliders,
            &c.name,
            SliderId(i as u16),
            &owner,
            problems,
        );
        let driver = c.bone.as_ref().map(|d| SliderDriver {
            bone: bone_ref(rig, &d.bone, &owner, problems),
            property: d.property,
            from: d.from,
            to: d.to,
            scale: d.scale,
            max: d.max,
            local: d.local,
        });
        rig.sliders.push(SliderData {
            name: c.name.clone(),
            skin_required: c.skin_required,
            // Bound once the clips are built (`bind_slider_clips`).
            clip: crate::anim::EMPTY_CLIP,
            clip_bones: Vec::new(),
            additive: c.additive,
            looping: c.looping,
            setup: SliderPose {
                time: c.time,
                mix: c.mix,
            },
            driver,
        });
    }
    build_order(raw, rig, problems);
}

/// Binds each slider to its clip and lists the bones the clip's bone timelines key, in
/// the order they first appear (Spine `Animation.bones`). Runs after the clips are built.
pub(super) fn bind_slider_clips(raw: &RawRig, rig: &mut Rig, problems: &mut Vec<BuildProblem>) {
    for (i, c) in raw.sliders.iter().enumerate() {
        let Some(&clip) = rig.names.clips.get(&c.animation) else {
            problems.push(BuildProblem::unknown(
                format!("slider `{}`", c.name),
                "animation",
                &c.animation,
            ));
            continue;
        };
        let mut bones: Vec<BoneId> = Vec::new();
        for t in &rig.clips[clip.index()].timelines {
            let Some(bone) = t.kind.bone() else {
                continue;
            };
            if !bones.contains(&bone) {
                bones.push(bone);
            }
        }
        let s = &mut rig.sliders[i];
        s.clip = clip;
        s.clip_bones = bones;
    }
}

/// The parent of a bone, if the id is valid.
fn parent_of(rig: &Rig, bone: BoneId) -> Option<BoneId> {
    rig.bones.get(bone.index()).and_then(|b| b.parent)
}

/// Records a name, reporting a duplicate (the first one keeps the name).
fn dup<I: Copy>(
    map: &mut HashMap<String, I>,
    name: &str,
    id: I,
    owner: &str,
    problems: &mut Vec<BuildProblem>,
) {
    if map.contains_key(name) {
        problems.push(BuildProblem::duplicate(
            owner,
            name,
            "duplicate constraint name",
        ));
    } else {
        map.insert(name.to_owned(), id);
    }
}

/// Sorts every constraint by `order` (ties would be IK, transform, path, physics, as
/// Spine searches) and reports orders that are not exactly 0..N-1.
fn build_order(raw: &RawRig, rig: &mut Rig, problems: &mut Vec<BuildProblem>) {
    let mut all: Vec<(u32, ConstraintRef, &str)> = Vec::new();
    all.extend(
        raw.ik
            .iter()
            .enumerate()
            .map(|(i, c)| (c.order, ConstraintRef::Ik(IkId(i as u16)), c.name.as_str())),
    );
    all.extend(raw.transforms.iter().enumerate().map(|(i, c)| {
        (
            c.order,
            ConstraintRef::Transform(TransformId(i as u16)),
            c.name.as_str(),
        )
    }));
    all.extend(raw.paths.iter().enumerate().map(|(i, c)| {
        (
            c.order,
            ConstraintRef::Path(PathId(i as u16)),
            c.name.as_str(),
        )
    }));
    all.extend(raw.physics.iter().enumerate().map(|(i, c)| {
        (
            c.order,
            ConstraintRef::Physics(PhysicsId(i as u16)),
            c.name.as_str(),
        )
    }));
    all.extend(raw.sliders.iter().enumerate().map(|(i, c)| {
        (
            c.order,
            ConstraintRef::Slider(SliderId(i as u16)),
            c.name.as_str(),
        )
    }));
    // Stable sort keeps the kind order (IK, transform, path, physics) among equal orders.
    all.sort_by_key(|e| e.0);
    let n = all.len();
    for w in all.windows(2) {
        if w[0].0 == w[1].0 {
            problems.push(BuildProblem::new(
                ProblemKind::Order,
                "",
                format!(
                    "constraints `{}` and `{}` share order {} (Spine would never run the second)",
                    w[0].2, w[1].2, w[1].0
                ),
            ));
        }
    }
    if let Some(e) = all.iter().find(|e| e.0 as usize >= n) {
        problems.push(BuildProblem::new(
            ProblemKind::Order,
            format!("constraint `{}`", e.2),
            format!("order {} is outside 0..{n} (Spine would never run it)", e.0),
        ));
    }
    rig.constraint_order = all.into_iter().map(|e| e.1).collect();
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::raw::{RawBone, RawIk, RawPhysics};

    fn ik(name: &str, order: u32, bones: &[&str]) -> RawIk {
        RawIk {
            name: name.into(),
            order,
            skin_required: false,
            bones: bones.iter().map(|b| b.to_string()).collect(),
            target: "t".into(),
            mix: 1.0,
            softness: 0.0,
            bend_positive: false,
            compress: false,
            stretch: false,
            uniform: false,
            volume: false,
            solver: Default::default(),
        }
    }

    fn physics(name: &str, order: u32) -> RawPhysics {
        RawPhysics {
            name: name.into(),
            order,
            skin_required: false,
            bone: "a".into(),
            x: 0.0,
            y: 0.0,
            rotate: 1.0,
            scale_x: 0.0,
            shear_x: 0.0,
            scale_y: Default::default(),
            limit: 5000.0,
            step: 1.0 / 60.0,
            inertia: 1.0,
            strength: 100.0,
            damping: 1.0,
            mass_inverse: 1.0,
            wind: 0.0,
            gravity: 0.0,
            mix: 1.0,
            inertia_global: false,
            strength_global: false,
            damping_global: false,
            mass_global: false,
            wind_global: false,
            gravity_global: false,
            mix_global: false,
        }
    }

    fn rig_with_bones() -> (RawRig, Rig) {
        let raw = RawRig {
            bones: vec![
                RawBone::new("root", None),
                RawBone::new("a", Some("root")),
                RawBone::new("b", Some("a")),
                RawBone::new("t", Some("root")),
            ],
            ..Default::default()
        };
        let mut rig = Rig::empty();
        super::super::bones::build_bones(&raw, &mut rig, &mut Vec::new());
        (raw, rig)
    }

    #[test]
    fn order_sorts_across_kinds() {
        let (mut raw, mut rig) = rig_with_bones();
        raw.ik = vec![ik("ik1", 2, &["a", "b"]), ik("ik0", 0, &["b"])];
        raw.physics = vec![physics("p", 1)];
        let mut p = Vec::new();
        build_constraints(&raw, &mut rig, &mut p);
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(
            rig.constraint_order,
            vec![
                ConstraintRef::Ik(IkId(1)),
                ConstraintRef::Physics(PhysicsId(0)),
                ConstraintRef::Ik(IkId(0))
            ]
        );
        assert_eq!(rig.ik[0].bones, vec![BoneId(1), BoneId(2)]);
        assert_eq!(rig.ik[0].target, BoneId(3));
        assert_eq!(rig.ik[0].bend_direction, -1);
    }

    #[test]
    fn bad_orders_and_references_are_reported() {
        let (mut raw, mut rig) = rig_with_bones();
        raw.ik = vec![ik("x", 0, &["b", "a"]), ik("y", 0, &["jaw"])];
        raw.physics = vec![physics("p", 7)];
        let mut p = Vec::new();
        build_constraints(&raw, &mut rig, &mut p);
        let p: Vec<String> = p.iter().map(ToString::to_string).collect();
        assert!(
            p.iter().any(|m| m.contains("`a` is not a child of `b`")),
            "{p:?}"
        );
        assert!(
            p.iter()
                .any(|m| m.contains("IK constraint `y`: unknown bone `jaw`"))
        );
        assert!(p.iter().any(|m| m.contains("share order 0")));
        assert!(p.iter().any(|m| m.contains("`p`: order 7 is outside 0..3")));
    }
}
