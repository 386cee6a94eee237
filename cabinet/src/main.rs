//! # cabinet — the EGM application
//!
//! Owns what the player, the attendant and the lab see and press: the game
//! screens, the always-visible information, help and paytables, the
//! player's history, the tilt screen, the operator and audit menu, and the
//! emulated devices (note acceptor, ticket reader and printer, doors, keys).
//!
//! It must never: decide an outcome (game-core does, drawing through the
//! core's RNG), move money or meters other than through `meters::Machine`,
//! show an outcome before the core has committed it, or play with a
//! paytable that is not approved or falls under the floor.
#![forbid(unsafe_code)]

mod capture;
mod config;
mod devices;
mod frame_stats;
mod linked;
mod modes;
mod poker;
mod screens;
mod session;
mod sounds;
mod ticket_printer;
mod verification;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use bevy::prelude::*;
use bevy::window::{MonitorSelection, WindowMode, WindowResolution};
use bevy_egui::{egui, EguiContexts, EguiPlugin, EguiPrimaryContextPass};
use clap::Parser;
use game_core::reels::StopTables;
use paytables::check::Floor;

use crate::config::CabinetConfig;
use crate::session::{HostedGame, LoadedGame, Session};
use paytables::artifact::CompiledGame;

/// When the process began (the start-up time report).
pub static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// The session, shared by the systems (one lock per system run).
#[derive(Resource)]
pub struct SessionRes(pub Mutex<Session>);

#[derive(Parser, Debug)]
#[command(name = "cabinet", version, about = "The EGM cabinet")]
struct Args {
    /// A window (labs); borderless full screen on the primary monitor otherwise.
    #[arg(long)]
    windowed: bool,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720")]
    size: String,
    /// The cabinet configuration (RON).
    #[arg(long, default_value = "assets/config/cabinet.ron")]
    config: PathBuf,
    /// Critical memory (SQLite file).
    #[arg(long, default_value = "var/egm.sqlite")]
    db: PathBuf,
    /// Where the cabinet saves its screenshots.
    #[arg(long, default_value = "var/screenshots")]
    screenshot_dir: PathBuf,
    /// A reproducible RNG seed: refused unless the configuration is in lab mode.
    #[arg(long)]
    lab_seed: Option<u64>,
    /// A demonstration cabinet (M-39): play credits on a throwaway critical
    /// memory; the real one (--db) is never opened.
    #[arg(long)]
    demo: bool,
}

fn parse_size(s: &str) -> Option<(u32, u32)> {
    let (w, h) = s.split_once('x')?;
    Some((w.parse().ok()?, h.parse().ok()?))
}

/// Boot: configuration, critical memory, self-tests, approved paytables.
fn boot(args: &Args) -> Result<Session, String> {
    let mut config = CabinetConfig::load(&args.config).map_err(|e| e.to_string())?;
    config.demo |= args.demo;
    let db = if config.demo {
        // M-39: fully apart from the real meters: a fresh file of its own,
        // no linked pool (its money is real).
        config.linked_progressives.clear();
        let db = std::env::temp_dir().join(format!("egm-demo-{}.sqlite", std::process::id()));
        for f in [db.clone(), db.with_extension("sqlite.key"), db.with_extension("sqlite-wal"), db.with_extension("sqlite-shm")] {
            let _ = std::fs::remove_file(f);
        }
        db
    } else {
        args.db.clone()
    };
    let floor = Floor::from_percent(&config.rtp_floor_percent).map_err(|e| format!("{}: {e}", args.config.display()))?;
    if let Some(dir) = db.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut machine = session::open_machine(&db, &config, args.lab_seed)?;
    if config.demo {
        demo_credit(&mut machine)?;
    }
    let manifest = verification::read_manifest(&config.manifest).map_err(|e| e.to_string())?;
    let report = verification::verify(&config.games, &config.paytable_dir, &manifest, config.machine.mode == meters::Mode::Production);
    let (passed, detail) = report.detail(&format!("against {}", config.manifest.display()));
    machine.record_verification(passed, &detail).map_err(|e| e.to_string())?;
    let mut games = Vec::new();
    for id in &config.games {
        let path = config.paytable_dir.join(format!("{id}.json"));
        match paytables::artifact::load_approved(&path, &manifest, &floor) {
            Ok(CompiledGame::Reels(game)) => {
                let tables = StopTables::new(&game).map_err(|e| format!("{id}: {e}"))?;
                games.push(HostedGame::Reels(LoadedGame { game, tables }));
            }
            Ok(CompiledGame::DrawPoker(game)) => games.push(HostedGame::DrawPoker(game)),
            Ok(CompiledGame::StudPoker(game)) => games.push(HostedGame::StudPoker(game)),
            Err(e) => eprintln!("cabinet: {e}"),
        }
    }
    if games.is_empty() {
        return Err(format!("no approved paytable could be loaded: {detail}"));
    }
    let mut session = Session::new(machine, config, games, report);
    session.db = db;
    session.lab_seed = args.lab_seed;
    Ok(session)
}

