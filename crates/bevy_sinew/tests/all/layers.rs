//! Masks, composites and the blend modes that read the destination, on edits of the face
//! puppet (examples/face/face.inp) written to `target/bevy-render/puppets/`: each compared
//! with sinew's CPU render where the feature changes the picture, and shown to matter there
//! (the same region drawn without the feature is far off).

use crate::common::repo_root;
use crate::render::{check, differs, region_psnr, render_both_with};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The face puppet's container split into its JSON payload and the bytes after it
/// (`TRNSRTS\0`, a big-endian u32 length, the JSON, then the texture sections).
fn split_inp(bytes: &[u8]) -> (Value, &[u8]) {
    assert_eq!(&bytes[..8], b"TRNSRTS\0", "an Inochi2D container");
    let n = u32::from_be_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
    let json = serde_json::from_slice(&bytes[12..12 + n]).expect("payload JSON");
    (json, &bytes[12 + n..])
}

fn join_inp(json: &Value, rest: &[u8]) -> Vec<u8> {
    let text = serde_json::to_vec(json).expect("JSON");
    let mut out = b"TRNSRTS\0".to_vec();
    out.extend_from_slice(&u32::try_from(text.len()).expect("fits").to_be_bytes());
    out.extend_from_slice(&text);
    out.extend_from_slice(rest);
    out
}

/// Every node of the tree under `node`, depth first.
fn each_node(node: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    f(node);
    if let Some(children) = node.get_mut("children").and_then(Value::as_array_mut) {
        for c in children {
            each_node(c, f);
        }
    }
}

/// Writes the face edited by `edit` as `name`.inp; returns its folder.
fn face_edit(name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let face = std::fs::read(repo_root().join("examples/face/face.inp")).expect("face.inp");
    let (mut json, rest) = split_inp(&face);
    edit(&mut json["nodes"]);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bevy-render/puppets");
    std::fs::create_dir_all(&dir).expect("puppet folder");
    std::fs::write(dir.join(format!("{name}.inp")), join_inp(&json, rest)).expect("write");
    dir
}

fn pose(c: &mut bevy_sinew::sinew::Character) {
    c.set_param("ParamAngle", [10.0, -5.0]).expect("angle");
    c.update(0.1);
}

#[test]
fn a_mask_shows_where_it_changes_the_picture() {
    // The face's skin masked by its eye whites: only the skin inside the eyes stays, a
    // large region the mask changes (the puppet's own iris masks change few pixels).
    let dir = face_edit("face-masked", |nodes| {
        each_node(nodes, &mut |n| {
            if n["name"] == "Face" {
                n["masks"] = json!([
                    {"source": 1009, "mode": "Mask"},
                    {"source": 1013, "mode": "Mask"}
                ]);
            }
        });
    });
    let o = render_both_with("face-masked", &dir, "face-masked.inp", true, pose);
    check("face-masked", &o);
    let region = differs(&o.cpu, &o.cpu_unmasked, 8);
    let (masked, n) = region_psnr(&o.gpu, &o.cpu, &region);
    let (unmasked, _) = region_psnr(&o.gpu, &o.cpu_unmasked, &region);
    println!(
        "face-masked: {n} pixels changed by the mask; there Bevy vs CPU {masked:.2} dB, \
         vs the CPU unmasked {unmasked:.2} dB"
    );
    assert!(n >= 3000, "the mask changes {n} pixels only");
    assert!(masked >= 30.0, "masked region: PSNR {masked:.2} dB < 30");
    assert!(unmasked < 20.0, "Bevy looks unmasked: {unmasked:.2} dB");
}

/// The parts' blend modes cycled through every mode that reads the destination, over a
/// Normal neck, back hair and face.
fn blend_edit(nodes: &mut Value) {
    const MODES: [&str; 11] = [
        "Overlay",
        "Darken",
        "Lighten",
        "ColorDodge",
        "LinearDodge",
        "ColorBurn",
        "HardLight",
        "SoftLight",
        "Difference",
        "Exclusion",
        "Subtract",
    ];
    let mut k = 0;
    each_node(nodes, &mut |n| {
        let name = n["name"].as_str().unwrap_or("").to_owned();
        if n["type"] == "Part" && !matches!(name.as_str(), "Neck" | "HairBack" | "Face") {
            n["blend_mode"] = Value::from(MODES[k % MODES.len()]);
            k += 1;
        }
    });
    assert!(k >= MODES.len(), "every mode used: {k} parts");
}

