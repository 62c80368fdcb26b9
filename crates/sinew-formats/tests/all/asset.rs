//! One call per format: `load_spine` binds the atlas (a region the atlas lacks is an error
//! naming both files), attaches extras, and gives characters that draw; `load_inochi2d`
//! gives a puppet's drawing details (pages, y down) so its draw list is complete.

use std::path::{Path, PathBuf};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

#[test]
fn spine_loads_with_its_atlas_and_extras_in_one_call() {
    let dir = examples().join("stickbot");
    let options = sinew_formats::LoadOptions {
        extras: sinew_formats::Companion::Named("stickbot.extras.json".into()),
        ..Default::default()
    };
    let asset = sinew_formats::load_spine(
        &dir.join("stickbot.json"),
        Some(&dir.join("stickbot.atlas")),
        &options,
    )
    .expect("stickbot loads");
    assert!(asset.atlas.is_some() && asset.jiggle.is_some());
    let mut c = asset.character();
    c.set_animation(0, "walk", true).expect("walk exists");
    c.update(1.0 / 30.0);
    let list = c.draw_list();
    assert!(!list.commands.is_empty());
    assert!(list.uvs.iter().all(|v| (0.0..=1.0).contains(v)));
}

#[test]
fn an_atlas_without_a_needed_region_is_an_error_naming_both_files() {
    let dir = examples().join("stickbot");
    let tmp = std::env::temp_dir().join(format!("sinew-asset-{}.atlas", std::process::id()));
    std::fs::write(
        &tmp,
        "stickbot.png\n\tsize: 256, 512\nonly-this\n\tbounds: 0, 0, 4, 4\n",
    )
    .expect("write atlas");
    let e = sinew_formats::load_spine(&dir.join("stickbot.json"), Some(&tmp), &Default::default())
        .expect_err("the atlas lacks the rig's regions");
    let msg = e.to_string();
    let _ = std::fs::remove_file(&tmp);
    assert!(
        msg.contains("sinew-asset-") && msg.contains("stickbot.json") && msg.contains("no region"),
        "{msg}"
    );
    let e = sinew_formats::load_spine(&dir.join("nope.json"), None, &Default::default())
        .expect_err("missing file");
    assert!(e.to_string().contains("nope.json"), "{e}");
}

#[test]
fn a_puppet_draws_with_its_pages_and_y_up() {
    let asset =
        sinew_formats::load_inochi2d(&examples().join("face/face.inp"), &Default::default())
            .expect("face loads");
    assert!(asset.draw.y_down);
    let mut c = asset.character();
    c.update(0.0);
    let list = c.draw_list().clone();
    assert!(!list.commands.is_empty());
    // Every part of the face has its own albedo texture: no command is left on page 0 by
    // default unless its texture is 0, and untextured parts are marked.
    for cmd in &list.commands {
        let want = asset.draw.slot_pages[cmd.slot.index()].unwrap_or(sinew::draw::NO_PAGE);
        assert_eq!(cmd.page, want);
    }
    // Puppet space is y down; the list is y up: its first vertex is the mirror of the
    // slot's world vertex.
    let first = list.commands[0];
    let mut world = Vec::new();
    assert!(c.world_vertices(first.slot, &mut world));
    let p = list.command_positions(&first);
    assert_eq!((p[0], p[1]), (world[0], -world[1]));
    assert!(c.set_param("no-such-parameter", [0.0, 0.0]).is_err());
}

/// spineboy (shared fixtures): aim with IK, hit its head's bounding box, fit a view.
#[test]
fn spineboy_aims_and_is_hit_by_the_bounding_box_of_its_head() {
    let Some(dir) = sinew_testutil::require_spine_fixtures("spineboy_aims") else {
        return;
    };
    let dir = dir.join("spineboy");
    let asset = sinew_formats::load_spine(
        &dir.join("spineboy-pro.json"),
        Some(&dir.join("spineboy.atlas")),
        &Default::default(),
    )
    .expect("spineboy loads");
    let mut c = asset.character();
    c.set_animation(0, "idle", true).expect("idle");
    c.update(0.0);
    let aim = c.find_ik("aim-ik").expect("aim-ik");
    let crosshair = c.find_bone("crosshair").expect("crosshair");
    c.set_ik_target(aim, 300.0, 400.0)
        .expect("a known IK constraint");
    for _ in 0..3 {
        c.update(0.0);
    }
    let w = c.bone_world(crosshair).expect("known bone");
    assert!(
        (w.x - 300.0).abs() < 1e-6 && (w.y - 400.0).abs() < 1e-6,
        "{w:?}"
    );
    // The head's bounding box (shown from code: attachment by slot and name): its centre
    // hits, far away does not.
    assert!(c.set_attachment("head-bb", Some("no-such-box")).is_err());
    c.set_attachment("head-bb", Some("head"))
        .expect("head-bb's box");
    c.update(0.0);
    let bounds = c.hit_bounds();
    let (slot, poly) = bounds.polygons().next().expect("head-bb is shown");
    assert_eq!(slot, asset.rig.slot("head-bb").expect("head-bb slot"));
    let n = poly.len() / 2;
    let cx = poly.chunks_exact(2).map(|p| p[0]).sum::<f32>() / n as f32;
    let cy = poly.chunks_exact(2).map(|p| p[1]).sum::<f32>() / n as f32;
    assert_eq!(bounds.contains_point(cx, cy), Some(slot));
    assert_eq!(bounds.contains_point(cx + 10_000.0, cy), None);
    assert_eq!(
        bounds.intersects_segment(cx - 10_000.0, cy, cx + 10_000.0, cy),
        Some(slot)
    );
    assert!(bounds.aabb_contains_point(cx, cy));
    let view = c.fit_view(512, 512, 0.05).expect("spineboy draws");
    assert!(
        (view[2] - view[0] - (view[3] - view[1])).abs() < 1e-6,
        "square view"
    );
}
