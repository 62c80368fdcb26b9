//! `ik-out-of-reach` (warning): a two-bone IK target beyond the chain's reach while the
//! constraint has softness 0 and no stretch.
//!
//! The seed's reason: with the target out of reach the chain straightens fully and the
//! knee (or elbow) locks, then snaps when the target comes back in reach; softness eases
//! the last part of the extension and stretch lengthens the bones instead. The reach is
//! the distance from the parent bone to the child bone plus the child's length, in world
//! units at that pose; the distance is from the parent bone's origin to the target's. It is
//! out of reach when the shortfall exceeds [`crate::Tolerances::ik_shortfall`] (0.5 units)
//! or [`crate::Tolerances::ik_shortfall_fraction`] of the reach (1%), whichever is larger.
//! Mix, softness and stretch are read from the posed instance, so keyed values count; only
//! poses with a mix of at least 0.9 are checked (a lower mix blends the animated pose back
//! in, so the chain does not lock).

use crate::scene::Scene;
use crate::{Finding, Options, Severity, Where};

/// The knee locks only while IK holds the chain (almost) fully: a lower mix blends the
/// animated pose back in.
const FULL_MIX: f64 = 0.9;

#[derive(Debug, Clone)]
struct Worst {
    shortfall: f64,
    reach: f64,
    scenario: String,
    time: f64,
}

/// Checks every two-bone IK constraint over every scenario.
pub(crate) fn check(scene: &Scene, options: &Options) -> Vec<Finding> {
    let rig = &*scene.asset.rig;
    if rig.ik.iter().all(|k| k.bones.len() != 2) {
        return Vec::new();
    }
    let mut worst: Vec<Option<Worst>> = vec![None; rig.ik.len()];
    for &s in &scene.scenarios {
        let name = scene.name(s);
        let seconds = scene.sample_seconds(s, options);
        scene.run(s, options.fps, seconds, false, |c, _, t| {
            let inst = c.instance();
            for (k, ik) in rig.ik.iter().enumerate() {
                let (Some(state), Some(true)) = (inst.ik.get(k), inst.ik_active.get(k).copied())
                else {
                    continue;
                };
                if ik.bones.len() != 2
                    || state.mix < FULL_MIX
                    || state.softness > 0.0
                    || state.stretch
                {
                    continue;
                }
                let (p, ch) = (ik.bones[0].index(), ik.bones[1].index());
                let (wp, wc, wt) = (inst.world[p], inst.world[ch], inst.world[ik.target.index()]);
                let l1 = (wc.x - wp.x).hypot(wc.y - wp.y);
                let l2 = rig.bones[ch].length * wc.a.hypot(wc.c);
                let reach = l1 + l2;
                let d = (wt.x - wp.x).hypot(wt.y - wp.y);
                let short = d - reach;
                let tol = options
                    .tol
                    .ik_shortfall
                    .max(options.tol.ik_shortfall_fraction * reach);
                if short > tol && worst[k].as_ref().is_none_or(|w| short > w.shortfall) {
                    worst[k] = Some(Worst {
                        shortfall: short,
                        reach,
                        scenario: name.clone(),
                        time: t,
                    });
                }
            }
        });
    }
    worst
        .into_iter()
        .enumerate()
        .filter_map(|(k, w)| Some((k, w?)))
        .map(|(k, w)| {
            let ik = &rig.ik[k];
            let child = &rig.bones[ik.bones[1].index()].name;
            Finding {
                code: "ik-out-of-reach",
                severity: Severity::Warning,
                message: format!(
                    "IK `{}` cannot reach its target in `{}` at {:.3}s: the target is {:.2} \
                     units beyond the chain's reach of {:.2} and the constraint has softness 0 \
                     and no stretch, so `{child}` locks straight and snaps when the target comes \
                     back",
                    ik.name, w.scenario, w.time, w.shortfall, w.reach
                ),
                at: Where {
                    constraint: Some(ik.name.clone()),
                    bone: Some(child.clone()),
                    animation: Some(w.scenario),
                    time: Some(w.time),
                    ..Default::default()
                },
                fix: format!(
                    "give the constraint some softness (about {:.1}, a few percent of the reach), \
                     enable stretch, or key the target at most {:.2} units closer",
                    (0.05 * w.reach).max(1.0),
                    w.shortfall
                ),
                edit: None,
            }
        })
        .collect()
}
