//! One frame of the shared Inochi2D puppet `synthetic_medium.inp` (120 parts, 14k vertices,
//! 128 deform bindings, 8 physics pendulums), with no renderer: the 8 2D parameters set to
//! sinusoids, the parameter stage (every binding, deforms included) with parameter physics
//! and world transforms. `puppet/medium` is that frame; `puppet/medium-vertices` adds the
//! world vertices of every visible part. Skipped with a notice when the shared fixtures are
//! absent. The Inox2D comparison (callgrind instruction counts) is in docs/PERFORMANCE.md.

use criterion::{Criterion, criterion_main};
use sinew::params::update_params;
use sinew::{AttachmentId, Instance, ParamId, Rig};
use sinew_formats::inochi2d::{build_puppet, load_inochi2d};
use std::hint::black_box;

struct Player {
    rig: Rig,
    inst: Instance,
    params: Vec<ParamId>,
    buf: Vec<f32>,
    time: f64,
}

impl Player {
    fn new(rig: Rig) -> Player {
        let params = (0..rig.params.params.len())
            .filter(|&i| rig.params.params[i].name.starts_with("Param2D_"))
            .map(|i| ParamId(i as u16))
            .collect();
        let max = (0..rig.attachments.len())
            .map(|i| sinew::deform::world_vertex_count(&rig, AttachmentId(i as u32)))
            .max()
            .unwrap_or(0);
        let mut inst = Instance::new(&rig);
        update_params(&rig, &mut inst, 0.0, true);
        Player {
            rig,
            inst,
            params,
            buf: vec![0.0; max * 2],
            time: 0.0,
        }
    }

    fn frame(&mut self, dt: f64, vertices: bool) -> f32 {
        self.time += dt;
        for (i, &id) in self.params.iter().enumerate() {
            let t = self.time * 1.3 + i as f64 * 0.37;
            self.inst
                .params
                .set(&self.rig, id, [t.sin(), (t * 0.7).cos()]);
        }
        update_params(&self.rig, &mut self.inst, dt, true);
        let mut sum = 0.0;
        if vertices {
            for &slot in &self.inst.draw_order {
                let Some(att) = self.inst.slots.attachment[slot.index()] else {
                    continue;
                };
                let n = sinew::deform::world_vertex_count(&self.rig, att) * 2;
                let out = &mut self.buf[..n];
                sinew::deform::compute_world_vertices(&self.rig, &self.inst, slot, out);
                sum += out.first().copied().unwrap_or(0.0);
            }
        }
        sum
    }
}

fn bench_puppet(c: &mut Criterion) {
    let Some(dir) = sinew_testutil::fixtures_dir() else {
        eprintln!("puppet bench: shared fixtures not found; nothing to run");
        return;
    };
    let path = dir.join("inochi2d/synthetic_medium.inp");
    let rig = match load_inochi2d(&path).and_then(|p| build_puppet(&p)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("puppet bench: {e}");
            return;
        }
    };
    let mut player = Player::new(rig);
    let mut group = c.benchmark_group("puppet");
    group.bench_function("medium", |b| {
        b.iter(|| black_box(player.frame(1.0 / 60.0, false)))
    });
    group.bench_function("medium-vertices", |b| {
        b.iter(|| black_box(player.frame(1.0 / 60.0, true)))
    });
    group.finish();
}

// criterion's macros generate undocumented items.
#[allow(missing_docs)]
mod harness {
    use super::bench_puppet;
    use criterion::criterion_group;
    criterion_group!(benches, bench_puppet);
}
use harness::benches;
criterion_main!(benches);
