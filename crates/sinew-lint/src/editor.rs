//! Advice in the terms of the file's own editor. The checks write their `fix` for a Spine
//! skeleton (Spine's views and attachment kinds); a DragonBones skeleton or an Inochi2D
//! puppet gets the same advice in DragonBones Pro's or Inochi Creator's terms, or without
//! what its format lacks (DragonBones IK has no softness or stretch; a puppet has no bone
//! weights and no `--fix`). Verified by `sinew-cli/tests/all/first_hour.rs`
//! (`lint_advice_speaks_the_files_editor`) and the unit test below.

use crate::{Finding, LintInput, Source};

/// The editor a source is made in, for advice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Editor {
    Spine,
    DragonBones,
    Inochi,
}

fn editor(source: &Source) -> Editor {
    match source {
        Source::SpineJson(_) | Source::SpineBinary => Editor::Spine,
        Source::DragonBones { .. } => Editor::DragonBones,
        Source::Puppet(_) => Editor::Inochi,
    }
}

/// Rewrites each finding's `fix` for the input's editor (Spine's advice stays as written).
pub(crate) fn advise(input: &LintInput, findings: &mut [Finding]) {
    let ed = editor(&input.source);
    if ed == Editor::Spine {
        return;
    }
    for f in findings.iter_mut() {
        if let Some(fix) = advice(ed, f.code, &f.fix) {
            f.fix = fix;
        }
    }
}

/// The advice for `code` in `ed`'s terms, from the Spine advice `spine` (`None`: it holds
/// no editor-specific term and stays).
fn advice(ed: Editor, code: &str, spine: &str) -> Option<String> {
    let text = match (code, ed) {
        ("seam-opens", Editor::DragonBones) => {
            "give both vertices the same bones and weights (DragonBones Pro: select the mesh, \
             edit its weights and give the two vertices the same bone weights), or overlap the \
             parts so the gap stays covered"
                .to_owned()
        }
        ("seam-opens", Editor::Inochi) => {
            "make both vertices move together (Inochi Creator: at this parameter value, edit \
             the two parts' keyforms so the shared vertices get the same offsets, or put both \
             parts under one deformer), or overlap the parts so the gap stays covered"
                .to_owned()
        }
        ("weights-not-normalized", Editor::DragonBones) => {
            "normalise the weights in DragonBones Pro (the mesh's weights), or run `sinew lint \
             --fix OUT` to divide each weight by its sum"
                .to_owned()
        }
        ("weights-not-normalized", Editor::Inochi) => {
            "re-export the puppet from Inochi Creator with weights that sum to 1".to_owned()
        }
        ("rigid-dense-mesh", Editor::DragonBones) => {
            "keep rigid parts low-poly (a hull of a few vertices around the opaque pixels) or \
             use an image display instead of a mesh"
                .to_owned()
        }
        ("rigid-dense-mesh", Editor::Inochi) => {
            "keep rigid parts low-poly (Inochi Creator's mesh editor: a hull of a few vertices \
             around the opaque pixels)"
                .to_owned()
        }
        ("ik-out-of-reach", Editor::DragonBones) => {
            // DragonBones IK has neither softness nor stretch: only the target or the chain.
            let target = spine.find("key the target").map_or("", |i| &spine[i..]);
            if target.is_empty() {
                "move the target within the chain's reach, or lengthen the chain (DragonBones \
                 IK has no softness or stretch)"
                    .to_owned()
            } else {
                format!(
                    "lengthen the chain, or {target} (DragonBones IK has no softness or stretch)"
                )
            }
        }
        _ => return None,
    };
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_spine_terms_for_other_editors() {
        let spine = "give the constraint some softness (about 3.0, a few percent of the reach), \
                     enable stretch, or key the target at most 4.00 units closer";
        for ed in [Editor::DragonBones, Editor::Inochi] {
            for code in [
                "seam-opens",
                "weights-not-normalized",
                "rigid-dense-mesh",
                "ik-out-of-reach",
            ] {
                if let Some(text) = advice(ed, code, spine) {
                    assert!(!text.contains("Spine"), "{code}: {text}");
                    assert!(!text.contains("softness ("), "{code}: {text}");
                }
            }
        }
        let db = advice(Editor::DragonBones, "ik-out-of-reach", spine).expect("rewritten");
        assert!(
            db.contains("key the target at most 4.00 units closer"),
            "{db}"
        );
        assert_eq!(advice(Editor::Inochi, "keyform-grid-incomplete", "x"), None);
    }
}
