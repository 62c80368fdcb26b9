//! Pendulum chains driving parameters, in the style of Live2D Cubism's physics3 settings
//! (inochi2d.md §11): parameters in, a chain of particles, parameters out.
//!
//! A setting ([`ChainData`]) sums its weighted inputs into a root translation (X, Y) and a
//! root angle (Angle, degrees). Each input parameter is mapped into physics space through
//! the setting's normalization range (position or angle): the parameter's range middle goes
//! to `Default`, its ends to `Minimum` / `Maximum`, piecewise linearly, and the result is
//! negated unless the input reflects (COMPAT(cubism): that is the format's sign). The
//! translation is rotated by minus the angle; the angle turns the chain's gravity
//! `(sin a, cos a)` (physics space is y-down, the chain hangs along +y at rest).
//!
//! Particle 0 is the root, placed at the translation. Every later particle is moved
//! Verlet-style: its offset from the previous particle turns by a fifth of the change of
//! gravity direction (COMPAT(cubism): the format's "air resistance" 5), then it moves by
//! its velocity times `d` plus `(gravity * acceleration + wind) * d²`, with
//! `d = delay * h * 30` for a step of `h` seconds (COMPAT(cubism): delay is in 1/30 s
//! units), and is put back at exactly its radius from the previous particle. Its new
//! velocity is the move over `d`, times its mobility (1 keeps all velocity; less damps).
//! With `delay = 1/30` and mobility 1 a particle is an undamped rigid pendulum of length
//! `radius` under gravity `acceleration`: small swings have frequency `sqrt(g/L) / 2π`.
//!
//! An output reads one particle `i >= 1`: X / Y are its offset from particle `i - 1`, Angle
//! the signed angle (radians) from the previous segment (from straight down for `i = 1`)
//! to its own; negated when it reflects, times its scale, clamped to the parameter's range
//! and blended into the parameter's current value by `weight / 100` (COMPAT(cubism): the
//! format writes outputs in parameter units through `Scale` only; normalization ranges
//! apply to inputs).
//!
//! Chains step on the fixed-step clock ([`FixedClock`](crate::physics::FixedClock)) at the setting's rate
//! (physics3 `Meta.Fps`, 60 by default) with at most a quarter second of steps per frame,
//! so a hitch slows the motion and never explodes it; inputs are interpolated across a
//! frame's steps and outputs between the last two steps, so 30, 60 and 144 fps agree.
//! Non-finite parameter values read as the range middle, and a strand that ever turned
//! non-finite is put back at rest. `step_chains` runs first in
//! `character::update_params` (outputs are parameters like any other) and allocates
//! nothing. The rest pose hangs each particle at its radius below the previous one
//! (COMPAT(cubism): the file's particle positions are not used by the runtime).
//!
//! Verified by `chain_tests.rs` (rest, exact radii, swing frequency, damping, 30/60/144 fps
//! agreement, hitches, signs, non-finite input, builder errors) and
//! `crates/sinew/tests/all/chain_alloc.rs` (no allocation per frame).

pub use crate::instance::params::{ChainState, Strand};
pub use crate::raw::params::ChainSource;
use crate::raw::params::{RawChains, RawNormalization};
pub use crate::rig::params::chain::*;
use crate::rig::problem::{BuildPart, BuildProblem, Element, ProblemKind};

use crate::rig::params::{ParamData, ParamSet};

use crate::math::Vec2;
use crate::sim::vec::SimVec;

/// The chain's gravity direction for a root angle in degrees.
#[inline]
fn gravity(angle_deg: f64) -> Vec2 {
    let (s, c) = angle_deg.to_radians().sin_cos();
    Vec2::new(s, c)
}

/// Signed angle (radians, in (-π, π]) turning direction `from` onto `to`.
#[inline]
fn angle_between(from: Vec2, to: Vec2) -> f64 {
    from.cross(to).atan2(from.dot(to))
}

#[inline]
fn rotate(v: Vec2, radians: f64) -> Vec2 {
    let (s, c) = radians.sin_cos();
    Vec2::new(c * v.x - s * v.y, s * v.x + c * v.y)
}

