//! One spineboy-pro frame at 1920x1080 with the viewer's settings on wgpu's noop backend:
//! the path `benches/submit.rs` times (update, draw list, `GpuRenderer::render`'s encoding
//! and submission) runs without a wgpu validation error and records draws. Needs no GPU
//! driver, only the shared fixtures (skips without them, fails with `CI=true`). Not timed.

use crate::noop;

#[test]
fn spineboy_renders_on_the_noop_backend() {
    let Some(spine) =
        sinew_testutil::require_spine_fixtures("spineboy_renders_on_the_noop_backend")
    else {
        return;
    };
    let gpu = noop::noop_gpu().expect("noop device");
    assert_eq!(gpu.info.backend, wgpu::Backend::Noop);
    // A validation error panics in wgpu's default handler; catch it as an error instead.
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut scene = noop::Scene::new(&spine, &gpu).expect("spineboy scene");
    let mut stats = Default::default();
    for _ in 0..3 {
        scene.update();
        scene.draw_list();
        stats = scene.render();
    }
    let error = pollster::block_on(scope.pop());
    assert!(error.is_none(), "wgpu validation error: {error:?}");
    assert!(!scene.list.commands.is_empty());
    assert!(
        stats.batches > 0 && stats.draw_calls > stats.batches,
        "{stats:?}"
    );
    assert_eq!(
        stats.commands as usize,
        scene.list.commands.len(),
        "{stats:?}"
    );
    eprintln!("spineboy on noop: {stats:?}");
}
