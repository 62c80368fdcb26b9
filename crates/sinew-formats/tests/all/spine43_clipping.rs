//! Spine 4.3 clipping flags in files: `testdata/spine43/clip-lab.json` (a convex clip, a
//! concave one with `convex`, an `inverse` one; its pose and clipped triangles checked
//! against spine-core 4.3.13 by sinew-cli's `golden_spine43_own` and sinew-render's
//! `clip43`) loads each flag, survives 4.3 JSON and `.skel` both ways (the `.skel` rewrites
//! byte for byte), reaches the rig and the draw list, and is refused by the 4.2 writers
//! naming the attachment.
#![allow(clippy::unwrap_used)]

use super::spine43_upgrade::same;
use sinew::raw::{RawAttachmentKind, RawRig};
use sinew::types::SpineRuntime;
use sinew_formats::spine::binary::parse_spine_binary;
use sinew_formats::spine::{
    load_spine_json, parse_spine_json, write_spine_binary, write_spine_json,
};

fn lab() -> RawRig {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/spine43/clip-lab.json");
    load_spine_json(&p).unwrap()
}

/// (slot, convex, inverse) of every clipping attachment, in skin order.
fn flags(rig: &RawRig) -> Vec<(String, bool, bool)> {
    let mut out = Vec::new();
    for skin in &rig.skins {
        for e in &skin.attachments {
            if let RawAttachmentKind::Clipping {
                convex, inverse, ..
            } = e.attachment.kind
            {
                out.push((e.slot.clone(), convex, inverse));
            }
        }
    }
    out
}

fn expected() -> Vec<(String, bool, bool)> {
    vec![
        ("clipA".into(), false, false),
        ("clipB".into(), true, false),
        ("clipC".into(), false, true),
    ]
}

#[test]
fn clip_lab_reads_convex_and_inverse() {
    let raw = lab();
    assert_eq!(flags(&raw), expected());
    // The rig keeps them (inverse clips are convex), and the draw list carries them.
    let rig = std::sync::Arc::new(sinew::build::build_rig(&raw).unwrap());
    let mut c = sinew::Character::new(rig);
    c.update(0.0);
    let clips: Vec<(bool, bool)> = c
        .draw_list()
        .clips
        .iter()
        .map(|p| (p.convex, p.inverse))
        .collect();
    assert_eq!(clips, [(false, false), (true, false), (true, true)]);
}

#[test]
fn clipping_flags_round_trip_through_43_json_and_skel() {
    let rig = lab();
    let json = parse_spine_json(&write_spine_json(&rig, false).unwrap(), "j.json").unwrap();
    same(&json, &rig, "clip-lab JSON");
    assert_eq!(flags(&json), expected());
    let bytes = write_spine_binary(&rig).unwrap();
    let skel = parse_spine_binary(&bytes, "s.skel").unwrap();
    assert_eq!(flags(&skel), expected());
    assert!(
        write_spine_binary(&skel).unwrap() == bytes,
        "the .skel writes the same bytes again"
    );
}

#[test]
fn a_42_rig_with_clipping_flags_is_not_written() {
    let mut rig = lab();
    rig.runtime = SpineRuntime::V42;
    let e = write_spine_json(&rig, false).unwrap_err().to_string();
    assert!(
        e.contains("clip") && e.contains("convex") && e.contains("4.3"),
        "{e}"
    );
    let e = write_spine_binary(&rig).unwrap_err().to_string();
    assert!(e.contains("convex") && e.contains("4.3"), "{e}");
    // Without the flags the same rig is a 4.2 file again.
    for skin in &mut rig.skins {
        for e in &mut skin.attachments {
            if let RawAttachmentKind::Clipping {
                convex, inverse, ..
            } = &mut e.attachment.kind
            {
                *convex = false;
                *inverse = false;
            }
        }
    }
    assert!(write_spine_json(&rig, false).is_ok());
    assert!(write_spine_binary(&rig).is_ok());
}
