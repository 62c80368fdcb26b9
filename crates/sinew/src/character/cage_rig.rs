//! Cages declared by name (a rig-extras file, `docs/EXTRAS.md`), bound once per rig:
//! [`CageRig::build`] resolves each [`CageDesc`] against the rig, poses a character in the
//! setup pose, binds the cage to the mesh's world vertices there with mean value
//! coordinates (exactly what [`Character::bind_cage`] does from code) and resolves its
//! point keys per animation. [`Character::set_cage_rig`] then runs the cages every frame
//! (step 8), each driven by bones, by mesh vertices or by the host, with the animations'
//! point keys added as bind-frame offsets ([`CageDeformer::point_offsets_mut`]).
//!
//! A cage's point keys: per animation, keys `{time, curve, offsets}` with one `[dx, dy]` per
//! cage point; each frame every playing animation adds `weight * offsets(t)` (the same
//! windows and weights as the jiggle cues: track alpha, crossfades; the key's curve as a
//! jiggle cue key's: linear, stepped or CSS cubic-bezier over the segment). Verified by
//! `tests_cage_rig.rs` against cages bound by code.

use super::{AnimMode, Character, CharacterError, cages::SlotCage};
use crate::anim::AnimationState;
use crate::cage::Cage;
use crate::deform::cage_stage::{CageDeformer, CageMode, CageSource};
use crate::ids::{AttachmentId, BoneId, ClipId, SlotId};
use crate::math::Vec2;
use crate::physics::jiggle::cues::sample as cue_sample;
use crate::physics::jiggle::{CueCurve, CueKey, CueWindow};
use crate::rig::Rig;
use crate::rig::problem::{BuildError, BuildPart, BuildProblem, Element, ProblemKind};
use std::sync::Arc;

/// Most points one cage may have (all loops together).
pub const MAX_CAGE_POINTS: usize = 4096;

/// What drives a declared cage's points each frame.
///
/// Owner: the cage stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, PartialEq)]
pub enum CageDrive {
    /// Skinned to bones: `weights` has one row per cage point over `bones` (a row sums to
    /// 1; zero weights are skipped). One bone and no rows: every point rides that bone.
    Bones {
        /// The bones the rows weigh, by name.
        bones: Vec<String>,
        /// One row per cage point (all loops, in order), one weight per bone.
        weights: Vec<Vec<f64>>,
    },
    /// The mesh's own vertices (by index), one list per loop: the cage's points are where
    /// those vertices are after skinning and earlier cages.
    Mesh {
        /// Vertex indices of each loop.
        vertices: Vec<Vec<u32>>,
    },
    /// Written by the host ([`Character::cage_points_mut`]; C ABI
    /// `sinew_character_set_cage_points`); the bind pose until then.
    Host,
}

/// One key of a cage's point track.
///
/// Owner: the cage stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, PartialEq)]
pub struct CagePointKey {
    /// Animation time, seconds.
    pub time: f64,
    /// How the offsets move to the next key's.
    pub curve: CueCurve,
    /// One bind-frame delta per cage point (all loops, in order).
    pub offsets: Vec<[f64; 2]>,
}

/// A cage's point keys in one animation, by name.
///
/// Owner: the cage stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, PartialEq)]
pub struct CageKeysDesc {
    /// The animation.
    pub animation: String,
    /// Keys in time order (at least one).
    pub keys: Vec<CagePointKey>,
}

/// A cage declared by name: bound to a slot's mesh in the setup pose.
///
/// Owner: the cage stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, PartialEq)]
pub struct CageDesc {
    /// Unique name (errors, [`Character::find_cage`]).
    pub name: String,
    /// The slot whose mesh it deforms.
    pub slot: String,
    /// The mesh (its key in the slot's skins); `None`: the slot's setup attachment.
    pub attachment: Option<String>,
    /// The cage's points, one list per loop (outer loops counter-clockwise, holes
    /// clockwise), in the world frame of the setup pose ([`Character::world_vertices`]).
    /// Empty for [`CageDrive::Mesh`], whose points are the mesh's vertices.
    pub loops: Vec<Vec<[f64; 2]>>,
    /// What drives the points.
    pub drive: CageDrive,
    /// How the result combines with the skinned vertices.
    pub mode: CageMode,
    /// Point keys per animation.
    pub animations: Vec<CageKeysDesc>,
}

