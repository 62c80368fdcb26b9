//! Bones and entities, both ways.
//!
//! - [`SinewBoneFollower`]: a child entity of a character entity follows one of its bones.
//!   [`follow_bones`] runs right after the update, before Bevy propagates transforms, so the
//!   follower's `GlobalTransform` is this frame's pose.
//! - [`SinewBoneTargets`]: bones of a character placed where other entities are (an aim
//!   crosshair, a hand on a door knob). [`place_bone_targets`] runs right before the update,
//!   reading the targets' transforms as they are now (their ancestors' `Transform`s, so a
//!   target moved earlier this frame counts), and writes the bone's local position
//!   (`Character::set_bone_local`, held over the animation; IK constrained to that bone
//!   follows).

use crate::character::SinewCharacter;
use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;
use sinew::rig::LocalPose;

/// A child of a [`SinewCharacter`] entity that follows a bone: its `Transform` gets the bone's
/// position (x, y; its own z kept), and its rotation and scale when asked.
///
/// Owner: the app spawns it as a child; [`follow_bones`] writes its `Transform`.
#[derive(Component, Debug, Clone, PartialEq)]
#[require(Transform)]
pub struct SinewBoneFollower {
    /// The bone's name.
    pub bone: String,
    /// Take the bone's world rotation too.
    pub rotation: bool,
    /// Take the bone's world scale too (shear is left out).
    pub scale: bool,
}

impl SinewBoneFollower {
    /// Follows `bone`'s position and rotation.
    pub fn new(bone: impl Into<String>) -> Self {
        SinewBoneFollower {
            bone: bone.into(),
            rotation: true,
            scale: false,
        }
    }
}

/// Bones of this character placed at entities, each frame before the update.
///
/// Owner: the app; read by [`place_bone_targets`].
#[derive(Component, Debug, Clone, Default, PartialEq)]
pub struct SinewBoneTargets(pub Vec<(String, Entity)>);

impl SinewBoneTargets {
    /// One bone at one entity.
    pub fn new(bone: impl Into<String>, target: Entity) -> Self {
        SinewBoneTargets(vec![(bone.into(), target)])
    }
}

/// Writes followers' transforms from their parent character's bones (this frame's pose).
pub fn follow_bones(
    characters: Query<&SinewCharacter>,
    mut followers: Query<(&SinewBoneFollower, &ChildOf, &mut Transform)>,
) {
    for (f, parent, mut tf) in &mut followers {
        let Ok(c) = characters.get(parent.parent()) else {
            continue;
        };
        let Some(Some(w)) = c.read(|ch| ch.bone_world(f.bone.as_str())) else {
            continue;
        };
        let mut next = *tf;
        next.translation.x = w.x as f32;
        next.translation.y = w.y as f32;
        if f.rotation {
            next.rotation = Quat::from_rotation_z(w.c.atan2(w.a) as f32);
        }
        if f.scale {
            let sx = w.a.hypot(w.c);
            let sy = if sx > 0.0 {
                (w.a * w.d - w.b * w.c) / sx
            } else {
                0.0
            };
            next.scale.x = sx as f32;
            next.scale.y = sy as f32;
        }
        tf.set_if_neq(next);
    }
}

/// Places target bones where their entities are, in the character's space.
pub fn place_bone_targets(
    helper: TransformHelper,
    mut characters: Query<(Entity, &mut SinewCharacter, &SinewBoneTargets)>,
) {
    for (entity, mut c, targets) in &mut characters {
        let Ok(own) = helper.compute_global_transform(entity) else {
            continue;
        };
        let to_local = own.affine().inverse();
        let Some(ch) = c.character() else {
            continue;
        };
        for (bone, target) in &targets.0 {
            let Ok(t) = helper.compute_global_transform(*target) else {
                continue;
            };
            let p = to_local.transform_point3(t.translation());
            let (x, y) = (f64::from(p.x), f64::from(p.y));
            let Some(b) = ch.find_bone(bone) else {
                continue;
            };
            let parent = ch.rig().bones.get(b.index()).and_then(|d| d.parent);
            let local = match parent {
                Some(parent) => match ch.world_to_local(parent, (x, y)) {
                    Some(v) => (v.x, v.y),
                    None => continue,
                },
                None => (x, y),
            };
            let pose = ch.bone_local(b).unwrap_or(LocalPose::IDENTITY);
            let _ = ch.set_bone_local(
                b,
                LocalPose {
                    x: local.0,
                    y: local.1,
                    ..pose
                },
            );
        }
    }
}
