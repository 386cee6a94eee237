//! The reel screen: strips that spin and stop exactly on the committed
//! stops, one reel after another; paylines drawn; each winning line
//! highlighted with its symbols and amount (M-5); free games; double-up.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use game_core::double_up::Colour;
use game_core::reels::{ReelGame, Spin};

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::{HudLayout, screen_ui};

pub struct ReelScreenPlugin;

/// The reveal of the round on screen: which spin (0 = base, k = free game
/// k) and since when.
#[derive(Resource, Default)]
pub struct Reveal {
    pub round: Option<u64>,
    pub spin: usize,
    pub started: f32,
    /// Skip the animation (the player pressed play again).
    pub hurry: bool,
}

impl Plugin for ReelScreenPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Reveal>()
            .add_systems(Update, advance_reveal.run_if(in_state(Mode::Playing)))
            .add_systems(EguiPrimaryContextPass, draw_reel_screen.run_if(in_state(Mode::Idle).or_else(in_state(Mode::Playing)).and_then(reel_game_selected)));
    }
}

/// Whether the game on screen is a reel game.
fn reel_game_selected(session: Res<SessionRes>) -> bool {
    session.0.lock().is_ok_and(|s| s.reel_game().is_some())
}

/// Seconds for reel `i` to stop.
pub fn stop_time(i: usize) -> f32 {
    0.5 + 0.25 * i as f32
}

/// Step the reveal on: after the last reel stops, the next free game, and
/// after the last spin, tell the session the outcome was shown.
fn advance_reveal(time: Res<Time>, session: Res<SessionRes>, mut reveal: ResMut<Reveal>) {
    let Ok(mut s) = session.0.lock() else { return };
    let Some(r) = s.round.as_ref() else { return };
    let now = time.elapsed_secs();
    if reveal.round != Some(r.id) {
        *reveal = Reveal { round: Some(r.id), spin: 0, started: now, hurry: r.resumed };
    }
    if r.revealed {
        return;
    }
    let reels = r.record.outcome.base.stops.len();
    let spin_len = stop_time(reels - 1) + if reveal.hurry { 0.0 } else { 0.6 };
    if reveal.hurry || now - reveal.started >= spin_len {
        if reveal.spin < r.record.outcome.free_spins.len() {
            reveal.spin += 1;
            reveal.started = now;
        } else {
            s.revealed();
        }
    }
}

const PALETTE: [egui::Color32; 12] = [
    egui::Color32::from_rgb(200, 60, 60),
    egui::Color32::from_rgb(60, 120, 200),
    egui::Color32::from_rgb(60, 170, 90),
    egui::Color32::from_rgb(220, 160, 40),
    egui::Color32::from_rgb(150, 80, 190),
    egui::Color32::from_rgb(40, 170, 170),
    egui::Color32::from_rgb(230, 110, 30),
    egui::Color32::from_rgb(110, 110, 110),
    egui::Color32::from_rgb(250, 215, 0),
    egui::Color32::from_rgb(230, 60, 150),
    egui::Color32::from_rgb(120, 200, 40),
    egui::Color32::from_rgb(30, 60, 140),
];

const LINE_COLOURS: [egui::Color32; 5] = [
    egui::Color32::from_rgb(255, 255, 0),
    egui::Color32::from_rgb(0, 255, 255),
    egui::Color32::from_rgb(255, 0, 255),
    egui::Color32::from_rgb(0, 255, 0),
    egui::Color32::from_rgb(255, 128, 0),
];

