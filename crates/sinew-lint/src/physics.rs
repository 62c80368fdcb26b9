//! `physics-frame-rate` (warning): a Spine physics constraint, a jiggle chain (rig extras)
//! or a puppet pendulum (Inochi2D physics, physics3 chains) whose motion at 15 or 30 fps
//! differs from its motion at 60 fps, or grows without bound.
//!
//! The seed's reason: hair that looks right at 60 fps flies off at 30 or 15 (a frame
//! drop, a phone) when the simulation's inputs jump a whole frame at a time or its steps
//! are not fixed. Every scenario is played three times, at 60, 30 and 15 fps (looping,
//! twice its length, 1 to 4 seconds), and each simulated value is compared at the times
//! the three share (every 1/15 s): bone world x, y (units) and rotation (degrees) for
//! physics constraints and jiggle bones, output parameters (percent of their range) for
//! pendulums. A subject is reported when some value differs from 60 fps by more than
//! [`crate::Tolerances::physics_fraction`] of its 60 fps range (10%) and by more than
//! [`crate::Tolerances::physics_floor`] (1 unit, degree or percent), or when at 15 or 30 fps
//! it is not finite or its range exceeds ten times the 60 fps range (it grows without
//! bound).

use crate::scene::Scene;
use crate::{Finding, Options, Severity, Where};
use sinew::character::Character;
use sinew::ids::{BoneId, ParamId};

/// What one traced value reads.
#[derive(Debug, Clone, Copy)]
enum Read {
    X(BoneId),
    Y(BoneId),
    Rotation(BoneId),
    /// A parameter component, as a percentage of its range.
    Param(ParamId, usize),
}

impl Read {
    fn unit(self) -> &'static str {
        match self {
            Read::Rotation(_) => "degrees",
            Read::Param(..) => "% of the range",
            _ => "units",
        }
    }

    fn what(self, c: &Character) -> String {
        let rig = c.rig();
        match self {
            Read::X(b) => format!("`{}` x", rig.bones[b.index()].name),
            Read::Y(b) => format!("`{}` y", rig.bones[b.index()].name),
            Read::Rotation(b) => format!("`{}` rotation", rig.bones[b.index()].name),
            Read::Param(p, axis) => {
                let d = &rig.params.params[p.index()];
                if d.is_2d {
                    format!("`{}` {}", d.name, ["x", "y"][axis])
                } else {
                    format!("`{}`", d.name)
                }
            }
        }
    }

    fn read(self, c: &Character) -> f64 {
        let inst = c.instance();
        let w = |b: BoneId| inst.world.get(b.index()).copied().unwrap_or_default();
        match self {
            Read::X(b) => w(b).x,
            Read::Y(b) => w(b).y,
            Read::Rotation(b) => {
                let t = w(b);
                t.c.atan2(t.a).to_degrees()
            }
            Read::Param(p, axis) => {
                let d = &c.rig().params.params[p.index()];
                let v = c.param(p).map_or(0.0, |v| v[axis]);
                let span = d.max[axis] - d.min[axis];
                if span > 0.0 {
                    100.0 * (v - d.min[axis]) / span
                } else {
                    v
                }
            }
        }
    }
}

/// One simulated thing and the values it moves.
#[derive(Debug, Clone)]
struct Subject {
    kind: &'static str,
    name: String,
    bone: Option<String>,
    reads: Vec<Read>,
}

