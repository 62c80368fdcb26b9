//! A crowd: 1,000 stickbots walking (each its own character, updated together on sinew's
//! thread pool), the frame rate in the window title.
//!
//!     cargo run --release --example crowd [-- --count N]
//!
//! `--frames N` closes the window after N frames, printing the last title (CI runs it under
//! Xvfb). `--bench FRAMES` runs without a window and prints the CPU time per character of the
//! plugin's update (`SinewSystems::Update`: every character updated and its draw list built)
//! and of its drawing (`SinewSystems::Draw`: batches written into meshes), to set beside
//! `sinew bench examples/stickbot/stickbot.json --anim walk --instances N --frames FRAMES
//! --threads T` (docs/PERFORMANCE.md), and the draws of the last frame. `--threads T` sets
//! sinew's pool (default: all cores); `--no-merge` draws each character's batches on their
//! own (`SinewSettings::merge` off; on, each row of the crowd shares one z and its
//! characters share meshes).

mod common;

use bevy::app::PluginsState;
use bevy::camera::CompositingSpace;
use bevy::prelude::*;
use bevy_sinew::{SinewCharacter, SinewRig, SinewSettings, SinewStats, SinewSystems};
use std::time::{Duration, Instant};

#[derive(Resource, Default)]
struct Clock {
    update: Duration,
    draw: Duration,
    /// Draws (meshes) of the last frame.
    draws: usize,
    frames: u32,
    fps_mark: Option<Instant>,
}

/// Wall time since the first call.
fn now() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<usize>().ok())
    };
    let count = value("--count").unwrap_or(1000);
    let hidden = args.iter().any(|a| a == "--hidden");
    let merge = !args.iter().any(|a| a == "--no-merge");
    let threads = value("--threads");
    match value("--bench") {
        Some(frames) => bench(count, frames, threads, hidden, merge),
        None => {
            let mut app = common::app("sinew: crowd");
            configure(&mut app, count, threads, false, merge);
            app.add_systems(Startup, |mut commands: Commands| {
                commands.spawn((Camera2d, CompositingSpace::Srgb));
            })
            .add_systems(Update, show_fps);
            if let Some(n) = value("--frames") {
                app.add_systems(
                    Last,
                    move |mut seen: Local<usize>,
                          windows: Query<&Window>,
                          mut exit: MessageWriter<AppExit>| {
                        *seen += 1;
                        if *seen == n {
                            for w in &windows {
                                println!("{}", w.title);
                            }
                            exit.write(AppExit::Success);
                        }
                    },
                );
            }
            app.run();
        }
    }
}

/// The crowd, and clocks around the plugin's update and draw sets.
fn configure(app: &mut App, count: usize, threads: Option<usize>, hidden: bool, merge: bool) {
    let mut settings = SinewSettings {
        merge,
        ..SinewSettings::default()
    };
    if let Some(t) = threads {
        settings.threads = t;
    }
    app.insert_resource(settings)
        .init_resource::<Clock>()
        .add_systems(
            Startup,
            move |mut commands: Commands, assets: Res<AssetServer>| {
                spawn_crowd(&mut commands, &assets, count, hidden);
            },
        )
        .add_systems(
            PostUpdate,
            (|mut c: ResMut<Clock>, stats: Res<SinewStats>| {
                c.update += stats.update;
                c.draw += stats.draw;
                c.draws = stats.batches;
                c.frames += 1;
            })
            .after(SinewSystems::Draw),
        );
}

fn spawn_crowd(commands: &mut Commands, assets: &AssetServer, count: usize, hidden: bool) {
    let rig: Handle<SinewRig> = assets.load("stickbot/stickbot.json");
    let columns = (count as f32).sqrt().ceil().max(1.0) as usize;
    for i in 0..count {
        let (col, row) = ((i % columns) as f32, (i / columns) as f32);
        // Each starts at its own point of the walk.
        let start = i as f64 * 0.007;
        commands.spawn((
            SinewCharacter::new(rig.clone()).with(move |c| {
                let _ = c.set_animation(0, "walk", true);
                c.update(start);
            }),
            Transform::from_xyz(
                (col - columns as f32 / 2.0) * 28.0,
                300.0 - row * 24.0,
                row * 0.01,
            )
            .with_scale(Vec3::splat(0.12)),
            if hidden {
                Visibility::Hidden
            } else {
                Visibility::Inherited
            },
        ));
    }
}

