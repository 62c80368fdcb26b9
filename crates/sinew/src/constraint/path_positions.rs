//! Points along a path (Spine `PathConstraint.computeWorldPositions`): where each space
//! lands on the spline, with its tangent angle.
//!
//! COMPAT(spine): the arc-length approximation is Spine's, step for step. With
//! `constantSpeed`, each curve's total length comes from a 4-sample forward difference and
//! positions within a curve are mapped through a 10-segment table; without it, the stored
//! curve lengths pick the curve and the parameter is the plain fraction within it. The
//! curve and segment cursors carry over from one point to the next, as in spine-ts.
//! Verified with the rest of the path constraint in `path_tests.rs`.

use super::{PathScratch, ensure_len};
use crate::instance::Instance;
use crate::math::trig;
use crate::rig::{PathAttachment, PathData, PathMix, Rig};
use crate::types::{PositionMode, SpacingMode};

/// Which part of the path `scratch.world` holds (Spine's `prevCurve`).
#[derive(Clone, Copy, PartialEq)]
enum Loaded {
    /// Nothing yet.
    None,
    /// The first curve's start, for points before the path.
    Before,
    /// The last curve's end, for points after the path.
    After,
    /// One curve.
    Curve(usize),
}

/// Computes `spaces_count` points (x, y, angle) into `scratch.positions` for the spaces in
/// `scratch.spaces`, starting at the constraint's position. Returns false, computing
/// nothing, for a path without curves or without the curve lengths it needs.
#[allow(clippy::too_many_arguments)]
pub(super) fn compute_world_positions(
    rig: &Rig,
    inst: &Instance,
    data: &PathData,
    path: &PathAttachment,
    spaces_count: usize,
    tangents: bool,
    mix: PathMix,
    scratch: &mut PathScratch,
) -> bool {
    let target = data.target;
    let mut position = mix.position;
    ensure_len(&mut scratch.positions, spaces_count * 3 + 2);
    let closed = path.closed;
    let v43 = rig.runtime == crate::types::SpineRuntime::V43;
    let mut vertices_length = path.vertices.count as usize * 2;
    let mut curve_count = vertices_length / 6;
    // Path vertices in world space, as Spine's computeWorldVertices(target, start, count...).
    let world_of = |start: usize, count: usize, out: &mut [f64], offset: usize| {
        crate::deform::vertices::world_vertices_f64(
            rig, inst, target, start, count, out, offset, 2,
        );
    };
    let multiplier_for = |path_length: f64| match data.spacing_mode {
        SpacingMode::Percent => path_length,
        SpacingMode::Proportional => path_length / spaces_count as f64,
        _ => 1.0,
    };

    if !path.constant_speed {
        let lengths = &path.lengths;
        curve_count = curve_count.saturating_sub(if closed { 1 } else { 2 });
        let Some(&last) = lengths.get(curve_count) else {
            return false;
        };
        let path_length = last;
        if data.position_mode == PositionMode::Percent {
            position *= path_length;
        }
        let multiplier = multiplier_for(path_length);
        ensure_len(&mut scratch.world, 8);
        let world = &mut scratch.world;
        let out = &mut scratch.positions;
        let mut loaded = Loaded::None;
        let mut curve = 0usize;
        for i in 0..spaces_count {
            let o = 3 * i;
            let space = scratch.spaces[i] * multiplier;
            position += space;
            let mut p = position;
            if closed {
                p %= path_length;
                if p < 0.0 {
                    p += path_length;
                }
                curve = 0;
            } else if p < 0.0 {
                if loaded != Loaded::Before {
                    loaded = Loaded::Before;
                    world_of(2, 4, world, 0);
                }
                add_before_position(p, world, 0, out, o);
                continue;
            } else if p > path_length {
                if loaded != Loaded::After {
                    loaded = Loaded::After;
                    world_of(vertices_length - 6, 4, world, 0);
                }
                add_after_position(p - path_length, world, 0, out, o);
                continue;
            }
            // The curve containing the position, and the fraction within it.
            while curve + 1 < lengths.len() && p > lengths[curve] {
                curve += 1;
            }
            let length = lengths[curve];
            if curve == 0 {
                p /= length;
            } else {
                let prev = lengths[curve - 1];
                p = (p - prev) / (length - prev);
            }
            if loaded != Loaded::Curve(curve) {
                loaded = Loaded::Curve(curve);
                if closed && curve == curve_count {
                    world_of(vertices_length - 4, 4, world, 0);
                    world_of(0, 4, world, 4);
                } else {
                    world_of(curve * 6 + 2, 8, world, 0);
                }
            }
            let w = [
                world[0], world[1], world[2], world[3], world[4], world[5], world[6], world[7],
            ];
            add_curve_position(p, w, out, o, tangents || (i > 0 && space == 0.0));
        }
        return true;
    }

    // Every curve's world vertices, from the first point to the last (closed: back to the
    // first point), without the outer handles.
    if closed {
        vertices_length += 2;
        ensure_len(&mut scratch.world, vertices_length);
        let world = &mut scratch.world;
        world_of(2, vertices_length - 4, world, 0);
        world_of(0, 2, world, vertices_length - 4);
        world[vertices_length - 2] = world[0];
        world[vertices_length - 1] = world[1];
    } else {
        curve_count = curve_count.saturating_sub(1);
        vertices_length = vertices_length.saturating_sub(4);
        ensure_len(&mut scratch.world, vertices_length.max(2));
        world_of(2, vertices_length, &mut scratch.world, 0);
    }
    if curve_count == 0 {
        return false;
    }

    // Coarse curve lengths: 4 forward-difference samples per curve.
    ensure_len(&mut scratch.curves, curve_count);
    let world = &scratch.world;
    let curves = &mut scratch.curves;
    let mut path_length = 0.0;
    let (mut x1, mut y1) = (world[0], world[1]);
    for (i, c) in curves.iter_mut().enumerate().take(curve_count) {
        let w = 2 + 6 * i;
        let (cx1, cy1, cx2, cy2, x2, y2) = (
            world[w],
            world[w + 1],
            world[w + 2],
            world[w + 3],
            world[w + 4],
            world[w + 5],
        );
        let tmpx = (x1 - cx1 * 2.0 + cx2) * 0.1875;
        let tmpy = (y1 - cy1 * 2.0 + cy2) * 0.1875;
        let dddfx = ((cx1 - cx2) * 3.0 - x1 + x2) * 0.09375;
        let dddfy = ((cy1 - cy2) * 3.0 - y1 + y2) * 0.09375;
        let mut ddfx = tmpx * 2.0 + dddfx;
        let mut ddfy = tmpy * 2.0 + dddfy;
        let mut dfx = (cx1 - x1) * 0.75 + tmpx + dddfx * 0.16666667;
        let mut dfy = (cy1 - y1) * 0.75 + tmpy + dddfy * 0.16666667;
        path_length += (dfx * dfx + dfy * dfy).sqrt();
        dfx += ddfx;
        dfy += ddfy;
        ddfx += dddfx;
        ddfy += dddfy;
        path_length += (dfx * dfx + dfy * dfy).sqrt();
        dfx += ddfx;
        dfy += ddfy;
        path_length += (dfx * dfx + dfy * dfy).sqrt();
        dfx += ddfx + dddfx;
        dfy += ddfy + dddfy;
        path_length += (dfx * dfx + dfy * dfy).sqrt();
        *c = path_length;
        x1 = x2;
        y1 = y2;
    }

    if data.position_mode == PositionMode::Percent {
        position *= path_length;
    }
    let multiplier = multiplier_for(path_length);
    ensure_len(&mut scratch.segments, 10);
    let segments = &mut scratch.segments;
    let out = &mut scratch.positions;
    let curves = &scratch.curves[..curve_count];
    let mut curve_length = 0.0;
    let mut loaded = Loaded::None;
    let (mut curve, mut segment) = (0usize, 0usize);
    let mut pts = [0.0f64; 8];
    for i in 0..spaces_count {
        let o = 3 * i;
        let space = scratch.spaces[i] * multiplier;
        position += space;
        let mut p = position;
        if closed {
            p %= path_length;
            if p < 0.0 {
                p += path_length;
            }
            curve = 0;
            if v43 {
                // Spine 4.3 also restarts the segment search (4.2 keeps the last segment).
                segment = 0;
            }
        } else if p < 0.0 {
            add_before_position(p, world, 0, out, o);
            continue;
        } else if p > path_length {
            add_after_position(p - path_length, world, vertices_length - 4, out, o);
            continue;
        }
        // The curve containing the position, and the fraction within it.
        curve = first_end_reaching(curves, curve, p);
        let length = curves[curve];
        if curve == 0 {
            p /= length;
        } else {
            let prev = curves[curve - 1];
            p = (p - prev) / (length - prev);
        }
        // Fine segment lengths of this curve: 10 forward-difference samples.
        if loaded != Loaded::Curve(curve) {
            loaded = Loaded::Curve(curve);
            let ii = curve * 6;
            pts.copy_from_slice(&world[ii..ii + 8]);
            let [x1, y1, cx1, cy1, cx2, cy2, x2, y2] = pts;
            let tmpx = (x1 - cx1 * 2.0 + cx2) * 0.03;
            let tmpy = (y1 - cy1 * 2.0 + cy2) * 0.03;
            let dddfx = ((cx1 - cx2) * 3.0 - x1 + x2) * 0.006;
            let dddfy = ((cy1 - cy2) * 3.0 - y1 + y2) * 0.006;
            let mut ddfx = tmpx * 2.0 + dddfx;
            let mut ddfy = tmpy * 2.0 + dddfy;
            let mut dfx = (cx1 - x1) * 0.3 + tmpx + dddfx * 0.16666667;
            let mut dfy = (cy1 - y1) * 0.3 + tmpy + dddfy * 0.16666667;
            curve_length = (dfx * dfx + dfy * dfy).sqrt();
            segments[0] = curve_length;
            for s in segments.iter_mut().take(8).skip(1) {
                dfx += ddfx;
                dfy += ddfy;
                ddfx += dddfx;
                ddfy += dddfy;
                curve_length += (dfx * dfx + dfy * dfy).sqrt();
                *s = curve_length;
            }
            dfx += ddfx;
            dfy += ddfy;
            curve_length += (dfx * dfx + dfy * dfy).sqrt();
            segments[8] = curve_length;
            dfx += ddfx + dddfx;
            dfy += ddfy + dddfy;
            curve_length += (dfx * dfx + dfy * dfy).sqrt();
            segments[9] = curve_length;
            segment = 0;
        }
        // Weight by segment length.
        p *= curve_length;
        segment = first_end_reaching(&segments[..10], segment, p);
        let length = segments[segment];
        if segment == 0 {
            p /= length;
        } else {
            let prev = segments[segment - 1];
            p = segment as f64 + (p - prev) / (length - prev);
        }
        add_curve_position(p * 0.1, pts, out, o, tangents || (i > 0 && space == 0.0));
    }
    true
}

