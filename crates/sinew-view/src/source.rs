//! Where a file's rig extras and physics3 settings come from: the command line's
//! `--extras` / `--physics3` for the file it names, otherwise the `<stem>.extras.json` beside
//! the file, when there is one ([`sinew_formats::Companion::Beside`]; the panel says which,
//! so a jiggle that appears is never a mystery).

use crate::ViewOptions;
use sinew_formats::{Asset, Companion, LoadOptions};
use std::path::Path;

/// The options to open a file with: the command line's `--atlas`, `--extras`, `--physics3`
/// (for the file it names; paths of the current folder, made absolute so that they are
/// names relative to any file) and `--armature`, else the atlas and extras beside the file.
/// A dropped file gets [`ViewOptions::default`]'s: only its own siblings.
pub(crate) fn options_for(opts: &ViewOptions) -> LoadOptions {
    let name = |p: &Path| {
        std::path::absolute(p)
            .unwrap_or_else(|_| p.to_path_buf())
            .display()
            .to_string()
    };
    LoadOptions {
        atlas: opts
            .atlas
            .as_deref()
            .map_or(Companion::Beside, |p| Companion::Named(name(p))),
        extras: opts
            .extras
            .as_deref()
            .map_or(Companion::Beside, |p| Companion::Named(name(p))),
        physics3: Companion::named_or_without(opts.physics3.as_deref().map(name)),
        armature: opts.armature.clone(),
        ..Default::default()
    }
}

/// The panel's line about the extras and physics3 that `asset` (the file `path` opened with
/// `options`) loaded, e.g. `extras: stickbot.extras.json (beside the file)`; `None` when
/// nothing extra loaded.
pub(crate) fn note(path: &Path, options: &LoadOptions, asset: &Asset) -> Option<String> {
    let mut notes = Vec::new();
    match &options.extras {
        Companion::Named(e) => notes.push(format!("extras: {} (--extras)", file_name(e))),
        // Extras loaded always give jiggle bones (maybe none of them).
        Companion::Beside if asset.jiggle.is_some() => {
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
            let stem = stem.unwrap_or_default();
            notes.push(format!("extras: {stem}.extras.json (beside the file)"));
        }
        _ => {}
    }
    if let Companion::Named(p) = &options.physics3 {
        notes.push(format!("physics3: {} (--physics3)", file_name(p)));
    }
    (!notes.is_empty()).then(|| notes.join("; "))
}

fn file_name(p: &str) -> String {
    Path::new(p)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn examples() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
    }

    #[test]
    fn stickbot_finds_its_extras_beside_it_and_the_face_none() {
        let skel = examples().join("stickbot/stickbot.json");
        let options = options_for(&ViewOptions::default());
        let asset = sinew_formats::load(&skel, &options).expect("stickbot loads");
        assert_eq!(
            note(&skel, &options, &asset).as_deref(),
            Some("extras: stickbot.extras.json (beside the file)")
        );
        let face = examples().join("face/face.inp");
        let asset = sinew_formats::load(&face, &options).expect("face loads");
        assert!(asset.jiggle.is_none() && note(&face, &options, &asset).is_none());
    }

    #[test]
    fn given_files_win_and_are_named() {
        let skel = examples().join("stickbot/stickbot.json");
        let given = options_for(&ViewOptions {
            extras: Some("/tmp/other.extras.json".into()),
            physics3: Some("x.physics3.json".into()),
            ..Default::default()
        });
        assert_eq!(
            given.extras,
            Companion::Named("/tmp/other.extras.json".into())
        );
        let asset = sinew_formats::load(&skel, &LoadOptions::default()).expect("loads");
        assert_eq!(
            note(&skel, &given, &asset).as_deref(),
            Some("extras: other.extras.json (--extras); physics3: x.physics3.json (--physics3)")
        );
    }
}
