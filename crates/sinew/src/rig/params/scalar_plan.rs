//! The scalar part of the parameter stage's plan ([`super::scalars`]): every scalar binding
//! as an item (its parameters for the mute check, its grid over one parameter's own axes
//! when it is one, its keyforms copied flat), every target with its items in fold order
//! (those applied before physics first), and per parameter the items it feeds. Built once
//! with the [`ParamSet`]; the frame only walks these lists. Verified by `params/tests.rs`.

use super::corners::ParamGrid;
use super::plan::AxisParams;
use super::{ParamSet, Target};
use crate::rig::Rig;
use std::collections::HashMap;

/// One scalar binding as the stage evaluates it.
///
/// Owner: the builder writes it (`rig::params`); the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScalarItem {
    /// Index into [`ParamSet::bindings`].
    pub binding: u32,
    /// Index into [`ScalarPlan::targets`].
    pub target: u32,
    /// Its parameters (for the mute check).
    pub params: AxisParams,
    /// A grid over one parameter's own axes: evaluated from the parameter's corners and
    /// `values` without touching the binding.
    pub grid: Option<ParamGrid>,
    /// Offset of such an item's keyforms in [`ScalarPlan::values`].
    pub values: u32,
    /// The only item of its target (and, if physics-driven, its target is not read between
    /// the phases): written straight after it is evaluated, without queueing the target.
    pub solo: bool,
}

/// One target and the scalar items that feed it.
///
/// Owner: the builder writes it (`rig::params`); the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetPlan {
    /// The component.
    pub target: Target,
    /// Range into [`ScalarPlan::target_items`]: `start..driven` are applied before
    /// physics, `driven..end` after.
    pub start: u32,
    /// First physics-driven item.
    pub driven: u32,
    /// End of the range.
    pub end: u32,
    /// For a bone component: its setup value (what the offset is added to or multiplies).
    pub setup: f64,
}

/// The scalar part of the stage's plan.
///
/// Owner: the builder writes it (`rig::params`); the parameter stage (step 5 of `Character::update`) reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScalarPlan {
    /// Every scalar binding, in file order.
    pub items: Vec<ScalarItem>,
    /// The keyforms of the items with a `grid`, concatenated.
    pub values: Vec<f32>,
    /// Every target some scalar binding drives.
    pub targets: Vec<TargetPlan>,
    /// Item indices grouped by target: unpowered first, then driven, each in file order.
    pub target_items: Vec<u32>,
    /// Targets with physics-driven items (folded after physics every frame).
    pub phase_targets: Vec<u32>,
    /// Those of `phase_targets` also folded before physics every frame: the ones with
    /// items applied before physics, or whose value something reads between the phases
    /// (driver settings, bones the world pass before physics visits). Set by
    /// [`super::plan::ParamPlan::new`].
    pub early_targets: Vec<u32>,
    /// Per phase (0: items applied before physics, 1: driven) and parameter: range into
    /// `param_item_list[phase]`.
    pub param_items: [Vec<(u32, u32)>; 2],
    /// Items reading each parameter, grouped by parameter, per phase.
    pub param_item_list: [Vec<u32>; 2],
}

impl ScalarPlan {
    /// Plans the scalar bindings of `set`; `param_keys` are each parameter's own axis
    /// points.
    pub fn new(rig: &Rig, set: &ParamSet, param_keys: &[[Vec<f64>; 2]]) -> Self {
        let mut plan = ScalarPlan::default();
        let mut target_of: HashMap<Target, u32> = HashMap::new();
        let mut members: Vec<Vec<u32>> = Vec::new();
        for (i, b) in set.bindings.iter().enumerate() {
            if matches!(b.target, Target::SlotDeform(_)) {
                continue;
            }
            let t = *target_of.entry(b.target).or_insert_with(|| {
                members.push(Vec::new());
                (members.len() - 1) as u32
            });
            let item = plan.items.len() as u32;
            members[t as usize].push(item);
            let grid = ParamGrid::new(b, param_keys);
            let values = plan.values.len() as u32;
            if grid.is_some() {
                plan.values.extend_from_slice(&b.values);
            }
            plan.items.push(ScalarItem {
                binding: i as u32,
                target: t,
                params: AxisParams::of(b),
                grid,
                values,
                solo: false,
            });
        }
        let mut targets: Vec<(Target, u32)> = target_of.into_iter().collect();
        targets.sort_by_key(|&(_, t)| t);
        for (target, t) in targets {
            let start = plan.target_items.len() as u32;
            let driven = |s: &u32| set.bindings[plan.items[*s as usize].binding as usize].driven;
            let list = &members[t as usize];
            let (powered, unpowered): (Vec<u32>, Vec<u32>) = list.iter().partition(|s| driven(s));
            plan.target_items.extend(&unpowered);
            let mid = plan.target_items.len() as u32;
            plan.target_items.extend(&powered);
            if !powered.is_empty() {
                plan.phase_targets.push(t);
            }
            if let ([only], []) = (&unpowered[..], &powered[..]) {
                plan.items[*only as usize].solo = true;
            }
            plan.targets.push(TargetPlan {
                target,
                start,
                driven: mid,
                end: plan.target_items.len() as u32,
                setup: setup_component(rig, target),
            });
        }
        for phase in 0..2 {
            for p in 0..set.params.len() {
                let start = plan.param_item_list[phase].len() as u32;
                for (s, item) in plan.items.iter().enumerate() {
                    let b = &set.bindings[item.binding as usize];
                    if usize::from(b.driven) == phase && b.axes.iter().any(|a| a.param.index() == p)
                    {
                        plan.param_item_list[phase].push(s as u32);
                    }
                }
                let end = plan.param_item_list[phase].len() as u32;
                plan.param_items[phase].push((start, end));
            }
        }
        plan
    }
}

/// A bone target's setup component (0 for other targets).
fn setup_component(rig: &Rig, target: Target) -> f64 {
    let setup = |b: crate::ids::BoneId| rig.bones.get(b.index()).map(|d| d.setup);
    match target {
        Target::BoneX(b) => setup(b).map_or(0.0, |s| s.x),
        Target::BoneY(b) => setup(b).map_or(0.0, |s| s.y),
        Target::BoneRotation(b) => setup(b).map_or(0.0, |s| s.rotation),
        Target::BoneScaleX(b) => setup(b).map_or(1.0, |s| s.scale_x),
        Target::BoneScaleY(b) => setup(b).map_or(1.0, |s| s.scale_y),
        _ => 0.0,
    }
}
