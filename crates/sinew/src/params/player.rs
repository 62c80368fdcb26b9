//! A parameter-animation player: tracks that each play one [`ParamAnimation`] and crossfade
//! to the next over a mix duration, applied to parameter values by weight.
//!
//! Per parameter component, replacing lanes (Weighted, Forced, and Passthrough lanes of
//! non-additive animations) contribute `w x value` and their weight `w` (the track's alpha,
//! times `m` for the clip fading in and `1 - m` for the one fading out, `m` the mix
//! fraction). With total weight `W` the result is `Σ w v / W` when `W >= 1`, else
//! `(1 - W) base + Σ w v`: a crossfade between two clips keyed on one parameter gives
//! exactly `(1 - m) A + m B`, and a clip fading out alone returns to the base value. Additive
//! lanes then add `w x animationWeight x value`, and multiplicative lanes scale by their
//! weighted mean blended from 1 by their weight (inochi2d.md §3: `(value + adds) x mean`).
//! Results are clamped to the parameter's range.
//!
//! The caller owns the base values: [`ParamPlayer::apply`] reads them from `values` and
//! writes the animated values there, so restore the base before each apply (additive
//! lanes would otherwise accumulate). Every buffer is allocated by [`ParamPlayer::new`];
//! `update` and `apply` allocate nothing. Verified by the unit tests below and the
//! allocation test in `sinew-formats/tests/all/inochi2d_alloc.rs`.

use super::ParamData;
use super::inochi_clip::{LaneMerge, ParamAnimation};

/// One animation being played.
///
/// Owner: parameter animation (step 1 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Playback {
    /// Index of the animation in the slice passed to `update` and `apply`.
    pub anim: usize,
    /// Playback time, seconds (wrapped into the loop while looping).
    pub time: f64,
    /// Whether it loops; a playback that stops looping runs on through the lead-out.
    pub looping: bool,
    /// Time scale.
    pub speed: f64,
}

/// A track: the current playback and the one fading out.
///
/// Owner: parameter animation (step 1 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Track {
    /// The playback fading in (or playing).
    pub current: Option<Playback>,
    /// The playback fading out.
    pub previous: Option<Playback>,
    /// Seconds into the crossfade.
    pub mix_time: f64,
    /// Crossfade length, seconds.
    pub mix_duration: f64,
    /// The track's weight (0..1).
    pub alpha: f64,
}

impl Track {
    const EMPTY: Track = Track {
        current: None,
        previous: None,
        mix_time: 0.0,
        mix_duration: 0.0,
        alpha: 1.0,
    };

    /// The crossfade fraction `m`: 0 when the mix starts, 1 once it is over.
    pub fn mix(&self) -> f64 {
        if self.previous.is_none() || self.mix_duration.is_nan() || self.mix_duration <= 0.0 {
            1.0
        } else {
            (self.mix_time / self.mix_duration).clamp(0.0, 1.0)
        }
    }
}

/// Per-component accumulators of one apply.
#[derive(Debug, Clone, Copy, Default)]
struct Acc {
    sum: f64,
    weight: f64,
    add: f64,
    mul: f64,
    mul_weight: f64,
}

/// Plays parameter animations on a fixed number of tracks.
///
/// Owner: parameter animation (step 1 of `Character::update`).
#[derive(Debug, Clone)]
pub struct ParamPlayer {
    tracks: Vec<Track>,
    acc: Vec<[Acc; 2]>,
}

impl ParamPlayer {
    /// A player for `param_count` parameters with `tracks` empty tracks.
    pub fn new(param_count: usize, tracks: usize) -> Self {
        ParamPlayer {
            tracks: vec![Track::EMPTY; tracks],
            acc: vec![[Acc::default(); 2]; param_count],
        }
    }

    /// The tracks.
    pub fn tracks(&self) -> &[Track] {
        &self.tracks
    }

    /// Plays animation `anim` on `track` from its start, crossfading from what the track
    /// played over `mix` seconds (0: cut). A crossfade still running drops its older clip.
    pub fn set_animation(&mut self, track: usize, anim: usize, looping: bool, mix: f64) {
        let Some(t) = self.tracks.get_mut(track) else {
            return;
        };
        let next = Playback {
            anim,
            time: 0.0,
            looping,
            speed: 1.0,
        };
        t.previous = if mix > 0.0 { t.current } else { None };
        t.current = Some(next);
        t.mix_time = 0.0;
        t.mix_duration = mix.max(0.0);
    }

    /// Fades `track` out to the base values over `mix` seconds (0: at once).
    pub fn clear(&mut self, track: usize, mix: f64) {
        let Some(t) = self.tracks.get_mut(track) else {
            return;
        };
        t.previous = if mix > 0.0 { t.current } else { None };
        t.current = None;
        t.mix_time = 0.0;
        t.mix_duration = mix.max(0.0);
    }

