//! DragonBones key easing as the runtime evaluates it.
//!
//! No `tweenEasing` holds, 0 is linear; `curve` Beziers are pre-sampled as the runtime does
//! (COMPAT(dragonbones): `N + 1` points for an `N`-frame key, bisection to 1e-4, y kept in
//! 1/10000 units in 16-bit integers, linear between samples; multi-segment curves with the
//! runtime's segment choice); `tweenEasing` strengths are kept in hundredths (16-bit, as the
//! runtime's frame array) and evaluated exactly at each time by the core
//! ([`sinew::Easing`], [`RawCurve::Eased`](sinew::raw::RawCurve::Eased)). The samples are
//! charged to the reader's [`Budget`] (a key is a few bytes of JSON, its samples up to 4097
//! pairs).

use super::emit::Budget;
use crate::json::lenient::*;
use crate::json::*;

/// How a key eases toward the next one.
#[derive(Clone)]
pub(crate) enum Ease {
    /// Step: the key's value until the next key.
    Hold,
    /// Linear.
    Linear,
    /// Sampled progress curve: (x, y) pairs strictly inside (0, 1).
    Samples(Vec<(f64, f64)>),
    /// A `tweenEasing` family and its strength in hundredths, evaluated exactly.
    Eased(sinew::Easing, i16),
}

impl Ease {
    /// Whether the value moves toward the next key.
    pub(crate) fn tweens(&self) -> bool {
        !matches!(self, Ease::Hold)
    }
}

/// JavaScript's `Math.round` then a store into an `Int16Array` (the runtime's frame array):
/// halves round up, out-of-range values wrap, NaN is 0.
pub(crate) fn to_int16(x: f64) -> i16 {
    let r = (x + 0.5).floor();
    if !r.is_finite() {
        return 0;
    }
    (r.rem_euclid(65536.0) as u32 as u16) as i16
}

/// The runtime's easing family and stored strength of a `tweenEasing` other than 0 and -2
/// (`ObjectDataParser._parseTweenFrame`).
pub(crate) fn easing_of(e: f64) -> (sinew::Easing, i16) {
    if e < 0.0 {
        (sinew::Easing::QuadIn, to_int16(-e * 100.0))
    } else if e <= 1.0 {
        (sinew::Easing::QuadOut, to_int16(e * 100.0))
    } else {
        (sinew::Easing::QuadInOut, to_int16(e * 100.0 - 100.0))
    }
}

fn bezier(p0: f64, p1: f64, p2: f64, p3: f64, t: f64) -> f64 {
    let u = 1.0 - t;
    u * u * u * p0 + 3.0 * u * u * t * p1 + 3.0 * u * t * t * p2 + t * t * t * p3
}

/// Samples of the runtime's pre-sampled curve for a key of `frames` frames.
fn sample_count(frames: u32) -> usize {
    // COMPAT(dragonbones): keys longer than 4096 frames get 4097 samples, not N + 1.
    frames.clamp(1, 4096) as usize + 1
}

