//! Key interpolation curves and key search, bit-compatible with spine-ts 4.2.
//!
//! Spine 4.x gives every interpolated value of a key its own curve: linear, stepped or a
//! cubic Bezier. Beziers are not solved at runtime: the loader samples each one at
//! t = 0.1 … 0.9 by forward differencing (step 0.1) and stores the 9 (time, value) points as
//! f32; evaluation is then piecewise linear through key → 9 samples → next key. This module
//! reproduces the official arithmetic operation for operation (`CurveTimeline.setBezier`,
//! `getBezierValue`, `DeformTimeline.setBezier/getCurvePercent`, `Timeline.search`).
//!
//! Verified by the unit tests below: hand-computed forward-difference samples, closed-form
//! Bezier values at the sample points, linear/stepped evaluation and the search rules.

/// Floats per sampled Bezier: 9 (time, value) points (Spine `BEZIER_SIZE`).
pub const BEZIER_SIZE: usize = 18;

/// Curve type code: linear interpolation to the next key.
pub const LINEAR: u32 = 0;
/// Curve type code: hold the key's value until the next key.
pub const STEPPED: u32 = 1;
/// Curve type code base: `BEZIER + offset` where `offset` is the start of the curve's samples
/// in [`Curves::samples`].
pub const BEZIER: u32 = 2;

/// Curve type code flag: `EASE + offset` where [`Curves::samples`] holds the
/// [`Easing`](crate::Easing) family's code at `offset` and the strength in hundredths after
/// it (a DragonBones `tweenEasing`, one easing for every value of the key). Bezier offsets
/// stay below it.
pub const EASE: u32 = 1 << 31;

/// The curves of one timeline: a type per key plus the sampled Beziers.
///
/// A key with a Bezier curve has one sampled curve per interpolated value, stored one after
/// the other, so value `k` of a key whose type is `BEZIER + o` starts at `o + k * BEZIER_SIZE`.
///
/// Owner: the animation stage (`anim`; step 2 of `Character::update`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Curves {
    /// One code per key: [`LINEAR`], [`STEPPED`] or `BEZIER + offset`. The last key is always
    /// stepped (COMPAT(spine): the official `CurveTimeline` constructor does the same, and
    /// evaluation at or after the last key relies on it).
    pub types: Vec<u32>,
    /// Sampled Bezier points, [`BEZIER_SIZE`] f32 per curve (time, value pairs).
    pub samples: Vec<f32>,
}

impl Curves {
    /// Curves for `keys` keys, all linear except the last (stepped).
    pub fn new(keys: usize) -> Self {
        let mut types = vec![LINEAR; keys];
        if let Some(last) = types.last_mut() {
            *last = STEPPED;
        }
        Curves {
            types,
            samples: Vec::new(),
        }
    }

    /// Marks key `key` as stepped.
    pub fn set_stepped(&mut self, key: usize) {
        self.types[key] = STEPPED;
    }

    /// Appends the samples of one Bezier for value `value` of key `key` (values must be added
    /// in order 0, 1, ...): the segment from (time1, value1) to (time2, value2) with handles
    /// (cx1, cy1) and (cx2, cy2) in absolute time and value units (Spine `setBezier`).
    #[allow(clippy::too_many_arguments)]
    pub fn push_bezier(
        &mut self,
        key: usize,
        value: usize,
        time1: f64,
        value1: f64,
        cx1: f64,
        cy1: f64,
        cx2: f64,
        cy2: f64,
        time2: f64,
        value2: f64,
    ) {
        let start = self.samples.len();
        if value == 0 {
            self.types[key] = BEZIER + start as u32;
        }
        self.samples.resize(start + BEZIER_SIZE, 0.0);
        sample_bezier(
            &mut self.samples[start..],
            [time1, value1, cx1, cy1, cx2, cy2, time2, value2],
        );
    }

    /// Eases every value of key `key` by `easing` with strength `hundredths / 100`.
    pub fn set_eased(&mut self, key: usize, easing: crate::Easing, hundredths: i16) {
        let start = self.samples.len();
        if let (Some(t), Ok(o)) = (self.types.get_mut(key), u32::try_from(start))
            && o < EASE - BEZIER
        {
            *t = EASE + o;
            self.samples.extend([easing.code(), f32::from(hundredths)]);
        }
    }

