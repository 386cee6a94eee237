//! Póquer sem descarte / stud poker (Caribbean stud) against the bank:
//! card-games.md §5 (PSD) and machines-and-bingo.md §3.1 (SP).
//!
//! One fresh 52-card deck per round (PSD-T1). The player antes (and may
//! place the jackpot side bet), gets five cards; the dealer gets five, the
//! last one face up (PSD 9). The player folds, losing the ante, or raises
//! exactly twice the ante (PSD 11, 13; SP-8). The dealer qualifies with
//! ace-king or better (PSD 15): if not, the ante wins 1:1 and the raise is
//! returned (SP-12); if so, the higher hand wins: the ante 1:1 and the raise
//! by the paytable (PSD 30, 31; SP-15), or both bets are lost (PSD 29).
//! Equal ranks are broken by suit (SP-17, the default) or push (PSD 26),
//! as the paytable says. A cap on the round's win (PSD 33) applies to the
//! ante and raise winnings.

use meters::GameRng;
use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::poker::{Category, at_least_ace_king, evaluate, evaluate_suited};

/// How hands of equal rank are settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieRule {
    /// SP-17: the suit decides (spades > hearts > clubs > diamonds); no pushes.
    SuitOrder,
    /// PSD 26: the player keeps both bets, with no win.
    Push,
}

/// The progressive side bet (PSD 35–42, SP-18 to SP-24): paid on the
/// player's five cards whether or not the dealer qualifies (PSD 40).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JackpotRule {
    /// The side bet, in credits.
    pub bet_credits: u64,
    /// Royal flush: the greater of this and 100% of the pool (SP-18).
    pub royal_fixed: u64,
    /// Straight flush: the greater of this and 10% of the pool (SP-18).
    pub straight_flush_fixed: u64,
    pub four_of_a_kind: u64,
    pub full_house: u64,
    pub flush: u64,
    /// The pool's start value: at least 10,000 times the side bet (PSD 41,
    /// seed 004 §10).
    pub start_value_credits: u64,
    /// Whether a folded hand still wins the side bet (SILENT in the text;
    /// an approval decision, PSD-T11).
    pub pays_on_fold: bool,
}

/// What the side bet pays: the amount, and how much of it comes out of
/// the pool (the rest is a fixed sum paid by the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JackpotAward {
    pub amount: u64,
    pub from_pool: u64,
}

