//! `sinew render PUPPET.inp [--param NAME=X[,Y] ...] [--sweep NAME] --out F.png|.gif|.apng`:
//! draws an Inochi2D puppet with sinew-render.
//!
//! The embedded PNG/TGA textures are decoded (straight alpha, premultiplied on load); each
//! Part draws its mesh with its albedo texture (`textures[0]`) and its uvs as stored (image
//! space, v down); blend modes come from the loader (all 19 of Inochi2D, drawn by
//! sinew-render); masks go through
//! [`sinew_render::MaskedRenderer`]. Composites render off-screen: each frame the draw list's
//! runs of a composite's children become [`sinew::draw::DrawGroup`]s ([`composite_groups`]),
//! drawn onto a transparent layer that is composited once with the composite's blend mode,
//! opacity, tint, screen tint (each with its parameter bindings applied) and masks. A Part's
//! screen tint shades its texels (`DrawCommand::screen`). Puppet space is y down, so positions are flipped
//! into the renderer's y-up world.
//!
//! Frames: one (the parameters as set) unless `--times` / `--duration` step the parameter
//! physics, or `--sweep NAME` moves that parameter's x from its minimum to its maximum and back
//! over `--duration` seconds (default 2), or `--anim NAME` plays the puppet's animation
//! (looping; default one loop of it) on top of the set parameters. Verified by the CLI tests in
//! `tests/inochi2d_render.rs` (every synthetic puppet renders; opaque pixels lie inside the
//! projected parts).

use crate::args::RenderArgs;
use crate::inochi::{load_puppet_with, parse_params};
use crate::render::{CanvasOptions, Output, canvas_options, fit_view, sequence_path};
use crate::stepping::parse_times;
use anyhow::{Context, Result, anyhow, bail};
use sinew::draw::{DrawGroup, DrawList, build_draw_list};
use sinew::params::update_params;
use sinew::{Color, Instance};
use sinew_formats::inochi2d::{DrawInfo, MaskMode, Puppet};
use sinew_render::encode::{AnimationWriter, gif_delays, gif_frame, gif_pixels, write_png};
use sinew_render::{Canvas, MaskedRenderer, SlotMask, Texture};

/// Decodes the puppet's embedded textures (errors name the texture index).
pub fn puppet_textures(p: &Puppet) -> Result<Vec<Texture>> {
    p.textures
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if t.bytes.is_empty() {
                return Ok(Texture::white()); // an empty texture slot
            }
            Texture::decode(&t.bytes, false)
                .map_err(|e| anyhow!("texture {i} ({}): cannot decode: {e}", t.sniff()))
        })
        .collect()
}

/// Per slot: the albedo texture index and the mask sources.
pub fn slot_draw_info(p: &Puppet, rig: &sinew::Rig) -> (Vec<Option<u32>>, Vec<SlotMask>) {
    let n = rig.slots.len();
    let (mut pages, mut masks) = (vec![None; n], vec![SlotMask::default(); n]);
    for d in p.draw.iter().filter(|d| !d.composite) {
        let Some(s) = rig.slot(&d.name) else { continue };
        pages[s.index()] = d.textures[0];
        masks[s.index()] = mask_of(d, rig);
    }
    (pages, masks)
}

/// The mask of a Part or Composite: its threshold and its sources that name a slot.
fn mask_of(d: &DrawInfo, rig: &sinew::Rig) -> SlotMask {
    let mut m = SlotMask {
        threshold: d.mask_threshold,
        ..SlotMask::default()
    };
    for (src, mode) in &d.masks {
        if let Some(s) = rig.slot(src) {
            m.sources.push((s, *mode == MaskMode::DodgeMask));
        }
    }
    m
}

/// Per bone: the off-screen group of the Composite on that bone (its blend mode, tint, screen
/// tint and opacity; `first`/`count` are filled per frame by [`DrawList::group_runs`]) and
/// its mask sources. Only outermost composites group (the loader's `slot_group`); a nested
/// composite draws its children straight into the outer layer. COMPAT(inochi2d): so does
/// the 0.8 reference, whose Composite collects the Parts of its whole subtree, through any
/// nested Composite, and draws them into its one buffer.
pub fn composite_groups(p: &Puppet, rig: &sinew::Rig) -> (Vec<Option<DrawGroup>>, Vec<SlotMask>) {
    let n = rig.bones.len();
    let (mut groups, mut masks) = (vec![None; n], vec![SlotMask::default(); n]);
    for d in p.draw.iter().filter(|d| d.composite) {
        let Some(bone) = rig.bone(&d.name) else {
            continue;
        };
        let [r, g, bl] = d.tint;
        let [sr, sg, sb] = d.screen_tint;
        groups[bone.index()] = Some(DrawGroup {
            bone,
            first: 0,
            count: 0,
            blend: d.blend,
            color: Color::new(r, g, bl, d.opacity),
            screen: Color::new(sr, sg, sb, 1.0),
        });
        masks[bone.index()] = mask_of(d, rig);
    }
    (groups, masks)
}

/// A composite's layer colours with its parameter bindings applied: opacity and tint
/// multiplied, screen tint added (inochi2d.md §3).
fn bound_group(mut g: DrawGroup, o: &sinew::params::SlotOffset) -> DrawGroup {
    g.color = o.tinted(g.color);
    let [r, gr, b] = o.screened([g.screen.r, g.screen.g, g.screen.b]);
    g.screen = Color::new(r, gr, b, g.screen.a);
    g
}

