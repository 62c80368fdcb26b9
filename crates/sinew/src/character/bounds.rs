//! Hit testing against bounding-box attachments (Spine `SkeletonBounds`) and view fitting.
//!
//! [`SkeletonBounds::update`] takes the world polygons of every bounding-box attachment shown
//! (slots of active bones), and their joint axis-aligned box; point and segment queries
//! return the first slot whose polygon is hit. Crossing-number point test and a
//! segment/edge intersection test, as Spine's. Allocation-free after
//! [`SkeletonBounds::for_rig`]. Owned by the facade (`character`); verified by
//! `character/tests.rs`.

use crate::ids::SlotId;
use crate::instance::Instance;
use crate::rig::{AttachmentKind, Rig};

/// World polygons of the bounding boxes a character shows, with their joint bounds.
///
/// Owner: the facade (`Character`), which runs every stage.
#[derive(Debug, Clone, Default)]
pub struct SkeletonBounds {
    /// The slot of each polygon.
    slots: Vec<SlotId>,
    /// Each polygon's range in `vertices` (in floats).
    ranges: Vec<(u32, u32)>,
    /// World x, y of every polygon's vertices.
    vertices: Vec<f32>,
    aabb: [f32; 4],
}

impl SkeletonBounds {
    /// Empty bounds with room for every bounding box of `rig`.
    pub fn for_rig(rig: &Rig) -> Self {
        let floats: usize = rig
            .attachments
            .iter()
            .map(|a| match &a.kind {
                AttachmentKind::BoundingBox { vertices, .. } => vertices.count as usize * 2,
                _ => 0,
            })
            .sum();
        SkeletonBounds {
            slots: Vec::with_capacity(rig.slots.len()),
            ranges: Vec::with_capacity(rig.slots.len()),
            vertices: Vec::with_capacity(floats),
            aabb: [0.0; 4],
        }
    }

    /// Collects the bounding boxes `inst` shows (Spine `SkeletonBounds.update(skeleton, true)`).
    pub fn update(&mut self, rig: &Rig, inst: &Instance) {
        self.slots.clear();
        self.ranges.clear();
        self.vertices.clear();
        let mut b = [
            f32::INFINITY,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
        ];
        for (si, sd) in rig.slots.iter().enumerate() {
            if !inst
                .bone_active
                .get(sd.bone.index())
                .copied()
                .unwrap_or(false)
            {
                continue;
            }
            let Some(att) = inst.slots.attachment.get(si).copied().flatten() else {
                continue;
            };
            let Some(AttachmentKind::BoundingBox { vertices, .. }) =
                rig.attachments.get(att.index()).map(|a| &a.kind)
            else {
                continue;
            };
            let n = vertices.count as usize * 2;
            let start = self.vertices.len();
            self.vertices.resize(start + n, 0.0);
            let slot = SlotId(si as u16);
            crate::deform::compute_world_vertices(rig, inst, slot, &mut self.vertices[start..]);
            // Values past f32 are zeroed (`super::finite`).
            super::finite::floats(&mut self.vertices[start..]);
            for p in self.vertices[start..].chunks_exact(2) {
                b = [
                    b[0].min(p[0]),
                    b[1].min(p[1]),
                    b[2].max(p[0]),
                    b[3].max(p[1]),
                ];
            }
            self.slots.push(slot);
            self.ranges.push((start as u32, (start + n) as u32));
        }
        self.aabb = if self.slots.is_empty() { [0.0; 4] } else { b };
    }

    /// The joint box `[x0, y0, x1, y1]` of every polygon, when there is one.
    pub fn aabb(&self) -> Option<[f32; 4]> {
        (!self.slots.is_empty()).then_some(self.aabb)
    }

    /// The polygons: each bounding-box slot with its world vertices (x, y pairs).
    pub fn polygons(&self) -> impl Iterator<Item = (SlotId, &[f32])> {
        self.slots
            .iter()
            .zip(&self.ranges)
            .map(|(&s, &(a, b))| (s, self.vertices.get(a as usize..b as usize).unwrap_or(&[])))
    }

    /// Whether the point is inside the joint box (Spine `aabbContainsPoint`).
    pub fn aabb_contains_point(&self, x: f32, y: f32) -> bool {
        let b = self.aabb;
        !self.slots.is_empty() && x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3]
    }

    /// The first bounding box containing the point (Spine `containsPoint`).
    pub fn contains_point(&self, x: f32, y: f32) -> Option<SlotId> {
        self.polygons()
            .find(|(_, p)| polygon_contains(p, x, y))
            .map(|(s, _)| s)
    }

    /// The first bounding box the segment crosses (Spine `intersectsSegment`).
    pub fn intersects_segment(&self, x1: f32, y1: f32, x2: f32, y2: f32) -> Option<SlotId> {
        self.polygons()
            .find(|(_, p)| polygon_intersects(p, x1, y1, x2, y2))
            .map(|(s, _)| s)
    }
}