/// The play credits of a demonstration (M-39), on its own critical memory,
/// entered as the largest notes the configuration accepts.
fn demo_credit(machine: &mut meters::Machine) -> Result<(), String> {
    let mut notes = machine.config().accepted_notes.clone();
    notes.sort_unstable();
    while let Some(&note) = notes.iter().rev().find(|&&n| machine.credit() + n <= session::DEMO_CREDIT) {
        machine.insert_note(note).map_err(|e| format!("demo credit: {e}"))?;
    }
    Ok(())
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.machine.power_down();
    }
}

fn window(args: &Args) -> Window {
    let (w, h) = parse_size(&args.size).unwrap_or((1280, 720));
    Window {
        title: "EGM cabinet".into(),
        resolution: WindowResolution::new(w, h),
        mode: if args.windowed { WindowMode::Windowed } else { WindowMode::BorderlessFullscreen(MonitorSelection::Primary) },
        ..default()
    }
}

fn main() -> ExitCode {
    let _ = STARTED.set(std::time::Instant::now());
    let args = Args::parse();
    if parse_size(&args.size).is_none() {
        eprintln!("cabinet: --size must be WIDTHxHEIGHT, like 1280x720, not {:?}", args.size);
        return ExitCode::from(2);
    }
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin { primary_window: Some(window(&args)), ..default() }))
        .add_plugins(EguiPlugin::default())
        .add_systems(Startup, spawn_camera);
    match boot(&args) {
        Ok(session) => {
            app.insert_resource(SessionRes(Mutex::new(session)))
                .add_plugins((
                    modes::ModesPlugin,
                    screens::hud::HudPlugin,
                    screens::attract::AttractPlugin,
                    screens::reels::ReelScreenPlugin,
                    screens::draw_poker::DrawPokerScreenPlugin,
                    screens::stud_poker::StudPokerScreenPlugin,
                    screens::help::HelpPlugin,
                    screens::recall::RecallPlugin,
                    screens::tilt::TiltPlugin,
                    screens::audit::AuditPlugin,
                    screens::operator_panel::OperatorPanelPlugin,
                    devices::DevicesPlugin,
                    capture::CapturePlugin { dir: args.screenshot_dir.clone() },
                    frame_stats::FrameStatsPlugin,
                    linked::LinkedProgressivePlugin,
                ))
                .add_plugins((sounds::SoundPlugin, screens::game_menu::GameMenuPlugin));
        }
        Err(reason) => {
            // Self-tests failed before any play: only the reason is shown.
            eprintln!("cabinet: {reason}");
            app.insert_resource(FatalReason(reason)).add_systems(EguiPrimaryContextPass, draw_fatal);
        }
    }
    app.run();
    ExitCode::SUCCESS
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn(Camera2d);
}

#[derive(Resource)]
struct FatalReason(String);

fn draw_fatal(mut contexts: EguiContexts, reason: Res<FatalReason>) -> Result {
    let mut root = screens::viewport_ui(contexts.ctx_mut()?, "fatal");
    egui::CentralPanel::default().frame(egui::Frame::new().fill(egui::Color32::from_rgb(120, 0, 0))).show(&mut root, |ui| {
        ui.add_space(60.0);
        ui.label(egui::RichText::new("TILT").size(60.0).color(egui::Color32::WHITE));
        ui.label(egui::RichText::new(&reason.0).size(22.0).color(egui::Color32::WHITE));
    });
    Ok(())
}
