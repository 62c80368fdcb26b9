//! Parameter clips: curves keyed on parameters with Live2D Cubism's segment kinds
//! (motion3.json, inochi2d.md §11): linear, cubic Bezier, stepped (hold the start value) and
//! inverse stepped (jump to the end value at once). Each segment starts at the previous
//! segment's last point. With restricted Beziers the control times sit at 1/3 and 2/3, so
//! the curve parameter is linear in time; otherwise the time cubic is solved by bisection
//! (48 halvings: below 1e-14 of the segment). Clips mix like other clips: the sampled value
//! is blended into the current one with an alpha. Verified by the unit tests below.

use crate::ids::ParamId;

/// Segment kinds (Cubism's codes 0..3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentKind {
    /// Straight line to the next point.
    Linear,
    /// Cubic Bezier through two control points to the next point.
    Bezier,
    /// Holds the start value until the end point.
    Stepped,
    /// Takes the end value right after the start.
    InverseStepped,
}

/// One curve of a clip.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamCurve {
    /// The parameter.
    pub param: ParamId,
    /// Its component (0 = x, 1 = y).
    pub component: u8,
    /// Points (time seconds, value).
    pub points: Vec<[f32; 2]>,
    /// Segments: kind and index of the start point in `points`.
    pub segments: Vec<(SegmentKind, u32)>,
}

/// A parameter clip.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamClip {
    /// Name.
    pub name: String,
    /// Duration, seconds.
    pub duration: f64,
    /// Whether it loops.
    pub looping: bool,
    /// Beziers with control times fixed at 1/3 and 2/3.
    pub restricted_beziers: bool,
    /// Curves.
    pub curves: Vec<ParamCurve>,
}

impl ParamCurve {
    /// Builds a curve from Cubism's flat segment array (`t0, v0, (kind, points...)*`);
    /// `None` when the array is malformed (a bad kind or missing points).
    pub fn from_cubism(param: ParamId, component: u8, flat: &[f32]) -> Option<Self> {
        let (first, mut rest) = (flat.get(..2)?, flat.get(2..)?);
        let mut points = vec![[first[0], first[1]]];
        let mut segments = Vec::new();
        while let Some((&code, tail)) = rest.split_first() {
            let (kind, n) = match code as i32 {
                0 => (SegmentKind::Linear, 1),
                1 => (SegmentKind::Bezier, 3),
                2 => (SegmentKind::Stepped, 1),
                3 => (SegmentKind::InverseStepped, 1),
                _ => return None,
            };
            segments.push((kind, (points.len() - 1) as u32));
            let pts = tail.get(..2 * n)?;
            points.extend(pts.chunks_exact(2).map(|p| [p[0], p[1]]));
            rest = &tail[2 * n..];
        }
        Some(ParamCurve {
            param,
            component,
            points,
            segments,
        })
    }

    /// The curve's value at `t` seconds (the first value before it, the last after it).
    pub fn sample(&self, t: f64, restricted: bool) -> f64 {
        let p = |i: u32| {
            self.points
                .get(i as usize)
                .map_or([0.0, 0.0], |p| [f64::from(p[0]), f64::from(p[1])])
        };
        let Some(first) = self.points.first() else {
            return 0.0;
        };
        if t <= f64::from(first[0]) || self.segments.is_empty() {
            return f64::from(first[1]);
        }
        for &(kind, s) in &self.segments {
            let n = if kind == SegmentKind::Bezier { 3 } else { 1 };
            let (p0, p3) = (p(s), p(s + n));
            if t >= p3[0] {
                continue;
            }
            let span = p3[0] - p0[0];
            let u = if span > 0.0 {
                ((t - p0[0]) / span).clamp(0.0, 1.0)
            } else {
                1.0
            };
            return match kind {
                SegmentKind::Linear => p0[1] + (p3[1] - p0[1]) * u,
                SegmentKind::Stepped => p0[1],
                SegmentKind::InverseStepped => p3[1],
                SegmentKind::Bezier => {
                    let (p1, p2) = (p(s + 1), p(s + 2));
                    let u = if restricted {
                        u
                    } else {
                        solve_bezier_time(p0[0], p1[0], p2[0], p3[0], t)
                    };
                    bezier(p0[1], p1[1], p2[1], p3[1], u)
                }
            };
        }
        self.points.last().map_or(0.0, |l| f64::from(l[1]))
    }
}

