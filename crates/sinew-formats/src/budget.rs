//! Budgets: the one place that bounds what a run may read, decode, simulate and write.
//!
//! A crafted file or argument can ask for any amount of work or memory (`--fps 1e9`, a PNG
//! header saying 11000x11000, `/dev/zero` as a rig). Every such request is checked against a
//! [`Budgets`] value before the work starts, and refused with a [`BudgetError`] naming the
//! budget (the [`Budgets`] field that raises it) and what asked for it. The defaults are far
//! above what a real rig needs (spineboy's whole dump suite uses under 1% of each). There is
//! no process-wide setting: a load takes its budgets in [`crate::LoadOptions::budgets`], and a
//! host checks its own work with [`Budgets::check`] (the CLI maps its `--max-*` flags onto
//! one [`Budgets`] value and names the flag in its messages).
//!
//! | budget | default | what it bounds |
//! |---|---|---|
//! | `file_bytes` | 256 MiB | bytes of one input file (only regular files are read) |
//! | `json_values` | 16 Mi | values in one JSON document, counted before it is parsed, a string as 2, an object as 9, an array as 5, a key as 4 (what they cost parsed: at most about 75 bytes a counted value, so about 1.3 GB at the default) |
//! | `samples` | 100 000 | sample times of one `dump`, frames posed by one `render` |
//! | `steps` | 2 000 000 | clock steps (character updates) of one run, all instances |
//! | `frames` | 10 000 | output frames of one `render` |
//! | `canvas_pixels` | 16 Mi | pixels of one output image (16 bytes each while drawn) |
//! | `texture_bytes` | 1 GiB | decoded RGBA8 bytes of every texture of one asset together |
//! | `instances` | 10 000 | characters of one `bench` |
//! | `clip_vertices` | 1 024 | vertices of one clipping polygon (refused at load, naming the attachment) |
//! | `output_values` | 8 Mi | values in one output document (a `dump`; about 200 bytes each while built) |
//! | `output_pixels` | 256 Mi | pixels of all the frames one `render` writes, a GIF's counted four times (its palette quantising costs about four times the rest of a frame): what bounds a render's encoding time (about 3 s per 16 Mi GIF pixels here; a 1024x1024 GIF may have 64 frames) |
//! | `fill_pixels` | 128 Mi | pixels one rendered frame fills: each draw command's on-image bounding box, summed (overdraw; about 50 ns each on the CPU renderer, so about 7 s at the budget) |
//!
//! Fixed caps that are not budgets (they bound work per frame, so a frame's cost never
//! depends on what a file asks for): Spine physics constraints step at most
//! [`sinew::constraint::MAX_FPS`] times a second (a rig whose `fps` is higher steps
//! at that rate) and at most [`sinew::constraint::MAX_STEPS_PER_UPDATE`] times per
//! update (time beyond that is dropped: a long hitch is slow motion, never a freeze); parameter physics
//! caps its frame time (`sinew::params::chain::MAX_FRAME_DT`). Numbers in JSON inputs of
//! magnitude [`MAX_MAGNITUDE`] or more are refused at load with their JSON path (their
//! products overflow the f32 outputs).
//!
//! Verified by the unit tests below and the hostile-input CLI tests (`sinew-cli/tests/all/hostile.rs`).

use crate::LoadError;
use std::io::Read;
use std::path::Path;

/// Numbers in input files must be smaller than this in magnitude (refused at load).
pub const MAX_MAGNITUDE: f64 = 1e30;

/// What one run may use. See the module docs for the defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budgets {
    /// Bytes of one input file.
    pub file_bytes: u64,
    /// Values (numbers, strings, arrays, objects, literals) in one JSON document, weighted by
    /// what they cost parsed ([`json_value_bound`]).
    pub json_values: u64,
    /// Sample times of a dump, frames posed by a render.
    pub samples: u64,
    /// Clock steps (character updates) of one run.
    pub steps: u64,
    /// Output frames of one render.
    pub frames: u64,
    /// Pixels of one output image.
    pub canvas_pixels: u64,
    /// Decoded RGBA8 bytes of all the textures of one asset.
    pub texture_bytes: u64,
    /// Characters of one benchmark.
    pub instances: u64,
    /// Vertices of one clipping polygon (a renderer triangulates it: quadratic work).
    pub clip_vertices: u64,
    /// Values (numbers, strings, arrays, objects) in one output document.
    pub output_values: u64,
    /// Pixels one rendered frame fills (every draw command's bounding box on the image,
    /// summed): what bounds a frame's rasterising time whatever the overdraw.
    pub fill_pixels: u64,
    /// Pixels of all the frames one render writes (a GIF's weighted by 4).
    pub output_pixels: u64,
}

