//! RawRig -> Rig: name resolution, validation, bind data. Returns every problem at once.
//!
//! Stages, in order: bones (parent-first check), slots, constraints (and the global
//! constraint order), attachments (every skin flattened, linked meshes resolved, region
//! geometry computed as Spine's `updateRegion` does), skins, events, then the clips
//! ([`clips::build_clips`]). Each stage records a message per problem and carries on with a
//! placeholder, so one build reports everything; the rig is returned only when there were
//! none. After a successful build every id and size in the rig has been checked, so the
//! per-frame stages index without checks.
//!
//! Verified by the unit tests of each stage, `build/tests.rs` (whole raw rigs built by hand)
//! and `sinew-formats/tests` (every official Spine export builds; bad inputs report the
//! culprit).
//!
//! Layer: builder. Owns `RawRig -> Rig`; imports data and the stages' own builders
//! (`params::build`, constraint limits). Only the facade and hosts import it
//! (`layering_tests.rs`).

mod attachments;
mod bones;
pub mod clips;
mod constraints;
pub mod region;
mod skins;
#[cfg(test)]
mod tests;

pub use crate::rig::problem::{BuildError, BuildPart, BuildProblem, Element, ProblemKind};
pub use region::RegionSource;

use crate::ids::NameId;
use crate::raw::RawRig;
use crate::rig::Rig;

/// Most items of each 16-bit-id kind (bones, slots, each constraint kind, skins, events).
pub const MAX_ITEMS_U16: usize = u16::MAX as usize;
/// Most texture regions over all attachments (sequence frames included).
pub const MAX_TOTAL_REGIONS: usize = 1 << 16;

/// What a rig is built from besides its [`RawRig`]: the builder is the only producer of a
/// [`Rig`], so everything a format adds (an atlas's regions, Inochi2D parameters, the
/// format's angle and vertex arithmetic) comes in here rather than being patched in after.
///
/// Owner: the builder (`build`), at load time.
///
/// ```
/// use sinew::build::{BuildInputs, build_rig_with};
/// use sinew::raw::{RawBone, RawRig};
/// use sinew::rig::VertexMath;
/// let mut raw = RawRig::default();
/// raw.bones.push(RawBone::new("root", None));
/// let inputs = BuildInputs {
///     exact_angles: true,
///     vertex_math: VertexMath::F32Fused,
///     ..Default::default()
/// };
/// let rig = build_rig_with(&raw, &inputs).unwrap();
/// assert!(rig.exact_angles && rig.vertex_math == VertexMath::F32Fused);
/// ```
#[derive(Clone, Copy, Default)]
pub struct BuildInputs<'a> {
    /// An atlas: every region and mesh attachment takes its regions from it
    /// ([`region::bind_regions`]); a region it lacks is a problem. `None` keeps the regions
    /// the skeleton implies (untextured).
    pub regions: Option<&'a dyn RegionSource>,
    /// Live2D/Inochi2D-style parameters, keyforms, deformers and parameter physics
    /// ([`crate::params::build::build_params`]); their problems are build problems.
    pub params: Option<&'a crate::params::raw::RawParams>,
    /// Angles in exact radians ([`Rig::exact_angles`]; Inochi2D and DragonBones) instead of
    /// Spine's rounded pi.
    pub exact_angles: bool,
    /// How world vertices are computed ([`Rig::vertex_math`]).
    pub vertex_math: crate::rig::VertexMath,
}

impl std::fmt::Debug for BuildInputs<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildInputs")
            .field("regions", &self.regions.is_some())
            .field("params", &self.params.is_some())
            .field("exact_angles", &self.exact_angles)
            .field("vertex_math", &self.vertex_math)
            .finish()
    }
}

/// Builds a rig from its raw form (a Spine rig: no atlas, no parameters, Spine's angles;
/// [`build_rig_with`] for the rest).
pub fn build_rig(raw: &RawRig) -> Result<Rig, BuildError> {
    build_rig_with(raw, &BuildInputs::default())
}