/// The runtime's pre-sampled curve for a key of `frames` frames.
///
/// `c` is `[c1, c2, (anchor, c3, c4)*]` as x, y pairs. A sample at x picks the segment
/// whose end anchor's x is the first at or past it; COMPAT(dragonbones): the first and the
/// last segment run from (0, 0) to (1, 1) instead of their anchors, only middle segments
/// use theirs (a two-segment curve through (0.5, 0.5) jumps at the anchor, as in the runtime).
pub(crate) fn curve_samples(c: &[f64], frames: u32) -> Vec<(f64, f64)> {
    let count = sample_count(frames);
    let at = |i: isize| -> f64 {
        usize::try_from(i)
            .ok()
            .and_then(|i| c.get(i))
            .copied()
            .unwrap_or(f64::NAN)
    };
    let len = c.len() as isize;
    let mut step: isize = -2;
    let mut out = Vec::with_capacity(count);
    for k in 1..=count {
        let x = k as f64 / (count + 1) as f64;
        while step + 6 < len && at(step + 6) < x {
            step += 6;
        }
        let inside = step >= 0 && step + 6 < len;
        let (x1, y1) = if inside {
            (at(step), at(step + 1))
        } else {
            (0.0, 0.0)
        };
        let (x2, y2, x3, y3) = (at(step + 2), at(step + 3), at(step + 4), at(step + 5));
        let (x4, y4) = if inside {
            (at(step + 6), at(step + 7))
        } else {
            (1.0, 1.0)
        };
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let mut y = 0.0;
        while hi - lo > 1e-4 {
            let mid = (lo + hi) / 2.0;
            let xm = bezier(x1, x2, x3, x4, mid);
            y = bezier(y1, y2, y3, y4, mid);
            if x - xm > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        out.push((x, f64::from(to_int16(y * 10000.0)) * 0.0001));
    }
    out
}

/// A key's easing over a span of `frames` frames; sampled easings are charged to `budget`
/// (two numbers a sample) before they are made.
pub(crate) fn read_ease(m: &Obj, frames: u32, p: &Loc, budget: &mut Budget) -> R<Ease> {
    let curve = nums(m, "curve", p)?;
    if curve.len() >= 4 {
        budget.take(2 * sample_count(frames), &p.key("curve"))?;
        return Ok(Ease::Samples(curve_samples(&curve, frames)));
    }
    Ok(match num_opt(m, "tweenEasing", p)? {
        // COMPAT(dragonbones): -2 is the runtime's "no tween" marker, so it holds too.
        None | Some(-2.0) => Ease::Hold,
        Some(e) if e.abs() < f64::MIN_POSITIVE => Ease::Linear,
        Some(e) => {
            let (easing, hundredths) = easing_of(e);
            Ease::Eased(easing, hundredths)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sampled curve's value at progress `p` (linear between samples, ends 0 and 1).
    fn at(samples: &[(f64, f64)], p: f64) -> f64 {
        let mut pts = vec![(0.0, 0.0)];
        pts.extend_from_slice(samples);
        pts.push((1.0, 1.0));
        let k = pts.windows(2).position(|w| p <= w[1].0).unwrap();
        let ((x0, y0), (x1, y1)) = (pts[k], pts[k + 1]);
        y0 + (y1 - y0) * (p - x0) / (x1 - x0)
    }

    #[test]
    fn multi_segment_curves_follow_the_runtime_segment_rule() {
        // Values from the oracle's README rule (quirks.mjs, checked against the runtime).
        let multi = [0.1, 0.4, 0.2, 0.5, 0.5, 0.5, 0.8, 0.5, 0.9, 0.6];
        let s = curve_samples(&multi, 20);
        assert_eq!(s.len(), 21);
        for (p, want) in [
            (0.1, 0.2801),
            (0.3, 0.5203),
            (0.45, 0.63894),
            (0.55, 0.36106),
            (0.7, 0.4797),
            (0.9, 0.7199),
        ] {
            assert!((at(&s, p) - want).abs() < 1e-9, "{p}: {}", at(&s, p));
        }
        // Malformed lengths give numbers (maybe NaN), never a panic.
        let _ = curve_samples(&[0.1, 0.2, 0.3, 0.4, 0.5], 3);
    }

    #[test]
    fn tween_easings_keep_the_runtime_family_and_hundredths() {
        let mut budget = Budget::new(1 << 20);
        // (tweenEasing, family, stored strength): QuadIn below 0, QuadOut to 1, QuadInOut
        // above, strengths rounded half up to hundredths.
        for (e, family, h) in [
            (-1.0, sinew::Easing::QuadIn, 100),
            (-0.335, sinew::Easing::QuadIn, 34),
            (0.5, sinew::Easing::QuadOut, 50),
            (1.0, sinew::Easing::QuadOut, 100),
            (1.5, sinew::Easing::QuadInOut, 50),
            (2.994, sinew::Easing::QuadInOut, 199),
        ] {
            let m: Obj = serde_json::from_str(&format!(r#"{{"tweenEasing": {e}}}"#)).unwrap();
            let Ease::Eased(f, got) = read_ease(&m, 10, &Loc::root(), &mut budget).unwrap() else {
                panic!("{e}: not eased")
            };
            assert_eq!((f, got), (family, h), "{e}");
        }
        // Closed forms at p = 0.3: QuadIn strength 1 is p^2; QuadOut strength 0.5 is halfway
        // between p and 1 - (1 - p)^2; QuadInOut strength 1 is the half cosine.
        let p = 0.3f64;
        assert!((sinew::Easing::QuadIn.progress(1.0, p) - p * p).abs() < 1e-15);
        let out = 1.0 - (1.0 - p) * (1.0 - p);
        assert!((sinew::Easing::QuadOut.progress(0.5, p) - (p + out) / 2.0).abs() < 1e-15);
        let io = 0.5 * (1.0 - (p * std::f64::consts::PI).cos());
        assert!((sinew::Easing::QuadInOut.progress(1.0, p) - io).abs() < 1e-15);
    }

    #[test]
    fn int16_stores_round_half_up_and_wrap() {
        assert_eq!(to_int16(2.5), 3);
        assert_eq!(to_int16(-2.5), -2);
        assert_eq!(to_int16(32767.4), 32767);
        assert_eq!(to_int16(32768.0), -32768);
        assert_eq!(to_int16(-32769.0), 32767);
        assert_eq!(to_int16(f64::NAN), 0);
        assert_eq!(to_int16(f64::INFINITY), 0);
    }

    #[test]
    fn samples_are_charged_before_they_are_made() {
        let m: Obj = serde_json::from_str(r#"{"curve": [0.2, 0, 0.8, 1]}"#).unwrap();
        let mut budget = Budget::new(100);
        let at = Loc::root();
        let e = read_ease(&m, 4096, &at.key("k"), &mut budget)
            .err()
            .unwrap();
        assert!(
            e.path == "$.k.curve" && e.issue.to_string().contains("budget"),
            "{e:?}"
        );
    }
}
