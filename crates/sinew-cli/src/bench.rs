//! `sinew bench`: the cost of one skeleton-frame, measured like the oracle's `bench.mjs`.
//!
//! N instances play the animation looping, instance i starting i*7 ms in. One
//! skeleton-frame is, per instance: [`sinew::Character::update`] (animation update + apply,
//! clock advance, world transform with physics, jiggle), then world vertices of every region and mesh attachment in draw order into
//! a preallocated buffer (what a renderer does before batching). Warm-up frames are not
//! measured. On one thread the instances run through [`sinew::character::Batch`] (four at
//! a time in SIMD lanes, the same bits as one by one); `SINEW_BENCH_LANES=0` in the
//! environment runs them one by one instead.
//!
//! CPU time: std has no CPU clock, so this reads the thread's on-CPU nanoseconds from
//! `/proc/thread-self/schedstat` (Linux), falling back to `/proc/self/stat` utime+stime
//! (10 ms ticks) and finally to wall time; the final JSON line names the clock used
//! (`cpu_clock`). Phase splits are wall time (`Instant`). Verified by the CLI test (runs a
//! small bench and parses the final JSON line).
//!
//! `--threads N` runs the instances in a [`sinew::character::Crowd`] (a persistent pool of
//! N threads): each frame updates every character and builds its draw list on the pool; CPU
//! time is then the whole process's, and the report adds `threads` and
//! `skeleton_frames_per_s` (wall).

use crate::args::{BenchArgs, Mode};
use crate::pose::{self, Session, SessionSpec};
use crate::schema::{Obj, num};
use anyhow::{Result, bail};
use sinew_formats::budget::Budgets;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// Which clock measured CPU time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CpuClock {
    /// `/proc/thread-self/schedstat` (ns of on-CPU time of this thread).
    Schedstat,
    /// `/proc/self/stat` utime + stime (process, 1/100 s ticks).
    ProcStat,
    /// Wall time (no CPU clock available).
    Wall,
}

impl CpuClock {
    /// Picks the best clock available on this machine.
    pub fn detect() -> Self {
        if read_schedstat().is_some() {
            CpuClock::Schedstat
        } else if read_proc_stat().is_some() {
            CpuClock::ProcStat
        } else {
            CpuClock::Wall
        }
    }

    /// Name for the report.
    pub fn name(self) -> &'static str {
        match self {
            CpuClock::Schedstat => "thread schedstat",
            CpuClock::ProcStat => "process utime+stime",
            CpuClock::Wall => "wall (no CPU clock)",
        }
    }

    /// Current reading (only differences are meaningful).
    pub fn now(self, start: Instant) -> Duration {
        match self {
            CpuClock::Schedstat => read_schedstat(),
            CpuClock::ProcStat => read_proc_stat(),
            CpuClock::Wall => None,
        }
        .unwrap_or_else(|| start.elapsed())
    }
}

fn read_schedstat() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn read_proc_stat() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = &s[s.rfind(')')? + 1..];
    let mut it = rest.split_whitespace().skip(11);
    let utime: u64 = it.next()?.parse().ok()?;
    let stime: u64 = it.next()?.parse().ok()?;
    // USER_HZ is 100 on every mainstream Linux configuration.
    Some(Duration::from_millis((utime + stime) * 10))
}