    /// Stops the current animation of `track` looping: it plays on through its lead-out and
    /// holds its last frame.
    pub fn stop_looping(&mut self, track: usize) {
        if let Some(Some(p)) = self.tracks.get_mut(track).map(|t| t.current.as_mut()) {
            p.looping = false;
        }
    }

    /// Sets the weight (clamped to 0..1) of `track`.
    pub fn set_alpha(&mut self, track: usize, alpha: f64) {
        if let Some(t) = self.tracks.get_mut(track) {
            t.alpha = if alpha.is_finite() {
                alpha.clamp(0.0, 1.0)
            } else {
                0.0
            };
        }
    }

    /// Sets the time scale of `track`'s current playback.
    pub fn set_speed(&mut self, track: usize, speed: f64) {
        if let Some(Some(p)) = self.tracks.get_mut(track).map(|t| t.current.as_mut()) {
            p.speed = if speed.is_finite() { speed } else { 1.0 };
        }
    }

    /// Advances every playback and crossfade by `dt` seconds.
    pub fn update(&mut self, anims: &[ParamAnimation], dt: f64) {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        let step = |p: &mut Playback| {
            if let Some(a) = anims.get(p.anim) {
                p.time = a.advance(p.time + dt * p.speed, p.looping);
            }
        };
        for t in &mut self.tracks {
            t.current.as_mut().map(step);
            t.previous.as_mut().map(step);
            if t.previous.is_some() {
                t.mix_time += dt;
                if t.mix_time >= t.mix_duration {
                    t.previous = None;
                }
            }
        }
    }

    /// Applies the tracks to `values` (one `[x, y]` per parameter of `params`), which hold
    /// the base values on entry and the animated values on return.
    pub fn apply(
        &mut self,
        params: &[ParamData],
        anims: &[ParamAnimation],
        values: &mut [[f64; 2]],
    ) {
        for a in &mut self.acc {
            *a = [Acc::default(); 2];
        }
        for t in &self.tracks {
            let m = t.mix();
            if let Some(p) = t.previous {
                accumulate(&mut self.acc, anims, p, t.alpha * (1.0 - m));
            }
            if let Some(p) = t.current {
                accumulate(&mut self.acc, anims, p, t.alpha * m);
            }
        }
        for ((acc, pd), v) in self.acc.iter().zip(params).zip(values.iter_mut()) {
            for c in 0..if pd.is_2d { 2 } else { 1 } {
                let a = &acc[c];
                if a.weight == 0.0 && a.add == 0.0 && a.mul_weight == 0.0 {
                    continue;
                }
                let mut x = if a.weight >= 1.0 {
                    a.sum / a.weight
                } else {
                    v[c] * (1.0 - a.weight) + a.sum
                };
                x += a.add;
                if a.mul_weight > 0.0 {
                    let mean = a.mul / a.mul_weight;
                    x *= 1.0 + (mean - 1.0) * a.mul_weight.min(1.0);
                }
                v[c] = pd.clamp(c, x);
            }
        }
    }

    /// [`ParamPlayer::apply`] to an instance's parameter values.
    pub fn apply_to(
        &mut self,
        rig: &crate::Rig,
        anims: &[ParamAnimation],
        inst: &mut crate::Instance,
    ) {
        self.apply(&rig.params.params, anims, &mut inst.params.values);
    }
}