impl CageDesc {
    /// A cage of `slot`'s setup mesh with these loops, driven by the host, replacing the
    /// mesh's vertices; no keys.
    pub fn new(
        name: impl Into<String>,
        slot: impl Into<String>,
        loops: Vec<Vec<[f64; 2]>>,
    ) -> Self {
        CageDesc {
            name: name.into(),
            slot: slot.into(),
            attachment: None,
            loops,
            drive: CageDrive::Host,
            mode: CageMode::Replace,
            animations: Vec::new(),
        }
    }

    /// How many points the cage has (the loops', or the mesh vertices' for a mesh drive).
    pub fn point_count(&self) -> usize {
        match &self.drive {
            CageDrive::Mesh { vertices } => vertices.iter().map(Vec::len).sum(),
            _ => self.loops.iter().map(Vec::len).sum(),
        }
    }
}

/// A cage's resolved point keys in one animation: flat, one row of `2 * points` floats a key.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ClipPointKeys {
    pub clip: ClipId,
    pub times: Vec<f64>,
    pub curves: Vec<CueCurve>,
    pub values: Vec<f64>,
}

/// One bound cage.
#[derive(Debug, Clone)]
pub(super) struct BoundCage {
    pub name: String,
    pub slot: SlotId,
    pub attachment: AttachmentId,
    pub deformer: CageDeformer,
    pub keys: Vec<ClipPointKeys>,
}

/// Cages bound to one rig's meshes, shared by its characters ([`Character::set_cage_rig`]).
///
/// Owner: the cage stage (step 8 of `Character::update`); built at load time.
#[derive(Debug, Clone)]
pub struct CageRig {
    rig_uid: u64,
    pub(super) cages: Vec<BoundCage>,
}

impl CageRig {
    /// Binds every cage of `descs` to `rig` in its setup pose; every problem at once, each
    /// tagged [`BuildPart::Cages`] and [`Element::Cage`] (the index in `descs`), naming the
    /// cage and the offending name.
    pub fn build(rig: &Arc<Rig>, descs: &[CageDesc]) -> Result<CageRig, BuildError> {
        let mut errs = Vec::new();
        let mut c = Character::new(rig.clone());
        let mut cages = Vec::with_capacity(descs.len().min(256));
        for (i, d) in descs.iter().enumerate() {
            let item = format!("cage `{}`", d.name);
            let mut problem = |p: BuildProblem| {
                errs.push(p.in_part(BuildPart::Cages).at_element(Element::Cage(i)));
            };
            if descs[..i].iter().any(|o| o.name == d.name) {
                problem(BuildProblem::duplicate(
                    &item,
                    &d.name,
                    format!("duplicate cage name `{}`", d.name),
                ));
                continue;
            }
            match bind_one(&mut c, rig, d, &item) {
                Ok(b) => cages.push(b),
                Err(p) => problem(p),
            }
        }
        if errs.is_empty() {
            Ok(CageRig {
                rig_uid: rig.uid(),
                cages,
            })
        } else {
            Err(BuildError::from_problems(errs))
        }
    }

    /// How many cages.
    pub fn len(&self) -> usize {
        self.cages.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.cages.is_empty()
    }

    /// Cage `index`'s name.
    pub fn name(&self, index: usize) -> Option<&str> {
        self.cages.get(index).map(|c| c.name.as_str())
    }

    /// Cage `index`'s bound deformer (its weights, source, rest cage).
    pub fn deformer(&self, index: usize) -> Option<&CageDeformer> {
        self.cages.get(index).map(|c| &c.deformer)
    }
}

