//! Damped springs: the closed-form oscillator, fixed-step integrators, linear and angular
//! springs, and frame-rate-independent damping helpers.
//!
//! The model is `m x'' + c x' + k x = F` (math.md §B.1): `omega0 = sqrt(k/m)`,
//! `zeta = c / (2 sqrt(k m))`. Integrators offered ([`Integrator`]):
//! - `Exact`: the step matrix `M(h)` built from the closed form, exact for a constant target
//!   and force at any step and unconditionally stable. The default for linear springs and
//!   the one jiggle bones use.
//! - `SemiImplicitEuler`: symplectic Euler with the damping taken implicitly,
//!   `v = (v + h (F - k x)/m) / (1 + h c/m); x += h v`; stable iff
//!   `h <= (gamma + sqrt(gamma^2 + 4 omega0^2)) / omega0^2`.
//! - `SymplecticEuler`: the same with explicit damping (the textbook form, for comparison);
//!   stable iff `omega0^2 h^2 + 2 gamma h <= 4` and `gamma h <= 2`.
//!
//! Verified by the unit tests below against the closed form in all damping regimes
//! (values cross-checked with `oracle/dynamics/dho_oracle.py --exact`), the error orders and
//! stability limits of math.md's table, and energy decay.

use crate::math::wrap_degrees;

/// Physical spring constants: stiffness `k` (force per unit displacement), damping `c`
/// (force per unit speed) and mass `m`.
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpringParams {
    /// Stiffness k.
    pub stiffness: f64,
    /// Damping c.
    pub damping: f64,
    /// Mass m (> 0).
    pub mass: f64,
}

impl SpringParams {
    /// Constants for a natural frequency in Hz, a damping ratio (1 = critical) and a mass.
    pub fn from_frequency(hz: f64, damping_ratio: f64, mass: f64) -> Self {
        let omega0 = std::f64::consts::TAU * hz;
        let k = mass * omega0 * omega0;
        SpringParams {
            stiffness: k,
            damping: 2.0 * damping_ratio * (k * mass).sqrt(),
            mass,
        }
    }

    /// Natural angular frequency `sqrt(k/m)`, rad/s.
    pub fn omega0(&self) -> f64 {
        (self.stiffness / self.mass).sqrt()
    }

    /// Damping ratio `c / (2 sqrt(k m))` (1 = critical).
    pub fn zeta(&self) -> f64 {
        self.damping / (2.0 * (self.stiffness * self.mass).sqrt())
    }

    /// Whether the constants are usable: finite, k >= 0, c >= 0, m > 0.
    pub fn is_valid(&self) -> bool {
        self.stiffness.is_finite()
            && self.damping.is_finite()
            && self.mass.is_finite()
            && self.stiffness >= 0.0
            && self.damping >= 0.0
            && self.mass > 0.0
    }

    /// The largest stable step of an integrator for these constants, seconds (math.md
    /// §B.1's closed forms; infinite for the exact step or when nothing limits it).
    pub fn max_stable_step(&self, integrator: Integrator) -> f64 {
        let w2 = self.stiffness / self.mass;
        let g = self.damping / self.mass;
        match integrator {
            Integrator::Exact => f64::INFINITY,
            _ if w2 <= 0.0 => {
                // Pure damping: explicit damping overshoots past gamma h = 2.
                match integrator {
                    Integrator::SymplecticEuler if g > 0.0 => 2.0 / g,
                    _ => f64::INFINITY,
                }
            }
            Integrator::SemiImplicitEuler => (g + (g * g + 4.0 * w2).sqrt()) / w2,
            Integrator::SymplecticEuler => {
                let quad = (-g + (g * g + 4.0 * w2).sqrt()) / w2;
                if g > 0.0 { quad.min(2.0 / g) } else { quad }
            }
        }
    }
}

/// A fixed-step integrator for springs.
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Integrator {
    /// The closed-form step matrix: exact for a constant target, stable at any step.
    #[default]
    Exact,
    /// Semi-implicit Euler with implicit damping.
    SemiImplicitEuler,
    /// Symplectic Euler with explicit damping.
    SymplecticEuler,
}

/// The closed-form solution of `m x'' + c x' + k x = F` from `(x0, v0)` after `t` seconds,
/// for `k > 0`, in every damping regime. Returns `(x, v)`.
pub fn closed_form(p: SpringParams, x0: f64, v0: f64, t: f64, force: f64) -> (f64, f64) {
    let w0 = p.omega0();
    let zeta = p.zeta();
    let xe = force / p.stiffness;
    let y0 = x0 - xe;
    let (y, v) = if (zeta - 1.0).abs() < 1e-9 {
        let b = v0 + w0 * y0;
        let e = (-w0 * t).exp();
        ((y0 + b * t) * e, (b - w0 * (y0 + b * t)) * e)
    } else if zeta < 1.0 {
        let wd = w0 * (1.0 - zeta * zeta).sqrt();
        let a = zeta * w0;
        let b = (v0 + a * y0) / wd;
        let e = (-a * t).exp();
        let (sn, cs) = (wd * t).sin_cos();
        (
            e * (y0 * cs + b * sn),
            e * ((-a * y0 + wd * b) * cs + (-a * b - wd * y0) * sn),
        )
    } else {
        let s = (zeta * zeta - 1.0).sqrt();
        let (r1, r2) = (-w0 * (zeta - s), -w0 * (zeta + s));
        let a = (v0 - r2 * y0) / (r1 - r2);
        let b = y0 - a;
        let (e1, e2) = ((r1 * t).exp(), (r2 * t).exp());
        (a * e1 + b * e2, a * r1 * e1 + b * r2 * e2)
    };
    (y + xe, v)
}

