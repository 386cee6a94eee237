//! A bet of a table game with its exact figures (the dice tables and
//! baccarat): what `paytable check` prints for it, and the M-17 floor
//! held bet by bet.

use num_rational::BigRational;

use crate::artifact::CompiledGame;
use crate::floor::Floor;
use crate::roulette::pct;

/// One bet's exact figures.
#[derive(Clone, Debug)]
pub struct TableBet {
    pub name: String,
    /// The payout(s), "P:1".
    pub pays: String,
    pub rtp: BigRational,
    /// The probability that the bet wins, per round (per decision in
    /// banca francesa).
    pub hit: BigRational,
}

/// Every bet under the floor (M-17) or over 100 % (certification.md
/// B-12), named with its figure.
pub fn refusals(id: &str, bets: &[TableBet], floor: &Floor) -> Vec<String> {
    let one = BigRational::from_integer(1.into());
    let mut out = Vec::new();
    for b in bets {
        if b.rtp < *floor.value() {
            out.push(format!("{id}: the bet {} returns {}%, under the floor of {}% (M-17)", b.name, pct(&b.rtp), pct(floor.value())));
        }
        if b.rtp > one {
            out.push(format!("{id}: the bet {} returns {}%, over 100% (certification.md B-12)", b.name, pct(&b.rtp)));
        }
    }
    out
}

/// The artifact's figures: the lowest RTP of the table's bets (any mix of
/// bets returns at least that, being their staked average).
pub fn lowest(bets: &[TableBet]) -> Option<&TableBet> {
    bets.iter().min_by(|a, b| a.rtp.cmp(&b.rtp))
}

/// B-16 (issue 77): the wager categories a cabinet meters a table's rounds
/// in, each with its exact RTP, named as the cabinet names the bet a chip
/// stands on ("pt / en"): the table's bets as `bets` figures them, but
/// craps by spot (its figures are named in English only), fish-prawn-crab
/// by place (every place of a bet returns the bet's figure), and the
/// desafio's ante at the lower of going to war and surrendering (the
/// player's choice, the war's raise staked on it).
pub fn wager_categories(game: &CompiledGame, bets: &[TableBet]) -> Vec<(String, BigRational)> {
    let both = |pt: &str, en: &str| format!("{pt} / {en}");
    match game {
        CompiledGame::Craps(g) => g.spots.iter().map(|&s| (both(&s.name(true), &s.name(false)), crate::craps::spot_figures(s, g.bar).rtp)).collect(),
        CompiledGame::FishPrawnCrab(g) => g
            .bets
            .iter()
            .filter_map(|&b| Some((b, crate::fish_prawn_crab::bet_figures(b)?.rtp)))
            .flat_map(|(b, rtp)| b.spots().into_iter().map(move |s| (both(&s.name(true), &s.name(false)), rtp.clone())))
            .collect(),
        CompiledGame::DesafioAoCasino(g) => {
            use crate::desafio_ao_casino::{ante_figures, tie_bet_figures};
            let ante = std::cmp::min(ante_figures(g.decks, true).rtp, ante_figures(g.decks, false).rtp);
            let mut out = vec![(DESAFIO_ANTE.to_owned(), ante)];
            if g.tie_bet.is_some() {
                out.push((tie_bet_figures(g.decks).name, tie_bet_figures(g.decks).rtp));
            }
            out
        }
        _ => bets.iter().map(|b| (b.name.clone(), b.rtp.clone())).collect(),
    }
}

/// The desafio ao casino's ante as a wager category.
pub const DESAFIO_ANTE: &str = "aposta inicial / ante";

/// The figures as `paytable check` prints them.
pub fn report(title: &str, bets: &[TableBet]) -> String {
    // The names' column as wide as the longest name (at least 44).
    let w = bets.iter().map(|b| b.name.chars().count()).max().unwrap_or(0).max(44);
    let mut out = format!("{title}\n{:<w$} {:>14} {:>9} {:>9} {:>9}\n", "bet", "pays", "RTP exact", "RTP %", "hit %");
    for b in bets {
        out.push_str(&format!("{:<w$} {:>14} {:>9} {:>9} {:>9}\n", b.name, b.pays, b.rtp.to_string(), pct(&b.rtp), pct(&b.hit)));
    }
    if let Some(low) = lowest(bets) {
        out.push_str(&format!("whole table: every mix of bets returns at least {}% ({}, {})\n", pct(&low.rtp), low.rtp, low.name));
    }
    out
}
