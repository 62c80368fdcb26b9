//! A crowd: 1,000 stickbots walking (each its own character, updated together on sinew's
//! thread pool), the frame rate in the window title.
//!
//!     cargo run --release --example crowd [-- --count N]
//!
//! `--bench FRAMES` runs without a window and prints the CPU time per character of the
//! plugin's update (`SinewSystems::Update`: every character updated and its draw list built)
//! and of its drawing (`SinewSystems::Draw`: batches written into meshes), to set beside
//! `sinew bench examples/stickbot/stickbot.json --anim walk --instances N --frames FRAMES
//! --threads T` (docs/PERFORMANCE.md). `--threads T` sets sinew's pool (default: all cores).

mod common;

use bevy::app::PluginsState;
use bevy::camera::CompositingSpace;
use bevy::prelude::*;
use bevy_sinew::{SinewCharacter, SinewRig, SinewSettings, SinewSystems};
use std::time::{Duration, Instant};

#[derive(Resource, Default)]
struct Clock {
    mark: Option<Instant>,
    update: Duration,
    draw: Duration,
    frames: u32,
    fps_mark: Option<Instant>,
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
    let threads = value("--threads");
    match value("--bench") {
        Some(frames) => bench(count, frames, threads),
        None => {
            let mut app = common::app("sinew: crowd");
            configure(&mut app, count, threads);
            app.add_systems(Startup, |mut commands: Commands| {
                commands.spawn((Camera2d, CompositingSpace::Srgb));
            })
            .add_systems(Update, show_fps)
            .run();
        }
    }
}

/// The crowd, and clocks around the plugin's update and draw sets.
fn configure(app: &mut App, count: usize, threads: Option<usize>) {
    let mut settings = SinewSettings::default();
    if let Some(t) = threads {
        settings.threads = t;
    }
    app.insert_resource(settings)
        .init_resource::<Clock>()
        .add_systems(
            Startup,
            move |mut commands: Commands, assets: Res<AssetServer>| {
                spawn_crowd(&mut commands, &assets, count);
            },
        )
        .add_systems(
            PostUpdate,
            (
                (|mut c: ResMut<Clock>| c.mark = Some(Instant::now())).before(SinewSystems::Update),
                (|mut c: ResMut<Clock>| {
                    let now = Instant::now();
                    let mark = c.mark.unwrap_or(now);
                    c.update += now - mark;
                    c.mark = Some(now);
                })
                .after(SinewSystems::Update)
                .before(SinewSystems::Bones),
                (|mut c: ResMut<Clock>| c.mark = Some(Instant::now()))
                    .after(SinewSystems::Bones)
                    .before(SinewSystems::Draw),
                (|mut c: ResMut<Clock>| {
                    let now = Instant::now();
                    let mark = c.mark.unwrap_or(now);
                    c.draw += now - mark;
                    c.frames += 1;
                })
                .after(SinewSystems::Draw),
            ),
        );
}

fn spawn_crowd(commands: &mut Commands, assets: &AssetServer, count: usize) {
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
fn bench(count: usize, frames: usize, threads: Option<usize>) {
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
            .disable::<bevy::winit::WinitPlugin>(),
    )
    .add_plugins(bevy_sinew::SinewPlugin);
    configure(&mut app, count, threads);
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
        "update {:.2} us per character-frame (SinewSystems::Update, wall)",
        per(clock.update)
    );
    println!(
        "draw   {:.2} us per character-frame (SinewSystems::Draw, wall)",
        per(clock.draw)
    );
    println!(
        "frame  {:.2} ms (the whole app.update, wall)",
        wall.as_secs_f64() * 1e3 / frames as f64
    );
}