    /// The eased progress of a key whose code is `code` (an [`EASE`] code) at linear
    /// progress `p`.
    #[inline]
    fn eased(&self, code: u32, p: f64) -> f64 {
        let o = (code - EASE) as usize;
        match self.samples.get(o..o + 2) {
            // COMPAT(dragonbones): the strength is the stored integer times 0.01.
            Some(&[e, s]) => crate::Easing::from_code(e).progress(f64::from(s) * 0.01, p),
            _ => p,
        }
    }

    /// Appends the samples of a deform curve for key `key`: the value runs from 0 to 1 and
    /// (cx, cy) are the handles (Spine `DeformTimeline.setBezier`).
    #[allow(clippy::too_many_arguments)]
    pub fn push_deform_bezier(
        &mut self,
        key: usize,
        time1: f64,
        cx1: f64,
        cy1: f64,
        cx2: f64,
        cy2: f64,
        time2: f64,
    ) {
        let start = self.samples.len();
        self.types[key] = BEZIER + start as u32;
        self.samples.resize(start + BEZIER_SIZE, 0.0);
        sample_deform_bezier(
            &mut self.samples[start..],
            [time1, cx1, cy1, cx2, cy2, time2],
        );
    }

    /// Value `value` of the key whose frame starts at `frames[i]` (stride `entries`), at
    /// `time`, for a key with a Bezier starting at `samples[b]` (Spine `getBezierValue`).
    #[inline]
    pub fn bezier_value(
        &self,
        frames: &[f32],
        entries: usize,
        time: f64,
        i: usize,
        value: usize,
        b: usize,
    ) -> f64 {
        let c = &self.samples[b..b + BEZIER_SIZE];
        if f64::from(c[0]) > time {
            let x = f64::from(frames[i]);
            let y = f64::from(frames[i + value]);
            return y + (time - x) / (f64::from(c[0]) - x) * (f64::from(c[1]) - y);
        }
        let mut k = 2;
        while k < BEZIER_SIZE {
            if f64::from(c[k]) >= time {
                let x = f64::from(c[k - 2]);
                let y = f64::from(c[k - 1]);
                return y + (time - x) / (f64::from(c[k]) - x) * (f64::from(c[k + 1]) - y);
            }
            k += 2;
        }
        let x = f64::from(c[BEZIER_SIZE - 2]);
        let y = f64::from(c[BEZIER_SIZE - 1]);
        let next = i + entries;
        y + (time - x) / (f64::from(frames[next]) - x) * (f64::from(frames[next + value]) - y)
    }

    /// Value `value` (1-based, after the time) of the key at frame offset `i` (stride
    /// `entries`) at `time`, honouring the key's curve type (linear, stepped or Bezier).
    #[inline(always)]
    pub fn value(&self, frames: &[f32], entries: usize, time: f64, i: usize, value: usize) -> f64 {
        match self.types[i / entries] {
            LINEAR => {
                let before = f64::from(frames[i]);
                let v = f64::from(frames[i + value]);
                let t = (time - before) / (f64::from(frames[i + entries]) - before);
                v + (f64::from(frames[i + entries + value]) - v) * t
            }
            STEPPED => f64::from(frames[i + value]),
            code if code >= EASE => {
                let before = f64::from(frames[i]);
                let v = f64::from(frames[i + value]);
                let p = (time - before) / (f64::from(frames[i + entries]) - before);
                v + (f64::from(frames[i + entries + value]) - v) * self.eased(code, p)
            }
            code => {
                let b = (code - BEZIER) as usize + (value - 1) * BEZIER_SIZE;
                self.bezier_value(frames, entries, time, i, value, b)
            }
        }
    }

