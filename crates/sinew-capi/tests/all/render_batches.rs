//! The batched render output beyond plain merging: Inochi2D masks (the face example) and
//! composite groups (the shared `.inx` fixture) are present and described so a host can
//! draw them, and a draw longer than 65,536 vertices is split into batches whose u16
//! indices stay inside each batch.

use crate::common;

use common::*;
use sinew_capi::*;
use std::ptr::{null, null_mut};

fn load_puppet(path: &std::path::Path) -> *mut SinewRig {
    let p = path.to_str().expect("utf-8");
    let mut rig = null_mut();
    let st = sinew_rig_load_inochi2d(p.as_ptr().cast(), p.len(), null(), 0, null(), 0, &mut rig);
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    rig
}

fn mask_of(c: *mut SinewCharacter, kind: u32, index: u32) -> (Vec<SinewMaskSource>, f32) {
    let (mut len, mut threshold) = (0, -1.0f32);
    let st = sinew_character_mask(c, kind, index, null_mut(), 0, &mut len, &mut threshold);
    assert!(
        st == SinewStatus::Ok || st == SinewStatus::BufferTooSmall,
        "{}",
        last_error()
    );
    let mut v = vec![SinewMaskSource::default(); len];
    assert_eq!(
        sinew_character_mask(
            c,
            kind,
            index,
            v.as_mut_ptr(),
            v.len(),
            &mut len,
            &mut threshold
        ),
        SinewStatus::Ok
    );
    (v, threshold)
}

#[test]
fn masks_of_the_face_puppet_are_in_the_batches() {
    let face = sinew_testutil::workspace_root().join("examples/face/face.inp");
    let rig = load_puppet(&face);
    let mut info = SinewRigInfo::default();
    assert_eq!(sinew_rig_info(rig, &mut info), SinewStatus::Ok);
    let c = character(rig);
    assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
    let r = render(c);
    check_batches(&r);
    let masked: Vec<&SinewBatch> = r.batches.iter().filter(|b| b.mask_slot >= 0).collect();
    // The irises are masked by the eye whites (examples/face/README.md).
    assert!(masked.len() >= 2, "{} masked batches", masked.len());
    let drawn: Vec<u32> = r.batches.iter().map(|b| b.first_slot).collect();
    for b in &masked {
        assert_eq!(b.command_count, 1, "a masked batch holds one command");
        assert_eq!(b.mask_slot as u32, b.first_slot);
        let (sources, threshold) = mask_of(c, 0, b.mask_slot as u32);
        assert!(
            !sources.is_empty(),
            "masked slot {} has no source",
            b.mask_slot
        );
        assert!((0.0..=1.0).contains(&threshold), "threshold {threshold}");
        for src in &sources {
            assert!(src.slot < info.slots && src.dodge <= 1);
            // Each source is drawn as its own batch (never merged), so a host can find it.
            let k = drawn.iter().position(|&s| s == src.slot);
            let k = k.unwrap_or_else(|| panic!("mask source slot {} is not drawn", src.slot));
            assert_eq!(r.batches[k].command_count, 1);
        }
    }
    // Unmasked slots have no mask; the face has no composite.
    let plain = r
        .batches
        .iter()
        .find(|b| b.mask_slot < 0)
        .expect("an unmasked batch");
    assert!(mask_of(c, 0, plain.first_slot).0.is_empty());
    assert!(r.groups.is_empty());
    println!(
        "face: {} commands, {} batches, {} masked",
        r.command_count,
        r.batches.len(),
        masked.len()
    );
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}

#[test]
fn composite_groups_are_in_the_batches() {
    let Some(fx) = sinew_testutil::require_fixtures("composite_groups_are_in_the_batches") else {
        return;
    };
    let rig = load_puppet(&fx.join("inochi2d/synthetic_inx_groups.inx"));
    let mut info = SinewRigInfo::default();
    assert_eq!(sinew_rig_info(rig, &mut info), SinewStatus::Ok);
    let c = character(rig);
    assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
    let r = render(c);
    check_batches(&r);
    assert!(!r.groups.is_empty(), "the fixture's composites give groups");
    for (gi, g) in r.groups.iter().enumerate() {
        assert!(g.bone < info.bones);
        assert!(g.batch_count >= 1, "group {gi} draws nothing");
        let end = (g.first_batch + g.batch_count) as usize;
        assert!(end <= r.batches.len());
        // Exactly the group's batches say they are in it, and they are consecutive.
        for (k, b) in r.batches.iter().enumerate() {
            let inside = (g.first_batch as usize..end).contains(&k);
            assert_eq!(b.group == gi as i32, inside, "batch {k} and group {gi}");
        }
        assert!(g.color.iter().all(|v| (0.0..=1.0).contains(v)));
        // The group's own mask, if any, is readable by its bone.
        let _ = mask_of(c, 1, g.bone);
    }
    println!(
        "synthetic_inx_groups: {} batches, {} groups",
        r.batches.len(),
        r.groups.len()
    );
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}

