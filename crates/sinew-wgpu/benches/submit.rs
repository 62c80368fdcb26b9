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
//! With `SINEW_SUBMIT_DRIVER=1` the same frames run on the first real adapter
//! (`Gpu::headless`, `WGPU_BACKEND` honoured) instead of the noop backend, and a fourth
//! bench, `submit/update+draw_list+render+wait`, also waits until the GPU has finished the
//! frame (`device.poll(wait)`): what a driver's submission and the GPU's own work cost.
//!
//! Needs the shared fixtures (skips with a message without them).

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

#[path = "../tests/all/noop/mod.rs"]
mod noop;

fn bench_submit(c: &mut Criterion) {
    let Some(spine) = sinew_testutil::require_spine_fixtures("submit") else {
        return;
    };
    let driver = std::env::var_os("SINEW_SUBMIT_DRIVER").is_some_and(|v| v == "1");
    let opened = if driver {
        sinew_wgpu::Gpu::headless().map_err(|e| e.to_string())
    } else {
        noop::noop_gpu()
    };
    let gpu = match opened {
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
        "spineboy-pro run {}x{} on {:?} ({}, {}): {} commands, {} batches, {} draw calls, {} passes",
        noop::WIDTH,
        noop::HEIGHT,
        gpu.info.backend,
        gpu.info.name,
        gpu.info.driver_info,
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
    if driver {
        g.bench_function("update+draw_list+render+wait", |b| {
            b.iter(|| {
                scene.update();
                scene.draw_list();
                black_box(scene.render());
                let _ = gpu.device.poll(wgpu::PollType::wait_indefinitely());
            });
        });
    }
    g.finish();
}

criterion_group!(benches, bench_submit);
criterion_main!(benches);
