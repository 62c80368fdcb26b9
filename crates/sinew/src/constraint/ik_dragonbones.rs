//! DragonBones IK ([`IkSolver::DragonBones`](crate::IkSolver)): the DragonBones 5.x
//! runtime's `IKConstraint` (`_computeA` for one bone, `_computeB` for two), written from its
//! behaviour as read in `@cocos/dragonbones-js` 1.0.2 (nothing copied).
//!
//! Unlike Spine, DragonBones solves in world space: each bone's world matrix is decomposed
//! (its `Transform.fromMatrix`: x-axis angle, skew, scales, with the bone's local scales as
//! the sign hint), the triangle is solved on world lengths, the weight blends world
//! rotations, and the matrices are rebuilt with each bone's own skew and scales kept
//! (`Transform.toMatrix`). Under a non-uniformly scaled parent this differs from Spine's
//! local-space solve, and at weights below 1 the child keeps its world rotation offset.
//!
//! Matrices are handled in DragonBones' space: the skeleton scale and position are taken out
//! before and put back after (they are 1 and 0 for what the runtime itself shows; sinew's
//! `--y-up` flips through them). Verified against the official runtime's poses in
//! `sinew-formats/tests/all/dragonbones_synthetic.rs` (`ikgap55`: non-uniform scale above the
//! chain, weight keys below 1, both bend directions).

use crate::bone::{update_applied_transform, update_bone_world};
use crate::ids::{BoneId, IkId};
use crate::instance::Instance;
use crate::math::{Vec2, WorldTransform};
use crate::rig::Rig;
use crate::types::IkSolver;
use std::f64::consts::{FRAC_PI_4, PI};

/// A decomposed DragonBones world transform (`Transform`): radians, y-down.
#[derive(Debug, Clone, Copy)]
struct Decomposed {
    x: f64,
    y: f64,
    rotation: f64,
    skew: f64,
    scale_x: f64,
    scale_y: f64,
}

/// DragonBones' matrix `[a b c d tx ty]` (x axis `(a, b)`, y axis `(c, d)`) of a sinew world
/// transform, with the skeleton scale `(sx, sy)` and position `(ox, oy)` taken out.
fn to_db(w: &WorldTransform, sx: f64, sy: f64, ox: f64, oy: f64) -> [f64; 6] {
    [
        w.a / sx,
        w.c / sy,
        w.b / sx,
        w.d / sy,
        (w.x - ox) / sx,
        (w.y - oy) / sy,
    ]
}

/// A bone's world transform as [`to_db`] gives it, in `inst`'s skeleton space.
fn world_db(inst: &Instance, bone: BoneId) -> [f64; 6] {
    to_db(
        &inst.world[bone.index()],
        inst.scale_x,
        inst.scale_y,
        inst.x,
        inst.y,
    )
}

/// The inverse of [`to_db`].
fn from_db(m: [f64; 6], sx: f64, sy: f64, ox: f64, oy: f64) -> WorldTransform {
    WorldTransform {
        a: m[0] * sx,
        b: m[2] * sx,
        c: m[1] * sy,
        d: m[3] * sy,
        x: m[4] * sx + ox,
        y: m[5] * sy + oy,
    }
}

/// `Transform.fromMatrix`: `backup` is the bone's local scale, whose signs decide whether a
/// negative decomposed scale is turned into half a turn.
fn decompose(m: [f64; 6], backup: (f64, f64)) -> Decomposed {
    let [a, b, c, d, x, y] = m;
    let mut rotation = (b / a).atan();
    let mut skew_x = (-c / d).atan();
    let mut scale_x = if rotation > -FRAC_PI_4 && rotation < FRAC_PI_4 {
        a / rotation.cos()
    } else {
        b / rotation.sin()
    };
    let mut scale_y = if skew_x > -FRAC_PI_4 && skew_x < FRAC_PI_4 {
        d / skew_x.cos()
    } else {
        -c / skew_x.sin()
    };
    if backup.0 >= 0.0 && scale_x < 0.0 {
        scale_x = -scale_x;
        rotation -= PI;
    }
    if backup.1 >= 0.0 && scale_y < 0.0 {
        scale_y = -scale_y;
        skew_x -= PI;
    }
    Decomposed {
        x,
        y,
        rotation,
        skew: skew_x - rotation,
        scale_x,
        scale_y,
    }
}

/// `Transform.toMatrix`.
fn compose(t: &Decomposed) -> [f64; 6] {
    let (mut a, mut b) = if t.rotation == 0.0 {
        (1.0, 0.0)
    } else {
        (t.rotation.cos(), t.rotation.sin())
    };
    let (mut c, mut d) = if t.skew == 0.0 {
        (-b, a)
    } else {
        let r = t.skew + t.rotation;
        (-r.sin(), r.cos())
    };
    if t.scale_x != 1.0 {
        a *= t.scale_x;
        b *= t.scale_x;
    }
    if t.scale_y != 1.0 {
        c *= t.scale_y;
        d *= t.scale_y;
    }
    [a, b, c, d, t.x, t.y]
}

