//! The cage solver on its own: bind points to a cage (polygons with holes, or a triangle
//! mesh whose boundary is found and ordered for you) with mean value coordinates (or, in a
//! build with the `harmonic` feature, harmonic or biharmonic weights), dense or
//! sparse (K weights per point, or per point the fewest weights that keep the deformation
//! within an error you give), deform with moved cage vertices in one call over flat
//! float arrays, and save or load the weights in sinew's versioned binary format
//! (`sinew::cage::format`, the same files `sinew cage bind` writes).

use crate::cage_method::{SinewCageMethod, bind_dense, method_arg};
use crate::handle::{Registry, TAG_CAGE, handle, raw};
use crate::{Fail, Res, SinewStatus, bytes_arg, copy_out, guard, out_slice, put, slice_arg};
use sinew::cage::format::{LoadedBinding, decode, encode_dense, encode_grid, encode_sparse};
use sinew::cage::{
    Cage, CageBinding, CageError, GridBinding, GridOptions, SparseBinding, SparseOptions,
};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// A cage binding: weights of points to the vertices of a cage. Opaque. Use one from one
/// thread at a time (calls are serialised by a lock); it may be bound on one thread and
/// deformed on another.
pub struct SinewCage {
    _opaque: [u8; 0],
}

/// What a cage handle holds.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SinewCageInfo {
    /// 1 once bound (or loaded).
    pub bound: u32,
    /// Points bound (the deformed output has 2 floats per point).
    pub points: u32,
    /// Cage vertices (the deform input has 2 floats per vertex).
    pub cage_vertices: u32,
    /// K of a sparse binding (for a `SINEW_SPARSE_BY_ERROR` binding, the most weights any
    /// point kept), 4 for a `SINEW_GRID_BY_ERROR` binding, 0 for dense weights.
    pub sparse_k: u32,
    /// For a sparse or grid binding: the largest per-point L1 change of the weights against
    /// the dense ones (0 for dense or loaded bindings).
    pub truncation_max_l1: f64,
}

/// `sparse_k` value for the bind functions: keep, per point, the fewest weights whose error
/// bound meets the one set by `sinew_cage_set_sparse_error` (tolerance-chosen sparse
/// weights, `SparseBinding::from_dense_tolerance`).
pub const SINEW_SPARSE_BY_ERROR: u32 = u32::MAX;

/// `sparse_k` value for the bind functions: interpolate each point from the four corners of
/// a grid cell whose nodes carry the dense weights, at the coarsest level within the error
/// set by `sinew_cage_set_sparse_error` (points no level serves keep their own weights;
/// `GridBinding`). The same bound as `SINEW_SPARSE_BY_ERROR`, and on large meshes a deform
/// several times faster than dense; `SinewCageInfo.sparse_k` reads 4.
pub const SINEW_GRID_BY_ERROR: u32 = u32::MAX - 1;

enum Binding {
    None,
    Dense(CageBinding),
    Sparse(SparseBinding),
    /// Grid-interpolated weights and the nodes' scratch positions.
    Grid(GridBinding, Vec<f32>),
}

impl Binding {
    /// (cage vertices, points) of a bound binding.
    fn counts(&self) -> Option<(usize, usize)> {
        match self {
            Binding::None => None,
            Binding::Dense(b) => Some((b.cage_vertex_count(), b.point_count())),
            Binding::Sparse(b) => Some((b.cage_vertex_count(), b.point_count())),
            Binding::Grid(g, _) => Some((g.cage_vertex_count(), g.point_count())),
        }
    }

    fn grid(g: GridBinding) -> Binding {
        let nodes = vec![0.0; g.scratch_len()];
        Binding::Grid(g, nodes)
    }
}

struct CageState {
    binding: Binding,
    /// Rest cage vertices (x, y pairs), when bound here.
    rest: Vec<f32>,
    /// For a mesh bind: the mesh vertex of each cage vertex.
    boundary: Vec<u32>,
    truncation: f64,
    /// `(max_error, motion)` for `SINEW_SPARSE_BY_ERROR` binds.
    sparse_error: Option<(f64, f64)>,
    /// The weights later binds compute (`sinew_cage_set_method`).
    method: SinewCageMethod,
}

