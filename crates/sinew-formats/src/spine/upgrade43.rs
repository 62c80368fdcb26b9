//! Spine 4.2 -> 4.3: a 4.2 rig rewritten in 4.3's terms, so that 4.3's runtime poses it as
//! 4.2's did wherever the data can say so (the facts are those of the verified converter in
//! `../shared/oracle/spine43/upgrade42to43.mjs`; this is sinew's own code):
//!
//! - one constraint list in 4.2's update order: for i = 0..n-1 the first constraint whose
//!   `order` is i (IK before transform before path before physics); a constraint 4.2 never
//!   reaches (a duplicate `order`, or one >= n) is dropped with its skin entries and
//!   timelines, and named in a note;
//! - transform constraints get 4.2's fixed mapping as explicit properties (rotate, x, y,
//!   scaleX, scaleY, shearY, each driving itself, in the order 4.2 applies them),
//!   `localSource` and `localTarget` both from `local`; a negative setup `mixShearY` in world
//!   space (4.2 ignores it, 4.3 applies it) becomes 0;
//! - IK constraints get 4.3's solver rules; every key and default is explicit in the rig, so
//!   the 4.3 writers write what 4.3 reads.
//!
//! What 4.3's runtime does differently and data cannot express (physics poses interpolated
//! between steps, the transform and IK cases of the oracle's README) is listed in the notes
//! when the rig uses it; using it does not mean a pose differs.

use sinew::IkSolver;
use sinew::raw::*;
use sinew::types::{SpineRuntime, TransformFrom, TransformProperty, TransformTo};

/// A rig upgraded to Spine 4.3 and what the upgrade changed or could not keep.
#[derive(Debug, Clone)]
pub struct Upgraded {
    /// The rig, posed with 4.3's semantics (`runtime` is [`SpineRuntime::V43`]).
    pub rig: RawRig,
    /// One line per dropped constraint, rewritten value and 4.3 behaviour change the rig uses.
    pub notes: Vec<String>,
}

/// Upgrades a Spine 4.2 rig to 4.3 (a 4.3 rig comes back unchanged, without notes).
///
/// ```
/// let rig = sinew_formats::spine::parse_spine_json(
///     r#"{"skeleton":{"spine":"4.2.40"},"bones":[{"name":"root"},{"name":"b","parent":"root"}],
///         "transform":[{"name":"t","order":0,"bones":["b"],"target":"root","mixShearY":-1}]}"#,
///     "t.json",
/// )
/// .unwrap();
/// let up = sinew_formats::spine::upgrade_to_spine43(&rig);
/// assert_eq!(up.rig.runtime, sinew::types::SpineRuntime::V43);
/// assert_eq!(up.rig.transforms[0].properties.len(), 6);
/// assert_eq!(up.rig.transforms[0].mix_shear_y, 0.0);
/// assert!(up.notes[0].contains("mixShearY"));
/// ```
pub fn upgrade_to_spine43(rig: &RawRig) -> Upgraded {
    let mut rig = rig.clone();
    let mut notes = Vec::new();
    if rig.runtime == SpineRuntime::V43 {
        return Upgraded { rig, notes };
    }
    behaviour_notes(&rig, &mut notes);
    order_constraints(&mut rig, &mut notes);
    for c in &mut rig.ik {
        if c.solver == IkSolver::Spine {
            c.solver = IkSolver::Spine43;
        }
    }
    for c in &mut rig.transforms {
        c.properties = [
            TransformProperty::Rotate,
            TransformProperty::X,
            TransformProperty::Y,
            TransformProperty::ScaleX,
            TransformProperty::ScaleY,
            TransformProperty::ShearY,
        ]
        .into_iter()
        .map(|property| TransformFrom {
            property,
            offset: 0.0,
            to: vec![TransformTo {
                property,
                offset: 0.0,
                max: 1.0,
                scale: 1.0,
            }],
        })
        .collect();
        c.local_target = c.local;
        c.clamp = false;
        if !c.local && c.mix_shear_y < 0.0 {
            notes.push(format!(
                "transform constraint `{}`: setup mixShearY {} < 0 is ignored by 4.2 in world \
                 space; written as 0",
                c.name, c.mix_shear_y
            ));
            c.mix_shear_y = 0.0;
        }
    }
    rig.runtime = SpineRuntime::V43;
    rig.version = "4.3.0".into();
    Upgraded { rig, notes }
}

