//! `sinew lint FILE [--format text|json] [--extras FILE] [--fix OUT]`: the checks of
//! `sinew-lint` on a Spine skeleton (JSON or `.skel`), a DragonBones skeleton, an Inochi2D
//! puppet or a cage file (told apart by the content). Exit status: 0 without errors, 1
//! with errors, 2 when the file cannot be read or loaded or an option does not apply to it
//! (`--extras` to anything but a Spine skeleton, `--fix` to a puppet or a cage file).
//! Verified by `tests/all/lint_cli.rs`.

use anyhow::{anyhow, bail};
use clap::{Args, ValueEnum};
use sinew_formats::budget::Budgets;
use sinew_lint::{Kind, Options};
use std::path::PathBuf;

/// Output format of `sinew lint`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LintFormat {
    /// One block per finding and a summary line.
    Text,
    /// `{"file": ..., "findings": [{"code", "severity", "message", "where", "fix"}]}`.
    Json,
}

/// `sinew lint` options.
#[derive(Debug, Clone, Args)]
pub struct LintArgs {
    /// Spine 4.2 skeleton (JSON or .skel), DragonBones skeleton (_ske.json), Inochi2D
    /// puppet (.inp/.inx) or cage JSON.
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    pub format: LintFormat,
    /// Rig-extras JSON adding jiggle bones (their chains are checked too); Spine only.
    #[arg(long)]
    pub extras: Option<PathBuf>,
    /// Write a copy with the mechanical fixes (normalised weights, draw-order keys moved)
    /// to this file, in the input's format (Spine JSON or .skel, DragonBones JSON; not for
    /// puppets or cage files).
    #[arg(long)]
    pub fix: Option<PathBuf>,
}

/// What `sinew lint` prints and how it exits.
#[derive(Debug, Clone)]
pub struct LintOutcome {
    /// Text for stdout.
    pub stdout: String,
    /// Exit status: 0, 1 (errors found) or 2 (unreadable).
    pub status: u8,
}

/// Runs the linter. `Err` is a file that cannot be read or loaded, or an option that does
/// not apply to it (exit status 2).
///
/// The file is read once (through `sinew_formats::budget`, shared with the loader inside the
/// CLI's read-once scope); a JSON document is checked against the `json_values` budget
/// before it is parsed and for numbers too large to pose.
pub fn lint(args: &LintArgs, budgets: &Budgets) -> anyhow::Result<LintOutcome> {
    let file = args.file.display().to_string();
    let bytes = sinew_formats::budget::read_input(&args.file, &file, budgets)
        .map_err(crate::guard::load_error)?;
    let tree = sinew_lint::json_tree(&bytes, &file, budgets).map_err(crate::guard::load_error)?;
    let kind = Kind::of(&bytes, tree.as_ref());
    // Options that do not apply, before any work (as the other verbs refuse them).
    if !kind.takes_extras() {
        crate::guard::not_for(kind.name(), &args.file, "--extras", args.extras.is_some())?;
    }
    if args.fix.is_some()
        && let Some(why) = sinew_lint::fix::unsupported(kind)
    {
        bail!("--fix does not apply to {file} ({}): {why}", kind.name());
    }
    let findings = match (kind, tree) {
        (Kind::Cage, Some(doc)) => {
            let name = args
                .file
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            sinew_lint::cage::check_cage_json(&name, &doc).map_err(|e| anyhow!("{file}: {e}"))?
        }
        (_, tree) => {
            let input =
                sinew_lint::load_from(&args.file, &bytes, tree, args.extras.as_deref(), budgets)
                    .map_err(crate::guard::load_error)?;
            let findings = sinew_lint::lint(&input, &Options::default());
            if let Some(out) = &args.fix {
                let (data, _) = sinew_lint::fix::fixed_file(&input, &findings)
                    .map_err(|e| anyhow!("--fix: {e}"))?;
                std::fs::write(out, data)
                    .map_err(|e| anyhow!("{}: cannot write: {e}", out.display()))?;
            }
            findings
        }
    };
    let stdout = match args.format {
        LintFormat::Text => sinew_lint::report_text(&file, &findings),
        LintFormat::Json => {
            let mut s = serde_json::to_string_pretty(&sinew_lint::report_json(&file, &findings))?;
            s.push('\n');
            s
        }
    };
    Ok(LintOutcome {
        stdout,
        status: u8::from(sinew_lint::has_errors(&findings)),
    })
}
