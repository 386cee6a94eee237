//! The peixe-camarão-caranguejo screen: the places of the bets the table
//! offers in rows (small, three of one colour and big; the six figures;
//! the colour bets; the figures' triples; the totals), each row only where
//! the paytable offers its bets, and three figure dice falling under the
//! dome (Macau 59/2004 Art. 1: each face its figure, colour and number).

use bevy::prelude::*;
use bevy_egui::egui;
use game_core::dice::fish_prawn_crab::{Colour, Spot, figure};
use game_host::help::fish_prawn_crab_label as label;
use game_host::kind::GameKind;
use game_host::kinds::fish_prawn_crab::{Dome, FishPrawnCrab, FishPrawnCrabBet, FishPrawnCrabRound};
use game_host::round::Opening;
use game_host::session::{Lang, Session};
use meters::RoundRecall;

use super::DiceScreen;
use crate::layout::Area;
use crate::screens::KindPages;
use crate::screens::cloth::{self, Cell};

pub struct FishPrawnCrabScreenPlugin;

impl Plugin for FishPrawnCrabScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        super::add::<FishPrawnCrabTable>(app);
    }
}

pub struct FishPrawnCrabTable;

const LEFT: f32 = 680.0;
const WIDE: f32 = 1200.0;
const TOP: f32 = 150.0;
/// The cloth's height: from its top to above the edit buttons.
const HIGH: f32 = 556.0;
const GAP: f32 = 14.0;

/// The row a place stands in.
fn row_of(spot: Spot) -> usize {
    match spot {
        Spot::Small | Spot::ThreeSameColour | Spot::AnyTriple | Spot::Big => 0,
        Spot::Figure(_) => 1,
        Spot::OneOfColour(_) | Spot::TwoOfColour(_) | Spot::ThreeOfColour(_) => 2,
        Spot::FigureTriple(_) => 3,
        Spot::Total(_) => 4,
    }
}

/// Where each place of `cloth` stands (design units): the rows that hold
/// a place share the cloth's height, a row's places its width, in the
/// order of `row_of` and, within a row, of the places.
pub fn cells_of(cloth: &[Spot]) -> Vec<(Spot, Area)> {
    let mut spots = cloth.to_vec();
    spots.sort_by_key(|&s| (row_of(s), s != Spot::Small, s == Spot::Big, s));
    let rows: Vec<usize> = (0..5).filter(|r| spots.iter().any(|&s| row_of(s) == *r)).collect();
    let h = (HIGH - GAP * rows.len().saturating_sub(1) as f32) / rows.len().max(1) as f32;
    let h = h.min(130.0);
    let mut out = Vec::new();
    for (k, r) in rows.iter().enumerate() {
        let in_row: Vec<Spot> = spots.iter().copied().filter(|&s| row_of(s) == *r).collect();
        let w = WIDE / in_row.len() as f32;
        for (i, s) in in_row.into_iter().enumerate() {
            out.push((s, Area::new(LEFT + i as f32 * w, TOP + k as f32 * (h + GAP), w - 6.0, h)));
        }
    }
    out
}

/// A colour's cloth.
fn colour_fill(c: Colour) -> Color {
    match c {
        Colour::Red => Color::srgb(0.5, 0.07, 0.1),
        Colour::Green => Color::srgb(0.05, 0.34, 0.16),
        Colour::Blue => Color::srgb(0.08, 0.16, 0.5),
    }
}

impl DiceScreen for FishPrawnCrabTable {
    type K = FishPrawnCrab;

    fn cells(s: &Session) -> Vec<Cell> {
        let Some(game) = s.rules::<FishPrawnCrab>() else { return Vec::new() };
        cells_of(&game.0.cloth())
            .into_iter()
            .map(|(spot, area)| Cell {
                spot: serde_json::to_value(spot).unwrap_or_default(),
                area,
                label: label(spot, s.lang()),
                size: if matches!(spot, Spot::Figure(_) | Spot::Small | Spot::Big) { 24.0 } else { 18.0 },
                raised: false,
                fill: match spot {
                    Spot::Figure(f) | Spot::FigureTriple(f) => colour_fill(Colour::of(f)),
                    Spot::OneOfColour(c) | Spot::TwoOfColour(c) | Spot::ThreeOfColour(c) => colour_fill(c),
                    Spot::Total(_) => Color::srgb(0.1, 0.15, 0.4),
                    _ => Color::srgb(0.06, 0.3, 0.16),
                },
            })
            .collect()
    }