/// Compares the layered render with the CPU render where drawing without layers is off.
fn layered_against_flat(name: &str, dir: &Path, file: &str) {
    let o = render_both_with(name, dir, file, true, pose);
    let flat = render_both_with(&format!("{name}-flat"), dir, file, false, pose);
    check(name, &o);
    assert!(o.passes > 0, "{name}: drawn without off-screen passes");
    assert_eq!(flat.passes, 0, "{name}: layers off");
    let region = differs(&flat.gpu, &o.cpu, 24);
    let (layered, n) = region_psnr(&o.gpu, &o.cpu, &region);
    let (without, _) = region_psnr(&flat.gpu, &o.cpu, &region);
    println!(
        "{name}: {} passes; {n} pixels off without layers; there {layered:.2} dB layered, \
         {without:.2} dB without",
        o.passes
    );
    assert!(n >= 1000, "{name}: layers change {n} pixels only");
    assert!(layered >= 30.0, "{name}: PSNR {layered:.2} dB < 30 there");
}

#[test]
fn destination_reading_blend_modes_match_the_cpu_render() {
    let dir = face_edit("face-blends", blend_edit);
    layered_against_flat("face-blends", &dir, "face-blends.inp");
}

#[test]
fn composites_match_the_cpu_render() {
    // The bangs in a composite at 60 % opacity with a tint and a strong screen tint (overlapping
    // parts, so the layer's opacity applies to their union once), the brows in one drawn
    // with Overlay.
    let dir = face_edit("face-composites", |nodes| {
        let head = nodes["children"]
            .as_array_mut()
            .and_then(|c| c.iter_mut().find(|n| n["name"] == "Head"))
            .expect("the Head node");
        let parts = head["children"].as_array_mut().expect("head parts");
        let mut group = |uuid: u64, name: &str, members: &[&str], style: Value| {
            let taken: Vec<Value> = parts
                .iter()
                .filter(|n| members.contains(&n["name"].as_str().unwrap_or("")))
                .cloned()
                .collect();
            assert_eq!(taken.len(), members.len(), "{name}: parts found");
            let at = parts
                .iter()
                .position(|n| n["name"] == members[0])
                .expect("first member");
            parts.retain(|n| !members.contains(&n["name"].as_str().unwrap_or("")));
            let zsort = taken
                .iter()
                .filter_map(|n| n["zsort"].as_f64())
                .fold(f64::INFINITY, f64::min);
            let mut node = json!({
                "uuid": uuid, "name": name, "type": "Composite", "enabled": true,
                "zsort": zsort, "lockToRoot": false,
                "transform": {"trans": [0.0, 0.0, 0.0], "rot": [0.0, 0.0, 0.0], "scale": [1.0, 1.0]},
                "mask_threshold": 0.5, "masks": [], "children": taken,
            });
            for (k, v) in style.as_object().expect("style") {
                node[k] = v.clone();
            }
            parts.insert(at.min(parts.len()), node);
        };
        group(
            3001,
            "Bangs",
            &["BangA", "BangB", "BangC", "BangD", "BangE"],
            json!({"opacity": 0.6, "tint": [1.0, 0.75, 0.7], "screenTint": [0.6, 0.3, 0.0], "blend_mode": "Normal"}),
        );
        group(
            3002,
            "Brows",
            &["BrowL", "BrowR"],
            json!({"opacity": 0.9, "tint": [1.0, 1.0, 1.0], "screenTint": [0.0, 0.0, 0.0], "blend_mode": "Overlay"}),
        );
    });
    layered_against_flat("face-composites", &dir, "face-composites.inp");
}
