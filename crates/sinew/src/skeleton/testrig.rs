//! Test helpers: small rigs built directly as [`Rig`] tables (no loader needed).

use crate::ids::*;
use crate::rig::{BoneData, ConstraintRef, IkData, LocalPose, Rig, TransformData, TransformMix};
use crate::types::Inherit;

/// One bone: (name, parent index, length, [x, y, rotation, scaleX, scaleY, shearX,
/// shearY], inherit).
pub(crate) type BoneRow = (&'static str, Option<usize>, f64, [f64; 7], Inherit);

/// A local pose from `[x, y, rotation, scaleX, scaleY, shearX, shearY]`.
pub(crate) fn pose(v: [f64; 7]) -> LocalPose {
    LocalPose {
        x: v[0],
        y: v[1],
        rotation: v[2],
        scale_x: v[3],
        scale_y: v[4],
        shear_x: v[5],
        shear_y: v[6],
    }
}

/// A rig with these bones and no constraints, slots or skins.
pub(crate) fn rig_with_bones(rows: &[BoneRow]) -> Rig {
    let mut rig = Rig {
        reference_scale: 100.0,
        ..Rig::empty()
    };
    for (i, &(name, parent, length, v, inherit)) in rows.iter().enumerate() {
        rig.bones.push(BoneData {
            name: name.to_owned(),
            parent: parent.map(|p| BoneId(p as u16)),
            length,
            setup: pose(v),
            inherit,
            skin_required: false,
        });
        rig.names.bones.insert(name.to_owned(), BoneId(i as u16));
    }
    rig
}

/// Looks up a bone id by name (panics in tests when missing).
pub(crate) fn bone(rig: &Rig, name: &str) -> BoneId {
    rig.bone(name).unwrap_or_else(|| panic!("no bone {name}"))
}

/// An IK constraint on named bones, appended to the rig and to the constraint order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn add_ik(
    rig: &mut Rig,
    name: &str,
    bones: &[&str],
    target: &str,
    mix: f64,
    softness: f64,
    bend_direction: i8,
    flags: (bool, bool, bool),
) -> IkId {
    let (compress, stretch, uniform) = flags;
    let id = IkId(rig.ik.len() as u16);
    let data = IkData {
        name: name.to_owned(),
        skin_required: false,
        bones: bones.iter().map(|b| bone(rig, b)).collect(),
        target: bone(rig, target),
        mix,
        softness,
        bend_direction,
        compress,
        stretch,
        uniform,
        volume: false,
        solver: Default::default(),
    };
    rig.ik.push(data);
    rig.constraint_order.push(ConstraintRef::Ik(id));
    id
}

/// A transform constraint: offsets `[rotation, x, y, scaleX, scaleY, shearY]` and mixes
/// `[rotate, x, y, scaleX, scaleY, shearY]`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn add_transform(
    rig: &mut Rig,
    name: &str,
    bones: &[&str],
    target: &str,
    local: bool,
    relative: bool,
    offsets: [f64; 6],
    mixes: [f64; 6],
) -> TransformId {
    let id = TransformId(rig.transforms.len() as u16);
    let data = TransformData {
        name: name.to_owned(),
        skin_required: false,
        bones: bones.iter().map(|b| bone(rig, b)).collect(),
        target: bone(rig, target),
        local,
        relative,
        offset_rotation: offsets[0],
        offset_x: offsets[1],
        offset_y: offsets[2],
        offset_scale_x: offsets[3],
        offset_scale_y: offsets[4],
        offset_shear_y: offsets[5],
        mix: TransformMix {
            rotate: mixes[0],
            x: mixes[1],
            y: mixes[2],
            scale_x: mixes[3],
            scale_y: mixes[4],
            shear_y: mixes[5],
        },
        properties: Vec::new(),
        local_target: false,
        clamp: false,
    };
    rig.transforms.push(data);
    rig.constraint_order.push(ConstraintRef::Transform(id));
    id
}
