//! A character's declared deformers ([`DeformerRig`], `deformer_rig.rs`): attaching them,
//! the host's offsets and the lattice a viewer draws, and the per-frame feed of step 8 (the
//! animations' offsets and the meshes' world vertices after skinning, example shapes and
//! cages) around the stage [`crate::deformer::world::pose_world_deformers`]. Verified by
//! `tests_deformer_rig.rs`.

use super::cages::SlotCage;
use super::deformer_rig::DeformerRig;
use super::shape_rig::SlotShapes;
use super::{AnimMode, Character, CharacterError};
use crate::anim::AnimationState;
use crate::deformer::world::pose_world_deformers;
use crate::ids::{AttachmentId, SlotId};
use crate::instance::Instance;
use crate::instance::world_deformers::WorldDeformerState;
use crate::rig::Rig;
use crate::rig::world_deformers::WorldDeformerKind;
use std::sync::Arc;

/// A character's deformer rig and its state.
#[derive(Debug, Clone)]
pub(super) struct RigDeformers {
    rig: Arc<DeformerRig>,
    state: WorldDeformerState,
    /// Whether any deformer has keys (else the animation windows are not walked).
    keyed: bool,
}

impl Character {
    /// Runs the deformers of `deformers` (built for this rig by [`DeformerRig::build`]) from
    /// now on, every host offset 0; `None` removes them. Refused (nothing changes) when
    /// they were built for another rig.
    pub fn set_deformer_rig(
        &mut self,
        deformers: Option<Arc<DeformerRig>>,
    ) -> Result<(), CharacterError> {
        if let Some(dr) = &deformers
            && dr.rig_uid != self.rig.uid()
        {
            return Err(CharacterError::ForeignRig { what: "deformers" });
        }
        self.deformers = deformers.map(|dr| {
            Box::new(RigDeformers {
                state: WorldDeformerState::new(&dr.data),
                keyed: dr.keys.iter().any(|k| !k.is_empty()),
                rig: dr,
            })
        });
        Ok(())
    }

    /// The deformers attached ([`Character::set_deformer_rig`]).
    pub fn deformer_rig(&self) -> Option<&DeformerRig> {
        self.deformers.as_deref().map(|d| &*d.rig)
    }

    /// The index of the deformer called `name` ([`DeformerRig::find`]).
    pub fn find_deformer(&self, name: &str) -> Option<usize> {
        self.deformer_rig()?.find(name)
    }

    /// The host's offsets of deformer `index`, kept until changed and added to its setup
    /// state and the animations' keys each frame: `[angle, scale, x, y]` for a rotation
    /// (degrees, added to the setup scale, pivot offset), `[dx, dy]` per lattice point
    /// (row-major) for a warp; setup-pose world frame. A value that is not finite gives
    /// vertices that are zeroed and reported ([`Character::overflowed`]).
    pub fn deformer_offsets_mut(&mut self, index: usize) -> Option<&mut [f64]> {
        let d = self.deformers.as_deref_mut()?;
        let def = d.rig.data.deformers.get(index)?;
        let start = def.channels as usize;
        d.state.host.get_mut(start..start + def.kind.channels())
    }

    /// Sets rotation deformer `index`'s host offsets: `angle` degrees, `scale` added to the
    /// setup scale, the pivot moved by `pivot`. `false` for an unknown index, a warp, or a
    /// value that is not finite.
    pub fn set_deformer_rotation(
        &mut self,
        index: usize,
        angle: f64,
        scale: f64,
        pivot: [f64; 2],
    ) -> bool {
        let is_rotation = self
            .deformer_rig()
            .and_then(|r| r.data.deformers.get(index))
            .is_some_and(|d| matches!(d.kind, WorldDeformerKind::Rotation { .. }));
        let v = [angle, scale, pivot[0], pivot[1]];
        if !is_rotation || !v.iter().all(|x| x.is_finite()) {
            return false;
        }
        match self.deformer_offsets_mut(index) {
            Some(o) => {
                o.copy_from_slice(&v);
                true
            }
            None => false,
        }
    }