/// Binds one declared cage; the first problem found.
fn bind_one(
    c: &mut Character,
    rig: &Rig,
    d: &CageDesc,
    item: &str,
) -> Result<BoundCage, BuildProblem> {
    let value = |m: String| BuildProblem::new(ProblemKind::Value, item, m);
    let slot = rig
        .slot(&d.slot)
        .ok_or_else(|| BuildProblem::unknown(item, "slot", &d.slot))?;
    let n = d.point_count();
    if !(3..=MAX_CAGE_POINTS).contains(&n) {
        return Err(value(format!(
            "{n} cage points (a cage needs 3 to {MAX_CAGE_POINTS})"
        )));
    }
    c.set_to_setup_pose();
    if let Some(a) = &d.attachment {
        c.set_attachment(slot, a).map_err(|_| {
            let mut p = BuildProblem::unknown(item, "attachment", a);
            p.message = format!("slot `{}` has no attachment `{a}`", d.slot);
            p
        })?;
    }
    c.update(0.0);
    let Some(attachment) = c.attachment(slot) else {
        return Err(value(format!(
            "slot `{}` shows no mesh in the setup pose",
            d.slot
        )));
    };
    if !matches!(
        rig.attachments.get(attachment.index()).map(|a| &a.kind),
        Some(crate::rig::AttachmentKind::Mesh(_))
    ) {
        return Err(BuildProblem::new(
            ProblemKind::Geometry,
            item,
            format!("slot `{}` does not show a mesh", d.slot),
        ));
    }
    let mut mesh = Vec::new();
    c.world_vertices(slot, &mut mesh);
    let (loops, source) = match &d.drive {
        CageDrive::Mesh { vertices } => {
            if !d.loops.is_empty() {
                return Err(value(
                    "a mesh-driven cage takes its points from `vertices`, not `loops`".into(),
                ));
            }
            let nv = mesh.len() / 2;
            let mut loops = Vec::with_capacity(vertices.len());
            for l in vertices {
                let mut pts = Vec::with_capacity(l.len());
                for &v in l {
                    let k = 2 * v as usize;
                    let Some(p) = mesh.get(k..k + 2) else {
                        return Err(BuildProblem::new(
                            ProblemKind::Geometry,
                            item,
                            format!("mesh vertex {v} out of range (the mesh has {nv})"),
                        ));
                    };
                    pts.push([f64::from(p[0]), f64::from(p[1])]);
                }
                loops.push(pts);
            }
            let ids = vertices.iter().flatten().copied().collect();
            (loops, CageSource::MeshVertices(ids))
        }
        CageDrive::Bones { bones, weights } => (
            d.loops.clone(),
            bone_source(c, rig, &d.loops, bones, weights, item)?,
        ),
        CageDrive::Host => (d.loops.clone(), CageSource::External),
    };
    if loops.iter().flatten().flatten().any(|v| !v.is_finite()) {
        return Err(value("a cage point is not finite".into()));
    }
    let cage = Cage::from_loops(&loops).map_err(|e| value(format!("does not bind: {e}")))?;
    let k = c
        .bind_cage(slot, attachment, &cage, source, d.mode)
        .map_err(|e| value(format!("does not bind: {e}")))?;
    let deformer = c.cages.swap_remove(k).deformer;
    let keys = resolve_keys(rig, d, n, item)?;
    Ok(BoundCage {
        name: d.name.clone(),
        slot,
        attachment,
        deformer,
        keys,
    })
}

/// The bone-space influences of each cage point, from the setup pose's world transforms.
fn bone_source(
    c: &Character,
    rig: &Rig,
    loops: &[Vec<[f64; 2]>],
    bones: &[String],
    weights: &[Vec<f64>],
    item: &str,
) -> Result<CageSource, BuildProblem> {
    let value = |m: String| BuildProblem::new(ProblemKind::Value, item, m);
    let mut ids = Vec::with_capacity(bones.len());
    for b in bones {
        ids.push(
            rig.bone(b)
                .ok_or_else(|| BuildProblem::unknown(item, "bone", b))?,
        );
    }
    let points: Vec<[f64; 2]> = loops.iter().flatten().copied().collect();
    let rows: Vec<Vec<f64>> = match (weights.is_empty(), ids.len()) {
        (true, 1) => vec![vec![1.0]; points.len()],
        (true, _) => {
            return Err(value(
                "`weights` are required unless exactly one bone drives the cage".into(),
            ));
        }
        (false, _) => weights.to_vec(),
    };
    if rows.len() != points.len() {
        return Err(value(format!(
            "{} weight rows for {} cage points",
            rows.len(),
            points.len()
        )));
    }
    let mut offsets = Vec::with_capacity(points.len() + 1);
    let mut inf_bones: Vec<BoneId> = Vec::new();
    let mut values = Vec::new();
    offsets.push(0u32);
    for (j, (p, row)) in points.iter().zip(&rows).enumerate() {
        if row.len() != ids.len() {
            return Err(value(format!(
                "weight row {j} has {} weights for {} bones",
                row.len(),
                ids.len()
            )));
        }
        let sum: f64 = row.iter().sum();
        if !(row.iter().all(|w| w.is_finite()) && (sum - 1.0).abs() <= 1e-6) {
            return Err(value(format!(
                "weight row {j} sums to {sum} (the weights of a point sum to 1)"
            )));
        }
        for (&b, &w) in ids.iter().zip(row) {
            if w == 0.0 {
                continue;
            }
            let world = c.inst.world[b.index()];
            let inv = world.try_inverse().ok_or_else(|| {
                value(format!(
                    "bone `{}` is singular in the setup pose",
                    rig.bones[b.index()].name
                ))
            })?;
            let local = inv.apply(Vec2::new(p[0], p[1]));
            inf_bones.push(b);
            values.push([local.x, local.y, w]);
        }
        offsets.push(inf_bones.len() as u32);
    }
    Ok(CageSource::Bones {
        offsets,
        bones: inf_bones,
        values,
    })
}