/// `Transform.normalizeRadian`: into [-pi, pi) by one remainder.
fn normalize(v: f64) -> f64 {
    let v = (v + PI) % (PI * 2.0);
    if v > 0.0 { v - PI } else { v + PI }
}

/// What the solver reads of one bone: its DragonBones matrix and decomposition.
struct Posed {
    m: [f64; 6],
    g: Decomposed,
}

fn posed(inst: &Instance, bone: BoneId) -> Posed {
    let m = world_db(inst, bone);
    let local = inst.applied[bone.index()];
    let mut g = decompose(m, (local.scale_x, local.scale_y));
    let h = inst.db_held(bone.index());
    if h.is_finite() {
        // The runtime solves from the rotation it holds for the bone; where that is half a
        // turn from the decomposition the x scale changes sign; the skew keeps the y axis.
        if (h - g.rotation).cos() < 0.0 {
            g.scale_x = -g.scale_x;
        }
        g.skew += g.rotation - h;
        g.rotation = h;
    }
    Posed { m, g }
}

/// Stores a solved DragonBones matrix as the bone's world transform, with the rotation
/// the runtime now holds for it, and brings its applied local pose in line with it.
fn store(rig: &Rig, inst: &mut Instance, bone: BoneId, g: &Decomposed) {
    let w = from_db(compose(g), inst.scale_x, inst.scale_y, inst.x, inst.y);
    if w.a.is_finite() && w.b.is_finite() && w.c.is_finite() && w.d.is_finite() {
        inst.world[bone.index()] = w;
        inst.set_db_held(bone.index(), g.rotation);
        update_applied_transform(rig, inst, bone);
    }
}

/// Runs DragonBones IK constraint `id` (one bone, or parent and child) toward its target
/// bone's world position with `weight` and bend direction `bend_positive`.
///
/// COMPAT(dragonbones): the runtime recomputes a bone's world transform from its local pose
/// only when the bone or an ancestor moved this frame (its dirty flags), so when the
/// chain's root holds still the constraint starts from its own previous result: at a weight
/// below 1 the chain creeps toward the target frame by frame (`DbHold`, `ikhold55`).
pub(crate) fn solve_ik_dragonbones(
    rig: &Rig,
    inst: &mut Instance,
    id: IkId,
    bend_positive: bool,
    weight: f64,
) {
    let Some(data) = rig.ik.get(id.index()) else {
        return;
    };
    let (bones, target) = (data.bones.as_slice(), data.target);
    let Some(&root) = bones.first() else {
        return;
    };
    let held = inst
        .db_hold
        .prev
        .get(id.index())
        .copied()
        .flatten()
        .filter(|_| holds_still(rig, inst, root));
    if let Some((w, r)) = held {
        inst.world[root.index()] = w;
        inst.set_db_held(root.index(), r);
        if let [_, child] = *bones {
            // The child is recomputed from its local pose under that parent.
            update_bone_world(rig, inst, child);
        }
    }
    let [.., tx, ty] = world_db(inst, target);
    match *bones {
        [bone] => {
            let mut g = posed(inst, bone).g;
            let mut radian = (ty - g.y).atan2(tx - g.x);
            if g.scale_x < 0.0 {
                radian += PI;
            }
            g.rotation += normalize(radian - g.rotation) * weight;
            store(rig, inst, bone, &g);
        }
        [parent, child] => solve_two(
            rig,
            inst,
            [parent, child],
            Vec2::new(tx, ty),
            bend_positive,
            weight,
        ),
        _ => {}
    }
    let r = inst.db_held(root.index());
    if let Some(p) = inst.db_hold.prev.get_mut(id.index()) {
        *p = Some((inst.world[root.index()], r));
    }
}

/// Whether the runtime leaves `root`'s world transform as it was last frame: no timeline
/// moved it and no ancestor's transform changed (an ancestor moved by a timeline or
/// touched by a DragonBones IK constraint, which marks its bones dirty every frame).
fn holds_still(rig: &Rig, inst: &Instance, root: BoneId) -> bool {
    let still = |b: BoneId| inst.db_hold.still.get(b.index()).copied().unwrap_or(false);
    if !still(root) {
        return false;
    }
    let mut up = rig.bones.get(root.index()).and_then(|b| b.parent);
    while let Some(b) = up {
        let constrained = rig
            .ik
            .iter()
            .any(|k| k.solver == IkSolver::DragonBones && k.bones.contains(&b));
        if !still(b) || constrained {
            return false;
        }
        up = rig.bones.get(b.index()).and_then(|x| x.parent);
    }
    true
}

