//! The rules a table of blackjack is dealt by: the seed's (card-games.md
//! §1, decisions.md "Blackjack") by default, the usual casino variants as
//! parameters of the paytable. Every rule the engine plays, the exact
//! analysis ([`super::odds`]) reads from the same value.

use crate::ratio::gcd;
use serde::{Deserialize, Serialize};

/// What a dealer blackjack, found when the hole card is turned at the
/// dealer's turn, takes from doubled and split hands (BJ-T13, SILENT in the
/// text: decisions.md picks "takes all").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DealerBlackjack {
    /// Every stake on the table is lost, the doubles' and splits' too:
    /// the letter of the rules and the default.
    TakesAll,
    /// Only the original bet is lost; the extra stakes are returned
    /// (Macau's rule, an option).
    OriginalBetOnly,
}

/// Whether the dealer looks under a ten or an ace for blackjack before the
/// player decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HoleCard {
    /// The dealer checks ("peeks") once insurance is settled: a blackjack
    /// ends the round at once and takes the original bet only.
    Peek,
    /// No peek (BJ 20, BJ 47, BJ 50: the dealer's blackjack is known only
    /// when the hole card is turned after every player has acted).
    NoPeek(DealerBlackjack),
}

/// Which first two cards may be doubled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DoubleOn {
    AnyTwo,
    /// A hard 9, 10 or 11 (BJ 25).
    NineToEleven,
    TenToEleven,
}

impl DoubleOn {
    /// Whether a hard two-card total (aces counted 1) may be doubled.
    pub fn hard(self, total: u8) -> bool {
        match self {
            DoubleOn::AnyTwo => true,
            DoubleOn::NineToEleven => (9..=11).contains(&total),
            DoubleOn::TenToEleven => (10..=11).contains(&total),
        }
    }
}

/// Surrender: half the bet lost, the hand given up (BJ 28).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Surrender {
    /// Early: the half is all that is lost even when the dealer then turns
    /// a blackjack (the seed's, since it has no peek: BJ-T8). Late: a dealer
    /// blackjack takes the whole bet (with a peek, surrender is offered only
    /// once the dealer has none).
    pub early: bool,
    /// Whether surrender is offered against an ace (the seed: no, BJ 28).
    pub against_ace: bool,
}

/// What a blackjack wins per unit bet: `win` for `per` (3 for 2, 6 for 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payout {
    pub win: u64,
    pub per: u64,
}

impl Payout {
    /// The payout in its lowest terms (30:20 is 3:2; a paytable's
    /// 18446744073709551615:18446744073709551615 is 1:1): what is paid.
    pub fn reduced(self) -> Payout {
        let g = gcd(self.win, self.per).max(1);
        Payout { win: self.win / g, per: self.per / g }
    }
}

/// The rules of the game, one value for the engine, the analysis and the
/// paytable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Decks in the shoe, reshuffled before every hand (BJ 2b: 4 or 6 in
    /// the seed; 1 to 8 as a variant).
    pub decks: u8,
    /// H17: the dealer hits a soft 17. The seed stands on every 17 (BJ 22).
    pub dealer_hits_soft_17: bool,
    pub hole_card: HoleCard,
    pub double_on: DoubleOn,
    /// may be doubled as a hard 9 or 10, the ace then counting 1
    /// to the end of the hand (BJ 27); only where `double_on` is a range.
    pub double_soft_as_hard: bool,
    /// DAS (BJ 26).
    pub double_after_split: bool,
    /// The most hands a round may split into; none: unlimited (BJ 23).
    pub split_hands: Option<u8>,
    pub resplit_aces: bool,
    /// Whether split aces are played on (the seed: one card each, BJ 23).
    pub hit_split_aces: bool,
    /// Whether two unequal ten-value cards (K-10) may be split: the
    /// literal reading of BJ 23 ("com o mesmo valor").
    pub split_unequal_tens: bool,
    pub surrender: Option<Surrender>,
    pub blackjack_pays: Payout,
    /// The least total a player may stand on: 12 in the seed ("superior a
    /// 11", BJ 21), 0 where any total may stand.
    pub stand_from: u8,
    /// The 6-7-8 of one suit or 7-7-7 as a hand's first three cards pays
    /// this many times the bet on top of the hand's result (BJ 48); 0: none.
    pub bonus_678_777: u64,
    /// Insurance (at most half the bet, 2:1, BJ 50) and even money (BJ 47)
    /// against an ace.
    pub insurance: bool,
    /// Whether a blackjack against an ace is offered even money (1:1 at
    /// once, BJ 47) where insurance is offered; without it, the blackjack
    /// is offered insurance like any other hand. At 3:2 the two are worth
    /// the same; at 6:5 even money is worth more to the player (issue 49:
    /// +0.06 points on a 6-deck 6:5 game), so a 6:5 table may withhold
    /// it. Absent from a paytable: offered (the seed's).
    #[serde(default = "offered", skip_serializing_if = "is_offered")]
    pub even_money: bool,
}

