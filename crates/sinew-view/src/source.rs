//! Where a file's rig extras and physics3 settings come from: the command line's
//! `--extras` / `--physics3` for the file it names, otherwise a `<stem>.extras.json` beside a
//! Spine skeleton (the panel says which, so a jiggle that appears is never a mystery).

use sinew_formats::LoadOptions;
use std::path::{Path, PathBuf};

/// The optional files loaded with a rig, and the panel's line about them.
pub(crate) struct Extras {
    /// What the loader is given.
    pub(crate) options: LoadOptions,
    /// E.g. `extras: stickbot.extras.json (beside the file)`; `None` when nothing extra.
    pub(crate) note: Option<String>,
}

/// The extras for `path`: `given` (the command line's, for the file it names) or, when
/// `given` has no extras file, the Spine skeleton's sibling `<stem>.extras.json`.
pub(crate) fn extras_for(path: &Path, given: &LoadOptions) -> Extras {
    let mut options = given.clone();
    let mut notes = Vec::new();
    match &given.extras {
        Some(e) => notes.push(format!("extras: {} (--extras)", file_name(e))),
        None => {
            if let Some(e) = sibling_extras(path) {
                notes.push(format!("extras: {} (beside the file)", file_name(&e)));
                options.extras = Some(e);
            }
        }
    }
    if let Some(p) = &given.physics3 {
        notes.push(format!("physics3: {} (--physics3)", file_name(p)));
    }
    Extras {
        options,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
    }
}

/// `<stem>.extras.json` beside `path`, when it is a file and `path` is a Spine skeleton
/// (extras name bones of Spine rigs; puppets and DragonBones skeletons take none).
pub(crate) fn sibling_extras(path: &Path) -> Option<PathBuf> {
    let stem = path.file_stem()?.to_str()?;
    let sibling = path.with_file_name(format!("{stem}.extras.json"));
    (sibling.is_file() && is_spine(path)).then_some(sibling)
}

/// Whether `path` holds a Spine skeleton (JSON or `.skel`), told from its content as the
/// loaders tell it: not an Inochi2D container, not DragonBones JSON.
fn is_spine(path: &Path) -> bool {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if matches!(ext.as_deref(), Some("inp" | "inx")) {
        return false;
    }
    let Ok(bytes) = sinew_formats::budget::read_input(path, &path.display().to_string()) else {
        return false;
    };
    !bytes.starts_with(b"TRNSRTS") && !sinew_formats::dragonbones::is_dragonbones_json(&bytes)
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn examples() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
    }

    #[test]
    fn stickbot_finds_its_sibling_extras_and_the_face_none() {
        let skel = examples().join("stickbot/stickbot.json");
        let e = extras_for(&skel, &LoadOptions::default());
        assert_eq!(
            e.options.extras.as_deref(),
            Some(examples().join("stickbot/stickbot.extras.json").as_path())
        );
        assert_eq!(
            e.note.as_deref(),
            Some("extras: stickbot.extras.json (beside the file)")
        );
        let face = examples().join("face/face.inp");
        let e = extras_for(&face, &LoadOptions::default());
        assert!(e.options.extras.is_none() && e.note.is_none());
    }

    #[test]
    fn given_files_win_and_are_named() {
        let skel = examples().join("stickbot/stickbot.json");
        let given = LoadOptions {
            extras: Some(PathBuf::from("/tmp/other.extras.json")),
            physics3: Some(PathBuf::from("x.physics3.json")),
        };
        let e = extras_for(&skel, &given);
        assert_eq!(
            e.options.extras.as_deref(),
            Some(Path::new("/tmp/other.extras.json"))
        );
        assert_eq!(
            e.note.as_deref(),
            Some("extras: other.extras.json (--extras); physics3: x.physics3.json (--physics3)")
        );
    }
}
