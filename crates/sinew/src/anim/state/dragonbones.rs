//! Tracks of DragonBones clips, posed as the DragonBones runtime poses its animation
//! states (`dragonBones.AnimationState` 5.x, read from the official JS runtime):
//!
//! - **Plays and the held end**: an entry plays its clip `plays` times (0: forever); in the
//!   last play and after it the held twin is posed (its last keys hold instead of tweening
//!   back to the first), so the end holds. Key events come from the clip itself.
//! - **Fades**: the new state's weight is its fade progress `mix_time / mix_duration`
//!   (linear; `fadeInTweenType` Line); the old state fades from the weight it had to 0 over
//!   the same time (`fadeOutTime = fadeInTime`). Both playheads stand still meanwhile
//!   (`pauseFadeIn`, `pauseFadeOut`, the runtime's defaults; `update.rs`).
//! - **Bone blending** (`BlendState`, `BoneTimelineState.blend`): every bone a state keys
//!   starts from the setup pose and each state adds its offsets times its weight
//!   (translation, rotation, shear; scale as `(s - 1) * w`), oldest state first. The
//!   fading-out state's rotation and shear offsets are wrapped to ±180° (`fadeOut` calls
//!   `normalizeRadian`); rotations are never mixed along a remembered or shortest path.
//! - **Slots**: only the newest state drives displays, colours, deforms and draw order (a
//!   fading-out state loses `displayControl`); while it fades in, colours move toward its
//!   keys by `progress⁴` and deforms by `progress²` each frame, from their current values.
//! - IK weights and other constraint keys come from the newest state (the runtime does not
//!   fade them: "TODO fade update").
//!
//! - **Layers** (`db_layers.rs`): each track is one DragonBones layer and group
//!   (`AnimationState::set_track_layer`; a track's index until set). DragonBones tracks
//!   are applied highest layer first; a bone keyed by a higher layer leaves a lower one only
//!   the weight it did not take, tracks on one layer add theirs, and since lower layers are
//!   applied last their slot keys win, as in the runtime. A state fades in from no weight
//!   also on an empty track (a new layer), its playhead paused meanwhile. A whole track
//!   fades out with `fade_out_track` (the runtime's `fadeOut`, what `fadeOutMode` `All` and
//!   `SameLayer` do to other states): weight down to 0, playhead still, slots let go.
//!
//! Entries played in `reverse` are posed forwards. Verified against the official runtime by
//! `crates/sinew-formats/tests/all/dragonbones_fade.rs` (fades, chains, play counts,
//! backwards play, layers and groups).

use super::db_layers::DbLayers;
use super::entry::{NONE, link};
use super::{AnimationState, apply::AttachmentState, apply::apply_attachment};
use crate::anim::curve::STEPPED;
use crate::anim::f32_at_or_before;
use crate::anim::timeline::{before_first, curve_value};
use crate::anim::{MixBlend, MixDirection, Timeline, TimelineKind as K, apply_timeline, clip_data};
use crate::ids::{BoneId, ClipId};
use crate::instance::Instance;
use crate::rig::Rig;

impl AnimationState {
    /// An entry's fade-in progress, 0..1 (1 once faded in or without a fade).
    pub(super) fn db_progress(&self, e: usize) -> f64 {
        let x = &self.entries[e];
        // COMPAT(dragonbones): a state fades in over its fade time also when nothing played
        // before it (a new layer), from no weight.
        if x.mix_duration <= 0.0 {
            1.0
        } else {
            (x.mix_time / x.mix_duration).min(1.0)
        }
    }

    /// An entry's DragonBones weight now: its fade-in progress, or while it fades out, the
    /// weight it had then times what is left of the fade of the entry replacing it.
    pub(super) fn db_weight(&self, e: usize) -> f64 {
        match link(self.entries[e].mixing_to) {
            Some(to) if self.entries[e].live => {
                self.entries[e].db_out_from * (1.0 - self.db_progress(to))
            }
            _ => self
                .db_track_fade_out(e)
                .unwrap_or_else(|| self.db_progress(e)),
        }
    }