pub(crate) struct CageObj {
    state: Mutex<CageState>,
}

static CAGES: Registry<CageObj> = Registry::new(TAG_CAGE, "cage");

fn with<T>(cage: *const SinewCage, f: impl FnOnce(&mut CageState) -> Res<T>) -> Res<T> {
    let obj = CAGES.get(raw(cage))?;
    let mut g: MutexGuard<'_, CageState> = obj.state.lock().unwrap_or_else(PoisonError::into_inner);
    f(&mut g)
}

fn cage_fail(e: CageError) -> Fail {
    Fail::new(SinewStatus::CageFailed, e.to_string())
}

fn insert(state: CageState, out: *mut *mut SinewCage) -> Res {
    if out.is_null() {
        return Err(crate::null_arg("out"));
    }
    let h = CAGES.insert(CageObj {
        state: Mutex::new(state),
    })?;
    put(out, handle(h), "out")
}

/// A new, unbound cage handle in `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_create(out: *mut *mut SinewCage) -> SinewStatus {
    guard(|| {
        insert(
            CageState {
                binding: Binding::None,
                rest: Vec::new(),
                boundary: Vec::new(),
                truncation: 0.0,
                sparse_error: None,
                method: SinewCageMethod::MeanValue,
            },
            out,
        )
    })
}

/// Destroys a cage. Null or already destroyed: no-op.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_destroy(cage: *mut SinewCage) -> SinewStatus {
    guard(|| CAGES.remove(raw(cage)).map(drop))
}

fn pairs(xy: &[f32]) -> Vec<[f64; 2]> {
    xy.chunks_exact(2)
        .map(|p| [f64::from(p[0]), f64::from(p[1])])
        .collect()
}

fn float_count(count: usize, what: &str) -> Res<usize> {
    count
        .checked_mul(2)
        .ok_or_else(|| Fail::new(SinewStatus::InvalidArgument, format!("{what} too large")))
}

/// Binds `points` to `cage`, dense or with `sparse_k` weights per point.
fn bind(s: &mut CageState, cage: &Cage, points: &[[f64; 2]], sparse_k: u32) -> Res {
    s.rest = cage
        .points()
        .iter()
        .flat_map(|p| [p[0] as f32, p[1] as f32])
        .collect();
    s.truncation = 0.0;
    if sparse_k == SINEW_GRID_BY_ERROR {
        if s.method != SinewCageMethod::MeanValue {
            return Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!(
                    "sparse_k is SINEW_GRID_BY_ERROR, whose grid carries mean value weights \
                     only, but the method is {}",
                    s.method.name()
                ),
            ));
        }
        let (max_error, motion) = error_set(s, "SINEW_GRID_BY_ERROR")?;
        let opts = GridOptions::for_error(max_error, motion);
        let (grid, report) = GridBinding::bind(cage, points, &opts).map_err(cage_fail)?;
        s.truncation = report.max_l1;
        s.binding = Binding::grid(grid);
        return Ok(());
    }
    let dense = bind_dense(s.method, cage, points).map_err(cage_fail)?;
    s.binding = if sparse_k == 0 {
        Binding::Dense(dense)
    } else if sparse_k == SINEW_SPARSE_BY_ERROR {
        let (max_error, motion) = error_set(s, "SINEW_SPARSE_BY_ERROR")?;
        let opts = SparseOptions::for_error(max_error, motion);
        let (sparse, report) =
            SparseBinding::from_dense_tolerance(cage, points, &dense, &opts).map_err(cage_fail)?;
        s.truncation = report.max_l1;
        Binding::Sparse(sparse)
    } else {
        let (sparse, report) = SparseBinding::from_dense(cage, points, &dense, sparse_k as usize)
            .map_err(cage_fail)?;
        s.truncation = report.max_l1;
        Binding::Sparse(sparse)
    };
    Ok(())
}

