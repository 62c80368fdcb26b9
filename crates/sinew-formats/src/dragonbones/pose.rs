//! Posing a DragonBones armature as the oracle (`shared/oracle/dragonbones/dump.mjs`) does.
//!
//! Play mode: the animation is started with its own `playTimes` (`Character::play`: the
//! animation state plays the clip the DragonBones way, the held twin in the last play and
//! then the end held) and the clock stepped at `1 / fps`, with one shorter step landing on
//! each requested time; key events fired by the steps since the previous sample are listed
//! with each sample. Goto mode: a fresh character per time at `t mod duration`, played
//! once (the runtime's `gotoAndStopByTime`, which never loops). Bones come in
//! the file's `bone[]` order with Spine-style matrix names; slots in draw order with their
//! colour multipliers; image corners top-left, top-right, bottom-right, bottom-left. Slots
//! showing a child armature carry its pose (see `children.rs`).

use super::DragonBonesRig;
use crate::Asset;
use sinew::anim::StateEventKind;
use sinew::character::Character;
use sinew::ids::SlotId;
use sinew::rig::AttachmentKind;
use std::sync::Arc;

/// Most clock steps between two sampled times (bounds the work a huge time asks for).
const MAX_STEPS: u64 = 10_000_000;

/// How the animation time is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoseMode {
    /// Play and step the clock.
    Play,
    /// Jump to each time on a fresh armature.
    Goto,
}

/// One bone's world matrix: `(name, [a, b, c, d, worldX, worldY])`.
pub type BonePose = (String, [f64; 6]);

/// One slot: name, shown display name, world vertices (empty when nothing is drawn).
#[derive(Debug, Clone, PartialEq)]
pub struct SlotPose {
    /// Slot name.
    pub slot: String,
    /// Display name shown, if any.
    pub attachment: Option<String>,
    /// World vertices, x,y pairs.
    pub vertices: Vec<f64>,
    /// Colour multipliers `[r, g, b, a]` (0..1).
    pub color: [f32; 4],
    /// Colour offsets `[r, g, b]` (-1..1: the runtime's -255..255 over 255).
    pub offset: [f32; 3],
    /// The child armature the slot shows, if any.
    pub child: Option<ChildPose>,
}

/// A child armature shown by a slot.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildPose {
    /// The child armature's name.
    pub armature: String,
    /// The animation it plays.
    pub animation: Option<String>,
    /// Seconds since it started (its own clock).
    pub time: f64,
    /// Its slots in draw order, vertices in the parent armature's space.
    pub slots: Vec<SlotPose>,
}

/// A key event fired between the previous sample and this one.
#[derive(Debug, Clone, PartialEq)]
pub struct EventPose {
    /// Event (or sound) name.
    pub name: String,
    /// First of the event's `ints` (0 without).
    pub int: i32,
    /// First of its `floats` (0 without).
    pub float: f32,
    /// First of its `strings` (empty without).
    pub string: String,
    /// A `sound` of the main timeline (the oracle's `soundEvent`), not an event.
    pub sound: bool,
}

/// One sampled time.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The requested time.
    pub time: f64,
    /// Bones in file order.
    pub bones: Vec<BonePose>,
    /// Slots in draw order.
    pub slots: Vec<SlotPose>,
    /// Key events fired since the previous sample (play mode).
    pub events: Vec<EventPose>,
}

