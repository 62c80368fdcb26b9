//! `sinew dump`: poses a skeleton at given times and returns the oracle's JSON schema.
//!
//! Output `{meta, frames: [{time, clock, step, bones, slots, events}]}` with exactly the keys,
//! key order, stepping and number formatting of `/work/shared/oracle/spine/dump.mjs`, so a
//! dump can be diffed against the official runtime's. Verified by the golden suite
//! (`tests/all/golden.rs`, every case of the shared golden MANIFEST) and the CLI tests.

use crate::args::{DumpArgs, Mode};
use crate::pose::{self, AttachmentPose, Session, SessionSpec, SlotPose};
use crate::schema::{Obj, num, nums, round_all};
use crate::stepping::Clock;
use anyhow::{Context, Result, bail};
use clap::Parser;
use serde_json::Value;
use sinew_formats::budget::Budgets;
use std::path::Path;

/// Runs a dump given the oracle-style argument list (`["--anim", "run", "--times", ...]`),
/// as the golden MANIFEST records it.
/// Within the default budgets (the golden suite's cases are real rigs).
pub fn dump_with_args(file: &Path, args: &[String]) -> Result<Value> {
    let argv = ["dump".to_owned(), file.display().to_string()]
        .into_iter()
        .chain(args.iter().cloned());
    let parsed = DumpArgs::try_parse_from(argv).map_err(|e| anyhow::anyhow!("{e}"))?;
    dump(&parsed, &Budgets::DEFAULT)
}

/// Runs a dump and returns the JSON document.
pub fn dump(args: &DumpArgs, budgets: &Budgets) -> Result<Value> {
    match crate::guard::Format::of(budgets, &args.file)? {
        crate::guard::Format::Puppet => return crate::inochi::dump(args, &args.params, budgets),
        crate::guard::Format::DragonBones => return crate::dragonbones::dump(args, budgets),
        crate::guard::Format::Spine => {}
    }
    let times = crate::stepping::run_times(budgets, &args.times, args.fps)?;
    if !(args.fps.is_finite() && args.fps > 0.0) {
        bail!("bad --fps {}: must be a positive number", args.fps);
    }
    let max = sinew::character::finite::MAX_INPUT;
    for (name, v) in [
        ("--at", args.at),
        ("--mix", args.mix),
        ("--layer-at", args.layer_at),
        ("--layer-mix", args.layer_mix),
    ] {
        if !(v.is_finite() && v.abs() < max) {
            bail!("bad {name} {v:?}: must be finite and under {max:e} in magnitude");
        }
    }
    let asset = pose::load(budgets, &args.file, None, args.extras.as_deref())?;
    let rig = &*asset.rig;
    let file = args.file.display();
    let spec = SessionSpec {
        skins: pose::resolve_skins(rig, args.skin.as_deref()).with_context(|| format!("{file}"))?,
        mode: args.mode,
        anim: args
            .anim
            .as_deref()
            .map(|n| pose::find_clip(rig, n))
            .transpose()
            .with_context(|| format!("{file}"))?,
        from: match args.mode {
            Mode::State => args
                .from
                .as_deref()
                .map(|n| pose::find_clip(rig, n))
                .transpose()
                .with_context(|| format!("{file}"))?,
            Mode::Apply => None,
        },
        at: args.at,
        mix: args.mix,
        looping: args.looping,
        physics: args.physics,
        layers: layer_spec(args, rig).with_context(|| format!("{file}"))?,
    };
    let mut session = Session::new(&asset, &spec).with_context(|| format!("{file}"))?;

    let mut frames = Vec::with_capacity(times.len());
    let mut output = crate::guard::OutputValues::new(budgets, times.len(), &args.file);
    let mut verts = Vec::new();
    session.step(0.0);
    let mut clock = Clock::new(args.fps);
    for &t in &times {
        clock.advance_to(t, |dt| session.step(dt));
        let mut frame = Obj::new()
            .num("time", t)
            .num("clock", clock.now)
            .num("step", clock.steps as f64);
        frame.push("bones", bones_json(&session, args.local));
        frame.push("slots", slots_json(&session, !args.no_vertices, &mut verts));
        frame.push("events", events_json(&mut session));
        let frame = frame.build();
        crate::guard::finite_frame(&frame, &args.file, t)?;
        output.frame(&frame)?;
        frames.push(frame);
    }

    let mut out = Obj::new()
        .set("meta", meta_json(args, rig, &session, budgets))
        .set("frames", Value::Array(frames))
        .build();
    if let Some(decimals) = args.round {
        round_all(&mut out, decimals);
    }
    Ok(out)
}

