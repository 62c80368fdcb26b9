//! Builds a [`DeformerSet`] from [`RawDeformers`]: names to ids, parents ordered before
//! children, slots checked (unweighted meshes, one deformer each), Mesh children bound once to
//! their rest triangles in the setup pose, bindings checked against their deformer's kind.
//! Returns every problem at once, each naming the deformer, slot or parameter. Verified by the
//! unit tests in `tests.rs`.

use super::geom::{barycentric, relative};
use super::{
    Deformer, DeformerBinding, DeformerId, DeformerKind, DeformerSet, DeformerTarget, MeshBind,
    RawDeformerKind, RawDeformers,
};
use crate::ids::SlotId;
use crate::math::{Vec2, WorldTransform};
use crate::raw::params::RawParams;
use crate::rig::params::ParamSet;
use crate::rig::params::resolve_axes;
use crate::rig::problem::{BuildError, BuildPart, BuildProblem, ProblemKind};
use crate::rig::{AttachmentKind, Rig};
use crate::types::Physics;

/// The part of the build these problems come from.
const PART: BuildPart = BuildPart::Deformers;

/// Most deformers a rig may have.
pub const MAX_DEFORMERS: usize = 4096;
/// Most points in one warp lattice.
pub const MAX_LATTICE_POINTS: usize = 65_536;

/// The setup (default skin) unweighted mesh of a slot: vertices and triangles, if it has one
/// that fits the slot's deform buffer.
fn setup_mesh(rig: &Rig, s: SlotId) -> Option<(&[f32], &[u16])> {
    let key = rig.slots.get(s.index())?.attachment?;
    let skin = &rig.skins[rig.default_skin?.index()];
    let att = skin.get(s, key)?;
    let AttachmentKind::Mesh(m) = &rig.attachments[att.index()].kind else {
        return None;
    };
    let cap = rig
        .slot_deform_capacity
        .get(s.index())
        .copied()
        .unwrap_or(0) as usize;
    let n = m.vertices.values.len();
    (!m.vertices.is_weighted() && n <= cap).then_some((&m.vertices.values[..], &m.triangles[..]))
}

