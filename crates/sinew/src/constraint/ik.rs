//! Inverse kinematics: one-bone aim and two-bone analytic IK (Spine 4.2 `IkConstraint`,
//! and 4.3's for [`IkSolver::Spine43`]: thresholds 1e-5, the parent's shear kept, `scaleY`
//! volume; facts from spine-core 4.3.13 `IkConstraint.js`, checked by the 4.3 goldens of
//! `testdata/spine43/ik-lab.json`).
//!
//! Follows spine.md §6.2: mix, softness, bend direction, compress, stretch, uniform, the
//! non-uniform parent scale branch (ellipse/circle intersection), and the official quirks
//! (two-bone IK skips bones that do not inherit normally, resets the parent's shear (4.2) and
//! uses the child's y only for a uniformly scaled parent without stretch). Angles are in
//! degrees like the bone poses. Verified by the unit tests below (reach of a reachable
//! target, one-bone aim) and by oracle values for `synthetic/constraints-lab.json` in
//! `skeleton/tests.rs`.

use super::ik_dragonbones::solve_ik_dragonbones;
use crate::bone::update_bone_world_with;
use crate::ids::{BoneId, IkId};
use crate::instance::Instance;
use crate::math::{SPINE_PI, SPINE_RAD_DEG, Vec2, trig};
use crate::rig::{LocalPose, Rig};
use crate::types::{IkSolver, Inherit, ScaleYMode};

/// Runs IK constraint `id` with its current state `inst.ik[id]` (Spine
/// `IkConstraint.update`). Does nothing at mix 0.
pub(crate) fn apply_ik_constraint(rig: &Rig, inst: &mut Instance, id: IkId) {
    let data = &rig.ik[id.index()];
    let state = inst.ik[id.index()];
    if data.solver == IkSolver::DragonBones {
        // Also at weight 0: the runtime's constraint still runs (and remembers the chain).
        solve_ik_dragonbones(rig, inst, id, state.bend_direction > 0, state.mix);
        return;
    }
    if state.mix == 0.0 {
        return;
    }
    let t = inst.world[data.target.index()];
    let rules = IkRules {
        v43: data.solver == IkSolver::Spine43,
        scale_y: if data.volume {
            ScaleYMode::Volume
        } else if data.uniform {
            ScaleYMode::Uniform
        } else {
            ScaleYMode::None
        },
    };
    match *data.bones.as_slice() {
        [bone] => solve_ik_one_bone(
            rig,
            inst,
            bone,
            t.translation(),
            state.compress,
            state.stretch,
            rules,
            state.mix,
        ),
        [parent, child] => solve_ik_two_bone(
            rig,
            inst,
            [parent, child],
            t.translation(),
            state.bend_direction as f64,
            state.stretch,
            rules,
            state.softness,
            state.mix,
        ),
        _ => {}
    }
}

/// What the solver does the 4.2 or the 4.3 way, and how it scales y.
#[derive(Debug, Clone, Copy)]
pub struct IkRules {
    /// Spine 4.3: thresholds 1e-5 (4.2: 1e-4), the parent's shear kept by two-bone IK,
    /// -180 wrapped to 180.
    pub v43: bool,
    /// How stretching or compressing x scales y.
    pub scale_y: ScaleYMode,
}

impl IkRules {
    /// The near-zero threshold (Spine's `MathUtils.epsilon`: 1e-5 in 4.3, 1e-4 in 4.2).
    #[inline]
    fn eps(self) -> f64 {
        if self.v43 { 1e-5 } else { 0.0001 }
    }

    /// Wraps an angle in degrees once into [-180, 180] (COMPAT(spine): a single
    /// correction, as the IK solver does, not a full modulo; 4.3 also moves -180 to 180).
    #[inline]
    fn wrap_once(self, r: f64) -> f64 {
        if r > 180.0 {
            r - 360.0
        } else if r < -180.0 || (self.v43 && r == -180.0) {
            r + 360.0
        } else {
            r
        }
    }