    /// The 0..1 interpolation fraction of deform key `key` (one entry per key) at `time`
    /// (Spine `DeformTimeline.getCurvePercent`, including its own operation order).
    #[inline]
    pub fn deform_percent(&self, times: &[f32], time: f64, key: usize) -> f64 {
        match self.types[key] {
            LINEAR => {
                let x = f64::from(times[key]);
                (time - x) / (f64::from(times[key + 1]) - x)
            }
            STEPPED => 0.0,
            code if code >= EASE => {
                let x = f64::from(times[key]);
                self.eased(code, (time - x) / (f64::from(times[key + 1]) - x))
            }
            code => {
                let b = (code - BEZIER) as usize;
                let c = &self.samples[b..b + BEZIER_SIZE];
                if f64::from(c[0]) > time {
                    let x = f64::from(times[key]);
                    return f64::from(c[1]) * (time - x) / (f64::from(c[0]) - x);
                }
                let mut k = 2;
                while k < BEZIER_SIZE {
                    if f64::from(c[k]) >= time {
                        let x = f64::from(c[k - 2]);
                        let y = f64::from(c[k - 1]);
                        return y + (time - x) / (f64::from(c[k]) - x) * (f64::from(c[k + 1]) - y);
                    }
                    k += 2;
                }
                let x = f64::from(c[BEZIER_SIZE - 2]);
                let y = f64::from(c[BEZIER_SIZE - 1]);
                y + (1.0 - y) * (time - x) / (f64::from(times[key + 1]) - x)
            }
        }
    }
}

/// Samples a Bezier by forward differencing into 9 (time, value) f32 pairs.
/// `p` = [time1, value1, cx1, cy1, cx2, cy2, time2, value2].
/// COMPAT(spine): the step constants (0.03, 0.006, 0.3, 0.16666667) and the operation order
/// are the official ones, so the stored samples are bit-identical.
fn sample_bezier(out: &mut [f32], p: [f64; 8]) {
    let [time1, value1, cx1, cy1, cx2, cy2, time2, value2] = p;
    let tmpx = (time1 - cx1 * 2.0 + cx2) * 0.03;
    let tmpy = (value1 - cy1 * 2.0 + cy2) * 0.03;
    let dddx = ((cx1 - cx2) * 3.0 - time1 + time2) * 0.006;
    let dddy = ((cy1 - cy2) * 3.0 - value1 + value2) * 0.006;
    let mut ddx = tmpx * 2.0 + dddx;
    let mut ddy = tmpy * 2.0 + dddy;
    let mut dx = (cx1 - time1) * 0.3 + tmpx + dddx * 0.16666667;
    let mut dy = (cy1 - value1) * 0.3 + tmpy + dddy * 0.16666667;
    let mut x = time1 + dx;
    let mut y = value1 + dy;
    for pair in out[..BEZIER_SIZE].chunks_exact_mut(2) {
        pair[0] = x as f32;
        pair[1] = y as f32;
        dx += ddx;
        dy += ddy;
        ddx += dddx;
        ddy += dddy;
        x += dx;
        y += dy;
    }
}

/// Samples a deform Bezier (value 0 → 1). `p` = [time1, cx1, cy1, cx2, cy2, time2].
/// COMPAT(spine): the official deform variant folds value1 = 0, value2 = 1 into its
/// constants (0.06, 0.018, 0.33333333); kept exactly.
fn sample_deform_bezier(out: &mut [f32], p: [f64; 6]) {
    let [time1, cx1, cy1, cx2, cy2, time2] = p;
    let tmpx = (time1 - cx1 * 2.0 + cx2) * 0.03;
    let tmpy = cy2 * 0.03 - cy1 * 0.06;
    let dddx = ((cx1 - cx2) * 3.0 - time1 + time2) * 0.006;
    let dddy = (cy1 - cy2 + 0.33333333) * 0.018;
    let mut ddx = tmpx * 2.0 + dddx;
    let mut ddy = tmpy * 2.0 + dddy;
    let mut dx = (cx1 - time1) * 0.3 + tmpx + dddx * 0.16666667;
    let mut dy = cy1 * 0.3 + tmpy + dddy * 0.16666667;
    let mut x = time1 + dx;
    let mut y = dy;
    for pair in out[..BEZIER_SIZE].chunks_exact_mut(2) {
        pair[0] = x as f32;
        pair[1] = y as f32;
        dx += ddx;
        dy += ddy;
        ddx += dddx;
        ddy += dddy;
        x += dx;
        y += dy;
    }
}

/// Index of the last key (frame offset, stride `entries`) whose time is <= `time`; the first
/// key when `time` is before every key (Spine `Timeline.search`: the first key with a time
/// greater than `time`, minus one).
#[inline]
pub fn search(frames: &[f32], time: f64, entries: usize) -> usize {
    scan(frames, time, entries, entries)
}

