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
    /// Budget: values in one JSON document, weighted by parsed size (a string counts 2, an
    /// array 5, an object 9, a key 4 more; docs/HOSTILE.md).
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
    /// Budget: pixels of all the frames one render writes (a GIF's counted four times).
    #[arg(long, global = true, value_name = "N")]
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

/// The width and height an encoded image declares in its header (PNG, or TGA by its
/// header), without decoding it; `None` for other formats (the decoder checks those).
pub fn image_header_size(head: &[u8]) -> Option<(u32, u32)> {
    if head.starts_with(b"\x89PNG\r\n\x1a\n") && head.get(12..16) == Some(b"IHDR") {
        let be = |at: usize| {
            head.get(at..at + 4)
                .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
        };
        return Some((be(16)?, be(20)?));
    }
    // A TGA header: colour map type 0 or 1, an image type of 1-3 or 9-11.
    if head.len() >= 18 && head[1] <= 1 && matches!(head[2], 1..=3 | 9..=11) {
        let le = |at: usize| u32::from(u16::from_le_bytes([head[at], head[at + 1]]));
        return Some((le(12), le(14)));
    }
    None
}

/// Checks every texture of an asset against the `texture_bytes` budget from the image
/// headers alone, before any is decoded (pages are decoded one by one, so without this
/// the first pages would be decoded before a later one is refused). Errors name the
/// texture that tips the total over.
pub fn texture_headers(asset: &sinew_formats::Asset) -> Result<()> {
    let mut total = 0f64;
    let mut add = |size: Option<(u32, u32)>, what: String| -> Result<()> {
        if let Some((w, h)) = size {
            total += f64::from(w) * f64::from(h) * 4.0;
            let what = format!("{what} ({w}x{h}, with the textures before it)");
            budget::check("texture_bytes", total, what)?;
        }
        Ok(())
    };
    if let Some(p) = &asset.puppet {
        for (i, t) in p.textures.iter().enumerate() {
            let what = format!("{}: texture {i}", asset.rig.source);
            add(image_header_size(&t.bytes), what)?;
        }
        return Ok(());
    }
    if let (Some(atlas), Some(path)) = (&asset.atlas, &asset.atlas_path) {
        let dir = path.parent().unwrap_or(Path::new("."));
        for page in &atlas.pages {
            let mut head = Vec::with_capacity(32);
            // A missing or unreadable page is reported by the page loader.
            let _ = std::fs::File::open(dir.join(&page.name)).and_then(|f| {
                std::io::Read::read_to_end(&mut std::io::Read::take(f, 32), &mut head)
            });
            let what = format!("page {} of atlas {}", page.name, path.display());
            add(image_header_size(&head), what)?;
        }
    }
    Ok(())
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
    /// The format of `path` (after [`input`] accepted it), told from its content: the
    /// Inochi2D container's magic, else a JSON object with a top-level `armature` array
    /// (DragonBones), else Spine (JSON or `.skel`). JSON is checked against the
    /// `json_values` budget before it is looked into.
    pub fn of(path: &Path) -> Result<Format> {
        let file = path.display().to_string();
        let bytes = budget::read_input(path, &file).map_err(|e| anyhow!("rig {e}"))?;
        if crate::inochi::is_puppet_bytes(path, &bytes) {
            return Ok(Format::Puppet);
        }
        if sinew_formats::spine::is_spine_json(&bytes) {
            budget::check_json(&bytes, &file).map_err(|e| anyhow!("rig {e}"))?;
            if top_level_array(&bytes, b"armature") {
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

/// Whether the JSON object in `text` has the top-level key `key` holding an array, found in
/// one pass over the bytes without parsing (a parse of a large document would cost as much
/// memory as loading it; the loader reports any syntax error later).
pub fn top_level_array(text: &[u8], key: &[u8]) -> bool {
    let mut depth = 0u32;
    let mut i = 0;
    // After a top-level key equal to `key`: the next byte past `:` decides.
    let mut after_key = false;
    while i < text.len() {
        match text[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
                after_key = depth == 1 && text.get(start..i) == Some(key);
            }
            b'{' | b'[' => {
                if after_key && text[i] == b'[' {
                    return true;
                }
                after_key = false;
                depth += 1;
            }
            b'}' | b']' => {
                after_key = false;
                depth = depth.saturating_sub(1);
            }
            b':' => {}
            b if b.is_ascii_whitespace() => {}
            _ => after_key = false,
        }
        i += 1;
    }
    false
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
            dump_options(a, Format::of(&a.file)?)?;
        }
        Command::Info(a) => {
            input("rig", &a.file)?;
            input_opt("physics3", a.physics3.as_deref())?;
            let f = Format::of(&a.file)?;
            if f != Format::Puppet {
                not_for(f.name(), &a.file, "--physics3", a.physics3.is_some())?;
            }
        }
        Command::Validate(a) => {
            input("rig", &a.file)?;
            Format::of(&a.file)?;
        }
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
                let n = f.name();
                not_for(n, &a.file, "--extras", a.extras.is_some())?;
                // DragonBones armatures have no physics constraints to step.
                let physics = a.physics != crate::args::PhysicsArg::Update;
                not_for(n, &a.file, "--physics", physics)?;
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
            let f = Format::of(&a.input)?;
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
    fn finds_a_top_level_array_without_parsing() {
        assert!(top_level_array(
            br#"{"version": "5.5", "armature": [{}]}"#,
            b"armature"
        ));
        assert!(top_level_array(
            b"\xef\xbb\xbf{ \"armature\" : []",
            b"armature"
        ));
        // Nested, a string value, an object, or escaped quotes before it: no.
        assert!(!top_level_array(
            br#"{"bones": [{"armature": []}]}"#,
            b"armature"
        ));
        assert!(!top_level_array(
            br#"{"x": "armature", "y": []}"#,
            b"armature"
        ));
        assert!(!top_level_array(br#"{"armature": {}}"#, b"armature"));
        assert!(top_level_array(
            br#"{"a\"b": 1, "armature": []}"#,
            b"armature"
        ));
        assert!(!top_level_array(b"{\"armature", b"armature"));
    }

    #[test]
    fn reads_image_sizes_from_headers() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&11000u32.to_be_bytes());
        png.extend_from_slice(&7u32.to_be_bytes());
        assert_eq!(image_header_size(&png), Some((11000, 7)));
        let mut tga = vec![0u8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        tga.extend_from_slice(&[0x10, 0x27, 3, 0, 32, 8]);
        assert_eq!(image_header_size(&tga), Some((10000, 3)));
        assert_eq!(image_header_size(b"GIF89a..."), None);
    }

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
