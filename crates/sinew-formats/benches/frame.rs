//! Whole-frame benchmarks on real rigs: animation state update + apply, world transforms
//! with constraints and physics, and the world vertices of every visible attachment (the
//! same work `sinew bench` measures and the official runtimes' benches time).
//!
//! `frame/<rig>-<anim>` runs 100 instances staggered in time per iteration, so the reported
//! time divided by 100 is the cost of one skeleton-frame. The shared fixtures are used when
//! present (spineboy-pro, raptor-pro, celestial-circus-pro, tank-pro); sinew's own example
//! always runs.

use criterion::{Criterion, Throughput, criterion_main};
use sinew::anim::AnimationState;
use sinew::{AttachmentId, Instance, Physics, Rig};
use std::hint::black_box;
use std::path::{Path, PathBuf};

const INSTANCES: usize = 100;

struct Crowd {
    rig: Rig,
    players: Vec<(Instance, AnimationState)>,
    buf: Vec<f32>,
}

impl Crowd {
    fn new(path: &Path, anim: &str) -> Option<Crowd> {
        let raw = sinew_formats::spine::load_spine_json(path).ok()?;
        let rig = sinew::build::build_rig(&raw).ok()?;
        let clip = rig.clip(anim)?;
        let duration = f64::from(rig.clips[clip.index()].duration).max(0.1);
        let mut players = Vec::with_capacity(INSTANCES);
        for i in 0..INSTANCES {
            let mut inst = Instance::new(&rig);
            let mut state = AnimationState::new(&rig);
            state.set_animation(&rig, 0, clip, true);
            // Stagger the instances across the animation, as a crowd would be.
            state.update(duration * i as f64 / INSTANCES as f64);
            state.apply(&rig, &mut inst);
            sinew::skeleton::update_world_transform(&rig, &mut inst, Physics::Reset);
            players.push((inst, state));
        }
        let max = (0..rig.attachments.len())
            .map(|i| sinew::deform::world_vertex_count(&rig, AttachmentId(i as u32)))
            .max()
            .unwrap_or(0);
        Some(Crowd {
            rig,
            players,
            buf: vec![0.0; max * 2],
        })
    }

    /// World vertices produced per frame by all instances.
    fn vertices_per_frame(&self) -> u64 {
        let rig = &self.rig;
        let mut n = 0;
        for (inst, _) in &self.players {
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
        let rig = &self.rig;
        for (inst, state) in &mut self.players {
            state.update(dt);
            state.apply(rig, inst);
            state.drain_events().for_each(drop);
            inst.advance_time(dt);
            sinew::skeleton::update_world_transform(rig, inst, Physics::Update);
            for i in 0..inst.draw_order.len() {
                let slot = inst.draw_order[i];
                let Some(att) = inst.slots.attachment[slot.index()] else {
                    continue;
                };
                if !inst.bone_active[rig.slots[slot.index()].bone.index()] {
                    continue;
                }
                let n = sinew::deform::world_vertex_count(rig, att) * 2;
                if n > 0 {
                    sinew::deform::compute_world_vertices(rig, inst, slot, &mut self.buf[..n]);
                    black_box(&self.buf[..n]);
                }
            }
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