/// [`search`]'s scan from frame offset `i` (a key whose time is compared next).
#[inline(always)]
fn scan(frames: &[f32], time: f64, entries: usize, mut i: usize) -> usize {
    let n = frames.len();
    while i < n {
        if f64::from(frames[i]) > time {
            return i - entries;
        }
        i += entries;
    }
    n - entries
}

/// Keys scanned one by one before a sorted timeline is bisected: the official scan's own
/// order for every key a short timeline has, and for the head of a long one.
pub const BISECT_KEYS: usize = 32;

/// Whether the key times (every `entries`-th float) never decrease, with no NaN: what lets
/// [`search_sorted`] bisect. The official exports always are; a hand-edited file may not be.
pub fn keys_sorted(frames: &[f32], entries: usize) -> bool {
    let mut prev = f32::NEG_INFINITY;
    frames.iter().step_by(entries.max(1)).all(|&t| {
        let ok = prev <= t;
        prev = t;
        ok
    })
}

/// [`search`] for key times that never decrease ([`keys_sorted`]) when `sorted`: the same
/// index, found by scanning the first [`BISECT_KEYS`] keys and bisecting the rest. The scan
/// stops at the first key after the first whose time is greater than `time`; with sorted
/// times `t > time` holds from some key on and not before (for a NaN `time` it never holds:
/// the last key, as the scan finds), so bisecting on it lands on the same key. Long
/// timelines (a baked or captured animation of thousands of keys) then cost a few steps
/// instead of a scan from the first key every frame. Unsorted timelines are scanned to the
/// end, as the official runtime does. Verified by `bisection_finds_the_scans_key` below.
#[inline(always)]
pub fn search_sorted(frames: &[f32], time: f64, entries: usize, sorted: bool) -> usize {
    let head = BISECT_KEYS * entries;
    if frames.len() <= head {
        return scan(frames, time, entries, entries);
    }
    // The head's scan ends on its last key when no key in it is later than `time`.
    let found = scan(&frames[..head], time, entries, entries);
    if found + entries < head {
        return found;
    }
    if sorted {
        bisect(frames, time, entries, head / entries)
    } else {
        scan_rest(frames, time, entries, head)
    }
}

/// The rest of an unsorted timeline's scan, out of line (only long timelines reach it).
#[inline(never)]
fn scan_rest(frames: &[f32], time: f64, entries: usize, i: usize) -> usize {
    scan(frames, time, entries, i)
}

