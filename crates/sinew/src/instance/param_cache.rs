//! What the parameter stage remembers between frames so it recomputes only what changed.
//!
//! A binding's result depends only on the values (and mute flags) of its axes' parameters,
//! so the stage keeps, per parameter, the value its bindings last saw, and per binding its
//! last scalar result. A deformed slot's buffer is rewritten only when one of its bindings'
//! parameters changed, its attachment changed, or its buffer length no longer matches
//! (something reset it); otherwise the buffer still holds exactly what the stage wrote last.
//! Likewise a bone's world transform is recomputed only when its local pose or inherit mode
//! differs (bitwise) from the one it was computed with, or its parent was recomputed after
//! it (the skeleton position and scale count for roots).
//! The result is bit-identical to recomputing everything, because every recomputation runs
//! the same arithmetic in the same order. Code that writes a parameter-owned deform buffer
//! itself (or the draw order, or world transforms) must call [`ParamCache::invalidate`]. Verified by
//! `params/tests.rs` (`cached_frames_match_uncached`) and the fixture and allocation tests.

use crate::ids::AttachmentId;
use crate::rig::params::scalar_plan::ScalarPlan;

/// A parameter's value and mute flag when its bindings were last evaluated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Seen {
    /// The value.
    pub(crate) value: [f64; 2],
    /// The mute flag.
    pub(crate) muted: bool,
}

/// When and how a bone's world transform was last computed by the stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct BoneMemo {
    /// A counter value; a bone is recomputed when its parent's stamp is newer than its own.
    pub(crate) stamp: u64,
    /// The inherit mode it was computed with.
    pub(crate) inherit: crate::types::Inherit,
}

/// What a deformed slot's buffer was last computed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeformMemo {
    /// The attachment (`None`: nothing written).
    pub(crate) attachment: Option<AttachmentId>,
    /// The buffer length written.
    pub(crate) len: u32,
    /// A parameter feeding it changed since.
    pub(crate) dirty: bool,
}

impl DeformMemo {
    /// Nothing written yet.
    pub(crate) const DIRTY: DeformMemo = DeformMemo {
        attachment: None,
        len: 0,
        dirty: true,
    };
}

/// Per-instance memory of the parameter stage.
///
/// Owner: per-instance state; the parameter stage (step 5 of `Character::update`) writes it.
#[derive(Debug, Clone, Default)]
pub struct ParamCache {
    /// False until a frame has run (and after [`ParamCache::invalidate`]): everything is
    /// recomputed.
    pub(crate) valid: bool,
    /// Per parameter: the value its bindings were last evaluated at.
    pub(crate) seen: Vec<Seen>,
    /// Per parameter: its value normalised to 0..1 per component (what bindings read).
    pub(crate) norm: Vec<[f64; 2]>,
    /// Per parameter: where `norm` falls on its own keys, per component.
    pub(crate) cells: Vec<[crate::rig::params::corners::Cell; 2]>,
    /// Per parameter: the corners of a grid over its own x axis, and over x and y
    /// ([`crate::rig::params::corners::update_param_corners`]).
    pub(crate) corners: Vec<[crate::rig::params::corners::Corners; 2]>,
    /// Parameters that changed this frame (either phase), in the order found.
    pub(crate) changed_list: Vec<u16>,
    /// The scalar bindings' values and targets ([`super::scalars`]).
    pub(crate) scalars: ScalarMemo,
    /// Deformed slots (entries of `deform_slots`) a changed parameter marked this frame.
    pub(crate) deform_queue: Vec<u32>,
    /// Every slot's attachment at the end of the stage's last frame.
    pub(crate) attachments_seen: Vec<u32>,
    /// Every slot's deform length at the end of the stage's last frame.
    pub(crate) lens_seen: Vec<u32>,
    /// Per deformed slot (entries of `deform_slots`): what its buffer was computed for.
    pub(crate) deform: Vec<DeformMemo>,
    /// A z-sort binding changed: the draw order must be sorted again.
    pub(crate) zsort_dirty: bool,
    /// Per bone: what its world transform was last computed with.
    pub(crate) bones: Vec<BoneMemo>,
    /// The counter behind `stamp`.
    pub(crate) counter: u64,
    /// The skeleton position and scale the roots were computed with.
    pub(crate) skeleton: [u64; 4],
}

impl ParamCache {
    /// An empty cache for a rig's parameter set.
    pub fn new(set: &crate::rig::params::ParamSet) -> Self {
        ParamCache {
            valid: false,
            seen: set
                .params
                .iter()
                .map(|p| Seen {
                    value: p.default,
                    muted: false,
                })
                .collect(),
            norm: set
                .params
                .iter()
                .map(|p| [p.normalize(0, p.default[0]), p.normalize(1, p.default[1])])
                .collect(),
            cells: vec![[crate::rig::params::corners::Cell::default(); 2]; set.params.len()],
            corners: vec![Default::default(); set.params.len()],
            changed_list: Vec::with_capacity(set.params.len()),
            scalars: ScalarMemo::new(&set.plan.scalars),
            deform: vec![DeformMemo::DIRTY; set.deform_slots.len()],
            deform_queue: Vec::with_capacity(set.deform_slots.len()),
            attachments_seen: Vec::new(),
            lens_seen: Vec::new(),
            zsort_dirty: true,
            bones: Vec::new(),
            counter: 0,
            skeleton: [0; 4],
        }
    }

    /// Sizes the per-bone memory for `bones` bones (at instance creation).
    pub(crate) fn with_bones(mut self, bones: usize) -> Self {
        self.bones = vec![BoneMemo::default(); bones];
        self
    }

    /// Forgets everything: the next frame recomputes every binding, deform buffer and the
    /// draw order. Call after writing a parameter-owned buffer or the draw order by hand.
    pub fn invalidate(&mut self) {
        self.valid = false;
    }
}
/// An item's last evaluation.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ItemMemo {
    /// Its value.
    pub(crate) value: f64,
    /// The pass it was evaluated in.
    pub(crate) pass: u64,
    /// One of its parameters was muted (it contributes nothing).
    pub(crate) muted: bool,
}

/// A target's state.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct TargetMemo {
    /// The pass it was last queued in.
    pub(crate) pass: u64,
    /// Its fold over the items applied before physics.
    pub(crate) before: f64,
}

/// What the scalar stage remembers between frames (part of [`ParamCache`]).
///
/// Owner: per-instance state; the parameter stage (step 5 of `Character::update`) writes it.
#[derive(Debug, Clone, Default)]
pub struct ScalarMemo {
    /// Per item.
    pub(crate) items: Vec<ItemMemo>,
    /// Per target.
    pub(crate) targets: Vec<TargetMemo>,
    /// Targets queued in this pass.
    pub(crate) queue: Vec<u32>,
    /// The pass counter (two passes per physics frame).
    pub(crate) pass: u64,
}

impl ScalarMemo {
    /// Sized for `plan`.
    pub fn new(plan: &ScalarPlan) -> Self {
        ScalarMemo {
            items: vec![ItemMemo::default(); plan.items.len()],
            targets: vec![TargetMemo::default(); plan.targets.len()],
            queue: Vec::with_capacity(plan.targets.len()),
            pass: 0,
        }
    }
}
