//! Video roulette, French and American (AR 1–60, FR 1–54): the wheels,
//! the cloth and its chances, the call bets, the table limits, the spin
//! and the settlement, spot by spot. One pocket is drawn uniformly when
//! betting closes ("rien ne va plus": the bet is fixed before the draw).

pub mod calls;
pub mod layout;
pub mod wheel;

use meters::GameRng;
use serde::{Deserialize, Serialize};

pub use calls::CallBet;
pub use layout::{Chance, Spot, inside_bets};
pub use wheel::{DOUBLE_ZERO, PocketColour, RED, Wheel, colour, pocket_name};

/// The most a table may allow on a spot: 30 × the minimum per number
/// covered (AR 21 a–b, FR 20).
pub const MAX_RATIO_PER_NUMBER: u64 = 30;

/// A roulette table: its wheel and limits (an approved paytable).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouletteGame {
    pub id: String,
    pub name: String,
    pub wheel: Wheel,
    /// The table minimum on a spot, in credits (FR 19).
    pub minimum: u64,
    /// The maximum on a spot per number it covers, as a multiple of the
    /// minimum (at most 30, AR 21).
    pub ratio_per_number: u64,
    /// The chip values the player picks from, in credits.
    pub chips: Vec<u64>,
    /// Whether the 0-00-1-2-3 bet (6:1) is offered (American 38 only).
    pub top_line: bool,
    /// Whether call bets are offered (French numbering only).
    pub call_bets: bool,
}

/// A bet on the cloth: each spot once, with its stake in credits.
pub type Layout = Vec<(Spot, u64)>;

/// Why a bet is not allowed on this table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LimitError {
    /// The spot is not on this wheel's cloth.
    NotOnCloth(Spot),
    /// A spot under the table minimum.
    UnderMinimum { spot: Spot, minimum: u64 },
    /// A spot over its maximum (30 × the minimum per number covered).
    OverMaximum { spot: Spot, maximum: u64 },
    /// A ½:1 bet of an odd number of credits (decisions.md).
    OddHalfPay { spot: Spot },
    /// Call bets on a table without them (AR 20: French numbering only).
    NoCallBets,
    /// A series of more units than AR 21 c allows.
    SeriesOverMaximum { bet: CallBet, units: u64, maximum: u64 },
    /// Not a call bet of the text (neighbours other than 1–3 a side, …).
    NotACallBet(CallBet),
}

impl RouletteGame {
    /// One spot of `chance` on this table's cloth, standing for every spot
    /// of the chance (each has the same figures); `None` where the cloth
    /// has no spot of it (a top line on a single-zero wheel).
    pub fn representative_spot(&self, chance: Chance) -> Option<Spot> {
        match chance {
            Chance::Dozen => Some(Spot::Dozen(1)),
            Chance::Column => Some(Spot::Column(1)),
            Chance::TwoDozens => Some(Spot::TwoDozens(1)),
            Chance::TwoColumns => Some(Spot::TwoColumns(1)),
            Chance::EvenChance => Some(Spot::Red),
            _ => inside_bets(self.wheel, self.top_line).into_iter().map(Spot::Numbers).find(|s| s.chance() == chance),
        }
    }

    /// The most a spot may hold (AR 21, FR 20).
    pub fn maximum(&self, spot: &Spot) -> u64 {
        self.minimum.saturating_mul(self.ratio_per_number).saturating_mul(spot.numbers_covered())
    }

    /// Check one spot's stake against the table.
    pub fn check_spot(&self, spot: &Spot, stake: u64) -> Result<(), LimitError> {
        if !spot.on_cloth(self.wheel, self.top_line) {
            return Err(LimitError::NotOnCloth(spot.clone()));
        }
        if stake < self.minimum {
            return Err(LimitError::UnderMinimum { spot: spot.clone(), minimum: self.minimum });
        }
        if stake > self.maximum(spot) {
            return Err(LimitError::OverMaximum { spot: spot.clone(), maximum: self.maximum(spot) });
        }
        if spot.chance().payout().1 == 2 && !stake.is_multiple_of(2) {
            return Err(LimitError::OddHalfPay { spot: spot.clone() });
        }
        Ok(())
    }

    /// Check a whole layout: every spot once, each within the limits.
    pub fn check(&self, layout: &Layout) -> Result<(), LimitError> {
        for (i, (spot, stake)) in layout.iter().enumerate() {
            if layout[..i].iter().any(|(s, _)| s == spot) {
                return Err(LimitError::NotOnCloth(spot.clone()));
            }
            self.check_spot(spot, *stake)?;
        }
        Ok(())
    }

    /// The chips a call bet of `unit` credits a chip places, checked
    /// against the series maxima (AR 21 c: a unit is at most 15, 20 or 10
    /// table minimums).
    pub fn call_chips(&self, bet: CallBet, unit: u64) -> Result<Vec<(Spot, u64)>, LimitError> {
        if !self.call_bets || !self.wheel.call_bets_allowed() {
            return Err(LimitError::NoCallBets);
        }
        let chips = bet.chips(self.wheel).ok_or(LimitError::NotACallBet(bet))?;
        if let Some(max) = bet.max_units() {
            let units = unit / self.minimum.max(1);
            if unit > max.saturating_mul(self.minimum) {
                return Err(LimitError::SeriesOverMaximum { bet, units, maximum: max });
            }
        }
        Ok(chips.into_iter().map(|(s, u)| (s, u.saturating_mul(unit))).collect())
    }

