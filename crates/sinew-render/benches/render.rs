//! Rendering benchmarks on spineboy-pro `run` (shared fixtures; skipped with a notice when
//! they are missing):
//! - `raster/spineboy-run-512`: rasterise one posed frame (draw list built once) at 512x512;
//! - `draw_list/spineboy-run`: build the draw list from a posed instance;
//! - `frames60/spineboy-run-512`: the work of `sinew render ... --fps 60 --duration 1` on one
//!   core: pose 60 frames, rasterise each at 512x512 and encode it as PNG.
//!
//! Run: `cargo bench -p sinew-render`. Results are recorded in docs/PERFORMANCE.md.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use sinew::anim::AnimationState;
use sinew::draw::{DrawList, build_draw_list};
use sinew::{Color, Instance, Physics, Rig};
use sinew_render::encode::encode_png;
use sinew_render::{Canvas, Renderer, Texture, View};
use std::hint::black_box;
use std::path::Path;

struct Scene {
    rig: Rig,
    textures: Vec<Texture>,
}

fn load(fx: &Path) -> Option<Scene> {
    let dir = fx.join("spineboy");
    let raw = sinew_formats::spine::load_spine_json(&dir.join("spineboy-pro.json")).ok()?;
    let mut rig = sinew::build::build_rig(&raw).ok()?;
    let atlas = sinew_formats::atlas::load_atlas(&dir.join("spineboy.atlas")).ok()?;
    sinew_formats::bind_atlas(&mut rig, &atlas).ok()?;
    let textures = sinew_render::load_atlas_pages(&atlas, &dir, "spineboy.atlas").ok()?;
    Some(Scene { rig, textures })
}

/// An instance playing `run`, stepped at 60 fps to `steps / 60` seconds.
fn posed(rig: &Rig, steps: usize) -> (Instance, AnimationState) {
    let mut inst = Instance::new(rig);
    let mut state = AnimationState::new(rig);
    if let Some(clip) = rig.clip("run") {
        state.set_animation(rig, 0, clip, true);
    }
    for k in 0..=steps {
        let dt = if k == 0 { 0.0 } else { 1.0 / 60.0 };
        step(rig, &mut inst, &mut state, dt);
    }
    (inst, state)
}

fn step(rig: &Rig, inst: &mut Instance, state: &mut AnimationState, dt: f64) {
    state.update(dt);
    state.apply(rig, inst);
    inst.advance_time(dt);
    sinew::skeleton::update_world_transform(rig, inst, Physics::Update);
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
    let rig = &scene.rig;
    let (inst, _) = posed(rig, 15);
    let mut list = DrawList::for_rig(rig);
    build_draw_list(rig, &inst, Color::WHITE, &mut list);
    let mut renderer = Renderer::new();
    let mut canvas = Canvas::new(512, 512, Color::new(0.0, 0.0, 0.0, 0.0));

    c.bench_function("draw_list/spineboy-run", |b| {
        b.iter(|| build_draw_list(rig, black_box(&inst), Color::WHITE, &mut list))
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
            let (mut inst, mut state) = posed(rig, 0);
            let mut bytes = 0;
            for _ in 0..60 {
                step(rig, &mut inst, &mut state, 1.0 / 60.0);
                build_draw_list(rig, &inst, Color::WHITE, &mut list);
                canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
                renderer.render(&list, &scene.textures, &VIEW, &mut canvas);
                bytes += encode_png(512, 512, &canvas.to_rgba8()).map_or(0, |v| v.len());
            }
            bytes
        })
    });
    group.finish();
}

criterion_group!(render, benches);
criterion_main!(render);
