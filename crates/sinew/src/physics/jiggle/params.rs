//! Jiggle parameters: the two models, their constants, limits, validation, and the
//! per-step coefficients derived from them once for a fixed step.
//!
//! Units: lengths in world units (rig units for 2D, whatever the engine uses in 3D), time in
//! seconds, angles in degrees. See the module docs of [`super`] for what each model does.

use crate::sim::spring::{ExactStep, SpringParams};

/// Which integrator and force model a chain uses.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum JiggleModel {
    /// Physical springs (stiffness, damping, mass) on the bone tip, and optionally on the
    /// bone origin, integrated with the exact step: frame-rate independent, unconditionally
    /// stable, matching the closed-form damped oscillator in its linear regime.
    #[default]
    Spring,
    /// VRM SpringBone 1.0 semantics (position Verlet with per-step drag, a constant-speed
    /// pull toward the rest direction, gravity power); matches three-vrm at the same step.
    Verlet,
    /// An angular spring-damper on the bone's rotation toward its target direction (the
    /// driver's rotation): `stiffness` is torque per radian, `damping` torque per rad/s,
    /// `mass` the moment of inertia; exact step, so the angle from the target follows the
    /// closed-form damped oscillator at any angle. The bone keeps its world orientation when
    /// its parent turns (and the spring pulls it back); moving the parent without turning it
    /// swings nothing. Gravity, wind and quadratic drag do not act on it.
    Angular,
    /// The cheapest: the tip moves the fraction `1 - exp(-stiffness h)` of the way to its
    /// target each step (`stiffness` read as a rate, 1/s): no velocity, no overshoot, no
    /// gravity; `y(t) = y0 exp(-stiffness t)` exactly on the step grid.
    Lerp,
}

/// One chain's parameters.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JiggleParams {
    /// Model.
    pub model: JiggleModel,
    /// Spring: tip stiffness k (force per unit displacement). Verlet: VRM `stiffness`.
    pub stiffness: f64,
    /// Spring: tip damping c (force per unit speed).
    pub damping: f64,
    /// Spring: tip (and origin) mass m.
    pub mass: f64,
    /// Verlet: VRM `dragForce`, the velocity fraction lost per step (0..1).
    pub drag: f64,
    /// Spring: origin stiffness (0: the origin stays on its target; soft tissue uses > 0).
    pub translate_stiffness: f64,
    /// Spring: origin damping.
    pub translate_damping: f64,
    /// Largest distance of the origin from its target, world units.
    pub max_offset: f64,
    /// Largest change of the bone's length, as a fraction of it (0: rigid length).
    pub max_stretch: f64,
    /// Largest angle between the bone and its target direction, degrees (180: free).
    pub max_angle: f64,
    /// Gravity scale (Spring: times the environment gravity acceleration; Verlet: VRM
    /// `gravityPower` along the environment gravity's direction).
    pub gravity: f64,
    /// Wind scale (Spring: times the environment wind acceleration; Verlet: as gravity power,
    /// relative to the environment gravity's magnitude).
    pub wind: f64,
    /// Extra speed-dependent (quadratic) damping: force `-q |v| v` (0: off).
    pub velocity_damping: f64,
    /// Radius of the tip for collisions, world units (VRM `hitRadius`).
    pub hit_radius: f64,
    /// Initial strength, 0..1: 0 shows the animated pose, 1 the full simulation.
    pub strength: f64,
    /// Verlet: world units per VRM metre (scales the stiffness pull and gravity).
    pub unit_scale: f64,
    /// Verlet: take each segment's length from the child's previous-step position as
    /// three-vrm 3.5.5 does (COMPAT(vrm)), instead of the rest length the spec describes.
    pub vrm_stale_length: bool,
    /// Stiffness and damping as a curve of the driver's speed ([`SpeedCurve::OFF`]: none).
    pub speed: SpeedCurve,
}

/// Stiffness and damping factors as a curve of the driver's speed (the chain root's
/// animated origin, world units per second, measured over each frame): 1 at or below
/// `from`, `stiffness` and `damping` at or above `to`, and in between the smoothstep
/// `u^2 (3 - 2u)` of `u = (speed - from) / (to - from)` (the step at `from` when `to <=
/// from`). E.g. stiffer and more damped at a walk than at a run, or the other way round.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpeedCurve {
    /// Speed where the curve leaves 1, world units/s.
    pub from: f64,
    /// Speed where it reaches the factors, world units/s.
    pub to: f64,
    /// Stiffness factor at `to` and above (0.001..1000).
    pub stiffness: f64,
    /// Damping factor at `to` and above (0..1000).
    pub damping: f64,
}

