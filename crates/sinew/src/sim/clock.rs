//! The fixed-step clock shared by every sinew simulation (springs, pendulums, jiggle bones).
//!
//! Real elapsed time goes in; an integer number of fixed steps comes out, and the remainder is
//! carried to the next frame (Fiedler, "Fix Your Timestep!"; math.md §B.1). Because the
//! simulation only ever advances by whole steps of the same length, 30, 60 and 144 fps
//! playback produce the same states at the same simulated times. The clock also
//! - caps a frame's time (`max_frame_dt`) and the steps per frame (`max_substeps`), so a
//!   hitch (a 1 s or 10 s frame) becomes brief slow motion instead of a spiral of death;
//! - treats dt = 0, negative, NaN or infinite frame times as no time (never NaN out);
//! - scales time (slow motion; 0 pauses);
//! - reports where each step falls inside the frame ([`FixedClock::step_fraction`]) so
//!   inputs can be interpolated across substeps, and how far the frame's time is past the
//!   last step ([`FixedClock::alpha`]) so display can show the state at the frame's time.
//!
//! Simulated time is `steps * step`, an integer count, never a float sum (math.md §B.5).
//! Verified by the unit tests below: step counts at 30/60/144 fps, bad-dt and hitch cases,
//! caps, time scale and the fractions.

/// Settings of a [`FixedClock`].
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClockSettings {
    /// Simulation rate, steps per second (step = 1 / `step_hz`).
    pub step_hz: f64,
    /// Most steps one frame may take; time beyond is dropped (slow motion).
    pub max_substeps: u32,
    /// Longest frame time accepted, seconds; longer frames are clamped to it.
    pub max_frame_dt: f64,
    /// Time scale: 1 normal, 0.5 slow motion, 0 paused.
    pub time_scale: f64,
}

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings {
            step_hz: 60.0,
            max_substeps: 8,
            max_frame_dt: 0.25,
            time_scale: 1.0,
        }
    }
}

/// Relative slack when comparing the accumulator with a step, so that e.g. two 1/120 s
/// frames always make one 1/60 s step despite rounding (math.md §B.5).
const STEP_SLACK: f64 = 1e-9;

/// A fixed-step clock with a carried remainder.
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, PartialEq)]
pub struct FixedClock {
    step: f64,
    max_substeps: u32,
    max_frame_dt: f64,
    time_scale: f64,
    /// Scaled time carried to the next frame, in `[0, step)`.
    remainder: f64,
    /// Steps taken since the last reset.
    steps: u64,
    /// The last frame's scaled time and remainder before it (for the step fractions).
    frame_time: f64,
    frame_start_remainder: f64,
}

impl FixedClock {
    /// A clock at rest. Non-finite or non-positive settings fall back to the defaults.
    pub fn new(settings: ClockSettings) -> Self {
        let d = ClockSettings::default();
        let pos = |v: f64, def: f64| if v.is_finite() && v > 0.0 { v } else { def };
        FixedClock {
            step: 1.0 / pos(settings.step_hz, d.step_hz),
            max_substeps: settings.max_substeps.max(1),
            max_frame_dt: pos(settings.max_frame_dt, d.max_frame_dt),
            time_scale: sanitize_scale(settings.time_scale),
            remainder: 0.0,
            steps: 0,
            frame_time: 0.0,
            frame_start_remainder: 0.0,
        }
    }

    /// The fixed step, seconds.
    #[inline]
    pub fn step(&self) -> f64 {
        self.step
    }

    /// Changes the step (level of detail); the carried remainder is kept below the new step.
    pub fn set_step(&mut self, step: f64) {
        if step.is_finite() && step > 0.0 {
            self.step = step;
            self.remainder = self.remainder.min(step * (1.0 - STEP_SLACK)).max(0.0);
        }
    }

    /// Most steps per frame.
    #[inline]
    pub fn max_substeps(&self) -> u32 {
        self.max_substeps
    }

    /// Sets the most steps per frame (at least 1).
    pub fn set_max_substeps(&mut self, n: u32) {
        self.max_substeps = n.max(1);
    }

    /// Sets the time scale (0 pauses; negative or NaN counts as 0).
    pub fn set_time_scale(&mut self, scale: f64) {
        self.time_scale = sanitize_scale(scale);
    }

    /// The time scale.
    #[inline]
    pub fn time_scale(&self) -> f64 {
        self.time_scale
    }

    /// Steps taken since the last reset.
    #[inline]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Simulated time since the last reset, seconds (`steps * step`: no float drift).
    #[inline]
    pub fn time(&self) -> f64 {
        self.steps as f64 * self.step
    }

    /// Forgets the remainder and the step count.
    pub fn reset(&mut self) {
        self.remainder = 0.0;
        self.steps = 0;
        self.frame_time = 0.0;
        self.frame_start_remainder = 0.0;
    }

    /// Adds a frame of `dt` real seconds and returns how many fixed steps to take now.
    /// Bad frame times (NaN, infinite, negative) count as 0; long ones are clamped to
    /// `max_frame_dt`; steps beyond `max_substeps` are dropped with their time.
    pub fn advance(&mut self, dt: f64) -> u32 {
        let dt = if dt.is_finite() && dt > 0.0 {
            dt.min(self.max_frame_dt)
        } else {
            0.0
        };
        let scaled = dt * self.time_scale;
        self.frame_time = scaled;
        self.frame_start_remainder = self.remainder;
        let mut acc = self.remainder + scaled;
        let mut n = 0u32;
        let slack = self.step * STEP_SLACK;
        while acc >= self.step - slack {
            if n == self.max_substeps {
                // Spiral-of-death guard: drop the excess whole steps, keep the fraction.
                acc %= self.step;
                break;
            }
            acc -= self.step;
            n += 1;
        }
        self.remainder = acc.clamp(0.0, self.step * (1.0 - STEP_SLACK));
        self.steps += u64::from(n);
        n
    }