    /// The weight of entry `e` while its track fades out ([`AnimationState::fade_out_track`]):
    /// from the weight it had to 0, linearly over the fade's length, as a fading-out
    /// DragonBones state's weight falls; `None` without such a fade.
    pub(super) fn db_track_fade_out(&self, e: usize) -> Option<f64> {
        let x = &self.entries[e];
        (x.db_fade_out > 0.0).then(|| {
            let p = (x.db_fade_out_time / x.db_fade_out).min(1.0);
            x.db_out_from * (1.0 - p)
        })
    }

    /// The clip posed for an entry at its entry time `t` and the time in that clip, on the
    /// runtime's key grid ([`crate::anim::ClipPlayback::grid_time`]).
    fn db_sample(&self, rig: &Rig, e: usize, t: f64) -> (ClipId, f64) {
        let on_grid = |c: ClipId, t: f64| {
            let t = clip_data(rig, c).playback.map_or(t, |p| p.grid_time(t));
            (c, t)
        };
        let x = &self.entries[e];
        if !x.db {
            return (x.clip, t);
        }
        let len = x.db_len;
        if len <= 0.0 {
            return (x.clip, t.min(0.0));
        }
        if t < 0.0 {
            return self.db_sample_backwards(rig, e, -t);
        }
        if x.db_plays == 0 {
            return on_grid(x.clip, t % len);
        }
        let last = len * f64::from(x.db_plays - 1);
        if t >= last {
            let local = t - last;
            if local < len {
                return on_grid(x.db_held, local);
            }
            // The held end: the last key, also when its f32 time lies a hair past `len`.
            let end = f64::from(clip_data(rig, x.db_held).duration);
            (x.db_held, len.max(end))
        } else {
            on_grid(x.clip, t % len)
        }
    }

    /// [`Self::db_sample`] of an entry played backwards (a negative time scale), `u` seconds
    /// back from its start. COMPAT(dragonbones), as `TimelineState._setCurrentTime`: the clip
    /// time is `len - (u mod len)` (so the first step back lands near the end), play
    /// `floor(u / len)` counts as forward (the last play holds its last key), and after
    /// `plays` plays the clip rests at its start.
    fn db_sample_backwards(&self, rig: &Rig, e: usize, u: f64) -> (ClipId, f64) {
        let on_grid = |c: ClipId, t: f64| {
            let t = clip_data(rig, c).playback.map_or(t, |p| p.grid_time(t));
            (c, t)
        };
        let x = &self.entries[e];
        let len = x.db_len;
        // A looping entry's animation time is already wrapped into (-len, 0].
        let local = len - u % len;
        if x.db_plays == 0 {
            return on_grid(x.clip, local);
        }
        let plays = f64::from(x.db_plays);
        if u >= len * plays {
            return on_grid(x.clip, 0.0);
        }
        if (u / len).floor() >= plays - 1.0 {
            on_grid(x.db_held, local)
        } else {
            on_grid(x.clip, local)
        }
    }