impl Budgets {
    /// The defaults (a real rig never meets them).
    pub const DEFAULT: Budgets = Budgets {
        file_bytes: 256 << 20,
        json_values: 16 << 20,
        samples: 100_000,
        steps: 2_000_000,
        frames: 10_000,
        canvas_pixels: 16 << 20,
        texture_bytes: 1 << 30,
        instances: 10_000,
        clip_vertices: 1024,
        output_values: 8 << 20,
        fill_pixels: 128 << 20,
        output_pixels: 256 << 20,
    };
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets::DEFAULT
    }
}

/// A budget that a request would exceed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{what} needs {asked} {unit}, over the {name} budget of {limit} (`Budgets::{name}`)")]
#[non_exhaustive]
pub struct BudgetError {
    /// The budget's name: the [`Budgets`] field (`steps`, `texture_bytes`, ...).
    pub name: &'static str,
    /// The unit counted.
    pub unit: &'static str,
    /// What asked (the file, the option with its value).
    pub what: String,
    /// How much was asked for.
    pub asked: u64,
    /// The budget.
    pub limit: u64,
}

/// The unit a budget counts.
fn unit(name: &str) -> &'static str {
    match name {
        "file_bytes" => "bytes",
        "json_values" => "JSON values",
        "samples" => "samples",
        "steps" => "clock steps",
        "frames" => "frames",
        "canvas_pixels" => "pixels",
        "texture_bytes" => "decoded texture bytes",
        "instances" => "instances",
        "clip_vertices" => "clipping polygon vertices",
        "output_values" => "output JSON values",
        "fill_pixels" => "filled pixels",
        "output_pixels" => "output pixels",
        _ => "units",
    }
}

fn limit_of(b: &Budgets, name: &str) -> u64 {
    match name {
        "file_bytes" => b.file_bytes,
        "json_values" => b.json_values,
        "samples" => b.samples,
        "steps" => b.steps,
        "frames" => b.frames,
        "canvas_pixels" => b.canvas_pixels,
        "texture_bytes" => b.texture_bytes,
        "instances" => b.instances,
        "clip_vertices" => b.clip_vertices,
        "output_values" => b.output_values,
        "fill_pixels" => b.fill_pixels,
        "output_pixels" => b.output_pixels,
        _ => 0,
    }
}

impl Budgets {
    /// Checks `asked` against the budget `name` (one of the [`Budgets`] field names); `what`
    /// says who asked (a file, an option with its value). `asked` is an f64 so that a
    /// request computed from untrusted numbers (`1e12 * fps`, infinity, NaN) is checked
    /// before any conversion can wrap.
    pub fn check(
        &self,
        name: &'static str,
        asked: f64,
        what: impl Into<String>,
    ) -> Result<(), BudgetError> {
        check_against(limit_of(self, name), name, asked, what.into())
    }
}

fn check_against(
    limit: u64,
    name: &'static str,
    asked: f64,
    what: String,
) -> Result<(), BudgetError> {
    if asked.is_finite() && asked >= 0.0 && asked <= limit as f64 {
        return Ok(());
    }
    Err(BudgetError {
        name,
        unit: unit(name),
        what,
        asked: if asked.is_finite() && asked > 0.0 {
            asked.min(u64::MAX as f64) as u64
        } else {
            u64::MAX
        },
        limit,
    })
}

/// An input refused by a budget.
fn refuse(file: &str, error: BudgetError) -> LoadError {
    LoadError::Budget {
        file: file.to_owned(),
        error,
    }
}

/// Checks that `path` is a regular file (not a FIFO, a device such as `/dev/zero`, or a
/// folder) within the `file_bytes` budget of `budgets`, without reading it; `file` names it
/// in errors. Returns its size.
pub fn check_input(path: &Path, file: &str, budgets: &Budgets) -> Result<u64, LoadError> {
    let meta = std::fs::metadata(path).map_err(|source| LoadError::Io {
        file: file.to_owned(),
        source,
    })?;
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a folder"
        } else {
            kind_of_special(&meta)
        };
        return Err(LoadError::NotAFile {
            file: file.to_owned(),
            kind,
        });
    }
    let size = meta.len();
    budgets
        .check("file_bytes", size as f64, format!("{file} ({size} bytes)"))
        .map_err(|e| refuse(file, e))?;
    Ok(size)
}