#[inline]
fn bezier(a: f64, b: f64, c: f64, d: f64, u: f64) -> f64 {
    let v = 1.0 - u;
    v * v * v * a + 3.0 * v * v * u * b + 3.0 * v * u * u * c + u * u * u * d
}

/// The Bezier parameter whose time is `t` (time control points monotone in practice).
fn solve_bezier_time(t0: f64, t1: f64, t2: f64, t3: f64, t: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..48 {
        let mid = 0.5 * (lo + hi);
        if bezier(t0, t1, t2, t3, mid) < t {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Samples a clip at `time` (wrapped when it loops) and mixes each curve's value into the
/// instance's parameters with weight `alpha` (1 replaces). Allocation-free.
pub fn apply_param_clip(
    rig: &crate::Rig,
    inst: &mut crate::Instance,
    clip: &ParamClip,
    time: f64,
    alpha: f64,
) {
    let t = if clip.looping && clip.duration > 0.0 {
        time.rem_euclid(clip.duration)
    } else {
        time
    };
    for c in &clip.curves {
        let v = c.sample(t, clip.restricted_beziers);
        let i = c.param.index();
        let comp = usize::from(c.component.min(1));
        let (Some(pd), Some(cur)) = (rig.params.params.get(i), inst.params.values.get_mut(i))
        else {
            continue;
        };
        cur[comp] = pd.clamp(comp, cur[comp] + (v - cur[comp]) * alpha);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve(flat: &[f32]) -> ParamCurve {
        ParamCurve::from_cubism(ParamId(0), 0, flat).expect("valid")
    }

    #[test]
    fn segment_kinds() {
        // 0 at t=0, linear to 10 at 1, stepped to 20 at 2, inverse stepped to 30 at 3.
        let c = curve(&[0.0, 0.0, 0.0, 1.0, 10.0, 2.0, 2.0, 20.0, 3.0, 3.0, 30.0]);
        assert_eq!(c.segments.len(), 3);
        assert!((c.sample(0.5, true) - 5.0).abs() < 1e-12);
        assert_eq!(c.sample(1.5, true), 10.0);
        assert_eq!(c.sample(2.01, true), 30.0);
        assert_eq!(c.sample(-1.0, true), 0.0);
        assert_eq!(c.sample(9.0, true), 30.0);
    }

    #[test]
    fn bezier_restricted_and_solved_agree_on_thirds() {
        // Control times at 1/3 and 2/3: both ways give the same value.
        let c = curve(&[0.0, 0.0, 1.0, 1.0, 0.0, 2.0, 10.0, 3.0, 10.0]);
        for &t in &[0.3, 1.1, 2.9] {
            let (a, b) = (c.sample(t, true), c.sample(t, false));
            assert!((a - b).abs() < 1e-9, "{t}: {a} {b}");
        }
        // Ease in-out: halfway in time is halfway in value by symmetry.
        assert!((c.sample(1.5, false) - 5.0).abs() < 1e-9);
    }

    #[test]
    fn malformed_arrays_are_rejected() {
        assert!(ParamCurve::from_cubism(ParamId(0), 0, &[0.0]).is_none());
        assert!(ParamCurve::from_cubism(ParamId(0), 0, &[0.0, 0.0, 7.0, 1.0, 1.0]).is_none());
        assert!(ParamCurve::from_cubism(ParamId(0), 0, &[0.0, 0.0, 1.0, 1.0, 1.0]).is_none());
    }
}
