//! The sic bo (cussec) screen: the 50 spots of the cloth in rows (small,
//! doubles, big; the triples and any triple; the totals; the two-dice
//! combinations; the single numbers), three dice falling under the dome.

use bevy::prelude::*;
use bevy_egui::egui;
use game_core::dice::sic_bo::Spot;
use game_host::help::sic_bo_label as label;
use game_host::kind::GameKind;
use game_host::kinds::sic_bo::{Dome, SicBo, SicBoBet, SicBoRound};
use game_host::round::Opening;
use game_host::session::{Lang, Session};
use meters::RoundRecall;

use super::DiceScreen;
use crate::layout::Area;
use crate::screens::KindPages;
use crate::screens::cloth::{self, Cell};

pub struct SicBoScreenPlugin;

impl Plugin for SicBoScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        super::add::<SicBoTable>(app);
    }
}

pub struct SicBoTable;

const LEFT: f32 = 680.0;
const WIDE: f32 = 1200.0;
const ROW_H: f32 = 100.0;
const TOP: f32 = 150.0;

/// Where a spot stands on the cloth (design units).
pub fn cell_of(spot: Spot) -> Area {
    let row = |r: f32, x: f32, w: f32| Area::new(LEFT + x, TOP + r * (ROW_H + 14.0), w, ROW_H);
    match spot {
        Spot::Small => row(0.0, 0.0, 300.0),
        Spot::Double(n) => row(0.0, 300.0 + f32::from(n - 1) * 100.0, 100.0),
        Spot::Big => row(0.0, 900.0, 300.0),
        Spot::Triple(n) => row(1.0, f32::from(n - 1) * 150.0, 150.0),
        Spot::AnyTriple => row(1.0, 900.0, 300.0),
        Spot::Total(t) => row(2.0, f32::from(t - 4) * (WIDE / 14.0), WIDE / 14.0),
        Spot::Pair(a, b) => {
            let k = Spot::all().iter().filter(|s| matches!(s, Spot::Pair(..))).position(|s| *s == Spot::Pair(a, b)).unwrap_or(0) as f32;
            row(3.0, k * 80.0, 80.0)
        }
        Spot::Single(n) => row(4.0, f32::from(n - 1) * 200.0, 200.0),
    }
}

impl DiceScreen for SicBoTable {
    type K = SicBo;

    fn cells(s: &Session) -> Vec<Cell> {
        Spot::all()
            .into_iter()
            .map(|spot| Cell {
                spot: serde_json::to_value(spot).unwrap_or_default(),
                area: cell_of(spot),
                label: label(spot, s.lang()),
                size: 20.0,
                raised: false,
                fill: match spot {
                    Spot::Small | Spot::Big => Color::srgb(0.06, 0.3, 0.16),
                    Spot::Triple(_) | Spot::AnyTriple => Color::srgb(0.45, 0.08, 0.1),
                    Spot::Total(_) => Color::srgb(0.1, 0.15, 0.4),
                    _ => Color::srgb(0.08, 0.22, 0.12),
                },
            })
            .collect()
    }

    fn throws(round: &SicBoRound) -> Vec<Vec<u8>> {
        vec![round.dice.to_vec()]
    }

    fn layout_of_round(round: &SicBoRound) -> Vec<(serde_json::Value, u64)> {
        Self::layout(&round.bet)
    }

    fn layout(bet: &SicBoBet) -> Vec<(serde_json::Value, u64)> {
        bet.spots.iter().map(|(s, v)| (serde_json::to_value(s).unwrap_or_default(), *v)).collect()
    }

    fn chip(bet: &SicBoBet) -> u64 {
        bet.chip
    }

    fn wins(spot: &serde_json::Value, round: &SicBoRound) -> bool {
        serde_json::from_value::<Spot>(spot.clone()).is_ok_and(|s| s.returned(1, &round.dice) > 0)
    }

    fn result(s: &Session, round: &SicBoRound) -> String {
        let pt = s.lang() == Lang::Pt;
        let d = round.dice;
        let headline = format!("{} {}-{}-{} ({} {})", s.t("SAIU|out"), d[0], d[1], d[2], s.t("total"), d.iter().sum::<u8>());
        let won: Vec<(String, u64, u64)> =
            round.settlement().into_iter().filter(|(_, _, b)| *b > 0).map(|(spot, stake, back)| (spot.name(pt), stake, back)).collect();
        cloth::itemised(s, headline, &won)
    }
}

fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == SicBo::OPENING) else { return false };
    let Ok(o) = serde_json::from_value::<Opening<SicBoBet, Dome>>(first.step.data.clone()) else { return false };
    let pt = s.lang() == Lang::Pt;
    let d = o.deal.dice;
    ui.heading(s.t("Dados"));
    ui.horizontal(|ui| crate::screens::pictures::paint_throw(ui, &d, &format!("= {}", d.iter().map(|&f| u32::from(f)).sum::<u32>())));
    let round = SicBoRound { bet: o.bet, dice: d };
    crate::screens::pictures::paint_settlement(
        ui,
        "sic-bo-replay",
        s,
        round.settlement().into_iter().map(|(spot, stake, back)| (spot.name(pt), stake, back.to_string())),
    );
    true
}
