//! The Spine 4.3 track entry options a host sets (`TrackEntry.additive`, `keepHold`,
//! `mixInterpolation`), as facts from spine-core 4.3.13's `AnimationState.js` and
//! `Utils.js` (`Interpolation`, `Pow`, `PowOut`).
//!
//! Defaults (not additive, no kept hold, linear mix) leave an entry posed exactly as before
//! the options existed: the state takes its existing path for them.

/// The curve a crossfade's mix percentage follows (Spine 4.3 `TrackEntry.mixInterpolation`,
/// the `Interpolation` family of spine-core 4.3.13).
///
/// The linear percentage `mixTime / mixDuration` goes in, and the result, clamped to 0..1,
/// weights the entry against the one it mixes from (and fades the holds it ends).
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum MixInterpolation {
    /// `a` (the only mix of Spine 4.2 and the default).
    #[default]
    Linear,
    /// Smoothstep, `a² (3 - 2a)`.
    Smooth,
    /// Slow, then fast: `a²`.
    SlowFast,
    /// Fast, then slow: `1 - (1 - a)²`.
    FastSlow,
    /// Two quarter circles: slow in, fast through the middle, slow out.
    Circle,
    /// Ease in and out with this power (Spine `Pow`).
    Pow(u32),
    /// Ease out with this power (Spine `PowOut`).
    PowOut(u32),
}

impl MixInterpolation {
    /// The curve at `a` in 0..1 (Spine `Interpolation.apply(a)`), unclamped.
    pub fn apply(self, a: f64) -> f64 {
        match self {
            MixInterpolation::Linear => a,
            MixInterpolation::Smooth => a * a * (3.0 - 2.0 * a),
            MixInterpolation::SlowFast => a * a,
            MixInterpolation::FastSlow => 1.0 - (a - 1.0) * (a - 1.0),
            MixInterpolation::Circle => {
                if a <= 0.5 {
                    let a = a * 2.0;
                    (1.0 - (1.0 - a * a).sqrt()) / 2.0
                } else {
                    let a = (a - 1.0) * 2.0;
                    ((1.0 - a * a).sqrt() + 1.0) / 2.0
                }
            }
            MixInterpolation::Pow(p) => {
                let p = f64::from(p);
                if a <= 0.5 {
                    (a * 2.0).powf(p) / 2.0
                } else {
                    // COMPAT(spine): an odd power's second half is mirrored by the sign.
                    let d = if p % 2.0 == 0.0 { -2.0 } else { 2.0 };
                    ((a - 1.0) * 2.0).powf(p) / d + 1.0
                }
            }
            MixInterpolation::PowOut(p) => {
                let p = f64::from(p);
                let s = if p % 2.0 == 0.0 { -1.0 } else { 1.0 };
                (a - 1.0).powf(p) * s + 1.0
            }
        }
    }

    /// The name `sinew dump` and the CLI take (`pow:N`, `powOut:N` with a power).
    pub fn parse(spec: &str) -> Option<Self> {
        let (name, arg) = match spec.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (spec, None),
        };
        let power = || arg.and_then(|a| a.parse::<u32>().ok());
        Some(match (name, arg) {
            ("linear", None) => MixInterpolation::Linear,
            ("smooth", None) => MixInterpolation::Smooth,
            ("slowFast", None) => MixInterpolation::SlowFast,
            ("fastSlow", None) => MixInterpolation::FastSlow,
            ("circle", None) => MixInterpolation::Circle,
            ("pow", Some(_)) => MixInterpolation::Pow(power()?),
            ("powOut", Some(_)) => MixInterpolation::PowOut(power()?),
            _ => return None,
        })
    }
}

/// The Spine 4.3 options of one track entry
/// ([`AnimationState::set_entry_options`](super::AnimationState::set_entry_options)).
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct EntryOptions {
    /// Spine 4.3 `TrackEntry.additive`: the entry's additive timelines (bone transforms,
    /// deform, transform-constraint mixes, path position, physics wind and gravity, slider
    /// mix) add their values to the pose below (to the setup pose where no lower track or
    /// earlier entry keys the property) instead of replacing it; rotations mix the shortest
    /// way. Entries mixing into an additive entry do not hold the properties it adds to.
    pub additive: bool,
    /// Spine 4.3 `TrackEntry.keepHold`: when the timeline modes are computed again, the
    /// entry keeps whether each timeline holds (so an entry that has not been mixed into
    /// yet never holds, and its crossfade out does not hold the properties the next entry
    /// keys).
    pub keep_hold: bool,
    /// Spine 4.3 `TrackEntry.mixInterpolation`: the curve of the entry's crossfade in.
    pub mix_interpolation: MixInterpolation,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_by_hand() {
        let all = [
            MixInterpolation::Linear,
            MixInterpolation::Smooth,
            MixInterpolation::SlowFast,
            MixInterpolation::FastSlow,
            MixInterpolation::Circle,
            MixInterpolation::Pow(2),
            MixInterpolation::Pow(3),
            MixInterpolation::PowOut(2),
            MixInterpolation::PowOut(3),
        ];
        for m in all {
            assert!(m.apply(0.0).abs() < 1e-15, "{m:?} at 0");
            assert!((m.apply(1.0) - 1.0).abs() < 1e-15, "{m:?} at 1");
        }
        assert_eq!(MixInterpolation::Smooth.apply(0.25), 0.15625);
        assert_eq!(MixInterpolation::SlowFast.apply(0.25), 0.0625);
        assert_eq!(MixInterpolation::FastSlow.apply(0.25), 0.4375);
        assert_eq!(MixInterpolation::Circle.apply(0.5), 0.5);
        // Pow(3) at 0.75: ((−0.5)³) / 2 + 1 = 0.9375; Pow(2): (0.5²) / −2 + 1 = 0.875.
        assert_eq!(MixInterpolation::Pow(3).apply(0.75), 0.9375);
        assert_eq!(MixInterpolation::Pow(2).apply(0.75), 0.875);
        assert_eq!(MixInterpolation::Pow(2).apply(0.25), 0.125);
        // PowOut(2) at 0.5: −(0.25) + 1; PowOut(3): (−0.125) + 1.
        assert_eq!(MixInterpolation::PowOut(2).apply(0.5), 0.75);
        assert_eq!(MixInterpolation::PowOut(3).apply(0.5), 0.875);
    }

    #[test]
    fn names_parse() {
        assert_eq!(
            MixInterpolation::parse("smooth"),
            Some(MixInterpolation::Smooth)
        );
        assert_eq!(
            MixInterpolation::parse("pow:3"),
            Some(MixInterpolation::Pow(3))
        );
        assert_eq!(
            MixInterpolation::parse("powOut:2"),
            Some(MixInterpolation::PowOut(2))
        );
        for bad in ["pow", "pow:x", "smooth:2", "Smooth", ""] {
            assert_eq!(MixInterpolation::parse(bad), None, "{bad}");
        }
    }
}
