//! Reading a rig for linting: the file is read once (through [`sinew_formats::budget`], so
//! it must be a regular file within the `file_bytes` budget), a JSON document is checked
//! against the `json_values` budget before it is parsed and for numbers too large to pose,
//! and the format is told from the content ([`Kind`]).

use crate::{LintInput, Source};
use serde_json::Value;
use sinew_formats::{LoadError, LoadOptions, budget};
use std::path::{Path, PathBuf};

/// What a linted file is, from its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Spine 4.2 JSON skeleton.
    SpineJson,
    /// Spine 4.2 binary `.skel` (or anything that is not JSON: the Spine loader reports it).
    SpineBinary,
    /// DragonBones 5.x `*_ske.json` (a JSON object with an `armature` array).
    DragonBones,
    /// Inochi2D puppet (`.inp`/`.inx`, the `TRNSRTS` magic).
    Puppet,
    /// A cage file (the JSON `sinew cage bind` reads: `vertices` and `loops`).
    Cage,
}

impl Kind {
    /// The kind of `bytes`, whose JSON document (if any) is `tree` ([`json_tree`]).
    pub fn of(bytes: &[u8], tree: Option<&Value>) -> Kind {
        if bytes.starts_with(b"TRNSRTS") {
            return Kind::Puppet;
        }
        match tree {
            Some(v) if crate::cage::is_cage_json(v) => Kind::Cage,
            Some(v) if matches!(v.get("armature"), Some(Value::Array(_))) => Kind::DragonBones,
            Some(_) => Kind::SpineJson,
            None => Kind::SpineBinary,
        }
    }

    /// The name errors use (`a Spine skeleton`, `an Inochi2D puppet`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Kind::SpineJson | Kind::SpineBinary => "a Spine skeleton",
            Kind::DragonBones => "a DragonBones skeleton",
            Kind::Puppet => "an Inochi2D puppet",
            Kind::Cage => "a cage file",
        }
    }

    /// Whether rig extras (jiggle bones, follows) apply: only to Spine skeletons, as in the
    /// other verbs of the CLI.
    pub fn takes_extras(self) -> bool {
        matches!(self, Kind::SpineJson | Kind::SpineBinary)
    }
}

/// The JSON document of an input, or `None` when the bytes are not JSON (a `.skel`, a
/// puppet, or text that does not parse, which the format's loader then reports with its
/// line and column). The text is checked against the `json_values` budget before it is
/// parsed, and the document may hold no number too large to pose.
pub fn json_tree(bytes: &[u8], file: &str) -> Result<Option<Value>, LoadError> {
    let body = bytes
        .strip_prefix(b"\xef\xbb\xbf".as_slice())
        .unwrap_or(bytes);
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Ok(None);
    }
    budget::check_json(body, file)?;
    let Ok(v) = serde_json::from_slice::<Value>(body) else {
        return Ok(None);
    };
    budget::check_magnitudes(&v, file)?;
    Ok(Some(v))
}

/// Loads `path` (Spine JSON or `.skel`, DragonBones or an Inochi2D puppet, told apart by
/// the content), with an optional rig-extras file (jiggle bones to check; Spine only). The
/// file is read once; a DragonBones skeleton takes its sibling `*_tex.json` for the image
/// sizes when there is one.
pub fn load(path: &Path, extras: Option<&Path>) -> Result<LintInput, LoadError> {
    sinew_formats::read_once::read_once(|| {
        sinew_formats::read_once::keep(path);
        let file = path.display().to_string();
        let bytes = budget::read_input(path, &file)?;
        let tree = json_tree(&bytes, &file)?;
        load_from(path, &bytes, tree, extras)
    })
    .0
}

/// [`load`] from bytes already read (`bytes` are `path`'s, `tree` their [`json_tree`]).
/// The format's loader reads `path` again unless the caller runs inside
/// [`sinew_formats::read_once::read_once`] with `path` kept (the CLI does).
pub fn load_from(
    path: &Path,
    bytes: &[u8],
    tree: Option<Value>,
    extras: Option<&Path>,
) -> Result<LintInput, LoadError> {
    let file = path.display().to_string();
    let kind = Kind::of(bytes, tree.as_ref());
    if extras.is_some() && !kind.takes_extras() {
        return Err(LoadError::Rig {
            file,
            message: format!(
                "rig extras (jiggle bones, follows) apply to Spine skeletons only, and this is {}",
                kind.name()
            ),
        });
    }
    let options = LoadOptions {
        extras: extras.map(Path::to_path_buf),
        ..Default::default()
    };
    let (asset, source) = match (kind, tree) {
        (Kind::Cage, _) => {
            return Err(LoadError::Rig {
                file,
                message:
                    "a cage file, not a rig: check it with `sinew_lint::cage::check_cage_json`"
                        .to_owned(),
            });
        }
        (Kind::Puppet, _) => {
            let asset = sinew_formats::load_inochi2d(path, &options)?;
            let c = sinew_formats::inochi2d::read_container(bytes, &file)?;
            // The loader has parsed (and budget-checked) this payload already.
            let payload = serde_json::from_slice(c.json).unwrap_or(Value::Null);
            (asset, Source::Puppet(payload))
        }
        (Kind::DragonBones, Some(tree)) => {
            let tex = sibling_tex(path);
            let (asset, db) = sinew_formats::load_dragonbones(path, tex.as_deref(), None)?;
            let source = Source::DragonBones {
                tree,
                armature: db.armature,
                frame_rate: db.frame_rate,
            };
            (asset, source)
        }
        (_, tree) => {
            let asset = sinew_formats::load_spine(path, None, &options)?;
            let source = match tree {
                Some(v) => Source::SpineJson(v),
                None => Source::SpineBinary,
            };
            (asset, source)
        }
    };
    Ok(LintInput {
        file: path.to_path_buf(),
        asset,
        source,
    })
}

/// The atlas description next to `x_ske.json`: `x_tex.json`, when it exists.
fn sibling_tex(ske: &Path) -> Option<PathBuf> {
    let name = ske.file_name()?.to_str()?;
    let stem = name.strip_suffix("_ske.json")?;
    let p = ske.with_file_name(format!("{stem}_tex.json"));
    p.is_file().then_some(p)
}
