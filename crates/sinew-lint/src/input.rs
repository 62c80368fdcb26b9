//! Reading a rig for linting: the file is read once (through [`sinew_formats::budget`], so
//! it must be a regular file within the `file_bytes` budget), a JSON document is checked
//! against the `json_values` budget before it is parsed and for numbers too large to pose,
//! the format is told from the content ([`sinew_formats::detect`], [`Kind`]), and the rig
//! loads through [`sinew_formats::load_bytes`] from those bytes.

use crate::{LintInput, Source};
use serde_json::Value;
use sinew_formats::budget::Budgets;
use sinew_formats::{Companion, FileCompanions, Format, LoadError, LoadOptions, budget};
use std::path::Path;

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
    /// The kind of `bytes` ([`sinew_formats::detect`]), whose JSON document (if any) is
    /// `tree` ([`json_tree`]): a cage file is told by its keys; what is no rig goes to the
    /// Spine kinds, whose loader says what it really is.
    pub fn of(bytes: &[u8], tree: Option<&Value>) -> Kind {
        match (sinew_formats::detect(bytes), tree) {
            (Format::Inochi2D, _) => Kind::Puppet,
            (_, Some(v)) if crate::cage::is_cage_json(v) => Kind::Cage,
            (Format::DragonBones, _) => Kind::DragonBones,
            (_, Some(_)) => Kind::SpineJson,
            (_, None) => Kind::SpineBinary,
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
pub fn json_tree(bytes: &[u8], file: &str, budgets: &Budgets) -> Result<Option<Value>, LoadError> {
    let body = bytes
        .strip_prefix(b"\xef\xbb\xbf".as_slice())
        .unwrap_or(bytes);
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Ok(None);
    }
    budget::check_json(body, file, budgets)?;
    let Ok(v) = serde_json::from_slice::<Value>(body) else {
        return Ok(None);
    };
    budget::check_magnitudes(&v, file)?;
    Ok(Some(v))
}

/// Loads `path` (Spine JSON or `.skel`, DragonBones or an Inochi2D puppet, told apart by
/// the content), with an optional rig-extras file (jiggle bones to check; Spine only), within
/// the default budgets. The file is read once; a DragonBones skeleton takes the `*_tex.json`
/// beside it for the image sizes when there is one.
pub fn load(path: &Path, extras: Option<&Path>) -> Result<LintInput, LoadError> {
    // Read once in this scope (and an enclosing one: a `.skel` fix reads the file again).
    sinew_formats::read_once::read_once(|| {
        sinew_formats::read_once::keep(path);
        let budgets = Budgets::DEFAULT;
        let file = path.display().to_string();
        let bytes = budget::read_input(path, &file, &budgets)?;
        let tree = json_tree(&bytes, &file, &budgets)?;
        load_from(path, &bytes, tree, extras, &budgets)
    })
    .0
}

/// [`load`] from bytes already read (`bytes` are `path`'s, `tree` their [`json_tree`]),
/// within `budgets`; only the companions (extras, a DragonBones atlas) are read.
pub fn load_from(
    path: &Path,
    bytes: &[u8],
    tree: Option<Value>,
    extras: Option<&Path>,
    budgets: &Budgets,
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
    if kind == Kind::Cage {
        return Err(LoadError::Rig {
            file,
            message: "a cage file, not a rig: check it with `sinew_lint::cage::check_cage_json`"
                .to_owned(),
        });
    }
    let files = FileCompanions::beside(path, *budgets);
    let options = LoadOptions {
        // A DragonBones skeleton's `_tex.json` beside it gives the image sizes; a Spine
        // skeleton is linted untextured.
        atlas: if kind == Kind::DragonBones {
            Companion::Beside
        } else {
            Companion::Without
        },
        extras: match extras {
            Some(p) => Companion::Named(files.given(p)),
            None => Companion::Without,
        },
        textures: false,
        budgets: *budgets,
        ..Default::default()
    };
    let asset = sinew_formats::load_bytes(&file, bytes, &files, &options)?;
    let (asset, source) = match (kind, tree) {
        (Kind::Puppet, _) => {
            let c = sinew_formats::inochi2d::read_container(bytes, &file)?;
            // The loader has parsed (and budget-checked) this payload already.
            let payload = serde_json::from_slice(c.json).unwrap_or(Value::Null);
            (asset, Source::Puppet(payload))
        }
        (Kind::DragonBones, Some(tree)) => {
            let (armature, frame_rate) = match asset.dragonbones.as_deref() {
                Some(db) => (db.armature.clone(), db.frame_rate),
                None => (String::new(), 0.0),
            };
            let source = Source::DragonBones {
                tree,
                armature,
                frame_rate,
            };
            (asset, source)
        }
        (_, tree) => {
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
