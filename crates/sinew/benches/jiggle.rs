//! Jiggle bone benchmark: 1,000 characters with 20 jiggle bones each (four 5-bone strands on
//! a moving body), one 60 Hz frame per iteration, so one iteration is 20,000 bone-steps.
//!
//! - `jiggle/stage-spring-1000x20`: `Character::update` per character: world transforms
//!   and the whole jiggle stage (read the pose, one fixed step, display, write world
//!   transforms and applied locals, re-pose descendants), spring model with a collider per
//!   strand;
//! - `jiggle/stage-verlet-1000x20`: the same with the VRM (Verlet) model and no collider,
//!   the work three-vrm's `VRMSpringBoneManager.update` does (compare
//!   `testdata/jiggle/vrm_bench.mjs`);
//! - `jiggle/stage-spring-1000x20-144fps`: the spring stage at 144 fps frames on the 60 Hz
//!   step (frames between steps preview the rest of a step for display);
//! - `jiggle/solver-spring-1000x20`: the solver step alone on prepared inputs;
//! - `jiggle/world-1000`: `update_world_transform` alone, the input stage (not jiggle cost);
//! - `jiggle/lod-*-1000x20`: the spring stage at 60 fps with every chain at one level of
//!   detail: `full` (solved every step), `every2` / `every4` (solved every 2nd / 4th step,
//!   the display interpolated between the last two solves), `off` (chains switched off),
//!   `strength0` (faded out), `culled` (outside the view rectangle), and `none` (the same
//!   characters without jiggle: the frame's other work, subtracted to get jiggle's cost).
//!
//! Times are on-CPU time of the benchmark thread (`/proc/thread-self/schedstat`, wall time
//! where that is missing), so a loaded machine does not inflate them. Bone-steps per second
//! = 20,000 / time per iteration. Figures: `docs/PERFORMANCE.md`.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use sinew::math::Vec2;
use sinew::physics::jiggle::chain::{AnimPoints, Env};
use sinew::physics::jiggle::{
    ChainDesc, ColliderDesc, ColliderShape, JiggleDesc, JiggleParams, JiggleRig, Preset,
};
use sinew::raw::{RawBone, RawRig};
use sinew::skeleton::update_world_transform;
use sinew::{Character, Instance, Physics, Rig};
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// On-CPU time of this thread (Linux), else wall time since `start`.
fn cpu_now(start: Instant) -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map(Duration::from_nanos)
        .unwrap_or_else(|| start.elapsed())
}

/// Runs `f` `iters` times and returns the CPU time taken.
fn cpu_time(iters: u64, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let t0 = cpu_now(start);
    for _ in 0..iters {
        f();
    }
    cpu_now(start).saturating_sub(t0)
}

const CHARACTERS: usize = 1000;
const STRANDS: usize = 4;
const PER_STRAND: usize = 5;

/// A body with four 5-bone strands hanging from its top.
fn rig() -> Rig {
    let mut raw = RawRig::default();
    let mut add = |name: &str, parent: Option<&str>, len: f64, x: f64, y: f64, rot: f64| {
        let mut b = RawBone::new(name, parent);
        b.length = len;
        b.x = x;
        b.y = y;
        b.rotation = rot;
        raw.bones.push(b);
    };
    add("root", None, 0.0, 0.0, 0.0, 0.0);
    add("body", Some("root"), 100.0, 0.0, 0.0, 90.0);
    for s in 0..STRANDS {
        for k in 0..PER_STRAND {
            let name = format!("s{s}-{k}");
            let parent = if k == 0 {
                "body".to_owned()
            } else {
                format!("s{s}-{}", k - 1)
            };
            let (x, y, rot) = if k == 0 {
                (100.0, (s as f64 - 1.5) * 10.0, 190.0)
            } else {
                (12.0, 0.0, 0.0)
            };
            add(&name, Some(&parent), 12.0, x, y, rot);
        }
    }
    sinew::build::build_rig(&raw).unwrap_or_else(|e| panic!("bench rig: {e}"))
}

