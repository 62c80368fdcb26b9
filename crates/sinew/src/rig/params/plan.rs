//! The parameter stage's precomputed plan: which bindings feed which deformed slot, which
//! bindings are scalars, and which bones each world-transform pass of a physics frame
//! must visit. Built once with the [`ParamSet`] so the frame itself only
//! walks flat index lists.
//!
//! The bone subsets rely on two facts: bones are stored parent-first, and a bone whose
//! local pose and ancestors did not change since the pass before physics has the same
//! world transform after it. So the pass before physics visits only the drivers' anchors
//! and their ancestors, and the pass after physics visits every other bone plus those the
//! physics-driven bindings move (with their descendants). The subsets are used only when
//! the rig has no constraints (their update order interleaves with bones); otherwise the
//! stage runs the full world transform twice. Verified by `params/tests.rs`
//! (`cached_frames_match_uncached`), which compares whole frames against a fresh instance.

use super::{ParamSet, Target};
use crate::ids::BoneId;
use crate::rig::Rig;

/// One deformed slot and the deform bindings that feed it.
///
/// Owner: the builder writes it (`rig::params`); the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeformSlotPlan {
    /// Index into [`ParamSet::deform_slots`](super::ParamSet::deform_slots).
    pub slot: u32,
    /// The slot itself (its index in the rig).
    pub slot_index: u32,
    /// Range into [`ParamPlan::deform_bindings`].
    pub start: u32,
    /// End of that range.
    pub end: u32,
    /// Rewritten every frame: a deformer adds to this slot's buffer after the stage, so
    /// what the buffer holds is no longer what the stage wrote.
    pub volatile: bool,
}

/// The parameters a binding reads, for its mute check: the first two axes' parameters,
/// and whether there are more (then the binding's axes are asked).
///
/// Owner: the builder writes it (`rig::params`); the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AxisParams {
    /// The parameters of its first two axes ([`AxisParams::NONE`] when absent).
    pub params: [u16; 2],
    /// More than two axes.
    pub wide: bool,
}

impl AxisParams {
    /// No parameter.
    pub const NONE: u16 = u16::MAX;

    /// The parameters of `b`.
    pub fn of(b: &super::Binding) -> Self {
        let param = |a: usize| b.axes.get(a).map_or(Self::NONE, |x| x.param.0);
        AxisParams {
            params: [param(0), param(1)],
            wide: b.axes.len() > 2,
        }
    }

    /// Whether any of the parameters of `b` (these are its) is muted.
    #[inline]
    pub fn muted(&self, muted: &[bool], b: &super::Binding) -> bool {
        let is = |p: u16| muted.get(usize::from(p)).copied().unwrap_or(false);
        if self.wide {
            b.axes.iter().any(|a| is(a.param.0))
        } else {
            is(self.params[0]) || is(self.params[1])
        }
    }
}

/// One deform binding as the stage evaluates it.
///
/// Owner: the builder writes it (`rig::params`); the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeformItem {
    /// Index into [`ParamSet::bindings`](super::ParamSet::bindings).
    pub binding: u32,
    /// Its parameters (for the mute check).
    pub params: AxisParams,
    /// A grid over one parameter's own axes: its corners are the parameter's.
    pub grid: Option<super::corners::ParamGrid>,
    /// Bit `k` set: keyform `k` (of the first 64) is all zeros, so its corner adds
    /// nothing and is skipped (a rig's neutral keyform usually is).
    pub zero_keys: u64,
}

/// The keyforms (of the first 64) of `b` whose values are all zero, as a bit set.
fn zero_keyforms(b: &super::Binding) -> u64 {
    let stride = b.stride as usize;
    if stride == 0 {
        return 0;
    }
    let mut bits = 0;
    for (k, key) in b.values.chunks_exact(stride).take(64).enumerate() {
        if key.iter().all(|&v| v == 0.0) {
            bits |= 1 << k;
        }
    }
    bits
}

