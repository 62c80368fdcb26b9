//! Every code fires on a small rig made here with the fault, and not on the same rig fixed;
//! `--fix` output re-linted has no fixed finding left.

use crate::rigs;

use serde_json::Value;
use sinew_lint::{Finding, Options, Severity};
use std::path::Path;

fn lint_file(path: &Path) -> Vec<Finding> {
    let input = sinew_lint::load(path, None).expect("rig loads");
    sinew_lint::lint(&input, &Options::default())
}

fn lint_json(test: &str, v: &Value) -> Vec<Finding> {
    let dir = rigs::temp_dir(test);
    lint_file(&rigs::write(&dir, "rig.json", v))
}

fn with<'a>(f: &'a [Finding], code: &str) -> Vec<&'a Finding> {
    f.iter().filter(|x| x.code == code).collect()
}

/// Lints, fixes, writes, re-lints: the fixed file has no finding of `code`.
fn fix_round_trip(test: &str, v: &Value, code: &str) {
    let dir = rigs::temp_dir(test);
    let path = rigs::write(&dir, "rig.json", v);
    let input = sinew_lint::load(&path, None).expect("loads");
    let findings = sinew_lint::lint(&input, &Options::default());
    assert!(!with(&findings, code).is_empty(), "{code} before the fix");
    let sinew_lint::Source::SpineJson(tree) = &input.source else {
        panic!("a Spine JSON source")
    };
    let mut tree = tree.clone();
    assert!(sinew_lint::fix::fix_spine_json(&mut tree, &findings) >= 1);
    let fixed = rigs::write(&dir, "fixed.json", &tree);
    let after = lint_file(&fixed);
    assert!(
        with(&after, code).is_empty(),
        "{code} after the fix: {after:#?}"
    );
}

#[test]
fn weights_not_normalized() {
    let bad = lint_json("weights-bad", &rigs::weights(0.8));
    let f = with(&bad, "weights-not-normalized");
    assert_eq!(f.len(), 1, "{bad:#?}");
    assert_eq!(f[0].severity, Severity::Error);
    assert_eq!(f[0].at.vertex, Some(1));
    assert_eq!(f[0].at.slot.as_deref(), Some("arm"));
    assert_eq!(
        f[0].at.path.as_deref(),
        Some("$.skins[0].attachments.arm.arm.vertices")
    );
    assert!(f[0].message.contains("0.8000"), "{}", f[0].message);
    // 1e-3 is the tolerance: 1.0005 passes.
    assert!(
        with(
            &lint_json("weights-ok", &rigs::weights(1.0)),
            "weights-not-normalized"
        )
        .is_empty()
    );
    assert!(
        with(
            &lint_json("weights-near", &rigs::weights(1.0005)),
            "weights-not-normalized"
        )
        .is_empty()
    );
    fix_round_trip("weights-fix", &rigs::weights(0.8), "weights-not-normalized");
}

#[test]
fn seam_opens() {
    let bad = lint_json("seam-bad", &rigs::seam(true));
    let f = with(&bad, "seam-opens");
    assert_eq!(f.len(), 1, "{bad:#?}");
    let w = &f[0].at;
    assert_eq!(w.animation.as_deref(), Some("bend"));
    // The gap is largest at the end of the bend (60 degrees): |(0, 10) - R(60)(0, 10)| = 10.
    assert!((w.time.expect("time") - 1.0).abs() < 1e-9, "{w:?}");
    assert!(f[0].message.contains("10.00 units"), "{}", f[0].message);
    assert!(with(&lint_json("seam-ok", &rigs::seam(false)), "seam-opens").is_empty());
}

#[test]
fn draw_order_still_frame() {
    let bad = lint_json("order-bad", &rigs::draw_order(0.2));
    let f = with(&bad, "draw-order-still-frame");
    assert_eq!(f.len(), 1, "{bad:#?}");
    assert_eq!(f[0].at.animation.as_deref(), Some("swap"));
    assert_eq!(
        f[0].at.path.as_deref(),
        Some("$.animations.swap.drawOrder[0]")
    );
    let Some(sinew_lint::Edit::MoveDrawOrderKey { time, .. }) = f[0].edit else {
        panic!("a key move")
    };
    assert!((0.3..=0.4).contains(&time), "suggested {time}");
    assert!(
        with(
            &lint_json("order-ok", &rigs::draw_order(0.35)),
            "draw-order-still-frame"
        )
        .is_empty()
    );
    fix_round_trip(
        "order-fix",
        &rigs::draw_order(0.2),
        "draw-order-still-frame",
    );
}

