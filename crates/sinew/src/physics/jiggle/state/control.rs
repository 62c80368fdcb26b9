//! Per-chain control of the jiggle stage: each chain on or off, solved every step or every
//! N-th (level of detail), culled with the character outside the host's view rectangle,
//! and the animator's cues (`cues.rs`) applied to strength, stiffness and damping.
//!
//! Cheap at a distance: a chain off, at strength 0 or culled is not solved (nor, when no
//! chain is solved, written: the world stage's animated pose stands); a chain solved every
//! N-th step takes one solve of an N-step-long step there and shows its last two solves
//! interpolated in between, with no solve at those frames. Verified by `tests_lod.rs`
//! (costs counted in solves, frame-rate independence, the interpolation's closed form) and
//! the `jiggle` benchmark's `lod-*` cases.

use super::super::attach::JiggleRig;
use super::super::chain::ChainRun;
use super::super::cues::{CueProperty, CueWindow, sample};
use super::super::params::JiggleModel;
use super::{JiggleState, Lod, coarse_multiple};
use crate::instance::Instance;
use crate::sim::vec::SimVec as _;

impl JiggleState {
    /// How often chain `chain` is solved: every this many fixed steps (1: every step).
    pub fn chain_every(&self, chain: usize) -> Option<u32> {
        self.every.get(chain).copied()
    }

    /// Solves chain `chain` every `every` fixed steps (1..16; 1: every step, the default),
    /// with steps that long; frames in between show its last two solves interpolated.
    /// Returns false (nothing changes) for an unknown chain or `every` outside 1..16.
    pub fn set_chain_every(&mut self, chain: usize, every: u32) -> bool {
        match self.every.get_mut(chain) {
            Some(e) if (1..=16).contains(&every) => {
                *e = every;
                true
            }
            _ => false,
        }
    }

    /// Whether chain `chain` is on.
    pub fn chain_enabled(&self, chain: usize) -> Option<bool> {
        self.enabled.get(chain).copied()
    }

    /// Switches chain `chain` off (not solved; the animated pose) or back on (it restarts
    /// from rest on the pose). Returns false for an unknown chain.
    pub fn set_chain_enabled(&mut self, chain: usize, on: bool) -> bool {
        match self.enabled.get_mut(chain) {
            Some(e) => {
                *e = on;
                true
            }
            None => false,
        }
    }

    /// The speed of chain `chain`'s driver (its root's animated origin) over the last frame
    /// with time, world units per second (what its [`SpeedCurve`](super::super::SpeedCurve)
    /// reads).
    pub fn chain_speed(&self, chain: usize) -> f64 {
        self.speed.get(chain).copied().unwrap_or(0.0)
    }

    /// The strength chain `chain`'s solver used last frame: the one set or faded, times
    /// the animation cues' factor.
    pub fn effective_strength(&self, chain: usize) -> f64 {
        self.effective.get(chain).copied().unwrap_or(0.0)
    }

    /// Culls the whole character while its bounds (every bone's origin, grown by the rig's
    /// `cull_margin`) miss `view` (`[min x, min y, max x, max y]`, world units, y up):
    /// nothing is solved or written (the animated pose) and the chains restart from rest
    /// when it comes back. `None`: never culled. Returns false (nothing changes) for a
    /// rectangle that is not finite or has min > max.
    pub fn set_view(&mut self, view: Option<[f64; 4]>) -> bool {
        if let Some(v) = view
            && !(v.iter().all(|x| x.is_finite()) && v[0] <= v[2] && v[1] <= v[3])
        {
            return false;
        }
        self.view = view;
        if view.is_none() {
            self.culled = false;
        }
        true
    }

    /// The view rectangle, if set.
    pub fn view(&self) -> Option<[f64; 4]> {
        self.view
    }

    /// Whether the last update culled the character.
    pub fn culled(&self) -> bool {
        self.culled
    }

