//! The viewer's model, without a window: a loaded file ([`Loaded`]: its character, clips,
//! skins and parameter rows), the playback settings the panel edits ([`Playback`]), which
//! animation plays (`--anim none`: nothing), how a clip starts (a DragonBones clip as
//! `Character::play` starts it: its own `playTimes`), the parameters the user holds (a held
//! parameter's lanes are taken out of the parameter animations until it is released, so the
//! animation plays every other parameter) and why a view draws nothing. `app` adds the GPU
//! and the panel; the tests below drive this module on real files without a display.

use anyhow::{Result, anyhow};
use sinew::Character;
use sinew::draw::{DrawList, DrawSetup};
use sinew::params::inochi_clip::ParamAnimation;
use sinew_formats::Asset;
use sinew_render::View;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A parameter's controls: name, 2D, min, max, value.
pub(crate) type ParamRow = (String, bool, [f64; 2], [f64; 2], [f64; 2]);

/// `--anim none`: play no animation (the setup pose and the parameters as set).
pub const NO_ANIMATION: &str = "none";

/// What plays and how (the panel's playback controls).
#[derive(Debug, Clone)]
pub(crate) struct Playback {
    /// Track 0's clip (a skeletal clip or a puppet's parameter animation); `None`: nothing.
    pub(crate) anim: Option<String>,
    /// Track 1's clip.
    pub(crate) anim2: Option<String>,
    /// Default crossfade, seconds.
    pub(crate) mix: f64,
    /// Loop (a DragonBones clip: its own `playTimes`; off: once).
    pub(crate) looping: bool,
    /// Play DragonBones clips backwards (a negative track time scale, as the runtime's
    /// `timeScale = -1`); Spine clips and parameter animations ignore it.
    pub(crate) backwards: bool,
    /// Playback time, seconds.
    pub(crate) time: f64,
}

impl Default for Playback {
    fn default() -> Self {
        Playback {
            anim: None,
            anim2: None,
            mix: 0.2,
            looping: true,
            backwards: false,
            time: 0.0,
        }
    }
}

/// What the command line asks of the file it names, beyond its loader options.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Opening<'a> {
    /// `--anim` (`None`: the first clip; [`NO_ANIMATION`]: none).
    pub(crate) anim: Option<&'a str>,
    /// `--param NAME=X[,Y]`: held from the start.
    pub(crate) params: &'a [(String, [f64; 2])],
    /// `--skin A,B`: the skins shown, combined (empty: the rig's default).
    pub(crate) skins: &'a [String],
}

/// The animation `requested` picks among `clips`: the first for `None`, nothing for
/// [`NO_ANIMATION`], else the named one (an error listing the clips when there is none).
pub(crate) fn choose_anim(requested: Option<&str>, clips: &[String]) -> Result<Option<String>> {
    match requested {
        None => Ok(clips.first().cloned()),
        Some(NO_ANIMATION) => Ok(None),
        Some(a) if clips.iter().any(|c| c == a) => Ok(Some(a.to_owned())),
        Some(a) => Err(anyhow!(
            "animation not found: {a} (have: {}; `{NO_ANIMATION}` plays nothing)",
            if clips.is_empty() {
                "none".to_owned()
            } else {
                clips.join(", ")
            }
        )),
    }
}

/// The loaded file.
pub(crate) struct Loaded {
    pub(crate) path: PathBuf,
    /// What the file loaded into (kept for the jiggle and follow switches, the puppets'
    /// physics reset, which starts a fresh character, and the parameter animations).
    pub(crate) asset: Asset,
    pub(crate) character: Character,
    pub(crate) setup: Arc<DrawSetup>,
    /// Skeletal animations, then a puppet's parameter animations.
    pub(crate) clips: Vec<String>,
    /// Each clip's duration in seconds (parallel to `clips`).
    pub(crate) durations: Vec<f64>,
    /// The puppet's parameter animations (played with `play_param_animation`).
    pub(crate) param_anims: Vec<String>,
    pub(crate) skins: Vec<(String, bool)>,
    pub(crate) params: Vec<ParamRow>,
    /// Parameters the user set (flag or control): their animation lanes are out until
    /// released.
    pub(crate) held: Vec<String>,
    /// The fitted view and the canvas size (pixels) it was fitted to.
    pub(crate) view: Option<(View, [u32; 2])>,
    pub(crate) list: DrawList,
    /// Why the last frame drew nothing (`None`: it drew something).
    pub(crate) empty: Option<String>,
    /// Slots whose mesh carries the viewer's boundary cage.
    pub(crate) caged: Vec<String>,
    /// The boundary cages and their handles (as `caged`, in order).
    pub(crate) cage_edits: Vec<crate::cage_bind::CageEdit>,
    /// The rig extras being tuned (`None`: the file has none).
    pub(crate) tuning: Option<crate::tune::Tuning>,
    /// Slots showing a mesh (the "Cages" list).
    pub(crate) mesh_slots: Vec<String>,
    /// Where the rig extras / physics3 came from, for the panel.
    pub(crate) extras_note: Option<String>,
}

