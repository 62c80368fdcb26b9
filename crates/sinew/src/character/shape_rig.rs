//! Example shapes declared by name (a rig-extras file's `shapes`, `docs/EXTRAS.md`): a
//! mesh's example shapes, each its offsets from the setup pose in the setup pose's world
//! frame, blended each frame by weights ([`crate::deform::shapes::blend_example_shapes`]).
//! A weight is what the host set ([`Character::set_shape_weight`]) plus, for every
//! animation playing, its track's value times the animation's weight (the jiggle cues'
//! windows). The summed offsets turn and scale with the slot's bone (its linear part now
//! times its inverse in the setup pose) and are added to the skinned world vertices, before
//! the mesh's cages (step 8). Verified by `tests_shape_rig.rs` (closed forms).

use super::{AnimMode, Character, CharacterError};
use crate::anim::AnimationState;
use crate::ids::{AttachmentId, BoneId, ClipId, SlotId};
use crate::instance::Instance;
use crate::math::{Vec2, WorldTransform};
use crate::physics::jiggle::CueKey;
use crate::physics::jiggle::cues::sample as cue_sample;
use crate::rig::Rig;
use crate::rig::problem::{BuildError, BuildPart, BuildProblem, Element, ProblemKind};
use std::sync::Arc;

/// Most examples one shape set may have.
pub const MAX_EXAMPLES: usize = 256;

/// One example shape, by name: its offsets from the setup pose.
///
/// Owner: the shape stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExampleDesc {
    /// Unique within its set.
    pub name: String,
    /// One `[dx, dy]` per mesh vertex, in the setup pose's world frame.
    pub offsets: Vec<[f64; 2]>,
}

/// One example's weight track in one animation.
///
/// Owner: the shape stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeTrackDesc {
    /// The animation.
    pub animation: String,
    /// The example.
    pub example: String,
    /// Weight keys in time order (at least one; values -10..10); curves as the jiggle cues'.
    pub keys: Vec<CueKey>,
}

/// A mesh's example shapes and their weight tracks, by name.
///
/// Owner: the shape stage (step 8 of `Character::update`); loaders produce it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeSetDesc {
    /// Unique name.
    pub name: String,
    /// The slot whose mesh it shapes.
    pub slot: String,
    /// The mesh (its key in the slot's skins); `None`: the slot's setup attachment.
    pub attachment: Option<String>,
    /// The examples.
    pub examples: Vec<ExampleDesc>,
    /// Weight tracks per animation and example.
    pub tracks: Vec<ShapeTrackDesc>,
}

#[derive(Debug, Clone)]
struct Track {
    clip: ClipId,
    example: usize,
    keys: Vec<CueKey>,
}

#[derive(Debug, Clone)]
struct ShapeSet {
    name: String,
    example_names: Vec<String>,
    slot: SlotId,
    attachment: AttachmentId,
    bone: BoneId,
    /// The inverse of the bone's linear part in the setup pose.
    setup_inverse: WorldTransform,
    /// `example_names.len()` rows of `2 * vertices` offsets.
    examples: Vec<f32>,
    tracks: Vec<Track>,
}

/// Example shapes bound to one rig's meshes, shared by its characters
/// ([`Character::set_shape_rig`]).
///
/// Owner: the shape stage (step 8 of `Character::update`); built at load time.
#[derive(Debug, Clone)]
pub struct ShapeRig {
    rig_uid: u64,
    sets: Vec<ShapeSet>,
}

/// A character's state of one shape set.
#[derive(Debug, Clone)]
pub(super) struct SlotShapes {
    pub slot: SlotId,
    pub attachment: AttachmentId,
    /// The host's weight per example.
    pub host: Vec<f64>,
    /// This frame's weights.
    weights: Vec<f64>,
    /// This frame's summed offsets.
    sum: Vec<f64>,
    /// The shaped world vertices of the last update.
    pub posed: Vec<f32>,
    pub valid: bool,
}

