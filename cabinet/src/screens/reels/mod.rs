//! The reel screen (issue 29): the reels drawn by Bevy's 2D renderer with
//! the game's symbol art (`view`), moving as `motion` says and landing on
//! the committed stops one reel after another; each winning line shown
//! over its symbols with its amount (M-5); free games; the double-up offer
//! (egui, over the reels).

mod cascade;
pub mod glass;
mod hold;
pub mod motion;
pub mod view;

use bevy::prelude::*;
use bevy_egui::egui;
use game_core::reels::{Bet, ReelGame, ReelRound, Spin};
use game_host::kind::GameKind;
use game_host::kinds::reels::Reels;
use game_host::round::{Opening, Phase};
use game_host::session::Session;
use meters::RoundRecall;

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::KindPages;
use crate::screens::cards::{egui_art, symbol_art_name};
use motion::Motion;

pub struct ReelScreenPlugin;

/// The reveal of the round on screen: which spin (0 = base, k = free game
/// k) and since when.
#[derive(Resource, Default)]
pub struct Reveal {
    pub round: Option<u64>,
    pub spin: usize,
    pub started: f32,
    /// Show the result at once (the player pressed play again; a resumed
    /// round).
    pub hurry: bool,
}

impl Reveal {
    /// A reveal of one piece of `length` seconds (a spin of the wheel, a
    /// golpe, a coup): follow round `id` (hurried when it was resumed, or
    /// when the player pressed play again); whether it has now been shown
    /// whole while the round is `presenting`, so the host may settle it.
    pub fn shown_whole(&mut self, id: u64, resumed: bool, presenting: bool, now: f32, length: f32) -> bool {
        if self.round != Some(id) {
            *self = Reveal { round: Some(id), spin: 0, started: now, hurry: resumed };
        }
        if !presenting {
            return false;
        }
        if self.hurry {
            self.started = now - length;
            self.hurry = false;
        }
        now - self.started >= length
    }
}

impl Plugin for ReelScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        view::add(app);
        glass::add(app);
        app.init_resource::<Reveal>().add_systems(Update, advance_reveal.run_if(in_state(Mode::Playing)));
    }
}

/// Seconds a free game's spin stays on screen after its reels rest,
/// before the next spins: long enough to see a win.
fn pause_after(spin: &Spin) -> f32 {
    // Issue 50: before its cascades fall, each of the window's own wins.
    if !spin.cascades.is_empty() {
        return view::WIN_SHOW_S * spin.way_wins.len().max(1) as f32;
    }
    if spin.win > 0 { view::WIN_SHOW_S } else { 0.4 }
}