/// A Spine skeleton of `slots` slots, each showing an untextured mesh strip of `2 * columns`
/// vertices (two rows), side by side.
fn strips(slots: usize, columns: usize) -> String {
    let mut slot_json = Vec::new();
    let mut skin = Vec::new();
    for s in 0..slots {
        let (mut uvs, mut verts, mut tris) = (Vec::new(), Vec::new(), Vec::new());
        for row in 0..2 {
            for col in 0..columns {
                let u = col as f64 / (columns - 1) as f64;
                uvs.push(format!("{u},{row}"));
                verts.push(format!(
                    "{},{}",
                    s as f64 * 110.0 + u * 100.0,
                    row as f64 * 10.0
                ));
            }
        }
        for col in 0..columns - 1 {
            let (a, b) = (col, col + 1);
            let (c, d) = (columns + col, columns + col + 1);
            tris.push(format!("{a},{b},{d},{a},{d},{c}"));
        }
        slot_json.push(format!(
            r#"{{"name":"s{s}","bone":"root","attachment":"m{s}"}}"#
        ));
        skin.push(format!(
            r#""s{s}":{{"m{s}":{{"type":"mesh","uvs":[{}],"triangles":[{}],"vertices":[{}],"hull":{}}}}}"#,
            uvs.join(","),
            tris.join(","),
            verts.join(","),
            2 * columns
        ));
    }
    format!(
        r#"{{"skeleton":{{"spine":"4.2.0"}},"bones":[{{"name":"root"}}],"slots":[{}],"skins":[{{"name":"default","attachments":{{{}}}}}]}}"#,
        slot_json.join(","),
        skin.join(",")
    )
}

/// `strips(slots, columns)` loaded and posed through the C ABI, and its render output (the
/// batches checked); the caller destroys the character and the rig.
fn render_strips(slots: usize, columns: usize) -> (*mut SinewRig, *mut SinewCharacter, Render) {
    let json = strips(slots, columns);
    let mut rig = null_mut();
    let st = sinew_rig_load_spine_memory(json.as_ptr(), json.len(), null(), 0, null(), 0, &mut rig);
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let c = character(rig);
    assert_eq!(sinew_character_update(c, 0.0), SinewStatus::Ok);
    let r = render(c);
    check_batches(&r);
    (rig, c, r)
}

/// Each batch's (command count, vertex count).
fn batch_counts(r: &Render) -> Vec<(u32, u32)> {
    r.batches
        .iter()
        .map(|b| (b.command_count, b.vertex_count))
        .collect()
}

/// A batch's indices.
fn batch_indices<'a>(r: &'a Render, b: &SinewBatch) -> &'a [u16] {
    &r.indices[b.index_start as usize..(b.index_start + b.index_count) as usize]
}

#[test]
fn draws_longer_than_65535_vertices_are_split_with_valid_u16_indices() {
    // Three 30,000-vertex meshes: the first two merge (60,000), the third would pass
    // 65,536 and starts a second batch.
    let (rig, c, r) = render_strips(3, 15_000);
    assert_eq!(r.command_count, 3);
    assert_eq!(r.positions.len() / 2, 90_000);
    assert_eq!(batch_counts(&r), vec![(2, 60_000), (1, 30_000)]);
    // Indices are relative to their batch: the second mesh of the first batch is offset by
    // the first's 30,000 vertices, the third mesh starts again at 0.
    let first = &r.batches[0];
    let tail = batch_indices(&r, first);
    assert_eq!(tail.iter().copied().max(), Some(59_999));
    let second = &r.batches[1];
    let idx = batch_indices(&r, second);
    assert_eq!(idx.iter().copied().max(), Some(29_999));
    assert_eq!(idx.iter().copied().min(), Some(0));
    // The first triangle of each mesh, through the batch, lands on that mesh's vertices.
    let vertex = |b: &SinewBatch, i: u16| {
        let k = (b.vertex_start + u32::from(i)) as usize;
        (r.positions[2 * k], r.positions[2 * k + 1])
    };
    assert_eq!(vertex(second, idx[0]), (220.0, 0.0));
    assert_eq!(vertex(first, tail[tail.len() / 2]), (110.0, 0.0));
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}

#[test]
fn meshes_of_65536_vertices_fill_one_batch_each() {
    // The largest meshes u16 indices can address (indices 0..=65,535): each fills a batch
    // exactly, so two never merge.
    let (rig, c, r) = render_strips(2, 32_768);
    assert_eq!(r.positions.len() / 2, 2 * 65_536);
    assert_eq!(batch_counts(&r), vec![(1, SINEW_MAX_BATCH_VERTICES); 2]);
    for b in &r.batches {
        let idx = batch_indices(&r, b);
        assert_eq!(idx.iter().copied().max(), Some(65_535));
        assert_eq!(idx.iter().copied().min(), Some(0));
    }
    sinew_character_destroy(c);
    sinew_rig_destroy(rig);
}
