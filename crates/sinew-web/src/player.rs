//! One loaded character as a web page plays it: the asset, its [`Character`], what plays
//! (a clip of the rig or a puppet's parameter animation), skins, parameters the user holds,
//! the speed, and the GPU-ready [`Frame`] of what it shows.
//!
//! Clips start as `sinew view` starts them (a DragonBones clip with `Character::play`, a
//! Spine clip with `set_animation`, a parameter animation with `play_param_animation`), and
//! [`Player::seek`] restarts from a fresh character and steps 1/60 s at a time, so a paused
//! page, the native reference renders of the browser test and a restarted player show the
//! same bits for the same time.

use crate::frame::Frame;
use serde_json::json;
use sinew::Character;
use sinew::params::inochi_clip::ParamAnimation;
use sinew_formats::Asset;
use std::sync::Arc;

/// The fixed step of [`Player::seek`] (the viewer's and the CLI's 60 fps).
pub const SEEK_STEP: f64 = 1.0 / 60.0;

/// A loaded character and how it plays.
///
/// Owner: the web host (`sinew-web`): one per `<sinew-player>` or JS `Character`.
pub struct Player {
    /// Shared by the players [`Player::spawn`] made (one rig, one set of pages).
    asset: Arc<Asset>,
    character: Character,
    /// The rig's clips, then the puppet's parameter animations.
    clips: Vec<String>,
    /// Seconds of one play of each clip (parallel to `clips`).
    durations: Vec<f64>,
    /// The clip playing (an index into `clips`), if any.
    anim: Option<usize>,
    looping: bool,
    /// Seconds played since the clip started (speed applied).
    time: f64,
    speed: f64,
    paused: bool,
    skins: Vec<String>,
    /// Parameters the user set, by index into the rig's parameters, with their values.
    held: Vec<(usize, [f64; 2])>,
    frame: Frame,
    events: Vec<String>,
    /// Every part drawn in this mode instead of its own (a preview), when set.
    blend: Option<sinew::BlendMode>,
}

impl Player {
    /// A player of `asset`, showing its setup pose (nothing plays yet).
    pub fn new(asset: Asset) -> Player {
        Player::shared(Arc::new(asset))
    }

    /// Another player of the same asset (the rig and the texture pages shared), showing
    /// its setup pose: many characters of one rig, drawn together by [`Frame::append`].
    pub fn spawn(&self) -> Player {
        Player::shared(self.asset.clone())
    }

    fn shared(asset: Arc<Asset>) -> Player {
        let character = asset.character();
        let rig = character.rig().clone();
        let clips = rig
            .clips
            .iter()
            .map(|c| c.name.clone())
            .chain(asset.param_animations.iter().map(|a| a.name.clone()))
            .collect();
        let durations = rig
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
        let mut p = Player {
            asset,
            character,
            clips,
            durations,
            anim: None,
            looping: true,
            time: 0.0,
            speed: 1.0,
            paused: false,
            skins: Vec::new(),
            held: Vec::new(),
            frame: Frame::default(),
            events: Vec::new(),
            blend: None,
        };
        p.character.update(0.0);
        p
    }

    /// The loaded asset.
    pub fn asset(&self) -> &Asset {
        &self.asset
    }

    /// The character (to drive it further from Rust).
    pub fn character_mut(&mut self) -> &mut Character {
        &mut self.character
    }

