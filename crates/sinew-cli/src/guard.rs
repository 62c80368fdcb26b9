//! Hostile-input guards shared by every verb: the budget flags ([`BudgetArgs`], passed to the
//! command's own checks ([`check`]) and to every load as
//! [`sinew_formats::LoadOptions::budgets`]), input files checked before anything
//! reads them (regular files within the `file_bytes` budget, each named with its role:
//! rig, atlas, physics3, extras, ...), options that do not apply to the input's format
//! refused, work checked against the budgets before it starts, and the last check that no
//! non-finite number leaves a dump.
//!
//! Verified by `tests/all/hostile.rs` (one crafted input per class, under a time and memory cap).

use anyhow::{Result, anyhow, bail};
use clap::Args;
use serde_json::Value;
use sinew_formats::LoadError;
use sinew_formats::budget::{self, BudgetError, Budgets};
use std::path::Path;

/// The flag that raises the budget `name` (a [`Budgets`] field).
pub fn flag_of(name: &str) -> &'static str {
    match name {
        "file_bytes" => "--max-file-bytes",
        "json_values" => "--max-json-values",
        "samples" => "--max-samples",
        "steps" => "--max-steps",
        "frames" => "--max-frames",
        "canvas_pixels" => "--max-pixels",
        "texture_bytes" => "--max-texture-bytes",
        "instances" => "--max-instances",
        "clip_vertices" => "--max-clip-vertices",
        "output_values" => "--max-output-values",
        "fill_pixels" => "--max-fill-pixels",
        "output_pixels" => "--max-output-pixels",
        _ => "a --max-* flag",
    }
}

/// A budget error as the CLI says it: the library's words and the flag that raises it.
pub fn budget_error(e: &BudgetError) -> anyhow::Error {
    anyhow!("{e}; raise it with {}", flag_of(e.name))
}

/// Checks `asked` against the command's budget `name` ([`Budgets::check`]), naming the
/// flag that raises it.
pub fn check(
    budgets: &Budgets,
    name: &'static str,
    asked: f64,
    what: impl Into<String>,
) -> Result<()> {
    budgets
        .check(name, asked, what)
        .map_err(|e| budget_error(&e))
}

/// A load error as the CLI says it (a budget's flag added).
pub fn load_error(e: LoadError) -> anyhow::Error {
    match &e {
        LoadError::Budget { error, .. } => anyhow!("{e}; raise it with {}", flag_of(error.name)),
        _ => anyhow!("{e}"),
    }
}

/// The budget flags, accepted by every verb (`sinew_formats::budget` has the defaults;
/// docs/HOSTILE.md): listed by `--help` under their own heading, not by `-h`. Each command
/// maps them onto its loads' [`sinew_formats::LoadOptions::budgets`] and its own checks
/// through [`BudgetArgs::budgets`], passed down explicitly (no process-wide setting).
#[derive(Debug, Clone, Default, Args)]
pub struct BudgetArgs {
    /// Budget: bytes of one input file.
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "BYTES"
    )]
    pub max_file_bytes: Option<u64>,
    /// Budget: values in one JSON document, weighted by parsed size (a string counts 2, an
    /// array 5, an object 9, a key 4 more; docs/HOSTILE.md).
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "N"
    )]
    pub max_json_values: Option<u64>,
    /// Budget: sample times of a dump, frames posed by a render.
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "N"
    )]
    pub max_samples: Option<u64>,
    /// Budget: clock steps (character updates) of one run.
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "N"
    )]
    pub max_steps: Option<u64>,
    /// Budget: output frames of one render.
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "N"
    )]
    pub max_frames: Option<u64>,
    /// Budget: pixels of one output image.
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "N"
    )]
    pub max_pixels: Option<u64>,
    /// Budget: decoded texture bytes of one asset (all pages together).
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "BYTES"
    )]
    pub max_texture_bytes: Option<u64>,
    /// Budget: instances of one bench.
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "N"
    )]
    pub max_instances: Option<u64>,
    /// Budget: vertices of one clipping polygon.
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "N"
    )]
    pub max_clip_vertices: Option<u64>,
    /// Budget: values in one output document (a dump).
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "N"
    )]
    pub max_output_values: Option<u64>,
    /// Budget: pixels one rendered frame fills (every draw command's bounding box, summed).
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "N"
    )]
    pub max_fill_pixels: Option<u64>,
    /// Budget: pixels of all the frames one render writes (a GIF's counted four times).
    #[arg(
        long,
        global = true,
        help_heading = "Budgets",
        hide_short_help = true,
        value_name = "N"
    )]
    pub max_output_pixels: Option<u64>,
}