/// The `(max_error, motion)` set by `sinew_cage_set_sparse_error`, which a `sparse_k` of
/// `what` needs.
fn error_set(s: &CageState, what: &str) -> Res<(f64, f64)> {
    s.sparse_error.ok_or_else(|| {
        Fail::new(
            SinewStatus::InvalidArgument,
            format!("sparse_k is {what} but no error was set (sinew_cage_set_sparse_error)"),
        )
    })
}

/// Sets the error that `SINEW_SPARSE_BY_ERROR` binds of this handle keep to: the sparse
/// deformation stays within `max_error` units of the dense one while no deformed cage vertex
/// is more than `motion` units from where some affine map of the rest cage would put it (the
/// affine part of any motion is reproduced exactly; see `SparseOptions::for_error`). Both
/// must be finite and greater than 0. Applies to later binds only.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_set_sparse_error(
    cage: *mut SinewCage,
    max_error: f64,
    motion: f64,
) -> SinewStatus {
    guard(|| {
        for (v, name) in [(max_error, "max_error"), (motion, "motion")] {
            if !(v.is_finite() && v > 0.0) {
                return Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("{name} must be finite and greater than 0 (got {v})"),
                ));
            }
        }
        with(cage, |s| {
            s.sparse_error = Some((max_error, motion));
            Ok(())
        })
    })
}

/// Sets the weights later binds of this handle compute (a `SinewCageMethod` value; the
/// default is `SINEW_CAGE_METHOD_MEAN_VALUE`). Harmonic and biharmonic weights are dense
/// weights like mean value ones (sparse `sparse_k` values apply to them, serialised as
/// dense or sparse weights); `SINEW_GRID_BY_ERROR` is mean value only
/// (`SINEW_STATUS_INVALID_ARGUMENT` at bind). A library built without the `harmonic` cargo
/// feature returns `SINEW_STATUS_UNSUPPORTED` for the harmonic methods (the last error says
/// so) and keeps the handle's method; an unknown value is `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_set_method(cage: *mut SinewCage, method: u32) -> SinewStatus {
    guard(|| {
        let m = method_arg(method)?;
        with(cage, |s| {
            s.method = m;
            Ok(())
        })
    })
}

/// Binds points to a cage of one or more polygons: `loop_xy` holds every loop's vertices
/// (x, y pairs, loops one after another; `loop_sizes[i]` vertices in loop i, at least 3),
/// the outer loop(s) counter-clockwise and holes clockwise; `points` holds `point_count`
/// x, y pairs (inside the cage). `sparse_k` 0 keeps every weight; K >= 3 keeps K per point
/// (projected so the rest pose and affine motion stay exact; no bound on the error);
/// `SINEW_SPARSE_BY_ERROR` keeps per point the fewest weights within the error set by
/// `sinew_cage_set_sparse_error` (projected the same way). The deform input is the
/// loops' vertices in the same order. Replaces an earlier binding of this handle.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_bind_polygons(
    cage: *mut SinewCage,
    loop_xy: *const f32,
    loop_sizes: *const u32,
    loop_count: usize,
    points: *const f32,
    point_count: usize,
    sparse_k: u32,
) -> SinewStatus {
    guard(|| {
        let sizes = slice_arg(loop_sizes, loop_count, "loop_sizes")?;
        let total = sizes
            .iter()
            .try_fold(0usize, |a, &n| a.checked_add(n as usize));
        let total = total
            .ok_or_else(|| Fail::new(SinewStatus::InvalidArgument, "loop_sizes sum overflows"))?;
        let xy = slice_arg(loop_xy, float_count(total, "loop_sizes")?, "loop_xy")?;
        let pts = pairs(slice_arg(
            points,
            float_count(point_count, "point_count")?,
            "points",
        )?);
        let all = pairs(xy);
        let mut loops = Vec::with_capacity(sizes.len());
        let mut at = 0;
        for &n in sizes {
            loops.push(all[at..at + n as usize].to_vec());
            at += n as usize;
        }
        let c = Cage::from_loops(&loops).map_err(cage_fail)?;
        with(cage, |s| {
            bind(s, &c, &pts, sparse_k)?;
            s.boundary.clear();
            Ok(())
        })
    })
}

