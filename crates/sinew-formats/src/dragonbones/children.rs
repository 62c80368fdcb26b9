//! Child armatures: a slot display of `type: "armature"` shows another armature of the same
//! file, posed on its own clock.
//!
//! As the runtime (COMPAT(dragonbones), per `shared/oracle/dragonbones/README.md`): the
//! child starts when its slot starts showing it, playing the animation named by the
//! `gotoAndPlay` action of the slot's `displayFrame` key that showed it, else the display's
//! own `actions`, else the child's first animation, with that animation's `playTimes`. Its
//! time runs from the end of the step in which it started, keeps running after the parent
//! animation ends, and restarts when the slot shows it again. `gotoAndStopByTime` does not
//! advance children (they show time 0). The child is drawn in the slot's space: the slot's
//! bone world matrix times the display's `transform`.
//!
//! Children nest to any depth up to 8 levels (`MAX_NESTING` in mod.rs); a display showing
//! its own armature or one it is inside of shows nothing. Drawn by every client through
//! `sinew::Character::nest` (`Asset::character`), and `sinew dump` reports them from there,
//! nested as the oracle does (`testdata/dragonbones/nested55`: three deep, matched). Not
//! done (listed in docs/CONVERT.md): actions other than `gotoAndPlay`, and the
//! child's events; no fixture has them.

use super::emit::Budget;
use super::{DragonBonesRig, Mat, read_xf};
use crate::json::lenient::*;
use crate::json::*;

/// A slot display that shows an armature.
#[derive(Debug, Clone)]
pub struct ChildDisplay {
    /// The slot.
    pub slot: String,
    /// The display's attachment key in the rig (an empty point).
    pub key: String,
    /// The armature shown (`path`, else the display name).
    pub armature: String,
    /// The display transform in DragonBones' Flash order `[a, b, c, d, tx, ty]`
    /// (`x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`).
    pub transform: [f64; 6],
    /// The animation the display's own `actions` play, if any.
    pub actions: Option<String>,
    /// `(parent animation, key time in seconds, animation)` of the slot's `displayFrame`
    /// keys with a `gotoAndPlay` action.
    pub starts: Vec<(String, f64, String)>,
    /// Index into [`DragonBonesRig::children`]; `None` when the armature is not loaded (not
    /// in the file, or the armature itself).
    pub child: Option<usize>,
}

impl ChildDisplay {
    /// The animation the child plays when the slot starts showing it during `parent` at
    /// `time` seconds: the latest `displayFrame` action at or before it, else the display's
    /// own action.
    pub fn animation_at(&self, parent: Option<&str>, time: f64) -> Option<&str> {
        self.starts
            .iter()
            .filter(|(a, t, _)| Some(a.as_str()) == parent && *t <= time + 1e-9)
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map(|(_, _, n)| n.as_str())
            .or(self.actions.as_deref())
    }
}

/// A loaded child armature.
#[derive(Debug, Clone)]
pub struct ChildArmature {
    /// Its rig and playback settings.
    pub rig: Box<DragonBonesRig>,
}

/// The animation a `gotoAndPlay` action list names (`[{"gotoAndPlay": "a"}]`, a single
/// object, or the 5.0 `{"type": 0, "name": "a"}` form).
fn play_action(v: Option<&serde_json::Value>) -> Option<String> {
    let one = |a: &serde_json::Value| -> Option<String> {
        if let Some(n) = a.get("gotoAndPlay").and_then(serde_json::Value::as_str) {
            return Some(n.to_owned());
        }
        let play = a.get("type").and_then(serde_json::Value::as_f64) == Some(0.0);
        play.then(|| a.get("name").and_then(serde_json::Value::as_str))
            .flatten()
            .map(str::to_owned)
    };
    match v? {
        serde_json::Value::Array(list) => list.iter().find_map(one),
        other => one(other),
    }
}

/// Reads an armature display of `slot` (attachment key `key`).
pub(crate) fn display(d: &Obj, name: &str, slot: &str, key: &str, p: &Loc) -> R<ChildDisplay> {
    let m: Mat = read_xf(d, p)?.matrix();
    Ok(ChildDisplay {
        slot: slot.to_owned(),
        key: key.to_owned(),
        armature: string(d, "path", name, p)?,
        transform: [m.a, m.b, m.c, m.d, m.tx, m.ty],
        actions: play_action(d.get("actions")),
        starts: Vec::new(),
        child: None,
    })
}

/// Fills each display's `starts` from the `displayFrame` key actions of its slot.
/// Each start is charged to `budget` once per display it is copied to.
pub(crate) fn starts(
    a: &Obj,
    ap: &Loc,
    rate: f64,
    displays: &mut [ChildDisplay],
    budget: &mut Budget,
) -> R<()> {
    if displays.is_empty() {
        return Ok(());
    }
    let anp = ap.key("animation");
    for (ai, av) in arr(a, "animation", ap)?.iter().enumerate() {
        let p = anp.index(ai);
        let an = as_obj(av, &p)?;
        let name = string(an, "name", "", &p)?;
        let p = p.named(&name);
        let sp = p.key("slot");
        for (si, sv) in arr(an, "slot", &p)?.iter().enumerate() {
            let p = sp.index(si);
            let s = as_obj(sv, &p)?;
            let slot = string(s, "name", "", &p)?;
            let p = p.named(&slot);
            if !displays.iter().any(|d| d.slot == slot) {
                continue;
            }
            let fp = p.key("displayFrame");
            let frames = arr(s, "displayFrame", &p)?;
            let mut pos = 0u32;
            for (i, f) in frames.iter().enumerate() {
                let kp = fp.index(i);
                let m = as_obj(f, &kp)?;
                let d = count(m, "duration", 1, super::anim::MAX_FRAMES, &kp)?;
                if let Some(anim) = play_action(m.get("actions")) {
                    let n = displays.iter().filter(|x| x.slot == slot).count();
                    budget.take(n * 8, &kp)?;
                    for disp in displays.iter_mut().filter(|x| x.slot == slot) {
                        disp.starts
                            .push((name.clone(), f64::from(pos) / rate, anim.clone()));
                    }
                }
                // COMPAT(dragonbones): a zero-length key in the middle lasts one frame.
                let d = if d == 0 && i + 1 < frames.len() { 1 } else { d };
                pos = pos.saturating_add(d);
            }
        }
    }
    Ok(())
}