/// Poses `anim` (or the setup pose when `None`) at `times`.
pub fn pose(
    asset: &Asset,
    db: &DragonBonesRig,
    anim: Option<&str>,
    times: &[f64],
    fps: f64,
    mode: PoseMode,
    y_up: bool,
) -> Result<Vec<Frame>, String> {
    let info = match anim {
        Some(a) => Some(
            db.clips
                .iter()
                .find(|c| c.name == a)
                .ok_or_else(|| {
                    let have: Vec<&str> = db.clips.iter().map(|c| c.name.as_str()).collect();
                    format!("animation not found: {a} (have: {})", have.join(", "))
                })?
                .clone(),
        ),
        None => None,
    };
    // A rig built from this armature elsewhere (a converted one) must carry the clips'
    // DragonBones facts (`sinew::raw::RawPlayback`) to be posed the runtime's way.
    if lacks_playback(asset, db) {
        return Err(format!(
            "the rig's clips lack their DragonBones playback facts (set `RawClip::playback` \
             from the armature `{}` before building)",
            db.armature
        ));
    }
    let fps = if fps.is_finite() && fps > 0.0 {
        fps
    } else {
        60.0
    };
    let duration = info
        .as_ref()
        .map_or(0.0, |c| f64::from(c.frames) / db.frame_rate);
    // Child armatures run nested in the character (`sinew::Character::nest`), on their own
    // clocks; a rig built elsewhere (no `Asset::children`) gets them built here.
    let built = if asset.children.is_empty() && !db.children.is_empty() {
        crate::asset::build_children(db, None).map_err(|e| match e {
            crate::asset::ChildBuildError::Build(name, e) => {
                format!("child armature `{name}`: {e}")
            }
            crate::asset::ChildBuildError::Region(p) => format!("child armature: {p}"),
        })?
    } else {
        asset.children.clone()
    };
    // `plays`: `None` the clip's own `playTimes`.
    // `play()` poses t = 0 at once; `gotoAndStopByTime` poses only the time it seeks to (one
    // first application of the clip: every bone counts as moved, see `DbHold`).
    let start = |clip: Option<&str>, plays: Option<u32>, pose_now: bool| {
        let mut c = asset.character_nesting(db, &built);
        if let Some(a) = clip {
            c.fade_in(0, a, Some(0.0), plays)
                .map_err(|e| e.to_string())?;
        }
        if pose_now {
            c.update(0.0);
        }
        Ok::<Character, String>(c)
    };
    let mut out = Vec::with_capacity(times.len());
    match mode {
        PoseMode::Play => {
            let mut c = start(anim, None, true)?;
            let mut events = Vec::new();
            drain(&mut c, &mut events);
            let mut now = 0.0f64;
            for &t in times {
                if !t.is_finite() || t < now - 1e-12 {
                    return Err(format!("times must be finite and ascending ({t})"));
                }
                let mut step = |c: &mut Character, dt: f64, now: &mut f64| {
                    c.update(dt);
                    *now += dt;
                    drain(c, &mut events);
                };
                // The oracle's schedule, to the last bit of the clock (keys are reached at
                // `floor(time * frameRate)`): whole steps while one ends no later than
                // 1e-9 past `t`, then one shorter step onto `t` unless within 1e-9 of it.
                const EPS: f64 = 1e-9;
                let (dt, mut n) = (1.0 / fps, 0u64);
                while now + dt <= t + EPS && n < MAX_STEPS {
                    step(&mut c, dt, &mut now);
                    n += 1;
                }
                if t - now > EPS {
                    let dt = t - now;
                    step(&mut c, dt, &mut now);
                    now = t;
                }
                let mut f = frame(&c, db, t, y_up);
                f.events = std::mem::take(&mut events);
                attach_children(&c, db, &mut f, y_up);
                out.push(f);
            }
        }
        PoseMode::Goto => {
            for &t in times {
                if !t.is_finite() || t < 0.0 {
                    return Err(format!("bad time {t}"));
                }
                let mut c = start(anim, Some(1), false)?;
                let mut at = t;
                if duration > 0.0 {
                    if at > duration {
                        at %= duration;
                    } else if at == duration {
                        at = duration - 1e-6;
                    }
                }
                c.update(at);
                // COMPAT(dragonbones): gotoAndStopByTime does not advance children: a
                // shown child starts at the end of that one update, at time 0.
                let mut f = frame(&c, db, t, y_up);
                attach_children(&c, db, &mut f, y_up);
                out.push(f);
            }
        }
    }
    Ok(out)
}

/// Whether a clip of `db` is in `asset`'s rig without its DragonBones playback facts.
fn lacks_playback(asset: &Asset, db: &DragonBonesRig) -> bool {
    let rig = &asset.rig;
    db.clips.iter().any(|c| {
        rig.clip(&c.name)
            .and_then(|id| rig.clips.get(id.index()))
            .is_some_and(|clip| clip.playback.is_none())
    })
}

/// Key events of the last update, taken out of `c`.
fn drain(c: &mut Character, out: &mut Vec<EventPose>) {
    let rig = Arc::clone(c.rig());
    for e in c.drain_events() {
        let StateEventKind::Event(f) = e.kind else {
            continue;
        };
        let Some(data) = rig.events.get(f.event.index()) else {
            continue;
        };
        let string = f
            .string
            .and_then(|i| rig.clips.get(f.clip.index())?.strings.get(i as usize))
            .cloned()
            .unwrap_or_else(|| data.string.clone());
        out.push(EventPose {
            name: data.name.clone(),
            int: f.int,
            float: f.float,
            string,
            sound: data.audio.is_some(),
        });
    }
}