fn desc(params: JiggleParams, collider: bool) -> JiggleDesc {
    let mut d = JiggleDesc::new();
    d.gravity = [0.0, -980.0];
    if collider {
        d.colliders.push(ColliderDesc {
            name: "body".to_owned(),
            bone: "body".to_owned(),
            shape: ColliderShape::Capsule {
                offset: [0.0, 0.0],
                tail: [90.0, 0.0],
                radius: 15.0,
            },
        });
    }
    for s in 0..STRANDS {
        let names: Vec<String> = (0..PER_STRAND).map(|k| format!("s{s}-{k}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut c = ChainDesc::new(&format!("strand{s}"), &refs, params);
        if collider {
            c.colliders.push("body".to_owned());
        }
        d.chains.push(c);
    }
    d
}

/// The characters, each driven through the facade as a host drives it.
struct Crowd {
    characters: Vec<Character>,
    frame: u32,
}

fn crowd(rig: &Arc<Rig>, jr: &Arc<JiggleRig>) -> Crowd {
    let mut characters = Vec::with_capacity(CHARACTERS);
    for _ in 0..CHARACTERS {
        let mut c = Character::new(rig.clone());
        c.set_jiggle(Some(jr.clone())).expect("built for this rig");
        c.update(0.0);
        characters.push(c);
    }
    Crowd {
        characters,
        frame: 0,
    }
}

/// One frame of `1 / fps` seconds for every character: move, then `Character::update`
/// (world transforms and the jiggle stage: the rig has no clips).
fn frame_at(c: &mut Crowd, fps: f64) {
    c.frame += 1;
    let speed = 0.15 * 60.0 / fps;
    for (i, ch) in c.characters.iter_mut().enumerate() {
        ch.set_position(30.0 * ((f64::from(c.frame) + i as f64) * speed).sin(), 0.0);
        ch.update(1.0 / fps);
    }
}

/// One 60 fps frame: on the 60 Hz step grid, so every frame takes one step.
fn frame(c: &mut Crowd) {
    frame_at(c, 60.0);
}

fn bench(c: &mut Criterion) {
    let rig = Arc::new(rig());
    let mut g = c.benchmark_group("jiggle");
    g.sample_size(20);
    for (name, params, collider) in [
        ("stage-spring-1000x20", Preset::HairTip.params(), true),
        (
            "stage-verlet-1000x20",
            JiggleParams {
                unit_scale: 100.0,
                ..Preset::Vrm.params()
            },
            false,
        ),
    ] {
        let jr = JiggleRig::build(&rig, &desc(params, collider)).unwrap_or_else(|e| panic!("{e}"));
        let mut cr = crowd(&rig, &Arc::new(jr));
        g.bench_function(name, |b| {
            b.iter_custom(|n| cpu_time(n, || frame(black_box(&mut cr))))
        });
    }
    {
        // 144 fps on the 60 Hz step: most frames fall between steps and show a preview of
        // the rest of a step (issue 18), 0.42 committed steps per frame.
        let jr = JiggleRig::build(&rig, &desc(Preset::HairTip.params(), true))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut cr = crowd(&rig, &Arc::new(jr));
        g.bench_function("stage-spring-1000x20-144fps", |b| {
            b.iter_custom(|n| cpu_time(n, || frame_at(black_box(&mut cr), 144.0)))
        });
    }
    {
        // Levels of detail at 60 fps: jiggle's cost per character is (case - none) / 1,000.
        let jr = Arc::new(
            JiggleRig::build(&rig, &desc(Preset::HairTip.params(), true))
                .unwrap_or_else(|e| panic!("{e}")),
        );
        for (name, every, on, strength, view) in [
            ("lod-full-1000x20", 1, true, 1.0, None),
            ("lod-every2-1000x20", 2, true, 1.0, None),
            ("lod-every4-1000x20", 4, true, 1.0, None),
            ("lod-off-1000x20", 1, false, 1.0, None),
            ("lod-strength0-1000x20", 1, true, 0.0, None),
            (
                "lod-culled-1000x20",
                1,
                true,
                1.0,
                Some([1e6, 1e6, 1e6 + 1.0, 1e6 + 1.0]),
            ),
        ] {
            let mut cr = crowd(&rig, &jr);
            for ch in &mut cr.characters {
                let (_, js) = ch.jiggle_mut().expect("jiggle");
                for i in 0..STRANDS {
                    js.set_chain_every(i, every);
                    js.set_chain_enabled(i, on);
                    js.set_strength(i, strength);
                }
                js.set_view(view);
            }
            g.bench_function(name, |b| {
                b.iter_custom(|n| cpu_time(n, || frame(black_box(&mut cr))))
            });
        }
        let mut cr = crowd(&rig, &jr);
        for ch in &mut cr.characters {
            ch.set_jiggle(None).expect("off");
        }
        g.bench_function("lod-none-1000", |b| {
            b.iter_custom(|n| cpu_time(n, || frame(black_box(&mut cr))))
        });
    }
    {
        let mut insts: Vec<Instance> = (0..CHARACTERS).map(|_| Instance::new(&rig)).collect();
        let mut f = 0.0;
        g.bench_function("world-1000", |b| {
            b.iter_custom(|n| {
                cpu_time(n, || {
                    f += 1.0;
                    for inst in insts.iter_mut() {
                        inst.x = f;
                        update_world_transform(&rig, inst, Physics::None);
                    }
                })
            })
        });
    }
    {
        // The solver alone: 1,000 independent 20-bone solvers on prepared inputs.
        let jr = JiggleRig::build(&rig, &desc(Preset::HairTip.params(), false))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut inst = Instance::new(&rig);
        update_world_transform(&rig, &mut inst, Physics::None);
        let anim: Vec<AnimPoints<Vec2>> = jr
            .bones
            .iter()
            .zip(&jr.tip_lengths)
            .map(|(b, &len)| {
                let w = inst.world[b.index()];
                let Vec2 { x: tx, y: ty } = w.apply(Vec2::new(len, 0.0));
                AnimPoints {
                    origin: Vec2::new(w.x, w.y),
                    tip: Vec2::new(tx, ty),
                }
            })
            .collect();
        let mut sims: Vec<_> = (0..CHARACTERS)
            .map(|_| {
                let mut s = sinew::physics::jiggle::chain::JiggleSim::new(
                    jr.links.clone(),
                    jr.chains.clone(),
                    jr.collider_index.clone(),
                );
                s.reset(&anim);
                s.bones[0].tip = s.bones[0].tip + Vec2::new(3.0, 0.0);
                s
            })
            .collect();
        let env = Env::new(Vec2::new(0.0, -980.0), Vec2::ZERO);
        let strength = [1.0; STRANDS];
        g.bench_function("solver-spring-1000x20", |b| {
            b.iter_custom(|n| {
                cpu_time(n, || {
                    for s in sims.iter_mut() {
                        s.step(black_box(&anim), &[], &env, &strength, false);
                    }
                })
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
