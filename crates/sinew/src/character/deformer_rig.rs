//! Rotation and warp deformers declared by name (a rig-extras file's `deformers`,
//! `docs/EXTRAS.md`), for any rig: [`DeformerRig::build`] resolves each [`DeformerDesc`]
//! against the rig in its setup pose (the deformer's geometry is in that pose's world
//! frame; a deformer riding a bone keeps the bone's setup world transform), orders parents
//! first and resolves the animations' keys. [`Character::set_deformer_rig`] then runs them
//! every frame (step 8, after the cages) on the world vertices of the meshes they move,
//! through the stage [`crate::deformer::world::pose_world_deformers`].
//!
//! A deformer's state is its setup state plus offsets: for a rotation `[angle, scale, x,
//! y]` (degrees, a scale added to the setup scale, a pivot offset), for a warp one `[dx,
//! dy]` per lattice point. Each frame every playing animation adds `weight * keys(t)` (the
//! jiggle cues' windows: track alpha, crossfades; key curves as the cage point keys') and
//! the host adds its own ([`Character::deformer_offsets_mut`]). Verified by
//! `tests_deformer_rig.rs` (closed forms, nesting, bit for bit against the puppet stage's
//! deformers built by code, keys, no allocation).

use super::Character;
use super::cage_rig::ClipPointKeys;
use crate::ids::{AttachmentId, SlotId};
use crate::math::Vec2;
use crate::physics::jiggle::CueCurve;
use crate::rig::problem::{BuildError, BuildPart, BuildProblem, Element, ProblemKind};
use crate::rig::world_deformers::{
    WorldDeformer, WorldDeformerKind, WorldDeformerTarget, WorldDeformers,
};
use crate::rig::{AttachmentKind, Rig};
use std::sync::Arc;

/// Most deformers one rig may declare.
pub const MAX_RIG_DEFORMERS: usize = 4096;
/// Most points in one warp lattice.
pub const MAX_WARP_POINTS: usize = 65_536;

/// What a declared deformer is, in its setup state (world frame of the setup pose).
///
/// Owner: the world deformer stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DeformerDescKind {
    /// Rotation about `pivot` by `angle` degrees with a uniform `scale`.
    Rotation {
        /// Pivot.
        pivot: [f64; 2],
        /// Angle, degrees.
        angle: f64,
        /// Scale.
        scale: f64,
    },
    /// A lattice of `(cols + 1) x (rows + 1)` points over the rest rectangle `origin ..
    /// origin + size` (row-major, y slowest).
    Warp {
        /// Rest corner with the smallest coordinates.
        origin: [f64; 2],
        /// Rest width and height (positive).
        size: [f64; 2],
        /// Cells across (1 or more).
        cols: u16,
        /// Cells down (1 or more).
        rows: u16,
    },
}

impl DeformerDescKind {
    /// How many offsets its state has (4 for a rotation, `2 x points` for a warp).
    pub fn channels(&self) -> usize {
        match *self {
            DeformerDescKind::Rotation { .. } => 4,
            DeformerDescKind::Warp { cols, rows, .. } => {
                2 * (usize::from(cols) + 1) * (usize::from(rows) + 1)
            }
        }
    }
}

/// A mesh a declared deformer moves.
///
/// Owner: the world deformer stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeformerTargetDesc {
    /// The slot.
    pub slot: String,
    /// The mesh (its key in the slot's skins); `None`: the slot's setup attachment.
    pub attachment: Option<String>,
}

/// One key of a deformer's track.
///
/// Owner: the world deformer stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, PartialEq)]
pub struct DeformerKey {
    /// Animation time, seconds.
    pub time: f64,
    /// How the values move to the next key's.
    pub curve: CueCurve,
    /// The offsets ([`DeformerDescKind::channels`] of them).
    pub values: Vec<f64>,
}

/// A deformer's keys in one animation.
///
/// Owner: the world deformer stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, PartialEq)]
pub struct DeformerKeysDesc {
    /// The animation.
    pub animation: String,
    /// Keys in time order (at least one).
    pub keys: Vec<DeformerKey>,
}

/// A deformer declared by name.
///
/// Owner: the world deformer stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, PartialEq)]
pub struct DeformerDesc {
    /// Unique name.
    pub name: String,
    /// What it is.
    pub kind: DeformerDescKind,
    /// The deformer that moves its geometry.
    pub parent: Option<String>,
    /// A bone it rides (its geometry follows the bone's motion since the setup pose).
    pub bone: Option<String>,
    /// The meshes it moves.
    pub targets: Vec<DeformerTargetDesc>,
    /// Its keys per animation.
    pub animations: Vec<DeformerKeysDesc>,
}

impl DeformerDesc {
    /// A deformer of `kind` moving the setup meshes of `slots`; no parent, bone or keys.
    pub fn new(name: impl Into<String>, kind: DeformerDescKind, slots: &[&str]) -> Self {
        DeformerDesc {
            name: name.into(),
            kind,
            parent: None,
            bone: None,
            targets: slots
                .iter()
                .map(|s| DeformerTargetDesc {
                    slot: (*s).to_owned(),
                    attachment: None,
                })
                .collect(),
            animations: Vec::new(),
        }
    }
}

