//! `--fix`: the mechanical fixes written in the input's format, leaving everything else as
//! it was: weights divided by their sum, draw-order keys moved to the suggested time.
//!
//! - Spine JSON and DragonBones JSON: edited in the file's JSON tree (keys, their order and
//!   every untouched number stay as they were; the output is pretty-printed);
//! - Spine `.skel`: the file's raw rig is edited and written again by the binary writer
//!   (`sinew_formats::spine::binary::write_spine_binary`, the reader's exact mirror);
//! - Inochi2D puppets: no mechanical fix applies ([`unsupported`] says why).
//!
//! Re-linting the written file finds neither fault again (`tests/all/codes.rs`,
//! `tests/all/formats.rs`).

use crate::{Edit, Finding, Kind, LintInput, Source};
use serde_json::Value;
use sinew::raw::{RawAttachmentKind, RawRig, RawTarget, Vertices};

/// Why `--fix` cannot write a file of `kind`, or `None` when it can.
pub fn unsupported(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Puppet => Some(
            "no mechanical fix applies to an Inochi2D puppet: the two fixes are normalised bone \
             weights and moved draw-order keys, and a puppet has neither (its parts deform by \
             keyforms, not bone weights, and its draw order is zsort); its findings \
             (keyform-grid-incomplete, seam-opens, physics-frame-rate, ...) are fixed in the \
             editor",
        ),
        Kind::Cage => Some(
            "no mechanical fix applies to a cage file: move the points inside the cage or \
             grow the cage",
        ),
        Kind::SpineJson | Kind::SpineBinary | Kind::DragonBones => None,
    }
}

/// Why a fixed copy could not be made.
#[derive(Debug)]
pub struct FixError(pub String);

impl std::fmt::Display for FixError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FixError {}

/// The input with the findings' edits made, as bytes of the input's format (Spine JSON,
/// `.skel` or DragonBones JSON), and how many edits were made. A puppet is an error
/// ([`unsupported`]).
pub fn fixed_file(input: &LintInput, findings: &[Finding]) -> Result<(Vec<u8>, usize), FixError> {
    let file = input.file.display().to_string();
    let pretty = |tree: &Value| {
        serde_json::to_string_pretty(tree)
            .map(|s| (s + "\n").into_bytes())
            .map_err(|e| FixError(format!("{file}: {e}")))
    };
    match &input.source {
        Source::SpineJson(tree) => {
            let mut tree = tree.clone();
            let n = fix_spine_json(&mut tree, findings);
            Ok((pretty(&tree)?, n))
        }
        Source::DragonBones {
            tree,
            armature,
            frame_rate,
        } => {
            let mut tree = tree.clone();
            let n = crate::dragonbones::fix_dragonbones_json(
                &mut tree,
                armature,
                *frame_rate,
                findings,
            );
            Ok((pretty(&tree)?, n))
        }
        Source::SpineBinary => {
            // Read again (served from memory inside the CLI's read-once scope).
            let bytes = sinew_formats::budget::read_input(&input.file, &file, &input.asset.budgets)
                .map_err(|e| FixError(e.to_string()))?;
            let mut raw = sinew_formats::spine::binary::parse_spine_binary(&bytes, &file)
                .map_err(|e| FixError(e.to_string()))?;
            let n = fix_raw(&mut raw, findings);
            let out = sinew_formats::spine::binary::write_spine_binary(&raw)
                .map_err(|e| FixError(format!("{file}: cannot write the fixed .skel: {e}")))?;
            Ok((out, n))
        }
        Source::Puppet(_) => Err(FixError(format!(
            "{file}: {}",
            unsupported(Kind::Puppet).unwrap_or_default()
        ))),
    }
}

/// Applies the findings' edits to a raw rig (what a `.skel` holds); returns how many were
/// made.
pub fn fix_raw(raw: &mut RawRig, findings: &[Finding]) -> usize {
    let mut done = 0;
    for f in findings {
        let ok = match &f.edit {
            Some(Edit::NormalizeWeights { skin, slot, key }) => raw
                .skins
                .iter_mut()
                .find(|s| &s.name == skin)
                .and_then(|s| {
                    s.attachments
                        .iter_mut()
                        .find(|e| &e.slot == slot && &e.key == key)
                })
                .and_then(|e| match &mut e.attachment.kind {
                    RawAttachmentKind::Mesh { vertices, .. }
                    | RawAttachmentKind::BoundingBox { vertices, .. }
                    | RawAttachmentKind::Path { vertices, .. }
                    | RawAttachmentKind::Clipping { vertices, .. } => Some(vertices),
                    _ => None,
                })
                .is_some_and(normalize_raw),
            Some(Edit::MoveDrawOrderKey {
                animation,
                index,
                time,
            }) => raw
                .clips
                .iter_mut()
                .find(|c| &c.name == animation)
                .and_then(|c| {
                    c.timelines
                        .iter_mut()
                        .find(|t| matches!(t.target, RawTarget::DrawOrder))
                })
                .and_then(|t| t.keys.get_mut(*index))
                .is_some_and(|k| {
                    k.time = crate::round(*time, 4);
                    true
                }),
            None => false,
        };
        done += usize::from(ok);
    }
    done
}

