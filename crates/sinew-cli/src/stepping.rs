//! Sample times and the step schedule of `sinew dump`, exactly as the oracle's `dump.mjs`.
//!
//! `--times` takes a comma list whose items are plain times or `a:b:s` ranges (a, a+s, ...
//! up to b inclusive with a 1e-9 tolerance, each rounded to 12 decimals like JS
//! `Number(t.toFixed(12))`). The result is sorted and de-duplicated.
//!
//! The clock starts with one 0 s step at t = 0, then advances in steps of 1/fps. A requested
//! time off that grid gets one shorter step landing exactly on it, and the grid continues from
//! there. Physics results depend on this schedule, so it is reproduced operation for operation
//! (same comparisons, same `now += dt` accumulation). Verified by the unit tests below, which
//! check the step counts and clocks recorded in the golden dumps.

use anyhow::{Context, Result, bail};
use sinew_formats::budget::Budgets;

/// Tolerance the oracle uses when comparing the clock with a requested time.
pub const EPS: f64 = 1e-9;

/// Parses a `--times` list: `0.1,0.5` and `0:2:0.25` items, sorted and de-duplicated.
pub fn parse_times(budgets: &Budgets, spec: &str) -> Result<Vec<f64>> {
    let mut out = Vec::new();
    for item in spec.split(',') {
        let s = item.trim();
        if s.is_empty() {
            continue;
        }
        if s.contains(':') {
            let parts: Vec<&str> = s.split(':').collect();
            let [a, b, st] = parts.as_slice() else {
                bail!("bad time range `{s}`: expected start:end:step");
            };
            let a = parse_num(a, s)?;
            let b = parse_num(b, s)?;
            let st = parse_num(st, s)?;
            if st.is_nan() || st <= 0.0 || !a.is_finite() || !b.is_finite() {
                bail!("bad time range `{s}`: the step must be > 0 and the ends finite");
            }
            let samples = (b - a) / st + out.len() as f64;
            crate::guard::check(budgets, "samples", samples, format!("--times `{s}`"))?;
            let mut k = 0u32;
            loop {
                let t = a + f64::from(k) * st;
                if t > b + EPS {
                    break;
                }
                out.push(round_decimals(t, 12));
                k += 1;
            }
        } else {
            out.push(parse_num(s, s)?);
        }
    }
    if out.iter().any(|t| !t.is_finite() || *t < 0.0) {
        bail!("bad --times `{spec}`: times must be finite and >= 0");
    }
    out.sort_by(f64::total_cmp);
    out.dedup();
    Ok(out)
}

/// The `--times` of a run stepping at `--fps` (a positive number), checked against the
/// `samples` and `steps` budgets before any step is taken (`--fps 1e9`, `--times 1e12`).
pub fn run_times(budgets: &Budgets, spec: &str, fps: f64) -> Result<Vec<f64>> {
    if !(fps.is_finite() && fps > 0.0) {
        bail!("bad --fps {fps}: must be a positive number");
    }
    let times = parse_times(budgets, spec).context("bad --times")?;
    let last = times.last().copied().unwrap_or(0.0);
    crate::guard::clock_work(
        budgets,
        times.len(),
        last,
        fps,
        1.0,
        &format!("--times `{spec}` at --fps {fps}"),
    )?;
    Ok(times)
}

fn parse_num(s: &str, item: &str) -> Result<f64> {
    s.trim()
        .parse::<f64>()
        .with_context(|| format!("bad time `{item}`: `{s}` is not a number"))
}

/// Rounds to `decimals` places like JS `Number(t.toFixed(decimals))` for the magnitudes used
/// here (the decimal string round-trips through the shortest representation).
fn round_decimals(t: f64, decimals: usize) -> f64 {
    format!("{t:.decimals$}").parse().unwrap_or(t)
}

/// The simulation clock: walks to each requested time with 1/fps steps.
#[derive(Debug, Clone)]
pub struct Clock {
    /// Step length, seconds (1/fps).
    pub dt: f64,
    /// Current time, seconds.
    pub now: f64,
    /// Steps taken after the initial 0 s step.
    pub steps: u64,
}

impl Clock {
    /// A clock at t = 0 stepping at `fps` (the caller takes the initial 0 s step itself).
    pub fn new(fps: f64) -> Self {
        Clock {
            dt: 1.0 / fps,
            now: 0.0,
            steps: 0,
        }
    }

    /// Advances to `t`, calling `step(dt)` for each step taken (as dump.mjs's main loop).
    pub fn advance_to(&mut self, t: f64, mut step: impl FnMut(f64)) {
        while self.now + self.dt <= t + EPS {
            step(self.dt);
            self.now += self.dt;
            self.steps += 1;
        }
        if t - self.now > EPS {
            step(t - self.now);
            self.now = t;
            self.steps += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_sorted_and_deduped() {
        assert_eq!(
            parse_times(&Budgets::DEFAULT, "0.5,0.1,0.5, 0").expect("a valid list"),
            vec![0.0, 0.1, 0.5]
        );
    }

    #[test]
    fn ranges_include_the_end() {
        assert_eq!(
            parse_times(&Budgets::DEFAULT, "0:1:0.25").expect("a valid list"),
            vec![0.0, 0.25, 0.5, 0.75, 1.0]
        );
        // 0.1 * 3 = 0.30000000000000004 is rounded to 12 decimals, then de-duplicated.
        assert_eq!(
            parse_times(&Budgets::DEFAULT, "0:0.3:0.1,0.3").expect("a valid list"),
            vec![0.0, 0.1, 0.2, 0.3]
        );
    }

    #[test]
    fn bad_lists_fail() {
        for bad in ["x", "0:1", "0:1:0", "0:1:-1", "-1", "1:2:x", "inf", "NaN"] {
            assert!(
                parse_times(&Budgets::DEFAULT, bad).is_err(),
                "{bad} should fail"
            );
        }
    }

    fn run(times: &[f64], fps: f64) -> (Vec<f64>, Vec<(f64, u64)>) {
        let mut clock = Clock::new(fps);
        let mut dts = Vec::new();
        let mut samples = Vec::new();
        for &t in times {
            clock.advance_to(t, |dt| dts.push(dt));
            samples.push((clock.now, clock.steps));
        }
        (dts, samples)
    }

    #[test]
    fn golden_times_land_on_the_grid() {
        // spineboy-pro__run golden: times 0.016666666667 and 0.35 are steps 1 and 21 with
        // clock 1/60 and 21/60 (within the 1e-9 tolerance; no extra short step).
        let (dts, samples) = run(&[0.016666666667, 0.35], 60.0);
        assert_eq!(dts.len(), 21);
        assert!(dts.iter().all(|&d| d == 1.0 / 60.0));
        assert_eq!(samples[0].1, 1);
        assert_eq!(samples[1].1, 21);
        assert!((samples[1].0 - 0.35).abs() < 1e-12);
    }

    #[test]
    fn off_grid_time_gets_one_short_step() {
        let (dts, samples) = run(&[0.25, 0.5], 10.0);
        // 0.1, 0.2, then 0.05 to land on 0.25; then 0.35, 0.45, then 0.05 to 0.5.
        assert_eq!(dts.len(), 6);
        assert!((dts[2] - 0.05).abs() < 1e-12);
        assert!((dts[5] - 0.05).abs() < 1e-12);
        assert_eq!(samples, vec![(0.25, 3), (0.5, 6)]);
    }

    #[test]
    fn time_zero_takes_no_step() {
        let (dts, samples) = run(&[0.0], 60.0);
        assert!(dts.is_empty());
        assert_eq!(samples, vec![(0.0, 0)]);
    }
}