/// The tracks above 0 and the Spine 4.3 entry options the arguments ask for.
fn layer_spec(args: &DumpArgs, rig: &sinew::Rig) -> Result<pose::LayerSpec> {
    let mut clips = Vec::new();
    for item in args.layers.as_deref().unwrap_or("").split(',') {
        if item.is_empty() {
            continue;
        }
        let (name, alpha) = match item.split_once('@') {
            Some((n, a)) => {
                let alpha: f64 = a
                    .parse()
                    .ok()
                    .filter(|v: &f64| v.is_finite())
                    .with_context(|| format!("bad --layers alpha {a:?} in {item:?}"))?;
                (n, alpha)
            }
            None => (item, 1.0),
        };
        clips.push((pose::find_clip(rig, name)?, alpha));
    }
    let interpolation = match args.mix_interpolation.as_deref() {
        None => Default::default(),
        Some(s) => sinew::anim::state::MixInterpolation::parse(s).with_context(|| {
            format!(
                "bad --mix-interpolation {s:?}: linear, smooth, slowFast, fastSlow, circle, \
                 pow:N or powOut:N"
            )
        })?,
    };
    let mut then = Vec::new();
    for item in args.then.as_deref().unwrap_or("").split(',') {
        if item.is_empty() {
            continue;
        }
        let parts: Vec<&str> = item.split(':').collect();
        let num = |s: &str| -> Option<f64> {
            s.parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && v.abs() < sinew::character::finite::MAX_INPUT)
        };
        let [name, delay, mix] = parts[..] else {
            bail!("bad --then item {item:?}: NAME:DELAY:MIX");
        };
        let (Some(delay), Some(mix)) = (num(delay), num(mix)) else {
            bail!("bad --then item {item:?}: DELAY and MIX must be finite numbers");
        };
        then.push((pose::find_clip(rig, name)?, delay, mix.max(0.0)));
    }
    let chain_alpha = match args.chain_alpha {
        Some(a) if !(a.is_finite() && a.abs() < sinew::character::finite::MAX_INPUT) => {
            bail!("bad --chain-alpha {a:?}: must be finite")
        }
        a => a,
    };
    Ok(pose::LayerSpec {
        then,
        chain_alpha,
        clips,
        at: args.layer_at,
        mix: args.layer_mix.max(0.0),
        additive: args.additive,
        keep_hold: args.keep_hold,
        interpolation,
    })
}

fn meta_json(args: &DumpArgs, rig: &sinew::Rig, session: &Session, budgets: &Budgets) -> Value {
    let file = &args.file;
    // Read once per command (`sinew_formats::read_once`): the bytes the loader parsed.
    let bytes = sinew_formats::budget::read_input(file, &file.display().to_string(), budgets)
        .unwrap_or_default();
    // The oracle's meta for a binary export: its loader named, and no JSON key repair.
    let binary = sinew_formats::detect(&bytes) == sinew_formats::Format::SpineSkel;
    let affected = if binary {
        0
    } else {
        serde_json::from_slice::<Value>(&bytes)
            .ok()
            .map_or(0, |root| mix_shear_y_keys_affected(&root))
    };
    let skin = match &args.skin {
        Some(s) => Value::from(s.as_str()),
        None if session.has_default_skin() => Value::from("default"),
        None => Value::Null,
    };
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    let mut meta = Obj::new()
        .set("oracle", "sinew dump")
        .set("runtime", format!("sinew {}", env!("CARGO_PKG_VERSION")));
    if binary {
        meta = meta.set("loader", "SkeletonBinary");
    }
    meta
        // sinew's JSON loader reads mixShearY keys correctly (the repaired behaviour); the
        // binary format has no such keys to repair.
        .set(
            "fixMixShearY",
            if binary {
                Value::Null
            } else {
                Value::from(true)
            },
        )
        .set(
            "mixShearYKeysAffected",
            if binary {
                Value::Null
            } else {
                Value::from(affected)
            },
        )
        .set("skeleton", name)
        .set("editorVersion", rig.version.as_str())
        .set("hash", rig.hash.as_str())
        .set("animation", args.anim.clone())
        .set("from", args.from.clone())
        .set("skin", skin)
        .set("mode", args.mode.name())
        .set("loop", args.looping)
        .num("fps", args.fps)
        .set("physics", args.physics.name())
        .set("atlas", Value::Null)
        .num("scale", 1.0)
        .set("skeletonScale", nums([1.0, 1.0]))
        .num("referenceScale", rig.reference_scale)
        .build()
}

/// Counts transform-constraint keys (after each timeline's first) whose `mixShearY` differs
/// from the first key's: the keys the raw spine-core 4.2.119 JSON loader gets wrong
/// (dump.mjs `meta.mixShearYKeysAffected`).
pub fn mix_shear_y_keys_affected(root: &Value) -> usize {
    let get = |k: &Value| k.get("mixShearY").and_then(Value::as_f64).unwrap_or(1.0);
    let Some(anims) = root.get("animations").and_then(Value::as_object) else {
        return 0;
    };
    let mut n = 0;
    for anim in anims.values() {
        let Some(tc) = anim.get("transform").and_then(Value::as_object) else {
            continue;
        };
        for keys in tc.values().filter_map(Value::as_array) {
            if let Some((first, rest)) = keys.split_first() {
                let f = get(first);
                n += rest.iter().filter(|k| get(k) != f).count();
            }
        }
    }
    n
}