/// The first index at or after `from` whose running length `ends[i]` is not below `p`, or
/// the last index when every one before it is: what spine-ts's linear scan (`for (;; curve++)
/// if (p > length) continue;`) finds, by bisection. `ends` is a running sum of square roots
/// (lengths >= 0), so `p > end` holds on a prefix only: the sums never decrease, and once one
/// is NaN every later one is too and compares false. That is what makes bisection land on
/// the scan's index, bit for bit (test `bisection_finds_what_the_scan_finds`).
#[inline]
fn first_end_reaching(ends: &[f64], from: usize, p: f64) -> usize {
    let last = ends.len().saturating_sub(1);
    let from = from.min(last);
    from + ends[from..last].partition_point(|&end| p > end)
}

/// The scan [`first_end_reaching`] replaces, kept as its reference.
#[cfg(test)]
fn first_end_reaching_by_scan(ends: &[f64], from: usize, p: f64) -> usize {
    let mut i = from;
    while i + 1 < ends.len() && p > ends[i] {
        i += 1;
    }
    i
}

/// A point `p` (negative) before the path's start, along the first handle's direction.
fn add_before_position(p: f64, temp: &[f64], i: usize, out: &mut [f64], o: usize) {
    let (x1, y1) = (temp[i], temp[i + 1]);
    let r = trig::atan2(temp[i + 3] - y1, temp[i + 2] - x1);
    let (sin, cos) = trig::sin_cos(r);
    out[o] = x1 + p * cos;
    out[o + 1] = y1 + p * sin;
    out[o + 2] = r;
}

