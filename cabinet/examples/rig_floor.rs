//! The floor of the machine the cabinet's frames are measured on (issue
//! 75): a bare Bevy window of the cabinet's size, redrawn as fast as it
//! can, with nothing of the cabinet in it — one 2D camera as the stage's
//! (no multisampling), the clear colour, and `--layers` plain sprites each
//! covering the whole window. Its mean frame is what the machine's
//! renderer and window system cost before the cabinet draws anything
//! (an empty window: the copy of the view to the window and presenting
//! it), and what each screenful of sprites adds; `tools/bench-frames.sh`
//! prints it beside the cabinet's own figures.
//!
//!   rig_floor [--size 1920x1080] [--layers 0] [--seconds 10]

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::winit::{UpdateMode, WinitSettings};
use clap::Parser;

#[derive(Parser, Resource, Clone)]
struct Args {
    /// The window's size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1920x1080")]
    size: String,
    /// How many plain sprites, each covering the whole window.
    #[arg(long, default_value_t = 0)]
    layers: u32,
    /// How long to time frames, after 3 s of warm-up.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
}

const WARM_UP: Duration = Duration::from_secs(3);

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let Some((w, h)) = args.size.split_once('x').and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?))) else {
        eprintln!("rig_floor: --size must be WIDTHxHEIGHT, like 1920x1080, not {:?}", args.size);
        return std::process::ExitCode::from(2);
    };
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window { resolution: (w, h).into(), title: "rig floor".into(), resizable: false, ..default() }),
            ..default()
        }))
        .insert_resource(WinitSettings { focused_mode: UpdateMode::Continuous, unfocused_mode: UpdateMode::Continuous })
        .insert_resource(args)
        .insert_resource(ClearColor(Color::srgb(0.05, 0.06, 0.12)))
        .add_systems(Startup, spawn_layers)
        .add_systems(Last, time_frames)
        .run();
    std::process::ExitCode::SUCCESS
}

fn spawn_layers(mut commands: Commands, args: Res<Args>, window: Query<&Window>) {
    commands.spawn((Camera2d, bevy::render::view::Msaa::Off));
    let size = window.single().map_or(Vec2::new(1920.0, 1080.0), |w| w.size());
    for k in 0..args.layers {
        let shade = 0.2 + 0.6 * (k as f32 / args.layers.max(1) as f32);
        commands.spawn((Sprite { color: Color::srgb(shade, 0.3, 0.5), custom_size: Some(size), ..default() }, Transform::from_xyz(0.0, 0.0, k as f32)));
    }
}

/// Frames from the end of the warm-up: (when it began, frames, processor seconds then).
#[derive(Default)]
struct Timing(Option<(Instant, u32, f64)>);

fn time_frames(args: Res<Args>, mut start: Local<Option<Instant>>, mut timing: Local<Timing>, mut exit: MessageWriter<AppExit>) {
    let began = *start.get_or_insert_with(Instant::now);
    if began.elapsed() < WARM_UP {
        return;
    }
    let Some((from, frames, cpu)) = &mut timing.0 else {
        timing.0 = Some((Instant::now(), 0, processor_seconds()));
        return;
    };
    *frames += 1;
    let spent = from.elapsed();
    if spent >= Duration::from_secs(args.seconds) {
        let used = (processor_seconds() - *cpu) / spent.as_secs_f64() * 100.0;
        println!(
            "rig floor at {}, {} full-window sprite layer(s): mean frame {:.1} ms over {frames} frames, processor {used:.0}% of a core",
            args.size,
            args.layers,
            spent.as_secs_f64() * 1000.0 / f64::from(*frames)
        );
        exit.write(AppExit::Success);
    }
}

/// The process's processor time so far (user and system), in seconds.
fn processor_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |r| r.1).split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}