impl BudgetArgs {
    /// The budgets these flags ask for (defaults where not given).
    pub fn budgets(&self) -> Budgets {
        let d = Budgets::DEFAULT;
        Budgets {
            file_bytes: self.max_file_bytes.unwrap_or(d.file_bytes),
            json_values: self.max_json_values.unwrap_or(d.json_values),
            samples: self.max_samples.unwrap_or(d.samples),
            steps: self.max_steps.unwrap_or(d.steps),
            frames: self.max_frames.unwrap_or(d.frames),
            canvas_pixels: self.max_pixels.unwrap_or(d.canvas_pixels),
            texture_bytes: self.max_texture_bytes.unwrap_or(d.texture_bytes),
            instances: self.max_instances.unwrap_or(d.instances),
            clip_vertices: self.max_clip_vertices.unwrap_or(d.clip_vertices),
            output_values: self.max_output_values.unwrap_or(d.output_values),
            fill_pixels: self.max_fill_pixels.unwrap_or(d.fill_pixels),
            output_pixels: self.max_output_pixels.unwrap_or(d.output_pixels),
        }
    }
}

/// Checks an input file before anything reads it: a regular file within the `file_bytes`
/// budget, then read once for the command (its bytes shared by detection, the loader and
/// the metadata). `role` says which input it is (`rig`, `atlas`, `physics3`, ...).
pub fn input(budgets: &Budgets, role: &str, path: &Path) -> Result<()> {
    let file = path.display().to_string();
    budget::check_input(path, &file, budgets)
        .map(|_| ())
        .map_err(|e| anyhow!("{role} {}", load_error(e)))?;
    // Read once for the whole command (`sinew_formats::read_once`).
    sinew_formats::read_once::keep(path);
    Ok(())
}

/// Like [`input`] for an optional file.
pub fn input_opt(budgets: &Budgets, role: &str, path: Option<&Path>) -> Result<()> {
    path.map_or(Ok(()), |p| input(budgets, role, p))
}

/// Refuses an option that does not apply to `format` (`given` says whether it was given).
pub fn not_for(format: &str, file: &Path, option: &str, given: bool) -> Result<()> {
    if given {
        bail!("{option} does not apply to {} ({format})", file.display());
    }
    Ok(())
}

/// Checks the clock work of stepping to `last` seconds at `fps` for `samples` samples
/// (times `instances`) against the `samples` and `steps` budgets.
pub fn clock_work(
    budgets: &Budgets,
    samples: usize,
    last: f64,
    fps: f64,
    instances: f64,
    what: &str,
) -> Result<()> {
    check(budgets, "samples", samples as f64, what.to_owned())?;
    let steps = ((last * fps).ceil() + samples as f64 + 1.0) * instances;
    check(budgets, "steps", steps, what.to_owned())?;
    Ok(())
}

/// Counts the values a dump writes, frame by frame, against the `output_values` budget: after
/// each frame the values so far plus that frame's count for every frame still to come must
/// fit, so a dump that would not is refused after its first frame, before the memory is used.
pub struct OutputValues {
    budgets: Budgets,
    samples: usize,
    done: usize,
    values: u64,
    file: String,
}

