//! DragonBones JSON (`*_ske.json`) places and fixes: the checks name attachments and keys as
//! the rig does (skin, slot, attachment key, animation, key index); this module finds them
//! in the file, the way `sinew_formats::dragonbones` built them: the skin named `""` (or,
//! when none is, the first) is `default`; a display's key is its `name`, or `name#k` when
//! an earlier display of the slot has that name; draw-order key `k` is `zOrder.frame[k]`.
//!
//! [`fix_dragonbones_json`] edits the tree in place: weights divided by their sum in the
//! display's `weights` (`[count, bone, weight, bone, weight, ...]` per vertex), and a
//! draw-order key moved by moving its start frame (the `duration` of the frame before it
//! grows by as much as its own shrinks, so the keys after it stay where they were).

use crate::{Edit, Finding};
use serde_json::{Value, json};

/// The armature object named `armature` and its index.
fn armature<'a>(tree: &'a Value, name: &str) -> Option<(usize, &'a Value)> {
    tree.get("armature")?
        .as_array()?
        .iter()
        .enumerate()
        .find(|(_, a)| a.get("name").and_then(Value::as_str).unwrap_or("") == name)
}

/// The rig's name of the `i`-th skin of `skins`.
fn skin_name(skins: &[Value], i: usize) -> String {
    let name = |s: &Value| {
        s.get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let has_default = skins
        .iter()
        .any(|s| matches!(name(s).as_str(), "" | "default"));
    let n = name(&skins[i]);
    if n.is_empty() || (!has_default && i == 0) {
        "default".to_owned()
    } else {
        n
    }
}

/// `(skin, slot entry, display)` indices of attachment `key` of `slot` in skin `skin`.
fn display_of(arm: &Value, skin: &str, slot: &str, key: &str) -> Option<(usize, usize, usize)> {
    let skins = arm.get("skin")?.as_array()?;
    let si = (0..skins.len()).find(|&i| skin_name(skins, i) == skin)?;
    let slots = skins[si].get("slot")?.as_array()?;
    let (ji, entry) = slots
        .iter()
        .enumerate()
        .find(|(_, e)| e.get("name").and_then(Value::as_str) == Some(slot))?;
    let mut keys: Vec<String> = Vec::new();
    for (k, d) in entry.get("display")?.as_array()?.iter().enumerate() {
        let name = d.get("name").and_then(Value::as_str).unwrap_or("");
        let mut this = name.to_owned();
        if keys.contains(&this) {
            this = format!("{name}#{k}");
        }
        if this == key {
            return Some((si, ji, k));
        }
        keys.push(this);
    }
    None
}

/// The index of animation `name` in the armature.
fn animation_of(arm: &Value, name: &str) -> Option<usize> {
    arm.get("animation")?
        .as_array()?
        .iter()
        .position(|a| a.get("name").and_then(Value::as_str).unwrap_or("") == name)
}

/// The JSON path of a finding's place in a DragonBones file (`None` when it has none
/// there).
pub fn path_of(tree: &Value, armature_name: &str, f: &Finding) -> Option<String> {
    let (ai, arm) = armature(tree, armature_name)?;
    let base = format!("$.armature[{ai}]");
    match (&f.edit, f.code) {
        (
            Some(Edit::MoveDrawOrderKey {
                animation, index, ..
            }),
            _,
        ) => {
            let n = animation_of(arm, animation)?;
            Some(format!("{base}.animation[{n}].zOrder.frame[{index}]"))
        }
        (_, "weights-not-normalized" | "rigid-dense-mesh") => {
            let at = &f.at;
            let (s, j, k) = display_of(
                arm,
                at.skin.as_deref()?,
                at.slot.as_deref()?,
                at.attachment.as_deref()?,
            )?;
            let p = format!("{base}.skin[{s}].slot[{j}].display[{k}]");
            Some(if f.code == "weights-not-normalized" {
                format!("{p}.weights")
            } else {
                p
            })
        }
        _ => None,
    }
}

/// Applies the findings' edits to a DragonBones tree, in armature `armature_name` whose
/// keys sit on frames of `1 / frame_rate` s; returns how many were made.
pub fn fix_dragonbones_json(
    root: &mut Value,
    armature_name: &str,
    frame_rate: f64,
    findings: &[Finding],
) -> usize {
    let Some((ai, _)) = armature(root, armature_name) else {
        return 0;
    };
    // Later keys first: moving the first key inserts a frame before it, which shifts the
    // indices of the keys after it.
    let mut edits: Vec<&Edit> = findings.iter().filter_map(|f| f.edit.as_ref()).collect();
    edits.sort_by_key(|e| match e {
        Edit::MoveDrawOrderKey { index, .. } => std::cmp::Reverse(*index),
        Edit::NormalizeWeights { .. } => std::cmp::Reverse(usize::MAX),
    });
    let mut done = 0;
    for edit in edits {
        let Some(arm) = root.get_mut("armature").and_then(|a| a.get_mut(ai)) else {
            return done;
        };
        let ok = match edit {
            Edit::NormalizeWeights { skin, slot, key } => display_of(arm, skin, slot, key)
                .is_some_and(|(s, j, k)| {
                    arm.pointer_mut(&format!("/skin/{s}/slot/{j}/display/{k}/weights"))
                        .is_some_and(normalize_weights)
                }),
            Edit::MoveDrawOrderKey {
                animation,
                index,
                time,
            } => animation_of(arm, animation).is_some_and(|n| {
                let total = arm
                    .pointer(&format!("/animation/{n}/duration"))
                    .and_then(Value::as_f64)
                    .unwrap_or(1.0);
                arm.pointer_mut(&format!("/animation/{n}/zOrder/frame"))
                    .and_then(Value::as_array_mut)
                    .is_some_and(|frames| {
                        move_frame(frames, *index, (time * frame_rate).round(), total)
                    })
            }),
        };
        done += usize::from(ok);
    }
    done
}

/// Divides each vertex's weights by their sum in `[count, bone, weight, ...]` runs.
fn normalize_weights(v: &mut Value) -> bool {
    let Some(a) = v.as_array_mut() else {
        return false;
    };
    let (mut i, mut changed) = (0, false);
    while i < a.len() {
        let Some(n) = a[i].as_f64().filter(|n| *n >= 1.0).map(|n| n as usize) else {
            return changed;
        };
        let end = i + 1 + 2 * n;
        if end > a.len() {
            return changed;
        }
        let sum: f64 = (0..n)
            .map(|k| a[i + 2 + 2 * k].as_f64().unwrap_or(0.0))
            .sum();
        if (sum - 1.0).abs() > 1e-9 {
            for k in 0..n {
                let w = a[i + 2 + 2 * k].as_f64().unwrap_or(0.0);
                let nw = if sum.abs() > 1e-12 {
                    w / sum
                } else {
                    1.0 / n as f64
                };
                a[i + 2 + 2 * k] = Value::from(nw);
            }
            changed = true;
        }
        i = end;
    }
    changed
}

/// A frame's `duration` (default 1, as the loader reads it).
fn duration(f: &Value) -> f64 {
    f.get("duration").and_then(Value::as_f64).unwrap_or(1.0)
}

/// Moves the start of `frames[index]` to frame `to` (strictly between its neighbours'
/// starts; the animation is `total` frames long). The first frame always starts at 0, so
/// moving it puts a frame of the setup order (no `zOrder`) before it.
fn move_frame(frames: &mut Vec<Value>, index: usize, to: f64, total: f64) -> bool {
    let starts: Vec<f64> = frames
        .iter()
        .scan(0.0, |pos, f| {
            let s = *pos;
            *pos += duration(f);
            Some(s)
        })
        .collect();
    let Some(&from) = starts.get(index) else {
        return false;
    };
    let prev = if index == 0 { 0.0 } else { starts[index - 1] };
    let next = starts.get(index + 1).copied().unwrap_or(total);
    if !(to > prev && to < next) || to == from {
        return false;
    }
    let set = |f: &mut Value, d: f64| {
        if let Some(o) = f.as_object_mut() {
            o.insert("duration".to_owned(), Value::from(d.max(0.0) as i64));
        }
    };
    let delta = to - from;
    let own = duration(&frames[index]);
    set(&mut frames[index], own - delta);
    if index == 0 {
        frames.insert(0, json!({ "duration": to as i64 }));
    } else {
        let before = duration(&frames[index - 1]);
        set(&mut frames[index - 1], before + delta);
    }
    true
}
