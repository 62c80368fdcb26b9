//! Rendering benchmarks on spineboy-pro `run` (shared fixtures; skipped with a notice when
//! they are missing):
//! - `raster/spineboy-run-512`: rasterise one posed frame (draw list built once) at 512x512;
//! - `draw_list/spineboy-run`: build the draw list of a posed character (`Character::draw_list`);
//! - `frames60/spineboy-run-512`: the work of `sinew render ... --fps 60 --duration 1` on one
//!   core: pose 60 frames, rasterise each at 512x512 and encode it as PNG.
//!
//! Run: `cargo bench -p sinew-render --features bench`. Results are recorded in
//! docs/PERFORMANCE.md.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use sinew::{Character, Color};
use sinew_formats::Asset;
use sinew_render::encode::encode_png;
use sinew_render::{Canvas, Renderer, Texture, View};
use std::hint::black_box;
use std::path::Path;

struct Scene {
    asset: Asset,
    textures: Vec<Texture>,
}

fn load(fx: &Path) -> Option<Scene> {
    let dir = fx.join("spineboy");
    let asset = sinew_formats::load_spine(
        &dir.join("spineboy-pro.json"),
        Some(&dir.join("spineboy.atlas")),
        &Default::default(),
    )
    .ok()?;
    let textures = sinew_render::asset_textures(&asset).ok()?;
    Some(Scene { asset, textures })
}

/// A character playing `run`, stepped at 60 fps to `steps / 60` seconds.
fn posed(asset: &Asset, steps: usize) -> Character {
    let mut c = asset.character();
    let _ = c.set_animation(0, "run", true);
    for k in 0..=steps {
        c.update(if k == 0 { 0.0 } else { 1.0 / 60.0 });
    }
    c
}

/// The render-ref view of spineboy `run` widened to a square.
const VIEW: View = View {
    x0: -400.0,
    y0: -28.0,
    x1: 310.0,
    y1: 682.0,
};

fn benches(c: &mut Criterion) {
    let Some(fx) = sinew_testutil::fixtures_dir().map(|d| d.join("spine")) else {
        println!("skipping render benches: shared fixtures not found");
        return;
    };
    let Some(scene) = load(&fx) else {
        println!("skipping render benches: spineboy did not load");
        return;
    };
    let mut posed15 = posed(&scene.asset, 15);
    let list = posed15.draw_list().clone();
    let mut renderer = Renderer::new();
    let mut canvas = Canvas::new(512, 512, Color::new(0.0, 0.0, 0.0, 0.0));

    c.bench_function("draw_list/spineboy-run", |b| {
        b.iter(|| black_box(posed15.draw_list().commands.len()))
    });
    c.bench_function("raster/spineboy-run-512", |b| {
        b.iter(|| {
            canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
            renderer.render(black_box(&list), &scene.textures, &VIEW, &mut canvas);
        })
    });
    let mut group = c.benchmark_group("frames60");
    group.sample_size(10);
    group.bench_function("spineboy-run-512", |b| {
        b.iter(|| {
            let mut c = posed(&scene.asset, 0);
            let mut bytes = 0;
            for _ in 0..60 {
                c.update(1.0 / 60.0);
                canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
                renderer.render(c.draw_list(), &scene.textures, &VIEW, &mut canvas);
                bytes += encode_png(512, 512, &canvas.to_rgba8()).map_or(0, |v| v.len());
            }
            bytes
        })
    });
    group.finish();
}

criterion_group!(render, benches);
criterion_main!(render);
