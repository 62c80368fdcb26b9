//! Spine 4.2 and 4.3 JSON exports into a [`RawRig`].
//!
//! Reads every field of the 4.2 format (see `shared/design/notes/spine.md` section 4) with
//! the defaults of the official loader (spine-ts 4.2 `SkeletonJson`), at scale 1. A 4.3 file
//! (`skeleton.spine` 4.3.x) is read by the same readers where the schema is the same, with
//! its own constraint list (`constraints43.rs`) and the keys and defaults 4.3 changed; the
//! rig records [`RawRig::runtime`] and the stages pose it with 4.3's semantics where those
//! differ. Other Spine versions are refused naming the version; a missing version is 4.2. The loader never panics and
//! never allocates for a count the file only declares: every size is checked against the
//! data present and against the caps in [`limits`]. Errors carry the file, the JSON path
//! and the offending name.
//!
//! Verified by `tests/all/fixtures.rs` (every official export loads and builds, counts match
//! the JSON), `tests/all/errors.rs` (hand-made bad inputs), `tests/all/mutations.rs` (a proptest
//! that mutates fixture text) and the `spine_json` fuzz target.

mod animations;
mod attachments;
pub mod binary;
mod constraints43;
mod eased;
mod skeleton;
mod upgrade43;
mod write_json;
mod write_json_anims;
mod write_json_constraints;
mod write_json_skins;

use crate::budget::Budgets;
use crate::error::LoadError;
use crate::json::{JsonIssue, Loc, as_obj};
pub use binary::{WriteError, write_spine_binary};
use serde_json::Value;
use sinew::raw::RawRig;
use std::path::Path;
pub use upgrade43::{Upgraded, upgrade_to_spine43};
pub use write_json::{spine_json_value, write_spine_json};

/// Caps on what a file may declare (ids are 16-bit; triangle indices are u16).
pub mod limits {
    /// Most bones (ids are u16).
    pub const MAX_BONES: usize = 65_535;
    /// Most slots (ids are u16).
    pub const MAX_SLOTS: usize = 65_535;
    /// Most constraints of one kind (ids are u16).
    pub const MAX_CONSTRAINTS: usize = 65_535;
    /// Most skins (ids are u16).
    pub const MAX_SKINS: usize = 65_535;
    /// Most event definitions (ids are u16).
    pub const MAX_EVENTS: usize = 65_535;
    /// Most vertices in one attachment (mesh triangle indices are u16).
    pub const MAX_VERTICES: usize = 65_536;
    /// Most bone influences on one weighted vertex (the official examples use at most 5).
    pub const MAX_INFLUENCES: usize = 32;
    /// Most frames in one texture sequence.
    pub const MAX_SEQUENCE_FRAMES: usize = 4_096;
    /// Largest sequence start number.
    pub const MAX_SEQUENCE_START: u32 = 1_000_000_000;
    /// Most zero-padding digits of sequence frame numbers.
    pub const MAX_SEQUENCE_DIGITS: usize = 10;
    /// Largest file [`super::load_spine_json`] reads, in bytes.
    pub const MAX_FILE_BYTES: u64 = 512 * 1024 * 1024;
}

/// Reads a Spine 4.2 skeleton in either format, told apart by its content
/// ([`is_spine_json`]): JSON, or binary (`.skel`, [`binary::parse_spine_binary`]).
pub fn load_spine_file(path: &Path) -> Result<RawRig, LoadError> {
    let file = path.display().to_string();
    let data = binary::read_bytes(path, &file)?;
    parse_spine(&data, &file)
}

/// Parses the bytes of a Spine 4.2 skeleton in either format ([`load_spine_file`]), within
/// the default budgets.
pub fn parse_spine(data: &[u8], source: &str) -> Result<RawRig, LoadError> {
    parse_spine_with(data, source, &Budgets::DEFAULT)
}

/// [`parse_spine`] within `budgets` (JSON values, clipping polygon vertices).
pub fn parse_spine_with(data: &[u8], source: &str, budgets: &Budgets) -> Result<RawRig, LoadError> {
    let raw = if is_spine_json(data) {
        // is_spine_json checked the whole text is UTF-8.
        let text = std::str::from_utf8(data).unwrap_or_default();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        parse_spine_json_with(text, source, budgets)?
    } else {
        binary::parse_spine_binary(data, source)?
    };
    check_clip_budget(&raw, source, budgets)?;
    Ok(raw)
}

/// Refuses a clipping polygon with more vertices than the `clip_vertices` budget
/// ([`crate::budget`]), naming the skin, slot and attachment.
pub fn check_clip_budget(raw: &RawRig, source: &str, budgets: &Budgets) -> Result<(), LoadError> {
    for skin in &raw.skins {
        for e in &skin.attachments {
            if let sinew::raw::RawAttachmentKind::Clipping { vertices, .. } = &e.attachment.kind {
                budgets
                    .check(
                        "clip_vertices",
                        f64::from(vertices.count),
                        format!(
                            "clipping attachment `{}` (skin `{}`, slot `{}`)",
                            e.attachment.name, skin.name, e.slot
                        ),
                    )
                    .map_err(|error| LoadError::Budget {
                        file: source.to_owned(),
                        error,
                    })?;
            }
        }
    }
    Ok(())
}