/// Crossing-number test (Spine `SkeletonBounds.containsPointPolygon`).
fn polygon_contains(p: &[f32], x: f32, y: f32) -> bool {
    let n = p.len() / 2;
    if n < 3 {
        return false;
    }
    let mut inside = false;
    let mut prev = n - 1;
    for i in 0..n {
        let (xi, yi) = (p[i * 2], p[i * 2 + 1]);
        let (xp, yp) = (p[prev * 2], p[prev * 2 + 1]);
        if ((yi < y && yp >= y) || (yp < y && yi >= y)) && xi + (y - yi) / (yp - yi) * (xp - xi) < x
        {
            inside = !inside;
        }
        prev = i;
    }
    inside
}

/// Whether a segment crosses any edge (Spine `SkeletonBounds.intersectsSegmentPolygon`).
fn polygon_intersects(p: &[f32], x1: f32, y1: f32, x2: f32, y2: f32) -> bool {
    let n = p.len() / 2;
    if n < 2 {
        return false;
    }
    let (w12, h12) = (x1 - x2, y1 - y2);
    let det1 = x1 * y2 - y1 * x2;
    let (mut x3, mut y3) = (p[(n - 1) * 2], p[(n - 1) * 2 + 1]);
    for i in 0..n {
        let (x4, y4) = (p[i * 2], p[i * 2 + 1]);
        let det2 = x3 * y4 - y3 * x4;
        let (w34, h34) = (x3 - x4, y3 - y4);
        let det3 = w12 * h34 - h12 * w34;
        if det3 != 0.0 {
            let x = (det1 * w34 - w12 * det2) / det3;
            if ((x >= x3 && x <= x4) || (x >= x4 && x <= x3))
                && ((x >= x1 && x <= x2) || (x >= x2 && x <= x1))
            {
                let y = (det1 * h34 - h12 * det2) / det3;
                if ((y >= y3 && y <= y4) || (y >= y4 && y <= y3))
                    && ((y >= y1 && y <= y2) || (y >= y2 && y <= y1))
                {
                    return true;
                }
            }
        }
        x3 = x4;
        y3 = y4;
    }
    false
}

/// The world rectangle `[x0, y0, x1, y1]` (y up) that shows `bounds` centred in a
/// `width` x `height` image with the aspect ratio kept (one pixel per `scale` units on both
/// axes, `scale` the largest that fits). Empty or degenerate bounds count as 1e-6 wide.
///
/// ```
/// // A 100x50 box in a 200x200 image: the view grows vertically, centred.
/// assert_eq!(
///     sinew::character::fit_view([0.0, 0.0, 100.0, 50.0], 200, 200),
///     [0.0, -25.0, 100.0, 75.0]
/// );
/// ```
pub fn fit_view(bounds: [f64; 4], width: u32, height: u32) -> [f64; 4] {
    let (bw, bh) = (
        (bounds[2] - bounds[0]).max(1e-6),
        (bounds[3] - bounds[1]).max(1e-6),
    );
    let (cx, cy) = ((bounds[0] + bounds[2]) / 2.0, (bounds[1] + bounds[3]) / 2.0);
    let (w, h) = (f64::from(width.max(1)), f64::from(height.max(1)));
    let s = (w / bw).min(h / bh);
    let (hw, hh) = (w / s / 2.0, h / s / 2.0);
    [cx - hw, cy - hh, cx + hw, cy + hh]
}

impl super::Character {
    /// Collects the bounding boxes shown now and returns them for hit tests (Spine
    /// `SkeletonBounds.update` then `containsPoint` / `intersectsSegment`).
    pub fn hit_bounds(&mut self) -> &SkeletonBounds {
        self.bounds.update(&self.rig, &self.inst);
        &self.bounds
    }

    /// The bounding box slot under a world point, if any.
    pub fn hit_test(&mut self, x: f32, y: f32) -> Option<SlotId> {
        self.hit_bounds().contains_point(x, y)
    }

    /// The world box `[x0, y0, x1, y1]` (y up) of everything drawn now, when anything is.
    pub fn bounds(&mut self) -> Option<[f32; 4]> {
        self.draw_list().bounds()
    }

    /// The view rectangle (y up) that fits what is drawn now, padded by `padding` (a
    /// fraction of the size on each side, e.g. 0.05), into a `width` x `height` image; see
    /// [`fit_view`]. `None` when nothing is drawn or the view would not be finite.
    pub fn fit_view(&mut self, width: u32, height: u32, padding: f64) -> Option<[f64; 4]> {
        let b = self.bounds()?.map(f64::from);
        let (px, py) = (padding * (b[2] - b[0]), padding * (b[3] - b[1]));
        let v = fit_view([b[0] - px, b[1] - py, b[2] + px, b[3] + py], width, height);
        // A non-finite or huge padding gives no view (never a NaN one).
        v.iter().all(|c| c.is_finite()).then_some(v)
    }
}

#[cfg(test)]
pub(super) mod tests_api {
    /// [`super::polygon_contains`] for the facade tests.
    pub fn contains(p: &[f32], x: f32, y: f32) -> bool {
        super::polygon_contains(p, x, y)
    }
    /// [`super::polygon_intersects`] for the facade tests.
    pub fn intersects(p: &[f32], x1: f32, y1: f32, x2: f32, y2: f32) -> bool {
        super::polygon_intersects(p, x1, y1, x2, y2)
    }
}
