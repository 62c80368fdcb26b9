//! Inochi2D MeshGroups into sinew Mesh deformers (inochi2d.md §4 "MeshGroup").
//!
//! A second pass over the node tree (after [`super::nodes::read_nodes`] has made every node a
//! bone and every drawable a slot): each MeshGroup with a triangle mesh becomes a
//! [`RawDeformerKind::Mesh`] deformer over its own (hidden) slot; every descendant Part moves
//! with the nearest enclosing MeshGroup. A nested MeshGroup is a child deformer: the outer
//! group moves its mesh, and it moves its own subtree. A Composite passes the enclosing group
//! on only when `propagate_meshgroup` is set.
//!
//! COMPAT(inochi2d): static mode only (`dynamic_deformation = false`, the exported form);
//! a dynamic group is mapped as static. `translate_children` (moving plain Nodes' translations)
//! is not represented. The reference finds a child vertex's triangle by a rasterised bitmap;
//! sinew binds it exactly once, in the setup pose (see `sinew::deformer`). Verified by
//! `tests/all/inochi2d_meshgroup.rs`.

use super::Puppet;
use super::nodes::Tree;
use crate::json::{Problem, R};
use serde_json::Value;
use sinew::deformer::{RawDeformer, RawDeformerKind};

/// Adds a Mesh deformer per MeshGroup of the node tree rooted at `root`.
pub(crate) fn read_meshgroups(root: &Value, tree: &Tree, p: &mut Puppet) -> R<()> {
    let mut out = Vec::new();
    walk(root, tree, None, &mut out, "$.nodes", 0)?;
    p.params.deformers.deformers.extend(out);
    Ok(())
}

fn walk(
    node: &Value,
    tree: &Tree,
    group: Option<usize>,
    out: &mut Vec<RawDeformer>,
    path: &str,
    depth: usize,
) -> R<()> {
    // The node reader has already checked depth, shape and uuids; stay defensive anyway.
    if depth > 512 {
        return Err(Problem::at(path, None, "nodes nested too deeply"));
    }
    let kind = node.get("type").and_then(Value::as_str).unwrap_or("Node");
    let Some(info) = node
        .get("uuid")
        .and_then(Value::as_u64)
        .and_then(|u| tree.get(&u))
    else {
        // Skipped nodes (Creator cameras) and their subtrees.
        return Ok(());
    };
    let mut group = group;
    match kind {
        "MeshGroup" => {
            // A group without triangles becomes a deformer that moves nothing, so its subtree
            // stays still as in the reference (which sets no filters for it).
            if let Some(slot) = info.slot.as_ref() {
                out.push(RawDeformer {
                    name: slot.clone(),
                    bone: info.bone.clone(),
                    parent: group.map(|g| out[g].name.clone()),
                    kind: RawDeformerKind::Mesh {
                        control: slot.clone(),
                    },
                    slots: Vec::new(),
                });
                group = Some(out.len() - 1);
            }
        }
        "Part" | "AnimatedPart" => {
            if let (Some(g), Some(slot)) = (group, info.slot.as_ref()) {
                out[g].slots.push(slot.clone());
            }
        }
        "Composite" => {
            let propagate = node
                .get("propagate_meshgroup")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            if !propagate {
                group = None;
            }
        }
        _ => {}
    }
    if let Some(children) = node.get("children").and_then(Value::as_array) {
        for (i, c) in children.iter().enumerate() {
            walk(
                c,
                tree,
                group,
                out,
                &format!("{path}.children[{i}]"),
                depth + 1,
            )?;
        }
    }
    Ok(())
}