/// The root translation and angle (degrees) `c`'s inputs give for parameter `values`.
pub fn chain_input(c: &ChainData, params: &[ParamData], values: &[[f64; 2]]) -> (Vec2, f64) {
    let (mut t, mut angle) = (Vec2::ZERO, 0.0);
    for input in &c.inputs {
        let pi = input.param.index();
        let (Some(pd), Some(v)) = (params.get(pi), values.get(pi)) else {
            continue;
        };
        let comp = usize::from(input.component.min(1));
        let norm = match input.kind {
            ChainSource::Angle => &c.angle,
            _ => &c.position,
        };
        let mut n = norm.map(pd, comp, v[comp]) * (input.weight / MAX_WEIGHT);
        if !input.reflect {
            // COMPAT(cubism): an input that does not reflect moves against its parameter.
            n = -n;
        }
        match input.kind {
            ChainSource::X => t.x += n,
            ChainSource::Y => t.y += n,
            ChainSource::Angle => angle += n,
        }
    }
    (rotate(t, (-angle).to_radians()), angle)
}

/// Puts `s` at rest: the root at `root`, each particle its radius along gravity from the
/// previous one, no velocity.
pub fn place(s: &mut Strand, c: &ChainData, root: Vec2, angle: f64) {
    let g = gravity(angle);
    let mut at = root;
    for (i, p) in c.particles.iter().enumerate() {
        if i > 0 {
            at = at + g * p.radius;
        }
        s.pos[i] = at;
        s.prev[i] = at;
        s.vel[i] = Vec2::ZERO;
        s.last_gravity[i] = g;
    }
    s.last_root = root;
    s.last_angle = angle;
}

/// Advances `s` by one step of `h` seconds with the root at `root` and angle `angle`.
pub fn step_strand(s: &mut Strand, c: &ChainData, root: Vec2, angle: f64, wind: Vec2, h: f64) {
    let n = c.particles.len().min(s.pos.len());
    s.prev[..n].copy_from_slice(&s.pos[..n]);
    if n == 0 {
        return;
    }
    let g = gravity(angle);
    s.pos[0] = root;
    for i in 1..n {
        let p = &c.particles[i];
        let last = s.pos[i];
        let anchor = s.pos[i - 1];
        let d = p.delay * h * DELAY_RATE;
        let turn = angle_between(s.last_gravity[i], g) / AIR_RESISTANCE;
        let force = g * p.acceleration + wind;
        let moved = anchor + rotate(last - anchor, turn) + s.vel[i] * d + force * (d * d);
        // Keep the rod length exactly; a degenerate direction falls back to gravity.
        s.pos[i] = anchor + (moved - anchor).normalize_or(g) * p.radius;
        if d != 0.0 {
            s.vel[i] = (s.pos[i] - last) * (p.mobility / d);
        }
        s.last_gravity[i] = g;
    }
    let ok = s.pos[..n]
        .iter()
        .chain(&s.vel[..n])
        .all(|v| SimVec::is_finite(*v));
    if !ok {
        place(s, c, root, angle);
    }
}

/// The value `o` reads from `s` (before scale and weight), with positions interpolated
/// `alpha` of the way from the step before the last to the last.
pub fn output_value(s: &Strand, o: &ChainOutput, alpha: f64) -> f64 {
    let i = usize::from(o.vertex);
    if i == 0 || i >= s.pos.len() {
        return 0.0;
    }
    let at = |k: usize| s.prev[k].lerp(s.pos[k], alpha);
    let t = at(i) - at(i - 1);
    let v = match o.kind {
        ChainSource::X => t.x,
        ChainSource::Y => t.y,
        ChainSource::Angle => {
            // COMPAT(cubism): the first segment is measured from straight down, not from
            // the root's turned gravity.
            let parent = if i >= 2 { at(i - 1) - at(i - 2) } else { DOWN };
            angle_between(parent, t)
        }
    };
    if o.reflect { -v } else { v }
}