/// The key [`search`] finds in sorted keys, knowing that keys before `first` are not later
/// than `time`: the first key from `first` on whose time is greater, minus one, by halving.
#[inline(never)]
pub fn bisect(frames: &[f32], time: f64, entries: usize, first: usize) -> usize {
    let entries = entries.max(1);
    let keys = frames.len() / entries;
    let (mut lo, mut hi) = (first.clamp(1, keys.max(1)), keys);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if f64::from(frames[mid * entries]) > time {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo.saturating_sub(1) * entries
}

/// [`search`] for one entry per key (Spine `Timeline.search1`).
#[inline]
pub fn search1(times: &[f32], time: f64) -> usize {
    search(times, time, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cubic Bezier coordinate at parameter t.
    fn cubic(p0: f64, p1: f64, p2: f64, p3: f64, t: f64) -> f64 {
        let u = 1.0 - t;
        u * u * u * p0 + 3.0 * u * u * t * p1 + 3.0 * u * t * t * p2 + t * t * t * p3
    }

    #[test]
    fn eased_keys_follow_the_closed_form_for_every_value_and_deforms() {
        // Key (t 1, values 10 and -4) -> (t 3, 30 and 4), QuadInOut strength 0.5, beside a
        // Bezier key so the ease's offset is not 0.
        let mut c = Curves::new(3);
        c.push_bezier(1, 0, 3.0, 0.0, 3.3, 0.0, 3.6, 1.0, 4.0, 1.0);
        c.set_eased(0, crate::Easing::QuadInOut, 50);
        assert!(c.types[0] >= EASE && c.types[1] < EASE);
        let frames = [1.0f32, 10.0, -4.0, 3.0, 30.0, 4.0, 4.0, 1.0, 1.0];
        for time in [1.0, 1.3, 2.0, 2.9] {
            let p: f64 = (time - 1.0) / 2.0;
            let f = 0.5 * (1.0 - (p * std::f64::consts::PI).cos());
            let e = (f - p) * 0.5 + p;
            let got = [
                c.value(&frames, 3, time, 0, 1),
                c.value(&frames, 3, time, 0, 2),
            ];
            let want = [10.0 + 20.0 * e, -4.0 + 8.0 * e];
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() < 1e-12, "t {time}: {g} vs {w}");
            }
        }
        // Deform keys ease their 0..1 fraction the same way (QuadIn, strength 1: p squared).
        let mut d = Curves::new(2);
        d.set_eased(0, crate::Easing::QuadIn, 100);
        let p = d.deform_percent(&[0.0, 2.0], 0.5, 0);
        assert!((p - 0.0625).abs() < 1e-15, "{p}");
    }

    #[test]
    fn bezier_samples_are_the_curve_at_tenths() {
        // Key (0, 0) -> (1, 30) with handles (0.3, 0) and (0.6, 30): the forward differences
        // land on B(0.1) ... B(0.9) up to float rounding.
        let mut c = Curves::new(2);
        c.push_bezier(0, 0, 0.0, 0.0, 0.3, 0.0, 0.6, 30.0, 1.0, 30.0);
        assert_eq!(c.types[0], BEZIER);
        assert_eq!(c.types[1], STEPPED);
        for k in 0..9 {
            let t = (k + 1) as f64 * 0.1;
            let x = cubic(0.0, 0.3, 0.6, 1.0, t);
            let y = cubic(0.0, 0.0, 30.0, 30.0, t);
            assert!((f64::from(c.samples[2 * k]) - x).abs() < 1e-6, "x {k}");
            assert!((f64::from(c.samples[2 * k + 1]) - y).abs() < 1e-5, "y {k}");
        }
    }

    #[test]
    fn bezier_first_sample_by_hand() {
        // time1 = 0, value1 = 0, cx1 = 0.25, cy1 = 0, cx2 = 0.75, cy2 = 1, time2 = 1, value2 = 1:
        // tmpx = (0 - 0.5 + 0.75) * 0.03 = 0.0075; dddx = ((0.25-0.75)*3 + 1) * 0.006 = -0.003
        // dx = 0.25*0.3 + 0.0075 - 0.003*0.16666667 = 0.0819999999...; x1 = dx.
        // tmpy = (0 - 0 + 1) * 0.03 = 0.03; dddy = ((0 - 1)*3 + 1) * 0.006 = -0.012
        // dy = 0 + 0.03 - 0.012*0.16666667 = 0.028; y1 = 0.028.
        let mut c = Curves::new(2);
        c.push_bezier(0, 0, 0.0, 0.0, 0.25, 0.0, 0.75, 1.0, 1.0, 1.0);
        let dx = 0.25f64 * 0.3 + 0.0075 + -0.003f64 * 0.16666667;
        let dy = 0.03f64 + -0.012f64 * 0.16666667;
        assert_eq!(c.samples[0], dx as f32);
        assert_eq!(c.samples[1], dy as f32);
        // Second sample: x2 = x1 + dx + ddx with ddx = 2*tmpx + dddx = 0.012.
        assert_eq!(c.samples[2], (dx + dx + 0.012) as f32);
    }

    #[test]
    fn deform_bezier_matches_the_general_one_for_0_to_1() {
        let mut a = Curves::new(2);
        a.push_bezier(0, 0, 0.2, 0.0, 0.4, 0.1, 0.7, 0.9, 1.2, 1.0);
        let mut d = Curves::new(2);
        d.push_deform_bezier(0, 0.2, 0.4, 0.1, 0.7, 0.9, 1.2);
        for k in 0..BEZIER_SIZE {
            assert!((a.samples[k] - d.samples[k]).abs() < 1e-6, "{k}");
        }
    }

    #[test]
    fn linear_stepped_and_bezier_values() {
        // Two keys of a 1-value timeline: (0, 10) and (2, 30).
        let frames = [0.0f32, 10.0, 2.0, 30.0];
        let mut c = Curves::new(2);
        assert_eq!(c.value(&frames, 2, 0.5, 0, 1), 15.0);
        assert_eq!(c.value(&frames, 2, 2.0, 2, 1), 30.0); // last key is stepped
        c.set_stepped(0);
        assert_eq!(c.value(&frames, 2, 1.9, 0, 1), 10.0);
        // A Bezier with handles on the straight line is linear.
        let mut b = Curves::new(2);
        b.push_bezier(
            0,
            0,
            0.0,
            10.0,
            2.0 / 3.0,
            10.0 + 20.0 / 3.0,
            4.0 / 3.0,
            10.0 + 40.0 / 3.0,
            2.0,
            30.0,
        );
        for t in [0.05, 0.3, 1.0, 1.7, 1.95] {
            assert!(
                (b.value(&frames, 2, t, 0, 1) - (10.0 + 10.0 * t)).abs() < 1e-5,
                "{t}"
            );
        }
    }

    #[test]
    fn second_value_uses_the_next_bezier() {
        // A 2-value key: x goes 0 -> 1 on a straight Bezier, y stays 5 on a flat one.
        let frames = [0.0f32, 0.0, 5.0, 1.0, 1.0, 5.0];
        let mut c = Curves::new(2);
        c.push_bezier(
            0,
            0,
            0.0,
            0.0,
            1.0 / 3.0,
            1.0 / 3.0,
            2.0 / 3.0,
            2.0 / 3.0,
            1.0,
            1.0,
        );
        c.push_bezier(0, 1, 0.0, 5.0, 1.0 / 3.0, 5.0, 2.0 / 3.0, 5.0, 1.0, 5.0);
        assert!((c.value(&frames, 3, 0.45, 0, 1) - 0.45).abs() < 1e-6);
        assert!((c.value(&frames, 3, 0.45, 0, 2) - 5.0).abs() < 1e-6);
    }

    #[test]
    fn deform_percent_linear_and_stepped() {
        let times = [1.0f32, 3.0];
        let mut c = Curves::new(2);
        assert_eq!(c.deform_percent(&times, 1.5, 0), 0.25);
        c.set_stepped(0);
        assert_eq!(c.deform_percent(&times, 2.5, 0), 0.0);
    }

    #[test]
    fn search_finds_the_key_before() {
        let frames = [0.0f32, 9.0, 0.5, 9.0, 0.5, 9.0, 1.0, 9.0];
        assert_eq!(search(&frames, -1.0, 2), 0);
        assert_eq!(search(&frames, 0.25, 2), 0);
        // Equal times: the last of the equal keys.
        assert_eq!(search(&frames, 0.5, 2), 4);
        assert_eq!(search(&frames, 0.99, 2), 4);
        assert_eq!(search(&frames, 1.0, 2), 6);
        assert_eq!(search(&frames, 7.0, 2), 6);
        assert_eq!(search1(&[0.0, 1.0, 2.0], 1.5), 1);
    }

    #[test]
    fn bisection_finds_the_scans_key() {
        // Long timelines with repeated times, an infinite last key, several strides.
        for entries in [1usize, 2, 3, 7] {
            for keys in [1usize, 2, 16, 32, 33, 40, 333] {
                let mut frames = Vec::new();
                for k in 0..keys {
                    let t = if k + 1 == keys && keys > 20 {
                        f32::INFINITY
                    } else {
                        (k / 3) as f32 * 0.25
                    };
                    frames.push(t);
                    frames.extend((1..entries).map(|v| v as f32));
                }
                assert!(keys_sorted(&frames, entries));
                let last = (keys / 3) as f64 * 0.25;
                let mut probes = vec![-1.0, 0.0, 0.1, last, last + 1.0, f64::INFINITY, f64::NAN];
                probes.extend((0..200).map(|i| f64::from(i) * 0.0123));
                for t in probes {
                    let scan = search(&frames, t, entries);
                    let at = format!("entries {entries} keys {keys} time {t}");
                    assert_eq!(search_sorted(&frames, t, entries, true), scan, "{at}");
                    assert_eq!(search_sorted(&frames, t, entries, false), scan, "{at}");
                    assert_eq!(bisect(&frames, t, entries, 1), scan, "{at}");
                }
            }
        }
        assert!(!keys_sorted(&[0.0, 2.0, 1.0], 1));
        assert!(!keys_sorted(&[0.0, 9.0, f32::NAN, 9.0], 2));
        assert!(keys_sorted(&[], 3));
    }
}
