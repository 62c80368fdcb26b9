//! Posing a DragonBones armature as the oracle (`shared/oracle/dragonbones/dump.mjs`) does.
//!
//! Play mode: the animation is started with its own `playTimes` and the clock stepped at
//! `1 / fps`, with one shorter step landing on each requested time. Goto mode: a fresh
//! character per time at `t mod duration` (the runtime's `gotoAndStopByTime`, which never
//! loops). Bones come in the file's `bone[]` order with Spine-style matrix names; slots in
//! draw order; image corners top-left, top-right, bottom-right, bottom-left.

use super::DragonBonesRig;
use crate::Asset;
use sinew::ids::SlotId;
use sinew::rig::AttachmentKind;

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
    let fps = if fps.is_finite() && fps > 0.0 {
        fps
    } else {
        60.0
    };
    let duration = info
        .as_ref()
        .map_or(0.0, |c| f64::from(c.frames) / db.frame_rate);
    let start = |looping: bool| -> Result<sinew::character::Character, String> {
        let mut c = asset.character();
        if let Some(a) = anim {
            c.set_animation(0, a, looping).map_err(|e| e.to_string())?;
        }
        c.update(0.0);
        Ok(c)
    };
    let mut out = Vec::with_capacity(times.len());
    match mode {
        PoseMode::Play => {
            let looping = info.as_ref().is_some_and(|c| c.play_times != 1);
            let mut c = start(looping)?;
            let mut now = 0.0f64;
            let mut held = false;
            for &t in times {
                if !t.is_finite() || t < now - 1e-12 {
                    return Err(format!("times must be finite and ascending ({t})"));
                }
                let steps = ((t - now) * fps).floor().min(10_000_000.0) as u64;
                for _ in 0..steps {
                    c.update(1.0 / fps);
                    now += 1.0 / fps;
                }
                if t > now {
                    c.update(t - now);
                    now = t;
                }
                // COMPAT(dragonbones): after `playTimes` plays (2 or more; 1 never loops) the
                // runtime holds the end pose.
                let plays = info.as_ref().map_or(0, |c| c.play_times);
                if !held && plays >= 2 && duration > 0.0 && now >= f64::from(plays) * duration {
                    if let Some(a) = anim {
                        c.set_animation(0, a, false).map_err(|e| e.to_string())?;
                        c.update(duration);
                    }
                    held = true;
                }
                out.push(frame(&c, db, t, y_up));
            }
        }
        PoseMode::Goto => {
            for &t in times {
                if !t.is_finite() || t < 0.0 {
                    return Err(format!("bad time {t}"));
                }
                let mut c = start(false)?;
                let mut at = t;
                if duration > 0.0 {
                    if at > duration {
                        at %= duration;
                    } else if at == duration {
                        at = duration - 1e-6;
                    }
                }
                c.update(at);
                out.push(frame(&c, db, t, y_up));
            }
        }
    }
    Ok(out)
}

fn frame(c: &sinew::character::Character, db: &DragonBonesRig, time: f64, y_up: bool) -> Frame {
    let rig = c.rig();
    let f = if y_up { -1.0 } else { 1.0 };
    // File order of bones: the raw rig keeps parent-first order; report by file order of
    // names as the raw bones were written (same set).
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
                    vec![0, 3, 2, 1]
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
        slots.push(SlotPose {
            slot: sd.name.clone(),
            attachment: name,
            vertices: verts,
        });
    }
    Frame { time, bones, slots }
}

fn world(c: &sinew::character::Character, slot: SlotId, buf: &mut Vec<f32>) -> bool {
    buf.clear();
    c.world_vertices(slot, buf)
}