    /// Where step `j` (0-based) of the last [`advance`](Self::advance) falls in that frame:
    /// 0 at the frame's start, 1 at its end. Inputs sampled at the previous and current
    /// frame are interpolated with it, so every frame rate feeds a step the same input.
    pub fn step_fraction(&self, j: u32) -> f64 {
        if self.frame_time <= 0.0 {
            return 1.0;
        }
        let t = f64::from(j + 1) * self.step - self.frame_start_remainder;
        (t / self.frame_time).clamp(0.0, 1.0)
    }

    /// How far the frame's time is past the last step, as a fraction of a step, in
    /// `[0, 1)`: 0 on the step grid (the last step is at the frame's time). Display uses it
    /// to show the state at the frame's own time: the last step when it is 0, otherwise the
    /// last step advanced by this fraction of a step (never a step behind).
    #[inline]
    pub fn alpha(&self) -> f64 {
        (self.remainder / self.step).clamp(0.0, 1.0)
    }
}

impl Default for FixedClock {
    /// A clock with the default settings (60 Hz, 8 substeps, 0.25 s frame cap).
    fn default() -> Self {
        FixedClock::new(ClockSettings::default())
    }
}

fn sanitize_scale(s: f64) -> f64 {
    if s.is_finite() && s > 0.0 { s } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(hz: f64) -> FixedClock {
        FixedClock::new(ClockSettings {
            step_hz: hz,
            ..Default::default()
        })
    }

    /// Total steps after `frames` frames of 1/fps.
    fn steps_after(fps: f64, frames: u32) -> u64 {
        let mut c = clock(60.0);
        for _ in 0..frames {
            c.advance(1.0 / fps);
        }
        c.steps()
    }

    #[test]
    fn same_step_count_at_30_60_144_fps() {
        // One second of frames at each rate makes exactly 60 steps of 1/60 s.
        assert_eq!(steps_after(30.0, 30), 60);
        assert_eq!(steps_after(60.0, 60), 60);
        assert_eq!(steps_after(144.0, 144), 60);
        // Ten seconds: no drift in the count.
        assert_eq!(steps_after(144.0, 1440), 600);
        assert_eq!(steps_after(30.0, 300), 600);
    }

    #[test]
    fn two_half_steps_make_one_step() {
        let mut c = clock(60.0);
        assert_eq!(c.advance(1.0 / 120.0), 0);
        assert!((c.alpha() - 0.5).abs() < 1e-9);
        assert_eq!(c.advance(1.0 / 120.0), 1);
        assert!(c.alpha() < 1e-6);
    }

    #[test]
    fn bad_dt_is_no_time() {
        let mut c = clock(60.0);
        for dt in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0] {
            assert_eq!(c.advance(dt), 0, "dt {dt}");
            assert!(c.alpha().is_finite());
            assert!(c.step_fraction(0).is_finite());
        }
        assert_eq!(c.steps(), 0);
        assert_eq!(c.time(), 0.0);
    }

    #[test]
    fn hitches_are_capped() {
        let mut c = clock(60.0);
        // 1 s and 10 s frames: clamped to 0.25 s = 15 steps, then capped at 8.
        assert_eq!(c.advance(1.0), 8);
        assert_eq!(c.advance(10.0), 8);
        assert!(c.alpha() >= 0.0 && c.alpha() < 1.0);
        // Normal frames afterwards take one step each again.
        let mut total = 0;
        for _ in 0..60 {
            total += c.advance(1.0 / 60.0);
        }
        assert!((59..=61).contains(&total), "{total}");
    }

    #[test]
    fn time_scale_and_pause() {
        let mut c = clock(60.0);
        c.set_time_scale(0.5);
        let n: u32 = (0..60).map(|_| c.advance(1.0 / 60.0)).sum();
        assert_eq!(n, 30);
        c.set_time_scale(0.0);
        assert_eq!(c.advance(1.0 / 60.0), 0);
        c.set_time_scale(f64::NAN);
        assert_eq!(c.time_scale(), 0.0);
    }

    #[test]
    fn step_fractions_place_steps_inside_the_frame() {
        let mut c = clock(60.0);
        assert_eq!(c.advance(1.0 / 30.0), 2);
        assert!((c.step_fraction(0) - 0.5).abs() < 1e-12);
        assert!((c.step_fraction(1) - 1.0).abs() < 1e-12);
        // 144 fps: a step lands 1/60 - 2/144 s after the third frame starts.
        let mut c = clock(60.0);
        c.advance(1.0 / 144.0);
        c.advance(1.0 / 144.0);
        assert_eq!(c.advance(1.0 / 144.0), 1);
        let expected = (1.0 / 60.0 - 2.0 / 144.0) * 144.0;
        assert!((c.step_fraction(0) - expected).abs() < 1e-9);
    }

    #[test]
    fn time_is_an_integer_count() {
        let mut c = clock(60.0);
        for _ in 0..6 {
            c.advance(1.0 / 60.0);
        }
        assert_eq!(c.steps(), 6);
        assert_eq!(c.time(), 6.0 * (1.0 / 60.0));
        c.reset();
        assert_eq!(c.steps(), 0);
    }

    #[test]
    fn bad_settings_fall_back() {
        let c = FixedClock::new(ClockSettings {
            step_hz: f64::NAN,
            max_substeps: 0,
            max_frame_dt: -1.0,
            time_scale: -2.0,
        });
        assert!((c.step() - 1.0 / 60.0).abs() < 1e-15);
        assert_eq!(c.max_substeps(), 1);
        assert_eq!(c.time_scale(), 0.0);
    }
}