/// Runs the benchmark and returns the report (the last line is one JSON object).
pub fn bench(args: &BenchArgs, budgets: &Budgets) -> Result<String> {
    if args.instances == 0 || args.frames == 0 {
        bail!("--instances and --frames must be at least 1");
    }
    if !(args.fps.is_finite() && args.fps > 0.0) {
        bail!("bad --fps {}: must be a positive number", args.fps);
    }
    let what = format!("--instances {}", args.instances);
    crate::guard::check(budgets, "instances", f64::from(args.instances), what)?;
    let updates =
        f64::from(args.instances) * (f64::from(args.frames) + f64::from(args.warmup) + 1.0);
    let what = format!(
        "--instances {} x (--frames {} + --warmup {})",
        args.instances, args.frames, args.warmup
    );
    crate::guard::check(budgets, "steps", updates, what)?;
    let asset = pose::load(budgets, &args.file, None, args.extras.as_deref())?;
    let rig = &*asset.rig;
    let file = args.file.display();
    let clip = pose::find_clip(rig, &args.anim).map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
    let skins = pose::resolve_skins(rig, args.skin.as_deref())
        .map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
    let spec = SessionSpec {
        skins,
        mode: Mode::State,
        anim: Some(clip),
        from: None,
        at: 0.0,
        mix: 0.0,
        looping: true,
        physics: args.physics,
        layers: Default::default(),
    };
    let duration = pose::clip_duration(rig, clip).max(1e-3);
    let mut sessions = Vec::with_capacity(args.instances as usize);
    for i in 0..args.instances {
        let mut s = Session::new(&asset, &spec)?;
        s.set_collect_events(false);
        s.start_at((f64::from(i) * 0.007) % duration);
        sessions.push(s);
    }
    if let Some(threads) = args.threads {
        return bench_threads(args, sessions, threads);
    }
    let mut buf = vec![0f32; asset.character().max_world_floats().max(8)];
    let dt = 1.0 / args.fps;
    // Four characters of the rig at a time in SIMD lanes (`sinew::character::Batch`);
    // `SINEW_BENCH_LANES=0` in the environment measures the plain per-character loop.
    let lanes = std::env::var_os("SINEW_BENCH_LANES").is_none_or(|v| v != "0");
    let mut chars: Vec<sinew::Character> =
        sessions.into_iter().map(Session::into_character).collect();
    let mut batch = sinew::character::Batch::new();

    let mut phase = [Duration::ZERO; 2];
    let mut vertices = 0u64;
    let mut run_frame = |chars: &mut [sinew::Character], measure: bool| {
        let t0 = Instant::now();
        if lanes {
            batch.update(chars, dt);
        } else {
            chars.iter_mut().for_each(|c| c.update(dt));
        }
        let t2 = Instant::now();
        let mut n = 0u64;
        if lanes {
            n = batch.compute_world_vertices(chars, |_, _, _| {}) as u64;
        } else {
            for c in chars.iter() {
                n += c.compute_world_vertices(&mut buf) as u64;
            }
        }
        let t3 = Instant::now();
        if measure {
            phase[0] += t2 - t0;
            phase[1] += t3 - t2;
            vertices += n;
        }
    };
    for _ in 0..args.warmup {
        run_frame(&mut chars, false);
    }
    let clock = CpuClock::detect();
    let start = Instant::now();
    let cpu0 = clock.now(start);
    for _ in 0..args.frames {
        run_frame(&mut chars, true);
    }
    let cpu = clock.now(start).saturating_sub(cpu0);
    let wall = start.elapsed();

    let skel_frames = f64::from(args.instances) * f64::from(args.frames);
    let us = |d: Duration| d.as_secs_f64() * 1e6 / skel_frames;
    let cpu_us = us(cpu);
    let verts_per_frame = vertices as f64 / skel_frames;
    let verts_per_s = if cpu.is_zero() {
        0.0
    } else {
        vertices as f64 / cpu.as_secs_f64()
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{file} `{}`: {} instances x {} frames (+{} warm-up), physics {}",
        args.anim,
        args.instances,
        args.frames,
        args.warmup,
        args.physics.name()
    );
    let _ = writeln!(
        out,
        "cpu  {cpu_us:.2} us per skeleton-frame ({})",
        clock.name()
    );
    let _ = writeln!(
        out,
        "wall {:.2} us per skeleton-frame: update {:.2}, vertices {:.2}",
        us(wall),
        us(phase[0]),
        us(phase[1])
    );
    let _ = writeln!(
        out,
        "{verts_per_frame:.0} world vertices per skeleton-frame, {:.2} M/s (CPU)",
        verts_per_s / 1e6
    );
    let json = Obj::new()
        .set(
            "skeleton",
            args.file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned()),
        )
        .set("animation", args.anim.as_str())
        .set(
            "skin",
            args.skin.clone().unwrap_or_else(|| "default".into()),
        )
        .num("instances", f64::from(args.instances))
        .num("frames", f64::from(args.frames))
        .num("warmup", f64::from(args.warmup))
        .set("physics", args.physics.name())
        .set("cpu_clock", clock.name())
        .set("us_per_skeleton_frame", num(cpu_us))
        .set("wall_us_per_skeleton_frame", num(us(wall)))
        .set(
            "split_wall_us",
            Obj::new()
                .num("update", us(phase[0]))
                .num("vertices", us(phase[1]))
                .build(),
        )
        .set("vertices_per_frame", num(verts_per_frame))
        .set("world_vertices_per_s", num(verts_per_s))
        .build();
    let _ = writeln!(out, "{json}");
    Ok(out)
}

