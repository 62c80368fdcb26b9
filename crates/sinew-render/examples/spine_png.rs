//! Loads a Spine rig with its atlas (and, for the bundled stickbot, its jiggle extras),
//! crossfades walk into the next animation, aims an IK constraint, and writes a frame to a PNG.
//!
//!     cargo run --release -p sinew-render --example spine_png -- [SKEL.json|.skel ATLAS OUT.png]
//!
//! With no arguments it uses `examples/stickbot/` and writes `stickbot-frame.png`.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/stickbot");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (skel, atlas, out, extras) = match args.as_slice() {
        [s, a, o] => (PathBuf::from(s), PathBuf::from(a), PathBuf::from(o), None),
        _ => (
            root.join("stickbot.json"),
            root.join("stickbot.atlas"),
            PathBuf::from("stickbot-frame.png"),
            Some("stickbot.extras.json"),
        ),
    };
    // One call: skeleton + atlas (+ jiggle bones by bone name), every error naming its file.
    let asset = sinew_formats::load_spine(
        &skel,
        Some(&atlas),
        &sinew_formats::LoadOptions {
            // Named relative to the skeleton.
            extras: sinew_formats::Companion::named_or_without(extras),
            ..Default::default()
        },
    )?;
    let textures = sinew_render::asset_textures(&asset)?;
    let mut hero = asset.character();

    // Play the first animation; after a second crossfade into the second one (stickbot's
    // turn) once, then back into the first when it ends.
    let names: Vec<String> = asset.rig.clips.iter().map(|c| c.name.clone()).collect();
    let first = names.first().ok_or("the rig has no animation")?;
    hero.set_default_mix(0.3);
    hero.set_animation(0, first, true)?;
    if let Some(next) = names.get(1) {
        hero.add_animation(0, next, false, 1.0)?;
        hero.add_animation(0, first, true, 0.0)?;
    }
    // Aim the first IK constraint at a point from game code.
    if let Some(ik) = asset.rig.ik.first() {
        let id = hero.find_ik(&ik.name).ok_or("IK constraint")?;
        hero.set_ik_target(id, 60.0, 120.0)?;
    }
    for _ in 0..150 {
        hero.update(1.0 / 60.0);
        for e in hero.key_events() {
            println!("event `{}`", e.name(hero.rig()));
        }
    }

    let mut canvas = sinew_render::Canvas::new(512, 512, sinew::Color::new(0.1, 0.1, 0.12, 1.0));
    let mut renderer = sinew_render::CharacterRenderer::new();
    renderer
        .draw_fitted(&mut hero, &textures, &mut canvas, 0.05)
        .ok_or("nothing is drawn")?;
    canvas.save_png(&out)?;
    println!("wrote {}", out.display());
    Ok(())
}
