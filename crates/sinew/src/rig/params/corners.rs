//! A binding's non-zero grid corners at the current parameter values: the one place the
//! stage turns parameter values into (keyform index, weight) pairs.
//!
//! The stage normalises each changed parameter once per frame (`norm[p]`, one value per
//! component, NaN for a parameter that does not exist), locates it on the parameter's own
//! keys ([`Cell`]) and computes the corners of a grid over its own axes
//! ([`update_param_corners`]), which every binding that is such a grid ([`ParamGrid`], all of
//! Inochi2D's) shares. Other linear grids over one or two axes take a direct path: locate
//! the cell on each axis, then the up to four corners. It does exactly the arithmetic of the generic path
//! ([`axis_weights`] and [`for_each_corner`]: weights `1 - off` and `off`, products
//! `1.0 · w0 · w1` in axis order, zero weights skipped, odometer order), so both give the same
//! bits; other grids use the generic path. Verified by the unit test below, which compares
//! the two on random grids, and by the stage's tests.

use super::Binding;
#[cfg(test)]
use super::ParamSet;
use crate::math::grid::{AxisWeights, Interp, MAX_AXES, axis_weights, for_each_corner, locate};

/// The normalised value of axis `a` of `b` (NaN when its parameter is missing).
#[inline(always)]
fn axis_t(norm: &[[f64; 2]], b: &Binding, a: usize) -> f64 {
    let ax = &b.axes[a];
    norm.get(ax.param.index())
        .map_or(f64::NAN, |v| v[usize::from(ax.component.min(1))])
}

/// Where a normalised value falls on an axis: the cell and the offset in it, or a single
/// key (an axis of fewer than two keys, or a missing parameter).
///
/// Owner: the builder writes it (`rig::params`); the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Cell {
    /// First key of the cell.
    pub i: u32,
    /// Offset in the cell, 0..1.
    pub off: f64,
    /// Only key 0 counts, with weight 1.
    pub single: bool,
}

impl Cell {
    /// The cell of `t` on `keys` (exactly what `axis_weights` locates).
    #[inline]
    pub fn locate(keys: &[f64], t: f64) -> Cell {
        if keys.len() < 2 || t.is_nan() {
            return Cell {
                i: 0,
                off: 0.0,
                single: true,
            };
        }
        let (i, off) = locate(keys, t);
        Cell {
            i: i as u32,
            off,
            single: false,
        }
    }
}

/// One linear axis as `axis_weights` makes it: key indices, weights, count.
#[inline(always)]
fn linear_axis(c: Cell) -> ([usize; 2], [f64; 2], usize) {
    if c.single {
        return ([0, 0], [1.0, 0.0], 1);
    }
    let i = c.i as usize;
    ([i, i + 1], [1.0 - c.off, c.off], 2)
}

/// Axis `a`'s cell: the stage's per-parameter cell when the binding uses its parameters'
/// own keys (`cells`), else located on the binding's keys.
#[inline(always)]
fn axis_cell(norm: &[[f64; 2]], cells: Option<&[[Cell; 2]]>, b: &Binding, a: usize) -> Cell {
    let ax = &b.axes[a];
    let c = usize::from(ax.component.min(1));
    if let Some(cell) = cells.and_then(|cs| cs.get(ax.param.index())) {
        return cell[c];
    }
    Cell::locate(&ax.keys, axis_t(norm, b, a))
}

/// Up to four corners (keyform index, weight) with non-zero weights.
///
/// Owner: the builder writes it (`rig::params`); the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Corners {
    /// Keyform indices.
    pub flat: [usize; 4],
    /// Weights.
    pub weight: [f64; 4],
    /// How many are used.
    pub len: usize,
}

impl Corners {
    /// The grid's value over scalar keyforms: `0.0 + w·v` per corner, in order (the fold
    /// of the corners, which the unit test below checks bit for bit).
    #[inline(always)]
    pub fn scalar(&self, values: &[f32]) -> f64 {
        let mut v = 0.0;
        for k in 0..self.len.min(4) {
            if let Some(&x) = values.get(self.flat[k]) {
                v += self.weight[k] * f64::from(x);
            }
        }
        v
    }

    #[inline(always)]
    fn push(&mut self, flat: usize, w: f64) {
        if w != 0.0 && self.len < 4 {
            self.flat[self.len] = flat;
            self.weight[self.len] = w;
            self.len += 1;
        }
    }
}

