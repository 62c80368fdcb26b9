//! `sinew validate`: loads and builds a rig, then poses its setup pose once, and reports
//! `ok: ...` or a single-line error, for Spine skeletons, DragonBones skeletons (with the
//! sibling `*_tex.json`) and Inochi2D puppets, each told from the content (`crate::guard`).
//! Panics inside the runtime are caught by the caller ([`crate::run_guarded`]) and reported
//! as internal errors. Verified by the CLI tests (a fixture, a missing file, invalid JSON, a
//! wrong Spine version; a crafted DragonBones armature and a renamed puppet in
//! `tests/all/hostile_formats.rs`).

use crate::args::ValidateArgs;
use crate::pose::{self, Session, SessionSpec};
use anyhow::Result;
use sinew_formats::budget::Budgets;

/// Validates the file and returns the `ok: ...` line.
pub fn validate(args: &ValidateArgs, budgets: &Budgets) -> Result<String> {
    let format = crate::guard::Format::of(budgets, &args.file)?;
    if format == crate::guard::Format::Puppet {
        return validate_puppet(args, budgets);
    }
    let raw = pose::load_raw(budgets, &args.file)?;
    let asset = pose::load(budgets, &args.file, None, None)?;
    // Pose the setup pose once so runtime-side problems surface here too.
    let spec = SessionSpec {
        skins: pose::resolve_skins(&asset.rig, None)?,
        mode: crate::args::Mode::Apply,
        anim: None,
        from: None,
        at: 0.0,
        mix: 0.0,
        looping: true,
        physics: crate::args::PhysicsArg::Update,
        layers: Default::default(),
    };
    let mut session = Session::new(&asset, &spec)?;
    session.step(0.0);
    let constraints = raw.ik.len() + raw.transforms.len() + raw.paths.len() + raw.physics.len();
    Ok(format!(
        "ok: {}: {} {}, {} bones, {} slots, {} skins, {} animations, {} constraints",
        args.file.display(),
        if format == crate::guard::Format::DragonBones {
            "DragonBones"
        } else {
            "Spine"
        },
        if raw.version.is_empty() {
            "(no version)"
        } else {
            raw.version.as_str()
        },
        raw.bones.len(),
        raw.slots.len(),
        raw.skins.len(),
        raw.clips.len(),
        constraints
    ))
}

/// Validates a puppet: loads and builds it, runs one frame and draws it.
fn validate_puppet(args: &ValidateArgs, budgets: &Budgets) -> Result<String> {
    let asset = crate::inochi::load_puppet(budgets, &args.file, None)?;
    let mut c = asset.character();
    c.update(0.0);
    let drawn = c.draw_list().commands.len();
    let rig = &asset.rig;
    let (name, version) = asset
        .puppet
        .as_deref()
        .map_or(("", ""), |p| (p.name.as_str(), p.version.as_str()));
    Ok(format!(
        "ok: {}: Inochi2D puppet `{name}` ({}), {} nodes, {} drawables ({drawn} drawn), {} parameters, {} animations",
        args.file.display(),
        if version.is_empty() {
            "no version"
        } else {
            version
        },
        rig.bones.len(),
        rig.slots.len(),
        rig.params.params.len(),
        asset.param_animations.len()
    ))
}

/// Flattens an error chain to one line (`a: b: c`, newlines replaced).
pub fn one_line(err: &anyhow::Error) -> String {
    format!("{err:#}").replace(['\n', '\r'], " ")
}
