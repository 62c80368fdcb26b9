//! `keyform-grid-incomplete` (error): a puppet's keyform grid with missing combinations,
//! or keyforms outside the parameter's range.
//!
//! The seed's reason: a 2D (or multi-parameter) grid needs every combination of its keys
//! (two parameters of 3 points need 9 keyforms); a missing one is filled by the runtime
//! from its neighbours, so the corner poses (head turned *and* tilted) are not what was
//! authored, and differ between runtimes. A key outside 0..1 of the parameter's range can
//! never be reached. Read from the puppet's own JSON (`isSet` of each binding,
//! `axis_points` of each parameter), so the place is the file's.

use crate::{Finding, LintInput, Options, Severity, Source, Where};
use serde_json::Value;
use std::collections::HashMap;

fn node_names(v: &Value, out: &mut HashMap<u64, String>) {
    if let Some(u) = v.get("uuid").and_then(Value::as_u64) {
        let name = v.get("name").and_then(Value::as_str).unwrap_or("");
        out.insert(u, name.to_owned());
    }
    if let Some(ch) = v.get("children").and_then(Value::as_array) {
        for c in ch {
            node_names(c, out);
        }
    }
}

/// Checks the puppet's grids (nothing for Spine rigs, which have no keyform grids).
pub fn check(input: &LintInput, _options: &Options) -> Vec<Finding> {
    let Source::Puppet(root) = &input.source else {
        return Vec::new();
    };
    let mut names = HashMap::new();
    if let Some(n) = root.get("nodes") {
        node_names(n, &mut names);
    }
    let mut out = Vec::new();
    let params = root
        .get("param")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for (pi, p) in params.iter().enumerate() {
        let pname = p
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let is_2d = p.get("is_vec2").and_then(Value::as_bool).unwrap_or(false);
        let axes = p.get("axis_points").and_then(Value::as_array);
        for (c, a) in axes
            .into_iter()
            .flatten()
            .take(if is_2d { 2 } else { 1 })
            .enumerate()
        {
            for (k, v) in a.as_array().into_iter().flatten().enumerate() {
                let Some(x) = v.as_f64() else { continue };
                if !(-1e-6..=1.0 + 1e-6).contains(&x) {
                    out.push(Finding {
                        code: "keyform-grid-incomplete",
                        severity: Severity::Error,
                        message: format!(
                            "parameter `{pname}` has a key at {x} of its {} axis, outside its \
                             range (keys are 0..1 of min..max): the keyforms there can never be \
                             reached",
                            ["x", "y"][c]
                        ),
                        at: Where {
                            parameter: Some(pname.clone()),
                            path: Some(format!("$.param[{pi}].axis_points[{c}][{k}]")),
                            ..Default::default()
                        },
                        fix: "move the key inside the parameter's range, or widen the range"
                            .to_owned(),
                        edit: None,
                    });
                }
            }
        }
        let bindings = p
            .get("bindings")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (bi, b) in bindings.iter().enumerate() {
            let Some(set) = b.get("isSet").and_then(Value::as_array) else {
                continue;
            };
            let mut missing = Vec::new();
            let mut total = 0usize;
            let mut dims = (set.len(), 0usize);
            for (x, col) in set.iter().enumerate() {
                let col = col.as_array().map_or(&[][..], Vec::as_slice);
                dims.1 = dims.1.max(col.len());
                for (y, v) in col.iter().enumerate() {
                    total += 1;
                    if v.as_bool() == Some(false) {
                        missing.push((x, y));
                    }
                }
            }
            if missing.is_empty() {
                continue;
            }
            let node = b
                .get("node")
                .and_then(Value::as_u64)
                .and_then(|u| names.get(&u).cloned())
                .unwrap_or_default();
            let prop = b.get("param_name").and_then(Value::as_str).unwrap_or("");
            let list: Vec<String> = missing
                .iter()
                .take(6)
                .map(|(x, y)| {
                    if is_2d {
                        format!("({x}, {y})")
                    } else {
                        format!("{x}")
                    }
                })
                .collect();
            let more = if missing.len() > 6 { ", ..." } else { "" };
            let grid = if is_2d {
                format!("a {} x {} grid", dims.0, dims.1)
            } else {
                format!("{} keys", dims.0)
            };
            out.push(Finding {
                code: "keyform-grid-incomplete",
                severity: Severity::Error,
                message: format!(
                    "binding `{prop}` of `{node}` on parameter `{pname}` has {} of {total} \
                     keyforms ({grid}); missing at key {}{more}: the runtime fills them from \
                     their neighbours, so those poses are not the ones authored",
                    total - missing.len(),
                    list.join(", ")
                ),
                at: Where {
                    parameter: Some(pname.clone()),
                    slot: Some(node),
                    path: Some(format!(
                        "$.param[{pi}].bindings[{bi}].isSet[{}][{}]",
                        missing[0].0, missing[0].1
                    )),
                    ..Default::default()
                },
                fix: "set a keyform at every missing combination (Inochi Creator: go to the \
                      point on the parameter and edit or copy a neighbouring keyform there)"
                    .to_owned(),
                edit: None,
            });
        }
    }
    out
}
