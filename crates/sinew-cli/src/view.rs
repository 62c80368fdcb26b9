//! `sinew view`: opens the desktop viewer (crate `sinew-view`, the `view` feature, off by
//! default: without it `sinew view` fails with [`NOT_BUILT`], which says how to get it) on a
//! file, with the loaders the other commands use. Scripted with `--screenshot`: runs
//! `--frames` frames, saves the window's image and exits (1 when the file did not load);
//! `--overlay` and `--cage` set what the panel's overlay and cage toggles would;
//! `--extras` (Spine; default the skeleton's sibling `<stem>.extras.json`) and `--physics3`
//! (puppets) load what `render` loads with them, refused for other formats; `--input`
//! plays scripted pointer input (drag a jiggle slider or a cage point, click "save
//! extras") and `--save-extras` says where the tuned extras go.
//! Verified by `tests/all/view.rs` under Xvfb.

use crate::args::ViewArgs;
use anyhow::{Result, anyhow};
use sinew_formats::budget::Budgets;

/// What `sinew view` says in a sinew built without the `view` feature.
pub const NOT_BUILT: &str = "this sinew was built without the viewer (cargo feature `view`, off by \
     default to keep the first build fast); run it with: \
     cargo run --release -p sinew-cli --features view -- view FILE";

/// Parses `--param NAME=X[,Y]` (Y defaults to 0) without a rig; the viewer checks names.
pub fn parse_param(spec: &str) -> Result<(String, [f64; 2])> {
    let bad = || anyhow!("bad --param `{spec}`: expected NAME=X or NAME=X,Y");
    let (name, val) = spec.rsplit_once('=').ok_or_else(bad)?;
    let parts: Vec<&str> = val.split(',').map(str::trim).collect();
    if name.trim().is_empty() {
        return Err(anyhow!(
            "bad --param `{spec}`: the parameter name before `=` is empty (expected NAME=X or NAME=X,Y)"
        ));
    }
    if parts.len() > 2 {
        return Err(bad());
    }
    let mut v = [0.0; 2];
    for (k, p) in parts.iter().enumerate() {
        match p.parse::<f64>() {
            Ok(x) if x.is_finite() => v[k] = x,
            _ => {
                return Err(anyhow!(
                    "bad --param `{spec}`: `{p}` is not a finite number"
                ));
            }
        }
    }
    Ok((name.to_owned(), v))
}

/// Loads any format for the viewer with `opts` (the viewer's companions: the command line's
/// files for the file it names, the rig extras beside a skeleton), within the command's
/// budgets. Options that do not apply to the file's format were refused before the window
/// opened ([`check_options`]); the loader refuses the rest with what the file is.
#[cfg(feature = "view")]
fn load_any(
    path: &std::path::Path,
    opts: &sinew_formats::LoadOptions,
    budgets: &Budgets,
) -> Result<sinew_formats::Asset> {
    let mut options = sinew_formats::LoadOptions {
        budgets: *budgets,
        ..opts.clone()
    };
    // A Spine skeleton's only atlas in its folder, as `render` finds it.
    if options.atlas == sinew_formats::Companion::Beside
        && let Some(only) = crate::guard::only_atlas(path)
        && matches!(
            crate::guard::detect_file(budgets, path),
            Ok(sinew_formats::Format::SpineJson | sinew_formats::Format::SpineSkel)
        )
    {
        let files = sinew_formats::FileCompanions::beside(path, *budgets);
        options.atlas = sinew_formats::Companion::Named(files.given(&only));
    }
    sinew_formats::load(path, &options).map_err(crate::guard::load_error)
}

