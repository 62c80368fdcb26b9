//! Companions read from the file system: names relative to the main file's folder; a file a
//! host names by its own path ([`FileCompanions::given`], what a command line's `--atlas x`
//! is) becomes such a name. Only regular files within the `file_bytes` budget are read.

use super::Companions;
use crate::LoadError;
use crate::budget::Budgets;
use std::path::{Path, PathBuf};

/// The [`Companions`] of a main file on disk: a name is read from the main file's folder
/// (for a bare `hero.json`, the current folder; an absolute name from where it says).
#[derive(Debug, Clone)]
pub struct FileCompanions {
    main: PathBuf,
    dir: PathBuf,
    budgets: Budgets,
}

impl FileCompanions {
    /// The companions of the main file `main`, read within `budgets`.
    pub fn beside(main: &Path, budgets: Budgets) -> FileCompanions {
        FileCompanions {
            main: main.to_path_buf(),
            dir: main.parent().map(Path::to_path_buf).unwrap_or_default(),
            budgets,
        }
    }

    /// The name, for [`super::LoadOptions`], of a companion the host names by its own path
    /// (relative to the current folder, not to the main file): relative to the main file's
    /// folder when it is inside it (so errors name it as given), else absolute. Names inside
    /// the companion (an atlas's pages) are then relative to its own folder, as they should.
    pub fn given(&self, path: &Path) -> String {
        if let Ok(inside) = path.strip_prefix(&self.dir)
            && !inside.as_os_str().is_empty()
        {
            return inside.display().to_string();
        }
        std::path::absolute(path)
            .unwrap_or_else(|_| path.to_path_buf())
            .display()
            .to_string()
    }

    /// The main file's name in errors (its path as given).
    pub fn main_name(&self) -> String {
        self.main.display().to_string()
    }

    /// The main file's bytes (a regular file within the `file_bytes` budget).
    pub fn read_main(&self) -> Result<Vec<u8>, LoadError> {
        crate::budget::read_input(&self.main, &self.main_name(), &self.budgets)
    }

    fn path_of(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Companions for FileCompanions {
    fn fetch(&self, name: &str) -> std::io::Result<Vec<u8>> {
        let path = self.path_of(name);
        let file = path.display().to_string();
        crate::budget::read_input(&path, &file, &self.budgets).map_err(|e| match e {
            LoadError::Io { source, .. } => source,
            // Not a regular file, over budget: the loader names the file around this.
            other => std::io::Error::other(strip_file(&other.to_string(), &file)),
        })
    }

    fn describe(&self, name: &str) -> String {
        self.path_of(name).display().to_string()
    }
}

/// An error's text without its leading `file: ` (the loader puts the name back).
fn strip_file(text: &str, file: &str) -> String {
    text.strip_prefix(file)
        .and_then(|t| t.strip_prefix(": "))
        .unwrap_or(text)
        .to_owned()
}
