//! The one way to load a rig: [`load`] from a path, [`load_bytes`] from bytes (what a game
//! engine's asset server or a web page hands you), for every format sinew reads, told apart
//! by [`detect`] from the content. Both return one [`Asset`].
//!
//! The main file's companions (a Spine atlas and its page images, a DragonBones `_tex.json`
//! and its image, rig extras, a Cubism physics3 file) are named relative to the main file and
//! fetched only through a [`Companions`] source: [`load`] is [`load_bytes`] with
//! [`FileCompanions`] rooted at the main file's folder, and [`load_bytes`] itself never
//! touches the file system. Every input is checked against the load's own
//! [`LoadOptions::budgets`] (no process-wide setting).
//!
//! Verified by `tests/all/load_bytes.rs`: every format loads from an in-memory map of
//! companions and poses bit for bit as [`load`] from the same files; bad and mistaken
//! inputs give typed errors naming the file and what it really is.

mod assemble;
mod detect;
mod files;

use crate::budget::Budgets;
use crate::{Asset, LoadError};
pub use detect::{Format, detect, image_size};
pub use files::FileCompanions;
use std::path::Path;

/// Where a load fetches the main file's companions by name (relative to the main file, `/`
/// separated: `hero.atlas`, `pages/hero.png`).
///
/// A closure `Fn(&str) -> std::io::Result<Vec<u8>>` is one; [`FileCompanions`] reads files.
/// A companion that does not exist must fail with [`std::io::ErrorKind::NotFound`]: a
/// [`Companion::Beside`] file that is not found is simply absent.
pub trait Companions {
    /// The bytes of the companion `name`.
    fn fetch(&self, name: &str) -> std::io::Result<Vec<u8>>;

    /// How errors name the companion `name` (default: the name itself; [`FileCompanions`]
    /// gives the path it read).
    fn describe(&self, name: &str) -> String {
        name.to_owned()
    }
}

impl<F: Fn(&str) -> std::io::Result<Vec<u8>>> Companions for F {
    fn fetch(&self, name: &str) -> std::io::Result<Vec<u8>> {
        self(name)
    }
}

/// No companions at all: every fetch is [`std::io::ErrorKind::NotFound`].
#[derive(Debug, Clone, Copy, Default)]
pub struct NoCompanions;

impl Companions for NoCompanions {
    fn fetch(&self, name: &str) -> std::io::Result<Vec<u8>> {
        Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("no companion files are given (asked for `{name}`)"),
        ))
    }
}

/// Which companion file to load for one role (atlas, extras, physics3).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Companion {
    /// The conventional name beside the main file, when the companion source has it: a
    /// Spine skeleton's `<stem>.atlas` (also `<base>.atlas` for `<base>-pro` / `<base>-ess`),
    /// a DragonBones `<stem>_ske.json`'s `<stem>_tex.json`, `<stem>.extras.json`,
    /// `<stem>.physics3.json`. Not found: none.
    #[default]
    Beside,
    /// This name, relative to the main file; it must exist.
    Named(String),
    /// None.
    Without,
}

impl Companion {
    /// `Some(name)`: [`Companion::Named`]; `None`: [`Companion::Without`].
    pub fn named_or_without(name: Option<impl Into<String>>) -> Companion {
        name.map_or(Companion::Without, |n| Companion::Named(n.into()))
    }
}

/// How to load a rig: its companions, the DragonBones armature, the budgets.
///
/// Owner: the loaders (`sinew-formats`), at load time.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadOptions {
    /// The atlas: a Spine `.atlas` or a DragonBones `_tex.json` (default: beside the
    /// skeleton when there is one; [`Companion::Without`] draws untextured). Puppets embed
    /// their textures and take none.
    pub atlas: Companion,
    /// A rig-extras JSON file (`docs/EXTRAS.md`): jiggle bones, colliders and delayed
    /// follows by bone name (default: none).
    pub extras: Companion,
    /// A Cubism `*.physics3.json`: pendulum chains over a puppet's parameters (default:
    /// none; puppets only).
    pub physics3: Companion,
    /// The DragonBones armature to load (default: the file's first; DragonBones only). A
    /// name the file lacks is an error listing the armatures it has.
    pub armature: Option<String>,
    /// Fetch every atlas page image (Spine pages, the DragonBones image) into
    /// [`Asset::pages`] and check every texture's declared size (pages and a puppet's
    /// embedded textures, from their headers) against `budgets.texture_bytes` (default:
    /// on). Off, no image is fetched: for a tool that only poses.
    pub textures: bool,
    /// What this load may read and decode (default: [`Budgets::DEFAULT`]).
    pub budgets: Budgets,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            atlas: Companion::Beside,
            extras: Companion::Without,
            physics3: Companion::Without,
            armature: None,
            textures: true,
            budgets: Budgets::DEFAULT,
        }
    }
}

/// Loads the rig at `path` (any format, told from its content) with its companions read
/// from the files beside it ([`FileCompanions`]). Only regular files within
/// `options.budgets.file_bytes` are read.
pub fn load(path: &Path, options: &LoadOptions) -> Result<Asset, LoadError> {
    let files = FileCompanions::beside(path, options.budgets);
    let main = files.read_main()?;
    load_bytes(&files.main_name(), &main, &files, options)
}

/// Loads a rig from the bytes of its main file, named `name` (in errors, and to find the
/// [`Companion::Beside`] files: `hero.json` looks for `hero.atlas`), with every companion
/// fetched from `companions`. Never touches the file system.
pub fn load_bytes(
    name: &str,
    main: &[u8],
    companions: &dyn Companions,
    options: &LoadOptions,
) -> Result<Asset, LoadError> {
    let ctx = assemble::Ctx {
        name,
        companions,
        options,
    };
    ctx.check_size(name, main.len())?;
    let format = detect(main);
    match format {
        Format::SpineJson | Format::SpineSkel => ctx.spine(main, format),
        Format::DragonBones => ctx.dragonbones(main),
        Format::Inochi2D => ctx.puppet(main),
        found => Err(LoadError::NotARig {
            file: name.to_owned(),
            found,
        }),
    }
}

/// The folder part of a companion name (`a/b.atlas` -> `a/`), to which the names inside
/// it (atlas pages) are relative.
pub(crate) fn folder_of(name: &str) -> &str {
    match name.rfind(['/', '\\']) {
        Some(i) => &name[..=i],
        None => "",
    }
}

/// The file name part of a name (`a/b.json` -> `b.json`).
pub(crate) fn file_name_of(name: &str) -> &str {
    &name[folder_of(name).len()..]
}