/// CPU time of the whole process: the sum of every thread's on-CPU nanoseconds
/// (`/proc/self/task/*/schedstat`), else utime + stime, else wall time.
fn process_cpu(start: Instant) -> (Duration, &'static str) {
    let tasks = std::fs::read_dir("/proc/self/task").ok().map(|dir| {
        dir.filter_map(|t| {
            let s = std::fs::read_to_string(t.ok()?.path().join("schedstat")).ok()?;
            s.split_whitespace().next()?.parse::<u64>().ok()
        })
        .sum::<u64>()
    });
    match tasks {
        Some(ns) if ns > 0 => (Duration::from_nanos(ns), "process schedstat (all threads)"),
        _ => match read_proc_stat() {
            Some(d) => (d, "process utime+stime"),
            None => (start.elapsed(), "wall (no CPU clock)"),
        },
    }
}

/// `--threads N`: the instances in a [`sinew::character::Crowd`] on N threads, each frame
/// updating every character and building its draw list (world vertices of every attachment
/// shown) on the pool.
fn bench_threads(args: &BenchArgs, sessions: Vec<Session>, threads: u32) -> Result<String> {
    if threads == 0 || threads as usize > sinew::character::MAX_THREADS {
        bail!(
            "--threads {threads}: must be 1..={}",
            sinew::character::MAX_THREADS
        );
    }
    let mut crowd = sinew::character::Crowd::new(threads as usize);
    for s in sessions {
        crowd.push(s.into_character());
    }
    crowd.set_build_draw_lists(true);
    let dt = 1.0 / args.fps;
    for _ in 0..args.warmup {
        crowd.update(dt);
    }
    let start = Instant::now();
    let (cpu0, clock) = process_cpu(start);
    for _ in 0..args.frames {
        crowd.update(dt);
    }
    let cpu = process_cpu(start).0.saturating_sub(cpu0);
    let wall = start.elapsed();
    let skel_frames = f64::from(args.instances) * f64::from(args.frames);
    let cpu_us = cpu.as_secs_f64() * 1e6 / skel_frames;
    let per_s = skel_frames / wall.as_secs_f64().max(1e-9);
    let file = args.file.display();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{file} `{}`: {} instances x {} frames (+{} warm-up) on {} threads, physics {}",
        args.anim,
        args.instances,
        args.frames,
        args.warmup,
        crowd.threads(),
        args.physics.name()
    );
    let _ = writeln!(out, "cpu  {cpu_us:.2} us per skeleton-frame ({clock})");
    let _ = writeln!(out, "wall {:.0} skeleton-frames per second", per_s);
    let json = Obj::new()
        .set(
            "skeleton",
            args.file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned()),
        )
        .set("animation", args.anim.as_str())
        .num("instances", f64::from(args.instances))
        .num("frames", f64::from(args.frames))
        .num("warmup", f64::from(args.warmup))
        .num("threads", crowd.threads() as f64)
        .set("physics", args.physics.name())
        .set("cpu_clock", clock)
        .set("us_per_skeleton_frame", num(cpu_us))
        .set("skeleton_frames_per_s", num(per_s))
        .build();
    let _ = writeln!(out, "{json}");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_clock_is_monotonic() {
        let c = CpuClock::detect();
        let start = Instant::now();
        let a = c.now(start);
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(c.now(start) >= a);
    }
}
