//! Inochi2D puppets (`.inp`, `.inx`) in the CLI: `dump` with `--param NAME=X[,Y]` and
//! `--anim NAME` (the puppet's animation played from t = 0 on top of the set parameters,
//! looping unless `--loop false`), and `info` listing parameters with their ranges and the
//! animations with their lengths and lanes.
//!
//! The dump has the Spine dump's schema (`{meta, frames: [{time, clock, step, bones, slots,
//! events}]}`, slots in draw order with world vertices, each slot's name under `slot`), so
//! the same tools read both. Each step is one [`sinew::Character::update`] (parameter
//! animation, the parameter stage with world transforms, parameter physics unless
//! `--physics none`). Verified by the CLI tests in
//! `tests/all/inochi2d_cli.rs`.

use crate::args::{DumpArgs, InfoArgs, PhysicsArg};
use crate::schema::{Obj, num, nums, round_all};
use crate::stepping::Clock;
use anyhow::{Context, Result, anyhow, bail};
use serde_json::Value;
use sinew::{Character, Instance, ParamId, Rig};
use sinew_formats::Asset;
use sinew_formats::budget::Budgets;
use sinew_formats::inochi2d::Puppet;
use std::fmt::Write as _;
use std::path::Path;

/// Loads a puppet in one call (errors name the file), with the pendulum chains of a Cubism
/// physics3 file (`--physics3`) added over its parameters.
pub fn load_puppet(budgets: &Budgets, path: &Path, physics3: Option<&Path>) -> Result<Asset> {
    load_puppet_with(budgets, path, physics3, false)
}

/// [`load_puppet`]; `textures` checks its embedded textures' declared sizes against the
/// budget (to render them).
pub fn load_puppet_with(
    budgets: &Budgets,
    path: &Path,
    physics3: Option<&Path>,
    textures: bool,
) -> Result<Asset> {
    let args = crate::guard::LoadArgs {
        physics3,
        textures,
        ..Default::default()
    };
    let asset = crate::guard::load(budgets, path, args)?;
    if asset.puppet.is_none() {
        bail!("{}: not an Inochi2D puppet", path.display());
    }
    Ok(asset)
}

/// The parsed puppet behind an asset (its metadata and textures).
pub fn puppet(asset: &Asset) -> Result<&Puppet> {
    asset
        .puppet
        .as_deref()
        .ok_or_else(|| anyhow!("not an Inochi2D puppet"))
}

/// A character of the puppet with `--param` settings applied and, with `anim`, that
/// animation playing on top of them (errors list the puppet's animations).
pub fn character(
    asset: &Asset,
    settings: &[(ParamId, [f64; 2])],
    anim: Option<&str>,
    looping: bool,
) -> Result<Character> {
    let mut c = asset.character();
    for &(id, v) in settings {
        c.set_param(id, v).map_err(|e| anyhow!("{e}"))?;
    }
    if let Some(name) = anim
        && c.play_param_animation(name, looping).is_err()
    {
        let have: Vec<&str> = asset
            .param_animations
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        bail!(
            "{}: animation not found: {name} (have: {})",
            asset.rig.source,
            if have.is_empty() {
                "none".to_owned()
            } else {
                have.join(", ")
            }
        );
    }
    Ok(c)
}

/// Parses `--param NAME=X[,Y]` settings against the rig's parameters.
pub fn parse_params(rig: &Rig, specs: &[String]) -> Result<Vec<(ParamId, [f64; 2])>> {
    let mut out = Vec::with_capacity(specs.len());
    for spec in specs {
        let (name, val) = spec
            .rsplit_once('=')
            .ok_or_else(|| anyhow!("bad --param `{spec}`: expected NAME=X[,Y]"))?;
        let have = || {
            let names: Vec<&str> = rig.params.params.iter().map(|p| p.name.as_str()).collect();
            names.join(", ")
        };
        if name.trim().is_empty() {
            bail!(
                "bad --param `{spec}`: the parameter name before `=` is empty (expected \
                 NAME=X or NAME=X,Y; parameters: {})",
                have()
            );
        }
        let id = rig.params.find(name).ok_or_else(|| {
            anyhow!(
                "bad --param `{spec}`: parameter not found: {name} (have: {})",
                have()
            )
        })?;
        // Every value given must be a finite number; at most X and Y.
        let parts: Vec<&str> = val.split(',').map(str::trim).collect();
        if parts.len() > 2 {
            bail!("bad --param `{spec}`: expected NAME=X or NAME=X,Y");
        }
        let mut vals = [None, None];
        for (k, p) in parts.iter().enumerate() {
            match p.parse::<f64>() {
                // What the library accepts (`sinew::character::finite`).
                Ok(v) if v.is_finite() && v.abs() < sinew::character::finite::MAX_INPUT => {
                    vals[k] = Some(v)
                }
                _ => bail!(
                    "bad --param `{spec}`: {} `{p}` is not a finite number under 1e30 in magnitude",
                    if k == 0 { "X" } else { "Y" }
                ),
            }
        }
        let Some(x) = vals[0] else {
            bail!("bad --param `{spec}`: X must be a finite number")
        };
        let d = &rig.params.params[id.index()];
        out.push((id, [x, vals[1].unwrap_or(d.default[1])]));
    }
    Ok(out)
}