/// Whether a skeleton file's bytes are JSON: UTF-8 whose first character after an optional
/// byte order mark and white space is `{`. A binary export starts with its 8-byte hash and
/// is not UTF-8 (its floats are arbitrary bytes).
pub fn is_spine_json(data: &[u8]) -> bool {
    let body = data
        .strip_prefix(b"\xef\xbb\xbf".as_slice())
        .unwrap_or(data);
    body.iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{')
        && std::str::from_utf8(body).is_ok()
}

/// Reads and parses a Spine 4.2 JSON file.
pub fn load_spine_json(path: &Path) -> Result<RawRig, LoadError> {
    let file = path.display().to_string();
    let size = std::fs::metadata(path)
        .map_err(|source| LoadError::Io {
            file: file.clone(),
            source,
        })?
        .len();
    if size > limits::MAX_FILE_BYTES {
        return Err(LoadError::Invalid {
            file,
            path: "$".into(),
            name: None,
            issue: JsonIssue::Other(format!(
                "file is {size} bytes (limit {})",
                limits::MAX_FILE_BYTES
            )),
        });
    }
    let text = crate::error::read_text(path, &file)?;
    let raw = parse_spine_json(&text, &file)?;
    check_clip_budget(&raw, &file, &Budgets::DEFAULT)?;
    Ok(raw)
}

/// Parses the text of a Spine 4.2 JSON export; `source` names it in errors and in
/// [`RawRig::source`].
pub fn parse_spine_json(text: &str, source: &str) -> Result<RawRig, LoadError> {
    parse_spine_json_with(text, source, &Budgets::DEFAULT)
}

/// [`parse_spine_json`] within `budgets`.
fn parse_spine_json_with(text: &str, source: &str, budgets: &Budgets) -> Result<RawRig, LoadError> {
    let root: Value = crate::error::parse_json(text, source, budgets)?;
    let invalid = crate::json::in_file(source);
    let at = Loc::root();
    let root = as_obj(&root, &at).map_err(&invalid)?;
    // An object with none of a skeleton's keys (a DragonBones file, any other JSON) is not
    // an empty Spine rig.
    const KEYS: [&str; 11] = [
        "skeleton",
        "constraints",
        "bones",
        "slots",
        "ik",
        "transform",
        "path",
        "physics",
        "skins",
        "events",
        "animations",
    ];
    if !KEYS.iter().any(|k| root.contains_key(*k)) {
        let mut have: Vec<&str> = root.keys().map(String::as_str).take(8).collect();
        if have.is_empty() {
            have.push("none");
        }
        let what = if root.contains_key("armature") {
            "a DragonBones skeleton, not a Spine one"
        } else {
            "not a Spine skeleton"
        };
        return Err(LoadError::Invalid {
            file: source.to_owned(),
            path: "$".into(),
            name: None,
            issue: JsonIssue::Other(format!(
                "{what}: no `skeleton` or `bones` key (keys: {})",
                have.join(", ")
            )),
        });
    }
    let mut rig = RawRig {
        source: source.to_owned(),
        reference_scale: 100.0,
        ..Default::default()
    };
    skeleton::read_header(root, &mut rig, &at).map_err(&invalid)?;
    rig.runtime = match json_runtime(&rig.version) {
        Some(runtime) => runtime,
        None => {
            return Err(LoadError::Version {
                file: source.to_owned(),
                version: rig.version,
            });
        }
    };
    read_body(root, &mut rig, &at).map_err(&invalid)?;
    check_reference_scale(&rig, "$.skeleton.referenceScale")?;
    Ok(rig)
}

/// Which runtime's semantics a JSON file of version `version` (`skeleton.spine`) is posed
/// with: 4.2.x and 4.3.x (the official loaders look only at major.minor), and a file
/// without a version as 4.2; `None` for any other version.
pub fn json_runtime(version: &str) -> Option<sinew::types::SpineRuntime> {
    use sinew::types::SpineRuntime;
    if version.is_empty() {
        return Some(SpineRuntime::V42);
    }
    let mut parts = version.split('.');
    match (parts.next(), parts.next()) {
        (Some("4"), Some("2")) => Some(SpineRuntime::V42),
        (Some("4"), Some("3")) => Some(SpineRuntime::V43),
        _ => None,
    }
}

/// Physics divides by the skeleton's reference scale: a rig with physics constraints needs
/// a positive one (spine-ts would produce NaN).
pub(crate) fn check_reference_scale(rig: &RawRig, path: &str) -> Result<(), LoadError> {
    if rig.physics.is_empty() || (rig.reference_scale.is_finite() && rig.reference_scale > 0.0) {
        return Ok(());
    }
    Err(LoadError::Invalid {
        file: rig.source.clone(),
        path: path.to_owned(),
        name: None,
        issue: JsonIssue::range(
            "a positive referenceScale (the rig has physics constraints)",
            rig.reference_scale,
        ),
    })
}

/// Everything after the header, in the official loader's order.
fn read_body(root: &crate::json::Obj, rig: &mut RawRig, at: &Loc) -> crate::json::R<()> {
    let mut names = skeleton::Names {
        v43: rig.runtime == sinew::types::SpineRuntime::V43,
        ..Default::default()
    };
    let mut shapes = attachments::Shapes::new();
    skeleton::read_bones(root, rig, &mut names, at)?;
    skeleton::read_slots(root, rig, &mut names, at)?;
    if names.v43 {
        // 4.3 reads only the one `constraints` array (the 4.2 lists are not read).
        constraints43::read_constraints(root, rig, &mut names, at)?;
    } else {
        skeleton::read_constraints(root, rig, &mut names, at)?;
    }
    attachments::read_skins(root, rig, &mut names, &mut shapes, at)?;
    skeleton::read_events(root, rig, &mut names, at)?;
    animations::read_animations(root, rig, &names, &shapes, at)
}