/// Adds one playback's lanes at weight `w` into the accumulators.
fn accumulate(acc: &mut [[Acc; 2]], anims: &[ParamAnimation], p: Playback, w: f64) {
    let Some(anim) = anims.get(p.anim) else {
        return;
    };
    if w.is_nan() || w <= 0.0 {
        return;
    }
    let f = anim.frame_at(p.time);
    for lane in &anim.lanes {
        let Some(slot) = acc.get_mut(lane.param.index()) else {
            continue;
        };
        if lane.keys.is_empty() || lane.component > 1 {
            continue;
        }
        let a = &mut slot[usize::from(lane.component)];
        let v = lane.sample(f);
        let merge = match lane.merge {
            LaneMerge::Passthrough if anim.additive => LaneMerge::Additive,
            LaneMerge::Passthrough => LaneMerge::Weighted,
            m => m,
        };
        match merge {
            LaneMerge::Additive => {
                // animationWeight scales additive animations only (inochi2d.md §7).
                let aw = if anim.additive { anim.weight } else { 1.0 };
                a.add += w * aw * v;
            }
            LaneMerge::Multiplicative => {
                a.mul += w * v;
                a.mul_weight += w;
            }
            _ => {
                a.sum += w * v;
                a.weight += w;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::ParamId;
    use crate::params::inochi_clip::{AnimLane, Keyframe, LaneInterp};

    fn param(lo: f64, hi: f64) -> ParamData {
        ParamData {
            name: "p".into(),
            is_2d: true,
            min: [lo; 2],
            max: [hi; 2],
            default: [0.0; 2],
            driven: false,
        }
    }

    /// A 1 s animation (10 frames of 0.1 s) holding `value` on parameter 0's x.
    fn constant(value: f32, additive: bool, merge: LaneMerge) -> ParamAnimation {
        ParamAnimation {
            name: "c".into(),
            timestep: 0.1,
            length: 10,
            lead_in: None,
            lead_out: None,
            additive,
            weight: 0.5,
            lanes: vec![AnimLane {
                param: ParamId(0),
                component: 0,
                interp: LaneInterp::Linear,
                merge,
                keys: vec![Keyframe {
                    frame: 0.0,
                    value,
                    tension: 0.5,
                }],
            }],
        }
    }

    fn run(p: &mut ParamPlayer, anims: &[ParamAnimation], base: f64) -> f64 {
        let mut v = [[base, 0.0]];
        p.apply(&[param(-10.0, 10.0)], anims, &mut v);
        v[0][0]
    }

    #[test]
    fn crossfade_weights_are_exact() {
        let anims = [
            constant(2.0, false, LaneMerge::Passthrough),
            constant(6.0, false, LaneMerge::Forced),
        ];
        let mut p = ParamPlayer::new(1, 1);
        p.set_animation(0, 0, true, 0.0);
        assert_eq!(run(&mut p, &anims, 1.0), 2.0);
        p.set_animation(0, 1, true, 0.4);
        assert_eq!(run(&mut p, &anims, 1.0), 2.0); // m = 0
        p.update(&anims, 0.1);
        assert!((p.tracks()[0].mix() - 0.25).abs() < 1e-12);
        assert!((run(&mut p, &anims, 1.0) - (0.75 * 2.0 + 0.25 * 6.0)).abs() < 1e-12);
        p.update(&anims, 0.3);
        assert!(p.tracks()[0].previous.is_none());
        assert_eq!(run(&mut p, &anims, 1.0), 6.0);
        // Fading out alone returns to the base: half way, half the base.
        p.clear(0, 1.0);
        p.update(&anims, 0.5);
        assert!((run(&mut p, &anims, 1.0) - (0.5 * 1.0 + 0.5 * 6.0)).abs() < 1e-12);
        p.update(&anims, 0.6);
        assert_eq!(run(&mut p, &anims, 1.0), 1.0);
    }

    #[test]
    fn additive_and_multiplicative_lanes_and_track_alpha() {
        let anims = [
            constant(3.0, false, LaneMerge::Passthrough),
            constant(2.0, true, LaneMerge::Passthrough), // adds 2 x weight 0.5
            constant(2.0, false, LaneMerge::Multiplicative),
        ];
        let mut p = ParamPlayer::new(1, 3);
        p.set_animation(1, 1, true, 0.0);
        assert_eq!(run(&mut p, &anims, 1.0), 2.0);
        p.set_animation(0, 0, true, 0.0);
        assert_eq!(run(&mut p, &anims, 1.0), 4.0); // 3 replaced, then + 1
        p.set_animation(2, 2, true, 0.0);
        assert_eq!(run(&mut p, &anims, 1.0), 8.0); // (3 + 1) x 2
        p.set_alpha(2, 0.5);
        assert_eq!(run(&mut p, &anims, 1.0), 6.0); // (3 + 1) x 1.5
        p.set_alpha(0, 0.25);
        // 0.75 x 1 + 0.25 x 3 = 1.5, + 1, x 1.5.
        assert_eq!(run(&mut p, &anims, 1.0), 3.75);
        p.set_alpha(2, 1.0);
        p.set_alpha(0, 1.0);
        // (3 + 1) x 2 = 8, clamped to a -5..5 range.
        let mut v = [[1.0, 0.0]];
        p.apply(&[param(-5.0, 5.0)], &anims, &mut v);
        assert_eq!(v[0][0], 5.0);
    }

    #[test]
    fn playback_loops_and_runs_out_through_the_lead_out() {
        let mut a = constant(0.0, false, LaneMerge::Passthrough);
        a.lanes[0].keys = vec![
            Keyframe {
                frame: 0.0,
                value: 0.0,
                tension: 0.5,
            },
            Keyframe {
                frame: 10.0,
                value: 10.0,
                tension: 0.5,
            },
        ];
        a.lead_in = Some(2);
        a.lead_out = Some(8);
        let anims = [a];
        let mut p = ParamPlayer::new(1, 1);
        p.set_animation(0, 0, true, 0.0);
        p.update(&anims, 0.7);
        assert!((run(&mut p, &anims, 0.0) - 7.0).abs() < 1e-9);
        p.update(&anims, 0.2); // frame 9 -> 2 + (9 - 8) = 3
        assert!((run(&mut p, &anims, 0.0) - 3.0).abs() < 1e-9);
        p.stop_looping(0);
        p.update(&anims, 0.6); // frame 9: into the lead-out
        assert!((run(&mut p, &anims, 0.0) - 9.0).abs() < 1e-9);
        p.update(&anims, 5.0); // holds the end
        assert!((run(&mut p, &anims, 0.0) - 10.0).abs() < 1e-9);
    }
}
