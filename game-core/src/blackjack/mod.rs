//! Video blackjack/21 (card-games.md §1, A.1; decisions.md, Blackjack):
//! the seed's rules exactly by default, the usual casino variants as
//! parameters ([`rules::Rules`]).
//!
//! A round is dealt from a whole shoe the core shuffles and commits before
//! the first card is shown (reshuffled before every hand, the continuous
//! shuffler of BJ 35, BJ-T2 (i)); the player's decisions move it on
//! ([`round::Round`]); the dealer then plays by the rules and the round is
//! settled in whole units of the bet's money.
//!
//! [`odds`] computes the game's return under optimal composition-dependent
//! play: the paytable compiler and the cabinet's help share it.

pub mod hand;
pub mod odds;
pub mod round;
pub mod rules;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Pack};
use meters::GameRng;
pub use round::{Action, Outcome, Phase, Round, Settlement};
pub use rules::Rules;

/// A table of blackjack as its paytable sets it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlackjackGame {
    pub id: String,
    pub name: String,
    pub rules: Rules,
    /// The table minimum, in credits: every bet is a multiple of it, up to
    /// 30 times it (BJ 8, 17, BJ-T15).
    pub minimum: u64,
    /// The maximum as a multiple of the minimum (at most 30, BJ 8).
    pub maximum_ratio: u64,
}

impl BlackjackGame {
    pub fn shoe_size(&self) -> usize {
        self.pack().size()
    }

    /// The shoe the round is dealt from (B-18).
    pub fn pack(&self) -> Pack {
        Pack::decks(self.rules.decks)
    }

    pub fn maximum(&self) -> u64 {
        self.minimum.saturating_mul(self.maximum_ratio)
    }

    /// Whether `bet` credits is a bet of this table: a multiple of the
    /// minimum, up to the maximum (BJ 17).
    pub fn offers(&self, bet: u64) -> bool {
        bet >= self.minimum && bet <= self.maximum() && self.minimum > 0 && bet.is_multiple_of(self.minimum)
    }

    /// The round's shoe: every card of every deck, in the order a fresh
    /// shuffle by the core deals them.
    pub fn shuffle(&self, rng: &mut impl GameRng) -> Vec<Card> {
        let n = self.shoe_size();
        let pack = self.pack();
        rng.draw_without_replacement(n, n).into_iter().map(|i| pack.card(i)).collect()
    }
}
