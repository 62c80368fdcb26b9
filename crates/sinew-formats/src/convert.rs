//! Converting a DragonBones armature into a Spine 4.2 rig ([`dragonbones_to_spine`]), to be
//! written with [`crate::spine::write_spine_json`] or [`crate::spine::write_spine_binary`].
//!
//! DragonBones data is y-down, Spine's y-up: the rig is mirrored by conjugating every
//! transform with the flip `F = diag(1, -1)` (a bone's local `L` becomes `F L F`, so world
//! matrices become `F W F` and every world point `F p`): y, rotations and shears are
//! negated (values and their Bezier handles), regions also negate their y scale (so the
//! image stays upright), vertices and deform deltas negate y, and IK bends the other way.
//! A converted rig drawn y-up looks like the DragonBones rig drawn y-down.
//!
//! What Spine cannot hold is approximated and listed in [`Converted::inexact`] (see
//! `docs/CONVERT.md`): DragonBones inherit flags (Spine's nearest inherit mode), blend modes
//! other than normal/additive/multiply/screen (normal), IK constraints (Spine's solver, which
//! differs from DragonBones' under non-uniformly scaled parents and at weights below 1),
//! and the play counts and fade-in times of animations (Spine leaves both to the player). Verified by
//! `tests/all/convert_dragonbones.rs` (every DragonBones golden posed by the converted rig,
//! loaded back as Spine JSON).

use crate::dragonbones::DragonBonesRig;
use sinew::raw::*;
use sinew::types::{BlendMode, DragonBonesInherit, IkSolver, Inherit};

/// A converted rig and what could not be converted exactly.
///
/// Owner: the converter (`sinew-formats::convert`), offline.
#[derive(Debug, Clone)]
pub struct Converted {
    /// The Spine rig (y up).
    pub rig: RawRig,
    /// One line per item converted inexactly, naming it and why.
    pub inexact: Vec<String>,
}

/// Spine's nearest inherit mode for DragonBones' flags, and whether it is exact.
pub fn nearest_inherit(f: DragonBonesInherit) -> (Inherit, bool) {
    let mode = match (f.rotation, f.scale, f.reflection) {
        (true, true, _) => Inherit::Normal,
        (false, true, _) => Inherit::NoRotationOrReflection,
        (true, false, true) => Inherit::NoScale,
        (true, false, false) => Inherit::NoScaleOrReflection,
        (false, false, _) => Inherit::OnlyTranslation,
    };
    let exact = f.translation && f.rotation && f.scale && f.reflection;
    (mode, exact)
}

fn inherit_name(i: Inherit) -> &'static str {
    match i {
        Inherit::Normal => "normal",
        Inherit::OnlyTranslation => "onlyTranslation",
        Inherit::NoRotationOrReflection => "noRotationOrReflection",
        Inherit::NoScale => "noScale",
        Inherit::NoScaleOrReflection => "noScaleOrReflection",
        Inherit::DragonBones(_) => "dragonBones",
    }
}

/// Converts a loaded DragonBones armature into a y-up Spine rig.
pub fn dragonbones_to_spine(db: &DragonBonesRig) -> Converted {
    let mut rig = db.raw.clone();
    let mut inexact = Vec::new();
    rig.version = "4.2.0".into();
    rig.hash.clear();
    let [x, y, w, h] = rig.bounds;
    rig.bounds = [x, -(y + h), w, h];
    for b in &mut rig.bones {
        b.y = -b.y;
        b.rotation = -b.rotation;
        b.shear_x = -b.shear_x;
        b.shear_y = -b.shear_y;
        if let Inherit::DragonBones(f) = b.inherit {
            let (mode, _) = nearest_inherit(f);
            inexact.push(format!(
                "bone `{}`: DragonBones inherit flags (translation {}, rotation {}, scale {}, \
                 reflection {}) written as Spine `{}`, which composes the parent differently{}",
                b.name,
                f.translation,
                f.rotation,
                f.scale,
                f.reflection,
                inherit_name(mode),
                if f.translation {
                    ""
                } else {
                    "; Spine always inherits the parent's translation"
                }
            ));
            b.inherit = mode;
        }
    }
    for s in &mut rig.slots {
        if !matches!(
            s.blend,
            BlendMode::Normal | BlendMode::Additive | BlendMode::Multiply | BlendMode::Screen
        ) {
            inexact.push(format!(
                "slot `{}`: blend mode {:?} has no Spine equivalent; written as normal",
                s.name, s.blend
            ));
            s.blend = BlendMode::Normal;
        }
    }
    for c in &mut rig.ik {
        c.bend_positive = !c.bend_positive;
        if c.solver == IkSolver::DragonBones {
            c.solver = IkSolver::Spine;
            inexact.push(format!(
                "IK `{}`: written as a Spine IK constraint, which solves in the parent's \
                 local space; DragonBones solves on world lengths and blends world rotations, \
                 so the two differ under a non-uniformly scaled or skewed parent and at \
                 weights below 1",
                c.name
            ));
        }
    }
    for c in &mut rig.transforms {
        c.offset_rotation = -c.offset_rotation;
        c.offset_y = -c.offset_y;
        c.offset_shear_y = -c.offset_shear_y;
    }
    for c in &mut rig.paths {
        c.offset_rotation = -c.offset_rotation;
    }
    for skin in &mut rig.skins {
        for e in &mut skin.attachments {
            flip_attachment(&mut e.attachment.kind);
        }
    }
    for clip in &mut rig.clips {
        for t in &mut clip.timelines {
            flip_timeline(t, &clip.name, &mut inexact);
        }
    }
    let counted: Vec<String> = db
        .clips
        .iter()
        .filter(|c| c.play_times != 0)
        .map(|c| format!("`{}` x{}", c.name, c.play_times))
        .collect();
    if !counted.is_empty() {
        inexact.push(format!(
            "animations with a DragonBones play count (playTimes): {}; Spine data has no play \
             count, the player chooses whether and how often an animation loops",
            counted.join(", ")
        ));
    }
    for info in db.clips.iter().filter(|c| c.fade_in > 0.0) {
        inexact.push(format!(
            "animation `{}`: fadeInTime {} s is not part of Spine data (set a mix duration in \
             the player)",
            info.name, info.fade_in
        ));
    }
    Converted { rig, inexact }
}

