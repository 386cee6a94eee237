//! The banca francesa screen: the cloth of BF 4 (ases, pequeno, grande),
//! every throw of the golpe falling in turn, the ones that decide nothing
//! named so (BF 13), the decisive one settling the chances.

use bevy::prelude::*;
use bevy_egui::egui;
use game_core::dice::banca_francesa::{self, Chance};
use game_host::kind::GameKind;
use game_host::kinds::banca_francesa::{BancaBet, BancaFrancesa, BancaRound, Golpe};
use game_host::round::Opening;
use game_host::session::{Lang, Session};
use meters::RoundRecall;

use super::DiceScreen;
use crate::layout::Area;
use crate::screens::KindPages;
use crate::screens::cloth::Cell;

pub struct BancaFrancesaScreenPlugin;

impl Plugin for BancaFrancesaScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, replay);
        super::add::<Banca>(app);
    }
}

pub struct Banca;

/// Where each chance stands on the cloth (design units).
pub fn cell_of(c: Chance) -> Area {
    let k = Chance::ALL.iter().position(|&x| x == c).unwrap_or(0) as f32;
    Area::new(700.0 + k * 400.0, 220.0, 380.0, 320.0)
}

fn sum_of(t: &[u8]) -> u8 {
    t.iter().sum()
}

impl DiceScreen for Banca {
    type K = BancaFrancesa;

    fn cells(s: &Session) -> Vec<Cell> {
        let pt = s.lang() == Lang::Pt;
        Chance::ALL
            .iter()
            .map(|&c| {
                let sums = match c {
                    Chance::Ases => "1-1-1",
                    Chance::Pequeno => "5 · 6 · 7",
                    Chance::Grande => "14 · 15 · 16",
                };
                Cell {
                    spot: serde_json::to_value(c).unwrap_or_default(),
                    area: cell_of(c),
                    label: format!("{}\n{sums}\n{}:1", c.name(pt).to_uppercase(), c.payout()),
                    fill: if c == Chance::Ases { Color::srgb(0.45, 0.08, 0.1) } else { Color::srgb(0.06, 0.3, 0.16) },
                    // Issue 45, defect 11: three places a player reads
                    // from across the room, not 14-px labels.
                    size: 40.0,
                    raised: false,
                }
            })
            .collect()
    }

    fn throws(round: &BancaRound) -> Vec<Vec<u8>> {
        round.golpe.throws.iter().map(|t| t.to_vec()).collect()
    }

    fn layout_of_round(round: &BancaRound) -> Vec<(serde_json::Value, u64)> {
        Self::layout(&round.bet)
    }

    fn layout(bet: &BancaBet) -> Vec<(serde_json::Value, u64)> {
        bet.spots.iter().map(|(c, v)| (serde_json::to_value(c).unwrap_or_default(), *v)).collect()
    }

    fn chip(bet: &BancaBet) -> u64 {
        bet.chip
    }

    fn result(s: &Session, round: &BancaRound) -> String {
        let pt = s.lang() == Lang::Pt;
        let Some(d) = round.golpe.decided() else { return String::new() };
        let last = round.golpe.throws.last().map_or(0, |t| sum_of(t));
        let mut lines = vec![format!("{} {} — {}", s.t("SAIU|out"), last, d.name(pt).to_uppercase())];
        let mut total = 0;
        for (c, stake, back) in round.settlement() {
            if back > 0 {
                lines.push(format!("{}: {stake} {} → {back}", c.name(pt), s.t("créd.")));
                total += back;
            }
        }
        if total > 0 {
            lines.push(format!("{} {total} {}", s.t("TOTAL DEVOLVIDO"), s.t("créditos")));
        }
        lines.join("\n")
    }

    /// The chance the decisive throw settled is lit (BF 4); the others lose.
    fn wins(spot: &serde_json::Value, round: &BancaRound) -> bool {
        serde_json::from_value::<Chance>(spot.clone()).is_ok_and(|c| round.golpe.decided() == Some(c))
    }

    fn undecided(s: &Session, throw: &[u8]) -> Option<String> {
        let throw: game_core::dice::Throw = throw.try_into().ok()?;
        banca_francesa::decides(&throw).is_none().then(|| format!("{} {}", sum_of(&throw), s.t("sem decisão")))
    }
}

fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == BancaFrancesa::OPENING) else { return false };
    let Ok(o) = serde_json::from_value::<Opening<BancaBet, Golpe>>(first.step.data.clone()) else { return false };
    let pt = s.lang() == Lang::Pt;
    // Issue 75: every throw of the golpe in pictures, the deciding one last.
    ui.heading(s.t("Lançamentos"));
    ui.horizontal_wrapped(|ui| {
        for t in &o.deal.throws {
            crate::screens::pictures::paint_throw(ui, t, &format!("= {}", sum_of(t)));
            ui.add_space(36.0);
        }
    });
    let round = BancaRound { bet: o.bet, golpe: o.deal };
    crate::screens::pictures::paint_settlement(
        ui,
        "banca-replay",
        s,
        round.settlement().into_iter().map(|(c, stake, back)| (c.name(pt).to_owned(), stake, back.to_string())),
    );
    true
}