/// Renumbers the constraints in 4.2's update order and drops those 4.2 never updates.
fn order_constraints(rig: &mut RawRig, notes: &mut Vec<String>) {
    // (kind, index in its list, order), kinds in 4.2's tie-break order.
    let mut all: Vec<(usize, usize, u32)> = Vec::new();
    all.extend(rig.ik.iter().enumerate().map(|(i, c)| (0, i, c.order)));
    all.extend(
        rig.transforms
            .iter()
            .enumerate()
            .map(|(i, c)| (1, i, c.order)),
    );
    all.extend(rig.paths.iter().enumerate().map(|(i, c)| (2, i, c.order)));
    all.extend(rig.physics.iter().enumerate().map(|(i, c)| (3, i, c.order)));
    let n = all.len();
    let mut new_order: Vec<Option<u32>> = vec![None; n];
    for i in 0..n {
        if let Some(hit) = (0..n).find(|&e| new_order[e].is_none() && all[e].2 as usize == i) {
            new_order[hit] = Some(i as u32);
        }
    }
    let mut dropped: [Vec<String>; 4] = Default::default();
    for (e, &(kind, index, order)) in all.iter().enumerate() {
        if new_order[e].is_none() {
            let (what, name) = match kind {
                0 => ("IK", &rig.ik[index].name),
                1 => ("transform", &rig.transforms[index].name),
                2 => ("path", &rig.paths[index].name),
                _ => ("physics", &rig.physics[index].name),
            };
            dropped[kind].push(name.clone());
            notes.push(format!(
                "dropped {what} constraint `{name}`: order {order} is never reached by the 4.2 \
                 update order (a duplicate, or >= {n}), so 4.2 never applies it"
            ));
        }
    }
    let mut it = new_order.iter();
    for c in &mut rig.ik {
        c.order = it.next().copied().flatten().unwrap_or(u32::MAX);
    }
    for c in &mut rig.transforms {
        c.order = it.next().copied().flatten().unwrap_or(u32::MAX);
    }
    for c in &mut rig.paths {
        c.order = it.next().copied().flatten().unwrap_or(u32::MAX);
    }
    for c in &mut rig.physics {
        c.order = it.next().copied().flatten().unwrap_or(u32::MAX);
    }
    // A 4.3 loader lists each kind in array order: the update order.
    rig.ik.sort_by_key(|c| c.order);
    rig.transforms.sort_by_key(|c| c.order);
    rig.paths.sort_by_key(|c| c.order);
    rig.physics.sort_by_key(|c| c.order);
    if dropped.iter().all(Vec::is_empty) {
        return;
    }
    let [ik, tr, pa, ph] = &dropped;
    rig.ik.retain(|c| !ik.contains(&c.name));
    rig.transforms.retain(|c| !tr.contains(&c.name));
    rig.paths.retain(|c| !pa.contains(&c.name));
    rig.physics.retain(|c| !ph.contains(&c.name));
    for s in &mut rig.skins {
        s.ik.retain(|n| !ik.contains(n));
        s.transforms.retain(|n| !tr.contains(n));
        s.paths.retain(|n| !pa.contains(n));
        s.physics.retain(|n| !ph.contains(n));
    }
    for clip in &mut rig.clips {
        clip.timelines.retain(|t| match &t.target {
            RawTarget::Ik(n) => !ik.contains(n),
            RawTarget::Transform(n) => !tr.contains(n),
            RawTarget::PathPosition(n) | RawTarget::PathSpacing(n) | RawTarget::PathMix(n) => {
                !pa.contains(n)
            }
            RawTarget::Physics {
                constraint: Some(n),
                ..
            } => !ph.contains(n),
            _ => true,
        });
    }
}

