//! What one `sinew view` frame of spineboy-pro (`run`) at 1920x1080 costs the CPU without
//! a GPU driver: wgpu's noop backend runs all of wgpu-core (validation, resource tracking,
//! command recording, submission bookkeeping) and drops the commands where a driver would
//! take them. The viewer's settings (supersample 2, mipmaps), its 1/60 s step and its copy
//! of the draw list; pages uploaded once before timing; no readback.
//!
//! - `submit/update`: `Character::update(1/60)`;
//! - `submit/update+draw_list`: that and the draw list (`clone_from`, as the viewer does);
//! - `submit/update+draw_list+render`: that and `GpuRenderer::render` (plan, buffer writes,
//!   render passes encoded, `queue.submit`).
//!
//! Needs the shared fixtures (skips with a message without them).

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

#[path = "../tests/noop/mod.rs"]
mod noop;

fn bench_submit(c: &mut Criterion) {
    let Some(spine) = sinew_testutil::require_spine_fixtures("submit") else {
        return;
    };
    let gpu = match noop::noop_gpu() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("skipping submit: {e}");
            return;
        }
    };
    let mut scene = match noop::Scene::new(&spine, &gpu) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("skipping submit: {e}");
            return;
        }
    };
    // Warm-up frames: targets, pipelines and buffers made before timing.
    for _ in 0..10 {
        scene.update();
        scene.draw_list();
        scene.render();
    }
    let stats = scene.renderer.stats();
    eprintln!(
        "spineboy-pro run {}x{} on {:?}: {} commands, {} batches, {} draw calls, {} passes",
        noop::WIDTH,
        noop::HEIGHT,
        gpu.info.backend,
        stats.commands,
        stats.batches,
        stats.draw_calls,
        stats.passes
    );
    let mut g = c.benchmark_group("submit");
    g.bench_function("update", |b| {
        b.iter(|| {
            scene.update();
            black_box(&scene.character);
        });
    });
    g.bench_function("update+draw_list", |b| {
        b.iter(|| {
            scene.update();
            scene.draw_list();
            black_box(&scene.list);
        });
    });
    g.bench_function("update+draw_list+render", |b| {
        b.iter(|| {
            scene.update();
            scene.draw_list();
            black_box(scene.render());
        });
    });
    g.finish();
}

criterion_group!(benches, bench_submit);
criterion_main!(benches);
