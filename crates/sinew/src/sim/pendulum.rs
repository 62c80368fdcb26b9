//! Rigid and spring pendulums, as Live2D Cubism and Inochi2D drive parameters with them
//! (math.md §B.2): a bob hangs from a moving anchor under gravity; its angle (and, for the
//! spring pendulum, its length) is the output, mapped and scaled.
//!
//! Parameters follow Inochi2D's physical form: `length` (units), `gravity` (units/s²),
//! `angle_damping` as a ratio of the critical rate `2 sqrt(g/L)`, and for the spring pendulum
//! a length spring of `frequency` Hz (`k = (2 pi f)^2` per unit mass) with `length_damping` as
//! a ratio of `2 sqrt(k)`. Output maps: angle/length, x/y, and the swapped forms.
//!
//! Integration is in world space on the fixed step: gravity and the spring act on the bob's
//! velocity, damping acts implicitly on the bob's velocity *relative to the anchor* (so a
//! steadily moving anchor is not braked), and the rigid pendulum projects the bob back to
//! its length and takes its velocity from the projected motion (position-based, as Cubism
//! does), which is how anchor motion swings it. Steps longer than the spring's stability
//! limit are split; a non-finite state resets to rest (as Inochi2D reverts it).
//!
//! Verified by the unit tests below: the small-angle motion against the closed-form damped
//! oscillator (`omega0 = sqrt(g/L)`, zeta = `angle_damping`), exact length for the rigid
//! form, the spring form's static stretch `g / k`, and bad input.

use crate::math::Vec2;
use crate::sim::spring::SpringParams;
#[cfg(test)]
use crate::sim::spring::closed_form;
use crate::sim::vec::SimVec;

/// Rigid rod or spring.
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PendulumKind {
    /// Fixed length.
    #[default]
    Rigid,
    /// The length is a damped spring.
    Spring,
}

/// How the pendulum's state maps to its two outputs.
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PendulumMap {
    /// `[angle in degrees from hanging straight down, length / rest length - 1]`.
    #[default]
    AngleLength,
    /// `[length / rest length - 1, angle]`.
    LengthAngle,
    /// `[x, y]` of the bob's offset from its rest point, in rest lengths, x to the right of
    /// "down" and y against gravity.
    Xy,
    /// `[y, x]`.
    Yx,
}

/// Pendulum parameters.
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PendulumParams {
    /// Rest length, units.
    pub length: f64,
    /// Gravity, units/s².
    pub gravity: f64,
    /// Angle damping as a ratio of critical damping `2 sqrt(g / L)`.
    pub angle_damping: f64,
    /// Length damping as a ratio of critical damping `2 sqrt(k)` (spring only).
    pub length_damping: f64,
    /// Length spring frequency, Hz (spring only).
    pub frequency: f64,
    /// Output scales.
    pub output_scale: [f64; 2],
    /// Output mapping.
    pub map: PendulumMap,
}

impl Default for PendulumParams {
    fn default() -> Self {
        PendulumParams {
            length: 100.0,
            gravity: 980.0,
            angle_damping: 0.5,
            length_damping: 0.5,
            frequency: 2.0,
            output_scale: [1.0, 1.0],
            map: PendulumMap::AngleLength,
        }
    }
}

/// Most internal substeps one [`Pendulum::step`] splits into.
const MAX_SPLIT: u32 = 64;

/// Rates derived from the parameters, computed when they are set rather than every step.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rates {
    /// The longest step integrated in one go (90% of the stable limit).
    limit: f64,
    /// Angle damping rate, 1/s.
    angle: f64,
    /// Length spring stiffness (spring only).
    k: f64,
    /// Length damping rate, 1/s (spring only).
    length: f64,
}

/// A pendulum's state.
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, PartialEq)]
pub struct Pendulum {
    /// Rigid or spring.
    pub kind: PendulumKind,
    params: PendulumParams,
    /// The parameters as last given to `set_params` (before sanitising).
    given: PendulumParams,
    rates: Rates,
    anchor: Vec2,
    bob: Vec2,
    vel: Vec2,
    down: Vec2,
}

impl Pendulum {
    /// A pendulum hanging at rest from `anchor`, gravity along `down` (normalised).
    pub fn new(kind: PendulumKind, params: PendulumParams, anchor: Vec2, down: Vec2) -> Self {
        let given = params;
        let params = sanitize(params);
        let mut p = Pendulum {
            kind,
            params,
            given,
            rates: rates(kind, &params),
            anchor,
            bob: anchor,
            vel: Vec2::ZERO,
            down: Vec2::new(0.0, -1.0),
        };
        p.reset(anchor, down);
        p
    }

