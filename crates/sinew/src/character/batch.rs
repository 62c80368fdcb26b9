//! [`Batch`]: the frame of many characters, four of one rig at a time in SIMD lanes.
//!
//! Characters of one rig with the same skin share the update plan, so one pass can pose
//! [`LANES`] of them at once. [`Batch::update`] takes the characters in runs of four
//! consecutive ones of the same rig (not puppets: the parameter stage poses those): each
//! runs its own animation, overrides and clock (steps 1-4 of [`Character::update`], lane
//! by lane), then the four share one walk of the update plan (`skeleton::lanes`: the bones
//! that inherit normally in every lane computed together, everything else lane by lane in
//! plan order), then each runs its follows, jiggle, cages and the finiteness guard. Runs
//! shorter than four take the plain path; four whose plans differ (other skins) walk them
//! together up to the first difference, then each alone.
//!
//! [`Batch::compute_world_vertices`] likewise skins a weighted mesh that all four
//! characters of a group (in the same draw order) show together (`deform::skin_lanes`, over a lane-major copy of
//! their bone matrices); every other slot is computed per character as
//! [`Character::compute_world_vertices`] does.
//!
//! Results are bit-identical to [`Character::update`] and
//! [`Character::compute_world_vertices`] on each character alone
//! (`sinew-formats/tests/all/batch_lanes.rs`: bone world transforms and world vertices of
//! every Spine fixture's animations, groups of 1 to 9 characters at staggered times). After
//! the first frames nothing allocates (the scratch grows only while a bigger rig or mesh
//! comes along).

use super::{Character, finite};
use crate::deform::skin_lanes::{LaneMatrix, fill_lanes, skin_lanes};
use crate::ids::{AttachmentId, SlotId};
use crate::instance::Instance;
use crate::raw::Vertices;
use crate::rig::AttachmentKind;
use std::sync::Arc;

pub use crate::skeleton::lanes::LANES;

/// Scratch for batched frames: the lane-major bone matrices and one vertex buffer per
/// lane. Keep one and reuse it every frame.
///
/// ```
/// use sinew::character::{Batch, Character};
/// use sinew::raw::{RawBone, RawRig};
/// use std::sync::Arc;
///
/// let mut raw = RawRig::default();
/// raw.bones.push(RawBone::new("root", None));
/// raw.bones.push(RawBone::new("arm", Some("root")));
/// let rig = Arc::new(sinew::build::build_rig(&raw)?);
/// let mut crowd: Vec<Character> = (0..6)
///     .map(|i| {
///         let mut c = Character::new(rig.clone());
///         c.set_position(f64::from(i), 0.0);
///         c
///     })
///     .collect();
/// let mut alone = crowd.clone();
/// let mut batch = Batch::new();
/// batch.update(&mut crowd, 1.0 / 60.0); // four in lanes, two alone
/// alone.iter_mut().for_each(|c| c.update(1.0 / 60.0));
/// for (a, b) in crowd.iter().zip(&alone) {
///     assert_eq!(a.instance().world, b.instance().world); // the same bits
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Owner: the facade's batch (`Batch::update`, `Batch::compute_world_vertices`).
#[derive(Debug, Default, Clone)]
pub struct Batch {
    soa: Vec<LaneMatrix>,
    bufs: [Vec<f32>; LANES],
    /// Per slot: skinned in lanes this group (the per-character pass skips it).
    skinned: Vec<bool>,
    /// The rig (uid) `floats` was measured for, and the floats its largest region or mesh
    /// needs ([`Character::max_world_floats`]).
    sized: Option<(u64, usize)>,
}

impl Batch {
    /// Empty scratch (sized on first use).
    pub fn new() -> Self {
        Self::default()
    }

    /// [`Character::update`] on every character of `chars`, four of one rig at a time in
    /// SIMD lanes where they allow it (see the module notes); the same results, bit for bit.
    pub fn update(&mut self, chars: &mut [Character], dt: f64) {
        let mut rest = chars;
        while !rest.is_empty() {
            if lane_run(rest) == LANES {
                let (group, tail) = rest.split_at_mut(LANES);
                if let Ok(group) = <&mut [Character; LANES]>::try_from(group) {
                    update_lanes(group, dt);
                }
                rest = tail;
            } else {
                let (one, tail) = rest.split_at_mut(1);
                one[0].update(dt);
                rest = tail;
            }
        }
    }

