//! `sinew convert IN OUT`: Spine JSON <-> Spine binary `.skel`, Spine 4.2 -> 4.3
//! (`--spine 4.3`), and DragonBones 5.x -> Spine 4.2 (JSON or `.skel`). The input format is told from the content, the output's
//! from `--format` or OUT's extension (`.skel` binary, anything else JSON). Prints what was
//! written and every item that could not be converted exactly (see `docs/CONVERT.md`).

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use sinew::raw::RawRig;
use sinew::types::SpineRuntime;
use sinew_formats::budget::Budgets;
use std::fmt::Write as _;
use std::path::PathBuf;

/// What `convert` converts, for the error on any other input.
const CONVERTS: &str = "convert converts Spine JSON <-> Spine .skel, Spine 4.2 -> 4.3 and \
                        DragonBones 5.x -> Spine 4.2 (JSON or .skel); Inochi2D puppets and other files are not \
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
    /// Spine version to write (default: the input's; DragonBones input: 4.2). `4.3` upgrades
    /// a 4.2 skeleton (see docs/CONVERT.md); 4.3 skeletons are not written as 4.2.
    #[arg(long, value_enum)]
    pub spine: Option<SpineVersion>,
}

/// Spine versions `convert` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SpineVersion {
    /// Spine 4.2.
    #[value(name = "4.2")]
    V42,
    /// Spine 4.3.
    #[value(name = "4.3")]
    V43,
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
    fn name(self, v43: bool) -> &'static str {
        match (self, v43) {
            (OutFormat::Json, false) => "Spine 4.2 JSON",
            (OutFormat::Skel, false) => "Spine 4.2 binary",
            (OutFormat::Json, true) => "Spine 4.3 JSON",
            (OutFormat::Skel, true) => "Spine 4.3 binary",
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
    let (mut rig, from): (RawRig, &str) = if found == sinew_formats::Format::DragonBones {
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
    let mut changed = Vec::new();
    let v43 = match (a.spine, rig.runtime) {
        (Some(SpineVersion::V43), SpineRuntime::V42) => {
            let up = sinew_formats::spine::upgrade_to_spine43(&rig);
            changed = up.notes;
            rig = up.rig;
            true
        }
        (Some(SpineVersion::V42), SpineRuntime::V43) => bail!(
            "{input}: a Spine 4.3 skeleton cannot be written as 4.2 (--spine 4.2); sinew \
             upgrades 4.2 to 4.3, not back"
        ),
        (_, runtime) => runtime == SpineRuntime::V43,
    };
    let data = match format {
        OutFormat::Json => {
            sinew_formats::spine::write_spine_json(&rig, !a.compact).map(String::into_bytes)
        }
        OutFormat::Skel => sinew_formats::spine::write_spine_binary(&rig),
    }
    .map_err(|e| anyhow::anyhow!("{out}: cannot write {}: {e}", format.name(v43)))?;
    std::fs::write(&a.output, &data).with_context(|| format!("{out}: cannot write"))?;
    let mut report = format!(
        "wrote {out} ({}, {} bytes) from {input} ({from}): {} bones, {} slots, {} skins, {} \
         animations",
        format.name(v43),
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
    if !changed.is_empty() {
        let _ = write!(
            report,
            "\nupgraded to 4.3 ({} notes: what was dropped or rewritten, and 4.2 behaviour the \
             4.3 runtime runs differently that this skeleton uses):",
            changed.len()
        );
        for line in &changed {
            let _ = write!(report, "\n  - {line}");
        }
    }
    Ok(report)
}
