//! Spine 4.3 features in files. Slider constraints: `testdata/spine43/slider-lab.json` (posed like
//! spine-core 4.3.13 by sinew-cli's `golden_spine43_own`; its `.skel` read by the official
//! `SkeletonBinary` poses the same, see docs/CONVERT.md) loads with every field, survives
//! 4.3 JSON and `.skel` both ways, is refused by the 4.2 writers, and bad sliders are refused
//! naming the file, the path or byte offset and the slider. Linked meshes whose source is in
//! another slot: `testdata/spine43/linked-lab.json` (same goldens) survives JSON and `.skel`
//! both ways, and the source's deform timelines reach the linked mesh's slot.
#![allow(clippy::unwrap_used)]

use super::spine43_upgrade::same;
use sinew::raw::{RawRig, RawTarget};
use sinew::types::{SpineRuntime, TransformProperty};
use sinew_formats::spine::binary::parse_spine_binary;
use sinew_formats::spine::{
    load_spine_json, parse_spine_json, write_spine_binary, write_spine_json,
};

fn lab_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/spine43/slider-lab.json")
}

fn lab() -> RawRig {
    load_spine_json(&lab_path()).unwrap()
}

#[test]
fn slider_lab_loads_every_field() {
    let rig = lab();
    let names: Vec<&str> = rig.sliders.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "wave-slider",
            "nod-slider",
            "bend-slider",
            "off-slider",
            "tint-slider"
        ]
    );
    // Array order is update order: the IK sits between the first two sliders.
    assert_eq!(rig.sliders[0].order, 0);
    assert_eq!(rig.ik[0].order, 1);
    assert_eq!(rig.sliders[1].order, 2);
    let wave = &rig.sliders[0];
    assert_eq!(
        (wave.animation.as_str(), wave.mix, wave.time),
        ("wave", 1.0, 0.0)
    );
    assert!(wave.bone.is_none() && !wave.looping && !wave.additive);
    let nod = &rig.sliders[1];
    assert!(nod.looping && !nod.additive);
    assert_eq!(nod.mix, 0.8);
    let b = nod.bone.as_ref().unwrap();
    assert_eq!(b.bone, "ctrl");
    assert_eq!(b.property, TransformProperty::X);
    assert_eq!(
        (b.from, b.to, b.scale, b.max, b.local),
        (-40.0, 0.1, 0.02, 2.0, false)
    );
    let bend = &rig.sliders[2];
    assert!(bend.additive && bend.bone.as_ref().unwrap().local);
    assert_eq!(
        bend.bone.as_ref().unwrap().property,
        TransformProperty::Rotate
    );
    assert_eq!(rig.sliders[3].time, 0.3);
    // Slider timelines, keys without a value default to 1.
    let mv = rig.clips.iter().find(|c| c.name == "move").unwrap();
    let slider_tls: Vec<&RawTarget> = mv
        .timelines
        .iter()
        .map(|t| &t.target)
        .filter(|t| matches!(t, RawTarget::SliderTime(_) | RawTarget::SliderMix(_)))
        .collect();
    assert_eq!(slider_tls.len(), 3, "{slider_tls:?}");
    let built = sinew::build::build_rig(&rig).unwrap();
    let s = &built.sliders[0];
    // wave keys arm and hand: the bones posed again after the slider.
    let bone_names: Vec<&str> = s
        .clip_bones
        .iter()
        .map(|b| built.bones[b.index()].name.as_str())
        .collect();
    assert_eq!(bone_names, ["arm", "hand"]);
}

#[test]
fn sliders_round_trip_through_43_json_and_skel() {
    let rig = lab();
    let json = parse_spine_json(&write_spine_json(&rig, false).unwrap(), "j.json").unwrap();
    same(&json, &rig, "slider-lab JSON");
    let bytes = write_spine_binary(&rig).unwrap();
    let skel = parse_spine_binary(&bytes, "s.skel").unwrap();
    // f32 in .skel: the lab's numbers are exact in f32 except 0.1 and 0.02.
    assert_eq!(skel.sliders.len(), rig.sliders.len());
    for (a, b) in skel.sliders.iter().zip(&rig.sliders) {
        assert_eq!(
            (&a.name, &a.animation, a.order),
            (&b.name, &b.animation, b.order)
        );
        assert_eq!(
            (a.additive, a.looping, a.skin_required),
            (b.additive, b.looping, b.skin_required)
        );
        assert_eq!(a.mix as f32, b.mix as f32);
        assert_eq!(a.time as f32, b.time as f32);
        match (&a.bone, &b.bone) {
            (None, None) => {}
            (Some(x), Some(y)) => {
                assert_eq!(
                    (&x.bone, x.property, x.local),
                    (&y.bone, y.property, y.local)
                );
                for (p, q) in [
                    (x.from, y.from),
                    (x.to, y.to),
                    (x.scale, y.scale),
                    (x.max, y.max),
                ] {
                    assert_eq!(p as f32, q as f32);
                }
            }
            _ => panic!("slider `{}` lost or gained its bone", a.name),
        }
    }
    assert!(
        write_spine_binary(&skel).unwrap() == bytes,
        "the .skel writes the same bytes again"
    );
    // A .skel cut anywhere is refused, never a panic.
    for n in (0..bytes.len()).step_by(7) {
        assert!(parse_spine_binary(&bytes[..n], "cut.skel").is_err());
    }
}