#[cfg(unix)]
fn kind_of_special(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn kind_of_special(_meta: &std::fs::Metadata) -> &'static str {
    "not a file"
}

/// Reads a whole input file after [`check_input`], never more than the budget allows (a
/// file that grows while read is cut off and refused). Inside [`crate::read_once::read_once`]
/// a kept file is read from the file system once and its bytes served again after.
pub fn read_input(path: &Path, file: &str, budgets: &Budgets) -> Result<Vec<u8>, LoadError> {
    if let Some(bytes) = crate::read_once::cached(path) {
        return Ok(bytes);
    }
    let size = check_input(path, file, budgets)?;
    let io = |source| LoadError::Io {
        file: file.to_owned(),
        source,
    };
    let limit = budgets.file_bytes;
    let f = std::fs::File::open(path).map_err(io)?;
    let mut out = Vec::with_capacity(usize::try_from(size.min(limit)).unwrap_or(0));
    f.take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(io)?;
    budgets
        .check(
            "file_bytes",
            out.len() as f64,
            format!("{file} (grew while read)"),
        )
        .map_err(|e| refuse(file, e))?;
    crate::read_once::note(path, &out);
    Ok(out)
}

/// Reads a UTF-8 text input (JSON, atlas) after [`check_input`]; a UTF-8 byte order mark is
/// dropped.
pub fn read_input_text(path: &Path, file: &str, budgets: &Budgets) -> Result<String, LoadError> {
    into_text(read_input(path, file, budgets)?, file)
}

/// The UTF-8 text of an input's bytes, a leading byte order mark dropped; `file` names it.
pub(crate) fn into_text(bytes: Vec<u8>, file: &str) -> Result<String, LoadError> {
    let mut text = String::from_utf8(bytes).map_err(|e| LoadError::Io {
        file: file.to_owned(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (byte {}): {e}",
                e.utf8_error().valid_up_to()
            ),
        ),
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// What one JSON value costs against the `json_values` budget, in values: a number or
/// literal is 1. Parsed (`serde_json::Value` with ordered maps) a value takes about 75
/// bytes, but a string also allocates its text, an object with members first allocates
/// room for four entries (about 600 bytes with its index and key), a non-empty array room
/// for four values, and each member adds an entry and its key's string: so a string counts
/// 1 + [`STRING_EXTRA`], an object 1 + [`OBJECT_EXTRA`], an array 1 + [`ARRAY_EXTRA`] and
/// each key [`KEY_EXTRA`] + [`STRING_EXTRA`] more. With these weights every shape measured
/// costs at most about 75 bytes a counted value parsed (`[{"a":0},...]`, the worst
/// unweighted, cost 300), so the 16 Mi default bounds a parse to about 1.3 GB
/// (docs/HOSTILE.md has the figures).
pub const OBJECT_EXTRA: u64 = 8;
/// See [`OBJECT_EXTRA`].
pub const ARRAY_EXTRA: u64 = 4;
/// See [`OBJECT_EXTRA`].
pub const KEY_EXTRA: u64 = 2;
/// See [`OBJECT_EXTRA`].
pub const STRING_EXTRA: u64 = 1;

/// An upper bound on the weighted number of values in a JSON text ([`OBJECT_EXTRA`]), in
/// one pass over its bytes and without allocating: every value but the first is preceded by
/// `[`, `,` or `:` outside a string; objects, arrays and keys add their weights.
pub fn json_value_bound(text: &[u8]) -> u64 {
    let mut n = 1u64;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            match b {
                b'"' => {
                    in_string = true;
                    n += STRING_EXTRA;
                }
                b'{' => n += OBJECT_EXTRA,
                b'[' => n += 1 + ARRAY_EXTRA,
                b',' => n += 1,
                b':' => n += 1 + KEY_EXTRA,
                _ => {}
            }
        }
    }
    n
}