/// Runs `sinew render` on a puppet; returns a one-line summary.
pub fn render(args: &RenderArgs, out: Output) -> Result<String> {
    if !(args.fps.is_finite() && args.fps > 0.0) {
        bail!("--fps must be a positive number");
    }
    let file = args.file.display().to_string();
    let (puppet, rig) = load_puppet_with(&args.file, args.physics3.as_deref())?;
    let settings = parse_params(&rig, &args.params).with_context(|| file.clone())?;
    let textures = puppet_textures(&puppet).with_context(|| file.clone())?;
    let (pages, masks) = slot_draw_info(&puppet, &rig);
    let (groups, group_masks) = composite_groups(&puppet, &rig);
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
    let anim_len = crate::inochi::anim_duration(&puppet, &args.anim);
    let times: Vec<f64> = if let Some(t) = &args.times {
        parse_times(t).context("bad --times")?
    } else if let (Some(d), None) = (anim_len, args.duration) {
        let n = (d * args.fps).round().max(1.0) as usize;
        (0..n).map(|k| k as f64 / args.fps).collect()
    } else if sweep.is_some() || args.duration.is_some() {
        let n = (args.duration.unwrap_or(2.0) * args.fps).round().max(1.0) as usize;
        (0..n).map(|k| k as f64 / args.fps).collect()
    } else {
        vec![0.0]
    };
    let CanvasOptions {
        background,
        view,
        size,
    } = canvas_options(args, &out, times.len())?;

    let mut inst = Instance::new(&rig);
    for &(id, v) in &settings {
        inst.params.set(&rig, id, v);
    }
    let mut anim = (!args.anim.is_empty())
        .then(|| crate::inochi::AnimDriver::new(&puppet, &rig, &inst, &args.anim, true))
        .transpose()?;
    let span = times.last().copied().unwrap_or(0.0) + 1.0 / args.fps;
    let mut lists = Vec::with_capacity(times.len());
    let mut bounds = [
        f32::INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NEG_INFINITY,
    ];
    let mut prev = 0.0;
    for &t in &times {
        if let Some(a) = anim.as_mut() {
            a.step(&puppet, &rig, &mut inst, (t - prev).max(0.0));
        }
        if let Some(id) = sweep {
            let d = &rig.params.params[id.index()];
            // Triangle wave: min at t = 0, max half way, back to min (a seamless loop).
            let phase = (t / span).rem_euclid(1.0);
            let s = 1.0 - (2.0 * phase - 1.0).abs();
            let y = inst.params.values[id.index()][1];
            inst.params
                .set(&rig, id, [d.min[0] + (d.max[0] - d.min[0]) * s, y]);
        }
        update_params(&rig, &mut inst, (t - prev).max(0.0), true);
        prev = t;
        let mut list = DrawList::for_rig(&rig);
        build_draw_list(&rig, &inst, Color::WHITE, &mut list);
        list.commands.retain(|c| {
            inst.params
                .visible
                .get(c.slot.index())
                .copied()
                .unwrap_or(true)
        });
        for c in &mut list.commands {
            // A part without a texture draws white (the renderer's missing-page stand-in).
            c.page = pages
                .get(c.slot.index())
                .copied()
                .flatten()
                .unwrap_or(u32::MAX);
        }
        list.group_runs(|s| {
            let bone = rig.params.slot_group.get(s.index()).copied().flatten()?;
            let group = groups.get(bone.index()).copied().flatten()?;
            Some(match inst.params.group.get(bone.index()) {
                Some(o) => bound_group(group, o),
                None => group,
            })
        });
        // COMPAT(inochi2d): puppet space is y down; the renderer's world is y up.
        for p in list.positions.chunks_exact_mut(2) {
            p[1] = -p[1];
        }
        if let Some(b) = list.bounds() {
            bounds = [
                bounds[0].min(b[0]),
                bounds[1].min(b[1]),
                bounds[2].max(b[2]),
                bounds[3].max(b[3]),
            ];
        }
        lists.push(list);
    }
    let b = if bounds[0] <= bounds[2] {
        bounds.map(f64::from)
    } else {
        [-100.0, -100.0, 100.0, 100.0]
    };
    let (px, py) = (0.05 * (b[2] - b[0]), 0.05 * (b[3] - b[1]));
    let padded = [b[0] - px, b[1] - py, b[2] + px, b[3] + py];
    let (view, w, h) = fit_view(padded, view, size, args.scale)?;

    let n = lists.len();
    let mut writer = match out {
        Output::Gif => Some(AnimationWriter::gif(&args.out, w, h)?),
        Output::Apng => Some(AnimationWriter::apng(&args.out, w, h, n as u32, args.fps)?),
        _ => None,
    };
    let delays: Vec<u16> = gif_delays(n, args.fps).collect();
    let mut renderer = MaskedRenderer::new();
    let mut canvas = Canvas::new(w, h, background);
    for (i, list) in lists.iter().enumerate() {
        canvas.clear(background);
        renderer.render_grouped(list, &textures, &masks, &group_masks, &view, &mut canvas);
        match (&out, writer.as_mut()) {
            (Output::Gif, Some(wr)) => wr.push_gif(&gif_frame(
                w,
                h,
                gif_pixels(&canvas, background),
                delays.get(i).copied().unwrap_or(3),
            ))?,
            (Output::Apng, Some(wr)) => wr.push_rgba(&canvas.to_rgba8())?,
            _ => {
                let path = if out == Output::Png {
                    args.out.clone()
                } else {
                    sequence_path(&args.out, i)
                };
                write_png(&path, w, h, &canvas.to_rgba8())?;
            }
        }
    }
    if let Some(wr) = writer {
        wr.finish()
            .with_context(|| format!("writing {}", args.out.display()))?;
    }
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
