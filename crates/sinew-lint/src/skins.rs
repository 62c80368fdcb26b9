//! `skin-draws-nothing`: the skin a rig shows when none is chosen (its default skin) draws
//! nothing in the setup pose while other skins do (mix-and-match: its parts are all in named
//! skins meant to be combined). A host that shows the rig as loaded gets an empty image;
//! the finding lists the skins to choose from. Verified by
//! `sinew-cli/tests/all/first_hour.rs` (`a_skin_that_draws_nothing_is_reported`).

use crate::{Finding, Severity, Where};
use sinew_formats::Asset;

/// The finding, when the default skin draws nothing and the rig has other skins.
pub fn check(asset: &Asset) -> Vec<Finding> {
    let rig = &asset.rig;
    let others: Vec<&str> = rig
        .skins
        .iter()
        .enumerate()
        .filter(|(i, _)| rig.default_skin.map(|d| d.index()) != Some(*i))
        .map(|(_, s)| s.name.as_str())
        .collect();
    if others.is_empty() {
        return Vec::new();
    }
    let mut c = asset.character();
    c.update(0.0);
    if c.draw_list().bounds().is_some() {
        return Vec::new();
    }
    let default = rig
        .default_skin
        .map(|d| rig.skins[d.index()].name.clone())
        .unwrap_or_else(|| "default".to_owned());
    vec![Finding {
        code: "skin-draws-nothing",
        severity: Severity::Warning,
        message: format!(
            "the default skin `{default}` draws nothing in the setup pose: a host that shows \
             the rig without choosing skins (`sinew render` without --skin, a game that only \
             loads it) gets an empty image; its parts are in {} other skins",
            others.len()
        ),
        at: Where {
            skin: Some(default),
            ..Default::default()
        },
        fix: format!(
            "choose skins to show (`sinew render --skin A,B`, `Character::set_skins`): {}",
            others.join(", ")
        ),
        edit: None,
    }]
}