#[test]
fn a_42_rig_with_a_slider_is_not_written() {
    let mut rig = lab();
    rig.runtime = SpineRuntime::V42;
    let e = write_spine_json(&rig, false).unwrap_err().to_string();
    assert!(e.contains("wave-slider") && e.contains("4.3"), "{e}");
    let e = write_spine_binary(&rig).unwrap_err().to_string();
    assert!(e.contains("4.3"), "{e}");
}

#[test]
fn bad_sliders_are_refused_by_name() {
    let text = std::fs::read_to_string(lab_path()).unwrap();
    let e = parse_spine_json(
        &text.replacen(r#""bone": "ctrl""#, r#""bone": "nobody""#, 1),
        "b.json",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("b.json") && e.contains("nobody") && e.contains("nod-slider"),
        "{e}"
    );
    let e = parse_spine_json(
        &text.replacen(r#""property": "x""#, r#""property": "alpha""#, 1),
        "p.json",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("alpha") && e.contains("nod-slider"), "{e}");
    let e = parse_spine_json(
        &text.replacen(r#""bend-slider": {"#, r#""ghost": {"#, 1),
        "t.json",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("ghost") && e.contains("slider"), "{e}");
    // An animation that does not exist: the builder names the slider and the animation.
    let raw = parse_spine_json(
        &text.replacen(r#""animation": "wave""#, r#""animation": "wav""#, 1),
        "a.json",
    )
    .unwrap();
    let e = sinew::build::build_rig(&raw).unwrap_err().to_string();
    assert!(e.contains("wave-slider") && e.contains("wav"), "{e}");
    // Sliders are 4.3: a 4.2 file's `constraints` section is unknown there.
    let old = text.replacen(r#""spine": "4.3.0""#, r#""spine": "4.2.40""#, 1);
    assert!(parse_spine_json(&old, "old.json").is_err());
}

#[test]
fn linked_meshes_take_a_source_in_another_slot() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/spine43/linked-lab.json");
    let rig = load_spine_json(&path).unwrap();
    let slot_of = |r: &RawRig, key: &str| -> Option<String> {
        r.skins[0]
            .attachments
            .iter()
            .find(|e| e.key == key)
            .and_then(|e| match &e.attachment.kind {
                sinew::raw::RawAttachmentKind::LinkedMesh { parent_slot, .. } => {
                    parent_slot.clone()
                }
                _ => None,
            })
    };
    assert_eq!(slot_of(&rig, "copy").as_deref(), Some("A"));
    assert_eq!(slot_of(&rig, "own").as_deref(), Some("A"));
    let json = parse_spine_json(&write_spine_json(&rig, false).unwrap(), "j.json").unwrap();
    same(&json, &rig, "linked-lab JSON");
    let bytes = write_spine_binary(&rig).unwrap();
    let skel = parse_spine_binary(&bytes, "l.skel").unwrap();
    assert_eq!(slot_of(&skel, "copy").as_deref(), Some("A"));
    assert!(write_spine_binary(&skel).unwrap() == bytes);
    // The source mesh's timelines reach B and D (inheriting), not C (`timelines: false`).
    let built = sinew::build::build_rig(&rig).unwrap();
    let m = built
        .attachments
        .iter()
        .find(|a| built.attachment_keys[a.key.0 as usize] == "m")
        .unwrap();
    let names: Vec<&str> = m
        .timeline_slots
        .iter()
        .map(|s| built.slots[s.index()].name.as_str())
        .collect();
    assert_eq!(names, ["B", "D"]);
    // A 4.2 writer cannot say "another slot".
    let mut old = rig.clone();
    old.runtime = SpineRuntime::V42;
    assert!(
        write_spine_json(&old, false)
            .unwrap_err()
            .to_string()
            .contains("4.3")
    );
    assert!(
        write_spine_binary(&old)
            .unwrap_err()
            .to_string()
            .contains("4.3")
    );
}
