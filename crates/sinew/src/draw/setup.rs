//! Per-rig drawing details a format gives beyond the skeleton (Inochi2D Parts and
//! Composites): each slot's texture page and mask sources, each composite bone's off-screen
//! group and mask sources, and the rig's y convention. [`finish_draw_list`] applies them to a
//! list [`super::build_draw_list`] filled, so every format's list is complete and y up.
//!
//! Owned by the draw stage (`draw`); the loaders fill it (`sinew_formats::inochi2d`), the
//! [`crate::character::Character`] applies it after building its list. Verified by the unit
//! tests in `draw/tests.rs` and by the CLI render tests on the synthetic puppets.

use super::{DrawGroup, DrawList};
use crate::ids::{BoneId, SlotId};
use crate::instance::Instance;
use crate::instance::params::SlotOffset;
use crate::rig::Rig;
use crate::types::Color;

/// Page value of a command whose slot has no texture: renderers draw it white.
pub const NO_PAGE: u32 = u32::MAX;

/// The mask sources of one slot (or of one group).
///
/// Owner: the draw stage (`draw`; step 10 of `Character::update`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SlotMask {
    /// Source slots and whether each is a dodge mask (content kept outside it).
    pub sources: Vec<(SlotId, bool)>,
    /// Mask alpha at or below which a source does not mask.
    pub threshold: f32,
}

/// Drawing details of a rig that its attachments do not carry (empty for Spine rigs).
///
/// Owner: the draw stage (`draw`; step 10 of `Character::update`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DrawSetup {
    /// The rig's positions are y down (Inochi2D): draw lists flip them to y up.
    pub y_down: bool,
    /// Per slot: its texture page (`Some(None)`: untextured, drawn white). Empty: the
    /// attachments' own pages are kept.
    pub slot_pages: Vec<Option<u32>>,
    /// Per slot: mask sources (empty: no slot is masked).
    pub slot_masks: Vec<SlotMask>,
    /// Per bone: the off-screen group (Inochi2D Composite) on that bone; `first`/`count` are
    /// filled per frame.
    pub groups: Vec<Option<DrawGroup>>,
    /// Per bone: the group's mask sources.
    pub group_masks: Vec<SlotMask>,
}

impl DrawSetup {
    /// The group a slot's commands belong to: the outermost composite holding it, with its
    /// parameter-bound opacity, tint and screen tint applied.
    fn group_of(&self, rig: &Rig, inst: &Instance, slot: SlotId) -> Option<DrawGroup> {
        let bone: BoneId = rig.params.slot_group.get(slot.index()).copied().flatten()?;
        let group = self.groups.get(bone.index()).copied().flatten()?;
        Some(match inst.params.group.get(bone.index()) {
            Some(o) => bound_group(group, o),
            None => group,
        })
    }
}

/// A composite's layer colours with its parameter bindings applied: opacity and tint
/// multiplied, screen tint added (inochi2d.md §3).
fn bound_group(mut g: DrawGroup, o: &SlotOffset) -> DrawGroup {
    g.color = o.tinted(g.color);
    let [r, gr, b] = o.screened([g.screen.r, g.screen.g, g.screen.b]);
    g.screen = Color::new(r, gr, b, g.screen.a);
    g
}

/// Completes a list [`super::build_draw_list`] filled: drops the commands of slots the
/// parameter stage hides, sets each command's texture page from `setup`, groups runs of
/// composite children, and flips y for y-down rigs, so positions are y up for every format.
/// Allocates nothing when `list` came from [`DrawList::for_rig`].
/// An instance of another rig empties `list`.
pub fn finish_draw_list(rig: &Rig, inst: &Instance, setup: &DrawSetup, list: &mut DrawList) {
    if !inst.is_for(rig) {
        list.clear();
        return;
    }
    if !inst.params.visible.is_empty() {
        list.commands.retain(|c| {
            inst.params
                .visible
                .get(c.slot.index())
                .copied()
                .unwrap_or(true)
        });
    }
    if !setup.slot_pages.is_empty() {
        for c in &mut list.commands {
            c.page = setup
                .slot_pages
                .get(c.slot.index())
                .copied()
                .flatten()
                .unwrap_or(NO_PAGE);
        }
    }
    if setup.groups.iter().any(Option::is_some) {
        list.group_runs(|s| setup.group_of(rig, inst, s));
    }
    if setup.y_down {
        // COMPAT(inochi2d): puppet space is y down; draw lists are y up for every format.
        for p in list.positions.chunks_exact_mut(2) {
            p[1] = -p[1];
        }
        for p in list.clip_vertices.chunks_exact_mut(2) {
            p[1] = -p[1];
        }
    }
}