    /// World vertices of every region and mesh each character shows, as
    /// [`Character::compute_world_vertices`] makes them, handed to `visit(character index,
    /// slot, x/y pairs)` one slot at a time (the slice is scratch, valid during the call).
    /// Each character's slots come in its draw order, except that in a group of four the
    /// weighted meshes all four show come first (skinned together). Returns the total
    /// vertex count.
    pub fn compute_world_vertices(
        &mut self,
        chars: &[Character],
        mut visit: impl FnMut(usize, SlotId, &[f32]),
    ) -> usize {
        let mut total = 0;
        let mut base = 0;
        while base < chars.len() {
            let rest = &chars[base..];
            if let Some(group) = rest.first_chunk::<LANES>()
                && vertex_lanes_allowed(group)
            {
                total += self.vertices_lanes(group, base, &mut visit);
                base += LANES;
            } else {
                let c = &chars[base];
                let floats = self.floats_for(c);
                let buf = grow(&mut self.bufs[0], floats);
                total += other_slots(c, buf, &[], base, &mut visit);
                base += 1;
            }
        }
        total
    }

    /// The floats the largest region or mesh of `c`'s rig needs (measured once per rig in a
    /// row).
    fn floats_for(&mut self, c: &Character) -> usize {
        match self.sized {
            Some((uid, n)) if uid == c.rig.uid => n,
            _ => {
                let n = c.max_world_floats();
                self.sized = Some((c.rig.uid, n));
                n
            }
        }
    }

    /// Four characters' world vertices: first the weighted meshes all four show, skinned
    /// together in their shared draw order, then each character's other slots.
    fn vertices_lanes(
        &mut self,
        group: &[Character; LANES],
        base: usize,
        visit: &mut impl FnMut(usize, SlotId, &[f32]),
    ) -> usize {
        let floats = self.floats_for(&group[0]);
        let Batch {
            soa, bufs, skinned, ..
        } = self;
        let [b0, b1, b2, b3] = bufs;
        let mut bufs = [b0, b1, b2, b3].map(|b| grow(b, floats));
        skinned.clear();
        skinned.resize(group[0].rig.slots.len(), false);
        let mut filled = false;
        let mut total = 0;
        for &slot in &group[0].inst.draw_order {
            let Some(vertices) = shared_weighted_mesh(group, slot) else {
                continue;
            };
            let count = vertices.count as usize;
            let deforms = group.each_ref().map(|c| c.inst.slots.deform(slot));
            let with = !deforms[0].is_empty();
            let [o0, o1, o2, o3] = &mut bufs;
            let (Some(o0), Some(o1), Some(o2), Some(o3)) = (
                o0.get_mut(..count * 2),
                o1.get_mut(..count * 2),
                o2.get_mut(..count * 2),
                o3.get_mut(..count * 2),
            ) else {
                continue;
            };
            if deforms.iter().any(|d| d.is_empty() == with) {
                continue;
            }
            if !filled {
                fill_lanes(group.each_ref().map(|c| &c.inst.world[..]), soa);
                filled = true;
            }
            let mut outs = [o0, o1, o2, o3];
            let d = with.then_some(deforms);
            if skin_lanes(soa, &vertices.bones, &vertices.values, d, &mut outs) {
                for (l, out) in outs.into_iter().enumerate() {
                    // Weighted vertices are not checked on the way (`finite`).
                    finite::floats(out);
                    visit(base + l, slot, out);
                }
                total += LANES * count;
                if let Some(done) = skinned.get_mut(slot.index()) {
                    *done = true;
                }
            }
        }
        for (l, (c, buf)) in group.iter().zip(bufs).enumerate() {
            total += other_slots(c, buf, skinned, base + l, visit);
        }
        total
    }
}

