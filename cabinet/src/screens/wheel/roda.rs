//! The wheel of fortune's screen: the wheel of 52 sections (RS-2, in the
//! order `game_core::roda_da_sorte::WHEEL` gives) and a cloth of the seven
//! bets, one per kind of section, each in its section's colour with its odds.

use bevy::prelude::*;
use bevy_egui::egui;
use game_core::roda_da_sorte::{Section, WHEEL};
use game_host::kind::GameKind;
use game_host::kinds::roda_da_sorte::{RodaBet, RodaDaSorte, RodaRound, Stop, section_colour, section_name};
use game_host::round::Opening;
use game_host::session::{Lang, Session};
use meters::RoundRecall;

use super::WheelScreen;
use crate::layout::Area;
use crate::screens::KindPages;
use crate::screens::cloth::{self, Cell};

pub struct RodaScreenPlugin;

impl Plugin for RodaScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        super::add::<RodaTable>(app);
    }
}

pub struct RodaTable;

/// Where a bet stands on the cloth: the seven in a row (design units).
pub fn cell_of(section: Section) -> Area {
    let k = Section::ALL.iter().position(|s| *s == section).unwrap_or(0) as f32;
    Area::new(690.0 + k * 170.0, 260.0, 160.0, 220.0)
}

fn fill(section: Section) -> Color {
    let [r, g, b] = section_colour(section);
    Color::srgb_u8(r, g, b)
}

impl WheelScreen for RodaTable {
    type K = RodaDaSorte;

    const ART: &'static str = "wheels/roda-da-sorte.svg";
    const PLACES: usize = WHEEL.len();

    fn cells(s: &Session) -> Vec<Cell> {
        Section::ALL
            .into_iter()
            .map(|section| Cell {
                spot: serde_json::to_value(section).unwrap_or_default(),
                area: cell_of(section),
                label: format!("{}\n{}:1", section_name(section, s.lang()), section.pays()),
                fill: fill(section),
                size: 34.0,
                raised: false,
            })
            .collect()
    }

    fn stop(round: &RodaRound) -> usize {
        round.stop
    }

    fn layout_of_round(round: &RodaRound) -> Vec<(serde_json::Value, u64)> {
        Self::layout(&round.bet)
    }

    fn layout(bet: &RodaBet) -> Vec<(serde_json::Value, u64)> {
        bet.spots.iter().map(|(s, v)| (serde_json::to_value(s).unwrap_or_default(), *v)).collect()
    }

    fn chip(bet: &RodaBet) -> u64 {
        bet.chip
    }

    fn wins(spot: &serde_json::Value, round: &RodaRound) -> bool {
        serde_json::from_value::<Section>(spot.clone()).is_ok_and(|s| s == round.section())
    }

    fn result(s: &Session, round: &RodaRound) -> String {
        let pt = s.lang() == Lang::Pt;
        let headline = format!("{} {}", s.t("SAIU|out"), section_name(round.section(), s.lang()));
        let won: Vec<(String, u64, u64)> =
            round.settlement().into_iter().filter(|(_, _, b)| *b > 0).map(|(section, stake, back)| (section.name(pt), stake, back)).collect();
        cloth::itemised(s, headline, &won)
    }
}

fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == RodaDaSorte::OPENING) else { return false };
    let Ok(o) = serde_json::from_value::<Opening<RodaBet, Stop>>(first.step.data.clone()) else { return false };
    let pt = s.lang() == Lang::Pt;
    let round = RodaRound { bet: o.bet, stop: o.deal.section };
    ui.heading(s.t("Roda"));
    ui.horizontal(|ui| crate::screens::pictures::paint_section(ui, &section_name(round.section(), s.lang()), section_colour(round.section()), ""));
    crate::screens::pictures::paint_settlement(
        ui,
        "roda-replay",
        s,
        round.settlement().into_iter().map(|(section, stake, back)| (section.name(pt), stake, back.to_string())),
    );
    true
}