    /// Poses one track whose current entry is a DragonBones one (see the module docs).
    pub(super) fn apply_dragonbones(
        &mut self,
        rig: &Rig,
        inst: &mut Instance,
        cur: usize,
        layer: i32,
    ) {
        // Every bone a state keys starts from the setup pose when the first state of the
        // frame keys it (`db_layers.rs`), which also shares its weight among the layers.
        self.apply_db_fading_out(rig, inst, cur, layer);

        let progress = self.db_progress(cur);
        let fading = self.entries[cur].mixing_from != NONE || progress < 1.0;
        let x = &self.entries[cur];
        let fading_out = x.db_fade_out > 0.0;
        let weight = x.alpha * self.db_weight(cur);
        let time = x.animation_time();
        let (clip, local) = self.db_sample(rig, cur, time);
        let main = x.clip;
        let (_, last_local) = if x.animation_last < 0.0 {
            (main, -1.0)
        } else {
            self.db_sample(rig, cur, x.animation_last)
        };
        let reverse = x.reverse;
        mark_moving(
            rig,
            inst,
            clip,
            (local, last_local),
            fading || fading_out || x.animation_last < 0.0,
        );
        let (color_alpha, deform_alpha) = if fading {
            (progress.powi(4), progress * progress)
        } else {
            (1.0, 1.0)
        };
        let mut att = AttachmentState {
            state: &mut self.attachment_state,
            unkeyed: self.unkeyed_state,
        };
        self.db_layers.begin_state();
        for tl in &clip_data(rig, clip).timelines {
            if let Some(&b) = bone_of(&tl.kind) {
                add_layered_bone(
                    &mut self.db_layers,
                    (rig, inst),
                    tl,
                    b,
                    (local, weight, layer),
                    false,
                );
                continue;
            }
            let alpha = match tl.kind {
                // A fading-out state no longer drives slots (`displayControl`).
                K::Event { .. } => continue,
                _ if fading_out => continue,
                K::Attachment { .. } => {
                    apply_attachment(rig, inst, &mut att, tl, local, MixBlend::First, true);
                    continue;
                }
                K::Rgba(_) | K::Rgb(_) | K::Alpha(_) | K::Rgba2(_) | K::Rgb2(_) => color_alpha,
                K::Deform { .. } => deform_alpha,
                _ => 1.0,
            };
            let blend = if tl.kind.is_draw_order() {
                MixBlend::First
            } else {
                MixBlend::Replace
            };
            apply_timeline(
                rig,
                inst,
                clip,
                tl,
                local,
                local,
                None,
                alpha,
                blend,
                MixDirection::In,
            );
        }
        if !reverse {
            // Key events from the clip itself (its held twin has the same keys).
            for tl in &clip_data(rig, main).timelines {
                if let K::Event { .. } = tl.kind {
                    apply_timeline(
                        rig,
                        inst,
                        main,
                        tl,
                        last_local,
                        local,
                        Some(&mut self.fired),
                        1.0,
                        MixBlend::Replace,
                        MixDirection::In,
                    );
                }
            }
        }
        self.queue_events(cur, time);
        self.fired.clear();
        let x = &mut self.entries[cur];
        x.next_animation_last = time;
        x.next_track_last = x.track_time;
    }

    /// Adds the bone offsets of the entries `to` is fading in over, oldest first.
    fn apply_db_fading_out(&mut self, rig: &Rig, inst: &mut Instance, to: usize, layer: i32) {
        let Some(from) = link(self.entries[to].mixing_from) else {
            return;
        };
        self.apply_db_fading_out(rig, inst, from, layer);
        let f = &self.entries[from];
        let weight = f.alpha * f.db_out_from * (1.0 - self.db_progress(to));
        let time = f.animation_time();
        let (clip, local) = self.db_sample(rig, from, time);
        self.db_layers.begin_state();
        for tl in &clip_data(rig, clip).timelines {
            if let Some(&b) = bone_of(&tl.kind) {
                add_layered_bone(
                    &mut self.db_layers,
                    (rig, inst),
                    tl,
                    b,
                    (local, weight, layer),
                    true,
                );
            }
        }
        let f = &mut self.entries[from];
        f.total_alpha = weight;
        f.next_animation_last = time;
        f.next_track_last = f.track_time;
    }
}

/// Clears `still` for the bones the runtime marks dirty this frame (`_transformDirty`): all of
/// them when `all` (a fade, the first frame), else those with a timeline that, the time
/// having changed, is inside a tween or reached another key.
fn mark_moving(rig: &Rig, inst: &mut Instance, clip: ClipId, (t, last): (f64, f64), all: bool) {
    if inst.db_hold.still.is_empty() {
        return;
    }
    if all {
        inst.db_hold.still.fill(false);
        return;
    }
    if t == last {
        return;
    }
    let data = clip_data(rig, clip);
    let end = data.playback.map_or(f64::INFINITY, |p| p.length);
    for tl in &data.timelines {
        // An IK key marks the constraint's bones dirty (`invalidUpdate`).
        let bones: &[BoneId] = match &tl.kind {
            K::Ik { constraint, .. } => rig
                .ik
                .get(constraint.index())
                .map_or(&[], |k| k.bones.as_slice()),
            k => match bone_of(k) {
                Some(b) => std::slice::from_ref(b),
                None => continue,
            },
        };
        let (key, tweens) = segment(tl, t, end);
        if tweens || key != segment(tl, last, end).0 {
            for b in bones {
                if let Some(s) = inst.db_hold.still.get_mut(b.index()) {
                    *s = false;
                }
            }
        }
    }
}

