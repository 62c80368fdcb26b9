//! Characters drawn inside a slot of another (DragonBones child armatures): a nested
//! character plays on its own clock while its slot shows a given attachment, and its draw
//! commands take the slot's place in the parent's draw list.
//!
//! COMPAT(dragonbones), as the runtime (shared/oracle/dragonbones/README.md): the child
//! starts when its slot starts showing it, with the clip the parent's clip names for that
//! time (a `gotoAndPlay` action) or its own; its time runs from the end of the update in
//! which it started, keeps running after the parent's clip ends, and restarts when the slot
//! shows it again. Its commands are drawn where the slot is in the draw order, through the
//! slot bone's world transform and the display's own transform, with their alpha times the
//! slot's (the PixiJS and Cocos adapters cascade the slot's alpha, not its tint).

use super::Character;
use crate::ids::{AttachmentId, ClipId, SlotId};
use crate::math::{Vec2, WorldTransform};

/// Where and how a nested character is shown ([`Character::nest`]).
///
/// Owner: the host or a format adapter (`sinew-formats` for DragonBones child armatures).
#[derive(Debug, Clone, PartialEq)]
pub struct Nested {
    /// The parent's slot that shows the nested character.
    pub slot: SlotId,
    /// Shown while the slot shows this attachment of the parent (an empty point).
    pub attachment: AttachmentId,
    /// The nested character's space in the slot bone's space (the parent rig's own y
    /// convention).
    pub transform: WorldTransform,
    /// `(parent clip, from time in seconds, nested clip)`: the clip the nested character
    /// starts with when shown while the parent's track 0 plays that clip at or after that
    /// time (the latest such entry wins).
    pub starts: Vec<(ClipId, f64, ClipId)>,
    /// The clip it starts with otherwise (`None`: no animation).
    pub clip: Option<ClipId>,
}

/// A nested character and whether it is running.
#[derive(Debug, Clone)]
pub(crate) struct NestedState {
    pub spec: Nested,
    pub character: Box<Character>,
    pub live: bool,
}

impl Character {
    /// Shows `child` inside `spec.slot` while that slot shows `spec.attachment` (a
    /// DragonBones child armature): it starts then, plays on its own clock, and its draw
    /// commands take the slot's place in [`Character::draw_list`] (see `nested.rs`).
    ///
    /// [`CharacterError::ForeignId`](super::CharacterError::ForeignId) when the slot or
    /// attachment is not this rig's, or a start clip not this rig's or the child's.
    pub fn nest(&mut self, spec: Nested, child: Character) -> Result<(), super::CharacterError> {
        let foreign =
            |kind: &'static str, index: usize| super::CharacterError::ForeignId { kind, index };
        if spec.slot.index() >= self.rig.slots.len() {
            return Err(foreign("slot", spec.slot.index()));
        }
        if spec.attachment.index() >= self.rig.attachments.len() {
            return Err(foreign("attachment", spec.attachment.index()));
        }
        let child_clips = child.rig.clips.len();
        for &(p, _, c) in &spec.starts {
            if p.index() >= self.rig.clips.len() {
                return Err(foreign("clip", p.index()));
            }
            if c.index() >= child_clips {
                return Err(foreign("nested clip", c.index()));
            }
        }
        if let Some(c) = spec.clip.filter(|c| c.index() >= child_clips) {
            return Err(foreign("nested clip", c.index()));
        }
        self.nested.push(NestedState {
            spec,
            character: Box::new(child),
            live: false,
        });
        Ok(())
    }

    /// The nested characters running now (their slot shows them), with how each is
    /// nested, in the order they were nested.
    pub fn nested_characters(&self) -> impl Iterator<Item = (&Nested, &Character)> {
        self.nested
            .iter()
            .filter(|n| n.live)
            .map(|n| (&n.spec, &*n.character))
    }

    /// Steps the running nested characters by `dt`, then starts those whose slot now shows
    /// them and stops those whose slot no longer does.
    pub(super) fn update_nested(&mut self, dt: f64) {
        if self.nested.is_empty() {
            return;
        }
        let (parent_clip, time) = self.track0_clip_time();
        for n in &mut self.nested {
            if n.live {
                n.character.update(dt);
                n.character.drain_events().for_each(drop);
            }
            let shown = self
                .inst
                .slots
                .attachment
                .get(n.spec.slot.index())
                .copied()
                .flatten()
                == Some(n.spec.attachment);
            if !shown {
                n.live = false;
                continue;
            }
            if n.live {
                continue;
            }
            let clip = n
                .spec
                .starts
                .iter()
                .filter(|(p, t, _)| Some(*p) == parent_clip && *t <= time + 1e-9)
                .max_by(|x, y| x.1.total_cmp(&y.1))
                .map(|s| s.2)
                .or(n.spec.clip);
            let c = &mut n.character;
            match clip {
                Some(id) => {
                    let name = c.rig.clips[id.index()].name.clone();
                    let _ = c.play(0, &name);
                }
                None => c.state.clear_tracks(),
            }
            c.update(0.0);
            c.drain_events().for_each(drop);
            n.live = true;
        }
    }