fn flip_vertices(v: &mut Vertices) {
    let stride = if v.is_weighted() { 3 } else { 2 };
    for c in v.values.chunks_exact_mut(stride) {
        c[1] = -c[1];
    }
}

fn flip_attachment(kind: &mut RawAttachmentKind) {
    match kind {
        RawAttachmentKind::Region {
            y,
            rotation,
            scale_y,
            ..
        } => {
            *y = -*y;
            *rotation = -*rotation;
            *scale_y = -*scale_y;
        }
        RawAttachmentKind::Mesh { vertices, .. }
        | RawAttachmentKind::BoundingBox { vertices, .. }
        | RawAttachmentKind::Path { vertices, .. }
        | RawAttachmentKind::Clipping { vertices, .. } => flip_vertices(vertices),
        RawAttachmentKind::Point { y, rotation, .. } => {
            *y = -*y;
            *rotation = -*rotation;
        }
        RawAttachmentKind::LinkedMesh { .. } => {}
    }
}

/// Negates the values (and their Bezier handles' y) marked in `mask`.
fn negate(keys: &mut [RawKey], mask: &[bool]) {
    for k in keys {
        for (v, &m) in k.values.iter_mut().zip(mask) {
            if m {
                *v = -*v;
            }
        }
        if let RawCurve::Bezier(c) = &mut k.curve {
            for (i, &m) in mask.iter().enumerate() {
                if m {
                    for j in [4 * i + 1, 4 * i + 3] {
                        if let Some(v) = c.get_mut(j) {
                            *v = -*v;
                        }
                    }
                }
            }
        }
    }
}

fn flip_timeline(t: &mut RawTimeline, clip: &str, inexact: &mut Vec<String>) {
    use BoneProperty as P;
    match &t.target {
        RawTarget::Bone { bone, property } => match property {
            P::Rotate | P::TranslateY | P::ShearX | P::ShearY => negate(&mut t.keys, &[true]),
            P::Translate => negate(&mut t.keys, &[false, true]),
            P::Shear => negate(&mut t.keys, &[true, true]),
            P::Inherit => {
                for k in &mut t.keys {
                    if let RawKeyData::Inherit(Inherit::DragonBones(f)) = k.data {
                        let (mode, _) = nearest_inherit(f);
                        inexact.push(format!(
                            "animation `{clip}`, bone `{bone}`: an inherit key with DragonBones \
                             flags written as Spine `{}`",
                            inherit_name(mode)
                        ));
                        k.data = RawKeyData::Inherit(mode);
                    }
                }
            }
            P::TranslateX | P::Scale | P::ScaleX | P::ScaleY => {}
        },
        RawTarget::Ik(_) => {
            for k in &mut t.keys {
                if let RawKeyData::IkFlags { bend_positive, .. } = &mut k.data {
                    *bend_positive = !*bend_positive;
                }
            }
        }
        RawTarget::Deform { .. } => {
            for k in &mut t.keys {
                if let RawKeyData::Deform { offset, vertices } = &mut k.data {
                    for (i, v) in vertices.iter_mut().enumerate() {
                        if (*offset as usize + i) % 2 == 1 {
                            *v = -*v;
                        }
                    }
                }
            }
        }
        _ => {}
    }
}
