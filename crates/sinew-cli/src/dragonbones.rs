//! `sinew dump` for DragonBones skeletons (`*_ske.json`, told from the content): the schema
//! of `shared/oracle/dragonbones/dump.mjs` (bones `{name, a, b, c, d, worldX, worldY}` in
//! the file's bone order, slots in draw order `{slot, display, attachment, color, vertices}`,
//! a slot showing a child armature with `child {armature, animation, animTime, slots}`, and in
//! play mode the key events fired since the previous sample `{type, name, ints, floats,
//! strings}`), in y-down data space unless `--y-up`. `--mode play` (default `state` means
//! the same) steps the clock at `--fps`; `--mode goto` jumps to each time.

use crate::args::{DumpArgs, Mode};
use crate::schema::{Obj, nums, round_all};
use anyhow::{Result, anyhow, bail};
use serde_json::Value;
use sinew_formats::budget::Budgets;
use sinew_formats::dragonbones::{PoseMode, SlotPose, pose};

/// Runs a DragonBones dump.
pub fn dump(args: &DumpArgs, budgets: &Budgets) -> Result<Value> {
    let times = crate::stepping::run_times(budgets, &args.times, args.fps)?;
    // `--tex`, else the `_tex.json` beside the skeleton.
    let load = crate::guard::LoadArgs {
        atlas: args.tex.as_deref().map(Some),
        armature: args.armature.as_deref(),
        ..Default::default()
    };
    let asset = crate::guard::load(budgets, &args.file, load)?;
    let db = asset
        .dragonbones
        .as_deref()
        .ok_or_else(|| anyhow!("{}: not a DragonBones skeleton", args.file.display()))?;
    let mode = match args.mode {
        Mode::State => PoseMode::Play,
        Mode::Apply => PoseMode::Goto,
    };
    let frames = pose(
        &asset,
        db,
        args.anim.as_deref(),
        &times,
        args.fps,
        mode,
        args.y_up,
    )
    .map_err(|e| anyhow!("{}: {e}", args.file.display()))?;
    let mut out_frames = Vec::with_capacity(frames.len());
    let mut output = crate::guard::OutputValues::new(budgets, frames.len(), &args.file);
    for f in &frames {
        // Nothing non-finite leaves a dump (crate::guard).
        let bad_bone = f
            .bones
            .iter()
            .find(|(_, m)| m.iter().any(|v| !v.is_finite()));
        let bad_slot = f
            .slots
            .iter()
            .find(|s| s.vertices.iter().any(|v| !v.is_finite()));
        if let Some(what) = bad_bone
            .map(|(n, _)| format!("bone `{n}`"))
            .or_else(|| bad_slot.map(|s| format!("slot `{}`", s.slot)))
        {
            bail!(
                "{}: the pose at t = {} is not finite ({what}): the rig's values overflow",
                args.file.display(),
                f.time
            );
        }
        let bones: Vec<Value> = f
            .bones
            .iter()
            .map(|(name, m)| {
                Obj::new()
                    .set("name", name.as_str())
                    .num("a", m[0])
                    .num("b", m[1])
                    .num("c", m[2])
                    .num("d", m[3])
                    .num("worldX", m[4])
                    .num("worldY", m[5])
                    .build()
            })
            .collect();
        let slots = slots_json(&f.slots, args.no_vertices);
        let events: Vec<Value> = f
            .events
            .iter()
            .map(|e| {
                Obj::new()
                    .set("type", if e.sound { "soundEvent" } else { "frameEvent" })
                    .set("name", e.name.as_str())
                    .set("ints", nums([f64::from(e.int)]))
                    .set("floats", nums([f64::from(e.float)]))
                    .set("strings", Value::Array(vec![e.string.as_str().into()]))
                    .build()
            })
            .collect();
        let mut frame = Obj::new()
            .num("time", f.time)
            .set("bones", Value::Array(bones))
            .set("slots", slots);
        if mode == PoseMode::Play {
            frame = frame.set("events", Value::Array(events));
        }
        let frame = frame.build();
        output.frame(&frame)?;
        out_frames.push(frame);
    }
    let clip = args
        .anim
        .as_deref()
        .and_then(|a| db.clips.iter().find(|c| c.name == a));
    let meta = Obj::new()
        .set("oracle", "sinew dump")
        .set("runtime", format!("sinew {}", env!("CARGO_PKG_VERSION")))
        .set(
            "skeleton",
            args.file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned()),
        )
        .set("dataVersion", db.version.as_str())
        .set("armature", db.armature.as_str())
        .num("frameRate", db.frame_rate)
        .set("animation", args.anim.clone())
        .set("animationFrames", clip.map(|c| c.frames))
        .set("animationPlayTimes", clip.map(|c| c.play_times))
        .set(
            "mode",
            match mode {
                PoseMode::Play => "play",
                PoseMode::Goto => "goto",
            },
        )
        .num("fps", args.fps)
        .set("yDown", !args.y_up)
        .build();
    let mut out = Obj::new()
        .set("meta", meta)
        .set("frames", Value::Array(out_frames))
        .build();
    if let Some(d) = args.round {
        round_all(&mut out, d);
    }
    Ok(out)
}

/// Slots in the oracle's schema; a child armature's slots nest under `child.slots`.
fn slots_json(slots: &[SlotPose], no_vertices: bool) -> Value {
    let list = slots
        .iter()
        .map(|s| {
            let verts = if s.vertices.is_empty() || no_vertices {
                Value::Null
            } else {
                nums(s.vertices.iter().copied())
            };
            let mut o = Obj::new()
                .set("slot", s.slot.as_str())
                .set("display", s.attachment.clone())
                .set("attachment", s.attachment.clone())
                .set("color", nums(s.color.iter().map(|&c| f64::from(c))))
                .set(
                    "colorOffset",
                    nums(
                        s.offset
                            .iter()
                            .map(|&o| (f64::from(o) * 255.0).round())
                            .chain([0.0]),
                    ),
                )
                .set("vertices", verts);
            if let Some(c) = &s.child {
                o = o.set(
                    "child",
                    Obj::new()
                        .set("armature", c.armature.as_str())
                        .set("animation", c.animation.clone())
                        .num("animTime", c.time)
                        .set("slots", slots_json(&c.slots, no_vertices))
                        .build(),
                );
            }
            o.build()
        })
        .collect();
    Value::Array(list)
}
