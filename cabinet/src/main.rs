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

mod acceptor;
mod art;
mod capture;
mod devices;
mod floor;
mod frame_stats;
mod layout;
mod linked;
mod modes;
mod pacing;
mod panel;
mod pipelines;
mod printer;
mod screen_text;
mod screens;
mod sounds;
mod stage;
mod touches;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use bevy::prelude::*;
use bevy::window::{MonitorSelection, WindowMode, WindowResolution};
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use clap::Parser;
use game_host::boot::{BootOptions, boot};
use game_host::session::Session;

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
    /// A reproducible RNG seed: refused unless the configuration is in lab
    /// mode. The lab build only: the retail cabinet has no such option.
    #[cfg(feature = "lab")]
    #[arg(long)]
    lab_seed: Option<u64>,
    /// A demonstration (M-39): play credits on a throwaway critical
    /// memory; the real one (--db) is never opened. The lab build only: a
    /// retail cabinet plays real money alone (`game_host::boot::DEMO_IN_RETAIL`).
    #[cfg(feature = "lab")]
    #[arg(long)]
    demo: bool,
    /// Open the on-screen operator panel (the emulated note acceptor,
    /// ticket reader, doors and key) at start: labs, and cabinets without
    /// the hardware, work it by touch alone.
    #[arg(long)]
    operator_panel: bool,
}

fn parse_size(s: &str) -> Option<(u32, u32)> {
    let (w, h) = s.split_once('x')?;
    Some((w.parse().ok()?, h.parse().ok()?))
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
    app.add_plugins(DefaultPlugins.set(WindowPlugin { primary_window: Some(window(&args)), ..default() })).add_plugins(EguiPlugin::default());
    #[cfg(feature = "lab")]
    let lab_seed = args.lab_seed;
    #[cfg(not(feature = "lab"))]
    let lab_seed = None;
    #[cfg(feature = "lab")]
    let demo = args.demo;
    #[cfg(not(feature = "lab"))]
    let demo = false;
    let options = BootOptions { config: args.config.clone(), db: args.db.clone(), lab_seed, demo };
    // The art kit the hosted games need, every file drawn once (issue 29):
    // a missing, broken or blank one stops the cabinet with its name.
    let booted = boot(&options).and_then(|session| {
        let hosted = session.games().len();
        if hosted > layout::MENU_MOST_GAMES {
            return Err(format!("the configuration hosts {hosted} games: the game menu lays out at most {}", layout::MENU_MOST_GAMES));
        }
        let problems = art::check(&art::needed(&session));
        if problems.is_empty() { Ok(session) } else { Err(problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")) }
    });
    match booted {
        Ok(session) => {
            app.insert_resource(SessionRes(Mutex::new(session)))
                .add_plugins((
                    modes::ModesPlugin,
                    screens::top_bar::TopBarPlugin,
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
                .add_plugins(floor::FloorPlugin)
                .add_plugins(pipelines::PipelinesPlugin)
                .add_plugins(acceptor::AcceptorPlugin)
                .add_plugins(printer::PrinterPlugin)
                .add_plugins(panel::PanelPlugin)
                .insert_resource(screens::operator_panel::OperatorPanel { open: args.operator_panel, validation: String::new() })
                .add_plugins((
                    sounds::SoundPlugin,
                    screens::game_menu::GameMenuPlugin,
                    screens::roulette::RouletteScreenPlugin,
                    screens::dice::banca::BancaFrancesaScreenPlugin,
                    screens::dice::sic_bo::SicBoScreenPlugin,
                    screens::baccarat::BaccaratScreenPlugin,
                    screens::blackjack::BlackjackScreenPlugin,
                    screens::cards::CardArtPlugin,
                    stage::StagePlugin,
                    screens::deck::ButtonDeckPlugin,
                    screens::meters_bar::MetersBarPlugin,
                    pacing::FramePacingPlugin,
                    screen_text::ScreenTextPlugin,
                    screens::double_up::DoubleUpPlugin,
                    screens::top_box::TopBoxPlugin,
                ))
                .add_plugins((
                    screens::bingo::BingoScreenPlugin,
                    screens::dice::fish_prawn_crab::FishPrawnCrabScreenPlugin,
                    screens::poquer_3_cartas::Poquer3ScreenPlugin,
                    screens::desafio_ao_casino::DesafioScreenPlugin,
                    screens::dice::craps::CrapsScreenPlugin,
                    screens::wheel::boule::BouleScreenPlugin,
                    screens::wheel::roda::RodaScreenPlugin,
                    screens::fantan::FantanScreenPlugin,
                    touches::TouchesPlugin,
                    screens::GameScreenPlugin,
                ));
        }
        Err(reason) => {
            // Self-tests failed before any play: only the reason is shown.
            eprintln!("cabinet: {reason}");
            app.insert_resource(FatalReason(reason)).add_systems(Startup, spawn_camera).add_systems(EguiPrimaryContextPass, draw_fatal);
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