/// Writes output value `v` (physics units) into `values` under `o`: scaled, clamped to the
/// parameter's range and blended by weight into the current value.
fn write_output(o: &ChainOutput, v: f64, params: &[ParamData], values: &mut [[f64; 2]]) {
    let pi = o.param.index();
    let (Some(pd), Some(cur)) = (params.get(pi), values.get_mut(pi)) else {
        return;
    };
    let c = usize::from(o.component.min(1));
    let value = pd.clamp(c, v * o.scale);
    let w = o.weight / MAX_WEIGHT;
    cur[c] = if w >= 1.0 {
        value
    } else {
        pd.clamp(c, pd.clamp(c, cur[c]) * (1.0 - w) + value * w)
    };
}

/// Advances every chain by `dt` seconds on the fixed clock and writes their outputs (no-op
/// without `physics` or chains). Runs before the parameter bindings. Allocation-free.
pub(crate) fn step_chains(rig: &crate::Rig, inst: &mut crate::Instance, dt: f64, physics: bool) {
    let set = &rig.params;
    let chains = &set.chains;
    if !physics || chains.chains.is_empty() {
        return;
    }
    let st = &mut inst.params;
    let cs = &mut st.chains;
    if !cs.placed {
        for (c, s) in chains.chains.iter().zip(&mut cs.strands) {
            let (root, angle) = chain_input(c, &set.params, &st.values);
            place(s, c, root, angle);
        }
        cs.placed = true;
    }
    let steps = cs.clock.advance(dt);
    let h = cs.clock.step();
    let alpha = cs.clock.alpha();
    for (c, s) in chains.chains.iter().zip(&mut cs.strands) {
        let (root, angle) = chain_input(c, &set.params, &st.values);
        for j in 0..steps {
            let f = cs.clock.step_fraction(j);
            let r = s.last_root.lerp(root, f);
            let a = s.last_angle + (angle - s.last_angle) * f;
            step_strand(s, c, r, a, chains.wind, h);
        }
        s.last_root = root;
        s.last_angle = angle;
        for o in &c.outputs {
            let v = output_value(s, o, alpha);
            write_output(o, v, &set.params, &mut st.values);
        }
    }
}

/// Puts every chain back at rest on the next physics frame and forgets the clock.
pub(crate) fn reset_chains(inst: &mut crate::Instance) {
    inst.params.chains.placed = false;
    inst.params.chains.clock.reset();
}

fn normalization(r: &RawNormalization) -> Normalization {
    Normalization {
        minimum: r.minimum,
        default: r.default,
        maximum: r.maximum,
    }
}

/// The part of the build these problems come from.
const PART: BuildPart = BuildPart::Params;

