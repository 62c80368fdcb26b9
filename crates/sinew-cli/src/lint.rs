//! `sinew lint FILE [--format text|json] [--extras FILE] [--fix OUT]`: the checks of
//! `sinew-lint` on a Spine skeleton (JSON or `.skel`), an Inochi2D puppet or a cage file
//! (told apart by the content). Exit status: 0 without errors, 1 with errors, 2 when the
//! file cannot be read or loaded. Verified by `tests/lint_cli.rs`.

use clap::{Args, ValueEnum};
use sinew_lint::{Options, Source};
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
    /// Spine 4.2 skeleton (JSON or .skel), Inochi2D puppet (.inp/.inx) or cage JSON.
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    pub format: LintFormat,
    /// Rig-extras JSON adding jiggle bones (their chains are checked too).
    #[arg(long)]
    pub extras: Option<PathBuf>,
    /// Write a copy with the mechanical fixes (normalised weights, draw-order keys moved)
    /// to this file (Spine JSON input).
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

/// Runs the linter. `Err` is a file that cannot be read or loaded (exit status 2).
pub fn lint(args: &LintArgs) -> anyhow::Result<LintOutcome> {
    let file = args.file.display().to_string();
    let findings = match cage_file(args)? {
        Some(f) => f,
        None => {
            let input = sinew_lint::load(&args.file, args.extras.as_deref())
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let findings = sinew_lint::lint(&input, &Options::default());
            if let Some(out) = &args.fix {
                let Source::SpineJson(tree) = &input.source else {
                    anyhow::bail!("--fix writes Spine JSON: {file} is not a Spine JSON skeleton");
                };
                let mut tree = tree.clone();
                sinew_lint::fix::fix_spine_json(&mut tree, &findings);
                let text = serde_json::to_string_pretty(&tree)?;
                std::fs::write(out, text + "\n")
                    .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", out.display()))?;
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

/// The findings of a cage file, or `None` when the file is not one.
fn cage_file(args: &LintArgs) -> anyhow::Result<Option<Vec<sinew_lint::Finding>>> {
    let bytes = sinew_formats::budget::read_input(&args.file, &args.file.display().to_string())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Ok(None);
    }
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Ok(None);
    };
    if !sinew_lint::cage::is_cage_json(&doc) {
        return Ok(None);
    }
    let name = args
        .file
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    sinew_lint::cage::check_cage_json(&name, &doc)
        .map(Some)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))
}