    fn throws(round: &FishPrawnCrabRound) -> Vec<Vec<u8>> {
        vec![round.dice.to_vec()]
    }

    fn layout_of_round(round: &FishPrawnCrabRound) -> Vec<(serde_json::Value, u64)> {
        Self::layout(&round.bet)
    }

    fn layout(bet: &FishPrawnCrabBet) -> Vec<(serde_json::Value, u64)> {
        bet.spots.iter().map(|(s, v)| (serde_json::to_value(s).unwrap_or_default(), *v)).collect()
    }

    fn chip(bet: &FishPrawnCrabBet) -> u64 {
        bet.chip
    }

    fn wins(spot: &serde_json::Value, round: &FishPrawnCrabRound) -> bool {
        serde_json::from_value::<Spot>(spot.clone()).is_ok_and(|s| s.returned(1, &round.dice) > 0)
    }

    fn result(s: &Session, round: &FishPrawnCrabRound) -> String {
        let pt = s.lang() == Lang::Pt;
        let d = round.dice;
        let figures: Vec<String> = d.iter().map(|&f| figure(f, pt).to_uppercase()).collect();
        let headline = format!("{} {} ({} {})", s.t("SAIU|out"), figures.join(" · "), s.t("total"), d.iter().sum::<u8>());
        let won: Vec<(String, u64, u64)> =
            round.settlement().into_iter().filter(|(_, _, b)| *b > 0).map(|(spot, stake, back)| (spot.name(pt), stake, back)).collect();
        cloth::itemised(s, headline, &won)
    }

    fn face_art(face: u8) -> String {
        format!("dice/figure-{face}.svg")
    }
}

fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == FishPrawnCrab::OPENING) else { return false };
    let Ok(o) = serde_json::from_value::<Opening<FishPrawnCrabBet, Dome>>(first.step.data.clone()) else { return false };
    let pt = s.lang() == Lang::Pt;
    let d = o.deal.dice;
    ui.heading(s.t("Dados"));
    let figures: Vec<&str> = d.iter().map(|&f| figure(f, pt)).collect();
    ui.horizontal(|ui| crate::screens::pictures::paint_throw(ui, &d, &format!("{} = {}", figures.join(", "), d.iter().map(|&f| u32::from(f)).sum::<u32>())));
    let round = FishPrawnCrabRound { bet: o.bet, dice: d };
    crate::screens::pictures::paint_settlement(
        ui,
        "fish-prawn-crab-replay",
        s,
        round.settlement().into_iter().map(|(spot, stake, back)| (spot.name(pt), stake, back.to_string())),
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::dice::fish_prawn_crab::Bet;

    /// Every place of the whole text's cloth stands on the cloth, a finger
    /// wide, none over another; a shipped cloth (five rows) the same.
    #[test]
    fn the_places_stand_apart_on_the_cloth() {
        let every: Vec<Spot> = Bet::all().iter().flat_map(|b| b.spots()).collect();
        let shipped: Vec<Spot> = [Bet::Small, Bet::Big, Bet::Figure, Bet::OneOfColour, Bet::TwoOfColour, Bet::ThreeSameColour]
            .iter()
            .chain((7..=14).map(Bet::Total).collect::<Vec<_>>().iter())
            .flat_map(|b| b.spots())
            .collect();
        for cloth in [every, shipped] {
            let cells = cells_of(&cloth);
            assert_eq!(cells.len(), cloth.len());
            for (i, (s, a)) in cells.iter().enumerate() {
                assert!(a.x >= LEFT && a.x + a.w <= LEFT + WIDE && a.y >= TOP && a.y + a.h <= TOP + HIGH, "{s:?} off the cloth: {a:?}");
                assert!(a.w >= 60.0 && a.h >= 60.0, "{s:?} under a finger: {a:?}");
                for (t, b) in &cells[..i] {
                    let apart = a.x >= b.x + b.w || b.x >= a.x + a.w || a.y >= b.y + b.h || b.y >= a.y + a.h;
                    assert!(apart, "{s:?} over {t:?}");
                }
            }
        }
    }
}