    /// Track 0's clip and its time within the clip: wrapped while plays remain (a
    /// DragonBones entry's play count; a Spine entry while it loops), then held at the end.
    fn track0_clip_time(&self) -> (Option<ClipId>, f64) {
        let Some(e) = self.state.current(0).and_then(|id| self.state.entry(id)) else {
            return (None, 0.0);
        };
        let (duration, wraps) = match e.dragonbones_plays() {
            Some(n) => (e.db_len, n == 0 || e.track_time < e.db_len * f64::from(n)),
            None => (
                f64::from(self.rig.clips[e.clip.index()].duration),
                e.looping,
            ),
        };
        let t = if duration > 0.0 && wraps {
            e.track_time % duration
        } else {
            e.track_time.min(duration)
        };
        (Some(e.clip), t)
    }

    /// Appends the running nested characters' draw commands to the draw list at their
    /// slots' places (after [`Character::draw_list`] built the parent's own).
    pub(super) fn draw_nested(&mut self) {
        if self.nested.is_empty() || !self.draw.groups.is_empty() {
            return;
        }
        let flip_parent = self.setup.y_down;
        for n in &mut self.nested {
            if !n.live {
                continue;
            }
            let slot = n.spec.slot;
            let Some(bone) = self.rig.slots.get(slot.index()).map(|s| s.bone) else {
                continue;
            };
            let Some(&world) = self.inst.world.get(bone.index()) else {
                continue;
            };
            let m = world * n.spec.transform;
            let alpha = self.inst.slots.color.get(slot.index()).map_or(1.0, |c| c.a)
                * self.skeleton_color.a;
            let before = self.draw.commands.len();
            // Where the slot is in the draw order: commands follow it, each slot's together,
            // so the place is after those of every slot drawn before it (one pass over both).
            let mut at = 0;
            for &s in &self.inst.draw_order {
                if s == slot {
                    break;
                }
                while self.draw.commands.get(at).is_some_and(|c| c.slot == s) {
                    at += 1;
                }
            }
            let flip_child = n.character.setup.y_down;
            let list = n.character.draw_list();
            let draw = &mut self.draw;
            let v0 = (draw.positions.len() / 2) as u32;
            let i0 = draw.indices.len() as u32;
            for p in list.positions.chunks_exact(2) {
                let y = if flip_child { -p[1] } else { p[1] };
                let q = m.apply(Vec2::new(f64::from(p[0]), f64::from(y)));
                let y = if flip_parent { -q.y } else { q.y };
                draw.positions.push(q.x as f32);
                draw.positions.push(y as f32);
            }
            draw.uvs.extend_from_slice(&list.uvs);
            draw.indices.extend_from_slice(&list.indices);
            let commands = list.commands.iter().map(|c| {
                let mut c = *c;
                c.slot = slot;
                c.attachment = n.spec.attachment;
                c.color.a *= alpha;
                c.vertex_start += v0;
                c.index_start += i0;
                c.clip = None;
                c
            });
            draw.commands.extend(commands);
            // Into place without a second buffer (no allocation once the list has grown).
            let added = draw.commands.len() - before;
            if let Some(moved) = draw.commands.get_mut(at..) {
                moved.rotate_right(added);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raw::{RawBone, RawRig, RawSlot};
    use std::sync::Arc;

    fn rig() -> Arc<crate::Rig> {
        let mut raw = RawRig::default();
        raw.bones.push(RawBone::new("root", None));
        raw.slots.push(RawSlot::new("s", "root"));
        Arc::new(crate::build::build_rig(&raw).expect("a rig"))
    }

    #[test]
    fn ids_of_other_rigs_are_refused() {
        let mut c = Character::new(rig());
        let spec = |slot: u16, attachment: u32, clip: Option<u32>| Nested {
            slot: SlotId(slot),
            attachment: AttachmentId(attachment),
            transform: WorldTransform::IDENTITY,
            starts: Vec::new(),
            clip: clip.map(ClipId),
        };
        let child = || Character::new(rig());
        for (s, what) in [
            (spec(5, 0, None), "slot"),
            (spec(0, 0, None), "attachment"),
            (spec(0, 0, Some(3)), "attachment"),
        ] {
            let e = c.nest(s, child()).expect_err(what);
            assert!(
                matches!(e, crate::CharacterError::ForeignId { kind, .. } if kind == what),
                "{e:?}"
            );
        }
        assert!(c.nested.is_empty());
    }

    #[test]
    fn the_parent_clip_time_wraps_while_plays_remain_then_holds() {
        use crate::raw::{RawClip, RawPlayback};
        let mut raw = RawRig::default();
        raw.bones.push(RawBone::new("root", None));
        for (name, plays) in [("twice", 2), ("loop", 0)] {
            raw.clips.push(RawClip {
                name: name.into(),
                playback: Some(RawPlayback {
                    play_times: plays,
                    fade_in: 0.0,
                    length: 1.0,
                    frame_rate: 24.0,
                    held: None,
                }),
                ..Default::default()
            });
        }
        let rig = Arc::new(crate::build::build_rig(&raw).expect("a rig"));
        let d = 1.0;
        let at = |clip: &str, t: f64| {
            let mut c = Character::new(rig.clone());
            c.play(0, clip).expect("a clip");
            c.update(t);
            c.track0_clip_time().1
        };
        // Two plays: the second wraps (as the runtime's currentTime), then the end holds.
        assert!((at("twice", 0.25 * d) - 0.25 * d).abs() < 1e-9);
        assert!((at("twice", 1.5 * d) - 0.5 * d).abs() < 1e-9);
        assert!((at("twice", 2.5 * d) - d).abs() < 1e-9);
        assert!((at("loop", 3.25 * d) - 0.25 * d).abs() < 1e-9);
    }
}