impl Loaded {
    /// `asset` (loaded from `path`) as the viewer shows it: `character` (a character of
    /// `asset`, its switches set), the skins and held parameters of `opening`, and
    /// `play.anim` set to the animation `opening` picks; then started at `play.time`.
    pub(crate) fn new(
        path: &Path,
        asset: Asset,
        character: Character,
        opening: Opening<'_>,
        play: &mut Playback,
    ) -> Result<Loaded> {
        let mut character = character;
        let rig = character.rig().clone();
        let param_anims: Vec<String> = asset
            .param_animations
            .iter()
            .map(|a| a.name.clone())
            .collect();
        let clips: Vec<String> = rig
            .clips
            .iter()
            .map(|c| c.name.clone())
            .chain(param_anims.iter().cloned())
            .collect();
        let durations: Vec<f64> = rig
            .clips
            .iter()
            .map(|c| f64::from(c.duration))
            .chain(
                asset
                    .param_animations
                    .iter()
                    .map(|a| a.timestep * f64::from(a.length)),
            )
            .collect();
        if !opening.skins.is_empty() {
            let names: Vec<&str> = opening.skins.iter().map(String::as_str).collect();
            character
                .set_skins(&names)
                .map_err(|e| anyhow!("--skin: {e}"))?;
            // Slots take their setup attachments from the new skins (as `sinew render`).
            character.set_slots_to_setup_pose();
        }
        let shown = character.skins().to_vec();
        let skins: Vec<(String, bool)> = rig
            .skins
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let on = if shown.is_empty() {
                    rig.default_skin.map(|d| d.index()) == Some(i)
                } else {
                    shown.iter().any(|k| k.index() == i)
                };
                (s.name.clone(), on)
            })
            .collect();
        let mut params = character
            .params()
            .iter()
            .map(|p| (p.name.clone(), p.is_2d, p.min, p.max, p.default))
            .collect::<Vec<_>>();
        let mut held = Vec::new();
        for (name, v) in opening.params {
            character
                .set_param(name.as_str(), *v)
                .map_err(|e| anyhow!("--param {name}: {e}"))?;
            if let Some(p) = params.iter_mut().find(|p| &p.0 == name) {
                p.4 = *v;
            }
            if !held.contains(name) {
                held.push(name.clone());
            }
        }
        play.anim = choose_anim(opening.anim, &clips)?;
        let setup = Arc::new(character.draw_setup().clone());
        let mesh_slots = crate::cage_bind::mesh_slots(&character);
        let mut l = Loaded {
            path: path.to_path_buf(),
            asset,
            character,
            setup,
            clips,
            durations,
            param_anims,
            skins,
            params,
            held,
            view: None,
            list: DrawList::default(),
            empty: None,
            caged: Vec::new(),
            cage_edits: Vec::new(),
            tuning: None,
            mesh_slots,
            extras_note: None,
        };
        l.install_param_animations();
        l.restart(play);
        Ok(l)
    }

    /// The duration of clip `name` (0 when unknown): one play.
    pub(crate) fn duration(&self, name: Option<&str>) -> f64 {
        name.and_then(|n| self.clips.iter().position(|c| c == n))
            .and_then(|i| self.durations.get(i).copied())
            .unwrap_or(0.0)
    }

    /// How many times clip `name` plays when started with `looping` (0: forever): a
    /// DragonBones clip its own `playTimes` (once when not looping), anything else forever
    /// or once.
    pub(crate) fn plays(&self, name: &str, looping: bool) -> u32 {
        if !looping {
            return 1;
        }
        self.character
            .rig()
            .clips
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.playback.as_ref())
            .map_or(0, |p| p.play_times)
    }

    /// Brings `play.time` into the current clip (its place in the loop, or its end when
    /// the clip stops), so a restart after long playback steps through one loop at most.
    pub(crate) fn wrap_time(&self, play: &mut Playback) {
        let Some(a) = play.anim.as_deref() else {
            return;
        };
        let d = self.duration(Some(a));
        if d > 0.0 {
            play.time = match self.plays(a, play.looping) {
                0 => play.time % d,
                n => play.time.min(d * f64::from(n)),
            };
        }
    }

    /// Starts clip `name` on `track` as a host would: a parameter animation with
    /// `play_param_animation`, a DragonBones clip with `Character::play` (its own
    /// `playTimes` and fade-in; once when not looping), a Spine clip with `set_animation`.
    pub(crate) fn start(&mut self, track: usize, name: &str, looping: bool, backwards: bool) {
        let c = &mut self.character;
        if self.param_anims.iter().any(|a| a == name) {
            let _ = c.play_param_animation(name, looping);
            return;
        }
        let dragonbones = c
            .rig()
            .clips
            .iter()
            .any(|k| k.name == name && k.playback.is_some());
        let _ = match (dragonbones, looping) {
            (true, true) => c.play(track, name),
            (true, false) => c.fade_in(track, name, None, Some(1)),
            (false, _) => c.set_animation(track, name, looping),
        };
        if dragonbones && backwards {
            let _ = c.set_track_time_scale(track, -1.0);
        }
    }

    /// Whether clip `name` is a DragonBones clip (it can play backwards).
    pub(crate) fn is_dragonbones_clip(&self, name: &str) -> bool {
        self.character
            .rig()
            .clips
            .iter()
            .any(|k| k.name == name && k.playback.is_some())
    }

    /// Starts the tracks again and advances to `play.time` (1/60 s steps, then the rest).
    pub(crate) fn restart(&mut self, play: &Playback) {
        self.character.set_default_mix(play.mix);
        if let Some(a) = &play.anim {
            self.start(0, a, play.looping, play.backwards);
        }
        if let Some(a) = &play.anim2 {
            self.start(1, a, play.looping, play.backwards);
        }
        let c = &mut self.character;
        c.update(0.0);
        let mut t = 0.0;
        while t + 1.0 / 60.0 <= play.time {
            c.update(1.0 / 60.0);
            t += 1.0 / 60.0;
        }
        if play.time > t {
            c.update(play.time - t);
        }
    }

    /// The asset's parameter animations without the held parameters' lanes, given to the
    /// character (stopped: [`Loaded::restart`] plays the current one again).
    pub(crate) fn install_param_animations(&mut self) {
        if self.asset.param_animations.is_empty() {
            return;
        }
        let held: Vec<usize> = self
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| self.held.contains(&p.0))
            .map(|(i, _)| i)
            .collect();
        let anims: Arc<[ParamAnimation]> = self
            .asset
            .param_animations
            .iter()
            .map(|a| {
                let mut a = a.clone();
                a.lanes.retain(|lane| !held.contains(&lane.param.index()));
                a
            })
            .collect();
        self.character.set_param_animations(anims);
    }

    /// The user sets parameter `name` to `value` (a slider, a pad): from now on it stays
    /// there, whatever the animation's lane for it says, until [`Loaded::release_param`].
    pub(crate) fn hold_param(&mut self, name: &str, value: [f64; 2], play: &Playback) {
        let newly = !self.held.iter().any(|h| h == name);
        if newly {
            self.held.push(name.to_owned());
            self.install_param_animations();
        }
        let _ = self.character.set_param(name, value);
        if let Some(p) = self.params.iter_mut().find(|p| p.0 == name) {
            p.4 = value;
        }
        if newly {
            self.restart(play);
        }
    }

    /// Gives parameter `name` back to the animation (its lane plays it again).
    pub(crate) fn release_param(&mut self, name: &str, play: &Playback) {
        if !self.held.iter().any(|h| h == name) {
            return;
        }
        self.held.retain(|h| h != name);
        self.install_param_animations();
        self.restart(play);
    }

    /// Why the character draws nothing now, naming the skins to pick when the rig has
    /// skins (mix-and-match's default skin gives no slot an attachment); `None` when its
    /// draw list has something to draw.
    pub(crate) fn empty_reason(&mut self) -> Option<String> {
        if draws_something(self.character.draw_list()) {
            return None;
        }
        let rig = self.character.rig().clone();
        if rig.slots.is_empty() {
            return Some("nothing to draw: the rig has no slots".to_owned());
        }
        let shown: Vec<&str> = self
            .skins
            .iter()
            .filter(|s| s.1)
            .map(|s| s.0.as_str())
            .collect();
        let others: Vec<&str> = self
            .skins
            .iter()
            .filter(|s| !s.1)
            .map(|s| s.0.as_str())
            .collect();
        if others.is_empty() {
            return Some(
                "nothing to draw: no slot shows an attachment at this time (or all are \
                 transparent)"
                    .to_owned(),
            );
        }
        let shown = if shown.is_empty() {
            "no skin".to_owned()
        } else {
            format!("the skin {}", quoted(&shown))
        };
        Some(format!(
            "nothing to draw: {shown} gives no slot a visible attachment; skins: {} \
             (pick one in the panel's Skins, or --skin NAME)",
            others.join(", ")
        ))
    }
}

/// Whether `list` draws a visible triangle (a command with indices and some alpha).
pub(crate) fn draws_something(list: &DrawList) -> bool {
    list.commands
        .iter()
        .any(|c| c.index_count > 0 && c.color.a > 0.0)
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(" + ")
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