/// A point `p` past the path's end, along the last handle's direction.
fn add_after_position(p: f64, temp: &[f64], i: usize, out: &mut [f64], o: usize) {
    let (x1, y1) = (temp[i + 2], temp[i + 3]);
    let r = trig::atan2(y1 - temp[i + 1], x1 - temp[i]);
    let (sin, cos) = trig::sin_cos(r);
    out[o] = x1 + p * cos;
    out[o + 1] = y1 + p * sin;
    out[o + 2] = r;
}

/// The point at parameter `p` of the cubic `[x1, y1, cx1, cy1, cx2, cy2, x2, y2]`, and its
/// tangent angle when `tangents` (below p = 0.001, the first handle's direction).
fn add_curve_position(p: f64, c: [f64; 8], out: &mut [f64], o: usize, tangents: bool) {
    let [x1, y1, cx1, cy1, cx2, cy2, x2, y2] = c;
    if p == 0.0 || p.is_nan() {
        out[o] = x1;
        out[o + 1] = y1;
        out[o + 2] = trig::atan2(cy1 - y1, cx1 - x1);
        return;
    }
    let tt = p * p;
    let ttt = tt * p;
    let u = 1.0 - p;
    let uu = u * u;
    let uuu = uu * u;
    let ut = u * p;
    let ut3 = ut * 3.0;
    let uut3 = u * ut3;
    let utt3 = ut3 * p;
    let x = x1 * uuu + cx1 * uut3 + cx2 * utt3 + x2 * ttt;
    let y = y1 * uuu + cy1 * uut3 + cy2 * utt3 + y2 * ttt;
    out[o] = x;
    out[o + 1] = y;
    if tangents {
        out[o + 2] = if p < 0.001 {
            trig::atan2(cy1 - y1, cx1 - x1)
        } else {
            trig::atan2(
                y - (y1 * uu + cy1 * ut * 2.0 + cy2 * tt),
                x - (x1 * uu + cx1 * ut * 2.0 + cx2 * tt),
            )
        };
    }
}