fn offered() -> bool {
    true
}

fn is_offered(b: &bool) -> bool {
    *b
}

/// A rule set the engine cannot deal, by name.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RulesError {
    #[error("{0} decks: a shoe holds 1 to 8 decks")]
    Decks(u8),
    #[error("split to {0} hands: a split makes at least 2 hands")]
    SplitHands(u8),
    #[error("a blackjack paying {0}:{1} is not a payout (1:1 to 2:1 in terms up to 100 once reduced, like 3:2 or 6:5)")]
    BlackjackPays(u64, u64),
    #[error("standing from {0}: a player may be kept from standing at most up to 11 (BJ 21)")]
    StandFrom(u8),
    #[error("a bonus of {0} times the bet is beyond the 100 times this engine carries")]
    Bonus(u64),
    #[error("doubling soft hands as hard ones (BJ 27) needs a double on a range of totals, not on any two cards")]
    SoftAsHard,
}

impl RulesError {
    /// The field of [`Rules`] the problem is in (a paytable names its line).
    pub fn field(&self) -> &'static str {
        match self {
            RulesError::Decks(_) => "decks",
            RulesError::SplitHands(_) => "split_hands",
            RulesError::BlackjackPays(..) => "blackjack_pays",
            RulesError::StandFrom(_) => "stand_from",
            RulesError::Bonus(_) => "bonus_678_777",
            RulesError::SoftAsHard => "double_soft_as_hard",
        }
    }
}

/// The largest term of a blackjack payout once reduced (3:2, 6:5, 7:5…).
pub const MAX_PAYOUT_TERM: u64 = 100;

impl Rules {
    /// The seed's rules exactly (decisions.md, Blackjack; card-games.md
    /// A.1 FIXED): 6 decks, S17, no peek and a dealer blackjack takes all,
    /// double on 9–11 with as hard, DAS, unlimited resplits (aces
    /// too, BJ 23's literal reading), split aces one card, unequal tens
    /// split, surrender half except against an ace, blackjack 3:2, stand
    /// only above 11, the 3× bonus, insurance and even money.
    pub const fn seed() -> Rules {
        Rules {
            decks: 6,
            dealer_hits_soft_17: false,
            hole_card: HoleCard::NoPeek(DealerBlackjack::TakesAll),
            double_on: DoubleOn::NineToEleven,
            double_soft_as_hard: true,
            double_after_split: true,
            split_hands: None,
            resplit_aces: true,
            hit_split_aces: false,
            split_unequal_tens: true,
            surrender: Some(Surrender { early: true, against_ace: false }),
            blackjack_pays: Payout { win: 3, per: 2 },
            stand_from: 12,
            bonus_678_777: 3,
            insurance: true,
            even_money: true,
        }
    }