#[test]
fn ik_out_of_reach() {
    let bad = lint_json("ik-bad", &rigs::ik(0.0));
    let f = with(&bad, "ik-out-of-reach");
    assert_eq!(f.len(), 1, "{bad:#?}");
    assert_eq!(f[0].at.constraint.as_deref(), Some("leg"));
    assert_eq!(f[0].at.bone.as_deref(), Some("shin"));
    // The target ends at (150, 0): 50 beyond the reach of 100.
    assert!((f[0].at.time.expect("time") - 1.0).abs() < 1e-9);
    assert!(
        f[0].message.contains("50.00 units beyond"),
        "{}",
        f[0].message
    );
    assert!(with(&lint_json("ik-ok", &rigs::ik(10.0)), "ik-out-of-reach").is_empty());
}

#[test]
fn physics_frame_rate() {
    let bad = lint_json("physics-bad", &rigs::physics(0.2));
    let f = with(&bad, "physics-frame-rate");
    assert_eq!(f.len(), 1, "{bad:#?}");
    assert_eq!(f[0].at.constraint.as_deref(), Some("tail"));
    let ok = lint_json("physics-ok", &rigs::physics(2.0));
    assert!(with(&ok, "physics-frame-rate").is_empty(), "{ok:#?}");
}

#[test]
fn physics_frame_rate_jiggle_chain() {
    // The same slow whip: a chain stepped at 60 Hz that may drop steps (at most one a
    // frame: at 15 fps it runs at a quarter speed) against one that may not.
    let dir = rigs::temp_dir("jiggle");
    let rig = rigs::write(&dir, "whip.json", &rigs::whip(2.0));
    let lint_with = |sub: u32| {
        let extras = rigs::write(&dir, &format!("x{sub}.json"), &rigs::jiggle_extras(sub));
        let input = sinew_lint::load(&rig, Some(&extras)).expect("loads");
        sinew_lint::lint(&input, &Options::default())
    };
    let bad = lint_with(1);
    let f = with(&bad, "physics-frame-rate");
    assert_eq!(f.len(), 1, "{bad:#?}");
    assert!(
        f[0].message.starts_with("jiggle chain `tail`"),
        "{}",
        f[0].message
    );
    assert!(f[0].message.contains("at 15 fps"), "{}", f[0].message);
    assert_eq!(f[0].at.constraint.as_deref(), Some("tail"));
    assert_eq!(f[0].at.animation.as_deref(), Some("whip"));
    let ok = lint_with(8);
    assert!(with(&ok, "physics-frame-rate").is_empty(), "{ok:#?}");
}

/// The face example with its hair pendulum made `length` long and undamped.
fn face_pendulum(test: &str, length: f64, damping: f64) -> std::path::PathBuf {
    fn edit(n: &mut Value, length: f64, damping: f64) {
        if n["type"] == "SimplePhysics" {
            n["length"] = length.into();
            n["angle_damping"] = damping.into();
        }
        if let Some(ch) = n.get_mut("children").and_then(Value::as_array_mut) {
            for c in ch {
                edit(c, length, damping);
            }
        }
    }
    face_variant(test, |p| edit(&mut p["nodes"], length, damping))
}

#[test]
fn physics_frame_rate_parameter_pendulum_in_a_sweep() {
    // A 5-unit undamped pendulum swings fast enough that the head's 15 fps steps kick it;
    // the face's own (100 units, damped 0.3) follows the head the same at every rate.
    let bad = lint_file(&face_pendulum("pendulum-bad", 5.0, 0.0));
    let f = with(&bad, "physics-frame-rate");
    assert_eq!(f.len(), 1, "{bad:#?}");
    assert!(
        f[0].message.starts_with("pendulum `HairPhysics`"),
        "{}",
        f[0].message
    );
    // Found in a parameter sweep: the place names the parameter swept (the head's angle),
    // and the message the parameter the pendulum drives.
    assert_eq!(f[0].at.parameter.as_deref(), Some("ParamAngle"));
    assert_eq!(f[0].at.animation.as_deref(), Some("sweep ParamAngle x"));
    assert!(
        f[0].message.contains("`ParamHairSwing` x"),
        "{}",
        f[0].message
    );
    let json = f[0].to_json();
    assert_eq!(json["where"]["parameter"], "ParamAngle");
    let ok = lint_file(&face_pendulum("pendulum-ok", 100.0, 0.3));
    assert!(with(&ok, "physics-frame-rate").is_empty(), "{ok:#?}");
}

