//! `--fix`: the mechanical fixes written into the input's JSON tree (Spine JSON), leaving
//! everything else as it was: weights divided by their sum, draw-order keys moved to the
//! suggested time. Re-linting the written file finds neither again (`tests/codes.rs`).

use crate::{Edit, Finding};
use serde_json::Value;

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