/// Builds a rig from its raw form and the format's [`BuildInputs`]. Every problem is
/// reported at once; a missing atlas region is reported after the skeleton's own problems
/// are fixed.
pub fn build_rig_with(raw: &RawRig, inputs: &BuildInputs<'_>) -> Result<Rig, BuildError> {
    let mut problems = Vec::new();
    check_sizes(raw, &mut problems);
    if !problems.is_empty() {
        // Ids could not be assigned; nothing else is meaningful.
        return Err(BuildError::from_problems(problems));
    }
    let mut rig = Rig {
        source: raw.source.clone(),
        version: raw.version.clone(),
        runtime: raw.runtime,
        hash: raw.hash.clone(),
        bounds: raw.bounds,
        reference_scale: raw.reference_scale,
        uid: next_uid(),
        ..Rig::empty()
    };
    bones::build_bones(raw, &mut rig, &mut problems);
    bones::build_slots(raw, &mut rig, &mut problems);
    constraints::build_constraints(raw, &mut rig, &mut problems);
    attachments::build_attachments(raw, &mut rig, &mut problems);
    skins::build_skins(raw, &mut rig, &mut problems);
    bones::build_events(raw, &mut rig, &mut problems);
    clips::build_clips(raw, &mut rig, &mut problems);
    constraints::bind_slider_clips(raw, &mut rig, &mut problems);
    rig.slot_deform_timelines = deform_timeline_slots(&rig);
    rig.exact_angles = inputs.exact_angles;
    rig.vertex_math = inputs.vertex_math;
    if !problems.is_empty() {
        return Err(BuildError::from_problems(problems));
    }
    if let Some(params) = inputs.params {
        rig.params = crate::params::build::build_params(&rig, params)?;
    }
    if let Some(source) = inputs.regions {
        region::bind_regions(&mut rig, source).map_err(|p| BuildError::from_problems(vec![p]))?;
    }
    Ok(rig)
}

/// Which slots some clip's deform timeline writes ([`Rig::slot_deform_timelines`]), in its
/// own slot or, for Spine 4.3 linked meshes in other slots, theirs.
fn deform_timeline_slots(rig: &Rig) -> Vec<bool> {
    let mut used = vec![false; rig.slots.len()];
    for t in rig.clips.iter().flat_map(|c| &c.timelines) {
        if let crate::rig::clip::TimelineKind::Deform {
            slot, attachment, ..
        } = t.kind
        {
            // Spine 4.3: also the slots of linked meshes that take the attachment's timelines.
            let others = rig
                .attachments
                .get(attachment.index())
                .map_or(&[][..], |a| &a.timeline_slots[..]);
            for s in std::iter::once(slot).chain(others.iter().copied()) {
                if let Some(u) = used.get_mut(s.index()) {
                    *u = true;
                }
            }
        }
    }
    used
}

/// A process-wide counter for [`Rig::uid`] (starts at 1; 0 marks rigs made by hand).
fn next_uid() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Refuses tables whose ids would not fit.
fn check_sizes(raw: &RawRig, problems: &mut Vec<BuildProblem>) {
    let tables = [
        ("bones", raw.bones.len()),
        ("slots", raw.slots.len()),
        ("IK constraints", raw.ik.len()),
        ("transform constraints", raw.transforms.len()),
        ("path constraints", raw.paths.len()),
        ("physics constraints", raw.physics.len()),
        ("slider constraints", raw.sliders.len()),
        ("skins", raw.skins.len()),
        ("events", raw.events.len()),
    ];
    for (what, n) in tables {
        if n > MAX_ITEMS_U16 {
            problems.push(BuildProblem::new(
                ProblemKind::TooMany,
                "",
                format!("too many {what}: {n} (limit {MAX_ITEMS_U16})"),
            ));
        }
    }
    let attachments: usize = raw.skins.iter().map(|s| s.attachments.len()).sum();
    if attachments > u32::MAX as usize {
        problems.push(BuildProblem::new(
            ProblemKind::TooMany,
            "",
            format!("too many attachments: {attachments}"),
        ));
    }
}

/// Interns an attachment key, returning its id.
pub(crate) fn intern_key(rig: &mut Rig, key: &str) -> NameId {
    if let Some(&id) = rig.names.attachment_keys.get(key) {
        return id;
    }
    let id = NameId(rig.attachment_keys.len() as u32);
    rig.attachment_keys.push(key.to_owned());
    rig.names.attachment_keys.insert(key.to_owned(), id);
    id
}
