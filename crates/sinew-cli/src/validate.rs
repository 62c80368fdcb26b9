//! `sinew validate`: loads and builds a rig, then poses its setup pose once, and reports
//! `ok: ...` or a single-line error. Panics inside the runtime are caught by the caller
//! ([`crate::run_guarded`]) and reported as internal errors. Verified by the CLI tests
//! (a fixture, a missing file, invalid JSON, a wrong Spine version).

use crate::args::ValidateArgs;
use crate::pose::{self, Session, SessionSpec};
use anyhow::Result;

/// Validates the file and returns the `ok: ...` line.
pub fn validate(args: &ValidateArgs) -> Result<String> {
    let raw = pose::load_raw(&args.file)?;
    let rig = pose::build(&raw, &args.file)?;
    // Pose the setup pose once so runtime-side problems surface here too.
    let spec = SessionSpec {
        skins: pose::resolve_skins(&rig, None)?,
        mode: crate::args::Mode::Apply,
        anim: None,
        from: None,
        at: 0.0,
        mix: 0.0,
        looping: true,
        physics: crate::args::PhysicsArg::Update,
    };
    let mut session = Session::new(&rig, &spec)?;
    session.step(0.0);
    let constraints = raw.ik.len() + raw.transforms.len() + raw.paths.len() + raw.physics.len();
    Ok(format!(
        "ok: {}: Spine {}, {} bones, {} slots, {} skins, {} animations, {} constraints",
        args.file.display(),
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

/// Flattens an error chain to one line (`a: b: c`, newlines replaced).
pub fn one_line(err: &anyhow::Error) -> String {
    format!("{err:#}").replace(['\n', '\r'], " ")
}