fn show_fps(mut clock: ResMut<Clock>, mut windows: Query<&mut Window>, q: Query<&SinewCharacter>) {
    let now = Instant::now();
    let since = *clock.fps_mark.get_or_insert(now);
    let secs = (now - since).as_secs_f64();
    if secs < 1.0 || clock.frames == 0 {
        return;
    }
    let n = q.iter().filter(|c| c.is_ready()).count().max(1) as f64;
    let per = |d: Duration| d.as_secs_f64() * 1e6 / f64::from(clock.frames) / n;
    let title = format!(
        "sinew: crowd of {n} - {:.0} fps - update {:.2} us, draw {:.2} us per character",
        f64::from(clock.frames) / secs,
        per(clock.update),
        per(clock.draw)
    );
    for mut w in &mut windows {
        w.title.clone_from(&title);
    }
    *clock = Clock {
        fps_mark: Some(now),
        ..Clock::default()
    };
}

/// `--bench`: no window; `frames` measured frames after the crowd is ready and 60 warm-up
/// frames.
fn bench(count: usize, frames: usize, threads: Option<usize>, hidden: bool, merge: bool) {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(AssetPlugin {
                file_path: common::examples_dir().to_string_lossy().into_owned(),
                ..default()
            })
            .set(WindowPlugin {
                primary_window: None,
                exit_condition: bevy::window::ExitCondition::DontExit,
                close_when_requested: false,
                ..default()
            })
            .disable::<bevy::winit::WinitPlugin>()
            .disable::<bevy::render::pipelined_rendering::PipelinedRenderingPlugin>(),
    )
    .add_plugins(bevy_sinew::SinewPlugin);
    configure(&mut app, count, threads, hidden, merge);
    // The frame time `sinew bench` steps by (60 fps), whatever the frames really take.
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        Duration::from_secs_f64(1.0 / 60.0),
    ));
    // One thread for PostUpdate: nothing of the app's runs beside the plugin's systems.
    app.edit_schedule(PostUpdate, |s| {
        s.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    });
    while app.plugins_state() == PluginsState::Adding {
        bevy::tasks::tick_global_task_pools_on_main_thread();
    }
    app.finish();
    app.cleanup();
    let ready = |app: &mut App| {
        let mut q = app.world_mut().query::<&SinewCharacter>();
        q.iter(app.world()).filter(|c| c.is_ready()).count()
    };
    while ready(&mut app) < count {
        app.update();
    }
    for _ in 0..60 {
        app.update();
    }
    *app.world_mut().resource_mut::<Clock>() = Clock::default();
    let start = Instant::now();
    for _ in 0..frames {
        app.update();
    }
    let wall = start.elapsed();
    let clock = app.world().resource::<Clock>();
    let threads = app.world().resource::<SinewSettings>().threads;
    let per = |d: Duration| d.as_secs_f64() * 1e6 / frames as f64 / count as f64;
    println!(
        "stickbot `walk`: {count} characters x {frames} frames (+60 warm-up) in Bevy, sinew pool of {threads} threads"
    );
    println!(
        "update {:.2} us per character-frame (update_characters: pool, draw lists, events; wall)",
        per(clock.update)
    );
    println!(
        "draw   {:.2} us per character-frame (draw_characters: batches into meshes; wall)",
        per(clock.draw)
    );
    println!(
        "frame  {:.2} ms (the whole app.update, wall)",
        wall.as_secs_f64() * 1e3 / frames as f64
    );
    println!(
        "draws  {} meshes drawn in the last frame (merging {})",
        clock.draws,
        if merge { "on" } else { "off, --no-merge" }
    );
    // The same characters in a bare sinew Crowd in this process (what `sinew bench
    // --threads` runs), for the overhead of the plugin's update.
    let rig = {
        let mut q = app.world_mut().query::<&SinewCharacter>();
        let c = q.iter(app.world()).next().expect("a character");
        app.world()
            .resource::<Assets<SinewRig>>()
            .get(c.rig())
            .expect("loaded")
            .clone()
    };
    let mut crowd = bevy_sinew::sinew::character::Crowd::new(threads);
    for i in 0..count {
        let mut c = rig.character();
        c.update(0.0);
        let _ = c.set_animation(0, "walk", true);
        c.update(i as f64 * 0.007);
        crowd.push(c);
    }
    crowd.set_build_draw_lists(true);
    for _ in 0..60 {
        crowd.update(1.0 / 60.0);
    }
    let t0 = now();
    for _ in 0..frames {
        crowd.update(1.0 / 60.0);
    }
    println!(
        "crowd  {:.2} us per character-frame (the same characters in a bare sinew Crowd, wall)",
        per(now() - t0)
    );
}