    /// Its parameters.
    pub fn params(&self) -> &PendulumParams {
        &self.params
    }

    /// Sets its parameters (unusable values replaced by the defaults).
    pub fn set_params(&mut self, params: PendulumParams) {
        // Drivers set the same parameters every frame: compare before sanitising.
        if params == self.given {
            return;
        }
        self.given = params;
        self.params = sanitize(params);
        self.rates = rates(self.kind, &self.params);
    }

    /// Puts the bob at rest below `anchor`.
    pub fn reset(&mut self, anchor: Vec2, down: Vec2) {
        self.down = down.normalize_or(Vec2::new(0.0, -1.0));
        self.anchor = if anchor.is_finite() {
            anchor
        } else {
            Vec2::ZERO
        };
        let stretch = match self.kind {
            PendulumKind::Rigid => 0.0,
            PendulumKind::Spring => self.params.gravity / self.spring_k(),
        };
        self.bob = self.anchor + self.down * (self.params.length + stretch);
        self.vel = Vec2::ZERO;
    }

    /// The bob's world position.
    pub fn bob(&self) -> Vec2 {
        self.bob
    }

    /// The bob's world velocity.
    pub fn velocity(&self) -> Vec2 {
        self.vel
    }

    /// Sets the bob's velocity (an impulse).
    pub fn set_velocity(&mut self, v: Vec2) {
        if v.is_finite() {
            self.vel = v;
        }
    }

    /// Signed angle from "down" to the rod, degrees (counter-clockwise positive).
    pub fn angle(&self) -> f64 {
        let d = self.bob - self.anchor;
        self.down.cross(d).atan2(self.down.dot(d)).to_degrees()
    }

    /// Current length over rest length.
    pub fn length_ratio(&self) -> f64 {
        (self.bob - self.anchor).length() / self.params.length
    }

    /// The two outputs, mapped and scaled.
    pub fn output(&self) -> [f64; 2] {
        let s = self.params.output_scale;
        let rest = self.anchor + self.down * self.params.length;
        let off = (self.bob - rest) * (1.0 / self.params.length);
        let right = self.down.perp();
        let (x, y) = (off.dot(right), -off.dot(self.down));
        let (a, l) = (self.angle(), self.length_ratio() - 1.0);
        let [o0, o1] = match self.params.map {
            PendulumMap::AngleLength => [a, l],
            PendulumMap::LengthAngle => [l, a],
            PendulumMap::Xy => [x, y],
            PendulumMap::Yx => [y, x],
        };
        [o0 * s[0], o1 * s[1]]
    }

    fn spring_k(&self) -> f64 {
        spring_k(&self.params)
    }

    /// The longest step the length spring integrates stably (infinite for a rigid rod).
    pub fn max_stable_step(&self) -> f64 {
        max_stable_step(self.kind, &self.params)
    }

    /// Advances one fixed step of `h` seconds with the anchor now at `anchor` (moved
    /// linearly from its previous position during the step).
    pub fn step(&mut self, anchor: Vec2, h: f64) {
        if !(h.is_finite() && h > 0.0 && anchor.is_finite()) {
            return;
        }
        let limit = self.rates.limit;
        // Beyond MAX_SPLIT stable substeps the rest of the step is dropped (slow motion).
        let h = h.min(limit * f64::from(MAX_SPLIT));
        let n = if h > limit {
            ((h / limit).ceil() as u32).clamp(1, MAX_SPLIT)
        } else {
            1
        };
        let sub = h / f64::from(n);
        let start = self.anchor;
        for i in 1..=n {
            let a = start.lerp(anchor, f64::from(i) / f64::from(n));
            self.substep(a, sub);
        }
        if !(self.bob.is_finite() && self.vel.is_finite()) {
            self.reset(anchor, self.down);
        }
    }