/// Deformers bound to one rig's meshes, shared by its characters
/// ([`Character::set_deformer_rig`]).
///
/// Owner: the world deformer stage (step 8 of `Character::update`); built at load time.
#[derive(Debug, Clone)]
pub struct DeformerRig {
    pub(super) rig_uid: u64,
    /// Names in run order (parents first).
    names: Vec<String>,
    pub(super) data: WorldDeformers,
    /// Per deformer (run order): its keys per animation.
    pub(super) keys: Vec<Vec<ClipPointKeys>>,
}

impl DeformerRig {
    /// Binds every deformer of `descs` to `rig` in its setup pose; every problem at once,
    /// each tagged [`BuildPart::Deformers`] and [`Element::Deformer`] (the index in
    /// `descs`), naming the deformer and the offending name.
    pub fn build(rig: &Arc<Rig>, descs: &[DeformerDesc]) -> Result<DeformerRig, BuildError> {
        let tag = |p: BuildProblem, i: usize| {
            p.in_part(BuildPart::Deformers)
                .at_element(Element::Deformer(i))
        };
        if descs.len() > MAX_RIG_DEFORMERS {
            let p = BuildProblem::new(
                ProblemKind::TooMany,
                "deformers",
                format!("{} deformers (at most {MAX_RIG_DEFORMERS})", descs.len()),
            );
            return Err(BuildError::from_problems(vec![tag(p, 0)]));
        }
        let mut errs = Vec::new();
        let index_of = |name: &str| descs.iter().position(|d| d.name == name);
        let mut depth = vec![0usize; descs.len()];
        for (i, d) in descs.iter().enumerate() {
            let item = format!("deformer `{}`", d.name);
            if index_of(&d.name) != Some(i) {
                let p = BuildProblem::duplicate(&item, &d.name, "duplicate deformer name");
                errs.push(tag(p, i));
            }
            let mut cur = d.parent.as_deref();
            while let Some(p) = cur {
                let Some(pi) = index_of(p) else {
                    errs.push(tag(BuildProblem::unknown(&item, "parent", p), i));
                    break;
                };
                depth[i] += 1;
                if depth[i] > descs.len() {
                    let p = BuildProblem::new(ProblemKind::Hierarchy, &item, "parent cycle");
                    errs.push(tag(p, i));
                    break;
                }
                cur = descs[pi].parent.as_deref();
            }
        }
        if !errs.is_empty() {
            return Err(BuildError::from_problems(errs));
        }
        let mut order: Vec<usize> = (0..descs.len()).collect();
        order.sort_by_key(|&i| depth[i]);
        let mut run_index = vec![0u16; descs.len()];
        for (k, &i) in order.iter().enumerate() {
            run_index[i] = k as u16;
        }
        let mut c = Character::new(rig.clone());
        c.set_to_setup_pose();
        c.update(0.0);
        let mut out = DeformerRig {
            rig_uid: rig.uid(),
            names: Vec::with_capacity(descs.len()),
            data: WorldDeformers::default(),
            keys: Vec::with_capacity(descs.len()),
        };
        for &i in &order {
            let d = &descs[i];
            let item = format!("deformer `{}`", d.name);
            let parent = d.parent.as_deref().and_then(index_of).map(|p| run_index[p]);
            if let Err(p) = bind_one(&mut c, rig, d, &item, parent, &mut out) {
                errs.push(tag(p, i));
            }
        }
        if errs.is_empty() {
            Ok(out)
        } else {
            Err(BuildError::from_problems(errs))
        }
    }

    /// How many deformers.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Deformer `index`'s name (indices in run order: parents first, then file order).
    pub fn name(&self, index: usize) -> Option<&str> {
        self.names.get(index).map(String::as_str)
    }

    /// The index of the deformer called `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The bound deformers and their targets, as the stage runs them.
    pub fn deformers(&self) -> &WorldDeformers {
        &self.data
    }
}