/// Builds the deformers of `rig`; `params` is its (already built) parameter set and
/// `raw_params` the raw form it came from (for parameter axis points).
pub fn build_deformers(
    rig: &Rig,
    params: &ParamSet,
    raw_params: &RawParams,
    raw: &RawDeformers,
) -> Result<DeformerSet, BuildError> {
    let mut errs = Vec::new();
    let mut set = DeformerSet::default();
    if raw.deformers.is_empty() && raw.bindings.is_empty() {
        return Ok(set);
    }
    let n = raw.deformers.len();
    if n > MAX_DEFORMERS {
        return Err(BuildError::from_problems(vec![
            BuildProblem::new(
                ProblemKind::TooMany,
                "",
                format!("{n} deformers (at most {MAX_DEFORMERS})"),
            )
            .in_part(PART),
        ]));
    }
    let index_of = |name: &str| raw.deformers.iter().position(|d| d.name == name);
    for (i, d) in raw.deformers.iter().enumerate() {
        if index_of(&d.name) != Some(i) {
            errs.push(
                BuildProblem::duplicate(
                    format!("deformer `{}`", d.name),
                    &d.name,
                    "duplicate name",
                )
                .in_part(PART),
            );
        }
    }
    // Parents first: depth by walking up (a cycle or unknown parent is an error).
    let mut depth = vec![0usize; n];
    for (i, d) in raw.deformers.iter().enumerate() {
        let mut cur = d.parent.as_deref();
        let mut k = 0;
        while let Some(p) = cur {
            let Some(pi) = index_of(p) else {
                errs.push(
                    BuildProblem::unknown(format!("deformer `{}`", d.name), "parent", p)
                        .in_part(PART),
                );
                break;
            };
            k += 1;
            if k > n {
                errs.push(
                    BuildProblem::new(
                        ProblemKind::Hierarchy,
                        format!("deformer `{}`", d.name),
                        "parent cycle",
                    )
                    .in_part(PART),
                );
                break;
            }
            cur = raw.deformers[pi].parent.as_deref();
        }
        depth[i] = k;
    }
    if !errs.is_empty() {
        return Err(BuildError::from_problems(errs));
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| depth[i]);
    let mut id_of = vec![0u16; n];
    for (new, &old) in order.iter().enumerate() {
        id_of[old] = new as u16;
    }
    let mut owner: Vec<Option<usize>> = vec![None; rig.slots.len()];
    for &old in &order {
        let d = &raw.deformers[old];
        let what = || format!("deformer `{}`", d.name);
        let parent = d
            .parent
            .as_deref()
            .and_then(index_of)
            .map(|p| DeformerId(id_of[p]));
        let (kind, bone) = match &d.kind {
            RawDeformerKind::Rotation {
                pivot,
                angle,
                scale,
            } => {
                if !(pivot.iter().all(|x| x.is_finite()) && angle.is_finite() && scale.is_finite())
                {
                    errs.push(BuildProblem::value(
                        PART,
                        what(),
                        "non-finite pivot, angle or scale",
                    ));
                }
                let kind = DeformerKind::Rotation {
                    pivot: Vec2::from(*pivot),
                    angle: *angle,
                    scale: *scale,
                };
                (kind, rig.bone(&d.bone))
            }
            RawDeformerKind::Warp {
                origin,
                size,
                cols,
                rows,
            } => {
                let points = (usize::from(*cols) + 1) * (usize::from(*rows) + 1);
                let ok = origin.iter().all(|x| x.is_finite())
                    && size.iter().all(|x| x.is_finite() && *x > 0.0)
                    && *cols > 0
                    && *rows > 0
                    && points <= MAX_LATTICE_POINTS;
                if !ok {
                    errs.push(BuildProblem::value(
                        PART,
                        what(),
                        format!(
                            "a warp needs a finite origin, a positive size and 1.. cells \
                         (at most {MAX_LATTICE_POINTS} points)"
                        ),
                    ));
                }
                let start = set.lattice_floats;
                set.lattice_floats = set.lattice_floats.saturating_add(2 * points as u32);
                let kind = DeformerKind::Warp {
                    origin: Vec2::from(*origin),
                    cell: Vec2::new(size[0] / f64::from(*cols), size[1] / f64::from(*rows)),
                    cols: *cols,
                    rows: *rows,
                    start,
                };
                (kind, rig.bone(&d.bone))
            }
            RawDeformerKind::Mesh { control } => {
                let Some(s) = rig.slot(control) else {
                    let mut q = BuildProblem::unknown(what(), "slot", control);
                    q.message = format!("unknown control slot `{control}`");
                    errs.push(q.in_part(PART));
                    continue;
                };
                let Some((verts, tris)) = setup_mesh(rig, s) else {
                    errs.push(
                        BuildProblem::new(
                            ProblemKind::Geometry,
                            what(),
                            format!("control slot `{control}` has no unweighted mesh"),
                        )
                        .in_part(PART),
                    );
                    continue;
                };
                if tris.iter().any(|&t| 2 * usize::from(t) + 1 >= verts.len()) {
                    errs.push(
                        BuildProblem::new(
                            ProblemKind::Geometry,
                            what(),
                            format!("control slot `{control}` has a triangle index out of range"),
                        )
                        .in_part(PART),
                    );
                    continue;
                }
                let kind = DeformerKind::Mesh {
                    control: s,
                    rest: verts.to_vec(),
                    triangles: tris.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
                };
                (kind, Some(rig.slots[s.index()].bone))
            }
        };
        let Some(bone) = bone else {
            errs.push(BuildProblem::unknown(what(), "bone", &d.bone).in_part(PART));
            continue;
        };
        let mut slots = Vec::with_capacity(d.slots.len());
        for name in &d.slots {
            let Some(s) = rig.slot(name) else {
                errs.push(BuildProblem::unknown(what(), "slot", name).in_part(PART));
                continue;
            };
            if setup_mesh(rig, s).is_none() {
                errs.push(
                    BuildProblem::new(
                        ProblemKind::Geometry,
                        what(),
                        format!("slot `{name}` has no unweighted mesh"),
                    )
                    .in_part(PART),
                );
                continue;
            }
            if let DeformerKind::Mesh { control, .. } = kind
                && control == s
            {
                errs.push(BuildProblem::value(
                    PART,
                    what(),
                    "moves its own control slot",
                ));
                continue;
            }
            if !slots.contains(&s) {
                slots.push(s);
            }
        }
        set.deformers.push(Deformer {
            name: d.name.clone(),
            bone,
            parent,
            kind,
            slots,
            binds: Vec::new(),
        });
    }
    if !errs.is_empty() {
        return Err(BuildError::from_problems(errs));
    }
    // A nested Mesh deformer's control mesh is moved by its parent, as a child slot.
    for i in 0..set.deformers.len() {
        if let (Some(p), DeformerKind::Mesh { control, .. }) =
            (set.deformers[i].parent, &set.deformers[i].kind)
        {
            let c = *control;
            let ps = &mut set.deformers[p.index()].slots;
            if !ps.contains(&c) {
                ps.push(c);
            }
        }
    }
    for (i, d) in set.deformers.iter().enumerate() {
        for &s in &d.slots {
            match owner[s.index()] {
                Some(o) if o != i => errs.push(
                    BuildProblem::duplicate(
                        format!("slot `{}`", rig.slots[s.index()].name),
                        &d.name,
                        format!(
                            "is moved by deformers `{}` and `{}`",
                            set.deformers[o].name, d.name
                        ),
                    )
                    .in_part(PART),
                ),
                _ => owner[s.index()] = Some(i),
            }
        }
    }
    bind_meshes(rig, &mut set);
    let mut reset: Vec<SlotId> = owner
        .iter()
        .enumerate()
        .filter(|(_, o)| o.is_some())
        .map(|(i, _)| SlotId(i as u16))
        .filter(|s| !params.deform_slots.contains(s))
        .collect();
    reset.sort();
    set.reset_slots = reset;
    build_bindings(&mut set, params, raw_params, raw, &mut errs);
    if errs.is_empty() {
        Ok(set)
    } else {
        Err(BuildError::from_problems(errs))
    }
}

