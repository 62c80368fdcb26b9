//! `sinew convert IN OUT`: Spine JSON <-> Spine binary `.skel`, and DragonBones 5.x ->
//! Spine 4.2 (JSON or `.skel`). The input format is told from the content, the output's
//! from `--format` or OUT's extension (`.skel` binary, anything else JSON). Prints what was
//! written and every item that could not be converted exactly (see `docs/CONVERT.md`).

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use sinew::raw::RawRig;
use sinew_formats::budget::Budgets;
use std::fmt::Write as _;
use std::path::PathBuf;

/// What `convert` converts, for the error on any other input.
const CONVERTS: &str = "convert converts Spine JSON <-> Spine .skel and DragonBones 5.x -> \
                        Spine 4.2 (JSON or .skel); Inochi2D puppets and other files are not \
                        converted";

/// `sinew convert` options.
#[derive(Debug, Clone, Args)]
pub struct ConvertArgs {
    /// Input: Spine JSON, Spine binary `.skel` or DragonBones `*_ske.json` (told from the
    /// content).
    pub input: PathBuf,
    /// Output file.
    pub output: PathBuf,
    /// Output format (default: `skel` for a `.skel` OUT, else `json`).
    #[arg(long, value_enum)]
    pub format: Option<OutFormat>,
    /// DragonBones: the armature to convert (default: as the runtime picks).
    #[arg(long)]
    pub armature: Option<String>,
    /// DragonBones: the atlas description (`*_tex.json`; default: the `_tex.json` next to a
    /// `_ske.json` when there is one).
    #[arg(long)]
    pub tex: Option<PathBuf>,
    /// JSON output on one line (default: indented).
    #[arg(long)]
    pub compact: bool,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutFormat {
    /// Spine 4.2 JSON.
    Json,
    /// Spine 4.2 binary.
    Skel,
}

impl OutFormat {
    fn name(self) -> &'static str {
        match self {
            OutFormat::Json => "Spine 4.2 JSON",
            OutFormat::Skel => "Spine 4.2 binary",
        }
    }
}

/// Runs `sinew convert`; returns the report.
pub fn convert(a: &ConvertArgs, budgets: &Budgets) -> Result<String> {
    let input = a.input.display().to_string();
    let out = a.output.display().to_string();
    let bytes = sinew_formats::budget::read_input(&a.input, &input, budgets)
        .map_err(crate::guard::load_error)?;
    let format = a.format.unwrap_or_else(|| {
        if a.output.extension().is_some_and(|e| e == "skel") {
            OutFormat::Skel
        } else {
            OutFormat::Json
        }
    });
    let mut inexact = Vec::new();
    let found = sinew_formats::detect(&bytes);
    let (rig, from): (RawRig, &str) = if found == sinew_formats::Format::DragonBones {
        // `--tex`, else the `_tex.json` beside the skeleton.
        let load = crate::guard::LoadArgs {
            atlas: a.tex.as_deref().map(Some),
            armature: a.armature.as_deref(),
            ..Default::default()
        };
        let asset = crate::guard::load(budgets, &a.input, load)?;
        let Some(db) = asset.dragonbones.as_deref() else {
            bail!("{input}: not a DragonBones skeleton");
        };
        let conv = sinew_formats::convert::dragonbones_to_spine(db);
        inexact = conv.inexact;
        if asset.atlas.is_none() {
            inexact.push(
                "no `_tex.json` given (--tex): regions have no size from the atlas".to_owned(),
            );
        }
        (conv.rig, "DragonBones")
    } else {
        for (flag, set) in [
            ("--armature", a.armature.is_some()),
            ("--tex", a.tex.is_some()),
        ] {
            if set {
                bail!("{input}: {flag} is for DragonBones input; this is a Spine skeleton");
            }
        }
        let from = match found {
            sinew_formats::Format::SpineJson => "Spine JSON",
            sinew_formats::Format::SpineSkel => "Spine binary",
            other => bail!(
                "{input}: {}, not a Spine or DragonBones skeleton; {CONVERTS}",
                other.describe()
            ),
        };
        let raw = sinew_formats::spine::parse_spine_with(&bytes, &input, budgets)
            .map_err(crate::guard::load_error)?;
        (raw, from)
    };
    let data = match format {
        OutFormat::Json => {
            sinew_formats::spine::write_spine_json(&rig, !a.compact).map(String::into_bytes)
        }
        OutFormat::Skel => sinew_formats::spine::write_spine_binary(&rig),
    }
    .map_err(|e| anyhow::anyhow!("{out}: cannot write {}: {e}", format.name()))?;
    std::fs::write(&a.output, &data).with_context(|| format!("{out}: cannot write"))?;
    let mut report = format!(
        "wrote {out} ({}, {} bytes) from {input} ({from}): {} bones, {} slots, {} skins, {} \
         animations",
        format.name(),
        data.len(),
        rig.bones.len(),
        rig.slots.len(),
        rig.skins.len(),
        rig.clips.len()
    );
    if !inexact.is_empty() {
        let _ = write!(report, "\nnot converted exactly ({}):", inexact.len());
        for line in &inexact {
            let _ = write!(report, "\n  - {line}");
        }
    }
    Ok(report)
}
