//! `sinew render PUPPET.inp [--param NAME=X[,Y] ...] [--sweep NAME] --out F.png|.gif|.apng`:
//! draws an Inochi2D puppet with sinew-render.
//!
//! The embedded PNG/TGA textures are decoded (straight alpha, premultiplied on load); each
//! Part draws its mesh with its albedo texture (`textures[0]`) and its uvs as stored (image
//! space, v down). Each frame is one [`sinew::Character::update`], and
//! [`sinew::Character::draw_list`] gives the complete list: the texture page per Part, blend
//! modes (all 19 of Inochi2D, drawn by sinew-render), hidden parts left out, composites as
//! [`sinew::draw::DrawGroup`]s with their bound opacity, tint and screen tint, positions y
//! up. Frames stream to the encoder ([`crate::stream`]; a fitted view poses them once more
//! first, for their bounds). This module only rasterises: masks (the asset's [`sinew::draw::DrawSetup`]) go
//! through [`sinew_render::MaskedRenderer`].
//!
//! Frames: one (the parameters as set) unless `--times` / `--duration` step the parameter
//! physics, or `--sweep NAME` moves that parameter's x from its minimum to its maximum and back
//! over `--duration` seconds (default 2), or `--anim NAME` plays the puppet's animation
//! (looping; default one loop of it) on top of the set parameters. Verified by the CLI tests in
//! `tests/all/inochi2d_render.rs` (every synthetic puppet renders; opaque pixels lie inside the
//! projected parts).

use crate::args::RenderArgs;
use crate::inochi::{load_puppet_with, parse_params};
use crate::render::{CanvasOptions, Output, canvas_options, fit_view};
use crate::stepping::parse_times;
use crate::stream::{Target, copy_list};
use anyhow::{Context, Result, anyhow, bail};
use sinew::draw::DrawList;
use sinew_formats::budget::Budgets;
use sinew_render::{Canvas, MaskedRenderer};

