//! `seam-opens` (warning): vertices of different attachments (or of one) that coincide in
//! the setup pose but move apart in some animation or parameter sweep, because their bones
//! or weights differ.
//!
//! The seed's reason: two parts meet at a seam only where their vertices sit on each other
//! *and* follow the same bones with the same weights; otherwise the seam tears open as soon
//! as the bones bend (a gap of background between an arm and a sleeve). Vertices closer
//! than [`crate::Tolerances::seam_coincide`] (0.05 units) in the setup pose form a seam; it
//! opens when they move further apart than [`crate::Tolerances::seam_gap`] (1 unit) or
//! [`crate::Tolerances::seam_gap_fraction`] of the rig's size (0.2%), whichever is larger.
//! Only meshes are checked (regions are rigid quads on one bone); both attachments must be
//! shown at the moment compared. One finding per pair of attachments, with the largest gap.

use crate::scene::Scene;
use crate::{Finding, Options, Severity, Where};
use sinew::ids::{AttachmentId, SlotId};
use sinew::rig::AttachmentKind;
use std::collections::HashMap;

/// Seams compared at most per rig.
const MAX_PAIRS: usize = 20_000;

#[derive(Debug, Clone, Copy)]
struct Point {
    slot: SlotId,
    attachment: AttachmentId,
    vertex: usize,
    x: f64,
    y: f64,
}

/// The worst moment of one pair of attachments.
#[derive(Debug, Clone)]
struct Worst {
    gap: f64,
    a: Point,
    b: Point,
    scenario: String,
    parameter: Option<String>,
    time: f64,
}

/// Checks the seams of the scene.
pub(crate) fn check(scene: &Scene, options: &Options) -> Vec<Finding> {
    let rig = &*scene.asset.rig;
    let mut c = scene.character();
    c.update(0.0);
    let mut points = Vec::new();
    let mut buf = Vec::new();
    for si in 0..rig.slots.len() {
        let slot = SlotId(si as u16);
        let Some(att) = c.attachment(slot) else {
            continue;
        };
        if !matches!(rig.attachments[att.index()].kind, AttachmentKind::Mesh(_)) {
            continue;
        }
        if !c.instance().bone_active[rig.slots[si].bone.index()] {
            continue;
        }
        c.world_vertices(slot, &mut buf);
        for (vertex, p) in buf.chunks_exact(2).enumerate() {
            points.push(Point {
                slot,
                attachment: att,
                vertex,
                x: f64::from(p[0]),
                y: f64::from(p[1]),
            });
        }
    }
    let eps = options.tol.seam_coincide;
    let cell = |x: f64| (x / eps).floor() as i64;
    let mut grid: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, p) in points.iter().enumerate() {
        grid.entry((cell(p.x), cell(p.y))).or_default().push(i);
    }
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    'outer: for (i, p) in points.iter().enumerate() {
        let (cx, cy) = (cell(p.x), cell(p.y));
        for dx in -1..=1 {
            for dy in -1..=1 {
                let Some(list) = grid.get(&(cx + dx, cy + dy)) else {
                    continue;
                };
                for &j in list {
                    let q = &points[j];
                    if j <= i || (p.x - q.x).hypot(p.y - q.y) > eps {
                        continue;
                    }
                    pairs.push((i, j));
                    if pairs.len() >= MAX_PAIRS {
                        break 'outer;
                    }
                }
            }
        }
    }
    if pairs.is_empty() {
        return Vec::new();
    }
    let mut slots: Vec<SlotId> = pairs
        .iter()
        .flat_map(|&(i, j)| [points[i].slot, points[j].slot])
        .collect();
    slots.sort_unstable();
    slots.dedup();
    let mut worst: HashMap<(AttachmentId, AttachmentId), Worst> = HashMap::new();
    let mut posed: HashMap<SlotId, Option<(AttachmentId, Vec<f32>)>> = HashMap::new();
    for &s in &scene.scenarios {
        let name = scene.name(s);
        let seconds = scene.sample_seconds(s, options);
        scene.run(s, options.fps, seconds, false, |c, _, t| {
            for &slot in &slots {
                let entry = c.attachment(slot).map(|a| {
                    let mut v = Vec::new();
                    c.world_vertices(slot, &mut v);
                    (a, v)
                });
                posed.insert(slot, entry);
            }
            for &(i, j) in &pairs {
                let (p, q) = (points[i], points[j]);
                let at = |pt: &Point| -> Option<(f64, f64)> {
                    let (a, v) = posed.get(&pt.slot)?.as_ref()?;
                    if *a != pt.attachment {
                        return None;
                    }
                    let x = v.get(2 * pt.vertex)?;
                    let y = v.get(2 * pt.vertex + 1)?;
                    Some((f64::from(*x), f64::from(*y)))
                };
                let (Some(a), Some(b)) = (at(&p), at(&q)) else {
                    continue;
                };
                let gap = (a.0 - b.0).hypot(a.1 - b.1);
                let key = (p.attachment, q.attachment);
                if worst.get(&key).is_none_or(|w| gap > w.gap) {
                    worst.insert(
                        key,
                        Worst {
                            gap,
                            a: p,
                            b: q,
                            scenario: name.clone(),
                            parameter: scene.parameter(s),
                            time: t,
                        },
                    );
                }
            }
        });
    }
    let tol = options
        .tol
        .seam_gap
        .max(options.tol.seam_gap_fraction * scene.size);
    let mut found: Vec<Worst> = worst.into_values().filter(|w| w.gap > tol).collect();
    found.sort_by(|x, y| {
        y.gap
            .total_cmp(&x.gap)
            .then((x.a.attachment, x.b.attachment, x.a.vertex).cmp(&(
                y.a.attachment,
                y.b.attachment,
                y.a.vertex,
            )))
    });
    let key = |a: AttachmentId| {
        let att = &rig.attachments[a.index()];
        rig.attachment_keys
            .get(att.key.0 as usize)
            .cloned()
            .unwrap_or_else(|| att.name.clone())
    };
    found
        .into_iter()
        .map(|w| {
            let sa = &rig.slots[w.a.slot.index()].name;
            let sb = &rig.slots[w.b.slot.index()].name;
            let (ka, kb) = (key(w.a.attachment), key(w.b.attachment));
            let same = w.a.attachment == w.b.attachment;
            let what = if same {
                format!(
                    "vertices {} and {} of `{ka}` (slot `{sa}`)",
                    w.a.vertex, w.b.vertex
                )
            } else {
                format!(
                    "vertex {} of `{ka}` (slot `{sa}`) and vertex {} of `{kb}` (slot `{sb}`)",
                    w.a.vertex, w.b.vertex
                )
            };
            Finding {
                code: "seam-opens",
                severity: Severity::Warning,
                message: format!(
                    "{what} sit on each other in the setup pose but move {:.2} units apart in \
                     `{}` at {:.3}s: their bones or weights differ, so the seam between them \
                     opens",
                    w.gap, w.scenario, w.time
                ),
                at: Where {
                    slot: Some(sa.clone()),
                    attachment: Some(ka),
                    vertex: Some(w.a.vertex),
                    animation: Some(w.scenario),
                    time: Some(w.time),
                    parameter: w.parameter,
                    other: Some(format!("{sb}/{kb}#{}", w.b.vertex)),
                    ..Default::default()
                },
                fix: "give both vertices the same bones and weights (Spine: select them, Weights \
                      view, paste the weights of one onto the other), or overlap the parts so the \
                      gap stays covered"
                    .to_owned(),
                edit: None,
            }
        })
        .collect()
}