impl ShapeRig {
    /// Resolves `descs` against `rig` (every problem at once, each tagged
    /// [`BuildPart::Shapes`] and [`Element::ShapeSet`], naming the set and the offending
    /// name).
    pub fn build(rig: &Arc<Rig>, descs: &[ShapeSetDesc]) -> Result<ShapeRig, BuildError> {
        let mut c = Character::new(rig.clone());
        let mut errs = Vec::new();
        let mut sets = Vec::with_capacity(descs.len().min(256));
        for (i, d) in descs.iter().enumerate() {
            let item = format!("shape set `{}`", d.name);
            let r = if descs[..i].iter().any(|o| o.name == d.name) {
                Err(BuildProblem::duplicate(
                    &item,
                    &d.name,
                    format!("duplicate shape set name `{}`", d.name),
                ))
            } else {
                build_set(&mut c, rig, d, &item)
            };
            let r = r.and_then(|s| {
                match sets
                    .iter()
                    .find(|o: &&ShapeSet| o.slot == s.slot && o.attachment == s.attachment)
                {
                    Some(o) => Err(BuildProblem::duplicate(
                        &item,
                        &o.name,
                        format!(
                            "shapes the mesh shape set `{}` shapes (one set a mesh)",
                            o.name
                        ),
                    )),
                    None => Ok(s),
                }
            });
            match r {
                Ok(s) => sets.push(s),
                Err(p) => {
                    errs.push(
                        p.in_part(BuildPart::Shapes)
                            .at_element(Element::ShapeSet(i)),
                    );
                }
            }
        }
        if errs.is_empty() {
            Ok(ShapeRig {
                rig_uid: rig.uid(),
                sets,
            })
        } else {
            Err(BuildError::from_problems(errs))
        }
    }

    /// The index of the set called `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.sets.iter().position(|s| s.name == name)
    }

    /// The index of example `name` in set `set`.
    pub fn example(&self, set: usize, name: &str) -> Option<usize> {
        self.sets
            .get(set)?
            .example_names
            .iter()
            .position(|n| n == name)
    }
}

fn build_set(
    c: &mut Character,
    rig: &Rig,
    d: &ShapeSetDesc,
    item: &str,
) -> Result<ShapeSet, BuildProblem> {
    let value = |m: String| BuildProblem::new(ProblemKind::Value, item, m);
    let slot = rig
        .slot(&d.slot)
        .ok_or_else(|| BuildProblem::unknown(item, "slot", &d.slot))?;
    c.set_to_setup_pose();
    if let Some(a) = &d.attachment {
        c.set_attachment(slot, a).map_err(|_| {
            let mut p = BuildProblem::unknown(item, "attachment", a);
            p.message = format!("slot `{}` has no attachment `{a}`", d.slot);
            p
        })?;
    }
    c.update(0.0);
    let attachment = c
        .attachment(slot)
        .filter(|a| {
            matches!(
                rig.attachments.get(a.index()).map(|a| &a.kind),
                Some(crate::rig::AttachmentKind::Mesh(_))
            )
        })
        .ok_or_else(|| value(format!("slot `{}` shows no mesh in the setup pose", d.slot)))?;
    let n = crate::deform::world_vertex_count(rig, attachment);
    if d.examples.is_empty() || d.examples.len() > MAX_EXAMPLES {
        return Err(value(format!(
            "{} examples (1 to {MAX_EXAMPLES})",
            d.examples.len()
        )));
    }
    let mut examples = Vec::with_capacity(d.examples.len() * 2 * n);
    for (k, e) in d.examples.iter().enumerate() {
        if d.examples[..k].iter().any(|o| o.name == e.name) {
            return Err(BuildProblem::duplicate(
                item,
                &e.name,
                format!("duplicate example name `{}`", e.name),
            ));
        }
        if e.offsets.len() != n {
            return Err(value(format!(
                "example `{}`: {} offsets for a mesh of {n} vertices",
                e.name,
                e.offsets.len()
            )));
        }
        if e.offsets.iter().flatten().any(|v| !v.is_finite()) {
            return Err(value(format!(
                "example `{}`: an offset is not finite",
                e.name
            )));
        }
        examples.extend(e.offsets.iter().flatten().map(|&v| v as f32));
    }
    let bone = rig.slots[slot.index()].bone;
    let setup_inverse = c.inst.world[bone.index()]
        .linear_part()
        .try_inverse()
        .ok_or_else(|| value("the slot's bone is singular in the setup pose".into()))?;
    let mut tracks = Vec::with_capacity(d.tracks.len());
    for t in &d.tracks {
        let clip = rig
            .clip(&t.animation)
            .ok_or_else(|| BuildProblem::unknown(item, "animation", &t.animation))?;
        let example = d
            .examples
            .iter()
            .position(|e| e.name == t.example)
            .ok_or_else(|| BuildProblem::unknown(item, "example", &t.example))?;
        let ok = !t.keys.is_empty()
            && t.keys.windows(2).all(|w| w[0].time <= w[1].time)
            && t.keys
                .iter()
                .all(|k| k.time.is_finite() && k.time >= 0.0 && (-10.0..=10.0).contains(&k.value));
        if !ok {
            return Err(value(format!(
                "animation `{}`, example `{}`: keys need times >= 0 in order and weights in -10..10",
                t.animation, t.example
            )));
        }
        tracks.push(Track {
            clip,
            example,
            keys: t.keys.clone(),
        });
    }
    Ok(ShapeSet {
        name: d.name.clone(),
        example_names: d.examples.iter().map(|e| e.name.clone()).collect(),
        slot,
        attachment,
        bone,
        setup_inverse,
        examples,
        tracks,
    })
}