    /// The credits a layout stakes.
    pub fn staked(layout: &Layout) -> u64 {
        layout.iter().fold(0u64, |t, (_, s)| t.saturating_add(*s))
    }

    /// Rien ne va plus: one pocket, uniformly over the wheel.
    pub fn spin(&self, rng: &mut impl GameRng) -> u8 {
        let s = self.wheel.sequence();
        s[rng.index(s.len())]
    }

    /// Every spot of the layout with what it returns on `pocket` (AR 42:
    /// the stake and its prize, or nothing).
    pub fn settle(layout: &Layout, pocket: u8) -> Vec<(Spot, u64, u64)> {
        layout.iter().map(|(spot, stake)| (spot.clone(), *stake, spot.returned(*stake, pocket))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> RouletteGame {
        RouletteGame {
            id: "t".into(),
            name: "T".into(),
            wheel: Wheel::French,
            minimum: 2,
            ratio_per_number: 30,
            chips: vec![2, 10, 50],
            top_line: false,
            call_bets: true,
        }
    }

    /// §4.8: the minimum, 30 × the minimum per number, and even stakes on
    /// the ½:1 bets, each refused by name.
    #[test]
    fn the_limits_are_refused_by_name() {
        let t = table();
        let straight = Spot::Numbers(vec![17]);
        assert_eq!(t.maximum(&straight), 60);
        assert_eq!(t.maximum(&Spot::Red), 2 * 540);
        assert_eq!(t.maximum(&Spot::TwoDozens(1)), 2 * 720);
        assert_eq!(t.maximum(&Spot::Numbers(vec![1, 2, 3, 4, 5, 6])), 2 * 180);
        assert!(t.check_spot(&straight, 60).is_ok());
        assert_eq!(t.check_spot(&straight, 61), Err(LimitError::OverMaximum { spot: straight.clone(), maximum: 60 }));
        assert_eq!(t.check_spot(&straight, 1), Err(LimitError::UnderMinimum { spot: straight.clone(), minimum: 2 }));
        assert_eq!(t.check_spot(&Spot::TwoColumns(2), 7), Err(LimitError::OddHalfPay { spot: Spot::TwoColumns(2) }));
        assert!(t.check_spot(&Spot::TwoColumns(2), 8).is_ok());
        assert_eq!(t.check_spot(&Spot::Numbers(vec![3, 4]), 2), Err(LimitError::NotOnCloth(Spot::Numbers(vec![3, 4]))));
        assert!(t.check(&vec![(Spot::Red, 2), (Spot::Red, 2)]).is_err(), "a spot is listed once");
    }

    #[test]
    fn call_bets_are_placed_as_their_chips_within_the_series_maxima() {
        let t = table();
        let chips = t.call_chips(CallBet::Voisins, 4).unwrap();
        assert_eq!(chips[0], (Spot::Numbers(vec![0, 2, 3]), 8));
        assert_eq!(chips.iter().map(|c| c.1).sum::<u64>(), 36);
        assert!(t.call_chips(CallBet::Voisins, 30).is_ok(), "15 units of the minimum");
        assert_eq!(t.call_chips(CallBet::Voisins, 32), Err(LimitError::SeriesOverMaximum { bet: CallBet::Voisins, units: 16, maximum: 15 }));
        assert!(t.call_chips(CallBet::Tiers, 40).is_ok());
        assert!(t.call_chips(CallBet::Tiers, 42).is_err());
        assert!(t.call_chips(CallBet::Orphelins, 20).is_ok());
        assert!(t.call_chips(CallBet::Orphelins, 22).is_err());
        let american = RouletteGame { wheel: Wheel::American38, ..table() };
        assert_eq!(american.call_chips(CallBet::Tiers, 2), Err(LimitError::NoCallBets));
    }

    /// §4.2: the spin is uniform over the wheel (a chi-square over a
    /// million spins of the production generator, at 99%).
    #[test]
    fn the_spin_is_uniform_over_the_pockets() {
        for wheel in [Wheel::French, Wheel::American38] {
            let t = RouletteGame { wheel, ..table() };
            let mut rng = meters::rng::StreamRng::from_seed(7);
            let n = 1_000_000u64;
            let mut counts = [0u64; 38];
            for _ in 0..n {
                counts[usize::from(t.spin(&mut rng))] += 1;
            }
            let k = wheel.pockets();
            let expected = n as f64 / k as f64;
            let chi2: f64 = counts[..k as usize].iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum();
            // The 99% points of chi-square with 36 and 37 degrees of freedom.
            let critical = if k == 37 { 58.619 } else { 59.893 };
            assert!(chi2 < critical, "{wheel:?}: chi-square {chi2:.2} over {critical}");
            assert!(counts[..k as usize].iter().all(|&c| c > 0));
        }
    }
}