/// The corners of a linear grid over one or two axes, or `None` for other grids. `cells`
/// (the stage's per-parameter cells) may be given when every axis of `b` uses its
/// parameter's own keys.
#[inline(always)]
pub fn linear_corners(
    norm: &[[f64; 2]],
    cells: Option<&[[Cell; 2]]>,
    b: &Binding,
) -> Option<Corners> {
    let na = b.axes.len().min(b.dims.len());
    if b.interp != Interp::Linear || !(na == 1 || na == 2) {
        return None;
    }
    let c0 = axis_cell(norm, cells, b, 0);
    if na == 1 {
        return Some(corners_of(c0, None, 1));
    }
    Some(corners_of(
        c0,
        Some(axis_cell(norm, cells, b, 1)),
        b.dims[1],
    ))
}

/// The non-zero corners of a linear grid from its axes' cells (`c1` `None` for one axis;
/// `d1` keys on the second axis): weights `1.0 · w0 · w1`, in odometer order.
#[inline(always)]
fn corners_of(c0: Cell, c1: Option<Cell>, d1: u32) -> Corners {
    let mut out = Corners::default();
    fill_corners(&mut out, c0, c1, d1);
    out
}

/// [`corners_of`] written into `out`.
#[inline(always)]
fn fill_corners(out: &mut Corners, c0: Cell, c1: Option<Cell>, d1: u32) {
    out.len = 0;
    let (i0, w0, n0) = linear_axis(c0);
    let Some(c1) = c1 else {
        for c in 0..n0 {
            out.push(i0[c], 1.0 * w0[c]);
        }
        return;
    };
    let (i1, w1, n1) = linear_axis(c1);
    let d1 = d1 as usize;
    for a in 0..n0 {
        for b in 0..n1 {
            out.push(i0[a] * d1 + i1[b], 1.0 * w0[a] * w1[b]);
        }
    }
}

/// A linear grid over exactly one parameter's own axes (its x axis, or x and y with
/// their own keys; every Inochi2D binding): all such grids of a parameter share the same
/// corners, which the stage computes once per frame per parameter ([`update_param_corners`]).
///
/// Owner: the builder writes it (`rig::params`); the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamGrid {
    /// The parameter.
    pub param: u16,
    /// Over both components (else over x only).
    pub two: bool,
}

impl ParamGrid {
    /// The per-parameter form of `b`, or `None` when `b` is not such a grid. `param_keys`
    /// are every parameter's own axis points per component.
    pub fn new(b: &Binding, param_keys: &[[Vec<f64>; 2]]) -> Option<ParamGrid> {
        if b.interp != Interp::Linear || b.dims.len() != b.axes.len() {
            return None;
        }
        let p = b.axes.first()?.param;
        let keys = param_keys.get(p.index())?;
        let own = |a: usize, c: u8| {
            b.axes
                .get(a)
                .is_some_and(|x| x.param == p && x.component == c && x.keys == keys[usize::from(c)])
        };
        let two = match b.axes.len() {
            1 if own(0, 0) => false,
            2 if own(0, 0) && own(1, 1) => true,
            _ => return None,
        };
        Some(ParamGrid { param: p.0, two })
    }

    /// Its corners among the stage's per-parameter corners.
    #[inline(always)]
    pub fn corners<'a>(&self, corners: &'a [[Corners; 2]]) -> Option<&'a Corners> {
        corners
            .get(usize::from(self.param))
            .map(|c| &c[usize::from(self.two)])
    }
}

/// A parameter's corners from its cells, `[x axis only, x and y]` (`d1`: keys on y), what
/// [`linear_corners`] gives for a binding over those axes with the parameter's own keys,
/// for the forms some binding uses (`forms` bit 0: x only, bit 1: x and y); the others are
/// left as they were.
#[inline]
pub fn update_param_corners(out: &mut [Corners; 2], cells: [Cell; 2], d1: usize, forms: u8) {
    if forms & 1 != 0 {
        fill_corners(&mut out[0], cells[0], None, 1);
    }
    if forms & 2 != 0 {
        fill_corners(&mut out[1], cells[0], Some(cells[1]), d1 as u32);
    }
}

/// Calls `f(flat, weight)` for every non-zero corner of `b` at the normalised values.
#[inline]
pub fn binding_corners(
    norm: &[[f64; 2]],
    cells: Option<&[[Cell; 2]]>,
    b: &Binding,
    mut f: impl FnMut(usize, f64),
) {
    if let Some(c) = linear_corners(norm, cells, b) {
        for k in 0..c.len {
            f(c.flat[k], c.weight[k]);
        }
        return;
    }
    let na = b.axes.len().min(b.dims.len()).min(MAX_AXES);
    let mut weights = [AxisWeights::default(); MAX_AXES];
    for (a, w) in weights.iter_mut().enumerate().take(na) {
        let ta = axis_t(norm, b, a);
        *w = if ta.is_nan() {
            AxisWeights::single(0)
        } else {
            axis_weights(&b.axes[a].keys, ta, b.interp)
        };
    }
    for_each_corner(&weights[..na], &b.dims[..na], 1.0, f);
}