/// Flat index lists for the parameter stage.
///
/// Owner: the builder writes it (`rig::params`); the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParamPlan {
    /// Per entry of `deform_slots`: its deform bindings.
    pub deform: Vec<DeformSlotPlan>,
    /// Entries of `deform` a deformer writes to (rewritten every frame).
    pub volatile_deforms: Vec<u32>,
    /// Deform bindings grouped by deformed slot, in file order within a slot.
    pub deform_bindings: Vec<DeformItem>,
    /// Scalar (non-deform) bindings and their targets.
    pub scalars: super::scalar_plan::ScalarPlan,
    /// Whether the bone subsets below may replace full world-transform passes.
    pub bone_subsets: bool,
    /// Bones the pass before physics visits (driver anchors and their ancestors),
    /// parent-first.
    pub pre_physics_bones: Vec<BoneId>,
    /// Bones the pass after physics visits, parent-first.
    pub post_physics_bones: Vec<BoneId>,
    /// Per bone: its parent's index, or [`u16::MAX`] for a root.
    pub parents: Vec<u16>,
    /// Per parameter: which of its corner forms bindings use (bit 0: x only, bit 1: x and
    /// y; see [`super::corners::ParamGrid`]).
    pub corner_forms: Vec<u8>,
    /// Parameters by phase: `[0]` set by the caller, `[1]` written by physics drivers.
    pub phase_params: [Vec<u16>; 2],
    /// Per parameter: range into `param_deform_entries`.
    pub param_deforms: Vec<(u32, u32)>,
    /// Entries of [`ParamPlan::deform`] each parameter feeds, grouped by parameter.
    pub param_deform_entries: Vec<u32>,
    /// Per parameter and component: its own keys (axis points, normalised).
    pub param_keys: Vec<[Vec<f64>; 2]>,
    /// Per binding: every axis uses its parameter's own keys, so the stage's
    /// per-parameter cells ([`super::corners::Cell`]) serve it.
    pub binding_cells: Vec<bool>,
}

impl ParamPlan {
    /// Builds the plan of `set` on `rig`; `param_keys` are each parameter's axis points.
    pub fn new(rig: &Rig, set: &ParamSet, param_keys: Vec<[Vec<f64>; 2]>) -> Self {
        let binding_cells = set
            .bindings
            .iter()
            .map(|b| {
                b.axes.iter().all(|a| {
                    param_keys
                        .get(a.param.index())
                        .is_some_and(|k| k[usize::from(a.component.min(1))] == a.keys)
                })
            })
            .collect();
        let mut plan = ParamPlan {
            binding_cells,
            param_keys,
            ..ParamPlan::default()
        };
        plan.scalars = super::scalar_plan::ScalarPlan::new(rig, set, &plan.param_keys);
        for (k, &slot) in set.deform_slots.iter().enumerate() {
            let start = plan.deform_bindings.len() as u32;
            for (i, b) in set.bindings.iter().enumerate() {
                if b.target == Target::SlotDeform(slot) {
                    plan.deform_bindings.push(DeformItem {
                        binding: i as u32,
                        params: AxisParams::of(b),
                        grid: super::corners::ParamGrid::new(b, &plan.param_keys),
                        zero_keys: zero_keyforms(b),
                    });
                }
            }
            let end = plan.deform_bindings.len() as u32;
            let volatile = set
                .deformers
                .deformers
                .iter()
                .any(|d| d.slots.contains(&slot));
            if volatile {
                plan.volatile_deforms.push(k as u32);
            }
            plan.deform.push(DeformSlotPlan {
                slot: k as u32,
                slot_index: slot.index() as u32,
                start,
                end,
                volatile,
            });
        }
        for (p, d) in set.params.iter().enumerate() {
            plan.phase_params[usize::from(d.driven)].push(p as u16);
        }
        plan.corner_forms = vec![0; set.params.len()];
        let grids = plan.deform_bindings.iter().map(|d| d.grid);
        for g in grids
            .chain(plan.scalars.items.iter().map(|s| s.grid))
            .flatten()
        {
            if let Some(f) = plan.corner_forms.get_mut(usize::from(g.param)) {
                *f |= 1 << u8::from(g.two);
            }
        }
        for p in 0..set.params.len() {
            let start = plan.param_deform_entries.len() as u32;
            for (k, entry) in plan.deform.iter().enumerate() {
                let range = entry.start as usize..entry.end as usize;
                let feeds = plan.deform_bindings[range].iter().any(|item| {
                    set.bindings[item.binding as usize]
                        .axes
                        .iter()
                        .any(|a| a.param.index() == p)
                });
                if feeds {
                    plan.param_deform_entries.push(k as u32);
                }
            }
            let end = plan.param_deform_entries.len() as u32;
            plan.param_deforms.push((start, end));
        }
        plan.plan_bones(rig, set);
        plan.plan_early_targets(rig);
        plan
    }

