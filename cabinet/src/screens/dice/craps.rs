//! The craps screen: the spots the table offers on a cloth of five rows
//! (the line bets; the field and the big 6 and 8; under and over seven,
//! the 7 and craps; the hardways; the totals), two dice rolling each roll
//! of the series the core committed in turn, every roll's total named and
//! the point once the come-out sets it, then each spot settled on the roll
//! that decided it.

use bevy::prelude::*;
use bevy_egui::egui;
use game_core::dice::craps::{Spot, point, total};
use game_host::help::craps_label;
use game_host::kind::GameKind;
use game_host::kinds::craps::{Craps, CrapsBet, CrapsRound, Series};
use game_host::round::Opening;
use game_host::session::{Lang, Session};
use meters::RoundRecall;

use super::DiceScreen;
use crate::layout::Area;
use crate::screens::KindPages;
use crate::screens::cloth::{self, Cell};

pub struct CrapsScreenPlugin;

impl Plugin for CrapsScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        super::add::<CrapsTable>(app);
    }
}

pub struct CrapsTable;

const LEFT: f32 = 680.0;
const TOP: f32 = 150.0;
const ROW_H: f32 = 100.0;
const GAP: f32 = 14.0;

/// Where a spot stands on the cloth (design units): 1,200 wide, five rows.
pub fn cell_of(spot: Spot) -> Area {
    let row = |r: f32, x: f32, w: f32| Area::new(LEFT + x, TOP + r * (ROW_H + GAP), w, ROW_H);
    let quarter = |k: f32| k * 300.0;
    match spot {
        Spot::PassLine => row(0.0, 0.0, 600.0),
        Spot::DontPass => row(0.0, 600.0, 600.0),
        Spot::Field => row(1.0, 0.0, 600.0),
        Spot::Big(n) => row(1.0, if n == 6 { 600.0 } else { 900.0 }, 300.0),
        Spot::UnderSeven => row(2.0, quarter(0.0), 300.0),
        Spot::OverSeven => row(2.0, quarter(1.0), 300.0),
        Spot::AnySeven => row(2.0, quarter(2.0), 300.0),
        Spot::AnyCraps => row(2.0, quarter(3.0), 300.0),
        Spot::Hard(n) => row(3.0, quarter(f32::from(n / 2 - 2)), 300.0),
        Spot::Total(n) => row(
            4.0,
            quarter(match n {
                2 => 0.0,
                3 => 1.0,
                11 => 2.0,
                _ => 3.0,
            }),
            300.0,
        ),
    }
}

fn spot_of(v: &serde_json::Value) -> Option<Spot> {
    serde_json::from_value(v.clone()).ok()
}

impl DiceScreen for CrapsTable {
    type K = Craps;

    fn cells(s: &Session) -> Vec<Cell> {
        let Some(g) = s.rules::<Craps>().map(|r| r.0.clone()) else { return Vec::new() };
        Spot::all()
            .into_iter()
            .filter(|&spot| g.offers(spot))
            .map(|spot| Cell {
                spot: serde_json::to_value(spot).unwrap_or_default(),
                area: cell_of(spot),
                label: craps_label(spot, g.bar),
                size: if matches!(spot, Spot::PassLine | Spot::DontPass) { 26.0 } else { 20.0 },
                raised: false,
                fill: match spot {
                    Spot::PassLine | Spot::DontPass => Color::srgb(0.06, 0.3, 0.16),
                    Spot::Field | Spot::Big(_) => Color::srgb(0.1, 0.15, 0.4),
                    Spot::Hard(_) | Spot::Total(_) | Spot::AnyCraps | Spot::AnySeven => Color::srgb(0.45, 0.08, 0.1),
                    Spot::UnderSeven | Spot::OverSeven => Color::srgb(0.08, 0.22, 0.12),
                },
            })
            .collect()
    }

    fn throws(round: &CrapsRound) -> Vec<Vec<u8>> {
        round.rolls.iter().map(|r| r.to_vec()).collect()
    }

    fn layout_of_round(round: &CrapsRound) -> Vec<(serde_json::Value, u64)> {
        Self::layout(&round.bet)
    }

    fn layout(bet: &CrapsBet) -> Vec<(serde_json::Value, u64)> {
        bet.spots.iter().map(|(s, v)| (serde_json::to_value(s).unwrap_or_default(), *v)).collect()
    }

    fn chip(bet: &CrapsBet) -> u64 {
        bet.chip
    }

    /// A spot lit once the series rests: it won on the roll that decided it.
    fn wins(spot: &serde_json::Value, round: &CrapsRound) -> bool {
        spot_of(spot).is_some_and(|s| s.verdict(&round.rolls, round.bar).is_some_and(|v| v.returned > 1))
    }

    /// Each roll before the last: its total (the come-out's is the point).
    fn undecided(_s: &Session, roll: &[u8]) -> Option<String> {
        Some(roll.iter().sum::<u8>().to_string())
    }

    fn result(s: &Session, round: &CrapsRound) -> String {
        let pt = s.lang() == Lang::Pt;
        let last = round.rolls.last().map_or([0, 0], |r| *r);
        let point = point(&round.rolls).map_or(String::new(), |p| format!("{} {p} · ", s.t("PONTO|point")));
        let headline = format!("{point}{} {}-{} ({} {})", s.t("SAIU|out"), last[0], last[1], s.t("total"), total(&last));
        let won: Vec<(String, u64, u64)> =
            round.settlement().into_iter().filter(|(_, _, b)| *b > 0).map(|(spot, stake, back)| (spot.name(pt), stake, back)).collect();
        cloth::itemised(s, headline, &won)
    }
}

/// A recalled series: every roll in pictures, the point, the settlement
/// (M-15).
fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == Craps::OPENING) else { return false };
    let Ok(o) = serde_json::from_value::<Opening<CrapsBet, Series>>(first.step.data.clone()) else { return false };
    // The table the round was played on (its bar), whichever game is selected now.
    let Some(g) = s.games().iter().find(|g| g.id() == r.game).and_then(|g| g.rules::<Craps>()) else { return false };
    let pt = s.lang() == Lang::Pt;
    ui.heading(s.t("Lançamentos"));
    if let Some(p) = point(&o.deal.rolls) {
        ui.label(format!("{} {p}", s.t("PONTO|point")));
    }
    ui.horizontal_wrapped(|ui| {
        for roll in &o.deal.rolls {
            crate::screens::pictures::paint_throw(ui, roll, &format!("= {}", total(roll)));
            ui.add_space(36.0);
        }
    });
    let round = CrapsRound { bet: o.bet, rolls: o.deal.rolls, bar: g.0.bar };
    crate::screens::pictures::paint_settlement(
        ui,
        "craps-replay",
        s,
        round.settlement().into_iter().map(|(spot, stake, back)| (spot.name(pt), stake, back.to_string())),
    );
    true
}
