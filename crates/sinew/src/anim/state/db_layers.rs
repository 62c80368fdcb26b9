//! DragonBones animation layers: how the weight of a bone is shared among the states that
//! key it in one frame (the runtime's `BlendState`, read from `@cocos/dragonbones-js` 1.0.2;
//! written from its behaviour, nothing copied).
//!
//! States are applied highest layer first (sinew: DragonBones tracks in the order of their
//! layer, [`AnimationState::set_track_layer`](super::AnimationState::set_track_layer),
//! then track index). The first state to key a bone in a frame sets it from the setup pose
//! with its weight; the states of the same layer add theirs; a lower layer gets only what
//! the layers above left, `1 - (their summed weights)`, and nothing once that is used up.

use crate::ids::BoneId;
use crate::instance::Instance;
use crate::rig::Rig;

/// One bone's share of weight this frame.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// The frame this slot was last touched (stale slots start over).
    frame: u32,
    /// The state (one entry's application) that last took weight, and what it got.
    state: u32,
    weight: f64,
    /// The layer taking weight now, the weight it took, and what the layers above left.
    layer: i32,
    layer_weight: f64,
    left: f64,
}

/// The per-bone shares of one [`super::AnimationState`] (empty for rigs without DragonBones
/// clips).
#[derive(Debug, Clone, Default)]
pub(super) struct DbLayers {
    slots: Vec<Slot>,
    frame: u32,
    state: u32,
}

impl DbLayers {
    pub(super) fn new(rig: &Rig) -> DbLayers {
        let db = rig.clips.iter().any(|c| c.playback.is_some());
        DbLayers {
            slots: if db {
                vec![Slot::default(); rig.bones.len()]
            } else {
                Vec::new()
            },
            frame: 1,
            state: 0,
        }
    }

    /// Starts a frame: every bone's weight is whole again.
    pub(super) fn begin_frame(&mut self) {
        self.frame = self.frame.wrapping_add(1).max(1);
    }

    /// Starts one state's (entry's) bone timelines.
    pub(super) fn begin_state(&mut self) {
        self.state = self.state.wrapping_add(1);
    }

    /// The weight the current state of layer `layer` gets on `bone` for its own `weight`
    /// (the same for each of its timelines on the bone). The first state to key the bone
    /// this frame puts its local pose back to the setup pose.
    pub(super) fn weight(
        &mut self,
        rig: &Rig,
        inst: &mut Instance,
        bone: BoneId,
        weight: f64,
        layer: i32,
    ) -> f64 {
        let (frame, state) = (self.frame, self.state);
        let Some(s) = self.slots.get_mut(bone.index()) else {
            return weight;
        };
        if s.frame != frame {
            *s = Slot {
                frame,
                state,
                weight,
                layer,
                layer_weight: weight,
                left: 1.0,
            };
            if let (Some(p), Some(b)) =
                (inst.pose.get_mut(bone.index()), rig.bones.get(bone.index()))
            {
                *p = b.setup;
            }
            return weight;
        }
        if s.state == state {
            return s.weight;
        }
        s.state = state;
        s.weight = 0.0;
        if s.left <= 0.0 {
            return 0.0;
        }
        if s.layer != layer {
            if s.layer_weight >= s.left {
                s.left = 0.0;
                return 0.0;
            }
            s.layer = layer;
            s.left -= s.layer_weight;
            s.layer_weight = 0.0;
        }
        s.weight = weight * s.left;
        s.layer_weight += s.weight;
        s.weight
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::timeline::testrig::{instance, rig};

    #[test]
    fn higher_layers_take_weight_first_and_same_layers_add() {
        let mut r = rig();
        r.clips.push(crate::anim::Clip {
            playback: Some(crate::anim::ClipPlayback::dragonbones(
                0, 0.0, 1.0, 0.0, None,
            )),
            ..Default::default()
        });
        let mut inst = instance(&r);
        let mut l = DbLayers::new(&r);
        let b = BoneId(1);
        l.begin_frame();
        inst.pose[1].rotation = 99.0;
        // Layer 2 at 0.3, then another layer-2 state at 0.2: both whole (same layer).
        l.begin_state();
        assert_eq!(l.weight(&r, &mut inst, b, 0.3, 2), 0.3);
        assert_eq!(
            inst.pose[1].rotation, r.bones[1].setup.rotation,
            "first touch resets"
        );
        assert_eq!(
            l.weight(&r, &mut inst, b, 0.3, 2),
            0.3,
            "same state, same weight"
        );
        l.begin_state();
        assert_eq!(l.weight(&r, &mut inst, b, 0.2, 2), 0.2);
        // Layer 1 gets half of what layer 2 left (0.5): 0.8 * 0.5.
        l.begin_state();
        assert!((l.weight(&r, &mut inst, b, 0.8, 1) - 0.4).abs() < 1e-15);
        // Layer 0 gets 0.5 - 0.4 = 0.1 of its 1.
        l.begin_state();
        assert!((l.weight(&r, &mut inst, b, 1.0, 0) - 0.1).abs() < 1e-15);
        // Nothing is left for layer -1.
        l.begin_state();
        assert_eq!(l.weight(&r, &mut inst, b, 1.0, -1), 0.0);
        // A new frame starts whole.
        l.begin_frame();
        l.begin_state();
        assert_eq!(l.weight(&r, &mut inst, b, 1.0, 0), 1.0);
        l.begin_state();
        assert_eq!(l.weight(&r, &mut inst, b, 1.0, -3), 0.0);
    }
}