    /// Scales y for an x scale factor `s`.
    #[inline]
    fn scale_y(self, sy: &mut f64, s: f64) {
        match self.scale_y {
            ScaleYMode::None => {}
            ScaleYMode::Uniform => *sy *= s,
            // Spine 4.3's volume curve for IK.
            ScaleYMode::Volume => *sy /= if s < 0.7 { 0.25 + 0.642857 * s } else { s },
        }
    }
}

/// The sign as Spine's `MathUtils.signum` (0 for 0).
#[inline]
fn signum(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Rotates one bone to point at a world-space target, optionally scaling it along its x
/// axis to reach it (Spine `IkConstraint.apply1`). `alpha` is the mix.
#[allow(clippy::too_many_arguments)]
pub fn solve_ik_one_bone(
    rig: &Rig,
    inst: &mut Instance,
    bone: BoneId,
    target: Vec2,
    compress: bool,
    stretch: bool,
    rules: IkRules,
    alpha: f64,
) {
    let eps = rules.eps();
    let i = bone.index();
    // The builder guarantees a constrained bone has a parent; a root cannot be aimed.
    let Some(parent) = rig.bones[i].parent else {
        return;
    };
    let p = inst.world[parent.index()];
    let w = inst.world[i];
    let ap = inst.applied[i];
    let (sx_sk, sy_sk) = (inst.scale_x, inst.scale_y);
    let Vec2 {
        x: target_x,
        y: target_y,
    } = target;
    let (pa, mut pb, pc, mut pd) = (p.a, p.b, p.c, p.d);
    let mut rotation_ik = -ap.shear_x - ap.rotation;
    let (mut tx, mut ty);
    let mode = inst.inherit[i];
    if mode == Inherit::OnlyTranslation {
        tx = (target_x - w.x) * signum(sx_sk);
        ty = (target_y - w.y) * signum(sy_sk);
    } else {
        if mode == Inherit::NoRotationOrReflection {
            // Use the parent without its rotation, as the bone inherits it.
            let s = (pa * pd - pb * pc).abs() / (pa * pa + pc * pc).max(eps);
            let sa = pa / sx_sk;
            let sc = pc / sy_sk;
            pb = -sc * s * sx_sk;
            pd = sa * s * sy_sk;
            rotation_ik += trig::atan2(sc, sa) * SPINE_RAD_DEG;
        }
        let x = target_x - p.x;
        let y = target_y - p.y;
        let d = pa * pd - pb * pc;
        if d.abs() <= eps {
            tx = 0.0;
            ty = 0.0;
        } else {
            tx = (x * pd - y * pb) / d - ap.x;
            ty = (y * pa - x * pc) / d - ap.y;
        }
    }
    rotation_ik += trig::atan2(ty, tx) * SPINE_RAD_DEG;
    if ap.scale_x < 0.0 {
        rotation_ik += 180.0;
    }
    rotation_ik = rules.wrap_once(rotation_ik);
    let (mut sx, mut sy) = (ap.scale_x, ap.scale_y);
    if compress || stretch {
        if matches!(mode, Inherit::NoScale | Inherit::NoScaleOrReflection) {
            // COMPAT(spine): noScale bones measure the distance in world space.
            tx = target_x - w.x;
            ty = target_y - w.y;
        }
        let b = rig.bones[i].length * sx;
        if b > eps {
            let dd = tx * tx + ty * ty;
            if (compress && dd < b * b) || (stretch && dd > b * b) {
                let s = (dd.sqrt() / b - 1.0) * alpha + 1.0;
                sx *= s;
                rules.scale_y(&mut sy, s);
            }
        }
    }
    let pose = LocalPose {
        rotation: ap.rotation + rotation_ik * alpha,
        scale_x: sx,
        scale_y: sy,
        ..ap
    };
    update_bone_world_with(rig, inst, bone, pose);
}

/// Bends a parent/child pair so the child's tip reaches a world-space target (Spine
/// `IkConstraint.apply2`). `bend_dir` is +1 or -1, `softness` in rig units, `alpha` the mix.
/// COMPAT(spine): does nothing unless both bones inherit normally.
#[allow(clippy::too_many_arguments)]
pub fn solve_ik_two_bone(
    rig: &Rig,
    inst: &mut Instance,
    bones: [BoneId; 2],
    target: Vec2,
    bend_dir: f64,
    stretch: bool,
    rules: IkRules,
    softness: f64,
    alpha: f64,
) {
    let eps = rules.eps();
    let [parent, child] = bones;
    let (pi, ci) = (parent.index(), child.index());
    if inst.inherit[pi] != Inherit::Normal || inst.inherit[ci] != Inherit::Normal {
        return;
    }
    let Some(grand) = rig.bones[pi].parent else {
        return;
    };
    let Vec2 {
        x: target_x,
        y: target_y,
    } = target;
    let pap = inst.applied[pi];
    let cap = inst.applied[ci];
    let (px, py) = (pap.x, pap.y);
    let (mut psx, mut psy) = (pap.scale_x, pap.scale_y);
    let (mut sx, mut sy) = (psx, psy);
    let mut csx = cap.scale_x;
    // Work with positive scales and remember the flips.
    let (os1, mut s2) = if psx < 0.0 {
        psx = -psx;
        (180.0, -1.0)
    } else {
        (0.0, 1.0)
    };
    if psy < 0.0 {
        psy = -psy;
        s2 = -s2;
    }
    let os2 = if csx < 0.0 {
        csx = -csx;
        180.0
    } else {
        0.0
    };
    let pw = inst.world[pi];
    let cx = cap.x;
    let u = (psx - psy).abs() <= eps;
    // COMPAT(spine): the child's y offset is ignored (and zeroed below) unless the parent
    // scale is uniform and stretch is off.
    let (cy, cwx, cwy) = if !u || stretch {
        (0.0, pw.a * cx + pw.x, pw.c * cx + pw.y)
    } else {
        let cy = cap.y;
        (
            cy,
            pw.a * cx + pw.b * cy + pw.x,
            pw.c * cx + pw.d * cy + pw.y,
        )
    };
    let g = inst.world[grand.index()];
    let (a, b, c, d) = (g.a, g.b, g.c, g.d);
    let id = a * d - b * c;
    let id = if id.abs() <= eps { 0.0 } else { 1.0 / id };
    let (x, y) = (cwx - g.x, cwy - g.y);
    let dx = (x * d - y * b) * id - px;
    let dy = (y * a - x * c) * id - py;
    let l1 = (dx * dx + dy * dy).sqrt();
    let mut l2 = rig.bones[ci].length * csx;
    if l1 < eps {
        let one = IkRules {
            scale_y: ScaleYMode::None,
            ..rules
        };
        solve_ik_one_bone(rig, inst, parent, target, false, stretch, one, alpha);
        let pose = LocalPose {
            x: cx,
            y: cy,
            rotation: 0.0,
            ..cap
        };
        update_bone_world_with(rig, inst, child, pose);
        return;
    }
    let (x, y) = (target_x - g.x, target_y - g.y);
    let mut tx = (x * d - y * b) * id - px;
    let mut ty = (y * a - x * c) * id - py;
    let mut dd = tx * tx + ty * ty;
    if softness != 0.0 {
        let softness = softness * psx * (csx + 1.0) * 0.5;
        let td = dd.sqrt();
        let sd = td - l1 - l2 * psx + softness;
        if sd > 0.0 {
            let p = (sd / (softness * 2.0)).min(1.0) - 1.0;
            let p = (sd - softness * (1.0 - p * p)) / td;
            tx -= p * tx;
            ty -= p * ty;
            dd = tx * tx + ty * ty;
        }
    }
    let (a1, a2);
    if u {
        l2 *= psx;
        let mut cos = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
        let angle;
        if cos < -1.0 {
            cos = -1.0;
            angle = std::f64::consts::PI * bend_dir;
        } else if cos > 1.0 {
            cos = 1.0;
            angle = 0.0;
            if stretch {
                let s = (dd.sqrt() / (l1 + l2) - 1.0) * alpha + 1.0;
                sx *= s;
                rules.scale_y(&mut sy, s);
            }
        } else {
            angle = cos.acos() * bend_dir;
        }
        let ka = l1 + l2 * cos;
        let kb = l2 * angle.sin();
        a1 = trig::atan2(ty * ka - tx * kb, tx * ka + ty * kb);
        a2 = angle;
    } else {
        (a1, a2) = non_uniform_angles(l1, l2, psx, psy, tx, ty, dd, bend_dir);
    }
    let os = trig::atan2(cy, cx) * s2;
    let rotation = pap.rotation;
    let r1 = rules.wrap_once((a1 - os) * SPINE_RAD_DEG + os1 - rotation);
    // COMPAT(spine): 4.2 resets the parent's shear to 0; 4.3 keeps it.
    let (shear_x, shear_y) = if rules.v43 {
        (pap.shear_x, pap.shear_y)
    } else {
        (0.0, 0.0)
    };
    let ppose = LocalPose {
        x: px,
        y: py,
        rotation: rotation + r1 * alpha,
        scale_x: sx,
        scale_y: sy,
        shear_x,
        shear_y,
    };
    update_bone_world_with(rig, inst, parent, ppose);
    let rotation = cap.rotation;
    let r2 = rules.wrap_once(((a2 + os) * SPINE_RAD_DEG - cap.shear_x) * s2 + os2 - rotation);
    let cpose = LocalPose {
        x: cx,
        y: cy,
        rotation: rotation + r2 * alpha,
        ..cap
    };
    update_bone_world_with(rig, inst, child, cpose);
}

/// Two-bone angles (radians) for a non-uniformly scaled parent: intersects the ellipse the
/// scaled child sweeps (semi-axes `psx*l2`, `psy*l2`) with the target circle; without a
/// real root, takes the nearer of the minimum- and maximum-reach poses.
#[allow(clippy::too_many_arguments)]
fn non_uniform_angles(
    l1: f64,
    l2: f64,
    psx: f64,
    psy: f64,
    tx: f64,
    ty: f64,
    dd: f64,
    bend_dir: f64,
) -> (f64, f64) {
    let a = psx * l2;
    let b = psy * l2;
    let (aa, bb) = (a * a, b * b);
    let ta = trig::atan2(ty, tx);
    let c = bb * l1 * l1 + aa * dd - aa * bb;
    let c1 = -2.0 * bb * l1;
    let c2 = bb - aa;
    let d = c1 * c1 - 4.0 * c2 * c;
    if d >= 0.0 {
        let mut q = d.sqrt();
        if c1 < 0.0 {
            q = -q;
        }
        q = -(c1 + q) * 0.5;
        let r0 = q / c2;
        let r1 = c / q;
        let r = if r0.abs() < r1.abs() { r0 } else { r1 };
        let r0 = dd - r * r;
        if r0 >= 0.0 {
            let y = r0.sqrt() * bend_dir;
            return (ta - trig::atan2(y, r), trig::atan2(y / psy, (r - l1) / psx));
        }
    }
    // COMPAT(spine): the minimum-reach angle starts at the runtime's float-rounded pi.
    let (mut min_angle, mut min_x) = (SPINE_PI, l1 - a);
    let (mut min_dist, mut min_y) = (min_x * min_x, 0.0);
    let (mut max_angle, mut max_x) = (0.0, l1 + a);
    let (mut max_dist, mut max_y) = (max_x * max_x, 0.0);
    let c = -a * l1 / (aa - bb);
    if (-1.0..=1.0).contains(&c) {
        let c = c.acos();
        let x = a * c.cos() + l1;
        let y = b * c.sin();
        let d = x * x + y * y;
        if d < min_dist {
            min_angle = c;
            min_dist = d;
            min_x = x;
            min_y = y;
        }
        if d > max_dist {
            max_angle = c;
            max_dist = d;
            max_x = x;
            max_y = y;
        }
    }
    if dd <= (min_dist + max_dist) * 0.5 {
        (
            ta - trig::atan2(min_y * bend_dir, min_x),
            min_angle * bend_dir,
        )
    } else {
        (
            ta - trig::atan2(max_y * bend_dir, max_x),
            max_angle * bend_dir,
        )
    }
}