/// Every parameter's normalised values (a test and tooling helper; the stage keeps them in
/// its cache).
#[cfg(test)]
pub fn normalize_all(set: &ParamSet, values: &[[f64; 2]]) -> Vec<[f64; 2]> {
    set.params
        .iter()
        .zip(values)
        .map(|(p, v)| [p.normalize(0, v[0]), p.normalize(1, v[1])])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::ParamId;
    use crate::rig::params::{GridAxis, ParamData, Target};

    fn param(name: &str) -> ParamData {
        ParamData {
            name: name.into(),
            is_2d: true,
            min: [-1.0, -2.0],
            max: [1.0, 2.0],
            default: [0.0, 0.0],
            driven: false,
        }
    }

    /// The generic path, forced.
    fn generic(set: &ParamSet, values: &[[f64; 2]], b: &Binding) -> Vec<(usize, u64)> {
        let mut weights = [AxisWeights::default(); MAX_AXES];
        for (a, ax) in b.axes.iter().enumerate() {
            let pd = &set.params[ax.param.index()];
            let c = usize::from(ax.component);
            weights[a] = axis_weights(
                &ax.keys,
                pd.normalize(c, values[ax.param.index()][c]),
                b.interp,
            );
        }
        let mut out = Vec::new();
        for_each_corner(&weights[..b.axes.len()], &b.dims, 1.0, |f, w| {
            out.push((f, w.to_bits()))
        });
        out
    }

    #[test]
    fn direct_path_matches_the_generic_one_bit_for_bit() {
        let set = ParamSet {
            params: vec![param("A"), param("B")],
            ..Default::default()
        };
        let keysets: [&[f64]; 4] = [&[0.0], &[0.0, 1.0], &[0.0, 0.5, 1.0], &[0.0, 0.2, 0.7, 1.0]];
        let mut seed = 12345u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 5.0 - 2.5
        };
        for k0 in keysets {
            for k1 in keysets {
                for two in [false, true] {
                    let mut axes = vec![GridAxis {
                        param: ParamId(0),
                        component: 0,
                        keys: k0.to_vec(),
                    }];
                    let mut dims = vec![k0.len() as u32];
                    if two {
                        axes.push(GridAxis {
                            param: ParamId(1),
                            component: 1,
                            keys: k1.to_vec(),
                        });
                        dims.push(k1.len() as u32);
                    }
                    let count: u32 = dims.iter().product();
                    let b = Binding {
                        target: Target::BoneX(crate::ids::BoneId(0)),
                        interp: Interp::Linear,
                        axes,
                        dims,
                        stride: 1,
                        values: (0..count).map(|i| (i as f32 - 3.3) * 1.7).collect(),
                        driven: false,
                    };
                    for _ in 0..50 {
                        // Values outside the ranges and exactly on keys included.
                        let mut v = [[rnd(), rnd()], [rnd(), rnd()]];
                        if rnd() > 1.5 {
                            v[0][0] = 0.0;
                        }
                        let mut fast = Vec::new();
                        let norm = normalize_all(&set, &v);
                        binding_corners(&norm, None, &b, |f, w| fast.push((f, w.to_bits())));
                        // Through per-parameter cells (the binding uses its own keys here,
                        // as each parameter's keys for the test).
                        let cells: Vec<[Cell; 2]> = (0..2)
                            .map(|p| {
                                [0, 1].map(|c| {
                                    let keys = b
                                        .axes
                                        .iter()
                                        .find(|a| {
                                            a.param.index() == p && usize::from(a.component) == c
                                        })
                                        .map_or(&[][..], |a| &a.keys[..]);
                                    Cell::locate(keys, norm[p][c])
                                })
                            })
                            .collect();
                        let mut via = Vec::new();
                        binding_corners(&norm, Some(&cells), &b, |f, w| via.push((f, w.to_bits())));
                        assert_eq!(via, fast);
                        // The direct scalar sum is the fold of those corners, bit for bit.
                        let mut folded = 0.0;
                        for &(f, w) in &fast {
                            folded += f64::from_bits(w) * f64::from(b.values[f]);
                        }
                        let corners = linear_corners(&norm, Some(&cells), &b).expect("linear");
                        let direct = corners.scalar(&b.values);
                        assert_eq!(direct.to_bits(), folded.to_bits(), "{k0:?} {k1:?} {v:?}");
                        assert_eq!(fast, generic(&set, &v, &b), "{k0:?} {k1:?} {v:?}");
                    }
                }
            }
        }
    }
}