    fn substep(&mut self, anchor: Vec2, h: f64) {
        let p = self.params;
        let anchor_vel = (anchor - self.anchor) * (1.0 / h);
        self.anchor = anchor;
        let old = self.bob;
        let d = self.bob - anchor;
        let n = d.normalize_or(self.down);
        let t = n.perp();
        let ang_rate = self.rates.angle;
        let mut vel = self.vel + self.down * (p.gravity * h);
        let mut len_rate = 0.0;
        if self.kind == PendulumKind::Spring {
            let k = self.rates.k;
            vel = vel - n * (k * (d.length() - p.length) * h);
            len_rate = self.rates.length;
        }
        // Implicit damping of the velocity relative to the anchor, per direction.
        let rel = vel - anchor_vel;
        let rt = rel.dot(t) * (1.0 - 1.0 / (1.0 + h * ang_rate));
        let rn = rel.dot(n) * (1.0 - 1.0 / (1.0 + h * len_rate));
        vel = vel - t * rt - n * rn;
        let mut bob = self.bob + vel * h;
        match self.kind {
            PendulumKind::Rigid => {
                bob = anchor + (bob - anchor).normalize_or(n) * p.length;
                vel = (bob - old) * (1.0 / h);
            }
            PendulumKind::Spring => {
                // Never let the bob pass through the anchor.
                let r = (bob - anchor).length();
                let min = 0.05 * p.length;
                if r < min {
                    bob = anchor + (bob - anchor).normalize_or(n) * min;
                }
            }
        }
        self.bob = bob;
        self.vel = vel;
    }
}

/// The length spring's stiffness for `p`.
fn spring_k(p: &PendulumParams) -> f64 {
    let w = std::f64::consts::TAU * p.frequency;
    w * w
}

/// The longest step the length spring integrates stably (infinite for a rigid rod).
fn max_stable_step(kind: PendulumKind, p: &PendulumParams) -> f64 {
    match kind {
        PendulumKind::Rigid => f64::INFINITY,
        PendulumKind::Spring => {
            let k = spring_k(p);
            let sp = SpringParams {
                stiffness: k,
                damping: p.length_damping * 2.0 * k.sqrt(),
                mass: 1.0,
            };
            sp.max_stable_step(crate::sim::spring::Integrator::SemiImplicitEuler)
        }
    }
}

/// The rates of a pendulum of `kind` with parameters `p` (the arithmetic `substep` did
/// itself before, so results are unchanged).
fn rates(kind: PendulumKind, p: &PendulumParams) -> Rates {
    let k = spring_k(p);
    Rates {
        limit: max_stable_step(kind, p) * 0.9,
        angle: p.angle_damping * 2.0 * (p.gravity.max(0.0) / p.length).sqrt(),
        k,
        length: p.length_damping * 2.0 * k.sqrt(),
    }
}

/// Replaces unusable parameters by the defaults.
fn sanitize(mut p: PendulumParams) -> PendulumParams {
    let d = PendulumParams::default();
    let fix = |v: f64, def: f64, min: f64| if v.is_finite() && v >= min { v } else { def };
    p.length = if p.length.is_finite() && p.length > 0.0 {
        p.length
    } else {
        d.length
    };
    p.gravity = fix(p.gravity, d.gravity, 0.0);
    p.angle_damping = fix(p.angle_damping, d.angle_damping, 0.0);
    p.length_damping = fix(p.length_damping, d.length_damping, 0.0);
    p.frequency = if p.frequency.is_finite() && p.frequency > 0.0 {
        p.frequency
    } else {
        d.frequency
    };
    p
}