/// The plain per-slot loop of [`Character::compute_world_vertices`] over `c`'s draw order,
/// skipping the slots `skip` marks (done already), each slot handed to `visit` as
/// character `k`; returns the vertex count.
fn other_slots(
    c: &Character,
    buf: &mut [f32],
    skip: &[bool],
    k: usize,
    visit: &mut impl FnMut(usize, SlotId, &[f32]),
) -> usize {
    // Cages, example shapes and deformers decided once per character, not per slot: a rig without
    // them runs the loop it ran before they existed (docs/PERFORMANCE.md, issue 29).
    if c.reshapes_vertices() {
        return reshaped_slots(c, buf, skip, k, visit);
    }
    each_slot(c, buf, skip, k, visit, Character::plain_slot_world_vertices)
}

/// [`other_slots`] for a character with cages, example shapes or deformers, out of the
/// plain loop.
#[inline(never)]
fn reshaped_slots(
    c: &Character,
    buf: &mut [f32],
    skip: &[bool],
    k: usize,
    visit: &mut impl FnMut(usize, SlotId, &[f32]),
) -> usize {
    each_slot(c, buf, skip, k, visit, Character::slot_world_vertices)
}

/// The loop of [`other_slots`], with `world` making one slot's vertices.
#[inline(always)]
fn each_slot(
    c: &Character,
    buf: &mut [f32],
    skip: &[bool],
    k: usize,
    visit: &mut impl FnMut(usize, SlotId, &[f32]),
    world: impl Fn(&Character, SlotId, &mut [f32]) -> Option<usize>,
) -> usize {
    let mut total = 0;
    for &slot in &c.inst.draw_order {
        if skip.get(slot.index()) == Some(&true) {
            continue;
        }
        if let Some(n) = world(c, slot, buf) {
            visit(k, slot, &buf[..(n * 2).min(buf.len())]);
            total += n;
        }
    }
    total
}

/// The weighted mesh all four characters show in `slot` (the same attachment, its bone
/// active and the slot visible in every lane), if any.
#[inline]
fn shared_weighted_mesh(group: &[Character; LANES], slot: SlotId) -> Option<&Vertices> {
    let rig = &*group[0].rig;
    let si = slot.index();
    let att = group[0].inst.slots.attachment.get(si).copied().flatten()?;
    let AttachmentKind::Mesh(m) = &rig.attachments.get(att.index())?.kind else {
        return None;
    };
    if !m.vertices.is_weighted() {
        return None;
    }
    let bone = rig.slots.get(si)?.bone.index();
    let shown = |inst: &Instance| {
        inst.slots.attachment.get(si) == Some(&Some(att))
            && inst.bone_active.get(bone) == Some(&true)
            && inst.params.visible.get(si).copied().unwrap_or(true)
    };
    group.iter().all(|c| shown(&c.inst)).then_some(&m.vertices)
}

/// `buf` grown to at least `n` floats (allocates only when it grows).
fn grow(buf: &mut Vec<f32>, n: usize) -> &mut [f32] {
    if buf.len() < n {
        buf.resize(n, 0.0);
    }
    buf
}

/// How many characters from the front of `chars` (at most [`LANES`]) can share a batched
/// world stage: the same rig (the same `Arc`) and no parameter stage.
fn lane_run(chars: &[Character]) -> usize {
    let Some(first) = chars.first() else {
        return 0;
    };
    if first.param_stage {
        return 0;
    }
    chars
        .iter()
        .take(LANES)
        .take_while(|c| Arc::ptr_eq(&c.rig, &first.rig) && !c.param_stage)
        .count()
}

/// Whether four characters' shared weighted meshes are skinned together: one rig, no cages
/// and the same draw order (four that differ, as a draw-order timeline makes them, show
/// different things often enough that the lane-major copy of their bones does not pay).
fn vertex_lanes_allowed(group: &[Character; LANES]) -> bool {
    let first = &group[0];
    group.iter().all(|c| {
        Arc::ptr_eq(&c.rig, &first.rig)
            && c.cages.is_empty()
            && !c.has_deformers()
            && c.inst.draw_order == first.inst.draw_order
    })
}

/// One frame of four characters of one rig: their own steps 1-4, one shared world stage,
/// their own steps 6-8.
fn update_lanes(group: &mut [Character; LANES], dt: f64) {
    update_lanes_apart(group.each_mut(), dt);
}