/// Binds a triangle mesh's vertices to the mesh's own boundary: `positions` holds
/// `vertex_count` x, y pairs, `triangles` `triangle_count` index triples. The boundary
/// loops are found and ordered for you (outer counter-clockwise, holes clockwise);
/// `sinew_cage_boundary` tells which mesh vertex each cage vertex is, i.e. the order of
/// the deform input. Non-manifold meshes are `SINEW_STATUS_CAGE_FAILED`. `sparse_k` as for
/// `sinew_cage_bind_polygons`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_bind_mesh(
    cage: *mut SinewCage,
    positions: *const f32,
    vertex_count: usize,
    triangles: *const u32,
    triangle_count: usize,
    sparse_k: u32,
) -> SinewStatus {
    guard(|| {
        let pos = pairs(slice_arg(
            positions,
            float_count(vertex_count, "vertex_count")?,
            "positions",
        )?);
        let tri_count = triangle_count
            .checked_mul(3)
            .ok_or_else(|| Fail::new(SinewStatus::InvalidArgument, "triangle_count too large"))?;
        let tris: Vec<[u32; 3]> = slice_arg(triangles, tri_count, "triangles")?
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect();
        let (c, boundary) = Cage::from_mesh(&pos, &tris).map_err(cage_fail)?;
        with(cage, |s| {
            bind(s, &c, &pos, sparse_k)?;
            s.boundary = boundary;
            Ok(())
        })
    })
}

/// What the cage holds.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_info(cage: *const SinewCage, out: *mut SinewCageInfo) -> SinewStatus {
    guard(|| {
        with(cage, |s| {
            let counts = s.binding.counts();
            let (verts, points) = counts.unwrap_or((0, 0));
            let bound = u32::from(counts.is_some());
            let k = match &s.binding {
                Binding::None | Binding::Dense(_) => 0,
                Binding::Sparse(b) => b.k(),
                Binding::Grid(..) => 4,
            };
            put(
                out,
                SinewCageInfo {
                    bound,
                    points: points as u32,
                    cage_vertices: verts as u32,
                    sparse_k: k as u32,
                    truncation_max_l1: s.truncation,
                },
                "out",
            )
        })
    })
}

/// For a mesh bind, the mesh vertex index of each cage vertex (the deform input's order),
/// into `buf` (capacity `cap`); `*len` = the cage vertex count (0 for polygon binds and
/// loaded weights).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_boundary(
    cage: *const SinewCage,
    buf: *mut u32,
    cap: usize,
    len: *mut usize,
) -> SinewStatus {
    guard(|| with(cage, |s| copy_out(&s.boundary, buf, cap, len, "buf")))
}

/// The rest cage vertices (x, y pairs, the deform input at rest) into `buf` (capacity `cap`
/// floats); `*len` = the float count (0 for loaded weights, which do not store the cage).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_rest(
    cage: *const SinewCage,
    buf: *mut f32,
    cap: usize,
    len: *mut usize,
) -> SinewStatus {
    guard(|| with(cage, |s| copy_out(&s.rest, buf, cap, len, "buf")))
}

fn deform_one(s: &mut CageState, cage_xy: &[f32], out: &mut [f32]) -> Res {
    match &mut s.binding {
        Binding::None => Err(Fail::new(SinewStatus::InvalidArgument, "cage is not bound")),
        Binding::Dense(b) => b.deform(cage_xy, out).map_err(cage_fail),
        Binding::Sparse(b) => b.deform(cage_xy, out).map_err(cage_fail),
        Binding::Grid(g, nodes) => g.deform(cage_xy, nodes, out).map_err(cage_fail),
    }
}

fn out_len(s: &CageState) -> usize {
    s.binding.counts().map_or(0, |(_, points)| points * 2)
}

