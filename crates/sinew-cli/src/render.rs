//! `sinew render`: poses a skeleton like `dump` (same stepping, through [`crate::pose`]) and
//! draws it with sinew-render to a PNG, a numbered PNG sequence, an animated GIF or an APNG.
//!
//! Contract (other tools call it; keep it exact):
//! `sinew render SKEL.json [--atlas FILE|none] --anim NAME [--skin A,B] [--fps 30]
//! [--duration S | --times LIST] [--size WxH] [--scale S] [--view X0,Y0,X1,Y1]
//! [--background #rrggbbaa] --out FILE`.
//! - Frames: `--times` lists them; `--duration S` takes `round(S * fps)` frames `k / fps`;
//!   otherwise one loop of the animation (a single `.png` without `%d`: time 0). The clock
//!   steps at `1 / fps` exactly as `dump` does, so physics matches the oracle's schedule.
//! - View: `--view` is the world rectangle (y up, X0,Y0 the bottom-left corner) that fills the
//!   image exactly. Otherwise the bounds of every frame's attachments, padded 5% on each side,
//!   are fitted into `--size` (centred, aspect kept), or scaled by `--scale` pixels per unit,
//!   or fitted so the longer side is 512 pixels.
//! - Output by extension: `.png` (one frame; `%04d`-style patterns number a sequence from 0),
//!   `.gif`, `.apng`. The background defaults to transparent (white for GIF, which has no
//!   partial transparency).
//! - The atlas defaults to `<name>.atlas` beside the skeleton (also without a `-pro`/`-ess`
//!   suffix), else the only `.atlas` in its folder (`.` for a bare file name,
//!   [`crate::guard::only_atlas`]); `--atlas none` draws untextured (slot colours).
//!
//! - A render whose every frame draws nothing (a default skin without attachments, as
//!   mix-and-match's) is refused before anything is written, naming the skins shown and
//!   the rig's skins to pick with `--skin`.
//! - DragonBones skeletons (told from the content) take `--atlas` as their `*_tex.json`
//!   (default: `<name>_tex.json` beside `<name>_ske.json`; `none`: untextured).
//! - Inochi2D puppets (`.inp`, `.inx`) are drawn by [`crate::inochi_render`] (`--param`,
//!   `--sweep`; `--anim` is for Spine skeletons only).
//!
//! Frames stream ([`crate::stream`]): posed in order on this thread, rasterised and encoded
//! on every core, written in order and dropped, so memory is bounded whatever the frame
//! count (a fitted view poses the frames once more first, for their bounds); a progress bar
//! on stderr when it is a terminal. Verified by the unit tests below (argument parsing, view fitting) and by the CLI
//! tests, which render the example character to every format.

use crate::args::{Mode, PhysicsArg, RenderArgs};
use crate::pose::{self, Session, SessionSpec};
use crate::stepping::{Clock, parse_times};
use crate::stream::{Target, copy_list};
use anyhow::{Context, Result, anyhow, bail};
use sinew::Color;
use sinew::draw::DrawList;
use sinew_formats::budget::Budgets;
use sinew_render::{Canvas, Renderer, View};
use std::path::{Path, PathBuf};

/// The output format, from the file name.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// One PNG.
    Png,
    /// A numbered PNG sequence (the name holds a `%d` / `%0Nd` pattern).
    PngSequence,
    /// Animated GIF.
    Gif,
    /// Animated PNG.
    Apng,
}

impl Output {
    /// The format a file name asks for.
    pub fn from_path(path: &Path) -> Result<Self> {
        let name = path.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".gif") {
            Ok(Output::Gif)
        } else if name.ends_with(".apng") {
            Ok(Output::Apng)
        } else if name.ends_with(".png") {
            if let Some(start) = name.find('%')
                && frame_pattern(&name).is_none()
                && name[start + 1..]
                    .bytes()
                    .take_while(u8::is_ascii_digit)
                    .count()
                    > 0
            {
                bail!(
                    "--out {}: a frame number is at most 20 digits wide (%04d)",
                    path.display()
                );
            }
            Ok(if frame_pattern(&name).is_some() {
                Output::PngSequence
            } else {
                Output::Png
            })
        } else {
            bail!(
                "--out {}: the name must end in .png, .gif or .apng",
                path.display()
            )
        }
    }
}