fn bones_json(session: &Session, local: bool) -> Value {
    let out = (0..session.bone_count())
        .map(|i| {
            let b = session.bone(i);
            let w = &b.world;
            let mut o = Obj::new()
                .set("name", b.name)
                .num("a", w.a)
                .num("b", w.b)
                .num("c", w.c)
                .num("d", w.d)
                .num("worldX", w.x)
                .num("worldY", w.y);
            if !b.active {
                o.push("active", false);
            }
            if local {
                o.push(
                    "local",
                    pose_obj(&b.local)
                        .num("inherit", f64::from(b.inherit))
                        .build(),
                );
                o.push("applied", pose_obj(&b.applied).build());
            }
            o.build()
        })
        .collect();
    Value::Array(out)
}

fn color4(c: sinew::Color) -> Value {
    nums([c.r, c.g, c.b, c.a].map(f64::from))
}

fn slots_json(session: &Session, vertices: bool, verts: &mut Vec<f32>) -> Value {
    let out = (0..session.slot_count())
        .map(|k| {
            let s = session.slot_in_draw_order(k);
            slot_json(session, &s, vertices, verts)
        })
        .collect();
    Value::Array(out)
}

fn slot_json(session: &Session, s: &SlotPose, vertices: bool, verts: &mut Vec<f32>) -> Value {
    let mut o = Obj::new()
        .set("slot", s.name)
        .set("bone", s.bone)
        .set("attachment", s.attachment.map(|a| a.0))
        .set("type", s.attachment.map(|a| a.1))
        .set("color", color4(s.color));
    if let Some(d) = s.dark {
        o.push("dark", nums([d.r, d.g, d.b].map(f64::from)));
    }
    o.push("blend", s.blend);
    if !s.bone_active {
        o.push("boneActive", false);
        return o.build();
    }
    let mut push_vertices = |o: &mut Obj| {
        if vertices {
            session.world_vertices(s.id, verts);
            o.push("vertices", nums(verts.iter().map(|&v| f64::from(v))));
        }
    };
    match &s.kind {
        AttachmentPose::None => return o.build(),
        AttachmentPose::Region { color, .. } => {
            push_vertices(&mut o);
            o.push("attachmentColor", color4(*color));
        }
        AttachmentPose::Mesh {
            color,
            triangles,
            deformed,
            ..
        } => {
            push_vertices(&mut o);
            o.push("attachmentColor", color4(*color));
            o.push("triangles", num(*triangles as f64));
            if *deformed {
                o.push("deformed", true);
            }
        }
        AttachmentPose::Vertices { clip_end, deformed } => {
            push_vertices(&mut o);
            if let Some(end) = clip_end {
                o.push("clipEnd", *end);
            }
            if *deformed {
                o.push("deformed", true);
            }
        }
        AttachmentPose::Point {
            x,
            y,
            rotation,
            rotation_ts,
        } => {
            o.push(
                "point",
                Obj::new()
                    .num("x", *x)
                    .num("y", *y)
                    .num("rotation", *rotation)
                    .num("rotationTs", *rotation_ts)
                    .build(),
            );
        }
    }
    if let AttachmentPose::Region {
        sequence: Some((index, region)),
        ..
    }
    | AttachmentPose::Mesh {
        sequence: Some((index, region)),
        ..
    } = &s.kind
    {
        o.push("sequenceIndex", num(f64::from(*index)));
        o.push("region", *region);
    }
    o.build()
}

fn events_json(session: &mut Session) -> Value {
    let out = session
        .take_events()
        .into_iter()
        .map(|e| {
            Obj::new()
                .set("name", e.name)
                .num("time", e.time)
                .num("int", f64::from(e.int))
                .num("float", e.float)
                .set("string", e.string)
                .set("animation", e.animation)
                .build()
        })
        .collect();
    Value::Array(out)
}

/// A local pose in the oracle's field names (`--local` output).
fn pose_obj(p: &sinew::rig::LocalPose) -> Obj {
    Obj::new()
        .num("x", p.x)
        .num("y", p.y)
        .num("rotation", p.rotation)
        .num("scaleX", p.scale_x)
        .num("scaleY", p.scale_y)
        .num("shearX", p.shear_x)
        .num("shearY", p.shear_y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_mix_shear_y_keys_like_the_oracle() {
        let root = serde_json::json!({"animations": {
            "a": {"transform": {"t": [{"mixShearY": 0.5}, {"mixShearY": 0.5}, {}, {"mixShearY": 0.2}]}},
            "b": {"transform": {"u": [{}, {"mixShearY": 1}]}},
            "c": {"bones": {}}
        }});
        // Keys 3 (default 1 != 0.5) and 4 (0.2) of `a`; none in `b`.
        assert_eq!(mix_shear_y_keys_affected(&root), 2);
        assert_eq!(mix_shear_y_keys_affected(&serde_json::json!({})), 0);
    }
}