    /// What the page lists: format, clips with durations, skins, parameters, texture pages
    /// (premultiplied or not), as JSON.
    pub fn info_json(&self) -> String {
        let rig = self.character.rig();
        let clips: Vec<_> = self
            .clips
            .iter()
            .zip(&self.durations)
            .map(|(n, d)| json!({ "name": n, "duration": d }))
            .collect();
        let skins: Vec<&str> = rig.skins.iter().map(|s| s.name.as_str()).collect();
        let params: Vec<_> = self
            .character
            .params()
            .iter()
            .map(|p| {
                json!({ "name": p.name, "is2d": p.is_2d, "min": p.min, "max": p.max,
                        "default": p.default, "driven": p.driven })
            })
            .collect();
        let pages = match (&self.asset.puppet, &self.asset.atlas) {
            (Some(p), _) => p.textures.iter().map(|_| false).collect(),
            (None, Some(a)) => a.pages.iter().map(|p| p.pma).collect(),
            (None, None) => Vec::new(),
        };
        let bones: Vec<&str> = rig.bones.iter().map(|b| b.name.as_str()).collect();
        let iks: Vec<&str> = rig.ik.iter().map(|k| k.name.as_str()).collect();
        json!({
            "format": format!("{:?}", self.asset.format),
            "clips": clips, "skins": skins, "params": params, "pma": pages,
            "bones": bones, "ik": iks,
        })
        .to_string()
    }

    /// The encoded image of texture page `i` (an atlas page or a puppet's embedded
    /// texture; empty: an untextured part, drawn white).
    pub fn page_bytes(&self, i: usize) -> Option<&[u8]> {
        match &self.asset.puppet {
            Some(p) => p.textures.get(i).map(|t| t.bytes.as_slice()),
            None => self.asset.pages.get(i).map(|p| p.bytes.as_slice()),
        }
    }

    /// Plays clip `name` from its start (`None`: nothing, the setup pose).
    pub fn play(&mut self, name: Option<&str>, looping: bool) -> Result<(), String> {
        let anim = match name {
            None => None,
            Some(n) => Some(self.index_of(n)?),
        };
        self.anim = anim;
        self.looping = looping;
        self.seek(0.0);
        Ok(())
    }

    /// Crossfades from what plays now to clip `name` over `seconds` (a DragonBones clip
    /// fades in over them; a puppet's parameter animation starts at once). The clip time
    /// starts again at 0; [`Player::seek`] shows the new clip alone.
    pub fn crossfade(&mut self, name: &str, seconds: f64, looping: bool) -> Result<(), String> {
        let i = self.index_of(name)?;
        let rig_clips = self.character.rig().clips.len();
        let c = &mut self.character;
        let r = if i >= rig_clips {
            c.play_param_animation(name, looping).map(|_| ())
        } else if c.rig().clips[i].playback.is_some() {
            c.fade_in(0, name, Some(seconds), (!looping).then_some(1))
                .map(|_| ())
        } else {
            c.set_default_mix(seconds);
            c.set_animation(0, name, looping).map(|_| ())
        };
        r.map_err(|e| e.to_string())?;
        (self.anim, self.looping, self.time) = (Some(i), looping, 0.0);
        Ok(())
    }