/// Each animation's point keys, flat.
fn resolve_keys(
    rig: &Rig,
    d: &CageDesc,
    n: usize,
    item: &str,
) -> Result<Vec<ClipPointKeys>, BuildProblem> {
    let anims = d.animations.iter().map(|a| {
        let keys = a
            .keys
            .iter()
            .map(|k| (k.time, k.curve, k.offsets.as_flattened()));
        (a.animation.as_str(), keys)
    });
    ClipPointKeys::resolve(rig, item, anims, 2 * n, &|len| {
        format!("{} offsets for {n} cage points", len / 2)
    })
}

/// The values of one key of a declared track: its time, its curve to the next key, and one
/// row of values.
pub(super) type PointKey<'a> = (f64, CueCurve, &'a [f64]);

impl ClipPointKeys {
    /// Checks and flattens each animation's keys of one declared cage or deformer (`item`
    /// names it in errors): the animation exists and is keyed once, it has keys, their times
    /// are finite, from 0 and in order, Bezier handles are finite with x in 0..1, and each
    /// key has `channels` finite values (`count` words a wrong count, given the length).
    pub(super) fn resolve<'a, A, K>(
        rig: &Rig,
        item: &str,
        animations: A,
        channels: usize,
        count: &dyn Fn(usize) -> String,
    ) -> Result<Vec<ClipPointKeys>, BuildProblem>
    where
        A: Iterator<Item = (&'a str, K)>,
        K: ExactSizeIterator<Item = PointKey<'a>>,
    {
        let mut out: Vec<ClipPointKeys> = Vec::new();
        for (name, keys) in animations {
            let clip = rig
                .clip(name)
                .ok_or_else(|| BuildProblem::unknown(item, "animation", name))?;
            let what = |m: String| {
                BuildProblem::new(ProblemKind::Value, item, format!("animation `{name}`: {m}"))
            };
            if keys.len() == 0 {
                return Err(what("no keys".into()));
            }
            if out.iter().any(|k| k.clip == clip) {
                return Err(what("keyed twice".into()));
            }
            let mut track = ClipPointKeys {
                clip,
                times: Vec::with_capacity(keys.len()),
                curves: Vec::with_capacity(keys.len()),
                values: Vec::with_capacity(keys.len() * channels),
            };
            let mut last = 0.0;
            for (i, (time, curve, values)) in keys.enumerate() {
                if !(time.is_finite() && time >= last) {
                    return Err(what(format!(
                        "key {i}: time {time} is not >= 0 and not before the key above"
                    )));
                }
                last = time;
                if values.len() != channels {
                    return Err(what(format!("key {i}: {}", count(values.len()))));
                }
                if let CueCurve::Bezier(c) = curve
                    && !(c.iter().all(|v| v.is_finite())
                        && (0.0..=1.0).contains(&c[0])
                        && (0.0..=1.0).contains(&c[2]))
                {
                    return Err(what(format!("key {i}: curve x1 and x2 must be in 0..1")));
                }
                if values.iter().any(|v| !v.is_finite()) {
                    return Err(what(format!("key {i}: a value is not finite")));
                }
                track.times.push(time);
                track.curves.push(curve);
                track.values.extend(values);
            }
            out.push(track);
        }
        Ok(out)
    }

    /// Adds `weight * offsets(t)` of this track to `out` (x, y pairs).
    pub(super) fn add(&self, w: &CueWindow, out: &mut [f64]) {
        let n = out.len();
        let t = w.time;
        let i = self.times.partition_point(|&k| k <= t);
        let row = |k: usize| &self.values[k * n..(k + 1) * n];
        let (a, b, f) = if i == 0 {
            (0, 0, 0.0)
        } else if i >= self.times.len() {
            (i - 1, i - 1, 0.0)
        } else {
            // The segment's curve as a 0..1 jiggle cue track over the same times.
            let (ta, tb) = (self.times[i - 1], self.times[i]);
            let seg = [
                CueKey {
                    time: ta,
                    value: 0.0,
                    curve: self.curves[i - 1],
                },
                CueKey::new(tb, 1.0),
            ];
            (i - 1, i, cue_sample(&seg, t))
        };
        for ((o, &va), &vb) in out.iter_mut().zip(row(a)).zip(row(b)) {
            *o += w.weight * (va + (vb - va) * f);
        }
    }
}