    /// The rules as an engine can deal them.
    pub fn check(&self) -> Result<(), RulesError> {
        if !(1..=8).contains(&self.decks) {
            return Err(RulesError::Decks(self.decks));
        }
        if let Some(n) = self.split_hands
            && n < 2
        {
            return Err(RulesError::SplitHands(n));
        }
        let Payout { win, per } = self.blackjack_pays;
        // Reduced first (30:20 is 3:2), compared in u128: no term of a
        // paytable's can overflow the check (issue 49).
        let g = gcd(win, per).max(1);
        let (w, p) = (win / g, per / g);
        if per == 0 || w < p || u128::from(w) > 2 * u128::from(p) || p > MAX_PAYOUT_TERM {
            return Err(RulesError::BlackjackPays(win, per));
        }
        if self.stand_from > 12 {
            return Err(RulesError::StandFrom(self.stand_from));
        }
        if self.bonus_678_777 > 100 {
            return Err(RulesError::Bonus(self.bonus_678_777));
        }
        if self.double_soft_as_hard && self.double_on == DoubleOn::AnyTwo {
            return Err(RulesError::SoftAsHard);
        }
        Ok(())
    }

    /// Whether the dealer peeks.
    pub fn peeks(&self) -> bool {
        self.hole_card == HoleCard::Peek
    }

    /// The smallest bet, in units of the bet's money, whose every return is
    /// whole: a blackjack's `win/per`, and the halves of surrender and
    /// insurance. `None` for a payout [`Self::check`] refuses (no step of
    /// it is computed, issue 49).
    pub fn bet_step(&self) -> Option<u64> {
        let Payout { win, per } = self.blackjack_pays;
        let g = gcd(win, per);
        let bj = per / g.max(1);
        if bj == 0 || bj > MAX_PAYOUT_TERM {
            return None;
        }
        let halves = if self.surrender.is_some() || self.insurance { 2 } else { 1 };
        Some(bj * halves / gcd(bj, halves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_rules_are_dealable_and_bad_ones_are_named() {
        assert_eq!(Rules::seed().check(), Ok(()));
        assert_eq!(Rules::seed().bet_step(), Some(2), "3:2 and the halves: an even bet");
        let six_five = Rules { blackjack_pays: Payout { win: 6, per: 5 }, ..Rules::seed() };
        assert_eq!(six_five.bet_step(), Some(10));
        // Issue 49: terms at the edge of u64 are refused, never overflowed.
        for (win, per) in [(u64::MAX, u64::MAX - 1), (1, 9_223_372_036_854_775_809), (u64::MAX, 0), (0, u64::MAX), (151, 101)] {
            let r = Rules { blackjack_pays: Payout { win, per }, ..Rules::seed() };
            assert_eq!(r.check(), Err(RulesError::BlackjackPays(win, per)), "{win}:{per}");
            let _ = r.bet_step();
        }
        assert_eq!(Payout { win: u64::MAX, per: u64::MAX }.reduced(), Payout { win: 1, per: 1 });
        assert_eq!(Payout { win: 30, per: 20 }.reduced(), Payout { win: 3, per: 2 });
        let reduced = Rules { blackjack_pays: Payout { win: u64::MAX, per: u64::MAX }, ..Rules::seed() };
        assert_eq!((reduced.check(), reduced.bet_step()), (Ok(()), Some(2)), "1:1 in large terms");
        assert_eq!(Rules { decks: 9, ..Rules::seed() }.check(), Err(RulesError::Decks(9)));
        assert_eq!(Rules { split_hands: Some(1), ..Rules::seed() }.check(), Err(RulesError::SplitHands(1)));
        assert_eq!(Rules { blackjack_pays: Payout { win: 5, per: 2 }, ..Rules::seed() }.check(), Err(RulesError::BlackjackPays(5, 2)));
        assert_eq!(Rules { double_on: DoubleOn::AnyTwo, ..Rules::seed() }.check(), Err(RulesError::SoftAsHard));
        assert!(DoubleOn::NineToEleven.hard(9) && DoubleOn::NineToEleven.hard(11) && !DoubleOn::NineToEleven.hard(8));
        assert!(!DoubleOn::TenToEleven.hard(9) && DoubleOn::AnyTwo.hard(4));
    }
}