impl JackpotRule {
    /// The award for the player's hand with the pool at `pool` credits.
    pub fn award(&self, category: Category, pool: u64) -> JackpotAward {
        let fixed = |amount| JackpotAward { amount, from_pool: 0 };
        let greater = |fixed_sum: u64, share: u64| {
            if share >= fixed_sum { JackpotAward { amount: share, from_pool: share } } else { JackpotAward { amount: fixed_sum, from_pool: 0 } }
        };
        match category {
            Category::RoyalFlush => greater(self.royal_fixed, pool),
            Category::StraightFlush => greater(self.straight_flush_fixed, pool / 10),
            Category::FourOfAKind => fixed(self.four_of_a_kind),
            Category::FullHouse => fixed(self.full_house),
            Category::Flush => fixed(self.flush),
            _ => fixed(0),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudPokerGame {
    pub id: String,
    pub name: String,
    /// What the raise pays, to 1, by the player's hand rank, high card
    /// first (PSD 30: 1, 1, 2, 3, 4, 5, 7, 20, 50, and 50 to 100 for the
    /// royal flush by SP-15).
    pub raise_pays: [u64; 10],
    pub tie_rule: TieRule,
    /// The antes offered, in credits (PSD 19–20: the largest at most 25
    /// times the smallest).
    pub antes: Vec<u64>,
    /// The most a round may win on the ante and the raise, in credits (PSD 33).
    pub max_win_credits: Option<u64>,
    pub jackpot: Option<JackpotRule>,
}

/// The round's cards: the dealer's last card is the one shown (PSD 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudDeal {
    pub player: [Card; 5],
    pub dealer: [Card; 5],
}

impl StudDeal {
    pub fn dealer_up_card(&self) -> Card {
        self.dealer[4]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// "Vou": a second bet of exactly twice the ante.
    Raise,
    /// "Passo": the ante is lost (PSD 11).
    Fold,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Folded,
    DealerDoesNotQualify,
    PlayerWins,
    DealerWins,
    Push,
}

/// The settlement of the ante and raise (the side bet is separate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settlement {
    pub outcome: Outcome,
    pub player: Category,
    pub dealer: Category,
    /// Credits staked on the ante and raise.
    pub staked: u64,
    /// Credits returned to the player: stakes back plus winnings.
    pub returned: u64,
}

impl StudPokerGame {
    /// The one deck the round is dealt from (B-18).
    pub const fn pack() -> crate::cards::Pack {
        crate::cards::Pack::deck(false)
    }

    pub fn deal(&self, rng: &mut impl GameRng) -> StudDeal {
        let pack = Self::pack();
        let idx = rng.draw_without_replacement(pack.size(), 10);
        let card = |i: usize| pack.card(idx[i]);
        StudDeal { player: std::array::from_fn(card), dealer: std::array::from_fn(|i| card(i + 5)) }
    }

    /// Whether the player's hand beats the dealer's, loses, or ties.
    pub fn compare(&self, player: &[Card; 5], dealer: &[Card; 5]) -> std::cmp::Ordering {
        match self.tie_rule {
            TieRule::SuitOrder => evaluate_suited(player).cmp(&evaluate_suited(dealer)),
            TieRule::Push => evaluate(player).cmp(&evaluate(dealer)),
        }
    }

    /// Winnings on a won round before the cap: the ante 1:1 and the raise
    /// (2 × ante) by the paytable.
    pub fn winnings(&self, ante: u64, player: Category) -> u64 {
        let w = ante + 2 * ante * self.raise_pays[player as usize];
        self.max_win_credits.map_or(w, |cap| w.min(cap))
    }

    pub fn settle(&self, deal: &StudDeal, ante: u64, decision: Decision) -> Settlement {
        let player = evaluate(&deal.player).category();
        let dealer_value = evaluate(&deal.dealer);
        let dealer = dealer_value.category();
        if decision == Decision::Fold {
            return Settlement { outcome: Outcome::Folded, player, dealer, staked: ante, returned: 0 };
        }
        let staked = 3 * ante;
        let (outcome, returned) = if !at_least_ace_king(dealer_value) {
            // SP-12: the ante is paid 1:1, the raise returned.
            let win = self.max_win_credits.map_or(ante, |cap| ante.min(cap));
            (Outcome::DealerDoesNotQualify, staked + win)
        } else {
            match self.compare(&deal.player, &deal.dealer) {
                std::cmp::Ordering::Greater => (Outcome::PlayerWins, staked + self.winnings(ante, player)),
                std::cmp::Ordering::Less => (Outcome::DealerWins, 0),
                std::cmp::Ordering::Equal => (Outcome::Push, staked),
            }
        };
        Settlement { outcome, player, dealer, staked, returned }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn standard() -> StudPokerGame {
        StudPokerGame {
            id: "stud".into(),
            name: "Póquer sem descarte".into(),
            raise_pays: [1, 1, 2, 3, 4, 5, 7, 20, 50, 100],
            tie_rule: TieRule::SuitOrder,
            antes: vec![1, 5, 25],
            max_win_credits: None,
            jackpot: None,
        }
    }

    fn deal(p: &str, d: &str) -> StudDeal {
        let h = |s: &str| crate::cards::parse_hand(&[s.to_owned()]).unwrap();
        StudDeal { player: h(p), dealer: h(d) }
    }

    #[test]
    fn settlement_follows_psd_and_sp() {
        let g = standard();
        // Fold: the ante is lost (PSD 11).
        let s = g.settle(&deal("As Ks Qs Js Ts", "2d 3c 4h 5s 7d"), 10, Decision::Fold);
        assert_eq!((s.outcome, s.staked, s.returned), (Outcome::Folded, 10, 0));
        // The dealer does not qualify (Q high): ante 1:1, raise returned.
        let s = g.settle(&deal("As Ks Qs Js Ts", "2d 3c 4h 9s Qd"), 10, Decision::Raise);
        assert_eq!((s.outcome, s.returned), (Outcome::DealerDoesNotQualify, 30 + 10));
        // Qualified dealer, player's royal: ante 1:1 + raise 100:1.
        let s = g.settle(&deal("As Ks Qs Js Ts", "Ad Kc 4h 9h Qd"), 10, Decision::Raise);
        assert_eq!((s.outcome, s.returned), (Outcome::PlayerWins, 30 + 10 + 20 * 100));
        // Dealer higher: both bets lost (PSD 29).
        let s = g.settle(&deal("Ah Kh 4d 9c Qc", "2d 2c 4h 9s Qd"), 10, Decision::Raise);
        assert_eq!((s.outcome, s.returned), (Outcome::DealerWins, 0));
        // Same ranks: spades beat hearts (SP-17) …
        let s = g.settle(&deal("As Kh 4d 9c Qc", "Ah Ks 4h 9s Qd"), 10, Decision::Raise);
        assert_eq!((s.outcome, s.returned), (Outcome::PlayerWins, 30 + 10 + 20));
        // … or push under PSD 26.
        let push = StudPokerGame { tie_rule: TieRule::Push, ..standard() };
        let s = push.settle(&deal("As Kh 4d 9c Qc", "Ah Ks 4h 9s Qd"), 10, Decision::Raise);
        assert_eq!((s.outcome, s.returned), (Outcome::Push, 30));
        // The cap (PSD 33) bounds the winnings.
        let capped = StudPokerGame { max_win_credits: Some(500), ..standard() };
        let s = capped.settle(&deal("As Ks Qs Js Ts", "Ad Kc 4h 9h Qd"), 10, Decision::Raise);
        assert_eq!(s.returned, 30 + 500);
    }

    #[test]
    fn jackpot_pays_the_greater_of_fixed_sum_and_share() {
        let j = JackpotRule {
            bet_credits: 1,
            royal_fixed: 5_000,
            straight_flush_fixed: 500,
            four_of_a_kind: 100,
            full_house: 75,
            flush: 50,
            start_value_credits: 10_000,
            pays_on_fold: true,
        };
        assert_eq!(j.award(Category::RoyalFlush, 12_345), JackpotAward { amount: 12_345, from_pool: 12_345 });
        assert_eq!(j.award(Category::RoyalFlush, 4_000), JackpotAward { amount: 5_000, from_pool: 0 });
        assert_eq!(j.award(Category::StraightFlush, 12_345), JackpotAward { amount: 1_234, from_pool: 1_234 });
        assert_eq!(j.award(Category::StraightFlush, 4_000), JackpotAward { amount: 500, from_pool: 0 });
        assert_eq!(j.award(Category::FullHouse, 4_000).amount, 75);
        assert_eq!(j.award(Category::Straight, 4_000).amount, 0);
    }
}