    /// Which targets with driven items must also be folded before physics (see
    /// [`super::scalar_plan::ScalarPlan::early_targets`]).
    fn plan_early_targets(&mut self, rig: &Rig) {
        let mut pre = vec![!self.bone_subsets; rig.bones.len()];
        for b in &self.pre_physics_bones {
            if let Some(p) = pre.get_mut(b.index()) {
                *p = true;
            }
        }
        let scalars = &mut self.scalars;
        scalars.early_targets = scalars
            .phase_targets
            .iter()
            .copied()
            .filter(|&t| {
                let tp = &scalars.targets[t as usize];
                let read_between = match tp.target {
                    Target::BoneX(b)
                    | Target::BoneY(b)
                    | Target::BoneRotation(b)
                    | Target::BoneScaleX(b)
                    | Target::BoneScaleY(b) => pre.get(b.index()).copied().unwrap_or(true),
                    Target::DriverLength(_) | Target::DriverGravity(_) => true,
                    _ => false,
                };
                tp.start != tp.driven || read_between
            })
            .collect();
        // A target fed by one driven item and not read between the phases is written
        // when that item is evaluated, like any single-item target: it leaves the list
        // folded after physics every frame.
        let (items, targets, early) =
            (&mut scalars.items, &scalars.targets, &scalars.early_targets);
        scalars.phase_targets.retain(|&t| {
            let tp = &targets[t as usize];
            let only = (tp.start == tp.driven && tp.end == tp.driven + 1 && !early.contains(&t))
                .then(|| scalars.target_items[tp.driven as usize]);
            if let Some(s) = only {
                items[s as usize].solo = true;
            }
            only.is_none()
        });
    }

    fn plan_bones(&mut self, rig: &Rig, set: &ParamSet) {
        self.parents = rig
            .bones
            .iter()
            .map(|b| b.parent.map_or(u16::MAX, |p| p.0))
            .collect();
        let parent_first = rig
            .bones
            .iter()
            .enumerate()
            .all(|(i, b)| b.parent.is_none_or(|p| p.index() < i));
        self.bone_subsets = parent_first
            && rig.ik.is_empty()
            && rig.transforms.is_empty()
            && rig.paths.is_empty()
            && rig.physics.is_empty()
            && rig.bones.iter().all(|b| !b.skin_required);
        if !self.bone_subsets {
            return;
        }
        let n = rig.bones.len();
        // Anchors and their ancestors.
        let mut pre = vec![false; n];
        for d in &set.drivers {
            let mut b = Some(d.bone);
            while let Some(id) = b {
                if pre.get(id.index()).copied().unwrap_or(true) {
                    break;
                }
                pre[id.index()] = true;
                b = rig.bones[id.index()].parent;
            }
        }
        // Bones a driven binding moves, and their descendants (parent-first order lets one
        // forward sweep propagate).
        let mut moved = vec![false; n];
        for b in set.bindings.iter().filter(|b| b.driven) {
            if let Target::BoneX(id)
            | Target::BoneY(id)
            | Target::BoneRotation(id)
            | Target::BoneScaleX(id)
            | Target::BoneScaleY(id) = b.target
                && let Some(m) = moved.get_mut(id.index())
            {
                *m = true;
            }
        }
        for i in 0..n {
            if let Some(p) = rig.bones[i].parent
                && moved[p.index()]
            {
                moved[i] = true;
            }
        }
        for i in 0..n {
            let id = BoneId(i as u16);
            if pre[i] {
                self.pre_physics_bones.push(id);
            }
            if !pre[i] || moved[i] {
                self.post_physics_bones.push(id);
            }
        }
    }
}