/// Binds every child vertex of every Mesh deformer to its rest triangle, in the setup pose.
fn bind_meshes(rig: &Rig, set: &mut DeformerSet) {
    if !set
        .deformers
        .iter()
        .any(|d| matches!(d.kind, DeformerKind::Mesh { .. }))
    {
        return;
    }
    let mut inst = crate::Instance::new(rig);
    crate::skeleton::update_world_transform(rig, &mut inst, Physics::None);
    for d in &mut set.deformers {
        let DeformerKind::Mesh {
            rest, triangles, ..
        } = &d.kind
        else {
            continue;
        };
        let pt = |k: u16| {
            let k = 2 * usize::from(k);
            Vec2::new(f64::from(rest[k]), f64::from(rest[k + 1]))
        };
        for &s in &d.slots {
            let verts = setup_mesh(rig, s).map_or(&[][..], |m| m.0);
            let to_group = relative(
                &inst.world,
                rig.slots[s.index()].bone.index(),
                d.bone.index(),
            )
            .unwrap_or(WorldTransform::IDENTITY);
            let mut bind = MeshBind {
                triangle: Vec::with_capacity(verts.len() / 2),
                weights: Vec::with_capacity(verts.len() / 2),
            };
            for v in verts.chunks_exact(2) {
                let q = to_group.apply(Vec2::new(f64::from(v[0]), f64::from(v[1])));
                let hit = triangles.iter().enumerate().find_map(|(ti, t)| {
                    barycentric(q, pt(t[0]), pt(t[1]), pt(t[2])).map(|w| (ti as u32, w))
                });
                let (t, w) = hit.unwrap_or((u32::MAX, [0.0; 3]));
                bind.triangle.push(t);
                bind.weights.push(w);
            }
            d.binds.push(bind);
        }
    }
}

fn build_bindings(
    set: &mut DeformerSet,
    params: &ParamSet,
    raw_params: &RawParams,
    raw: &RawDeformers,
    errs: &mut Vec<BuildProblem>,
) {
    for (bi, b) in raw.bindings.iter().enumerate() {
        let what = || format!("deformer binding {bi} (`{}`, {:?})", b.deformer, b.target);
        let Some(id) = set.find(&b.deformer) else {
            let mut q = BuildProblem::new(ProblemKind::UnknownName, what(), "unknown deformer");
            q.name = Some(b.deformer.clone());
            errs.push(q.in_part(PART));
            continue;
        };
        let want_stride = match (&set.deformers[id.index()].kind, b.target) {
            (
                DeformerKind::Rotation { .. },
                DeformerTarget::Angle
                | DeformerTarget::Scale
                | DeformerTarget::PivotX
                | DeformerTarget::PivotY,
            ) => 1,
            (DeformerKind::Warp { cols, rows, .. }, DeformerTarget::Lattice) => {
                2 * (usize::from(*cols) + 1) * (usize::from(*rows) + 1)
            }
            _ => {
                errs.push(BuildProblem::value(
                    PART,
                    what(),
                    "target does not fit the deformer's kind",
                ));
                continue;
            }
        };
        let Some((axes, count, _)) = resolve_axes(params, raw_params, &b.axes, &what, PART, errs)
        else {
            continue;
        };
        if b.stride as usize != want_stride || b.values.len() != count.saturating_mul(want_stride) {
            errs.push(BuildProblem::value(
                PART,
                what(),
                format!(
                    "{} values with stride {}, expected {count} keyforms x {want_stride}",
                    b.values.len(),
                    b.stride
                ),
            ));
            continue;
        }
        if b.values.iter().any(|v| !v.is_finite()) {
            errs.push(BuildProblem::value(
                PART,
                what(),
                "non-finite keyform value",
            ));
            continue;
        }
        set.bindings.push(DeformerBinding {
            deformer: id,
            target: b.target,
            interp: b.interp,
            dims: axes.iter().map(|a| a.keys.len() as u32).collect(),
            axes,
            stride: b.stride,
            values: b.values.clone(),
        });
    }
}
