//! Fuzz target: arbitrary bytes as a DragonBones 5.x skeleton (`*_ske.json`; anything after
//! a NUL byte is its `*_tex.json`, bound as the atlas), through the loader, the rig builder
//! and frames of up to four animations (each played as often as its `playTimes` says:
//! update, draw list, world vertices). None may panic or hang; errors are fine. Crashes go to
//! `fuzz/regressions/dragonbones/`, which `crates/sinew-formats/tests/all/fuzz_regressions.rs`
//! replays on every `cargo test`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let (ske, tex) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    };
    let ske = String::from_utf8_lossy(ske);
    let tex = tex.map(String::from_utf8_lossy);
    let Ok(db) = sinew_formats::dragonbones::parse_dragonbones(
        &ske,
        "fuzz_ske.json",
        tex.as_deref().map(|t| (t, "fuzz_tex.json")),
        None,
    ) else {
        return;
    };
    let Ok(mut rig) = sinew::build::build_rig(&db.raw) else {
        return;
    };
    rig.exact_angles = true;
    if let Some(t) = tex.as_deref() {
        if let Ok(atlas) =
            sinew_formats::dragonbones::parse_tex_atlas(t, "fuzz_tex.json", "fuzz_tex.png", |_| {
                Some((64, 64))
            })
        {
            let _ = sinew_formats::atlas::bind_atlas(&mut rig, &atlas);
        }
    }
    let rig = Arc::new(rig);
    let mut c = sinew::Character::new(rig.clone());
    let mut vertices = vec![0.0; c.max_world_floats()];
    for clip in db.clips.iter().take(4) {
        let _ = c.set_animation(0, &clip.name, clip.play_times != 1);
        for _ in 0..3 {
            c.update(1.0 / 24.0);
            c.draw_list();
            c.compute_world_vertices(&mut vertices);
        }
    }
});