fn subjects(scene: &Scene) -> Vec<Subject> {
    let rig = &*scene.asset.rig;
    let mut out = Vec::new();
    let bone_reads = |b: BoneId| [Read::X(b), Read::Y(b), Read::Rotation(b)];
    for p in &rig.physics {
        out.push(Subject {
            kind: "physics constraint",
            name: p.name.clone(),
            bone: Some(rig.bones[p.bone.index()].name.clone()),
            reads: bone_reads(p.bone).to_vec(),
        });
    }
    if let Some(jr) = &scene.asset.jiggle {
        for (ci, name) in jr.chain_names.iter().enumerate() {
            let bones: Vec<BoneId> = jr
                .bones
                .iter()
                .zip(&jr.links)
                .filter(|(_, l)| l.chain as usize == ci)
                .map(|(b, _)| *b)
                .collect();
            if bones.is_empty() {
                continue;
            }
            out.push(Subject {
                kind: "jiggle chain",
                name: name.clone(),
                bone: Some(rig.bones[bones[0].index()].name.clone()),
                reads: bones.iter().flat_map(|&b| bone_reads(b)).collect(),
            });
        }
    }
    let param_reads = |p: ParamId| {
        let d = &rig.params.params[p.index()];
        (0..if d.is_2d { 2 } else { 1 })
            .map(|a| Read::Param(p, a))
            .collect::<Vec<_>>()
    };
    for d in &rig.params.drivers {
        out.push(Subject {
            kind: "pendulum",
            name: d.name.clone(),
            bone: Some(rig.bones[d.bone.index()].name.clone()),
            reads: param_reads(d.param),
        });
    }
    for ch in &rig.params.chains.chains {
        let mut reads: Vec<Read> = Vec::new();
        for o in &ch.outputs {
            reads.push(Read::Param(o.param, usize::from(o.component)));
        }
        if !reads.is_empty() {
            out.push(Subject {
                kind: "pendulum chain",
                name: ch.name.clone(),
                bone: None,
                reads,
            });
        }
    }
    out
}

/// The worst case found for one subject.
#[derive(Debug, Clone)]
struct Worst {
    score: f64,
    read: usize,
    fps: u32,
    diff: f64,
    range: f64,
    unbounded: bool,
    scenario: String,
    parameter: Option<String>,
    time: f64,
}

/// Unwraps a trace of angles in degrees (no jumps over 180).
fn unwrap(v: &mut [f64]) {
    for i in 1..v.len() {
        let mut d = v[i] - v[i - 1];
        while d > 180.0 {
            v[i] -= 360.0;
            d -= 360.0;
        }
        while d < -180.0 {
            v[i] += 360.0;
            d += 360.0;
        }
    }
}

fn range(v: &[f64]) -> f64 {
    let (lo, hi) = v
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if v.is_empty() { 0.0 } else { hi - lo }
}

/// One value's trace at a lower frame rate against its trace at 60 fps.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Compared {
    /// The largest difference over what is allowed (over 1: reported; infinite: unbounded).
    score: f64,
    /// The largest difference (infinite when a value is not finite).
    diff: f64,
    /// The sample where it is.
    at: usize,
    /// The 60 fps trace's range.
    range: f64,
    /// Not finite, or a range over ten times the 60 fps one (plus ten floors).
    unbounded: bool,
}

/// Compares `other` (15 or 30 fps) with `base` (60 fps), sample by sample.
fn compare(base: &[f64], other: &[f64], tol: &crate::Tolerances) -> Compared {
    let r60 = range(base);
    let unbounded = other.iter().any(|v| !v.is_finite())
        || range(other) > 10.0 * r60 + 10.0 * tol.physics_floor;
    let (mut diff, mut at) = (0.0f64, 0usize);
    for (j, (a, b)) in base.iter().zip(other).enumerate() {
        let d = (a - b).abs();
        if d > diff || !d.is_finite() {
            diff = if d.is_finite() { d } else { f64::INFINITY };
            at = j;
        }
    }
    let allowed = (tol.physics_fraction * r60).max(tol.physics_floor);
    let score = if unbounded {
        f64::INFINITY
    } else {
        diff / allowed
    };
    Compared {
        score,
        diff,
        at,
        range: r60,
        unbounded,
    }
}