#[cfg(test)]
mod bisection_tests {
    use super::*;

    /// Running sums of square roots like the ones the path builds, with the awkward cases:
    /// zero-length curves (equal sums), an infinite length, and a NaN tail.
    fn sums(lengths: &[f64]) -> Vec<f64> {
        let mut total = 0.0;
        lengths
            .iter()
            .map(|&l| {
                total += f64::sqrt(l);
                total
            })
            .collect()
    }

    #[test]
    fn bisection_finds_what_the_scan_finds() {
        let cases = [
            sums(&[4.0]),
            sums(&[4.0, 9.0, 0.0, 0.0, 1.0, 16.0, 0.25]),
            sums(&[0.0, 0.0, 0.0]),
            sums(&[1.0, f64::INFINITY, 2.0]),
            sums(&[1.0, 4.0, f64::NAN, 9.0, 1.0]),
            sums(&[f64::NAN, 1.0]),
            (0..40).map(|i| f64::from(i) * 1.5).collect(),
        ];
        let probes = [
            f64::NEG_INFINITY,
            -1.0,
            0.0,
            1e-300,
            0.5,
            1.0,
            2.0,
            3.0,
            3.5,
            5.0,
            6.0,
            6.5,
            9.0,
            30.0,
            58.5,
            1e9,
            f64::INFINITY,
            f64::NAN,
        ];
        for ends in &cases {
            for from in 0..ends.len() {
                for &p in &probes {
                    assert_eq!(
                        first_end_reaching(ends, from, p),
                        first_end_reaching_by_scan(ends, from, p),
                        "ends {ends:?} from {from} p {p}"
                    );
                }
            }
        }
        assert_eq!(first_end_reaching(&[], 0, 1.0), 0);
    }
}