/// Length in seconds of the puppet's animation `name`, when it has one by that name.
pub fn anim_duration(p: &Puppet, name: &str) -> Option<f64> {
    p.animations
        .iter()
        .find(|a| a.name == name)
        .map(|a| a.duration())
}

/// `sinew dump` of a puppet.
pub fn dump(args: &DumpArgs, params: &[String], budgets: &Budgets) -> Result<Value> {
    let times = crate::stepping::run_times(budgets, &args.times, args.fps)?;
    if !(args.fps.is_finite() && args.fps > 0.0) {
        bail!("bad --fps {}: must be a positive number", args.fps);
    }
    let file = args.file.display().to_string();
    let asset = load_puppet(budgets, &args.file, args.physics3.as_deref())?;
    let puppet = puppet(&asset)?;
    let rig = &*asset.rig;
    let settings = parse_params(rig, params).with_context(|| file.clone())?;
    // Physics forces its parameters each step; user settings of those are starting values.
    let mut c = character(&asset, &settings, args.anim.as_deref(), args.looping)?;
    c.set_param_physics(args.physics != PhysicsArg::None);
    c.update(0.0);
    let mut clock = Clock::new(args.fps);
    let mut frames = Vec::with_capacity(times.len());
    let mut output = crate::guard::OutputValues::new(budgets, times.len(), &args.file);
    let mut verts = Vec::new();
    for &t in &times {
        clock.advance_to(t, |dt| c.update(dt));
        let inst = c.instance();
        let mut frame = Obj::new()
            .num("time", t)
            .num("clock", clock.now)
            .num("step", clock.steps as f64);
        frame.push("bones", bones_json(rig, inst));
        frame.push(
            "slots",
            slots_json(rig, inst, !args.no_vertices, &mut verts),
        );
        frame.push("params", params_json(rig, inst));
        frame.push("events", Value::Array(Vec::new()));
        let frame = frame.build();
        crate::guard::finite_frame(&frame, &args.file, t)?;
        output.frame(&frame)?;
        frames.push(frame);
    }
    let meta = Obj::new()
        .set("oracle", "sinew dump")
        .set("runtime", format!("sinew {}", env!("CARGO_PKG_VERSION")))
        .set("format", "inochi2d")
        .set(
            "skeleton",
            args.file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned()),
        )
        .set("editorVersion", puppet.version.as_str())
        .set("puppet", puppet.name.as_str())
        .set(
            "params",
            Value::Array(params.iter().map(|s| Value::from(s.as_str())).collect()),
        )
        .num("fps", args.fps)
        .set("physics", args.physics.name())
        .set("anim", args.anim.as_deref())
        .build();
    let mut out = Obj::new()
        .set("meta", meta)
        .set("frames", Value::Array(frames))
        .build();
    if let Some(d) = args.round {
        round_all(&mut out, d);
    }
    Ok(out)
}

fn bones_json(rig: &Rig, inst: &Instance) -> Value {
    Value::Array(
        rig.bones
            .iter()
            .zip(&inst.world)
            .map(|(b, w)| {
                Obj::new()
                    .set("name", b.name.as_str())
                    .num("a", w.a)
                    .num("b", w.b)
                    .num("c", w.c)
                    .num("d", w.d)
                    .num("worldX", w.x)
                    .num("worldY", w.y)
                    .build()
            })
            .collect(),
    )
}

