//! Loads an Inochi2D puppet, turns its head with a parameter, plays its idle animation on top
//! and writes a frame to a PNG (embedded textures, masks and composites included).
//!
//!     cargo run --release -p sinew-render --example puppet_png -- [PUPPET.inp OUT.png]
//!
//! With no arguments it uses `examples/face/face.inp` and writes `face-frame.png`.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (file, out) = match args.as_slice() {
        [f, o] => (PathBuf::from(f), PathBuf::from(o)),
        _ => (
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/face/face.inp"),
            PathBuf::from("face-frame.png"),
        ),
    };
    let asset = sinew_formats::load_inochi2d(&file, &Default::default())?;
    let textures = sinew_render::asset_textures(&asset)?;
    let mut puppet = asset.character();

    // Every parameter with its range; push the first one to 3/4 of its range.
    for p in puppet.params() {
        println!("parameter `{}`: {:?} .. {:?}", p.name, p.min, p.max);
    }
    if let Some(p) = puppet.params().first().cloned() {
        let at = |k: usize| p.min[k] + 0.75 * (p.max[k] - p.min[k]);
        puppet.set_param(&p.name, [at(0), at(1)])?;
    }
    if let Some(anim) = asset.param_animations.first() {
        puppet.play_param_animation(&anim.name, true)?;
    }
    for _ in 0..30 {
        puppet.update(1.0 / 60.0);
    }

    let mut canvas = sinew_render::Canvas::new(512, 512, sinew::Color::new(1.0, 1.0, 1.0, 1.0));
    let mut renderer = sinew_render::CharacterRenderer::new();
    renderer
        .draw_fitted(&mut puppet, &textures, &mut canvas, 0.05)
        .ok_or("nothing is drawn")?;
    canvas.save_png(&out)?;
    println!("wrote {}", out.display());
    Ok(())
}