/// Step the reveal on: after a spin's reels rest, the next free game, and
/// after the last spin, tell the session the outcome was shown. A hurried
/// reveal goes straight to the last spin, landed.
fn advance_reveal(time: Res<Time>, session: Res<SessionRes>, mut reveal: ResMut<Reveal>) {
    let Ok(mut s) = session.0.lock() else { return };
    let Some(game) = s.rules::<Reels>().map(|r| r.game.clone()) else { return };
    let Some(r) = s.round::<Reels>().filter(|r| r.phase != Phase::Ended) else { return };
    let now = time.elapsed_secs();
    if reveal.round != Some(r.id) {
        *reveal = Reveal { round: Some(r.id), spin: 0, started: now, hurry: r.resumed };
    }
    if r.phase != Phase::Presenting {
        return;
    }
    let spins = r.state.free_spins.len();
    // Issue 50: after the spins, the base spin's cascades, then the
    // hold-and-spin's steps (its start and each respin).
    let cascades = cascade::steps(&r.state);
    let last = spins + cascades + hold::steps(&r.state);
    let spin_of = |k: usize| if k == 0 { &r.state.base } else { &r.state.free_spins[k.min(spins) - 1] };
    if reveal.hurry {
        // Land the last step now: a spin's clock put at its landing, a
        // feature's step at its end.
        reveal.spin = last;
        reveal.started = now - if last > spins + cascades { hold::HOLD_STEP_S } else { Motion::new(&game, spin_of(spins)).rests_at() };
        s.revealed();
        return;
    }
    // A free game waits for its win to be seen before the next spins; the
    // last spin is revealed as its reels rest (its win goes to the meter);
    // a feature's step stays HOLD_STEP_S.
    let length = if reveal.spin > spins + cascades {
        hold::HOLD_STEP_S
    } else if reveal.spin > spins {
        // A cascade: each of its wins seen in turn.
        let c = &r.state.base.cascades[reveal.spin - spins - 1];
        (c.way_wins.len() as f32 * view::WIN_SHOW_S).max(cascade::CASCADE_S)
    } else {
        let spin = spin_of(reveal.spin);
        Motion::new(&game, spin).rests_at() + if reveal.spin < last { pause_after(spin) } else { 0.0 }
    };
    if now - reveal.started >= length {
        if reveal.spin < last {
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

/// A recalled spin as the audit menu's recall paints it (egui, M-15): each
/// symbol's art (a tile with its id and name before the art is shared),
/// the winning lines drawn.
pub fn paint_reels(ui: &mut egui::Ui, game: &ReelGame, spin: &Spin, show_wins: bool) {
    let rows = game.rows as usize;
    let n = game.reels.len();
    let avail = ui.available_size();
    let cell = ((avail.x - 40.0) / n as f32).min((avail.y - 200.0) / rows as f32).clamp(40.0, 170.0);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(cell * n as f32, cell * rows as f32), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 6.0, egui::Color32::from_rgb(20, 20, 35));
    // Each reel as the game reads it (its own rows, centred; an expanding
    // wild filling it: issue 50).
    let window = game.window_held(&spin.stops, spin.free, spin.held);
    let at = |reel: usize, row: usize| {
        let offset = rows.saturating_sub(game.rows_of(reel)) as f32 / 2.0;
        rect.min + egui::vec2((reel as f32 + 0.5) * cell, (row as f32 + offset + 0.5) * cell)
    };
    for (i, cells) in window.iter().enumerate() {
        for (row, &sym) in cells.iter().enumerate() {
            let sym = usize::from(sym);
            let r = egui::Rect::from_center_size(at(i, row), egui::vec2(cell, cell)).shrink(4.0);
            let s = &game.symbols[sym];
            // The symbol's own art, as the player saw it (M-15).
            if let Some(texture) = egui_art(ui.ctx(), &symbol_art_name(game.family(), &s.id)) {
                painter.image(texture, r, egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)), egui::Color32::WHITE);
                continue;
            }
            painter.rect_filled(r, 10.0, PALETTE[sym % PALETTE.len()]);
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
        // A ways win: every cell of its run circled.
        for (k, w) in spin.way_wins.iter().enumerate() {
            let colour = LINE_COLOURS[(k + spin.line_wins.len()) % LINE_COLOURS.len()];
            for (reel, row) in game.way_cells(&window, w.symbol, w.count) {
                painter.circle_stroke(at(reel, row), cell * (0.42 - 0.03 * k as f32).max(0.2), egui::Stroke::new(3.0, colour));
            }
        }
    }
}

/// A recalled reel round, painted by the reel screen's own painter from
/// its journaled opening (M-15).
fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == Reels::OPENING) else { return false };
    let Ok(rec) = serde_json::from_value::<Opening<Bet, ReelRound>>(first.step.data.clone()) else { return false };
    let Some(g) = s.games().iter().find_map(|g| g.rules::<Reels>().filter(|l| l.game.id == rec.game)) else { return false };
    paint_reels(ui, &g.game, &rec.deal.base, true);
    ui.label(format!("{} {} — {} {}", s.t("jogos grátis"), rec.deal.free_spins.len(), s.t("prémio total"), rec.deal.win));
    // Issue 50: the hold-and-spin the round played, its pearls and its pay.
    if let Some(h) = &rec.deal.hold {
        let grand = if h.full { format!(" + {} {}", s.t("GRANDE"), h.grand_credits) } else { String::new() };
        ui.label(format!("{}: {} {} · {} {}{grand}", s.t("Hold & Spin"), h.held().count(), s.t("retidos"), h.respins.len(), s.t("RESPINS"),));
    }
    true
}