/// Puts each shown child's pose on its slot (the character's nested characters, see
/// `sinew::Character::nest`), theirs inside them, vertices through the slot's bone world
/// matrix and the display transform.
fn attach_children(c: &Character, db: &DragonBonesRig, f: &mut Frame, y_up: bool) {
    let rig = c.rig();
    for (spec, child) in c.nested_characters() {
        let Some(slot) = rig.slots.get(spec.slot.index()) else {
            continue;
        };
        let Some(key) = rig.attachments.get(spec.attachment.index()).map(|a| a.key) else {
            continue;
        };
        let Some((d, child_db)) = db.child_displays.iter().find_map(|d| {
            let shown = d.slot == slot.name && rig.names.attachment_keys.get(&d.key) == Some(&key);
            Some((d, &db.children.get(d.child.filter(|_| shown)?)?.rig))
        }) else {
            continue;
        };
        let Some(w) = c.bone_world(slot.bone) else {
            continue;
        };
        let [a, b, cc, dd, tx, ty] = d.transform;
        let flip = if y_up { -1.0 } else { 1.0 };
        let to_parent = |x: f64, y: f64| {
            let (x, y) = (a * x + cc * y + tx, b * x + dd * y + ty);
            (w.a * x + w.b * y + w.x, flip * (w.c * x + w.d * y + w.y))
        };
        let entry = child
            .state()
            .current(0)
            .and_then(|e| child.state().entry(e));
        let time = entry.map_or(0.0, |e| e.track_time);
        let animation = entry.and_then(|e| {
            child
                .rig()
                .clips
                .get(e.clip.index())
                .map(|k| k.name.clone())
        });
        let mut inner = frame(child, child_db, time, false);
        attach_children(child, child_db, &mut inner, false);
        move_slots(&mut inner.slots, &to_parent);
        if let Some(s) = f.slots.iter_mut().find(|s| s.slot == d.slot) {
            s.child = Some(ChildPose {
                armature: child_db.armature.clone(),
                animation,
                time,
                slots: inner.slots,
            });
        }
    }
}

/// Maps the vertices of `slots` (and of the children inside them) through `to`.
fn move_slots(slots: &mut [SlotPose], to: &dyn Fn(f64, f64) -> (f64, f64)) {
    for s in slots {
        for p in s.vertices.chunks_exact_mut(2) {
            (p[0], p[1]) = to(p[0], p[1]);
        }
        if let Some(ch) = &mut s.child {
            move_slots(&mut ch.slots, to);
        }
    }
}

fn frame(c: &Character, db: &DragonBonesRig, time: f64, y_up: bool) -> Frame {
    let rig = c.rig();
    let f = if y_up { -1.0 } else { 1.0 };
    let mut bones = Vec::with_capacity(rig.bones.len());
    for b in &db.file_bone_order {
        if let Some(id) = rig.bone(b)
            && let Some(w) = c.bone_world(id)
        {
            bones.push((b.clone(), [w.a, w.b, f * w.c, f * w.d, w.x, f * w.y]));
        }
    }
    let mut slots = Vec::with_capacity(rig.slots.len());
    let mut buf = Vec::new();
    for &slot in &c.instance().draw_order {
        let sd = &rig.slots[slot.index()];
        let att = c.attachment(slot);
        let mut verts = Vec::new();
        let mut name = None;
        if let Some(a) = att {
            let a = &rig.attachments[a.index()];
            name = Some(a.name.clone());
            if matches!(a.kind, AttachmentKind::Region(_) | AttachmentKind::Mesh(_))
                && world(c, slot, &mut buf)
            {
                let pts: Vec<(f64, f64)> = buf
                    .chunks_exact(2)
                    .map(|p| (f64::from(p[0]), f * f64::from(p[1])))
                    .collect();
                let order: Vec<usize> = if matches!(a.kind, AttachmentKind::Region(_)) {
                    // sinew's corners BL, UL, UR, BR of a region mirrored for y-down
                    // (`image` in mod.rs) as the runtime's top-left, top-right,
                    // bottom-right, bottom-left.
                    vec![1, 2, 3, 0]
                } else {
                    (0..pts.len()).collect()
                };
                for i in order {
                    if let Some(&(x, y)) = pts.get(i) {
                        verts.push(x);
                        verts.push(y);
                    }
                }
            }
        }
        let col = c
            .instance()
            .slots
            .color
            .get(slot.index())
            .copied()
            .unwrap_or_default();
        // A slot with offsets draws them through its dark colour: light = multipliers +
        // offsets, dark = offsets (the loader's `two_colour`).
        let offset = match (sd.dark, c.instance().slots.dark.get(slot.index())) {
            (Some(_), Some(d)) => [d.r, d.g, d.b],
            _ => [0.0; 3],
        };
        slots.push(SlotPose {
            slot: sd.name.clone(),
            attachment: name,
            vertices: verts,
            color: [
                col.r - offset[0],
                col.g - offset[1],
                col.b - offset[2],
                col.a,
            ],
            offset,
            child: None,
        });
    }
    Frame {
        time,
        bones,
        slots,
        events: Vec::new(),
    }
}

fn world(c: &Character, slot: SlotId, buf: &mut Vec<f32>) -> bool {
    buf.clear();
    c.world_vertices(slot, buf)
}
