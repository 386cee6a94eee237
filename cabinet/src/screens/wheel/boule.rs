//! The boule screen: the wheel of 25 (the star and 1–24, BO-2) and the
//! cloth as `docs/boule.md` lays it — the numbers in 8 columns of 3, the
//! star beside them, the chances of 2, 3, 4 and 6 numbers on the lines
//! between them (raised places), the columns of 8 at the end, the six
//! simple chances under them.

use bevy::prelude::*;
use bevy_egui::egui;
use game_core::boule::{STAR, Spot, WHEEL, red};
use game_host::kind::GameKind;
use game_host::kinds::boule::{Ball, Boule, BouleBet, BouleRound, compartment_colour, compartment_name};
use game_host::round::Opening;
use game_host::session::{Lang, Session};
use meters::RoundRecall;

use super::WheelScreen;
use crate::layout::Area;
use crate::screens::KindPages;
use crate::screens::cloth::{self, Cell};

pub struct BouleScreenPlugin;

impl Plugin for BouleScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        super::add::<BouleTable>(app);
    }
}

pub struct BouleTable;

const GRID_X: f32 = 820.0;
const GRID_Y: f32 = 150.0;
const CELL_W: f32 = 110.0;
const CELL_H: f32 = 100.0;
const STAR_X: f32 = 690.0;
const COLUMNS_X: f32 = GRID_X + 8.0 * CELL_W + 10.0;
const SIMPLE_Y: f32 = GRID_Y + 3.0 * CELL_H + 30.0;

/// A place centred on (x, y), `w` by `h`.
fn centred(x: f32, y: f32, w: f32, h: f32) -> Area {
    Area::new(x - w / 2.0, y - h / 2.0, w, h)
}

/// The column (0–7) and the row from the top (0–2) of number `n`: row r of
/// the text's cloth (3r−2, 3r−1, 3r) is a column here, its highest number on top.
fn grid(n: u8) -> (f32, f32) {
    (f32::from((n - 1) / 3), f32::from(2 - (n - 1) % 3))
}

/// Where a chance stands on the cloth (design units).
pub fn cell_of(spot: Spot) -> Area {
    let left = |col: f32| GRID_X + col * CELL_W;
    let top = |row: f32| GRID_Y + row * CELL_H;
    match spot {
        Spot::Star => Area::new(STAR_X, GRID_Y, GRID_X - STAR_X - 10.0, 3.0 * CELL_H),
        Spot::Number(n) => {
            let (c, r) = grid(n);
            Area::new(left(c), top(r), CELL_W, CELL_H)
        }
        // One above the other: on the line between them.
        Spot::Two(a, b) if b == a + 1 => {
            let (c, r) = grid(a);
            centred(left(c) + CELL_W / 2.0, top(r), 36.0, 24.0)
        }
        // Side by side: on the line between the columns.
        Spot::Two(a, _) => {
            let (c, r) = grid(a);
            centred(left(c + 1.0), top(r) + CELL_H / 2.0, 24.0, 36.0)
        }
        // Where the four meet.
        Spot::Four(n) => {
            let (c, r) = grid(n);
            centred(left(c + 1.0), top(r), 24.0, 24.0)
        }
        // Three numbers: on the cloth's edge under their column.
        Spot::Row(k) => centred(left(f32::from(k - 1)) + CELL_W / 2.0, top(3.0), 40.0, 24.0),
        // Six: on the edge where their two columns meet.
        Spot::SixNumbers(k) => centred(left(f32::from(k)), top(3.0), 24.0, 24.0),
        Spot::Column(k) => Area::new(COLUMNS_X, top(f32::from(3 - k)), 1870.0 - COLUMNS_X, CELL_H),
        simple => {
            let order = [Spot::Low, Spot::Even, Spot::Red, Spot::Black, Spot::Odd, Spot::High];
            let k = order.iter().position(|s| *s == simple).unwrap_or(0) as f32;
            let w = (1870.0 - STAR_X) / 6.0;
            Area::new(STAR_X + k * w, SIMPLE_Y, w - 8.0, 90.0)
        }
    }
}

fn number_fill(n: u8) -> Color {
    let [r, g, b] = compartment_colour(n);
    Color::srgb_u8(r, g, b)
}

impl WheelScreen for BouleTable {
    type K = Boule;

    const ART: &'static str = "wheels/boule.svg";
    const PLACES: usize = WHEEL.len();

