//! Hostile-input guards shared by every verb: the budget flags ([`BudgetArgs`], applied to
//! [`sinew_formats::budget`] before a command runs), input files checked before anything
//! reads them (regular files within the `file_bytes` budget, each named with its role:
//! rig, atlas, physics3, extras, ...), options that do not apply to the input's format
//! refused, work checked against the budgets before it starts, and the last check that no
//! non-finite number leaves a dump.
//!
//! Verified by `tests/hostile.rs` (one crafted input per class, under a time and memory cap).

use anyhow::{Result, anyhow, bail};
use clap::Args;
use serde_json::Value;
use sinew_formats::budget::{self, Budgets};
use std::path::Path;

/// The budget flags, accepted by every verb (`sinew_formats::budget` has the defaults).
#[derive(Debug, Clone, Default, Args)]
pub struct BudgetArgs {
    /// Budget: bytes of one input file.
    #[arg(long, global = true, value_name = "BYTES")]
    pub max_file_bytes: Option<u64>,
    /// Budget: values in one JSON document.
    #[arg(long, global = true, value_name = "N")]
    pub max_json_values: Option<u64>,
    /// Budget: sample times of a dump, frames posed by a render.
    #[arg(long, global = true, value_name = "N")]
    pub max_samples: Option<u64>,
    /// Budget: clock steps (character updates) of one run.
    #[arg(long, global = true, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Budget: output frames of one render.
    #[arg(long, global = true, value_name = "N")]
    pub max_frames: Option<u64>,
    /// Budget: pixels of one output image.
    #[arg(long, global = true, value_name = "N")]
    pub max_pixels: Option<u64>,
    /// Budget: decoded texture bytes of one asset (all pages together).
    #[arg(long, global = true, value_name = "BYTES")]
    pub max_texture_bytes: Option<u64>,
    /// Budget: instances of one bench.
    #[arg(long, global = true, value_name = "N")]
    pub max_instances: Option<u64>,
    /// Budget: vertices of one clipping polygon.
    #[arg(long, global = true, value_name = "N")]
    pub max_clip_vertices: Option<u64>,
    /// Budget: values in one output document (a dump).
    #[arg(long, global = true, value_name = "N")]
    pub max_output_values: Option<u64>,
    /// Budget: pixels one rendered frame fills (every draw command's bounding box, summed).
    #[arg(long, global = true, value_name = "N")]
    pub max_fill_pixels: Option<u64>,
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
        }
    }
}

/// Checks an input file before anything reads it: a regular file within the `file_bytes`
/// budget, then read once for the command (its bytes shared by detection, the loader and
/// the metadata). `role` says which input it is (`rig`, `atlas`, `physics3`, ...).
pub fn input(role: &str, path: &Path) -> Result<()> {
    let file = path.display().to_string();
    budget::check_input(path, &file)
        .map(|_| ())
        .map_err(|e| anyhow!("{role} {e}"))?;
    // Read once for the whole command (`sinew_formats::read_once`).
    sinew_formats::read_once::keep(path);
    Ok(())
}