/// Divides each weighted vertex's weights by their sum in a raw rig's vertices.
fn normalize_raw(v: &mut Vertices) -> bool {
    let (mut b, mut w, mut changed) = (0usize, 0usize, false);
    for _ in 0..v.count {
        let Some(&n) = v.bones.get(b) else {
            break;
        };
        let n = n as usize;
        b += 1 + n;
        let Some(run) = v.values.get_mut(w..w + 3 * n) else {
            break;
        };
        w += 3 * n;
        let sum: f64 = run.chunks_exact(3).map(|c| f64::from(c[2])).sum();
        if n > 0 && (sum - 1.0).abs() > 1e-7 {
            for c in run.chunks_exact_mut(3) {
                c[2] = if sum.abs() > 1e-12 {
                    (f64::from(c[2]) / sum) as f32
                } else {
                    1.0 / n as f32
                };
            }
            changed = true;
        }
    }
    changed
}

/// Applies the findings' edits to a Spine JSON tree; returns how many were made.
pub fn fix_spine_json(root: &mut Value, findings: &[Finding]) -> usize {
    let mut done = 0;
    for f in findings {
        let ok = match &f.edit {
            Some(Edit::NormalizeWeights { skin, slot, key }) => {
                vertices_of(root, skin, slot, key).is_some_and(normalize_weights)
            }
            Some(Edit::MoveDrawOrderKey {
                animation,
                index,
                time,
            }) => move_key(root, animation, *index, *time),
            None => false,
        };
        done += usize::from(ok);
    }
    done
}

/// The `vertices` array of an attachment of a skin (4.x array of skins, or 3.x object).
fn vertices_of<'a>(
    root: &'a mut Value,
    skin: &str,
    slot: &str,
    key: &str,
) -> Option<&'a mut Value> {
    let skins = root.get_mut("skins")?;
    let s = match skins {
        Value::Array(a) => a
            .iter_mut()
            .find(|s| s.get("name").and_then(Value::as_str) == Some(skin))?
            .get_mut("attachments")?,
        Value::Object(o) => o.get_mut(skin)?,
        _ => return None,
    };
    s.get_mut(slot)?.get_mut(key)?.get_mut("vertices")
}

/// Divides each weighted vertex's weights by their sum (equal weights for a zero sum).
fn normalize_weights(v: &mut Value) -> bool {
    let Some(a) = v.as_array_mut() else {
        return false;
    };
    let mut i = 0;
    let mut changed = false;
    while i < a.len() {
        let Some(n) = a[i].as_f64().map(|n| n as usize) else {
            return changed;
        };
        let end = i + 1 + 4 * n;
        if end > a.len() {
            return changed;
        }
        let weights: Vec<f64> = (0..n)
            .map(|k| a[i + 4 + 4 * k].as_f64().unwrap_or(0.0))
            .collect();
        let sum: f64 = weights.iter().sum();
        if (sum - 1.0).abs() > 1e-9 && n > 0 {
            for (k, w) in weights.iter().enumerate() {
                let nw = if sum.abs() > 1e-12 {
                    w / sum
                } else {
                    1.0 / n as f64
                };
                a[i + 4 + 4 * k] = Value::from(nw);
            }
            changed = true;
        }
        i = end;
    }
    changed
}

/// Sets the time of a draw-order key.
fn move_key(root: &mut Value, animation: &str, index: usize, time: f64) -> bool {
    let Some(key) = root
        .get_mut("animations")
        .and_then(|a| a.get_mut(animation))
        .and_then(|a| a.get_mut("drawOrder"))
        .and_then(|d| d.get_mut(index))
        .and_then(Value::as_object_mut)
    else {
        return false;
    };
    key.insert("time".to_owned(), Value::from(crate::round(time, 4)));
    true
}