impl OutputValues {
    /// A dump of `samples` frames of `file`, within `budgets`.
    pub fn new(budgets: &Budgets, samples: usize, file: &Path) -> Self {
        OutputValues {
            budgets: *budgets,
            samples,
            done: 0,
            values: 0,
            file: file.display().to_string(),
        }
    }

    /// Counts one more frame.
    pub fn frame(&mut self, frame: &Value) -> Result<()> {
        fn count(v: &Value) -> u64 {
            1 + match v {
                Value::Array(a) => a.iter().map(count).sum(),
                Value::Object(m) => m.values().map(count).sum(),
                _ => 0,
            }
        }
        let n = count(frame);
        self.done += 1;
        self.values += n;
        let projected =
            self.values as f64 + n as f64 * self.samples.saturating_sub(self.done) as f64;
        check(
            &self.budgets,
            "output_values",
            projected,
            format!(
                "a dump of {} ({} samples of about {n} values each)",
                self.file, self.samples
            ),
        )?;
        Ok(())
    }
}

/// The JSON path of the first non-finite number marker in a document built with
/// [`crate::schema::num`] (which writes non-finite numbers as `null`), looking only where
/// numbers belong: under the numeric keys of bones, slots (`vertices`, `point`, `color`)
/// and params.
pub fn first_nonfinite(v: &Value) -> Option<String> {
    fn numeric_key(k: &str) -> bool {
        !matches!(
            k,
            "attachment"
                | "type"
                | "name"
                | "slot"
                | "bone"
                | "skin"
                | "from"
                | "animation"
                | "anim"
                | "atlas"
                | "clipEnd"
                | "region"
                | "loader"
                | "fixMixShearY"
                | "mixShearYKeysAffected"
                | "skeleton"
                | "editorVersion"
                | "hash"
                | "puppet"
                | "string"
        )
    }
    fn walk(v: &Value, path: &mut String, numeric: bool) -> bool {
        match v {
            Value::Null => numeric,
            Value::Array(items) => items.iter().enumerate().any(|(i, x)| {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let hit = walk(x, path, numeric);
                if !hit {
                    path.truncate(len);
                }
                hit
            }),
            Value::Object(map) => map.iter().any(|(k, x)| {
                let len = path.len();
                path.push('.');
                path.push_str(k);
                let hit = walk(x, path, numeric_key(k));
                if !hit {
                    path.truncate(len);
                }
                hit
            }),
            _ => false,
        }
    }
    let mut path = String::from("$");
    walk(v, &mut path, false).then_some(path)
}

/// Refuses a dump frame holding a non-finite number (a rig whose values overflow while
/// posed), naming the file, the time and the JSON path of the first one.
pub fn finite_frame(frame: &Value, file: &Path, t: f64) -> Result<()> {
    if let Some(path) = first_nonfinite(frame) {
        // Name the bone or slot when the path goes through one.
        bail!(
            "{}: the pose at t = {t} is not finite at {path}{}: the rig's values overflow \
             (sinew never prints NaN or infinity)",
            file.display(),
            culprit(frame, &path)
        );
    }
    Ok(())
}

fn culprit(frame: &Value, path: &str) -> String {
    // `$.bones[3].a` or `$.slots[2].vertices[5]`: the item's name.
    for (key, field) in [("bones", "name"), ("slots", "slot")] {
        let prefix = format!("$.{key}[");
        if let Some(rest) = path.strip_prefix(&prefix)
            && let Some(end) = rest.find(']')
            && let Ok(i) = rest[..end].parse::<usize>()
            && let Some(name) = frame
                .get(key)
                .and_then(|a| a.get(i))
                .and_then(|b| b.get(field))
                .and_then(Value::as_str)
        {
            return format!(
                " ({} `{name}`)",
                if key == "bones" { "bone" } else { "slot" }
            );
        }
    }
    String::new()
}

/// What kind of rig an input file is, from its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Spine JSON or `.skel`.
    Spine,
    /// Inochi2D `.inp` / `.inx`.
    Puppet,
    /// DragonBones 5.x `_ske.json`.
    DragonBones,
}