/// Deforms: `cage_xy` holds `cage_float_count` floats (the moved cage vertices, x, y
/// pairs, `2 * cage_vertices`), `out` receives `2 * points` floats (capacity `out_cap`;
/// `*out_len` the floats needed). One call, no allocation.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_deform(
    cage: *const SinewCage,
    cage_xy: *const f32,
    cage_float_count: usize,
    out: *mut f32,
    out_cap: usize,
    out_len: *mut usize,
) -> SinewStatus {
    guard(|| {
        let input = slice_arg(cage_xy, cage_float_count, "cage_xy")?;
        with(cage, |s| {
            let need = self::out_len(s);
            put(out_len, need, "out_len")?;
            if need > out_cap {
                return Err(crate::too_small("out", need, out_cap));
            }
            let o = out_slice(out, out_cap, "out")?;
            deform_one(s, input, &mut o[..need])
        })
    })
}

/// Deforms `count` bindings in one call: `cages[i]` with `cage_xy[i]` (its
/// `2 * cage_vertices` floats) into `out[i]` (room for its `2 * points` floats, see
/// `sinew_cage_info`). Every handle and pointer is checked before any output is written.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_deform_many(
    cages: *const *const SinewCage,
    cage_xy: *const *const f32,
    out: *const *mut f32,
    count: usize,
) -> SinewStatus {
    guard(|| {
        let cs = slice_arg(cages, count, "cages")?;
        let ins = slice_arg(cage_xy, count, "cage_xy")?;
        let outs = slice_arg(out, count, "out")?;
        let mut objs = Vec::with_capacity(count);
        for (i, &c) in cs.iter().enumerate() {
            let o = CAGES.get(raw(c)).map_err(|mut f| {
                f.message = format!("cages[{i}]: {}", f.message);
                f
            })?;
            objs.push(o);
        }
        for (i, o) in objs.iter().enumerate() {
            let mut s = o.state.lock().unwrap_or_else(PoisonError::into_inner);
            let Some((verts, points)) = s.binding.counts() else {
                return Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("cages[{i}] is not bound"),
                ));
            };
            let input = slice_arg(ins[i], verts * 2, &format!("cage_xy[{i}]"))?;
            let o = out_slice(outs[i], points * 2, &format!("out[{i}]"))?;
            deform_one(&mut s, input, o)?;
        }
        Ok(())
    })
}

/// The binding in sinew's versioned binary weights format into `buf` (capacity `cap`
/// bytes); `*len` = the bytes needed. Not bound: `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_serialize(
    cage: *const SinewCage,
    buf: *mut u8,
    cap: usize,
    len: *mut usize,
) -> SinewStatus {
    guard(|| {
        with(cage, |s| {
            let bytes = match &s.binding {
                Binding::None => {
                    return Err(Fail::new(SinewStatus::InvalidArgument, "cage is not bound"));
                }
                Binding::Dense(b) => encode_dense(b),
                Binding::Sparse(b) => encode_sparse(b),
                Binding::Grid(g, _) => encode_grid(g),
            };
            copy_out(&bytes, buf, cap, len, "buf")
        })
    })
}

/// A new cage handle from weights written by `sinew_cage_serialize` or `sinew cage
/// bind` (`bytes`, `len` bytes). A malformed, truncated or corrupted (CRC) buffer is
/// `SINEW_STATUS_CAGE_FAILED`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_cage_deserialize(
    bytes: *const u8,
    len: usize,
    out: *mut *mut SinewCage,
) -> SinewStatus {
    guard(|| {
        let data = bytes_arg(bytes, len, "bytes")?;
        let binding = match decode(data).map_err(|e| cage_fail(e.into()))? {
            LoadedBinding::Dense(b) => Binding::Dense(b),
            LoadedBinding::Sparse(b) => Binding::Sparse(b),
            LoadedBinding::Grid(g) => Binding::grid(g),
        };
        insert(
            CageState {
                binding,
                rest: Vec::new(),
                boundary: Vec::new(),
                truncation: 0.0,
                sparse_error: None,
                method: SinewCageMethod::MeanValue,
            },
            out,
        )
    })
}