/// Runs `sinew render` on a puppet; returns a one-line summary.
pub fn render(args: &RenderArgs, out: Output, budgets: &Budgets) -> Result<String> {
    if !(args.fps.is_finite() && args.fps > 0.0) {
        bail!("--fps must be a positive number");
    }
    let file = args.file.display().to_string();
    // The textures' declared sizes are checked against the budget at load.
    let asset = load_puppet_with(budgets, &args.file, args.physics3.as_deref(), true)?;
    let puppet = crate::inochi::puppet(&asset)?;
    let rig = &*asset.rig;
    let settings = parse_params(rig, &args.params).with_context(|| file.clone())?;
    let textures = sinew_render::asset_textures(&asset).with_context(|| file.clone())?;
    let sweep = match &args.sweep {
        Some(name) => Some(rig.params.find(name).ok_or_else(|| {
            let have: Vec<&str> = rig.params.params.iter().map(|p| p.name.as_str()).collect();
            anyhow!(
                "--sweep: parameter not found: {name} (have: {})",
                have.join(", ")
            )
        })?),
        None => None,
    };
    let anim_len = crate::inochi::anim_duration(puppet, &args.anim);
    if let Some(d) = args.duration
        && !(d.is_finite() && d >= 0.0)
    {
        bail!("bad --duration {d}: must be a number of seconds >= 0");
    }
    // Frame counts are checked against the `frames` budget before any is made.
    let frames_of = |d: f64| -> Result<Vec<f64>> {
        let n = (d * args.fps).round().max(1.0);
        crate::guard::check(
            budgets,
            "frames",
            n,
            format!("--duration {d} at --fps {}", args.fps),
        )?;
        Ok((0..n as usize).map(|k| k as f64 / args.fps).collect())
    };
    let times: Vec<f64> = if let Some(t) = &args.times {
        parse_times(budgets, t).context("bad --times")?
    } else if let (Some(d), None) = (anim_len, args.duration) {
        frames_of(d)?
    } else if sweep.is_some() || args.duration.is_some() {
        frames_of(args.duration.unwrap_or(2.0))?
    } else {
        vec![0.0]
    };
    crate::render::check_frames(budgets, &times, args.fps)?;
    let CanvasOptions {
        background,
        view,
        size,
    } = canvas_options(args, &out, times.len())?;

    let anim = (!args.anim.is_empty()).then_some(args.anim.as_str());
    let span = times.last().copied().unwrap_or(0.0) + 1.0 / args.fps;
    // Frame `t` after the previous frame at `prev` (one update; a sweep sets its parameter).
    let step = |c: &mut sinew::Character, t: f64, prev: f64| -> Result<()> {
        if let Some(id) = sweep
            && let (Some(d), Some(v)) = (c.param_info(id).cloned(), c.param(id))
        {
            // Triangle wave: min at t = 0, max half way, back to min (a seamless loop).
            let phase = (t / span).rem_euclid(1.0);
            let s = 1.0 - (2.0 * phase - 1.0).abs();
            c.set_param(id, [d.min[0] + (d.max[0] - d.min[0]) * s, v[1]])
                .map_err(|e| anyhow!("{e}"))?;
        }
        c.update((t - prev).max(0.0));
        Ok(())
    };
    // A fitted view poses every frame once for the bounds, then again from a fresh character
    // while the frames stream (`crate::stream`: no frame is held).
    let mut bounds = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    if view.is_none() {
        let mut c = crate::inochi::character(&asset, &settings, anim, true)?;
        let mut prev = 0.0;
        for &t in &times {
            step(&mut c, t, prev)?;
            prev = t;
            // Pages, hidden parts, composites and y up are the library's (`draw_list`).
            if let Some(b) = c.draw_list().bounds() {
                bounds = crate::render::grow(bounds, b);
            }
        }
    }
    let b = if bounds[0] <= bounds[2] {
        bounds
    } else {
        [-100.0, -100.0, 100.0, 100.0]
    };
    let (view, w, h) = fit_view(budgets, crate::render::pad(b), view, size, args.scale)?;

    let n = times.len();
    let gpu = match args.backend {
        crate::gpu_backend::Backend::Wgpu => Some(std::sync::Mutex::new(
            crate::gpu_backend::GpuBackend::new(&textures)?,
        )),
        crate::gpu_backend::Backend::Cpu => None,
    };
    let target = Target {
        out: &out,
        path: &args.out,
        width: w,
        height: h,
        background,
        fps: args.fps,
        frames: n,
        view,
        source: &args.file,
        budgets,
    };
    let (masks, group_masks) = (&asset.draw.slot_masks, &asset.draw.group_masks);
    let mut c = crate::inochi::character(&asset, &settings, anim, true)?;
    let mut prev = 0.0;
    let workers = crate::stream::workers(n, u64::from(w) * u64::from(h), gpu.is_some());
    crate::stream::stream(
        &target,
        workers,
        |i, list| {
            step(&mut c, times[i], prev)?;
            prev = times[i];
            copy_list(list, c.draw_list());
            Ok(())
        },
        || {
            let (gpu, textures) = (&gpu, &textures);
            let mut renderer = MaskedRenderer::new();
            move |list: &DrawList, canvas: &mut Canvas| -> Result<()> {
                match gpu {
                    Some(g) => g
                        .lock()
                        .map_err(|_| anyhow!("the GPU renderer panicked"))?
                        .draw(list, masks, group_masks, &view, background, canvas),
                    None => {
                        renderer.render_grouped(list, textures, masks, group_masks, &view, canvas);
                        Ok(())
                    }
                }
            }
        },
    )?;
    Ok(format!(
        "wrote {}: {n} frame{} {w}x{h}, view {},{},{},{}\n",
        args.out.display(),
        if n == 1 { "" } else { "s" },
        view.x0,
        view.y0,
        view.x1,
        view.y1
    ))
}
