//! The video roulette screen (issue 30): the wheel turning one way and the
//! ball the other onto the pocket the core committed, the cloth with the
//! chips of the bet on it, the call bets and the racetrack, the edits of
//! the bet by touch and keys, the win itemised spot by spot (FR 25, 31),
//! the last numbers with their colours (AR 45) and the figures players
//! look for. It draws what the host reports and sends `Command::EditBet`;
//! the host checks every chip against the table's limits.

pub mod cloth;
pub mod controls;
mod input;
pub mod spin;
pub mod stats;
mod view;

use bevy::prelude::*;
use bevy_egui::egui;
use game_core::roulette::{RouletteGame, Spot};
use game_host::kind::GameKind;
use game_host::kinds::roulette::{Roulette, RouletteBet, RouletteDeal, announce};
use game_host::round::Opening;
use game_host::session::{Lang, Session};
use meters::RoundRecall;

use crate::screens::KindPages;

pub struct RouletteScreenPlugin;

impl Plugin for RouletteScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        view::add(app);
        input::add(app);
    }
}

fn roulette_selected(session: Res<crate::SessionRes>) -> bool {
    session.0.lock().is_ok_and(|s| s.rules::<Roulette>().is_some())
}

/// The pockets of the table's last spins, newest first, from the journal
/// (recall of the last 100 rounds).
pub fn last_pockets(s: &Session, game: &str) -> Vec<u8> {
    let Ok(rounds) = s.machine().recall(stats::OVER as u64) else { return Vec::new() };
    rounds
        .iter()
        .filter_map(|r| {
            let first = r.steps.first().filter(|st| st.step.name == Roulette::OPENING)?;
            let o: Opening<RouletteBet, RouletteDeal> = serde_json::from_value(first.step.data.clone()).ok()?;
            (o.game == game).then_some(o.deal.pocket)
        })
        .collect()
}

/// The cloth as the roulette screen lays it out, at half its size, with
/// the round's chips on it and the winning number marked (M-15: recall
/// shows the bets as they stood).
fn paint_cloth(ui: &mut egui::Ui, wheel: game_core::roulette::Wheel, spots: &[(Spot, u64)], pocket: u8, portuguese: bool) {
    let k = 0.5;
    let area = cloth::area();
    let (rect, _) = ui.allocate_exact_size(egui::vec2(area.w * k, area.h * k), egui::Sense::hover());
    let p = ui.painter_at(rect);
    let to = |x: f32, y: f32| rect.min + egui::vec2((x - area.x) * k, (y - area.y) * k);
    let cell = |a: crate::layout::Area| egui::Rect::from_min_max(to(a.x, a.y), to(a.x + a.w, a.y + a.h)).shrink(1.0);
    p.rect_filled(rect, 4.0, egui::Color32::from_rgb(13, 92, 46));
    for &n in wheel.sequence() {
        let fill = match game_core::roulette::colour(n) {
            game_core::roulette::PocketColour::Red => egui::Color32::from_rgb(184, 16, 36),
            game_core::roulette::PocketColour::Black => egui::Color32::from_rgb(26, 26, 26),
            game_core::roulette::PocketColour::Zero => egui::Color32::from_rgb(26, 128, 52),
        };
        let r = cell(cloth::pocket_cell(wheel, n));
        p.rect_filled(r, 2.0, if n == pocket { egui::Color32::from_rgb(240, 240, 240) } else { fill });
        let ink = if n == pocket { egui::Color32::BLACK } else { egui::Color32::WHITE };
        p.text(r.center(), egui::Align2::CENTER_CENTER, game_core::roulette::pocket_name(n), egui::FontId::proportional(14.0), ink);
    }
    for spot in Spot::outside() {
        if let Some(a) = cloth::outside_cell(&spot) {
            let ink = egui::Color32::from_rgb(230, 210, 140);
            p.rect_stroke(cell(a), 2.0, egui::Stroke::new(1.0, ink), egui::StrokeKind::Inside);
            p.text(cell(a).center(), egui::Align2::CENTER_CENTER, spot.name(portuguese), egui::FontId::proportional(11.0), ink);
        }
    }
    for (spot, stake) in spots {
        let Some((x, y)) = cloth::chip_at(wheel, spot) else { continue };
        let c = to(x, y);
        p.circle_filled(c, 10.0, egui::Color32::from_rgb(245, 210, 74));
        p.text(c, egui::Align2::CENTER_CENTER, stake.to_string(), egui::FontId::proportional(11.0), egui::Color32::BLACK);
    }
}

/// A recalled roulette round: the pocket, and every spot of the layout
/// with its stake and return (M-15).
fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == Roulette::OPENING) else { return false };
    let Ok(o) = serde_json::from_value::<Opening<RouletteBet, RouletteDeal>>(first.step.data.clone()) else { return false };
    let pt = s.lang() == Lang::Pt;
    ui.heading(format!("{} {}", s.t("Número sorteado:"), announce(o.deal.pocket, s.lang())));
    if let Some(g) = s.games().iter().find_map(|g| g.rules::<Roulette>().filter(|r| r.0.id == o.game)) {
        paint_cloth(ui, g.0.wheel, &o.bet.spots, o.deal.pocket, pt);
    }
    crate::screens::pictures::paint_settlement(
        ui,
        "roulette-replay",
        s,
        RouletteGame::settle(&o.bet.spots, o.deal.pocket).into_iter().map(|(spot, stake, back)| (spot.name(pt), stake, back.to_string())),
    );
    true
}