    /// Queues clip `name` after the one playing (Spine `addAnimation`: `delay` <= 0 starts
    /// it when the current one completes). Rig clips only.
    pub fn queue(&mut self, name: &str, delay: f64, looping: bool) -> Result<(), String> {
        let i = self.index_of(name)?;
        if i >= self.character.rig().clips.len() {
            return Err(format!(
                "`{name}` is a parameter animation: play it, it cannot be queued"
            ));
        }
        self.character
            .add_animation(0, name, looping, delay)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn index_of(&self, name: &str) -> Result<usize, String> {
        self.clips.iter().position(|c| c == name).ok_or_else(|| {
            format!(
                "no animation `{name}`; the animations are: {}",
                self.clips.join(", ")
            )
        })
    }

    /// The clip playing and its time (seconds since it started).
    pub fn playing(&self) -> (Option<&str>, f64) {
        (self.anim.map(|i| self.clips[i].as_str()), self.time)
    }

    /// Plays at `speed` times real time (0 stands still).
    pub fn set_speed(&mut self, speed: f64) {
        if speed.is_finite() {
            self.speed = speed.clamp(0.0, 100.0);
        }
    }

    /// Pauses or resumes [`Player::update`].
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// Advances by `dt` seconds of real time (scaled by the speed; nothing while paused),
    /// collecting the names of the key events fired.
    pub fn update(&mut self, dt: f64) {
        self.events.clear();
        if self.paused || !(dt.is_finite() && dt > 0.0) {
            return;
        }
        let dt = dt * self.speed;
        self.time += dt;
        self.character.update(dt);
        let rig = self.character.rig().clone();
        for e in self.character.key_events() {
            if let Some(d) = rig.events.get(e.event.index()) {
                self.events.push(d.name.clone());
            }
        }
    }

    /// The names of the key events the last update fired, oldest first.
    pub fn events(&self) -> &[String] {
        &self.events
    }

    /// Shows the clip at `time` seconds: a fresh character with the skins and held
    /// parameters, the clip started, stepped in 1/60 s steps and a last shorter one.
    pub fn seek(&mut self, time: f64) {
        let time = if time.is_finite() { time.max(0.0) } else { 0.0 };
        let mut c = self.fresh();
        step_to(&mut c, time);
        self.character = c;
        self.time = time;
        self.events.clear();
    }

    /// A new character of the asset with the skins, the held parameters and the clip
    /// started, not yet updated.
    fn fresh(&self) -> Character {
        let mut c = self.asset.character();
        if !self.skins.is_empty() {
            let names: Vec<&str> = self.skins.iter().map(String::as_str).collect();
            if c.set_skins(&names).is_ok() {
                c.set_slots_to_setup_pose();
            }
        }
        if !self.asset.param_animations.is_empty() {
            // The held parameters' lanes go: the user's value stays.
            let held: Vec<usize> = self.held.iter().map(|h| h.0).collect();
            let anims: Arc<[ParamAnimation]> = self
                .asset
                .param_animations
                .iter()
                .map(|a| {
                    let mut a = a.clone();
                    a.lanes.retain(|l| !held.contains(&l.param.index()));
                    a
                })
                .collect();
            c.set_param_animations(anims);
        }
        for &(p, v) in &self.held {
            if let Some(name) = c.params().get(p).map(|d| d.name.clone()) {
                let _ = c.set_param(name.as_str(), v);
            }
        }
        if let Some(i) = self.anim {
            start(&mut c, &self.clips[i], i, self.looping);
        }
        c
    }

    /// Shows the skins `names` together (empty: the rig's default), keeping the time.
    pub fn set_skins(&mut self, names: &[&str]) -> Result<(), String> {
        // Checked on the live character first, so a bad name changes nothing.
        self.character.set_skins(names).map_err(|e| e.to_string())?;
        self.skins = names.iter().map(|s| (*s).to_owned()).collect();
        self.seek(self.time);
        Ok(())
    }

    /// Holds parameter `name` at `[x, y]` (`y` unused for a 1D parameter) whatever the
    /// parameter animation's lane for it says, until [`Player::release_param`].
    pub fn set_param(&mut self, name: &str, x: f64, y: f64) -> Result<(), String> {
        let i = self
            .character
            .params()
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = self
                    .character
                    .params()
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect();
                if names.is_empty() {
                    format!("no parameter `{name}`: this rig has no parameters")
                } else {
                    format!(
                        "no parameter `{name}`; the parameters are: {}",
                        names.join(", ")
                    )
                }
            })?;
        let is_2d = self.character.params()[i].is_2d;
        let v = [x, if is_2d { y } else { 0.0 }];
        let value: sinew::character::ParamValue = if is_2d { v.into() } else { x.into() };
        self.character
            .set_param(name, value)
            .map_err(|e| e.to_string())?;
        match self.held.iter_mut().find(|h| h.0 == i) {
            Some(h) => h.1 = v,
            None => {
                self.held.push((i, v));
                // Its animation lane goes; replayed to the same time without it.
                self.seek(self.time);
            }
        }
        Ok(())
    }

    /// Gives parameter `name` back to the animation.
    pub fn release_param(&mut self, name: &str) {
        let before = self.held.len();
        let params = self.character.params();
        self.held
            .retain(|h| params.get(h.0).is_none_or(|p| p.name != name));
        if self.held.len() != before {
            self.seek(self.time);
        }
    }

    /// Aims IK constraint `name` at world point `(x, y)`.
    pub fn set_ik_target(&mut self, name: &str, x: f64, y: f64) -> Result<(), String> {
        let ik = self
            .character
            .find_ik(name)
            .ok_or_else(|| format!("no IK constraint `{name}`"))?;
        self.character
            .set_ik_target(ik, x, y)
            .map_err(|e| e.to_string())
    }

    /// Bone `name`'s world transform `[a, b, c, d, x, y]` (y up), for hit tests and
    /// attaching page elements.
    pub fn bone_world(&self, name: &str) -> Option<[f64; 6]> {
        let b = self.character.find_bone(name)?;
        let w = self.character.bone_world(b)?;
        Some([w.a, w.b, w.c, w.d, w.x, w.y])
    }

    /// The slot under world point `(x, y)` by the rig's bounding boxes, if any.
    pub fn hit(&mut self, x: f32, y: f32) -> Option<String> {
        let s = self.character.hit_test(x, y)?;
        self.character
            .rig()
            .slots
            .get(s.index())
            .map(|d| d.name.clone())
    }

    /// The world box `[x0, y0, x1, y1]` of what the clip playing shows over one play (30
    /// samples; the setup pose without one), on a fresh character: a steady view to fit.
    pub fn clip_bounds(&self) -> Option<[f64; 4]> {
        let mut c = self.fresh();
        c.update(0.0);
        let d = self.anim.map_or(0.0, |i| self.durations[i]);
        let mut b = [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ];
        let samples = if d > 0.0 { 30 } else { 1 };
        for k in 0..samples {
            if k > 0 {
                c.update(d / f64::from(samples));
            }
            if let Some(q) = c.bounds() {
                b = [
                    b[0].min(f64::from(q[0])),
                    b[1].min(f64::from(q[1])),
                    b[2].max(f64::from(q[2])),
                    b[3].max(f64::from(q[3])),
                ];
            }
        }
        (b[0] <= b[2] && b[1] <= b[3]).then_some(b)
    }

    /// Draws every part in `mode` instead of its own (`None`: their own modes), to
    /// preview a blend mode.
    pub fn set_blend_override(&mut self, mode: Option<sinew::BlendMode>) {
        self.blend = mode;
    }

    /// Adds what the character shows now to `frame`, placed by `at` (a crowd's shared
    /// frame; see [`Frame::append`]).
    pub fn append_to(&mut self, frame: &mut Frame, at: crate::frame::Placement) {
        let (list, setup) = self.character.draw_list_and_setup();
        frame.append(list, setup, self.blend, at);
    }

    /// The frame [`Player::build_frame`] built last.
    pub fn frame(&self) -> &Frame {
        &self.frame
    }

    /// Builds the GPU-ready frame of what the character shows now.
    pub fn build_frame(&mut self) -> &Frame {
        let (list, setup) = self.character.draw_list_and_setup();
        self.frame.build(list, setup, self.blend);
        &self.frame
    }
}

/// Starts clip `name` (index `i`: the rig's clips, then parameter animations) on track 0
/// as `sinew view` does.
fn start(c: &mut Character, name: &str, i: usize, looping: bool) {
    let rig_clips = c.rig().clips.len();
    if i >= rig_clips {
        let _ = c.play_param_animation(name, looping);
        return;
    }
    let dragonbones = c.rig().clips[i].playback.is_some();
    let _ = match (dragonbones, looping) {
        (true, true) => c.play(0, name),
        (true, false) => c.fade_in(0, name, None, Some(1)),
        (false, _) => c.set_animation(0, name, looping),
    };
}

/// Updates a just-started character to `time`: one 0 s update, 1/60 s steps, then the
/// rest.
pub fn step_to(c: &mut Character, time: f64) {
    c.update(0.0);
    let mut t = 0.0;
    while t + SEEK_STEP <= time {
        c.update(SEEK_STEP);
        t += SEEK_STEP;
    }
    if time > t {
        c.update(time - t);
    }
}