/// `_computeB`: the parent is the chain's root, the child carries the length.
fn solve_two(
    rig: &Rig,
    inst: &mut Instance,
    [parent, child]: [BoneId; 2],
    Vec2 { x: tx, y: ty }: Vec2,
    bend_positive: bool,
    weight: f64,
) {
    let length = rig.bones[child.index()].length;
    let Posed { g: mut pg, .. } = posed(inst, parent);
    let Posed { m: cm, g: mut cg } = posed(inst, child);
    let (x, y) = (cm[0] * length, cm[1] * length);
    let ll = (x * x + y * y).sqrt();
    let (dx, dy) = (cg.x - pg.x, cg.y - pg.y);
    let lp = (dx * dx + dy * dy).sqrt();
    let raw_child = cg.rotation;
    let raw_parent = pg.rotation;
    let raw_a = dy.atan2(dx);
    let (dx, dy) = (tx - pg.x, ty - pg.y);
    let lt = (dx * dx + dy * dy).sqrt();
    let radian_a = if ll + lp <= lt || lt + ll <= lp || lt + lp <= ll {
        // Out of reach (or folded flat): point the parent at the target, or away from it
        // when the child is longer.
        let r = (ty - pg.y).atan2(tx - pg.x);
        if ll + lp > lt && lp < ll { r + PI } else { r }
    } else {
        let h = (lp * lp - ll * ll + lt * lt) / (2.0 * lt * lt);
        let r = (lp * lp - h * h * lt * lt).sqrt() / lt;
        let (hx, hy) = (pg.x + dx * h, pg.y + dy * h);
        let (rx, ry) = (-dy * r, dx * r);
        // A reflecting grandparent flips the bend.
        let reflected = rig.bones[parent.index()].parent.is_some_and(|gp| {
            let m = world_db(inst, gp);
            m[0] * m[3] - m[1] * m[2] < 0.0
        });
        (cg.x, cg.y) = if reflected != bend_positive {
            (hx - rx, hy - ry)
        } else {
            (hx + rx, hy + ry)
        };
        (cg.y - pg.y).atan2(cg.x - pg.x)
    };
    let dr = normalize(radian_a - raw_a);
    pg.rotation = raw_parent + dr * weight;
    store(rig, inst, parent, &pg);
    let a = raw_a + dr * weight;
    cg.x = pg.x + a.cos() * lp;
    cg.y = pg.y + a.sin() * lp;
    let mut radian_b = (ty - cg.y).atan2(tx - cg.x);
    if cg.scale_x < 0.0 {
        radian_b += PI;
    }
    cg.rotation =
        pg.rotation + raw_child - raw_parent + normalize(radian_b - dr - raw_child) * weight;
    store(rig, inst, child, &cg);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decompose_and_compose_round_trip_skewed_matrices() {
        // A rotated, skewed, non-uniformly scaled matrix comes back from its decomposition.
        for &(r, k, sx, sy) in &[
            (0.3, 0.2, 1.5, 0.8),
            (2.9, -0.4, 0.7, 1.2),
            (-2.0, 0.0, 1.0, 1.0),
            (1.2, 0.5, -1.3, 0.9),
        ] {
            let t = Decomposed {
                x: 3.0,
                y: -4.0,
                rotation: r,
                skew: k,
                scale_x: sx,
                scale_y: sy,
            };
            let m = compose(&t);
            let back = compose(&decompose(m, (sx, sy)));
            for (u, v) in m.iter().zip(back.iter()) {
                assert!((u - v).abs() < 1e-12, "{m:?} vs {back:?}");
            }
        }
    }

    #[test]
    fn normalize_wraps_into_one_turn() {
        assert!((normalize(3.0 * PI / 2.0) + PI / 2.0).abs() < 1e-12);
        assert!((normalize(-3.0 * PI / 2.0) - PI / 2.0).abs() < 1e-12);
        assert!((normalize(0.25) - 0.25).abs() < 1e-15);
    }

    #[test]
    fn db_space_round_trips_through_the_skeleton_scale() {
        let w = WorldTransform {
            a: 0.5,
            b: -1.0,
            c: 2.0,
            d: 0.25,
            x: 7.0,
            y: -3.0,
        };
        let m = to_db(&w, 2.0, -1.0, 1.0, 4.0);
        let back = from_db(m, 2.0, -1.0, 1.0, 4.0);
        assert_eq!((back.a, back.b, back.c, back.d), (w.a, w.b, w.c, w.d));
        assert!((back.x - w.x).abs() < 1e-12 && (back.y - w.y).abs() < 1e-12);
    }
}
