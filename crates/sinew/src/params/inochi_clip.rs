//! Inochi2D animations (inochi2d.md §7): lanes of keyframes on one parameter axis each,
//! sampled at a fractional frame with Inochi2D's interpolation kinds.
//!
//! A lane holds keyframes `(frame, value, tension)` sorted by frame. At frame `f` the segment
//! is the first key at or after `f` and the key before it, `t` the fraction of the way
//! between them; before the first key the first value holds, after the last key the last.
//! Kinds: Nearest (the end value once `t > 0.5`), Stepped (the start value), Linear, Cubic
//! (uniform Catmull-Rom over the two keys around the segment, indices clamped at the ends)
//! and Bezier (a lerp whose `t` is eased by the Hermite cubic from 0 to 1 with both tangents
//! `2 x tension` of the end key, clamped to 0..1: tension 0.5 is linear, 0 smoothstep).
//!
//! An animation plays `length` frames of `timestep` seconds. Looping repeats the frames
//! between the lead-in end and the lead-out start (the whole clip without them); a playback
//! that stops looping runs on through the lead-out. Sampling is allocation-free. Verified by
//! the closed-form unit tests below and `sinew-formats/tests/all/inochi2d_anim.rs`.

use crate::ids::ParamId;

/// How a lane interpolates between keyframes.
///
/// Owner: parameter animation (step 1 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaneInterp {
    /// The nearer key: the end value once past half way.
    Nearest,
    /// Holds the start key's value until the next key.
    Stepped,
    /// Straight line.
    Linear,
    /// Uniform Catmull-Rom through the neighbouring keys.
    Cubic,
    /// Hermite-eased lerp shaped by the end key's tension.
    Bezier,
}

impl LaneInterp {
    /// Parses Inochi2D's name (`Nearest`, `Stepped`, `Linear`, `Cubic`, `Bezier`).
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "Nearest" => LaneInterp::Nearest,
            "Stepped" => LaneInterp::Stepped,
            "Linear" => LaneInterp::Linear,
            "Cubic" => LaneInterp::Cubic,
            "Bezier" => LaneInterp::Bezier,
            _ => return None,
        })
    }
}

/// How a lane's value combines with the parameter's value (Inochi2D's `merge_mode`).
///
/// Owner: parameter animation (step 1 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LaneMerge {
    /// Follows the animation: additive animations add, the others replace.
    #[default]
    Passthrough,
    /// Replaces the value, blended by weight.
    Weighted,
    /// Replaces the value (Inochi2D's overwrite; blended by weight during crossfades).
    Forced,
    /// Adds to the value.
    Additive,
    /// Multiplies the value (several lanes: by their weighted mean).
    Multiplicative,
}

impl LaneMerge {
    /// Parses Inochi2D's name (`Passthrough`, `Weighted`, `Forced`, `Additive`,
    /// `Multiplicative`).
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "Passthrough" => LaneMerge::Passthrough,
            "Weighted" => LaneMerge::Weighted,
            "Forced" => LaneMerge::Forced,
            "Additive" => LaneMerge::Additive,
            "Multiplicative" => LaneMerge::Multiplicative,
            _ => return None,
        })
    }
}

/// One keyframe.
///
/// Owner: parameter animation (step 1 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Keyframe {
    /// Frame number.
    pub frame: f32,
    /// Parameter value at that frame.
    pub value: f32,
    /// Bezier tension of the segment ending here (Inochi2D's default 0.5 is linear).
    pub tension: f32,
}

/// One lane: keyframes on one parameter axis.
///
/// Owner: parameter animation (step 1 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct AnimLane {
    /// The parameter.
    pub param: ParamId,
    /// Its component (0 = x, 1 = y).
    pub component: u8,
    /// Interpolation.
    pub interp: LaneInterp,
    /// Merge mode.
    pub merge: LaneMerge,
    /// Keyframes sorted by frame.
    pub keys: Vec<Keyframe>,
}

/// An Inochi2D animation.
///
/// Owner: parameter animation (step 1 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct ParamAnimation {
    /// Name (the key in the puppet's `animations`).
    pub name: String,
    /// Seconds per frame.
    pub timestep: f64,
    /// Length in frames.
    pub length: u32,
    /// Frame where the lead-in ends (the loop starts); `None`: no lead-in.
    pub lead_in: Option<u32>,
    /// Frame where the lead-out starts (the loop ends); `None`: no lead-out.
    pub lead_out: Option<u32>,
    /// Whether the animation adds to the parameters instead of replacing them.
    pub additive: bool,
    /// Weight of an additive animation's contribution.
    pub weight: f64,
    /// Lanes.
    pub lanes: Vec<AnimLane>,
}