/// Checks every simulated subject at 15 and 30 fps against 60 fps.
pub(crate) fn check(scene: &Scene, options: &Options) -> Vec<Finding> {
    let subjects = subjects(scene);
    if subjects.is_empty() {
        return Vec::new();
    }
    let reads: Vec<Read> = subjects.iter().flat_map(|s| s.reads.clone()).collect();
    let mut worst: Vec<Option<Worst>> = vec![None; subjects.len()];
    let tol = &options.tol;
    for &s in &scene.scenarios {
        let seconds = (2.0 * scene.duration(s)).clamp(1.0, 4.0);
        // traces[fps][read][sample at k/15 s]
        let mut traces: Vec<Vec<Vec<f64>>> = Vec::new();
        for fps in [60u32, 30, 15] {
            let every = (fps / 15) as usize;
            let mut tr = vec![Vec::new(); reads.len()];
            scene.run(s, f64::from(fps), seconds, true, |c, i, _| {
                if i % every == 0 {
                    for (r, t) in reads.iter().zip(tr.iter_mut()) {
                        t.push(r.read(c));
                    }
                }
            });
            for (r, t) in reads.iter().zip(tr.iter_mut()) {
                if matches!(r, Read::Rotation(_)) {
                    unwrap(t);
                }
            }
            traces.push(tr);
        }
        let mut ri = 0;
        for (si, subject) in subjects.iter().enumerate() {
            for (k, _) in subject.reads.iter().enumerate() {
                let base = &traces[0][ri + k];
                for (fi, fps) in [(1usize, 30u32), (2, 15)] {
                    let Compared {
                        score,
                        diff,
                        at,
                        range: r60,
                        unbounded,
                    } = compare(base, &traces[fi][ri + k], tol);
                    if score > 1.0 && worst[si].as_ref().is_none_or(|w| score > w.score) {
                        worst[si] = Some(Worst {
                            score,
                            read: k,
                            fps,
                            diff,
                            range: r60,
                            unbounded,
                            scenario: scene.name(s),
                            parameter: scene.parameter(s),
                            time: at as f64 / 15.0,
                        });
                    }
                }
            }
            ri += subject.reads.len();
        }
    }
    let c = scene.character();
    worst
        .into_iter()
        .zip(&subjects)
        .filter_map(|(w, s)| Some((w?, s)))
        .map(|(w, s)| {
            let read = s.reads[w.read];
            let (what, unit) = (read.what(&c), read.unit());
            let message = if w.unbounded {
                format!(
                    "{} `{}` grows without bound at {} fps in `{}`: {what} leaves its 60 fps \
                     range of {:.2} {unit} by {:.2} {unit} at {:.3}s",
                    s.kind, s.name, w.fps, w.scenario, w.range, w.diff, w.time
                )
            } else {
                format!(
                    "{} `{}` moves differently at {} fps than at 60 fps in `{}`: {what} is off \
                     by {:.2} {unit} at {:.3}s, {:.0}% of its range of {:.2} {unit}, so it flies \
                     (or stiffens) when the frame rate drops",
                    s.kind,
                    s.name,
                    w.fps,
                    w.scenario,
                    w.diff,
                    w.time,
                    100.0 * w.diff / w.range.max(1e-9),
                    w.range
                )
            };
            Finding {
                code: "physics-frame-rate",
                severity: Severity::Warning,
                message,
                at: Where {
                    constraint: Some(s.name.clone()),
                    bone: s.bone.clone(),
                    animation: Some(w.scenario),
                    time: Some(w.time),
                    parameter: w.parameter,
                    ..Default::default()
                },
                fix: "lower the strength or raise the damping (a stiffer spring needs smaller \
                      steps), lower the inertia or the speed limit so one frame's jump of the \
                      parent does not kick it, or smooth the animation that drives it"
                    .to_owned(),
                edit: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tolerances;

    /// A swing of amplitude `a` sampled at 15 Hz for 4 s.
    fn swing(a: f64, grow: f64) -> Vec<f64> {
        (0..60)
            .map(|i| {
                let t = f64::from(i) / 15.0;
                a * grow.powf(t) * (7.0 * t).sin()
            })
            .collect()
    }

    #[test]
    fn a_swing_that_grows_without_bound_is_unbounded() {
        let tol = Tolerances::default();
        let base = swing(20.0, 1.0);
        // The same swing, 2.5 times as wide every second: 39 times after 4 s.
        let c = compare(&base, &swing(20.0, 2.5), &tol);
        assert!(c.unbounded && c.score.is_infinite(), "{c:?}");
        // A value that leaves the numbers.
        let mut nan = base.clone();
        nan[30] = f64::NAN;
        let c = compare(&base, &nan, &tol);
        assert!(c.unbounded && c.diff.is_infinite() && c.at == 30, "{c:?}");
        // Growing, but within ten times the range: a plain difference, not unbounded.
        let c = compare(&base, &swing(20.0, 1.3), &tol);
        assert!(!c.unbounded && c.score > 1.0, "{c:?}");
        // The same trace: nothing.
        let c = compare(&base, &base, &tol);
        assert!(!c.unbounded && c.score == 0.0, "{c:?}");
    }
}