/// The key a timeline shows at `time` (`None` before the first) and whether the segment
/// from it tweens (not stepped, and a key follows). A key at the clip's `end` is the
/// loader's, holding the last one until the end (the runtime has no such key): reaching it
/// is no new key.
fn segment(tl: &Timeline, time: f64, end: f64) -> (Option<usize>, bool) {
    let entries = tl.kind.entries();
    if entries == 0 || before_first(tl, time) {
        return (None, false);
    }
    let keys = tl.frames.len() / entries;
    let mut key = tl.search(time, entries) / entries;
    let at_end = |k: usize| {
        tl.frames
            .get(k * entries)
            .is_some_and(|&t| f64::from(t) >= f32_at_or_before(end))
    };
    if key > 0 && key + 1 == keys && at_end(key) {
        key -= 1;
    }
    let tweens =
        key + 1 < keys && !at_end(key) && tl.curves.types.get(key).is_some_and(|&c| c != STEPPED);
    (Some(key), tweens)
}

/// The bone a bone timeline drives.
fn bone_of(k: &K) -> Option<&BoneId> {
    match k {
        K::Rotate(b)
        | K::Translate(b)
        | K::TranslateX(b)
        | K::TranslateY(b)
        | K::Scale(b)
        | K::ScaleX(b)
        | K::ScaleY(b)
        | K::Shear(b)
        | K::ShearX(b)
        | K::ShearY(b) => Some(b),
        _ => None,
    }
}

/// Adds bone timeline `tl` (of bone `b`) at clip time `time` with the weight `layers` leave
/// a state of weight `weight` on layer `layer` (`db_layers.rs`); `wrap` as for [`add_bone`].
fn add_layered_bone(
    layers: &mut DbLayers,
    (rig, inst): (&Rig, &mut Instance),
    tl: &Timeline,
    b: BoneId,
    (time, weight, layer): (f64, f64, i32),
    wrap: bool,
) {
    let w = layers.weight(rig, inst, b, weight, layer);
    if w != 0.0 {
        add_bone(rig, inst, tl, time, w, wrap);
    }
}

/// Adds a bone timeline's offset at `time` times `weight`; `wrap`: rotation and shear
/// offsets first wrapped to ±180° (a state fading out).
fn add_bone(rig: &Rig, inst: &mut Instance, tl: &Timeline, time: f64, weight: f64, wrap: bool) {
    let angle = match tl.kind {
        K::Rotate(b) | K::ShearX(b) | K::ShearY(b) if wrap => b.index(),
        _ => {
            apply_timeline(
                rig,
                inst,
                ClipId(0),
                tl,
                time,
                time,
                None,
                weight,
                MixBlend::Add,
                MixDirection::In,
            );
            return;
        }
    };
    if !inst.bone_active.get(angle).copied().unwrap_or(false) || before_first(tl, time) {
        return;
    }
    let v = wrap_degrees(curve_value(tl, time)) * weight;
    let Some(p) = inst.pose.get_mut(angle) else {
        return;
    };
    match tl.kind {
        K::Rotate(_) => p.rotation += v,
        K::ShearX(_) => p.shear_x += v,
        _ => p.shear_y += v,
    }
}

/// DragonBones' `normalizeRadian` in degrees: into (-180, 180].
fn wrap_degrees(v: f64) -> f64 {
    let r = (v + 180.0) % 360.0;
    if r > 0.0 { r - 180.0 } else { r + 180.0 }
}

#[cfg(test)]
mod tests {
    use super::wrap_degrees;
    use crate::anim::timeline::testrig::{instance, rig, tl1};
    use crate::anim::{AnimationState, Clip, ClipPlayback, TimelineKind as K};
    use crate::ids::{BoneId, ClipId};