/// Resolves raw chains against the built parameters of `set`. Problems go to `errs`, each
/// naming the chain and the parameter or value.
pub fn build_chains(raw: &RawChains, set: &ParamSet, errs: &mut Vec<BuildProblem>) -> ChainSet {
    let mut out = ChainSet::default();
    if raw.fps.is_finite() && raw.fps > 0.0 {
        out.fps = raw.fps;
    } else {
        errs.push(BuildProblem::value(
            PART,
            "physics chains",
            format!("bad fps {}", raw.fps),
        ));
    }
    if raw.wind.iter().all(|w| w.is_finite()) {
        out.wind = Vec2::new(raw.wind[0], raw.wind[1]);
    } else {
        errs.push(BuildProblem::value(
            PART,
            "physics chains",
            "non-finite wind",
        ));
    }
    if raw.chains.len() > MAX_CHAINS {
        errs.push(
            BuildProblem::new(
                ProblemKind::TooMany,
                "",
                format!("{} physics chains (at most {MAX_CHAINS})", raw.chains.len()),
            )
            .in_part(PART),
        );
        return out;
    }
    for rc in &raw.chains {
        let name = &rc.name;
        let item = || format!("physics chain `{name}`");
        let before = errs.len();
        let n = rc.particles.len();
        if n == 0 || n > MAX_PARTICLES {
            errs.push(BuildProblem::value(
                PART,
                item(),
                format!("{n} particles (1..={MAX_PARTICLES})"),
            ));
        }
        if rc.inputs.len() > MAX_PORTS || rc.outputs.len() > MAX_PORTS {
            errs.push(
                BuildProblem::new(
                    ProblemKind::TooMany,
                    item(),
                    format!("too many inputs or outputs (at most {MAX_PORTS})"),
                )
                .in_part(PART),
            );
        }
        let norms = [rc.position, rc.angle];
        if norms
            .iter()
            .any(|r| !(r.minimum.is_finite() && r.default.is_finite() && r.maximum.is_finite()))
        {
            errs.push(BuildProblem::value(
                PART,
                item(),
                "non-finite normalization",
            ));
        }
        let mut particles = Vec::with_capacity(n.min(MAX_PARTICLES));
        for (i, p) in rc.particles.iter().take(MAX_PARTICLES).enumerate() {
            let finite = [p.mobility, p.delay, p.acceleration, p.radius]
                .iter()
                .chain(&p.position)
                .all(|v| v.is_finite());
            if !finite || p.radius < 0.0 || p.delay < 0.0 {
                errs.push(
                    BuildProblem::value(
                        PART,
                        item(),
                        format!("particle {i}: non-finite value or negative radius/delay"),
                    )
                    .at_element(Element::ChainParticle(i)),
                );
            }
            particles.push(ChainParticle {
                position: Vec2::new(p.position[0], p.position[1]),
                mobility: p.mobility,
                delay: p.delay,
                acceleration: p.acceleration,
                radius: p.radius,
            });
        }
        let mut inputs = Vec::with_capacity(rc.inputs.len().min(MAX_PORTS));
        for (i, r) in rc.inputs.iter().take(MAX_PORTS).enumerate() {
            let Some(param) = set.find(&r.param) else {
                let mut q = BuildProblem::unknown(item(), "parameter", &r.param);
                q.message = format!("input {i}: {}", q.message);
                errs.push(q.in_part(PART).at_element(Element::ChainInput(i)));
                continue;
            };
            if !r.weight.is_finite() || r.component > 1 {
                errs.push(
                    BuildProblem::value(
                        PART,
                        item(),
                        format!("input {i} (`{}`): bad weight or component", r.param),
                    )
                    .at_element(Element::ChainInput(i)),
                );
            }
            inputs.push(ChainInput {
                param,
                component: r.component,
                weight: r.weight,
                kind: r.kind,
                reflect: r.reflect,
            });
        }
        let mut outputs = Vec::with_capacity(rc.outputs.len().min(MAX_PORTS));
        for (i, r) in rc.outputs.iter().take(MAX_PORTS).enumerate() {
            let Some(param) = set.find(&r.param) else {
                let mut q = BuildProblem::unknown(item(), "parameter", &r.param);
                q.message = format!("output {i}: {}", q.message);
                errs.push(q.in_part(PART).at_element(Element::ChainOutput(i)));
                continue;
            };
            if r.vertex == 0 || r.vertex as usize >= n {
                errs.push(
                    BuildProblem::value(
                        PART,
                        item(),
                        format!(
                            "output {i} (`{}`): vertex {} not in 1..{n}",
                            r.param, r.vertex
                        ),
                    )
                    .at_element(Element::ChainOutput(i)),
                );
            }
            if !r.weight.is_finite() || !r.scale.is_finite() || r.component > 1 {
                errs.push(
                    BuildProblem::value(
                        PART,
                        item(),
                        format!("output {i} (`{}`): bad scale, weight or component", r.param),
                    )
                    .at_element(Element::ChainOutput(i)),
                );
            }
            outputs.push(ChainOutput {
                param,
                component: r.component,
                vertex: r.vertex.min(u32::from(u16::MAX)) as u16,
                kind: r.kind,
                scale: r.scale,
                weight: r.weight,
                reflect: r.reflect,
            });
        }
        if errs.len() == before {
            out.chains.push(ChainData {
                name: name.clone(),
                inputs,
                outputs,
                particles,
                position: normalization(&rc.position),
                angle: normalization(&rc.angle),
            });
        }
    }
    out
}

#[cfg(test)]
#[path = "chain_tests.rs"]
mod tests;