/// The `%d` / `%0Nd` pattern in a file name: (byte range, zero-padded width).
fn frame_pattern(name: &str) -> Option<(std::ops::Range<usize>, usize)> {
    let start = name.find('%')?;
    let rest = &name[start + 1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if rest.as_bytes().get(digits) != Some(&b'd') {
        return None;
    }
    // Widths beyond 20 digits (a usize's) are not a pattern (`%0999999d`).
    let width = rest[..digits].parse::<usize>().ok().filter(|w| *w <= 20);
    if digits > 0 && width.is_none() {
        return None;
    }
    Some((start..start + digits + 2, width.unwrap_or(0)))
}

/// The file name of frame `index` of a sequence.
pub fn sequence_path(out: &Path, index: usize) -> PathBuf {
    let name = out.to_string_lossy();
    match frame_pattern(&name) {
        Some((range, width)) => PathBuf::from(format!(
            "{}{index:0width$}{}",
            &name[..range.start],
            &name[range.end..]
        )),
        None => out.to_path_buf(),
    }
}

/// The canvas options every render shares.
pub struct CanvasOptions {
    /// `--background`, else white for a GIF and transparent otherwise.
    pub background: Color,
    /// `--view`.
    pub view: Option<View>,
    /// `--size`.
    pub size: Option<(u32, u32)>,
}

/// Reads the [`CanvasOptions`], after refusing several frames for one `.png`.
pub fn canvas_options(args: &RenderArgs, out: &Output, frames: usize) -> Result<CanvasOptions> {
    if *out == Output::Png && frames > 1 {
        bail!(
            "{frames} frames cannot go to one .png: use a %04d pattern in the name, .gif or .apng"
        );
    }
    let background = match &args.background {
        Some(s) => parse_color(s)?,
        None if *out == Output::Gif => Color::WHITE,
        None => Color::new(0.0, 0.0, 0.0, 0.0),
    };
    let view = args.view.as_deref().map(parse_view).transpose()?;
    let size = args.size.as_deref().map(parse_size).transpose()?;
    Ok(CanvasOptions {
        background,
        view,
        size,
    })
}

/// Parses `#rrggbbaa` or `#rrggbb` (the `#` optional).
pub fn parse_color(s: &str) -> Result<Color> {
    let hex = s.trim().trim_start_matches('#');
    let bad = || anyhow!("bad --background `{s}`: expected #rrggbbaa or #rrggbb");
    if !(hex.len() == 6 || hex.len() == 8) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let ch = |i: usize| {
        u8::from_str_radix(&hex[i..i + 2], 16)
            .map(|v| f32::from(v) / 255.0)
            .map_err(|_| bad())
    };
    let a = if hex.len() == 8 { ch(6)? } else { 1.0 };
    Ok(Color::new(ch(0)?, ch(2)?, ch(4)?, a))
}

/// Parses `WxH`.
pub fn parse_size(s: &str) -> Result<(u32, u32)> {
    let bad = || anyhow!("bad --size `{s}`: expected WxH, e.g. 512x384");
    let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (u32, u32) = (
        w.trim().parse().map_err(|_| bad())?,
        h.trim().parse().map_err(|_| bad())?,
    );
    if w == 0 || h == 0 {
        return Err(bad());
    }
    Ok((w, h))
}

/// Parses `X0,Y0,X1,Y1`.
pub fn parse_view(s: &str) -> Result<View> {
    let bad = || anyhow!("bad --view `{s}`: expected X0,Y0,X1,Y1 with X0 < X1 and Y0 < Y1");
    let v: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    let [x0, y0, x1, y1] = v.as_slice() else {
        return Err(bad());
    };
    if !(x0 < x1 && y0 < y1) || v.iter().any(|c| !c.is_finite()) {
        return Err(bad());
    }
    Ok(View {
        x0: *x0,
        y0: *y0,
        x1: *x1,
        y1: *y1,
    })
}

/// The view and image size for `bounds` (already padded) or an explicit `view`.
pub fn fit_view(
    budgets: &Budgets,
    bounds: [f64; 4],
    view: Option<View>,
    size: Option<(u32, u32)>,
    scale: Option<f64>,
) -> Result<(View, u32, u32)> {
    if let Some(s) = scale
        && !(s.is_finite() && s > 0.0)
    {
        bail!("bad --scale {s}: must be a positive number of pixels per world unit");
    }
    if view.is_none() && !bounds.iter().all(|b| b.is_finite()) {
        bail!(
            "the drawn bounds {bounds:?} are not finite: pass --view X0,Y0,X1,Y1 to choose what to draw"
        );
    }
    if let Some(v) = view {
        let (w, h) = match (size, scale) {
            (Some(s), _) => s,
            (None, s) => {
                let s = s.unwrap_or(1.0);
                (
                    ((v.x1 - v.x0) * s).round().max(1.0) as u32,
                    ((v.y1 - v.y0) * s).round().max(1.0) as u32,
                )
            }
        };
        return check_size(budgets, v, w, h);
    }
    if let (Some((w, h)), None) = (size, scale) {
        // The library's fit: centred, aspect kept.
        let [x0, y0, x1, y1] = sinew::character::fit_view(bounds, w, h);
        if ![x0, y0, x1, y1].iter().all(|v| v.is_finite()) {
            bail!("nothing to fit: the drawn bounds are not finite");
        }
        return check_size(budgets, View { x0, y0, x1, y1 }, w, h);
    }
    let (bw, bh) = (
        (bounds[2] - bounds[0]).max(1e-6),
        (bounds[3] - bounds[1]).max(1e-6),
    );
    let (cx, cy) = ((bounds[0] + bounds[2]) / 2.0, (bounds[1] + bounds[3]) / 2.0);
    let (w, h, s) = match (size, scale) {
        (Some((w, h)), Some(s)) => (w, h, s),
        (Some((w, h)), None) => (w, h, (f64::from(w) / bw).min(f64::from(h) / bh)),
        (None, s) => {
            let s = s.unwrap_or(512.0 / bw.max(bh));
            (
                (bw * s).ceil().max(1.0) as u32,
                (bh * s).ceil().max(1.0) as u32,
                s,
            )
        }
    };
    if !(s.is_finite() && s > 0.0) {
        bail!("the drawn bounds {bounds:?} give no finite scale: pass --scale or --view");
    }
    let (hw, hh) = (f64::from(w) / s / 2.0, f64::from(h) / s / 2.0);
    check_size(
        budgets,
        View {
            x0: cx - hw,
            y0: cy - hh,
            x1: cx + hw,
            y1: cy + hh,
        },
        w,
        h,
    )
}

fn check_size(budgets: &Budgets, v: View, w: u32, h: u32) -> Result<(View, u32, u32)> {
    if w > 16384 || h > 16384 {
        bail!(
            "image {w}x{h} (from --size, --scale or --view) is too large (at most 16384 pixels a side)"
        );
    }
    crate::guard::check(
        budgets,
        "canvas_pixels",
        f64::from(w) * f64::from(h),
        format!("an image of {w}x{h} (from --size, --scale or --view)"),
    )?;
    if !([v.x0, v.y0, v.x1, v.y1].iter().all(|c| c.is_finite()) && v.x0 < v.x1 && v.y0 < v.y1) {
        bail!(
            "the view {},{},{},{} is not a finite rectangle",
            v.x0,
            v.y0,
            v.x1,
            v.y1
        );
    }
    Ok((v, w, h))
}

/// Why a Spine skeleton rendered without `--atlas` has none: no `<stem>.atlas` (or
/// `<base>.atlas` for `<base>-pro` / `<base>-ess`) beside it and not exactly one `.atlas` in
/// its folder; names the `.atlas` files there.
fn no_atlas(skel: &Path) -> anyhow::Error {
    let found: Vec<String> = crate::guard::atlases_beside(skel)
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    anyhow!(
        "no atlas found for {}: pass --atlas FILE, or --atlas none to draw untextured (.atlas files there: {})",
        skel.display(),
        if found.is_empty() {
            "none".to_owned()
        } else {
            found.join(", ")
        }
    )
}

/// Why a render is refused when no frame draws anything: the skins shown and the rig's
/// skins to choose from.
fn draws_nothing(args: &RenderArgs, rig: &sinew::Rig, frames: usize) -> anyhow::Error {
    let shown = match &args.skin {
        Some(s) => format!("--skin {s}"),
        None => match rig.default_skin {
            Some(d) => format!("the default skin `{}`", rig.skins[d.index()].name),
            None => "no skin (the rig has no default skin)".to_owned(),
        },
    };
    let skins: Vec<&str> = rig.skins.iter().map(|s| s.name.as_str()).collect();
    anyhow!(
        "{}: the render draws nothing: {shown} shows no attachment in `{}` at any of its {frames} \
         frames; choose skins with --skin A,B (skins: {}); nothing written",
        args.file.display(),
        args.anim,
        if skins.is_empty() {
            "none".to_owned()
        } else {
            skins.join(", ")
        }
    )
}

/// What `--atlas` asks a load for: `none` untextured, a file, or (not given) the one beside
/// the skeleton.
pub(crate) fn atlas_arg(atlas: Option<&str>) -> Option<Option<&Path>> {
    match atlas {
        Some("none") => Some(None),
        Some(p) => Some(Some(Path::new(p))),
        None => None,
    }
}

/// The frame times the arguments ask for.
fn frame_times(
    budgets: &Budgets,
    args: &RenderArgs,
    duration: f64,
    out: &Output,
) -> Result<Vec<f64>> {
    if let Some(spec) = &args.times {
        let t = parse_times(budgets, spec)?;
        if t.is_empty() {
            bail!("--times `{spec}` names no time");
        }
        return Ok(t);
    }
    let d = match args.duration {
        Some(d) if !(d.is_finite() && d >= 0.0) => {
            bail!("bad --duration {d}: must be a number of seconds >= 0")
        }
        Some(d) => d,
        None if *out == Output::Png => 0.0,
        None => duration,
    };
    let n = (d * args.fps).round().max(1.0);
    crate::guard::check(
        budgets,
        "frames",
        n,
        format!("--duration {d} at --fps {}", args.fps),
    )?;
    Ok((0..n as usize).map(|k| k as f64 / args.fps).collect())
}

/// Checks the frames and clock steps a render asks for against the budgets.
pub fn check_frames(budgets: &Budgets, times: &[f64], fps: f64) -> Result<()> {
    let what = format!(
        "{} frames up to t = {} at --fps {fps}",
        times.len(),
        times.last().copied().unwrap_or(0.0)
    );
    crate::guard::check(budgets, "frames", times.len() as f64, what.clone())?;
    crate::guard::clock_work(
        budgets,
        times.len(),
        times.last().copied().unwrap_or(0.0),
        fps,
        1.0,
        &what,
    )
}

/// Runs `sinew render`; returns a one-line summary.
pub fn render(args: &RenderArgs, budgets: &Budgets) -> Result<String> {
    let out = Output::from_path(&args.out)?;
    if !(args.fps.is_finite() && args.fps > 0.0) {
        bail!("--fps must be a positive number");
    }
    let format = crate::guard::Format::of(budgets, &args.file)?;
    if format != crate::guard::Format::DragonBones {
        crate::guard::not_for(
            format.name(),
            &args.file,
            "--armature",
            args.armature.is_some(),
        )?;
    }
    if format == crate::guard::Format::Puppet {
        return crate::inochi_render::render(args, out, budgets);
    }
    if args.anim.is_empty() {
        bail!("--anim NAME is required to render a Spine skeleton");
    }
    // `--atlas` names the `.atlas` or `*_tex.json` (default: the one beside the skeleton;
    // `none`: untextured); the page images come with the asset, their declared sizes
    // checked against the texture budget before anything decodes them.
    let load = crate::guard::LoadArgs {
        atlas: atlas_arg(args.atlas.as_deref()),
        extras: args.extras.as_deref(),
        armature: args.armature.as_deref(),
        textures: true,
        ..Default::default()
    };
    let asset = crate::guard::load(budgets, &args.file, load)?;
    if format == crate::guard::Format::Spine && args.atlas.is_none() && asset.atlas.is_none() {
        return Err(no_atlas(&args.file));
    }
    let rig = &*asset.rig;
    let file = args.file.display().to_string();
    let skins = pose::resolve_skins(rig, args.skin.as_deref()).with_context(|| file.clone())?;
    let clip = pose::find_clip(rig, &args.anim).with_context(|| file.clone())?;
    let textures = sinew_render::asset_textures(&asset)?;
    let times = frame_times(budgets, args, pose::clip_duration(rig, clip), &out)?;
    check_frames(budgets, &times, args.fps)?;
    let CanvasOptions {
        background,
        view,
        size,
    } = canvas_options(args, &out, times.len())?;

    // Frames are posed in order (the animation and physics are sequential), twice when the
    // view is fitted: once for the bounds of every frame, then again, from a fresh session,
    // while the frames stream to the encoder (no frame is held; see `crate::stream`).
    let spec = SessionSpec {
        skins,
        mode: Mode::State,
        anim: Some(clip),
        from: None,
        at: 0.0,
        mix: 0.0,
        looping: true,
        physics: PhysicsArg::Update,
        layers: Default::default(),
    };
    let start = || -> Result<(Session, Clock)> {
        let mut session = Session::new(&asset, &spec)?;
        // Nothing reads a render's events: keeping them would grow with the frame count.
        session.set_collect_events(false);
        session.step(0.0);
        Ok((session, Clock::new(args.fps)))
    };
    let mut bounds = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    // The bounds pass also tells a render that would draw nothing (a default skin with no
    // attachment, as mix-and-match's): refused naming the skins rather than written as an
    // empty image. With `--view` it stops at the first frame that draws.
    {
        let (mut session, mut clock) = start()?;
        for &t in &times {
            clock.advance_to(t, |dt| session.step(dt));
            if let Some(b) = session.character_mut().draw_list().bounds() {
                bounds = grow(bounds, b);
                if view.is_some() {
                    break;
                }
            }
        }
    }
    if bounds[0] > bounds[2] {
        return Err(draws_nothing(args, rig, times.len()));
    }
    let (view, w, h) = fit_view(budgets, pad(bounds), view, size, args.scale)?;

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
        frames: times.len(),
        view,
        source: &args.file,
        budgets,
    };
    let (mut session, mut clock) = start()?;
    let workers = crate::stream::workers(times.len(), u64::from(w) * u64::from(h), gpu.is_some());
    crate::stream::stream(
        &target,
        workers,
        |i, list| {
            clock.advance_to(times[i], |dt| session.step(dt));
            copy_list(list, session.character_mut().draw_list());
            Ok(())
        },
        || {
            let (gpu, textures) = (&gpu, &textures);
            let mut renderer = Renderer::new();
            move |list: &DrawList, canvas: &mut Canvas| -> Result<()> {
                match gpu {
                    Some(g) => g
                        .lock()
                        .map_err(|_| anyhow!("the GPU renderer panicked"))?
                        .draw(list, &[], &[], &view, background, canvas),
                    None => {
                        renderer.render(list, textures, &view, canvas);
                        Ok(())
                    }
                }
            }
        },
    )?;
    Ok(format!(
        "wrote {}: {} frame{} {w}x{h}, view {},{},{},{}\n",
        args.out.display(),
        times.len(),
        if times.len() == 1 { "" } else { "s" },
        view.x0,
        view.y0,
        view.x1,
        view.y1
    ))
}