    fn cells(s: &Session) -> Vec<Cell> {
        let pt = s.lang() == Lang::Pt;
        Spot::all()
            .into_iter()
            .map(|spot| {
                let (label, fill, size, raised) = match spot {
                    Spot::Star => (compartment_name(STAR), number_fill(STAR), 60.0, false),
                    Spot::Number(n) => (n.to_string(), number_fill(n), 34.0, false),
                    Spot::Column(_) => ("2:1".to_owned(), Color::srgb(0.08, 0.22, 0.12), 26.0, false),
                    Spot::Red => (spot.name(pt).to_uppercase(), number_fill(1), 22.0, false),
                    Spot::Black => (spot.name(pt).to_uppercase(), number_fill(2), 22.0, false),
                    Spot::Odd | Spot::Even | Spot::Low | Spot::High => (spot.name(pt).to_uppercase(), Color::srgb(0.06, 0.3, 0.16), 18.0, false),
                    // The places on the lines: small and dark, the lines' gold round them.
                    _ => (String::new(), Color::srgb(0.09, 0.08, 0.06), 14.0, true),
                };
                Cell { spot: serde_json::to_value(spot).unwrap_or_default(), area: cell_of(spot), label, fill, size, raised }
            })
            .collect()
    }

    fn stop(round: &BouleRound) -> usize {
        WHEEL.iter().position(|&c| c == round.compartment).unwrap_or(0)
    }

    fn layout_of_round(round: &BouleRound) -> Vec<(serde_json::Value, u64)> {
        Self::layout(&round.bet)
    }

    fn layout(bet: &BouleBet) -> Vec<(serde_json::Value, u64)> {
        bet.spots.iter().map(|(s, v)| (serde_json::to_value(s).unwrap_or_default(), *v)).collect()
    }

    fn chip(bet: &BouleBet) -> u64 {
        bet.chip
    }

    fn wins(spot: &serde_json::Value, round: &BouleRound) -> bool {
        serde_json::from_value::<Spot>(spot.clone()).is_ok_and(|s| s.wins(round.compartment))
    }

    fn result(s: &Session, round: &BouleRound) -> String {
        let pt = s.lang() == Lang::Pt;
        let c = round.compartment;
        let colour = if c == STAR { String::new() } else { format!(" ({})", if red(c) { Spot::Red.name(pt) } else { Spot::Black.name(pt) }) };
        let headline = format!("{} {}{colour}", s.t("SAIU|out"), compartment_name(c));
        let won: Vec<(String, u64, u64)> =
            round.settlement().into_iter().filter(|(_, _, b)| *b > 0).map(|(spot, stake, back)| (spot.name(pt), stake, back)).collect();
        cloth::itemised(s, headline, &won)
    }
}

fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == Boule::OPENING) else { return false };
    let Ok(o) = serde_json::from_value::<Opening<BouleBet, Ball>>(first.step.data.clone()) else { return false };
    let pt = s.lang() == Lang::Pt;
    let c = o.deal.compartment;
    ui.heading(s.t("Roda"));
    ui.horizontal(|ui| crate::screens::pictures::paint_section(ui, &compartment_name(c), compartment_colour(c), ""));
    let round = BouleRound { bet: o.bet, compartment: c };
    crate::screens::pictures::paint_settlement(
        ui,
        "boule-replay",
        s,
        round.settlement().into_iter().map(|(spot, stake, back)| (spot.name(pt), stake, back.to_string())),
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chance_has_its_own_place_and_a_grouped_chance_sits_on_its_numbers_meeting() {
        let all = Spot::all();
        for (i, a) in all.iter().enumerate() {
            let area = cell_of(*a);
            assert!(area.w > 0.0 && area.h > 0.0 && area.x >= STAR_X && area.x + area.w <= 1870.0 + 0.01, "{a:?} {area:?}");
            for b in &all[i + 1..] {
                let other = cell_of(*b);
                let raised = |s: &Spot| matches!(s, Spot::Two(..) | Spot::Four(_) | Spot::Row(_) | Spot::SixNumbers(_));
                // Places of one layer never overlap; a raised place may
                // lie over a box, never over another raised place.
                if raised(a) == raised(b) {
                    assert!(!area.overlaps(&other), "{a:?} {area:?} and {b:?} {other:?}");
                }
            }
        }
        // A chance of 2, 4 or 6 numbers touches the box of each of its
        // numbers and of no other (the place a player aims at is where
        // its numbers meet).
        for spot in all.iter().filter(|s| matches!(s, Spot::Two(..) | Spot::Four(_))) {
            let area = cell_of(*spot);
            let touched: Vec<u8> = (1..=24).filter(|&n| area.overlaps(&cell_of(Spot::Number(n)))).collect();
            let mut want = spot.numbers();
            want.sort();
            assert_eq!(touched, want, "{spot:?}");
        }
    }
}