/// Checks a JSON text against the `json_values` budget before it is parsed (a parsed value
/// takes tens of bytes however short its text: a bound on the count bounds the memory).
pub fn check_json(text: &[u8], file: &str, budgets: &Budgets) -> Result<(), LoadError> {
    let n = json_value_bound(text);
    budgets
        .check(
            "json_values",
            n as f64,
            format!("{file} (about {n} values)"),
        )
        .map_err(|e| refuse(file, e))
}

/// The JSON path and value of the first number in `v` whose magnitude is [`MAX_MAGNITUDE`]
/// or more, if any.
pub fn first_huge_number(v: &serde_json::Value) -> Option<(String, f64)> {
    fn walk(v: &serde_json::Value, path: &mut String) -> Option<f64> {
        match v {
            serde_json::Value::Number(n) => n
                .as_f64()
                .filter(|x| x.is_nan() || x.abs() >= MAX_MAGNITUDE),
            serde_json::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    if let Some(x) = walk(item, path) {
                        return Some(x);
                    }
                    path.truncate(len);
                }
                None
            }
            serde_json::Value::Object(map) => {
                for (k, item) in map {
                    let len = path.len();
                    path.push('.');
                    path.push_str(k);
                    if let Some(x) = walk(item, path) {
                        return Some(x);
                    }
                    path.truncate(len);
                }
                None
            }
            _ => None,
        }
    }
    let mut path = String::from("$");
    walk(v, &mut path).map(|x| (path, x))
}

/// Refuses a parsed JSON document holding a number of magnitude [`MAX_MAGNITUDE`] or more,
/// naming its path.
pub fn check_magnitudes(v: &serde_json::Value, file: &str) -> Result<(), LoadError> {
    match first_huge_number(v) {
        None => Ok(()),
        Some((path, x)) => Err(LoadError::Invalid {
            file: file.to_owned(),
            path,
            name: None,
            issue: crate::JsonIssue::Other(format!(
                "{x:e} is too large: numbers must be smaller than {MAX_MAGNITUDE:e} in magnitude (their f32 products overflow)"
            )),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_values_without_parsing() {
        assert_eq!(json_value_bound(b"0"), 1);
        assert_eq!(json_value_bound(b"[0,0,0,0]"), 5 + ARRAY_EXTRA);
        // The object, two keys, the array and its three numbers, the string (its `,[:`
        // inside quotes not counted).
        assert_eq!(
            json_value_bound(br#"{"a": [1, 2, 3], "b": "x,[:"}"#),
            7 + OBJECT_EXTRA + 2 * KEY_EXTRA + ARRAY_EXTRA + 3 * STRING_EXTRA
        );
        // The worst unweighted shape, one-key objects, costs 13 each.
        assert_eq!(
            json_value_bound(br#"[{"a":0},{"a":0}]"#),
            1 + 5 + 2 * 13 - 1
        );
    }

    #[test]
    fn checks_name_the_budget_and_its_field() {
        let b = Budgets::DEFAULT;
        let e = b.check("steps", 1e12, "--times 1e12").unwrap_err();
        let s = e.to_string();
        assert!(
            s.contains("steps budget") && s.contains("`Budgets::steps`"),
            "{s}"
        );
        assert!(b.check("steps", f64::INFINITY, "x").is_err());
        assert!(b.check("steps", f64::NAN, "x").is_err());
        assert!(b.check("steps", 10.0, "x").is_ok());
        // Per value, not per process: a raised copy lets the same request through.
        let raised = Budgets {
            steps: 2_000_000_000_000,
            ..b
        };
        assert!(raised.check("steps", 1e12, "x").is_ok());
        assert!(b.check("steps", 1e12, "x").is_err());
    }

    #[test]
    fn special_files_are_refused() {
        let b = Budgets::DEFAULT;
        let e = check_input(Path::new("/dev/zero"), "/dev/zero", &b).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = check_input(Path::new("/"), "/", &b).unwrap_err();
        assert!(e.to_string().contains("folder"), "{e}");
    }

    #[test]
    fn huge_numbers_have_a_path() {
        let v = serde_json::json!({"bones": [{"name": "a"}, {"x": 3e38}]});
        assert_eq!(
            first_huge_number(&v),
            Some(("$.bones[1].x".to_owned(), 3e38))
        );
        assert!(first_huge_number(&serde_json::json!({"x": 1e29})).is_none());
    }
}