impl AnimLane {
    /// The lane's value at fractional frame `f` (0 for a lane without keys).
    pub fn sample(&self, f: f64) -> f64 {
        let k = &self.keys;
        let (Some(first), Some(last)) = (k.first(), k.last()) else {
            return 0.0;
        };
        // The first key at or after f.
        let i = k.partition_point(|key| f64::from(key.frame) < f);
        if i == 0 || k.len() == 1 {
            return f64::from(first.value);
        }
        if i == k.len() {
            return f64::from(last.value);
        }
        let (a, b) = (&k[i - 1], &k[i]);
        let span = f64::from(b.frame) - f64::from(a.frame);
        // f lies in (a.frame, b.frame], so span > 0.
        let t = if span > 0.0 {
            (1.0 - (f64::from(b.frame) - f) / span).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let (va, vb) = (f64::from(a.value), f64::from(b.value));
        match self.interp {
            LaneInterp::Nearest => {
                if t > 0.5 {
                    vb
                } else {
                    va
                }
            }
            LaneInterp::Stepped => va,
            LaneInterp::Linear => va + (vb - va) * t,
            LaneInterp::Cubic => {
                // COMPAT(inochi2d): the D reference feeds keys i-1..i+2 to its cubic, a
                // window one key late (its own TODO); sinew uses i-2..i+1, the Catmull-Rom
                // window whose curve passes through every key.
                let p0 = f64::from(k[i.saturating_sub(2)].value);
                let p3 = f64::from(k[(i + 1).min(k.len() - 1)].value);
                catmull_rom(p0, va, vb, p3, t)
            }
            LaneInterp::Bezier => va + (vb - va) * bezier_ease(t, f64::from(b.tension)),
        }
    }
}

/// Uniform Catmull-Rom between `p1` (t = 0) and `p2` (t = 1).
#[inline]
pub fn catmull_rom(p0: f64, p1: f64, p2: f64, p3: f64, t: f64) -> f64 {
    let (t2, t3) = (t * t, t * t * t);
    0.5 * (2.0 * p1
        + (p2 - p0) * t
        + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2
        + (3.0 * p1 - p0 - 3.0 * p2 + p3) * t3)
}

/// The eased fraction of a Bezier segment: the Hermite cubic from 0 to 1 with both tangents
/// `2 x tension`, clamped to 0..1.
#[inline]
pub fn bezier_ease(t: f64, tension: f64) -> f64 {
    let m = 2.0 * tension;
    let (t2, t3) = (t * t, t * t * t);
    let h = (3.0 * t2 - 2.0 * t3) + m * (t3 - 2.0 * t2 + t) + m * (t3 - t2);
    h.clamp(0.0, 1.0)
}

impl ParamAnimation {
    /// Length in seconds.
    pub fn duration(&self) -> f64 {
        f64::from(self.length) * self.timestep
    }

    /// The looped frames `[begin, end)`: from the lead-in end (or 0) to the lead-out start
    /// (or the length).
    pub fn loop_frames(&self) -> (f64, f64) {
        let len = f64::from(self.length);
        let begin = self.lead_in.map_or(0.0, |f| f64::from(f).min(len));
        let end = self.lead_out.map_or(len, |f| f64::from(f).min(len));
        (begin, end)
    }

    /// The playback time `time` (seconds) after advancing it: wrapped into the loop when
    /// `looping` (once past the loop's end), else clamped to the end.
    pub fn advance(&self, time: f64, looping: bool) -> f64 {
        if self.timestep.is_nan() || self.timestep <= 0.0 || !time.is_finite() {
            return 0.0;
        }
        let f = time / self.timestep;
        let (begin, end) = self.loop_frames();
        if looping && end > begin && f >= end {
            return (begin + (f - begin).rem_euclid(end - begin)) * self.timestep;
        }
        time.clamp(0.0, self.duration())
    }