    /// Sets warp deformer `index`'s host offsets, one `[dx, dy]` per lattice point.
    /// `false` for an unknown index, a rotation, a count that is not the lattice's, or a
    /// value that is not finite.
    pub fn set_deformer_lattice(&mut self, index: usize, offsets: &[[f64; 2]]) -> bool {
        let is_warp = self
            .deformer_rig()
            .and_then(|r| r.data.deformers.get(index))
            .is_some_and(|d| matches!(d.kind, WorldDeformerKind::Warp { .. }));
        if !is_warp || offsets.iter().flatten().any(|v| !v.is_finite()) {
            return false;
        }
        match self.deformer_offsets_mut(index) {
            Some(o) if o.len() == 2 * offsets.len() => {
                for (dst, src) in o.chunks_exact_mut(2).zip(offsets) {
                    dst.copy_from_slice(src);
                }
                true
            }
            _ => false,
        }
    }

    /// Warp deformer `index`'s lattice points as the last update left them (world x, y
    /// pairs, row-major; the frame of [`Character::world_vertices`]): what a viewer draws.
    /// `None` for an unknown index or a rotation.
    pub fn deformer_lattice(&self, index: usize) -> Option<&[f64]> {
        let d = self.deformers.as_deref()?;
        let def = d.rig.data.deformers.get(index)?;
        match def.kind {
            WorldDeformerKind::Warp { .. } => {
                let s = def.lattice as usize;
                d.state.lattice.get(s..s + def.kind.channels())
            }
            WorldDeformerKind::Rotation { .. } => None,
        }
    }
}

/// Runs the deformers this frame: the animations' offsets, the targets' input vertices
/// (after skinning, example shapes and cages), then the stage. Allocation-free.
pub(super) fn pose_deformers(
    d: &mut RigDeformers,
    inst: &Instance,
    posed: (&[SlotCage], &[SlotShapes]),
    frame: (&Rig, &AnimationState, &AnimMode, bool),
) {
    let (rig, state, mode, animates) = frame;
    let st = &mut d.state;
    if d.keyed {
        st.keyed.fill(0.0);
        let (dr, keyed) = (&*d.rig, &mut st.keyed);
        super::cues::for_each_window(rig, state, mode, animates, |w| {
            for (def, keys) in dr.data.deformers.iter().zip(&dr.keys) {
                if let Some(k) = keys.iter().find(|k| k.clip == w.clip) {
                    let s = def.channels as usize;
                    k.add(w, &mut keyed[s..s + def.kind.channels()]);
                }
            }
        });
    }
    for (k, t) in d.rig.data.targets.iter().enumerate() {
        let shows =
            inst.slots.attachment.get(t.slot.index()).copied().flatten() == Some(t.attachment);
        st.valid[k] = shows;
        if !shows {
            continue;
        }
        let out = &mut st.vertices[t.start as usize..(t.start + t.len) as usize];
        match super::cages::posed(posed.0, posed.1, t.slot, t.attachment) {
            Some(v) if v.len() == out.len() => out.copy_from_slice(v),
            _ => crate::deform::compute_world_vertices(rig, inst, t.slot, out),
        }
    }
    pose_world_deformers(&d.rig.data, st, &inst.world);
    // No NaN or infinity out (`finite`).
    super::finite::floats(&mut st.vertices);
}

/// The deformed world vertices of `slot` showing `attachment` this frame, if a deformer
/// moves them.
pub(super) fn deformed(d: &RigDeformers, slot: SlotId, attachment: AttachmentId) -> Option<&[f32]> {
    d.rig
        .data
        .targets
        .iter()
        .zip(&d.state.valid)
        .find(|(t, v)| **v && t.slot == slot && t.attachment == attachment)
        .map(|(t, _)| &d.state.vertices[t.start as usize..(t.start + t.len) as usize])
}