/// Paint a window of reels: `spinning[i]` reels show a moving strip.
pub fn paint_reels(ui: &mut egui::Ui, game: &ReelGame, spin: &Spin, spinning: &[bool], phase: f32, show_wins: bool) {
    let rows = game.rows as usize;
    let n = game.reels.len();
    let avail = ui.available_size();
    // Leave room under the reels for the win list and the double-up.
    let cell = ((avail.x - 40.0) / n as f32).min((avail.y - 200.0) / rows as f32).clamp(40.0, 170.0);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(cell * n as f32, cell * rows as f32), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 6.0, egui::Color32::from_rgb(20, 20, 35));
    let strips = game.strips(spin.free);
    for (i, strip) in strips.iter().enumerate() {
        let offset = if spinning.get(i).copied().unwrap_or(false) { (phase * 18.0) as usize + i * 7 } else { 0 };
        for row in 0..rows {
            let stop = (spin.stops[i] as usize + offset) % strip.len();
            let sym = strip.at(stop, row) as usize;
            let r = egui::Rect::from_min_size(rect.min + egui::vec2(i as f32 * cell, row as f32 * cell), egui::vec2(cell, cell)).shrink(4.0);
            painter.rect_filled(r, 10.0, PALETTE[sym % PALETTE.len()]);
            let s = &game.symbols[sym];
            painter.text(
                r.center() - egui::vec2(0.0, cell * 0.1),
                egui::Align2::CENTER_CENTER,
                &s.id,
                egui::FontId::proportional(cell * 0.36),
                egui::Color32::WHITE,
            );
            painter.text(
                r.center() + egui::vec2(0.0, cell * 0.25),
                egui::Align2::CENTER_CENTER,
                &s.name,
                egui::FontId::proportional(cell * 0.11),
                egui::Color32::WHITE,
            );
        }
    }
    if show_wins {
        for (k, w) in spin.line_wins.iter().enumerate() {
            let colour = LINE_COLOURS[k % LINE_COLOURS.len()];
            let line = &game.lines[w.line as usize];
            let points: Vec<egui::Pos2> =
                line.iter().enumerate().map(|(i, &row)| rect.min + egui::vec2((i as f32 + 0.5) * cell, (row as f32 + 0.5) * cell)).collect();
            painter.add(egui::Shape::line(points.clone(), egui::Stroke::new(4.0, colour)));
            for p in points.iter().take(w.count as usize) {
                painter.circle_stroke(*p, cell * 0.42, egui::Stroke::new(3.0, colour));
            }
        }
    }
}

fn draw_reel_screen(mut contexts: EguiContexts, hud: Res<HudLayout>, session: Res<SessionRes>, reveal: Res<Reveal>, time: Res<Time>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "reels", &hud);
    let Ok(mut s) = session.0.lock() else { return Ok(()) };
    let mut choice: Option<Option<Colour>> = None;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            let Some(game) = s.reel_game().map(|l| &l.game) else { return };
            let now = time.elapsed_secs();
            match &s.round {
                Some(r) => {
                    let o = &r.record.outcome;
                    let spin = if reveal.spin == 0 { &o.base } else { &o.free_spins[reveal.spin - 1] };
                    let elapsed = now - reveal.started;
                    let spinning: Vec<bool> = (0..spin.stops.len()).map(|i| !r.revealed && !reveal.hurry && elapsed < stop_time(i)).collect();
                    let settled = spinning.iter().all(|x| !x);
                    if reveal.spin > 0 {
                        ui.heading(format!("{} {}/{}", s.t("JOGO GRÁTIS", "FREE GAME"), reveal.spin, o.free_spins.len()));
                    }
                    paint_reels(ui, game, spin, &spinning, now, settled);
                    if settled {
                        for w in &spin.line_wins {
                            ui.label(format!(
                                "{} {}: {} × {} = {}",
                                s.t("Linha", "Line"),
                                w.line + 1,
                                w.count,
                                game.symbols[w.symbol as usize].name,
                                s.show(w.win * r.denom)
                            ));
                        }
                        if spin.scatter_win > 0 {
                            ui.label(format!("Scatter × {}: {}", spin.scatter_count, s.show(spin.scatter_win * r.denom)));
                        }
                        if spin.free_games_awarded > 0 {
                            ui.label(format!("+{} {}", spin.free_games_awarded, s.t("jogos grátis", "free games")));
                        }
                    }
                    if s.double_up_offered() {
                        choice = crate::screens::cards::double_up_panel(ui, &s, r.at_stake, r.denom, &r.gambles);
                    }
                }
                None => {
                    // Idle: the last game's result stays on screen (E-34).
                    let last = s.history.last().filter(|h| h.game == game.id).and_then(|h| h.outcome.as_ref()).map(|o| o.base.clone());
                    let spin = last.unwrap_or_else(|| game.evaluate(&vec![0; game.reels.len()], s.bet(), false));
                    paint_reels(ui, game, &spin, &[], now, s.history.last().is_some_and(|h| h.game == game.id));
                    ui.label(s.t("Prima ESPAÇO para jogar", "Press SPACE to play"));
                }
            }
        });
    });
    match choice {
        Some(Some(c)) => s.gamble(c),
        Some(None) => s.collect(),
        None => {}
    }
    Ok(())
}