fn slots_json(rig: &Rig, inst: &Instance, vertices: bool, buf: &mut Vec<f32>) -> Value {
    let mut out = Vec::with_capacity(rig.slots.len());
    for &id in &inst.draw_order {
        let i = id.index();
        let sd = &rig.slots[i];
        let visible = inst.params.visible.get(i).copied().unwrap_or(true);
        let att = inst.slots.attachment[i]
            .filter(|_| visible)
            .map(|a| &rig.attachments[a.index()]);
        let c = inst.slots.color[i];
        let mut o = Obj::new()
            .set("slot", sd.name.as_str())
            .set("bone", rig.bones[sd.bone.index()].name.as_str())
            .set("attachment", att.map(|a| a.name.as_str()))
            .set("type", att.map(|a| a.type_name()))
            .set("color", nums([c.r, c.g, c.b, c.a].map(f64::from)));
        o.push(
            "zsort",
            num(inst
                .params
                .zsort
                .get(sd.bone.index())
                .copied()
                .unwrap_or(0.0)),
        );
        if vertices && att.is_some() {
            buf.clear();
            if let Some(a) = inst.slots.attachment[i] {
                buf.resize(sinew::deform::world_vertex_count(rig, a) * 2, 0.0);
                sinew::deform::compute_world_vertices(rig, inst, id, buf);
            }
            o.push("vertices", nums(buf.iter().map(|&v| f64::from(v))));
        }
        out.push(o.build());
    }
    Value::Array(out)
}

fn params_json(rig: &Rig, inst: &Instance) -> Value {
    let mut o = Obj::new();
    for (p, v) in rig.params.params.iter().zip(&inst.params.values) {
        o.push(&p.name, if p.is_2d { nums(*v) } else { num(v[0]) });
    }
    o.build()
}

/// `sinew info` of a puppet: counts, then every parameter with its range and default.
pub fn info(args: &InfoArgs, budgets: &Budgets) -> Result<String> {
    let asset = load_puppet(budgets, &args.file, args.physics3.as_deref())?;
    let (p, rig) = (puppet(&asset)?, &*asset.rig);
    let set = &rig.params;
    if args.json {
        let params: Vec<Value> = set
            .params
            .iter()
            .map(|d| {
                Obj::new()
                    .set("name", d.name.as_str())
                    .set("axes", if d.is_2d { 2 } else { 1 })
                    .set("min", nums(d.min))
                    .set("max", nums(d.max))
                    .set("default", nums(d.default))
                    .set("physics", d.driven)
                    .build()
            })
            .collect();
        let anims: Vec<Value> = p
            .animations
            .iter()
            .map(|a| {
                Obj::new()
                    .set("name", a.name.as_str())
                    .num("length", a.duration())
                    .num("frames", f64::from(a.length))
                    .num("timestep", a.timestep)
                    .num("lanes", a.lanes.len() as f64)
                    .set("additive", a.additive)
                    .build()
            })
            .collect();
        let v = Obj::new()
            .set("file", args.file.display().to_string())
            .set("format", "inochi2d")
            .set("name", p.name.as_str())
            .set("version", p.version.as_str())
            .num("nodes", rig.bones.len() as f64)
            .num("drawables", rig.slots.len() as f64)
            .num("bindings", set.bindings.len() as f64)
            .num("physics", set.drivers.len() as f64)
            .num("chains", set.chains.chains.len() as f64)
            .num("textures", p.textures.len() as f64)
            .set("params", Value::Array(params))
            .set("animations", Value::Array(anims))
            .build();
        return Ok(serde_json::to_string_pretty(&v)?);
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} (Inochi2D puppet `{}`, {})",
        args.file.display(),
        p.name,
        p.version
    );
    let _ = writeln!(
        s,
        "nodes: {}, drawables: {}, bindings: {}, physics: {}, chains: {}, textures: {}",
        rig.bones.len(),
        rig.slots.len(),
        set.bindings.len(),
        set.drivers.len(),
        set.chains.chains.len(),
        p.textures.len()
    );
    let _ = writeln!(s, "parameters: {}", set.params.len());
    for d in &set.params {
        let range = |c: usize| format!("{}..{} (default {})", d.min[c], d.max[c], d.default[c]);
        let phys = if d.driven { "  [physics]" } else { "" };
        if d.is_2d {
            let _ = writeln!(s, "  {}: x {}, y {}{phys}", d.name, range(0), range(1));
        } else {
            let _ = writeln!(s, "  {}: {}{phys}", d.name, range(0));
        }
    }
    for (g, members) in &p.param_groups {
        let _ = writeln!(s, "group {g}: {}", members.join(", "));
    }
    let _ = writeln!(s, "animations: {}", p.animations.len());
    for a in &p.animations {
        let _ = write!(
            s,
            "  {}: {:.3} s ({} frames of {} s), {} lane{}",
            a.name,
            a.duration(),
            a.length,
            a.timestep,
            a.lanes.len(),
            if a.lanes.len() == 1 { "" } else { "s" }
        );
        if a.lead_in.is_some() || a.lead_out.is_some() {
            let (b, e) = a.loop_frames();
            let _ = write!(s, ", loops frames {b}..{e}");
        }
        let _ = writeln!(s, "{}", if a.additive { ", additive" } else { "" });
    }
    Ok(s)
}