    /// Whether the character is culled this frame (then re-anchored when it comes back).
    pub(super) fn cull(&mut self, jr: &JiggleRig, inst: &Instance) -> bool {
        let Some([x0, y0, x1, y1]) = self.view else {
            return false;
        };
        let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        );
        for w in &inst.world {
            lo_x = lo_x.min(w.x);
            lo_y = lo_y.min(w.y);
            hi_x = hi_x.max(w.x);
            hi_y = hi_y.max(w.y);
        }
        let m = jr.cull_margin;
        // NaN bounds (no bones) never overlap: culled.
        let overlaps = lo_x - m <= x1 && hi_x + m >= x0 && lo_y - m <= y1 && hi_y + m >= y0;
        self.culled = !overlaps;
        if self.culled {
            self.needs_reset = true;
        }
        self.culled
    }

    /// A chain's coarse multiple now: its own, or the rig's when the character is coarse.
    fn multiple(&self, jr: &JiggleRig, chain: usize) -> u32 {
        let own = self.every[chain];
        if self.lod == Lod::Coarse {
            own.max(coarse_multiple(jr))
        } else {
            own
        }
    }

    /// Per chain: the effective strength, on or off this frame (a chain coming back starts
    /// from rest on the frame's starting pose), step coefficients for its scales and coarse
    /// multiple. Returns whether every chain is on and solved every step at full detail,
    /// the stage's plain path.
    pub(super) fn prepare_chains(&mut self, jr: &JiggleRig, real_dt: f64) -> bool {
        let h = 1.0 / jr.clock.step_hz;
        let mut plain = self.lod != Lod::Coarse;
        if real_dt > 0.0 {
            // The driver's speed: the chain root's animated origin over the frame.
            for (ci, &k) in self.chain_root.iter().enumerate() {
                if let (Some(a), Some(b)) = (self.anim_prev.get(k), self.anim_cur.get(k)) {
                    self.speed[ci] = (b.origin - a.origin).length() / real_dt;
                }
            }
        }
        for ci in 0..self.strength.len() {
            let eff = self.strength[ci] * self.cue[ci][0];
            self.effective[ci] = eff;
            let on = self.enabled[ci] && eff > 0.0;
            if on && self.dormant[ci] {
                self.sim.reset_chain(ci, &self.anim_prev);
                self.last_solve[ci] = self.clock.steps();
            }
            self.dormant[ci] = !on;
            self.active[ci] = on;
            let m = self.multiple(jr, ci);
            plain &= on && m == 1;
            let (mut ks, mut kd) = (self.cue[ci][1], self.cue[ci][2]);
            let curve = jr.chains[ci].params.speed;
            if !curve.is_off() {
                let (fs, fd) = curve.factors(self.speed[ci]);
                (ks, kd) = (ks * fs, kd * fd);
            }
            let (ts, td, tm) = self.tuned[ci];
            let m_tuned = if m > 1 { m } else { tm };
            if (ks, kd, m_tuned) != (ts, td, tm) {
                let mut p = jr.chains[ci].params;
                p.stiffness *= ks;
                p.damping *= kd;
                if p.model == JiggleModel::Verlet {
                    p.drag = (p.drag * kd).min(1.0);
                }
                self.sim.retune_chain(ci, p, h, m_tuned);
                self.tuned[ci] = (ks, kd, m_tuned);
            }
        }
        plain
    }

    /// The plan of fixed step `g`: chains off, solved (coarse ones on their multiple's
    /// steps) or shown from their last solves. Returns whether any chain is solved.
    pub(super) fn plan_step(&mut self, jr: &JiggleRig, g: u64) -> bool {
        let mut any = false;
        for ci in 0..self.plan.len() {
            let m = self.multiple(jr, ci);
            self.plan[ci] = if !self.active[ci] {
                ChainRun::Off
            } else if m == 1 {
                any = true;
                ChainRun::Solve { coarse: false }
            } else if g.is_multiple_of(u64::from(m)) {
                any = true;
                self.last_solve[ci] = g;
                ChainRun::Solve { coarse: true }
            } else {
                ChainRun::Show(1.0)
            };
        }
        any
    }

    /// The plan of the frame's display, `since` (a fraction of a step) past the last step:
    /// chains solved every step are shown at the frame's time, coarse ones interpolated
    /// between their last two solves by how far the frame is past the last one, off ones
    /// animated. Returns whether any chain is shown at the frame's time by a solve.
    pub(super) fn plan_display(&mut self, jr: &JiggleRig, since: f64) -> bool {
        let frozen = self.lod == Lod::Frozen;
        let now = self.clock.steps();
        let mut any = false;
        for ci in 0..self.plan.len() {
            let m = self.multiple(jr, ci);
            self.plan[ci] = if !self.active[ci] {
                ChainRun::Off
            } else if frozen {
                ChainRun::Show(1.0)
            } else if m == 1 {
                any = true;
                ChainRun::Solve { coarse: false }
            } else {
                let past = now.saturating_sub(self.last_solve[ci]) as f64 + since;
                ChainRun::Show((past / f64::from(m)).clamp(0.0, 1.0))
            };
        }
        any
    }

    /// Forgets the animation cues (every factor 1); the facade calls it each frame before
    /// [`apply_cues`](Self::apply_cues).
    pub fn clear_cues(&mut self) {
        self.cue.fill([1.0; 3]);
    }

    /// Applies the cues of one playing animation for this frame: its tracks scale the
    /// chains' strength, stiffness and damping by `lerp(1, value, weight)`, and the fade
    /// events its window passed start (as if at their own time). Nothing for an animation
    /// without cues.
    pub fn apply_cues(&mut self, jr: &JiggleRig, w: &CueWindow) {
        let Some(cues) = jr.cues.of(w.clip) else {
            return;
        };
        let weight = if w.weight.is_finite() {
            w.weight.clamp(0.0, 1.0)
        } else {
            0.0
        };
        if weight > 0.0 {
            for t in &cues.tracks {
                let f = 1.0 + (sample(&t.keys, w.time) - 1.0) * weight;
                let k = match t.property {
                    CueProperty::Strength => 0,
                    CueProperty::Stiffness => 1,
                    CueProperty::Damping => 2,
                };
                let chains = match t.chain {
                    Some(c) => c as usize..c as usize + 1,
                    None => 0..self.cue.len(),
                };
                for c in self.cue.get_mut(chains).into_iter().flatten() {
                    c[k] *= f;
                }
            }
        }
        if !w.events {
            return;
        }
        for e in &cues.events {
            let Some(ago) = w.passed(e.time) else {
                continue;
            };
            let late = if w.speed > 0.0 && w.speed.is_finite() {
                ago / w.speed
            } else {
                0.0
            };
            let chains = match e.chain {
                Some(c) => c as usize..c as usize + 1,
                None => 0..self.strength.len(),
            };
            for c in chains {
                if e.fade > 0.0 {
                    self.fade_strength(c, e.strength, e.fade);
                    if let Some(s) = self.fade_since.get_mut(c) {
                        *s = late;
                    }
                } else {
                    self.set_strength(c, e.strength);
                }
            }
        }
    }
}