/// Refuses, before the window opens, `--atlas` / `--extras` / `--physics3` files that cannot
/// be read and options that do not apply to FILE's format (as `render` and `dump` do). A
/// FILE that cannot be told apart is left to the window, which shows why it does not load.
fn check_options(args: &ViewArgs, budgets: &Budgets) -> Result<()> {
    use crate::guard::{Format, input_opt};
    let given = [
        ("--atlas", args.atlas.is_some()),
        ("--extras", args.extras.is_some()),
        ("--physics3", args.physics3.is_some()),
        ("--armature", args.armature.is_some()),
        ("--skin", !args.skin.is_empty()),
    ];
    let Some((first, _)) = given.iter().find(|g| g.1) else {
        return Ok(());
    };
    let Some(file) = &args.file else {
        return Err(anyhow!(
            "{first} applies to the FILE given on the command line; none was given"
        ));
    };
    // What does not apply is said first (an `--atlas` for a puppet is refused as such,
    // whether or not the file exists), then the given files are checked.
    if let Ok(f) = Format::of(budgets, file) {
        applies(f, file, args)?;
    }
    input_opt(budgets, "atlas", args.atlas.as_deref())?;
    input_opt(budgets, "extras", args.extras.as_deref())?;
    input_opt(budgets, "physics3", args.physics3.as_deref())?;
    Ok(())
}

/// Refuses the options of `args` that do not apply to `file`, a file of format `f`.
fn applies(f: crate::guard::Format, file: &std::path::Path, args: &ViewArgs) -> Result<()> {
    use crate::guard::{Format, not_for};
    if f != Format::Spine {
        not_for(f.name(), file, "--extras", args.extras.is_some())?;
    }
    if f != Format::Puppet {
        not_for(f.name(), file, "--physics3", args.physics3.is_some())?;
    } else {
        not_for(f.name(), file, "--atlas", args.atlas.is_some())?;
        not_for(f.name(), file, "--skin", !args.skin.is_empty())?;
    }
    if f != Format::DragonBones {
        not_for(f.name(), file, "--armature", args.armature.is_some())?;
    }
    Ok(())
}

/// Runs `sinew view`; returns what to print (the screenshot written), or the load error of
/// a scripted run.
pub fn view(args: &ViewArgs, budgets: &Budgets) -> Result<String> {
    let size = match &args.size {
        Some(s) => crate::render::parse_size(s)?,
        None => (1280, 800),
    };
    if !(args.time.is_finite() && args.time >= 0.0) {
        return Err(anyhow!("bad --time {}: must be seconds >= 0", args.time));
    }
    check_options(args, budgets)?;
    let params = args
        .params
        .iter()
        .map(|s| parse_param(s))
        .collect::<Result<Vec<_>>>()?;
    let background = match &args.background {
        Some(s) => {
            let c = crate::render::parse_color(s)?;
            Some([c.r, c.g, c.b].map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8))
        }
        None => None,
    };
    #[cfg(feature = "view")]
    {
        // A script that cannot be read or parsed is refused before the window opens.
        let script = match &args.input {
            Some(p) => {
                let text = std::fs::read_to_string(p)
                    .map_err(|e| anyhow!("--input {}: {e}", p.display()))?;
                sinew_view::script::parse(&text)
                    .map_err(|e| anyhow!("--input {}: {e:#}", p.display()))?
            }
            None => Vec::new(),
        };
        let mut overlays = sinew_view::Overlays::default();
        for name in &args.overlays {
            overlays
                .enable(name.trim())
                .map_err(|e| anyhow!("--overlay: {e}"))?;
        }
        let options = sinew_view::ViewOptions {
            file: args.file.clone(),
            anim: args.anim.clone(),
            params,
            skins: args.skin.clone(),
            atlas: args.atlas.clone(),
            armature: args.armature.clone(),
            time: args.time,
            screenshot: args.screenshot.clone(),
            frames: args.frames,
            play: args.play,
            size,
            background,
            overlays,
            cages: args.cages.clone(),
            extras: args.extras.clone(),
            physics3: args.physics3.clone(),
            save_extras: args.save_extras.clone(),
            script,
            beside: args.beside.clone(),
            beside_atlas: args.beside_atlas.clone(),
        };
        let budgets = *budgets;
        let loader =
            move |p: &std::path::Path, o: &sinew_formats::LoadOptions| load_any(p, o, &budgets);
        sinew_view::run(options, std::sync::Arc::new(loader))?;
        Ok(match &args.screenshot {
            Some(out) => format!("wrote {}", out.display()),
            None => String::new(),
        })
    }
    #[cfg(not(feature = "view"))]
    {
        let _ = (size, params, background);
        Err(anyhow!(NOT_BUILT))
    }
}