    /// A DragonBones clip rotating bone 1 (setup rotation 10) through `keys`.
    fn clip(keys: &[(f32, f32)], playback: ClipPlayback) -> Clip {
        let mut rot = tl1(K::Rotate(BoneId(1)), keys);
        rot.property_count = 1;
        Clip {
            name: "c".into(),
            duration: keys.last().map_or(0.0, |k| k.0),
            timelines: vec![rot],
            property_ids: vec![0],
            playback: Some(playback),
            ..Default::default()
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn fades_add_weighted_offsets_with_paused_playheads() {
        let mut rig = rig();
        rig.clips.push(clip(
            &[(0.0, 200.0), (1.0, 200.0)],
            ClipPlayback::dragonbones(0, 0.0, 1.0, 0.0, None),
        ));
        rig.clips.push(clip(
            &[(0.0, 20.0), (1.0, 60.0)],
            ClipPlayback::dragonbones(1, 0.5, 1.0, 0.0, None),
        ));
        let mut inst = instance(&rig);
        let mut st = AnimationState::new(&rig);
        let a = st.play(&rig, 0, ClipId(0), None, None).unwrap();
        st.update(0.3);
        st.apply(&rig, &mut inst);
        assert!(close(inst.pose[1].rotation, 210.0));
        // Over b's own fadeInTime, 0.5 s.
        let b = st.play(&rig, 0, ClipId(1), None, None).unwrap();
        assert_eq!(st.entry(b).map(|e| e.mix_duration), Some(0.5));
        st.update(0.25);
        st.apply(&rig, &mut inst);
        // Half way: a's 200 wrapped to -160 at weight 0.5, b at its first frame (paused)
        // 20 at weight 0.5, both on the setup 10.
        assert!(close(inst.pose[1].rotation, 10.0 - 80.0 + 10.0));
        assert_eq!(st.entry(a).map(|e| e.track_time), Some(0.3));
        assert_eq!(st.entry(b).map(|e| e.track_time), Some(0.0));
        // The step that completes the fade plays whole: b at 0.25 s, a at weight 0.
        st.update(0.25);
        st.apply(&rig, &mut inst);
        assert!(close(inst.pose[1].rotation, 10.0 + 30.0));
        // One play, then the end holds.
        for _ in 0..3 {
            st.update(0.5);
            st.apply(&rig, &mut inst);
        }
        assert!(close(inst.pose[1].rotation, 70.0));
        assert!(st.entry(a).is_none(), "the faded-out entry ended");
    }

    #[test]
    fn the_last_play_poses_the_held_twin_then_holds_it() {
        let mut rig = rig();
        // The looping clip tweens its last key (40 at 0.5 s) back to the first by 1 s; the
        // held twin keeps 40.
        let held = ClipPlayback::dragonbones(1, 0.0, 1.0, 0.0, None);
        rig.clips
            .push(clip(&[(0.0, 0.0), (0.5, 40.0), (1.0, 0.0)], held));
        rig.clips.push(clip(&[(0.0, 0.0), (0.5, 40.0)], held));
        rig.clips[0].playback = Some(ClipPlayback::dragonbones(2, 0.0, 1.0, 0.0, Some(ClipId(1))));
        let mut inst = instance(&rig);
        let mut st = AnimationState::new(&rig);
        let e = st.play(&rig, 0, ClipId(0), None, None).unwrap();
        assert_eq!(st.entry(e).and_then(|e| e.dragonbones_plays()), Some(2));
        let mut at = |dt: f64| {
            st.update(dt);
            st.apply(&rig, &mut inst);
            inst.pose[1].rotation
        };
        assert!(close(at(0.75), 10.0 + 20.0), "first play tweens back");
        assert!(close(at(1.0), 10.0 + 40.0), "last play holds the last key");
        assert!(
            close(at(1.25), 10.0 + 40.0),
            "after the plays the end holds"
        );
    }

    #[test]
    fn wrap_is_the_runtimes_normalize() {
        assert_eq!(wrap_degrees(0.0), 0.0);
        assert_eq!(wrap_degrees(190.0), -170.0);
        assert_eq!(wrap_degrees(-190.0), 170.0);
        assert_eq!(wrap_degrees(540.0), 180.0);
        assert_eq!(wrap_degrees(-180.0), 180.0);
        assert_eq!(wrap_degrees(725.0), 5.0);
    }
}
