//! Bytes per character: the heap a new `Character` takes (and keeps after frames) beyond
//! the shared rig, for spineboy, raptor and the puppets. Nothing the rig can share is
//! copied per character; the figures go in `docs/PERFORMANCE.md`
//! (`cargo test -p sinew-formats --test all memory:: -- --nocapture`).

use sinew_testutil::alloc::live_bytes;

/// Heap bytes of one character of `asset`, when new and after 120 frames of `anim`.
fn per_character(asset: &sinew_formats::Asset, anim: Option<&str>) -> (isize, isize) {
    let (mut c, fresh) = live_bytes(|| asset.character());
    let ((), grown) = live_bytes(|| {
        if let Some(a) = anim {
            c.set_animation(0, a, true).expect("animation");
        }
        for _ in 0..120 {
            c.update(1.0 / 60.0);
            c.draw_list();
        }
    });
    (fresh, fresh + grown)
}

#[test]
fn bytes_per_character() {
    let root = sinew_testutil::workspace_root();
    let face =
        sinew_formats::load_inochi2d(&root.join("examples/face/face.inp"), &Default::default())
            .expect("face loads");
    let (fresh, used) = per_character(&face, None);
    println!("face.inp: {fresh} bytes new, {used} after 120 frames with the draw list");
    // A puppet character is its instance and parameter state, not a copy of the puppet.
    let rig_bytes = face.rig.attachments.len() * std::mem::size_of::<sinew::rig::Attachment>();
    assert!(
        fresh > 0 && (fresh as usize) < 64 * 1024 + rig_bytes,
        "{fresh}"
    );
    let Some(spine) = sinew_testutil::require_fixtures("bytes_per_character") else {
        return;
    };
    for (dir, file, atlas, anim) in [
        ("spineboy", "spineboy-pro", "spineboy", "run"),
        ("raptor", "raptor-pro", "raptor", "walk"),
    ] {
        let d = spine.join("spine").join(dir);
        let asset = sinew_formats::load_spine(
            &d.join(format!("{file}.json")),
            Some(&d.join(format!("{atlas}.atlas"))),
            &Default::default(),
        )
        .expect("loads");
        let (fresh, used) = per_character(&asset, Some(anim));
        let rig = &asset.rig;
        let (_i, inst) = live_bytes(|| sinew::Instance::new(rig));
        let (_s, state) = live_bytes(|| sinew::anim::AnimationState::new(rig));
        let (_d, draw) = live_bytes(|| sinew::draw::DrawList::for_rig(rig));
        println!("  of which: instance {inst}, animation state {state}, draw list {draw}");
        println!(
            "{file}: {fresh} bytes new, {used} after 120 frames of `{anim}` with the draw list \
             ({} bones, {} slots)",
            asset.rig.bones.len(),
            asset.rig.slots.len()
        );
        // Per bone and slot state plus the reused draw list: well under a kilobyte per bone.
        let items = asset.rig.bones.len() + asset.rig.slots.len();
        assert!(
            (used as usize) < 1024 * items + 256 * 1024,
            "{file}: {used}"
        );
    }
}