/// Resolves one deformer (its parent already bound) and appends it to `out`.
fn bind_one(
    c: &mut Character,
    rig: &Rig,
    d: &DeformerDesc,
    item: &str,
    parent: Option<u16>,
    out: &mut DeformerRig,
) -> Result<(), BuildProblem> {
    let value = |m: String| BuildProblem::new(ProblemKind::Value, item, m);
    let kind = match d.kind {
        DeformerDescKind::Rotation {
            pivot,
            angle,
            scale,
        } => {
            if !(pivot.iter().all(|v| v.is_finite()) && angle.is_finite() && scale.is_finite()) {
                return Err(value(
                    "a rotation needs a finite pivot, angle and scale".into(),
                ));
            }
            WorldDeformerKind::Rotation {
                pivot: Vec2::from(pivot),
                angle,
                scale,
            }
        }
        DeformerDescKind::Warp {
            origin,
            size,
            cols,
            rows,
        } => {
            let points = (usize::from(cols) + 1) * (usize::from(rows) + 1);
            let ok = origin.iter().all(|v| v.is_finite())
                && size.iter().all(|v| v.is_finite() && *v > 0.0)
                && cols > 0
                && rows > 0
                && points <= MAX_WARP_POINTS;
            if !ok {
                return Err(value(format!(
                    "a warp needs a finite origin, a positive size and 1 cell or more each way \
                     (at most {MAX_WARP_POINTS} points)"
                )));
            }
            // The puppet stage's cell (`deformer/build.rs`), for the same bits.
            WorldDeformerKind::Warp {
                origin: Vec2::from(origin),
                cell: Vec2::new(size[0] / f64::from(cols), size[1] / f64::from(rows)),
                cols,
                rows,
            }
        }
    };
    let bone = match &d.bone {
        None => None,
        Some(b) => {
            let id = rig
                .bone(b)
                .ok_or_else(|| BuildProblem::unknown(item, "bone", b))?;
            let inv = c.inst.world[id.index()]
                .try_inverse()
                .ok_or_else(|| value(format!("bone `{b}` is singular in the setup pose")))?;
            Some((id, inv))
        }
    };
    let index = out.data.deformers.len() as u16;
    let mut targets = Vec::with_capacity(d.targets.len());
    for t in &d.targets {
        let (slot, attachment) = resolve_target(c, rig, t, item)?;
        let taken = out
            .data
            .targets
            .iter()
            .chain(&targets)
            .find(|o: &&WorldDeformerTarget| o.slot == slot && o.attachment == attachment);
        if let Some(o) = taken {
            let other = out
                .names
                .get(usize::from(o.deformer))
                .map_or(d.name.as_str(), String::as_str);
            return Err(BuildProblem::duplicate(
                item,
                &t.slot,
                format!(
                    "slot `{}`'s mesh is moved by deformer `{other}` already",
                    t.slot
                ),
            ));
        }
        let len = 2 * crate::deform::world_vertex_count(rig, attachment) as u32;
        targets.push(WorldDeformerTarget {
            slot,
            attachment,
            deformer: index,
            start: 0,
            len,
        });
    }
    let channels = kind.channels();
    let keys = resolve_keys(rig, d, channels, item)?;
    for mut t in targets {
        t.start = out.data.vertex_floats;
        out.data.vertex_floats = out.data.vertex_floats.saturating_add(t.len);
        out.data.targets.push(t);
    }
    let lattice = out.data.lattice_floats;
    if let WorldDeformerKind::Warp { .. } = kind {
        out.data.lattice_floats = lattice.saturating_add(channels as u32);
    }
    out.data.deformers.push(WorldDeformer {
        kind,
        parent,
        bone,
        channels: out.data.channel_floats,
        lattice,
    });
    out.data.channel_floats = out.data.channel_floats.saturating_add(channels as u32);
    out.names.push(d.name.clone());
    out.keys.push(keys);
    Ok(())
}

/// The slot and mesh attachment of one target.
fn resolve_target(
    c: &mut Character,
    rig: &Rig,
    t: &DeformerTargetDesc,
    item: &str,
) -> Result<(SlotId, AttachmentId), BuildProblem> {
    let slot = rig
        .slot(&t.slot)
        .ok_or_else(|| BuildProblem::unknown(item, "slot", &t.slot))?;
    c.set_to_setup_pose();
    if let Some(a) = &t.attachment {
        c.set_attachment(slot, a).map_err(|_| {
            let mut p = BuildProblem::unknown(item, "attachment", a);
            p.message = format!("slot `{}` has no attachment `{a}`", t.slot);
            p
        })?;
    }
    let att = c.attachment(slot);
    c.set_to_setup_pose();
    match att {
        Some(a)
            if matches!(
                rig.attachments.get(a.index()).map(|x| &x.kind),
                Some(AttachmentKind::Mesh(_))
            ) =>
        {
            Ok((slot, a))
        }
        _ => Err(BuildProblem::new(
            ProblemKind::Geometry,
            item,
            format!("slot `{}` shows no mesh in the setup pose", t.slot),
        )),
    }
}

/// Each animation's keys of one deformer, flat.
fn resolve_keys(
    rig: &Rig,
    d: &DeformerDesc,
    channels: usize,
    item: &str,
) -> Result<Vec<ClipPointKeys>, BuildProblem> {
    let anims = d.animations.iter().map(|a| {
        let keys = a
            .keys
            .iter()
            .map(|k| (k.time, k.curve, k.values.as_slice()));
        (a.animation.as_str(), keys)
    });
    ClipPointKeys::resolve(rig, item, anims, channels, &|len| {
        format!("{len} values for a deformer of {channels}")
    })
}

#[cfg(test)]
#[path = "tests_deformer_rig.rs"]
mod tests;