impl Format {
    /// The family of `path` (after [`input`] accepted it), from what
    /// [`sinew_formats::detect`] says of its content: a puppet, a DragonBones skeleton, else
    /// Spine (whose loader says what a file that is no rig really is).
    pub fn of(budgets: &Budgets, path: &Path) -> Result<Format> {
        Ok(Format::from(detect_file(budgets, path)?))
    }

    /// The name errors use.
    pub fn name(self) -> &'static str {
        match self {
            Format::Spine => "a Spine skeleton",
            Format::Puppet => "an Inochi2D puppet",
            Format::DragonBones => "a DragonBones skeleton",
        }
    }
}

impl From<sinew_formats::Format> for Format {
    fn from(f: sinew_formats::Format) -> Format {
        match f {
            sinew_formats::Format::Inochi2D => Format::Puppet,
            sinew_formats::Format::DragonBones => Format::DragonBones,
            _ => Format::Spine,
        }
    }
}

/// What `path` is ([`sinew_formats::detect`]), from its bytes (read once per command).
pub fn detect_file(budgets: &Budgets, path: &Path) -> Result<sinew_formats::Format> {
    let file = path.display().to_string();
    let bytes =
        budget::read_input(path, &file, budgets).map_err(|e| anyhow!("rig {}", load_error(e)))?;
    Ok(sinew_formats::detect(&bytes))
}

/// What the command line asks of one load.
#[derive(Debug, Clone, Copy, Default)]
pub struct LoadArgs<'a> {
    /// The atlas (`--atlas`, `--tex`): `None` beside the skeleton, `Some(None)` untextured,
    /// `Some(Some(path))` that file.
    pub atlas: Option<Option<&'a Path>>,
    /// `--extras`.
    pub extras: Option<&'a Path>,
    /// `--physics3`.
    pub physics3: Option<&'a Path>,
    /// `--armature`.
    pub armature: Option<&'a str>,
    /// Fetch and check the page images (to render them).
    pub textures: bool,
}

/// Loads `path` through [`sinew_formats::load_bytes`] with the files the command line names
/// (read from where they are given) and the others beside it, within the command's budgets.
pub fn load(budgets: &Budgets, path: &Path, a: LoadArgs<'_>) -> Result<sinew_formats::Asset> {
    use sinew_formats::{Companion, FileCompanions, LoadOptions};
    let files = FileCompanions::beside(path, *budgets);
    let given = |p: Option<&Path>| match p {
        Some(p) => Companion::Named(files.given(p)),
        None => Companion::Without,
    };
    let bytes = files.read_main().map_err(load_error)?;
    let spine = matches!(
        sinew_formats::detect(&bytes),
        sinew_formats::Format::SpineJson | sinew_formats::Format::SpineSkel
    );
    let options = LoadOptions {
        atlas: match a.atlas {
            None => match only_atlas(path).filter(|_| spine) {
                Some(only) => Companion::Named(files.given(&only)),
                None => Companion::Beside,
            },
            Some(p) => given(p),
        },
        extras: given(a.extras),
        physics3: given(a.physics3),
        armature: a.armature.map(str::to_owned),
        textures: a.textures,
        budgets: *budgets,
    };
    sinew_formats::load_bytes(&files.main_name(), &bytes, &files, &options).map_err(load_error)
}