/// The small-angle closed form of a rigid pendulum's angle (degrees) at `t` from rest at
/// `theta0` degrees: a damped oscillator with `omega0 = sqrt(g/L)`, `zeta = angle_damping`
/// (the oracle of the pendulum tests).
#[cfg(test)]
fn small_angle_closed_form(p: &PendulumParams, theta0: f64, t: f64) -> f64 {
    let w2 = p.gravity / p.length;
    let sp = SpringParams {
        stiffness: w2,
        damping: p.angle_damping * 2.0 * w2.sqrt(),
        mass: 1.0,
    };
    closed_form(sp, theta0, 0.0, t, 0.0).0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn released(kind: PendulumKind, params: PendulumParams, deg: f64) -> Pendulum {
        let mut p = Pendulum::new(kind, params, Vec2::ZERO, Vec2::new(0.0, -1.0));
        let r = deg.to_radians();
        let l = (p.bob - p.anchor).length();
        p.bob = Vec2::new(r.sin() * l, -r.cos() * l);
        p
    }

    #[test]
    fn small_angles_follow_the_damped_oscillator() {
        for zeta in [0.0, 0.1, 0.5] {
            let params = PendulumParams {
                length: 100.0,
                gravity: 980.0,
                angle_damping: zeta,
                ..Default::default()
            };
            let mut p = released(PendulumKind::Rigid, params, 2.0);
            let h = 1.0 / 600.0;
            let mut worst: f64 = 0.0;
            for i in 1..=600 {
                p.step(Vec2::ZERO, h);
                let want = small_angle_closed_form(&params, 2.0, f64::from(i) * h);
                worst = worst.max((p.angle() - want).abs());
                assert!((p.length_ratio() - 1.0).abs() < 1e-12);
            }
            // First-order method at 600 Hz over 1 s (about 1.6 periods): within 3% of 2°.
            assert!(worst < 0.06, "zeta {zeta}: {worst}");
        }
    }

    #[test]
    fn damped_pendulum_settles_and_energy_falls() {
        let params = PendulumParams::default();
        let mut p = released(PendulumKind::Rigid, params, 60.0);
        let mut peak_prev = f64::INFINITY;
        for _ in 0..10 {
            let mut peak: f64 = 0.0;
            for _ in 0..60 {
                p.step(Vec2::ZERO, 1.0 / 60.0);
                peak = peak.max(p.angle().abs());
            }
            assert!(peak <= peak_prev + 1e-9, "{peak} > {peak_prev}");
            peak_prev = peak;
        }
        assert!(p.angle().abs() < 0.5, "{}", p.angle());
    }

    #[test]
    fn moving_anchor_swings_the_bob() {
        let mut p = Pendulum::new(
            PendulumKind::Rigid,
            PendulumParams::default(),
            Vec2::ZERO,
            Vec2::new(0.0, -1.0),
        );
        // Anchor jerks right: the bob lags, so the rod swings to negative angles (bob left of
        // down is clockwise from down: negative).
        p.step(Vec2::new(20.0, 0.0), 1.0 / 60.0);
        assert!(p.angle() < -5.0, "{}", p.angle());
        let out = p.output();
        assert_eq!(out[0], p.angle());
    }

    #[test]
    fn spring_pendulum_stretches_by_g_over_k() {
        let params = PendulumParams {
            frequency: 3.0,
            length_damping: 1.0,
            angle_damping: 1.0,
            ..Default::default()
        };
        let mut p = Pendulum::new(
            PendulumKind::Spring,
            params,
            Vec2::ZERO,
            Vec2::new(0.0, -1.0),
        );
        // Start unstretched and let it settle.
        p.bob = Vec2::new(0.0, -100.0);
        for _ in 0..600 {
            p.step(Vec2::ZERO, 1.0 / 60.0);
        }
        let k = (std::f64::consts::TAU * 3.0).powi(2);
        let want = 1.0 + 980.0 / k / 100.0;
        assert!(
            (p.length_ratio() - want).abs() < 1e-6,
            "{} {want}",
            p.length_ratio()
        );
        let [_, l] = p.output();
        assert!((l - (want - 1.0)).abs() < 1e-6);
    }

    #[test]
    fn long_steps_are_split_and_bad_input_ignored() {
        let params = PendulumParams {
            frequency: 20.0,
            ..Default::default()
        };
        let mut p = released(PendulumKind::Spring, params, 30.0);
        for dt in [0.5, 10.0, f64::NAN, -1.0, 0.0] {
            p.step(Vec2::new(5.0, 0.0), dt);
            assert!(p.bob().is_finite() && p.velocity().is_finite());
            assert!(p.length_ratio() < 3.0, "{}", p.length_ratio());
        }
        p.step(Vec2::new(f64::NAN, 0.0), 1.0 / 60.0);
        assert!(p.bob().is_finite());
    }

    #[test]
    fn output_maps() {
        let params = PendulumParams {
            output_scale: [2.0, 3.0],
            map: PendulumMap::Xy,
            ..Default::default()
        };
        let mut p = released(PendulumKind::Rigid, params, 90.0);
        // Bob at (100, 0): x offset +1 rest length, y offset +1 (against gravity).
        let [x, y] = p.output();
        assert!(
            (x - 2.0).abs() < 1e-12 && (y - 3.0).abs() < 1e-12,
            "{x} {y}"
        );
        p.set_params(PendulumParams {
            map: PendulumMap::Yx,
            ..*p.params()
        });
        // Scales apply per output slot.
        let [y2, x2] = p.output();
        assert!((y2 - 2.0).abs() < 1e-12 && (x2 - 3.0).abs() < 1e-12);
        p.set_params(PendulumParams {
            map: PendulumMap::LengthAngle,
            ..*p.params()
        });
        let [l, a] = p.output();
        assert!(l.abs() < 1e-12 && (a - 90.0 * 3.0).abs() < 1e-9, "{l} {a}");
    }
}