    /// The fractional frame at playback time `time` (seconds).
    pub fn frame_at(&self, time: f64) -> f64 {
        if self.timestep > 0.0 {
            time / self.timestep
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lane(interp: LaneInterp, keys: &[(f32, f32)]) -> AnimLane {
        AnimLane {
            param: ParamId(0),
            component: 0,
            interp,
            merge: LaneMerge::Passthrough,
            keys: keys
                .iter()
                .map(|&(frame, value)| Keyframe {
                    frame,
                    value,
                    tension: 0.5,
                })
                .collect(),
        }
    }

    const KEYS: [(f32, f32); 4] = [(0.0, 0.0), (10.0, 4.0), (20.0, -2.0), (30.0, 6.0)];

    #[test]
    fn linear_midpoints_and_ends() {
        let l = lane(LaneInterp::Linear, &KEYS);
        assert_eq!(l.sample(5.0), 2.0);
        assert_eq!(l.sample(15.0), 1.0);
        assert!((l.sample(22.5) - 0.0).abs() < 1e-12);
        assert_eq!(l.sample(-3.0), 0.0);
        assert_eq!(l.sample(99.0), 6.0);
        for (f, v) in KEYS {
            assert_eq!(l.sample(f64::from(f)), f64::from(v));
        }
    }

    #[test]
    fn stepped_holds_and_nearest_switches_after_half() {
        let s = lane(LaneInterp::Stepped, &KEYS);
        assert_eq!(s.sample(0.01), 0.0);
        assert_eq!(s.sample(9.99), 0.0);
        // As in the reference, a key takes over just after its own frame.
        assert_eq!(s.sample(10.0), 0.0);
        assert_eq!(s.sample(10.01), 4.0);
        assert_eq!(s.sample(19.0), 4.0);
        let n = lane(LaneInterp::Nearest, &KEYS);
        assert_eq!(n.sample(4.9), 0.0);
        assert_eq!(n.sample(5.0), 0.0); // exactly half way still holds
        assert_eq!(n.sample(5.1), 4.0);
        assert_eq!(n.sample(15.01), -2.0);
    }

    #[test]
    fn catmull_rom_passes_through_keys_and_matches_closed_form() {
        let c = lane(LaneInterp::Cubic, &KEYS);
        for (f, v) in KEYS {
            assert!((c.sample(f64::from(f)) - f64::from(v)).abs() < 1e-12);
        }
        // Segment 10..20 at t = 0.5: (-p0 + 9 p1 + 9 p2 - p3) / 16.
        let want = (-0.0 + 9.0 * 4.0 + 9.0 * -2.0 - 6.0) / 16.0;
        assert!((c.sample(15.0) - want).abs() < 1e-12);
        // First segment clamps p0 to key 0: (-0 + 0 + 9*4 - (-2)) / 16 at t = 0.5.
        assert!((c.sample(5.0) - 38.0 / 16.0).abs() < 1e-12);
        // Collinear keys reproduce the line.
        let line = lane(
            LaneInterp::Cubic,
            &[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (3.0, 3.0)],
        );
        assert!((line.sample(1.3) - 1.3).abs() < 1e-12);
    }

    #[test]
    fn bezier_tension_endpoints_symmetry_and_clamp() {
        for tension in [0.0, 0.25, 0.5, 1.0, 3.0, 10.0] {
            assert_eq!(bezier_ease(0.0, tension), 0.0);
            assert_eq!(bezier_ease(1.0, tension), 1.0);
            for t in [0.1, 0.25, 0.4] {
                let (a, b) = (bezier_ease(t, tension), bezier_ease(1.0 - t, tension));
                assert!((a + b - 1.0).abs() < 1e-12, "tension {tension} t {t}");
                assert!((0.0..=1.0).contains(&a));
            }
        }
        // Tension 0.5 is linear, 0 is smoothstep (3t^2 - 2t^3), 1 is 2t^3 - 3t^2 + 2t.
        assert!((bezier_ease(0.3, 0.5) - 0.3).abs() < 1e-12);
        assert!((bezier_ease(0.25, 0.0) - 0.15625).abs() < 1e-12);
        assert!((bezier_ease(0.25, 1.0) - 0.34375).abs() < 1e-12);
        // Tension 10 overshoots (38t^3 - 57t^2 + 20t = 2.024 at 0.2) and is clamped.
        assert_eq!(bezier_ease(0.2, 10.0), 1.0);
        assert_eq!(bezier_ease(0.8, 10.0), 0.0);
        let mut l = lane(LaneInterp::Bezier, &[(0.0, 2.0), (4.0, 6.0)]);
        l.keys[1].tension = 0.0;
        assert!((l.sample(1.0) - (2.0 + 4.0 * 0.15625)).abs() < 1e-12);
        assert!((l.sample(2.0) - 4.0).abs() < 1e-12);
    }

    #[test]
    fn single_key_and_empty_lanes() {
        assert_eq!(lane(LaneInterp::Cubic, &[(5.0, 3.0)]).sample(100.0), 3.0);
        assert_eq!(lane(LaneInterp::Linear, &[]).sample(1.0), 0.0);
    }

    fn anim(lead_in: Option<u32>, lead_out: Option<u32>) -> ParamAnimation {
        ParamAnimation {
            name: "a".into(),
            timestep: 0.1,
            length: 40,
            lead_in,
            lead_out,
            additive: false,
            weight: 1.0,
            lanes: Vec::new(),
        }
    }

    #[test]
    fn looping_with_lead_in_and_lead_out() {
        let a = anim(Some(10), Some(30));
        assert!((a.duration() - 4.0).abs() < 1e-12);
        assert_eq!(a.loop_frames(), (10.0, 30.0));
        // Inside the lead-in and the loop: unchanged.
        assert!((a.advance(0.5, true) - 0.5).abs() < 1e-12);
        assert!((a.advance(2.9, true) - 2.9).abs() < 1e-12);
        // Past the lead-out start: back to the lead-in end plus the overshoot.
        assert!((a.advance(3.2, true) - 1.2).abs() < 1e-9);
        assert!((a.advance(5.5, true) - 1.5).abs() < 1e-9); // two loops over
        // Not looping: runs through the lead-out, then holds the end.
        assert!((a.advance(3.5, false) - 3.5).abs() < 1e-12);
        assert!((a.advance(9.0, false) - 4.0).abs() < 1e-12);
        // No lead-in/out: the whole clip loops.
        let b = anim(None, None);
        assert!((b.advance(4.25, true) - 0.25).abs() < 1e-9);
        assert!((b.frame_at(0.25) - 2.5).abs() < 1e-12);
    }
}