/// The folder a file is in, for listing it: `.` for a bare name (whose `Path::parent` is
/// empty).
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// The `.atlas` files in `path`'s folder, sorted by name.
pub fn atlases_beside(path: &Path) -> Vec<std::path::PathBuf> {
    let mut found: Vec<std::path::PathBuf> = std::fs::read_dir(folder_of(path))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "atlas") && p.is_file())
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// A Spine skeleton's atlas when none is named after it (no `<stem>.atlas`, nor
/// `<base>.atlas` for `<base>-pro` / `<base>-ess`): the only `.atlas` in its folder (read
/// from `.` for a bare name), as the path to give the loader. `None` when one is named after
/// it (the loader finds it beside) or when there are none or several.
pub fn only_atlas(skel: &Path) -> Option<std::path::PathBuf> {
    let dir = folder_of(skel);
    let stem = skel.file_stem()?.to_str()?;
    let mut names = vec![stem.to_owned()];
    for suffix in ["-pro", "-ess"] {
        if let Some(base) = stem.strip_suffix(suffix) {
            names.push(base.to_owned());
        }
    }
    if names
        .iter()
        .any(|n| dir.join(format!("{n}.atlas")).is_file())
    {
        return None;
    }
    let mut found = atlases_beside(skel);
    if found.len() != 1 {
        return None;
    }
    // Named as the skeleton is (a bare name's atlas bare too), so errors name it as given.
    let only = found.remove(0);
    let name = only.file_name()?;
    Some(match skel.parent() {
        Some(d) => d.join(name),
        None => std::path::PathBuf::from(name),
    })
}

/// Applies the budget flags, then checks every input file of the command and the options
/// that do not apply to its format, before the command reads anything.
pub fn precheck(cli: &crate::args::Cli) -> Result<()> {
    use crate::args::Command;
    let b = &cli.budgets.budgets();
    let input = |role: &str, path: &Path| input(b, role, path);
    let input_opt = |role: &str, path: Option<&Path>| input_opt(b, role, path);
    match &cli.command {
        Command::Dump(a) => {
            // The arguments first (cheap), then the files.
            crate::stepping::run_times(b, &a.times, a.fps)?;
            // What the library accepts (`sinew::character::finite`), said with the flag.
            let max = sinew::character::finite::MAX_INPUT;
            if !(a.mix.is_finite() && a.mix >= 0.0 && a.mix < max) {
                bail!(
                    "bad --mix {:?}: must be a number of seconds >= 0 and under {max:e}",
                    a.mix
                );
            }
            if !(a.at.is_finite() && a.at.abs() < max) {
                bail!(
                    "bad --at {:?}: must be a finite number of seconds under {max:e} in magnitude",
                    a.at
                );
            }
            input("rig", &a.file)?;
            input_opt("extras", a.extras.as_deref())?;
            input_opt("physics3", a.physics3.as_deref())?;
            input_opt("tex", a.tex.as_deref())?;
            dump_options(a, Format::of(b, &a.file)?)?;
        }
        Command::Info(a) => {
            input("rig", &a.file)?;
            input_opt("physics3", a.physics3.as_deref())?;
            let f = Format::of(b, &a.file)?;
            if f != Format::Puppet {
                not_for(f.name(), &a.file, "--physics3", a.physics3.is_some())?;
            }
        }
        Command::Validate(a) => {
            input("rig", &a.file)?;
            Format::of(b, &a.file)?;
        }
        Command::Bench(a) => {
            input("rig", &a.file)?;
            input_opt("extras", a.extras.as_deref())?;
            let f = Format::of(b, &a.file)?;
            if f == Format::Puppet {
                bail!(
                    "{}: bench takes a Spine or DragonBones skeleton; this is {}",
                    a.file.display(),
                    f.name()
                );
            }
            if f == Format::DragonBones {
                let n = f.name();
                not_for(n, &a.file, "--extras", a.extras.is_some())?;
                // DragonBones armatures have no physics constraints to step.
                let physics = a.physics != crate::args::PhysicsArg::Update;
                not_for(n, &a.file, "--physics", physics)?;
            }
        }
        Command::Render(a) => {
            input("rig", &a.file)?;
            let f = Format::of(b, &a.file)?;
            let n = f.name();
            // Before the atlas file is looked at: `--atlas` on a puppet does not apply,
            // whether or not that file exists.
            if f == Format::Puppet {
                not_for(n, &a.file, "--atlas", a.atlas.is_some())?;
            }
            input_opt("extras", a.extras.as_deref())?;
            input_opt("physics3", a.physics3.as_deref())?;
            if let Some(atlas) = a.atlas.as_deref().filter(|s| *s != "none") {
                input("atlas", Path::new(atlas))?;
            }
            if f != Format::Spine {
                not_for(n, &a.file, "--extras", a.extras.is_some())?;
            }
            if f == Format::Puppet {
                not_for(n, &a.file, "--skin", a.skin.is_some())?;
                not_for(n, &a.file, "--atlas", a.atlas.is_some())?;
            } else {
                not_for(n, &a.file, "--physics3", a.physics3.is_some())?;
                not_for(n, &a.file, "--param", !a.params.is_empty())?;
                not_for(n, &a.file, "--sweep", a.sweep.is_some())?;
            }
        }
        Command::Cage(a) => match &a.command {
            crate::cage::CageCommand::Weights { input: p } => input("cage", p)?,
            crate::cage::CageCommand::Bind { mesh, .. } => input("mesh", mesh)?,
            crate::cage::CageCommand::Deform { weights, cage } => {
                input("weights", weights)?;
                input("cage", cage)?;
            }
        },
        Command::Lint(a) => {
            input("rig", &a.file)?;
            input_opt("extras", a.extras.as_deref())?;
        }
        Command::Convert(a) => {
            input("rig", &a.input)?;
            input_opt("tex", a.tex.as_deref())?;
            let f = Format::of(b, &a.input)?;
            if f == Format::Spine {
                not_for(f.name(), &a.input, "--armature", a.armature.is_some())?;
                not_for(f.name(), &a.input, "--tex", a.tex.is_some())?;
            }
        }
        // The viewer shows a file that does not load as an error in its window.
        Command::View(_) => {}
    }
    Ok(())
}