impl Character {
    /// Runs the cages of `cages` (built for this rig by [`CageRig::build`]) from now on:
    /// cages from an earlier cage rig go, these come first (indices `0..cages.len()`, in
    /// their order), then the cages added by code. `None` removes the rig's cages.
    /// Refused (nothing changes) when they were built for another rig.
    pub fn set_cage_rig(&mut self, cages: Option<Arc<CageRig>>) -> Result<(), CharacterError> {
        if let Some(cr) = &cages
            && cr.rig_uid != self.rig.uid()
        {
            return Err(CharacterError::ForeignRig { what: "cages" });
        }
        self.cages.retain(|c| c.from_rig.is_none());
        if let Some(cr) = &cages {
            let mut own = std::mem::take(&mut self.cages);
            for (i, b) in cr.cages.iter().enumerate() {
                let vertices = crate::deform::world_vertex_count(&self.rig, b.attachment);
                let mut deformer = b.deformer.clone();
                if !b.keys.is_empty() {
                    // Turned on once, so a keyed cage's first frame allocates nothing.
                    deformer.point_offsets_mut();
                }
                self.cages.push(SlotCage {
                    slot: b.slot,
                    attachment: b.attachment,
                    deformer,
                    posed: vec![0.0; vertices * 2],
                    valid: false,
                    from_rig: Some(i),
                });
            }
            self.cages.append(&mut own);
        }
        self.cage_keys = vec![0.0; cages.as_ref().map_or(0, |cr| max_points(cr)) * 2];
        self.cage_rig = cages;
        Ok(())
    }

    /// The index of the cage called `name` (declared in a [`CageRig`]).
    pub fn find_cage(&self, name: &str) -> Option<usize> {
        let cr = self.cage_rig.as_ref()?;
        self.cages.iter().position(|c| {
            c.from_rig
                .and_then(|i| cr.cages.get(i))
                .is_some_and(|b| b.name == name)
        })
    }

    /// The name of cage `index` (`None` for a cage added by code).
    pub fn cage_name(&self, index: usize) -> Option<&str> {
        let cr = self.cage_rig.as_ref()?;
        let i = self.cages.get(index)?.from_rig?;
        cr.cages.get(i).map(|b| b.name.as_str())
    }
}

/// The most points of any keyed cage of `cr`.
fn max_points(cr: &CageRig) -> usize {
    cr.cages
        .iter()
        .filter(|b| !b.keys.is_empty())
        .map(|b| b.deformer.rest_cage().len() / 2)
        .max()
        .unwrap_or(0)
}

/// Writes every keyed cage's point offsets for this frame's animation windows. `scratch`
/// holds at least `2 * points` of the largest keyed cage. Allocation-free.
pub(super) fn key_cages(
    cr: &CageRig,
    cages: &mut [SlotCage],
    scratch: &mut [f64],
    frame: (&Rig, &AnimationState, &AnimMode, bool),
) {
    let (rig, state, mode, animates) = frame;
    for c in cages.iter_mut() {
        let Some(b) = c.from_rig.and_then(|i| cr.cages.get(i)) else {
            continue;
        };
        if b.keys.is_empty() {
            continue;
        }
        let n = b.deformer.rest_cage().len();
        let Some(acc) = scratch.get_mut(..n) else {
            continue;
        };
        acc.fill(0.0);
        super::cues::for_each_window(rig, state, mode, animates, |w| {
            if let Some(k) = b.keys.iter().find(|k| k.clip == w.clip) {
                k.add(w, acc);
            }
        });
        for (o, &a) in c.deformer.point_offsets_mut().iter_mut().zip(acc.iter()) {
            *o = a as f32;
        }
    }
}

#[cfg(test)]
#[path = "tests_cage_rig.rs"]
mod tests;