/// Like [`input`] for an optional file.
pub fn input_opt(role: &str, path: Option<&Path>) -> Result<()> {
    path.map_or(Ok(()), |p| input(role, p))
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
pub fn clock_work(samples: usize, last: f64, fps: f64, instances: f64, what: &str) -> Result<()> {
    budget::check("samples", samples as f64, what.to_owned())?;
    let steps = ((last * fps).ceil() + samples as f64 + 1.0) * instances;
    budget::check("steps", steps, what.to_owned())?;
    Ok(())
}

/// Counts the values a dump writes, frame by frame, against the `output_values` budget: after
/// each frame the values so far plus that frame's count for every frame still to come must
/// fit, so a dump that would not is refused after its first frame, before the memory is used.
pub struct OutputValues {
    samples: usize,
    done: usize,
    values: u64,
    file: String,
}

impl OutputValues {
    /// A dump of `samples` frames of `file`.
    pub fn new(samples: usize, file: &Path) -> Self {
        OutputValues {
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
        budget::check(
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
    /// The format of `path` (after [`input`] accepted it); JSON is checked against the
    /// `json_values` budget before it is looked into.
    pub fn of(path: &Path) -> Result<Format> {
        if crate::inochi::is_puppet(path) {
            return Ok(Format::Puppet);
        }
        let file = path.display().to_string();
        let bytes = budget::read_input(path, &file).map_err(|e| anyhow!("rig {e}"))?;
        if sinew_formats::spine::is_spine_json(&bytes) {
            budget::check_json(&bytes, &file).map_err(|e| anyhow!("rig {e}"))?;
            if sinew_formats::dragonbones::is_dragonbones_json(&bytes) {
                return Ok(Format::DragonBones);
            }
        }
        Ok(Format::Spine)
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

/// Applies the budget flags, then checks every input file of the command and the options
/// that do not apply to its format, before the command reads anything.
pub fn precheck(cli: &crate::args::Cli) -> Result<()> {
    use crate::args::Command;
    budget::set_budgets(cli.budgets.budgets());
    match &cli.command {
        Command::Dump(a) => {
            // The arguments first (cheap), then the files.
            crate::stepping::run_times(&a.times, a.fps)?;
            if !(a.mix.is_finite() && a.mix >= 0.0) {
                bail!("bad --mix {}: must be a number of seconds >= 0", a.mix);
            }
            if !a.at.is_finite() {
                bail!("bad --at {}: must be a finite number of seconds", a.at);
            }
            input("rig", &a.file)?;
            input_opt("extras", a.extras.as_deref())?;
            input_opt("physics3", a.physics3.as_deref())?;
            input_opt("tex", a.tex.as_deref())?;
            let f = Format::of(&a.file)?;
            let n = f.name();
            if f != Format::Puppet {
                not_for(n, &a.file, "--physics3", a.physics3.is_some())?;
                not_for(n, &a.file, "--param", !a.params.is_empty())?;
            }
            if f != Format::Spine {
                not_for(n, &a.file, "--extras", a.extras.is_some())?;
                not_for(n, &a.file, "--from", a.from.is_some())?;
            }
            if f == Format::Puppet {
                not_for(n, &a.file, "--skin", a.skin.is_some())?;
                not_for(n, &a.file, "--local", a.local)?;
            }
            if f != Format::DragonBones {
                not_for(n, &a.file, "--tex", a.tex.is_some())?;
                not_for(n, &a.file, "--armature", a.armature.is_some())?;
                not_for(n, &a.file, "--y-up", a.y_up)?;
            }
        }
        Command::Info(a) => {
            input("rig", &a.file)?;
            input_opt("physics3", a.physics3.as_deref())?;
            let f = Format::of(&a.file)?;
            if f != Format::Puppet {
                not_for(f.name(), &a.file, "--physics3", a.physics3.is_some())?;
            }
        }
        Command::Validate(a) => input("rig", &a.file)?,
        Command::Bench(a) => {
            input("rig", &a.file)?;
            input_opt("extras", a.extras.as_deref())?;
            let f = Format::of(&a.file)?;
            if f == Format::Puppet {
                bail!(
                    "{}: bench takes a Spine or DragonBones skeleton; this is {}",
                    a.file.display(),
                    f.name()
                );
            }
            if f == Format::DragonBones {
                not_for(f.name(), &a.file, "--extras", a.extras.is_some())?;
            }
        }
        Command::Render(a) => {
            input("rig", &a.file)?;
            input_opt("extras", a.extras.as_deref())?;
            input_opt("physics3", a.physics3.as_deref())?;
            if let Some(atlas) = a.atlas.as_deref().filter(|s| *s != "none") {
                input("atlas", Path::new(atlas))?;
            }
            let f = Format::of(&a.file)?;
            let n = f.name();
            if f == Format::Puppet {
                not_for(n, &a.file, "--extras", a.extras.is_some())?;
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
        }
        // The viewer shows a file that does not load as an error in its window.
        Command::View(_) => {}
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