/// Refuses the `dump` options that `format` does not read. Options with a default count as
/// given when they differ from it (`--mode apply`, `--mix 0.5`, `--loop false`).
fn dump_options(a: &crate::args::DumpArgs, f: Format) -> Result<()> {
    use crate::args::{Mode, PhysicsArg};
    let n = f.name();
    let file = &a.file;
    let spine = f == Format::Spine;
    let puppet = f == Format::Puppet;
    let db = f == Format::DragonBones;
    // (applies to this format, option, given)
    let rules = [
        (puppet, "--physics3", a.physics3.is_some()),
        (puppet, "--param", !a.params.is_empty()),
        (spine, "--extras", a.extras.is_some()),
        (spine, "--from", a.from.is_some()),
        (spine, "--at", a.at != 0.0),
        (spine, "--mix", a.mix != 0.0),
        (spine, "--then", a.then.is_some()),
        (spine, "--chain-alpha", a.chain_alpha.is_some()),
        (spine, "--local", a.local),
        (spine, "--skin", a.skin.is_some()),
        (!puppet, "--mode", a.mode != Mode::State),
        (!db, "--physics", a.physics != PhysicsArg::Update),
        (!db, "--loop", !a.looping),
        (db, "--tex", a.tex.is_some()),
        (db, "--armature", a.armature.is_some()),
        (db, "--y-up", a.y_up),
    ];
    for (applies, option, given) in rules {
        if !applies {
            not_for(n, file, option, given)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nulls_where_numbers_belong() {
        let f = serde_json::json!({"time": 0, "bones": [{"name": "a", "a": 1}, {"name": "b", "a": null}],
            "slots": [{"slot": "s", "attachment": null, "vertices": [1, 2]}]});
        assert_eq!(first_nonfinite(&f).as_deref(), Some("$.bones[1].a"));
        let e = finite_frame(&f, Path::new("x.json"), 0.5)
            .unwrap_err()
            .to_string();
        assert!(e.contains("bone `b`") && e.contains("x.json"), "{e}");
        let ok = serde_json::json!({"slots": [{"slot": "s", "attachment": null, "type": null}]});
        assert_eq!(first_nonfinite(&ok), None);
    }
}