#[test]
fn draw_order_overlap() {
    // `front` starts 100 units right of `back`: the boxes never overlap before the slide,
    // so a switch at 0.2 s changes no pixel and is not reported, though nothing moves.
    let apart = lint_json("order-apart", &rigs::draw_order_at(0.2, 100.0, 60.0));
    assert!(
        with(&apart, "draw-order-still-frame").is_empty(),
        "{apart:#?}"
    );
    // Overlapping by 30 of 40 units and sliding 60 units in 0.1 s from 0.3 s: at 0.333 s
    // they move as fast as at 0.367 s but still overlap (by 10 units); at 0.367 s they no
    // longer do, which hides the switch completely. The fastest frame alone would be 0.333.
    let bad = lint_json("order-overlap", &rigs::draw_order_at(0.2, 10.0, 60.0));
    let f = with(&bad, "draw-order-still-frame");
    assert_eq!(f.len(), 1, "{bad:#?}");
    let Some(sinew_lint::Edit::MoveDrawOrderKey { time, .. }) = f[0].edit else {
        panic!("a key move")
    };
    assert!((time - 11.0 / 30.0).abs() < 1e-6, "suggested {time}");
    assert!(f[0].message.contains("overlap by 75%"), "{}", f[0].message);
    assert!(
        f[0].message.contains("they overlap by 0%"),
        "{}",
        f[0].message
    );
    fix_round_trip(
        "order-overlap-fix",
        &rigs::draw_order_at(0.2, 10.0, 60.0),
        "draw-order-still-frame",
    );
}

#[test]
fn rigid_dense_mesh() {
    let bad = lint_json("dense-bad", &rigs::dense(false));
    let f = with(&bad, "rigid-dense-mesh");
    assert_eq!(f.len(), 1, "{bad:#?}");
    assert_eq!(f[0].severity, Severity::Info);
    assert_eq!(f[0].at.attachment.as_deref(), Some("plate"));
    assert!(
        with(
            &lint_json("dense-ok", &rigs::dense(true)),
            "rigid-dense-mesh"
        )
        .is_empty()
    );
}

#[test]
fn cage_point_outside() {
    let cage = |x: f64| {
        serde_json::json!({
            "vertices": [[1, 1], [x, 2], [3, 3]],
            "loops": [[[0, 0], [4, 0], [4, 4], [0, 4]]]
        })
    };
    let bad = sinew_lint::cage::check_cage_json("c", &cage(5.0)).expect("cage");
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].code, "cage-point-outside");
    assert_eq!(bad[0].at.vertex, Some(1));
    assert!(
        sinew_lint::cage::check_cage_json("c", &cage(2.0))
            .expect("cage")
            .is_empty()
    );
    // On the border counts as inside.
    assert!(
        sinew_lint::cage::check_cage_json("c", &cage(4.0))
            .expect("cage")
            .is_empty()
    );
}

/// The face example's payload with `edit` applied, as a puppet file.
fn face_variant(test: &str, edit: impl Fn(&mut Value)) -> std::path::PathBuf {
    let root = sinew_testutil::workspace_root();
    let bytes = std::fs::read(root.join("examples/face/face.inp")).expect("face.inp");
    let c = sinew_formats::inochi2d::read_container(&bytes, "face.inp").expect("container");
    let mut payload: Value = serde_json::from_slice(c.json).expect("payload");
    edit(&mut payload);
    let json = serde_json::to_vec(&payload).expect("json");
    let out = sinew_formats::inochi2d::container::write_container(&json, &c.textures, &c.ext);
    let path = rigs::temp_dir(test).join("face.inp");
    std::fs::write(&path, out).expect("write");
    path
}

#[test]
fn keyform_grid_incomplete() {
    // ParamAngle is a 3 x 3 grid: unset one of its 9 keyforms.
    let bad = face_variant("keyform-bad", |p| {
        p["param"][0]["bindings"][0]["isSet"][1][2] = Value::Bool(false);
    });
    let found = lint_file(&bad);
    let f = with(&found, "keyform-grid-incomplete");
    assert_eq!(f.len(), 1, "{found:#?}");
    assert_eq!(f[0].severity, Severity::Error);
    assert_eq!(f[0].at.parameter.as_deref(), Some("ParamAngle"));
    assert_eq!(
        f[0].at.path.as_deref(),
        Some("$.param[0].bindings[0].isSet[1][2]")
    );
    assert!(f[0].message.contains("8 of 9"), "{}", f[0].message);
    // A key outside the range.
    let out = face_variant("keyform-range", |p| {
        p["param"][0]["axis_points"][0][2] = Value::from(1.5);
    });
    assert_eq!(with(&lint_file(&out), "keyform-grid-incomplete").len(), 1);
    let ok = face_variant("keyform-ok", |_| {});
    assert!(with(&lint_file(&ok), "keyform-grid-incomplete").is_empty());
}

#[test]
fn moved_slots_are_the_fewest() {
    use sinew::ids::SlotId;
    let s = |v: &[u16]| v.iter().map(|&i| SlotId(i)).collect::<Vec<_>>();
    // Slot 4 jumps to the front: only it moved.
    let moved = sinew_lint::draw_order::moved_slots(&s(&[0, 1, 2, 3, 4]), &s(&[4, 0, 1, 2, 3]));
    assert_eq!(moved, s(&[4]));
    assert!(sinew_lint::draw_order::moved_slots(&s(&[0, 1]), &s(&[0, 1])).is_empty());
}
