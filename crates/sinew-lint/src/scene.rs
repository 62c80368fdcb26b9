//! What the pose checks play: every Spine animation (clip mode: the setup pose plus the
//! clip at each time, as Spine `Animation.apply` does), every puppet parameter animation,
//! and a sweep of every puppet parameter no physics drives (default, max, min, default over
//! two seconds), each through a fresh [`Character`].

use crate::Options;
use sinew::character::Character;
use sinew::ids::{ClipId, ParamId, SkinId};
use sinew_formats::Asset;

/// One thing to play.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Scenario {
    /// A Spine animation.
    Clip(ClipId),
    /// A puppet parameter animation (index into the asset's list).
    ParamAnim(usize),
    /// A parameter swept over its range on one axis.
    Sweep { param: ParamId, axis: usize },
}

/// Seconds of one parameter sweep.
const SWEEP_SECONDS: f64 = 2.0;

/// The asset, the skins shown and the scenarios.
pub(crate) struct Scene<'a> {
    pub asset: &'a Asset,
    /// Skins shown by the pose checks: the default skin and the first other one.
    pub skins: Vec<SkinId>,
    pub scenarios: Vec<Scenario>,
    /// The rig's size (the larger side of its setup bounds), units.
    pub size: f64,
    /// The time grid keys sit on, when the format has one (DragonBones: whole frames);
    /// suggested key times are on it. `None`: any time (sampled at the check's rate).
    pub key_step: Option<f64>,
}

impl<'a> Scene<'a> {
    pub fn new(asset: &'a Asset, options: &Options) -> Self {
        let rig = &asset.rig;
        let mut skins: Vec<SkinId> = rig.default_skin.into_iter().collect();
        if let Some(i) = (0..rig.skins.len()).find(|&i| Some(SkinId(i as u16)) != rig.default_skin)
        {
            skins.push(SkinId(i as u16));
        }
        let mut scenarios: Vec<Scenario> = (0..rig.clips.len())
            .map(|i| Scenario::Clip(ClipId(i as u32)))
            .collect();
        scenarios.extend((0..asset.param_animations.len()).map(Scenario::ParamAnim));
        let mut sweeps = 0;
        for (i, p) in rig.params.params.iter().enumerate() {
            if p.driven {
                continue;
            }
            for axis in 0..if p.is_2d { 2 } else { 1 } {
                if sweeps < options.max_sweeps && p.max[axis] > p.min[axis] {
                    scenarios.push(Scenario::Sweep {
                        param: ParamId(i as u16),
                        axis,
                    });
                    sweeps += 1;
                }
            }
        }
        let mut scene = Scene {
            asset,
            skins,
            scenarios,
            size: 0.0,
            key_step: None,
        };
        scene.size = scene.measure_size();
        scene
    }

    /// The larger side of the setup pose's bounds (at least 1).
    fn measure_size(&self) -> f64 {
        let mut c = self.character();
        c.update(0.0);
        let b = c.bounds().map_or([0.0; 4], |b| b.map(f64::from));
        let from_rig = self.asset.rig.bounds[2].max(self.asset.rig.bounds[3]);
        let from_pose = (b[2] - b[0]).max(b[3] - b[1]);
        from_pose.max(from_rig).max(1.0)
    }

    /// A character showing the scene's skins, in the setup pose.
    pub fn character(&self) -> Character {
        let mut c = self.asset.character();
        if !self.skins.is_empty() {
            let _ = c.set_skins(&self.skins);
        }
        c
    }

    /// The scenario's name for messages.
    pub fn name(&self, s: Scenario) -> String {
        let rig = &self.asset.rig;
        match s {
            Scenario::Clip(c) => rig.clips[c.index()].name.clone(),
            Scenario::ParamAnim(i) => self.asset.param_animations[i].name.clone(),
            Scenario::Sweep { param, axis } => {
                let p = &rig.params.params[param.index()];
                if p.is_2d {
                    format!("sweep {} {}", p.name, ["x", "y"][axis])
                } else {
                    format!("sweep {}", p.name)
                }
            }
        }
    }

    /// The parameter a sweep moves.
    pub fn parameter(&self, s: Scenario) -> Option<String> {
        match s {
            Scenario::Sweep { param, .. } => {
                Some(self.asset.rig.params.params[param.index()].name.clone())
            }
            _ => None,
        }
    }

    /// The scenario's length, seconds.
    pub fn duration(&self, s: Scenario) -> f64 {
        match s {
            Scenario::Clip(c) => f64::from(self.asset.rig.clips[c.index()].duration),
            Scenario::ParamAnim(i) => {
                let a = &self.asset.param_animations[i];
                a.timestep * f64::from(a.length)
            }
            Scenario::Sweep { .. } => SWEEP_SECONDS,
        }
    }

    /// A character playing `s` from its start (not yet updated).
    pub fn start(&self, s: Scenario, looping: bool) -> Character {
        let mut c = self.character();
        match s {
            Scenario::Clip(clip) => {
                let _ = c.set_clip_mode(clip, looping);
            }
            Scenario::ParamAnim(i) => {
                let name = self.asset.param_animations[i].name.clone();
                let _ = c.play_param_animation(&name, looping);
            }
            Scenario::Sweep { .. } => {}
        }
        c
    }

    /// Sets what a sweep drives at time `t`.
    pub fn drive(&self, c: &mut Character, s: Scenario, t: f64) {
        if let Scenario::Sweep { param, axis } = s {
            let p = &self.asset.rig.params.params[param.index()];
            let (lo, hi, d) = (p.min[axis], p.max[axis], p.default[axis]);
            let u = (t / SWEEP_SECONDS).rem_euclid(1.0) * 4.0;
            let v = if u < 1.0 {
                d + (hi - d) * u
            } else if u < 3.0 {
                hi + (lo - hi) * (u - 1.0) / 2.0
            } else {
                lo + (d - lo) * (u - 3.0)
            };
            let mut value = c.param(param).unwrap_or(p.default);
            value[axis] = v;
            let _ = c.set_param(param, value);
        }
    }

    /// Plays `s` at `fps` for `seconds` (frame 0 at t = 0, then one update per frame),
    /// calling `f(character, frame, time)` after each update.
    pub fn run(
        &self,
        s: Scenario,
        fps: f64,
        seconds: f64,
        looping: bool,
        mut f: impl FnMut(&mut Character, usize, f64),
    ) {
        let mut c = self.start(s, looping);
        let frames = (seconds * fps).round().max(0.0) as usize;
        self.drive(&mut c, s, 0.0);
        c.update(0.0);
        f(&mut c, 0, 0.0);
        for i in 1..=frames {
            let t = i as f64 / fps;
            self.drive(&mut c, s, t);
            c.update(1.0 / fps);
            f(&mut c, i, t);
        }
    }

    /// Seconds a pose check samples of `s`.
    pub fn sample_seconds(&self, s: Scenario, options: &Options) -> f64 {
        self.duration(s).min(options.max_seconds)
    }
}
