//! Whole-frame benchmarks on real rigs: animation state update + apply, world transforms
//! with constraints and physics, and the world vertices of every visible attachment (the
//! same work `sinew bench` measures and the official runtimes' benches time).
//!
//! `frame/<rig>-<anim>` runs 100 instances staggered in time per iteration, so the reported
//! time divided by 100 is the cost of one skeleton-frame. The shared fixtures are used when
//! present (spineboy-pro, raptor-pro, celestial-circus-pro, tank-pro); sinew's own example
//! always runs.

use criterion::{Criterion, Throughput, criterion_main};
use sinew::Character;
use std::hint::black_box;
use std::path::{Path, PathBuf};

const INSTANCES: usize = 100;

struct Crowd {
    players: Vec<Character>,
    buf: Vec<f32>,
}

impl Crowd {
    fn new(path: &Path, anim: &str) -> Option<Crowd> {
        let asset = sinew_formats::load_spine(path, None, &Default::default()).ok()?;
        let clip = asset.rig.clip(anim)?;
        let duration = f64::from(asset.rig.clips[clip.index()].duration).max(0.1);
        let mut players = Vec::with_capacity(INSTANCES);
        for i in 0..INSTANCES {
            let mut c = asset.character();
            c.set_animation(0, clip, true).ok()?;
            // Staggered start: one frame of the offset, physics reset.
            c.reset_physics();
            c.update(duration * i as f64 / INSTANCES as f64);
            players.push(c);
        }
        let max = players.first().map_or(0, Character::max_world_floats);
        Some(Crowd {
            players,
            buf: vec![0.0; max],
        })
    }

    fn vertices_per_frame(&self) -> u64 {
        let mut n = 0;
        for c in &self.players {
            let (rig, inst) = (c.rig(), c.instance());
            for &slot in &inst.draw_order {
                if let Some(att) = inst.slots.attachment[slot.index()]
                    && inst.bone_active[rig.slots[slot.index()].bone.index()]
                {
                    n += sinew::deform::world_vertex_count(rig, att) as u64;
                }
            }
        }
        n
    }

    fn frame(&mut self, dt: f64) {
        for c in &mut self.players {
            c.update(dt);
            black_box(c.compute_world_vertices(&mut self.buf));
            black_box(&self.buf);
        }
    }
}

fn fixtures() -> Option<PathBuf> {
    sinew_testutil::fixtures_dir().map(|d| d.join("spine"))
}

fn bench_frames(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut rigs: Vec<(String, PathBuf, &str)> = vec![(
        "stickbot-walk".into(),
        root.join("examples/stickbot/stickbot.json"),
        "walk",
    )];
    if let Some(dir) = fixtures() {
        rigs.push((
            "spineboy-run".into(),
            dir.join("spineboy/spineboy-pro.json"),
            "run",
        ));
        rigs.push((
            "raptor-walk".into(),
            dir.join("raptor/raptor-pro.json"),
            "walk",
        ));
        rigs.push((
            "celestial-swing".into(),
            dir.join("celestial-circus/celestial-circus-pro.json"),
            "swing",
        ));
        rigs.push(("tank-drive".into(), dir.join("tank/tank-pro.json"), "drive"));
    } else {
        eprintln!("frame bench: shared fixtures not found; only sinew's own example runs");
    }
    let mut group = c.benchmark_group("frame");
    for (name, path, anim) in rigs {
        let Some(mut crowd) = Crowd::new(&path, anim) else {
            eprintln!("frame bench: cannot load {}", path.display());
            continue;
        };
        group.throughput(Throughput::Elements(crowd.vertices_per_frame()));
        group.bench_function(format!("{name}-x{INSTANCES}"), |b| {
            b.iter(|| crowd.frame(1.0 / 60.0))
        });
    }
    group.finish();
}

// criterion's macros generate undocumented items.
#[allow(missing_docs)]
mod harness {
    use super::bench_frames;
    use criterion::criterion_group;
    criterion_group!(benches, bench_frames);
}
use harness::benches;
criterion_main!(benches);
