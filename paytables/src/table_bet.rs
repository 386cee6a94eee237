//! A bet of a table game with its exact figures (the dice tables and
//! baccarat): what `paytable check` prints for it, and the M-17 floor
//! held bet by bet.

use num_rational::BigRational;

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