/// Keys of `clip` timelines on transform constraint `name`.
fn transform_keys<'r>(rig: &'r RawRig, name: &'r str) -> impl Iterator<Item = &'r RawKey> {
    rig.clips
        .iter()
        .flat_map(|c| &c.timelines)
        .filter(move |t| matches!(&t.target, RawTarget::Transform(n) if n == name))
        .flat_map(|t| &t.keys)
}

/// Whether any clip keys `bone`'s property among `props`.
fn bone_keyed(rig: &RawRig, bone: &str, props: &[BoneProperty]) -> bool {
    rig.clips.iter().flat_map(|c| &c.timelines).any(|t| {
        matches!(&t.target, RawTarget::Bone { bone: b, property } if b == bone && props.contains(property))
    })
}

/// The 4.2 behaviours 4.3 runs differently that the rig uses (statically).
fn behaviour_notes(rig: &RawRig, notes: &mut Vec<String>) {
    let bone = |name: &str| rig.bones.iter().find(|b| b.name == name);
    if !rig.physics.is_empty() {
        let names: Vec<String> = rig
            .physics
            .iter()
            .map(|c| format!("`{}`", c.name))
            .collect();
        notes.push(format!(
            "physics constraints ({}: {}): 4.3 shows the physics pose interpolated between \
             steps (they move differently from 4.2)",
            names.len(),
            names.join(", ")
        ));
    }
    use BoneProperty as B;
    for c in &rig.transforms {
        let keys: Vec<&RawKey> = transform_keys(rig, &c.name).collect();
        let key_mix = |i: usize| keys.iter().filter_map(move |k| k.values.get(i).copied());
        let scaled = c.bones.iter().any(|b| {
            bone(b).is_some_and(|b| b.scale_x != 1.0 || b.scale_y != 1.0)
                || bone_keyed(rig, b, &[B::Scale, B::ScaleX, B::ScaleY])
        });
        let scale_mixes = [c.mix_scale_x, c.mix_scale_y]
            .into_iter()
            .chain(key_mix(3))
            .chain(key_mix(4));
        if c.local && !c.relative && scaled && scale_mixes.clone().any(|m| m != 0.0) {
            notes.push(format!(
                "transform constraint `{}`: local and absolute, scaling a bone whose scale is \
                 not 1 (4.2 divides by the bone's scale, 4.3 does not)",
                c.name
            ));
        }
        let shear_mixes = std::iter::once(c.mix_shear_y).chain(key_mix(5));
        if !c.local && c.relative && shear_mixes.clone().any(|m| m != 0.0 && m != 1.0) {
            notes.push(format!(
                "transform constraint `{}`: additive in world space with mixShearY between 0 \
                 and 1 (4.2 wraps the shear, 4.3 does not)",
                c.name
            ));
        }
        if !c.local && c.offset_shear_y != 0.0 {
            notes.push(format!(
                "transform constraint `{}`: a shearY offset in world space (4.2 negates it for \
                 a reflected source, 4.3 does not)",
                c.name
            ));
        }
        if !c.local && key_mix(5).any(|m| m < 0.0) {
            notes.push(format!(
                "transform constraint `{}`: a negative mixShearY key in world space (4.2 \
                 ignores it, 4.3 applies it)",
                c.name
            ));
        }
    }
    for c in rig.ik.iter().filter(|c| c.bones.len() == 2) {
        let parent = &c.bones[0];
        let sheared = bone(parent).is_some_and(|b| b.shear_x != 0.0 || b.shear_y != 0.0)
            || bone_keyed(rig, parent, &[B::Shear, B::ShearX, B::ShearY]);
        if sheared {
            notes.push(format!(
                "IK constraint `{}`: two-bone IK whose parent `{parent}` has shear (4.2 zeroes \
                 it, 4.3 keeps it)",
                c.name
            ));
        }
    }
    for c in &rig.paths {
        if c.spacing_mode == sinew::types::SpacingMode::Length && c.spacing < 0.0 {
            notes.push(format!(
                "path constraint `{}`: negative length spacing (4.3 clamps it at 0)",
                c.name
            ));
        }
    }
}