/// Whether four characters can share a batched world stage (as [`lane_run`] finds them).
pub(super) fn can_share(group: [&Character; LANES]) -> bool {
    let first = group[0];
    group
        .iter()
        .all(|c| Arc::ptr_eq(&c.rig, &first.rig) && !c.param_stage)
}

/// [`update_lanes`] for four characters held apart (a crowd's, each behind its lock); the
/// caller checked [`can_share`].
pub(super) fn update_lanes_apart(group: [&mut Character; LANES], dt: f64) {
    let [c0, c1, c2, c3] = group;
    let frames = [
        c0.begin_frame(dt),
        c1.begin_frame(dt),
        c2.begin_frame(dt),
        c3.begin_frame(dt),
    ];
    // Plans that differ (other skins) part ways where they first differ (`world_transform_lanes`).
    let physics = [
        c0.world_physics(frames[0].1),
        c1.world_physics(frames[1].1),
        c2.world_physics(frames[2].1),
        c3.world_physics(frames[3].1),
    ];
    {
        let rig = &*c0.rig;
        let mut insts = [&mut c0.inst, &mut c1.inst, &mut c2.inst, &mut c3.inst];
        crate::skeleton::lanes::world_transform_lanes(rig, &mut insts, physics);
    }
    for (c, &(dt, reset)) in [c0, c1, c2, c3].into_iter().zip(&frames) {
        c.finish_frame(dt, reset);
    }
}

impl Character {
    /// Whether cages, example shapes or declared deformers replace some slot's world
    /// vertices.
    #[inline]
    pub(super) fn reshapes_vertices(&self) -> bool {
        !(self.cages.is_empty() && self.shapes.is_empty()) || self.has_deformers()
    }

    /// One slot's part of [`Character::compute_world_vertices`]: its vertices written to
    /// the start of `buf` (cut to it), and their count; `None` for a slot that shows no
    /// region or mesh (or whose bone is inactive, or that is hidden).
    pub(super) fn slot_world_vertices(&self, slot: SlotId, buf: &mut [f32]) -> Option<usize> {
        if !self.reshapes_vertices() {
            return self.plain_slot_world_vertices(slot, buf);
        }
        let (att, _, count) = self.shown_attachment(slot)?;
        let end = (count * 2).min(buf.len());
        let out = &mut buf[..end];
        let found = super::posed(
            &self.cages,
            &self.shapes,
            #[cfg(feature = "rig-deformers")]
            self.deformers.as_deref(),
            slot,
            att,
        );
        match found {
            Some(v) => out.copy_from_slice(&v[..end]),
            None => {
                let (rig, inst) = (&*self.rig, &self.inst);
                if !crate::deform::vertices::world_vertices_checked(rig, inst, slot, out) {
                    finite::floats(out);
                }
            }
        }
        Some(count)
    }

    /// [`Character::slot_world_vertices`] for a character without cages or shapes.
    #[inline(always)]
    fn plain_slot_world_vertices(&self, slot: SlotId, buf: &mut [f32]) -> Option<usize> {
        let (_, kind, count) = self.shown_attachment(slot)?;
        let end = (count * 2).min(buf.len());
        let out = &mut buf[..end];
        // Values past f32 are zeroed (`finite`), unless the loop that wrote them checked
        // them already.
        if !crate::deform::vertices::kind_world_vertices(&self.rig, &self.inst, slot, kind, out) {
            finite::floats(out);
        }
        Some(count)
    }

    /// The region or mesh `slot` shows (its id, kind and vertex count); `None` when the
    /// slot shows neither, its bone is inactive or it is hidden.
    #[inline(always)]
    fn shown_attachment(&self, slot: SlotId) -> Option<(AttachmentId, &AttachmentKind, usize)> {
        let (rig, inst) = (&*self.rig, &self.inst);
        let si = slot.index();
        if !inst.bone_active[rig.slots[si].bone.index()]
            || !inst.params.visible.get(si).copied().unwrap_or(true)
        {
            return None;
        }
        let att = inst.slots.attachment[si]?;
        let kind = &rig.attachments[att.index()].kind;
        let count = match kind {
            AttachmentKind::Region(_) => 4,
            AttachmentKind::Mesh(m) => m.vertices.count as usize,
            _ => return None,
        };
        Some((att, kind, count))
    }
}