impl SpeedCurve {
    /// No change at any speed.
    pub const OFF: SpeedCurve = SpeedCurve {
        from: 0.0,
        to: 0.0,
        stiffness: 1.0,
        damping: 1.0,
    };

    /// Whether the curve changes nothing.
    pub fn is_off(&self) -> bool {
        self.stiffness == 1.0 && self.damping == 1.0
    }

    /// The stiffness and damping factors at `speed`.
    pub fn factors(&self, speed: f64) -> (f64, f64) {
        let u = if self.to > self.from {
            ((speed - self.from) / (self.to - self.from)).clamp(0.0, 1.0)
        } else if speed >= self.from {
            1.0
        } else {
            0.0
        };
        let s = u * u * (3.0 - 2.0 * u);
        (
            1.0 + (self.stiffness - 1.0) * s,
            1.0 + (self.damping - 1.0) * s,
        )
    }

    /// Checks the values, naming the field.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.from.is_finite() && self.to.is_finite() && self.from >= 0.0 && self.to >= 0.0) {
            return Err(format!(
                "`speedCurve` speeds must be finite and >= 0 (got {}, {})",
                self.from, self.to
            ));
        }
        if !(1e-3..=1000.0).contains(&self.stiffness) {
            return Err(format!(
                "`speedCurve.stiffness` must be in 0.001..1000 (got {})",
                self.stiffness
            ));
        }
        if !(0.0..=1000.0).contains(&self.damping) {
            return Err(format!(
                "`speedCurve.damping` must be in 0..1000 (got {})",
                self.damping
            ));
        }
        Ok(())
    }
}

impl Default for SpeedCurve {
    fn default() -> Self {
        SpeedCurve::OFF
    }
}

impl Default for JiggleParams {
    fn default() -> Self {
        // A neutral hair-tip spring: 2 Hz, damping ratio 0.4, mass 1.
        let sp = SpringParams::from_frequency(2.0, 0.4, 1.0);
        JiggleParams {
            model: JiggleModel::Spring,
            stiffness: sp.stiffness,
            damping: sp.damping,
            mass: 1.0,
            drag: 0.4,
            translate_stiffness: 0.0,
            translate_damping: 0.0,
            max_offset: f64::INFINITY,
            max_stretch: 0.0,
            max_angle: 180.0,
            gravity: 0.0,
            wind: 0.0,
            velocity_damping: 0.0,
            hit_radius: 0.0,
            strength: 1.0,
            unit_scale: 1.0,
            vrm_stale_length: false,
            speed: SpeedCurve::OFF,
        }
    }
}

impl JiggleParams {
    /// VRM SpringBone joint settings (three-vrm defaults when a field is absent:
    /// stiffness 1, drag 0.4, gravity 0, hit radius 0).
    pub fn vrm(stiffness: f64, drag: f64, gravity_power: f64, hit_radius: f64) -> Self {
        JiggleParams {
            model: JiggleModel::Verlet,
            stiffness,
            drag,
            gravity: gravity_power,
            hit_radius,
            ..Default::default()
        }
    }

    /// Sets the tip spring from a natural frequency (Hz) and damping ratio (1 = critical).
    pub fn with_frequency(mut self, hz: f64, damping_ratio: f64) -> Self {
        let sp = SpringParams::from_frequency(hz, damping_ratio, self.mass);
        self.stiffness = sp.stiffness;
        self.damping = sp.damping;
        self
    }