impl Character {
    /// Runs the example shapes of `shapes` (built for this rig by [`ShapeRig::build`]) from
    /// now on, every host weight 0; `None` removes them. Refused (nothing changes) when
    /// they were built for another rig.
    pub fn set_shape_rig(&mut self, shapes: Option<Arc<ShapeRig>>) -> Result<(), CharacterError> {
        if let Some(sr) = &shapes
            && sr.rig_uid != self.rig.uid()
        {
            return Err(CharacterError::ForeignRig { what: "shapes" });
        }
        self.shapes = shapes.as_ref().map_or(Vec::new(), |sr| {
            sr.sets
                .iter()
                .map(|s| {
                    let k = s.example_names.len();
                    let n = 2 * crate::deform::world_vertex_count(&self.rig, s.attachment);
                    SlotShapes {
                        slot: s.slot,
                        attachment: s.attachment,
                        host: vec![0.0; k],
                        weights: vec![0.0; k],
                        sum: vec![0.0; n],
                        posed: vec![0.0; n],
                        valid: false,
                    }
                })
                .collect()
        });
        self.shape_rig = shapes;
        Ok(())
    }

    /// The example shapes attached ([`Character::set_shape_rig`]).
    pub fn shape_rig(&self) -> Option<&ShapeRig> {
        self.shape_rig.as_deref()
    }

    /// Sets the host's weight of example `example` of shape set `set` (indices from
    /// [`ShapeRig::find`] and [`ShapeRig::example`]); animation tracks add to it. `false`
    /// for an unknown index or a weight that is not finite or outside -10..10.
    pub fn set_shape_weight(&mut self, set: usize, example: usize, weight: f64) -> bool {
        let Some(w) = self
            .shapes
            .get_mut(set)
            .and_then(|s| s.host.get_mut(example))
        else {
            return false;
        };
        if !(-10.0..=10.0).contains(&weight) {
            return false;
        }
        *w = weight;
        true
    }
}

/// Shapes every set's mesh this frame: host weights plus the animations' tracks, blended,
/// turned with the slot's bone and added to the skinned world vertices. Allocation-free.
pub(super) fn pose_shapes(
    sr: &ShapeRig,
    shapes: &mut [SlotShapes],
    inst: &Instance,
    frame: (&Rig, &AnimationState, &AnimMode, bool),
) {
    let (rig, state, mode, animates) = frame;
    for (set, st) in sr.sets.iter().zip(shapes.iter_mut()) {
        st.valid = inst
            .slots
            .attachment
            .get(set.slot.index())
            .copied()
            .flatten()
            == Some(set.attachment);
        if !st.valid {
            continue;
        }
        st.weights.copy_from_slice(&st.host);
        if !set.tracks.is_empty() {
            let weights = &mut st.weights;
            super::cues::for_each_window(rig, state, mode, animates, |w| {
                for t in set.tracks.iter().filter(|t| t.clip == w.clip) {
                    weights[t.example] += w.weight * cue_sample(&t.keys, w.time);
                }
            });
        }
        st.sum.fill(0.0);
        crate::deform::shapes::blend_example_shapes(&set.examples, &st.weights, &mut st.sum);
        crate::deform::compute_world_vertices(rig, inst, set.slot, &mut st.posed);
        let now = inst
            .world
            .get(set.bone.index())
            .map_or(WorldTransform::IDENTITY, WorldTransform::linear_part);
        let turn = now * set.setup_inverse;
        for (p, d) in st.posed.chunks_exact_mut(2).zip(st.sum.chunks_exact(2)) {
            let v = turn.apply_linear(Vec2::new(d[0], d[1]));
            p[0] = (f64::from(p[0]) + v.x) as f32;
            p[1] = (f64::from(p[1]) + v.y) as f32;
        }
        super::finite::floats(&mut st.posed);
    }
}

/// The shaped world vertices of `slot` showing `attachment` this frame, if shapes are on it.
pub(super) fn shaped(
    shapes: &[SlotShapes],
    slot: SlotId,
    attachment: AttachmentId,
) -> Option<&[f32]> {
    shapes
        .iter()
        .rev()
        .find(|s| s.valid && s.slot == slot && s.attachment == attachment)
        .map(|s| s.posed.as_slice())
}

#[cfg(test)]
#[path = "tests_shape_rig.rs"]
mod tests;