/// The exact step matrix `M(h)`: `(y, v)_{n+1} = M (y, v)_n` with `y = x - F/k`. Build once
/// per (constants, step); applying it costs four multiplies per component.
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactStep {
    /// `[[x(h;1,0), x(h;0,1)], [v(h;1,0), v(h;0,1)]]`.
    pub m: [[f64; 2]; 2],
    /// `m / k`: displacement of the equilibrium per unit force.
    pub compliance: f64,
}

impl ExactStep {
    /// The step matrix for constants `p` (k > 0) and step `h`. With k = 0 (no spring) the
    /// matrix is that of pure damping and `compliance` is 0 (forces are then ignored).
    pub fn new(p: SpringParams, h: f64) -> Self {
        if p.stiffness <= 0.0 {
            let g = p.damping / p.mass;
            let decay = (-g * h).exp();
            let drift = if g > 0.0 { (1.0 - decay) / g } else { h };
            return ExactStep {
                m: [[1.0, drift], [0.0, decay]],
                compliance: 0.0,
            };
        }
        let (x1, v1) = closed_form(p, 1.0, 0.0, h, 0.0);
        let (x2, v2) = closed_form(p, 0.0, 1.0, h, 0.0);
        ExactStep {
            m: [[x1, x2], [v1, v2]],
            compliance: 1.0 / p.stiffness,
        }
    }

    /// Advances an offset from equilibrium `y` and a velocity `v` by one step.
    #[inline]
    pub fn apply(&self, y: f64, v: f64) -> (f64, f64) {
        (
            self.m[0][0] * y + self.m[0][1] * v,
            self.m[1][0] * y + self.m[1][1] * v,
        )
    }
}

/// A damped linear spring pulling a scalar toward a target.
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearSpring {
    /// Constants.
    pub params: SpringParams,
    /// Position.
    pub x: f64,
    /// Velocity.
    pub v: f64,
}

impl LinearSpring {
    /// A spring at rest at `x`.
    pub fn new(params: SpringParams, x: f64) -> Self {
        LinearSpring { params, x, v: 0.0 }
    }

    /// One step of `h` seconds toward `target` with a constant external `force`.
    pub fn step(&mut self, target: f64, force: f64, h: f64, integrator: Integrator) {
        let p = self.params;
        let (x, v) = step_scalar(p, self.x - target, self.v, force, h, integrator);
        self.x = x + target;
        self.v = v;
    }
}

/// One integrator step of `m y'' + c y' + k y = F` from `(y, v)`. For the exact step build an
/// [`ExactStep`] once instead when the constants and step do not change.
pub fn step_scalar(
    p: SpringParams,
    y: f64,
    v: f64,
    force: f64,
    h: f64,
    integrator: Integrator,
) -> (f64, f64) {
    match integrator {
        Integrator::Exact => {
            let s = ExactStep::new(p, h);
            let eq = force * s.compliance;
            let (y1, v1) = s.apply(y - eq, v);
            (y1 + eq, v1)
        }
        Integrator::SemiImplicitEuler => {
            let v = (v + h * (force - p.stiffness * y) / p.mass) / (1.0 + h * p.damping / p.mass);
            (y + h * v, v)
        }
        Integrator::SymplecticEuler => {
            let v = v + h * (force - p.stiffness * y - p.damping * v) / p.mass;
            (y + h * v, v)
        }
    }
}

/// A damped angular spring: an angle in degrees pulled toward a target angle along the
/// shortest way round (the difference is wrapped to ±180°). `k` is torque per radian and `m`
/// the moment of inertia.
///
/// Owner: shared by the simulation stages (jiggle, Spine and parameter physics).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AngularSpring {
    /// Constants (per radian).
    pub params: SpringParams,
    /// Angle, degrees.
    pub angle: f64,
    /// Angular velocity, degrees per second.
    pub velocity: f64,
}

impl AngularSpring {
    /// A spring at rest at `angle` degrees.
    pub fn new(params: SpringParams, angle: f64) -> Self {
        AngularSpring {
            params,
            angle,
            velocity: 0.0,
        }
    }

    /// One step of `h` seconds toward `target` degrees with a constant torque (per radian
    /// units, i.e. N·m when k is N·m/rad).
    pub fn step(&mut self, target: f64, torque: f64, h: f64, integrator: Integrator) {
        let y = wrap_degrees(self.angle - target).to_radians();
        let (y, v) = step_scalar(
            self.params,
            y,
            self.velocity.to_radians(),
            torque,
            h,
            integrator,
        );
        self.angle = wrap_degrees(target + y.to_degrees());
        self.velocity = v.to_degrees();
    }
}

#[cfg(test)]
#[path = "spring_tests.rs"]
mod tests;