/// `bounds` grown by the box `b` (x0, y0, x1, y1).
pub(crate) fn grow(bounds: [f64; 4], b: [f32; 4]) -> [f64; 4] {
    [
        bounds[0].min(f64::from(b[0])),
        bounds[1].min(f64::from(b[1])),
        bounds[2].max(f64::from(b[2])),
        bounds[3].max(f64::from(b[3])),
    ]
}

/// `bounds` padded by 5% of its size on each side.
pub(crate) fn pad(bounds: [f64; 4]) -> [f64; 4] {
    let (px, py) = (
        0.05 * (bounds[2] - bounds[0]),
        0.05 * (bounds[3] - bounds[1]),
    );
    [
        bounds[0] - px,
        bounds[1] - py,
        bounds[2] + px,
        bounds[3] + py,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_contract_forms() {
        assert_eq!(parse_size("292x384").unwrap(), (292, 384));
        assert!(parse_size("0x5").is_err() && parse_size("12").is_err());
        let v = parse_view("-303.116,-28.602,235.916,680.262").unwrap();
        assert_eq!(
            v,
            View {
                x0: -303.116,
                y0: -28.602,
                x1: 235.916,
                y1: 680.262
            }
        );
        assert!(parse_view("1,2,0,3").is_err() && parse_view("1,2,3").is_err());
        assert_eq!(
            parse_color("#ff000080").unwrap(),
            Color::new(1.0, 0.0, 0.0, 128.0 / 255.0)
        );
        assert_eq!(
            parse_color("00ff00").unwrap(),
            Color::new(0.0, 1.0, 0.0, 1.0)
        );
        assert!(parse_color("#12345").is_err());
    }

    #[test]
    fn output_kinds_and_sequence_names() {
        assert_eq!(
            Output::from_path(Path::new("a/b.png")).unwrap(),
            Output::Png
        );
        assert_eq!(
            Output::from_path(Path::new("f%04d.png")).unwrap(),
            Output::PngSequence
        );
        assert_eq!(Output::from_path(Path::new("x.GIF")).unwrap(), Output::Gif);
        assert_eq!(
            Output::from_path(Path::new("x.apng")).unwrap(),
            Output::Apng
        );
        assert!(Output::from_path(Path::new("x.jpg")).is_err());
        assert_eq!(
            sequence_path(Path::new("out/f%04d.png"), 7),
            PathBuf::from("out/f0007.png")
        );
        assert_eq!(
            sequence_path(Path::new("f%d.png"), 12),
            PathBuf::from("f12.png")
        );
    }

    #[test]
    fn fits_bounds_or_takes_the_view() {
        // A 100x50 box into 200x200: scale 2, the view grows vertically, centred.
        let (v, w, h) = fit_view(
            &Budgets::DEFAULT,
            [0.0, 0.0, 100.0, 50.0],
            None,
            Some((200, 200)),
            None,
        )
        .unwrap();
        assert_eq!((w, h), (200, 200));
        assert_eq!(
            v,
            View {
                x0: 0.0,
                y0: -25.0,
                x1: 100.0,
                y1: 75.0
            }
        );
        // Default: the longer side is 512 pixels.
        let (_, w, h) =
            fit_view(&Budgets::DEFAULT, [0.0, 0.0, 100.0, 50.0], None, None, None).unwrap();
        assert_eq!((w, h), (512, 256));
        // An explicit view fills the image exactly, whatever its aspect.
        let view = View {
            x0: -1.0,
            y0: -2.0,
            x1: 3.0,
            y1: 4.0,
        };
        assert_eq!(
            fit_view(
                &Budgets::DEFAULT,
                [0.0; 4],
                Some(view),
                Some((10, 10)),
                None
            )
            .unwrap(),
            (view, 10, 10)
        );
        assert_eq!(
            fit_view(&Budgets::DEFAULT, [0.0; 4], Some(view), None, Some(2.0)).unwrap(),
            (view, 8, 12)
        );
        assert!(
            fit_view(
                &Budgets::DEFAULT,
                [0.0; 4],
                Some(view),
                Some((20000, 10)),
                None
            )
            .is_err()
        );
    }
}
