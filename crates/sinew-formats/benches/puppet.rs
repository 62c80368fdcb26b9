//! One frame of the shared Inochi2D puppet `synthetic_medium.inp` (120 parts, 14k vertices,
//! 128 deform bindings, 8 physics pendulums), with no renderer: the 8 2D parameters set to
//! sinusoids, the parameter stage (every binding, deforms included) with parameter physics
//! and world transforms, all in one `Character::update`. `puppet/medium` is that frame; `puppet/medium-vertices` adds the
//! world vertices of every visible part. Skipped with a notice when the shared fixtures are
//! absent. The Inox2D comparison (callgrind instruction counts) is in docs/PERFORMANCE.md.

use criterion::{Criterion, criterion_main};
use sinew::{Character, ParamId};
use std::hint::black_box;

struct Player {
    character: Character,
    params: Vec<ParamId>,
    buf: Vec<f32>,
    time: f64,
}

impl Player {
    fn new(mut character: Character) -> Player {
        let params = (0..character.params().len())
            .filter(|&i| character.params()[i].name.starts_with("Param2D_"))
            .map(|i| ParamId(i as u16))
            .collect();
        let max = character.max_world_floats();
        character.update(0.0);
        Player {
            character,
            params,
            buf: vec![0.0; max],
            time: 0.0,
        }
    }

    fn frame(&mut self, dt: f64, vertices: bool) -> f32 {
        self.time += dt;
        for (i, &id) in self.params.iter().enumerate() {
            let t = self.time * 1.3 + i as f64 * 0.37;
            let _ = self.character.set_param(id, [t.sin(), (t * 0.7).cos()]);
        }
        self.character.update(dt);
        if vertices {
            self.character.compute_world_vertices(&mut self.buf);
            return self.buf.first().copied().unwrap_or(0.0);
        }
        0.0
    }
}

fn bench_puppet(c: &mut Criterion) {
    let Some(dir) = sinew_testutil::fixtures_dir() else {
        eprintln!("puppet bench: shared fixtures not found; nothing to run");
        return;
    };
    let path = dir.join("inochi2d/synthetic_medium.inp");
    let asset = match sinew_formats::load_inochi2d(&path, &Default::default()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("puppet bench: {e}");
            return;
        }
    };
    let mut player = Player::new(asset.character());
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