    /// Checks every value; returns what is wrong, naming the field.
    pub fn validate(&self) -> Result<(), String> {
        let finite_nonneg = [
            ("stiffness", self.stiffness),
            ("damping", self.damping),
            ("translateStiffness", self.translate_stiffness),
            ("translateDamping", self.translate_damping),
            ("maxStretch", self.max_stretch),
            ("gravity", self.gravity),
            ("velocityDamping", self.velocity_damping),
            ("hitRadius", self.hit_radius),
            ("unitScale", self.unit_scale),
        ];
        for (name, v) in finite_nonneg {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("`{name}` must be a finite number >= 0 (got {v})"));
            }
        }
        if !self.wind.is_finite() {
            return Err(format!("`wind` must be finite (got {})", self.wind));
        }
        if !(self.mass.is_finite() && self.mass > 0.0) {
            return Err(format!("`mass` must be > 0 (got {})", self.mass));
        }
        if !(0.0..=1.0).contains(&self.drag) {
            return Err(format!("`drag` must be in 0..1 (got {})", self.drag));
        }
        if !(0.0..=1.0).contains(&self.strength) {
            return Err(format!(
                "`strength` must be in 0..1 (got {})",
                self.strength
            ));
        }
        if !(self.max_angle >= 0.0 && self.max_angle <= 180.0) {
            return Err(format!(
                "`maxAngle` must be in 0..180 degrees (got {})",
                self.max_angle
            ));
        }
        if self.max_offset.is_nan() || self.max_offset < 0.0 {
            return Err(format!(
                "`maxOffset` must be >= 0 (got {})",
                self.max_offset
            ));
        }
        if matches!(self.model, JiggleModel::Spring | JiggleModel::Angular) && self.stiffness <= 0.0
        {
            return Err("`stiffness` must be > 0 for the spring and angular models".to_owned());
        }
        self.speed.validate()?;
        Ok(())
    }

    /// The tip spring's constants.
    pub fn tip_spring(&self) -> SpringParams {
        SpringParams {
            stiffness: self.stiffness,
            damping: self.damping,
            mass: self.mass,
        }
    }

    /// The origin spring's constants.
    pub fn origin_spring(&self) -> SpringParams {
        SpringParams {
            stiffness: self.translate_stiffness,
            damping: self.translate_damping,
            mass: self.mass,
        }
    }
}

/// Coefficients of one chain for one step length, computed once (never per frame).
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepCoeffs {
    /// Step, seconds.
    pub h: f64,
    /// Exact step of the tip spring.
    pub tip: ExactStep,
    /// Exact step of the origin spring (unused when the origin is fixed).
    pub origin: ExactStep,
    /// Whether the origin is simulated.
    pub origin_free: bool,
    /// Verlet: velocity kept per step, `1 - drag` (raised to the step multiple for LOD).
    pub keep: f64,
    /// Lerp: the part of the distance to the target kept per step, `exp(-stiffness h)`.
    pub lerp_keep: f64,
    /// Verlet: stiffness pull per step, world units.
    pub pull: f64,
    /// Verlet: external displacement per step per unit acceleration direction.
    pub ext: f64,
    /// cos of the angle limit.
    pub cos_max_angle: f64,
    /// sin of the angle limit.
    pub sin_max_angle: f64,
}

impl StepCoeffs {
    /// Coefficients for `params` and a step of `h` seconds that stands for `multiple` base
    /// steps (1 normally; more for the coarse level of detail).
    pub fn new(params: &JiggleParams, h: f64, multiple: u32) -> Self {
        let tip = ExactStep::new(params.tip_spring(), h);
        let origin_free = params.translate_stiffness > 0.0;
        let origin = ExactStep::new(params.origin_spring(), h);
        let a = params.max_angle.clamp(0.0, 180.0).to_radians();
        StepCoeffs {
            h,
            tip,
            origin,
            origin_free,
            keep: (1.0 - params.drag)
                .clamp(0.0, 1.0)
                .powi(multiple.max(1) as i32),
            lerp_keep: (-params.stiffness * h).exp(),
            pull: params.stiffness * h * params.unit_scale,
            ext: h * params.unit_scale,
            cos_max_angle: a.cos(),
            sin_max_angle: a.sin(),
        }
    }

    /// Coefficients for `fraction` (0..1] of this step, for display between steps: the
    /// springs advance exactly over `fraction * h`, and the Verlet free move (inertia, pull,
    /// gravity) is that fraction of the whole step's, so `fraction = 1` is the step itself.
    pub fn partial(&self, params: &JiggleParams, fraction: f64) -> Self {
        let f = if fraction.is_finite() {
            fraction.clamp(0.0, 1.0)
        } else {
            1.0
        };
        if f == 1.0 {
            return *self;
        }
        let h = self.h * f;
        StepCoeffs {
            h,
            tip: ExactStep::new(params.tip_spring(), h),
            origin: ExactStep::new(params.origin_spring(), h),
            keep: self.keep * f,
            lerp_keep: (-params.stiffness * h).exp(),
            pull: self.pull * f,
            ext: self.ext * f,
            ..*self
        }
    }
}
